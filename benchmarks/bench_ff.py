#!/usr/bin/env python
"""Benchmark the Fighting Fantasy atlas against a plain memoised Fraction recursion.

Usage::

    python benchmarks/bench_ff.py [--quick] [--out FILE] [--repeat K]

The atlas is every state of Fighting Fantasy combat under the optimal use of luck:
skill difference Δ = -9..9, hero and opponent stamina 1..24, luck 0..12
(19 × 24 × 24 × 13 = 142,272 states), the victory probability of each as an exact
rational. Three solvers of the same Bellman recursion are timed:

1. the baseline, :func:`fraction_atlas`: a plain ``functools.cache`` recursion in
   ``fractions.Fraction``, written here from the rules alone (it imports nothing from
   exactprob, so it can serve as an oracle for the tests);
2. ``exactprob.games.fighting_fantasy.atlas``, the exact fast path; every state's value
   is compared with the baseline's (``==`` on Fractions);
3. the same recursion as (1) in double precision (Python floats), the analogue of the
   original C program; its largest absolute error against the exact values is reported.

The goal: exactprob at most a quarter of the baseline's time, and under 2 seconds for
the whole atlas. ``--quick`` uses a small grid (a few seconds) for a smoke test.

A last section times a fixed luck policy (the paper's heuristic 1, luck while at least
2 is left) through ``exactprob.evaluate``: the fight's grid swept under the policy (the
registered evaluation) against the generic engine's evaluation (``generic=True``), in
the same run, every state's value compared.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench_engine: timing helpers and the machine description
try:
    import exactprob  # noqa: F401
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(HERE.parent))

from bench_engine import (
    benchmark_parser,
    best_time,
    finish_report,
    fmt_time,
    log,
    report_header,
    table,
)

from exactprob.games.fighting_fantasy import Fight

State = tuple[int, int, int, int]  # (delta, hero stamina, opponent stamina, luck)

FULL = {"deltas": range(-9, 10), "max_stamina": 24, "max_luck": 12}
QUICK = {"deltas": range(-3, 4), "max_stamina": 10, "max_luck": 6}

#: Strategy codes of the paper's maps.
NONE, BOTH, LOST_ONLY, WON_ONLY = 0, 1, 2, 3


# ---------------------------------------------------------------------------------------
# The baseline: a plain memoised recursion, from the rules alone
# ---------------------------------------------------------------------------------------
def round_probabilities(delta: int) -> tuple[Fraction, Fraction]:
    """``(p_win, p_lose)`` of one round at skill difference ``delta``, by enumerating
    the 6^4 outcomes of the hero's 2d6 against the opponent's 2d6: with
    ``Y = opponent - hero`` the hero wins iff ``Y < delta``, loses iff ``Y > delta``."""
    win = lose = 0
    for h1, h2, o1, o2 in itertools.product(range(1, 7), repeat=4):
        y = (o1 + o2) - (h1 + h2)
        win += y < delta
        lose += y > delta
    return Fraction(win, 6**4), Fraction(lose, 6**4)


def luck_success(luck: int) -> Fraction:
    """P(2d6 <= luck), by enumerating the 36 outcomes."""
    return Fraction(sum(a + b <= luck for a in range(1, 7) for b in range(1, 7)), 36)


def memo_atlas(
    deltas: Iterable[int], max_stamina: int, max_luck: int, number: Callable[[Any], Any] = Fraction
) -> dict[State, Any]:
    """The victory probability of every state under optimal luck, as ``number`` values
    (``Fraction`` for the exact baseline, ``float`` for the double-precision one).

    ``V(h, o, l)`` is the value before a round; draws are do-overs, so
    ``V = (p_win W + p_lose L) / (p_win + p_lose)``. After a won round
    ``W = max(V(h, o-2, l), q V(h, o-4, l-1) + (1-q) V(h, o-1, l-1))`` (the second only
    when ``l >= 1``; ``q = P(2d6 <= l)``), after a lost round
    ``L = max(V(h-2, o, l), q V(h-1, o, l-1) + (1-q) V(h-3, o, l-1))``. Terminal:
    opponent stamina <= 0 is worth 1, hero stamina <= 0 is worth 0.

    The states are requested in increasing luck, then stamina, so each recursive call
    finds its successors already memoised (the recursion stays shallow for any size).
    """
    one, zero = number(1), number(0)
    q = [number(luck_success(luck)) for luck in range(max_luck + 1)]
    result: dict[State, Any] = {}
    for delta in deltas:
        p_win, p_lose = round_probabilities(delta)
        V = _value_function(
            number(p_win / (p_win + p_lose)), number(p_lose / (p_win + p_lose)), q, one, zero
        )
        for luck in range(max_luck + 1):
            for h in range(1, max_stamina + 1):
                for o in range(1, max_stamina + 1):
                    result[delta, h, o, luck] = V(h, o, luck)
    return result


def _value_function(
    a: Any, b: Any, q: list[Any], one: Any, zero: Any
) -> Callable[[int, int, int], Any]:
    """The memoised ``V(h, o, luck)`` of one skill difference, where ``a`` and ``b`` are
    the chances that a round which is not a draw is won and lost."""

    @cache
    def V(h: int, o: int, luck: int) -> Any:
        if o <= 0:
            return one
        if h <= 0:
            return zero
        won = V(h, o - 2, luck)
        lost = V(h - 2, o, luck)
        if luck >= 1:
            s = q[luck]
            won = max(won, s * V(h, o - 4, luck - 1) + (1 - s) * V(h, o - 1, luck - 1))
            lost = max(lost, s * V(h - 1, o, luck - 1) + (1 - s) * V(h - 3, o, luck - 1))
        return a * won + b * lost

    return V


def fraction_atlas(deltas: Iterable[int], max_stamina: int, max_luck: int) -> dict[State, Fraction]:
    """The exact baseline: :func:`memo_atlas` in ``fractions.Fraction``.

    >>> v = fraction_atlas([0], 1, 0)
    >>> v[0, 1, 1, 0]
    Fraction(1, 2)
    """
    return memo_atlas(deltas, max_stamina, max_luck, Fraction)


def float_atlas(deltas: Iterable[int], max_stamina: int, max_luck: int) -> dict[State, float]:
    """The double-precision peer: :func:`memo_atlas` in Python floats."""
    return memo_atlas(deltas, max_stamina, max_luck, float)


def strict_strategies(values: dict[State, Fraction]) -> dict[State, int | None]:
    """The optimal strategy code of every state of ``values`` (a :func:`fraction_atlas`
    with luck below its maximum, or any luck: only ``luck - 1`` is looked up), or
    ``None`` where either decision is an exact tie (both choices equally good).

    Codes: 0 never test luck, 1 test after any round, 2 only after a lost round,
    3 only after a won round. With no luck left the code is 0.
    """

    def v(delta: int, h: int, o: int, luck: int) -> Fraction:
        if o <= 0:
            return Fraction(1)
        if h <= 0:
            return Fraction(0)
        return values[delta, h, o, luck]

    codes: dict[State, int | None] = {}
    for delta, h, o, luck in values:
        if luck == 0:
            codes[delta, h, o, luck] = NONE
            continue
        s = luck_success(luck)
        won_plain = v(delta, h, o - 2, luck)
        won_luck = s * v(delta, h, o - 4, luck - 1) + (1 - s) * v(delta, h, o - 1, luck - 1)
        lost_plain = v(delta, h - 2, o, luck)
        lost_luck = s * v(delta, h - 1, o, luck - 1) + (1 - s) * v(delta, h - 3, o, luck - 1)
        if won_plain == won_luck or lost_plain == lost_luck:
            codes[delta, h, o, luck] = None
            continue
        use_won, use_lost = won_luck > won_plain, lost_luck > lost_plain
        codes[delta, h, o, luck] = {
            (False, False): NONE,
            (True, True): BOTH,
            (False, True): LOST_ONLY,
            (True, False): WON_ONLY,
        }[use_won, use_lost]
    return codes


# ---------------------------------------------------------------------------------------
# The benchmark
# ---------------------------------------------------------------------------------------
def exactprob_atlas(deltas: Iterable[int], max_stamina: int, max_luck: int) -> Any:
    from exactprob.games.fighting_fantasy import atlas

    return atlas(deltas=deltas, max_stamina=max_stamina, max_luck=max_luck)


def timed_once(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t0


def run_atlas(
    quick: bool, repeat: int, log: Callable[[str], None]
) -> tuple[list[str], float, float | None]:
    """The atlas section; also the best times of the baseline and of exactprob's atlas."""
    grid = QUICK if quick else FULL
    deltas, max_stamina, max_luck = grid["deltas"], grid["max_stamina"], grid["max_luck"]
    states = len(deltas) * max_stamina * max_stamina * (max_luck + 1)
    describe = f"Δ {deltas.start}..{deltas.stop - 1}, stamina 1..{max_stamina}, luck 0..{max_luck}"

    def baseline() -> dict[State, Fraction]:
        return fraction_atlas(deltas, max_stamina, max_luck)

    def floats() -> dict[State, float]:
        return float_atlas(deltas, max_stamina, max_luck)

    def ours() -> Any:
        return exactprob_atlas(deltas, max_stamina, max_luck)

    log(f"float64 recursion over {states:,} states")
    approx = floats()
    t_float = best_time(floats, repeat, 0.05 if quick else 0.2)

    # The two exact solvers alternate, so that a change of load on the machine during
    # the run weighs on both alike; each figure is the best of its runs.
    log(f"baseline Fraction recursion and exactprob atlas, {repeat} runs each")
    exact, t_first = timed_once(baseline)
    base_times = [t_first]
    try:
        solved, t_ours_first = timed_once(ours)
    except ImportError as exc:  # pragma: no cover - the fast path is not installed
        solved, t_ours_first, missing = None, None, str(exc)
    ours_times = [t_ours_first]
    for _ in range(repeat - 1):
        base_times.append(timed_once(baseline)[1])
        if solved is not None:
            ours_times.append(timed_once(ours)[1])
    t_base = min(base_times)
    max_err = max(abs(Fraction(approx[k]) - exact[k]) for k in exact)

    if solved is None:
        t_ours, verdict, strategy_note = None, f"n/a ({missing})", ""
    else:
        t_ours = min(ours_times)
        log("checking every value")
        differing = [k for k, x in exact.items() if solved.value(*k) != x]
        verdict = (
            "equal"
            if not differing
            else f"DIFFERENT at {len(differing):,} states, e.g. {differing[0]}"
        )
        codes = strict_strategies(exact)
        strict = {k: c for k, c in codes.items() if c is not None}
        wrong = [k for k, c in strict.items() if solved.strategy(*k) != c]
        strategy_note = (
            f"Optimal strategies: {'equal' if not wrong else 'DIFFERENT'} at the "
            f"{len(strict):,} states where neither decision is an exact tie"
            + (f" (first difference at {wrong[0]})" if wrong else "")
            + f"; {len(codes) - len(strict):,} states have a tie.\n"
        )

    ratio = f"{t_ours / t_base:.3f}" if t_ours else "n/a"
    rows = [
        [
            f"{states:,}",
            fmt_time(t_base),
            fmt_time(t_ours),
            fmt_time(t_ours_first) if t_ours else "n/a",
            ratio,
            verdict,
        ]
    ]
    out = [f"## Atlas under optimal luck ({describe})", ""]
    out += table(
        [
            "states",
            "Fraction baseline",
            "exactprob (goal < 2 s)",
            "exactprob first call",
            "exactprob/baseline (goal <= 0.25)",
            "exact check",
        ],
        rows,
    )
    out += [
        "",
        (
            f"Best of {repeat} runs (one call each, the two solvers alternating, garbage "
            "collector on). Fraction baseline: a plain "
            "functools.cache recursion in fractions.Fraction over the same states "
            "(fraction_atlas in this script). exactprob: "
            "exactprob.games.fighting_fantasy.atlas(deltas, max_stamina, max_luck). "
            "exactprob first call: the first of those runs, with any cache of the "
            "process still cold. exact check: every state's value compared with == "
            "against the baseline."
        ),
        "",
    ]
    if strategy_note:
        out += [strategy_note]
    out += [
        "### Double-precision peer",
        "",
        *table(
            [
                "states",
                "float64 recursion",
                "Fraction baseline / float64",
                "max abs(float64 - exact)",
            ],
            [
                [
                    f"{states:,}",
                    fmt_time(t_float),
                    f"{t_base / t_float:.0f}x",
                    f"{float(max_err):.3g}",
                ]
            ],
        ),
        "",
        (
            "The same recursion in Python floats (IEEE double, the analogue of the paper's C "
            "program), best of the repeats; its largest absolute error over all states, "
            "computed exactly against the Fraction values."
        ),
        "",
    ]
    return out, t_base, t_ours


