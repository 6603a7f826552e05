#!/usr/bin/env python
"""The exact best response to a fixed player (``exactprob pig --players
best-response:hold-at-20``): the race's own cycles against the generic engine, and both
against the optimal race of the same game, in the same run.

Usage::

    python benchmarks/bench_best_response.py [--quick] [--out FILE]

Per game, three measurements, each in a fresh process with the libraries loaded before
the clock starts: the optimal race (``solve_race``), the best response by the race's
turn-start cycles (``best_response``, :func:`exactprob.games.jeopardy.solving.response.respond`)
and by the generic engine (``engine_response``, the way before the cycles), with peak
memory. The two responses must be the same table, every choice and every exact tie; the
script exits with status 1 when they differ. ``--quick`` shrinks the games for a smoke
test.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

from bench_memory import peak_kib
from bench_worker import measured, run_benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: (game, goal, opponent's hold-at total); a Fowl Play game is (chickens, wolves).
FULL = [("pig", 50, 20), ("pig", 100, 20), ("fowl-play 20/2", 30, 6)]
QUICK = [("pig", 30, 20), ("fowl-play 8/2", 12, 4)]


def make_game(name: str, goal: int) -> object:
    from exactprob.games.jeopardy import FowlPlay, Pig

    if name == "pig":
        return Pig(goal=goal)
    chickens, wolves = name.split()[1].split("/")
    return FowlPlay(chickens=int(chickens), wolves=int(wolves), goal=goal)


def solve(side: str, name: str, goal: int, hold: int) -> dict[str, object]:
    """One measurement in this process: the optimal race, or the response either way."""
    from exactprob.games.jeopardy.players.best_response import best_response, engine_response
    from exactprob.games.jeopardy.policies import hold_at, policy_table
    from exactprob.games.jeopardy.solving.solver import solve_race

    def run(g: int) -> str:
        game = make_game(name, g)
        if side == "race":  # not compared: the answer's size, as a check that it ran
            return f"{solve_race(game).first_player_win().denominator.bit_length()} bits"  # type: ignore[arg-type]
        fixed = policy_table(game, hold_at(hold))  # type: ignore[arg-type]
        if side == "cycles":
            table = best_response(game, fixed, fill=fixed, exact=True)  # type: ignore[arg-type]
        else:
            table = engine_response(game, fixed, fill=fixed)  # type: ignore[arg-type]
        return hashlib.sha256(table.holds.tobytes()).hexdigest()

    run(10)  # the imports a first solve loads (over 200 states: scipy too)
    start = time.perf_counter()
    answer = run(goal)
    return {"seconds": time.perf_counter() - start, "answer": answer, "mb": peak_kib() / 1024}


def worker(side: str, name: str, goal: str, hold: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return solve(side, name, int(goal), int(hold))


def main() -> int:
    from bench_engine import benchmark_parser, finish_report, log, report_header

    args = benchmark_parser(__doc__, "small games").parse_args()
    start = time.perf_counter()
    report = report_header("The exact best response: the race's cycles and the engine", args.quick)
    report += [
        "| game | opponent | optimal race s | response s | MB | response / race"
        + " | engine s | MB | engine / response | same table |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, goal, hold in QUICK if args.quick else FULL:
        log(f"{name} to {goal} against hold at {hold}")
        race, cycles, engine = (
            measured(__file__, side, name, goal, hold) for side in ("race", "cycles", "engine")
        )
        same = cycles["answer"] == engine["answer"]
        seconds = [float(r["seconds"]) for r in (race, cycles, engine)]  # type: ignore[arg-type]
        report.append(
            f"| {name.replace('fowl-play', 'Fowl Play').replace('pig', 'Pig')} to {goal} | "
            f"hold at {hold} | {seconds[0]:.2f} | {seconds[1]:.2f} | "
            f"{float(cycles['mb']):.0f} | {seconds[1] / seconds[0]:.2f}x | {seconds[2]:.2f} | "
            f"{float(engine['mb']):.0f} | {seconds[2] / seconds[1]:.2f}x | "
            f"{'yes' if same else 'DIFFERENT'} |"
        )
    report.append("")
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    run_benchmark(main, worker)
