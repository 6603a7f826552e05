"""Rewards: the value of a state is the expected total reward until play ends plus the
terminal outcome.

Every expected value is derived independently of the engine: closed forms (derivations
in the comments), the memoised recursion and Gauss-Jordan policy evaluation of
``tests/models.py`` (written from the Bellman equation with the reward added), policy
enumeration for games, and Storm's exact engine on MDPs with non-negative rewards.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from unittest import mock

import networkx as nx
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    RewardTable,
    acyclic_models,
    check_against_recursion,
    check_optimal,
    cyclic_chains,
    cyclic_games,
    game_values,
    gauss_solve,
    near_tie_cycles,
    policy_values,
    reachable,
    small_values,
)

import exactprob as ep
import exactprob.engine.exact.solving as solve_module
from exactprob import Dist, ModelError, NonTerminationError
from exactprob.engine.exact.policies import evaluate
from exactprob.engine.graph import explore


@st.composite
def with_rewards(draw, models, *, nonnegative=False):
    """A model of ``models`` with a reward on every action: any small value, except on an
    action that stays where it is for ever (a "wait"), whose reward must not favour the
    mover (at most 0 for player 0, at least 0 for player 1)."""
    model = draw(models)
    values = st.integers(0, 3) if nonnegative else small_values
    rewards = {}
    for s, (player, actions) in model.nodes.items():
        for a, moves in actions.items():
            r = F(draw(values))
            if moves == {s: 1}:
                r = -abs(r) if player == 0 else abs(r)
            rewards[s, a] = r
    return RewardTable(model.initial, model.terminals, model.nodes, rewards)


# -- closed forms ------------------------------------------------------------------------


class Rolls:
    """Roll until a success of probability ``p``, one point per roll."""

    initial = "rolling"

    def __init__(self, p):
        self.p = p

    def outcome(self, s):
        return 0 if s == "done" else None

    def actions(self, s):
        return ("roll",)

    def transition(self, s, a):
        return Dist({"done": self.p, "rolling": 1 - self.p})

    def reward(self, s, a):
        return 1


def test_waiting_for_a_six_takes_six_rolls_on_average():
    # E = 1 + (5/6) E  =>  E = 6 (the geometric law's mean 1/p)
    assert ep.solve(Rolls(F(1, 6))).value() == 6


def test_waiting_time_is_symbolic_in_the_success_chance():
    p = sympy.Symbol("p", positive=True)
    assert sympy.simplify(ep.solve(Rolls(p)).value() - 1 / p) == 0


class Ruin:
    """A walk on 0..n stepping up with probability p, one point per step: the expected
    duration of the gambler's ruin."""

    def __init__(self, n, start, p):
        self.n, self.initial, self.p = n, start, p

    def outcome(self, k):
        return 0 if k in (0, self.n) else None

    def actions(self, k):
        return ("bet",)

    def transition(self, k, a):
        return Dist({k + 1: self.p, k - 1: 1 - self.p})

    def reward(self, k, a):
        return 1


@pytest.mark.parametrize("n", [2, 5, 12])
def test_fair_ruin_lasts_k_times_n_minus_k(n):
    # D(k) = 1 + (D(k-1) + D(k+1))/2, D(0) = D(n) = 0: the quadratic D(k) = k (n - k)
    solution = ep.solve(Ruin(n, 1, F(1, 2)))
    assert all(solution.value(k) == k * (n - k) for k in range(n + 1))


def test_biased_ruin_duration_matches_the_textbook_formula():
    # Feller, vol. 1, XIV.3: D(k) = k/(q-p) - n/(q-p) (1 - (q/p)^k) / (1 - (q/p)^n)
    p = sympy.Symbol("p", positive=True)
    n, k = 4, 2
    q = 1 - p
    r = q / p
    formula = k / (q - p) - n / (q - p) * (1 - r**k) / (1 - r**n)
    value = ep.solve(Ruin(n, k, p)).value()
    assert sympy.simplify(value - formula) == 0


def test_a_symbolic_reward_scales_the_duration():
    # each step earns c: the fair ruin's total is c k (n - k)
    c = sympy.Symbol("c")

    class Priced(Ruin):
        def reward(self, k, a):
            return c

    assert sympy.expand(ep.solve(Priced(5, 2, F(1, 2))).value() - 6 * c) == 0


class PigTurn:
    """One turn of Pig (a six-sided die; a 1 loses the turn total): the reward is the
    total banked on holding."""

    initial = 0

    def outcome(self, s):
        return 0 if s == "end" else None

    def actions(self, s):
        return ("roll", "hold") if s else ("roll",)

    def transition(self, s, a):
        if a == "hold" or s >= 100:
            return Dist({"end": 1})
        return Dist({"end": F(1, 6), **{s + k: F(1, 6) for k in range(2, 7)}})

    def reward(self, s, a):
        return s if a == "hold" or s >= 100 else 0


