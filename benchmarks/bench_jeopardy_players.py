#!/usr/bin/env python
r"""Benchmark exact match-ups of jeopardy players (issue 5) against Monte Carlo simulation.

Usage::

    python benchmarks/bench_jeopardy_players.py [--quick] [--out FILE] [--cap SECONDS]

A simple player meets the optimal one, each moving first in turn: hold at 20 in Pig to 100,
risk-balancing (draw iff :math:`c_\text{rem} > w_\text{rem} k`) in the full Fowl Play (42
chickens, 6 wolves, to 50).

1. The optimal players: Pig solved exactly (:func:`exactprob.games.jeopardy.solving.solver.solve_race`),
   Fowl Play enclosed (:func:`exactprob.games.jeopardy.solving.certified.enclose_race`), each made a
   policy table (:func:`exactprob.games.jeopardy.policies.optimal_policy_table`), with the
   number of choices the enclosures leave undecided. Timed on their own.
2. The match-ups by exactprob: exact for Pig (:func:`exactprob.games.jeopardy.players.matchup.play_off`),
   certified for Fowl Play (:func:`exactprob.games.jeopardy.solving.certified.enclose_matchup`). Each
   is checked against the optimal value :math:`v^*`: the optimal player guarantees at least
   :math:`v^*` moving first and holds the first player to at most :math:`v^*` moving second.
3. The peer, the papers' method (Neller et al. 2013 measured their network's win rate over
   :math:`10^6` simulated games): :math:`10^6` games of each match-up by the numpy simulator
   written from the rules (:func:`exactprob.games.jeopardy.simulator.simulate_race`), whose
   estimate must lie within 5 standard errors of exactprob's value
   (:func:`exactprob.engine.simulation.agrees_with`).

Every measurement runs in a fresh process (``bench_jeopardy.measure``), so its peak memory is
its own; a check that fails prints DIFFERENT and the script exits 1. ``--quick`` plays Pig to
30 and Fowl Play to 10 with :math:`10^5` games, for a smoke test (under 30 seconds).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench_engine and bench_jeopardy: the house helpers
try:
    import exactprob  # noqa: F401
except ImportError:  # pragma: no cover - run from a checkout without an install
    sys.path.insert(0, str(HERE.parent))

from bench_engine import (
    benchmark_parser,
    finish_report,
    fmt_time,
    parse_with_cap,
    report_header,
    table,
)
from bench_jeopardy import (
    ERROR,
    Measured,
    fmt_enclosure,
    fmt_memory,
    game_name,
    measure,
    ratio,
)

from exactprob import Enclosure
from exactprob.engine.simulation import agrees_with
from exactprob.games.jeopardy.players.matchup import play_off
from exactprob.games.jeopardy.policies import (
    Holds,
    PolicyTable,
    choice_states,
    hold_at,
    optimal_policy_table,
    policy_table,
    risk_balancing,
)
from exactprob.games.jeopardy.rules import FOWL_PLAY, FowlPlay, Pig
from exactprob.games.jeopardy.simulator import SimulatedRaces, simulate_race
from exactprob.games.jeopardy.solving import certified, solver
from exactprob.games.jeopardy.solving.certified import enclose_matchup
from exactprob.util.numbers import decimal_string, digit_count

Game = Pig | FowlPlay
Value = Fraction | Enclosure  # an exact chance to win, or a certified enclosure of it
Player = TypeVar("Player", PolicyTable, Holds)

HOLD_AT = 20
SEED = 2013  # the simulations use SEED, SEED + 1, ...
Z = 5  # standard errors allowed between the simulator and exactprob


# ---------------------------------------------------------------------------------------
# The players and the match-ups
# ---------------------------------------------------------------------------------------
def simple_player(game: Game) -> tuple[str, Holds]:
    """The simple player of ``game`` and its name: hold at 20 in Pig, risk-balancing in
    Fowl Play."""
    if isinstance(game, Pig):
        return f"hold at {HOLD_AT}", hold_at(HOLD_AT)
    return "risk-balancing", risk_balancing(game)


def matchup_name(game: Game, optimal_first: bool) -> str:
    """``game: first vs second``, the simple player by its name."""
    simple = simple_player(game)[0]
    first, second = ("optimal", simple) if optimal_first else (simple, "optimal")
    return f"{game_name(game)}: {first} vs {second}"


@dataclass(eq=False)
class Pairing:
    """The simple player against the optimal one (``optimal``, its table) in ``game``,
    ``optimal_first`` saying who moves first; the simulator plays ``games`` games seeded
    with ``seed``."""

    game: Game
    optimal: PolicyTable
    optimal_first: bool
    games: int
    seed: int

    def seats(self, simple: Player) -> tuple[Player | PolicyTable, Player | PolicyTable]:
        """The first and the second player, given the simple one."""
        return (self.optimal, simple) if self.optimal_first else (simple, self.optimal)

    def __str__(self) -> str:
        return matchup_name(self.game, self.optimal_first)


def task_optimal(game: Game) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    """The optimal player: the exact solve (Pig) or the certified enclosure (Fowl Play),
    then its policy table; the solve's own time is recorded too."""

    def run() -> tuple[Any, PolicyTable, float]:
        start = time.perf_counter()
        solution = (
            solver.solve_race(game) if isinstance(game, Pig) else certified.enclose_race(game)
        )
        solved = time.perf_counter() - start
        return solution, optimal_policy_table(solution), solved

    def checks(answer: tuple[Any, PolicyTable, float]) -> dict:
        solution, optimal, solved = answer
        return {"win": solution.first_player_win(), "table": optimal, "solve_seconds": solved}

    return run, checks


