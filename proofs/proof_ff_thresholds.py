r"""Theorem (when a luck test pays in one round, paper Eq. 16-17).

With a luck test succeeding with probability :math:`\lambda`:

* after a won round, the expected damage dealt is :math:`2` without the test and
  :math:`4\lambda + (1 - \lambda) = 1 + 3\lambda` with it, which is larger iff
  :math:`\lambda > 1/3`; the smallest luck with :math:`P(2d6 \le l) > 1/3` is
  :math:`l = 6` (:math:`15/36`; :math:`l = 5` gives :math:`10/36`);
* after a lost round, the expected damage taken is :math:`2` without the test and
  :math:`\lambda + 3(1 - \lambda) = 3 - 2\lambda` with it, which is smaller iff
  :math:`\lambda > 1/2`, first met at :math:`l = 7` (:math:`21/36`; :math:`l = 6` gives
  :math:`15/36`);
* with a lucky hit of 3 (``amplify3``) the offensive test pays iff
  :math:`3\lambda + (1 - \lambda) > 2`, :math:`\lambda > 1/2`, from :math:`l = 7` too.

Proof. Linear inequalities in :math:`\lambda`, solved by sympy below; the luck values come
from the exact distribution of 2d6. These are one-round (myopic) statements: the optimal
policy also weighs the luck point spent, which is why the atlas's choices differ from them.
"""

import sympy

from exactprob import dice
from exactprob.games.fighting_fantasy import luck_probability, thresholds

lam = sympy.Symbol("lambda", positive=True)


def test_inequalities_by_sympy() -> None:
    offensive = sympy.solve_univariate_inequality(4 * lam + (1 - lam) > 2, lam, relational=False)
    defensive = sympy.solve_univariate_inequality(lam + 3 * (1 - lam) < 2, lam, relational=False)
    assert offensive == sympy.Interval.open(sympy.Rational(1, 3), sympy.oo)
    assert defensive == sympy.Interval.open(sympy.Rational(1, 2), sympy.oo)


def test_luck_values() -> None:
    two_dice = dice(2, 6)
    assert [two_dice.cdf(l) for l in (5, 6, 7)] == [
        sympy.Rational(10, 36),
        sympy.Rational(15, 36),
        sympy.Rational(21, 36),
    ]
    found = thresholds()
    assert (found["offensive"].probability, found["offensive"].luck) == (sympy.Rational(1, 3), 6)
    assert (found["defensive"].probability, found["defensive"].luck) == (sympy.Rational(1, 2), 7)
    assert luck_probability(5) < sympy.Rational(1, 3) < luck_probability(6)
    assert luck_probability(6) < sympy.Rational(1, 2) < luck_probability(7)


def test_lucky_hit_of_three() -> None:
    found = thresholds(lucky_hit=3)
    assert (found["offensive"].probability, found["offensive"].luck) == (sympy.Rational(1, 2), 7)
