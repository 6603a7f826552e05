#!/usr/bin/env python
"""Benchmark the roguelike luck mechanics (issue 6), measured in one run on one machine.

Usage::

    python benchmarks/bench_roguelike.py [--quick] [--out FILE] [--repeat K]

1. Dice sums for hit points against icepool: the source's ``12 + 8d10``, ``12 + 40d2``,
   ``3d6`` and ``1d20``, and larger sums (``12 + 100d10``, ``12 + 500d2``, ``50d6``; smaller
   ones in a quick run). Both
   engines build every sum from scratch in each call; both results are converted to
   ``Fraction`` dictionaries and compared with ``==``.
2. "Everything in the issue runs in seconds": one row per computation the issue asks
   for, each a ``(name, callable)`` pair. Each mechanic contributes a function of
   ``quick`` returning its rows, listed in :data:`ISSUE_TIMINGS`.

``--quick`` uses fewer repeats, smaller large sums and smaller simulations (a few
seconds) for a smoke test.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench_engine: timing helpers and the machine description
try:
    import exactprob  # noqa: F401
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(HERE.parent))

from bench_engine import (
    BENCH_HINT,
    benchmark_parser,
    best_time,
    finish_report,
    fmt_time,
    icepool,
    icepool_fresh_die,
    icepool_row,
    log,
    report_header,
    table,
)

from exactprob.cli import main as exactprob_main
from exactprob.engine.simulation import NumpyRandom
from exactprob.games.roguelike.hit_points.dice import (
    ROGUE_BASE,
    ROGUE_LEVELS,
    DistributionSummary,
    compare,
    hit_points,
    simulate_hit_points,
)
from exactprob.games.roguelike.prd import PRDTable
from exactprob.games.roguelike.prd.bounds import hits_enclosure
from exactprob.games.roguelike.prd.inverse import linear_constant
from exactprob.games.roguelike.prd.simulator import simulate_hits
from exactprob.games.roguelike.prd.trials import hit_moments, hits_distribution
from exactprob.games.roguelike.rng import RogueRandom
from exactprob.games.roguelike.rubber_band.odds import (
    RubberBand,
    Waffles,
    count_distribution,
    longest_dry_streak,
    staircakes,
    starvation_distribution,
)
from exactprob.games.roguelike.softlock.walk import locked_enclosure, locked_forever, locked_within

Timing = tuple[str, Callable[[], Any]]

#: The source's sums: (label, dice per level, levels, base), each computed by exactprob's
#: hit_points and by icepool's ``base + (levels * count) @ Die(1..sides)``.
SOURCE_SUMS = [
    ("12 + 8d10", "1d10", ROGUE_LEVELS, ROGUE_BASE),
    ("12 + 40d2", "5d2", ROGUE_LEVELS, ROGUE_BASE),
    ("3d6", "3d6", 1, 0),
    ("1d20", "1d20", 1, 0),
]


def dice_sums(quick: bool) -> list[tuple[str, str, int, int]]:
    """The source's sums and larger ones (smaller in a quick run: icepool takes ~1 s on
    ``12 + 500d2``)."""
    tens, twos, sixes = (30, 100, 20) if quick else (100, 500, 50)
    return SOURCE_SUMS + [
        (f"12 + {tens}d10", "1d10", tens, ROGUE_BASE),
        (f"12 + {twos}d2", "1d2", twos, ROGUE_BASE),
        (f"{sixes}d6", f"{sixes}d6", 1, 0),
    ]


def icepool_sum(per_level: str, levels: int, base: int) -> Any:
    """The same total with icepool, from a fresh die (no cache shared between calls)."""
    count, sides = (int(part or 1) for part in per_level.split("d"))
    return base + (levels * count) @ icepool_fresh_die(sides)


def run_dice(quick: bool, repeat: int, min_time: float) -> list[str]:
    out = ["## 1. Dice sums for hit points: exactprob vs icepool", ""]
    if icepool is None:
        out += [f"icepool is not installed, so only exactprob is timed: run `{BENCH_HINT}`.", ""]
    rows = []
    for label, per_level, levels, base in dice_sums(quick):
        log(f"dice: {label}")

        def ours(per_level: str = per_level, levels: int = levels, base: int = base) -> Any:
            return hit_points(per_level, levels, base)

        def theirs(per_level: str = per_level, levels: int = levels, base: int = base) -> Any:
            return icepool_sum(per_level, levels, base)

        rows.append(icepool_row(label, ours, theirs, repeat, min_time))
    out += table(
        ["sum", "outcomes", "exactprob", "icepool", "exactprob/icepool", "exact check"], rows
    )
    out += [
        "",
        (
            f"Time per call, best of {repeat} repeats; each repeat averages a calibrated number "
            "of calls. exactprob: hit_points(dice per level, levels, base), parsing included. "
            "icepool: base + n @ Die(range(1, sides + 1)), a fresh die each call (icepool "
            "caches icepool.d(s) and each die's n @ die). exact check: both distributions as "
            "Fraction dictionaries, compared with ==."
        ),
        "",
    ]
    return out


# ---------------------------------------------------------------------------------------
# 2. Everything in the issue runs in seconds
# ---------------------------------------------------------------------------------------
def _cli(*argv: str) -> Callable[[], Any]:
    """A call of the console script in this process, its output discarded."""

    def call() -> Any:
        with contextlib.redirect_stdout(io.StringIO()):
            return exactprob_main(list(argv))

    return call


def hp_timings(quick: bool) -> list[Timing]:
    """Hit-point dice: the summaries, the comparisons, the source's simulations, the CLI."""
    heroes = 10_000 if quick else 100_000

    def summary() -> Any:
        return DistributionSummary.of(hit_points("1d10", ROGUE_LEVELS, ROGUE_BASE))

    def rogue_levels() -> Any:
        return compare(
            hit_points("1d10", ROGUE_LEVELS, ROGUE_BASE),
            hit_points("5d2", ROGUE_LEVELS, ROGUE_BASE),
        )

    def simulate(source: Any) -> Callable[[], Any]:
        return lambda: simulate_hit_points(source, "5d2", ROGUE_LEVELS, ROGUE_BASE, heroes)

    return [
        ("hp: summary of 12 + 8d10 (mean, sd, quantiles, modes)", summary),
        ("hp: 12 + 8d10 against 12 + 40d2 (summaries, P(A > B), sd ratio)", rogue_levels),
        (
            "hp: 3d6 against 1d20",
            lambda: compare(hit_points("3d6", 1, 0), hit_points("1d20", 1, 0)),
        ),
        (f"hp: simulate {heroes:,} heroes of 12 + 40d2 on numpy", simulate(NumpyRandom(1))),
        (f"hp: simulate {heroes:,} heroes of 12 + 40d2 on Rogue's", simulate(RogueRandom(1))),
        (
            "hp: exactprob hp --compare 5d2 --full --json (in process)",
            _cli("hp", "--compare", "5d2", "--full", "--json"),
        ),
    ]