def task_matchup(pairing: Pairing) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    """The match-up by exactprob, exact (Pig) or certified (Fowl Play); the simple player's
    table is built before the clock starts."""
    game = pairing.game
    first, second = pairing.seats(policy_table(game, simple_player(game)[1]))

    def run() -> Any:
        if isinstance(game, Pig):
            return play_off(game, first, second)
        return enclose_matchup(game, first, second)

    return run, lambda done: {"win": done.first_player_win()}


def task_simulation(pairing: Pairing) -> tuple[Callable[[], Any], Callable[[Any], dict]]:
    """The match-up played by the simulator; the simple player is its rule itself (not its
    table), the optimal player its table."""
    game = pairing.game
    first, second = pairing.seats(simple_player(game)[1])
    if isinstance(game, Pig):
        rules: dict[str, Any] = {"kind": "pig", "sides": game.sides}
    else:
        rules = {"kind": "fowl-play", "chickens": game.chickens, "wolves": game.wolves}

    def run() -> SimulatedRaces:
        return simulate_race(
            goal=game.goal,
            holds0=first,
            holds1=second,
            games=pairing.games,
            seed=pairing.seed,
            **rules,
        )

    return run, lambda races: {"wins": races.wins}


# ---------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------
def bounds(value: Value) -> tuple[Fraction, Fraction]:
    """The exact interval ``[low, high]`` known to hold the value (a point if exact).

    >>> bounds(Fraction(1, 3)), bounds(Enclosure(0.25, 0.5))
    ((Fraction(1, 3), Fraction(1, 3)), (Fraction(1, 4), Fraction(1, 2)))
    """
    if isinstance(value, Enclosure):
        return Fraction(value.low), Fraction(value.high)
    return value, value


def guarantee(win: Value, optimal: Value, optimal_first: bool) -> str:
    r"""Whether a match-up's first-player win :math:`p` respects the optimal value
    :math:`v^*`: :math:`p \ge v^*` when the optimal player moves first, :math:`p \le v^*`
    when it moves second (the optimal player's guarantee against anyone). Compared exactly;
    "undecided" when overlapping enclosures can say neither.

    >>> guarantee(Fraction(1, 3), Fraction(1, 2), optimal_first=False)
    '<= v*: yes'
    >>> guarantee(Enclosure(0.5, 0.75), Fraction(5, 8), optimal_first=True)
    '>= v*: undecided'
    >>> guarantee(Fraction(1, 3), Fraction(1, 2), optimal_first=True)
    '>= v*: DIFFERENT'
    """
    (low, high), (best_low, best_high) = bounds(win), bounds(optimal)
    if optimal_first:
        sign, proved, refuted = ">=", low >= best_high, high < best_low
    else:
        sign, proved, refuted = "<=", high <= best_low, low > best_high
    return f"{sign} v*: " + ("yes" if proved else "DIFFERENT" if refuted else "undecided")


