"""Rubber-band questions answered in full, one call each: the resources over the levels
(:func:`rubber_band_report`), rare staircakes (:func:`staircakes_report`) and a hungry
hero's waffles (:func:`waffles_report`). Each is one result with its JSON form and its
text, which is all the ``rubber-band``, ``staircakes`` and ``waffles`` commands print.

>>> report = rubber_band_report(RubberBand(levels=1))  # one draw at odds 0.7 + 0.15
>>> report.to_json()["mean"]
'17/20'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ....engine import Dist
from ....util.display import Report
from ....util.fields import ReportField, field_lines, json_fields
from ....util.numbers import (
    decimal_string,
    exact_fields,
    fraction_string,
    probability_rows,
    whole_number,
)
from ....util.text import decimal_text
from .odds import (
    MAX_STATES,
    STAIRCAKES,
    RubberBand,
    StaircakeSummary,
    Waffles,
    count_distribution,
    level_probabilities,
    longest_dry_streak,
    staircakes,
    starvation_distribution,
    streak_at_least,
)

__all__ = [
    "RubberBandReport",
    "StaircakesReport",
    "WafflesReport",
    "plain",
    "rubber_band_report",
    "staircakes_report",
    "waffles_report",
]

#: Parameters with longer exact decimals are shown as p/q in text.
MAX_PLAIN_DIGITS = 12


def plain(x: Fraction) -> str:
    """``x`` as people write it: ``0.15`` when a short decimal is exact, else ``p/q``.

    >>> plain(Fraction(3, 20)), plain(Fraction(-2)), plain(Fraction(1, 3))
    ('0.15', '-2', '1/3')
    """
    for digits in range(MAX_PLAIN_DIGITS + 1):
        if (x * 10**digits).denominator == 1:
            return decimal_string(x, digits)
    return fraction_string(x)


def _band_fields(band: RubberBand) -> dict[str, Any]:
    """The parameters as JSON fields."""
    fields: dict[str, Any] = {}
    for name in ("start", "up", "down"):
        fields |= exact_fields(name, getattr(band, name))
    return fields | {"levels": band.levels}


def _band_line(band: RubberBand) -> str:
    """The parameters in one line."""
    return (
        f"odds start {plain(band.start)}, +{plain(band.up)} before each draw, "
        f"-{plain(band.down)} after a find; {band.levels} levels"
    )


def _lines(title: str, dist: Dist[int] | dict[int, Fraction]) -> list[str]:
    """A titled list of ``k  probability`` lines."""
    return ["", title] + [f"  {k:>5}  {decimal_text(p)}" for k, p in dist.items()]


@dataclass(frozen=True, eq=False)
class RubberBandReport(Report):
    """The resources found over the levels, the longest dry run, and P(run >= k)."""

    band: RubberBand
    counts: Dist[int] = field(repr=False)
    longest: Dist[int] = field(repr=False)
    at_least: dict[int, Fraction] = field(repr=False)
    per_level: tuple[Fraction, ...] = field(repr=False)
    streak: int | None = None

    def fields(self) -> list[ReportField]:
        """The count's mean and variance, for the JSON and the text."""
        return [
            ReportField("mean", "mean resources", self.counts.mean()),
            ReportField("variance", "variance", self.counts.variance()),
        ]

    def _build(self) -> dict[str, Any]:
        counts = self.counts
        payload = _band_fields(self.band) | json_fields(self.fields())
        payload |= {
            "count": probability_rows(counts, "count"),
            "longest_dry_streak": probability_rows(self.longest, "streak"),
            "streak_at_least": probability_rows(self.at_least, "k"),
            "level_probability": probability_rows(dict(enumerate(self.per_level)), "level"),
        }
        if self.streak is not None:
            payload["streak"] = {
                "k": self.streak,
                **exact_fields("at_least", self.at_least[self.streak]),
            }
        return payload

    def text(self) -> str:
        """The report for people."""
        rows = self.fields()
        if self.streak is not None:  # nested in the JSON, with its k
            k = self.streak
            rows.append(ReportField("at_least", f"P(dry streak >= {k})", self.at_least[k]))
        lines = [f"Rubber-band odds: {_band_line(self.band)}", *field_lines(rows)]
        lines += _lines("resources found:", self.counts)
        lines += _lines("longest run of levels without one:", self.longest)
        nonzero = {k: p for k, p in self.at_least.items() if p}
        lines += _lines("P(longest dry run >= k), k = 1 .. the longest possible:", nonzero)
        return "\n".join(lines)


