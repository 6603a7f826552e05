"""exactprob.solve: exact values, policies, ties, absorption and expected steps.

Oracles (all in tests/models.py or below, none using the solver or exactprob.engine._internal.linear):
memoised Fraction recursion for acyclic models, sympy's fundamental matrix
N = (I - Q)^-1 for Markov chains, Fraction Gauss-Jordan solves of every deterministic
stationary policy (MDPs) or strategy pair (two-player stopping games), closed forms
derived in the comments, and an exact Bellman-equation certificate.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from models import (
    DiceDuel,
    DoOver,
    GamblersRuin,
    Pig,
    RedAndBlack,
    TableModel,
    TwoDice,
    acyclic_models,
    all_policies,
    bellman_violations,
    check_against_optimum,
    check_against_recursion,
    cyclic_chains,
    cyclic_games,
    decision_states,
    game_values,
    optimal_by_enumeration,
    player_of,
    policy_values,
    reachable,
    sympy_chain,
)

import exactprob as ep
import exactprob.engine.exact.solving as solve_module
from exactprob import (
    Dist,
    ModelError,
    NonTerminationError,
    Solution,
    StateLimitError,
    evaluate,
    explore,
    solve,
    solve_graph,
)

# ======================================================================================
# Hand-derived examples
# ======================================================================================


def test_two_dice_chain():
    S = solve(TwoDice())
    assert isinstance(S, Solution)
    assert S.value() == 0 and type(S.value()) is F  # 2d6 is symmetric about 7
    assert S.value(("one", 6)) == F(1 + 2 + 3 + 4 + 5 + 6, 6) + 6 - 7  # E[d6] + 6 - 7 = 5/2
    assert S.expected_steps() == 2 and S.expected_steps(("one", 3)) == 1
    assert S.expected_steps(("end", 7)) == 0
    # absorption: the final state is ("end", total), 2d6 counted by enumeration
    counts = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[("end", a + b)] = counts.get(("end", a + b), 0) + 1
    assert S.absorption() == Dist({t: F(c, 36) for t, c in counts.items()})
    assert S.outcome_distribution() == Dist({t[1] - 7: F(c, 36) for t, c in counts.items()})
    assert S.policy() == "roll" and S.ties() == ("roll",)
    assert S.policy(("end", 2)) is None and S.ties(("end", 2)) == ()
    assert len(list(S.states)) == 18
    assert "states=18" in repr(S)
    with pytest.raises(ModelError):
        S.value(("nowhere",))


def test_solve_graph_equals_solve():
    G = explore(RedAndBlack(8, F(2, 5)))
    assert solve_graph(G).value() == solve(RedAndBlack(8, F(2, 5))).value()


def test_terminal_initial_state():
    S = solve(TableModel("t", {"t": F(-7, 3)}, {}))
    assert S.value() == F(-7, 3) and S.expected_steps() == 0
    assert S.absorption() == Dist({"t": 1})


def test_max_states_passed_through():
    with pytest.raises(StateLimitError):
        solve(Pig(10), max_states=50)


# ======================================================================================
# Random acyclic models versus memoised recursion
# ======================================================================================


@settings(max_examples=100)
@given(acyclic_models())
def test_random_acyclic_model_equals_recursion(model):
    check_against_recursion(model, solve(model))


@settings(max_examples=50)
@given(acyclic_models())
def test_random_acyclic_model_steps_and_absorption(model):
    S = solve(model)
    policy = S.policy_map()
    # independent recursion under the solver's chosen policy
    memo = {}

    def absorb(s):  # (distribution over terminal states, expected steps)
        if s not in memo:
            if model.outcome(s) is not None:
                memo[s] = ({s: F(1)}, F(0))
            else:
                d = model.transition(s, policy[s])
                out, steps = {}, F(1)
                for t in d:
                    sub, st_ = absorb(t)
                    steps += d[t] * st_
                    for k, v in sub.items():
                        out[k] = out.get(k, 0) + d[t] * v
                memo[s] = (out, steps)
        return memo[s]

    for s in S.states:
        dist, steps = absorb(s)
        assert S.absorption(s) == Dist(dist)
        assert S.expected_steps(s) == steps
        assert S.outcome_distribution(s).mean() == S.value(s)


def test_actions_sharing_successors_are_valued_together(monkeypatch):
    """The joint exact valuation (one common denominator, no floats) gives the memoised
    recursion's values, ties and first tied action for both players."""

    def no_floats(*args):
        raise AssertionError("floats consulted for actions that share their successors")

    monkeypatch.setattr(solve_module._Solver, "_candidates", no_floats)
    model = DiceDuel(40, 24)
    S = solve(model)
    check_against_recursion(model, S)
    assert any(len(S.ties(s)) == 2 for s in S.states)  # exact ties are found
    assert S.policy_map()[model.initial] in ("d4", "2d2")


