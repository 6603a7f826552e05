"""Certified mode (exactprob.engine.certified.solving): every enclosure contains the exact optimal value,
a certified action is the only optimal one, and exact ties are never certified.

Oracles: exact values checked here against the Bellman equations in Fractions
(tests/models.py; for these stopping games a solution of the equations is the optimum),
the gambler's ruin's closed form i / N, and hand-solved small games.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    GamblersRuin,
    Pig,
    SideBySide,
    Stall,
    TableModel,
    bellman_violations,
    near_tie_cycles,
    pass_through_games,
    q_values,
    reachable,
)

import exactprob.engine.certified.solving as enclose_module
from exactprob import Dist, solve
from exactprob.engine._internal.component_table import FEEDBACK_LIMIT
from exactprob.engine.certified.solving import enclose
from exactprob.errors import ModelError, NonTerminationError


def check_enclosed(model, B, width=1e-12):
    """``B`` encloses the exact optimal values (verified by the Bellman equations), its
    certified actions are the unique optimal ones, and its undecided actions include
    every optimal one."""
    S = solve(model)
    states = reachable(model)
    values = {s: S.value(s) for s in states}
    assert not bellman_violations(model, values)
    for s in states:
        box = B.value(s)
        assert box.contains(values[s]), (s, box, values[s])
        assert box.width() <= width
        if model.outcome(s) is not None:
            assert B.policy(s) is None
            continue
        q = q_values(model, s, values)
        optimal = [a for a in model.actions(s) if q[a] == values[s]]
        undecided = B.undecided(s)
        if undecided:
            assert set(optimal) <= set(undecided) and B.policy(s) in undecided
        else:
            assert optimal == [B.policy(s)]


@settings(max_examples=100, deadline=None)
@given(near_tie_cycles())
def test_enclosures_contain_the_exact_values_of_random_games(model):
    """Two players, cycles, self-loops and near ties of 2**-20 to 2**-120."""
    check_enclosed(model, enclose(model))


@settings(max_examples=100, deadline=None)
@given(pass_through_games())
def test_pass_through_states_are_enclosed_as_what_they_lead_to(model):
    """Runs of one-move states, into cycles and terminal states, enclosed by their
    representatives' ends; a loop of them never ends and is refused by both modes."""
    try:
        solve(model)
    except NonTerminationError:
        with pytest.raises(NonTerminationError):
            enclose(model)
        return
    check_enclosed(model, enclose(model))


def test_a_long_deterministic_chain_is_enclosed_at_once():
    """10,000 one-move states before a die: each enclosed as the die's state is, not
    widened by a rounding at each step."""
    n = 10_000
    chain = TableModel(
        0,
        {("T", r): r for r in range(1, 7)},
        {
            **{s: (0, {"step": {s + 1: F(1)}}) for s in range(n)},
            n: (0, {"roll": {("T", r): F(1, 6) for r in range(1, 7)}}),
        },
    )
    B = enclose(chain)
    assert B.value(0).contains(F(7, 2)) and B.value(0) == B.value(n)
    assert B.policy(0) == "step"


@settings(max_examples=40, deadline=None)
@given(st.lists(near_tie_cycles(), min_size=2, max_size=6))
def test_independent_cycles_enclosed_together_contain_the_exact_values(models):
    model = SideBySide(models)
    check_enclosed(model, enclose(model))


def test_components_that_move_to_one_another_are_not_enclosed_as_one():
    """A self-loop of player 1 (worth 0) that can move to another self-loop (worth -1):
    the two are enclosed one after the other, each with its own residual, not as one
    batch (found by the random games above, when the solve order stood for levels)."""
    model = TableModel(
        ("S", 0),
        {("T", 0): 1, ("T", 1): -1},
        {
            ("S", 0): (
                1,
                {
                    "a0": {("S", 0): F(1, 3), ("S", 3): F(1, 3), ("T", 0): F(1, 3)},
                    "a1": {("S", 0): F(1, 2), ("T", 0): F(1, 2)},
                },
            ),
            ("S", 3): (0, {"a0": {("S", 3): F(1, 3), ("T", 1): F(2, 3)}}),
        },
    )
    check_enclosed(model, enclose(model))


