r"""What a fight looks like under a grid's policy: rounds, stamina left, luck spent.

The fight is the engine's :class:`~.model.FightModel` under the grid's choices
(:func:`~exactprob.engine.solve.evaluate`), and every answer is a forward query on that
solution: the end of the fight is its absorption distribution, the expected number of
rounds (draws included) the expected count of the moves that roll the dice
(:meth:`~exactprob.engine.solve.Solution.expected_count`), and the number of *decisive*
rounds (won or lost, no draws) a counter's law
(:meth:`~exactprob.engine.solve.Solution.counter_distribution`). That count is finite: every
decisive round lowers some stamina, while a draw repeats the state (or, under *Crypt*,
only clears the flag). Under the standard rules the total number of rounds is that count
plus independent geometric runs of draws; its law, with a cap, is
:meth:`FightOutcomes.rounds`.

>>> from exactprob.games.fighting_fantasy import Fight, solve_grid
>>> result = fight_outcomes(solve_grid(Fight(0, 1, 1, 0)), 1, 1, 0)
>>> result.win, result.expected_rounds, dict(result.decisive_rounds)
(Fraction(1, 2), Fraction(648, 575), {1: Fraction(1, 1)})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...engine.dist import Dist
from ...engine.solve import Solution, evaluate
from .grid import FightGrid
from .model import FightModel, FightState, engine_policy

__all__ = ["FightOutcomes", "decisive", "fight_outcomes", "fight_solution", "rolls"]


def rolls(state: FightState, action: str, after: FightState) -> bool:
    """Counts the moves that roll the dice: one per round, draws included."""
    return state[0] == "round"


def decisive(state: FightState, action: str, after: FightState) -> bool:
    """Counts the rounds won or lost (a draw leaves the stamina and the phase alone)."""
    return state[0] == "round" and (after[0] != "round" or after[1] != state[1])


@dataclass(frozen=True)
class FightOutcomes:
    """The end of a fight: ``final`` is the distribution of (hero won, hero stamina left
    (0 or less after a defeat is shown as 0), luck left)."""

    start: tuple[int, int, int]
    final: Dist[tuple[bool, int, int]]
    decisive_rounds: Dist[int]
    expected_rounds: Fraction
    solution: Solution = field(repr=False, compare=False)
    """The engine's solution of the fight, for further forward queries."""

    def rounds(self, cap: int) -> Dist[int]:
        """The law of the number of rounds, draws included, capped at ``cap``: the
        entry at ``cap`` is the chance of ``cap`` rounds or more (draws can repeat
        without end)."""
        return self.solution.counter_distribution(rolls, cap=cap)

    @property
    def win(self) -> Fraction:
        """The chance of victory."""
        win: Fraction = self.final.probability(lambda end: end[0])
        return win

    @property
    def stamina_on_victory(self) -> Dist[int]:
        """The hero's stamina left, given victory."""
        return self.final.condition(lambda end: end[0]).map(lambda end: end[1])

    @property
    def luck_spent(self) -> Dist[int]:
        """How much luck the hero spends, win or lose."""
        return self.final.map(lambda end: self.start[2] - end[2])


def fight_solution(grid: FightGrid, hero: int, opponent: int, luck: int) -> Solution:
    """The fight from one state as the engine's solution under the grid's choices."""
    grid.value(hero, opponent, luck)  # checks the state is in the grid
    model = FightModel(grid.fight.at(hero, opponent, luck))
    return evaluate(model, engine_policy(grid.uses_luck), progress=False)


def fight_outcomes(grid: FightGrid, hero: int, opponent: int, luck: int) -> FightOutcomes:
    """The outcome distributions from one state, under the grid's policy."""
    solution = fight_solution(grid, hero, opponent, luck)
    final = solution.absorption().map(lambda end: (end[2] <= 0, max(end[1], 0), end[3]))
    return FightOutcomes(
        start=(hero, opponent, luck),
        final=final,
        decisive_rounds=solution.counter_distribution(decisive),
        expected_rounds=solution.expected_count(rolls),
        solution=solution,
    )
