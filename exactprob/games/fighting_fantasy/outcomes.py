r"""What a fight looks like under a grid's policy: rounds, stamina left, luck spent.

Probability mass is pushed forward from the starting state through the states at the
start of a round. Every decisive round lowers :math:`h + o + l` (a hit costs at least 1
stamina, a luck test 1 luck and at least 1 stamina), so visiting states by decreasing
:math:`h + o + l` (the *Crypt* flag first) settles each state's mass before it moves on.
A draw repeats the state, so with :math:`m(s)` the mass that ever reaches :math:`s` and
:math:`d` the chance of a draw, the rounds spent in :math:`s` are :math:`1/(1 - d)` on
average (a draw with the *Crypt* flag set moves on instead: one round), and

.. math::

    E[\text{rounds}] = \sum_{s,\ f = 0} \frac{m(s)}{1 - d} + \sum_{s,\ f = 1} m(s).

The number of *decisive* rounds (won or lost, no draws) is finite and its distribution is
exact; under the standard rules the total number of rounds is that count plus
independent geometric runs of draws.

>>> from exactprob.games.fighting_fantasy import solve_grid
>>> result = fight_outcomes(solve_grid(0, 1, 1, 0), 1, 1, 0)
>>> result.win, result.expected_rounds, dict(result.decisive_rounds)
(Fraction(1, 2), Fraction(648, 575), {1: Fraction(1, 1)})
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from gmpy2 import mpq

from ...dist import Dist
from ...numbers import to_fraction
from .grid import FightGrid
from .rules import luck_probability, round_counts

__all__ = ["FightOutcomes", "fight_outcomes"]

RoundState = tuple[int, int, int, bool]


@dataclass(frozen=True)
class FightOutcomes:
    """The end of a fight: ``final`` is the distribution of (hero won, hero stamina left
    (0 or less after a defeat is shown as 0), luck left)."""

    start: tuple[int, int, int]
    final: Dist[tuple[bool, int, int]]
    decisive_rounds: Dist[int]
    expected_rounds: Fraction

    @property
    def win(self) -> Fraction:
        """The chance of victory."""
        return self.final.probability(lambda end: end[0])

    @property
    def stamina_on_victory(self) -> Dist[int]:
        """The hero's stamina left, given victory."""
        return self.final.condition(lambda end: end[0]).map(lambda end: end[1])

    @property
    def luck_spent(self) -> Dist[int]:
        """How much luck the hero spends, win or lose."""
        return self.final.map(lambda end: self.start[2] - end[2])


def fight_outcomes(grid: FightGrid, hero: int, opponent: int, luck: int) -> FightOutcomes:
    """The outcome distributions from one state, under the grid's policy."""
    grid.value(hero, opponent, luck)  # checks the state is in the grid
    win, draw, lose = (mpq(n) for n in round_counts(grid.delta))
    total = win + draw + lose
    crypt = grid.rule.two_in_a_row_kills
    hit = grid.rule.lucky_hit
    # mass[state][n] = chance of reaching the state after n decisive rounds
    mass: dict[RoundState, dict[int, mpq]] = defaultdict(lambda: defaultdict(mpq))
    mass[(hero, opponent, luck, False)][0] = mpq(1)
    final: dict[tuple[bool, int, int], mpq] = defaultdict(mpq)
    rounds: dict[int, mpq] = defaultdict(mpq)
    expected = mpq(0)

    def send(state: RoundState, n: int, amount: mpq) -> None:
        h, o, l, _ = state
        if h <= 0 or o <= 0:
            final[(h > 0, max(h, 0), l)] += amount
            rounds[n] += amount
        elif amount:
            mass[state][n] += amount

    def luck_split(
        won: bool, h: int, o: int, l: int, streak: bool
    ) -> list[tuple[int, int, int, mpq]]:
        if not grid.uses_luck(won, h, o, l, streak):
            return [(0, 2, l, mpq(1))] if won else [(2, 0, l, mpq(1))]
        t = mpq(*luck_probability(l).as_integer_ratio())
        lucky, unlucky = ((0, hit), (0, 1)) if won else ((1, 0), (3, 0))
        return [(*lucky, l - 1, t), (*unlucky, l - 1, 1 - t)]

    def order(state: RoundState) -> tuple[int, bool]:
        h, o, l, streak = state
        return (h + o + l, streak)

    while mass:
        state = max(mass, key=order)
        h, o, l, streak = state
        by_rounds = mass.pop(state)
        reach = sum(by_rounds.values(), mpq(0))
        if streak:  # one round: a draw clears the flag, a loss kills
            expected += reach
            moves = [(win / total, True), (lose / total, False)]
            for n, amount in by_rounds.items():
                mass[(h, o, l, False)][n] += amount * draw / total
        else:  # draws repeat: renormalise to the decisive rounds
            expected += reach * total / (win + lose)
            moves = [(win / (win + lose), True), (lose / (win + lose), False)]
        for p, won in moves:
            if not p:
                continue
            if not won and streak:
                for n, amount in by_rounds.items():
                    send((0, o, l, False), n + 1, amount * p)
                continue
            for dh, do, nl, q in luck_split(won, h, o, l, streak):
                after = (h - dh, o - do, nl, crypt and not won)
                for n, amount in by_rounds.items():
                    send(after, n + 1, amount * p * q)
    return FightOutcomes(
        start=(hero, opponent, luck),
        final=Dist({end: to_fraction(p) for end, p in final.items()}),
        decisive_rounds=Dist({n: to_fraction(p) for n, p in rounds.items()}),
        expected_rounds=to_fraction(expected),
    )
