"""``exactprob softlock``: the chance that floating eyes keep the hero paralysed.

Without ``--limit``: the limit as the turns go to infinity, an algebraic number given as a
sympy expression (radicals, or a ``CRootOf`` when no radicals exist). With ``--limit N``: the
exact rational for up to ``EXACT_LIMIT`` turns (or any ``N`` with ``--exact``), else a
certified enclosure with exact rational ends, marked ``"exact": false``. ``--turn-order``
picks the game's order (the default) or the source's function; the JSON has the limit
under both.

>>> from exactprob.cli import main
>>> main(["softlock", "--ac", "10", "--json"])  # doctest: +ELLIPSIS
{
  "ac": 10,
  "eyes": 1,
  "limit": null,
  "turn_order": "game",
  "gaze": "11/20",
...
  "locked": "2 - sqrt(319)/11",
  "locked_decimal": "0.37631171822802257324...",
  "exact": true
}
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.roguelike.softlock import (
    ENCLOSURE_BITS,
    EXACT_LIMIT,
    MAX_AC,
    TURN_ORDERS,
    softlock_report,
)
from ..util.numbers import (
    parse_whole,
    whole_number,
)
from . import help_of
from ._options import add_exact_flag, add_json_flag, integer
from ._output import emit, show_progress

__all__ = ["register", "run"]

MAX_LIMIT = 100_000
"""The certified enclosure grows as the square of the turns: 3.7 s at 10,000, minutes here."""
MAX_EXACT_LIMIT = 10_000


def run(args: argparse.Namespace) -> None:
    ac = parse_whole("--ac", args.ac, 0, MAX_AC, UsageError)
    eyes = parse_whole("--eyes", args.eyes, 1, 2, UsageError)
    limit = (
        None if args.limit is None else parse_whole("--limit", args.limit, 1, MAX_LIMIT, UsageError)
    )
    if args.exact and limit is not None and limit > MAX_EXACT_LIMIT:
        raise UsageError(
            f"--exact is allowed up to --limit {MAX_EXACT_LIMIT:,} (about 200 s there: the "
            f"numbers have 14,500 digits); above, the certified enclosure is given"
        )
    bits = whole_number("--bits", args.bits, 8, 4096, UsageError)
    report = softlock_report(
        ac,
        eyes,
        limit,
        turn_order=args.turn_order,
        method="exact" if args.exact else None,
        bits=bits,
        progress=show_progress(),
    )
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "softlock",
        help=help_of("softlock"),
        description=(
            "Each turn each eye's gaze succeeds with probability min(1, (1+AC)/20) and adds 2 "
            "or 3 to a paralysis counter; then a positive counter drops by 1, and a zero one "
            "frees the hero. Prints the chance of staying paralysed for --limit turns "
            "(exact rational, or a certified enclosure beyond "
            f"{EXACT_LIMIT} turns unless --exact), or forever (an algebraic number)."
        ),
    )
    parser.add_argument("--ac", required=True, help=f"armour class, 0 to {MAX_AC}")
    parser.add_argument(
        "--limit", metavar="N", help=f"turns (1 to {MAX_LIMIT:,}); omit for the limit N -> oo"
    )
    parser.add_argument("--eyes", default="1", help="gazing eyes, 1 or 2 (default 1)")
    parser.add_argument(
        "--turn-order",
        choices=TURN_ORDERS,
        default="game",
        help=(
            "game (default): as in Rogue, the eye gazes again before a freed hero acts; "
            "source: the essay's function, freed as soon as the counter drops to 0"
        ),
    )
    add_exact_flag(
        parser, f"past {EXACT_LIMIT:,} turns, up to {MAX_EXACT_LIMIT:,} (slow: N^3 in the turns)"
    )
    parser.add_argument(
        "--bits",
        type=integer,
        default=ENCLOSURE_BITS,
        help=f"fixed-point bits of the certified enclosure (default {ENCLOSURE_BITS})",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
