"""Solitaire Yahtzee: the level sweep against the generic engine, and the full game.

    python benchmarks/bench_yahtzee.py [--quick] [--out FILE]

(about 5 minutes; ``--quick``: under a minute.)

Small variants (a few categories): the level model (``ep.solve`` of ``YahtzeeLevels``,
exact rationals, each turn vectorised) against the generic engine on the same game written
state by state from the rules (``tests/yahtzee_oracle.py``: every roll, keep and category
a state, points as rewards), in the same run; the two exact values are compared.

The full game (536,448 turn-start states, about 4 x 10^8 states written state by state,
far past the generic engine's limit): the level sweep in certified mode for each reading
of the rules, each in a fresh process whose peak memory (imports included) is reported,
with the enclosure's midpoint and width; and the first reading again on a local Dask
cluster (one worker process per core), whose enclosure must equal the local one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from bench_engine import fmt_ratio, fmt_time, peak_kib, report, table

import exactprob as ep
from exactprob.games.yahtzee import YahtzeeLevels, YahtzeeRules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from yahtzee_oracle import OracleYahtzee

SMALL = [
    ("Sixes", "Yahtzee"),
    ("Sixes", "Full House", "Yahtzee"),
    ("Fours", "Fives", "Sixes"),
]
READINGS = {
    "free joker": YahtzeeRules(),
    "forced joker": YahtzeeRules(joker="forced"),
    "no extra Yahtzees": YahtzeeRules(extra_yahtzees=False),
}
QUICK_RULES = YahtzeeRules(categories=("Aces", "Twos", "Threes", "Full House", "Yahtzee"))


def small_rows(variants: list[tuple[str, ...]]) -> list[list[str]]:
    """Exact values by the level sweep and by the generic engine, timed, compared."""
    rows = []
    for categories in variants:
        rules = YahtzeeRules(categories)
        start = time.perf_counter()
        levels = ep.solve(YahtzeeLevels(rules))
        level_time = time.perf_counter() - start
        start = time.perf_counter()
        plain = ep.solve(OracleYahtzee(categories, rules.upper_bonus, rules.extra_yahtzees))
        plain_time = time.perf_counter() - start
        same = "equal" if levels.value() == plain.value() else "DIFFERENT"
        rows.append(
            [
                ", ".join(categories),
                f"{len(levels.states):,}",
                f"{len(plain.states):,}",
                fmt_time(level_time),
                fmt_time(plain_time),
                fmt_ratio(level_time, plain_time),
                f"{float(levels.value()):.10f}",
                same,
            ]
        )
    return rows


def measure_full(name: str) -> dict[str, object]:
    """One certified solve in this process (``NAME`` or ``NAME:dask``, on a local Dask
    cluster of one worker per core): time, peak memory, the enclosure."""
    name, _, where = name.partition(":")
    rules = QUICK_RULES if name == "quick" else READINGS[name]
    cluster = "local" if where == "dask" else None
    start = time.perf_counter()
    solved = ep.solve(YahtzeeLevels(rules), method="certified", cluster=cluster)
    seconds = time.perf_counter() - start
    box = solved.value()
    return {
        "seconds": seconds,
        "peak_kib": peak_kib(),
        "states": len(solved.states),
        "value": box.decimal(),
        "width": float(box.width()),
        "low": str(box.low),
        "high": str(box.high),
    }


def full_rows(names: list[str]) -> list[list[str]]:
    """Each solve in a fresh process; a ``:dask`` run's enclosure compared with the local
    one just before it (the peak memory is the client's; the workers' is their own)."""
    rows, local = [], None
    for name in names:
        out = subprocess.run(
            [sys.executable, __file__, "--measure", name],
            capture_output=True,
            text=True,
            check=True,
        )
        m = json.loads(out.stdout)
        same = ""
        if name.endswith(":dask") and local is not None:
            same = "equal" if (m["low"], m["high"]) == local else "DIFFERENT"
        else:
            local = (m["low"], m["high"])
        rows.append(
            [
                name,
                f"{m['states']:,}",
                fmt_time(m["seconds"]),
                f"{m['states'] / m['seconds']:,.0f}",
                f"{m['peak_kib'] / 1024:.0f} MiB",
                m["value"],
                f"{m['width']:.1e}",
                same,
            ]
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small games only (under a minute)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure_full(args.measure)))
        return 0
    variants = SMALL[:1] if args.quick else SMALL
    first = "quick" if args.quick else "free joker"
    names = [first, f"{first}:dask", *([] if args.quick else list(READINGS)[1:])]
    small_header = [
        "categories", "level states", "plain states", "level sweep", "generic engine",
        "ratio", "value", "answers",
    ]  # fmt: skip
    full_header = [
        "rules", "states", "time", "states/s", "peak memory", "value", "width", "Dask = local",
    ]  # fmt: skip
    sections = [
        "## Small games: the level sweep (exact) against the generic engine (exact)",
        "",
        *table(small_header, small_rows(variants)),
        "",
        "## The full game, certified, each in a fresh process (':dask': a local Dask cluster)",
        "",
        *table(full_header, full_rows(names)),
        "",
    ]
    return report("Solitaire Yahtzee", sections, args.out)


if __name__ == "__main__":
    sys.exit(main())
