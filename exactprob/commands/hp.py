"""``exactprob hp``: the exact distribution of hit points gained by dice per level.

>>> from exactprob.cli import main
>>> main(["hp", "--dice", "1d10", "--levels", "8", "--base", "12"])
12 + 8d10 (1d10 per level for 8 levels, from 12)
  mean                56.0000000000 = 56
  variance            66.0000000000 = 66
  standard deviation  8.1240384046 = sqrt(66)
  min, max            20, 92
  quantiles           0%: 20, 25%: 50, 50%: 56, 75%: 62, 100%: 92
  modes               56 (probability 0.0481603000 = 481603/10000000)
0
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..dist import Dist
from ..errors import ModelError, UsageError
from ..games.roguelike.hit_points import (
    MAX_BASE,
    MAX_LEVELS,
    ROGUE_BASE,
    ROGUE_LEVELS,
    Comparison,
    DiceSpec,
    DistributionSummary,
    compare,
    hit_points,
    parse_dice_spec,
    plot_distributions,
)
from ..numbers import exact_fields, parse_whole
from ..text import exact_text, table_lines
from . import help_of
from ._options import add_json_flag, plot_path
from ._output import emit, save_figure

__all__ = ["register", "run"]


def _spec(flag: str, text: str) -> DiceSpec:
    try:
        return parse_dice_spec(text)
    except ModelError as error:
        raise UsageError(f"{flag}: {error}") from None


def _label(spec: DiceSpec, levels: int, base: int) -> str:
    """``12 + 8d10``: the total written as one dice expression."""
    if levels == 0:
        return str(base)
    dice_text = f"{spec.count * levels}d{spec.sides}"
    return f"{base} + {dice_text}" if base else dice_text


def _block(title: str, dist: Dist[int], summary: DistributionSummary, full: bool) -> list[str]:
    lines = [title]
    lines += table_lines(
        [("mean", summary.mean), ("variance", summary.variance), ("standard deviation", summary.sd)]
    )
    width = len("standard deviation")
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


def _side(
    spec: DiceSpec, levels: int, base: int, full: bool
) -> tuple[Dist[int], str, dict[str, Any], list[str]]:
    """One total's distribution, summary, JSON fields and text block."""
    dist = hit_points(spec, levels, base)
    summary = DistributionSummary.of(dist)
    label = _label(spec, levels, base)
    payload: dict[str, Any] = {"dice": str(spec), "total": label, **summary.to_json()}
    if full:
        payload["distribution"] = [
            {"outcome": x, **exact_fields("probability", p)} for x, p in dist.items()
        ]
    title = f"{label} ({spec} per level for {levels} level{'s' * (levels != 1)}, from {base})"
    return dist, label, payload, _block(title, dist, summary, full)


def _save_plot(path: Path, named: list[tuple[str, Dist[int]]]) -> None:
    save_figure(lambda: plot_distributions(named)[0].figure, path)


def run(args: argparse.Namespace) -> None:
    levels = parse_whole("--levels", args.levels, 0, MAX_LEVELS, UsageError)
    base = parse_whole("--base", args.base, 0, MAX_BASE, UsageError)
    specs = [_spec("--dice", args.dice)]
    if args.compare is not None:
        specs.append(_spec("--compare", args.compare))
    plot = plot_path(args.plot)
    try:  # every number is computed before anything is written
        sides = [_side(spec, levels, base, args.full) for spec in specs]
        relation = compare(sides[0][0], sides[1][0]) if len(sides) == 2 else None
    except ModelError as error:
        raise UsageError(str(error)) from None
    payload: dict[str, Any] = {"levels": levels, "base": base, **sides[0][2]}
    lines = sides[0][3]
    if relation is not None:
        payload["compare"] = sides[1][2]
        payload["comparison"] = relation.to_json()
        lines += ["", *sides[1][3], "", *_relation_lines(sides[0][1], sides[1][1], relation)]
    if plot is not None:
        _save_plot(plot, [(label, dist) for dist, label, _, _ in sides])
        payload["plot"] = str(plot)
        lines.append(f"plot written to {plot}")
    emit(payload, "\n".join(lines), args.json)


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
