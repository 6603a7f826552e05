"""Rewards: exactprob against Storm's exact engine on the same models with rewards, and
what rewards cost the engine on a model it already solves.

    python benchmarks/bench_rewards.py [--quick] [--out FILE]

(about 2 minutes; ``--quick``: smaller goals, under a minute.)

1. *Against Storm.* Each model is explored once; exactprob's explore + solve is timed
   against Storm's build + exact check of the same graph exported to DRN, its rewards on
   the choices (``R{"value"}min=? [F "sink"]``, or ``R=?`` for a chain), and the two
   exact values are compared:
   (r1) solitaire Pig, the fewest expected turns to reach the goal (a cost of one a
   turn, minimised: a cyclic MDP); (r2) two-player Pig, both holding at 20, the expected
   number of turns (a cyclic chain); (r3) a ring of squares walked with two dice, with a
   "go to jail" square: ``ep.stationary`` (explore and the stationary law) against
   Storm's export, build and ``S=?`` of the jail.
2. *The cost of rewards.* Two-player Pig, both players optimal, through the generic
   engine, three ways: as it is; with a ``reward`` method that pays 0 everywhere (the
   same answer, checked equal: the cost of the reward machinery alone); and paying one
   point a turn (a different question with longer numbers). Goal: the zero-reward run
   within 1.2x of the plain one.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench_engine import (
    Pig,
    fmt_ratio,
    fmt_time,
    load_engine_libraries,
    report,
    table,
)

import exactprob as ep
from exactprob import Dist

_SIDE = Fraction(1, 6)


class SoloPig:
    """Solitaire Pig to ``goal``: state (score, turn total); a 1 loses the turn total,
    holding banks it (with a positive turn total only); one point of cost on the first
    roll of every turn, which player 1 minimises."""

    def __init__(self, goal: int) -> None:
        self.goal = goal
        self.initial = (0, 0)

    def outcome(self, s: tuple[int, int]) -> int | None:
        return 0 if s[0] >= self.goal else None

    def player(self, s: tuple[int, int]) -> int:
        return 1

    def actions(self, s: tuple[int, int]) -> tuple[str, ...]:
        return ("roll", "hold") if s[1] else ("roll",)

    def transition(self, s: tuple[int, int], action: str) -> Dist[tuple[int, int]]:
        score, total = s
        if action == "hold":
            return Dist({(score + total, 0): 1})
        moves = {(score, 0): _SIDE}
        for face in range(2, 7):
            after = total + face
            moves[(score, after) if score + after < self.goal else (score + after, 0)] = _SIDE
        return Dist(moves)

    def reward(self, s: tuple[int, int], action: str) -> int:
        return 1 if s[1] == 0 else 0


class Board:
    """A ring of ``squares`` squares walked with two dice; landing on square
    ``squares * 3 // 4`` sends the token to square ``squares // 4`` (Monopoly's "go to
    jail" on a ring of 40): a chain that never ends, whose long-run law is asked."""

    def __init__(self, squares: int) -> None:
        self.squares = squares
        self.initial = 0
        self.jail, self.to_jail = squares // 4, squares * 3 // 4

    def outcome(self, s: int) -> None:
        return None

    def actions(self, s: int) -> tuple[str, ...]:
        return ("roll",)

    def transition(self, s: int, action: str) -> Dist[int]:
        moves: dict[int, Fraction] = {}
        for a in range(1, 7):
            for b in range(1, 7):
                t = (s + a + b) % self.squares
                t = self.jail if t == self.to_jail else t
                moves[t] = moves.get(t, Fraction(0)) + Fraction(1, 36)
        return Dist(moves)


class PigTurns(Pig):
    """:class:`bench_engine.Pig` paying one point at the start of every turn."""

    def reward(self, s: tuple[int, int, int, int], action: str) -> int:
        return 1 if s[3] == 0 else 0


