r"""The atlas: the optimal strategy and the chance of victory of every state, for a range of
skill differences, and what exact arithmetic reveals in it.

The paper's supplementary figure covers :math:`\Delta \in -9..9`, staminas 1..24 and luck
0..12: :math:`19 \times 24 \times 24 \times 13 = 142\,272` states, one
:func:`~.grid.solve_grid` sweep per :math:`\Delta`.

Two kinds of decision are counted separately from the rest:

* a **tie**: testing luck and not testing it give exactly the same value (the atlas keeps
  luck then). *Forced* ties are those where the fight ends after the round whatever
  happens (a won round against an opponent with 1 stamina, or with 2 when luck 12 cannot
  fail; a lost round with 1 stamina left, or with 2 when luck 1 cannot succeed);
* a **near tie**: the two values differ, but by at most :data:`TOLERANCE` relative to the
  larger, so that a double-precision program with the paper's 1e-10 relative tolerance
  could not separate them.

>>> small = atlas(deltas=[0], max_stamina=4, max_luck=2)
>>> small.value(0, 4, 4, 0), small.strategy(0, 4, 4, 2)
(Fraction(1, 2), 0)
"""

from __future__ import annotations

import csv
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...graph import progress_bar
from ...numbers import decimal_string, fraction_string
from .grid import FightGrid, solve_grid
from .rules import luck_probability

__all__ = ["ATLAS_DELTAS", "TOLERANCE", "Atlas", "Decision", "atlas"]

#: The skill differences of the paper's atlas.
ATLAS_DELTAS = range(-9, 10)

#: The relative tolerance of the double-precision original.
TOLERANCE = Fraction(1, 10**10)


@dataclass(frozen=True)
class Decision:
    """One luck decision of the atlas: after a won (``won``) or lost round in a state."""

    delta: int
    hero: int
    opponent: int
    luck: int
    won: bool
    no_luck: Fraction
    luck_value: Fraction
    lucky_hit: int = 4

    @property
    def forced(self) -> bool:
        """Every possible result of both choices ends the fight after this round (a
        luck test that cannot fail or cannot succeed counts only its possible side)."""
        t = luck_probability(self.luck)
        # stamina lost by the side that lost the round: without luck, lucky, unlucky
        without, lucky, unlucky = (2, self.lucky_hit, 1) if self.won else (2, 1, 3)
        stamina = self.opponent if self.won else self.hero
        possible = [without] + ([lucky] if t > 0 else []) + ([unlucky] if t < 1 else [])
        return all(stamina - damage <= 0 for damage in possible)


@dataclass
class Atlas:
    """Grids by skill difference, with the seconds the sweeps took."""

    grids: dict[int, FightGrid]
    seconds: float
    bounds: tuple[int, int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.bounds = next(iter(self.grids.values())).bounds

    def value(self, delta: int, hero: int, opponent: int, luck: int) -> Fraction:
        """The optimal chance of victory."""
        return self.grids[delta].value(hero, opponent, luck)

    def strategy(self, delta: int, hero: int, opponent: int, luck: int) -> int:
        """The paper's strategy code (:data:`~.grid.STRATEGY_CODES`)."""
        return self.grids[delta].strategy(hero, opponent, luck)

    def states(self) -> Iterator[tuple[int, int, int, int]]:
        """Every (delta, hero, opponent, luck)."""
        for delta, grid in self.grids.items():
            for state in grid.states():
                yield (delta, *state)

    def decisions(self) -> Iterator[Decision]:
        """Every decision with luck to test, with both options' exact values."""
        for delta, hero, opponent, luck in self.states():
            if luck == 0:
                continue
            for won in (True, False):
                grid = self.grids[delta]
                no, yes = grid.options(won, hero, opponent, luck)
                assert yes is not None
                yield Decision(delta, hero, opponent, luck, won, no, yes, grid.rule.lucky_hit)

    def write_csv(self, path: Path) -> None:
        """One row per state: delta, hero, opponent, luck, strategy, exact and decimal
        victory probability, and whether each decision is an exact tie."""
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(
                [
                    "delta",
                    "hero",
                    "opponent",
                    "luck",
                    "strategy",
                    "win",
                    "win_decimal",
                    "tie_won",
                    "tie_lost",
                ]
            )
            for delta, hero, opponent, luck in self.states():
                grid = self.grids[delta]
                win = grid.value(hero, opponent, luck)
                ties = [
                    int(luck > 0 and grid.is_tie(w, hero, opponent, luck)) for w in (True, False)
                ]
                writer.writerow(
                    [
                        delta,
                        hero,
                        opponent,
                        luck,
                        grid.strategy(hero, opponent, luck),
                        fraction_string(win),
                        decimal_string(win, 17),
                        *ties,
                    ]
                )

    def summary(self) -> dict[str, Any]:
        """Counts for the report: states, strategies, ties, near ties, number sizes."""
        strategies = Counter(self.strategy(*state) for state in self.states())
        ties = near = forced = 0
        for d in self.decisions():
            if d.no_luck == d.luck_value:
                forced += d.forced
                ties += not d.forced
            elif abs(d.no_luck - d.luck_value) <= TOLERANCE * max(d.no_luck, d.luck_value):
                near += 1
        digits = max(len(str(self.value(*state).denominator)) for state in self.states())
        hero, opponent, luck = self.bounds
        return {
            "deltas": sorted(self.grids),
            "max_hero_stamina": hero,
            "max_opponent_stamina": opponent,
            "max_luck": luck,
            "states": sum(1 for _ in self.states()),
            "seconds": round(self.seconds, 3),
            "strategies": {str(code): strategies[code] for code in range(4)},
            "exact_ties": ties,
            "forced_ties": forced,
            "near_ties_1e-10": near,
            "largest_denominator_digits": digits,
        }


def atlas(
    deltas: Iterable[int] = ATLAS_DELTAS,
    max_stamina: int = 24,
    max_luck: int = 12,
    *,
    rule: str = "standard",
    progress: bool = False,
) -> Atlas:
    """Solve the grid of every ``delta`` (optimal play); ``progress`` shows a bar."""
    grids = {}
    start = time.perf_counter()
    deltas = list(deltas)
    bar = progress_bar(progress, "atlas", total=len(deltas), unit=" deltas")
    for delta in deltas:
        grids[delta] = solve_grid(delta, max_stamina, max_stamina, max_luck, rule=rule)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return Atlas(grids, time.perf_counter() - start)
