"""``exactprob rubber-band`` and ``exactprob staircakes``: rubber-band odds, exactly.

>>> from exactprob.cli import main
>>> main(["rubber-band", "--levels", "2", "--json"])  # doctest: +ELLIPSIS
{
  "start": "7/10",
  "start_decimal": "0.700000000000",
...
  "mean": "151/100",
  "mean_decimal": "1.510000000000",
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.roguelike.rubber_band import (
    STAIRCAKES,
    RubberBand,
    rubber_band_report,
    staircakes_report,
)
from ..util.numbers import parse_whole
from . import help_of
from ._band_options import add_band_flags, band_from_args
from ._options import add_json_flag
from ._output import emit

__all__ = ["register"]


def run_rubber_band(args: argparse.Namespace) -> None:
    band = band_from_args(args, RubberBand())
    streak = None
    if args.streak is not None:
        streak = parse_whole("--streak", args.streak, 1, band.levels, UsageError)
    report = rubber_band_report(band, streak=streak, max_states=args.max_states)
    emit(report.to_json(), report.text(), args.json)


def run_staircakes(args: argparse.Namespace) -> None:
    report = staircakes_report(band_from_args(args, STAIRCAKES), max_states=args.max_states)
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "rubber-band",
        help=help_of("rubber-band"),
        description=(
            "Each level: odds += UP; the resource appears iff a uniform draw is below the "
            "odds, and then odds -= DOWN. Prints the exact distribution of the number of "
            "resources, of the longest run of levels without one, and P(run >= k)."
        ),
    )
    add_band_flags(parser, RubberBand())
    parser.add_argument("--streak", metavar="K", help="also print P(longest dry run >= K)")
    add_json_flag(parser)
    parser.set_defaults(run=run_rubber_band)

    parser = sub.add_parser(
        "staircakes",
        help=help_of("staircakes"),
        description=(
            "Rubber-band odds tuned to be rare (our defaults: start 0, up 0.01, down 1, "
            "20 levels). Prints the exact expected number per game and P(none)."
        ),
    )
    add_band_flags(parser, STAIRCAKES)
    add_json_flag(parser)
    parser.set_defaults(run=run_staircakes)
