"""The front door's cost and worth: each registered fast path through ``exactprob.solve``
against the same solver called directly (the front door must cost nothing measurable),
and against the generic engine on the same model (what the fast path is worth).

    python benchmarks/bench_front_door.py [--quick] [--out FILE]

Each pair is timed alternately, best of ``repeat`` runs each, in this process; the values
are compared exactly (``==`` on Fractions; an enclosure must contain the exact value).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import exactprob as ep
from exactprob.engine.methods import Method
from exactprob.games.fighting_fantasy import FightModel, solve_grid
from exactprob.games.jeopardy import FowlPlay, JeopardyModel, Pig
from exactprob.games.jeopardy.solving.certified import enclose_race
from exactprob.games.jeopardy.solving.solver import solve_race

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import fmt_ratio, fmt_time, machine_description, table

from exactprob.games.fighting_fantasy import Fight


def best_time(call: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least of ``repeat`` wall times of ``call()``, and its last answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = call()
        best = min(best, time.perf_counter() - start)
    return best, answer


def alternate(
    first: Callable[[], Any], second: Callable[[], Any], repeat: int
) -> tuple[float, Any, float, Any]:
    """Both calls timed in turn, ``repeat`` times each (best of each)."""
    times: list[list[float]] = [[], []]
    answers: list[Any] = [None, None]
    for _ in range(repeat):
        for which, call in enumerate((first, second)):
            seconds, answers[which] = best_time(call, 1)
            times[which].append(seconds)
    return min(times[0]), answers[0], min(times[1]), answers[1]


Case = tuple[str, Method, Callable[[], Any], Callable[[], Any], Any]


def cases(quick: bool) -> list[Case]:
    """(label, method, through the front door, the solver itself, the model) per fast
    path."""
    pig_goal, fowl, fight = (
        (20, FowlPlay(8, 2, 8), (0, 8, 8, 5))
        if quick
        else (
            60,
            FowlPlay(42, 6, 20),
            (1, 24, 24, 12),
        )
    )
    fight_model = FightModel(Fight(*fight))
    return [
        (
            f"Pig to {pig_goal}, exact",
            "exact",
            lambda: ep.solve(JeopardyModel(Pig(goal=pig_goal))).value(),
            lambda: solve_race(Pig(goal=pig_goal)).first_player_win(),
            JeopardyModel(Pig(goal=pig_goal)),
        ),
        (
            f"Fowl Play ({fowl.chickens}+{fowl.wolves}, to {fowl.goal}), certified",
            "certified",
            lambda: ep.solve(JeopardyModel(fowl), method="certified").value(),
            lambda: enclose_race(fowl).first_player_win(),
            JeopardyModel(fowl),
        ),
        (
            f"fight {fight}, exact",
            "exact",
            lambda: ep.solve(fight_model).value(),
            lambda: solve_grid(Fight(*fight)).value(*fight[1:]),
            fight_model,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 5
    rows, differ = [], False
    for label, method, door, direct, model in cases(args.quick):
        door_s, door_value, direct_s, direct_value = alternate(door, direct, repeat)
        generic_s, generic = best_time(
            lambda m=model, how=method: ep.solve(m, how, generic=True, max_states=10**8).value(),
            1,
        )
        if method == "certified":  # both enclose the exact value of the game's exact solver
            exact = solve_race(model.game).first_player_win()
            same = door_value == direct_value and door_value.contains(exact)
            same = same and generic.contains(exact)
        else:
            same = door_value == direct_value == generic
        differ |= not same
        rows.append(
            [
                label,
                fmt_time(direct_s),
                fmt_time(door_s),
                fmt_ratio(door_s, direct_s),
                fmt_time(generic_s),
                fmt_ratio(door_s, generic_s),
                "equal" if same else "DIFFERENT",
            ]
        )
    lines = ["# exactprob front door: fast paths through ep.solve", "", "Machine:", ""]
    lines += [f"- {line}" for line in machine_description()] + [""]
    lines += table(
        [
            "case",
            "solver itself",
            "ep.solve",
            "ep.solve / solver",
            "generic engine",
            "ep.solve / generic",
            "values",
        ],
        rows,
    )
    lines += [
        "",
        (
            f"Best of {repeat} alternating runs (the generic engine, same method, once); "
            "values: the answers through ep.solve, directly and by the generic engine "
            "compared exactly (enclosures must contain the exact value)."
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
