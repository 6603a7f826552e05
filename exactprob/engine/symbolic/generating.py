r"""Symbolic helpers: probability generating functions and their coefficients.

For an integer-valued distribution :math:`X` the probability generating function is
:math:`G_X(x) = \sum_k P(X = k)\,x^k` (a Laurent polynomial when :math:`X` can be
negative); independent sums multiply generating functions,
:math:`G_{X+Y} = G_X\,G_Y`, which is why dice sums are polynomial powers.

sympy is imported inside the functions, so ``import exactprob`` stays fast.

>>> import sympy
>>> from exactprob import dice
>>> x = sympy.Symbol("x")
>>> pgf(dice(2, 2), x)
x**4/4 + x**3/2 + x**2/4
>>> coefficients((1 + x) ** 3, x)
[1, 3, 3, 1]
"""

from __future__ import annotations

from typing import Any

from ...errors import DistributionError
from ...util.numbers import to_sympy
from ..dist import Dist

__all__ = ["coefficients", "dist_from_pgf", "pgf"]


def pgf(dist: Dist[int], x: Any) -> Any:
    """The probability generating function :math:`\\sum_k P(k) x^k` of an integer ``dist``."""
    if not all(isinstance(k, int) for k in dist):
        raise DistributionError("a generating function needs integer outcomes")
    return sum((to_sympy(q) * x**k for k, q in dist.exact_items()), to_sympy(0))


def coefficients(polynomial: Any, x: Any) -> list[Any]:
    """Coefficients of a polynomial in ``x`` from the constant term up.

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> coefficients(3 * x**2 + 1, x)
    [1, 0, 3]
    """
    import sympy

    return list(reversed(sympy.Poly(sympy.expand(polynomial), x).all_coeffs()))


def dist_from_pgf(g: Any, x: Any) -> Dist[int]:
    r"""The distribution whose generating function is the Laurent polynomial ``g``.

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> dist_from_pgf((x + 1 / x) / 2, x)
    Dist({-1: '1/2', 1: '1/2'})
    """
    import sympy

    expanded = sympy.expand(g)
    low = min((term.as_coeff_exponent(x)[1] for term in sympy.Add.make_args(expanded)), default=0)
    shift = -int(low) if low < 0 else 0
    coeffs = coefficients(sympy.expand(expanded * x**shift), x)
    return Dist({k - shift: c for k, c in enumerate(coeffs) if c != 0})
