r"""Theorem (Fighting Fantasy round odds, paper Eq. 2-4).

Let :math:`Y` be the opponent's 2d6 minus the hero's 2d6 and :math:`\Delta` the skill
difference. For every integer :math:`\Delta`,

.. math::

    P(\text{win}) = \frac{1}{6^4}\sum_{k < \Delta + 10} c_k,\qquad
    P(\text{draw}) = \frac{c_{\Delta + 10}}{6^4},\qquad
    P(\text{lose}) = \frac{1}{6^4}\sum_{k > \Delta + 10} c_k,

where :math:`c_k = [x^k]\,(1 + x + \cdots + x^5)^4` (zero outside :math:`0..20`).

Proof. :math:`Y + 10 = (c - 1) + (d - 1) + (6 - a) + (6 - b)` for the four dice
:math:`a, b` (hero) and :math:`c, d` (opponent), a sum of four independent uniform
variables on :math:`0..5`, whose generating function is
:math:`\bigl((1 + \cdots + x^5)/6\bigr)^4`. The hero wins the round iff
:math:`Y < \Delta`, i.e. :math:`Y + 10 < \Delta + 10`. The tests compute the coefficients
with sympy and compare, for :math:`\Delta \in -12..12` (the issue's range, beyond the
:math:`\pm 10` where one side always wins), the three sums with
:func:`~exactprob.games.fighting_fantasy.round_counts` (which the solver uses) and with a
listing of all :math:`6^4` rolls.
"""

import itertools

import pytest
import sympy

from exactprob.games.fighting_fantasy import round_counts

x = sympy.Symbol("x")
COEFFICIENTS = sympy.Poly(sympy.expand(sum(x**k for k in range(6)) ** 4), x).all_coeffs()[::-1]


def c(k: int) -> int:
    return int(COEFFICIENTS[k]) if 0 <= k < len(COEFFICIENTS) else 0


def test_row_is_the_spec_row() -> None:
    assert [c(k) for k in range(12)] == [1, 4, 10, 20, 35, 56, 80, 104, 125, 140, 146, 140]
    assert sum(c(k) for k in range(21)) == 6**4


@pytest.mark.parametrize("delta", range(-12, 13))
def test_round_odds_are_generating_function_sums(delta: int) -> None:
    k = delta + 10
    win = sum(c(j) for j in range(k))
    draw = c(k)
    lose = sum(c(j) for j in range(k + 1, 21))
    assert round_counts(delta) == (win, draw, lose)
    listed = [0, 0, 0]
    for a, b, cc, d in itertools.product(range(1, 7), repeat=4):
        y = cc + d - a - b
        listed[0 if y < delta else 1 if y == delta else 2] += 1
    assert tuple(listed) == (win, draw, lose)
