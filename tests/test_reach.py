"""Cyclic components solved by forward reach with a float certificate (exactprob.engine._internal.reach,
exactprob.engine._internal.certify) give exactly the answers of full exact elimination.

Oracles: the exact Bellman certificate and Fraction Gauss-Jordan policy values of
tests/models.py (neither uses exactprob's solvers), and the solver's own elimination
path with forward reach switched off (``REACH_LIMIT = -1``), which computes every
state's value by exact policy iteration.

The random games are stopping games (every action may end the game at once), so the
Bellman equations have one solution and a reported value table that satisfies them
exactly is the optimum. Near ties (actions whose values differ by ``2**-k``, for ``k``
on both sides of double precision) make the float certificate hand comparisons to
exact arithmetic.
"""

from __future__ import annotations

from fractions import Fraction as F
from unittest import mock

import pytest
from hypothesis import given, settings
from models import (
    Pig,
    Stall,
    check_optimal,
    near_tie_cycles,
    reachable,
)

import exactprob.engine.exact.solving as solve_module
from exactprob import solve
from exactprob.engine._internal.float_guide import FloatStrategy
from exactprob.errors import NonTerminationError


def solved_by_elimination(model):
    with mock.patch.object(solve_module, "REACH_LIMIT", -1):
        return solve(model)


@settings(max_examples=120, deadline=None)
@given(near_tie_cycles())
def test_reach_and_certificate_equal_exact_elimination(model):
    S = solve(model)
    check_optimal(model, S)
    E = solved_by_elimination(model)
    for s in reachable(model):
        assert S.value(s) == E.value(s)
        assert S.ties(s) == E.ties(s)


@pytest.mark.parametrize("goal", [6, 10])
def test_pig_by_reach_equals_elimination(goal):
    S, E = solve(Pig(goal)), solved_by_elimination(Pig(goal))
    for s in reachable(Pig(goal)):
        assert S.value(s) == E.value(s) and S.ties(s) == E.ties(s)


def test_non_terminating_guess_falls_back():
    """A float guess of "stall" everywhere never ends: the exact solve of the feedback
    states finds the singular system and the component is solved from a terminating
    start instead."""
    last = lambda table, outside, terminating: FloatStrategy(table.first[1:] - 1, None)
    with mock.patch.object(solve_module, "float_guess", last):
        S = solve(Stall())
    # B minimises: go gives V_A / 2, stall V_A. A maximises: go gives 1/2 + V_B / 2,
    # stall V_B. Both going: V_A = 1/2 + V_A / 4 => V_A = 2/3, V_B = 1/3; stalling is
    # worse for either (1/3 < 2/3 for A, 2/3 > 1/3 for B).
    assert S.value("A") == F(2, 3) and S.value("B") == F(1, 3)
    assert S.policy_map() == {"A": "go", "B": "go"}


def test_non_terminating_model_is_reported():
    class Forever(Stall):
        def actions(self, s):
            return ("stall",)

    with pytest.raises(NonTerminationError, match="cannot leave their cycle"):
        solve(Forever())