SOURCE_ODDS = ("0.03", "0.17", "0.29", "0.37", "0.43", "0.59", "0.83")
SOURCE_THRESHOLDS = (
    128849018,
    730144440,
    1245540515,
    1589137899,
    1846835937,
    2534030704,
    3564822855,
)


def prd_timings(quick: bool) -> list[Timing]:
    """PRD: rate, hits in 10,000 trials (exact moments, certified distribution), the exact
    distribution for moderate N, the inverse problem, the source's simulation."""
    decimal = PRDTable.from_odds(SOURCE_ODDS)
    thresholds = PRDTable.from_thresholds(SOURCE_THRESHOLDS)
    trials = 1_000 if quick else 10_000
    exact_trials = 100 if quick else 500
    runs = 200 if quick else 2_000
    return [
        ("prd: rate of the source's decimal table", decimal.rate),
        (
            f"prd: exact mean and variance of hits in {trials:,} trials (decimal)",
            lambda: hit_moments(decimal, trials),
        ),
        (
            f"prd: exact mean and variance of hits in {trials:,} trials (uint32)",
            lambda: hit_moments(thresholds, trials),
        ),
        (
            f"prd: certified distribution of hits in {trials:,} trials",
            lambda: hits_enclosure(decimal, trials),
        ),
        (
            f"prd: exact distribution of hits in {exact_trials} trials (decimal)",
            lambda: hits_distribution(decimal, exact_trials),
        ),
        (
            "prd: constant C for a rate of 25% (degree-11 algebraic number)",
            lambda: linear_constant(Fraction(1, 4)),
        ),
        (
            f"prd: simulate {runs:,} runs of {trials:,} trials on Rogue's generator",
            lambda: simulate_hits(decimal, trials, runs, RogueRandom(1)),
        ),
        (
            f"prd: exactprob prd --thresholds ... --trials {trials} --json (in process)",
            _cli(
                "prd",
                "--thresholds",
                ",".join(map(str, SOURCE_THRESHOLDS)),
                "--trials",
                str(trials),
                "--json",
            ),
        ),
    ]


