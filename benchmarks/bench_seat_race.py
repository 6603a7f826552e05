#!/usr/bin/env python
"""Pig among three to six seats: the race's own component solver (``exactprob pig
--seats N``) against the generic engine on the same game, and alone at larger goals.

Usage::

    python benchmarks/bench_seat_race.py [--quick] [--out FILE]

First table, the same game two ways in the same run: ``examples/pig_seats.py``'s
``PigSeats`` (Pig written from its rules as a plain model) solved by ``ep.solve``, the
generic engine for games of seats, against ``solve_seat_race`` on ``Pig(goal)``; both
must give every seat the same chance. Second table: the whole report the command prints
(``seat_race_report``: the solve, the fairest head starts and the first holds) at larger
goals, with states per second and peak memory. Each measurement runs in a fresh process
with the libraries loaded before the clock starts. ``--quick`` shrinks the goals for a
smoke test. The script exits with status 1 when the two answers differ.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bench_memory import peak_kib
from bench_worker import measured, run_benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: (seats, goal) of the two-way rows, and of the race's own rows.
FULL = ([(3, 12), (3, 16), (4, 8)], [(3, 30), (3, 50), (4, 20), (5, 10), (6, 7)])
QUICK = ([(3, 6), (4, 4)], [(3, 10), (4, 5)])


def solve(side: str, seats: int, goal: int) -> dict[str, object]:
    """One measurement in this process: the generic engine, the race's solver, or the
    command's whole report."""
    import exactprob as ep
    from exactprob.games.jeopardy import Pig, seat_race_report, solve_seat_race
    from exactprob.games.jeopardy.solving.seats import seat_states
    from examples.pig_seats import PigSeats

    def run(g: int) -> tuple[object, ...]:
        if side == "engine":
            return ep.solve(PigSeats(g, seats), progress=False).value()  # type: ignore[no-any-return]
        if side == "race":
            return solve_seat_race(Pig(g), seats).seat_wins()
        report = seat_race_report(Pig(g), seats, max_states=seat_states(Pig(g), seats))
        report.text()
        return report.seat_wins

    run(3)  # the imports a first solve loads
    start = time.perf_counter()
    wins = run(goal)
    return {
        "seconds": time.perf_counter() - start,
        "states": seat_states(Pig(goal), seats),
        "wins": [str(w) for w in wins],
        "mb": peak_kib() / 1024,
    }


def worker(side: str, seats: str, goal: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return solve(side, int(seats), int(goal))


def main() -> int:
    from bench_engine import benchmark_parser, finish_report, log, report_header

    args = benchmark_parser(__doc__, "small goals").parse_args()
    pairs, alone = QUICK if args.quick else FULL
    start = time.perf_counter()
    report = report_header("Pig among seats: the race's solver and the generic engine", args.quick)
    report += [
        "The same game two ways (same run):",
        "",
        "| game | states | race's solver s | MB | generic engine s | MB | engine / race | same |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for seats, goal in pairs:
        log(f"{seats} seats to {goal}, both ways")
        race, engine = (
            measured(__file__, "race", seats, goal),
            measured(__file__, "engine", seats, goal),
        )
        same = race["wins"] == engine["wins"]
        ratio = float(engine["seconds"]) / float(race["seconds"])
        report.append(
            f"| Pig, {seats} seats to {goal} | {race['states']:,} | "
            f"{float(race['seconds']):.2f} | {float(race['mb']):.0f} | "
            f"{float(engine['seconds']):.2f} | {float(engine['mb']):.0f} | {ratio:.1f}x | "
            f"{'yes' if same else 'DIFFERENT'} |"
        )
    report += [
        "",
        "The command's whole report (`exactprob pig --seats N --goal G`), the race's solver:",
        "",
        "| game | states | seconds | states/s | peak MB | first seat's chance |",
        "|---|---|---|---|---|---|",
    ]
    for seats, goal in alone:
        log(f"{seats} seats to {goal}, the report")
        r = measured(__file__, "report", seats, goal)
        seconds = float(r["seconds"])
        first = str(r["wins"][0])  # type: ignore[index]
        numerator, _, denominator = first.partition("/")
        report.append(
            f"| Pig, {seats} seats to {goal} | {r['states']:,} | {seconds:.1f} | "
            f"{float(r['states']) / seconds:,.0f} | {float(r['mb']):.0f} | "
            f"{int(numerator) / int(denominator or 1):.6f} |"
        )
    report.append("")
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    run_benchmark(main, worker)