#: Player 0 may stay in state "A" forever ("stay"), or leave it half the time ("go").
STAY = TableModel(
    "A", {"end": 1}, {"A": (0, {"go": {"end": F(1, 2), "A": F(1, 2)}, "stay": {"A": 1}})}
)


def test_a_cycle_that_never_ends_among_others_is_named():
    """A cycle the maximiser may never leave, enclosed with a gambler's ruin of the same
    level, is refused by name: the batch is enclosed again one component at a time."""
    with pytest.raises(NonTerminationError, match=r"player 0 can keep .* through state \(1, "):
        enclose(SideBySide([GamblersRuin(F(1, 2), 4, 2), STAY]))


def test_pig_is_enclosed_and_its_policy_certified():
    model = Pig(20)
    B = enclose(model)
    check_enclosed(model, B, width=1e-13)
    deciding = [s for s in reachable(model) if len(model.actions(s)) > 1]
    assert len(B.undecided_states()) < len(deciding) / 100


def test_the_policy_read_in_chunks_is_the_same(monkeypatch):
    """The policy and the undecided actions, read off the enclosures a few states at a
    time, are those read off all at once (Pig beside a tie of three actions, whose
    state is undecided)."""
    tie = TableModel(
        "s",
        {"win": 1, "lose": 0},
        {"s": (0, {a: {"win": F(1, 2), "lose": F(1, 2)} for a in ("a", "b", "c")})},
    )
    model = SideBySide([Pig(12), tie, Pig(5)])
    whole = enclose(model)
    monkeypatch.setattr(enclose_module, "POLICY_CHUNK", 7)
    chunked = enclose(model)
    for s in reachable(model):
        assert chunked.policy(s) == whole.policy(s)
        assert chunked.undecided(s) == whole.undecided(s)
    assert chunked.undecided_states() == whole.undecided_states()
    assert whole.undecided((1, "s")) == ("a", "b", "c")


def test_near_tie_below_double_precision_is_undecided():
    """Two actions whose values differ by 2**-80: no float enclosure can separate them,
    and an exact tie is never certified."""
    eps = F(1, 2**80)
    tie = TableModel(
        "s",
        {"win": 1, "lose": 0},
        {
            "s": (
                0,
                {
                    "a": {"win": F(1, 2), "lose": F(1, 2)},
                    "b": {"win": F(1, 2) + eps, "lose": F(1, 2) - eps},
                },
            ),
        },
    )
    exact = TableModel(
        "s",
        {"win": 1, "lose": 0},
        {
            "s": (
                0,
                {"a": {"win": F(1, 2), "lose": F(1, 2)}, "b": {"win": F(1, 2), "lose": F(1, 2)}},
            )
        },
    )
    for model in (tie, exact):
        B = enclose(model)
        assert B.undecided() == ("a", "b")
        check_enclosed(model, B)


def test_a_float_near_tie_does_not_widen_the_enclosure():
    """Two actions whose values differ by 2**-41 (well above double rounding, below the
    exact solver's float tolerance): the float policy must take the better one, or the
    gap enters the residual and so the width (hypothesis found a width of 3.7e-12)."""
    eps = F(1, 2**42)
    stay = {"s": F(1, 2), "win": F(1, 4), "lose": F(1, 4)}
    better = {"s": F(1, 2), "win": F(1, 4) + eps, "lose": F(1, 4) - eps}
    model = TableModel("s", {"win": 1, "lose": 0}, {"s": (0, {"a": stay, "b": better})})
    B = enclose(model)
    assert B.policy() == "b" and B.undecided() == ()
    check_enclosed(model, B, width=1e-14)


def test_longer_stay_by_another_action_gets_a_valid_weight():
    """Stopping is optimal (value 1) but waiting stays 100 steps on average: the weights
    of the stopping policy (1) do not bound the waiting one, policy iteration for the
    longest stay finds them."""
    model = TableModel(
        "s",
        {"won": 1, "lost": 0},
        {"s": (0, {"stop": {"won": 1}, "wait": {"s": F(99, 100), "lost": F(1, 100)}})},
    )
    B = enclose(model)
    assert B.policy() == "stop" and B.undecided() == ()
    check_enclosed(model, B)


