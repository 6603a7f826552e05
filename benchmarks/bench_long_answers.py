"""Long exact answers: cyclic components whose values have thousands of digits, solved
by lifting their digits from a float LU, against elimination over the rationals and
Storm's exact engine on the same chains, measured in one run.

    python benchmarks/bench_long_answers.py [--quick] [--limit SECONDS] [--out FILE]

(about 5 minutes with the default limit of 120 s a peer; ``--quick``: smaller boards,
limit 20 s, about a minute.)

Each measurement runs in a fresh process (so its peak memory, ``VmHWM``, is its own)
and is stopped at the limit, reported as "no answer in N s":

- *refine*: ``ep.solve(model)``, the engine's default; large cyclic components are
  lifted from a float LU and checked exactly;
- *eliminate*: the same solve with the refinement switched off (the engine's previous
  path: sparse elimination in ``gmpy2.mpq`` in a feedback order);
- *Storm*: the explored graph exported to DRN, built with exact numbers and checked
  (``R=? [F "sink"]``, the initial state), as in bench_engine;
- *certified*: ``ep.solve(model, method="certified")``, an enclosure from floats
  (checked to contain the exact value).

The models: two-player Chutes & Ladders (examples/chutes_and_ladders.py: the Milton
Bradley board, one state per round; its cyclic component has 5,776 states and a value
of 4,453 digits over 4,453), and single-player boards of ``n`` squares with a snake every
fifth square (``Snakes``, the shape of the first: a long answer from a chain with many
cycles).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench_engine import (
    benchmark_parser,
    finish_report,
    fmt_ratio,
    fmt_time,
    load_engine_libraries,
    log,
    peak_kib,
    report_header,
    table,
)

import exactprob as ep

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from chutes_and_ladders import ChutesAndLadders


class Snakes:
    """A token on squares 0 .. n-1 moves a d6 forward; every square 3 mod 5 from 20 on
    is a snake's head, 17 squares down; passing the end ends the game, worth the
    overshoot over 6 (an expected overshoot: a value with a long denominator)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.initial = 0

    def outcome(self, s: Any) -> Fraction | None:
        return Fraction(s[1], 6) if isinstance(s, tuple) else None

    def actions(self, s: Any) -> tuple[str, ...]:
        return ("roll",)

    def transition(self, s: int, a: str) -> ep.Dist[Any]:
        moves: dict[Any, Fraction] = {}
        for d in range(1, 7):
            t = s + d
            key: Any = (
                ("end", t - self.n) if t >= self.n else t - 17 if t >= 20 and t % 5 == 3 else t
            )
            moves[key] = moves.get(key, Fraction(0)) + Fraction(1, 6)
        return ep.Dist(moves)


def model_of(case: str) -> Any:
    """``chutes`` or ``snakes-N``."""
    if case == "chutes":
        return ChutesAndLadders()
    return Snakes(int(case.split("-")[1]))


def measure(case: str, how: str) -> dict[str, Any]:
    """One measurement in this process (call it in a fresh one)."""
    load_engine_libraries()
    model = model_of(case)
    graph = ep.explore(model)
    before = peak_kib()
    started = time.perf_counter()
    if how == "storm":
        from exactprob.verify.storm import storm_timed_value

        value, _ = storm_timed_value(graph.to_networkx())
        low = high = value
    elif how == "certified":
        enclosure = ep.enclose_graph(graph).value()
        value, low, high = enclosure.midpoint(), enclosure.low, enclosure.high
    else:
        if how == "eliminate":
            from exactprob.engine._internal import linear

            linear.REFINE_LIMIT = 10**12
        value = Fraction(ep.solve_graph(graph).value())
        low = high = value
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "states": len(graph),
        "peak_mb": peak_kib() / 1024,
        "before_mb": before / 1024,
        "value": str(value),
        "low": str(low),
        "high": str(high),
    }


def in_fresh_process(case: str, how: str, limit: float) -> dict[str, Any] | None:
    """:func:`measure` in a fresh Python process, or ``None`` when it passes ``limit``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", case, how]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    return dict(json.loads(done.stdout.splitlines()[-1]))


def run_case(case: str, limit: float, log: Any) -> list[str]:
    results = {}
    for how in ("refine", "eliminate", "storm", "certified"):
        log(f"{case}: {how}")
        results[how] = in_fresh_process(case, how, limit)
    ours = results["refine"]
    assert ours is not None, f"{case}: the default solve passed the limit of {limit:.0f} s"
    value = Fraction(ours["value"])
    digits = f"{len(str(value.numerator)):,} / {len(str(value.denominator)):,}"
    rows = []
    for how, result in results.items():
        if result is None:
            rows.append([how, f"no answer in {limit:.0f} s", "", "", ""])
            continue
        low, high = Fraction(result["low"]), Fraction(result["high"])
        verdict = "contains it" if how == "certified" and low <= value <= high else ""
        verdict = verdict or ("equal" if low == high == value else "DIFFERENT")
        rows.append(
            [
                how,
                fmt_time(result["seconds"]),
                fmt_ratio(result["seconds"], ours["seconds"]),
                f"{result['peak_mb']:.0f} MB",
                verdict if how != "refine" else f"{float(value):.12f} ({digits} digits)",
            ]
        )
    title = f"### {case}: {ours['states']:,} states"
    header = ["method", "solve", "time / refine", "peak memory", "value (vs refine)"]
    return [title, "", *table(header, rows), ""]


def main(argv: list[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "smaller boards and a 20 s limit")
    parser.add_argument("--limit", type=float, help="seconds a peer may take (default 120)")
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.set_int_max_str_digits(0)  # the values are compared as exact decimal strings
    if args.measure:
        print(json.dumps(measure(*args.measure)))
        return 0
    start = time.perf_counter()
    limit = args.limit or (20.0 if args.quick else 120.0)
    cases = ["snakes-300", "snakes-600"] if args.quick else ["snakes-600", "snakes-2000", "chutes"]
    report = report_header("exactprob long exact answers", args.quick)
    report += [f"Each peer stopped at {limit:.0f} s; times exclude exploring the model.", ""]
    for case in cases:
        report += run_case(case, limit, log)
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