# ======================================================================================
# Random cyclic Markov chains versus sympy's fundamental matrix
# ======================================================================================


@settings(max_examples=60)
@given(cyclic_chains())
def test_random_cyclic_chain_equals_fundamental_matrix(model):
    states = reachable(model)
    inner, terms, Q, R = sympy_chain(model, states)
    N = (sympy.eye(len(inner)) - Q).inv()  # fundamental matrix
    B = N * R  # absorption probabilities
    v = sympy.Matrix([sympy.Rational(model.outcome(t)) for t in terms])
    values = B * v
    steps = N * sympy.ones(len(inner), 1)
    S = solve(model)
    assert set(S.states) == states
    for i, s in enumerate(inner):
        assert S.value(s) == F(str(values[i]))
        assert S.expected_steps(s) == F(str(steps[i]))
        expected = {t: F(str(B[i, j])) for j, t in enumerate(terms) if B[i, j] != 0}
        assert S.absorption(s) == Dist(expected)
    for t in terms:
        assert S.value(t) == model.outcome(t) and S.expected_steps(t) == 0


def test_gamblers_ruin_closed_forms():
    # h(i) = (r^i - 1)/(r^N - 1), r = q/p; D(i) = i/(q-p) - N/(q-p) (1-r^i)/(1-r^N)
    p, N = F(2, 5), 6
    q, r = 1 - p, (1 - p) / p
    S = solve(GamblersRuin(p, N, 3))
    for i in range(1, N):
        assert S.value(i) == (r**i - 1) / (r**N - 1)
        assert S.expected_steps(i) == F(i) / (q - p) - F(N) / (q - p) * (1 - r**i) / (1 - r**N)
    # fair game: h(i) = i/N and D(i) = i (N - i)
    S = solve(GamblersRuin(F(1, 2), N, 2))
    for i in range(N + 1):
        assert S.value(i) == F(i, N) and S.expected_steps(i) == i * (N - i)


def test_large_cyclic_chain_uses_sparse_path():
    # 199 transient states (> the dense limit): fair ruin h(i) = i/N, D(i) = i (N - i)
    N = 200
    S = solve(GamblersRuin(F(1, 2), N, 77))
    assert S.value() == F(77, 200) and S.expected_steps() == 77 * 123


# ======================================================================================
# Self-loops (do-over) and non-termination
# ======================================================================================


@pytest.mark.parametrize(
    "a, b", [(F(1, 6), F(1, 3)), (F(1, 100), F(1, 100)), (F(1, 2), F(1, 2)), (F(1), F(0))]
)
def test_do_over_is_a_geometric_series(a, b):
    # r = 1 - a - b; V = sum_{n>=0} r^n a = a / (1 - r) = a / (a + b); steps = 1/(1 - r)
    r = 1 - a - b
    n = sympy.Symbol("n", integer=True, nonnegative=True)
    series = sympy.summation(sympy.Rational(r) ** n * sympy.Rational(a), (n, 0, sympy.oo))
    S = solve(DoOver(a, b))
    assert S.value() == F(str(series)) == a / (a + b)
    assert S.expected_steps() == 1 / (1 - r)
    assert S.absorption() == Dist({"win": a / (a + b), "lose": b / (a + b)})


def test_lazy_ruin_self_loops_keep_values_double_steps():
    p, N = F(1, 3), 5
    lazy, plain = solve(GamblersRuin(p, N, 2, lazy=True)), solve(GamblersRuin(p, N, 2))
    for i in range(N + 1):
        assert lazy.value(i) == plain.value(i)
        assert lazy.expected_steps(i) == 2 * plain.expected_steps(i)  # geometric(1/2) per move


