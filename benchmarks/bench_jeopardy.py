#!/usr/bin/env python
r"""Benchmark the jeopardy race solvers (issue 5): Pig, Fowl Play and Red Light.

Usage::

    python benchmarks/bench_jeopardy.py [--quick] [--out FILE] [--cap SECONDS]

1. The issue's goals: Pig to 100 solved exactly
   (:func:`exactprob.games.jeopardy.solving.solver.solve_race`) in under a minute; Fowl Play (42
   chickens, 6 wolves, to 50) and Red Light (24 green, 4 red, to 50, komi 1) enclosed
   (:func:`exactprob.games.jeopardy.solving.certified.enclose_race`) in under 15 minutes and 8 GB.
2. The peer: float value iteration in numpy, the papers' method, written here from the
   spec's equations alone (:func:`pig_value_iteration`, :func:`fowl_value_iteration`).
   Its value is compared with the exact one (Pig, as a ``Fraction``) or with the certified
   enclosure (Fowl Play, Red Light), at the first player's start and at every turn start.
3. Exact denominators as the goal grows: Pig to 10, 20, ..., 100 and Fowl Play (full deck)
   to 5, 10, 15, each exact value also checked against the peer and, for Fowl Play, against
   the certified enclosure.

Every solve runs in a fresh process (``multiprocessing`` "spawn"), so that its peak resident
memory (``VmHWM``, see ``bench_engine.peak_kib``) is its own; the time is the solve alone (imports excluded), with the
garbage collector off. A check that fails prints DIFFERENT and the script exits 1.
``--quick`` uses small goals (about ten seconds, mostly starting processes) for a smoke
test; the full run takes under two minutes on two cores.
"""

from __future__ import annotations

import gc
import multiprocessing
import resource
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench_engine: timing helpers and the machine description
try:
    import exactprob  # noqa: F401
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(HERE.parent))

from bench_engine import (
    benchmark_parser,
    finish_report,
    fmt_time,
    log,
    parse_with_cap,
    peak_kib,
    report_header,
    table,
)
from gmpy2 import mpq

from exactprob.games.jeopardy.fairness import komi_wins
from exactprob.games.jeopardy.rules import RED_LIGHT, RED_LIGHT_KOMI, FowlPlay, Pig
from exactprob.games.jeopardy.solving import certified, solver
from exactprob.util.numbers import decimal_string, digit_count

# ---------------------------------------------------------------------------------------
# The peer: float value iteration, from the spec's equations
# ---------------------------------------------------------------------------------------
#: Sweeps stop when no state value of the score sum changed by more than this.
TOLERANCE = 1e-12
MAX_SWEEPS = 100_000


@dataclass
class Iterated:
    """A peer's answer: ``starts`` holds every turn-start value (``[a, b]`` for Pig,
    ``[a, b, w, c]`` for Fowl Play); ``sweeps`` counts the sweeps over all score sums."""

    starts: np.ndarray
    sweeps: int


