r"""Rational functions of one variable in FLINT: the fast field for a one-parameter solve.

A chain whose probabilities hold one symbol :math:`p` is solved in the field
:math:`\mathbb{Q}(p)`. sympy's fraction field keeps its polynomials in Python and cancels
every result with a Python gcd; here an element is a pair of FLINT polynomials
``num / den`` with ``den`` monic and ``gcd(num, den) = 1``, and the sums follow Henrici's
rule: with :math:`g = \gcd(d_1, d_2)`,

.. math::

    \frac{n_1}{d_1} + \frac{n_2}{d_2} = \frac{t / h}{(d_1 / g)\,(d_2 / h)},
    \qquad t = n_1 \frac{d_2}{g} + n_2 \frac{d_1}{g},\quad h = \gcd(t, g),

so coprime denominators (the common case) need no gcd at all. The engine's sparse
elimination (:mod:`.linear`) runs unchanged on these elements: a chain of :math:`n`
states costs :math:`O(n)` operations on polynomials of degree up to :math:`n`. Answers go
back to sympy's field :math:`\mathbb{Q}(p)` (:func:`to_sympy_field`).

>>> from sympy import Symbol
>>> from sympy.polys.domains import QQ
>>> K = QQ.frac_field(Symbol("p"))
>>> x = from_sympy_field(K.from_sympy(Symbol("p") / (1 - Symbol("p"))))
>>> x.num, x.den
((-1)*x, x + (-1))
>>> K.to_sympy(to_sympy_field(K, x + 1))
-1/(p - 1)
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_poly

__all__ = ["RationalFunction", "factored", "from_sympy_field", "to_sympy_field"]

_ONE = fmpq_poly([1])


class RationalFunction:
    """``num / den`` in :math:`\\mathbb{Q}(p)`: FLINT polynomials, ``den`` monic, coprime.

    >>> half = RationalFunction.of(fmpq_poly([1]), fmpq_poly([0, 2]))  # 1 / (2x)
    >>> (half + half).num, (half + half).den, half * RationalFunction(fmpq_poly([0, 2])) == 1
    (1, x, True)
    """

    __slots__ = ("den", "num")

    def __init__(self, num: fmpq_poly, den: fmpq_poly = _ONE) -> None:
        self.num, self.den = num, den  # already reduced: see of()

    @classmethod
    def of(cls, num: fmpq_poly, den: fmpq_poly) -> RationalFunction:
        """``num / den`` reduced: the common factor removed, the denominator made monic."""
        g = num.gcd(den)
        if g.degree() > 0:
            num, den = num // g, den // g
        lead = den.coeffs()[-1]
        if lead != 1:
            num, den = num / lead, den / lead
        return cls(num, den)

    def _add(self, other: RationalFunction, sign: int) -> RationalFunction:
        n1, d1, n2, d2 = self.num, self.den, other.num, other.den
        if d1 == d2:
            if d1.degree() == 0:
                return RationalFunction(n1 + sign * n2)
            return RationalFunction.of(n1 + sign * n2, d1)
        g = d1.gcd(d2)
        if g.degree() == 0:  # coprime denominators: the sum is already reduced
            return RationalFunction(n1 * d2 + sign * n2 * d1, d1 * d2)
        e1, e2 = d1 // g, d2 // g
        t = n1 * e2 + sign * n2 * e1
        h = t.gcd(g)
        if h.degree() > 0:
            return RationalFunction(t // h, e1 * (d2 // h))
        return RationalFunction(t, e1 * d2)

    def __add__(self, other: Any) -> Any:
        other = _lift(other)
        return NotImplemented if other is None else self._add(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        other = _lift(other)
        return NotImplemented if other is None else self._add(other, -1)

    def __rsub__(self, other: Any) -> Any:
        other = _lift(other)
        return NotImplemented if other is None else other._add(self, -1)

    def __neg__(self) -> RationalFunction:
        return RationalFunction(-self.num, self.den)

    def __mul__(self, other: Any) -> Any:
        other = _lift(other)
        if other is None:
            return NotImplemented
        n1, d1, n2, d2 = self.num, self.den, other.num, other.den
        g1, g2 = n1.gcd(d2), n2.gcd(d1)  # monic, so the denominators stay monic
        if g1.degree() > 0:
            n1, d2 = n1 // g1, d2 // g1
        if g2.degree() > 0:
            n2, d1 = n2 // g2, d1 // g2
        return RationalFunction(n1 * n2, d1 * d2)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        other = _lift(other)
        if other is None:
            return NotImplemented
        return self * other.inverse()

    def __rtruediv__(self, other: Any) -> Any:
        other = _lift(other)
        return NotImplemented if other is None else other * self.inverse()

    def inverse(self) -> RationalFunction:
        """``den / num``, the denominator made monic; ``ZeroDivisionError`` for zero."""
        if self.num.is_zero():
            raise ZeroDivisionError("division by the zero rational function")
        lead = self.num.coeffs()[-1]
        return RationalFunction(self.den / lead, self.num / lead)

    def __bool__(self) -> bool:
        return not self.num.is_zero()

    def __eq__(self, other: object) -> bool:
        lifted = _lift(other)
        if lifted is None:
            return NotImplemented
        return self.num == lifted.num and self.den == lifted.den

    def __hash__(self) -> int:
        if self.num.degree() <= 0 and self.den.degree() == 0:  # a constant: as the rational
            c = self.num.coeffs()[0] if self.num.degree() == 0 else fmpq(0)
            return hash(Fraction(int(c.p), int(c.q)))
        return hash((str(self.num), str(self.den)))

    def __repr__(self) -> str:
        return f"RationalFunction({self.num!r}, {self.den!r})"


def _lift(x: Any) -> RationalFunction | None:
    """An element as is; a rational constant (``int``, ``mpq``, ``Fraction``, a sympy
    rational) as one; ``None`` for anything else (the operators then return
    ``NotImplemented``)."""
    if isinstance(x, RationalFunction):
        return x
    if isinstance(x, (int, fmpq, numbers.Rational)):
        c = fmpq(x) if isinstance(x, (int, fmpq)) else fmpq(int(x.numerator), int(x.denominator))
        return RationalFunction(fmpq_poly([c]))
    return None


def from_sympy_field(x: Any) -> RationalFunction:
    """An element of sympy's :math:`\\mathbb{Q}(p)` (a ``FracElement``), or a rational
    constant, in FLINT."""
    if hasattr(x, "numer"):
        return RationalFunction.of(_poly(x.numer), _poly(x.denom))
    constant = _lift(x)
    if constant is None:
        raise TypeError(f"not a rational function of one variable: {x!r}")
    return constant


def _poly(f: Any) -> fmpq_poly:
    return fmpq_poly([fmpq(int(c.numerator), int(c.denominator)) for c in reversed(f.to_dense())])


def to_sympy_field(K: Any, x: RationalFunction) -> Any:
    """``x`` as an element of sympy's field ``K``, in the form sympy's ``cancel`` gives
    (integer numerator and denominator without a common factor, the denominator's leading
    coefficient positive), so that it compares equal to the same function sympy computes."""
    if x.num.is_zero():
        return K.zero
    num = x.num.numer() * x.den.denom()  # num / den = (N / a) / (D / b) = N b / (D a)
    den = x.den.numer() * x.num.denom()
    common = num.content().gcd(den.content())
    ring = K.field.ring
    numer = ring.from_list([ring.domain(int(c) // common) for c in reversed(num.coeffs())])
    denom = ring.from_list([ring.domain(int(c) // common) for c in reversed(den.coeffs())])
    return K.field.raw_new(numer, denom)


def factored(x: RationalFunction, symbol: Any) -> Any:
    r"""``x`` as a function of ``symbol`` in the form ``sympy.factor`` gives: a rational
    coefficient times the irreducible factors of the integer numerator and denominator
    (primitive, leading coefficient positive), each to its power. The factors are
    FLINT's, so sympy never brings a long expression over one denominator (its
    ``together``), which took most of a piecewise derivation's time.

    >>> from sympy import Symbol, factor
    >>> p = Symbol("p")
    >>> x = RationalFunction.of(fmpq_poly([3, -2]), fmpq_poly([0, 0, 3]))  # (3 - 2p) / 3p^2
    >>> factored(x, p), factored(x, p) == factor((3 - 2 * p) / (3 * p**2))
    (-(2*p - 3)/(3*p**2), True)
    """
    from sympy import Integer, Mul, Poly, Rational

    if x.num.is_zero():
        return Integer(0)
    coeff, powers = Rational(1), []
    for poly, sign in ((x.num, 1), (x.den, -1)):
        content, factors = poly.numer().factor()
        coeff *= Rational(int(content), int(poly.denom())) ** sign
        for factor, power in factors:
            ints = [int(c) for c in reversed(factor.coeffs())]
            powers.append(Poly(ints, symbol).as_expr() ** (power * sign))
    product = Mul(*powers)
    if product == 1 or coeff == 1:
        return coeff * product
    if coeff == -1:
        return -product
    # sympy.factor keeps the coefficient outside a sum or a product of factors (a
    # Number times a sum would otherwise be multiplied out)
    if product.is_Add:
        return Mul(coeff, product, evaluate=False)
    if product.is_Mul:
        return Mul(coeff, *product.args, evaluate=False)
    return coeff * product
