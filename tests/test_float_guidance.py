"""Float-guided exact solving: floats may only skip work, never change an answer.

* The rounding bound of :mod:`exactprob.util.rounding` holds on random dot products, checked
  against the exact value in ``Fraction``.
* Models built so that floats cannot tell actions apart (values a few units in the last
  place apart, values beyond the float range, subnormal values, exact ties behind
  different transitions) are solved and compared with memoised exact recursion
  (``models.acyclic_values``), ties included.
* Cyclic components keep their exact answer when the float guess is useless or
  misleading (the guess is replaced by a non-terminating or a worst policy).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    Pig,
    RedAndBlack,
    TableModel,
    acyclic_values,
    check_against_recursion,
    policy_values,
    reachable,
)

# the module, not the function that exactprob exports under the same name
import exactprob.engine.exact.solving as solve_module
from exactprob import solve
from exactprob.engine._internal import float_guide
from exactprob.engine.exact.depth_first import solve_depth_first
from exactprob.util.rounding import approx, certainly_less, error_bound

# -- the rounding bound ---------------------------------------------------------------------

exact_numbers = st.builds(F, st.integers(-(10**30), 10**30), st.integers(1, 10**30))


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(st.builds(F, st.integers(1, 10**20), st.integers(1, 10**20)), exact_numbers),
        min_size=1,
        max_size=12,
    )
)
def test_float_dot_product_is_within_the_bound(terms):
    exact_q = sum((p * v for p, v in terms), F(0))
    products = [approx(p) * approx(v) for p, v in terms]
    q_hat = sum(products)
    bound = error_bound(len(terms), sum(map(abs, products)))
    assert abs(F(q_hat) - exact_q) <= F(bound)


@given(st.integers(1, 50), st.floats(0, 2.0**1000, exclude_max=True))
def test_bound_is_positive_and_finite_in_range(n, magnitude):
    assert 0 < error_bound(n, magnitude) < math.inf


def test_out_of_range_magnitudes_have_no_bound():
    assert error_bound(2, 2.0**1000) == math.inf
    assert error_bound(2, math.inf) == math.inf and error_bound(2, math.nan) == math.inf
    assert not certainly_less(0.0, math.inf, 1.0, 0.0)
    assert not certainly_less(math.nan, 0.0, 1.0, 0.0)


# -- choices the floats cannot make ----------------------------------------------------------


def near_tie_model(gap: F, scale: F = F(1)) -> TableModel:
    """Two actions from ``start`` whose values differ by ``gap * scale``: one pays
    ``scale * (1/3)`` surely, the other splits between ``scale * (1/3 + gap)`` and
    ``scale * (1/3 - gap)`` with weights that leave exactly ``gap * scale`` more on
    average (so its terminal values and probabilities all differ from the first's)."""
    terminals = {"safe": scale / 3, "high": scale * (F(1, 3) + 2 * gap), "low": scale * F(1, 3)}
    nodes = {
        "start": (0, {"safe": {"safe": 1}, "gamble": {"high": F(1, 2), "low": F(1, 2)}}),
    }
    return TableModel("start", terminals, nodes)


@pytest.mark.parametrize("exponent", [10, 52, 53, 60, 200, 2000])
@pytest.mark.parametrize("sign", [1, -1])
def test_gaps_below_float_resolution(exponent, sign):
    model = near_tie_model(sign * F(1, 2**exponent))
    V, _ = acyclic_values(model)
    solution = solve(model)
    assert solution.value() == V["start"]
    assert solution.policy() == ("gamble" if sign > 0 else "safe")
    assert solution.ties() == (solution.policy(),)


def test_exact_tie_behind_different_transitions():
    tie = near_tie_model(F(0))
    solution = solve(tie)
    assert solution.ties() == ("safe", "gamble") and solution.policy() == "safe"
    assert solution.value() == F(1, 3)


@pytest.mark.parametrize("scale", [F(10**400), F(-(10**400)), F(1, 10**330), F(-1, 10**330)])
def test_values_beyond_the_float_range(scale):
    for gap in (F(1, 4), F(0), F(-1, 2**70)):
        model = near_tie_model(gap, scale)
        V, Q = acyclic_values(model)
        solution = solve(model)
        assert solution.value() == V["start"]
        expected = tuple(a for a in model.actions("start") if Q["start"][a] == V["start"])
        assert solution.ties() == expected


@st.composite
def near_tie_layers(draw):
    """Layered two-player models whose actions are built to nearly tie: each action of a
    state is a small perturbation (by 2^-k, k up to 80) of one shared base transition."""
    terminals = {("T", i): F(draw(st.integers(-3, 3)), 7) for i in range(3)}
    layers = [[("S", level, j) for j in range(2)] for level in range(3)]
    nodes = {}
    for level, layer in enumerate(layers):
        later = [s for lay in layers[level + 1 :] for s in lay] + list(terminals)
        for s in layer:
            a, b = draw(st.lists(st.sampled_from(later), min_size=2, max_size=2, unique=True))
            acts = {}
            for name in ("x", "y", "z"):
                eps = F(draw(st.integers(-2, 2)), 2 ** draw(st.integers(0, 80))) / 4
                acts[name] = {a: F(1, 2) + eps, b: F(1, 2) - eps}
            nodes[s] = (draw(st.integers(0, 1)), acts)
    return TableModel(layers[0][0], terminals, nodes)


@settings(max_examples=150)
@given(near_tie_layers())
def test_near_ties_equal_exact_recursion(model):
    check_against_recursion(model, solve(model))


# -- cyclic components with useless or misleading float guesses --------------------------------


def worst_guess(table, start, outside, tolerance):
    """The last action everywhere: a guess that is wrong and may not terminate."""
    return float_guide.FloatStrategy(table.first[1:] - 1, None)


@pytest.mark.parametrize("guess", [worst_guess, lambda *args: None], ids=["worst", "none"])
@pytest.mark.parametrize("model", [Pig(5), RedAndBlack(9, F(2, 5))], ids=["pig", "red-black"])
def test_exact_answer_does_not_depend_on_the_float_guess(monkeypatch, guess, model):
    guided = solve(model)
    monkeypatch.setattr(float_guide, "float_strategy", guess)
    unguided = solve(model)
    states = reachable(model)
    for s in states:
        assert guided.value(s) == unguided.value(s)
        assert guided.ties(s) == unguided.ties(s)
    # and the guided policy is a policy with exactly these values
    values = policy_values(model, guided.policy_map(), states)
    assert all(values[s] == guided.value(s) for s in states)


@pytest.mark.parametrize(
    "simultaneous", [0, float_guide.SIMULTANEOUS], ids=["hoffman-karp", "both"]
)
def test_float_guess_is_certified_on_pig(monkeypatch, simultaneous):
    """On Pig to 8 every cyclic component is settled by the float guess and its
    certificate: exact values only by forward reach, no exact policy iteration (counted
    by wrapping ``_by_reach`` and ``_improve``); whether the float strategy first lets
    both players improve at once or goes straight to Hoffman-Karp iteration."""
    monkeypatch.setattr(float_guide, "SIMULTANEOUS", simultaneous)
    settled, switches = [], []
    by_reach, improve = solve_module._Solver._by_reach, solve_module._Solver._improve
    monkeypatch.setattr(
        solve_module._Solver, "_by_reach", lambda *a: settled.append(by_reach(*a)) or settled[-1]
    )
    monkeypatch.setattr(
        solve_module._Solver, "_improve", lambda *a: switches.append(improve(*a)) or switches[-1]
    )
    solve(Pig(8))
    assert settled and all(settled)
    assert not switches


def tiny_probability_cycle():
    """In ``s`` take ``a`` (worth :math:`2^{-1065}`) or ``b``: win :math:`2^{40}` with
    probability :math:`p = 2^{-1100}`, else half the time to ``t``, which returns to ``s``
    half the time. So :math:`V_b = p\\,2^{40} + V_b/4 = \\tfrac43\\,2^{-1060} > 2^{-1065}`.
    As a double :math:`p` is 0, an error no relative bound covers."""
    p = F(1, 2**1100)
    return TableModel(
        "s",
        {"a-end": F(1, 2**1065), "win": 2**40, "lose": 0},
        {
            "s": (0, {"a": {"a-end": 1}, "b": {"win": p, "lose": F(1, 2) - p, "t": F(1, 2)}}),
            "t": (0, {"go": {"s": F(1, 2), "lose": F(1, 2)}}),
        },
    )


@pytest.mark.parametrize("solver", [solve, solve_depth_first], ids=["in memory", "depth first"])
def test_a_probability_below_the_normal_doubles_is_compared_exactly(solver):
    """The floats said ``a`` (they saw :math:`V_b = 0` within a bound that assumed a
    relative error): such probabilities now make every float bound infinite."""
    S = solver(tiny_probability_cycle())
    assert S.policy("s") == "b"
    assert S.value("s") == F(4, 3) / 2**1060
