r"""Theorem (do-over renormalisation).

Let a state :math:`s` return to itself with probability :math:`r < 1` and move to
states :math:`t_1, \dots, t_m` (values :math:`v_i`) with probabilities :math:`p_i`,
:math:`r + \sum_i p_i = 1`. Playing the round until something happens gives

.. math::

    V(s) = \sum_{n \ge 0} r^n \sum_i p_i v_i = \frac{\sum_i p_i v_i}{1 - r}
         = \sum_i \frac{p_i}{1 - r}\, v_i ,

that is, the self-loop can be deleted and the other probabilities renormalised by
:math:`1/(1 - r)`, exactly.

Proof. The :math:`n`-th term is the probability of :math:`n` do-overs followed by a move
to :math:`t_i`; the series is geometric, summed by sympy for symbolic :math:`r` with
:math:`|r| < 1`. The engine's solver, which applies the renormalisation to every
self-loop it meets, is checked to give the same rational function of :math:`r`.
"""

import sympy

from exactprob import Dist, solve

r, n = sympy.symbols("r n", nonnegative=True)
p1, v1, v2 = sympy.symbols("p1 v1 v2")


def test_geometric_series() -> None:
    step = p1 * v1 + (1 - r - p1) * v2
    geometric = sympy.summation(r**n, (n, 0, sympy.oo))
    # sympy answers with a Piecewise whose first branch holds where the series converges
    (total, condition), *_ = geometric.args
    assert condition == (r < 1)
    assert sympy.simplify(step * total - step / (1 - r)) == 0


class _Duel:
    """Each round: win with probability a, lose with probability b, else the round repeats."""

    initial = "round"

    def __init__(self, a: sympy.Expr, b: sympy.Expr) -> None:
        self.a, self.b = a, b

    def outcome(self, state: str) -> int | None:
        return {"round": None, "win": 1, "lose": 0}[state]

    def actions(self, state: str) -> tuple[str]:
        return ("fight",)

    def transition(self, state: str, action: str) -> Dist[str]:
        return Dist({"win": self.a, "lose": self.b, "round": 1 - self.a - self.b})


def test_solver_applies_the_renormalisation() -> None:
    a, b = sympy.symbols("a b", positive=True)
    value = solve(_Duel(a, b)).value()
    assert sympy.simplify(value - a / (a + b)) == 0
    steps = solve(_Duel(a, b)).expected_steps()
    assert sympy.simplify(steps - 1 / (a + b)) == 0
