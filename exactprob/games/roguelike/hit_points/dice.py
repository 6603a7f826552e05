r"""Dice for hit points: Rogue's 1d10 per level against 5d2 per level, exactly.

A hero starts with ``base`` hit points and gains ``NdS`` at each of ``levels`` level-ups,
so the total is

.. math::

   H = b + \sum_{i=1}^{L N} D_i, \qquad D_i \text{ independent, uniform on } 1, \dots, S,

with mean and variance (proved in ``proofs/proof_hp_moments.py``)

.. math::

   E[H] = b + L N \frac{S + 1}{2}, \qquad \operatorname{Var}[H] = L N \frac{S^2 - 1}{12}.

Rogue 3.6.3 gives 1d10 per level: 8 levels from 12 hit points make ``12 + 8d10``. The
source's alternative of 5d2 per level makes ``12 + 40d2``.

>>> summary = DistributionSummary.of(hit_points("1d10", levels=8, base=12))
>>> summary.mean, summary.variance, summary.sd
(Fraction(56, 1), Fraction(66, 1), sqrt(66))
>>> [(str(q), x) for q, x in summary.quantiles]
[('0', 20), ('1/4', 50), ('1/2', 56), ('3/4', 62), ('1', 92)]

On Rogue's generator the source's simulation of ``12 + 40d2`` always gives 72: ``rnd(2)``
is bit 1 of the seed, which runs 0, 0, 1, 1 (in some rotation) with period 4, so any 40
consecutive draws hold exactly 20 ones.

>>> from exactprob.games.roguelike.rng import RogueRandom
>>> heroes = simulate_hit_points(RogueRandom(1), "5d2", levels=8, base=12, runs=1000)
>>> sorted(set(heroes.totals.tolist()))
[72]
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ....engine import Dist, RandomSource, Runs, dice
from ....errors import ModelError
from ....util.display import JsonDisplay
from ....util.fields import ReportField, json_fields
from ....util.numbers import decimal_string, exact_fields, to_fraction, to_sympy, whole_number

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "QUANTILE_LEVELS",
    "ROGUE_BASE",
    "ROGUE_LEVELS",
    "Comparison",
    "DiceSpec",
    "DistributionSummary",
    "SimulatedHitPoints",
    "closed_form_moments",
    "compare",
    "hit_points",
    "parse_dice_spec",
    "plot_distributions",
    "simulate_hit_points",
]

#: Rogue 3.6.3: 12 hit points to start with, and the source's 8 level-ups.
ROGUE_BASE = 12
ROGUE_LEVELS = 8
#: The summary's quantile levels: 0, 25, 50, 75 and 100 %.
QUANTILE_LEVELS = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))

MAX_DICE = 10_000
"""The most dice in one roll ``NdS``, and the most dice in all levels together."""
MAX_SIDES = 10_000
MAX_LEVELS = 10_000
MAX_BASE = 10**12
MAX_RUNS = 10**7
"""The most heroes one simulation holds (their totals take 8 bytes each)."""
MAX_DIGITS = 5_000_000
r"""Outcomes times the digits of each probability's denominator (:math:`LN \log_{10} S`):
the size of the exact distribution, which is what costs time (about 0.2 s per million
with the summary)."""
_SPEC = re.compile(r"([0-9]*)d([0-9]+)")
#: The simulator draws at most this many numbers at a time (memory stays small).
_CHUNK_DRAWS = 1 << 16


@dataclass(frozen=True)
class DiceSpec:
    """A roll of ``count`` dice with ``sides`` sides each (``NdS``).

    >>> DiceSpec(5, 2), str(DiceSpec(5, 2))
    (DiceSpec(count=5, sides=2), '5d2')
    """

    count: int
    sides: int

    def __post_init__(self) -> None:
        whole_number("the number of dice", self.count, 1, MAX_DICE)
        whole_number("the number of sides", self.sides, 1, MAX_SIDES)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


def parse_dice_spec(text: str | DiceSpec) -> DiceSpec:
    """The roll written ``NdS`` or ``dS`` (``N`` from 1 to 10,000 dice of ``S`` from 1 to
    10,000 sides); anything else raises :class:`~exactprob.errors.ModelError`.

    >>> parse_dice_spec(" 5d2 "), parse_dice_spec("d20")
    (DiceSpec(count=5, sides=2), DiceSpec(count=1, sides=20))
    >>> parse_dice_spec("2d6+1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: dice must be written NdS (N dice of S sides, ...), got '2d6+1'
    """
    if isinstance(text, DiceSpec):
        return text
    match = _SPEC.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or len(match.group(1)) > 18 or len(match.group(2)) > 18:
        raise ModelError(
            f"dice must be written NdS (N dice of S sides, e.g. 1d10 or 5d2), got {text!r}"
        )
    count, sides = match.groups()
    return DiceSpec(int(count or "1"), int(sides))


def _total_dice(spec: DiceSpec, levels: int) -> int:
    """The number of dice rolled over all levels, refused when too large to be exact fast."""
    total = spec.count * levels
    if total > MAX_DICE:
        raise ModelError(
            f"{levels} levels of {spec} roll {total:,} dice; at most {MAX_DICE:,} are allowed"
        )
    digits = (total * (spec.sides - 1) + 1) * total * math.log10(spec.sides)
    if digits > MAX_DIGITS:
        raise ModelError(
            f"{total}d{spec.sides} is too large to compute exactly in seconds "
            f"({digits:,.0f} digits in all, at most {MAX_DIGITS:,}); use fewer dice or sides"
        )
    return total


def hit_points(dice_per_level: str | DiceSpec | Dist[int], levels: int, base: int) -> Dist[int]:
    r"""The exact distribution of ``base`` plus ``levels`` independent rolls of the dice.

    ``dice_per_level`` is ``"NdS"`` text, a :class:`DiceSpec`, or any ``Dist`` of whole
    numbers (one level's gain). The sum of :math:`L` levels is :math:`L` convolutions of
    one level's distribution (``levels @ dist``), shifted by ``base``.

    >>> hit_points("5d2", 8, 12) == 12 + dice(40, 2)
    True
    >>> hit_points("1d10", 8, 12)[20] == Fraction(1, 10**8)  # every die shows 1
    True
    """
    whole_number("levels", levels, 0, MAX_LEVELS)
    whole_number("base", base, 0, MAX_BASE)
    if isinstance(dice_per_level, Dist):
        return base + levels @ dice_per_level
    spec = parse_dice_spec(dice_per_level)
    return base + dice(_total_dice(spec, levels), spec.sides)


def closed_form_moments(count: Any, sides: Any, levels: Any, base: Any) -> tuple[Any, Any]:
    r"""Mean and variance of ``base`` + ``levels`` rolls of ``count`` d``sides`` in closed form:
    :math:`b + LN(S+1)/2` and :math:`LN(S^2-1)/12`. Numbers give ``Fraction``; sympy
    symbols give expressions.

    >>> closed_form_moments(5, 2, 8, 12)
    (Fraction(72, 1), Fraction(10, 1))
    >>> import sympy
    >>> closed_form_moments(*sympy.symbols("N S L b"))
    (L*N*(S + 1)/2 + b, L*N*(S**2 - 1)/12)
    """
    dice_count = levels * count
    if isinstance(dice_count, int):  # whole numbers: exact Fractions, not floats
        dice_count = Fraction(dice_count)
    return base + dice_count * (sides + 1) / 2, dice_count * (sides**2 - 1) / 12


def _sqrt(value: Fraction) -> Any:
    """The exact square root of a non-negative rational as a sympy expression."""
    import sympy

    return sympy.sqrt(to_sympy(value))


@dataclass(frozen=True)
class DistributionSummary(JsonDisplay):
    r"""Exact summary of a distribution of whole numbers.

    The :math:`q`-quantile is the smallest outcome :math:`x` with :math:`P(X \le x) \ge q`,
    compared exactly; for :math:`q = 0` that is the smallest outcome. ``sd`` is
    :math:`\sqrt{\operatorname{Var} X}` as a sympy expression; ``modes`` are all the outcomes
    of the largest probability (exact ties included).

    >>> s = DistributionSummary.of(dice(3, 6))
    >>> s.modes, s.mode_probability, s.sd, s.sd_decimal(4)
    ((10, 11), Fraction(1, 8), sqrt(35)/2, '2.9580')
    """

    mean: Fraction
    variance: Fraction
    sd: Any
    minimum: int
    maximum: int
    quantiles: tuple[tuple[Fraction, int], ...]
    modes: tuple[int, ...]
    mode_probability: Fraction

    @classmethod
    def of(
        cls, dist: Dist[int], levels: Sequence[Fraction] = QUANTILE_LEVELS
    ) -> DistributionSummary:
        """Summarise ``dist`` (rational probabilities) with quantiles at ``levels``."""
        outcomes = list(dist)
        variance = dist.variance()
        top = max(q for _, q in dist.exact_items())  # the engine's mpq: no Fraction per outcome
        return cls(
            mean=dist.mean(),
            variance=variance,
            sd=_sqrt(variance),
            minimum=outcomes[0],
            maximum=outcomes[-1],
            quantiles=tuple((q, outcomes[0] if q == 0 else dist.quantile(q)) for q in levels),
            modes=tuple(sorted(x for x, q in dist.exact_items() if q == top)),
            mode_probability=to_fraction(top),
        )

    def sd_decimal(self, digits: int = 12) -> str:
        """The standard deviation as a decimal, rounded to ``digits`` places."""
        return decimal_string(self.sd, digits)

    def moments(self) -> list[ReportField]:
        """The mean, variance and standard deviation, for the JSON and the text."""
        return [
            ReportField("mean", "mean", self.mean),
            ReportField("variance", "variance", self.variance),
            ReportField("sd", "standard deviation", self.sd),
        ]

    def to_json(self) -> dict[str, Any]:
        """Exact values as ``"p/q"`` strings, each with a ``_decimal`` twin."""
        return {
            **json_fields(self.moments()),
            "min": self.minimum,
            "max": self.maximum,
            "quantiles": {str(q): x for q, x in self.quantiles},
            "modes": list(self.modes),
            **exact_fields("mode_probability", self.mode_probability),
        }


@dataclass(frozen=True)
class Comparison(JsonDisplay):
    r"""Two independent hit-point totals :math:`A` and :math:`B` side by side.

    ``p_greater``, ``p_equal``, ``p_less`` are :math:`P(A > B)`, :math:`P(A = B)`,
    :math:`P(A < B)`, read off the distribution of :math:`A - B`; ``sd_ratio`` is
    :math:`\sigma_A / \sigma_B` exactly (a sympy expression), ``None`` when :math:`B` is a
    constant.
    """

    a: DistributionSummary
    b: DistributionSummary
    p_greater: Fraction
    p_equal: Fraction
    p_less: Fraction
    sd_ratio: Any | None

    @property
    def same_mean(self) -> bool:
        """Whether the two means are exactly equal."""
        return self.a.mean == self.b.mean

    def to_json(self) -> dict[str, Any]:
        """How A and B relate (the summaries have their own ``to_json``)."""
        return {
            "same_mean": self.same_mean,
            **exact_fields("p_a_greater", self.p_greater),
            **exact_fields("p_equal", self.p_equal),
            **exact_fields("p_a_less", self.p_less),
            **(
                exact_fields("sd_ratio", self.sd_ratio)
                if self.sd_ratio is not None
                else {"sd_ratio": None, "sd_ratio_decimal": None}
            ),
        }


def compare(a: Dist[int], b: Dist[int]) -> Comparison:
    r"""Compare independent ``a`` and ``b``: summaries, who wins, and the spread ratio.

    3d6 and 1d20 have the same mean 21/2, but 1d20's spread is larger:
    :math:`\sigma_{3d6}/\sigma_{1d20} = \sqrt{(35/4)/(133/4)} = \sqrt{5/19}`.

    >>> c = compare(dice(3, 6), dice(1, 20))
    >>> c.same_mean, c.sd_ratio, c.p_greater + c.p_equal + c.p_less
    (True, sqrt(95)/19, Fraction(1, 1))
    """
    difference = a - b
    spread_b = b.variance()
    return Comparison(
        a=DistributionSummary.of(a),
        b=DistributionSummary.of(b),
        p_greater=difference.probability(lambda d: d > 0),
        p_equal=difference[0],
        p_less=difference.probability(lambda d: d < 0),
        sd_ratio=_sqrt(a.variance() / spread_b) if spread_b else None,
    )


@dataclass(frozen=True, eq=False)
class SimulatedHitPoints(Runs):
    """Simulated heroes: each one's hit points (int64), the :attr:`result`."""

    totals: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Each hero's hit points."""
        return self.totals


def simulate_hit_points(
    source: RandomSource, per_level: str | DiceSpec, levels: int, base: int, runs: int
) -> SimulatedHitPoints:
    """The source's method: ``runs`` simulated heroes.

    Each die is one ``rnd(S) + 1`` (``source.integers(S, ...) + 1``). The draws are taken in
    row-major order, run by run, level by level, die by die, ``runs * levels * N`` in all, so
    the stream is consumed as a C loop over heroes would consume it.

    >>> from exactprob.engine import NumpyRandom
    >>> totals = simulate_hit_points(NumpyRandom(3), "1d10", 8, 12, runs=5).totals
    >>> totals.shape, bool(((20 <= totals) & (totals <= 92)).all())
    ((5,), True)
    """
    spec = parse_dice_spec(per_level)
    whole_number("levels", levels, 0, MAX_LEVELS)
    whole_number("base", base, 0, MAX_BASE)
    whole_number("runs", runs, 1, MAX_RUNS)
    per_run = spec.count * levels
    totals = np.full(runs, base, dtype=np.int64)
    if per_run == 0:
        return SimulatedHitPoints(totals)
    chunk = max(1, _CHUNK_DRAWS // per_run)
    for start in range(0, runs, chunk):
        stop = min(runs, start + chunk)
        draws = source.integers(spec.sides, (stop - start) * per_run) + 1
        totals[start:stop] += draws.reshape(stop - start, per_run).sum(axis=1)
    return SimulatedHitPoints(totals)


def plot_distributions(named: Sequence[tuple[str, Dist[int]]], axes: Any = None) -> Any:
    """Bar charts of integer distributions side by side, one panel each, on a shared x
    range and y scale; the mean is a black line and the quartiles' span is shaded.

    Parameters
    ----------
    named : sequence of (label, Dist)
        The distributions to draw, left to right.
    axes : sequence of matplotlib Axes, optional
        One per distribution; a new figure (made through pyplot) when omitted.

    Returns
    -------
    list of matplotlib Axes

    >>> ax = plot_distributions([("3d6", dice(3, 6)), ("1d20", dice(1, 20))])
    >>> [a.get_title().split(":")[0] for a in ax]
    ['3d6', '1d20']
    >>> import matplotlib.pyplot as plt; plt.close(ax[0].figure)
    """
    if not named:
        raise ModelError("plot_distributions needs at least one distribution")
    if axes is None:
        import matplotlib.pyplot as plt

        _, grid = plt.subplots(
            1,
            len(named),
            figsize=(4.0 * len(named), 3.2),
            sharex=True,
            sharey=True,
            squeeze=False,
            layout="constrained",
        )
        axes = list(grid[0])
    for ax, (label, dist) in zip(axes, named):
        _bars(ax, label, dist)
    axes[0].set_ylabel("probability")
    return list(axes)


def _bars(ax: Axes, label: str, dist: Dist[int]) -> None:
    """One panel of :func:`plot_distributions` (floats only for drawing)."""
    summary = DistributionSummary.of(dist)
    outcomes = list(dist)
    ax.bar(outcomes, [float(dist[x]) for x in outcomes], width=0.85, color="tab:blue")
    quartiles = dict(summary.quantiles)
    low, high = quartiles[Fraction(1, 4)], quartiles[Fraction(3, 4)]
    ax.axvspan(low - 0.5, high + 0.5, color="tab:orange", alpha=0.2, label="Q1 to Q3")
    ax.axvline(float(summary.mean), color="black", linewidth=1, label="mean")
    ax.set_title(
        f"{label}: mean {decimal_string(summary.mean, 1)}, sd {summary.sd_decimal(2)}",
        fontsize="medium",
    )
    ax.set_xlabel("total")
    ax.legend(fontsize="small", loc="upper left")