def agreement(value: Value, wins: int, games: int) -> str:
    r"""Whether ``wins`` in ``games`` agree with ``value`` within :data:`Z` standard errors
    (:func:`exactprob.engine.simulation.agrees_with` at the point of the enclosure nearest the
    estimate :math:`\hat p`), and the distance :math:`|\hat p - p| / \hat\sigma` with
    :math:`\hat\sigma = \sqrt{\hat p (1 - \hat p) / n}`.

    >>> agreement(Fraction(1, 2), 5_100, 10_000)  # sigma = 0.005, 0.01 off
    'yes (2.0 SE)'
    >>> agreement(Enclosure(0.25, 0.5), 3_000, 10_000)  # inside the enclosure
    'yes (0.0 SE)'
    >>> agreement(Fraction(1, 2), 5_300, 10_000)
    'DIFFERENT (6.0 SE)'
    """
    low, high = bounds(value)
    nearest = min(max(Fraction(wins, games), low), high)
    verdict = "yes" if agrees_with(nearest, wins, games, z=Z) else "DIFFERENT"
    error = standard_error(wins, games)
    if error == 0:
        return verdict
    return f"{verdict} ({abs(wins / games - float(nearest)) / error:.1f} SE)"


def standard_error(wins: int, games: int) -> float:
    r""":math:`\hat\sigma = \sqrt{\hat p (1 - \hat p) / n}`, with :math:`\hat p` = wins / games.

    >>> standard_error(50, 100)
    0.05
    """
    estimate = wins / games
    return math.sqrt(estimate * (1 - estimate) / games)


# ---------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------
@dataclass
class Sizes:
    """The games of one run and the number of simulated games per match-up."""

    games: list[Game]
    simulated: int


def sizes(quick: bool) -> Sizes:
    if quick:
        return Sizes([Pig(goal=30), FowlPlay(goal=10)], 10**5)
    return Sizes([Pig(goal=100), FOWL_PLAY], 10**6)


def fmt_value(value: Value) -> tuple[str, str]:
    """A value and its size: an exact one to 15 places with the digits of its denominator,
    an enclosure as the decimals its width guarantees, the interval and its width."""
    if isinstance(value, Enclosure):
        return f"{value.decimal()} {fmt_enclosure(value)}", f"width {float(value.width()):.1e}"
    return decimal_string(value, 15), f"{digit_count(value.denominator):,} digits"


def method(game: Game) -> str:
    return "exact" if isinstance(game, Pig) else "certified"


@dataclass
class Row:
    """One match-up: the optimal player's measurement, and the match-up's by exactprob and
    by the simulator."""

    name: str
    method: str
    optimal_first: bool
    optimal: Measured
    exact: Measured
    simulated: Measured


def optimal_rows(optimal: dict[Game, Measured]) -> list[str]:
    """Section 1: the optimal players."""
    rows = []
    for game, measured in optimal.items():
        head = [game_name(game), method(game), f"{game.nonterminal_states():,}"]
        if measured.failed:
            rows.append(head + [measured.failed] + [""] * 5)
            continue
        found = measured.found
        undecided = found["table"].undecided
        rows.append(
            head
            + [
                fmt_time(measured.seconds),
                fmt_time(found["solve_seconds"]),
                fmt_memory(measured.peak_kib),
                *fmt_value(found["win"]),
                "none (exact)" if undecided is None else
                f"{int(undecided.sum()):,} of {int(choice_states(game).sum()):,}",
            ]
        )  # fmt: skip
    out = ["## 1. The optimal players", ""]
    out += table(
        ["game", "exactprob", "states", "time", "of which solve", "peak memory",
         "first-player win (optimal vs optimal)", "size", "undecided choices"],
        rows,
    )  # fmt: skip
    return out + [
        "",
        (
            "exact: solver.solve_race, certified: certified.enclose_race, then optimal_policy_table "
            "(time = both; size = digits of the win's denominator or the enclosure's width). "
            "Undecided choices: states whose draw and hold enclosures overlap, of all the "
            "states where the mover chooses (the table then follows the midpoints)."
        ),
        "",
    ]