def run_command(quick: bool, repeat: int, t_base: float) -> list[str]:
    """``exactprob ff atlas --out FILE`` as a user runs it: the whole command (start-up,
    solve, CSV, summary) in a fresh process, best of ``repeat``."""
    grid = QUICK if quick else FULL
    stamina, luck = grid["max_stamina"], grid["max_luck"]
    script = Path(sys.executable).with_name("exactprob")
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "exactprob.cli"]
    times = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "atlas.csv"
        command = [*cli, "ff", "atlas", "--out", str(out)]
        command += ["--max-stamina", str(stamina), "--max-luck", str(luck)]
        for _ in range(repeat):
            t0 = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        rows = sum(1 for _ in out.open(encoding="utf-8")) - 1
    best = min(times)
    goal = "" if quick else f" (goal <= 1.5 s: {'met' if best <= 1.5 else 'NOT MET'})"
    return [
        "## The whole command",
        "",
        *table(
            ["command", "rows written", "wall time", "Fraction baseline (solve only)"],
            [
                [
                    f"exactprob ff atlas --out atlas.csv{goal}",
                    f"{rows:,}",
                    fmt_time(best),
                    fmt_time(t_base),
                ]
            ],
        ),
        "",
        (
            f"Best of {repeat} fresh processes (Δ -9..9 always; stamina and luck as above): "
            "start-up, the sweeps, the CSV with every exact value and its 17-digit decimal, "
            "and the summary (ties, forced ties, near ties)."
        ),
        "",
    ]


