"""``exactprob pig``, ``exactprob fowl-play``, ``exactprob red-light``: who wins a jeopardy
race with perfect play, and what komi makes it fair.

Pig to 6 (first player wins 24/31; komi 4 and 5 tie as the fairest, since a single roll
of 2 to 6 then wins for the second player):

>>> from exactprob.cli import main
>>> main(["pig", "--goal", "6"])
Pig to 6 with a d6, komi 0, both players optimal
  first player wins  0.774193548387 = 24/31 (exact; denominator 2 digits)
  non-terminal states  126
  fairest komi  4, 5 (first player wins 0.744525547445)
0
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..enclosure import Enclosure
from ..errors import ModelError, UsageError
from ..games.jeopardy import FowlPlay, Pig
from ..games.jeopardy.certified import MAX_CERTIFIED_STATES, enclose, working_bytes
from ..games.jeopardy.fairness import DIGITS, Win, fairest_komi, komi_wins, win_fields
from ..games.jeopardy.players import (
    PolicyTable,
    agreement,
    hold_thresholds,
    optimal_policy_table,
)
from ..games.jeopardy.roster import NAMES, Player, check_player_name, player_named, round_robin
from ..games.jeopardy.rules import MAX_CARDS, MAX_GOAL, MAX_SIDES
from ..games.jeopardy.solver import solve
from ..limits import check_max_states
from ..numbers import decimal_string, digit_count, exact_fields, parse_whole
from ..resources import check_memory
from . import help_of
from ._options import add_json_flag, integer, plot_path
from ._output import emit, save_figure, show_progress

__all__ = [
    "EXACT_LIMIT",
    "MAX_CERTIFIED_STATES",
    "MAX_EXACT_STATES",
    "check_size",
    "game_of",
    "payload_of",
    "register",
    "text_of",
]

#: Fowl Play games with more non-terminal states are enclosed unless ``--exact``.
EXACT_LIMIT = 500_000
#: The most non-terminal states solved exactly without --max-states (Pig to 100 has
#: 505,000 and takes about 15 s; the time grows faster than the states, as the exact
#: numbers grow longer); certified solves take up to ``MAX_CERTIFIED_STATES``.
MAX_EXACT_STATES = 2_000_000
SHOWN_DIGITS = 60  # longer fractions are given in JSON only


def game_of(args: argparse.Namespace) -> Pig | FowlPlay:
    """The game named by the arguments, every check before any work."""
    goal = parse_whole("--goal", args.goal, 1, MAX_GOAL, UsageError)
    komi = parse_whole("--komi", args.komi, 0, None, UsageError)
    if komi >= goal:
        raise UsageError(f"--komi must be below --goal ({goal}), got {komi}")
    if args.command == "pig":
        return Pig(goal, parse_whole("--sides", args.sides, 2, MAX_SIDES, UsageError), komi)
    chickens = parse_whole("--chickens", args.chickens, 1, MAX_CARDS, UsageError)
    wolves = parse_whole("--wolves", args.wolves, 1, MAX_CARDS, UsageError)
    return FowlPlay(chickens, wolves, goal, komi)


def _is_exact(game: Pig | FowlPlay, args: argparse.Namespace) -> bool:
    """Pig always; Fowl Play up to EXACT_LIMIT states unless ``--exact`` or ``--certified``."""
    return (
        isinstance(game, Pig)
        or args.exact
        or (not args.certified and game.nonterminal_states() <= EXACT_LIMIT)
    )


def _solve(game: Pig | FowlPlay, exact: bool) -> Any:
    """The exact solution or the certified enclosures."""
    progress = show_progress()
    if exact or isinstance(game, Pig):
        return solve(game, progress=progress)
    return enclose(game, progress=progress)


def payload_of(game: Pig | FowlPlay, wins: list[Win], exact: bool) -> dict[str, Any]:
    """The JSON report: the game, the first player's chance (exact, or enclosed with its
    bounds and width), the state count, and the chance for every komi."""
    win = wins[game.komi]
    rules = (
        {"sides": game.sides}
        if isinstance(game, Pig)
        else {"chickens": game.chickens, "wolves": game.wolves}
    )
    payload = {
        "game": game.name,
        "goal": game.goal,
        **rules,
        "komi": game.komi,
        "exact": exact,
        **win_fields("first_player_win", win),
        "nonterminal_states": game.nonterminal_states(),
        "fairest_komi": list(fairest_komi(wins)),
        "komi_table": [
            {"komi": komi, **win_fields("first_player_win", w)} for komi, w in enumerate(wins)
        ],
    }
    if isinstance(win, Fraction):
        payload["denominator_digits"] = digit_count(win.denominator)
    return payload


def _decimal(win: Win) -> str:
    return win.decimal() if isinstance(win, Enclosure) else decimal_string(win, DIGITS)


def _win_text(win: Win) -> str:
    if isinstance(win, Enclosure):
        return f"{_decimal(win)} (certified: in [{float(win.low)!r}, {float(win.high)!r}], width {float(win.width()):.1e})"
    digits = digit_count(win.denominator)
    fraction = f" = {win}" if digits <= SHOWN_DIGITS else ""
    return f"{_decimal(win)}{fraction} (exact; denominator {digits:,} digits)"


def text_of(game: Pig | FowlPlay, wins: list[Win]) -> str:
    """The readable report."""
    if isinstance(game, Pig):
        rules = f"{game.name} to {game.goal} with a d{game.sides}"
    else:
        rules = f"{game.name} to {game.goal}, {game.chickens} chickens and {game.wolves} wolves"
    fairest = fairest_komi(wins)
    fairest_line = (
        f"  fairest komi  {', '.join(map(str, fairest))} "
        f"(first player wins {_decimal(wins[fairest[0]])})"
    )
    return "\n".join(
        [
            f"{rules}, komi {game.komi}, both players optimal",
            f"  first player wins  {_win_text(wins[game.komi])}",
            f"  non-terminal states  {game.nonterminal_states():,}",
            fairest_line,
        ]
    )


def write_plot(game: Pig | FowlPlay, table: PolicyTable, path: Path) -> None:
    """The optimal player's hold boundary, written atomically to ``path``."""
    from ..games.jeopardy.figures import hold_boundary_figure

    title = f"{game.name} to {game.goal}"
    thresholds = hold_thresholds(game, table)
    save_figure(lambda: hold_boundary_figure(thresholds, title).figure, path)


