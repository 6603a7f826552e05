r"""A PRD table answered in full, one call (:func:`prd_report`): its exact rate, the gap
distribution, the exact mean and variance of the hits in :math:`N` trials beside Bernoulli
trials at the same rate, the hit quantiles (exact, or certified), the longest run of misses
and the source's experiment simulated; and the inverse problem, the constant of a linear
table for a target rate (:func:`constant_report`). Each is one result with its JSON form
and its text, which is all the ``exactprob prd`` command prints; a report that would take
minutes is refused up front (:func:`check_work`).

A two-entry table that hits with 1/4, then surely: gaps of 1 and 2 with 1/4 and 3/4, a
mean gap of 7/4 and a rate of 4/7 (the renewal theorem):

>>> report = prd_report(PRDTable((Fraction(1, 4), Fraction(1))), 4)
>>> report.to_json()["rate"], report.to_json()["gap_mean"]
('4/7', '7/4')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ....errors import ModelError, UsageError
from ....util.display import Report
from ....util.numbers import (
    exact,
    exact_fields,
    exact_list_fields,
    exact_map_fields,
    to_fraction,
    whole_number,
)
from ....util.text import bound_text, count_text, enclosure_text, exact_text, table_lines
from ..rng import random_source
from .bounds import hits_enclosure
from .inverse import MAX_INVERSE_ENTRIES, ROOT_OF_DEGREE, linear_constant
from .simulator import simulate_hits
from .table import PRDTable
from .trials import (
    DEFAULT_MAX_EXACT_TRIALS,
    hit_moments,
    hits_distribution,
    hits_range,
    longest_miss_run,
)

__all__ = [
    "EXACT_DISTRIBUTION_TRIALS",
    "MAX_FLOAT_WORK",
    "MAX_WORK",
    "ConstantReport",
    "PRDReport",
    "Simulated",
    "check_work",
    "constant_report",
    "distribution_is_exact",
    "prd_report",
]

MAX_WORK = 2e10
"""Digit operations allowed for an exact computation (:func:`check_work`): about 5 s."""
MAX_FLOAT_WORK = 5e9
"""Float operations allowed for the certified distribution: about 10 s."""
MAX_GAP_DIGITS = 3e7
"""Digits the listed gaps' exact chances may take together: about 3 s."""
EXACT_DISTRIBUTION_TRIALS = 200
"""Up to this many trials the distribution is exact by default; beyond, certified bounds."""
QUANTILES = (0, 25, 50, 75, 100)


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
    """About :math:`nN^3d/3` digit operations for the exact distribution, each costing
    :func:`digit_cost` of them, growing with the power 0.9 (polynomials times long
    weights: 0.37 ns a digit at 40 digits, 3.1 at 400, 25 at 4,000)."""
    digits = denominator_digits(table)
    return table.size * trials**3 * digits / 3 * digit_cost(digits, 0.9)


def exact_moments_cost(table: PRDTable, trials: int) -> float:
    """About :math:`nN^2d` digit operations for the exact moments, each costing
    :func:`digit_cost` of them, growing with the power 0.6 (integers times long weights:
    0.35 ns a digit at 40 digits, 1.6 at 400, 2.8 at 1,000, 6 to 8 at 4,000)."""
    digits = denominator_digits(table)
    return table.size * trials**2 * digits * digit_cost(digits, 0.6)


def digit_cost(digits: float, growth: float) -> float:
    r"""What one digit of a product costs, relative to short weights, when every step
    multiplies long numbers by weights of ``digits`` digits: 1 up to 40 digits, then
    :math:`(d/40)^{g}` with ``growth`` :math:`g` measured for each computation (GMP's
    products of unbalanced sizes are not linear in the shorter one).

    >>> digit_cost(10, 0.6), round(digit_cost(4000, 0.6), 1)
    (1.0, 15.8)
    """
    return max(1.0, digits / 40) ** growth


def exact_distribution_affordable(table: PRDTable, trials: int) -> bool:
    return trials <= DEFAULT_MAX_EXACT_TRIALS and exact_distribution_cost(table, trials) <= MAX_WORK


def denominator_digits(table: PRDTable) -> float:
    return max(1.0, math.log10(table.common_denominator()))