def sums_from_top(goal: int) -> Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each score sum :math:`T = a + b` from :math:`2(g - 1)` down to 0: the movers'
    scores ``a``, the others' ``b``, and ``swap`` (the index of ``(b, a)``).

    >>> [(a.tolist(), b.tolist(), s.tolist()) for a, b, s in sums_from_top(2)]
    [([1], [1], [0]), ([0, 1], [1, 0], [1, 0]), ([0], [0], [0])]
    """
    for total in range(2 * goal - 2, -1, -1):
        movers = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        yield movers, total - movers, np.arange(len(movers))[::-1]


def until_settled(sweep: Callable[[], float]) -> int:
    """Run ``sweep`` (which returns the largest change) until it is below
    :data:`TOLERANCE`; the number of sweeps."""
    for sweeps in range(1, MAX_SWEEPS + 1):
        if sweep() < TOLERANCE:
            return sweeps
    raise RuntimeError(f"value iteration did not settle in {MAX_SWEEPS} sweeps")


def pig_value_iteration(goal: int, sides: int = 6) -> Iterated:
    r"""Pig's win probabilities by value iteration, one score sum at a time.

    With :math:`P(a, b, k) = 1` once :math:`a + k \ge g`,

    .. math::

        P_\text{roll} = \tfrac1s\bigl(1 - P(b, a, 0)\bigr) + \tfrac1s \sum_{f=2}^{s}
        P(a, b, k + f), \qquad P_\text{hold} = 1 - P(b, a + k, 0),

    and :math:`P = P_\text{roll}` at :math:`k = 0`, else the larger. Holding raises the
    score sum, so sums are solved from the top. In a sum, a Gauss-Seidel sweep updates the
    turn totals from high to low, every pair of scores at once (numpy), each from the newest
    values; sweeps repeat until no value changes by :data:`TOLERANCE`.

    To 2, any face but 1 wins at once: :math:`x = \tfrac56 + \tfrac16(1 - x)`, so
    :math:`x = 6/7`.

    >>> round(float(pig_value_iteration(2).starts[0, 0]) * 7, 9)
    6.0
    """
    starts = np.zeros((goal, goal))
    sweeps = 0
    for movers, others, swap in sums_from_top(goal):
        k = np.arange(goal + sides)[:, None]
        won = movers + k >= goal
        values = won.astype(float)  # [k, pair]; the unknown ones start at 0
        held = np.minimum(movers + k, goal - 1)
        hold = np.where(won, 1.0, 1 - starts[others, held])  # won: the max is 1, as it must
        hold[0] = -np.inf  # a turn total of 0 must roll
        sweeps += until_settled(partial(pig_sweep, values, hold, swap, goal, sides))
        starts[movers, others] = values[0]
    return Iterated(starts, sweeps)


def pig_sweep(
    values: np.ndarray, hold: np.ndarray, swap: np.ndarray, goal: int, sides: int
) -> float:
    """One Gauss-Seidel sweep over a score sum's states ``values[k, pair]``, in place;
    the largest change."""
    before = values.copy()
    bust = 1 - values[0, swap]  # the other side's turn starts change at k = 0 only
    for t in range(goal - 1, -1, -1):
        roll = (bust + values[t + 2 : t + sides + 1].sum(axis=0)) / sides
        np.maximum(roll, hold[t], out=values[t])
    return float(np.max(np.abs(values - before)))


def fowl_value_iteration(game: FowlPlay) -> Iterated:
    r"""Fowl Play's win probabilities by value iteration, one score sum at a time.

    With :math:`c_r, w_r` the chickens and wolves left in deck state :math:`(w, c)` and
    :math:`P(a, b, k, w, c) = 1` once :math:`a + k \ge g` (the mover holds and wins),

    .. math::

        P_\text{draw} = \tfrac{c_r}{c_r + w_r} P(a, b, k + 1, w, c + 1)
                      + \tfrac{w_r}{c_r + w_r}\bigl(1 - P(b, a, 0, w', c')\bigr),
        \qquad P_\text{hold} = 1 - P(b, a + k, 0, w, c),

    where :math:`(w', c') = (w + 1, c)`, or :math:`(0, 0)` after the last wolf; and
    :math:`P = P_\text{draw}` at :math:`k = 0`, else the larger. Score sums are solved from
    the top; in a sum, a Gauss-Seidel sweep updates the deck states from the last to the
    first (``w`` then ``c`` descending), every pair of scores and turn total at once
    (numpy), each from the newest values; sweeps repeat until no value changes by
    :data:`TOLERANCE`.

    >>> iterated = fowl_value_iteration(FowlPlay(chickens=2, wolves=1, goal=1))
    >>> round(float(iterated.starts[0, 0, 0, 0]), 9)  # x = 2/3 + (1 - x)/3: x = 3/4
    0.75
    """
    goal, wolves, chickens = game.goal, game.wolves, game.chickens
    w_rem = (wolves - np.arange(wolves))[:, None].astype(float)
    c_rem = (chickens - np.arange(chickens + 1))[None, :].astype(float)
    chances = (c_rem / (c_rem + w_rem), w_rem / (c_rem + w_rem))  # chicken, wolf
    starts = np.zeros((goal, goal, wolves, chickens + 1))
    k = np.arange(chickens + 2)
    possible = k[None, :-1] <= np.arange(chickens + 1)[:, None]  # [c, k]: k <= c
    sweeps = 0
    for movers, others, swap in sums_from_top(goal):
        won = movers[:, None] + k >= goal  # [pair, k]
        values = np.broadcast_to(won, (wolves, chickens + 1, *won.shape)).astype(float)
        held = np.minimum(movers[:, None] + k[:-1], goal - 1)
        hold = 1 - starts[others[:, None], held].transpose(2, 3, 0, 1)  # [w, c, pair, k]
        hold[:, :, won[:, :-1]] = 1.0  # a mover at the goal holds and wins: the max is 1
        hold[..., 0] = -np.inf  # a turn total of 0 must draw
        sweeps += until_settled(partial(fowl_sweep, values, hold, swap, chances, possible))
        starts[movers, others] = values[..., 0].transpose(2, 0, 1)
    return Iterated(starts, sweeps)


def fowl_sweep(
    values: np.ndarray,
    hold: np.ndarray,
    swap: np.ndarray,
    chances: tuple[np.ndarray, np.ndarray],
    possible: np.ndarray,
) -> float:
    """One Gauss-Seidel sweep over a score sum's states ``values[w, c, pair, k]``, in place;
    the largest change over the states that can occur (``possible[c, k]``: k <= c)."""
    wolves, chickens = values.shape[0], values.shape[1] - 1
    p_chicken, p_wolf = chances
    before = values[..., :-1].copy()
    for w in range(wolves - 1, -1, -1):
        after_wolf = values[w + 1, :, :, 0] if w + 1 < wolves else None
        for c in range(chickens, -1, -1):
            turn_starts = values[0, 0, :, 0] if after_wolf is None else after_wolf[c]
            draw = p_wolf[w, c] * (1 - turn_starts[swap, None])
            if c < chickens:
                draw = draw + p_chicken[w, c] * values[w, c + 1, :, 1:]
            np.maximum(draw, hold[w, c], out=values[w, c, :, :-1])
    change = np.abs(values[..., :-1] - before).max(axis=2)  # [w, c, k]
    return float(np.max(change, where=possible, initial=0.0))


# ---------------------------------------------------------------------------------------
# The tasks, each run in a fresh process
# ---------------------------------------------------------------------------------------
def digits(q: Any) -> int:
    """Decimal digits of a rational's denominator."""
    return digit_count(q.denominator)


