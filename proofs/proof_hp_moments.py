r"""Theorem (moments of hit-point dice).

Let :math:`H = b + \sum_{i=1}^{L N} D_i`, where :math:`D_1, \dots, D_{LN}` are independent
and uniform on :math:`\{1, \dots, S\}` (:math:`L` levels of :math:`N\mathrm{d}S` from a base
of :math:`b`). Then

.. math::

    E[H] = b + L N \frac{S + 1}{2}, \qquad \operatorname{Var}[H] = L N \frac{S^2 - 1}{12}.

Proof. For one die, :math:`E[D] = \frac1S \sum_{k=1}^{S} k = \frac{S+1}{2}` and
:math:`E[D^2] = \frac1S \sum_{k=1}^{S} k^2 = \frac{(S+1)(2S+1)}{6}`, so
:math:`\operatorname{Var}[D] = E[D^2] - E[D]^2 = \frac{S^2-1}{12}`; sympy evaluates both
sums in closed form for a symbolic :math:`S` and checks the identity. Expectation is
linear, and the variance of a sum of independent variables is the sum of their
variances; the constant :math:`b` moves the mean only. The symbolic result is checked
equal to :func:`~exactprob.games.roguelike.hit_points.dice.closed_form_moments`, and both are
checked exactly against the mean and variance of the engine's exact distribution for
every :math:`S \le 12`, :math:`N \le 5`, :math:`L \le 4` and the source's cases
:math:`12 + 8\mathrm{d}10` and :math:`12 + 40\mathrm{d}2`.
"""

from fractions import Fraction
from itertools import product

import sympy

from exactprob.games.roguelike.hit_points.dice import closed_form_moments, hit_points

S, N, L, b, k = sympy.symbols("S N L b k", integer=True, positive=True)


def one_die_moments() -> tuple[sympy.Expr, sympy.Expr]:
    """Mean and variance of one uniform die on 1..S, by symbolic summation."""
    mean = sympy.summation(k, (k, 1, S)) / S
    square = sympy.summation(k**2, (k, 1, S)) / S
    return sympy.simplify(mean), sympy.simplify(square - mean**2)


def test_one_die_by_summation() -> None:
    mean, variance = one_die_moments()
    assert sympy.simplify(mean - (S + 1) / 2) == 0
    assert sympy.simplify(variance - (S**2 - 1) / 12) == 0


def test_sum_of_dice_matches_closed_form_symbolically() -> None:
    mean, variance = one_die_moments()
    total_mean = b + L * N * mean  # linearity of expectation
    total_variance = L * N * variance  # independent summands: variances add
    formula_mean, formula_variance = closed_form_moments(N, S, L, b)
    assert sympy.simplify(total_mean - formula_mean) == 0
    assert sympy.simplify(total_variance - formula_variance) == 0


def test_exact_distributions_match_over_a_range() -> None:
    cases = list(product(range(1, 13), range(1, 6), range(5)))
    cases += [(10, 1, 8), (2, 5, 8)]  # the source's 12 + 8d10 and 12 + 40d2
    for sides, count, levels in cases:
        dist = hit_points(f"{count}d{sides}", levels, 12)
        mean, variance = closed_form_moments(count, sides, levels, 12)
        assert (dist.mean(), dist.variance()) == (mean, variance), (sides, count, levels)
        assert isinstance(mean, Fraction) and isinstance(variance, Fraction)