def matchup_rows(rows: list[Row]) -> list[str]:
    """Section 2: the match-ups by exactprob, against the optimal value."""
    cells = []
    for row in rows:
        exact = row.exact
        if exact.failed:
            cells.append([row.name, row.method, exact.failed] + [""] * 4)
            continue
        win = exact.found["win"]
        cells.append(
            [
                row.name,
                row.method,
                fmt_time(exact.seconds),
                fmt_memory(exact.peak_kib),
                *fmt_value(win),
                against_optimal(win, row),
            ]
        )
    out = ["## 2. The match-ups by exactprob", ""]
    out += table(
        ["match-up (first vs second)", "exactprob", "time", "peak memory", "first-player win",
         "size", "against v* (optimal vs optimal)"],
        cells,
    )  # fmt: skip
    return out + [
        "",
        (
            "exact: matchup.play_off, certified: certified.enclose_matchup; the time excludes "
            "the optimal player (section 1) and the simple player's table. v*: the optimal "
            "player guarantees at least v* moving first and holds the first player to at most "
            "v* moving second, whoever the other is; compared exactly (undecided when "
            "enclosures overlap); a violation fails the run (the script says so and exits 1)."
        ),
        "",
    ]


def against_optimal(win: Value, row: Row) -> str:
    """The :func:`guarantee` check, made only when the optimal table is certainly optimal
    (an undecided choice may be slightly worse than the optimal one)."""
    undecided = row.optimal.found["table"].undecided
    if undecided is not None and undecided.any():
        return "n/a (undecided choices)"
    return guarantee(win, row.optimal.found["win"], row.optimal_first)


def simulator_rows(rows: list[Row], games: int) -> list[str]:
    """Section 3: the same match-ups played by the simulator."""
    cells = []
    for row in rows:
        simulated, exact = row.simulated, row.exact
        if simulated.failed or exact.failed:
            cells.append([row.name, simulated.failed or "n/a"] + [""] * 6)
            continue
        wins = simulated.found["wins"]
        cells.append(
            [
                row.name,
                fmt_time(simulated.seconds),
                fmt_memory(simulated.peak_kib),
                f"{wins / games:.5f}",
                f"{standard_error(wins, games):.1e}",
                agreement(exact.found["win"], wins, games),
                fmt_time(exact.seconds),
                ratio(exact, simulated),
            ]
        )
    out = [f"## 3. Against {games:,} simulated games (numpy), the papers' method", ""]
    out += table(
        ["match-up (first vs second)", "simulator time", "simulator peak", "estimate",
         "standard error", f"within {Z} SE of exactprob", "exactprob time",
         "exactprob/simulator"],
        cells,
    )  # fmt: skip
    return out + [
        "",
        (
            "simulate_race plays every game side by side in numpy from the rules (a real "
            "shuffled deck for Fowl Play), the simple player as its rule, the optimal one as "
            "its table; one seed per match-up. within 5 SE: exactprob.engine.simulation.agrees_with "
            "at exactprob's value (for an enclosure, its point nearest the estimate), with "
            "the distance in standard errors; beyond, the check fails (exit status 1)."
        ),
        "",
    ]


def measure_all(run: Sizes, cap: float) -> tuple[dict[Game, Measured], list[Row]]:
    """Every measurement: the optimal players, then each match-up by exactprob and by the
    simulator."""
    optimal = {game: measure(task_optimal, game, cap) for game in run.games}
    rows = []
    for game, player in optimal.items():
        for optimal_first in (False, True):
            name = matchup_name(game, optimal_first)
            if player.failed:
                skipped = Measured(failed="no optimal player")
                rows.append(Row(name, method(game), optimal_first, player, skipped, skipped))
                continue
            pairing = Pairing(
                game, player.found["table"], optimal_first, run.simulated, SEED + len(rows)
            )
            exact, simulated = (
                measure(task_matchup, pairing, cap),
                measure(task_simulation, pairing, cap),
            )
            rows.append(Row(name, method(game), optimal_first, player, exact, simulated))
    return optimal, rows


def main(argv: Iterable[str] | None = None) -> int:
    parser = benchmark_parser(__doc__, "small goals")
    args, cap = parse_with_cap(parser, argv, "measurement", (60.0, 1800.0))

    start = time.perf_counter()
    run = sizes(args.quick)
    title = "exactprob jeopardy players benchmark (exact match-ups against simulation)"
    report = report_header(title, args.quick)
    optimal, rows = measure_all(run, cap)
    report += optimal_rows(optimal)
    report += matchup_rows(rows)
    report += simulator_rows(rows, run.simulated)
    status = finish_report(report, start, args.out)
    if any(ERROR in line for line in report):
        print(f"ERROR: a measurement failed (see {ERROR} in the report)", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