def check_work(
    table: PRDTable, trials: int, exact_distribution: bool, gaps: int | None = None
) -> None:
    r"""Refuse, before any work, a report that would take minutes. With :math:`n` entries,
    :math:`N` trials and denominators of :math:`d` digits, the exact moments cost about
    :math:`nN^2d` digit operations (0.3 s for the source's decimal table at 10,000 trials,
    1.4 s for its uint32 table), the exact distribution :math:`nN^3d/3`, the certified one
    :math:`nN^2` float operations. Listing :math:`L` gaps of a table that wraps writes
    about :math:`d_q L(L + n)/(2n)` digits: gap :math:`g` holds :math:`q^{g/n}`, a chance
    :math:`q` of :math:`d_q`-digit denominator to the power of its wraps. Past 40 digits a
    digit operation costs more (:func:`digit_cost`): a 4,000-digit table ran minutes for
    1,000 trials under the plain count."""
    digits = denominator_digits(table)
    n = table.size
    if gaps is not None and table.wraps:
        q_digits = math.log10(table.wrap_probability.denominator)
        written = q_digits * gaps * (gaps + n) / (2 * n)
        if written > MAX_GAP_DIGITS:
            raise UsageError(
                f"listing {gaps:,} gaps of a {n}-entry table writes about {written:.1e} "
                f"digits (a wrap's chance to the power of up to {gaps // n:,}), more than "
                f"{MAX_GAP_DIGITS:.0e}; list fewer (--gaps)"
            )
    costs = [("exact moments", exact_moments_cost(table, trials), MAX_WORK)]
    if exact_distribution:
        costs.append(("the exact distribution", exact_distribution_cost(table, trials), MAX_WORK))
    else:
        costs.append(("the certified distribution", float(n * trials**2), MAX_FLOAT_WORK))
    for what, work, limit in costs:
        if work > limit:
            raise UsageError(
                f"{what} of {trials:,} trials of a {n}-entry table with {digits:.0f}-digit "
                f"denominators needs about {work:.1e} operations, more than {limit:.0e}; "
                "use fewer trials (--trials)"
            )


def ratio_fields(key: str, numerator: Any, denominator: Any) -> dict[str, Any]:
    """``exact_fields`` of a ratio, or ``None`` when the denominator is 0."""
    if denominator == 0:
        return {key: None, f"{key}_decimal": None}
    return exact_fields(key, numerator / denominator)


def distribution_is_exact(trials: int, asked: bool) -> bool:
    """Whether the hits' distribution is computed exactly: when ``asked``, and by default
    up to :data:`EXACT_DISTRIBUTION_TRIALS` trials (certified bounds beyond)."""
    return asked or trials <= EXACT_DISTRIBUTION_TRIALS


@dataclass(frozen=True)
class Simulated:
    """The source's experiment to run beside the exact numbers: ``runs`` runs on the
    generator ``generator`` (``"numpy"`` or ``"rogue"``) seeded with ``seed``."""

    runs: int
    generator: str = "numpy"
    seed: int = 0

    def __post_init__(self) -> None:
        whole_number("runs", self.runs, 2)
        if self.generator not in ("numpy", "rogue"):
            raise ModelError(f"generator must be numpy or rogue, got {self.generator!r}")
        if self.generator == "numpy":
            whole_number("seed", self.seed, 0)


def _simulation(
    table: PRDTable, trials: int, simulated: Simulated, mean: Fraction, variance: Fraction
) -> dict[str, Any]:
    """The source's experiment on the chosen generator, next to the exact moments (the
    standardised differences are left out when the exact variance is 0)."""
    source = random_source(simulated.generator, simulated.seed)
    counts = simulate_hits(table, trials, simulated.runs, source).hits
    sample_mean, sample_variance = float(counts.mean()), float(counts.var(ddof=1))
    spread, runs = float(variance), simulated.runs
    return {
        "generator": simulated.generator,
        "runs": runs,
        "mean": sample_mean,
        "mean_z": (sample_mean - float(mean)) / (spread / runs) ** 0.5 if spread else None,
        "variance": sample_variance,
        "variance_over_exact": sample_variance / spread if spread else None,
    }


@dataclass(frozen=True, eq=False)
class PRDReport(Report):
    """A PRD table analysed over a number of trials."""

    table: PRDTable = field(repr=False)
    trials: int
    payload: dict[str, Any] = field(repr=False)
    rows: list[tuple[str, Fraction]] = field(repr=False)

    def _build(self) -> dict[str, Any]:
        return self.payload

    def text(self) -> str:
        """The report for people."""
        return text_of(self.payload, self.rows)

    def figure(self) -> Any:
        """The hits against Bernoulli trials (matplotlib axes)."""
        from .figures import hits_figure

        return hits_figure(self.table, self.trials)


