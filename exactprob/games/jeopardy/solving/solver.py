r"""Exact optimal play of a jeopardy game, one score component at a time.

Components :math:`\{i, j\}` are taken from the highest score sum down (holding always
raises the sum, so its value is known by then). In each component:

1. *policy iteration in floats*: choose greedily at the current reset values, compute
   the affine forms (:mod:`.components`), solve for the reset values, repeat until the
   choices stop changing;
2. *the same choices in exact arithmetic*: the forms and the reset values as rationals;
3. *exact verification*: every state's draw and hold values at the exact reset values;
   a choice that is not optimal is switched and step 2 repeats. When none is, the exact
   values satisfy every optimality equation of the component.

The verified values satisfy every optimality equation exactly; :doc:`/jeopardy` says why
they are the equations' only solution (proved for Pig, enclosed for Fowl Play).

>>> from exactprob.games.jeopardy.rules import Pig
>>> solution = solve_race(Pig(goal=10))
>>> solution.first_player_win()
Fraction(7776, 10961)
>>> solution.actions(0, 0, 4), solution.actions(0, 0, 9)
(('roll',), ('roll',))
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import numpy as np
from gmpy2 import mpq

from ....util.numbers import to_fraction
from ....util.progress import progress_bar
from ....util.rounding import UNIT_ROUNDOFF
from ..fairness import SolvedRace
from ..policies import PolicyTable, deck_cards, hold_thresholds, table_shape
from ..rules import Jeopardy
from .components import (
    Decide,
    Form,
    Forms,
    Point,
    Starts,
    at,
    component_forms,
    components_in_order,
    held,
    reach_forms,
    sides_of,
    solve_resets,
)

__all__ = ["Component", "JeopardySolution", "solve_race"]

MAX_ROUNDS = 50


class JeopardySolution(SolvedRace[Fraction]):
    """Exact values of every turn start, and optimal play anywhere, for one game.

    ``starts[(a, b, deck)]`` is :math:`P(a, b, 0, d)` as a ``gmpy2.mpq``: the mover's
    chance to win with ``a`` banked against ``b``, at the start of a turn in deck state
    ``deck``. Other states are recomputed from these on demand.
    """

    def __init__(self, game: Jeopardy, starts: Starts) -> None:
        self.game = game
        self.starts = starts

    def start_value(self, a: int, b: int, deck: Hashable = None) -> Fraction:
        """:math:`P(a, b, 0, d)` (``deck`` defaults to a fresh deck)."""
        return to_fraction(self.starts[a, b, self.game.fresh if deck is None else deck])

    def value(self, a: int, b: int, k: int, deck: Hashable = None) -> Fraction:
        """The mover's chance to win in state ``(a, b, k, deck)`` under optimal play."""
        return to_fraction(self._state(a, b, k, deck)[0])

    def actions(self, a: int, b: int, k: int, deck: Hashable = None) -> tuple[str, ...]:
        """The optimal actions in state ``(a, b, k, deck)``; two when they tie exactly."""
        return self._state(a, b, k, deck)[1]

    def policy_table(self) -> PolicyTable:
        """Where the optimal mover holds, in every state, as a table ``holds[a, b, k, w,
        c]`` (:mod:`~exactprob.games.jeopardy.policies`); on an exact tie the table holds (:meth:`Component.choose`)."""
        game = self.game
        floats = {key: float(value) for key, value in self.starts.items()}
        holds = np.zeros(table_shape(game), dtype=bool)
        for i, j in components_in_order(game.goal):
            Component(game, i, j, self.starts, floats).choose(holds)
        room = game.goal - np.arange(game.goal)
        holds |= (
            np.arange(holds.shape[2])[None, None, :, None, None] >= room[:, None, None, None, None]
        )
        return PolicyTable(holds)

    def hold_thresholds(self) -> np.ndarray:
        """The optimal player's hold boundary (:func:`~exactprob.games.jeopardy.policies.hold_thresholds`)."""
        return hold_thresholds(self.game, self.policy_table())

    def _state(self, a: int, b: int, k: int, deck: Hashable) -> tuple[Any, tuple[str, ...]]:
        game = self.game
        deck = game.fresh if deck is None else deck
        if a + k >= game.goal:
            return mpq(1), ("hold",)
        component = Component(game, min(a, b), max(a, b), self.starts, {})
        return component.state(a, b, k, deck)


