r"""The grid sweep as the engine's exact method for a fight (:mod:`exactprob.engine.methods`).

``ep.solve(FightModel(Fight(...)))`` solves the whole grid up to the fight's start in one backward
sweep (:func:`~.grid.solve_grid`) and answers for the model's states
:math:`(\text{phase}, h, o, l, f)`: at the start of a round the grid's value
:math:`V(h, o, l, f)`; after a won or lost round the better of the two options, testing luck
or not, both listed when they tie exactly (the policy then keeps luck, the model's first
action, as the grid does).

>>> import exactprob as ep
>>> from exactprob.games.fighting_fantasy import Fight, FightModel
>>> solved = ep.solve(FightModel(Fight(0, 4, 4, 7)))
>>> solved.solver, solved.value()
('fighting fantasy grid', Fraction(9185, 13824))
>>> ep.solve(FightModel(Fight(0, 4, 4, 7)), generic=True).value()
Fraction(9185, 13824)
>>> solved.policy(("won", 4, 4, 7, False))
'luck'

A fixed luck policy takes the grid too (``ep.evaluate``, :func:`~.grid.solve_grid` with
the policy): never testing luck is the paper's closed form, here 1/2 by symmetry.

>>> never = ep.evaluate(FightModel(Fight(0, 4, 4, 7)), lambda state: "roll" if state[0] == "round" else "no luck")
>>> never.solver, never.value(), never.ties(("won", 4, 4, 7, False))
('fighting fantasy grid', Fraction(1, 2), ('no luck',))
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

from ...engine import ExactFastPath, Solved, explore, fixed_policy, register, register_evaluator
from .grid import FightGrid, solve_grid
from .model import LUCK, NO_LUCK, FightModel, FightState
from .rules import round_odds

__all__ = ["FightPolicySolution", "FightSolution", "grid_of"]


class FightSolution(ExactFastPath):
    """A fight's grid (in ``grid``) answering for the states of the model it solved."""

    __slots__ = ("grid",)
    name = "fighting fantasy grid"

    def __init__(self, model: FightModel, grid: FightGrid, max_states: int) -> None:
        super().__init__(model, max_states)
        self.grid = grid

    def _options(self, state: FightState) -> tuple[Fraction, Fraction | None]:
        """(no luck, luck or ``None``) after the won or lost round of ``state``."""
        phase, hero, opponent, luck, streak = state
        return self.grid.options(phase == "won", hero, opponent, luck, streak)

    def value(self, state: FightState | None = None) -> Fraction:
        """The exact value of ``state`` under optimal luck."""
        model: FightModel = self.model
        state = model.initial if state is None else state
        ended = model.outcome(state)
        if ended is not None:
            return ended
        phase, hero, opponent, luck, streak = state
        if phase == "round":
            return self.grid.value(hero, opponent, luck, streak)
        no, yes = self._options(state)
        return no if yes is None else max(no, yes)

    def ties(self, state: FightState | None = None) -> tuple[str, ...]:
        """The optimal actions: both when testing luck and keeping it tie exactly."""
        model: FightModel = self.model
        state = model.initial if state is None else state
        if model.outcome(state) is not None:
            return ()
        if state[0] == "round":
            return ("roll",)
        no, yes = self._options(state)
        if yes is None or no > yes:
            return (NO_LUCK,)
        return (NO_LUCK, LUCK) if yes == no else (LUCK,)