def test_a_large_feedback_set_is_evaluated_by_sparse_lu():
    """A fair gambler's ruin of more than FEEDBACK_LIMIT states (a depth-first search
    meets a cycle at almost every state): P(win from i) = i / N."""
    goal = 20 * FEEDBACK_LIMIT
    B = enclose(GamblersRuin(F(1, 2), goal, goal // 3))
    for i in (1, goal // 3, goal - 1):
        assert B.value(i).contains(F(i, goal))
    assert B.max_width() < 1e-6


@st.composite
def games_with_stalls(draw):
    """Random games (:func:`near_tie_cycles`) where some states get one more action, a
    move with probability one to a state of the game: plays that never end exist."""
    model = draw(near_tie_cycles())
    states = sorted(model.nodes)
    for s in states:
        if draw(st.booleans()):
            model.nodes[s][1]["stall"] = {draw(st.sampled_from(states)): F(1)}
    return model


@settings(max_examples=300, deadline=None)
@given(games_with_stalls())
def test_games_with_stalls_are_enclosed_or_refused(model):
    """Whenever certified mode answers, its enclosures contain the exact solver's values
    (not checked by the Bellman equations here: they have many solutions), and they are
    narrow: the float strategy iteration does not settle for a strategy that only a
    fallback found when both players switching at once reached plays that never end."""
    try:
        S = solve(model)
    except NonTerminationError:
        return
    try:
        B = enclose(model)
    except NonTerminationError as refusal:
        assert "can keep the play forever" in str(refusal)
        return
    for s in reachable(model):
        assert B.value(s).contains(S.value(s)), (s, B.value(s), S.value(s))
    assert B.max_width() < 1e-9


def test_stalling_is_enclosed_when_each_player_can_end_the_play():
    """With both stalling the game never ends and the Bellman operator has many fixed
    points; but each player's best strategy ("go") ends the play whatever the other
    does, which is what each end's certificate needs: the exact 2/3 and 1/3 enclosed."""
    B = enclose(Stall())
    assert solve(Stall()).value() == F(2, 3)
    check_enclosed(Stall(), B, width=1e-15)
    assert B.policy("A") == "go" and B.policy("B") == "go"


def test_a_strategy_that_never_leaves_is_refused():
    """The maximiser may stay forever: no weight bounds its stay, so the upper end has
    no certificate (the exact solver never chooses such an action)."""
    with pytest.raises(NonTerminationError, match="player 0 can keep the play forever"):
        enclose(STAY)
    assert solve(STAY).value() == 1


def test_a_model_without_terminal_states_is_refused():
    class Loop:
        initial = 0

        def outcome(self, s):
            return None

        def actions(self, s):
            return ("go",)

        def transition(self, s, a):
            return Dist({1 - s: 1})

    with pytest.raises(NonTerminationError, match="no terminal state"):
        enclose(Loop())


def test_a_probability_below_the_normal_doubles_is_refused():
    """A probability of 2**-1100 is 0 as a double, an error no relative bound covers."""
    p = F(1, 2**1100)
    model = TableModel(
        "s", {"win": 2**40, "lose": 0}, {"s": (0, {"go": {"win": p, "lose": 1 - p}})}
    )
    with pytest.raises(ModelError, match=r"about 2\*\*-1100 is below 2\*\*-1022"):
        enclose(model)


def test_symbolic_and_huge_models_are_refused():
    p = sympy.Symbol("p", positive=True)
    with pytest.raises(ModelError, match="rational probabilities"):
        enclose(GamblersRuin(p, 3, 1))
    huge = TableModel("s", {"t": 10**400}, {"s": (0, {"go": {"t": 1}})})
    with pytest.raises(ModelError, match="too large"):
        enclose(huge)


def test_one_blas_thread_limits_scipy_s_blas_too() -> None:
    """numpy and scipy each bring an OpenBLAS; in a fresh process (scipy not yet loaded,
    as after ``import exactprob``) the solver's one-thread context must limit both, or
    scipy's triangular solves run threaded on a busy machine."""
    probe = (
        "import exactprob\n"
        "from exactprob.engine._internal.component_table import one_blas_thread\n"
        "from threadpoolctl import threadpool_info\n"
        "with one_blas_thread():\n"
        "    blas = [i for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "print(len(blas), sorted({i['num_threads'] for i in blas}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    count, threads = done.stdout.split(maxsplit=1)
    assert int(count) >= 2 and threads.strip() == "[1]"
