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

Within a component the reset values are a fixed point of a monotone map with a unique
fixed point (:doc:`/jeopardy` explains why), so the verified solution is the game's value.

>>> from .rules import Pig
>>> solution = solve(Pig(goal=10))
>>> solution.first_player_win()
Fraction(7776, 10961)
>>> solution.actions(0, 0, 4), solution.actions(0, 0, 9)
(('roll',), ('roll',))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Hashable, Iterator

from gmpy2 import mpq

from ...graph import progress_bar
from ...numbers import to_fraction
from .components import Form, Forms, at, component_forms, sides_of, solve_resets
from .rules import Jeopardy

__all__ = ["solve", "JeopardySolution", "components_in_order"]

MAX_ROUNDS = 50


def components_in_order(goal: int) -> Iterator[tuple[int, int]]:
    """Components ``(i, j)`` with ``i <= j < goal``, highest score sum first.

    >>> list(components_in_order(2))
    [(1, 1), (0, 1), (0, 0)]
    """
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), total // 2 + 1):
            yield i, total - i


class JeopardySolution:
    """Exact values of every turn start, and optimal play anywhere, for one game.

    ``starts[(a, b, deck)]`` is :math:`P(a, b, 0, d)` as a ``gmpy2.mpq``: the mover's
    chance to win with ``a`` banked against ``b``, at the start of a turn in deck state
    ``deck``. Other states are recomputed from these on demand.
    """

    def __init__(self, game: Jeopardy, starts: dict[tuple[int, int, Hashable], Any]) -> None:
        self.game = game
        self.starts = starts

    def start_value(self, a: int, b: int, deck: Hashable = None) -> Fraction:
        """:math:`P(a, b, 0, d)` (``deck`` defaults to a fresh deck)."""
        return to_fraction(self.starts[a, b, self.game.fresh if deck is None else deck])

    def first_player_win(self, komi: int | None = None) -> Fraction:
        """The first player's chance to win when the second starts with ``komi`` points
        (default: the game's own komi)."""
        komi = self.game.komi if komi is None else komi
        return self.start_value(0, komi)

    def value(self, a: int, b: int, k: int, deck: Hashable = None) -> Fraction:
        """The mover's chance to win in state ``(a, b, k, deck)`` under optimal play."""
        return to_fraction(self._state(a, b, k, deck)[0])

    def actions(self, a: int, b: int, k: int, deck: Hashable = None) -> tuple[str, ...]:
        """The optimal actions in state ``(a, b, k, deck)``; two when they tie exactly."""
        return self._state(a, b, k, deck)[1]

    def _state(self, a: int, b: int, k: int, deck: Hashable) -> tuple[Any, tuple[str, ...]]:
        game = self.game
        deck = game.fresh if deck is None else deck
        if a + k >= game.goal:
            return mpq(1), ("hold",)
        sides = sides_of(min(a, b), max(a, b))
        point = [self.starts[x, y, game.fresh] for x, y in sides]
        zeros = [mpq(0)] * len(sides)

        def best_of(form: Form, hold: Any) -> Form:
            return [hold, *zeros] if hold > at(form, point) else form

        forms = component_forms(game, sides, self._hold, mpq, best_of)
        side = sides.index((a, b))
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

    def _hold(self, b: int, banked: int, deck: Hashable) -> Any:
        return 1 - self.starts[b, banked, deck]


def solve(game: Jeopardy, progress: bool = False) -> JeopardySolution:
    """Solve ``game`` exactly: every turn-start value, component by component."""
    starts: dict[tuple[int, int, Hashable], Any] = {}
    floats: dict[tuple[int, int, Hashable], float] = {}
    goal = game.goal
    bar = progress_bar(progress, f"{game.name} to {goal}", total=goal * (goal + 1) // 2)
    for i, j in components_in_order(goal):
        sides = sides_of(i, j)
        choices = _float_policy(game, sides, floats)
        exact_forms, point = _exact_solution(game, sides, starts, choices)
        for s, (a, b) in enumerate(sides):
            for deck, column in exact_forms.table[s].items():
                value = at(column[0], point)
                starts[a, b, deck] = value
                floats[a, b, deck] = float(value)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return JeopardySolution(game, starts)


def _float_policy(game: Jeopardy, sides: list, floats: dict) -> list[bool]:
    """Policy iteration in floats: the choices (True = hold) at the float fixed point."""
    point = [0.5] * len(sides)
    previous: list[bool] | None = None
    for _ in range(MAX_ROUNDS):
        choices: list[bool] = []

        def greedy(form: Form, hold: float) -> Form:
            holds = hold > at(form, point)
            choices.append(holds)
            return [hold] + [0.0] * len(sides) if holds else form

        forms = component_forms(game, sides, lambda b, a, d: 1 - floats[b, a, d], float, greedy)
        point = solve_resets(forms, game.fresh)
        if choices == previous:
            return choices
        previous = choices
    return previous or []


def _exact_solution(
    game: Jeopardy, sides: list, starts: dict, choices: list[bool]
) -> tuple[Forms, list[Any]]:
    """Exact forms and reset values, with ``choices`` corrected until none can improve."""

    def hold_value(b: int, banked: int, deck: Hashable) -> Any:
        return 1 - starts[b, banked, deck]

    for _ in range(MAX_ROUNDS):
        position = iter(choices)
        zeros = [mpq(0)] * len(sides)

        def follow(form: Form, hold: Any) -> Form:
            return [hold, *zeros] if next(position) else form

        forms = component_forms(game, sides, hold_value, mpq, follow)
        point = solve_resets(forms, game.fresh)
        margins = [hold - at(draw, point) for *_, draw, hold in forms.visits]
        better = [margin > 0 for margin in margins]
        if all(held == best or not margin for held, best, margin in zip(choices, better, margins)):
            return forms, point
        choices = better
    raise RuntimeError(f"policy iteration did not settle in {MAX_ROUNDS} rounds")  # pragma: no cover