def solve_race(game: Jeopardy, progress: bool = False) -> JeopardySolution:
    """Solve ``game`` exactly: every turn-start value, component by component."""
    starts: Starts = {}
    floats: dict[tuple[int, int, Hashable], float] = {}
    goal = game.goal
    with progress_bar(progress, f"{game.name} to {goal}", total=goal * (goal + 1) // 2) as bar:
        for i, j in components_in_order(goal):
            for key, value in Component(game, i, j, starts, floats).solve().items():
                starts[key] = value
                floats[key] = float(value)
            bar.update()
    return JeopardySolution(game, starts)


Choices = dict[tuple[int, Hashable, int], bool]
"""Whether the mover holds, by ``(side, deck, turn total)``."""


class Component:
    r"""One score component :math:`\{i, j\}` of the optimal solve, every higher one known:
    exact turn-start values in ``starts`` (``gmpy2.mpq``) and the same as floats in
    ``floats``. :meth:`solve` values it (the module's three steps); once it is solved,
    :meth:`choose` and :meth:`state` read its optimal choices back (:meth:`state` reads
    ``starts`` alone, so ``floats`` may then be empty).

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> values = Component(Pig(goal=2), 1, 1, {}, {}).solve()
    >>> {key: str(value) for key, value in values.items()}  # X = 5/6 + (1 - X)/6
    {(1, 1, 0): '6/7'}
    """

    def __init__(
        self,
        game: Jeopardy,
        i: int,
        j: int,
        starts: Starts,
        floats: dict[tuple[int, int, Hashable], float],
    ) -> None:
        self.game = game
        self.sides = sides_of(i, j)
        self.starts, self.floats = starts, floats

    def solve(self) -> Starts:
        """Exact turn-start values ``{(a, b, deck): value}`` of the component."""
        choices = self._float_policy()
        for _ in range(MAX_ROUNDS):
            values, point = self._exact_values(choices)
            verdict = self._float_verdict(choices, point)
            if verdict is None:
                return values
            if isinstance(verdict, str):  # "undecided"
                return self._exact_solution(choices)
            choices = verdict
        raise RuntimeError(
            f"policy iteration did not settle in {MAX_ROUNDS} rounds"
        )  # pragma: no cover

    def choose(self, holds: np.ndarray) -> None:
        """Write where the solved component's optimal mover holds into ``holds`` (a
        policy table's array); an exact tie holds.

        The choices are made in floats at the solution's reset values and kept where draw
        and hold differ by more than the rounding bound of the solve (:meth:`_tolerance`:
        a maximum errs no more than its arguments); when any is closer, all are compared
        exactly."""
        sides = self.sides
        point = [self.floats[a, b, self.game.fresh] for a, b in sides]
        forms = self._float_forms(greedy_at(point))
        tolerance = self._tolerance(forms)
        close = False
        for s, deck, k, draw, hold in forms.visits:
            margin = hold - at(draw, point)
            close = close or abs(margin) <= tolerance
            holds[(*sides[s], k, *deck_cards(deck))] = margin > 0
        if close:
            point, forms = self._solved_forms()
            for s, deck, k, draw, hold in forms.visits:
                holds[(*sides[s], k, *deck_cards(deck))] = hold >= at(draw, point)

    def state(self, a: int, b: int, k: int, deck: Hashable) -> tuple[Any, tuple[str, ...]]:
        """The solved value of state ``(a, b, k, deck)`` of the component (the mover below
        the goal) and its optimal actions, two on an exact tie."""
        game = self.game
        point, forms = self._solved_forms()
        side = self.sides.index((a, b))
        if k == 0:
            return at(forms.table[side][deck][0], point), (game.draw_word,)
        draw_form, hold = next(
            (form, hold) for s, d, t, form, hold in forms.visits if (s, d, t) == (side, deck, k)
        )
        draw = at(draw_form, point)
        best = max(draw, hold)
        return best, tuple(
            name for name, v in ((game.draw_word, draw), ("hold", hold)) if v == best
        )

    def _float_policy(self) -> Choices:
        """Policy iteration in floats: the choices at the float fixed point."""
        point = [0.5] * len(self.sides)
        previous: Choices | None = None
        for _ in range(MAX_ROUNDS):
            choices: Choices = {}
            forms = self._float_forms(greedy_at(point, choices))
            point = solve_resets(forms, self.game.fresh)
            if choices == previous:
                break
            previous = choices
        return choices

    def _float_verdict(self, choices: Choices, point: Point) -> Choices | str | None:
        r"""Check ``choices`` against their own values in floats with a rigorous error
        bound (:meth:`_tolerance`). Returns ``None`` when every choice is best,
        ``"undecided"`` when some comparison is too close to call, else better choices."""
        forms = self._float_forms(_follow(choices))
        x = [float(v) for v in point]
        tolerance = self._tolerance(forms)
        better = {}
        for s, deck, k, draw, hold in forms.visits:
            margin = hold - at(draw, x)
            if abs(margin) <= tolerance:
                return "undecided"
            better[s, deck, k] = margin > 0
        return None if better == choices else better

    def _tolerance(self, forms: Forms) -> float:
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

    def _exact_values(self, choices: Choices) -> tuple[Starts, Point]:
        """Exact turn-start values and reset values under ``choices``."""
        game, sides = self.game, self.sides
        if len(game.decks()) == 1:
            fresh = game.fresh
            forms = reach_forms(game, sides, self._exact_hold, lambda s, k: choices[s, fresh, k])
            point = solve_resets(forms, fresh)
            return {(a, b, fresh): x for (a, b), x in zip(sides, point)}, point
        forms = self._exact_forms(_follow(choices))
        point = solve_resets(forms, game.fresh)
        return self._start_values(forms, point), point

    def _exact_solution(self, choices: Choices) -> Starts:
        """Exact values with ``choices`` corrected by exact comparisons until none improves
        (the path for exact ties and comparisons too close for floats)."""
        for _ in range(MAX_ROUNDS):
            forms = self._exact_forms(_follow(choices))
            point = solve_resets(forms, self.game.fresh)
            margins = {(s, d, k): hold - at(draw, point) for s, d, k, draw, hold in forms.visits}
            better = {
                key: margin > 0 if margin else choices[key] for key, margin in margins.items()
            }
            if better == choices:
                return self._start_values(forms, point)
            choices = better
        raise RuntimeError(
            f"policy iteration did not settle in {MAX_ROUNDS} rounds"
        )  # pragma: no cover

    def _float_forms(self, decide: Decide) -> Forms:
        floats, sides = self.floats, self.sides

        def hold(s: int, banked: int, deck: Hashable) -> float:
            return 1 - floats[sides[s][1], banked, deck]

        return component_forms(self.game, sides, hold, float, decide)

    def _exact_forms(self, decide: Decide) -> Forms:
        return component_forms(self.game, self.sides, self._exact_hold, mpq, decide)

    def _exact_hold(self, s: int, banked: int, deck: Hashable) -> Any:
        """The exact value of holding: the opponent's turn start after the bank."""
        return 1 - self.starts[self.sides[s][1], banked, deck]

    def _solved_forms(self) -> tuple[Point, Forms]:
        """The solved component's exact reset values, and its exact forms with every
        choice made greedily at them (an exact tie draws, as :func:`greedy_at` does)."""
        point = [self.starts[a, b, self.game.fresh] for a, b in self.sides]
        return point, self._exact_forms(greedy_at(point))

    def _start_values(self, forms: Forms, point: Point) -> Starts:
        """Every turn-start value ``(a, b, deck)`` of the component at the reset values."""
        return {
            (a, b, deck): at(column[0], point)
            for s, (a, b) in enumerate(self.sides)
            for deck, column in forms.table[s].items()
        }


def greedy_at(point: Point, record: Choices | None = None) -> Decide:
    """A ``decide`` that holds where holding beats drawing at the reset values ``point``,
    noting each choice in ``record``."""

    def greedy(s: int, deck: Hashable, k: int, form: Form, hold: Any) -> Form:
        holds = hold > at(form, point)
        if record is not None:
            record[s, deck, k] = holds
        return held(hold, form) if holds else form

    return greedy


def _follow(choices: Choices) -> Decide:
    """A ``decide`` that makes ``choices``."""
    return lambda s, deck, k, form, hold: held(hold, form) if choices[s, deck, k] else form
