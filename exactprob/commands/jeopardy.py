"""``exactprob pig``, ``exactprob fowl-play``, ``exactprob red-light``: who wins a jeopardy
race with perfect play, and what komi makes it fair.

Pig to 6 (first player wins 24/31; komi 4 and 5 tie as the fairest, since a single roll
of 2 to 6 then wins for the second player):

>>> from exactprob.cli import main
>>> main(["pig", "--goal", "6"])
Pig to 6 with a d6, komi 0, both players optimal
  first player wins  0.7741935484 = 24/31
  non-terminal states  126
  fairest komi  4, 5 (first player wins 0.7445255474)
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ModelError, UsageError
from ..games.jeopardy import (
    EXACT_LIMIT,
    FOWL_PLAY,
    MAX_CARDS,
    MAX_CERTIFIED_STATES,
    MAX_EXACT_STATES,
    MAX_GOAL,
    MAX_SEATS,
    MAX_SIDES,
    MAX_TURNS,
    NAMES,
    RED_LIGHT,
    RED_LIGHT_KOMI,
    FowlPlay,
    Pig,
    check_player_name,
    race_report,
    seat_race_report,
    solitaire_report,
    solitaire_turns_report,
)
from ..util.limits import DEFAULT_MAX_STATES, check_max_states
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_exact_flag, add_json_flag, integer, plot_path
from ._output import emit, emit_with_plot, show_progress

__all__ = ["race_of", "register"]


def race_of(args: argparse.Namespace) -> tuple[Pig | FowlPlay, int]:
    """The game named by the arguments and the komi asked about, every check before any
    work."""
    game = game_of(args)
    text = str(args.race_komi) if args.komi is None else args.komi
    return game, komi_below_goal(parse_whole("--komi", text, 0, None, UsageError), game.goal)


def komi_below_goal(komi: int, goal: int) -> int:
    """``komi``, refused unless it is below ``goal``."""
    if komi >= goal:
        raise UsageError(f"--komi must be below --goal ({goal}), got {komi}")
    return komi


def game_of(args: argparse.Namespace) -> Pig | FowlPlay:
    """The game named by the arguments (``--goal`` and the die or the deck), checked."""
    goal = parse_whole("--goal", args.goal, 1, MAX_GOAL, UsageError)
    if args.command == "pig":
        return Pig(goal, parse_whole("--sides", args.sides, 2, MAX_SIDES, UsageError))
    chickens = parse_whole("--chickens", args.chickens, 1, MAX_CARDS, UsageError)
    wolves = parse_whole("--wolves", args.wolves, 1, MAX_CARDS, UsageError)
    return FowlPlay(chickens, wolves, goal)


def head_starts_of(text: str | None, seats: int, goal: int) -> tuple[int, ...]:
    """``--komi`` among seats: the head starts of seats 2 to N, comma-separated (none
    given: 0 each), with seat 1's 0 put first."""
    if text is None:
        return (0,) * seats
    parts = text.split(",")
    if len(parts) != seats - 1:
        raise UsageError(
            f"--komi with --seats {seats} gives the head starts of seats 2 to {seats}, "
            f"{seats - 1} comma-separated numbers, got {text!r}"
        )
    return (
        0,
        *(
            komi_below_goal(parse_whole("--komi", part, 0, None, UsageError), goal)
            for part in parts
        ),
    )


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


def run(args: argparse.Namespace) -> None:
    if getattr(args, "solitaire", False):
        run_solitaire(args)
        return
    if args.seats is not None:
        run_seats(args)
        return
    if getattr(args, "turns", None) is not None:
        raise UsageError("--turns counts the turns of a game played alone: add --solitaire")
    game, komi = race_of(args)
    asked = getattr(args, "exact", False), getattr(args, "certified", False)  # Fowl Play's
    max_states = (
        None if args.max_states is None else check_max_states(args.max_states, "--max-states")
    )
    plot = plot_path(args.plot)
    report = race_report(
        game,
        komi,
        method="exact" if asked[0] else "certified" if asked[1] else None,
        max_states=max_states,
        players=players_of(game, args.players),
        table=plot is not None,
        progress=show_progress(),
    )
    emit_with_plot(report, plot, args.json)


