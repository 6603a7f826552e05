"""Counters along the way (``Solution.counter_distribution`` and ``expected_count``)
against oracles written from the rules: memoised recursion over paths (acyclic
models), sympy's fundamental matrix on the chain of (state, capped count) pairs built
here from the model (cyclic chains), and closed forms (a geometric count, symbolic)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import acyclic_models, cyclic_chains, probs, reachable, sympy_chain

from exactprob import Dist, ModelError, evaluate, solve
from exactprob.engine.exact.depth_first import solve_depth_first


def weird_counter(state, action, after):
    """A counter with no structure the engine could exploit: 0, 1 or 2 per move."""
    return (len(repr(after)) + 3 * len(repr(action)) + len(repr(state))) % 3


def law_by_recursion(model, policy, counter, s, known=None):
    """``{count: probability}`` from ``s``: a terminal state ends with count 0; otherwise
    each move adds its count to the law from where it leads."""
    known = {} if known is None else known
    if s not in known:
        if model.outcome(s) is not None:
            known[s] = {0: F(1)}
        else:
            law: dict[int, F] = defaultdict(F)
            a = policy(s)
            for t, p in probs(model, s, a).items():
                c = counter(s, a, t)
                for k, q in law_by_recursion(model, policy, counter, t, known).items():
                    law[k + c] += p * q
            known[s] = dict(law)
    return known[s]


def law_by_product_chain(model, counter, cap):
    """The law of ``min(count, cap)`` for a chain (one action per state): the pairs
    (state, capped count) reachable from (initial, 0) as a chain of their own, solved
    with sympy's fundamental matrix."""
    start = (model.initial, 0)
    pairs, queue = {start}, [start]
    while queue:
        s, k = queue.pop()
        if model.outcome(s) is not None:
            continue
        (a,) = model.actions(s)
        for t in probs(model, s, a):
            pair = (t, min(k + counter(s, a, t), cap))
            if pair not in pairs:
                pairs.add(pair)
                queue.append(pair)

    class Pairs:
        initial = start

        def outcome(self, pair):
            return None if model.outcome(pair[0]) is None else 0

        def actions(self, pair):
            return model.actions(pair[0])

        def transition(self, pair, a):
            s, k = pair
            return {(t, min(k + counter(s, a, t), cap)): p for t, p in probs(model, s, a).items()}

    inner, terms, Q, R = sympy_chain(Pairs(), pairs)
    if start not in inner:
        return {0: F(1)}
    B = (sympy.eye(len(inner)) - Q).inv() * R
    law: dict[int, F] = defaultdict(F)
    for j, (_, k) in enumerate(terms):
        law[k] += F(str(B[inner.index(start), j]))
    return {k: p for k, p in law.items() if p}


def mean(law):
    return sum(k * p for k, p in law.items())


@settings(max_examples=60, deadline=None)
@given(acyclic_models())
def test_acyclic_counter_laws_equal_recursion_over_paths(model):
    solution = solve(model)
    depth_first = solve_depth_first(model)
    known: dict = {}
    for s in reachable(model):
        law = law_by_recursion(model, solution.policy, weird_counter, s, known)
        assert dict(solution.counter_distribution(weird_counter, s)) == law
        assert solution.expected_count(weird_counter, s) == mean(law)
    law = law_by_recursion(model, solution.policy, weird_counter, model.initial)
    assert dict(depth_first.counter_distribution(weird_counter)) == law
    assert depth_first.expected_count(weird_counter) == mean(law)