def test_a_pig_turn_holds_at_twenty_with_a_tie():
    # Rolling at total t gains (2+...+6)/6 = 20/6 and loses t/6: the gain (20 - t)/6 is
    # zero at t = 20, and holding is best from there on (the gain only falls).
    solution = ep.solve(PigTurn())
    assert solution.ties(20) == ("roll", "hold")
    assert solution.ties(19) == ("roll",) and solution.ties(21) == ("hold",)
    check_against_recursion(PigTurn(), solution)


# -- random models against the oracles ----------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(with_rewards(acyclic_models(self_loops=True)))
def test_acyclic_rewards_match_recursion(model):
    check_against_recursion(model, ep.solve(model), self_loops=True)


@settings(max_examples=100, deadline=None)
@given(with_rewards(cyclic_chains()))
def test_chain_rewards_match_gauss(model):
    states = reachable(model)
    policy = {s: "go" for s in states if model.outcome(s) is None}
    expected = policy_values(model, policy, states)
    solution = ep.solve(model)
    assert {s: solution.value(s) for s in states} == expected


@settings(max_examples=100, deadline=None)
@given(with_rewards(near_tie_cycles()))
def test_rewards_in_cycles_with_near_ties_solve_the_bellman_equations(model):
    # a stopping game: its Bellman equations have one solution, which the reported
    # policy attains; forward reach with its float certificate equals exact elimination
    solution = ep.solve(model)
    check_optimal(model, solution)
    with mock.patch.object(solve_module, "REACH_LIMIT", -1):
        eliminated = ep.solve(model)
    for s in reachable(model):
        assert solution.value(s) == eliminated.value(s)
        assert solution.ties(s) == eliminated.ties(s)


@settings(max_examples=100, deadline=None)
@given(with_rewards(cyclic_games(two_players=True)))
def test_two_player_rewards_match_the_game_value(model):
    states = reachable(model)
    maxmin, minmax = game_values(model, states)
    assert maxmin == minmax
    solution = ep.solve(model)
    assert {s: solution.value(s) for s in states} == maxmin


@settings(max_examples=50, deadline=None)
@given(with_rewards(acyclic_models(self_loops=True)), st.data())
def test_a_fixed_policy_earns_what_gauss_says(model, data):
    states = reachable(model)
    policy = {
        s: data.draw(st.sampled_from([a for a, m in model.nodes[s][1].items() if m != {s: 1}]))
        for s in states
        if model.outcome(s) is None
    }
    expected = policy_values(model, policy, reachable(model, policy))
    assert evaluate(model, policy).value() == expected[model.initial]


@settings(max_examples=40, deadline=None)
@given(with_rewards(cyclic_games(two_players=False), nonnegative=True))
def test_rewards_match_storm(model):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_values

    G = explore(model)
    solution = ep.solve(model)
    assert storm_values(G) == {s: solution.value(s) for s in G.states}


# -- what rewards leave alone, and what they refuse ---------------------------------------


def test_rewards_change_no_probability():
    with_points = ep.solve(Ruin(6, 2, F(2, 5)))

    class NoPoints(Ruin):
        reward = None  # the same walk without rewards

    without = ep.solve(NoPoints(6, 2, F(2, 5)))
    assert with_points.absorption() == without.absorption()
    assert with_points.expected_steps() == without.expected_steps() == with_points.value()


class Loop:
    """``again`` comes back to the same state and earns ``gain``; ``stop`` ends."""

    initial = "here"

    def __init__(self, gain, player=0):
        self.gain, self.who = gain, player

    def outcome(self, s):
        return 0 if s == "out" else None

    def actions(self, s):
        return ("again", "stop")

    def player(self, s):
        return self.who

    def transition(self, s, a):
        return Dist({"here" if a == "again" else "out": 1})

    def reward(self, s, a):
        return self.gain if a == "again" else 0


@pytest.mark.parametrize(("gain", "player"), [(1, 0), (-1, 1)])
def test_a_reward_that_can_be_collected_for_ever_is_refused(gain, player):
    with pytest.raises(ModelError, match=r"'again' in state 'here' .* may be unbounded"):
        ep.solve(Loop(gain, player))


@pytest.mark.parametrize(("gain", "player"), [(-1, 0), (1, 1), (0, 0)])
def test_a_loop_that_does_not_pay_is_left(gain, player):
    # looping costs (or earns nothing): the best play stops at once, worth 0
    solution = ep.solve(Loop(gain, player))
    assert solution.value() == 0 and solution.policy() == "stop"