def largest_gap(floats: np.ndarray, exact: dict[tuple, Any]) -> float:
    """The largest :math:`|x - v|` between a float and the exact value it approximates,
    computed exactly over every key ``(a, b, ...)`` of ``exact`` (indices of ``floats``)."""
    gaps = (abs(mpq(float(floats[key])) - value) for key, value in exact.items())
    return float(max(gaps))


def outside(values: np.ndarray, low: np.ndarray, high: np.ndarray) -> float:
    """How far the floats ``values`` lie outside the enclosures ``[low, high]`` (0: all in)."""
    return float(np.max(np.maximum(low - values, values - high).clip(0)))


def exact_starts(solution: Any, game: Pig | FowlPlay) -> dict[tuple, Any]:
    """Every exact turn-start value, keyed by its index in the peer's ``starts`` array."""
    if isinstance(game, Pig):
        return {(a, b): v for (a, b, _), v in solution.starts.items()}
    return {(a, b, *deck): v for (a, b, deck), v in solution.starts.items()}


def task_exact(game: Pig | FowlPlay) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    """The exact solve, then (untimed) its checks: the peer at every turn start and, for
    Fowl Play, whether the certified enclosures contain every exact value."""

    def checks(solution: Any) -> dict:
        starts = exact_starts(solution, game)
        win = solution.first_player_win()
        found = {
            "win": win,
            "win_digits": digits(win),
            "max_digits": max(digits(v) for v in starts.values()),
        }
        if isinstance(game, Pig):
            peer = pig_value_iteration(game.goal, game.sides)
        else:
            peer = fowl_value_iteration(game)
            box = certified.enclose_race(game)
            found["enclosed"] = all(
                mpq(float(box.low[key])) <= v <= mpq(float(box.high[key]))
                for key, v in starts.items()
            )
        found["peer_gap"] = largest_gap(peer.starts, starts)
        return found

    return lambda: solver.solve_race(game), checks


def task_certified(game: FowlPlay) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    def checks(box: Any) -> dict:
        return {"low": box.low, "high": box.high, "wins": komi_wins(box)}

    return lambda: certified.enclose_race(game), checks


