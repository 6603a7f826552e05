r"""Theorem (Fighting Fantasy with constant offensive luck, paper Eq. 9-15).

Suppose the hero tests luck after every won round, each test succeeding with the same
probability :math:`\lambda` (luck never runs out), a success taking :math:`g` stamina
from the opponent and a failure 1, while a lost round costs the hero 2. With :math:`p` the
chance of winning a decisive round, :math:`\sigma_h = \lceil s_h/2 \rceil` and
:math:`n = s_o - r`,

.. math::

    P_v = \sum_{j=0}^{\sigma_h - 1} (1-p)^j \sum_{r=1}^{\min(g, s_o)} \sum_{k=0}^{\lfloor n/g \rfloor}
          \binom{n - (g-1)k}{k}\binom{n - (g-1)k + j}{j}
          (p\lambda)^k \bigl(p(1-\lambda)\bigr)^{n - gk}
          \bigl(p\lambda + [r = 1]\,p(1-\lambda)\bigr).

Proof. Classify a victory by the opponent's stamina :math:`r` just before the final blow.
The final blow is a success (possible from any :math:`r \le g`) or a failure (only from
:math:`r = 1`). Before it, the opponent lost :math:`n = s_o - r` stamina to :math:`k`
successes and :math:`n - gk` failures: a word of :math:`n - (g-1)k` letters with
:math:`k` S, so :math:`\binom{n-(g-1)k}{k}` words; never does the opponent reach 0
earlier, because every prefix removes less than :math:`n < s_o`. The :math:`j` lost
rounds (at most :math:`\sigma_h - 1`, or the hero falls) are interleaved with the
:math:`n - (g-1)k` won rounds before the final one in :math:`\binom{n-(g-1)k+j}{j}` ways.
Each history's probability is the product of its rounds' probabilities; the classes are
disjoint and exhaust the victories. Draws are do-overs as in ``proof_ff_no_luck``.

The tests solve the constant-:math:`\lambda` model below with the engine's generic solver
in the field :math:`\mathbb{Q}(p, \lambda)` and require every state's value to equal
:func:`~exactprob.games.fighting_fantasy.constant_luck_win` as rational functions, for all
:math:`1 \le s_h \le 6` and :math:`1 \le s_o \le 12` with :math:`g = 4` (the rules), and
:math:`s_h \le 4, s_o \le 9` with :math:`g = 3` (the ``amplify3`` variant); the bound is
the test's running time (sympy's conversion of rational functions), not the formula.
"""

from __future__ import annotations

import pytest
import sympy

from exactprob import Dist, solve
from exactprob.games.fighting_fantasy import constant_luck_win

p, lam = sympy.symbols("p lambda", positive=True)


class ConstantLuck:
    """The chain of the theorem, from the rules: states (hero, opponent) staminas."""

    def __init__(self, hero: int, opponent: int, lucky_hit: int) -> None:
        self.initial = (hero, opponent)
        self.lucky_hit = lucky_hit

    def outcome(self, state: tuple[int, int]) -> int | None:
        hero, opponent = state
        return 0 if hero <= 0 else 1 if opponent <= 0 else None

    def actions(self, state: tuple[int, int]) -> tuple[str]:
        return ("fight",)

    def transition(self, state: tuple[int, int], action: str) -> Dist[tuple[int, int]]:
        hero, opponent = state
        return Dist(
            {
                (hero, opponent - self.lucky_hit): p * lam,
                (hero, opponent - 1): p * (1 - lam),
                (hero - 2, opponent): 1 - p,
            }
        )


@pytest.mark.parametrize(("lucky_hit", "top"), [(4, (6, 12)), (3, (4, 9))])
def test_solver_equals_closed_form(lucky_hit: int, top: tuple[int, int]) -> None:
    checked = 0
    for hero in (top[0] - 1, top[0]):  # both parities of the hero's stamina
        solution = solve(ConstantLuck(hero, top[1], lucky_hit))
        for state in solution.states:
            h, o = state
            if h > 0 and o > 0:
                difference = solution.value(state) - constant_luck_win(h, o, p, lam, lucky_hit)
                assert sympy.cancel(difference) == 0, state
                checked += 1
    assert checked == top[0] * top[1]


def test_lambda_zero_is_one_point_hits_and_lambda_one_is_lucky_hits() -> None:
    # lambda = 1: every won round deals g; lambda = 0: every won round deals 1
    for h, o in [(3, 9), (6, 5)]:
        always = sympy.expand(constant_luck_win(h, o, p, 1))
        never = sympy.expand(constant_luck_win(h, o, p, 0))
        sigma_h = -(-h // 2)
        for wins_needed, value in ((-(-o // 4), always), (o, never)):
            expected = sum(
                sympy.binomial(wins_needed - 1 + j, j) * p**wins_needed * (1 - p) ** j
                for j in range(sigma_h)
            )
            assert sympy.expand(value - expected) == 0
