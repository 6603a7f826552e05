"""Level models: solitaire Yahtzee and a million-state dice race, here and on Dask.

    python benchmarks/bench_levels.py [--quick] [--out FILE]

(about 16 minutes; ``--quick``: about a minute.)

Small variants (a few categories): the level model (``ep.solve`` of ``YahtzeeLevels``,
exact rationals, each turn vectorised) against the generic engine on the same game written
state by state from the rules (``tests/yahtzee_oracle.py``: every roll, keep and category
a state, points as rewards), in the same run; the two exact values are compared.

The full game (536,448 turn-start states, about 4 x 10^8 states written state by state,
far past the generic engine's limit): the level sweep in certified mode for each reading
of the rules, each in a fresh process whose peak memory (imports included) is reported,
with the enclosure's midpoint and width; and the first reading again on a local Dask
cluster (one worker process per core), whose enclosure must equal the local one.

The law of the final score under optimal play (``LevelSolution.reward_distribution``, a
forward sweep along the level model's moves): for the small variants, exact, against the
generic engine's law of the same game written state by state under the same tie rule
(``first_best_law``), compared; for the full game, certified, in a fresh process, with its
mean (which must meet the value's enclosure) and standard deviation.

The dice race of ``bench_engine.py`` (e) (reach square 1,900 within 950 turns by a d6 or
2d3 a turn: 1,057,509 states) written as a level model (a level per turn), certified
here and on the local Dask cluster, against the generic engine's exact value of the same
race as an ArrayModel; the enclosures must contain it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from bench_engine import DiceRaceArrays, fmt_ratio, fmt_time, peak_kib, report, table
from gmpy2 import mpq

import exactprob as ep
from exactprob.games.yahtzee import YahtzeeLevels, YahtzeeRules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from yahtzee_oracle import OracleYahtzee, first_best_law

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
#: The race to square 1,900 within 950 turns (quick: 190 within 95).
RACE, QUICK_RACE = (1900, 950), (190, 95)
U = 2.0**-53


class RaceLevels(ep.LevelModel):
    """The dice race by turns: state (turn, square); a square at or past the target ends
    the race (won on the target and the two squares after it), as does the last turn.
    Each turn moves by a d6 or by 2d3 (chances 1, 2, 3, 2, 1 in 9 for 2 to 6)."""

    def __init__(self, target: int, turns: int, slack: int = 2) -> None:
        self.target, self.turns, self.slack = target, turns, slack
        self.levels, self.initial = turns, (0, 0)
        self.sizes = (turns + 1, target + slack + 7)
        self.batch_rows = 100_000

    def states(self, level: int) -> np.ndarray:
        """The squares a race can be on after ``level`` turns (at most 6 a turn)."""
        squares = np.arange(min(6 * level, self.sizes[1] - 1) + 1)
        return np.stack([np.full(len(squares), level), squares], axis=1)

    def won(self, squares: np.ndarray) -> np.ndarray:
        return ((squares >= self.target) & (squares <= self.target + self.slack)).astype(np.int64)

    def final(self, states: np.ndarray) -> np.ndarray:
        return self.won(states[:, 1])

    def step(self, level, states, values, exact):
        number = (lambda n, d: mpq(n, d)) if exact else (lambda n, d: n / d)
        squares = np.minimum(states[:, 1], self.target)  # a finished race stays put
        ahead = np.stack([states[:, 0] + 1, squares], axis=1)
        d6 = sum(number(1, 6) * values(ahead + [0, r]) for r in range(1, 7))
        two_d3 = sum(
            number(c, 9) * values(ahead + [0, r])
            for r, c in ((2, 1), (3, 2), (4, 3), (5, 2), (6, 1))
        )
        best = np.maximum(d6, two_d3)
        return np.where(states[:, 1] >= self.target, self.won(states[:, 1]), best)

    def rounding_error(self, level, magnitude):
        return 2 * 8 * U / (1 - 8 * U) * magnitude


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


def small_law_rows(variants: list[tuple[str, ...]]) -> list[list[str]]:
    """The exact law of the final score by the level model's forward sweep and by the
    generic engine (the per-state model under the same tie rule), timed, compared."""
    rows = []
    for categories in variants:
        rules = YahtzeeRules(categories)
        start = time.perf_counter()
        law = ep.solve(YahtzeeLevels(rules)).reward_distribution()
        level_time = time.perf_counter() - start
        start = time.perf_counter()
        plain = first_best_law(rules)
        plain_time = time.perf_counter() - start
        rows.append(
            [
                ", ".join(categories),
                f"{len(law):,}",
                fmt_time(level_time),
                fmt_time(plain_time),
                fmt_ratio(level_time, plain_time),
                f"{float(law.variance()) ** 0.5:.10f}",
                "equal" if dict(law.items()) == plain else "DIFFERENT",
            ]
        )
    return rows


def measure_law(name: str) -> dict[str, object]:
    """One certified solve and the law of the final score in this process: times, peak
    memory, the law's mean and deviation, and whether the mean meets the value."""
    rules = QUICK_RULES if name == "quick" else READINGS[name]
    start = time.perf_counter()
    solved = ep.solve(YahtzeeLevels(rules), method="certified")
    middle = time.perf_counter()
    law = solved.reward_distribution()
    seconds = time.perf_counter() - middle
    mean, value = law.mean(), solved.value()
    return {
        "solve": middle - start,
        "seconds": seconds,
        "peak_kib": peak_kib(),
        "mean": mean.decimal(),
        "deviation": law.standard_deviation().decimal(),
        "band": float(law.relative_error),
        "meets": mean.low <= value.high and value.low <= mean.high,
    }


