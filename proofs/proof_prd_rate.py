r"""Theorem (the long-run rate of a PRD table, by the renewal argument).

Let a table have entries :math:`p_0, \dots, p_{n-1}` (not all zero), the counter start at 0,
return to 0 after a hit, advance after a miss and wrap after entry :math:`n-1`. With
:math:`S_k = \prod_{i<k} (1 - p_i)` and :math:`q = S_n`, the counter chain has the
stationary chance of a hit

.. math::

    r = \sum_k \pi_k p_k = \frac{1 - q}{\sum_{k=0}^{n-1} S_k},

and the gap :math:`G` between hits (generating function
:math:`F(z) = \sum_k p_k S_k z^{k+1} / (1 - q z^n)`) has :math:`E[G] = 1/r` and
:math:`\operatorname{Var} G = n^2 q/(1-q)^2 + \operatorname{Var} K`,
:math:`P(K = k) = p_k S_k/(1-q)`.

Proof. The stationary equations are :math:`\pi_{k+1} = (1-p_k)\pi_k` for :math:`k < n-1`,
so :math:`\pi_k = \pi_0 S_k`, and :math:`\sum_k \pi_k = 1` gives
:math:`\pi_0 = 1/\sum_k S_k`; the chance of a hit is
:math:`\sum_k \pi_0 S_k p_k = \pi_0 \sum_k (S_k - S_{k+1}) = \pi_0 (1 - q)`. Here sympy
does not take this argument on trust: for every :math:`n \le 5` it solves the stationary
equations of the chain with *symbolic* :math:`p_k` (entry :math:`n-1` symbolic or 1, the
table wrapping or not) and checks the rate formula as an identity of rational functions;
it differentiates :math:`F` symbolically for the gap's mean and variance. The formulas are
then checked equal to :class:`~exactprob.games.roguelike.prd.table.PRDTable`'s exact values on
rational tables.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import sympy

from exactprob.games.roguelike.prd import PRDTable

z = sympy.Symbol("z")


def symbolic_table(n: int, certain_last: bool) -> list[sympy.Expr]:
    entries: list[sympy.Expr] = list(sympy.symbols(f"p0:{n}", positive=True))
    if certain_last:
        entries[-1] = sympy.Integer(1)
    return entries


def stationary_rate(odds: list[sympy.Expr]) -> sympy.Expr:
    """The chance of a hit under the chain's stationary distribution, solved by sympy."""
    n = len(odds)
    pi = sympy.symbols(f"pi0:{n}")
    flow = [sympy.Integer(0)] * n
    for k, p in enumerate(odds):
        flow[0] += pi[k] * p
        flow[(k + 1) % n] += pi[k] * (1 - p)
    equations = [flow[j] - pi[j] for j in range(1, n)] + [sum(pi) - 1]
    solution = sympy.solve(equations, pi, dict=True)[0]
    return sympy.simplify(sum(solution[pi[k]] * p for k, p in enumerate(odds)))


def renewal_rate(odds: list[sympy.Expr]) -> sympy.Expr:
    reach = [sympy.Integer(1)]
    for p in odds:
        reach.append(reach[-1] * (1 - p))
    return (1 - reach[-1]) / sum(reach[:-1])


def gap_generating_function(odds: list[sympy.Expr]) -> sympy.Expr:
    reach = [sympy.Integer(1)]
    for p in odds:
        reach.append(reach[-1] * (1 - p))
    first_pass = sum(p * s * z ** (k + 1) for k, (p, s) in enumerate(zip(odds, reach)))
    return first_pass / (1 - reach[-1] * z ** len(odds))


def test_rate_formula_is_the_stationary_rate() -> None:
    for n, certain_last in product(range(1, 6), (False, True)):
        if n == 1 and certain_last:
            continue
        odds = symbolic_table(n, certain_last)
        difference = sympy.cancel(stationary_rate(odds) - renewal_rate(odds))
        assert difference == 0, (n, certain_last)


def test_gap_mean_is_the_inverse_rate() -> None:
    for n in range(1, 4):
        odds = symbolic_table(n, certain_last=False)
        f = gap_generating_function(odds)
        assert sympy.cancel(f.subs(z, 1) - 1) == 0  # a hit comes almost surely
        mean = sympy.diff(f, z).subs(z, 1)
        assert sympy.cancel(mean - 1 / renewal_rate(odds)) == 0


def gap_variance_from_generating_function(odds: list[Fraction]) -> Fraction:
    f = gap_generating_function([sympy.Rational(p.numerator, p.denominator) for p in odds])
    first = sympy.diff(f, z).subs(z, 1)
    second = sympy.diff(f, z, 2).subs(z, 1)
    variance = sympy.nsimplify(second + first - first**2)
    return Fraction(int(variance.p), int(variance.q))


RATIONAL_TABLES = [
    ["1/2"],
    ["1/4", "1"],
    ["0", "1/3", "1/2"],
    ["1/10", "1/5", "3/10"],
    ["0.03", "0.17", "0.29", "0.37", "0.43", "0.59", "0.83"],
]


def test_engine_matches_the_formulas_on_rational_tables() -> None:
    for entries in RATIONAL_TABLES:
        table = PRDTable.from_odds(entries)
        odds = [sympy.Rational(p.numerator, p.denominator) for p in table.odds]
        assert table.rate() == Fraction(str(stationary_rate(odds)))
        assert table.gap_mean() == 1 / table.rate()
        assert table.gap_variance() == gap_variance_from_generating_function(list(table.odds))
