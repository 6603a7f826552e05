"""exactprob.engine.exact.depth_first: depth-first mode against the independent oracles of
tests/models.py (memoised recursion, every stationary policy or strategy pair, sympy's
fundamental matrix) and against the in-memory solver on every reachable state."""

from __future__ import annotations

import tracemalloc
from fractions import Fraction as F
from typing import ClassVar

import pytest
import sympy
from hypothesis import given, settings
from models import (
    Chain,
    DiceDuel,
    GamblersRuin,
    Pig,
    RedAndBlack,
    TableModel,
    acyclic_models,
    bellman_violations,
    check_against_optimum,
    check_against_recursion,
    cyclic_chains,
    cyclic_games,
    game_values,
    near_tie_cycles,
    optimal_by_enumeration,
    reachable,
    sympy_chain,
)

from exactprob import (
    Dist,
    ModelError,
    NonTerminationError,
    Solution,
    StateLimitError,
    dice,
    die,
    solve,
)
from exactprob.engine.exact import depth_first
from exactprob.engine.exact.depth_first import DepthFirstSolution, solve_depth_first


@pytest.fixture(scope="module", params=["float-guided", "exact"])
def guidance(request):
    """Every random model twice: with floats guiding every choice (``GUIDE_BITS`` 0),
    and with the default, under which their short fractions are compared exactly."""
    default = depth_first.GUIDE_BITS
    depth_first.GUIDE_BITS = 0 if request.param == "float-guided" else default
    yield request.param
    depth_first.GUIDE_BITS = default


@settings(max_examples=100, deadline=None)
@given(acyclic_models())
def test_random_acyclic_two_player_models_equal_recursion(guidance, model):
    check_against_recursion(model, solve_depth_first(model))


@settings(max_examples=60, deadline=None)
@given(cyclic_games(two_players=False))
def test_random_cyclic_mdps_equal_the_best_policy(guidance, model):
    states = reachable(model)
    check_against_optimum(model, solve_depth_first(model), optimal_by_enumeration(model, states))


@settings(max_examples=60, deadline=None)
@given(cyclic_games(two_players=True))
def test_random_cyclic_two_player_games_equal_the_saddle_point(guidance, model):
    maxmin, _ = game_values(model, reachable(model))
    check_against_optimum(model, solve_depth_first(model), maxmin)


@settings(max_examples=40, deadline=None)
@given(cyclic_chains())
def test_random_cyclic_chains_equal_the_fundamental_matrix(model):
    inner, terms, Q, R = sympy_chain(model, reachable(model))
    N = (sympy.eye(len(inner)) - Q).inv()
    values = N * R * sympy.Matrix([sympy.Rational(model.outcome(t)) for t in terms])
    steps = N * sympy.ones(len(inner), 1)
    solution = solve_depth_first(model)
    for i, s in enumerate(inner):
        assert solution.value(s) == F(str(values[i]))
        assert solution.expected_steps(s) == F(str(steps[i]))


@settings(max_examples=60, deadline=None)
@given(near_tie_cycles())
def test_near_ties_in_cycles_equal_the_in_memory_solver_everywhere(guidance, model):
    try:
        engine = solve(model)
    except NonTerminationError:
        with pytest.raises(NonTerminationError):
            solve_depth_first(model)
        return
    mine = solve_depth_first(model)
    assert list(mine.states) != [] and set(mine.states) == set(engine.states)
    for s in engine.states:
        assert (mine.value(s), mine.ties(s)) == (engine.value(s), engine.ties(s))
    assert not bellman_violations(model, {s: mine.value(s) for s in mine.states})


def test_pig_to_10_equals_the_in_memory_solver_and_the_bellman_equation():
    model = Pig(10)
    engine, mine = solve(model), solve_depth_first(model)
    assert mine.value() == engine.value() and len(mine) == len(engine.states)
    assert mine.policy_map() == engine.policy_map()
    assert not bellman_violations(model, {s: mine.value(s) for s in mine.states})


@pytest.mark.parametrize("p", [F(2, 5), F(1, 2)])
def test_red_and_black_ties_and_forward_queries(p):
    model = RedAndBlack(6, p)
    mine, engine = solve_depth_first(model), solve(model)
    check_against_optimum(model, mine, optimal_by_enumeration(model, reachable(model)))
    for s in mine.states:
        assert mine.absorption(s) == engine.absorption(s)
        assert mine.expected_steps(s) == engine.expected_steps(s)
        assert mine.outcome_distribution(s) == engine.outcome_distribution(s)


def test_lazy_gamblers_ruin_self_loops_and_the_networkx_view():
    model = GamblersRuin(F(1, 3), 5, start=2, lazy=True)  # stays put with 1/2 first
    mine = solve_depth_first(model)
    # ruin with r = q/p = 2: P(reach 5 from 2) = (r^2 - 1) / (r^5 - 1) = 3/31
    assert mine.value() == F(3, 31)
    assert mine.to_networkx().number_of_nodes() == len(mine)


def test_a_terminal_initial_state():
    mine = solve_depth_first(TableModel("t", {"t": F(-7, 3)}, {}))
    assert (mine.value(), mine.policy(), mine.ties(), len(mine)) == (F(-7, 3), None, (), 1)
    assert mine.absorption() == Dist({"t": 1}) and mine.expected_steps() == 0


