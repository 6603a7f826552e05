"""exactprob.engine.graph: explore() and the component order used by the solver.

Reachable sets are checked against an independent breadth-first search
(``models.reachable``), through the networkx view of the compact graph (so the view is
checked as well); the component order against networkx's condensation DAG.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from typing import Any

import networkx as nx
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import Chain, GamblersRuin, Pig, RedAndBlack, TableModel, TwoDice, probs, reachable

from exactprob import Dist, ModelError, StateLimitError, die, explore
from exactprob.engine._internal.order import strong_components
from exactprob.engine.graph.state_graph import StateGraph


def nx_explore(model, **options):
    """The networkx view of the explored graph."""
    return explore(model, **options).to_networkx()


def test_two_dice_graph():
    G = nx_explore(TwoDice())
    # 1 start + 6 first rolls + 11 totals (2..12)
    assert G.number_of_nodes() == 18
    assert set(G.nodes) == reachable(TwoDice())
    assert G.graph["initial"] == ("start",) and G.graph["symbolic"] is False
    start = G.nodes[("start",)]
    assert start["outcome"] is None and start["player"] == 0 and start["actions"] == ("roll",)
    end = G.nodes[("end", 12)]
    assert end["outcome"] == 5 and end["actions"] == ()
    assert G.edges[("one", 6), ("end", 12)]["probs"] == {"roll": F(1, 6)}
    assert G.out_degree(("end", 12)) == 0


@pytest.mark.parametrize(
    "model",
    [
        TwoDice(),
        GamblersRuin(F(2, 5), 5, 2),
        GamblersRuin(F(1, 3), 4, 1, lazy=True),
        RedAndBlack(8, F(2, 5)),
        Pig(4),
    ],
    ids=["two-dice", "ruin", "lazy-ruin", "red-and-black", "pig"],
)
def test_graph_matches_model(model):
    G = nx_explore(model)
    assert set(G.nodes) == reachable(model)
    for s, data in G.nodes(data=True):
        o = model.outcome(s)
        assert data["outcome"] == o
        if o is not None:
            assert data["actions"] == ()
            continue
        assert data["actions"] == tuple(model.actions(s))
        assert data["player"] == (model.player(s) if hasattr(model, "player") else 0)
        for a in data["actions"]:
            edges = {t: e["probs"][a] for t, e in G[s].items() if a in e["probs"]}
            assert edges == probs(model, s, a)  # exact, and so sums to 1
            assert sum(edges.values()) == 1


def safe_or_risky(player: int) -> TableModel:
    """One choice for ``player`` between two gambles on the same two terminals."""
    return TableModel(
        "s",
        {"w": 1, "l": 0},
        {
            "s": (
                player,
                {"safe": {"w": F(1, 2), "l": F(1, 2)}, "risky": {"w": F(1, 3), "l": F(2, 3)}},
            )
        },
    )


def test_edge_shared_by_two_actions():
    G = nx_explore(safe_or_risky(0))
    assert G.edges["s", "w"]["probs"] == {"safe": F(1, 2), "risky": F(1, 3)}
    assert G.edges["s", "l"]["probs"] == {"safe": F(1, 2), "risky": F(2, 3)}


def test_self_loop_edge():
    G = nx_explore(GamblersRuin(F(1, 2), 3, 1, lazy=True))
    assert G.has_edge(1, 1) and G.edges[1, 1]["probs"] == {"bet": F(1, 2)}


def test_symbolic_flag():
    p = sympy.Symbol("p")
    G = nx_explore(GamblersRuin(p, 3, 1))
    assert G.graph["symbolic"] is True
    assert sympy.expand(G.edges[1, 2]["probs"]["bet"] - p) == 0


def test_terminal_initial_state():
    model = TableModel("t", {"t": F(-7, 3)}, {})
    G = nx_explore(model)
    assert list(G.nodes) == ["t"] and G.nodes["t"]["outcome"] == F(-7, 3)


class Counter:
    """An endless walk 0 -> 1 -> 2 -> ... (or a ring of ``n`` states when ``n`` given);
    counts calls to transition()."""

    initial = 0

    def __init__(self, ring=None):
        self.ring = ring
        self.calls = 0

    def outcome(self, s):
        return None

    def actions(self, s):
        return ("step",)

    def transition(self, s, a):
        self.calls += 1
        nxt = s + 1 if self.ring is None else (s + 1) % self.ring
        return Dist({nxt: 1})


def test_state_limit_exact_boundary():
    # a ring of exactly 10 states: allowed with max_states=10, refused with 9
    assert len(explore(Counter(ring=10), max_states=10)) == 10
    with pytest.raises(StateLimitError, match="9"):
        explore(Counter(ring=10), max_states=9)


def test_state_limit_stops_early_on_an_infinite_model():
    model = Counter()
    with pytest.raises(StateLimitError) as info:
        explore(model, max_states=100)
    assert "max_states" in str(info.value)
    assert isinstance(info.value, ValueError)
    # the walk stops at once: state 99 is the 100th, its successor is refused
    assert model.calls == 100


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "10", None])
def test_bad_max_states(bad):
    with pytest.raises(StateLimitError):
        explore(TwoDice(), max_states=bad)


def test_empty_actions_refused():
    model = TableModel("s", {}, {"s": (0, {})})
    with pytest.raises(ModelError, match="empty"):
        explore(model)


def test_repeated_action_refused():
    class Twice(TwoDice):
        def actions(self, s):
            return ("roll", "roll")

    with pytest.raises(ModelError, match="repeats"):
        explore(Twice())


@pytest.mark.parametrize(
    "bad", [{"end": 1}, [("end", 1)], None, die(6).map(lambda x: ("end", x))._p]
)
def test_transition_must_return_a_dist(bad):
    class Bad(TwoDice):
        def transition(self, s, a):
            return bad

    with pytest.raises(ModelError, match="not a Dist"):
        explore(Bad())


@pytest.mark.parametrize("who", [2, -1, True, None, "0"])
def test_bad_player_refused(who):
    class Bad(TwoDice):
        def player(self, s):
            return who

    with pytest.raises(ModelError, match="player"):
        explore(Bad())


def test_float_outcome_refused():
    model = TableModel("s", {"t": 0.1}, {"s": (0, {"a": {"t": 1}})})
    with pytest.raises(ModelError, match=r"outcome\('t'\) is not an exact number: float 0.1"):
        explore(model)


def test_progress_bar_does_not_change_the_graph():
    G1, G2 = nx_explore(Pig(4)), nx_explore(Pig(4), progress=True)
    assert set(G1.nodes) == set(G2.nodes) and set(G1.edges) == set(G2.edges)


# -- components in solve order -------------------------------------------------------------


@settings(max_examples=80)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n
        ).map(lambda e: (n, e))
    )
)
def test_components_come_after_every_component_they_reach(graph):
    n, edges = graph
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    compact = graph_of(G)
    comps = [frozenset(compact.states[s] for s in c) for c in strong_components(compact)]
    assert comps.pop() == {ROOT}  # it reaches everything, so it comes last
    # a partition of the nodes into exactly the strongly connected components
    assert sorted(map(sorted, comps)) == sorted(map(sorted, nx.strongly_connected_components(G)))
    assert sum(len(c) for c in comps) == n
    position = {v: i for i, c in enumerate(comps) for v in c}
    # every edge leaving a component goes to one solved earlier
    for u, v in G.edges:
        assert position[v] <= position[u]
        if position[v] == position[u]:
            assert nx.has_path(G, v, u)  # same component: mutually reachable


ROOT = -1


def graph_of(G: nx.DiGraph) -> StateGraph:
    """A :class:`StateGraph` with the nodes and edges of ``G`` (each node one action, to
    its successors uniformly; a node without successors is terminal), every node
    reachable from a start node ``ROOT`` that moves to all of them."""

    class FromGraph:
        initial = ROOT

        def outcome(self, s):
            return 0 if s != ROOT and G.out_degree(s) == 0 else None

        def actions(self, s):
            return ("go",)

        def transition(self, s, a):
            nxt = list(G.nodes) if s == ROOT else list(G.successors(s))
            return Dist({t: F(1, len(nxt)) for t in nxt})

    compact = explore(FromGraph())
    assert len(compact) == G.number_of_nodes() + 1
    return compact


def test_compact_columns():
    G = explore(safe_or_risky(1))
    assert G.states == ["s", "w", "l"] and G.index == {"s": 0, "w": 1, "l": 2}
    assert list(G.players) == [1, 0, 0] and G.actions == [("safe", "risky"), (), ()]
    assert G.outcomes == [None, 1, 0]
    assert list(G.choice_start) == [0, 2, 2, 2] and list(G.edge_start) == [0, 2, 4]
    assert list(G.targets) == [1, 2, 1, 2]
    assert [G.probabilities[i] for i in G.prob_ids] == [F(1, 2), F(1, 2), F(1, 3), F(2, 3)]
    assert len(G.probabilities) == 3  # 1/2 is stored once
    assert list(G.choice_edges(1)) == [(1, F(1, 3)), (2, F(2, 3))]
    assert G.number_of_transitions() == 4 and G.initial == "s"
    assert G.id_of("l") == 2 and not G.has_self_loop(0)
    with pytest.raises(ModelError, match="not a reachable state"):
        G.id_of("elsewhere")
    with pytest.raises(ModelError, match="not a reachable state"):
        G.id_of([])  # unhashable


def test_equal_action_tuples_are_stored_once():
    G = explore(Pig(6))
    assert len({id(a) for a in G.actions}) == len(set(G.actions))


class _Walk:
    """0 -> 1 -> 2 -> 3 (terminal, worth 1): the base of the broken models below."""

    initial: Any = 0

    def outcome(self, s: Any) -> Any:
        return 1 if s == 3 else None

    def actions(self, s: Any) -> Any:
        return ("go",)

    def transition(self, s: Any, a: Any) -> Any:
        return Dist({s + 1: 1})


class _ListState(_Walk):
    def __init__(self) -> None:
        self.initial = [0]


class _NoneActions(_Walk):
    def actions(self, s: Any) -> Any:
        return None


class _StringActions(_Walk):
    def actions(self, s: Any) -> Any:
        return "go"  # the letters 'g' and 'o' would become two actions


class _NoInitial:
    def outcome(self, s: Any) -> Any:
        return None

    def actions(self, s: Any) -> Any:
        return ("go",)

    def transition(self, s: Any, a: Any) -> Any:
        return Dist({s: 1})


class _NoTransition:
    initial = 0

    def outcome(self, s: Any) -> Any:
        return None

    def actions(self, s: Any) -> Any:
        return ("go",)


@pytest.mark.parametrize("solver", ["solve", "solve_depth_first"])
@pytest.mark.parametrize(
    "model, fragment",
    [
        (_ListState(), "the initial state [0] is not hashable (a list)"),
        (_NoneActions(), "actions(0) returned None, not a sequence of actions"),
        (_StringActions(), "actions(0) returned 'go', not a sequence of actions"),
        (_NoInitial(), "the model has no initial state"),
        (_NoTransition(), "the model has no transition() method"),
    ],
    ids=["list state", "None actions", "string actions", "no initial", "no transition"],
)
def test_a_broken_model_is_a_model_error_naming_the_fault(
    solver: str, model: Any, fragment: str
) -> None:
    """Not a TypeError or AttributeError from deep inside the engine."""
    import exactprob
    from exactprob.engine.exact.depth_first import solve_depth_first

    solve_with = solve_depth_first if solver == "solve_depth_first" else exactprob.solve
    with pytest.raises(ModelError, match=re.escape(fragment)):
        solve_with(model)


class _Growing(_Walk):
    """Every state splits in two larger ones, 2s and 2s + 1: no end, and each state longer
    than the last (an estimate from the state count alone cannot see the memory coming).
    Depth first, the search goes 65,536 deep before its first check, through states of up
    to 65,536 bits (8 KiB), about 0.3 GB along the path: states as tuples of their bits
    took 8 GB and a minute."""

    initial = 1

    def outcome(self, s: Any) -> Any:
        return None

    def transition(self, s: Any, a: Any) -> Any:
        return Dist({2 * s: "1/2", 2 * s + 1: "1/2"})


@pytest.mark.parametrize("solver", ["solve", "solve_depth_first"])
def test_exploration_stops_before_memory_runs_out(
    solver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a machine whose usable memory is already spent, exploring stops at its first
    check (65,536 states) with one ResourceError, far below the state limit."""
    import exactprob
    import exactprob.util.resources
    from exactprob.engine.exact.depth_first import solve_depth_first
    from exactprob.errors import ResourceError

    used = exactprob.util.resources.resident_memory()
    monkeypatch.setattr(exactprob.util.resources, "physical_memory", lambda: used)
    solve_with = solve_depth_first if solver == "solve_depth_first" else exactprob.solve
    with pytest.raises(ResourceError, match=r"\(65,536 states so far\) has used"):
        solve_with(_Growing(), max_states=10**7)


def test_an_unhashable_action_is_refused_by_name():
    class ListAction:
        initial = 0

        def outcome(self, s):
            return 1 if s == 1 else None

        def actions(self, s):
            return ("stay", ["go"])

        def transition(self, s, a):
            return Dist({1: 1})

    with pytest.raises(ModelError, match=r"the action \['go'\], which is not hashable"):
        explore(ListAction())


@pytest.mark.parametrize("expected", [1001, 5000])
def test_a_model_s_expected_states_are_the_exploring_bar_s_total(capsys, expected):
    explore(Chain(1000, expected), progress=True)
    assert f"0/{expected} " in capsys.readouterr().err


@pytest.mark.parametrize("expected", [0, True, "1001", 1001.0, None])
def test_an_expected_count_that_is_no_whole_number_is_ignored(capsys, expected):
    explore(Chain(1000, expected), progress=True)
    assert "/1" not in capsys.readouterr().err
