#!/usr/bin/env python
"""Benchmark the gamebook solver (issue 7) on generated Lone Wolf style adventures.

Usage::

    python benchmarks/bench_gamebook.py [--quick] [--out FILE] [--cap SECONDS]

1. :func:`adventure` generates an acyclic book of ``sections`` sections (fights on the
   example combat results table, random branches, gold, items, conditions); its reachable
   state space grows with ``sections``, from about 10^3 to 10^6 states. exactprob's
   :func:`exactprob.games.gamebook.solve_choices` solves it; the report gives states, seconds, states per
   second, the peak memory of the process and the digits of the win probability's
   denominator.
2. The same books are solved by the source's algorithm, written here from the spec: a
   memoised recursion over plain lists of ``(state, Fraction)`` pairs, a fight enumerated
   round by round, once regrouping equal outcomes after every step (summing into a dict)
   and once not (lists concatenated, duplicates kept). Every variant's win probability is
   compared with exactprob's with ``==``.
3. Where exactprob's time goes: cProfile of one exactprob solve (the 10^5-state book; the
   larger quick book when quick).

Every solve runs in a fresh process (``multiprocessing`` "spawn"), so that the peak memory
(``VmHWM``, see ``bench_engine.peak_kib``) is that solve's own; a list solve past its time cap (``--cap``) stops and is
reported as "> cap" (and not run on the larger books). The garbage collector is off during
each solve, as in :mod:`timeit`. ``--quick`` uses small books (a few seconds in all) for a
smoke test; the full run takes about seven minutes on two cores, most of it the peers (the
exactprob solve of the largest book, 1.2 million states, takes about 80 s and 0.65 GB).
"""

from __future__ import annotations

import cProfile
import gc
import multiprocessing
import pstats
import random
import resource
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias

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

from exactprob import Dist, uniform
from exactprob.games.gamebook import solve_choices
from exactprob.games.gamebook.combat import LOST, CombatResultsTable, example_crt, fight

# ---------------------------------------------------------------------------------------
# The adventure: a book as data
# ---------------------------------------------------------------------------------------
#: A hero: (endurance, gold, items as a bit mask); a state: (section, endurance, gold, items).
Hero: TypeAlias = tuple[int, int, int]
State: TypeAlias = tuple[Any, ...]

COMBAT_SKILL = 15
MAX_ENDURANCE = 25
GOLD_CAP = 50  # a Lone Wolf belt pouch
START: State = (0, 20, 10, 0)
DEAD: State = ("dead",)
WON: State = ("won",)

SWORD, SHIELD, KEY, POTION, ROPE, LAMP = 1, 2, 4, 8, 16, 32
ITEM_NAMES = {
    SWORD: "sword", SHIELD: "shield", KEY: "key", POTION: "potion", ROPE: "rope", LAMP: "lamp"
}  # fmt: skip
#: Combat skill bonus of each item (a Lone Wolf style modifier to the combat ratio).
BONUS = {SWORD: 2, SHIELD: 1}


@dataclass(frozen=True)
class Step:
    """One effect of a choice on the hero, in order. ``kind`` is one of

    * ``"damage"`` (lose ``amount`` endurance; at 0 the hero dies), ``"heal"`` (up to
      :data:`MAX_ENDURANCE`), ``"pay"`` (``amount`` gold), ``"take"`` / ``"use"`` (gain or
      lose the item ``amount``): certain;
    * ``"trap"``: a random number 0-9 below ``amount`` costs ``extra`` endurance;
    * ``"loot"``: gain (random number 0-9) // 2 gold, up to :data:`GOLD_CAP`;
    * ``"fight"``: an enemy of combat skill ``amount`` and endurance ``extra``, to the end.
    """

    kind: str
    amount: int
    extra: int = 0

    @property
    def random(self) -> bool:
        return self.kind in ("trap", "loot", "fight")


@dataclass(frozen=True)
class Choice:
    """A choice: allowed with ``items`` all held and at least ``gold`` gold; its ``steps``
    run in order, then the hero goes to ``target`` or, when ``branch`` is ``(k, other)``,
    a random number 0-9 below ``k`` sends him to ``target`` and any other to ``other``."""

    description: str
    steps: tuple[Step, ...]
    target: int
    branch: tuple[int, int] | None = None
    items: int = 0
    gold: int = 0