def run_engine(quick: bool, t_ours: float | None) -> list[str]:
    """The same atlas through the generic engine, per Δ, written two ways: the plain
    Model :class:`AllStates` (explored one state at a time) and the ArrayModel
    ``FightArrays`` (explored a level at a time in bulk), each explored by
    ``exactprob.explore`` and solved by ``exactprob.solve_graph``; every start of a
    round's value compared with the atlas's."""
    from exactprob import explore, solve_graph
    from exactprob.games.fighting_fantasy import Fight, FightArrays, atlas, round_start

    grid = QUICK if quick else FULL
    deltas, stamina, luck = grid["deltas"], grid["max_stamina"], grid["max_luck"]
    fast = atlas(deltas=deltas, max_stamina=stamina, max_luck=luck)
    ways = [
        ("plain Model (AllStates)", AllStates, lambda h, o, l: ("round", h, o, l, False)),
        ("ArrayModel (FightArrays)", FightArrays, round_start),
    ]
    rows = []
    for name, model, state in ways:
        t_explore = t_solve = 0.0
        differing = states = 0
        for delta in deltas:
            t0 = time.perf_counter()
            G = explore(model(Fight(delta, stamina, stamina, luck)))
            t1 = time.perf_counter()
            solution = solve_graph(G)
            t_explore, t_solve = t_explore + t1 - t0, t_solve + time.perf_counter() - t1
            states += len(G)
            for h, o, l in fast.grids[delta].states():
                differing += solution.value(state(h, o, l)) != fast.value(delta, h, o, l)
        total = t_explore + t_solve
        rows.append(
            [
                name,
                f"{states:,}",
                fmt_time(t_explore),
                fmt_time(t_solve),
                fmt_time(total),
                fmt_time(t_ours),
                f"{total / t_ours:.1f}x" if t_ours else "n/a",
                "equal" if not differing else f"DIFFERENT at {differing:,} states",
            ]
        )
    return [
        "## The atlas through the generic engine",
        "",
        *table(
            [
                "model",
                "engine states",
                "explore",
                "solve",
                "total",
                "grid sweep",
                "engine / grid",
                "exact check",
            ],
            rows,
        ),
        "",
        (
            "One run per Δ: the fight (FightModel's rules, every start of a round of the "
            "grid reached, so that one solve covers the atlas) explored into the engine's "
            "state graph and solved exactly. Written as a plain Model, the engine calls "
            "Python once per state; written as an ArrayModel, once per breadth-first level "
            "and action. Engine states count the phases after a won or lost round and the "
            "terminal states. exact check: every start of a round's value against the "
            "grid's (==)."
        ),
        "",
    ]