def test_a_self_loop_alone_is_a_do_over_and_a_dead_loop_is_refused():
    # "wait" stays with 1/2, else wins: V = (1/2) / (1 - 1/2) = 1 against "go" at 1/2
    model = TableModel(
        "s",
        {"won": 1, "half": F(1, 2)},
        {"s": (0, {"go": {"half": F(1)}, "wait": {"s": F(1, 2), "won": F(1, 2)}})},
    )
    mine = solve_depth_first(model)
    assert (mine.value(), mine.policy(), mine.ties()) == (1, "wait", ("wait",))
    dead = TableModel("s", {"t": 1}, {"s": (0, {"stay": {"s": F(1)}})})
    with pytest.raises(NonTerminationError):
        solve_depth_first(dead)


def test_the_state_limit_counts_every_state_seen():
    assert len(solve_depth_first(Chain(10), max_states=11)) == 11
    with pytest.raises(StateLimitError, match="more than 10 reachable states"):
        solve_depth_first(Chain(10), max_states=10)
    with pytest.raises(StateLimitError, match="whole number"):
        solve_depth_first(Chain(10), max_states=0)


class EndlessLine:
    """Up a line forever: from ``s`` to ``s + 1`` or ``s + 2``, a half each."""

    initial = 0

    def outcome(self, s):
        return None

    def actions(self, s):
        return ("up",)

    def transition(self, s, a):
        return Dist({s + 1: "1/2", s + 2: "1/2"})


def refusal_peak(method: str, states: int) -> int:
    """The most memory (bytes Python allocated, tracemalloc) ``method`` holds before it
    refuses the endless line at ``states`` states."""
    tracemalloc.start()
    try:
        with pytest.raises(StateLimitError, match="never reaches an end"):
            solve(EndlessLine(), method=method, max_states=states)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_model_that_never_ends_is_refused_within_exact_modes_memory():
    """No component closes on the line, so depth-first mode holds every state open:
    its flat stack costs about what exact mode's graph does (219 bytes a state against
    182; with a tuple and three lists per open state it held 955, 5.2 times as much)."""
    depth_first_peak = refusal_peak("depth-first", 50_000)
    assert depth_first_peak <= 1.5 * refusal_peak("exact", 50_000)


def test_several_starts_come_first_in_the_states_as_in_exact_mode():
    # a ruin walk to 6 from 3 and from 1: both starts before anything the search finds
    model = GamblersRuin(F(1, 3), 6, 3)
    mine, theirs = (solve(model, method=m, starts=[3, 1]) for m in ("depth-first", "exact"))
    assert list(mine.states)[:2] == [3, 1] == list(theirs.states)[:2]
    assert sorted(mine.states) == sorted(theirs.states) == list(range(7))
    assert all(mine.value(s) == theirs.value(s) for s in theirs.states)


def test_bad_models_get_the_engines_messages():
    no_action = TableModel("s", {}, {"s": (0, {})})
    with pytest.raises(ModelError, match="is empty"):
        solve_depth_first(no_action)
    p = sympy.Symbol("p")
    symbolic = TableModel("s", {"t": 1, "u": 0}, {"s": (0, {"go": {"t": p, "u": 1 - p}})})
    with pytest.raises(ModelError, match="depth-first mode solves rational models"):
        solve_depth_first(symbolic)
    with pytest.raises(ModelError, match="not a reachable state"):
        solve_depth_first(TableModel("t", {"t": 1}, {})).value("elsewhere")


def test_the_same_questions_as_a_solution_and_no_graph_kept():
    questions = {name for name in dir(Solution) if not name.startswith("_")}
    # every action's value, and the derivation written from them, read the kept graph
    kept = {"graph", "system", "field", "action_values", "derivation"}
    assert questions - kept <= set(dir(DepthFirstSolution))
    mine = solve_depth_first(Pig(6))
    assert not any(hasattr(mine, name) for name in ("graph", "system"))


class Race:
    """Reach square 40 within 30 turns, moving a d6 or 2d4 each turn (one player);
    landing on 40-41 wins, past it or out of turns loses. Values reach 6^30 and more.
    A d6 can move 1 and 2d4 can move 7, so neither action reaches all successors of the
    other, and the floats are consulted (actions that share their successors are valued
    together exactly)."""

    initial = (0, 0)
    moves: ClassVar = {"d6": die(6), "2d4": dice(2, 4)}

    def outcome(self, s):
        turn, square = s
        if square >= 40:
            return 1 if square <= 41 else 0
        return 0 if turn == 30 else None

    def actions(self, s):
        return ("d6", "2d4")

    def transition(self, s, a):
        return self.moves[a].map(lambda r: (s[0] + 1, s[1] + r))


def test_long_values_are_compared_in_floats_first_and_equal_recursion(monkeypatch):
    guided = []
    candidates = depth_first._Search._candidates

    def counted(self, choices, player):
        found = candidates(self, choices, player)
        guided.append(len(found))
        return found

    monkeypatch.setattr(depth_first, "GUIDE_BITS", 32)
    monkeypatch.setattr(depth_first._Search, "_candidates", counted)
    check_against_recursion(Race(), solve_depth_first(Race()))
    assert guided.count(1) > 150  # the floats alone settled these states


def test_actions_sharing_successors_equal_recursion(guidance):
    """Both dice reach the same squares: all actions are valued together, exactly."""
    model = DiceDuel(30, 18)
    check_against_recursion(model, solve_depth_first(model))