def prd_report(
    table: PRDTable,
    trials: int,
    *,
    given: dict[str, Any] | None = None,
    exact_distribution: bool = False,
    gaps: int | None = None,
    longest_run: bool = False,
    simulated: Simulated | None = None,
) -> PRDReport:
    """Analyse ``table`` over ``trials`` trials (``given``: how the table was written, for
    the JSON): the distribution of hits exactly when ``exact_distribution`` or up to
    :data:`EXACT_DISTRIBUTION_TRIALS` trials, ``gaps`` gaps listed (twice the table, at
    most 40, by default), the longest run of misses when ``longest_run``, and the source's
    experiment when ``simulated``. Refused up front when it would take minutes."""
    exact_distribution = distribution_is_exact(trials, exact_distribution)
    listed = min(2 * table.size, 40) if gaps is None else gaps
    check_work(table, trials, exact_distribution, listed)
    rate = table.rate()
    result: dict[str, Any] = {**exact_list_fields("odds", table.odds), **(given or {})}
    result |= exact_fields("rate", rate)
    result["wraps"] = table.wraps
    result |= exact_fields("wrap_probability", table.wrap_probability)
    result |= exact_fields("gap_mean", table.gap_mean())
    result |= exact_fields("gap_variance", table.gap_variance())
    result |= exact_map_fields("gaps", dict(table.gaps(listed).exact_items()))
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
    if longest_run:
        longest = longest_miss_run(table, trials)
        result |= exact_map_fields("longest_miss_run_at_least", dict(longest.items()))
    if simulated is not None:
        result["simulation"] = _simulation(table, trials, simulated, mean, variance)
    rows = [
        ("activation rate", rate),
        ("mean gap", table.gap_mean()),
        (f"mean hits in {trials}", mean),
        ("variance of hits", variance),
        ("Bernoulli variance", to_fraction(bernoulli)),
    ]
    if bernoulli:
        rows.append(("variance ratio", to_fraction(exact_variance / bernoulli)))
    return PRDReport(table, trials, result, rows)


def _constant_payload(target: Fraction, constant: Any) -> dict[str, Any]:
    """The constant :math:`C` of the table :math:`\\min(1, C(k+1))` of rate ``target``."""
    low, high = constant.interval
    expression, minimal = constant.expression, constant.minimal_polynomial
    if expression is None:
        form = "interval"
    elif expression.is_Rational:
        form = "rational"
    else:
        from sympy import CRootOf

        form = "root_of" if expression.has(CRootOf) else "radicals"
    return {
        "shape": "p_k = min(1, C*(k+1))",
        **exact_fields("target_rate", target),
        "constant": None if expression is None else str(expression),
        "constant_decimal": constant.decimal(30),
        **exact_list_fields("constant_interval", [low, high]),
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


@dataclass(frozen=True, eq=False)
class ConstantReport(Report):
    """The constant of a linear table for a target rate."""

    payload: dict[str, Any]
    expression: Any = None

    def _build(self) -> dict[str, Any]:
        return self.payload

    def text(self) -> str:
        """The report for people."""
        return constant_text(self.payload, self.expression)


def constant_report(target: Fraction) -> ConstantReport:
    """The constant :math:`C` of the table :math:`\\min(1, C(k+1))` whose rate is
    ``target`` (above 0), exactly where it has a closed form, always certified."""
    if target <= 0:
        raise UsageError(
            f"the target rate must be above 0 (a rate of 0 needs no table), got {target}"
        )
    constant = linear_constant(target)
    return ConstantReport(_constant_payload(target, constant), constant.expression)


def constant_text(result: dict[str, Any], expression: Any) -> str:
    """The constant's report for people (``expression``: its closed form, if found)."""
    lines = [f"PRD constant C for a rate of {result['target_rate']} with p_k = min(1, C(k+1))"]
    low, high = (Fraction(end) for end in result["constant_interval"])
    if expression is None:
        lines.append(f"  C  {enclosure_text(low, high)}")
    else:
        lines.append(f"  C  {exact_text(expression)}")
        form = _CONSTANT_FORMS[result["form"]]
        degree = result["minimal_polynomial_degree"]
        if degree is not None and result["form"] != "rational":
            form += f" (degree {degree})"
        if low == high:
            lines.append(f"  C is {form}")
        else:
            width = bound_text(high - low)
            lines.append(f"  C is {form}; --json gives ends within {width} of it")
        polynomial = result["minimal_polynomial"]
        if result["form"] != "rational" and polynomial and len(polynomial) <= _SHOWN_POLYNOMIAL:
            lines.append(f"  its minimal polynomial  {polynomial}")
    if result["minimal_polynomial_degree"] is None:
        lines.append(
            f"  a root of a*E[G](C) - b, degree {result['defining_polynomial_degree']:,} "
            f"(not factored above {MAX_INVERSE_ENTRIES:,} entries)"
        )
    lines.append(f"  table of {count_text(result['entries'], 'entry', 'entries')}")
    return "\n".join(lines)


#: The longest minimal polynomial the text writes out (``--json`` has any).
_SHOWN_POLYNOMIAL = 160
#: How the constant is written, in words.
_CONSTANT_FORMS = {
    "rational": "rational",
    "radicals": "written in radicals, a root of its minimal polynomial",
    "root_of": "a root of its minimal polynomial",
}


def text_of(result: dict[str, Any], rows: list[tuple[str, Fraction]]) -> str:
    entries = count_text(len(result["odds"]), "entry", "entries")
    lines = [f"PRD table of {entries} ({'wraps' if result['wraps'] else 'never wraps'})"]
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
