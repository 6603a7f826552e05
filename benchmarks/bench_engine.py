#!/usr/bin/env python
"""Benchmark exactprob against its peers, measured in one run on one machine.

Usage::

    pip install -e .[bench]          # icepool and stormpy, the peers
    python benchmarks/bench_engine.py [--quick] [--out FILE] [--repeat K]

Comparisons checked for exact agreement (``fractions.Fraction`` equality) or, in certified
mode, for enclosures that contain the exact value, and one measurement:

1. Dice distributions against icepool: ``exactprob.Dist`` convolutions versus
   ``icepool.Die`` arithmetic. Every timed call builds its dice from scratch (see
   :func:`icepool_fresh_die` for icepool's caches); the reported time is the best of
   ``K`` repeats, each repeat the mean of a calibrated number of calls.
2. Markov decision processes and chains against Storm's exact engine (stormpy): the
   graph explored by ``exactprob.explore`` (case (a*): the race of (a) as an ArrayModel,
   explored in bulk) is exported to DRN (``exactprob.verify.storm``),
   built by Storm with rational numbers and checked with Storm's exact environment.
   Storm has no exact solver for two-player stochastic games, so the Pig cases fix
   player 1's strategy (hold at 20) and two-player Pig is timed for exactprob only.
3. A large acyclic MDP (a dice race of 1,057,509 states and 11.6 million transitions)
   solved by exactprob in memory (explored, then solved; from the plain Model and from
   the ArrayModel) and in depth-first mode, each in
   a fresh process, with its peak memory.
4. Two-player Pig to 100 written as a plain Model and solved by the engine, against the
   game's own solver (``exactprob.games.jeopardy``), each in a fresh process: time, peak
   memory and the exact value compared.
5. Certified mode (``exactprob.engine.certified.solving``): two-player Pig to 100 (its enclosure checked
   against section 4's exact value), Fowl Play to 10 with the full deck as the generic
   ``JeopardyModel`` and as the ArrayModel ``FowlPlayArrays``, and Fowl Play to 25 (with
   ``--full-fowl`` also to 50, the whole game) as the ArrayModel, each against the game's
   own certified solver on the same game.

``--quick`` uses small sizes (under 10 seconds in all) for a smoke test; the full run
takes a few minutes. ``--out FILE`` also writes the report (plain-text markdown) to FILE.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
try:  # the package imports from the repository root (no install needed)
    import exactprob
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(REPO))
    import exactprob

from bench_memory import peak_kib

from exactprob import Dist, dice, die

BENCH_HINT = "pip install -e .[bench]"

try:
    import icepool
except ImportError:  # pragma: no cover - depends on the environment
    icepool = None

try:
    import stormpy  # noqa: F401  (exactprob.verify.storm imports it lazily; this only probes)

    from exactprob.verify.storm import storm_timed_value

    HAVE_STORM = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_STORM = False


# ---------------------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------------------
class Chain:
    """A deterministic chain 0 -> 1 -> ... -> ``n``, won at ``n``: the deepest graph of
    its size, with a level per state."""

    initial = 0

    def __init__(self, n: int) -> None:
        self.n = n

    def outcome(self, s: int) -> int | None:
        return 1 if s == self.n else None

    def actions(self, s: int) -> tuple[str, ...]:
        return ("step",)

    def transition(self, s: int, a: str) -> Dist[int]:
        return Dist({s + 1: 1})


class DiceRace:
    """An acyclic MDP: race to square ``target`` within ``turns`` turns.

    State ``(turn, position)``. Each turn the player rolls either one d6 or 2d3 and
    moves that many squares. Landing on ``target .. target + slack`` wins (value 1);
    overshooting further, or running out of turns, loses (value 0). Every move goes
    forward, so the state graph has no cycle.
    """

    def __init__(self, target: int, turns: int, slack: int = 2) -> None:
        self.target, self.turns, self.slack = target, turns, slack
        self.initial = (0, 0)
        self.moves = {"d6": die(6), "2d3": dice(2, 3)}

    def outcome(self, s: tuple[int, int]) -> int | None:
        t, pos = s
        if pos >= self.target:
            return 1 if pos <= self.target + self.slack else 0
        if t == self.turns:
            return 0
        return None

    def actions(self, s: tuple[int, int]) -> tuple[str, ...]:
        return ("d6", "2d3")

    def transition(self, s: tuple[int, int], a: str) -> Dist[tuple[int, int]]:
        t, pos = s
        return self.moves[a].map(lambda r: (t + 1, pos + r))


class DiceRaceArrays(exactprob.ArrayModel):
    """:class:`DiceRace` as an :class:`~exactprob.ArrayModel`: the same states (turn,
    square), rules and values, answered for a whole breadth-first level at a time."""

    actions = ("d6", "2d3")

    def __init__(self, target: int, turns: int, slack: int = 2) -> None:
        self.target, self.turns, self.slack = target, turns, slack
        self.sizes = (turns + 1, target + slack + 7)
        self.initial = (0, 0)

    def terminal(self, states: Any) -> Any:
        return (states[:, 1] >= self.target) | (states[:, 0] == self.turns)

    def outcome(self, states: Any) -> Any:
        square = states[:, 1]
        return ((square >= self.target) & (square <= self.target + self.slack)).astype(int)

    def transition(self, states: Any, action: Any) -> Any:
        if action == "d6":
            return [("1/6", states + [1, r]) for r in range(1, 7)]
        return [
            (Fraction(c, 9), states + [1, r]) for r, c in ((2, 1), (3, 2), (4, 3), (5, 2), (6, 1))
        ]


_D6 = die(6)


class Pig:
    """Two-player Pig to ``goal`` with a d6.

    State ``(mover, score0, score1, turn_total)``; a finished game is ``(2, winner, 0, 0)``
    and is worth 1 when player 0 won, else 0. The mover rolls (a 1 loses the turn total
    and passes the turn; reaching ``goal`` wins at once) or holds (banks the turn total
    and passes; only with a positive turn total). ``hold[m]`` is ``None`` when player
    ``m`` chooses freely, else the turn total at which ``m`` always holds.
    Rolling a 1 returns to a state with the same scores, so the graph has cycles.
    """

    def __init__(self, goal: int, hold0: int | None, hold1: int | None) -> None:
        self.goal = goal
        self.hold = (hold0, hold1)
        self.initial = (0, 0, 0, 0)

    def outcome(self, s: tuple[int, int, int, int]) -> int | None:
        if s[0] == 2:
            return 1 if s[1] == 0 else 0
        return None

    def player(self, s: tuple[int, int, int, int]) -> int:
        return s[0]

    def actions(self, s: tuple[int, int, int, int]) -> tuple[str, ...]:
        m, _, _, k = s
        if k == 0:
            return ("roll",)
        h = self.hold[m]
        if h is None:
            return ("roll", "hold")
        return ("hold",) if k >= h else ("roll",)

    def transition(self, s: tuple[int, int, int, int], action: str) -> Dist[Any]:
        m, a, b, k = s
        if action == "hold":
            return Dist({(1, a + k, b, 0) if m == 0 else (0, a, b + k, 0): 1})
        mine = a if m == 0 else b
        goal = self.goal

        def roll(r: int) -> tuple[int, int, int, int]:
            if r == 1:
                return (1 - m, a, b, 0)
            if mine + k + r >= goal:
                return (2, m, 0, 0)
            return (m, a, b, k + r)

        return _D6.map(roll)


# ---------------------------------------------------------------------------------------
# Machine description
# ---------------------------------------------------------------------------------------
DEPENDENCIES = [
    "sympy",
    "mpmath",
    "networkx",
    "gmpy2",
    "python-flint",
    "numpy",
    "scipy",
    "tqdm",
]
PEERS = ["icepool", "stormpy"]


def _version(dist_name: str) -> str:
    try:
        return importlib.metadata.version(dist_name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _git_revision() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "exactprob"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return head + (" (exactprob/ has uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine_description() -> list[str]:
    """Lines describing the machine and the software measured."""
    lines = [
        (
            f"CPU: {_cpu_model()}, {os.cpu_count()} logical cores "
            f"({platform.machine()}, {platform.system()} {platform.release()})"
        ),
        f"Python {platform.python_version()} ({platform.python_implementation()})",
        f"exactprob {exactprob.__version__}, git {_git_revision()}",
        "dependencies: " + ", ".join(f"{d} {_version(d)}" for d in DEPENDENCIES),
        "peers: " + ", ".join(f"{p} {_version(p)}" for p in PEERS),
    ]
    extra = []
    try:
        import gmpy2

        extra.append(gmpy2.mp_version())
    except ImportError:  # pragma: no cover
        pass
    try:
        import flint

        extra.append(f"FLINT {flint.__FLINT_VERSION__}")
    except (ImportError, AttributeError):  # pragma: no cover
        pass
    if HAVE_STORM:
        import stormpy.info

        numbers = "CLN" if stormpy.info.storm_exact_use_cln() else "GMP"
        extra.append(f"Storm {stormpy.info.storm_version()} (exact numbers: {numbers})")
    if extra:
        lines.append("libraries: " + ", ".join(extra))
    return lines


# ---------------------------------------------------------------------------------------
# Timing helpers
# ---------------------------------------------------------------------------------------
def best_time(fn: Callable[[], Any], repeat: int, min_time: float) -> float:
    """Best of ``repeat`` runs of ``fn`` (seconds per call).

    Each run calls ``fn`` a calibrated ``number`` of times (so that one run lasts at
    least ``min_time``) with the garbage collector off, as :mod:`timeit` does.
    """
    timer = timeit.Timer(fn)
    number = 1
    while True:
        t = timer.timeit(number)
        if t >= min_time or number >= 1 << 20:
            break
        number = max(number * 2, int(number * min_time / max(t, 1e-9) * 1.1))
    runs = timer.repeat(repeat=repeat, number=number)
    return min(runs) / number


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}x"


def report(title: str, sections: list[str], out: Path | None) -> int:
    """Print a report (its title, the machine, then ``sections``' lines), write it to
    ``out`` too if given, and return the exit status: 1 when an answer differed from its
    peer's (a line says ``DIFFERENT``)."""
    lines = [f"# {title}", "", "Machine:", ""]
    lines += [f"- {line}" for line in machine_description()] + ["", *sections]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if out:
        out.write_text(text)
    return 1 if "DIFFERENT" in text else 0


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A markdown table with padded columns."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"

    return [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [
        line(r) for r in rows
    ]


# ---------------------------------------------------------------------------------------
# 1. Dice: exactprob vs icepool
# ---------------------------------------------------------------------------------------
def icepool_fresh_die(sides: int) -> Any:
    """A new ``icepool.Die`` for 1..sides, sharing no cache with earlier calls.

    icepool caches in two places that would turn repeats into dictionary lookups:
    ``icepool.d(sides)`` (and so ``icepool.d6``) is ``functools.cache``-d, and each
    ``Die`` memoises ``n @ die`` in its ``_sum_cache``. A fresh ``Die`` has an empty
    ``_sum_cache``, and ``icepool.d`` is never called.
    """
    return icepool.Die(range(1, sides + 1))


@dataclass
class DiceCase:
    name: str
    ours: Callable[[], Dist[int]]
    theirs: Callable[[], Any]


def dice_cases(quick: bool) -> list[DiceCase]:
    def diff() -> Dist[int]:
        d6 = die(6)
        return (4 @ d6) - (2 @ d6)

    def diff_ip() -> Any:
        d6 = icepool_fresh_die(6)
        return (4 @ d6) - (2 @ d6)

    many = 30 if quick else 100
    return [
        DiceCase("40d2", lambda: dice(40, 2), lambda: 40 @ icepool_fresh_die(2)),
        DiceCase("4d6 - 2d6", diff, diff_ip),
        DiceCase("10d10", lambda: dice(10, 10), lambda: 10 @ icepool_fresh_die(10)),
        DiceCase("12 + 8d10", lambda: 12 + dice(8, 10), lambda: 12 + 8 @ icepool_fresh_die(10)),
        DiceCase(f"{many}d6", lambda: dice(many, 6), lambda: many @ icepool_fresh_die(6)),
    ]


def as_fractions_ours(d: Dist[int]) -> dict[int, Fraction]:
    return {k: Fraction(d[k]) for k in d}


def as_fractions_icepool(d: Any) -> dict[int, Fraction]:
    den = d.denominator()
    return {int(k): Fraction(q, den) for k, q in d.items() if q}


def icepool_row(
    label: str,
    ours: Callable[[], Dist[int]],
    theirs: Callable[[], Any],
    repeat: int,
    min_time: float,
) -> list[str]:
    """One row of an exactprob-vs-icepool table: the label, the number of outcomes, both
    times, their ratio, and whether both distributions are equal as ``Fraction``
    dictionaries ("n/a" and exactprob alone when icepool is not installed)."""
    result = ours()
    t_ours = best_time(ours, repeat, min_time)
    if icepool is None:
        t_theirs, verdict = None, "n/a"
    else:
        same = as_fractions_ours(result) == as_fractions_icepool(theirs())
        verdict = "equal" if same else "DIFFERENT"
        t_theirs = best_time(theirs, repeat, min_time)
    return [
        label,
        str(len(result)),
        fmt_time(t_ours),
        fmt_time(t_theirs),
        fmt_ratio(t_ours, t_theirs),
        verdict,
    ]


def run_dice(quick: bool, repeat: int, min_time: float, log: Callable[[str], None]) -> list[str]:
    out = ["## 1. Dice distributions: exactprob.Dist vs icepool.Die", ""]
    if icepool is None:
        out += [
            (
                f"icepool is not installed, so only exactprob is timed: run `{BENCH_HINT}` "
                "to install the benchmark extra (icepool, stormpy)."
            ),
            "",
        ]
    rows = []
    for case in dice_cases(quick):
        log(f"dice: {case.name}")
        rows.append(icepool_row(case.name, case.ours, case.theirs, repeat, min_time))
    out += table(
        ["case", "outcomes", "exactprob", "icepool", "exactprob/icepool", "exact check"], rows
    )
    out += [
        "",
        (
            f"Time per call, best of {repeat} repeats; each repeat averages a calibrated number "
            "of calls. Every call builds its dice from scratch (exactprob's die() is uncached; "
            "for icepool a fresh icepool.Die(range(1, s + 1)) replaces the functools.cache-d "
            "icepool.d(s), so each Die's n @ die memo `_sum_cache` starts empty). "
            "exact check: both distributions converted to Fraction and compared with ==."
        ),
        "",
    ]
    return out


# ---------------------------------------------------------------------------------------
# 2. MDPs and DTMCs: exactprob vs Storm (exact)
# ---------------------------------------------------------------------------------------
@dataclass
class MdpCase:
    name: str
    kind: str
    make: Callable[[], Any]
    storm: bool = True
    note: str = ""


def mdp_cases(quick: bool) -> list[MdpCase]:
    if quick:
        race, pig_mdp, pig_dtmc, pig_game, chains = (150, 75), 25, 40, 15, (10_000,)
    else:
        race, pig_mdp, pig_dtmc, pig_game, chains = (600, 300), 50, 100, 30, (100_000, 10**6)
    target, turns = race
    return [
        MdpCase(
            f"(a) dice race to {target} in {turns} turns, d6 or 2d3",
            "acyclic MDP (max)",
            lambda: DiceRace(target, turns),
        ),
        MdpCase(
            "(a*) the same race as an ArrayModel",
            "acyclic MDP (max)",
            lambda: DiceRaceArrays(target, turns),
        ),
        MdpCase(
            f"(b) Pig to {pig_mdp}, player 0 optimal vs hold at 20",
            "cyclic MDP (max)",
            lambda: Pig(pig_mdp, None, 20),
        ),
        MdpCase(
            f"(c) Pig to {pig_dtmc}, both hold at 20",
            "cyclic DTMC",
            lambda: Pig(pig_dtmc, 20, 20),
        ),
        MdpCase(
            f"(d) Pig to {pig_game}, both players optimal",
            "two-player game",
            lambda: Pig(pig_game, None, None),
            storm=False,
            note="Storm: no exact solver for stochastic games",
        ),
        *(
            MdpCase(
                f"(f{'*' * i}) a deterministic chain of {n:,} states",
                "deep narrow DTMC",
                lambda n=n: Chain(n),
            )
            for i, n in enumerate(chains)
        ),
    ]


@dataclass
class MdpResult:
    states: int = 0
    transitions: int = 0
    explore: float = float("inf")
    solve: float = float("inf")
    value: Fraction | None = None
    storm: dict[str, float] = field(default_factory=dict)
    storm_value: Fraction | None = None

    @property
    def total(self) -> float:
        return self.explore + self.solve


def time_exactprob(case: MdpCase, repeat: int, result: MdpResult) -> Any:
    """Best-of-``repeat`` explore and solve (phases from the fastest total); returns the
    graph of the last repeat for the Storm side."""
    G = None
    for _ in range(repeat):
        model = case.make()
        G = None
        gc.collect()
        t0 = time.perf_counter()
        G = exactprob.explore(model)
        t1 = time.perf_counter()
        solution = exactprob.solve_graph(G)
        t2 = time.perf_counter()
        if (t2 - t0) < result.total:
            result.explore, result.solve = t1 - t0, t2 - t1
        result.value = solution.value()
        del solution
    assert G is not None
    result.states = len(G)
    result.transitions = G.number_of_transitions()
    return G


def time_storm(G: Any, repeat: int, result: MdpResult) -> None:
    best: dict[str, float] | None = None
    for _ in range(repeat):
        gc.collect()
        value, t = storm_timed_value(G)
        if best is None or t["build"] + t["check"] < best["build"] + best["check"]:
            best = t
        result.storm_value = value
    assert best is not None
    result.storm = best


def run_mdps(quick: bool, repeat: int, log: Callable[[str], None]) -> list[str]:
    out = ["## 2. MDPs and Markov chains: exactprob vs Storm (exact arithmetic)", ""]
    if not HAVE_STORM:
        out += [
            (
                f"stormpy is not installed, so only exactprob is timed: run `{BENCH_HINT}` "
                "to install the benchmark extra (icepool, stormpy)."
            ),
            "",
        ]
    ours_rows, storm_rows, notes = [], [], []
    load_engine_libraries()  # a one-run --quick would time scipy's import in case (a)
    for case in mdp_cases(quick):
        log(f"mdp: {case.name}")
        res = MdpResult()
        G = time_exactprob(case, repeat, res)
        use_storm = HAVE_STORM and case.storm
        if use_storm:
            log(f"storm: {case.name}")
            time_storm(G, repeat, res)
        del G
        s = res.storm
        bc = s["build"] + s["check"] if s else None
        if use_storm:
            verdict = "equal" if res.value == res.storm_value else "DIFFERENT"
        else:
            verdict = "n/a"
        label = case.name.split(")")[0] + ")"
        if case.note:
            notes.append(f"{label}: {case.note}.")
        assert res.value is not None
        ours_rows.append(
            [
                case.name,
                case.kind,
                f"{res.states:,}",
                f"{res.transitions:,}",
                fmt_time(res.explore),
                fmt_time(res.solve),
                fmt_time(res.total),
                f"{float(res.value):.6f} ({len(str(res.value))} chars)",
            ]
        )
        storm_rows.append(
            [
                label,
                fmt_time(s.get("export")),
                fmt_time(s.get("build")),
                fmt_time(s.get("check")),
                fmt_time(bc),
                fmt_ratio(res.solve, s.get("check")),
                fmt_ratio(res.total, bc),
                verdict,
            ]
        )
    out += table(
        [
            "case",
            "kind",
            "states",
            "transitions",
            "ep explore",
            "ep solve",
            "ep total",
            "value (length of p/q)",
        ],
        ours_rows,
    )
    out.append("")
    out += table(
        [
            "case",
            "DRN export",
            "Storm build",
            "Storm check",
            "Storm build+check",
            "ep solve / Storm check",
            "ep total / Storm build+check",
            "exact check",
        ],
        storm_rows,
    )
    out += [
        "",
        (
            f"Best of {repeat} run(s) (fastest exactprob total; fastest Storm build+check). "
            "ep explore: exactprob.explore(model), running the Python model into a compact "
            "state graph (integer ids, flat arrays). ep solve: exactprob.solve_graph(graph), exact values and policy. "
            "DRN export: exactprob.verify.storm.export_drn writing the graph as DRN text "
            "(Python, reported apart, in no Storm total). Storm build: writing the "
            "temporary file, parsing the DRN and building the sparse model with rational "
            'numbers. Storm check: parsing the property R{"value"}max=? [F "sink"] (or the '
            "DTMC one) and exact model checking (initial state only), returned as Fraction. "
            "exact check: both initial-state values compared with == as Fraction. "
            "transitions: (state, action, successor) triples. ep = exactprob."
        ),
        "",
        (
            "Storm has no exact solver for two-player stochastic games (exactprob.verify.storm: DRN "
            "has no state owners, and Storm's rPATL checker supports neither reachability "
            "rewards nor exact numbers), so (b) and (c) fix player 1's strategy to 'hold at 20' "
            "(one action per state) and (d) is timed for exactprob alone."
        ),
    ]
    for note in notes:
        out += ["", note]
    out.append("")
    return out


# ---------------------------------------------------------------------------------------
# 3. A million states: time and peak memory in a fresh process
# ---------------------------------------------------------------------------------------
def large_race(quick: bool) -> tuple[int, int]:
    """(target, turns) of the large acyclic case: 1,057,509 states in the full run."""
    return (300, 150) if quick else (1900, 950)


def load_engine_libraries() -> None:
    """Solve and enclose two-player Pig to 10, so that the libraries the engine imports on
    first use (scipy's component search and triangular solves, threadpoolctl) are loaded
    before any timing or memory reading of a fresh process, as they were when ``import
    exactprob`` loaded them: each engine measurement is of the solve, not of the import.
    The game has more states (about 700) than a graph the engine solves without scipy
    (``SMALL_GRAPH``, 200)."""
    exactprob.solve(Pig(10, None, None))
    exactprob.solve(Pig(10, None, None), method="certified")


def measure_large(quick: bool) -> dict[str, Any]:
    """Explore and solve the large dice race in this process and measure its peak
    memory (call it in a fresh process)."""
    return measure_in_memory(DiceRace(*large_race(quick)))


def measure_large_bulk(quick: bool) -> dict[str, Any]:
    """:func:`measure_large` for the race written as an ArrayModel."""
    return measure_in_memory(DiceRaceArrays(*large_race(quick)))


def measure_in_memory(model: Any) -> dict[str, Any]:
    """Explore and solve ``model`` in this process; times and peak memory."""
    load_engine_libraries()
    started_mb = peak_kib() / 1024
    t0 = time.perf_counter()
    G = exactprob.explore(model)
    t1 = time.perf_counter()
    explored_mb = peak_kib() / 1024
    solution = exactprob.solve_graph(G)
    t2 = time.perf_counter()
    value = solution.value()
    return {
        "states": len(G),
        "transitions": G.number_of_transitions(),
        "explore": t1 - t0,
        "solve": t2 - t1,
        "started_mb": started_mb,
        "explored_mb": explored_mb,
        "peak_mb": peak_kib() / 1024,
        "value": str(value),
    }


def measure_large_depth_first(quick: bool) -> dict[str, Any]:
    """Solve the large dice race in depth-first mode in this process (no graph is
    stored) and measure its peak memory (call it in a fresh process)."""
    load_engine_libraries()
    model = DiceRace(*large_race(quick))
    started_mb = peak_kib() / 1024
    t0 = time.perf_counter()
    solution = exactprob.solve(model, method="depth-first")
    t1 = time.perf_counter()
    value = solution.value()
    return {
        "states": len(solution),
        "solve": t1 - t0,
        "started_mb": started_mb,
        "peak_mb": peak_kib() / 1024,
        "value": str(value),
    }


def pig_game_goal(quick: bool) -> int:
    """The goal of the two-player Pig comparison (section 4)."""
    return 30 if quick else 100


def measure_pig_model(quick: bool) -> dict[str, Any]:
    """Two-player Pig written as a plain Model (:class:`Pig`), explored and solved by
    the engine in this process."""
    load_engine_libraries()
    model = Pig(pig_game_goal(quick), None, None)
    t0 = time.perf_counter()
    G = exactprob.explore(model)
    t1 = time.perf_counter()
    value = exactprob.solve_graph(G).value()
    t2 = time.perf_counter()
    return {
        "states": len(G),
        "explore": t1 - t0,
        "solve": t2 - t1,
        "peak_mb": peak_kib() / 1024,
        "value": str(value),
    }


def measure_pig_jeopardy(quick: bool) -> dict[str, Any]:
    """Two-player Pig by the game's own solver (:mod:`exactprob.games.jeopardy`)."""
    from exactprob.games.jeopardy.rules import Pig as JeopardyPig
    from exactprob.games.jeopardy.solving.solver import solve_race as solve_jeopardy

    t0 = time.perf_counter()
    value = solve_jeopardy(JeopardyPig(goal=pig_game_goal(quick))).first_player_win()
    return {"solve": time.perf_counter() - t0, "peak_mb": peak_kib() / 1024, "value": str(value)}


def fowl_goal(quick: bool) -> int:
    """The goal of the Fowl Play comparison (section 5; full deck, 42 chickens, 6 wolves)."""
    return 5 if quick else 10


def enclosed(explore_seconds: float, t0: float, box: Any) -> dict[str, Any]:
    """The fields of a certified-mode measurement (``box``: the initial state's enclosure)."""
    return {
        "explore": explore_seconds,
        "enclose": time.perf_counter() - t0,
        "peak_mb": peak_kib() / 1024,
        "low": repr(float(box.low)),
        "high": repr(float(box.high)),
    }


def measure_pig_enclose(quick: bool) -> dict[str, Any]:
    """Two-player Pig as a plain Model (:class:`Pig`) in the engine's certified mode."""
    load_engine_libraries()
    t0 = time.perf_counter()
    G = exactprob.explore(Pig(pig_game_goal(quick), None, None))
    t1 = time.perf_counter()
    solution = exactprob.enclose_graph(G)
    return {**enclosed(t1 - t0, t1, solution.value()), "max_width": solution.max_width()}


def larger_fowl_goal(quick: bool) -> int:
    """The goal of the larger Fowl Play comparison (section 5, ArrayModel only)."""
    return 8 if quick else 25


def engine_enclose(model: Any) -> dict[str, Any]:
    """``model`` explored and enclosed by the engine in this process."""
    load_engine_libraries()
    t0 = time.perf_counter()
    G = exactprob.explore(model, max_states=50_000_000)
    t1 = time.perf_counter()
    return {**enclosed(t1 - t0, t1, exactprob.enclose_graph(G).value()), "states": len(G)}


def game_enclose(goal: int) -> dict[str, Any]:
    """Fowl Play by the game's own certified solver (numpy interval iteration)."""
    from exactprob.games.jeopardy import FowlPlay
    from exactprob.games.jeopardy.solving.certified import enclose_race

    t0 = time.perf_counter()
    return enclosed(0.0, t0, enclose_race(FowlPlay(goal=goal)).first_player_win())


def measure_fowl_enclose(quick: bool) -> dict[str, Any]:
    """Fowl Play as the generic Model (:class:`~exactprob.games.jeopardy.JeopardyModel`)
    in the engine's certified mode."""
    from exactprob.games.jeopardy import FowlPlay, JeopardyModel

    return engine_enclose(JeopardyModel(FowlPlay(goal=fowl_goal(quick))))


def measure_fowl_bulk(quick: bool, goal: int | None = None) -> dict[str, Any]:
    """Fowl Play as an ArrayModel (:class:`~exactprob.games.jeopardy.FowlPlayArrays`),
    explored in bulk, in the engine's certified mode."""
    from exactprob.games.jeopardy import FowlPlay, FowlPlayArrays

    return engine_enclose(FowlPlayArrays(FowlPlay(goal=goal or fowl_goal(quick))))


def measure_fowl_jeopardy(quick: bool) -> dict[str, Any]:
    """Fowl Play by the game's own certified solver."""
    return game_enclose(fowl_goal(quick))


MEASUREMENTS: dict[str, Callable[[bool], dict[str, Any]]] = {
    "large": measure_large,
    "large-bulk": measure_large_bulk,
    "large-depth-first": measure_large_depth_first,
    "pig-model": measure_pig_model,
    "pig-jeopardy": measure_pig_jeopardy,
    "pig-enclose": measure_pig_enclose,
    "fowl-enclose": measure_fowl_enclose,
    "fowl-bulk": measure_fowl_bulk,
    "fowl-jeopardy": measure_fowl_jeopardy,
    "larger-fowl-bulk": lambda quick: measure_fowl_bulk(quick, larger_fowl_goal(quick)),
    "larger-fowl-jeopardy": lambda quick: game_enclose(larger_fowl_goal(quick)),
    "full-fowl-bulk": lambda quick: measure_fowl_bulk(quick, full_fowl_goal(quick)),
    "full-fowl-jeopardy": lambda quick: game_enclose(full_fowl_goal(quick)),
}


def full_fowl_goal(quick: bool) -> int:
    """The goal of the whole game (``--full-fowl``; 12 when quick)."""
    return 12 if quick else 50


def in_fresh_process(name: str, quick: bool) -> dict[str, Any]:
    """Run the measurement ``name`` (:data:`MEASUREMENTS`) in a fresh Python process,
    so that its peak memory is its own; its JSON result."""
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", name]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.splitlines()[-1]))


def run_pig_game(quick: bool, log: Callable[[str], None]) -> tuple[list[str], Fraction]:
    """Section 4, and the exact value of the game (by the game's own solver)."""
    goal = pig_game_goal(quick)
    log(f"two-player Pig to {goal}: plain Model")
    ours = in_fresh_process("pig-model", quick)
    log(f"two-player Pig to {goal}: exactprob.games.jeopardy")
    theirs = in_fresh_process("pig-jeopardy", quick)
    value = Fraction(ours["value"])
    verdict = "equal" if value == Fraction(theirs["value"]) else "DIFFERENT"
    title = (
        f"## 4. Two-player Pig to {goal}, both players optimal: a plain Model "
        "through the engine vs the game's own solver (fresh processes)"
    )
    out = [title, ""]
    out += table(
        ["solver", "states", "explore", "solve", "total", "peak memory", "value", "exact check"],
        [
            [
                "exactprob.solve on a plain Model (state (mover, score0, score1, turn total))",
                f"{ours['states']:,}",
                fmt_time(ours["explore"]),
                fmt_time(ours["solve"]),
                fmt_time(ours["explore"] + ours["solve"]),
                f"{ours['peak_mb']:,.0f} MB",
                f"{float(value):.6f} ({len(ours['value'])} chars)",
                verdict,
            ],
            [
                "exactprob.games.jeopardy (score components as affine forms)",
                "",
                "",
                fmt_time(theirs["solve"]),
                fmt_time(theirs["solve"]),
                f"{theirs['peak_mb']:,.0f} MB",
                f"{float(Fraction(theirs['value'])):.6f}",
                "",
            ],
        ],
    )
    out += [
        "",
        (
            f"total / game solver: {fmt_ratio(ours['explore'] + ours['solve'], theirs['solve'])}. "
            "The Model is the benchmark's Pig class (both players free to choose); its value "
            "is player 0's chance to win, moving first, compared with == against "
            "JeopardySolution.first_player_win(). Peak memory: VmHWM of each fresh process."
        ),
        "",
    ]
    return out, Fraction(theirs["value"])


def run_certified(
    quick: bool, exact_pig: Fraction | None, full_fowl: bool, log: Callable[[str], None]
) -> list[str]:
    """Section 5: the engine's certified mode on Pig and Fowl Play (``full_fowl``: also
    the whole game, minutes and gigabytes)."""
    goal, fowl = pig_game_goal(quick), fowl_goal(quick)
    log(f"certified: two-player Pig to {goal}, plain Model")
    pig = in_fresh_process("pig-enclose", quick)
    larger, full = larger_fowl_goal(quick), full_fowl_goal(quick)
    runs = {}
    cases = [
        ("fowl-enclose", f"Fowl Play to {fowl}, JeopardyModel"),
        ("fowl-bulk", f"Fowl Play to {fowl}, FowlPlayArrays"),
        ("fowl-jeopardy", f"Fowl Play to {fowl}, exactprob.games.jeopardy.solving.certified"),
        ("larger-fowl-bulk", f"Fowl Play to {larger}, FowlPlayArrays"),
        (
            "larger-fowl-jeopardy",
            f"Fowl Play to {larger}, exactprob.games.jeopardy.solving.certified",
        ),
    ]
    if full_fowl:
        cases += [
            ("full-fowl-bulk", f"Fowl Play to {full}, FowlPlayArrays"),
            (
                "full-fowl-jeopardy",
                f"Fowl Play to {full}, exactprob.games.jeopardy.solving.certified",
            ),
        ]
    for name, what in cases:
        log(f"certified: {what}")
        runs[name] = in_fresh_process(name, quick)
    ours, theirs = runs["fowl-enclose"], runs["fowl-jeopardy"]

    def box(m: dict[str, Any]) -> str:
        low, high = float(m["low"]), float(m["high"])
        return f"[{m['low']}, {m['high']}] (width {high - low:.1e})"

    def check(m: dict[str, Any], exact: Fraction | None, other: dict[str, Any] | None) -> str:
        low, high = Fraction(float(m["low"])), Fraction(float(m["high"]))
        if exact is not None:
            return "contains the exact value" if low <= exact <= high else "MISSES the exact value"
        assert other is not None
        meets = max(low, Fraction(float(other["low"]))) <= min(high, Fraction(float(other["high"])))
        return "overlaps the game solver's" if meets else "DISJOINT from the game solver's"

    def engine_row(label: str, m: dict[str, Any], game: dict[str, Any]) -> list[str]:
        return [
            label.format(states=f"{m['states']:,}"),
            fmt_time(m["explore"]),
            fmt_time(m["enclose"]),
            f"{m['peak_mb']:,.0f} MB",
            box(m),
            check(m, None, game),
        ]

    def game_row(goal: int, m: dict[str, Any]) -> list[str]:
        label = f"Fowl Play to {goal}, exactprob.games.jeopardy.solving.certified.enclose_race"
        return [label, "", fmt_time(m["enclose"]), f"{m['peak_mb']:,.0f} MB", box(m), ""]

    def ratios(m: dict[str, Any], game: dict[str, Any]) -> str:
        total = m["explore"] + m["enclose"]
        return (
            f"engine (explore + enclose) / game solver {fmt_ratio(total, game['enclose'])}, "
            f"enclose alone {fmt_ratio(m['enclose'], game['enclose'])}"
        )

    title = (
        f"## 5. Certified mode (the generic engine's certified method): Pig to {goal}, Fowl Play to {fowl}, {larger}"
        f"{f' and {full}' if full_fowl else ''} (fresh processes)"
    )
    out = [title, ""]
    out += table(
        ["case", "explore", "enclose", "peak memory", "first player's chance", "check"],
        [
            [
                f"Pig to {goal}, plain Model, generic certified",
                fmt_time(pig["explore"]),
                fmt_time(pig["enclose"]),
                f"{pig['peak_mb']:,.0f} MB",
                box(pig) + f"; widest state {pig['max_width']:.1e}",
                "not run (--skip-pig)" if exact_pig is None else check(pig, exact_pig, None),
            ],
            engine_row(
                f"Fowl Play to {fowl} ({{states}} states), JeopardyModel, generic certified",
                ours,
                theirs,
            ),
            engine_row(
                f"Fowl Play to {fowl}, FowlPlayArrays (bulk), generic certified",
                runs["fowl-bulk"],
                theirs,
            ),
            game_row(fowl, theirs),
            engine_row(
                f"Fowl Play to {larger} ({{states}} states), FowlPlayArrays (bulk), generic certified",
                runs["larger-fowl-bulk"],
                runs["larger-fowl-jeopardy"],
            ),
            game_row(larger, runs["larger-fowl-jeopardy"]),
        ]
        + (
            [
                engine_row(
                    f"Fowl Play to {full} ({{states}} states), FowlPlayArrays (bulk), generic certified",
                    runs["full-fowl-bulk"],
                    runs["full-fowl-jeopardy"],
                ),
                game_row(full, runs["full-fowl-jeopardy"]),
            ]
            if full_fowl
            else []
        ),
    )
    out += [
        "",
        (
            f"Fowl Play to {fowl}: JeopardyModel {ratios(ours, theirs)}; FowlPlayArrays "
            f"{ratios(runs['fowl-bulk'], theirs)}. Fowl Play to {larger}: FowlPlayArrays "
            f"{ratios(runs['larger-fowl-bulk'], runs['larger-fowl-jeopardy'])}"
            + (
                f". Fowl Play to {full}: FowlPlayArrays "
                f"{ratios(runs['full-fowl-bulk'], runs['full-fowl-jeopardy'])}"
                if full_fowl
                else " (the whole game, to 50, with --full-fowl)"
            )
            + ". Every enclosure is proved to contain the exact value, so each pair must "
            "overlap."
        ),
        "",
    ]
    return out


def in_memory_row(mode: str, m: dict[str, Any], value: str) -> list[str]:
    """A row of section 3 for an in-memory measurement."""
    graph_mb = m["explored_mb"] - m["started_mb"]
    per_million = graph_mb / ((m["states"] + m["transitions"]) / 1e6)
    return [
        mode,
        f"{m['states']:,}",
        f"{m['transitions']:,}",
        fmt_time(m["explore"]),
        fmt_time(m["solve"]),
        f"{m['started_mb']:,.0f} MB",
        f"{m['explored_mb']:,.0f} MB",
        f"{per_million:,.0f} MB",
        f"{m['peak_mb']:,.0f} MB",
        value,
    ]


def run_large(quick: bool, log: Callable[[str], None]) -> list[str]:
    target, turns = large_race(quick)
    name = f"(e) dice race to {target} in {turns} turns, d6 or 2d3"
    log(f"large: {name}, in memory")
    m = in_fresh_process("large", quick)
    log(f"large: {name}, as an ArrayModel")
    b = in_fresh_process("large-bulk", quick)
    log(f"large: {name}, depth first")
    d = in_fresh_process("large-depth-first", quick)
    value = Fraction(m["value"])
    same = "equal" if Fraction(d["value"]) == value and d["states"] == m["states"] else "DIFFERENT"
    same_bulk = (
        "equal" if Fraction(b["value"]) == value and b["states"] == m["states"] else "DIFFERENT"
    )
    out = ["## 3. A large acyclic MDP: time and peak memory (exactprob, fresh processes)", ""]
    out += table(
        [
            "mode",
            "states",
            "transitions",
            "explore",
            "solve",
            "before",
            "peak after explore",
            "graph per million states + transitions",
            "peak",
            "value",
        ],
        [
            in_memory_row(
                "in memory: explore, solve_graph",
                m,
                f"{float(value):.6f} ({len(m['value'])} chars)",
            ),
            in_memory_row("in memory, an ArrayModel explored in bulk", b, same_bulk),
            [
                'depth first: method="depth-first"',
                f"{d['states']:,}",
                "(not stored)",
                "(interleaved)",
                fmt_time(d["solve"]),
                f"{d['started_mb']:,.0f} MB",
                "n/a",
                "n/a",
                f"{d['peak_mb']:,.0f} MB",
                same,
            ],
        ],
    )
    out += [
        "",
        (
            f"Case {name}. Peak resident memory (VmHWM) of a fresh Python process each: "
            "before any work (the interpreter and the libraries), after exploring (plus "
            "the state graph; the graph's share is the difference) and at the end (plus "
            "one exact value per state; the values' long fractions dominate). The "
            "ArrayModel is the same race answered a level at a time (DiceRaceArrays); its "
            "graph keeps each state as a code, not a tuple with a dictionary entry. "
            "Depth-first mode keeps no graph: each state's transitions live only until its "
            "component is solved. No Storm column: exporting 11.6 million transitions as DRN text "
            "goes through the networkx view and is not what this case measures."
        ),
        "",
    ]
    return out


# ---------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "small sizes")
    parser.add_argument(
        "--repeat", type=int, help="repeats per dice case (default 3 quick, 7 full)"
    )
    parser.add_argument(
        "--mdp-repeat", type=int, help="repeats per MDP case (default 1 quick, 2 full)"
    )
    parser.add_argument("--skip-dice", action="store_true")
    parser.add_argument("--skip-mdp", action="store_true")
    parser.add_argument("--skip-large", action="store_true", help="skip the million-state case")
    parser.add_argument(
        "--skip-pig", action="store_true", help="skip two-player Pig against the game's solver"
    )
    parser.add_argument(
        "--skip-certified", action="store_true", help="skip certified mode (section 5)"
    )
    parser.add_argument(
        "--full-fowl",
        action="store_true",
        help="also enclose the whole of Fowl Play through the engine (minutes, ~10 GB)",
    )
    parser.add_argument("--measure", choices=sorted(MEASUREMENTS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.set_int_max_str_digits(0)  # exact values print in full (Pig to 100: 20,855 digits)
    if args.measure:  # the child process of in_fresh_process
        print(json.dumps(MEASUREMENTS[args.measure](args.quick)))
        return 0
    repeat = args.repeat or (3 if args.quick else 7)
    mdp_repeat = args.mdp_repeat or (1 if args.quick else 2)
    min_time = 0.02 if args.quick else 0.2

    start = time.perf_counter()
    report = report_header("exactprob benchmark", args.quick)
    if icepool is None or not HAVE_STORM:
        report += [f"Peers missing: `{BENCH_HINT}` installs icepool and stormpy.", ""]
    if not args.skip_dice:
        report += run_dice(args.quick, repeat, min_time, log)
    if not args.skip_mdp:
        report += run_mdps(args.quick, mdp_repeat, log)
    if not args.skip_large:
        report += run_large(args.quick, log)
    exact_pig = None
    if not args.skip_pig:
        lines, exact_pig = run_pig_game(args.quick, log)
        report += lines
    if not args.skip_certified:
        report += run_certified(args.quick, exact_pig, args.full_fowl, log)
    return finish_report(report, start, args.out)


def log(msg: str) -> None:
    """A progress line on stderr (the report goes to stdout)."""
    print(f"  ... {msg}", file=sys.stderr, flush=True)


def benchmark_parser(doc: str, quick: str) -> argparse.ArgumentParser:
    """The options every benchmark script takes: ``--quick`` (``quick`` says what it
    shrinks, for a smoke test) and ``--out FILE``; the description is ``doc``'s first
    paragraph."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{quick}, for a smoke test")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    return parser


def parse_with_cap(
    parser: argparse.ArgumentParser, argv: Iterable[str] | None, per: str, caps: tuple[float, float]
) -> tuple[argparse.Namespace, float]:
    """Add ``--cap`` (seconds per ``per``; ``caps`` = the quick and the full default), parse
    ``argv``, and return the arguments with the cap in force."""
    quick_cap, full_cap = caps
    parser.add_argument(
        "--cap", type=float, help=f"seconds per {per} ({quick_cap:g} quick, {full_cap:g} full)"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    return args, args.cap or (quick_cap if args.quick else full_cap)


def report_header(title: str, quick: bool) -> list[str]:
    """The report's first lines: title, kind of run, date, and the machine."""
    run = "quick" if quick else "full"
    lines = [f"# {title} ({run} run, {time.strftime('%Y-%m-%d %H:%M')})", ""]
    return lines + ["Machine:", ""] + [f"- {line}" for line in machine_description()] + [""]


def finish_report(report: list[str], start: float, out: Path | None) -> int:
    """Print the report (and write it to ``out``); exit status 1 if any exact answer
    differed from its peer's."""
    report.append(f"Benchmark wall time: {time.perf_counter() - start:.1f} s")
    text = "\n".join(report) + "\n"
    print(text, end="")
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    if "DIFFERENT" in text:
        print("ERROR: some exact results differ between exactprob and a peer", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