def task_peer(game: Pig | FowlPlay) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    def run() -> Iterated:
        if isinstance(game, Pig):
            return pig_value_iteration(game.goal, game.sides)
        return fowl_value_iteration(game)

    return run, lambda iterated: {"starts": iterated.starts, "sweeps": iterated.sweeps}


Task = Callable[[Any], tuple[Callable[[], Any], Callable[[Any], dict]]]
"""A module-level ``task(subject) -> (run, checks)``: the worker times ``run()`` alone and
reports ``checks`` of its answer (module-level, so that "spawn" can send it by name)."""
ERROR = "FAILED:"
#: Address space of a worker: a runaway solve fails with MemoryError, not the machine.
MEMORY_LIMIT = 16 * 2**30


@dataclass
class Measured:
    """One task in a fresh process: seconds, peak memory (KiB; ``imports_kib`` before the
    task, after the imports alone) and what it found; or ``failed``, why not."""

    seconds: float = 0.0
    peak_kib: int = 0
    imports_kib: int = 0
    found: dict = field(default_factory=dict)
    failed: str = ""


def _worker(task: Task, game: Any, sender: Any) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    run, checks = task(game)
    gc.disable()
    try:
        imports = peak_kib()
        start = time.perf_counter()
        answer = run()
        seconds = time.perf_counter() - start
        peak = peak_kib()
        outcome = Measured(seconds, peak, imports, checks(answer))
    except MemoryError:
        outcome = Measured(failed=f"> {MEMORY_LIMIT >> 30} GB")
    sender.send(outcome)


def measure(task: Task, game: Any, cap: float) -> Measured:
    """``task`` on ``game`` in a fresh process, stopped after ``cap`` seconds."""
    log(f"{task.__name__.removeprefix('task_')}: {game}")
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(task, game, sender))
    process.start()
    sender.close()
    try:
        if receiver.poll(cap):
            return receiver.recv()  # type: ignore[no-any-return]
        return Measured(failed=f"> {cap:.0f} s")
    except EOFError:  # the worker died without an answer (its traceback is on stderr)
        process.join()
        return Measured(failed=f"{ERROR} exit status {process.exitcode}")
    finally:
        if process.is_alive():
            process.terminate()
        process.join()


# ---------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------
def fmt_memory(kib: int) -> str:
    return f"{kib / 1024:,.0f} MB"


def fmt_enclosure(box: Any) -> str:
    return f"[{float(box.low)!r}, {float(box.high)!r}]"


#: A peer further than this from the exact value, or outside an enclosure by more, is wrong
#: (value iteration stopped at changes below 1e-12 errs by far less).
PEER_SLACK = 1e-9


def verdict(gap: float) -> str:
    return "DIFFERENT" if gap > PEER_SLACK else ""


@dataclass
class Sizes:
    """The games of one run (Red Light is asked at its komi)."""

    pig: Pig
    fowl: FowlPlay
    red: FowlPlay
    pig_goals: list[int]
    fowl_goals: list[int]


def sizes(quick: bool) -> Sizes:
    if quick:
        return Sizes(Pig(goal=20), FowlPlay(goal=8), FowlPlay(24, 4, 8), [10, 20], [4, 6])
    pig_goals = list(range(10, 101, 10))
    return Sizes(Pig(goal=100), FowlPlay(), RED_LIGHT, pig_goals, [5, 10, 15])


def game_name(game: Pig | FowlPlay, komi: int = 0) -> str:
    if isinstance(game, Pig):
        return f"Pig to {game.goal}"
    komi_text = f", komi {komi}" if komi else ""
    return f"{game.name} ({game.chickens}+{game.wolves}, to {game.goal}{komi_text})"


