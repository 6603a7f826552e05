r"""The inverse PRD problem: which constant :math:`C` gives a table a target rate?

For the table :math:`p_k = \min(1, C(k+1))` (Dota 2's PRD) the counter never passes
:math:`m = \lceil 1/C \rceil` entries, so the mean gap is a polynomial in :math:`C`,

.. math::

   E[G](C) = \sum_{k=0}^{m-1} \prod_{i=1}^{k} (1 - iC), \qquad
   C \in \left[\tfrac1m, \tfrac1{m-1}\right],

one polynomial on each such interval (the term :math:`k = m-1` vanishes at the right end,
so the pieces join continuously). Every factor decreases in :math:`C`, so the rate
:math:`1/E[G]` increases: a target rate :math:`r = a/b` has exactly one constant,
the root of :math:`a\,E[G](C) - b` in the interval where the rate crosses :math:`r`.
That root is an algebraic number: a rational, a radical when its minimal polynomial has
degree at most 4, else a sympy ``CRootOf``; it is always given with a rational interval of
width at most :math:`10^{-\text{digits}}` that provably contains it (a sign change of the
exact polynomial).

>>> constant = linear_constant(Fraction(7, 10))  # p = (4/7, 1): gaps 1 or 2, mean 10/7
>>> constant.expression
4/7
>>> linear_table(Fraction(4, 7)).rate()
Fraction(7, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Any

from flint import arb, ctx, fmpq, fmpz_poly
from gmpy2 import mpq

if TYPE_CHECKING:
    import sympy as sp

from ....errors import PRDError
from ....util.numbers import decimal_string
from .table import PRDTable

__all__ = [
    "PRDConstant",
    "certified_root",
    "linear_constant",
    "linear_table",
    "mean_gap_polynomial",
]

MAX_ENTRIES = 100_000
MAX_INVERSE_ENTRIES = 1_000
r"""The longest table for which the constant's minimal polynomial is found (by factoring
:math:`a\,E[G](C) - b`, of degree up to 999: seconds; rates down to about 2.5%). Longer
tables, up to :data:`MAX_ENTRIES` (rates down to about 0.25%), get the certified interval
alone (:func:`certified_root`)."""
NEWTON_STEPS = 60
"""Newton's iteration for :func:`certified_root` stops after this many steps (it takes
about six from the middle of the piece; the certificate decides either way)."""
ROOT_OF_DEGREE = 32
"""Above this degree the constant is given by its interval only: sympy's ``CRootOf`` took
0.9 s at degree 31 (rate 15%) but 145 s at degree 67 (rate 10%)."""


def linear_table(constant: Fraction) -> PRDTable:
    """The table :math:`p_k = \\min(1, C(k+1))`, :math:`k < \\lceil 1/C \\rceil`.

    >>> linear_table(Fraction(2, 5)).odds
    (Fraction(2, 5), Fraction(4, 5), Fraction(1, 1))
    """
    if not 0 < constant <= 1:
        raise PRDError(f"the PRD constant must be in (0, 1], got {constant}")
    entries = ceil(1 / constant)
    if entries > MAX_ENTRIES:
        raise PRDError(
            f"a constant of {constant} needs {entries:,} entries (at most {MAX_ENTRIES:,})"
        )
    return PRDTable(tuple(min(Fraction(1), constant * (k + 1)) for k in range(entries)))


def mean_gap_polynomial(entries: int) -> fmpz_poly:
    """:math:`\\sum_{k<m}\\prod_{i\\le k}(1 - iC)` as an integer polynomial in :math:`C`.

    >>> mean_gap_polynomial(3)  # 1 + (1 - C) + (1 - C)(1 - 2C)
    2*x^2 + (-4)*x + 3
    """
    total, term = fmpz_poly([1]), fmpz_poly([1])
    for i in range(1, entries):
        term *= fmpz_poly([1, -i])
        total += term
    return total


@dataclass(frozen=True)
class PRDConstant:
    """The constant :math:`C` of a linear PRD table with a given rate, exactly."""

    rate: Fraction
    entries: int
    """:math:`m = \\lceil 1/C \\rceil`, the length of the table."""
    minimal_polynomial: Any
    r"""The irreducible integer polynomial (sympy ``Poly`` in ``C``) whose root :math:`C` is,
    or ``None`` above :data:`MAX_INVERSE_ENTRIES` entries (not factored: :math:`C` is then
    known as the root of :math:`a\,E[G](C) - b`, degree :math:`m - 1`, in its interval)."""
    interval: tuple[Fraction, Fraction]
    """A rational interval that provably contains :math:`C`."""
    expression: Any
    """sympy: a Rational, radicals, a ``CRootOf``, or ``None`` above degree 32."""

    def decimal(self, digits: int = 30) -> str:
        """:math:`C` to ``digits`` places after the point, from the interval's midpoint."""
        low, high = self.interval
        return decimal_string((low + high) / 2, digits)


