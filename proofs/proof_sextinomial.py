r"""Theorem (the sextinomial row).

For four fair six-sided dice :math:`a, b, c, d`, the number of outcomes with
:math:`a + b - c - d = \Delta` is the coefficient of :math:`x^{\Delta + 10}` in
:math:`(1 + x + x^2 + x^3 + x^4 + x^5)^4`, for every :math:`\Delta \in \{-10, \dots, 10\}`:

.. math::

    P(2d6 - 2d6 = \Delta) = \frac{[x^{\Delta + 10}]\,(1 + x + \cdots + x^5)^4}{6^4}.

Proof. The generating function of one die is :math:`x(1 + \cdots + x^5)`, of its negation
:math:`x^{-1}(1 + \cdots + x^{-5}) = x^{-6}(1 + \cdots + x^5)`. Independent sums multiply
generating functions, so :math:`a + b - c - d` has
:math:`x^2 \cdot x^{-12}\,(1 + \cdots + x^5)^4 / 6^4`: the identity is checked by sympy below
as polynomials in a symbol :math:`x`, and the engine's convolution is checked against the
coefficient list for every :math:`\Delta`.
"""

import sympy

from exactprob import die
from exactprob.engine.symbolic import coefficients, pgf

x = sympy.Symbol("x")
ROW = sum(x**k for k in range(6)) ** 4


def test_generating_function_identity() -> None:
    one_die = sum(x**k for k in range(1, 7)) / 6
    negated_die = sum(x**-k for k in range(1, 7)) / 6
    difference = one_die**2 * negated_die**2
    assert sympy.simplify(difference - x**-10 * ROW / 6**4) == 0


def test_engine_difference_matches_row() -> None:
    row = coefficients(ROW, x)
    assert len(row) == 21 and sum(row) == 6**4
    difference = (die(6) + die(6)) - (die(6) + die(6))
    for delta in range(-10, 11):
        assert difference[delta] == sympy.Rational(row[delta + 10], 6**4)
    assert sympy.expand(pgf(difference, x) * x**10 - ROW / 6**4) == 0
