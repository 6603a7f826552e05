r"""Rigorous round-off bounds: when a float comparison is as good as an exact one.

The solver picks optimal actions by comparing action values. It first compares them in
floats, and trusts a float comparison only when the gap is wider than a proven bound on
the rounding error; otherwise it compares the exact rationals. So the choice is exactly
the exact choice, and exact ties are always found by exact comparison.

The bound. Let :math:`u = 2^{-53}` and let every exact input :math:`x` (a probability or
a value) be converted to a float :math:`\hat x` with :math:`|\hat x - x| \le 2u|x| + \eta`,
where :math:`\eta = 2^{-1074}` covers the subnormal range (``float(mpq)`` is faithful: at
most one unit in the last place). A probability's error is multiplied by a value of up
to :math:`2^{1000}`, so probabilities must convert with no absolute part: each is 0 or
at least :math:`2^{-1022}` (:func:`approx_probability` turns a smaller one into NaN,
which makes every bound that involves it infinite). The float dot product
:math:`\hat Q = \mathrm{fl}(\sum_{i=1}^{n} \hat p_i \hat v_i)` then satisfies
(Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1, with the input
errors added)

.. math::

    |\hat Q - Q| \le \bigl((1 + 2u)^2 (1 + \gamma_n) - 1\bigr) \sum_i |p_i v_i|
    + n \eta\,(1 + |p_i| + |v_i|)
    \le (n + 8)\, 2u\, \hat S + (n + 2)\, 2^{-1070},

with :math:`\gamma_n = nu / (1 - nu)` and :math:`\hat S = \mathrm{fl}(\sum_i |\hat p_i
\hat v_i|)`, for :math:`n u < 1/100` and values below :math:`2^{1000}` (the factor 2 on
:math:`u` absorbs the difference between :math:`\hat S` and the exact sum). A value
outside that range is reported as not finite, and the caller compares exactly.

>>> error_bound(2, 1.0) > 0
True
>>> certainly_less(0.25, error_bound(2, 0.25), 0.5, error_bound(2, 0.5))
True
>>> certainly_less(0.5, 0.0, 0.5, 0.0)
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from operator import mul
from typing import Any

import numpy as np

__all__ = [
    "SAFETY",
    "TWO_U",
    "UNIT_ROUNDOFF",
    "approx",
    "approx_probability",
    "certainly_less",
    "error_bound",
    "error_bounds",
    "float_dot",
]

#: The unit round-off of IEEE double precision, :math:`u = 2^{-53}`: a rounded operation
#: in the normal range errs by at most :math:`u` times its exact result.
UNIT_ROUNDOFF = 2.0**-53
#: Twice the unit round-off, :math:`2u = 2^{-52}`.
TWO_U = 2 * UNIT_ROUNDOFF
#: Enlarges a bound computed in floats so that the rounding of its own few operations
#: (each off by at most :math:`u`) cannot leave it too small.
SAFETY = 1.0 + 2.0**-40
#: The absolute term per operation for the subnormal range (generous: :math:`2^{-1070}`).
TINY = 2.0**-1070
#: Magnitudes at or above this are not bounded here (the caller compares exactly).
LIMIT = 2.0**1000
#: The smallest positive normal double: probabilities below it are not bounded here.
NORMAL = 2.0**-1022


def approx(x: Any) -> float:
    """``float(x)`` for an exact rational, ``inf`` when it is out of range.

    >>> from gmpy2 import mpq
    >>> approx(mpq(1, 4)), approx(mpq(10**400))
    (0.25, inf)
    """
    try:
        return float(x)
    except OverflowError:
        return math.inf


def approx_probability(p: Any) -> float:
    """:func:`approx` of an exact edge weight (a probability, or a reward), or NaN when it
    is not 0 and below :data:`NORMAL` in magnitude: there its rounding error is not
    relative, so no bound of this module holds, and NaN makes them infinite (the caller
    compares exactly).

    >>> from gmpy2 import mpq
    >>> approx_probability(mpq(1, 3)), approx_probability(mpq(1, 2**1023))
    (0.3333333333333333, nan)
    >>> approx_probability(mpq(-5, 2)), approx_probability(mpq(10**400))
    (-2.5, inf)
    """
    return approx(p) if p == 0 or abs(p) >= NORMAL else math.nan


def error_bound(n: int, magnitude: float) -> float:
    """A bound on :math:`|\\hat Q - Q|` for a float dot product of ``n`` terms whose
    absolute terms sum (in floats) to ``magnitude``; ``inf`` when out of range.

    >>> error_bound(3, 0.0) == 5 * TINY
    True
    """
    if not magnitude < LIMIT:  # also catches inf and nan
        return math.inf
    return (n + 8) * TWO_U * magnitude + (n + 2) * TINY


def float_dot(
    probs: Iterable[float], values: Iterable[float], nonnegative: bool = False
) -> tuple[float, float]:
    """The float dot product :math:`\\hat Q = \\mathrm{fl}(\\sum_i \\hat p_i \\hat v_i)` and its
    :func:`error_bound`; ``nonnegative`` (every value at least 0) lets :math:`\\hat Q`
    itself be the magnitude.

    >>> q, err = float_dot([0.5, 0.5], [1.0, -1.0])
    >>> q, err == error_bound(2, 1.0)
    (0.0, True)
    """
    terms = list(map(mul, probs, values))
    q = sum(terms)
    return q, error_bound(len(terms), q if nonnegative else sum(map(abs, terms)))


def error_bounds(n: np.ndarray, magnitude: np.ndarray, two_u: float = TWO_U) -> np.ndarray:
    """:func:`error_bound` for arrays of term counts and magnitudes, in an arithmetic
    whose unit round-off is ``two_u / 2`` (default: double precision; the result has
    the magnitudes' type).

    >>> error_bounds(np.array([3, 3]), np.array([0.0, np.inf])).tolist() == [5 * TINY, math.inf]
    True
    """
    finite = magnitude < LIMIT  # False for inf and nan
    bound = (n + 8) * two_u * np.where(finite, magnitude, 0.0) + (n + 2) * TINY
    return np.where(finite, bound, math.inf)


def certainly_less(a: float, a_error: float, b: float, b_error: float) -> bool:
    """Whether the exact numbers ``A`` and ``B`` within the given errors of the floats
    ``a`` and ``b`` certainly satisfy ``A < B``.

    The difference ``b - a`` is itself rounded (relative error at most :math:`u`), hence
    the margin of 1.001 on the summed errors.
    """
    return b - a > (a_error + b_error) * 1.001