def rubber_band_timings(quick: bool) -> list[Timing]:
    """Rubber-band odds over 20 levels (and 1,000), waffles, staircakes."""
    band = RubberBand()
    long_band = RubberBand(levels=200 if quick else 1_000)
    hungry = Waffles(every=2)
    return [
        ("rubber band: count distribution, 20 levels", lambda: count_distribution(band)),
        ("rubber band: longest dry streak, 20 levels", lambda: longest_dry_streak(band)),
        (
            f"rubber band: count distribution, {long_band.levels} levels",
            lambda: count_distribution(long_band),
        ),
        (
            "waffles: starvations if revived, eating every 2 levels",
            lambda: starvation_distribution(hungry),
        ),
        ("staircakes: expected number and P(none)", staircakes),
    ]


def softlock_timings(quick: bool) -> list[Timing]:
    """Floating-eye softlock: the closed forms, exact and certified finite limits."""
    exact_limit = 500 if quick else 2_000
    certified_limit = 1_000 if quick else 10_000
    return [
        ("softlock: locked forever, AC 10, one eye (radicals)", lambda: locked_forever(10)),
        (
            "softlock: locked forever, AC 10, two eyes (quintic, CRootOf)",
            lambda: locked_forever(10, eyes=2),
        ),
        (
            f"softlock: exact P(locked {exact_limit:,} turns), AC 10",
            lambda: locked_within(10, exact_limit),
        ),
        (
            f"softlock: certified P(locked {certified_limit:,} turns), AC 10, 128 bits",
            lambda: locked_enclosure(10, certified_limit),
        ),
    ]


#: The rows of the second table: each mechanic's function of ``quick`` -> [(name, callable)].
ISSUE_TIMINGS: list[Callable[[bool], list[Timing]]] = [
    hp_timings,
    prd_timings,
    rubber_band_timings,
    softlock_timings,
]


def run_issue(quick: bool, repeat: int, min_time: float) -> list[str]:
    rows = []
    for timings in ISSUE_TIMINGS:
        for name, call in timings(quick):
            log(name)
            rows.append([name, fmt_time(best_time(call, repeat, min_time))])
    out = ["## 2. Everything in the issue runs in seconds", ""]
    out += table(["computation", "time per call"], rows)
    out += [
        "",
        (
            f"Best of {repeat} repeats, each the mean of a calibrated number of calls "
            "(at least one). Each row is one computation the issue asks for, exact unless "
            "it says simulate."
        ),
        "",
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "fewer repeats")
    parser.add_argument("--repeat", type=int, help="repeats per timing (default 3 quick, 7 full)")
    args = parser.parse_args(argv)
    repeat = max(args.repeat or (3 if args.quick else 7), 1)
    min_time = 0.02 if args.quick else 0.2

    start = time.perf_counter()
    report = report_header("exactprob roguelike benchmark", args.quick)
    report += run_dice(args.quick, repeat, min_time)
    report += run_issue(args.quick, repeat, min_time)
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