def test_an_inexact_reward_is_refused():
    class Floats(Rolls):
        def reward(self, s, a):
            return 0.1  # not 1/10 in binary

    with pytest.raises(ModelError, match=r"reward\('rolling', 'roll'\) is not an exact number"):
        ep.solve(Floats(F(1, 2)))


# -- every method answers alike ------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        with_rewards(acyclic_models(self_loops=True)),
        with_rewards(near_tie_cycles()),
        with_rewards(cyclic_games(two_players=True)),
    )
)
def test_depth_first_earns_what_the_engine_does(model):
    engine, depth_first = ep.solve(model), ep.solve(model, method="depth-first")
    for s in reachable(model):
        assert depth_first.value(s) == engine.value(s)
        assert depth_first.ties(s) == engine.ties(s)


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        with_rewards(acyclic_models()),  # certified mode refuses a "wait" for ever
        with_rewards(near_tie_cycles()),
        with_rewards(cyclic_games(two_players=True)),
    )
)
def test_certified_enclosures_hold_the_exact_rewards(model):
    engine, boxes = ep.solve(model), ep.solve(model, method="certified")
    for s in reachable(model):
        box = boxes.value(s)
        assert box.contains(engine.value(s))
        assert box.width() < 1e-9 * max(1, abs(engine.value(s)))
        if boxes.policy(s) is not None and not boxes.undecided(s):
            assert boxes.policy(s) in engine.ties(s)


# -- the law of the total reward -------------------------------------------------------------


def test_the_number_of_rolls_is_geometric():
    # P(N = k) = (5/6)^(k-1) (1/6); P(N >= 5) = (5/6)^4
    law = ep.solve(Rolls(F(1, 6))).reward_distribution(cap=5)
    expected = {k: F(5, 6) ** (k - 1) * F(1, 6) for k in range(1, 5)} | {5: F(5, 6) ** 4}
    assert dict(law.items()) == expected


def turn_law(hold_at, total=0):
    """The law of the points banked in a Pig turn that holds at ``hold_at``, from the
    rules: a 1 banks nothing, a 2..6 adds to the total, holding banks it."""
    if total >= hold_at:
        return {total: F(1)}
    law = {0: F(1, 6)}
    for face in range(2, 7):
        for points, p in turn_law(hold_at, total + face).items():
            law[points] = law.get(points, F(0)) + p / 6
    return law


@pytest.mark.parametrize("method", ["exact", "depth-first"])
def test_the_law_of_a_pig_turn_holding_at_twenty(method):
    solution = ep.solve(PigTurn(), method=method)
    # the solution's policy holds at the first of its ties: at 20 it rolls, so compare
    # with the turn that holds at 21 and check that both have the same mean
    law = dict(solution.reward_distribution().items())
    assert law == turn_law(21)
    assert sum(k * p for k, p in turn_law(20).items()) == solution.value()


def test_the_law_of_rewards_needs_whole_rewards():
    class Halves(Rolls):
        def reward(self, s, a):
            return F(1, 2)

    solution = ep.solve(Halves(F(1, 6)))
    assert solution.value() == 3  # the mean takes any reward
    with pytest.raises(ModelError, match=r"reward\('rolling', 'roll'\) = 1/2: the law"):
        solution.reward_distribution(cap=3)


# -- many starts ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["exact", "depth-first", "certified"])
def test_one_solve_answers_from_every_start(method):
    # the fair ruin's duration from each start: k (n - k), 2 and 6 explored together
    solution = ep.solve(Ruin(8, 1, F(1, 2)), method, starts=[2, 6])
    assert solution.initial == 2
    for k in range(1, 8):
        value = solution.value(k)
        assert value.contains(k * (8 - k)) if method == "certified" else value == k * (8 - k)


def test_starts_that_share_nothing_are_explored_apart():
    class Two:  # two separate coins: 0 ends in {1, 2}, 10 in {11, 12}
        initial = 0

        def outcome(self, s):
            return s % 10 if s % 10 else None

        def actions(self, s):
            return ("flip",)

        def transition(self, s, a):
            return Dist({s + 1: F(1, 3), s + 2: F(2, 3)})

    solution = ep.solve(Two(), starts=[10, 0])
    assert set(solution.states) == {0, 1, 2, 10, 11, 12}
    assert solution.value() == solution.value(10) == solution.value(0) == F(5, 3)
    assert solution.outcome_distribution(0) == Dist({1: F(1, 3), 2: F(2, 3)})


@pytest.mark.parametrize(
    ("starts", "message"),
    [([], "starts is empty"), ([[1, 2]], "not hashable"), ("abc", "sequence of states")],
)
def test_bad_starts_get_one_clear_line(starts, message):
    with pytest.raises(ModelError, match=message):
        ep.solve(Rolls(F(1, 2)), starts=starts)


