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
from fractions import Fraction
from typing import Any

from ..dist import Dist
from ..errors import UsageError
from ..games.roguelike.generator import (
    MAX_DRAWS,
    MAX_N,
    RN_BITS,
    consecutive_sum_distribution,
    hull_dobell,
    independent_sum_moments,
    rn_bit_period,
    rn_period,
    rnd_bias,
    rnd_period,
    seed_period,
    serial_correlation,
)
from ..games.roguelike.rng import INCREMENT, MULTIPLIER
from ..numbers import exact_fields, fraction_string, parse_whole
from ..text import exact_text, table_lines
from . import help_of
from ._options import add_json_flag
from ._output import emit

__all__ = ["register", "run"]

#: Sums with at most this many values are listed in full in the text report.
LISTED_VALUES = 12
LAG = 1


def _sum_payload(total: Dist[int], n: int, m: int) -> dict[str, Any]:
    independent_mean, independent_variance = independent_sum_moments(n, m)
    outcomes = list(total)
    return {
        "constant": len(total) == 1,
        "values": len(total),
        "min": outcomes[0],
        "max": outcomes[-1],
        **exact_fields("mean", total.mean()),
        **exact_fields("variance", total.variance()),
        **exact_fields("independent_mean", independent_mean),
        **exact_fields("independent_variance", independent_variance),
        "distribution": {str(x): fraction_string(p) for x, p in total.items()},
    }


def payload_of(n: int, m: int, stride: int, total: Dist[int]) -> dict[str, Any]:
    """The JSON payload: periods, the bias of ``rnd(n)``, the lag-1 correlation, and the sum
    ``total`` of ``m`` draws of ``rnd(n)`` (every ``stride``-th)."""
    bias = rnd_bias(n)
    correlation = serial_correlation(LAG, n)
    return {
        "n": n,
        "sum_of": m,
        "stride": stride,
        "full_period": hull_dobell(MULTIPLIER, INCREMENT, 2**32),
        "periods": {
            "seed": seed_period(),
            "rn": rn_period(),
            "rn_bits": [rn_bit_period(j) for j in range(RN_BITS)],
            "rnd": rnd_period(n),
        },
        "rnd": {
            **exact_fields("uniform", Fraction(1, n)),
            **exact_fields("max_probability", bias.max_probability),
            **exact_fields("min_probability", bias.min_probability),
            "residues_at_max": bias.residues_at_max,
            **exact_fields("total_variation", bias.total_variation),
            "exactly_uniform": bias.exactly_uniform,
        },
        "serial_correlation": {
            "lag": LAG,
            **exact_fields("rn", serial_correlation(LAG)),
            **(exact_fields("rnd", correlation) if correlation is not None else {"rnd": None}),
        },
        "sum": _sum_payload(total, n, m),
    }


def _residues(count: int, n: int) -> str:
    if count == n:
        return "every residue"
    return "residue 0" if count == 1 else f"residues 0..{count - 1}"


def text_of(payload: dict[str, Any], total: Dist[int]) -> str:
    """The readable report."""
    n, m, stride = payload["n"], payload["sum_of"], payload["stride"]
    periods, rnd, summed = payload["periods"], payload["rnd"], payload["sum"]
    full = "full period by Hull-Dobell" if payload["full_period"] else "NOT full period"
    lines = [
        (
            "Rogue 3.6.3's generator: seed = 11109*seed + 13849 (a wrapping C int), "
            "RN = (seed & 0x7fff) >> 1, rnd(n) = RN % n"
        ),
        (
            f"  periods: seed {periods['seed']} ({full}), RN {periods['rn']}, "
            f"rnd({n}) {periods['rnd']}"
        ),
        "  periods of RN's bits 0..13: " + " ".join(map(str, periods["rn_bits"])),
        "",
        f"rnd({n}) over the whole cycle (each RN value 0..16383 exactly twice):",
    ]
    lines += table_lines(
        [
            ("uniform", Fraction(rnd["uniform"])),
            (f"max ({_residues(rnd['residues_at_max'], n)})", Fraction(rnd["max_probability"])),
            ("min", Fraction(rnd["min_probability"])),
            ("total variation", Fraction(rnd["total_variation"])),
        ]
    )
    lines.append("  exactly uniform" if rnd["exactly_uniform"] else "  biased: not uniform")
    correlation = payload["serial_correlation"]
    lines += ["", f"serial correlation at lag {correlation['lag']} over the cycle:"]
    rows = [("RN", Fraction(correlation["rn"]))]
    if correlation["rnd"] is not None:
        rows.append((f"rnd({n})", Fraction(correlation["rnd"])))
    lines += table_lines(rows)
    if correlation["rnd"] is None:
        lines.append(f"  rnd({n}): undefined (rnd(1) is always 0)")
    every = "consecutive" if stride == 1 else f"every-{stride}th"
    lines += ["", f"sum of {m} {every} rnd({n}) draws over all 32768 starting points:"]
    if summed["constant"]:
        reason = f" (the period {periods['rnd']} of rnd({n}) divides {m})" if stride == 1 else ""
        lines.append(f"  always {summed['min']}{reason}")
    else:
        lines.append(f"  {summed['values']} values from {summed['min']} to {summed['max']}")
        lines += table_lines(
            [("mean", Fraction(summed["mean"])), ("variance", Fraction(summed["variance"]))]
        )
        if len(total) <= LISTED_VALUES:
            lines += [f"    {x:>8}  {exact_text(p)}" for x, p in total.items()]
    lines.append("  independent uniform draws would give:")
    lines += table_lines(
        [
            ("mean", Fraction(summed["independent_mean"])),
            ("variance", Fraction(summed["independent_variance"])),
        ]
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    n = parse_whole("--n", args.n, 1, MAX_N, UsageError)
    m = parse_whole("--sum-of", args.sum_of, 1, MAX_DRAWS, UsageError)
    stride = parse_whole("--stride", args.stride, 1, MAX_DRAWS, UsageError)
    total = consecutive_sum_distribution(n, m, stride)
    payload = payload_of(n, m, stride, total)
    emit(payload, text_of(payload, total), args.json)


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
