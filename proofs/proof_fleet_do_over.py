r"""Theorem (fleet battles: the do-over renormalisation).

Let :math:`f` fighters (one die each, hitting with probability :math:`p`) attack one war
sun (2 hit points, three dice hitting with probability :math:`q`). With
:math:`F = \operatorname{Bin}(f, p)` the fighters' hits and :math:`W = \operatorname{Bin}(3, q)`
the war sun's, and :math:`V(f, w)` the attacker's chance to win with :math:`w` hit points
left on the war sun,

.. math::

    V(f, w) = \frac{1}{1 - P(F = 0)\,P(W = 0)}
              \sum_{(x, y) \ne (0, 0)} P(F = x)\,P(W = y)\,V\bigl(\max(f - y, 0), \max(w - x, 0)\bigr),

with :math:`V(f, 0) = 1` for :math:`f \ge 1` and :math:`V(0, w) = 0` (mutual destruction is
no win). For one fighter,

.. math::

    V(1, 2) = \left(\frac{p\,(1 - q)^3}{1 - (1 - p)(1 - q)^3}\right)^2 ,

which at :math:`p = 1/5`, :math:`q = 4/5` is :math:`1/621^2 = 1/385641`.

Proof. A round in which nobody hits returns to the same state; the number of such
rounds before anything happens is geometric with ratio
:math:`r = P(F = 0)P(W = 0) < 1`, and :math:`\sum_{n \ge 0} r^n = 1/(1 - r)`, which gives
the recursion (the general statement is ``proof_do_over``). For one fighter, the fighter
wins only by scoring a hit in a round in which the war sun misses, twice:
each such event has probability :math:`p (1 - q)^3 / (1 - r)` after renormalisation.
The tests below carry out the recursion in sympy for symbolic :math:`p, q` (up to three
fighters) and require the engine's solver, run on
:class:`~exactprob.games.fleet_battle.FleetBattle` with the same symbolic hit
probabilities, to return the same rational functions; then the numbers at
:math:`p = 1/5, q = 4/5`.
"""

from __future__ import annotations

from functools import cache

import sympy

from exactprob import solve
from exactprob.games.fleet_battle import Fleet, FleetBattle, Unit

p, q = sympy.symbols("p q", positive=True)
NUMBERS = {p: sympy.Rational(1, 5), q: sympy.Rational(4, 5)}


class _SymbolicUnit(Unit):
    """A unit whose die hits with a sympy symbol's probability."""

    __slots__ = ()

    @property
    def hit_probability(self) -> sympy.Expr:  # type: ignore[override]
        return {"fighter": p, "war-sun": q}[self.name]


FIGHTER = _SymbolicUnit("fighter", 1, 9, 1)
WAR_SUN = _SymbolicUnit("war-sun", 2, 3, 3)


#: The field of rational functions in p and q, where the recursion is computed exactly.
FIELD = sympy.QQ.frac_field(p, q)
P, Q = FIELD.gens


def _binomial(n: int, prob: object) -> list[object]:
    return [sympy.binomial(n, k) * prob**k * (1 - prob) ** (n - k) for k in range(n + 1)]


@cache
def _recursion(f: int, w: int) -> object:
    if w == 0:
        return FIELD.one if f > 0 else FIELD.zero
    if f == 0:
        return FIELD.zero
    fighters, war_sun = _binomial(f, P), _binomial(3, Q)
    no_hits = fighters[0] * war_sun[0]
    total = sum(
        (
            fighters[x] * war_sun[y] * _recursion(max(f - y, 0), max(w - x, 0))
            for x in range(f + 1)
            for y in range(4)
            if (x, y) != (0, 0)
        ),
        FIELD.zero,
    )
    return total / (1 - no_hits)


def renormalised(f: int, w: int) -> sympy.Expr:
    """The explicit recursion of the theorem, as a sympy expression."""
    return FIELD.to_sympy(_recursion(f, w))


def solver_value(f: int) -> sympy.Expr:
    return solve(FleetBattle(Fleet((FIGHTER,), (f,)), Fleet((WAR_SUN,), (1,)))).value()


def test_solver_equals_renormalised_recursion() -> None:
    for f in (1, 2, 3):  # equal as elements of Q(p, q): numerator and denominator match
        assert FIELD.from_sympy(solver_value(f)) == _recursion(f, 2)


def test_one_fighter_closed_form() -> None:
    r = (1 - p) * (1 - q) ** 3
    closed = (p * (1 - q) ** 3 / (1 - r)) ** 2
    assert FIELD.from_sympy(closed) == _recursion(1, 2)
    assert closed.subs(NUMBERS) == sympy.Rational(1, 621**2) == sympy.Rational(1, 385641)


def test_the_numbers_at_the_game_s_probabilities() -> None:
    for f in (1, 2):
        assert solver_value(f).subs(NUMBERS) == renormalised(f, 2).subs(NUMBERS)
