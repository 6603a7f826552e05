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
from fractions import Fraction
from typing import Any

from ..dist import Dist
from ..errors import UsageError
from ..games.roguelike.rubber_band import (
    MAX_LEVELS,
    MAX_STATES,
    MAX_STEP,
    STAIRCAKES,
    RubberBand,
    count_distribution,
    level_probabilities,
    longest_dry_streak,
    staircakes,
    streak_at_least,
)
from ..limits import check_max_states
from ..numbers import (
    decimal_string,
    exact_fields,
    fraction_string,
    parse_fraction,
    parse_whole,
)
from ..text import table_lines
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit

__all__ = ["add_band_flags", "band_from_args", "distribution_rows", "register"]

#: Parameters with longer exact decimals are shown as p/q in the text output.
MAX_PLAIN_DIGITS = 12


def _plain(x: Fraction) -> str:
    """``x`` as people write it: ``0.15`` when a short decimal is exact, else ``p/q``.

    >>> _plain(Fraction(3, 20)), _plain(Fraction(-2)), _plain(Fraction(1, 3))
    ('0.15', '-2', '1/3')
    """
    for digits in range(MAX_PLAIN_DIGITS + 1):
        if (x * 10**digits).denominator == 1:
            return decimal_string(x, digits)
    return fraction_string(x)


def add_band_flags(parser: argparse.ArgumentParser, defaults: RubberBand) -> None:
    """``--start --up --down --levels`` with ``defaults`` and ``--max-states``."""
    for name, what in (
        ("start", "the odds at the start"),
        ("up", "added before each draw"),
        ("down", "taken off after a find"),
    ):
        value = getattr(defaults, name)
        parser.add_argument(f"--{name}", metavar="X", help=f"{what} (default {_plain(value)})")
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


def band_fields(band: RubberBand) -> dict[str, Any]:
    """The parameters as JSON fields."""
    fields: dict[str, Any] = {}
    for name in ("start", "up", "down"):
        fields |= exact_fields(name, getattr(band, name))
    return fields | {"levels": band.levels}


def distribution_rows(dist: Dist[int], key: str) -> list[dict[str, Any]]:
    """``[{key: k, "probability": "p/q", "probability_decimal": ...}, ...]``."""
    return [{key: k, **exact_fields("probability", p)} for k, p in dist.items()]


def distribution_lines(title: str, dist: Dist[int] | dict[int, Fraction]) -> list[str]:
    """A titled list of ``k  probability`` lines."""
    return ["", title] + [f"  {k:>5}  {decimal_string(p, 10)}" for k, p in dist.items()]


def band_line(band: RubberBand) -> str:
    """The parameters in one line."""
    return (
        f"odds start {_plain(band.start)}, +{_plain(band.up)} before each draw, "
        f"-{_plain(band.down)} after a find; {band.levels} levels"
    )


def run_rubber_band(args: argparse.Namespace) -> None:
    band = band_from_args(args, RubberBand())
    streak = None
    if args.streak is not None:
        streak = parse_whole("--streak", args.streak, 1, band.levels, UsageError)
    counts = count_distribution(band, args.max_states)
    longest = longest_dry_streak(band, args.max_states)
    at_least = streak_at_least(band, args.max_states)
    per_level = level_probabilities(band, args.max_states)
    payload = band_fields(band)
    payload |= exact_fields("mean", counts.mean()) | exact_fields("variance", counts.variance())
    payload |= {
        "count": distribution_rows(counts, "count"),
        "longest_dry_streak": distribution_rows(longest, "streak"),
        "streak_at_least": [
            {"k": k, **exact_fields("probability", p)} for k, p in at_least.items()
        ],
        "level_probability": [
            {"level": i, **exact_fields("probability", p)} for i, p in enumerate(per_level)
        ],
    }
    rows = [("mean resources", counts.mean()), ("variance", counts.variance())]
    if streak is not None:
        payload["streak"] = {"k": streak, **exact_fields("at_least", at_least[streak])}
        rows.append((f"P(dry streak >= {streak})", at_least[streak]))
    lines = [f"Rubber-band odds: {band_line(band)}", *table_lines(rows)]
    lines += distribution_lines("resources found:", counts)
    lines += distribution_lines("longest run of levels without one:", longest)
    nonzero = {k: p for k, p in at_least.items() if p}
    lines += distribution_lines("P(longest dry run >= k), k = 1 .. the longest possible:", nonzero)
    emit(payload, "\n".join(lines), args.json)


def run_staircakes(args: argparse.Namespace) -> None:
    band = band_from_args(args, STAIRCAKES)
    summary = staircakes(band, args.max_states)
    counts = count_distribution(band, args.max_states)
    payload = band_fields(band) | exact_fields("expected", summary.expected)
    payload |= exact_fields("none", summary.none) | {"count": distribution_rows(counts, "count")}
    lines = [f"Staircakes: {band_line(band)}"]
    lines += table_lines([("expected per game", summary.expected), ("P(none)", summary.none)])
    lines += distribution_lines("staircakes found:", counts)
    emit(payload, "\n".join(lines), args.json)


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
