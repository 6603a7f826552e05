r"""Exact optimal play of a jeopardy game, one score component at a time.

Components :math:`\{i, j\}` are taken from the highest score sum down (holding always
raises the sum, so its value is known by then). Each is one cycle of turn starts, both
sides choosing, valued by exact policy iteration (:mod:`.iteration`) on its affine forms
(:mod:`.components`).

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
from ..fairness import SolvedRace
from ..policies import PolicyTable, deck_cards, hold_thresholds, table_shape
from ..rules import Jeopardy
from .components import Forms, Point, Starts, at, components_in_order, sides_of
from .iteration import CycleIteration, greedy_at

__all__ = ["Component", "JeopardySolution", "solve_race"]


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


class Component(CycleIteration):
    r"""One score component :math:`\{i, j\}` of the optimal solve, every higher one known:
    exact turn-start values in ``starts`` (``gmpy2.mpq``) and the same as floats in
    ``floats``. :meth:`solve` values it (policy iteration, :mod:`.iteration`, every side
    choosing); once it is solved, :meth:`choose` and :meth:`state` read its optimal choices
    back (:meth:`state` reads ``starts`` alone, so ``floats`` may then be empty).

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
        super().__init__(game, sides_of(i, j))
        self.starts, self.floats = starts, floats

    def solve(self) -> Starts:
        """Exact turn-start values ``{(a, b, deck): value}`` of the component."""
        values, _ = self.iterate()
        return {key: value for side in values for key, value in side.items()}

    def exact_hold(self, s: int, banked: int, deck: Hashable) -> Any:
        """The exact value of holding: the opponent's turn start after the bank."""
        return 1 - self.starts[self.sides[s][1], banked, deck]

    def float_hold(self, s: int, banked: int, deck: Hashable) -> float:
        return 1 - self.floats[self.sides[s][1], banked, deck]

    def choose(self, holds: np.ndarray) -> None:
        """Write where the solved component's optimal mover holds into ``holds`` (a
        policy table's array); an exact tie holds.

        The choices are made in floats at the solution's reset values and kept where draw
        and hold differ by more than the rounding bound of the solve
        (:meth:`~.iteration.CycleIteration.tolerance`: a maximum errs no more than its
        arguments); when any is closer, all are compared exactly."""
        sides = self.sides
        point = [self.floats[a, b, self.game.fresh] for a, b in sides]
        forms = self.float_forms(greedy_at(point))
        tolerance = self.tolerance(forms)
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

    def _solved_forms(self) -> tuple[Point, Forms]:
        """The solved component's exact reset values, and its exact forms with every
        choice made greedily at them (an exact tie draws, as :func:`.iteration.greedy_at`
        does)."""
        point = [self.starts[a, b, self.game.fresh] for a, b in self.sides]
        return point, self.exact_forms(greedy_at(point))
