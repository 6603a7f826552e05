"""A cyclic component: its elimination order (:mod:`exactprob.engine._internal.cycle`) checked against its
definition, and its float evaluation (:class:`exactprob.engine._internal.component_table.ComponentTable`)
against the exact values of the same policy, solved in Fractions by Gauss-Jordan
elimination (``tests/models.py``), on both of its paths: block elimination around a
small feedback set (a sparse triangular solve) and one sparse LU of the whole."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import SideBySide, TableModel, policy_values
from scipy.sparse import csgraph

from exactprob.engine._internal import component_table
from exactprob.engine._internal.choose import float_candidates
from exactprob.engine._internal.component_table import ComponentTable, GraphArrays
from exactprob.engine._internal.cycle import (
    Cycle,
    elimination_order,
    graph_elimination_order,
    subtree_ends,
)
from exactprob.engine._internal.order import strong_components
from exactprob.engine.certified.solving import _Batch
from exactprob.engine.exact.system import ExactSystem, field_of
from exactprob.engine.graph import explore
from exactprob.util.rounding import float_dot


@st.composite
def loops(draw):
    """A cyclic model of up to 24 states: state ``i`` moves mostly to later states, to
    state 0 and perhaps to one earlier state (the cycles), and out to a terminal state;
    each state has two actions, and the policy picks one of them."""
    n = draw(st.integers(1, 24))
    nodes, policy = {}, {}
    for i in range(n):
        actions = {}
        for name in ("a", "b"):
            later = draw(st.lists(st.integers(i + 1, n), min_size=1, max_size=3))
            back = draw(st.lists(st.integers(0, i), max_size=1))
            weights = {("S", j % n): draw(st.integers(1, 5)) for j in later + back}
            weights["S", 0] = weights.get(("S", 0), 0) + 1
            weights[draw(st.sampled_from(("won", "lost")))] = 1  # every policy ends
            total = sum(weights.values())
            actions[name] = {t: F(w, total) for t, w in weights.items()}
        nodes["S", i] = (0, actions)
        policy["S", i] = draw(st.sampled_from(("a", "b")))
    return TableModel(("S", 0), {"won": 1, "lost": F(-1, 3)}, nodes), policy


def table_of(model):
    """The explored graph and the table of the component of its initial state."""
    G = explore(model)
    component = next(c for c in strong_components(G) if 0 in c)
    cycle = Cycle(ExactSystem(G, field_of(G)), component)
    arrays = GraphArrays(G, [float(p) for p in G.probabilities])
    return G, ComponentTable(arrays, cycle.component, len(cycle.feedback))


def policy_choices(G, table, policy):
    """``policy`` (``{state: action}``) as the table's choice numbers."""
    return table.policy_array({s: G.actions[s].index(policy[G.states[s]]) for s in table.order})


def outside_floats(G):
    """Every state's float value where it is terminal (0 elsewhere: never read)."""
    return np.array([float(o) if o is not None else 0.0 for o in G.outcomes])


def exact_floats(G, table, values):
    """The exact values of the table's states, in its local order, as floats."""
    return np.array([float(values[G.states[s]]) for s in table.order])


#: The three ways of evaluating a component: block elimination with a dense or a
#: sparse acyclic part, and one sparse LU of the whole.
PATHS = {
    "dense blocks": {},
    "sparse blocks": {"DENSE_LIMIT": -1},
    "sparse LU": {"FEEDBACK_LIMIT": -1},
}