def test_self_loop_with_probability_one_never_terminates():
    model = TableModel("s", {"t": 1}, {"s": (0, {"wait": {"s": F(1)}}), "u": (0, {})})
    with pytest.raises(NonTerminationError):
        solve(model)
    # from a decision state, an action that waits forever is left out (it has no value),
    # as a waiting cycle of two states is by the start policy of policy iteration
    waiting = TableModel("s", {"t": 1}, {"s": (0, {"wait": {"s": F(1)}, "go": {"t": F(1)}})})
    S = solve(waiting)
    assert S.value() == 1 and S.policy() == "go" and S.ties() == ("go",)


def test_closed_cycle_never_terminates():
    model = TableModel(
        "s",
        {"t": 1},
        {"s": (0, {"go": {"u": F(1)}}), "u": (0, {"go": {"s": F(1)}})},
    )
    with pytest.raises(NonTerminationError, match="never reach a terminal state"):
        solve(model)
    # leaking only from outside the cycle does not help
    model = TableModel(
        "a",
        {"t": 1},
        {
            "a": (0, {"go": {"s": F(1, 2), "t": F(1, 2)}}),
            "s": (0, {"go": {"u": F(1)}}),
            "u": (0, {"go": {"s": F(1)}}),
        },
    )
    with pytest.raises(NonTerminationError):
        solve(model)


# ======================================================================================
# Cyclic MDPs: policy iteration versus every deterministic stationary policy
# ======================================================================================


@pytest.mark.parametrize("goal", [5, 6, 8])
@pytest.mark.parametrize("p", [F(2, 5), F(1, 2), F(3, 5), F(1, 10)])
def test_red_and_black_versus_all_policies(goal, p):
    model = RedAndBlack(goal, p)
    states = reachable(model)
    V = optimal_by_enumeration(model, states)
    S = solve(model)
    check_against_optimum(model, S, V)
    if p == F(1, 2):
        # fair: every policy is worth i / goal, so every bet ties everywhere
        for s in states:
            assert S.value(s) == F(s, goal)
            if 0 < s < goal:
                assert S.ties(s) == model.actions(s)


def test_red_and_black_bold_value():
    # goal 5, p = 2/5, from 2; bold play: V1 = p V2, V2 = p V4, V3 = p + q V1,
    # V4 = p + q V3 => V4 = p + q p + q^2 p^2 V4 => V4 = p(1+q)/(1 - p^2 q^2) = 400/589,
    # V2 = p V4 = 160/589 (Dubins-Savage: bold play is optimal when p < 1/2)
    p, q = F(2, 5), F(3, 5)
    v4 = p * (1 + q) / (1 - p**2 * q**2)
    S = solve(RedAndBlack(5, p, start=2))
    assert S.value() == p * v4 == F(160, 589)
    assert S.policy(2) == 2 and S.policy(3) == 2


@settings(max_examples=60)
@given(cyclic_games(two_players=False))
def test_random_cyclic_mdp_versus_all_policies(model):
    states = reachable(model)
    V = optimal_by_enumeration(model, states)
    check_against_optimum(model, solve(model), V)


@settings(max_examples=60)
@given(cyclic_games(two_players=True))
def test_random_cyclic_two_player_game_versus_strategy_pairs(model):
    states = reachable(model)
    maxmin, minmax = game_values(model, states)
    assert maxmin == minmax  # a saddle point in stationary strategies (stopping game)
    check_against_optimum(model, solve(model), maxmin)


# ======================================================================================
# Pig
# ======================================================================================


def test_pig_to_2_first_player():
    # Goal 2: any roll > 1 wins at once, so nobody ever chooses. Player 0 wins if the first
    # non-1 roll is hers: P = 5/6 + (1/6)(1 - P) => P = 6/7.
    model = Pig(2)
    assert not decision_states(model, reachable(model))
    assert solve(model).value() == F(6, 7)


