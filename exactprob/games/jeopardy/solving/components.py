r"""One score component of a jeopardy game, solved as affine forms in its unknowns.

A component is the pair of scores :math:`\{i, j\}`: the states where one player has
:math:`i` banked and the other :math:`j`. Holding banks a positive turn total, so it
leaves the component for a higher score sum, whose values are already known when
components are taken from high sums to low. The only way back into a state of the
component is a bust into a turn start; every bust ends in one of the *reset* states
:math:`X_s = P(a_s, b_s, 0, \text{fresh})` of the component's sides
:math:`s \in \{(i, j), (j, i)\}` (directly in Pig, after the reshuffle in Fowl Play,
with the decks in between computed in order). So with the :math:`X_s` as unknowns and
a choice fixed in every state, each state value is an affine form

.. math::

    P(a, b, k, d) = c_0 + \sum_s c_s X_s,

computed by one backward pass over decks and turn totals:

.. math::

    P_\text{draw} = \sum_{\text{bust}} p\,\bigl(1 - P(b, a, 0, d')\bigr)
        + \sum_{\text{gain } g} p\, P(a, b, k + g, d'),
    \qquad P_\text{hold} = 1 - P(b, a + k, 0, d).

The reset states' own forms then give a linear system of one or two equations.

>>> from fractions import Fraction
>>> from exactprob.games.jeopardy.rules import Pig
>>> forms = component_forms(Pig(goal=2), [(1, 1)], lambda s, a, d: None, Fraction, None)
>>> [str(c) for c in forms.table[0][0][0]]  # P(1,1,0) = 1/6 (1 - X) + 5/6
['1', '-1/6']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gmpy2 import mpq

__all__ = [
    "Form",
    "Forms",
    "Point",
    "Starts",
    "at",
    "component_forms",
    "components_in_order",
    "held",
    "partners",
    "reach_forms",
    "sides_of",
    "solve_resets",
]

Form = list[Any]  # [c0, c_1, ..., c_n]: c0 + sum c_s X_s
Point = list[Any]
"""The values of a component's unknowns (its reset values), in a form's order."""
Starts = dict[tuple[int, int, Hashable], Any]
"""Turn-start values ``{(a, b, deck): value}``."""
Decide = Callable[[int, Hashable, int, Form, Any], Form] | None
HoldValue = Callable[[int, int, Hashable], Any]
"""``hold_value(s, banked, deck)``: the value of holding on side ``s`` with ``banked``."""


@dataclass
class Forms:
    """The affine form of every state of a component.

    ``table[s][deck][k]`` is the form of side ``s`` at turn total ``k``; ``visits`` is
    every state where the mover had a choice, in pass order, as
    ``(s, deck, k, draw form, hold)``.
    """

    table: list[dict[Hashable, list[Form]]]
    visits: list[tuple[int, Hashable, int, Form, Any]] = field(default_factory=list)


def components_in_order(goal: int) -> Iterator[tuple[int, int]]:
    """Components ``(i, j)`` with ``i <= j < goal``, highest score sum first.

    >>> list(components_in_order(2))
    [(1, 1), (0, 1), (0, 0)]
    """
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), total // 2 + 1):
            yield i, total - i


def sides_of(i: int, j: int) -> list[tuple[int, int]]:
    """The sides ``(mover's score, other's score)`` of the component ``{i, j}``.

    >>> sides_of(3, 5), sides_of(4, 4)
    ([(3, 5), (5, 3)], [(4, 4)])
    """
    return [(i, j)] if i == j else [(i, j), (j, i)]


def component_forms(
    game: Any,
    sides: Sequence[tuple[int, int]],
    hold_value: HoldValue,
    unit: Callable[[Any], Any],
    decide: Decide,
    partner: Sequence[int] | None = None,
    known: Mapping[int, dict[Hashable, list[Form]]] | None = None,
) -> Forms:
    """Every state's form, deck by deck (in ``game.decks()`` order), turn totals from high
    to low. ``hold_value(s, a + k, deck)`` is the known value of holding on side ``s``,
    ``unit`` converts probabilities to the number type, ``decide(s, deck, k, draw form,
    hold)`` returns the form chosen where there is a choice (``None``: always draw), and
    ``partner[s]`` is the side whose turn a bust on side ``s`` starts (default: the side
    with the scores swapped). ``known[s]`` are side ``s``'s forms from an earlier call,
    taken as they are (no visits): in a one-deck game a side's forms read no other side's,
    so a side whose choices are fixed has the same forms in every call."""
    n = len(sides)
    other_side = partners(sides) if partner is None else partner
    zero = unit(0)
    goal, fresh = game.goal, game.fresh
    forms = Forms([{} for _ in sides])
    table, visits = forms.table, forms.visits
    for deck in game.decks():
        draws = [(unit(p), gain, after) for p, gain, after in game.draws(deck)]
        for s, (a, b) in enumerate(sides):
            if known and s in known:
                table[s][deck] = known[s][deck]
                continue
            room = goal - a
            top = min(game.max_turn_total(deck), room - 1)
            column: list[Form] = [[]] * (top + 1)
            bust_reset = 1 + other_side[s]
            for k in range(top, -1, -1):
                form = [zero] * (n + 1)
                for p, gain, after in draws:
                    if gain == 0:  # the other player's turn starts: 1 - P(b, a, 0, after)
                        form[0] += p
                        if after == fresh:
                            form[bust_reset] -= p
                        else:
                            target = table[other_side[s]][after][0]
                            for t in range(n + 1):
                                form[t] -= p * target[t]
                    elif k + gain >= room:
                        form[0] += p
                    else:
                        target = column[k + gain] if after == deck else table[s][after][k + gain]
                        for t in range(n + 1):
                            form[t] += p * target[t]
                if k > 0 and decide is not None:
                    hold = hold_value(s, a + k, deck)
                    visits.append((s, deck, k, form, hold))
                    form = decide(s, deck, k, form, hold)
                column[k] = form
            table[s][deck] = column
    return forms


def partners(sides: Sequence[tuple[int, int]]) -> list[int]:
    """For each side, the side with the scores swapped: whose turn a bust starts.

    >>> partners([(3, 5), (5, 3)])
    [1, 0]
    """
    return [sides.index((b, a)) for a, b in sides]


def reach_forms(
    game: Any,
    sides: Sequence[tuple[int, int]],
    hold_value: HoldValue,
    holds: Callable[[int, int], bool],
    partner: Sequence[int] | None = None,
) -> Forms:
    r"""The reset forms of a one-deck game (Pig), exact, by forward reach probabilities.

    From a turn start on side :math:`s`, :math:`r_k` is the chance that the turn reaches
    total :math:`k` with the choices ``holds(s, k)``; then

    .. math::

        X_s = \sum_{k \text{ held}} r_k\, H_s(a + k)
              + r_\text{win} + r_\text{bust} (1 - X_{s'}),

    with :math:`H_s` the value of holding (``hold_value``) and :math:`s'` the partner side.
    The :math:`r_k` are small rationals; only the few held totals a turn can reach touch
    the large values of higher components, where the backward pass of
    :func:`component_forms` would touch them at every turn total.

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> forms = reach_forms(Pig(goal=2), [(1, 1)], lambda s, a, d: None, lambda s, k: False)
    >>> [str(c) for c in forms.table[0][0][0]]
    ['1', '-1/6']
    """
    fresh, n = game.fresh, len(sides)
    other_side = partners(sides) if partner is None else partner
    draws = [(mpq(p), gain) for p, gain, _ in game.draws(fresh)]
    table: list[dict[Hashable, list[Form]]] = []
    for s, (a, _) in enumerate(sides):
        room = game.goal - a
        reach = [mpq(0)] * room
        reach[0] = mpq(1)
        form = [mpq(0)] * (n + 1)
        bust = mpq(0)
        for k, r in enumerate(reach):
            if not r:
                continue
            if k and holds(s, k):
                form[0] += r * hold_value(s, a + k, fresh)
                continue
            for p, gain in draws:
                if gain == 0:
                    bust += r * p
                elif k + gain >= room:
                    form[0] += r * p
                else:
                    reach[k + gain] += r * p
        form[0] += bust
        form[1 + other_side[s]] -= bust
        table.append({fresh: [form]})
    return Forms(table)


def held(hold: Any, form: Form) -> Form:
    """The form of holding: the constant ``hold``, no unknowns (``form`` gives the length).

    >>> held(0.25, [0.5, 0.1, 0.2])
    [0.25, 0.0, 0.0]
    """
    return [hold] + [0 * hold] * (len(form) - 1)


def at(form: Form, point: Sequence[Any]) -> Any:
    """The form's value at ``point``, the values of the unknowns.

    >>> at([1, 2, 3], [10, 100])
    321
    """
    value = form[0]
    for c, x in zip(form[1:], point):
        value += c * x
    return value


def solve_resets(forms: Forms, fresh: Hashable) -> list[Any]:
    r"""The reset values :math:`X_s` from their own forms: :math:`X = c_0 + C X`.

    >>> solve_resets(Forms([{0: [[1, -0.5]]}]), 0)  # X = 1 - X/2
    [0.6666666666666666]
    """
    own = [side[fresh][0] for side in forms.table]
    if len(own) == 1:
        c0, c1 = own[0]
        return [c0 / (1 - c1)]
    (f0, f1, f2), (g0, g1, g2) = own
    det = (1 - f1) * (1 - g2) - f2 * g1
    return [(f0 * (1 - g2) + f2 * g0) / det, ((1 - f1) * g0 + g1 * f0) / det]