def run_policy(quick: bool) -> list[str]:
    """One fight under a fixed luck policy, through ``exactprob.evaluate``: the grid's
    registered evaluation against the generic engine's, best of three, values compared
    at every state the generic engine reaches."""
    import exactprob as ep
    from exactprob.games.fighting_fantasy import Fight, FightModel, engine_policy, heuristic

    stamina, luck = (12, 6) if quick else (24, 12)
    model = FightModel(Fight(0, stamina, stamina, luck))
    policy = engine_policy(heuristic(1, 2))
    times: dict[bool, float] = {}
    answers: dict[bool, Any] = {}
    for _ in range(3):
        for generic in (False, True):
            t0 = time.perf_counter()
            answers[generic] = ep.evaluate(model, policy, generic=generic, progress=False)
            elapsed = time.perf_counter() - t0
            times[generic] = min(times.get(generic, elapsed), elapsed)
    fast, engine = answers[False], answers[True]
    differing = sum(fast.value(state) != engine.value(state) for state in engine.states)
    rows = [
        [
            f"{stamina} stamina each, luck {luck}",
            f"{len(engine.states):,}",
            fmt_time(times[False]),
            fmt_time(times[True]),
            f"{times[False] / times[True]:.2f}x",
            "equal" if not differing else f"DIFFERENT at {differing:,} states",
        ]
    ]
    return [
        "## A fixed luck policy through exactprob.evaluate",
        "",
        *table(
            [
                "fight (Δ = 0)",
                "states",
                "grid evaluation",
                "generic",
                "grid / generic",
                "exact check",
            ],
            rows,
        ),
        "",
        (
            f"Policy: the paper's heuristic 1 with τ = 2. Best of 3, in turn. {fast.solver!r} "
            "answers through the registry (ep.evaluate); generic=True explores the states the "
            "policy reaches and solves the chain. exact check: every reached state's value (==)."
        ),
        "",
    ]


