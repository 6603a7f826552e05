"""Models in one parameter: piecewise best play against point-by-point solving, and
symbolic chains against Storm's parametric engine.

    python benchmarks/bench_parameters.py [--quick] [--out FILE]

(about a minute; ``--quick``: small models, seconds.)

Without a piecewise solve, the way to see where optimal play changes is to solve the
model at many values of the parameter and look: each solve is exact, but the breakpoints
are only known to the grid's spacing. For each model this measures, in the same run, the
piecewise solve (``ep.solve`` of the symbolic model: every piece, every exact breakpoint)
against one exact solve at a single rational point and against a sweep of 100 such
points, and checks that the sweep's values are the piecewise values at those points; and
the derivation of the piecewise answer (``solution.derivation().latex()``: every piece's
equations and margins) against the piecewise solve.
Models: push your luck to ``n`` points (roll for a point with chance p or hold; 2n - 1
pieces) and red and black to ``goal`` (a cyclic model with choices; 3 pieces).

Symbolic chains: the value as a rational function of p, by ``ep.solve`` (explore, solve
in FLINT rational functions, the factored sympy value) against Storm's parametric engine
(stormpy, same run, same rational functions: building its sparse model from the DRN and
checking, without our export and the reading back of its answer), and the two answers
compared; each side runs in a fresh process, whose peak memory (imports included) is
reported too. Chains: gambler's ruin to ``n`` (from ``n/2``, win a unit with chance p) and
Chutes & Ladders alone with a spinner that shows six with chance p (expected spins).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy
from bench_engine import fmt_ratio, fmt_time, peak_kib, report, table

import exactprob as ep

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from chutes_and_ladders import Alone
from derivations import PushYourLuck, RedAndBlack

P = sympy.Symbol("p")
GRID = [Fraction(k, 101) for k in range(1, 101)]


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def measure(name: str, make: Callable[[Any], Any]) -> list[str]:
    """One row: states, pieces, breakpoints shown, the three timings, and the derivation
    of the piecewise answer (its LaTeX) against its solve."""
    piecewise_time, solved = timed(lambda: ep.solve(make(P)))
    derivation_time, _ = timed(lambda: solved.derivation().latex())
    point_time, _ = timed(lambda: ep.solve(make(Fraction(1, 3))))
    sweep_time, sweep = timed(lambda: [ep.solve(make(t)).value() for t in GRID])
    same = all(
        solved.piece_at(t).value().subs(P, sympy.Rational(t.numerator, t.denominator))
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
        fmt_time(derivation_time),
        fmt_ratio(derivation_time, piecewise_time),
        "equal" if same else "DIFFERENT",
    ]


class GamblersRuin:
    """Fortune 1 to ``goal - 1`` from ``goal // 2``; win a unit with chance ``p``."""

    def __init__(self, goal: int, p: Any) -> None:
        self.goal, self.p, self.initial = goal, p, goal // 2

    def outcome(self, s: int) -> int | None:
        return 1 if s == self.goal else (0 if s == 0 else None)

    def actions(self, s: int) -> tuple[str, ...]:
        return ("bet",)

    def transition(self, s: int, a: str) -> ep.Dist[int]:
        return ep.Dist({s + 1: self.p, s - 1: 1 - self.p})


#: The symbolic chains, by name: a model for a size (the board has one size).
CHAINS: dict[str, Callable[[int], Any]] = {
    "ruin": lambda n: GamblersRuin(n, P),
    "board": lambda _: Alone(P),
}


def measure_chain(spec: str) -> dict[str, Any]:
    """``side:chain:size`` solved in this (fresh) process: seconds, peak memory, value."""
    from exactprob.verify.storm import storm_timed_parametric_value

    side, chain, size = spec.split(":")
    model = CHAINS[chain](int(size))
    if side == "exactprob":
        ep.solve(GamblersRuin(4, P)).value()  # sympy and FLINT loaded before the timing
        seconds, value = timed(lambda: ep.solve(model).value())
    else:  # Storm: building its sparse parametric model and checking it
        value, parts = storm_timed_parametric_value(ep.explore(model))
        seconds = parts["build"] + parts["check"]
    return {"seconds": seconds, "peak_kib": peak_kib(), "value": str(value)}


def in_fresh_process(spec: str) -> dict[str, Any]:
    """:func:`measure_chain` in a fresh Python process, so that its peak memory is its own."""
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", spec]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.splitlines()[-1]))


def against_storm(name: str, chain: str, size: int) -> list[str]:
    """One row: states, the answer's degree, each side's time and peak memory (each in a
    fresh process), their ratios, and whether the rational functions agree."""
    ours = in_fresh_process(f"exactprob:{chain}:{size}")
    theirs = in_fresh_process(f"storm:{chain}:{size}")
    ours_value, theirs_value = (sympy.sympify(x["value"], locals={"p": P}) for x in (ours, theirs))
    degree = max(sympy.degree(part, P) for part in sympy.fraction(sympy.cancel(ours_value)))
    return [
        name,
        f"{len(ep.explore(CHAINS[chain](size))):,}",
        str(degree),
        fmt_time(ours["seconds"]),
        fmt_time(theirs["seconds"]),
        fmt_ratio(ours["seconds"], theirs["seconds"]),
        f"{ours['peak_kib'] / 1024:,.0f} MB",
        f"{theirs['peak_kib'] / 1024:,.0f} MB",
        fmt_ratio(ours["peak_kib"], theirs["peak_kib"]),
        "equal" if sympy.cancel(ours_value - theirs_value) == 0 else "DIFFERENT",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small models (seconds)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # side:chain:size, in a child
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure_chain(args.measure)))
        return 0
    pushes = (5, 10) if args.quick else (10, 20, 40)
    goals = (6,) if args.quick else (10, 20, 40)
    ep.solve(PushYourLuck(2, P))  # load sympy and the engine before any timing
    rows = [measure(f"push your luck to {n}", lambda p, n=n: PushYourLuck(n, p)) for n in pushes]
    rows += [measure(f"red and black to {g}", lambda p, g=g: RedAndBlack(g, p)) for g in goals]
    header = ["model", "states", "pieces", "breakpoints", "piecewise", "one point"]
    header += ["100 points", "piecewise / 100 points", "derivation", "derivation / piecewise"]
    header += ["sweep values"]
    sections = table(header, rows)
    try:
        import stormpy  # noqa: F401
    except ImportError:
        sections += ["", "Storm's parametric engine: stormpy is not installed"]
        return report("exactprob parameters benchmark", sections, args.out)
    ruins = (20, 40) if args.quick else (40, 80, 160)
    chains = [against_storm(f"gambler's ruin to {n}", "ruin", n) for n in ruins]
    if not args.quick:
        chains.append(against_storm("Chutes & Ladders alone", "board", 100))
    header = ["symbolic chain", "states", "degree", "exactprob", "Storm", "time ratio"]
    header += ["exactprob memory", "Storm memory", "memory ratio", "answers"]
    sections += ["", *table(header, chains)]
    return report("exactprob parameters benchmark", sections, args.out)


if __name__ == "__main__":
    sys.exit(main())
