r"""Exact real algebraic numbers: the breakpoints of a piecewise answer.

A real root of a polynomial with integer coefficients is held as a rational (when it is
one) or as a :class:`RealRoot`: an irreducible integer polynomial :math:`f` of degree
:math:`\ge 2`, which of its real roots (counted from the left), and an open interval
:math:`(a, b)` with rational ends holding that root and no other. Since :math:`f` is
irreducible it has no rational root, so bisection never lands on the root, and two
roots are equal exactly when they have the same polynomial and index; distinct roots
are ordered by bisecting until their intervals are disjoint.

>>> from flint import fmpq_poly
>>> roots = real_roots(fmpq_poly([0, -1, 0, 2]))  # 2x^3 - x
>>> [str(r) for r, _ in roots]
['-sqrt(2)/2', '0', 'sqrt(2)/2']
>>> compare(roots[2][0], Fraction(3, 4)), compare(roots[0][0], roots[2][0])
(-1, -1)
>>> simplest_between(Fraction(1, 3), Fraction(1, 2))
Fraction(2, 5)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key, lru_cache, total_ordering
from typing import Any

from flint import fmpq, fmpq_poly, fmpz_poly

__all__ = ["Point", "RealRoot", "compare", "real_roots", "simplest_between", "to_sympy_point"]


@total_ordering
class RealRoot:
    """An irrational real root of an irreducible integer polynomial, isolated exactly.

    ``coefficients`` from the highest degree down (primitive, leading one positive),
    ``index`` its place among the polynomial's real roots, ``low < root < high``.
    """

    __slots__ = ("_low_sign", "_polynomial", "coefficients", "high", "index", "low")

    def __init__(
        self, coefficients: tuple[int, ...], index: int, low: Fraction, high: Fraction
    ) -> None:
        self.coefficients = coefficients
        self._polynomial = fmpz_poly(list(reversed(coefficients)))
        self.index = index
        self.low = low
        self.high = high
        self._low_sign = self._sign_at(low)  # the same at every lower end bisection keeps

    def _sign_at(self, x: Fraction) -> int:
        value = self._polynomial(fmpq(x.numerator, x.denominator))
        return int(value > 0) - int(value < 0)

    def refine(self) -> None:
        """Halve the isolating interval (the midpoint is rational, so never the root)."""
        mid = (self.low + self.high) / 2
        if self._sign_at(mid) == self._low_sign:
            self.low = mid
        else:
            self.high = mid

    def compare_rational(self, q: Fraction) -> int:
        """-1, 0 or 1 as the root is below or above ``q`` (never 0: it is irrational)."""
        while self.low < q < self.high:
            self.refine()
        return -1 if self.high <= q else 1

    def compare_root(self, other: RealRoot) -> int:
        """-1, 0 or 1 as this root is below, equal to or above ``other``."""
        if self.coefficients == other.coefficients and self.index == other.index:
            return 0
        while not (self.high <= other.low or other.high <= self.low):
            self.refine()
            other.refine()
        return -1 if self.high <= other.low else 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RealRoot) and self.compare_root(other) == 0

    def __hash__(self) -> int:
        return hash((self.coefficients, self.index))

    def __lt__(self, other: Any) -> bool:
        return compare(self, other) < 0

    def approx(self, digits: int = 20) -> Fraction:
        """A rational within ``10**-digits`` of the root."""
        while self.high - self.low > Fraction(1, 10**digits):
            self.refine()
        return (self.low + self.high) / 2

    def at(self, numerator: fmpq_poly, denominator: fmpq_poly) -> Any:
        r"""The rational function :math:`N/D` (:math:`D` nonzero at the root) at this
        root, as sympy writes it: :math:`r(\alpha)` where :math:`r \equiv N D^{-1}
        \pmod f` has degree below :math:`f`'s, a canonical form (``a + b*sqrt(c)`` for a
        quadratic root).

        >>> half_root_two = real_roots(fmpq_poly([-1, 0, 2]))[1][0]
        >>> half_root_two.at(fmpq_poly([0, 0, 1]), fmpq_poly([1, 1]))  # x^2/(x + 1)
        1 - sqrt(2)/2
        >>> half_root_two.at(fmpq_poly([1]), fmpq_poly([-1, 0, 2]))
        Traceback (most recent call last):
        ZeroDivisionError: the denominator vanishes at this root
        """
        import sympy

        f = fmpq_poly(list(reversed(self.coefficients)))
        g, inverse, _ = denominator.xgcd(f)  # g = inverse * D + _ * f; f is irreducible
        if g.degree() != 0:
            raise ZeroDivisionError("the denominator vanishes at this root")
        r = (numerator * inverse) % f
        alpha = self.sympy()
        terms = (sympy.Rational(int(c.p), int(c.q)) * alpha**k for k, c in enumerate(r.coeffs()))
        return sympy.expand(sum(terms, sympy.Integer(0)))

    def sympy(self) -> Any:
        """The root as sympy writes it: radicals up to degree two, else ``CRootOf``."""
        import sympy

        x = sympy.Dummy("x")
        f = sympy.Poly(list(self.coefficients), x)
        return sympy.CRootOf(f.as_expr(), self.index, radicals=True)

    def __str__(self) -> str:
        return str(self.sympy())

    def __repr__(self) -> str:
        return f"RealRoot({self.sympy()}, in ({self.low}, {self.high}))"


Point = Fraction | RealRoot


def compare(x: Point, y: Point) -> int:
    """-1, 0 or 1 as ``x`` is below, equal to or above ``y`` (exactly)."""
    if isinstance(x, RealRoot):
        return x.compare_root(y) if isinstance(y, RealRoot) else x.compare_rational(y)
    if isinstance(y, RealRoot):
        return -y.compare_rational(x)
    return (x > y) - (x < y)


def real_roots(polynomial: Any) -> list[tuple[Point, int]]:
    """The distinct real roots of a nonzero polynomial with rational coefficients (a
    ``flint.fmpq_poly``), in increasing order, each with its multiplicity: FLINT factors
    it over the integers, sympy isolates the real roots of each irreducible factor.

    >>> from flint import fmpq_poly
    >>> x = fmpq_poly([0, 1])
    >>> real_roots((2 * x - 1) ** 2 * (x**2 + 1))
    [(Fraction(1, 2), 2)]
    """
    _, factors = polynomial.factor()
    found: list[tuple[Point, int]] = []
    for factor, multiplicity in factors:
        coefficients = tuple(int(c) for c in reversed(factor.coeffs()))  # highest first
        if coefficients[0] < 0:
            coefficients = tuple(-c for c in coefficients)
        found.extend((root, multiplicity) for root in _irreducible_roots(coefficients))
    found.sort(key=lambda item: cmp_to_key(compare)(item[0]))
    return found


@lru_cache(maxsize=4096)
def _irreducible_roots(coefficients: tuple[int, ...]) -> tuple[Point, ...]:
    """The real roots of an irreducible integer polynomial (highest degree first)."""
    if len(coefficients) == 2:
        a, b = coefficients
        return (Fraction(-b, a),)
    import sympy

    x = sympy.Dummy("x")
    intervals = sorted(sympy.Poly(list(coefficients), x).intervals(), key=lambda i: i[0][0])
    return tuple(
        RealRoot(coefficients, index, Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)))
        for index, ((a, b), _) in enumerate(intervals)
    )


def simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The rational with the smallest denominator strictly between ``low < high`` (the
    smallest numerator among those), by walking the Stern-Brocot tree.

    >>> simplest_between(Fraction(0), Fraction(1))
    Fraction(1, 2)
    >>> simplest_between(Fraction(-7, 3), Fraction(5, 2))
    Fraction(0, 1)
    """
    if not low < high:
        raise ValueError(f"empty interval ({low}, {high})")
    floor = low.numerator // low.denominator
    if floor + 1 < high:  # a whole number lies strictly between: the one nearest 0
        if low < 0 < high:
            return Fraction(0)
        if low >= 0:
            return Fraction(floor + 1)
        return Fraction(-(-high.numerator // high.denominator) - 1)
    # floor <= low < high <= floor + 1: floor + 1/y with y simplest in (1/(high-floor),
    # 1/(low-floor)), or above 1/(high-floor) when low is the whole number itself.
    below = 1 / (high - floor)
    if low == floor:
        return floor + 1 / Fraction(below.numerator // below.denominator + 1)
    return floor + 1 / simplest_between(below, 1 / (low - floor))


def to_sympy_point(x: Point) -> Any:
    """A breakpoint as a sympy number."""
    import sympy

    if isinstance(x, RealRoot):
        return x.sympy()
    return sympy.Rational(x.numerator, x.denominator)