def players_of(game: Pig | FowlPlay, text: str | None) -> list[str]:
    """The player names of ``--players`` (comma-separated), checked before any work."""
    if text is None:
        return []
    if game.goal < 2:
        raise UsageError(
            f"--players needs --goal 2 or more (no choice to make below), got {game.goal}"
        )
    names = [name.strip() for name in text.split(",")]
    for name in names:
        try:
            check_player_name(game, name)
        except ModelError as error:
            raise UsageError(f"--players: {error}") from None
    if len(set(names)) < len(names):
        raise UsageError(f"--players names a player twice: {text!r}")
    return names


def players_text(players: list[Player], agreements: list[Fraction]) -> str:
    """One line per player: its parameters and its agreement with the optimal choices."""
    width = max(len(player.name) for player in players)
    return "\n".join(
        ["  players  (parameters; optimal choices matched)"]
        + [
            f"    {player.name:<{width}}  {player.parameters:>9,}  {decimal_string(a, 6)}"
            for player, a in zip(players, agreements, strict=True)
        ]
    )


def matchups_text(names: list[str], wins: dict[tuple[str, str], Win]) -> str:
    """The round robin as a matrix: the first player's chance, first player by row."""
    width = max(len(name) for name in names)
    cells = {key: _short(win) for key, win in wins.items()}
    column = max(12, *(len(text) for text in [*names, *cells.values()]))
    header = " " * (width + 4) + "".join(f"{name:>{column + 2}}" for name in names)
    rows = [
        f"    {first:<{width}}"
        + "".join(f"{cells[first, second]:>{column + 2}}" for second in names)
        for first in names
    ]
    return "\n".join(["  first player's chance (row moves first, column second)", header, *rows])


def _short(win: Win) -> str:
    """Eight decimal places, the exact value within one unit of the last; a wider
    enclosure is shown as its ends rounded outward to three places (``--json`` has them in
    full).

    >>> _short(Enclosure(0.21874, 0.75))
    '[0.218, 0.750]'
    """
    if isinstance(win, Fraction):
        return decimal_string(win, 8)
    if win.width() <= 1e-9:
        return f"{float(win.midpoint()):.8f}"
    return f"[{math.floor(win.low * 1000) / 1000:.3f}, {math.ceil(win.high * 1000) / 1000:.3f}]"


def check_size(game: Pig | FowlPlay, exact: bool, max_states: int | None) -> None:
    """Refuse, before any work, a game with more non-terminal states than ``max_states``
    (by default :data:`MAX_EXACT_STATES` or :data:`MAX_CERTIFIED_STATES`), or whose
    certified solve needs more memory than the machine has."""
    states = game.nonterminal_states()
    how = "exact" if exact else "certified"
    limit = max_states or (MAX_EXACT_STATES if exact else MAX_CERTIFIED_STATES)
    if states > limit:  # the game solvers' own budget, in non-terminal states
        raise UsageError(
            f"the game has {states:,} non-terminal states, more than the {limit:,} solved "
            f"{how} {'with --max-states' if max_states else 'by default'}; pass "
            f"--max-states {states} to try anyway"
        )
    if not exact and isinstance(game, FowlPlay):
        check_memory(working_bytes(game), "the certified solve")


