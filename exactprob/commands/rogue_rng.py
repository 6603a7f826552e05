"""``exactprob rogue-rng``: Rogue 3.6.3's generator analysed exactly over its whole cycle.

>>> from exactprob.cli import main
>>> main(["rogue-rng", "--json"])  # doctest: +ELLIPSIS
{
  "n": 2,
  "sum_of": 40,
  "stride": 1,
  "full_period": true,
  "periods": {
    "seed": 4294967296,
    "rn": 32768,
...
  "sum": {
    "constant": true,
    "values": 1,
    "min": 20,
    "max": 20,
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.roguelike.generator import (
    MAX_DRAWS,
    MAX_N,
    generator_report,
)
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_json_flag
from ._output import emit

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> None:
    n = parse_whole("--n", args.n, 1, MAX_N, UsageError)
    m = parse_whole("--sum-of", args.sum_of, 1, MAX_DRAWS, UsageError)
    stride = parse_whole("--stride", args.stride, 1, MAX_DRAWS, UsageError)
    report = generator_report(n, m, stride)
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "rogue-rng",
        help=help_of("rogue-rng"),
        description=(
            "Rogue 3.6.3 draws seed = 11109*seed + 13849 (a wrapping 32-bit int), "
            "RN = (seed & 0x7fff) >> 1, rnd(n) = RN % n. Prints the periods, the exact "
            "distribution of rnd(n) over the 32768-draw cycle, the lag-1 correlation, and the "
            "exact distribution of the sum of M rnd(n) draws over every starting point "
            "(default: 40 coin flips, which always sum to 20)."
        ),
    )
    parser.add_argument(
        "--n", default="2", metavar="N", help="rnd(N), N from 1 to 2^31-1 (default 2)"
    )
    parser.add_argument(
        "--sum-of",
        default="40",
        metavar="M",
        help=f"sum M draws of rnd(N), M from 1 to {MAX_DRAWS:,} (default 40)",
    )
    parser.add_argument(
        "--stride",
        default="1",
        metavar="K",
        help="sum every K-th draw, as a simulation drawing K numbers per step would (default 1)",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