def law_rows(names: list[str]) -> list[list[str]]:
    """The law of each reading's final score, each in a fresh process."""
    rows = []
    for name in names:
        out = subprocess.run(
            [sys.executable, __file__, "--measure", f"law-{name}"],
            capture_output=True,
            text=True,
            check=True,
        )
        m = json.loads(out.stdout)
        rows.append(
            [
                name,
                fmt_time(m["solve"]),
                fmt_time(m["seconds"]),
                f"{m['peak_kib'] / 1024:.0f} MiB",
                m["mean"],
                m["deviation"],
                f"{m['band']:.1e}",
                "yes" if m["meets"] else "NO",
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


def measure_race(where: str, quick: bool) -> dict[str, object]:
    """The race in this process: ``"here"`` or ``"dask"`` (certified level sweep) or
    ``"engine"`` (the generic engine, exact, on the ArrayModel)."""
    target, turns = QUICK_RACE if quick else RACE
    start = time.perf_counter()
    if where == "engine":
        solved = ep.solve(DiceRaceArrays(target, turns))
        value = solved.value()
        low = high = str(value)
    else:
        cluster = "local" if where == "dask" else None
        solved = ep.solve(RaceLevels(target, turns), method="certified", cluster=cluster)
        low, high = str(solved.value().low), str(solved.value().high)
    return {
        "seconds": time.perf_counter() - start,
        "peak_kib": peak_kib(),
        "states": len(solved.states),
        "low": low,
        "high": high,
    }


def race_rows(quick: bool) -> list[list[str]]:
    """The race three ways, each in a fresh process; the enclosures must hold the exact value."""
    found = {}
    for where in ("engine", "here", "dask"):
        command = [
            sys.executable,
            __file__,
            "--measure",
            f"race-{where}",
            *(["--quick"] if quick else []),
        ]
        found[where] = json.loads(
            subprocess.run(command, capture_output=True, text=True, check=True).stdout
        )
    exact = Fraction(found["engine"]["low"])
    rows = []
    for where, label in (
        ("engine", "generic engine, exact"),
        ("here", "level sweep"),
        ("dask", "level sweep on Dask"),
    ):
        m = found[where]
        low, high = Fraction(m["low"]), Fraction(m["high"])
        holds = (
            "exact" if where == "engine" else ("contains" if low <= exact <= high else "DIFFERENT")
        )
        rows.append(
            [
                label,
                f"{m['states']:,}",
                fmt_time(m["seconds"]),
                fmt_ratio(m["seconds"], found["engine"]["seconds"]),
                f"{m['peak_kib'] / 1024:.0f} MiB",
                f"{float((low + high) / 2):.12f}",
                f"{float(high - low):.1e}",
                holds,
            ]
        )
    return rows


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
        if args.measure.startswith("race-"):
            print(json.dumps(measure_race(args.measure[5:], args.quick)))
        elif args.measure.startswith("law-"):
            print(json.dumps(measure_law(args.measure[4:])))
        else:
            print(json.dumps(measure_full(args.measure)))
        return 0
    variants = SMALL[:1] if args.quick else SMALL
    first = "quick" if args.quick else "free joker"
    names = [first, f"{first}:dask", *([] if args.quick else list(READINGS)[1:])]
    small_header = [
        "categories", "level states", "plain states", "level sweep", "generic engine",
        "ratio", "value", "answers",
    ]  # fmt: skip
    race_header = ["solver", "states", "time", "ratio", "peak memory", "value", "width", "answer"]
    small_law_header = [
        "categories", "scores", "forward sweep", "generic engine", "ratio", "deviation", "laws",
    ]  # fmt: skip
    law_header = [
        "rules", "solve", "law", "peak memory", "mean", "deviation", "relative band",
        "mean meets value",
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
        "## The law of the final score: small games, exact, against the generic engine",
        "",
        *table(small_law_header, small_law_rows(variants)),
        "",
        "## The law of the final score of the full game, certified, each in a fresh process",
        "",
        *table(law_header, law_rows([first, *([] if args.quick else ["no extra Yahtzees"])])),
        "",
        "## The dice race as a level model (a level per turn), each in a fresh process",
        "",
        *table(race_header, race_rows(args.quick)),
        "",
    ]
    return report("Solitaire Yahtzee", sections, args.out)


if __name__ == "__main__":
    sys.exit(main())