class FightPolicySolution(FightSolution):
    """A fight's grid under a fixed luck policy (in ``grid``): each state's value under
    the policy, and the policy's one action as its play, as the generic engine's
    evaluation answers."""

    __slots__ = ("restricted",)

    def __init__(self, model: FightModel, grid: FightGrid, max_states: int, restricted: Any):
        super().__init__(model, grid, max_states)
        self.restricted = restricted  # the model under the policy: its one action a state

    @property
    def states(self) -> Sequence[Hashable]:
        """Every state play under the policy reaches (the initial state first), as the
        generic engine's evaluation lists them."""
        if self._explored is None:
            self._explored = explore(
                self.restricted, max_states=self.max_states, progress=False
            ).states
        return self._explored

    def _uses_luck(self, state: FightState) -> bool:
        phase, hero, opponent, luck, streak = state
        return self.grid.uses_luck(phase == "won", hero, opponent, luck, streak)

    def value(self, state: FightState | None = None) -> Fraction:
        """The exact value of ``state`` under the policy."""
        model: FightModel = self.model
        state = model.initial if state is None else state
        if model.outcome(state) is not None or state[0] == "round":
            return super().value(state)
        no, yes = self._options(state)
        return yes if yes is not None and self._uses_luck(state) else no

    def ties(self, state: FightState | None = None) -> tuple[str, ...]:
        """The policy's action (one: a fixed policy has no ties)."""
        model: FightModel = self.model
        state = model.initial if state is None else state
        if model.outcome(state) is not None or state[0] == "round":
            return super().ties(state)
        return (LUCK,) if self._uses_luck(state) else (NO_LUCK,)

    def action_values(self, state: FightState | None = None) -> dict[Any, Any]:
        """The value of the policy's action (the only one it plays)."""
        values = super().action_values(state)
        return {action: values[action] for action in self.ties(state)}


def grid_of(solved: Solved) -> FightGrid:
    """The grid a solution of a fight holds (what :func:`exactprob.solve` answered through
    this module's fast path)."""
    if not isinstance(solved, FightSolution):
        raise TypeError(f"not a solved fight: {type(solved).__name__}")
    return solved.grid


@register(FightModel)
def _grid(model: FightModel, *, max_states: int, progress: bool) -> FightSolution | None:
    """Every state of the fight up to its start, in one exact sweep; a model whose round
    odds were changed (symbolic odds, say) is left to the generic engine."""
    if model.odds != round_odds(model.fight.delta):
        return None
    grid = solve_grid(model.fight, max_states=max_states, progress=progress)
    return FightSolution(model, grid, max_states)


class _TestsLuck:
    """A fixed policy of a fight as the grid asks it: test luck after this won or lost
    round? The policy's action is checked as the engine checks it (``restricted``, the
    model under the policy); picklable when the policy is."""

    __slots__ = ("restricted",)

    def __init__(self, restricted: Any) -> None:
        self.restricted = restricted

    def __call__(self, won: bool, hero: int, opponent: int, luck: int, streak: bool) -> bool:
        state: FightState = ("won" if won else "lost", hero, opponent, luck, streak)
        return bool(self.restricted.actions(state) == (LUCK,))


@register_evaluator(FightModel)
def _grid_under(
    model: FightModel, policy: Any, *, max_states: int, progress: bool
) -> FightPolicySolution | None:
    """The grid swept under ``policy``, which it asks at every state of its box, reached
    or not (the rounds too, which only roll). The generic engine, which asks only the
    states play reaches and counts only those against ``max_states``, answers where that
    fails: a policy with no allowed action, or one that raises, at a state of the box;
    a box over the limit; a model with changed odds."""
    if model.odds != round_odds(model.fight.delta):
        return None
    restricted = fixed_policy(model, policy)
    tests_luck, fight = _TestsLuck(restricted), model.fight
    streaks = (False, True) if fight.rule.two_in_a_row_kills else (False,)
    try:  # the grid asks the won and lost rounds with luck left; the others here
        for hero, opponent, streak in product(
            range(1, fight.hero_stamina + 1), range(1, fight.opponent_stamina + 1), streaks
        ):
            for luck in range(fight.luck + 1):
                restricted.actions(("round", hero, opponent, luck, streak))
            tests_luck(True, hero, opponent, 0, streak)
            tests_luck(False, hero, opponent, 0, streak)
        grid = solve_grid(fight, policy=tests_luck, max_states=max_states, progress=progress)
    except Exception:  # noqa: BLE001 - whatever the box asks, the engine's own answer decides
        return None
    return FightPolicySolution(model, grid, max_states, restricted)
