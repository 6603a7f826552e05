r"""Hit points from dice per level answered in full, one call: the exact distribution of
the total and its summary, and beside it another kind of dice with the chance that each
total is larger (:func:`hit_points_report`). One result (:class:`HitPointsReport`) with
its JSON form, its text and its figure, which is all the ``exactprob hp`` command prints.

2d2 is 2, 3, 4 with 1/4, 1/2, 1/4 and 2d3 is 2 to 6 with 1, 2, 3, 2, 1 ninths, so
:math:`P(2d2 > 2d3) = \tfrac12 \cdot \tfrac19 + \tfrac14 \cdot \tfrac39 = 5/36`:

>>> from exactprob.games.roguelike.hit_points.dice import parse_dice_spec
>>> report = hit_points_report(parse_dice_spec("1d2"), 2, 0, compare=parse_dice_spec("1d3"))
>>> report.to_json()["comparison"]["p_a_greater"]
'5/36'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....engine import Dist
from ....util.display import Report
from ....util.fields import field_lines
from ....util.numbers import probability_rows
from ....util.text import count_text, exact_text
from .dice import Comparison, DiceSpec, DistributionSummary, hit_points, plot_distributions
from .dice import compare as compare_totals

__all__ = ["HitPoints", "HitPointsReport", "hit_points_report"]


def _label(spec: DiceSpec, levels: int, base: int) -> str:
    """``12 + 8d10``: the total written as one dice expression."""
    if levels == 0:
        return str(base)
    dice_text = f"{spec.count * levels}d{spec.sides}"
    return f"{base} + {dice_text}" if base else dice_text


@dataclass(frozen=True)
class HitPoints:
    """One total: the dice per level, its exact distribution and summary."""

    spec: DiceSpec
    levels: int
    base: int
    dist: Dist[int] = field(repr=False)
    summary: DistributionSummary = field(repr=False)

    @property
    def label(self) -> str:
        """The total written as one dice expression (``12 + 8d10``)."""
        return _label(self.spec, self.levels, self.base)

    def fields(self, full: bool) -> dict[str, Any]:
        """The summary's fields (and every total's probability when ``full``)."""
        payload: dict[str, Any] = {"dice": str(self.spec), "total": self.label}
        payload |= self.summary.to_json()
        if full:
            payload["distribution"] = probability_rows(self.dist, "outcome")
        return payload

    def lines(self, full: bool) -> list[str]:
        """The text block of the total."""
        levels = self.levels
        title = (
            f"{self.label} ({self.spec} per level for {count_text(levels, 'level')}, "
            f"from {self.base})"
        )
        return _block(title, self.dist, self.summary, full)


def _block(title: str, dist: Dist[int], summary: DistributionSummary, full: bool) -> list[str]:
    lines = [title]
    moments = summary.moments()
    lines += field_lines(moments)
    width = max(len(field.label) for field in moments)
    quantiles = ", ".join(f"{q * 100}%: {x}" for q, x in summary.quantiles)
    modes = ", ".join(str(x) for x in summary.modes)
    lines += [
        f"  {'min, max':<{width}}  {summary.minimum}, {summary.maximum}",
        f"  {'quantiles':<{width}}  {quantiles}",
        f"  {'modes':<{width}}  {modes} (probability {exact_text(summary.mode_probability)})",
    ]
    if full:
        lines += [f"  {x:>8}  {exact_text(p)}" for x, p in dist.items()]
    return lines


@dataclass(frozen=True, eq=False)
class HitPointsReport(Report):
    """One total, or two side by side with their comparison."""

    levels: int
    base: int
    totals: tuple[HitPoints, ...]
    relation: Comparison | None = None
    full: bool = False

    def _build(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"levels": self.levels, "base": self.base}
        payload |= self.totals[0].fields(self.full)
        if self.relation is not None:
            payload["compare"] = self.totals[1].fields(self.full)
            payload["comparison"] = self.relation.to_json()
        return payload

    def text(self) -> str:
        """The report for people."""
        lines = self.totals[0].lines(self.full)
        if self.relation is not None:
            first, second = self.totals
            lines += ["", *second.lines(self.full), ""]
            lines += _relation_lines(first.label, second.label, self.relation)
        return "\n".join(lines)

    def figure(self) -> Any:
        """The totals' bar charts side by side (matplotlib axes of the first)."""
        return plot_distributions([(total.label, total.dist) for total in self.totals])[0]


def _total(spec: DiceSpec, levels: int, base: int) -> HitPoints:
    dist = hit_points(spec, levels, base)
    return HitPoints(spec, levels, base, dist, DistributionSummary.of(dist))


def hit_points_report(
    dice: DiceSpec, levels: int, base: int, *, compare: DiceSpec | None = None, full: bool = False
) -> HitPointsReport:
    """``base`` plus ``levels`` rolls of ``dice``, and of ``compare`` beside it when given;
    ``full`` lists every total's probability."""
    totals = tuple(_total(spec, levels, base) for spec in (dice, compare) if spec is not None)
    relation = compare_totals(totals[0].dist, totals[1].dist) if len(totals) == 2 else None
    return HitPointsReport(levels, base, totals, relation, full)


def _relation_lines(a: str, b: str, relation: Comparison) -> list[str]:
    same = "equal" if relation.same_mean else "different"
    ratio = relation.sd_ratio
    rows = [
        ("P(A > B)", exact_text(relation.p_greater)),
        ("P(A = B)", exact_text(relation.p_equal)),
        ("P(A < B)", exact_text(relation.p_less)),
        ("sd(A) / sd(B)", exact_text(ratio) if ratio is not None else "undefined (sd(B) = 0)"),
    ]
    width = max(len(label) for label, _ in rows)
    title = f"A = {a} against B = {b} (independent; means {same})"
    return [title] + [f"  {label:<{width}}  {value}" for label, value in rows]
