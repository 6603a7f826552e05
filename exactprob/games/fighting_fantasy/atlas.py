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

import math
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from gmpy2 import mpq

from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.numbers import decimal_string, fraction_string, to_fraction
from ...util.progress import progress_bar
from ...util.resources import check_memory
from .grid import FightGrid, GridRecord, grid_bytes, solve_grid, value_bits
from .rules import ends_either_way
from .terms import Fight

__all__ = [
    "ATLAS_DELTAS",
    "TOLERANCE",
    "Atlas",
    "Decision",
    "atlas",
    "atlas_bytes",
    "atlas_csv_bytes",
    "atlas_states",
]

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
        return ends_either_way(self.won, self.hero, self.opponent, self.luck, self.lucky_hit)


def is_near_tie(a: Any, b: Any) -> bool:
    r"""Whether the non-negative exact values ``a`` and ``b`` differ by at most
    :data:`TOLERANCE` relative to the larger: with :math:`a = p/q`, :math:`b = r/s` and
    :math:`T = t_1 / t_2`, whether :math:`t_2 |ps - rq| \le t_1 \max(ps, rq)`, in integers
    (no fraction to reduce).

    >>> is_near_tie(Fraction(1), Fraction(10**10 - 1, 10**10)), is_near_tie(1, Fraction(1, 2))
    (True, False)
    """
    ps, rq = a.numerator * b.denominator, b.numerator * a.denominator
    return bool(TOLERANCE.denominator * abs(ps - rq) <= TOLERANCE.numerator * max(ps, rq))


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

    def records(self) -> Iterator[tuple[int, GridRecord]]:
        """``(delta, record)`` for every state, in :meth:`states` order
        (:meth:`~.grid.FightGrid.records`: exact ``mpq`` values read in bulk)."""
        for delta, grid in self.grids.items():
            for record in grid.records():
                yield delta, record

    def decisions(self) -> Iterator[Decision]:
        """Every decision with luck to test, with both options' exact values."""
        for delta, r in self.records():
            if r.luck == 0:
                continue
            hit = self.grids[delta].fight.rule.lucky_hit
            for won, (no, yes) in ((True, r.after_won), (False, r.after_lost)):
                assert yes is not None
                no_luck, luck_value = to_fraction(no), to_fraction(yes)
                yield Decision(delta, r.hero, r.opponent, r.luck, won, no_luck, luck_value, hit)

    def write_csv(self, path: Path) -> None:
        """One row per state: delta, hero, opponent, luck, strategy, exact and decimal
        victory probability, and whether each decision is an exact tie."""
        header = "delta,hero,opponent,luck,strategy,win,win_decimal,tie_won,tie_lost"
        # every field is a number or "p/q": no quoting needed; CRLF as the csv module writes
        with open(path, "w", newline="", encoding="utf-8") as out:
            out.write(header + "\r\n")
            out.writelines(
                f"{delta},{r.hero},{r.opponent},{r.luck},{r.strategy},"
                f"{fraction_string(r.value)},{decimal_string(r.value, 17)},"
                f"{int(r.after_won[0] == r.after_won[1])},"
                f"{int(r.after_lost[0] == r.after_lost[1])}\r\n"
                for delta, r in self.records()
            )

    def summary(self) -> dict[str, Any]:
        """Counts for the report: states, strategies, ties, near ties, number sizes."""
        strategies: Counter[int] = Counter()
        ties = near = forced = states = 0
        largest = mpq(1).denominator
        for delta, r in self.records():
            states += 1
            strategies[r.strategy] += 1
            largest = max(largest, r.value.denominator)
            if r.luck == 0:
                continue
            for won, (no, yes) in ((True, r.after_won), (False, r.after_lost)):
                if no == yes:
                    hit = self.grids[delta].fight.rule.lucky_hit
                    tie_forced = ends_either_way(won, r.hero, r.opponent, r.luck, hit)
                    forced += tie_forced
                    ties += not tie_forced
                elif is_near_tie(no, yes):
                    near += 1
        hero, opponent, luck = self.bounds
        return {
            "deltas": sorted(self.grids),
            "max_hero_stamina": hero,
            "max_opponent_stamina": opponent,
            "max_luck": luck,
            "states": states,
            "seconds": round(self.seconds, 3),
            "strategies": {str(code): strategies[code] for code in range(4)},
            "exact_ties": ties,
            "forced_ties": forced,
            "near_ties_1e-10": near,
            "largest_denominator_digits": len(str(largest)),
        }


def atlas_states(max_stamina: int, max_luck: int, deltas: Iterable[int] = ATLAS_DELTAS) -> int:
    """The states of an atlas: per delta, every hero and opponent stamina and luck.

    >>> atlas_states(24, 12) == 19 * 24 * 24 * 13  # deltas -9 to 9
    True
    """
    return len(list(deltas)) * max_stamina * max_stamina * (max_luck + 1)


#: Bytes of a CSV row besides its exact value: delta, staminas, luck, strategy, the
#: 17-place decimal, the two tie flags, commas and the line end.
_ROW_BYTES = 45


def atlas_bytes(fights: Iterable[Fight]) -> int:
    """The memory of an atlas of ``fights``, checked before it is solved: every grid is
    kept, so the grids' estimates (:func:`~.grid.grid_bytes`) add up.

    >>> atlas_bytes(Fight(delta, 324, 324, 0) for delta in ATLAS_DELTAS) > 5 * 10**9
    True
    """
    return sum(grid_bytes(fight) for fight in fights)


def atlas_csv_bytes(max_stamina: int, max_luck: int, deltas: Iterable[int] = ATLAS_DELTAS) -> int:
    """About the size of the atlas's CSV (:meth:`Atlas.write_csv`): a row per state, its
    exact value ``p/q`` of :func:`~.grid.value_bits` bits (the grid's average bound), and
    :data:`_ROW_BYTES` more. Measured files are 0.85 to 0.91 of it (staminas 24 to 150).

    >>> atlas_csv_bytes(324, 0) > 2 * 10**9
    True
    """
    digits = value_bits(max_stamina, max_stamina, max_luck) * math.log10(2)
    return int(atlas_states(max_stamina, max_luck, deltas) * (digits + _ROW_BYTES))


def atlas(
    deltas: Iterable[int] = ATLAS_DELTAS,
    max_stamina: int = 24,
    max_luck: int = 12,
    *,
    rule: str = "standard",
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Atlas:
    """Solve the grid of every ``delta`` (optimal play), refused up front when all the
    grids together hold more than ``max_states`` states or more memory than there is
    (:func:`atlas_bytes`); ``progress`` shows a bar."""
    grids = {}
    start = time.perf_counter()
    deltas = list(deltas)
    refuse_more_than(max_states, atlas_states(max_stamina, max_luck, deltas), "the atlas")
    fights = [Fight(delta, max_stamina, max_stamina, max_luck, rule) for delta in deltas]
    check_memory(atlas_bytes(fights), "the atlas (every grid kept)")
    with progress_bar(progress, "atlas", total=len(deltas), unit=" deltas") as bar:
        for fight in fights:
            grids[fight.delta] = solve_grid(fight, max_states=max_states)
            bar.update(1)
    return Atlas(grids, time.perf_counter() - start)