def test_pig_to_3_versus_all_strategy_pairs():
    # Only a mover at score 0 with turn total 2 has a choice; the other score is 0 or 2
    # (points come in steps of at least 2), so 2 such states per player, 4 x 4 pairs.
    # By hand, if both always roll: a turn wins with w = 4/6 + (1/6)(5/6) = 29/36 and
    # P = w + (1-w)^2 P => P = 1/(2 - w) = 36/43.
    model = Pig(3)
    states = reachable(model)
    assert len(decision_states(model, states, 0)) == 2 == len(decision_states(model, states, 1))
    maxmin, minmax = game_values(model, states)
    assert maxmin == minmax
    assert maxmin[model.initial] == F(36, 43)
    check_against_optimum(model, solve(model), maxmin)


def test_piglet_coin_versus_all_strategy_pairs():
    # a 2-sided die: 1 busts, 2 adds 2; goal 4
    model = Pig(4, sides=2)
    states = reachable(model)
    maxmin, minmax = game_values(model, states)
    assert maxmin == minmax
    check_against_optimum(model, solve(model), maxmin)


def test_pig_versus_fixed_opponent_small():
    model = Pig(3, opponent_hold=2)
    states = reachable(model)
    assert all(player_of(model, s) == 0 for s in decision_states(model, states))
    V = optimal_by_enumeration(model, states)
    check_against_optimum(model, solve(model), V)


@pytest.mark.parametrize("goal", [6, 10])
def test_pig_bellman_certificate_and_symmetry(goal):
    # Every strategy pair ends with probability 1, so the Bellman optimality operator has
    # a unique fixed point: exact values satisfying it everywhere are the game values.
    model = Pig(goal)
    S = solve(model)
    V = {s: S.value(s) for s in S.states}
    assert set(V) == reachable(model)
    assert bellman_violations(model, V) == []
    # Swapping the players: P(0 wins from (a, b, k, 0)) = 1 - P(0 wins from (b, a, k, 1)).
    for (a, b, k, p), v in V.items():
        if model.outcome((a, b, k, p)) is None:
            assert V[(b, a, k, 1 - p)] == 1 - v
    # the first mover has the edge
    assert V[(0, 0, 0, 0)] > F(1, 2)


def test_pig_versus_fixed_opponent_certificate():
    model = Pig(8, opponent_hold=4)
    S = solve(model)
    V = {s: S.value(s) for s in S.states}
    assert bellman_violations(model, V) == []


# ======================================================================================
# Symbolic probabilities
# ======================================================================================

p_sym = sympy.Symbol("p", positive=True)


def test_symbolic_gamblers_ruin_closed_form():
    N = 4
    S = solve(GamblersRuin(p_sym, N, 2))
    q = 1 - p_sym
    r = q / p_sym
    for i in range(1, N):
        assert sympy.cancel(S.value(i) - (1 - r**i) / (1 - r**N)) == 0
        D = i / (q - p_sym) - N / (q - p_sym) * (1 - r**i) / (1 - r**N)
        assert sympy.cancel(S.expected_steps(i) - D) == 0
    # at p = 2/5 it is the rational solve
    R = solve(GamblersRuin(F(2, 5), N, 2))
    for i in range(N + 1):
        assert F(str(sympy.nsimplify(S.value(i)).subs(p_sym, sympy.Rational(2, 5)))) == R.value(i)


def test_symbolic_acyclic_chain():
    # two independent p-coins; outcome = number of heads; value 2p, variance-free check
    class Coins:
        initial = (0, 0)

        def outcome(self, s):
            return s[1] if s[0] == 2 else None

        def actions(self, s):
            return ("flip",)

        def transition(self, s, a):
            return Dist({(s[0] + 1, s[1] + 1): p_sym, (s[0] + 1, s[1]): 1 - p_sym})

    S = solve(Coins())
    assert sympy.expand(S.value() - 2 * p_sym) == 0
    assert S.expected_steps() == 2


def test_symbolic_do_over():
    a, b = sympy.symbols("a b", positive=True)
    S = solve(DoOver(a, b))
    assert sympy.cancel(S.value() - a / (a + b)) == 0
    assert sympy.cancel(S.expected_steps() - 1 / (a + b)) == 0