def test_an_array_model_solves_from_the_starts_given():
    from exactprob import ArrayModel

    class Walk(ArrayModel):  # the fair ruin on 0..6, one point a step
        sizes, initial, actions = (7,), (3,), ("step",)

        def terminal(self, states):
            return (states[:, 0] == 0) | (states[:, 0] == 6)

        def outcome(self, states):
            return np.zeros(len(states), dtype=int)

        def transition(self, states, action):
            return [("1/2", states + 1), ("1/2", states - 1)]

        def reward(self, states, action):
            return np.ones(len(states), dtype=int)

    solution = ep.solve(Walk(), starts=[(1,), (5,)])
    assert solution.initial == (1,)
    assert [solution.value((k,)) for k in range(7)] == [k * (6 - k) for k in range(7)]


# -- loops: refused exactly when a gain can be collected for ever -----------------------------


@st.composite
def looping_models(draw):
    """<= 4 states of player 0 with 1-2 actions each, moving among the states and
    perhaps to a terminal state (so play may be able to loop for ever), rewards -2..2."""
    n = draw(st.integers(1, 4))
    nodes, rewards = {}, {}
    for i in range(n):
        actions = {}
        for a in range(draw(st.integers(1, 2))):
            targets = draw(st.lists(st.integers(0, n), min_size=1, max_size=3, unique=True))
            moves = {("T" if t == n else "S", t): F(1, len(targets)) for t in targets}
            actions[f"a{a}"] = moves
            rewards[("S", i), f"a{a}"] = draw(st.integers(-2, 2))
        nodes["S", i] = (0, actions)
    return RewardTable(("S", 0), {("T", n): 0}, nodes, rewards)


def gain_loop(model):
    """Whether some end component of reachable states (states, and actions whose moves
    all stay among them, strongly connected) holds an action with a positive reward: by
    brute force over every set of states."""
    states = [s for s in model.nodes if s in reachable(model)]
    for k in range(1, len(states) + 1):
        for chosen in itertools.combinations(states, k):
            inside = set(chosen)
            kept = {
                s: [a for a, moves in model.nodes[s][1].items() if set(moves) <= inside]
                for s in chosen
            }
            if not all(kept.values()):
                continue
            graph = nx.DiGraph()
            graph.add_nodes_from(chosen)
            graph.add_edges_from(
                (s, t) for s in chosen for a in kept[s] for t in model.nodes[s][1][a]
            )
            if nx.is_strongly_connected(graph) and any(
                model.rewards[s, a] > 0 for s in chosen for a in kept[s]
            ):
                return True
    return False


def best_over_ending_policies(model, states):
    """Per state, the best value over the memoryless policies under which play ends
    (Gauss-Jordan; a singular system is a policy that may never end)."""
    inner = [s for s in states if model.outcome(s) is None]
    pos = {s: i for i, s in enumerate(inner)}
    best = {}
    for combo in itertools.product(*(model.actions(s) for s in inner)):
        policy = dict(zip(inner, combo))
        A = [[F(int(i == j)) for j in range(len(inner))] for i in range(len(inner))]
        b = [[F(model.reward(s, policy[s]))] for s in inner]
        for s in inner:
            for t, p in model.nodes[s][1][policy[s]].items():
                if t in pos:
                    A[pos[s]][pos[t]] -= p
        x = gauss_solve(A, b)
        if x is not None:
            for s in inner:
                best[s] = max(best.get(s, x[pos[s]][0]), x[pos[s]][0])
    return best


@settings(max_examples=200, deadline=None)
@given(looping_models())
def test_a_loop_is_refused_exactly_when_it_pays_and_otherwise_solved(model):
    states = reachable(model)
    try:
        solution = ep.solve(model)
    except ModelError as error:
        assert "may be unbounded" in str(error)
        assert gain_loop(model)
        return
    except NonTerminationError:
        # some reachable state has no policy that ends play
        best = best_over_ending_policies(model, states)
        assert set(best) != {s for s in states if model.outcome(s) is None}
        return
    assert not gain_loop(model)
    best = best_over_ending_policies(model, states)
    assert {s: solution.value(s) for s in best} == best


def test_a_fast_path_answers_starts_only_from_its_own_start():
    from exactprob.games.jeopardy import JeopardyModel, Pig

    model = JeopardyModel(Pig(goal=8))
    kept = ep.solve(model, starts=[model.initial, (5, 3, 0, 0, 0)])
    assert (kept.method, kept.solver) == ("exact", "jeopardy components")
    moved = ep.solve(model, starts=[(5, 3, 0, 0, 0), model.initial])
    assert (moved.method, moved.solver) == ("exact", "generic")
    assert moved.initial == (5, 3, 0, 0, 0)
    assert moved.value() == kept.value((5, 3, 0, 0, 0))
    assert moved.value(model.initial) == kept.value()