def run_goals(run: Sizes, cap: float, pig_exact: Measured) -> list[str]:
    """Sections 1 and 2: exactprob on the issue's games (``pig_exact``: the exact Pig solve,
    already measured), and the peer in the same run."""
    pig_peer = measure(task_peer, run.pig, cap)
    goal_rows = [pig_goal_row(run.pig, pig_exact)]
    peer_rows = [pig_peer_row(run.pig, pig_exact, pig_peer)]
    measured = [pig_exact, pig_peer]
    for game, komi in ((run.fowl, 0), (run.red, RED_LIGHT_KOMI)):
        box, peer = measure(task_certified, game, cap), measure(task_peer, game, cap)
        measured += [box, peer]
        goal_rows.append(fowl_goal_row(game, komi, box))
        peer_rows.append(fowl_peer_row(game, komi, box, peer))
    imports = min((m.imports_kib for m in measured if not m.failed), default=0)
    out = ["## 1. The issue's goals", ""]
    out += table(
        ["game", "exactprob", "states", "time", "peak memory", "first-player win",
         "size", "goal"],
        goal_rows,
    )  # fmt: skip
    out += [
        "",
        (
            "exact: exactprob.games.jeopardy.solving.solver.solve_race, size = digits of the win's "
            "denominator; certified: certified.enclose_race, an interval guaranteed to contain the "
            "exact value, size = its width. Peak memory: VmHWM of the solving process "
            f"(after its imports alone: {fmt_memory(imports)})."
        ),
        "",
        "## 2. Against float value iteration (numpy), the papers' method",
        "",
    ]
    out += table(
        ["game", "peer time", "peer peak", "sweeps", "peer value", "first player",
         "all turn starts", "exactprob time", "exactprob/peer"],
        peer_rows,
    )  # fmt: skip
    out += [
        "",
        (
            "The peer is written in this script from the spec's equations: score sums from "
            "the top; in each sum Gauss-Seidel sweeps over all its states (turn totals from "
            "high to low for Pig, deck states from the last to the first for Fowl Play, "
            "vectorised over the pairs of scores and turn totals), until no value changes by "
            f"{TOLERANCE:g} in a sweep. first player / all turn starts: the peer's distance "
            "from the exact value (Pig, computed exactly) or how far it lies outside the "
            f"certified enclosure (Fowl Play; 'inside' if it does not); beyond {PEER_SLACK:g} "
            "the check fails (the script says so and exits 1)."
        ),
        "",
    ]
    return out


def pig_goal_row(game: Pig, exact: Measured) -> list[str]:
    head = [game_name(game), "exact", f"{game.nonterminal_states():,}"]
    if exact.failed:
        return head + [exact.failed, "", "", "", "< 1 min"]
    met = "met" if exact.seconds < 60 else "NOT met"
    return head + [
        fmt_time(exact.seconds),
        fmt_memory(exact.peak_kib),
        decimal_string(exact.found["win"], 15),
        f"{exact.found['win_digits']:,} digits",
        f"< 1 min: {met}",
    ]


def fowl_goal_row(game: FowlPlay, komi: int, box: Measured) -> list[str]:
    head = [game_name(game, komi), "certified", f"{game.nonterminal_states():,}"]
    if box.failed:
        return head + [box.failed, "", "", "", "< 15 min, < 8 GB"]
    fast, small = box.seconds < 15 * 60, box.peak_kib < 8 * 2**20
    met = "met" if fast and small else "NOT met"
    win = box.found["wins"][komi]
    return head + [
        fmt_time(box.seconds),
        fmt_memory(box.peak_kib),
        f"{win.decimal()} {fmt_enclosure(win)}",
        f"width {float(win.width()):.1e}",
        f"< 15 min, < 8 GB: {met}",
    ]


def ratio(ours: Measured, peer: Measured) -> str:
    return "n/a" if ours.failed or peer.failed else f"{ours.seconds / peer.seconds:.2f}x"


def pig_peer_row(game: Pig, exact: Measured, peer: Measured) -> list[str]:
    if peer.failed or exact.failed:
        return [game_name(game), peer.failed or "", "", "", "", "n/a", "n/a", "", "n/a"]
    value = peer.found["starts"][0, 0]
    gap = float(abs(Fraction(value) - exact.found["win"]))
    all_gap = exact.found["peer_gap"]
    return [
        game_name(game),
        fmt_time(peer.seconds),
        fmt_memory(peer.peak_kib),
        f"{peer.found['sweeps']:,}",
        repr(float(value)),
        f"{gap:.1e} from exact {verdict(gap)}".rstrip(),
        f"largest {all_gap:.1e} {verdict(all_gap)}".rstrip(),
        fmt_time(exact.seconds),
        ratio(exact, peer),
    ]


