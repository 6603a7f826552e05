r"""Exact play of a jeopardy race among :math:`n` seats, one score component at a time.

Seats :math:`0, \dots, n-1` take turns in that order; each plays to maximise its own
chance to win. A turn-start value is seen from the mover: the banked scores
:math:`(a_0, \dots, a_{n-1})`, the mover's first and the others in the order they move
next, and its value is the vector of the :math:`n` seats' chances in the same order.

A *component* is a score vector :math:`A` up to rotation, and its *side* :math:`r` is
absolute seat :math:`r`'s turn at scores :math:`A`. A bust on side :math:`r` starts side
:math:`r+1`'s turn at the same scores; a hold raises the sum of the scores, so it leaves
for a component already solved when sums are taken from high to low. With the fresh-deck
turn starts :math:`X_0, \dots, X_{n-1}` (vectors over the absolute seats) as unknowns and
a choice fixed in every state, each state's value is an affine form

.. math::

    V(k, d) = c + \sum_q \lambda_q X_q \qquad (c \text{ a vector}, \lambda_q \text{ scalars}),

computed by one backward pass over decks and turn totals, with
:math:`V_\text{draw} = \sum p\,V(\text{next})` (a bust: side :math:`r+1`'s turn start; a
gain reaching the goal: the unit vector :math:`e_r`) and :math:`V_\text{hold}` the next
seat's turn start after the bank. The sides' own forms then give
:math:`(I - \Lambda) X = C`, a system of :math:`n` equations with one column per seat.

The choices are found as for two players (:mod:`.solver`): policy iteration in floats,
the same choices valued exactly, then checked in floats with a rigorous rounding bound,
or exactly where a comparison is too close to call; where the checks find better
replies, one seat takes its replies at a time (all at once can cycle when the seats are
not zero-sum). Sides that see the same scores (at :math:`(5, 5, 5)`, say) are one state
of the race and choose alike. The mover draws on an exact tie (the first action, as
:func:`exactprob.solve`'s default tie rule ``"first"``). The verified choices are a
subgame-perfect equilibrium in stationary strategies: at the exact values no mover
gains by changing one choice. When the replies never settle, the solve stops with
:class:`~exactprob.errors.NonTerminationError` naming the scores.

Pig to 2 among three seats: the first roll wins unless it is a 1, so
:math:`X = (5/6, 0, 0) + \tfrac16\,\mathrm{rot}(X)`, and the seats win
:math:`\tfrac{180}{215}, \tfrac{30}{215}, \tfrac{5}{215}`:

>>> from exactprob.games.jeopardy.rules import Pig
>>> [str(p) for p in solve_seat_race(Pig(goal=2), 3).seat_wins()]
['36/43', '6/43', '1/43']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from gmpy2 import mpq

from ....errors import ModelError, NonTerminationError
from ....util.numbers import plain_integer, to_fraction, whole_number
from ....util.progress import progress_bar
from ....util.rounding import UNIT_ROUNDOFF
from ..policies import deck_cards
from ..rules import Jeopardy

__all__ = [
    "MAX_SEATS",
    "SeatRace",
    "check_head_starts",
    "check_seats",
    "component_vectors",
    "rotated",
    "seat_states",
    "solve_seat_race",
]

#: The most seats a race takes (Pig and Fowl Play are played by two to six).
MAX_SEATS = 6
MAX_ROUNDS = 50

Scores = tuple[int, ...]
Vector = list[Any]
SeatForm = list[Any]
"""``[c_0, ..., c_{n-1}, λ_0, ..., λ_{n-1}]``: the vector :math:`c + \\sum_q λ_q X_q`."""
Starts = dict[tuple[Scores, Hashable], tuple[Any, ...]]
"""Turn-start values ``{(scores from the mover, deck): chances from the mover}``."""
Choices = dict[tuple[int, Hashable, int], bool]
"""Whether the mover holds, by ``(side, deck, turn total)``."""
Decide = Callable[[int, Hashable, int, SeatForm, Vector], SeatForm] | None


def rotated(values: Sequence[Any], r: int) -> tuple[Any, ...]:
    """``values`` seen from position ``r``: ``values[r:] + values[:r]``.

    >>> rotated((10, 20, 30), 1)
    (20, 30, 10)
    """
    r %= len(values)
    return tuple(values[r:]) + tuple(values[:r])


def seat_states(game: Jeopardy, seats: int) -> int:
    """Non-terminal states of the race among ``seats``: every other seat's score times a
    two-player game's states, :math:`g^{n-2}` times :meth:`~.rules.Pig.nonterminal_states`.

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> seat_states(Pig(goal=10), 3) == 10 * Pig(goal=10).nonterminal_states()
    True
    """
    return game.goal ** (seats - 2) * game.nonterminal_states()


def component_vectors(goal: int, seats: int) -> Iterator[Scores]:
    """One score vector per component (the least of its rotations), highest sum first.

    >>> list(component_vectors(2, 3))
    [(1, 1, 1), (0, 1, 1), (0, 0, 1), (0, 0, 0)]
    """
    for total in range((goal - 1) * seats, -1, -1):
        for scores in _with_sum(total, seats, goal - 1):
            if scores == min(rotated(scores, r) for r in range(seats)):
                yield scores


def _with_sum(total: int, length: int, top: int) -> Iterator[Scores]:
    """Every vector of ``length`` scores from 0 to ``top`` summing to ``total``."""
    if length == 1:
        if 0 <= total <= top:
            yield (total,)
        return
    for first in range(max(0, total - top * (length - 1)), min(top, total) + 1):
        for rest in _with_sum(total - first, length - 1, top):
            yield (first, *rest)


class SeatRace:
    """A race among seats solved exactly: ``starts[(scores, deck)]`` is the turn-start
    value from the mover (:data:`Starts`) as ``gmpy2.mpq``; other states are recomputed on
    demand from their component."""

    def __init__(self, game: Jeopardy, seats: int, starts: Starts) -> None:
        self.game, self.seats, self.starts = game, seats, starts

    def seat_wins(self, head_starts: Sequence[int] | None = None) -> tuple[Fraction, ...]:
        """Each seat's chance to win, in the order they play, when the seats start with
        ``head_starts`` points (default none; seat 0 moves first)."""
        scores = self.check_head_starts(head_starts)
        return tuple(to_fraction(v) for v in self.starts[scores, self.game.fresh])

    def check_head_starts(self, head_starts: Sequence[int] | None) -> Scores:
        """``head_starts`` checked for this race (:func:`check_head_starts`)."""
        return check_head_starts(self.game, self.seats, head_starts)

    def fairest_head_starts(self) -> tuple[tuple[int, ...], ...]:
        r"""The head starts (seat 0 none, every other seat below the goal) that bring the
        seats closest to an even game: the least :math:`\max_i |P_i - 1/n|`, exact ties
        all, in increasing order.

        Pig to 4: from 2 or 3 one roll of 2 to 6 wins, so those head starts tie:

        >>> from exactprob.games.jeopardy.rules import Pig
        >>> solve_seat_race(Pig(goal=4), 3).fairest_head_starts()
        ((0, 2, 2), (0, 2, 3), (0, 3, 2), (0, 3, 3))
        """
        n, fresh, even = self.seats, self.game.fresh, mpq(1, self.seats)
        spreads = {
            head: max(abs(v - even) for v in self.starts[head, fresh])
            for head in ((0, *rest) for rest in product(range(self.game.goal), repeat=n - 1))
        }
        least = min(spreads.values())
        return tuple(head for head, spread in spreads.items() if spread == least)

    def first_holds(self, head_starts: Sequence[int] | None = None) -> tuple[int | None, ...]:
        """Each seat's first turn total to hold at, with the scores as they start and a
        fresh deck at the turn's start (``None``: it draws on to the goal): the policy by
        seat, in brief.

        Fowl Play to 6 with 4 chickens and 2 wolves: every seat banks its first chicken
        from the start, and with head starts of 2 and 3 the first seat draws three more:

        >>> from exactprob.games.jeopardy.rules import FowlPlay
        >>> race = solve_seat_race(FowlPlay(chickens=4, wolves=2, goal=6), 3)
        >>> race.first_holds(), race.first_holds((0, 2, 3))
        ((1, 1, 1), (4, 2, None))
        """
        scores = self.check_head_starts(head_starts)
        r, point, forms = self._solved(scores)
        game, n = self.game, self.seats
        holds = {
            (side, k)
            for side, deck, k, draw, hold in forms.visits
            if deck == game.deck_after(k) and hold[side] > at_seat(draw, point, side)
        }
        return tuple(
            self._first_hold(scores[s], {k for q, k in holds if q == (s + r) % n}) for s in range(n)
        )

    def _first_hold(self, score: int, holds: set[int]) -> int | None:
        """The least turn total a turn from ``score`` can reach and bank, holding at
        ``holds`` (the totals a roll can never make are not counted)."""
        game = self.game
        reach = {0}
        for k in range(game.goal - score):
            if k in reach and k in holds:
                return k
            if k in reach:
                reach.update(k + g for _, g, _ in game.draws(game.deck_after(k)) if g)
        return None

    def value(
        self, scores: Sequence[int], turn_total: int = 0, deck: Hashable = None
    ) -> tuple[Fraction, ...]:
        """Each seat's chance in the state ``(scores, turn_total, deck)`` seen from the
        mover (``scores[0]`` is the mover's), in the order the seats move from there."""
        return tuple(to_fraction(v) for v in self._state(scores, turn_total, deck)[0])

    def actions(
        self, scores: Sequence[int], turn_total: int, deck: Hashable = None
    ) -> tuple[str, ...]:
        """The mover's best actions in the state; two when they tie exactly for the mover
        (the solve draws then)."""
        return self._state(scores, turn_total, deck)[1]

    def hold_table(self) -> np.ndarray:
        """Where the solved mover holds, as a boolean array indexed by the scores from the
        mover, the turn total and the deck's wolves and chickens (``[a_0, ..., a_{n-1}, k,
        w, c]``, as :func:`~.policies.deck_cards` spells the deck); an exact tie draws."""
        game, n = self.game, self.seats
        depth = max(game.max_turn_total(deck) for deck in game.decks())
        cards = [deck_cards(deck) for deck in game.decks()]
        shape = (
            (game.goal,) * n + (depth + 1,) + tuple(max(c[i] for c in cards) + 1 for i in (0, 1))
        )
        holds = np.zeros(shape, dtype=bool)
        for scores in component_vectors(game.goal, n):
            component = SeatComponent(game, scores, self.starts, {})
            point, forms = component.solved_forms()
            for r, deck, k, draw, hold in forms.visits:
                holds[(*rotated(scores, r), k, *deck_cards(deck))] = hold[r] > at_seat(
                    draw, point, r
                )
        return holds

    def _solved(self, scores: Scores) -> tuple[int, list[Vector], SeatForms]:
        """The side ``scores`` sit at in their solved component, with the component's exact
        turn starts and forms (:meth:`SeatComponent.solved_forms`)."""
        r = _least_rotation(scores)
        component = SeatComponent(self.game, rotated(scores, -r), self.starts, {})
        return (r, *component.solved_forms())

    def _state(
        self, scores: Sequence[int], k: int, deck: Hashable
    ) -> tuple[tuple[Any, ...], tuple[str, ...]]:
        game, n = self.game, self.seats
        scores = _whole_scores("scores", game, n, scores)
        deck = game.fresh if deck is None else deck
        if deck not in game.decks():
            raise ModelError(
                f"deck must be a deck state of the game ({game.fresh!r} fresh), got {deck!r}"
            )
        top = game.max_turn_total(deck)
        if isinstance(k, bool) or not isinstance(plain_integer(k), int) or not 0 <= k <= top:
            raise ModelError(
                f"turn_total must be a whole number from 0 to {top} (the most the deck "
                f"{deck!r} allows), got {k!r}"
            )
        if scores[0] + k >= game.goal:
            return (mpq(1),) + (mpq(0),) * (n - 1), ("hold",)
        r, point, forms = self._solved(scores)
        column = forms.table[r][deck]
        if k == 0:
            return rotated(evaluated(column[0], point), r), (game.draw_word,)
        draw_form, hold = next(
            (form, hold) for s, d, t, form, hold in forms.visits if (s, d, t) == (r, deck, k)
        )
        draw = evaluated(draw_form, point)
        best = draw if draw[r] >= hold[r] else hold
        tied = (game.draw_word, "hold") if draw[r] == hold[r] else ()
        return rotated(best, r), tied or ((game.draw_word,) if best is draw else ("hold",))


def check_seats(seats: int) -> int:
    """``seats`` checked: a whole number from 2 to :data:`MAX_SEATS`.

    >>> check_seats(7)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: seats must be a whole number from 2 to 6, got 7
    """
    return whole_number("seats", plain_integer(seats), 2, MAX_SEATS)


def check_head_starts(game: Jeopardy, seats: int, head_starts: Sequence[int] | None) -> Scores:
    """``head_starts`` checked: one whole number below the goal per seat (default none).

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> check_head_starts(Pig(goal=2), 3, (0, 1))
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: head_starts must give one score per seat (3), got 2
    """
    if head_starts is None:
        return (0,) * seats
    return _whole_scores("head_starts", game, seats, head_starts)


def _whole_scores(name: str, game: Jeopardy, seats: int, scores: Any) -> Scores:
    """``scores`` checked: a sequence of one whole number below the goal per seat.

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> _whole_scores("scores", Pig(goal=5), 2, (1, 5))
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: scores must be whole numbers from 0 to 4, got 5
    """
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise ModelError(
            f"{name} must be a sequence of one score per seat ({seats}), got {scores!r}"
        )
    if len(scores) != seats:
        raise ModelError(f"{name} must give one score per seat ({seats}), got {len(scores)}")
    top = game.goal - 1
    for score in scores:
        value = plain_integer(score)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise ModelError(f"{name} must be whole numbers from 0 to {top}, got {score!r}")
    return tuple(int(score) for score in scores)


def solve_seat_race(game: Jeopardy, seats: int, progress: bool = False) -> SeatRace:
    """Solve ``game`` among ``seats`` (2 to :data:`MAX_SEATS`) exactly: every turn-start
    value, component by component."""
    seats = check_seats(seats)
    starts: Starts = {}
    floats: dict[tuple[Scores, Hashable], tuple[float, ...]] = {}
    total = sum(1 for _ in component_vectors(game.goal, seats)) if progress else None
    with progress_bar(progress, f"{game.name} to {game.goal}, {seats} seats", total=total) as bar:
        for scores in component_vectors(game.goal, seats):
            for key, value in SeatComponent(game, scores, starts, floats).solve().items():
                starts[key] = value
                floats[key] = tuple(float(v) for v in value)
            bar.update()
    return SeatRace(game, seats, starts)


class SeatForms:
    """Every state's :data:`SeatForm` in a component: ``table[r][deck][k]``, and
    ``visits``, each state with a choice as ``(side, deck, k, draw form, hold vector)``."""

    def __init__(self, seats: int) -> None:
        self.table: list[dict[Hashable, list[SeatForm]]] = [{} for _ in range(seats)]
        self.visits: list[tuple[int, Hashable, int, SeatForm, Vector]] = []


def evaluated(form: SeatForm, point: Sequence[Vector]) -> Vector:
    """The form's vector at the unknowns' values ``point``.

    >>> evaluated([1, 0, 2, 3], [[10, 20], [30, 40]])  # (1, 0) + 2 (10, 20) + 3 (30, 40)
    [111, 160]
    """
    n = len(point)
    return [form[i] + sum(form[n + q] * point[q][i] for q in range(n)) for i in range(n)]


def at_seat(form: SeatForm, point: Sequence[Vector], seat: int) -> Any:
    """Entry ``seat`` of :func:`evaluated` alone.

    >>> at_seat([1, 0, 2, 3], [[10, 20], [30, 40]], 1)
    160
    """
    n = len(point)
    value = form[seat]
    for q in range(n):
        value += form[n + q] * point[q][seat]
    return value


def solve_cycle(own: Sequence[SeatForm]) -> list[Vector]:
    r"""The turn starts :math:`X` from their own forms, :math:`X_r = c_r + \sum_q
    \lambda_{rq} X_q`, by Gaussian elimination on :math:`(I - \Lambda) X = C`.

    >>> solve_cycle([[1, 0, 0, 0.5], [0, 1, 0.5, 0]])  # X0 = e0 + X1/2, X1 = e1 + X0/2
    [[1.3333333333333333, 0.6666666666666666], [0.6666666666666666, 1.3333333333333333]]
    """
    n = len(own)
    rows = [
        [(1 if q == r else 0) - form[n + q] for q in range(n)] + list(form[:n])
        for r, form in enumerate(own)
    ]
    for col in range(n):
        pivot = next((i for i in range(col, n) if rows[i][col] != 0), None)
        if pivot is None:
            raise ModelError("these choices never end the game: every turn passes on with no score")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        for i in range(n):
            if i != col and rows[i][col] != 0:
                f = rows[i][col] / head[col]
                rows[i] = [x - f * y for x, y in zip(rows[i], head)]
    return [[x / rows[r][r] for x in rows[r][n:]] for r in range(n)]


class SeatComponent:
    """One component of the race among seats, every higher one known (``starts`` exact,
    ``floats`` the same in floats): :meth:`solve` values it; once solved,
    :meth:`solved_forms` reads its choices back (from ``starts`` alone).

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> values = SeatComponent(Pig(goal=2), (1, 1), {}, {}).solve()
    >>> {key: [str(v) for v in value] for key, value in values.items()}  # X = 5/6 + X'/6
    {((1, 1), 0): ['6/7', '1/7']}
    """

    def __init__(
        self,
        game: Jeopardy,
        scores: Scores,
        starts: Starts,
        floats: dict[tuple[Scores, Hashable], tuple[float, ...]],
    ) -> None:
        self.game, self.scores, self.n = game, scores, len(scores)
        self.period = _period(scores)  # sides this far apart are the same state
        self.starts, self.floats = starts, floats

    def solve(self) -> Starts:
        """Exact turn-start values ``{(scores from the mover, deck): chances}``."""
        choices, forms = self._float_choices()
        for round_ in range(MAX_ROUNDS):
            point, starts = self._exact_starts(choices)
            verdict = self._float_verdict(choices, point, forms)
            if verdict is None:
                return starts
            if isinstance(verdict, str):  # "undecided"
                return self._exact_solution(choices)
            choices = _one_side(choices, verdict, round_, self.period)
            forms = self._forms(float, self._float_hold, _follow(choices))
        raise self._unsettled()

    def solved_forms(self) -> tuple[list[Vector], SeatForms]:
        """The solved component's exact turn starts, and its exact forms with every choice
        made at them (an exact tie draws)."""
        fresh = self.game.fresh
        point = [
            self._absolute(r, self.starts[rotated(self.scores, r), fresh]) for r in range(self.n)
        ]
        return point, self._forms(mpq, self._exact_hold, _greedy_at(point))

    def _float_choices(self) -> tuple[Choices, SeatForms]:
        """Policy iteration in floats, from every turn start worth nothing to anyone: a
        bust then looks as bad as it can be, so the first choices hold wherever banking is
        worth anything, and play ends (a start that valued busting could choose never to
        bank, and a cycle with no end has no values). Returns the choices and their float
        forms."""
        point = [[0.0] * self.n for _ in range(self.n)]
        previous: Choices | None = None
        for _ in range(MAX_ROUNDS):
            choices: Choices = {}
            greedy = _greedy_at(point, choices, self.period)
            forms = self._forms(float, self._float_hold, greedy)
            point = self._turn_starts(forms)
            if choices == previous:
                break
            previous = choices
        return choices, forms

    def _exact(self, choices: Choices) -> tuple[SeatForms, list[Vector]]:
        """The exact forms under ``choices`` and the exact turn starts."""
        forms = self._forms(mpq, self._exact_hold, _follow(choices))
        return forms, self._turn_starts(forms)

    def _turn_starts(self, forms: SeatForms) -> list[Vector]:
        """The fresh-deck turn starts, from the sides' own forms (:func:`solve_cycle`)."""
        return solve_cycle([side[self.game.fresh][0] for side in forms.table])

    def _exact_starts(self, choices: Choices) -> tuple[list[Vector], Starts]:
        """The exact turn starts under ``choices`` (the unknowns' values) and every
        turn-start value of the component; a one-deck game (Pig) by :meth:`_reach_forms`."""
        if len(self.game.decks()) > 1:
            forms, point = self._exact(choices)
            return point, self._start_values(forms, point)
        fresh = self.game.fresh
        point = solve_cycle(self._reach_forms(choices))
        return point, {(rotated(self.scores, r), fresh): rotated(x, r) for r, x in enumerate(point)}

    def _reach_forms(self, choices: Choices) -> list[SeatForm]:
        r"""Each side's turn-start form in a one-deck game, exact, by forward reach: with
        :math:`\rho_k` the chance the turn reaches total :math:`k` under ``choices``,

        .. math::

            X_r = \sum_{k \text{ held}} \rho_k H_r(k) + \rho_\text{goal}\, e_r
                  + \rho_\text{bust} X_{r+1}.

        The :math:`\rho_k` are small rationals; only the few held totals touch the long
        values of higher components (as :func:`.components.reach_forms` for two players)."""
        game, n, fresh = self.game, self.n, self.game.fresh
        draws = [(mpq(p), gain) for p, gain, _ in game.draws(fresh)]
        own = []
        for r, a in enumerate(self.scores):
            room = game.goal - a
            reach = [mpq(0)] * room
            reach[0] = mpq(1)
            form = [mpq(0)] * (2 * n)
            for k, chance in enumerate(reach):
                if not chance:
                    continue
                if k and choices[r, fresh, k]:
                    form[:n] = [
                        f + chance * h for f, h in zip(form, self._exact_hold(r, a + k, fresh))
                    ]
                    continue
                for p, gain in draws:
                    if gain == 0:
                        form[n + (r + 1) % n] += chance * p
                    elif k + gain >= room:
                        form[r] += chance * p
                    else:
                        reach[k + gain] += chance * p
            own.append(form)
        return own

    def _float_verdict(
        self, choices: Choices, point: list[Vector], forms: SeatForms
    ) -> Choices | str | None:
        """``None`` when every choice is the mover's best at the exact ``point``, checked in
        floats with a rigorous rounding bound on ``forms`` (the float forms of ``choices``);
        ``"undecided"`` when a comparison is too close to call; else the better choices."""
        x = [[float(v) for v in vector] for vector in point]
        tolerance = self._tolerance(forms)
        better: Choices = {}
        for r, deck, k, draw, hold in forms.visits:
            margin = hold[r] - at_seat(draw, x, r)
            if abs(margin) <= tolerance:
                return "undecided"
            better[r, deck, k] = margin > 0
        return None if better == choices else better

    def _tolerance(self, forms: SeatForms) -> float:
        r"""The rounding bound of a float pass over ``forms``, evaluated at the exact turn
        starts: every float coefficient is non-negative, and a form's chances to end play
        and to come back to a turn start add to at most 1. Each of the :math:`N` states
        adds at most :math:`m + 1` roundings of relative size :math:`u` (:math:`m` draws)
        to the successors' errors, and the hold values it copies are within :math:`u`, so
        a draw value errs by at most :math:`(m + 2) N u`. A choice is decided when the
        margin exceeds :math:`8 (m + 2)(N + 2) u`, more than twice that."""
        game = self.game
        draws = max(len(game.draws(deck)) for deck in game.decks())
        states = sum(len(column) for side in forms.table for column in side.values())
        return 8 * (draws + 2) * (states + 2) * UNIT_ROUNDOFF

    def _exact_solution(self, choices: Choices) -> Starts:
        """Exact policy improvement (the path for ties and comparisons floats cannot
        call): each mover holds where holding is strictly better, and draws on a tie."""
        for round_ in range(MAX_ROUNDS):
            forms, point = self._exact(choices)
            better = {
                (r, deck, k): hold[r] > at_seat(draw, point, r)
                for r, deck, k, draw, hold in forms.visits
            }
            if better == choices:
                return self._start_values(forms, point)
            choices = _one_side(choices, better, round_, self.period)
        raise self._unsettled()

    def _unsettled(self) -> NonTerminationError:
        return NonTerminationError(
            f"the seats' best replies keep changing at the scores {self.scores} (one seat "
            f"at a time, {MAX_ROUNDS} rounds): the race has no equilibrium of one fixed "
            "choice per state that the iteration finds"
        )

    def _forms(
        self,
        unit: Callable[[Any], Any],
        hold_value: Callable[[int, int, Hashable], Vector],
        decide: Decide,
    ) -> SeatForms:
        """Every state's form, deck by deck (in ``game.decks()`` order), turn totals high to
        low; ``decide(r, deck, k, draw form, hold vector)`` returns the form chosen."""
        game, n, scores = self.game, self.n, self.scores
        zero, fresh, goal = unit(0), game.fresh, game.goal
        forms = SeatForms(n)
        table = forms.table
        for deck in game.decks():
            draws = [(unit(p), gain, after) for p, gain, after in game.draws(deck)]
            for r, a in enumerate(scores):
                room, nxt = goal - a, (r + 1) % n
                top = min(game.max_turn_total(deck), room - 1)
                column: list[SeatForm] = [[]] * (top + 1)
                for k in range(top, -1, -1):
                    form = [zero] * (2 * n)
                    for p, gain, after in draws:
                        if gain == 0 and after == fresh:
                            form[n + nxt] += p
                            continue
                        if gain == 0:
                            target = table[nxt][after][0]
                        elif k + gain >= room:
                            form[r] += p
                            continue
                        else:
                            target = (
                                column[k + gain] if after == deck else table[r][after][k + gain]
                            )
                        form = [f + p * t for f, t in zip(form, target)]
                    if k > 0 and decide is not None:
                        hold = hold_value(r, a + k, deck)
                        forms.visits.append((r, deck, k, form, hold))
                        form = decide(r, deck, k, form, hold)
                    column[k] = form
                table[r][deck] = column
        return forms

    def _absolute(self, r: int, relative: Sequence[Any]) -> Vector:
        """Chances seen from side ``r``'s mover as chances by absolute seat."""
        return list(rotated(relative, -r))

    def _banked_key(self, r: int, banked: int, deck: Hashable) -> tuple[Scores, Hashable]:
        """The next seat's turn start after side ``r`` banks up to ``banked``."""
        after = list(self.scores)
        after[r] = banked
        return rotated(after, r + 1), deck

    def _exact_hold(self, r: int, banked: int, deck: Hashable) -> Vector:
        return self._absolute(r + 1, self.starts[self._banked_key(r, banked, deck)])

    def _float_hold(self, r: int, banked: int, deck: Hashable) -> Vector:
        return self._absolute(r + 1, self.floats[self._banked_key(r, banked, deck)])

    def _start_values(self, forms: SeatForms, point: list[Vector]) -> Starts:
        """Every turn start ``(scores from the mover, deck)`` of the component."""
        return {
            (rotated(self.scores, r), deck): rotated(evaluated(column[0], point), r)
            for r in range(self.n)
            for deck, column in forms.table[r].items()
        }


def _one_side(choices: Choices, better: Choices, round_: int, period: int) -> Choices:
    """``choices`` with one side's replaced by its best replies in ``better``: the first
    side that changes, counting from side ``round_`` (mod the sides), so the sides take
    turns. Replying all at once can cycle among seats that are not zero-sum; one seat at
    a time settles where a cycle of simultaneous replies would not. Sides ``period``
    apart see the same scores, so they are one state of the race and change together.

    >>> _one_side({(0, 0, 1): False, (1, 0, 1): False}, {(0, 0, 1): True, (1, 0, 1): True}, 1, 2)
    {(0, 0, 1): False, (1, 0, 1): True}
    >>> _one_side({(0, 0, 1): False, (1, 0, 1): False}, {(0, 0, 1): True, (1, 0, 1): True}, 1, 1)
    {(0, 0, 1): True, (1, 0, 1): True}
    """
    sides = sorted({r for r, _, _ in choices})
    changed = {key[0] for key, held in better.items() if choices[key] != held}
    turn = next(r for r in sides[round_ % len(sides) :] + sides if r in changed) % period
    return {key: better[key] if key[0] % period == turn else held for key, held in choices.items()}


def _period(scores: Scores) -> int:
    """The least rotation that leaves ``scores`` as they are: the sides of a component
    that are different states.

    >>> _period((1, 2, 1, 2)), _period((0, 1, 2)), _period((3, 3, 3))
    (2, 3, 1)
    """
    return next(p for p in range(1, len(scores) + 1) if rotated(scores, p) == scores)


def _least_rotation(scores: Scores) -> int:
    """The side ``r`` at which ``scores`` sit in their component, whose vector is the
    least rotation ``rotated(scores, -r)``.

    >>> _least_rotation((2, 0, 1))  # side 2 of the component (0, 1, 2)
    2
    """
    return min(range(len(scores)), key=lambda q: rotated(scores, -q))


def _greedy_at(
    point: Sequence[Vector], record: Choices | None = None, period: int | None = None
) -> Decide:
    """A ``decide`` that holds where holding is strictly better for the mover at
    ``point`` (an exact tie draws), noting each choice in ``record``; a side ``period``
    or more along copies the choice of the side it repeats (the same state of the race,
    which floats might otherwise call differently at a near-tie)."""

    def greedy(r: int, deck: Hashable, k: int, form: SeatForm, hold: Vector) -> SeatForm:
        if record is not None and period is not None and r >= period:
            holds = record[r % period, deck, k]
        else:
            holds = hold[r] > at_seat(form, point, r)
        if record is not None:
            record[r, deck, k] = holds
        return _held(hold, form) if holds else form

    return greedy


def _follow(choices: Choices) -> Decide:
    """A ``decide`` that makes ``choices``."""
    return lambda r, deck, k, form, hold: _held(hold, form) if choices[r, deck, k] else form


def _held(hold: Vector, form: SeatForm) -> SeatForm:
    """The form of holding: the vector ``hold``, no unknowns."""
    return list(hold) + [0 * hold[0]] * (len(form) - len(hold))
