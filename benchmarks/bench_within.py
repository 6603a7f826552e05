#!/usr/bin/env python
"""Within N turns: the whole table over N from one solve, against one solve per N.

Usage::

    python benchmarks/bench_within.py [--quick] [--turns 15] [--out FILE]

The game is ``examples/within_turns.py``'s two-dice Pig played alone to 100: the best
chance to reach 100 within N turns, a turn counted at its first roll. exactprob's
answer is one solve, ``ep.solve(TwoDicePig(), horizon=N, counter=turns)``, which gives
the chance for every number of turns from 0 to N. The peer is how the question was
answered before: a model written by hand with the turns left in its state, ``(score,
turn total, turns left)``, solved once for each N (one solve per cell of the table).
The table is the hand model's N = 1..N solves; the single solve is its largest, N. The
issue's goal is the sweep within three single solves. Each measurement runs in a fresh
process with the libraries loaded before the clock starts; every chance of the sweep
must equal the hand model's.

``--quick`` asks N = 5 (a few seconds). ``--out FILE`` also writes the report (the
machine, then the table) to FILE. The script exits with status 1 when a chance differs.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

from bench_memory import peak_kib
from bench_worker import in_fresh_process, run_benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


class TurnsInTheState:
    """Two-dice Pig alone with the turns left written into the state by hand:
    ``(score, turn total, turns left)``; lost when a turn would start with none left."""

    def __init__(self, turns: int) -> None:
        from examples.within_turns import TwoDicePig

        self.game = TwoDicePig()
        self.initial = (0, 0, turns)

    def outcome(self, state: tuple[int, int, int]) -> int | None:
        score, total, left = state
        if score >= 100:
            return 1
        return 0 if total == 0 and left == 0 else None

    def actions(self, state: tuple[int, int, int]) -> tuple[str, ...]:
        return self.game.actions(state[:2])

    def transition(self, state: tuple[int, int, int], action: str) -> object:
        score, total, left = state
        after = left - 1 if total == 0 else left  # the first roll starts a turn
        return self.game.transition((score, total), action).map(lambda s: (*s, after))


def sweep(turns: int) -> dict[str, object]:
    """The table over 0..turns from one solve, in this process."""
    import exactprob as ep
    from examples.within_turns import TwoDicePig
    from examples.within_turns import turns as counter

    ep.solve(TwoDicePig(goal=10), horizon=1, counter=counter, progress=False)  # imports
    start = time.perf_counter()
    solution = ep.solve(TwoDicePig(), horizon=turns, counter=counter, progress=False)
    chances = [str(solution.value(((0, 0), n))) for n in range(1, turns + 1)]
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "states": len(solution.states), "chances": chances, "mb": _mb()}


def by_hand(turns: int) -> dict[str, object]:
    """The hand model's chance within ``turns``, one solve, in this process."""
    import exactprob as ep

    ep.solve(TurnsInTheState(1), progress=False)  # the imports a first solve loads
    start = time.perf_counter()
    solution = ep.solve(TurnsInTheState(turns), progress=False)
    chance = str(solution.value())
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "states": len(solution.states), "chance": chance, "mb": _mb()}


def _mb() -> float:
    return peak_kib() / 1024


def measure(side: str, turns: int) -> dict[str, object]:
    """One side in a fresh process."""
    result = in_fresh_process(__file__, side, turns)
    assert result is not None  # no timeout
    return result


def worker(side: str, turns: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return (sweep if side == "sweep" else by_hand)(int(turns))


def main() -> int:
    from bench_engine import benchmark_parser, finish_report, log, report_header

    parser = benchmark_parser(__doc__, "N = 5")
    parser.add_argument("--turns", type=int, help="the most turns N (default 15; 5 quick)")
    args = parser.parse_args()
    turns = args.turns or (5 if args.quick else 15)
    start = time.perf_counter()
    report = report_header("Within N turns: one solve against one solve per N", args.quick)
    log(f"one solve for N = 0..{turns}")
    ours = measure("sweep", turns)
    hand = []
    for n in range(1, turns + 1):
        log(f"the hand model, N = {n}")
        hand.append(measure("hand", n))
    chances: list[str] = ours["chances"]  # type: ignore[assignment]
    same = all(Fraction(c) == Fraction(str(h["chance"])) for c, h in zip(chances, hand))
    single, table = float(hand[-1]["seconds"]), sum(float(h["seconds"]) for h in hand)
    mine = float(ours["seconds"])
    report += [
        (
            f"Two-dice Pig alone to 100, the best chance within N = 1..{turns} turns; "
            f"from 0 within {turns}: {float(Fraction(chances[-1])):.6f}"
        ),
        "",
        "| answer | solves | states | seconds | peak MB | ratio to one solve by hand |",
        "|---|---|---|---|---|---|",
        (
            f"| exactprob, horizon={turns} (the whole table) | 1 | {ours['states']:,} | "
            f"{mine:.2f} | {float(ours['mb']):.0f} | {mine / single:.2f}x |"
        ),
        (
            f"| by hand, N = {turns} only | 1 | {hand[-1]['states']:,} | {single:.2f} | "
            f"{float(hand[-1]['mb']):.0f} | 1.00x |"
        ),
        f"| by hand, the whole table | {turns} | - | {table:.2f} | - | {table / single:.2f}x |",
        "",
        f"Every chance equal to the hand model's: {'yes' if same else 'DIFFERENT'}",
        "",
    ]
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    run_benchmark(main, worker)