class AllStates:
    """The Fighting Fantasy fight of :class:`~exactprob.games.fighting_fantasy.FightModel`
    (standard rule, plain chance of winning) from every start of a round of the grid at
    once: the initial state ``"atlas"`` moves, with equal chances, to each
    ``("round", h, o, l, False)``."""

    def __init__(self, fight: Fight) -> None:
        from exactprob.games.fighting_fantasy import FightModel

        self.fight = FightModel(fight)
        self.starts = [
            ("round", h, o, l, False)
            for l in range(fight.luck + 1)
            for h in range(1, fight.hero_stamina + 1)
            for o in range(1, fight.opponent_stamina + 1)
        ]
        self.initial = "atlas"

    def outcome(self, state: Any) -> Any:
        return None if state == "atlas" else self.fight.outcome(state)

    def actions(self, state: Any) -> Any:
        return ("start",) if state == "atlas" else self.fight.actions(state)

    def transition(self, state: Any, action: Any) -> Any:
        from exactprob import Dist

        if state == "atlas":
            return Dist({start: Fraction(1, len(self.starts)) for start in self.starts})
        return self.fight.transition(state, action)


def main(argv: list[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "a small grid")
    parser.add_argument("--repeat", type=int, help="runs per timed solver (default 3)")
    args = parser.parse_args(argv)
    repeat = max(args.repeat or 3, 1)

    start = time.perf_counter()
    report = report_header("exactprob Fighting Fantasy atlas", args.quick)
    section, t_base, t_ours = run_atlas(args.quick, repeat, log)
    report += section
    log("the whole command, in fresh processes")
    report += run_command(args.quick, repeat, t_base)
    log("the atlas through the generic engine")
    report += run_engine(args.quick, t_ours)
    log("a fixed luck policy through exactprob.evaluate")
    report += run_policy(args.quick)
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
