r"""Theorem (gambler's ruin).

For a walk on :math:`\{0, \dots, N\}` moving up with probability :math:`p` and down with
:math:`1 - p`, absorbed at both ends, the probability of reaching :math:`N` from :math:`i`
is :math:`(\rho^i - 1)/(\rho^N - 1)` with :math:`\rho = (1 - p)/p`.

Proof. :math:`h_i = p\,h_{i+1} + (1-p)\,h_{i-1}`, :math:`h_0 = 0`, :math:`h_N = 1`; the
closed form satisfies the recurrence identically in :math:`p` (checked by sympy) and the
boundary conditions, and the solution of the system is unique because :math:`I - P` is
non-singular. The engine's exact solver is checked to give the same rational function of a
symbolic :math:`p` for every :math:`N \le 6` and every start.
"""

import sympy

from exactprob import solve
from exactprob.games.gamblers_ruin import GamblersRuin, closed_form

p = sympy.Symbol("p", positive=True)
N = sympy.Symbol("N", integer=True, positive=True)


def test_recurrence_holds_identically() -> None:
    rho = (1 - p) / p
    # With t = rho^(i-1): rho^i = t*rho and rho^(i+1) = t*rho^2, and the common
    # denominator rho^N - 1 cancels, so the recurrence is a polynomial identity in t and p.
    t = sympy.Symbol("t")
    numerator = p * (t * rho**2 - 1) + (1 - p) * (t - 1) - (t * rho - 1)
    assert sympy.simplify(numerator) == 0
    h = lambda k: (rho**k - 1) / (rho**N - 1)
    assert h(0) == 0 and sympy.simplify(h(N) - 1) == 0


def test_solver_equals_closed_form_for_symbolic_p() -> None:
    for goal in range(1, 7):
        for start in range(goal + 1):
            value = solve(GamblersRuin(goal, start, p)).value()
            assert sympy.simplify(value - closed_form(goal, start, p)) == 0
