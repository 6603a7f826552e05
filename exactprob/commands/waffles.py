"""``exactprob waffles``: the exact chance that a hungry hero starves, and how often a
revived hero would.

>>> from exactprob.cli import main
>>> main(["waffles", "--every", "1", "--levels", "2", "--json"])  # doctest: +ELLIPSIS
{
  "start": "7/10",
...
  "waffles": 2,
  "every": 1,
  "starve": "0",
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.roguelike.rubber_band import (
    MAX_LEVELS,
    MAX_WAFFLES,
    RubberBand,
    Waffles,
    waffles_report,
)
from ..util.numbers import parse_whole
from . import help_of
from ._band_options import add_band_flags, band_from_args
from ._options import add_json_flag
from ._output import emit

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> None:
    game = Waffles(
        band=band_from_args(args, RubberBand()),
        waffles=parse_whole("--waffles", args.waffles, 0, MAX_WAFFLES, UsageError),
        every=parse_whole("--every", args.every, 1, MAX_LEVELS, UsageError),
    )
    report = waffles_report(game, max_states=args.max_states)
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "waffles",
        help=help_of("waffles"),
        description=(
            "The hero starts with W waffles; on each level whose index is a multiple of E one "
            "is eaten first, and below zero the hero starves; then a waffle found on the level "
            "(rubber-band odds) adds one. Prints P(starve) and the distribution of the number "
            "of starvations of a hero revived with 0 waffles each time (our reading)."
        ),
    )
    add_band_flags(parser, RubberBand())
    parser.add_argument(
        "--waffles", default="2", metavar="W", help="waffles at the start (default 2)"
    )
    parser.add_argument(
        "--every", default="3", metavar="E", help="one is eaten every E levels (default 3)"
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