def run_solitaire(args: argparse.Namespace) -> None:
    """``pig --solitaire``: the game played alone, the fewest expected turns, or with
    ``--turns N`` the best chance within each number of turns up to N."""
    others = [
        flag
        for flag, value, default in (
            ("--komi", args.komi, None),
            ("--players", args.players, None),
            ("--seats", args.seats, None),
            ("--plot", None if args.turns is not None else args.plot, None),
        )
        if value != default
    ]
    if others:
        raise UsageError(
            f"--solitaire plays alone: it takes --goal, --sides, --turns, --max-states and "
            f"--json (and --plot with --turns), not {', '.join(others)}"
        )
    game, _ = race_of(args)
    max_states = (
        DEFAULT_MAX_STATES
        if args.max_states is None
        else check_max_states(args.max_states, "--max-states")
    )
    if args.turns is None:
        report = solitaire_report(game, max_states=max_states, progress=show_progress())
        emit(report.to_json(), report.text(), args.json)
        return
    turns = parse_whole("--turns", args.turns, 1, MAX_TURNS, UsageError)
    plot = plot_path(args.plot)
    within = solitaire_turns_report(game, turns, max_states=max_states, progress=show_progress())
    emit_with_plot(within, plot, args.json)


def run_seats(args: argparse.Namespace) -> None:
    """``--seats N``: the race among N seats, each playing for itself, exactly."""
    others = [
        flag
        for flag, given in (
            ("--players", args.players is not None),
            ("--plot", args.plot is not None),
            ("--turns", getattr(args, "turns", None) is not None),
            ("--exact", getattr(args, "exact", False)),
            ("--certified", getattr(args, "certified", False)),
        )
        if given
    ]
    if others:
        raise UsageError(
            "--seats solves every seat exactly: it takes --goal, --komi, --max-states, --json "
            f"and the die or the deck, not {', '.join(others)}"
        )
    seats = parse_whole("--seats", args.seats, 2, MAX_SEATS, UsageError)
    game = game_of(args)
    head_starts = head_starts_of(args.komi, seats, game.goal)
    max_states = (
        None if args.max_states is None else check_max_states(args.max_states, "--max-states")
    )
    report = seat_race_report(
        game, seats, head_starts, max_states=max_states, progress=show_progress()
    )
    emit(report.to_json(), report.text(), args.json)


def _add_race_flags(parser: argparse.ArgumentParser, goal: int, komi: int) -> None:
    parser.add_argument("--goal", default=str(goal), help=f"points to win (default {goal})")
    parser.add_argument(
        "--komi",
        help=(
            f"the second player's starting points (default {komi}); with --seats N, the "
            "head starts of seats 2 to N, comma-separated (default 0 each)"
        ),
    )
    parser.add_argument(
        "--seats",
        metavar="N",
        help=(
            f"N players from 2 to {MAX_SEATS} in turn, each playing for itself: each seat's "
            "exact chance, where each first holds, and the head starts that make the game "
            "fairest (the mover draws on an exact tie)"
        ),
    )
    parser.set_defaults(race_komi=komi)
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
    pig.add_argument(
        "--solitaire",
        action="store_true",
        help=(
            "play alone instead: the fewest expected turns to reach --goal, the hold rule "
            "that achieves it, and the law of the turns needed"
        ),
    )
    pig.add_argument(
        "--turns",
        metavar="N",
        help=(
            f"with --solitaire: the best chance to reach --goal within 1, 2, ..., N turns "
            f"(up to {MAX_TURNS:,}), all from one solve, and the first turn total to bank "
            "by the turns left (every score's in --json; with --plot FILE, both drawn)"
        ),
    )
    _add_race_flags(pig, 100, 0)
    for name, deck, komi, what in (
        ("fowl-play", FOWL_PLAY, 0, "a deck of chickens and wolves"),
        (
            "red-light",
            RED_LIGHT,
            RED_LIGHT_KOMI,
            "a bag of green and red chips (Fowl Play's fairer redesign)",
        ),
    ):
        chickens, wolves = deck.chickens, deck.wolves
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
        parser.add_argument(
            "--chickens",
            default=str(chickens),
            help=f"chicken cards (green, +1) in the deck (default {chickens})",
        )
        parser.add_argument(
            "--wolves",
            default=str(wolves),
            help=f"wolf cards (red, end the turn) in the deck (default {wolves})",
        )
        mode = parser.add_mutually_exclusive_group()
        add_exact_flag(mode, f"games past {EXACT_LIMIT:,} states, up to --max-states")
        mode.add_argument(
            "--certified",
            action="store_true",
            help="a certified enclosure at any size up to --max-states",
        )
        _add_race_flags(parser, deck.goal, komi)
