"""exactprob.engine._internal.acyclic: the acyclic part of a graph solved a level at a time in integers.

Oracles: memoised Fraction recursion with the do-over rule for self-loops
(tests/models.py), the component solver with the level sweep switched off (the path the
solver took before the sweep existed, itself checked against brute force in
test_solve.py), and the definition of a level checked edge by edge.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from models import (
    DiceDuel,
    Pig,
    TableModel,
    acyclic_models,
    check_against_recursion,
    cyclic_games,
    near_tie_cycles,
    pass_through_games,
)

import exactprob.engine._internal.acyclic as levels_module
import exactprob.engine._internal.order as order_module
import exactprob.engine.exact.solving as solve_module
from exactprob import Dist, NonTerminationError, die, explore, solve
from exactprob.engine._internal.acyclic import Levels, pass_through, peel, sweep
from exactprob.engine._internal.order import edge_ends


def without_levels(monkeypatch):
    """Make the solver find no level: every state goes through the component loop."""

    def nothing(G):  # the representatives kept: they say which actions stay for ever
        _, targets, first_edge = edge_ends(G)
        representative = pass_through(G, first_edge)
        level = np.full(len(G), -1, dtype=np.int64)
        return Levels(level, [], representative, [], representative[targets])

    monkeypatch.setattr(solve_module, "peel", nothing)


def check_levels(G, levels):
    """The definition, on the graph with every pass-through state's move redirected to
    its representative: a state with level k moves only to itself or to lower levels,
    and to a lower level k-1 at least once (else it would be lower); a state without a
    level moves to another state without one (so, the graph being finite, reaches a
    cycle). A pass-through state has one action and one move; following such moves from
    it reaches its representative, which is no pass-through, and whose level it shares."""
    sources, targets, first_edge = edge_ends(G)
    level, representative = levels.level, levels.representative
    for state in np.flatnonzero(representative != np.arange(len(G))).tolist():
        at = state
        while representative[at] != at:
            assert G.choice_start[at + 1] - G.choice_start[at] == 1
            assert first_edge[at + 1] - first_edge[at] == 1 and targets[first_edge[at]] != at
            at = int(targets[first_edge[at]])
        assert at == representative[state] and level[state] == level[at]
    kept = representative[sources] == sources
    sources, targets = sources[kept], representative[targets[kept]]
    moving = sources != targets
    s, t = sources[moving], targets[moving]
    has = level[s] >= 0
    assert np.all(level[t][has] >= 0) and np.all(level[t][has] < level[s][has])
    for state in np.flatnonzero((level > 0) & (representative == np.arange(len(G)))).tolist():
        assert level[t[s == state]].max() == level[state] - 1
    for state in np.flatnonzero(level < 0).tolist():
        assert np.any(level[t[s == representative[state]]] < 0)
    for k, (front, followers) in enumerate(zip(levels.fronts, levels.followers, strict=True)):
        assert np.all(level[front] == k) and np.all(representative[front] == front)
        assert np.all(level[followers] == k) and np.all(representative[followers] != followers)
    assert sum(map(len, levels.fronts + levels.followers)) == int(np.sum(level >= 0))


#: A level of at most NARROW states is valued one action at a time in Python, a wider one
#: by numpy passes: 0 sends every level through numpy, a huge bound through Python.
BOTH_PATHS = pytest.mark.parametrize("narrow", [0, 10**9], ids=["numpy", "python"])


def narrow_levels(monkeypatch: pytest.MonkeyPatch, narrow: int) -> None:
    monkeypatch.setattr(levels_module, "NARROW", narrow)
    monkeypatch.setattr(order_module, "NARROW", narrow)


@BOTH_PATHS
@settings(max_examples=150)
@given(model=acyclic_models(self_loops=True))
def test_random_models_with_self_loops_equal_the_do_over_recursion(model, narrow):
    with pytest.MonkeyPatch.context() as patch:
        narrow_levels(patch, narrow)
        check_against_recursion(model, solve(model), self_loops=True)


@BOTH_PATHS
@settings(max_examples=60)
@given(model=acyclic_models(self_loops=True))
def test_levels_are_longest_paths_to_the_end(model, narrow):
    G = explore(model)
    with pytest.MonkeyPatch.context() as patch:
        narrow_levels(patch, narrow)
        levels = peel(G)
    assert levels.complete
    check_levels(G, levels)


@settings(max_examples=60, deadline=None)
@given(near_tie_cycles())
def test_levels_of_cyclic_graphs(model):
    G = explore(model)
    check_levels(G, peel(G))


@BOTH_PATHS
@settings(max_examples=80, deadline=None)
@given(model=cyclic_games(two_players=True))
def test_mixed_graphs_equal_the_component_solver(model, narrow):
    """Terminal states and states that reach no cycle are swept, the rest goes through
    the component loop reading the swept values: same values, policy and ties as the
    component loop alone."""
    with pytest.MonkeyPatch.context() as patch:
        narrow_levels(patch, narrow)
        swept = solve(model)
    with pytest.MonkeyPatch.context() as patch:
        without_levels(patch)
        alone = solve(model)
    for s in alone.states:
        assert swept.value(s) == alone.value(s)
        assert swept.ties(s) == alone.ties(s)


@settings(max_examples=150, deadline=None)
@given(model=pass_through_games())
def test_pass_through_states_equal_the_component_solver(model):
    """Runs of pass-through states contracted before peeling, into cycles, into terminal
    states, and in loops that never end: the same values, policy and ties as the
    component loop alone, or the same refusal."""
    G = explore(model)
    check_levels(G, peel(G))
    with pytest.MonkeyPatch.context() as patch:
        without_levels(patch)
        try:
            alone = solve(model)
        except NonTerminationError:
            alone = None
    if alone is None:
        with pytest.raises(NonTerminationError):
            solve(model)
        return
    swept = solve(model)
    for s in alone.states:  # the policy is one of the ties (policy iteration's in a cycle)
        assert swept.value(s) == alone.value(s) and swept.ties(s) == alone.ties(s)
        assert swept.policy(s) in (swept.ties(s) or (alone.policy(s),))


def test_a_deterministic_chain_is_one_level():
    """s -> s + 1 for 10,000 states, then a die decides: every state of the chain is a
    pass-through of the last one, valued once, on one level."""
    n = 10_000

    class Chain:
        initial = 0

        def outcome(self, s):
            return s - n if s > n else None

        def actions(self, s):
            return ("step",)

        def transition(self, s, a):
            return die(6).map(lambda r: n + r) if s == n else Dist({s + 1: 1})

    G = explore(Chain())
    levels = peel(G)
    assert len(levels.fronts) == 2 and levels.followers[1].tolist() == list(range(n))
    solved = solve(Chain())
    assert solved.value(0) == solved.value(n - 1) == F(7, 2) and solved.policy(0) == "step"


def test_pig_with_a_swept_lower_part_equals_the_component_solver(monkeypatch):
    """Pig to 8 against hold-at-4 with a lead-in: a chain of dice rolls before the game
    (reaching no cycle on its own, it is swept; the game's states are not)."""

    class LeadIn:
        def __init__(self):
            self.pig = Pig(8, opponent_hold=4)
            self.initial = ("lead", 0)

        def outcome(self, s):
            return None if s[0] == "lead" else self.pig.outcome(s)

        def player(self, s):
            return 0 if s[0] == "lead" else self.pig.player(s)

        def actions(self, s):
            return ("roll",) if s[0] == "lead" else self.pig.actions(s)

        def transition(self, s, a):
            if s[0] == "lead":  # roll a die: a 6 starts the game 3 points ahead
                return die(6).map(lambda r: (3 if r == 6 else 0, 0, 0, 0))
            return self.pig.transition(s, a)

    G = explore(LeadIn())
    levels = peel(G)
    assert not levels.complete and levels.level[0] < 0  # the lead-in reaches the game
    terminal = [s for s in range(len(G)) if G.outcomes[s] is not None]
    assert set(levels.fronts[0].tolist()) == set(terminal)
    swept = solve(LeadIn())
    without_levels(monkeypatch)
    alone = solve(LeadIn())
    for s in alone.states:
        assert swept.value(s) == alone.value(s) and swept.ties(s) == alone.ties(s)


@BOTH_PATHS
def test_two_players_and_ties_without_floats(monkeypatch, narrow):
    """DiceDuel: both players, shared successors, many exact ties; the sweep neither
    consults floats nor the per-state decision."""
    narrow_levels(monkeypatch, narrow)

    def unused(*args):
        raise AssertionError("the per-state solver was used on an acyclic graph")

    monkeypatch.setattr(solve_module._Solver, "_candidates", unused)
    monkeypatch.setattr(solve_module._Solver, "_decide", unused)
    model = DiceDuel(30, 20)
    S = solve(model)
    check_against_recursion(model, S)
    assert sum(len(S.ties(s)) == 2 for s in S.states) > 10


@BOTH_PATHS
def test_an_action_that_stays_forever_is_never_chosen(monkeypatch, narrow):
    """Player 1 would like "wait" (it never ends, so it has no value): "go" is chosen
    even though it comes later and is worth the most to player 0."""
    narrow_levels(monkeypatch, narrow)
    model = TableModel(
        "s",
        {"win": 1, "lose": 0},
        {
            "s": (1, {"wait": {"s": F(1)}, "go": {"win": F(2, 3), "s": F(1, 3)}}),
        },
    )
    S = solve(model)
    assert S.value() == 1 and S.policy() == "go" and S.ties() == ("go",)
    stuck = TableModel("s", {"end": 0}, {"s": (0, {"wait": {"s": F(1)}, "hold": {"s": F(1)}})})
    with pytest.raises(NonTerminationError, match="returns to it with probability 1"):
        solve(stuck)


@BOTH_PATHS
def test_level_denominators_are_reduced(monkeypatch, narrow):
    """Every move of a random walk ends in a win, so every value is 1: each level's
    common factor is divided out and the denominators stay 1 (not 6 to the level)."""
    narrow_levels(monkeypatch, narrow)

    class Walk:
        initial = 0

        def outcome(self, s):
            return 1 if s >= 100 else None

        def actions(self, s):
            return ("roll",)

        def transition(self, s, a):
            return die(6).map(lambda r: s + r)

    G = explore(Walk())
    swept = sweep(G, peel(G))
    assert set(swept.denominators) == {1}
    assert solve(Walk()).value() == 1


def test_values_are_reduced_on_request():
    """A solution of an acyclic graph keeps numerators; the reduced fraction appears
    when a value is read."""

    class Coin:
        initial = 0

        def outcome(self, s):
            return s - 3 if s >= 3 else None

        def actions(self, s):
            return ("flip",)

        def transition(self, s, a):
            return Dist({s + 1: F(1, 2), s + 2: F(1, 2)})

    S = solve(Coin())
    # V(2) = (0 + 1) / 2, V(1) = (1/2 + 0) / 2, V(0) = (1/4 + 1/2) / 2
    assert S.value() == F(3, 8) and S.value(1) == F(1, 4) and S.value(2) == F(1, 2)


@pytest.mark.parametrize("method", ["exact", "depth-first", "alone"])
def test_an_action_back_through_one_move_states_is_no_tie(monkeypatch, method):
    """ "wait" goes to a one-move state that leads straight back: a self-loop, never
    chosen and no tie, in the level sweep, depth-first mode and the component solver
    alone, though "go" is worth nothing more (0: every value is 0 but the loss)."""
    model = TableModel(
        "s",
        {"end": 0},
        {"s": (0, {"wait": {"p": F(1)}, "go": {"end": F(1)}}), "p": (0, {"back": {"s": F(1)}})},
    )
    if method == "alone":
        without_levels(monkeypatch)
    solved = solve(model, method="depth-first") if method == "depth-first" else solve(model)
    assert solved.ties("s") == ("go",) and solved.policy("s") == "go"
