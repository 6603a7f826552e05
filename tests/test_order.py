"""exactprob.engine._internal.order: the solve order from scipy's compiled component search, checked
against networkx (components, condensation order, acyclic subgraphs) and against the
pure-Python Tarjan search it falls back to, which also orders small graphs (no scipy to
load for them)."""

from __future__ import annotations

from itertools import pairwise
from unittest import mock

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph
from scipy.sparse.csgraph import connected_components

import exactprob.engine._internal.order as order_module
from exactprob import Dist, explore
from exactprob.engine._internal.order import (
    CutOrders,
    component_order,
    entry_states,
    strong_components,
    tarjan_components,
)


@pytest.fixture(autouse=True, params=["scipy", "small graphs in Python"])
def small_graph(request, monkeypatch):
    """Every test twice: with scipy's search for every graph (no graph counted small),
    and with the default, under which these small graphs go through Tarjan's search in
    Python (no scipy to load)."""
    if request.param == "scipy":
        monkeypatch.setattr(order_module, "SMALL_GRAPH", 0)
    return request.param


class Multigraph:
    """State ``u`` offers one action per list in ``moves[u]``, to those successors
    uniformly (a successor may repeat across actions: a repeated edge); a state with no
    lists is terminal. Every state is reachable: the initial state ``-1`` moves to all."""

    def __init__(self, n: int, moves: dict[int, list[list[int]]]) -> None:
        self.moves = {-1: [list(range(n))], **moves}
        self.initial = -1

    def outcome(self, s):
        return None if self.moves.get(s) else 0

    def actions(self, s):
        return tuple(range(len(self.moves[s])))

    def transition(self, s, a):
        targets = self.moves[s][a]
        return Dist.from_weights({t: targets.count(t) for t in targets})


def multigraphs():
    def build(n):
        lists = st.lists(st.lists(st.integers(0, n - 1), min_size=1, max_size=4), max_size=3)
        return st.dictionaries(st.integers(0, n - 1), lists).map(lambda m: Multigraph(n, m))

    return st.integers(1, 10).flatmap(build)


def networkx_of(G):
    D = nx.DiGraph()
    D.add_nodes_from(range(len(G)))
    D.add_edges_from((s, t) for s in range(len(G)) for t in G.successors(s))
    return D


def assert_solve_order(G, components):
    D = networkx_of(G)
    assert sorted(map(sorted, components)) == sorted(
        map(sorted, nx.strongly_connected_components(D))
    )
    position = {v: i for i, c in enumerate(components) for v in c}
    assert all(position[v] <= position[u] for u, v in D.edges)


@settings(max_examples=150, deadline=None)
@given(multigraphs())
def test_components_in_solve_order_with_repeated_edges(model):
    G = explore(model)
    targets = G.targets.tolist()
    components = list(strong_components(G))
    assert_solve_order(G, components)
    assert_solve_order(G, list(tarjan_components(G)))  # another valid order, maybe
    assert G.targets.tolist() == targets  # the graph's own columns are left alone


def reversed_labels(matrix, **options):
    """scipy's labels numbered the other way round (sources first), so that the
    sinks-first check fails wherever two components are joined by an edge."""
    count, labels = connected_components(matrix, **options)
    return count, count - 1 - labels


@settings(max_examples=50, deadline=None)
@given(multigraphs())
def test_labels_out_of_order_fall_back_to_tarjan(model):
    G = explore(model)
    tarjan = mock.Mock(wraps=tarjan_components)
    with (
        mock.patch.object(csgraph, "connected_components", reversed_labels),
        mock.patch.object(order_module, "tarjan_components", tarjan),
    ):
        order, ends = component_order(G)
    assert tarjan.called == (len(G) > 1 and order_module.SMALL_GRAPH == 0)
    assert_solve_order(G, [order[a:b].tolist() for a, b in pairwise(ends.tolist())])


@settings(max_examples=150, deadline=None)
@given(multigraphs(), st.integers(0, 2**12 - 1))
def test_cut_orders(model, bits):
    """Where the cut meets every cycle of a component (the other states, self-loops
    aside, form an acyclic subgraph), the order lists those states first, each after
    every one it moves to, then the cut states; elsewhere there is no order."""
    G = explore(model)
    n = len(G)
    cut = np.array([bool(bits >> (s % 12) & 1) for s in range(n)])
    order, ends = component_order(G)
    cuts = CutOrders(G, order, ends, cut)
    D = networkx_of(G)
    for i, (a, b) in enumerate(pairwise(ends.tolist())):
        component = set(order[a:b].tolist())
        looped = {s for s in component if D.has_edge(s, s)}
        rest = component - looped - {s for s in component if cut[s]}
        found = cuts.order(i, most=n)
        if not nx.is_directed_acyclic_graph(D.subgraph(rest)):
            assert found is None
            continue
        assert found is not None
        states, acyclic = found
        assert set(states) == component and len(states) == len(component)
        assert set(states[:acyclic]) == rest
        position = {s: k for k, s in enumerate(states[:acyclic])}
        assert all(position[v] < position[u] for u, v in D.subgraph(rest).edges)
        if cuts.order(i, most=len(component) - acyclic - 1) is not None:
            pytest.fail("a cut larger than `most` must give no order")


@settings(max_examples=100, deadline=None)
@given(multigraphs())
def test_entry_states(model):
    """A state is an entry state when it lies in a cyclic component and a move from
    another component leads to it, or it is the initial state."""
    G = explore(model)
    order, ends = component_order(G)
    D = networkx_of(G)
    component_of = {s: frozenset(c) for c in nx.strongly_connected_components(D) for s in c}
    expected = [
        len(component_of[s]) > 1
        and (s == 0 or any(component_of[u] != component_of[s] for u in D.pred[s]))
        for s in range(len(G))
    ]
    assert entry_states(G, order, ends).tolist() == expected
