"""The flags of a rubber band (``--start --up --down --levels --max-states``), shared by the
``rubber-band``, ``staircakes`` and ``waffles`` subcommands, and the band they give."""

from __future__ import annotations

import argparse
from fractions import Fraction

from ..errors import UsageError
from ..games.roguelike.rubber_band import MAX_LEVELS, MAX_STATES, MAX_STEP, RubberBand, plain
from ..util.limits import check_max_states
from ..util.numbers import parse_fraction, parse_whole
from ._options import add_max_states_flag

__all__ = ["add_band_flags", "band_from_args"]


def add_band_flags(parser: argparse.ArgumentParser, defaults: RubberBand) -> None:
    """``--start --up --down --levels`` with ``defaults`` and ``--max-states``."""
    for name, what in (
        ("start", "the odds at the start"),
        ("up", "added before each draw"),
        ("down", "taken off after a find"),
    ):
        value = getattr(defaults, name)
        parser.add_argument(f"--{name}", metavar="X", help=f"{what} (default {plain(value)})")
    parser.add_argument("--levels", metavar="N", help=f"dungeon levels (default {defaults.levels})")
    add_max_states_flag(parser, MAX_STATES)


def band_from_args(args: argparse.Namespace, defaults: RubberBand) -> RubberBand:
    """The parameters given on the command line, ``defaults`` for the others."""

    def decimal(name: str, low: int) -> Fraction:
        text = getattr(args, name)
        if text is None:
            return Fraction(getattr(defaults, name))
        return parse_fraction(f"--{name}", text, low, MAX_STEP, UsageError)

    check_max_states(args.max_states, "--max-states")
    levels = defaults.levels
    if args.levels is not None:
        levels = parse_whole("--levels", args.levels, 1, MAX_LEVELS, UsageError)
    return RubberBand(decimal("start", -MAX_STEP), decimal("up", 0), decimal("down", 0), levels)
