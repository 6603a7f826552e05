r"""Theorem (Fighting Fantasy without luck, paper Eq. 5-8).

Without luck, let :math:`p` be the chance that a decisive round (not a draw) goes to the
hero and :math:`\sigma = \lceil s/2 \rceil`. Then for all staminas :math:`s_h, s_o \ge 1`

.. math::

    P_v(s_h, s_o) = \sum_{j=0}^{\sigma_h - 1} \binom{\sigma_o - 1 + j}{j}\, p^{\sigma_o} (1 - p)^j .

Proof. Draws change nothing, so (``proof_do_over``) they only rescale :math:`w, \ell` to
:math:`p = w/(w + \ell)`. Every decisive round costs the loser 2 stamina, so the opponent
falls after exactly :math:`\sigma_o` won rounds and the hero after :math:`\sigma_h` lost
ones. The hero wins iff the :math:`\sigma_o`-th won round comes while at most
:math:`\sigma_h - 1` rounds are lost: with :math:`j` lost rounds before it, the last round
is won and the :math:`\sigma_o - 1` other won rounds are placed among the first
:math:`\sigma_o - 1 + j` in :math:`\binom{\sigma_o - 1 + j}{j}` ways, each history having
probability :math:`p^{\sigma_o}(1-p)^j`. Summing over :math:`j` gives the formula, which is
:math:`I_p(\sigma_o, \sigma_h)`, the regularised incomplete beta function.

The tests check it as an identity of polynomials in a symbol :math:`p`: the engine's
generic solver runs :class:`~exactprob.games.fighting_fantasy.FightModel` with win
probability :math:`p` and loss :math:`1 - p` for every pair of staminas
:math:`1 \le s_h, s_o \le 24` (:math:`\sigma` up to 12), and every value must equal
:func:`~exactprob.games.fighting_fantasy.no_luck_win`; and the formula equals sympy's own
regularised incomplete beta at a few rational points.
"""

from __future__ import annotations

import pytest
import sympy

from exactprob.engine.exact.solving import solve_model as solve  # the generic engine: symbolic odds
from exactprob.games.fighting_fantasy import Fight, FightModel, RoundOdds, hits_to_kill, no_luck_win

p = sympy.Symbol("p", positive=True)


def _symbolic_model(hero: int, opponent: int) -> FightModel:
    model = FightModel(Fight(0, hero, opponent, 0))
    model.odds = RoundOdds(p, sympy.Integer(0), 1 - p)  # type: ignore[arg-type]
    return model


@pytest.mark.parametrize("hero", [23, 24])
@pytest.mark.parametrize("opponent", [23, 24])
def test_solver_equals_closed_form_for_every_stamina_pair(hero: int, opponent: int) -> None:
    # without luck the staminas fall by 2, so starting from each parity reaches every pair
    solution = solve(_symbolic_model(hero, opponent))
    checked = 0
    for state in solution.states:
        phase, h, o, _, _ = state
        if phase == "round" and h > 0 and o > 0:
            assert sympy.expand(solution.value(state) - no_luck_win(h, o, p)) == 0, (h, o)
            checked += 1
    assert checked == len(range(hero, 0, -2)) * len(range(opponent, 0, -2))


@pytest.mark.parametrize(
    "point", [sympy.Rational(1, 3), sympy.Rational(575, 1150), sympy.Rational(9, 10)]
)
def test_closed_form_is_the_regularised_incomplete_beta(point: sympy.Rational) -> None:
    for hero, opponent in [(1, 1), (4, 7), (12, 20), (24, 24)]:
        a, b = hits_to_kill(opponent), hits_to_kill(hero)
        t = sympy.Symbol("t")
        complete = sympy.gamma(a) * sympy.gamma(b) / sympy.gamma(a + b)  # B(a, b)
        incomplete = sympy.integrate(t ** (a - 1) * (1 - t) ** (b - 1), (t, 0, point))
        assert incomplete / complete == no_luck_win(hero, opponent, point)