def adventure(sections: int, seed: int = 3) -> tuple[tuple[Choice, ...], ...]:
    """The choices of each section ``0 .. sections - 1`` of a generated book; section
    ``sections`` wins. Every choice moves forward, so no state repeats.

    >>> book = adventure(3)
    >>> len(book), all(c.target > i for i, s in enumerate(book) for c in s)
    (3, True)
    """
    rng = random.Random(seed)
    kinds = [_fight, _chance, _treasure, _door, _rest]
    weights = [3, 3, 1, 1, 2]
    return tuple(rng.choices(kinds, weights)[0](rng, _ahead(i, sections)) for i in range(sections))


#: ``ahead(k)``: the section ``k`` sections on (at most the winning one).
Ahead: TypeAlias = Callable[[int], int]


def _ahead(section: int, sections: int) -> Ahead:
    return lambda k: min(section + k, sections)


def _fight(rng: random.Random, ahead: Ahead) -> tuple[Choice, ...]:
    enemy = Step("fight", rng.randint(12, 21), rng.randint(6, 16))
    options = [Choice(f"fight (skill {enemy.amount}, endurance {enemy.extra})", (enemy,), ahead(1))]
    if rng.random() < 0.3:
        options.append(Choice("evade", (Step("damage", 3),), ahead(2)))
    if rng.random() < 0.3:
        options.append(Choice("bribe (5 gold)", (Step("pay", 5),), ahead(1), gold=5))
    return tuple(options)


def _chance(rng: random.Random, ahead: Ahead) -> tuple[Choice, ...]:
    trap = Step("trap", rng.randint(2, 6), rng.randint(1, 4))
    return (
        Choice("the narrow path", (trap,), ahead(1), branch=(rng.randint(3, 8), ahead(2))),
        Choice("search the room", (Step("trap", 2, 2), Step("loot", 0)), ahead(1)),
        Choice("light the lamp", (Step("loot", 0),), ahead(2), items=LAMP),
    )


def _treasure(rng: random.Random, ahead: Ahead) -> tuple[Choice, ...]:
    item = rng.choice([SWORD, SHIELD, KEY, ROPE, LAMP])
    return (
        Choice(f"take the {ITEM_NAMES[item]}", (Step("take", item),), ahead(1)),
        Choice("buy a potion (3 gold)", (Step("pay", 3), Step("take", POTION)), ahead(1), gold=3),
    )


def _door(rng: random.Random, ahead: Ahead) -> tuple[Choice, ...]:
    return (
        Choice("unlock the door", (Step("use", KEY),), ahead(3), items=KEY),
        Choice("climb with the rope", (), ahead(2), items=ROPE),
        Choice("climb the wall", (Step("trap", 4, 3),), ahead(2)),
        Choice("go round", (Step("damage", 1),), ahead(1)),
    )


def _rest(rng: random.Random, ahead: Ahead) -> tuple[Choice, ...]:
    return (
        Choice("eat (1 gold)", (Step("pay", 1), Step("heal", 4)), ahead(1), gold=1),
        Choice("drink the potion", (Step("use", POTION), Step("heal", 8)), ahead(1), items=POTION),
        Choice("go on hungry", (Step("damage", 3),), ahead(1)),
    )


def score(state: State) -> int | None:
    """1 once the hero reaches the last section, 0 when dead, unknown otherwise."""
    return 1 if state == WON else 0 if state == DEAD else None


