"""Best play in one parameter: the piecewise solve against solving point by point.

    python benchmarks/bench_parameters.py [--quick] [--out FILE]

(about a minute; ``--quick``: small models, seconds.)

Without a piecewise solve, the way to see where optimal play changes is to solve the
model at many values of the parameter and look: each solve is exact, but the breakpoints
are only known to the grid's spacing. For each model this measures, in the same run, the
piecewise solve (``ep.solve`` of the symbolic model: every piece, every exact breakpoint)
against one exact solve at a single rational point and against a sweep of 100 such
points, and checks that the sweep's values are the piecewise values at those points.
Models: push your luck to ``n`` points (roll for a point with chance p or hold; 2n - 1
pieces) and red and black to ``goal`` (a cyclic model with choices; 3 pieces).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy
from bench_engine import fmt_ratio, fmt_time, report, table

import exactprob as ep

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from derivations import PushYourLuck, RedAndBlack  # the models of the docs

P = sympy.Symbol("p")
GRID = [Fraction(k, 101) for k in range(1, 101)]


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def measure(name: str, make: Callable[[Any], Any]) -> list[str]:
    """One row: states, pieces, breakpoints shown, and the three timings."""
    piecewise_time, solved = timed(lambda: ep.solve(make(P)))
    point_time, _ = timed(lambda: ep.solve(make(Fraction(1, 3))))
    sweep_time, sweep = timed(lambda: [ep.solve(make(t)).value() for t in GRID])
    same = all(
        solved.at(t).value_expr(0).subs(P, sympy.Rational(t.numerator, t.denominator))
        == sympy.Rational(v.numerator, v.denominator)
        for t, v in zip(GRID, sweep)
    )
    shown = ", ".join(map(str, solved.breakpoints[:3])) + (
        ", ..." if len(solved.breakpoints) > 3 else ""
    )
    return [
        name,
        f"{len(solved.graph):,}",
        str(len(solved.pieces)),
        shown,
        fmt_time(piecewise_time),
        fmt_time(point_time),
        fmt_time(sweep_time),
        fmt_ratio(piecewise_time, sweep_time),
        "equal" if same else "DIFFERENT",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small models (seconds)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    pushes = (5, 10) if args.quick else (10, 20, 40)
    goals = (6,) if args.quick else (10, 20, 40)
    ep.solve(PushYourLuck(2, P))  # load sympy and the engine before any timing
    rows = [measure(f"push your luck to {n}", lambda p, n=n: PushYourLuck(n, p)) for n in pushes]
    rows += [measure(f"red and black to {g}", lambda p, g=g: RedAndBlack(g, p)) for g in goals]
    header = ["model", "states", "pieces", "breakpoints", "piecewise", "one point"]
    header += ["100 points", "piecewise / 100 points", "sweep values"]
    return report("exactprob piecewise benchmark", table(header, rows), args.out)


if __name__ == "__main__":
    sys.exit(main())
