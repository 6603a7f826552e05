r"""Policy iteration on one cycle of turn starts, exactly: the method of the optimal race
(:mod:`.solver`) and of the best response to a fixed player
(:mod:`~exactprob.games.jeopardy.players.best_response`).

A *cycle* is a list of sides, each a mover at scores :math:`(a, b)` whose bust starts the
turn of another side of the cycle (its *partner*), and whose holds leave the cycle for
turn starts already known. Each state is valued from its own mover's point of view, so a
bust or a hold reads :math:`1 - V` of the next mover's turn start. Some sides *choose*
(the better of draw and hold); the others are *fixed* (a player's table). With the
choices made, every state is an affine form in the sides' fresh-deck turn starts
(:mod:`.components`), which solve a system of one or two equations. Then:

1. *policy iteration in floats*: choose greedily at the current turn starts, compute the
   forms, solve, repeat until the choices stop changing;
2. *the same choices in exact arithmetic*: the forms and the turn starts as rationals;
3. *exact verification*: every choosing state's draw and hold at the exact turn starts, in
   floats with a rigorous rounding bound; a choice that is not the better is switched and
   step 2 repeats. A comparison too close for the bound is made in rationals, and then
   every choice is (:meth:`CycleIteration._exact_solution`).

The verified values satisfy every optimality equation of the cycle exactly.

Pig to 3 at 1 point each: a roll of 2 to 6 wins, so :math:`X = 5/6 + (1 - X)/6 = 6/7`;
holding a turn total of 1 (which no roll makes) would leave the other player
:math:`P(1, 2) = 6/7` to move, worth :math:`1/7`:

>>> from exactprob.games.jeopardy.rules import Pig
>>> from exactprob.games.jeopardy.solving.solver import Component, solve_race
>>> race = solve_race(Pig(goal=3))
>>> floats = {key: float(value) for key, value in race.starts.items()}
>>> values, holds = Component(Pig(goal=3), 1, 1, race.starts, floats).iterate()
>>> [str(value) for value in values[0].values()], holds
(['6/7'], {(0, 0, 1): False})
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from gmpy2 import mpq

from ....util.rounding import UNIT_ROUNDOFF
from ..rules import Jeopardy
from .components import (
    Decide,
    Form,
    Forms,
    HoldValue,
    Point,
    Starts,
    at,
    component_forms,
    held,
    reach_forms,
    solve_resets,
)

__all__ = ["MAX_ROUNDS", "Choices", "CycleIteration", "greedy_at"]

MAX_ROUNDS = 50
START_POINT = 0.5
"""The turn starts the first greedy choices are made at, when they are made greedily."""

Choices = dict[tuple[int, Hashable, int], bool]
"""Whether the mover holds, by ``(side, deck, turn total)``."""


class CycleIteration:
    """Policy iteration on the cycle ``sides`` of ``game`` (bust partners ``partner``,
    default: the side with the scores swapped). A subclass says what a hold is worth
    (:meth:`exact_hold`, :meth:`float_hold`) and which sides are fixed
    (:meth:`fixed_holds`); :meth:`iterate` values the cycle."""

    first_holds = False
    """Whether policy iteration starts from banking everywhere and keeps a choice on a
    near-tie (:meth:`_float_policy`); else every round chooses afresh."""

    def __init__(
        self,
        game: Jeopardy,
        sides: list[tuple[int, int]],
        partner: Sequence[int] | None = None,
        choosing: Sequence[bool] | None = None,
    ) -> None:
        self.game, self.sides, self.partner = game, sides, partner
        self.choosing = [True] * len(sides) if choosing is None else list(choosing)
        # the fixed sides' forms by number type, kept where they read no other side's
        self._fixed_forms: dict[Any, dict[int, dict[Hashable, list[Form]]]] = {}

    def exact_hold(self, s: int, banked: int, deck: Hashable) -> Any:
        """The exact value of holding on side ``s`` with ``banked`` points at ``deck``."""
        raise NotImplementedError

    def float_hold(self, s: int, banked: int, deck: Hashable) -> float:
        """The same in floats."""
        raise NotImplementedError

    def fixed_holds(self, s: int, deck: Hashable, k: int) -> bool:
        """Whether the fixed side ``s`` holds at turn total ``k`` in ``deck``."""
        raise NotImplementedError

    def iterate(self) -> tuple[list[Starts], Choices]:
        """Each side's exact turn-start values ``{(a, b, deck): value}``, and where each
        choosing side holds, ``{(s, deck, k): bool}``; on an exact tie it holds."""
        choices, forms = self._float_policy()
        for _ in range(MAX_ROUNDS):
            values, point = self._exact_values(choices)
            verdict = self._float_verdict(choices, point, forms)
            if verdict is None:
                return values, choices
            if isinstance(verdict, str):  # "undecided"
                return self._exact_solution(choices)
            choices = verdict
            forms = self.float_forms(_follow(choices))
        raise RuntimeError(
            f"policy iteration did not settle in {MAX_ROUNDS} rounds"
        )  # pragma: no cover

    def tolerance(self, forms: Forms) -> float:
        r"""The rounding bound of a float pass over ``forms``.

        Every quantity lies in :math:`[0, 1]`; a state's value is a sum of at most
        :math:`m` terms :math:`p\,v` or :math:`p\,(1 - v)`, each adding at most :math:`4u`
        of rounding (:math:`u = 2^{-53}`) to the error of its successors, so after
        :math:`N` states every value is within :math:`4(m + 2) N u` of exact. A choice is
        decided when draw and hold differ by more than twice that.
        """
        game = self.game
        draws = max(len(game.draws(deck)) for deck in game.decks())
        states = sum(len(column) for side in forms.table for column in side.values())
        return 8 * (draws + 2) * (states + 2) * UNIT_ROUNDOFF

    def float_forms(self, decide: Decide) -> Forms:
        """The forms in floats, the choosing sides' choices made by ``decide``."""
        return self._forms(self.float_hold, float, decide)

    def exact_forms(self, decide: Decide) -> Forms:
        """The forms in rationals, the choosing sides' choices made by ``decide``."""
        return self._forms(self.exact_hold, mpq, decide)

    def choices_of(self, forms: Forms) -> list[tuple[int, Hashable, int, Form, Any]]:
        """The states of ``forms`` where a choosing side chooses, ``(s, deck, k, draw
        form, hold)``."""
        choosing = self.choosing
        return [visit for visit in forms.visits if choosing[visit[0]]]

    def _forms(self, hold: HoldValue, unit: Any, decide: Decide) -> Forms:
        choosing, fixed = self.choosing, self.fixed_holds

        def decide_or_follow(s: int, deck: Hashable, k: int, form: Form, value: Any) -> Form:
            if choosing[s]:
                return decide(s, deck, k, form, value) if decide else form
            return held(value, form) if fixed(s, deck, k) else form

        known = self._fixed_forms.get(unit)
        forms = component_forms(
            self.game, self.sides, hold, unit, decide_or_follow, self.partner, known
        )
        if known is None and len(self.game.decks()) == 1:
            self._fixed_forms[unit] = {
                s: forms.table[s] for s, chooses in enumerate(choosing) if not chooses
            }
        return forms

    def _float_policy(self) -> tuple[Choices, Forms]:
        """Policy iteration in floats: the choices at the float fixed point, and their
        float forms. With :attr:`first_holds`, the first round banks everywhere, and
        after it a choice changes only when the other is better by more than the rounding
        bound of the last pass over the forms (:func:`greedy_at`), so that a cycle no
        hold leaves is not chosen on a tie. The bound leaves out the error of solving
        for the turn starts, which grows as the cycle's system nears a singular one; on
        games built to come near, that error stayed below 2 % of the bound."""
        point = [START_POINT] * len(self.sides)
        previous: Choices = {}
        # banking everywhere: no margin is more than an infinite slack
        slack: float | None = math.inf if self.first_holds else None
        for _ in range(MAX_ROUNDS):
            choices: Choices = {}
            forms = self.float_forms(greedy_at(point, choices, previous, slack))
            point = solve_resets(forms, self.game.fresh)
            if choices == previous:
                break
            previous = choices
            slack = self.tolerance(forms) if self.first_holds else None
        return choices, forms

    def _float_verdict(self, choices: Choices, point: Point, forms: Forms) -> Choices | str | None:
        r"""Check ``choices`` (``forms``: their float forms) against the exact turn
        starts ``point`` in floats, with a rigorous error bound (:meth:`tolerance`).
        Returns ``None`` when every choice is best, ``"undecided"`` when some comparison
        is too close to call, else better choices."""
        x = [float(v) for v in point]
        tolerance = self.tolerance(forms)
        better = {}
        for s, deck, k, draw, hold in self.choices_of(forms):
            margin = hold - at(draw, x)
            if abs(margin) <= tolerance:
                return "undecided"
            better[s, deck, k] = margin > 0
        return None if better == choices else better

    def _exact_values(self, choices: Choices) -> tuple[list[Starts], Point]:
        """Exact turn-start values and the turn starts' values under ``choices``; a
        one-deck game (Pig) by forward reach (:func:`.components.reach_forms`)."""
        game = self.game
        if len(game.decks()) > 1:
            forms = self.exact_forms(_follow(choices))
            point = solve_resets(forms, game.fresh)
            return self._start_values(forms, point), point
        fresh, choosing, fixed = game.fresh, self.choosing, self.fixed_holds

        def holds(s: int, k: int) -> bool:
            return choices[s, fresh, k] if choosing[s] else fixed(s, fresh, k)

        forms = reach_forms(game, self.sides, self.exact_hold, holds, self.partner)
        point = solve_resets(forms, fresh)
        return [{(a, b, fresh): x} for (a, b), x in zip(self.sides, point)], point

    def _exact_solution(self, choices: Choices) -> tuple[list[Starts], Choices]:
        """Exact values with ``choices`` corrected by exact comparisons until none improves
        (the path for exact ties and comparisons too close for floats); then every choice
        read at the exact values, an exact tie holding."""
        for _ in range(MAX_ROUNDS):
            forms = self.exact_forms(_follow(choices))
            point = solve_resets(forms, self.game.fresh)
            margins = {
                (s, d, k): hold - at(draw, point) for s, d, k, draw, hold in self.choices_of(forms)
            }
            better = {
                key: margin > 0 if margin else choices[key] for key, margin in margins.items()
            }
            if better == choices:
                holds = {key: margin >= 0 for key, margin in margins.items()}
                return self._start_values(forms, point), holds
            choices = better
        raise RuntimeError(
            f"policy iteration did not settle in {MAX_ROUNDS} rounds"
        )  # pragma: no cover

    def _start_values(self, forms: Forms, point: Point) -> list[Starts]:
        """Each side's turn-start values ``(a, b, deck)`` at the turn starts ``point``."""
        return [
            {(a, b, deck): at(column[0], point) for deck, column in forms.table[s].items()}
            for s, (a, b) in enumerate(self.sides)
        ]