@pytest.mark.parametrize("limits", PATHS.values(), ids=PATHS.keys())
@settings(max_examples=40, deadline=None)
@given(example=loops())
def test_evaluate_equals_the_exact_policy_values(limits, example):
    model, policy = example
    G, table = table_of(model)
    choices = policy_choices(G, table, policy)
    with pytest.MonkeyPatch.context() as patch:
        for name, limit in limits.items():
            patch.setattr(component_table, name, limit)
        outside = outside_floats(G)
        first = table.evaluate(table.first[:-1], table.exit_values(outside))  # action "a"
        doubled = table.evaluate(choices, table.exit_values(2 * outside))
        x = table.evaluate(choices, table.exit_values(outside))  # the same policy's factors
    states = list(G.states)
    exact = exact_floats(G, table, policy_values(model, policy, states))
    assert np.allclose(x, exact, rtol=1e-12, atol=1e-12)
    assert np.allclose(doubled, 2 * exact, rtol=1e-12, atol=1e-12)
    all_a = exact_floats(G, table, policy_values(model, dict.fromkeys(policy, "a"), states))
    assert np.allclose(first, all_a, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dense_limit", [component_table.DENSE_LIMIT, -1], ids=["dense", "sparse"])
@settings(max_examples=40, deadline=None)
@given(example=loops())
def test_the_acyclic_part_from_exact_feedback_values(dense_limit, example):
    """With the feedback states at their exact values, the acyclic part's values are
    the exact ones (one triangular solve)."""
    model, policy = example
    G, table = table_of(model)
    exact = exact_floats(G, table, policy_values(model, policy, list(G.states)))
    k = table.n_acyclic
    choices = policy_choices(G, table, policy)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(component_table, "DENSE_LIMIT", dense_limit)
        x = table.evaluate_acyclic(choices, table.exit_values(outside_floats(G)), exact[k:])
    assert np.array_equal(x[k:], exact[k:])
    assert np.allclose(x[:k], exact[:k], rtol=1e-12, atol=1e-12)


def test_a_long_loop_has_one_feedback_state():
    """A ring of 2,000 states, each moving on or ending: the search cuts it at one
    state, and its values are those of the closed form
    :math:`x_i = \\tfrac{1}{2} + \\tfrac{1}{2} x_{i+1}` around the ring, so
    :math:`x = 1 - 2^{-n} x` gives :math:`x = 1/(1 + 2^{-n})` at every state."""
    n = 2000
    nodes = {("S", i): (0, {"go": {("S", (i + 1) % n): F(1, 2), "won": F(1, 2)}}) for i in range(n)}
    model = TableModel(("S", 0), {"won": 1}, nodes)
    G, table = table_of(model)
    assert table.n == n and table.n - table.n_acyclic == 1
    x = table.evaluate(table.first[:-1], table.exit_values(outside_floats(G)))
    assert np.allclose(x, 1.0, rtol=1e-15)


def check_elimination_order(G, component, order, acyclic):
    """The acyclic part first, each state after every state of it that it moves to, so
    every cycle passes through the feedback set."""
    assert sorted(order) == sorted(component)
    position = {s: i for i, s in enumerate(order)}
    for s in order[:acyclic]:
        for t in G.successors(s):
            assert position.get(t, -1) < position[s] or position[t] >= acyclic


@pytest.mark.parametrize("search", ["depth first", "breadth first"])
@settings(max_examples=60, deadline=None)
@given(example=loops())
def test_the_elimination_order(search, example):
    """From scipy's depth-first search, and from a breadth-first one in its place (not
    a depth-first tree: the check refuses it where it matters and the search in Python
    takes over): a valid order either way, as is the Python search's."""
    G = explore(example[0])
    component = next(c for c in strong_components(G) if 0 in c)
    with pytest.MonkeyPatch.context() as patch:
        if search == "breadth first":
            patch.setattr(csgraph, "depth_first_order", csgraph.breadth_first_order)
        order, acyclic = graph_elimination_order(G, component)
    check_elimination_order(G, component, order, acyclic)
    python_order, python_acyclic = elimination_order(G.successors, component)
    check_elimination_order(G, component, python_order, python_acyclic)


def tree_ends(parents):
    """Each node's subtree end in preorder, by walking the tree (the oracle)."""
    children = {p: [] for p in range(len(parents))}
    for q, p in enumerate(parents):
        if p >= 0:
            children[p].append(q)

    def size(v):
        return 1 + sum(size(c) for c in children[v])

    return [v + size(v) for v in range(len(parents))]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=60))