def test_symbolic_absorption_is_sympy():
    S = solve(GamblersRuin(p_sym, 4, 2))
    a = S.absorption()
    assert isinstance(a[4], sympy.Expr)
    assert sympy.cancel(a[4] - S.value()) == 0


def test_symbolic_decisions_are_solved_piecewise_not_by_solve_graph():
    """``solve`` answers a model with choices and one symbol piece by piece
    (tests/test_parametric.py); ``solve_graph`` alone still refuses to compare rational
    functions."""
    acyclic = TableModel(
        "s",
        {"w": 1, "l": 0},
        {"s": (0, {"x": {"w": p_sym, "l": 1 - p_sym}, "y": {"w": F(1, 2), "l": F(1, 2)}})},
    )
    assert [str(piece.where) for piece in solve(acyclic).pieces] == [
        "0 < p < 1/2",
        "p = 1/2",
        "1/2 < p < 1",
    ]
    with pytest.raises(ModelError, match="symbolic"):
        solve_graph(explore(acyclic))
    with pytest.raises(ModelError, match="symbolic"):
        solve_graph(explore(RedAndBlack(6, p_sym, start=3)))  # cyclic with choices


# ======================================================================================
# evaluate(model, policy)
# ======================================================================================


def test_evaluate_every_policy_of_red_and_black():
    model = RedAndBlack(6, F(2, 5))
    states = reachable(model)
    for pol in all_policies(model, states):
        expected = policy_values(model, pol, states)
        E = evaluate(model, pol)
        for s in E.states:
            assert E.value(s) == expected[s]
        # as a callable too
        assert evaluate(model, lambda s, pol=pol: pol[s]).value() == expected[model.initial]


def test_evaluate_timid_play_is_gamblers_ruin():
    # always bet 1: gambler's ruin, h(i) = (r^i - 1)/(r^N - 1), r = q/p
    p, N = F(2, 5), 8
    r = (1 - p) / p
    E = evaluate(RedAndBlack(N, p, start=3), lambda s: 1)
    assert E.value() == (r**3 - 1) / (r**N - 1)
    q = 1 - p
    assert E.expected_steps() == F(3) / (q - p) - F(N) / (q - p) * (1 - r**3) / (1 - r**N)


def test_evaluate_from_another_start_state():
    # the same timid play started at 5 instead of the model's 3: h(5), and only the
    # states from 5 on are the solution's (5 its initial state)
    p, N = F(2, 5), 8
    r = (1 - p) / p
    E = evaluate(RedAndBlack(N, p, start=3), lambda s: 1, starts=[5])
    assert E.value() == (r**5 - 1) / (r**N - 1) == E.value(5)
    assert E.states[0] == 5
    bold = evaluate(RedAndBlack(8, F(1, 3), start=2), {4: 4}, starts=[4])
    assert set(bold.states) == {0, 4, 8} and bold.value() == F(1, 3)


def test_evaluate_takes_several_starts_and_the_old_start_warns():
    # timid play from 2 and 6 at once, each the ruin formula h(i) = (r^i - 1)/(r^N - 1)
    p, N = F(2, 5), 8
    r = (1 - p) / p
    E = evaluate(RedAndBlack(N, p, start=3), lambda s: 1, starts=[2, 6])
    assert [E.value(i) for i in (2, 6)] == [(r**i - 1) / (r**N - 1) for i in (2, 6)]
    with pytest.warns(ep.ExactProbDeprecationWarning, match=r"use starts=\[s\]"):
        old = evaluate(RedAndBlack(N, p, start=3), lambda s: 1, start=6)
    assert old.initial == 6 and old.value() == E.value(6)
    with pytest.warns(ep.ExactProbDeprecationWarning), pytest.raises(ep.UsageError, match="both"):
        evaluate(RedAndBlack(N, p, start=3), lambda s: 1, start=6, starts=[2])
    with pytest.raises(ep.ModelError, match="starts is empty"):
        evaluate(RedAndBlack(N, p, start=3), lambda s: 1, starts=[])


class _NoInitial:
    """A walk from 0 to 3 with no initial state: solved only from given starts."""

    def outcome(self, s):
        return 1 if s == 3 else 0 if s == 0 else None

    def actions(self, s):
        return ("step",)

    def transition(self, s, a):
        return ep.Dist({s + 1: "1/2", s - 1: "1/2"})


