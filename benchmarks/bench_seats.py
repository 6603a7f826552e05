#!/usr/bin/env python
"""Games of seats: Piglet for two to four seats, solved exactly, against the two-player
engine on the same game.

Usage::

    python benchmarks/bench_seats.py [--quick] [--out FILE]

The game is ``examples/piglet_seats.py``'s Piglet. For each number of seats and goal the
table gives the states, the seconds of one ``ep.solve`` (each in a fresh process, the
libraries loaded before the clock starts), the states per second and the peak memory.
The peer, in the same run: Piglet for two seats written as a two-player zero-sum game
(the first seat's chance, the second seat minimising it), which the generic two-player
engine solves; both must give the same chance. ``--quick`` shrinks the goals for a
smoke test. The script exits with status 1 when the two answers differ.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

from bench_memory import peak_kib
from bench_worker import measured, run_benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: (seats, goal) of each row, and the goal of the two-player peer.
FULL = ([(2, 30), (3, 20), (4, 8)], 30)
QUICK = ([(2, 6), (3, 4), (4, 3)], 6)


class ZeroSum:
    """Piglet for two seats as a two-player zero-sum game: the first seat's payoff,
    which the second seat (player 1) minimises."""

    def __init__(self, goal: int) -> None:
        from examples.piglet_seats import Piglet

        self.game = Piglet(goal, 2)
        self.initial = self.game.initial

    def outcome(self, state: object) -> int | None:
        payoffs = self.game.outcome(state)  # type: ignore[arg-type]
        return None if payoffs is None else payoffs[0]

    def player(self, state: object) -> int:
        return self.game.player(state)  # type: ignore[arg-type]

    def actions(self, state: object) -> tuple[str, ...]:
        return self.game.actions(state)  # type: ignore[arg-type]

    def transition(self, state: object, action: str) -> object:
        return self.game.transition(state, action)  # type: ignore[arg-type]


def solve(side: str, seats: int, goal: int) -> dict[str, object]:
    """One solve in this process: the game of seats, or the two-player peer."""
    import exactprob as ep
    from examples.piglet_seats import Piglet

    model = (lambda g: Piglet(g, seats)) if side == "seats" else ZeroSum
    ep.solve(model(3), progress=False)  # the imports a first solve loads
    start = time.perf_counter()
    solution = ep.solve(model(goal), progress=False)
    seconds = time.perf_counter() - start
    value = solution.value()
    first = value[0] if isinstance(value, tuple) else value
    return {
        "seconds": seconds,
        "states": len(solution.states),
        "first": str(first),
        "mb": peak_kib() / 1024,
    }


def worker(side: str, seats: str, goal: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return solve(side, int(seats), int(goal))


def main() -> int:
    from bench_engine import benchmark_parser, finish_report, log, report_header

    args = benchmark_parser(__doc__, "small goals").parse_args()
    rows, peer_goal = QUICK if args.quick else FULL
    start = time.perf_counter()
    report = report_header("Games of seats: Piglet for 2 to 4 seats", args.quick)
    report += [
        "| game | states | seconds | states/s | peak MB | first seat's chance |",
        "|---|---|---|---|---|---|",
    ]
    for seats, goal in rows:
        log(f"{seats} seats to {goal}")
        r = measured(__file__, "seats", seats, goal)
        seconds = float(r["seconds"])
        report.append(
            f"| Piglet, {seats} seats to {goal} | {r['states']:,} | {seconds:.2f} | "
            f"{float(r['states']) / seconds:,.0f} | {float(r['mb']):.0f} | "
            f"{float(Fraction(str(r['first']))):.6f} |"
        )
    log(f"two seats to {peer_goal}, and the two-player peer")
    ours, peer = (
        measured(__file__, "seats", 2, peer_goal),
        measured(__file__, "zero-sum", 2, peer_goal),
    )
    same = Fraction(str(ours["first"])) == Fraction(str(peer["first"]))
    ratio = float(ours["seconds"]) / float(peer["seconds"])
    report += [
        "",
        f"Two seats to {peer_goal}, the same game two ways (same run):",
        "",
        "| solver | states | seconds | peak MB | ratio |",
        "|---|---|---|---|---|",
        (
            f"| game of seats | {ours['states']:,} | {float(ours['seconds']):.2f} | "
            f"{float(ours['mb']):.0f} | {ratio:.2f}x |"
        ),
        (
            f"| two-player zero-sum engine | {peer['states']:,} | "
            f"{float(peer['seconds']):.2f} | {float(peer['mb']):.0f} | 1.00x |"
        ),
        "",
        f"The first seat's chance equal both ways: {'yes' if same else 'DIFFERENT'}",
        "",
    ]
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    run_benchmark(main, worker)