@settings(max_examples=40, deadline=None)
@given(cyclic_chains(), st.integers(1, 4))
def test_capped_counts_on_cycles_equal_the_pair_chain(model, cap):
    def odd_targets(state, action, after):  # grows on cycles whenever an odd state is hit
        return after[1] % 2

    solution = solve(model)
    assert dict(solution.counter_distribution(odd_targets, cap=cap)) == law_by_product_chain(
        model, odd_targets, cap
    )
    # the expectation needs no cap: sum over states of visits times the expected count
    inner, _, Q, _ = sympy_chain(model, reachable(model))
    N = (sympy.eye(len(inner)) - Q).inv()
    added = sympy.Matrix(
        [sum(p * odd_targets(s, "go", t) for t, p in probs(model, s, "go").items()) for s in inner]
    )
    expected = N * added
    for i, s in enumerate(inner):
        assert solution.expected_count(odd_targets, s) == F(str(expected[i]))


@settings(max_examples=30, deadline=None)
@given(cyclic_chains())
def test_one_per_move_is_the_expected_number_of_steps(model):
    solution = solve(model)
    assert solution.expected_count(lambda s, a, t: 1) == solution.expected_steps()


class Flips:
    """Flip a coin showing heads with probability ``p`` until heads; tails counted."""

    initial = "flip"

    def __init__(self, p):
        self.p = p

    def outcome(self, s):
        return 1 if s == "heads" else None

    def actions(self, s):
        return ("flip",)

    def transition(self, s, a):
        return Dist({"heads": self.p, "flip": 1 - self.p})


def tails(state, action, after):
    return after == "flip"


def test_geometric_count_closed_form_and_refusal_without_cap():
    solution = solve(Flips(F(1, 3)))
    # P(k tails) = (2/3)^k (1/3); P(k >= 4) = (2/3)^4
    law = solution.counter_distribution(tails, cap=4)
    assert dict(law) == {k: F(2, 3) ** k * F(1, 3) for k in range(4)} | {4: F(2, 3) ** 4}
    assert solution.expected_count(tails) == 2  # (1 - p) / p
    with pytest.raises(ModelError, match="grows on a cycle .* 'flip' to 'flip'.* give a cap"):
        solution.counter_distribution(tails)
    assert dict(solution.counter_distribution(lambda s, a, t: t == "heads")) == {1: 1}


def test_symbolic_geometric_count():
    p = sympy.Symbol("p", positive=True)
    law = solve(Flips(p)).counter_distribution(tails, cap=3)
    for k in range(3):
        assert sympy.simplify(law[k] - (1 - p) ** k * p) == 0
    assert sympy.simplify(law[3] - (1 - p) ** 3) == 0


def test_counter_under_a_fixed_policy_and_from_any_state():
    class Walk:  # 0..3 on a line, +1 or +2 per step, ends at 3 or beyond
        initial = 0

        def outcome(self, s):
            return 1 if s >= 3 else None

        def actions(self, s):
            return ("one", "two")

        def transition(self, s, a):
            return Dist({s + (1 if a == "one" else 2): 1})

    def steps(s, a, t):
        return 1

    solution = evaluate(Walk(), lambda s: "one")
    assert dict(solution.counter_distribution(steps)) == {3: 1}
    assert dict(solution.counter_distribution(steps, 2)) == {1: 1}
    assert dict(evaluate(Walk(), lambda s: "two").counter_distribution(steps)) == {2: 1}


@pytest.mark.parametrize(
    ("counter", "message"),
    [
        (lambda s, a, t: -1, "gives -1 for the move from 'flip' by 'flip' to"),
        (lambda s, a, t: 0.5, "gives 0.5 .* a whole number >= 0 per move"),
        (lambda s, a, t: "1", "gives '1'"),
    ],
)
def test_bad_counters_are_refused_by_the_move(counter, message):
    with pytest.raises(ModelError, match=message):
        solve(Flips(F(1, 2))).counter_distribution(counter, cap=2)


@pytest.mark.parametrize("cap", [0, -3, True, 2.0, "5"])
def test_bad_caps_are_refused(cap):
    with pytest.raises(ModelError, match="cap must be a whole number >= 1"):
        solve(Flips(F(1, 2))).counter_distribution(tails, cap=cap)