def rubber_band_report(
    band: RubberBand, *, streak: int | None = None, max_states: int = MAX_STATES
) -> RubberBandReport:
    """Everything about ``band``: the count of resources, the longest dry run, P(run >=
    k) for every k (``streak`` singled out), each level's chance; ``max_states`` bounds
    the states the recursion holds at one level."""
    if streak is not None:
        whole_number("streak", streak, 1, band.levels)
    return RubberBandReport(
        band,
        count_distribution(band, max_states),
        longest_dry_streak(band, max_states),
        streak_at_least(band, max_states),
        level_probabilities(band, max_states),
        streak,
    )


@dataclass(frozen=True, eq=False)
class StaircakesReport(Report):
    """The expected staircakes per game, the chance of none, and their distribution."""

    band: RubberBand
    summary: StaircakeSummary
    counts: Dist[int] = field(repr=False)

    def fields(self) -> list[ReportField]:
        """The staircakes expected per game and the chance of none."""
        return [
            ReportField("expected", "expected per game", self.summary.expected),
            ReportField("none", "P(none)", self.summary.none),
        ]

    def _build(self) -> dict[str, Any]:
        payload = _band_fields(self.band) | json_fields(self.fields())
        return payload | {"count": probability_rows(self.counts, "count")}

    def text(self) -> str:
        """The report for people."""
        lines = [f"Staircakes: {_band_line(self.band)}", *field_lines(self.fields())]
        lines += _lines("staircakes found:", self.counts)
        return "\n".join(lines)


def staircakes_report(
    band: RubberBand = STAIRCAKES, *, max_states: int = MAX_STATES
) -> StaircakesReport:
    """The staircakes of ``band`` (rubber-band odds tuned to be rare)."""
    return StaircakesReport(
        band, staircakes(band, max_states), count_distribution(band, max_states)
    )


@dataclass(frozen=True, eq=False)
class WafflesReport(Report):
    """The chance that the hero starves, and the starvations of a revived hero."""

    game: Waffles
    starvations: Dist[int] = field(repr=False)

    @property
    def starve(self) -> Fraction:
        """The chance of starving within the levels."""
        starve: Fraction = 1 - self.starvations[0]
        return starve

    def fields(self) -> list[ReportField]:
        """The chance of starving and the starvations expected of a revived hero."""
        levels = self.game.band.levels
        return [
            ReportField("starve", f"P(starve within {levels} levels)", self.starve),
            ReportField(
                "expected_starvations", "expected starvations (revived)", self.starvations.mean()
            ),
        ]

    def _build(self) -> dict[str, Any]:
        game = self.game
        payload = _band_fields(game.band) | {"waffles": game.waffles, "every": game.every}
        payload |= json_fields(self.fields())
        payload["starvations"] = probability_rows(self.starvations, "starvations")
        return payload

    def text(self) -> str:
        """The report for people."""
        game, band = self.game, self.game.band
        lines = [
            (
                f"Waffles: {game.waffles} at the start, one eaten on every level i with i % "
                f"{game.every} == 0; found with {_band_line(band)}"
            ),
            *field_lines(self.fields()),
        ]
        lines += _lines("starvations of a revived hero (count reset to 0):", self.starvations)
        return "\n".join(lines)


def waffles_report(game: Waffles, *, max_states: int = MAX_STATES) -> WafflesReport:
    """The starvations of ``game``'s hero."""
    return WafflesReport(game, starvation_distribution(game, max_states))