def test_subtree_ends(choices):
    """Random trees in preorder: node ``q`` hangs below a node on the path from the
    root to node ``q - 1`` (any such tree is a preorder)."""
    parents, path = [-1], [0]
    for q, c in enumerate(choices, start=1):
        path = path[: 1 + c % len(path)]
        parents.append(path[-1])
        path.append(q)
    assert subtree_ends(np.array(parents)).tolist() == tree_ends(parents)


@pytest.mark.parametrize("dense_limit", [component_table.DENSE_LIMIT, -1], ids=["dense", "sparse"])
@settings(max_examples=40, deadline=None)
@given(examples=st.lists(loops(), min_size=2, max_size=4))
def test_a_batch_of_components_evaluated_as_one(dense_limit, examples):
    """Several independent components in one table, as certified mode batches them (every
    acyclic part, then every feedback set; ``member`` naming each state's component):
    the compact :math:`Z` gives each component its exact policy values, for two policies
    and a second right-hand side of the same one."""
    parts = []
    for model, policy in examples:
        G, table = table_of(model)
        parts.append((G, table, model, policy))
    # one graph holding every component: the components of a disjoint union
    union = SideBySide([model for _, _, model, _ in parts])
    G = explore(union)
    orders = [
        graph_elimination_order(G, [G.index[i, part_G.states[s]] for s in part.order])
        for i, (part_G, part, _, _) in enumerate(parts)
    ]
    order, acyclic, member = _Batch(orders).union()
    arrays = GraphArrays(G, [float(p) for p in G.probabilities])
    table = ComponentTable(arrays, order, len(order) - acyclic, member)
    policy = {(i, s): a for i, (_, _, _, pol) in enumerate(parts) for s, a in pol.items()}
    choices = table.policy_array({s: G.actions[s].index(policy[G.states[s]]) for s in table.order})
    exact = [policy_values(model, pol, list(part_G.states)) for part_G, _, model, pol in parts]
    expected = np.array([float(exact[i][s]) for i, s in (G.states[t] for t in table.order)])
    outside = outside_floats(G)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(component_table, "DENSE_LIMIT", dense_limit)
        table.evaluate(table.first[:-1], table.exit_values(outside))  # another policy first
        x = table.evaluate(choices, table.exit_values(outside))
        doubled = table.evaluate(choices, table.exit_values(2 * outside))
    assert np.allclose(x, expected, rtol=1e-12, atol=1e-12)
    assert np.allclose(doubled, 2 * expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    loops(),
    st.lists(st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 1.0]), min_size=24, max_size=24),
    st.lists(st.sampled_from([0, 1]), min_size=24, max_size=24),
)
def test_candidates_for_the_whole_table_are_each_states_float_candidates(example, values, movers):
    # the values come from a few repeated numbers, so that actions tie in floats; each
    # state is the maximiser's or the minimiser's
    model, _ = example
    nodes = {s: (movers[s[1]], actions) for s, (_, actions) in model.nodes.items()}
    G, table = table_of(TableModel(model.initial, model.terminals, nodes))
    x = np.array(values[: table.n])
    outside = outside_floats(G)
    found = table.candidates(outside, x)
    local = dict(zip(table.order, x.tolist()))
    for i, s in enumerate(table.order):
        floats = [
            float_dot(
                [float(p) for _, p in G.choice_edges(c)],
                [local.get(t, outside[t]) for t, _ in G.choice_edges(c)],
            )
            for c in range(G.choice_start[s], G.choice_start[s + 1])
        ]
        first = table.first[i]
        mask = found[first : first + len(floats)]
        assert [k for k, kept in enumerate(mask) if kept] == float_candidates(floats, G.players[s])