def greedy_at(
    point: Point,
    record: Choices | None = None,
    previous: Choices | None = None,
    slack: float | None = None,
) -> Decide:
    """A ``decide`` that holds where holding beats drawing at the turn starts ``point``,
    noting each choice in ``record``. With a ``slack``, a choice in ``previous`` (a hold
    where ``previous`` has none) is kept unless the other is better by more than
    ``slack``: the rule of policy iteration that never trades an exit for a loop of equal
    value.

    >>> from fractions import Fraction
    >>> made = {}
    >>> form = greedy_at([Fraction(1)], made, {}, 0.0)(0, 0, 1, [0, 1], 1)
    >>> form, made  # draw and hold tie at 1: the bank is kept
    ([1, 0], {(0, 0, 1): True})
    """

    def greedy(s: int, deck: Hashable, k: int, form: Form, hold: Any) -> Form:
        margin = hold - at(form, point)
        if slack is None:
            holds = margin > 0
        elif (previous or {}).get((s, deck, k), True):
            holds = margin >= -slack
        else:
            holds = margin > slack
        if record is not None:
            record[s, deck, k] = holds
        return held(hold, form) if holds else form

    return greedy


def _follow(choices: Choices) -> Decide:
    """A ``decide`` that makes ``choices``."""
    return lambda s, deck, k, form, hold: held(hold, form) if choices[s, deck, k] else form