def run(args: argparse.Namespace) -> None:
    game = game_of(args)
    exact = _is_exact(game, args)
    max_states = (
        None if args.max_states is None else check_max_states(args.max_states, "--max-states")
    )
    check_size(game, exact, max_states)
    plot = plot_path(args.plot)
    names = players_of(game, args.players)
    solution = _solve(game, exact)
    wins = komi_wins(solution)
    payload, text = payload_of(game, wins, exact), text_of(game, wins)
    if plot is not None or names:
        table = optimal_policy_table(solution)
        if table.undecided is not None:
            undecided = int(table.undecided.sum())
            payload["undecided_choices"] = undecided
            text += f"\n  choices the enclosure leaves undecided  {undecided:,}"
    if names:
        players = [player_named(game, name, table) for name in names]
        matchups = round_robin(game, players, exact, progress=show_progress())
        agreements = [agreement(game, table, p.table) for p in players]
        payload["players"] = [
            {"name": p.name, "parameters": p.parameters, **exact_fields("agreement", a, 6)}
            for p, a in zip(players, agreements, strict=True)
        ]
        payload["matchups"] = [
            {"first": first, "second": second, **win_fields("first_player_win", win)}
            for (first, second), win in matchups.items()
        ]
        text += "\n" + players_text(players, agreements) + "\n" + matchups_text(names, matchups)
    if plot is not None:
        write_plot(game, table, plot)
        payload["plot"] = str(plot)
        text += f"\nplot written to {plot}"
    emit(payload, text, args.json)


def _add_race_flags(parser: argparse.ArgumentParser, goal: int, komi: int) -> None:
    parser.add_argument("--goal", default=str(goal), help=f"points to win (default {goal})")
    parser.add_argument(
        "--komi", default=str(komi), help=f"the second player's starting points (default {komi})"
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the optimal hold boundary (.png, .svg or .pdf)"
    )
    parser.add_argument(
        "--players",
        metavar="LIST",
        help=(
            "also play these players against each other, every ordered pair, valued "
            f"exactly (or certified): comma-separated from {NAMES}"
        ),
    )
    parser.add_argument(
        "--max-states",
        type=integer,
        help=f"solve games with up to this many non-terminal states (default "
        f"{MAX_EXACT_STATES:,} exact, {MAX_CERTIFIED_STATES:,} certified)",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)


def register(sub: Any) -> None:
    pig = sub.add_parser(
        "pig",
        help=help_of("pig"),
        description=(
            "Two players race to --goal points. On a turn a player rolls a die again and "
            "again: a 1 ends the turn with nothing, any other face adds to the turn total, "
            "which the player may bank (hold) after any roll. Solves the game exactly "
            "(rationals) for both players playing optimally and prints the first player's "
            "chance, the komi (second player's head start) that makes the game fairest, "
            "and the chance for every komi in --json."
        ),
    )
    pig.add_argument("--sides", default="6", help="faces of the die (default 6)")
    _add_race_flags(pig, 100, 0)
    for name, chickens, wolves, komi, what in (
        ("fowl-play", 42, 6, 0, "a deck of chickens and wolves"),
        ("red-light", 24, 4, 1, "a bag of green and red chips (Fowl Play's fairer redesign)"),
    ):
        parser = sub.add_parser(
            name,
            help=help_of(name),
            description=(
                f"Two players race to --goal points drawing from {what}, without "
                "replacement: a chicken (green) adds 1 to the turn total, a wolf (red) ends "
                "the turn with nothing; after the last wolf the deck is reshuffled. Prints "
                "the first player's chance under optimal play and the fairest komi. Exact "
                f"when the game has at most {EXACT_LIMIT:,} non-terminal states, otherwise "
                "a certified enclosure (an interval guaranteed to hold the exact value)."
            ),
        )
        parser.add_argument("--chickens", default=str(chickens), help=f"default {chickens}")
        parser.add_argument("--wolves", default=str(wolves), help=f"default {wolves}")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--exact", action="store_true", help="exact rationals at any size up to --max-states"
        )
        mode.add_argument(
            "--certified",
            action="store_true",
            help="a certified enclosure at any size up to --max-states",
        )
        _add_race_flags(parser, 50, komi)
