#!/usr/bin/env python
"""Benchmark fleet battles and Risk, measured in one run on one machine.

Usage::

    python benchmarks/bench_fleet.py [--quick] [--out FILE] [--repeat K]

1. The per-round hit distribution of a fleet: ``exactprob`` (a convolution of one
   binomial per combat value, through ``Dist``) against ``icepool`` (the same fleet as
   sums of ``d10 >= a`` dice), on the same fleets; the two are compared as exact
   fractions.
2. Battles of up to 20 ships a side, solved exactly: exploring the chain, solving it,
   and the full result (absorption distribution and expected rounds).
3. Risk: the whole conquest table for A, D up to 20 (one exploration, one solve).

``--quick`` uses small sizes (a few seconds) for a smoke test.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench_engine: timing helpers and the machine description
try:
    import exactprob  # noqa: F401
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(HERE.parent))

from bench_engine import (
    benchmark_parser,
    best_time,
    finish_report,
    fmt_time,
    icepool,
    icepool_row,
    log,
    report_header,
    table,
)

from exactprob import Dist, explore, solve_graph
from exactprob.games.fleet_battle import FleetBattle, hit_distribution, parse_fleet
from exactprob.games.risk import conquest_table
from exactprob.util.numbers import fraction_string


# ---------------------------------------------------------------------------------------
# 1. Hit distributions
# ---------------------------------------------------------------------------------------
def icepool_hits(fleet_text: str) -> Any:
    """The fleet's hits with icepool: per unit type, ``(count * dice) @ (d10 >= a)``,
    summed; every call builds a fresh d10 (icepool caches ``icepool.d(10)`` and each
    die's ``n @ die``)."""
    fleet = parse_fleet(fleet_text)
    total = None
    for unit, count in zip(fleet.units, fleet.counts):
        hit = icepool.Die(range(1, 11)) >= unit.combat
        term = (count * unit.dice) @ hit
        total = term if total is None else total + term
    return total


def exactprob_hits(fleet_text: str) -> Dist[int]:
    fleet = parse_fleet(fleet_text)
    return hit_distribution(fleet, fleet.initial_state)


def run_hits(quick: bool, repeat: int, min_time: float, log: Callable[[str], None]) -> list[str]:
    fleets = ["8 fighter", "2 war-sun, 3 fighter", "2 war-sun, 4 dreadnought, 6 cruiser, 8 fighter"]
    fleets.append("20 war-sun, 100 fighter" if not quick else "5 war-sun, 20 fighter")
    rows = []
    for text in fleets:
        log(f"hits: {text}")
        ours = partial(exactprob_hits, text)
        rows.append(icepool_row(text, ours, partial(icepool_hits, text), repeat, min_time))
    out = ["## 1. Hit distribution of a fleet: exactprob vs icepool", ""]
    out += table(
        ["fleet", "outcomes", "exactprob", "icepool", "exactprob/icepool", "exact check"], rows
    )
    out += [
        "",
        (
            f"Time per call (parsing the fleet included on both sides), best of {repeat} "
            "repeats. exactprob: one binomial per combat value, convolved by Dist. icepool: "
            "(count * dice) @ (d10 >= a) per unit type, summed, with a fresh d10 each call. "
            "exact check: both as Fraction dictionaries, compared with ==."
        ),
        "",
    ]
    return out


# ---------------------------------------------------------------------------------------
# 2. Battles
# ---------------------------------------------------------------------------------------
def run_battles(quick: bool, log: Callable[[str], None]) -> list[str]:
    if quick:
        cases = [
            ("10 fighter", "10 fighter"),
            ("1 war-sun, 2 dreadnought, 3 fighter", "3 cruiser, 4 fighter"),
        ]
    else:
        cases = [
            ("20 fighter", "20 fighter"),
            (
                "2 war-sun, 4 dreadnought, 6 cruiser, 8 fighter",
                "5 dreadnought, 5 cruiser, 5 destroyer, 5 fighter",
            ),
            ("20 dreadnought", "20 dreadnought"),
        ]
    rows = []
    for a, d in cases:
        log(f"battle: {a} vs {d}")
        t0 = time.perf_counter()
        G = explore(FleetBattle(parse_fleet(a), parse_fleet(d)))
        t1 = time.perf_counter()
        solution = solve_graph(G)
        t2 = time.perf_counter()
        absorbed = solution.absorption()
        rounds = solution.expected_steps()
        t3 = time.perf_counter()
        assert sum(absorbed.values()) == 1 and rounds > 0
        rows.append(
            [
                f"{a} vs {d}",
                f"{len(G):,}",
                f"{G.number_of_transitions():,}",
                fmt_time(t1 - t0),
                fmt_time(t2 - t1),
                fmt_time(t3 - t2),
                fmt_time(t3 - t0),
                f"{float(solution.value()):.6f} ({len(fraction_string(solution.value())):,} chars)",
            ]
        )
    out = ["## 2. Battles solved exactly (default hit orders)", ""]
    out += table(
        [
            "battle",
            "states",
            "transitions",
            "explore",
            "solve",
            "absorption + rounds",
            "total",
            "P(win) (length of p/q)",
        ],
        rows,
    )
    out += [
        "",
        (
            "One run each. explore: exactprob.explore(FleetBattle). solve: solve_graph (the "
            "win probability). absorption + rounds: Solution.absorption() (the distribution "
            "over terminal states, from which every result is read) and expected_steps(); "
            "total: the three, i.e. exactprob.games.fleet_battle.battle()."
        ),
        "",
    ]
    return out


# ---------------------------------------------------------------------------------------
# 3. Risk
# ---------------------------------------------------------------------------------------
def run_risk(quick: bool, repeat: int, min_time: float, log: Callable[[str], None]) -> list[str]:
    size = 10 if quick else 20
    log(f"risk table {size} x {size}")
    t = best_time(lambda: conquest_table(size, size), repeat, min_time)
    cells = len(conquest_table(size, size))
    return [
        "## 3. Risk conquest table",
        "",
        (
            f"P(conquest) for A = 2..{size}, D = 1..{size} ({cells} cells, one exploration "
            f"and one solve): {fmt_time(t)} per table, best of {repeat} repeats."
        ),
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "small sizes")
    parser.add_argument(
        "--repeat", type=int, help="repeats per timed case (default 3 quick, 7 full)"
    )
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 7)
    min_time = 0.02 if args.quick else 0.2

    start = time.perf_counter()
    report = report_header("exactprob fleet battles and Risk", args.quick)
    report += run_hits(args.quick, repeat, min_time, log)
    report += run_battles(args.quick, log)
    report += run_risk(args.quick, repeat, min_time, log)
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
