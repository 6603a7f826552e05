"""``exactprob prd``: what a pseudo-random distribution table really gives.

>>> from exactprob.cli import main
>>> main(["prd", "--odds", "0.25,1", "--trials", "4", "--json"])  # doctest: +ELLIPSIS
{
  "odds": [
    "1/4",
    "1"
  ],
  "rate": "4/7",
...
0
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..games.roguelike.prd import THRESHOLD_SCALE, PRDTable
from ..games.roguelike.prd.bounds import hits_enclosure
from ..games.roguelike.prd.inverse import MAX_INVERSE_ENTRIES, ROOT_OF_DEGREE, linear_constant
from ..games.roguelike.prd.simulator import simulate_hits
from ..games.roguelike.prd.trials import (
    DEFAULT_MAX_EXACT_TRIALS,
    hit_moments,
    hits_distribution,
    hits_range,
    longest_miss_run,
)
from ..games.roguelike.rng import random_source
from ..numbers import (
    exact,
    exact_fields,
    fraction_string,
    parse_fraction,
    parse_whole,
    to_fraction,
)
from ..text import table_lines
from . import help_of
from ._options import add_json_flag, integer, plot_path
from ._output import emit, save_figure

__all__ = ["register", "run"]

MAX_CLI_TRIALS = 100_000
MAX_WORK = 2e10
"""Digit operations allowed for an exact computation (:func:`check_work`): about 5 s."""
MAX_FLOAT_WORK = 5e9
"""Float operations allowed for the certified distribution: about 10 s."""
MAX_ENTRIES = 1_000
MAX_DRAWS = 200_000_000
EXACT_DISTRIBUTION_TRIALS = 200
"""Up to this many trials the distribution is exact by default; beyond, certified bounds."""
QUANTILES = (0, 25, 50, 75, 100)


def _entries(flag: str, text: str) -> list[str]:
    entries = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in entries):
        raise UsageError(f"{flag} must be a comma-separated list with no empty entry, got {text!r}")
    return entries


def parse_table(args: argparse.Namespace) -> tuple[PRDTable, dict[str, Any]]:
    """The table from ``--odds`` or ``--thresholds``, and how it was given (for the JSON)."""
    if args.odds is not None:
        odds = [
            parse_fraction(f"--odds entry {k + 1}", text, 0, 1, UsageError)
            for k, text in enumerate(_entries("--odds", args.odds))
        ]
        table, given = PRDTable(tuple(odds)), {}
    else:
        thresholds = [
            parse_whole(f"--thresholds entry {k + 1}", text, 0, THRESHOLD_SCALE - 1, UsageError)
            for k, text in enumerate(_entries("--thresholds", args.thresholds))
        ]
        table, given = PRDTable.from_thresholds(thresholds), {"thresholds": thresholds}
    # PRDTable itself refuses an all-zero table; the CLI's size limit is stricter than its own
    if table.size > MAX_ENTRIES:
        raise UsageError(
            f"a PRD table has at most {MAX_ENTRIES:,} entries here, got {table.size:,}"
        )
    return table, given


def distribution_summary(table: PRDTable, trials: int, exact: bool) -> dict[str, Any]:
    """Quantiles of the hit count (0% and 100%: the fewest and most hits possible); the
    others exact up to a size, else certified from the bounds. Bounds cannot settle a
    quantile whose level the exact CDF meets exactly (a fair coin's median); then the exact
    distribution is computed when it is affordable, else the range is given."""
    fewest, most = hits_range(table, trials)
    summary: dict[str, Any]
    inner: dict[str, Any]
    if exact:
        exact_dist = hits_distribution(table, trials)
        summary = {"exact": True}
        inner = {str(q): exact_dist.quantile(Fraction(q, 100)) for q in QUANTILES[1:-1]}
    else:
        box = hits_enclosure(table, trials)
        summary = {
            "exact": False,
            "certified_bounds": "every probability enclosed; see docs/roguelike/prd",
            "max_relative_width": float(f"{box.widest_relative():.3g}"),
        }
        inner = {}
        for q in QUANTILES[1:-1]:
            low, high = box.quantile_range(Fraction(q, 100))
            inner[str(q)] = low if low == high else [low, high]
        undecided = any(isinstance(value, list) for value in inner.values())
        if undecided and exact_distribution_affordable(table, trials):
            return distribution_summary(table, trials, exact=True)
    summary["quantiles"] = {"0": fewest, **inner, "100": most}
    return summary


def exact_distribution_cost(table: PRDTable, trials: int) -> float:
    """About :math:`nN^3d/3` digit operations for the exact distribution."""
    return table.size * trials**3 * denominator_digits(table) / 3


def exact_distribution_affordable(table: PRDTable, trials: int) -> bool:
    return trials <= DEFAULT_MAX_EXACT_TRIALS and exact_distribution_cost(table, trials) <= MAX_WORK


def denominator_digits(table: PRDTable) -> float:
    return max(1.0, math.log10(table.common_denominator()))


def check_work(table: PRDTable, trials: int, exact_distribution: bool) -> None:
    r"""Refuse, before any work, a report that would take minutes. With :math:`n` entries,
    :math:`N` trials and denominators of :math:`d` digits, the exact moments cost about
    :math:`nN^2d` digit operations (0.3 s for the source's decimal table at 10,000 trials,
    1.4 s for its uint32 table), the exact distribution :math:`nN^3d/3`, the certified one
    :math:`nN^2` float operations."""
    digits = denominator_digits(table)
    n = table.size
    costs = [("exact moments", n * trials**2 * digits, MAX_WORK)]
    if exact_distribution:
        costs.append(("the exact distribution", exact_distribution_cost(table, trials), MAX_WORK))
    else:
        costs.append(("the certified distribution", float(n * trials**2), MAX_FLOAT_WORK))
    for what, work, limit in costs:
        if work > limit:
            raise UsageError(
                f"{what} of {trials:,} trials of a {n}-entry table with {digits:.0f}-digit "
                f"denominators needs about {work:.1e} operations, more than {limit:.0e}; "
                "use fewer --trials"
            )


def ratio_fields(key: str, numerator: Any, denominator: Any) -> dict[str, Any]:
    """``exact_fields`` of a ratio, or ``None`` when the denominator is 0."""
    if denominator == 0:
        return {key: None, f"{key}_decimal": None}
    return exact_fields(key, numerator / denominator)


def analyse(
    args: argparse.Namespace, table: PRDTable, given: dict[str, Any], trials: int
) -> tuple[dict[str, Any], list[tuple[str, Fraction]]]:
    """The JSON payload and the exact rows of the readable report."""
    exact_distribution = args.exact_distribution or trials <= EXACT_DISTRIBUTION_TRIALS
    check_work(table, trials, exact_distribution)
    runs = None if args.simulate is None else check_simulation(args, trials)
    rate = table.rate()
    result: dict[str, Any] = {"odds": [fraction_string(p) for p in table.odds], **given}
    result |= exact_fields("rate", rate)
    result["wraps"] = table.wraps
    result |= exact_fields("wrap_probability", table.wrap_probability)
    result |= exact_fields("gap_mean", table.gap_mean())
    result |= exact_fields("gap_variance", table.gap_variance())
    listed = (
        min(2 * table.size, 40)
        if args.gaps is None
        else parse_whole("--gaps", args.gaps, 1, 10_000, UsageError)
    )
    gaps = table.gaps(listed)
    result["gaps"] = {str(g): fraction_string(p) for g, p in gaps.exact_items()}
    mean, variance = hit_moments(table, trials)
    # the ratios in gmpy2: Fraction arithmetic reduces 100,000-digit numbers slowly
    exact_rate, exact_variance = exact(rate), exact(variance)
    bernoulli = trials * exact_rate * (1 - exact_rate)
    result["trials"] = trials
    result |= exact_fields("hits_mean", mean)
    result |= exact_fields("hits_variance", variance)
    result |= exact_fields("bernoulli_variance", bernoulli)
    # a table that always hits (rate 1) has Bernoulli variance 0: no ratio to give
    result |= ratio_fields("variance_ratio", exact_variance, bernoulli)
    result |= ratio_fields(
        "asymptotic_variance_ratio",
        exact(table.asymptotic_variance_per_trial()),
        exact_rate * (1 - exact_rate),
    )
    result["hits_distribution"] = distribution_summary(table, trials, exact_distribution)
    if args.longest_run:
        longest = longest_miss_run(table, trials)
        result["longest_miss_run_at_least"] = {
            str(k): fraction_string(p) for k, p in longest.items()
        }
    if runs is not None:
        result["simulation"] = simulation(table, trials, runs, args, mean, variance)
    rows = [
        ("activation rate", rate),
        ("mean gap", table.gap_mean()),
        (f"mean hits in {trials}", mean),
        ("variance of hits", variance),
        ("Bernoulli variance", to_fraction(bernoulli)),
    ]
    if bernoulli:
        rows.append(("variance ratio", to_fraction(exact_variance / bernoulli)))
    return result, rows


def check_simulation(args: argparse.Namespace, trials: int) -> int:
    """The number of runs asked for, within :data:`MAX_DRAWS` draws in all."""
    runs = parse_whole("--simulate", args.simulate, 2, MAX_DRAWS, UsageError)
    if runs * trials > MAX_DRAWS:
        raise UsageError(
            f"--simulate {runs:,} runs of {trials:,} trials is {runs * trials:,} draws; "
            f"at most {MAX_DRAWS:,} (the source's 10,000 x 10,000 is 10^8)"
        )
    if args.generator == "numpy" and args.seed < 0:
        raise UsageError(f"--seed must be >= 0 for numpy's generator, got {args.seed}")
    return runs


def simulation(
    table: PRDTable,
    trials: int,
    runs: int,
    args: argparse.Namespace,
    mean: Fraction,
    variance: Fraction,
) -> dict[str, Any]:
    """The source's experiment on the chosen generator, next to the exact moments (the
    standardised differences are left out when the exact variance is 0)."""
    counts = simulate_hits(table, trials, runs, random_source(args.generator, args.seed))
    sample_mean, sample_variance = float(counts.mean()), float(counts.var(ddof=1))
    spread = float(variance)
    return {
        "generator": args.generator,
        "runs": runs,
        "mean": sample_mean,
        "mean_z": (sample_mean - float(mean)) / (spread / runs) ** 0.5 if spread else None,
        "variance": sample_variance,
        "variance_over_exact": sample_variance / spread if spread else None,
    }


def inverse(args: argparse.Namespace) -> dict[str, Any]:
    target = parse_fraction("--target-rate", args.target_rate, 0, 1, UsageError)
    if target == 0:
        raise UsageError("--target-rate must be above 0 (a rate of 0 needs no table)")
    constant = linear_constant(target)
    low, high = constant.interval
    expression, minimal = constant.expression, constant.minimal_polynomial
    if expression is None:
        form = "interval"
    elif expression.is_Rational:
        form = "rational"
    else:
        form = "root_of" if expression.has(__import__("sympy").CRootOf) else "radicals"
    return {
        "shape": "p_k = min(1, C*(k+1))",
        "target_rate": fraction_string(target),
        "constant": None if expression is None else str(expression),
        "constant_decimal": constant.decimal(30),
        "constant_interval": [fraction_string(low), fraction_string(high)],
        "form": form,
        "entries": constant.entries,
        # C is a root of a*E[G](C) - b, of degree entries - 1; its irreducible factor is
        # found up to MAX_INVERSE_ENTRIES entries, and written out while it is the
        # expression's own polynomial (its integers run to thousands of digits)
        "defining_polynomial_degree": constant.entries - 1,
        "minimal_polynomial_degree": None if minimal is None else minimal.degree(),
        "minimal_polynomial": (
            str(minimal.as_expr())
            if minimal is not None and minimal.degree() <= ROOT_OF_DEGREE
            else None
        ),
    }


def text_of(result: dict[str, Any], rows: list[tuple[str, Fraction]]) -> str:
    if "target_rate" in result:
        lines = [f"PRD constant C for a rate of {result['target_rate']} with p_k = min(1, C(k+1))"]
        lines.append(f"  C = {result['constant_decimal']} ({result['form']})")
        if result["constant"] is not None:
            lines.append(f"  exactly {result['constant']}")
        low, high = (Fraction(end) for end in result["constant_interval"])
        lines.append(f"  certified: in an interval of width {float(high - low):.1e}")
        if result["minimal_polynomial_degree"] is None:
            lines.append(
                f"  a root of a*E[G](C) - b, degree {result['defining_polynomial_degree']:,} "
                f"(not factored above {MAX_INVERSE_ENTRIES:,} entries)"
            )
        lines.append(f"  table of {result['entries']:,} entries")
        return "\n".join(lines)
    lines = [
        f"PRD table of {len(result['odds'])} entries ({'wraps' if result['wraps'] else 'never wraps'})"
    ]
    lines += table_lines(rows)
    dist = result["hits_distribution"]
    kind = "exact" if dist["exact"] else "certified"
    lines.append(
        f"  hit quantiles ({kind}): "
        + ", ".join(f"{q}%: {v}" for q, v in dist["quantiles"].items())
    )
    if "simulation" in result:
        sim = result["simulation"]
        line = f"  simulated on {sim['generator']} ({sim['runs']} runs): mean {sim['mean']:.3f}"
        if sim["mean_z"] is not None:  # None: the exact variance is 0
            line += (
                f" (z = {sim['mean_z']:.2f}), variance {sim['variance']:.2f} "
                f"= {sim['variance_over_exact']:.3f} x exact"
            )
        lines.append(line)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    plot = plot_path(args.plot)
    if plot is not None and args.target_rate is not None:
        raise UsageError("--plot draws a table's hits: give --odds or --thresholds with it")
    if args.target_rate is not None:
        constant = inverse(args)
        emit(constant, text_of(constant, []), args.json)
        return
    table, given = parse_table(args)
    trials = parse_whole("--trials", args.trials, 1, MAX_CLI_TRIALS, UsageError)
    result, rows = analyse(args, table, given, trials)
    if plot is not None:
        write_plot(table, trials, plot)
    emit(result, text_of(result, rows), args.json)


def write_plot(table: PRDTable, trials: int, path: Path) -> None:
    from ..games.roguelike.prd.figures import hits_figure

    save_figure(lambda: hits_figure(table, trials).figure, path)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "prd",
        help=help_of("prd"),
        description=(
            "What a PRD table really gives: the chance of activation is read from a table "
            "at a counter that advances after each miss (wrapping) and resets after a hit. "
            "Prints the exact long-run rate (renewal argument), the gap distribution, the "
            "exact mean and variance of hits in N trials next to Bernoulli trials at the same "
            "rate, and the hit quantiles (exact up to 200 trials, certified bounds beyond). "
            "With --target-rate, solves for the constant C of the table min(1, C(k+1))."
        ),
    )
    table = parser.add_mutually_exclusive_group(required=True)
    table.add_argument("--odds", metavar="P,P,...", help="exact probabilities: 0.03,0.17 or 1/3,1")
    table.add_argument(
        "--thresholds", metavar="T,T,...", help="uint32 thresholds t (activate iff u <= t)"
    )
    table.add_argument("--target-rate", metavar="R", help="find C for p_k = min(1, C(k+1))")
    parser.add_argument("--trials", default="10000", help="trials N per run (default 10000)")
    parser.add_argument(
        "--gaps", default=None, help="gaps listed (default twice the table, at most 40)"
    )
    parser.add_argument(
        "--exact-distribution",
        action="store_true",
        help="the exact distribution above 200 trials too, up to 1,000 (slow: N^3)",
    )
    parser.add_argument(
        "--longest-run",
        action="store_true",
        help="P(longest run of misses >= L) for L up to 3 passes of the table",
    )
    parser.add_argument("--simulate", metavar="RUNS", help="also simulate RUNS runs")
    parser.add_argument("--generator", choices=("numpy", "rogue"), default="numpy")
    parser.add_argument("--seed", type=integer, default=0, help="simulation seed (default 0)")
    parser.add_argument("--plot", metavar="FILE", help="write the hits-vs-Bernoulli figure")
    add_json_flag(parser)
    parser.set_defaults(run=run)