def linear_constant(rate: Fraction, digits: int = 40) -> PRDConstant:
    """The constant :math:`C` with :math:`\\mathrm{rate}(\\min(1, C(k+1))) = r`.

    >>> c = linear_constant(Fraction(1, 4))
    >>> c.entries, c.minimal_polynomial.degree(), c.decimal(6)
    (12, 11, '0.084744')
    """
    if not 0 < rate <= 1:
        raise PRDError(f"the target rate must be in (0, 1], got {rate}")
    import sympy as sp  # a fifth of a second to load: only when a constant is asked for

    if rate == 1:  # the one-entry table (1,): E[G] is the constant 1, no equation to solve
        one = sp.Poly(sp.Symbol("C") - 1, sp.Symbol("C"))
        return PRDConstant(rate, 1, one, (Fraction(1), Fraction(1)), sp.Integer(1))
    entries = _entries_for(rate)
    if entries > MAX_INVERSE_ENTRIES:
        return PRDConstant(rate, entries, None, certified_root(rate, entries, digits), None)
    polynomial = mean_gap_polynomial(entries) * int(rate.numerator) - int(rate.denominator)
    low, high = Fraction(1, entries), Fraction(1, max(entries - 1, 1))
    factor = next(f for f, _ in polynomial.factor()[1] if _changes_sign(f, low, high))
    low, high = _bisect(factor, low, high, Fraction(1, 10**digits))
    poly = sp.Poly(list(reversed([int(c) for c in factor.coeffs()])), sp.Symbol("C"))
    return PRDConstant(rate, entries, poly, (low, high), _expression(poly, low, high))


def _short(rate: Fraction) -> str:
    """``rate`` for a message: as a fraction when short, else as a decimal."""
    text = str(rate)
    return text if len(text) <= 40 else f"{decimal_string(rate, 12)}..."


def _mean_gap_at(constant: Fraction, entries: int) -> mpq:
    r""":math:`E[G](C) = 1 + (1 - C)(1 + (1 - 2C)(1 + \dots))` exactly, by Horner."""
    c, total = mpq(constant.numerator, constant.denominator), mpq(1)
    for i in range(entries - 1, 0, -1):
        total = 1 + (1 - i * c) * total
    return total


def _mean_gap_ball(constant: Fraction, entries: int, bits: int) -> tuple[arb, arb]:
    r""":math:`E[G](C)` and :math:`E[G]'(C)` as balls of ``bits``-bit arithmetic (``arb``),
    which provably contain them: Horner's rule and its derivative,
    :math:`t_i = 1 + (1 - iC)\,t_{i+1}`, :math:`t_i' = (1 - iC)\,t_{i+1}' - i\,t_{i+1}`."""
    with ctx.workprec(bits):
        c, total, slope = _ball(constant), arb(1), arb(0)
        for i in range(entries - 1, 0, -1):
            factor = 1 - i * c
            total, slope = 1 + factor * total, factor * slope - i * total
        return total, slope


def _gap_sign(constant: Fraction, entries: int, gap: Fraction) -> int:
    """The sign of :math:`E[G](C) - g`, certain: from balls of growing precision, and
    from exact rationals if the balls cannot tell (only at an exact root)."""
    for bits in (128, 512, 2048):
        with ctx.workprec(bits):
            difference = _mean_gap_ball(constant, entries, bits)[0] - _ball(gap)
        if difference > 0:
            return 1
        if difference < 0:
            return -1
    exact_difference = _mean_gap_at(constant, entries) - mpq(gap.numerator, gap.denominator)
    return int(exact_difference > 0) - int(exact_difference < 0)


def _ball(x: Fraction) -> arb:
    """A ball holding the rational ``x`` (at the working precision)."""
    return arb(fmpq(x.numerator, x.denominator))


def _entries_for(rate: Fraction) -> int:
    r"""The table length :math:`m` with :math:`r(1/m) \le r \le r(1/(m-1))` (the rate
    falls as :math:`m` grows: doubling, then bisection), at most :data:`MAX_ENTRIES`."""
    if rate == 1:
        return 1
    gap = 1 / rate

    def short(m: int) -> bool:  # the mean gap at C = 1/m falls short of the target's
        return _gap_sign(Fraction(1, m), m, gap) < 0

    if short(MAX_ENTRIES):
        raise PRDError(
            f"a rate of {_short(rate)} needs a table of more than {MAX_ENTRIES:,} entries; "
            f"the inverse problem is solved for rates down to "
            f"{float(1 / _mean_gap_ball(Fraction(1, MAX_ENTRIES), MAX_ENTRIES, 64)[0].mid()):.5f}"
        )
    low, high = 1, 2  # the rate at 1/m falls as m grows: E[G](1/m) rises
    while short(high):
        low, high = high, min(2 * high, MAX_ENTRIES)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if short(middle) else (low, middle)
    return high


