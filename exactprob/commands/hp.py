"""``exactprob hp``: the exact distribution of hit points gained by dice per level.

>>> from exactprob.cli import main
>>> main(["hp", "--dice", "1d10", "--levels", "8", "--base", "12"])
12 + 8d10 (1d10 per level for 8 levels, from 12)
  mean                56
  variance            66
  standard deviation  8.1240384046 = sqrt(66)
  min, max            20, 92
  quantiles           0%: 20, 25%: 50, 50%: 56, 75%: 62, 100%: 92
  modes               56 (probability 0.0481603000 = 481603/10000000)
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ModelError, UsageError
from ..games.roguelike.hit_points import (
    MAX_BASE,
    MAX_LEVELS,
    ROGUE_BASE,
    ROGUE_LEVELS,
    DiceSpec,
    hit_points_report,
    parse_dice_spec,
)
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_json_flag, plot_path
from ._output import emit, save_figure

__all__ = ["register", "run"]


def _spec(flag: str, text: str) -> DiceSpec:
    try:
        return parse_dice_spec(text)
    except ModelError as error:
        raise UsageError(f"{flag}: {error}") from None


def run(args: argparse.Namespace) -> None:
    levels = parse_whole("--levels", args.levels, 0, MAX_LEVELS, UsageError)
    base = parse_whole("--base", args.base, 0, MAX_BASE, UsageError)
    dice = _spec("--dice", args.dice)
    other = None if args.compare is None else _spec("--compare", args.compare)
    plot = plot_path(args.plot)
    try:  # every number is computed before anything is written
        report = hit_points_report(dice, levels, base, compare=other, full=args.full)
        payload, text = report.to_json(), report.text()
    except ModelError as error:
        raise UsageError(str(error)) from None
    if plot is not None:
        save_figure(lambda: report.figure().figure, plot)
        payload["plot"] = str(plot)
        text += f"\nplot written to {plot}"
    emit(payload, text, args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "hp",
        help=help_of("hp"),
        description=(
            "The exact distribution of BASE + LEVELS rolls of DICE (NdS per level): mean, "
            "variance, standard deviation (exact square root), quantiles (the smallest total "
            "whose cumulative probability reaches 0, 1/4, 1/2, 3/4, 1), min, max and modes. "
            "--compare puts a second kind of dice per level beside it."
        ),
    )
    parser.add_argument("--dice", default="1d10", help="dice per level, NdS (default 1d10)")
    parser.add_argument(
        "--levels", default=str(ROGUE_LEVELS), help=f"levels gained (default {ROGUE_LEVELS})"
    )
    parser.add_argument(
        "--base", default=str(ROGUE_BASE), help=f"hit points to start with (default {ROGUE_BASE})"
    )
    parser.add_argument("--compare", metavar="DICE", help="another NdS per level, e.g. 5d2")
    parser.add_argument(
        "--plot", metavar="FILE", help="write the bar chart(s) side by side (.png, .svg, .pdf)"
    )
    parser.add_argument(
        "--full", action="store_true", help="also print every total's exact probability"
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
