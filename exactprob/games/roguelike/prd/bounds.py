r"""Certified bounds on the distribution of PRD hits when the exact one is too large.

The exact distribution of hits in :math:`N` trials has :math:`N` entries of about
:math:`N\log_{10} D` digits each (80 MB of digits for :math:`N = 10^4`, :math:`D = 100`).
Here the same chain runs in IEEE binary64 and every entry gets an interval proved to
contain the exact value.

**Error bound.** Every quantity is a sum of products of non-negative numbers, so there is
no cancellation. With unit roundoff :math:`u = 2^{-53}`, one trial rounds each path's
weight at most :math:`n + 2` times (the table entry, the product, at most :math:`n`
additions), and the final sum over counters :math:`n - 1` more times. Away from underflow
each computed entry is therefore :math:`\hat v = v(1+\theta)` with
:math:`|\theta| \le \gamma_m = mu/(1-mu)`, :math:`m = N(n+2) + n`. A product that
underflows adds an absolute error of at most :math:`2^{-1075}` (additions of subnormals
are exact); a trial maps an error vector to one of no larger total (each entry's hit and
miss chances sum to 1), so all these errors together are at most
:math:`\delta = 2 \cdot 2nN(N+1) \cdot 2^{-1075}`. Hence

.. math::

   \frac{\hat v - \delta}{1 + \gamma_m} \le v \le \frac{\hat v + \delta}{1 - \gamma_m},

and the bounds are rounded outward once more. This assumes IEEE round-to-nearest with
gradual underflow, numpy's default; :func:`hits_enclosure` checks that subnormals survive.

>>> from exactprob.games.roguelike.prd import PRDTable
>>> coin = PRDTable.from_odds(["1/2"])
>>> box = hits_enclosure(coin, 4)
>>> box.contains(3, Fraction(4, 16)), box.contains(3, Fraction(5, 16))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ....errors import InexactError
from ....util.rounding import UNIT_ROUNDOFF
from .table import PRDTable
from .trials import check_trials

__all__ = ["HitsEnclosure", "hits_enclosure"]

SMALLEST_ERROR = 2.0**-1074  # twice the largest error of one underflowing product


@dataclass(frozen=True)
class HitsEnclosure:
    """Certified bounds ``lower[h] <= P(H_N = h) <= upper[h]`` for ``h = 0 .. N``."""

    trials: int
    lower: np.ndarray
    upper: np.ndarray
    relative_error: float
    """:math:`\\gamma_m`, the proved relative error before the underflow term."""

    def contains(self, hits: int, probability: Fraction) -> bool:
        """Whether the exact ``probability`` lies in entry ``hits``'s interval (exactly)."""
        low, high = Fraction(float(self.lower[hits])), Fraction(float(self.upper[hits]))
        return low <= probability <= high

    def cdf_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Certified bounds on :math:`P(H_N \\le h)`: cumulative sums of the bounds, widened
        by their own summation error :math:`\\gamma_{N+1}` and rounded outward."""
        widen = (self.trials + 2) * UNIT_ROUNDOFF * 2
        low = np.nextafter(np.cumsum(self.lower) * (1 - widen), 0.0)
        high = np.minimum(np.nextafter(np.cumsum(self.upper) * (1 + widen), np.inf), 1.0)
        return low, high

    def quantile_range(self, q: Fraction) -> tuple[int, int]:
        """The smallest and largest values the ``q``-quantile (the smallest ``h`` with
        :math:`P(H_N \\le h) \\ge q`) can take given the bounds; equal when certified."""
        low, high = self.cdf_bounds()
        at_least = next(h for h in range(self.trials + 1) if Fraction(float(high[h])) >= q)
        at_most = next(
            (h for h in range(self.trials + 1) if Fraction(float(low[h])) >= q), self.trials
        )
        return at_least, at_most

    def widest_relative(self) -> float:
        """The largest ``(upper - lower) / upper`` over entries above the underflow floor."""
        visible = self.upper > 1e-300
        return float(np.max((self.upper[visible] - self.lower[visible]) / self.upper[visible]))


def hits_enclosure(table: PRDTable, trials: int) -> HitsEnclosure:
    """Certified bounds on every :math:`P(H_N = h)` (see the module's error bound).

    >>> from exactprob.games.roguelike.prd import PRDTable
    >>> box = hits_enclosure(PRDTable.from_odds(["0.25", "1"]), 100)
    >>> box.widest_relative() < 1e-12
    True
    """
    check_trials(trials)
    _require_gradual_underflow()
    n = table.size
    hit = np.array([float(p) for p in table.odds])  # float(Fraction) rounds correctly
    miss = np.array([float(1 - p) for p in table.odds])
    weights = np.zeros((n, trials + 1))
    weights[0, 0] = 1.0
    for t in range(trials):
        width = t + 1  # after t trials at most t hits
        now = weights[:, :width]
        restart = np.zeros(width)
        for k in range(n):
            restart += hit[k] * now[k]
        step = np.zeros((n, width + 1))
        step[0, 1:] = restart
        step[1:, :width] = miss[:-1, None] * now[:-1]
        step[0, :width] += miss[-1] * now[-1]
        weights[:, : width + 1] = step
    computed = weights.sum(axis=0)
    m = trials * (n + 2) + n
    gamma = m * UNIT_ROUNDOFF / (1 - m * UNIT_ROUNDOFF)
    delta = 2 * 2 * n * trials * (trials + 1) * SMALLEST_ERROR
    margin = 4 * UNIT_ROUNDOFF  # the rounding of the two operations below
    lower = np.nextafter(np.maximum((computed - delta) * (1 - gamma - margin), 0.0), 0.0)
    upper = np.minimum(np.nextafter((computed + delta) * (1 + 2 * gamma + margin), 1.0), 1.0)
    return HitsEnclosure(trials, lower, upper, gamma)


def _require_gradual_underflow() -> None:
    """Refuse to certify when subnormal numbers are flushed to zero."""
    if not (np.array([SMALLEST_ERROR]) * 1.0)[0] > 0:
        raise InexactError("floating-point subnormals are flushed to zero here; no bounds")