def certified_root(rate: Fraction, entries: int, digits: int = 40) -> tuple[Fraction, Fraction]:
    r"""A rational interval of width at most :math:`10^{-\text{digits}}` that provably
    holds the constant :math:`C \in [1/m, 1/(m-1)]` with :math:`E[G](C) = 1/r`, without
    the polynomial's coefficients: Newton's iteration on ball midpoints finds :math:`C`,
    and the signs of :math:`E[G] - 1/r` at the interval's ends, certain in ball arithmetic,
    prove it (:math:`E[G]` decreases on the piece). Linear in :math:`m` per evaluation.

    >>> low, high = certified_root(Fraction(1, 4), 12, digits=20)
    >>> high - low <= Fraction(1, 10**20), decimal_string(low, 6)
    (True, '0.084744')
    """
    gap = 1 / rate
    left, right = Fraction(1, entries), Fraction(1, entries - 1)
    bits = int(digits * 3.33) + 64
    guess = (left + right) / 2
    for _ in range(NEWTON_STEPS):  # E[G] is convex and decreasing here: Newton converges
        total, slope = _mean_gap_ball(guess, entries, bits)
        with ctx.workprec(bits):
            newton = _ball(guess) - (total - _ball(gap)) / slope
        previous, guess = guess, min(max(_fraction(newton), left), right)
        if abs(guess - previous) <= Fraction(1, 10 ** (digits + 4)):
            break
    half = Fraction(1, 10 ** (digits + 1))
    low, high = max(guess - half, left), min(guess + half, right)
    if _gap_sign(low, entries, gap) < 0 or _gap_sign(high, entries, gap) > 0:
        raise PRDError(f"could not certify the constant for a rate of {_short(rate)}")
    return low, high


def _fraction(x: arb) -> Fraction:
    """The exact value of a ball's (dyadic) midpoint."""
    mantissa, exponent = x.mid().man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _value(poly: fmpz_poly, x: Fraction) -> Fraction:
    result = poly(fmpq(x.numerator, x.denominator))
    return Fraction(int(result.p), int(result.q))


def _changes_sign(poly: fmpz_poly, low: Fraction, high: Fraction) -> bool:
    return _value(poly, low) * _value(poly, high) <= 0


def _bisect(
    poly: fmpz_poly, low: Fraction, high: Fraction, width: Fraction
) -> tuple[Fraction, Fraction]:
    """Halve ``[low, high]`` keeping a sign change until it is narrower than ``width``; a
    rational root (a linear factor, or one met on the way) collapses it to a point."""
    if poly.degree() == 1:
        constant, slope = (int(c) for c in poly.coeffs())
        root = Fraction(-constant, slope)
        return root, root
    for end in (low, high):
        if _value(poly, end) == 0:
            return end, end
    while high - low > width:
        middle = (low + high) / 2
        at_middle = _value(poly, middle)
        if at_middle == 0:
            return middle, middle
        if (at_middle > 0) == (_value(poly, low) > 0):
            low = middle
        else:
            high = middle
    return low, high


def _numerically_in(root: Any, low: Fraction, high: Fraction) -> bool:
    """Whether ``root``, to 60 digits, is real and in ``[low, high]`` (widened by 1e-50)."""
    import sympy as sp

    value = sp.N(root, 60)
    real, imaginary = sp.re(value), sp.im(value)
    slack = sp.Rational(1, 10**50)
    return bool(abs(imaginary) < slack and low - slack <= real <= high + slack)


def _expression(poly: sp.Poly, low: Fraction, high: Fraction) -> Any:
    """The root of the irreducible ``poly`` in ``[low, high]`` as a sympy number."""
    import sympy as sp

    if poly.degree() > ROOT_OF_DEGREE:
        return None
    if poly.degree() <= 4:
        # sympy cannot always decide that a radical is real (casus irreducibilis), so the
        # root is picked numerically: the certified interval holds exactly one real root
        inside = [
            root for root in sp.roots(poly, multiple=True) if _numerically_in(root, low, high)
        ]
        if len(inside) == 1:
            return inside[0]
    index = poly.count_roots(None, sp.Rational(low)) - (
        1 if poly.eval(sp.Rational(low)) == 0 else 0
    )
    return sp.CRootOf(poly, index)
