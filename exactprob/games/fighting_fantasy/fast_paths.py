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
"""

from __future__ import annotations

from fractions import Fraction

from ...engine import ExactFastPath, Solved, register
from .grid import FightGrid, solve_grid
from .model import LUCK, NO_LUCK, FightModel, FightState
from .rules import round_odds

__all__ = ["FightSolution", "grid_of"]


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
