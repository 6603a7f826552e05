r"""A certified law of a whole-number total: float probabilities with a proved relative band.

A law computed in floats by sums of products of numbers >= 0, none of them subnormal,
errs *relatively*: each float :math:`\hat p_x` is the exact :math:`p_x` times a factor in
:math:`[\ell, h]`. So

.. math::

    \underline p_x = \frac{\hat p_x}{h} \;\le\; p_x \;\le\; \overline p_x = \frac{\hat p_x}{\ell},

and every answer below is an :class:`~exactprob.engine.enclosure.Enclosure` computed from
these bounds in exact rationals, using :math:`\sum_x p_x = 1`:

- :math:`P(X \le x)` lies in :math:`[\max(\sum_{y \le x} \underline p_y,\, 1 - \sum_{y > x}
  \overline p_y),\ \min(\sum_{y \le x} \overline p_y,\, 1 - \sum_{y > x} \underline p_y)]`;
- the mean :math:`\mu` in :math:`[\sum_x x \underline p_x,\, \sum_x x \overline p_x]`
  (outcomes are >= 0);
- the variance, for any rational :math:`c`, is :math:`\sum_x (x - c)^2 p_x - (\mu - c)^2`:
  the first term in :math:`[\sum (x-c)^2 \underline p_x, \sum (x-c)^2 \overline p_x]`, the
  second between 0 (when :math:`c` may equal :math:`\mu`) and its largest value over
  :math:`\mu`'s enclosure. With :math:`c` near the mean the band stays as narrow as the
  probabilities'.

Two fair coins, computed as if a rounding had made each chance a little large:

>>> import numpy as np
>>> law = CertifiedLaw(np.array([0, 1, 2]), np.array([0.25, 0.5, 0.25]),
...                    Fraction(1) - Fraction(1, 10**9), Fraction(1) + Fraction(1, 10**9))
>>> law.mean().contains(1), law.variance().contains(Fraction(1, 2))
(True, True)
>>> law.cdf(0).contains(Fraction(1, 4)), law.quantile(Fraction(1, 2))
(True, (1, 1))
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from ...errors import UsageError
from ...util.display import rows_html
from ...util.numbers import exact, is_symbolic, to_fraction
from ..enclosure import Enclosure
from ..results import value_fields

__all__ = ["CertifiedLaw"]

#: Bits of the rational ends of a square root's enclosure.
ROOT_BITS = 64


@dataclass(frozen=True, eq=False)
class CertifiedLaw:
    """The law of a whole-number total >= 0 as float probabilities ``floats`` of the
    sorted ``outcomes``, each the exact probability times a factor in ``[low_factor,
    high_factor]``; its answers are certified enclosures. ``undecided`` counts the choices
    the float values could not decide, which the model's tie rule did
    (:mod:`~exactprob.engine.levels.laws`; ``None`` when the model does not say)."""

    outcomes: np.ndarray
    floats: np.ndarray
    low_factor: Fraction
    high_factor: Fraction
    undecided: int | None = None

    def __post_init__(self) -> None:
        outcomes, floats = np.asarray(self.outcomes), np.asarray(self.floats, dtype=np.float64)
        if not (0 < self.low_factor <= 1 <= self.high_factor):
            raise UsageError("a certified law needs 0 < low_factor <= 1 <= high_factor")
        if outcomes.ndim != 1 or not len(outcomes) or floats.shape != outcomes.shape:
            raise UsageError(
                "a certified law needs one float probability per outcome, and outcomes"
            )
        if (np.diff(outcomes) <= 0).any() or (outcomes < 0).any():
            raise UsageError("a certified law's outcomes are whole numbers >= 0, increasing")
        if not (np.isfinite(floats).all() and (floats >= 0).all()):
            raise UsageError("a certified law's probabilities are finite numbers >= 0")

    @cached_property
    def _bounds(self) -> tuple[list[Fraction], list[Fraction]]:
        """Every probability's lower and upper bound, exactly."""
        found = [Fraction(float(p)) for p in self.floats]
        return [p / self.high_factor for p in found], [p / self.low_factor for p in found]

    @cached_property
    def _running(self) -> tuple[list[Fraction], list[Fraction]]:
        """The bounds' running sums, from 0 (so ``[i]`` sums the first ``i``)."""
        lows, highs = self._bounds
        return [Fraction(0), *itertools.accumulate(lows)], [
            Fraction(0),
            *itertools.accumulate(highs),
        ]

    @property
    def relative_error(self) -> Fraction:
        """How far, relatively, a float probability may be from the exact one:
        :math:`\\max(1 - \\ell, h - 1)`."""
        return max(1 - self.low_factor, self.high_factor - 1)

    def probability(self, outcome: int) -> Enclosure:
        """An enclosure of :math:`P(X = \\text{outcome})`."""
        at = int(np.searchsorted(self.outcomes, outcome))
        if at == len(self.outcomes) or self.outcomes[at] != outcome:
            return Enclosure(0, 0)
        lows, highs = self._bounds
        return Enclosure(lows[at], min(Fraction(1), highs[at]))

    def cdf(self, outcome: int) -> Enclosure:
        """An enclosure of :math:`P(X \\le \\text{outcome})`."""
        lows, highs = self._running
        split = int(np.searchsorted(self.outcomes, outcome, side="right"))
        low = max(lows[split], 1 - (highs[-1] - highs[split]))
        high = min(highs[split], 1 - (lows[-1] - lows[split]))
        return Enclosure(max(low, Fraction(0)), min(high, Fraction(1)))

    def quantile(self, q: Any) -> tuple[int, int]:
        """The smallest outcome :math:`x` with :math:`P(X \\le x) \\ge q` lies in the
        returned ``(low, high)`` (equal when the bounds decide it)."""
        level = exact(q)
        if is_symbolic(level) or not 0 < level <= 1:
            raise UsageError(f"a quantile needs 0 < q <= 1, got {q}")
        q = to_fraction(level)
        cdfs = [self.cdf(int(x)) for x in self.outcomes]
        certain = next(x for x, c in zip(self.outcomes, cdfs, strict=True) if c.low >= q)
        possible = next(x for x, c in zip(self.outcomes, cdfs, strict=True) if c.high >= q)
        return int(possible), int(certain)

    def mean(self) -> Enclosure:
        """An enclosure of the mean."""
        lows, highs = self._bounds
        xs = [int(x) for x in self.outcomes]
        return Enclosure(
            sum((x * p for x, p in zip(xs, lows, strict=True)), Fraction(0)),
            sum((x * p for x, p in zip(xs, highs, strict=True)), Fraction(0)),
        )

    def variance(self) -> Enclosure:
        """An enclosure of the variance (module docstring)."""
        mean = self.mean()
        centre = Fraction(float(mean.midpoint()))
        lows, highs = self._bounds
        squares = [(int(x) - centre) ** 2 for x in self.outcomes]
        spread_low = sum((s * p for s, p in zip(squares, lows, strict=True)), Fraction(0))
        spread_high = sum((s * p for s, p in zip(squares, highs, strict=True)), Fraction(0))
        far = max((mean.low - centre) ** 2, (mean.high - centre) ** 2)
        near = (
            Fraction(0)
            if mean.low <= centre <= mean.high
            else min((mean.low - centre) ** 2, (mean.high - centre) ** 2)
        )
        return Enclosure(max(Fraction(0), spread_low - far), spread_high - near)

    def standard_deviation(self) -> Enclosure:
        """An enclosure of the standard deviation (the variance's ends' square roots,
        rounded outwards to :data:`ROOT_BITS` bits)."""
        variance = self.variance()
        return Enclosure(_root(variance.low, up=False), _root(variance.high, up=True))

    def to_json(self) -> dict[str, Any]:
        """The mean and standard deviation (as enclosures), the band, the choices left to
        the tie rule and each outcome's float probability."""
        return {
            **value_fields("mean", self.mean()),
            **value_fields("standard_deviation", self.standard_deviation()),
            "relative_error": repr(float(self.relative_error)),
            "undecided_choices": self.undecided,
            "probabilities": {
                str(int(x)): repr(float(p)) for x, p in zip(self.outcomes, self.floats, strict=True)
            },
        }

    def _repr_html_(self) -> str:
        rows = [
            ("mean", self.mean()._repr_html_()),
            ("standard deviation", self.standard_deviation()._repr_html_()),
            ("outcomes", f"{int(self.outcomes[0])} .. {int(self.outcomes[-1])}"),
            (
                "relative error at most",
                f"{float(self.relative_error):.1e}",
            ),
            (
                "choices left to the tie rule",
                "not said" if self.undecided is None else f"{self.undecided:,}",
            ),
        ]
        return rows_html("Certified law", rows)


def _root(value: Fraction, *, up: bool) -> Fraction:
    """:math:`\\sqrt{\\text{value}}` rounded down (or up) to a multiple of
    :math:`2^{-\\text{ROOT\\_BITS}}`.

    >>> down, up = _root(Fraction(2), up=False), _root(Fraction(2), up=True)
    >>> down**2 < 2 < up**2, up - down == Fraction(1, 2**ROOT_BITS), _root(Fraction(9, 4), up=True)
    (True, True, Fraction(3, 2))
    """
    scale = 4**ROOT_BITS
    scaled = value * scale
    root = math.isqrt(scaled.numerator // scaled.denominator)
    if up and root * root * scaled.denominator != scaled.numerator:
        root += 1
    return Fraction(root, 2**ROOT_BITS)