# ---------------------------------------------------------------------------------------
# The rules, once, over any "probably" backend (exactprob's Dist or plain lists)
# ---------------------------------------------------------------------------------------
class Rules:
    """The choices of a state of ``book``, with outcome distributions built by a backend
    that provides ``certain(x)``, ``map(m, f)``, ``then(m, f)`` (bind), ``random_number(f)``
    (``f(n)``, ``n`` uniform on 0-9) and ``fight(hero, enemy, ratio)`` (the hero's endurance
    left, 0 when he lost)."""

    def __init__(self, book: Sequence[tuple[Choice, ...]], backend: Any) -> None:
        self.book = book
        self.backend = backend

    def choices(self, state: State) -> list[tuple[str, Any]]:
        section, endurance, gold, items = state
        hero = (endurance, gold, items)
        return [
            (c.description, self.outcomes(hero, c.steps, c))
            for c in self.book[section]
            if gold >= c.gold and items & c.items == c.items
        ]

    def outcomes(self, hero: Hero | State, steps: tuple[Step, ...], choice: Choice) -> Any:
        """The distribution of next states: certain steps applied in place, a random one
        bound to the rest of the steps."""
        backend = self.backend
        for k, step in enumerate(steps):
            if hero == DEAD:
                return backend.certain(DEAD)
            if step.random:
                rest = steps[k + 1 :]
                spread = self.spread(hero, step)
                if rest:
                    return backend.then(spread, partial(self.outcomes, steps=rest, choice=choice))
                return self.arrive(spread, choice)
            hero = apply(hero, step)
        return self.arrive(backend.certain(hero), choice)

    def arrive(self, heroes: Any, choice: Choice) -> Any:
        """Heroes (or DEAD) moved to the choice's target, or to a random branch."""
        backend = self.backend
        last = len(self.book)
        if choice.branch is None:
            return backend.map(heroes, lambda h: at(choice.target, h, last))
        below, other = choice.branch

        def branch(h: Any) -> Any:
            if h == DEAD:
                return backend.certain(DEAD)
            return backend.random_number(
                lambda n: at(choice.target if n < below else other, h, last)
            )

        return backend.then(heroes, branch)

    def spread(self, hero: Any, step: Step) -> Any:
        """The distribution of the hero (or DEAD) after a random step."""
        backend = self.backend
        endurance, gold, items = hero
        if step.kind == "trap":
            hurt = apply(hero, Step("damage", step.extra))
            return backend.random_number(lambda n: hurt if n < step.amount else hero)
        if step.kind == "loot":
            return backend.random_number(lambda n: (endurance, min(gold + n // 2, GOLD_CAP), items))
        bonus = sum(b for item, b in BONUS.items() if items & item)
        ratio = COMBAT_SKILL + bonus - step.amount
        return backend.map(
            backend.fight(endurance, step.extra, ratio),
            lambda left: (left, gold, items) if left > 0 else DEAD,
        )


def apply(hero: Hero, step: Step) -> Hero | State:
    """A certain step."""
    endurance, gold, items = hero
    if step.kind == "damage":
        return (endurance - step.amount, gold, items) if endurance > step.amount else DEAD
    if step.kind == "heal":
        return (min(endurance + step.amount, MAX_ENDURANCE), gold, items)
    if step.kind == "pay":
        return (endurance, gold - step.amount, items)
    if step.kind == "take":
        return (endurance, gold, items | step.amount)
    return (endurance, gold, items & ~step.amount)  # "use"


def at(section: int, hero: Any, last: int) -> State:
    """The state of ``hero`` at ``section`` (WON at the last section, DEAD stays DEAD)."""
    if hero == DEAD:
        return DEAD
    return WON if section == last else (section, *hero)


# ---------------------------------------------------------------------------------------
# Backends
# ---------------------------------------------------------------------------------------
class DistBackend:
    """exactprob: ``Dist`` (always regrouped) and :func:`exactprob.games.gamebook.combat.fight`,
    each fight's distribution computed once per (hero, enemy, ratio)."""

    def __init__(self, crt: CombatResultsTable) -> None:
        self.crt = crt
        self.number = uniform(range(10))
        self.fights: dict[tuple[int, int, int], Dist[int]] = {}

    def certain(self, x: Any) -> Dist[Any]:
        return Dist({x: 1})

    def map(self, m: Dist[Any], f: Callable[[Any], Any]) -> Dist[Any]:
        return m.map(f)

    def then(self, m: Dist[Any], f: Callable[[Any], Dist[Any]]) -> Dist[Any]:
        return m.bind(f)

    def random_number(self, f: Callable[[int], Any]) -> Dist[Any]:
        return self.number.map(f)

    def fight(self, hero: int, enemy: int, ratio: int) -> Dist[int]:
        key = (hero, enemy, ratio)
        found = self.fights.get(key)
        if found is None:
            found = self.fights[key] = fight(self.crt, hero, enemy, ratio).map(
                lambda outcome: 0 if outcome == LOST else outcome[1]
            )
        return found


Pairs: TypeAlias = list[tuple[Any, Fraction]]
TENTH = Fraction(1, 10)
ONE = Fraction(1)


class ListBackend:
    """The source's "probably" type: a plain list of ``(outcome, Fraction)`` pairs, equal
    outcomes summed into a dict after every step when ``regroup``, else kept (duplicates
    and all). A fight is enumerated round by round (each round a step), its list computed
    once per (hero, enemy, ratio)."""

    def __init__(self, crt: CombatResultsTable, regroup: bool) -> None:
        self.crt = crt
        self.regroup = regroup
        self.fights: dict[tuple[int, int, int], Pairs] = {}

    def step(self, pairs: Pairs) -> Pairs:
        if not self.regroup:
            return pairs
        summed: dict[Any, Fraction] = {}
        for x, p in pairs:
            summed[x] = summed[x] + p if x in summed else p
        return list(summed.items())

    def certain(self, x: Any) -> Pairs:
        return [(x, ONE)]

    def map(self, m: Pairs, f: Callable[[Any], Any]) -> Pairs:
        return self.step([(f(x), p) for x, p in m])

    def then(self, m: Pairs, f: Callable[[Any], Pairs]) -> Pairs:
        return self.step([(y, p * q) for x, p in m for y, q in f(x)])

    def random_number(self, f: Callable[[int], Any]) -> Pairs:
        return self.step([(f(n), TENTH) for n in range(10)])

    def fight(self, hero: int, enemy: int, ratio: int) -> Pairs:
        key = (hero, enemy, ratio)
        if key not in self.fights:
            self.fights[key] = self.step(self.rounds(hero, enemy, ratio))
        return self.fights[key]

    def rounds(self, hero: int, enemy: int, ratio: int) -> Pairs:
        """Round after round until every fight is over; a round's cells are the 10 random
        numbers' ``(enemy loss, hero loss)``, both sides checked after it (both at 0: the
        hero lost). The endurance left is the outcome, 0 for a lost fight."""
        cells = self.crt.cells(ratio)
        if (0, 0) in cells:  # a round that changes nothing would never end the list
            raise ValueError(f"ratio {ratio}: a cell where nobody loses anything")
        fighting: Pairs = [((hero, enemy), ONE)]
        over: Pairs = []
        while fighting:
            going_on: Pairs = []
            for (h, e), p in fighting:
                q = p * TENTH
                for enemy_loss, hero_loss in cells:
                    h2 = 0 if hero_loss == "K" else max(0, h - hero_loss)
                    e2 = 0 if enemy_loss == "K" else max(0, e - enemy_loss)
                    if h2 == 0 or e2 == 0:
                        over.append((h2, q))
                    else:
                        going_on.append(((h2, e2), q))
            fighting = self.step(going_on)
        return over


# ---------------------------------------------------------------------------------------
# The solvers
# ---------------------------------------------------------------------------------------
@dataclass
class Result:
    """One solve: reachable states, seconds, peak memory (KiB), the exact win probability,
    and the (state, probability) pairs listed over all choices of all states (in all, and
    the longest list)."""

    states: int
    seconds: float
    peak_kib: int
    win: Fraction
    pairs: int
    longest: int


def solve_exactprob(sections: int) -> Result:
    """:func:`exactprob.games.gamebook.solve_choices` on the generated book. The exploration scores every
    reachable state exactly once, which counts the states."""
    rules = Rules(adventure(sections), DistBackend(example_crt()))
    states = pairs = longest = 0

    def counted_score(state: State) -> int | None:
        nonlocal states
        states += 1
        return score(state)

    def counted_choices(state: State) -> list[tuple[str, Any]]:
        nonlocal pairs, longest
        listed = rules.choices(state)
        for _, dist in listed:
            pairs += len(dist)
            longest = max(longest, len(dist))
        return listed

    start = time.perf_counter()
    tree = solve_choices(counted_choices, counted_score, START, max_states=10 * 2**20)
    seconds = time.perf_counter() - start
    return Result(states, seconds, peak_kib(), tree.score, pairs, longest)


class OverCap(Exception):
    """The solve went past its deadline."""


def solve_lists(sections: int, regroup: bool, deadline: float = float("inf")) -> Result:
    r"""The source's solver: a memoised recursion over lists of (state, Fraction) pairs,
    :math:`V(s) = \max_c \sum_{(t, p) \in c} p\,V(t)` for an unknown state.

    >>> solve_lists(4, True).win == solve_lists(4, False).win
    True
    """
    rules = Rules(adventure(sections), ListBackend(example_crt(), regroup))
    memo: dict[State, Fraction] = {}
    pairs = longest = 0

    def value(state: State) -> Fraction:
        nonlocal pairs, longest
        found = memo.get(state)
        if found is not None:
            return found
        if time.perf_counter() > deadline:
            raise OverCap
        known = score(state)
        if known is not None:
            found = Fraction(known)
        else:
            for _, outcomes in rules.choices(state):
                pairs += len(outcomes)
                longest = max(longest, len(outcomes))
                total = sum((p * value(t) for t, p in outcomes), Fraction(0))
                found = total if found is None else max(found, total)
        assert found is not None, f"no choice in {state!r}"
        memo[state] = found
        return found

    start = time.perf_counter()
    win = value(START)
    return Result(len(memo), time.perf_counter() - start, peak_kib(), win, pairs, longest)


# ---------------------------------------------------------------------------------------
# One solve per process, with a time cap
# ---------------------------------------------------------------------------------------
EXACTPROB, REGROUPED, NOT_REGROUPED = "exactprob", "lists, regrouped", "lists, not regrouped"
SOLVERS = (EXACTPROB, REGROUPED, NOT_REGROUPED)
#: Address space of a worker: a runaway solve fails with MemoryError, not the machine.
MEMORY_LIMIT = 16 * 2**30
OVER_CAP = "> cap"


def _worker(solver: str, sections: int, cap: float, sender: Any) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.setrecursionlimit(100_000)  # the lists' recursion goes one section per level
    gc.disable()
    outcome: Result | str
    try:
        if solver == EXACTPROB:
            outcome = solve_exactprob(sections)
        else:
            outcome = solve_lists(sections, solver == REGROUPED, time.perf_counter() + cap)
    except OverCap:
        outcome = OVER_CAP
    except MemoryError:
        outcome = f"> {MEMORY_LIMIT >> 30} GB"
    sender.send(outcome)


def run_solver(solver: str, sections: int, cap: float) -> Result | str:
    """``solver`` on the book of ``sections`` sections in a fresh process, or why not: the
    lists stop themselves after ``cap`` seconds, exactprob is stopped after ``10 cap``."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(solver, sections, cap, sender))
    process.start()
    sender.close()
    try:
        if receiver.poll(10 * cap):
            return receiver.recv()
        return OVER_CAP
    except EOFError:  # the worker died without an answer
        return f"failed (exit status {process.exitcode})"
    finally:
        if process.is_alive():
            process.terminate()
        process.join()


# ---------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------
def book_sizes(quick: bool) -> list[int]:
    """Section counts: about 10^3, 10^4, 10^5 and 10^6 reachable states (the first two
    much smaller when quick)."""
    return [4, 7] if quick else [7, 13, 26, 51]


def run_books(quick: bool, cap: float) -> list[str]:
    """Every solver on every book, smallest first; a list solver past its cap is not run
    on the larger books."""
    main_rows, peer_rows = [], []
    gave_up: set[str] = set()
    for sections in book_sizes(quick):
        results: dict[str, Result | str] = {}
        for solver in SOLVERS:
            if solver in gave_up:
                results[solver] = f"{OVER_CAP} (not run)"
                continue
            log(f"{sections} sections: {solver}")
            results[solver] = run_solver(solver, sections, cap)
            if isinstance(results[solver], str):
                gave_up.add(solver)
        main_rows.append(exactprob_row(sections, results[EXACTPROB]))
        peer_rows += [peer_row(sections, solver, results) for solver in SOLVERS]
    out = ["## 1. exactprob.games.gamebook.solve on generated books", ""]
    out += table(
        ["sections", "states", "time", "states/s", "peak memory", "pairs", "win", "digits"],
        main_rows,
    )
    out += [
        "",
        (
            "states: reachable states; peak memory: VmHWM of the process that solved the "
            "book; pairs: (state, probability) pairs over all choices of all states (Dists, so "
            "regrouped); win: the exact win probability, rounded here to 6 places; digits: "
            "its denominator's."
        ),
        "",
        "## 2. The source's algorithm, with and without regrouping",
        "",
    ]
    out += table(
        ["sections", "solver", "states", "time", "states/s", "peak memory", "pairs (longest)",
         "win"],
        peer_rows,
    )  # fmt: skip
    out += [
        "",
        (
            "lists: a memoised recursion over lists of (state, Fraction) pairs, fights "
            "enumerated round by round; regrouped sums equal outcomes into a dict after every "
            "step (every round of a fight included), not regrouped concatenates the lists and "
            "keeps duplicates. exactprob's Dist always regroups. Each solve in its own process; "
            f"a list solve stops after {cap:.0f} s. win: equal when the exact win probability "
            "and the number of states are those of exactprob."
        ),
        "",
    ]
    return out


def exactprob_row(sections: int, result: Result | str) -> list[str]:
    if isinstance(result, str):
        return [str(sections), result] + [""] * 6
    return [
        str(sections),
        f"{result.states:,}",
        fmt_time(result.seconds),
        f"{result.states / result.seconds:,.0f}",
        f"{result.peak_kib / 1024:,.0f} MB",
        f"{result.pairs:,}",
        f"{float(result.win):.6f}",
        str(len(str(result.win.denominator))),
    ]


def peer_row(sections: int, solver: str, results: dict[str, Result | str]) -> list[str]:
    """One solver's row; its win column compares its exact win probability (and its number
    of states, so that both solved the same book) with exactprob's."""
    result, reference = results[solver], results[EXACTPROB]
    if isinstance(result, str):
        return [str(sections), solver, result] + [""] * 5
    if isinstance(reference, str):
        verdict = "n/a"
    elif solver == EXACTPROB:
        verdict = "reference"
    else:
        same = result.win == reference.win and result.states == reference.states
        verdict = "equal" if same else "DIFFERENT"
    return [
        str(sections),
        solver,
        f"{result.states:,}",
        fmt_time(result.seconds),
        f"{result.states / result.seconds:,.0f}",
        f"{result.peak_kib / 1024:,.0f} MB",
        f"{result.pairs:,} ({result.longest:,})",
        verdict,
    ]


#: The functions whose cumulative time the profile reports: (file, function, label).
PROFILED = [
    (
        "exactprob/engine/choice_tree.py",
        "solve_choices",
        "exactprob.engine.choice_tree.solve_choices, in all",
    ),
    (
        "exactprob/engine/exact/depth_first.py",
        "run",
        "depth-first search (book's choices included)",
    ),
    ("bench_gamebook.py", "counted_choices", "the book's choices (building Dists)"),
    ("exactprob/games/gamebook/combat.py", "fight", "combat.fight (once per hero, enemy, ratio)"),
    ("exactprob/engine/dist.py", "map", "Dist.map (in the book's choices)"),
    ("exactprob/engine/dist.py", "bind", "Dist.bind (in the book's choices)"),
    ("exactprob/engine/dist.py", "__new__", "Dist(...), checked (in the book's choices)"),
    ("exactprob/engine/exact/depth_first.py", "_value_alone", "a state's value, on the spot"),
    ("exactprob/engine/exact/depth_first.py", "_value_loop", "components with a loop (engine)"),
    ("exactprob/engine/choice_tree.py", "_tree", "the solution tree"),
]


def run_profile(sections: int) -> list[str]:
    """The cumulative time (cProfile) of the functions in :data:`PROFILED` in one
    exactprob solve."""
    log(f"profile: {sections} sections, exactprob")
    profiler = cProfile.Profile()
    result = profiler.runcall(solve_exactprob, sections)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    cumulative = {(filename, name): cum for (filename, _, name), (_, _, _, cum, _) in stats.items()}
    rows = []
    for file, name, label in PROFILED:
        seconds = sum(t for (f, n), t in cumulative.items() if n == name and f.endswith(file))
        rows.append([label, fmt_time(seconds) if seconds else "n/a"])
    out = [f"## 3. Where exactprob's time goes ({sections} sections, {result.states:,} states)"]
    out += [""] + table(["function", "cumulative time under cProfile"], rows)
    out += ["", "cProfile slows every Python call down: compare the rows, not the times.", ""]
    return out


def main(argv: Iterable[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "small books")
    args, cap = parse_with_cap(parser, argv, "list solve", (5.0, 180.0))

    start = time.perf_counter()
    report = report_header("exactprob gamebook benchmark", args.quick)
    report += run_books(args.quick, cap)
    report += run_profile(book_sizes(args.quick)[-1 if args.quick else -2])
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