class PigZero(Pig):
    """:class:`bench_engine.Pig` with a reward method that pays nothing."""

    def reward(self, s: tuple[int, int, int, int], action: str) -> int:
        return 0


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    gc.collect()
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def against_storm(goals: tuple[int, int], log: Callable[[str], None]) -> list[str]:
    from exactprob.verify.storm import storm_steady_state, storm_timed_value

    solo, duel = goals
    cases = [
        (f"(r1) solitaire Pig to {solo}, fewest turns", "cyclic MDP (min)", SoloPig(solo)),
        (f"(r2) Pig to {duel}, both hold at 20, turns", "cyclic chain", PigTurns(duel, 20, 20)),
    ]
    rows = []
    load_engine_libraries()  # scipy's import is not the first case's solve
    for name, kind, model in cases:
        log(name)
        G, t_explore = timed(lambda model=model: ep.explore(model))
        solution, t_solve = timed(lambda G=G: ep.solve_graph(G))
        storm_value, t = storm_timed_value(G)
        ours = t_explore + t_solve
        theirs = t["build"] + t["check"]
        verdict = "equal" if storm_value == solution.value() else "DIFFERENT"
        rows.append(
            [
                name,
                kind,
                f"{len(G):,}",
                f"{float(solution.value()):.6f}",
                fmt_time(ours),
                fmt_time(theirs),
                fmt_ratio(ours, theirs),
                verdict,
            ]
        )
    board = Board(goals[0] * 4)
    name = f"(r3) a ring of {board.squares} squares, 2d6, long-run share of jail"
    log(name)
    run, ours = timed(lambda: ep.stationary(board))
    share = run.law()[board.jail]
    storm_share, t = timed(lambda: storm_steady_state(run.graph, board.jail))
    rows.append(
        [
            name,
            "chain, stationary law",
            f"{len(run.graph):,}",
            f"{float(share):.6f}",
            fmt_time(ours),
            fmt_time(t),
            fmt_ratio(ours, t),
            "equal" if storm_share == share else "DIFFERENT",
        ]
    )
    header = ["case", "kind", "states", "value", "ep total", "Storm build+check", "ratio", ""]
    return [
        "## 1. Rewards and the long run: exactprob vs Storm (exact)",
        "",
        *table(header, rows),
        "",
    ]


def cost_of_rewards(goal: int, log: Callable[[str], None]) -> list[str]:
    rows, plain_time, plain_value = [], 0.0, None
    for label, model in [
        ("no rewards", Pig(goal, None, None)),
        ("reward 0 everywhere", PigZero(goal, None, None)),
        ("one point a turn", PigTurns(goal, None, None)),
    ]:
        log(f"Pig to {goal}: {label}")
        solution, seconds = timed(lambda model=model: ep.solve(model, generic=True))
        if plain_value is None:
            plain_time, plain_value = seconds, solution.value()
        same = {"no rewards": "", "reward 0 everywhere": "equal"}.get(label, "")
        if label == "reward 0 everywhere" and solution.value() != plain_value:
            same = "DIFFERENT"
        rows.append(
            [
                label,
                fmt_time(seconds),
                fmt_ratio(seconds, plain_time),
                f"{float(solution.value()):.6f}",
                same,
            ]
        )
    header = ["Pig, both optimal, generic engine", "time", "vs no rewards", "value", "value check"]
    title = f"## 2. The cost of rewards: Pig to {goal} (goal: 'reward 0' within 1.2x)"
    return [title, "", *table(header, rows), ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller goals (under a minute)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    goals = (50, 40) if args.quick else (100, 100)
    duel = 30 if args.quick else 100

    def log(message: str) -> None:
        print(f"... {message}", file=sys.stderr, flush=True)

    sections = against_storm(goals, log) + cost_of_rewards(duel, log)
    return report("exactprob rewards benchmark", sections, args.out)


if __name__ == "__main__":
    sys.exit(main())
