"""The long run of chains (ep.stationary), against closed forms and oracles written here:
Ehrenfest's urn (binomial law, period 2), random walks on graphs (law proportional to
degree, return time 2|E|/deg), the knight's tour of a chessboard (168 moves back to a
corner), networkx's attracting components and periodicity for the classes, and exact
Gauss-Jordan solves of the defining equations for visits and passage times."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import networkx as nx
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import gauss_solve

import exactprob as ep
from exactprob import Dist, ModelError


class Table:
    """A chain given by ``{state: {next: p}}`` (``None`` for a terminal state)."""

    def __init__(self, moves, initial=0, rewards=None):
        self.moves, self.initial, self.rewards = moves, initial, rewards or {}

    def outcome(self, s):
        return 0 if self.moves[s] is None else None

    def actions(self, s):
        return ("go",)

    def transition(self, s, a):
        return Dist(self.moves[s])

    def reward(self, s, a):
        return self.rewards.get(s, 0)

    def __repr__(self):
        return f"Table({self.moves!r}, {self.initial!r}, {self.rewards!r})"


class Ehrenfest:
    """``n`` balls in two urns; a ball chosen at random changes urn; state: the balls in
    the first urn."""

    def __init__(self, n):
        self.n, self.initial = n, 0

    def outcome(self, k):
        return None

    def actions(self, k):
        return ("move",)

    def transition(self, k, a):
        moves = {k - 1: F(k, self.n), k + 1: F(self.n - k, self.n)}
        return Dist({j: p for j, p in moves.items() if p})


@pytest.mark.parametrize("n", [1, 4, 7])
def test_ehrenfest_urn_is_binomial_with_period_two(n):
    run = ep.stationary(Ehrenfest(n))
    assert dict(run.law().items()) == {k: F(sympy.binomial(n, k), 2**n) for k in range(n + 1)}
    assert run.period() == 2 and len(run.classes) == 1


def walk_on(graph):
    """The simple random walk on an undirected networkx graph."""
    moves = {u: {v: F(1, graph.degree(u)) for v in graph[u]} for u in graph}
    return Table(moves, initial=min(graph))


@st.composite
def connected_graphs(draw):
    n = draw(st.integers(2, 7))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=12))
    graph = nx.path_graph(n)  # connected
    graph.add_edges_from((u, v) for u, v in edges if u != v)
    return graph


@settings(max_examples=60, deadline=None)
@given(connected_graphs())
def test_a_random_walk_spends_time_in_proportion_to_degree(graph):
    run = ep.stationary(walk_on(graph))
    twice_edges = 2 * graph.number_of_edges()
    assert dict(run.law().items()) == {u: F(graph.degree(u), twice_edges) for u in graph}
    assert all(run.mean_return_time(u) == F(twice_edges, graph.degree(u)) for u in graph)
    assert run.period() == (2 if nx.is_bipartite(graph) else 1)


@settings(max_examples=40, deadline=None)
@given(connected_graphs(), st.data())
def test_the_mean_return_time_to_a_set_is_kacs_and_the_first_step_sum(graph, data):
    """Back to a set A of a random walk: 2|E| / (the degrees in A) (Kac, with the
    stationary law deg/2|E|), and by first steps from the long run given A, one move plus
    the mean first passage back into A from where it lands."""
    run = ep.stationary(walk_on(graph))
    nodes = sorted(graph)
    inside = set(data.draw(st.lists(st.sampled_from(nodes), min_size=1, unique=True)))
    twice_edges = 2 * graph.number_of_edges()
    kac = F(twice_edges, sum(graph.degree(u) for u in inside))
    weight = sum(graph.degree(u) for u in inside)
    first_steps = sum(
        F(graph.degree(a), weight) * F(1, graph.degree(a)) * (1 + run.mean_first_passage(inside, v))
        for a in inside
        for v in graph[a]
    )
    assert run.mean_return_time(inside) == kac == first_steps
    assert run.mean_return_time(lambda u: u in inside) == kac
    assert run.mean_return_time(sorted(inside)) == kac


def test_a_set_across_closed_classes_has_no_mean_return_time():
    run = ep.stationary(Table({0: {0: 1}, 1: {1: 1}, 2: {0: F(1, 2), 1: F(1, 2)}}, initial=2))
    with pytest.raises(ep.ModelError, match="meets 2 closed classes"):
        run.mean_return_time({0, 1})
    with pytest.raises(ep.ModelError, match="2 is transient"):
        run.mean_return_time({2})
    assert run.mean_return_time({0, 2}) == 1
    with pytest.raises(ep.ModelError, match=r"\(5, 0\) is not a reachable state"):
        run.mean_return_time((5, 0))  # a mistyped state, not a set of states
    assert run.mean_return_time((0, 2)) == 1  # a tuple of states is a set


def test_a_knight_returns_to_its_corner_in_168_moves_on_average():
    # 336 = the sum of the knight's move counts over the 64 squares; a corner has 2
    squares = list(itertools.product(range(8), repeat=2))
    jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    graph = nx.Graph()
    for x, y in squares:
        for dx, dy in jumps:
            if 0 <= x + dx < 8 and 0 <= y + dy < 8:
                graph.add_edge((x, y), (x + dx, y + dy))
    run = ep.stationary(walk_on(graph), starts=[(0, 0)])
    assert run.mean_return_time((0, 0)) == 168
    assert run.period() == 2  # a knight changes square colour every move


@st.composite
def random_chains(draw):
    """<= 7 states, each moving to 1-3 states with integer weights; some terminal."""
    n = draw(st.integers(1, 7))
    moves = {}
    for s in range(n):
        if s and draw(st.integers(0, 5)) == 0:
            moves[s] = None
            continue
        targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
        weights = draw(st.lists(st.integers(1, 4), min_size=len(targets), max_size=len(targets)))
        moves[s] = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
    rewards = {s: F(draw(st.integers(-3, 3))) for s in range(n) if moves[s] is not None}
    return Table(moves, 0, rewards)


def reachable_graph(chain):
    graph = nx.DiGraph()
    seen, frontier = {chain.initial}, [chain.initial]
    graph.add_node(chain.initial)
    while frontier:
        u = frontier.pop()
        for v, p in (chain.moves[u] or {}).items():
            graph.add_edge(u, v, p=p)
            if v not in seen:
                seen.add(v)
                frontier.append(v)
    return graph


@settings(max_examples=120, deadline=None)
@given(random_chains())
def test_classes_laws_and_settling_satisfy_their_equations(chain):
    run = ep.stationary(chain)
    graph = reachable_graph(chain)
    # the closed classes are networkx's attracting components, with their periodicity
    expected = {frozenset(c) for c in nx.attracting_components(graph)}
    assert {frozenset(c) for c in run.classes} == expected
    for members, law, period in zip(run.classes, run.laws, run.periods):
        inner = graph.subgraph(members)
        assert (period == 1) == (len(members) == 1 or nx.is_aperiodic(inner))
        # pi P = pi on the class, and the law sums to one
        assert sum(law.values()) == 1
        for v in members:
            inflow = sum(law[u] * inner[u][v]["p"] for u in inner.predecessors(v))
            assert chain.moves[v] is None or inflow == law[v]
    # settling: h_k(s) = sum_t P(t|s) h_k(t), 1 on class k, 0 on the others
    transient = [s for s in graph if not any(s in c for c in run.classes)]
    for k, members in enumerate(run.classes):
        for s in transient:
            h = run.class_probabilities(s)
            assert sum(h.values()) == 1
            mix = sum(
                p * (1 if t in members else run.class_probabilities(t).get(k, 0))
                for t, p in chain.moves[s].items()
                if t in members or t in transient
            )
            assert h.get(k, 0) == mix


@settings(max_examples=80, deadline=None)
@given(random_chains())
def test_visits_and_averages_match_gauss(chain):
    run = ep.stationary(chain)
    graph = reachable_graph(chain)
    recurrent = {s for c in run.classes for s in c}
    transient = [s for s in sorted(graph) if s not in recurrent]
    if chain.initial in transient:
        # the expected visits x solve x^T (I - Q) = e_start^T
        pos = {s: i for i, s in enumerate(transient)}
        A = [[F(int(i == j)) for i in range(len(transient))] for j in range(len(transient))]
        for u in transient:
            for v, p in chain.moves[u].items():
                if v in pos:
                    A[pos[v]][pos[u]] -= p
        x = gauss_solve(A, [[F(int(s == chain.initial))] for s in transient])
        assert run.expected_visits() == {s: x[pos[s]][0] for s in transient}
    # the long-run average: the limit law's mean reward
    law = run.limit_law()
    reward = sum(p * chain.rewards.get(s, 0) for s, p in law.items())
    assert run.long_run_average() == reward
    assert run.long_run_average(lambda s: 1) == sum(
        p for s, p in law.items() if chain.moves[s] is not None
    )


def test_first_passage_times_solve_their_equations_and_kac():
    # a ring of 5 with jumps: m(s) = 1 + sum_t P(t|s) m(t), m(target) = 0
    moves = {s: {(s + 1) % 5: F(2, 3), (s + 2) % 5: F(1, 3)} for s in range(5)}
    moves[0] = {1: F(1, 2), 3: F(1, 2)}
    chain = Table(moves)
    run = ep.stationary(chain)
    target = 4
    others = [s for s in range(5) if s != target]
    pos = {s: i for i, s in enumerate(others)}
    A = [[F(int(i == j)) for j in range(4)] for i in range(4)]
    for s in others:
        for t, p in moves[s].items():
            if t != target:
                A[pos[s]][pos[t]] -= p
    m = gauss_solve(A, [[F(1)] for _ in others])
    for s in others:
        assert run.mean_first_passage({target}, s) == m[pos[s]][0]
    assert run.mean_first_passage(lambda s: s == target, 0) == m[pos[0]][0]
    # Kac: the mean return time is one move plus the first passage from where it lands
    back = 1 + sum(p * m[pos[t]][0] for t, p in moves[target].items() if t != target)
    assert run.mean_return_time(target) == back == 1 / run.law()[target]


def test_absorbing_ends_give_the_ruin_formula():
    # fortunes 0..4, up with 2/5: P(reach 4 from 2) = (r^2 - 1)/(r^4 - 1), r = 3/2
    moves = {k: {k + 1: F(2, 5), k - 1: F(3, 5)} for k in range(1, 4)}
    moves.update({0: None, 4: None})
    run = ep.stationary(Table(moves, initial=2))
    r = F(3, 2)
    assert run.classes == ((4,), (0,))  # in the order found from 2
    assert run.class_probabilities()[0] == (r**2 - 1) / (r**4 - 1)
    assert run.periods == (1, 1)


def test_a_symbolic_two_state_chain():
    p, q = sympy.symbols("p q", positive=True)
    chain = Table({0: {1: p, 0: 1 - p}, 1: {0: q, 1: 1 - q}})
    law = ep.stationary(chain).law()
    assert sympy.simplify(law[0] - q / (p + q)) == 0
    assert sympy.simplify(law[1] - p / (p + q)) == 0


def test_a_policy_makes_a_chain():
    class Choose:
        initial = 0

        def outcome(self, s):
            return None

        def actions(self, s):
            return ("stay", "switch")

        def transition(self, s, a):
            return Dist({s: 1} if a == "stay" else {1 - s: 1})

    with pytest.raises(ModelError, match="offers 2 actions; .* give a policy"):
        ep.stationary(Choose())
    run = ep.stationary(Choose(), policy=lambda s: "switch")
    assert dict(run.law().items()) == {0: F(1, 2), 1: F(1, 2)} and run.period() == 2


def test_questions_without_an_answer_get_one_clear_line():
    moves = {0: {1: F(1, 2), 2: F(1, 2)}, 1: {1: F(1)}, 2: {2: F(1)}}
    run = ep.stationary(Table(moves))
    with pytest.raises(ModelError, match="2 closed classes"):
        run.law()
    assert run.limit_law() == Dist({1: F(1, 2), 2: F(1, 2)})
    with pytest.raises(
        ModelError, match="never leads to the target: the expected time is infinite"
    ):
        run.mean_first_passage({1})
    with pytest.raises(ModelError, match="transient"):
        run.mean_return_time(0)
    with pytest.raises(ModelError, match="no rewards"):
        ep.stationary(Ehrenfest(2)).long_run_average()
    with pytest.raises(ModelError, match="class must be a whole number from 0 to 1"):
        run.law(2)


def test_jupyter_shows_each_class():
    html = ep.stationary(Ehrenfest(2))._repr_html_()
    assert "LongRun: 3 states" in html and "class 0: 3 states, period 2" in html
    assert "1/2" in html  # the largest stationary chance, P(1) = 1/2


@settings(max_examples=40, deadline=None)
@given(random_chains())
def test_long_run_averages_match_storm(chain):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_long_run_average

    chain.rewards = {s: abs(r) for s, r in chain.rewards.items()}  # Storm takes r >= 0
    run = ep.stationary(chain)
    assert storm_long_run_average(run.graph) == run.long_run_average()


@settings(max_examples=30, deadline=None)
@given(random_chains())
def test_long_run_fractions_match_storm(chain):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_steady_state

    chain.rewards = {}  # the rewards play no part here (Storm takes r >= 0 only)
    run = ep.stationary(chain)
    law = run.limit_law()
    for state in run.states:
        if chain.moves[state] is not None:  # Storm moves a terminal state's mass to its sink
            assert storm_steady_state(run.graph, state) == law.get(state, 0)