def fowl_peer_row(game: FowlPlay, komi: int, box: Measured, peer: Measured) -> list[str]:
    name = game_name(game, komi)
    if peer.failed or box.failed:
        return [name, peer.failed or "", "", "", "", "n/a", "n/a", "", "n/a"]
    starts, low, high = peer.found["starts"], box.found["low"], box.found["high"]
    value = starts[0, komi, 0, 0]
    first = outside(value, low[0, komi, 0, 0], high[0, komi, 0, 0])
    every = outside(starts, low, high)
    return [
        name,
        fmt_time(peer.seconds),
        fmt_memory(peer.peak_kib),
        f"{peer.found['sweeps']:,}",
        repr(float(value)),
        place(first),
        place(every),
        fmt_time(box.seconds),
        ratio(box, peer),
    ]


def place(gap: float) -> str:
    """Where the peer lies against the enclosure."""
    return "inside" if gap == 0 else f"outside by {gap:.1e} {verdict(gap)}".rstrip()


def exact_growth(run: Sizes, cap: float) -> dict[Pig | FowlPlay, Measured]:
    """The exact solves as the goal grows (Pig's largest goal is the issue's game)."""
    games: list[Pig | FowlPlay] = [Pig(goal=goal) for goal in run.pig_goals]
    games += [FowlPlay(goal=goal) for goal in run.fowl_goals]
    return {game: measure(task_exact, game, cap) for game in games}


def run_growth(solves: dict[Pig | FowlPlay, Measured]) -> list[str]:
    """Section 3: the exact solves as the goal grows."""
    rows = [growth_row(game, exact) for game, exact in solves.items()]
    out = ["## 3. Exact denominators as the goal grows", ""]
    out += table(
        ["game", "states", "time", "peak memory", "first-player win", "digits (win)",
         "digits (largest turn start)", "peer: largest gap", "in enclosures"],
        rows,
    )  # fmt: skip
    out += [
        "",
        (
            "digits: of the denominator of the first player's win, and the largest over every "
            "turn-start value P(a, b, 0, deck) (other states are computed from these). peer: "
            "the largest |float - exact| of the value-iteration peer over every turn start, "
            "computed exactly. in enclosures: whether certified.enclose's intervals contain "
            "every exact turn-start value (Fowl Play)."
        ),
        "",
        *fowl_growth(solves),
    ]
    return out


def fowl_growth(solves: dict[Pig | FowlPlay, Measured]) -> list[str]:
    """A line on how fast the exact Fowl Play solve grows (its last two goals)."""
    done = [(g, m) for g, m in solves.items() if isinstance(g, FowlPlay) and not m.failed]
    if len(done) < 2:
        return []
    (small, before), (large, after) = done[-2:]
    return [
        (
            f"Exact Fowl Play from goal {small.goal} to {large.goal}: time x"
            f"{after.seconds / before.seconds:.1f}, largest denominator "
            f"{before.found['max_digits']:,} -> {after.found['max_digits']:,} digits. "
            "The full game (goal 50, 10.5 million states) is not solved exactly here; section "
            "1 encloses it instead."
        ),
        "",
    ]


def growth_row(game: Pig | FowlPlay, exact: Measured) -> list[str]:
    head = [game_name(game), f"{game.nonterminal_states():,}"]
    if exact.failed:
        return head + [exact.failed] + [""] * 6
    found = exact.found
    enclosed = "n/a"
    if "enclosed" in found:
        enclosed = "yes" if found["enclosed"] else "DIFFERENT"
    return head + [
        fmt_time(exact.seconds),
        fmt_memory(exact.peak_kib),
        decimal_string(found["win"], 12),
        f"{found['win_digits']:,}",
        f"{found['max_digits']:,}",
        f"{found['peer_gap']:.1e} {verdict(found['peer_gap'])}".rstrip(),
        enclosed,
    ]


def main(argv: Iterable[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "small goals")
    args, cap = parse_with_cap(parser, argv, "solve", (60.0, 1800.0))

    start = time.perf_counter()
    run = sizes(args.quick)
    report = report_header("exactprob jeopardy benchmark (Pig, Fowl Play, Red Light)", args.quick)
    solves = exact_growth(run, cap)
    report += run_goals(run, cap, solves[run.pig])
    report += run_growth(solves)
    status = finish_report(report, start, args.out)
    if any(ERROR in line for line in report):
        print(f"ERROR: a solve failed (see {ERROR} in the report)", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
