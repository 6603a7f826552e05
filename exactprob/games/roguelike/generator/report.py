"""Rogue 3.6.3's generator answered in full, one call: its periods, the exact bias of
``rnd(n)`` over the whole cycle, the lag-1 serial correlation, and the exact distribution
of a sum of draws over every starting point (:func:`generator_report`). One result
(:class:`GeneratorReport`) with its JSON form and its text, which is all the
``exactprob rogue-rng`` command prints.

Forty coin flips ``rnd(2)`` in a row always sum to 20 (the period of ``rnd(2)`` is 2 and
divides 40, and each period holds one 0 and one 1):

>>> report = generator_report(2, 40)
>>> report.to_json()["sum"]["constant"], report.to_json()["sum"]["min"]
(True, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ....engine import Dist
from ....util.display import Report
from ....util.numbers import exact_fields, exact_map_fields
from ....util.text import exact_text, table_lines
from ..rng import INCREMENT, MULTIPLIER
from .cycle import (
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

__all__ = ["GeneratorReport", "generator_report"]

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
        **exact_map_fields("distribution", dict(total.items())),
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


@dataclass(frozen=True, eq=False)
class GeneratorReport(Report):
    """The generator analysed for ``rnd(n)`` and a sum of its draws."""

    payload: dict[str, Any]
    total: Dist[int] = field(repr=False)

    def _build(self) -> dict[str, Any]:
        return self.payload

    def text(self) -> str:
        """The report for people."""
        return text_of(self.payload, self.total)


def generator_report(n: int, m: int, stride: int = 1) -> GeneratorReport:
    """The generator's periods, ``rnd(n)``'s bias and correlation, and the sum of ``m``
    draws of ``rnd(n)`` (every ``stride``-th) over every starting point."""
    total = consecutive_sum_distribution(n, m, stride)
    return GeneratorReport(payload_of(n, m, stride, total), total)
