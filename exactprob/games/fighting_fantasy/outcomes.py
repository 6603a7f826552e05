r"""What a fight looks like under a policy: rounds, stamina left, luck spent.

Every answer is a law of play of a solved :class:`~.model.FightModel` (the result
protocol's :class:`~exactprob.engine.results.SolvedLaws`): optimal play as
:func:`exactprob.solve` answered it (:func:`outcomes_of`), or a grid's choices, evaluated
(:func:`fight_outcomes`). The end of the fight is its absorption distribution, the expected number of
rounds (draws included) the expected count of the moves that roll the dice
(:meth:`~exactprob.engine.exact.solution.Solution.expected_count`), and the number of *decisive*
rounds (won or lost, no draws) a counter's law
(:meth:`~exactprob.engine.exact.solution.Solution.counter_distribution`). That count is finite: every
decisive round lowers some stamina, while a draw repeats the state (or, under *Crypt*,
only clears the flag). Under the standard rules the total number of rounds is that count
plus independent geometric runs of draws; its law, with a cap, is
:meth:`FightOutcomes.rounds`.

>>> from exactprob.games.fighting_fantasy import Fight, FightModel, solve_grid
>>> result = fight_outcomes(solve_grid(Fight(0, 1, 1, 0)), 1, 1, 0)
>>> result.win, result.expected_rounds, dict(result.decisive_rounds)
(Fraction(1, 2), Fraction(648, 575), {1: Fraction(1, 1)})
>>> from exactprob import solve
>>> outcomes_of(solve(FightModel(Fight(0, 1, 1, 0)))) == result
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...engine import Dist, Solution, SolvedLaws, evaluate
from .grid import FightGrid
from .model import FightModel, FightState, engine_policy

__all__ = ["FightOutcomes", "decisive", "fight_outcomes", "fight_solution", "outcomes_of", "rolls"]


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
    solution: SolvedLaws = field(repr=False, compare=False)
    """The solved fight, for further forward queries."""

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
    return evaluate(model, engine_policy(grid.uses_luck), generic=True, progress=False)


def fight_outcomes(grid: FightGrid, hero: int, opponent: int, luck: int) -> FightOutcomes:
    """The outcome distributions from one state, under the grid's policy."""
    return outcomes_of(fight_solution(grid, hero, opponent, luck))


def outcomes_of(solved: SolvedLaws) -> FightOutcomes:
    """The outcome distributions of a solved fight from its start, under its policy.

    ``solved`` is any exact answer for a :class:`~.model.FightModel`: the grid's fast
    path that :func:`exactprob.solve` takes, the generic engine, or a fixed policy's
    evaluation; its start state is ``("round", hero, opponent, luck, False)``."""
    _, hero, opponent, luck, _ = solved.initial
    final = solved.absorption().map(lambda end: (end[2] <= 0, max(end[1], 0), end[3]))
    return FightOutcomes(
        start=(hero, opponent, luck),
        final=final,
        decisive_rounds=solved.counter_distribution(decisive),
        expected_rounds=solved.expected_count(rolls),
        solution=solved,
    )