@pytest.mark.parametrize("method", ep.METHODS)
def test_a_model_without_initial_is_solved_from_starts(method):
    # the fair walk's chance to reach 3 first from i is i/3
    solved = ep.solve(_NoInitial(), method, starts=[1, 2])
    for i in (1, 2):
        value = solved.value(i)
        assert value.contains(F(i, 3)) if method == "certified" else value == F(i, 3)
    assert evaluate(_NoInitial(), lambda s: "step", starts=[2]).value() == F(2, 3)
    graph = (
        ep.solve(_NoInitial(), "depth-first", starts=[1]).to_networkx()
        if method == "depth-first"
        else None
    )
    assert graph is None or set(graph) == {0, 1, 2, 3}
    with pytest.raises(ep.ModelError, match="no initial state.*starts="):
        ep.solve(_NoInitial(), method)


@pytest.mark.parametrize(
    ("model", "policy", "says"),
    [
        (None, lambda s: 1, "no initial state"),
        (RedAndBlack(4, F(1, 2)), None, "a policy is a function of the state or a mapping"),
        (RedAndBlack(4, F(1, 2)), "bold", "not str"),
    ],
)
def test_evaluate_refuses_what_is_not_a_model_or_a_policy(model, policy, says):
    with pytest.raises(ModelError, match=says):
        evaluate(model, policy)


def test_evaluate_explores_only_states_reachable_under_the_policy():
    # bold play from 2 with goal 8 only visits 2, 4, 0, 8
    policy = {2: 2, 4: 4}
    E = evaluate(RedAndBlack(8, F(1, 3), start=2), policy)
    assert set(E.states) == {0, 2, 4, 8}
    assert E.value() == F(1, 9)  # two wins in a row


def test_evaluate_two_player_fixed_strategies():
    # Pig to 3 where everybody always rolls: 36/43 (see test_pig_to_3_versus_all_strategy_pairs)
    assert evaluate(Pig(3), lambda s: "roll").value() == F(36, 43)


def test_evaluate_bad_policies():
    model = RedAndBlack(6, F(2, 5))
    with pytest.raises(ModelError, match="picks"):
        evaluate(model, lambda s: 99)  # not a legal bet
    assert evaluate(model, {3: 3}).value() == F(2, 5)  # bold from 3 needs no other state
    with pytest.raises(ModelError, match="no action"):
        evaluate(model, {3: 1})  # timid from 3 reaches 2 and 4, which the mapping lacks
    with pytest.raises(ModelError, match="no action"):
        evaluate(model, {})


def test_evaluate_non_terminating_policy():
    stuck = TableModel("s", {"t": 1}, {"s": (0, {"go": {"t": F(1)}, "wait": {"s": F(1)}})})
    assert evaluate(stuck, {"s": "go"}).value() == 1
    with pytest.raises(NonTerminationError):
        evaluate(stuck, {"s": "wait"})


def test_policy_iteration_starts_from_a_terminating_policy():
    # In s and u the first action ("wait") only cycles between them; "quit" ends the game.
    # Policy iteration must not start from the all-"wait" policy (its system is singular).
    # Hand derivation: V(u) = max(quit = 1/2, wait = V(s)), V(s) = max(quit = 1/3, wait = V(u)),
    # and only terminating policies count: u quits (1/2), s waits (1/2 > 1/3). At u, waiting
    # is also worth V(s) = 1/2: a tie, but waiting at both states never terminates, so the
    # reported policy must be u quits.
    model = TableModel(
        "s",
        {"a": F(1, 3), "b": F(1, 2)},
        {
            "s": (0, {"wait": {"u": F(1)}, "quit": {"a": F(1)}}),
            "u": (0, {"wait": {"s": F(1)}, "quit": {"b": F(1)}}),
        },
    )
    S = solve(model)
    assert S.value("s") == S.value("u") == F(1, 2)
    assert S.policy("s") == "wait" and S.policy("u") == "quit"
    assert S.ties("s") == ("wait",) and S.ties("u") == ("wait", "quit")
    assert evaluate(model, S.policy_map()).value() == F(1, 2)
