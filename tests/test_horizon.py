r"""Play within a horizon (``ep.solve(model, horizon=N, counter=...)``), checked against
oracles that do not use it: a memoised expectimax over (state, steps left) written from
the rules on random models of one and two players, with rewards and counters; a closed
form with a loop of free moves; Storm's step-bounded ``Pmax=? [F<=N "goal"]``; a
published table of two-dice Pig (Durango Bill); and play by the rules."""

from __future__ import annotations

import random
import re
import sys
from fractions import Fraction as F
from functools import cache
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TableModel, small_values

import exactprob as ep
from exactprob import Dist, ModelError, StateLimitError, UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from within_turns import TwoDicePig, percent, play_turns, published_cells, turns


class CountedTable(TableModel):
    """A :class:`TableModel` with ``steps`` ``{(state, action, next): steps}`` (1 if
    absent) and ``rewards`` ``{(state, action): reward}`` (no rewards if ``None``)."""

    def __init__(self, initial, terminals, nodes, steps, rewards):
        super().__init__(initial, terminals, nodes)
        self.steps, self.rewards = dict(steps), rewards
        if rewards is not None:
            self.reward = lambda s, a: rewards.get((s, a), 0)

    def counter(self, s, a, t):
        return self.steps.get((s, a, t), 1)

    def __repr__(self):
        return f"CountedTable({self.initial!r}, {self.terminals!r}, {self.nodes!r}, {self.steps!r}, {self.rewards!r})"


@st.composite
def counted_models(draw):
    """<= 5 states ``("S", i)`` and two terminals; 1-3 actions each (sometimes a copy of
    another, for ties), moving anywhere (play need not end: the horizon ends it); players
    0/1; a move uses 0-2 steps, 0 only towards a higher state or a terminal (no loop of
    free moves, so the recursion below ends); rewards on some models."""
    n = draw(st.integers(1, 5))
    terminals = {("T", i): draw(small_values) for i in range(2)}
    places = [("S", j) for j in range(n)] + list(terminals)
    nodes, steps = {}, {}
    for i in range(n):
        acts = {}
        for a in range(draw(st.integers(1, 3))):
            if acts and draw(st.integers(0, 4)) == 0:
                acts[f"a{a}"] = dict(acts[draw(st.sampled_from(sorted(acts)))])
                continue
            targets = draw(st.lists(st.sampled_from(places), min_size=1, max_size=4, unique=True))
            weights = draw(
                st.lists(st.integers(1, 5), min_size=len(targets), max_size=len(targets))
            )
            acts[f"a{a}"] = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
            for t in targets:
                upward = t[0] == "T" or t[1] > i
                steps[("S", i), f"a{a}", t] = draw(st.integers(0 if upward else 1, 2))
        nodes[("S", i)] = (draw(st.integers(0, 1)), acts)
    rewards = None
    if draw(st.booleans()):
        rewards = {(s, a): draw(small_values) for s, (_, acts) in nodes.items() for a in acts}
    return CountedTable(("S", 0), terminals, nodes, steps, rewards)


def expectimax(model, counter):
    """``(V, Q)``: the value of every (state, steps left) and of each action there, by
    memoised recursion from the rules: a move that uses more steps than are left ends
    play with 0 and earns nothing (the action's reward is earned on the moves that fit)."""
    reward = getattr(model, "reward", lambda s, a: 0)

    @cache
    def Q(s, n):
        values = {}
        for a in model.actions(s):
            d = model.transition(s, a)
            fits = [t for t in d if counter(s, a, t) <= n]
            values[a] = sum(
                (d[t] * (F(reward(s, a)) + V(t, n - counter(s, a, t))) for t in fits), F(0)
            )
        return values

    @cache
    def V(s, n):
        if model.outcome(s) is not None:
            return F(model.outcome(s))
        q = Q(s, n).values()
        return max(q) if model.player(s) == 0 else min(q)

    return V, Q


@settings(max_examples=150, deadline=None)
@given(counted_models(), st.integers(0, 4), st.booleans())
def test_random_models_match_the_expectimax(model, horizon, counted):
    counter = model.counter if counted else None
    solution = ep.solve(model, horizon=horizon, counter=counter)
    V, Q = expectimax(model, counter or (lambda s, a, t: 1))
    for state in solution.states:
        inner, left = state
        if left is None:  # a move that came too late: ends with 0
            assert solution.value(state) == 0
            continue
        assert solution.value(state) == V(inner, left), state
        if model.outcome(inner) is None:
            q = Q(inner, left)
            assert solution.ties(state) == tuple(a for a in q if q[a] == V(inner, left))
            assert solution.action_values(state) == q
    for n in range(horizon + 1):  # every number of steps left, from one solve
        assert solution.value((model.initial, n)) == V(model.initial, n)


@settings(max_examples=60, deadline=None)
@given(counted_models(), st.integers(0, 4), st.booleans())
def test_a_fixed_policy_within_a_horizon_matches_the_expectimax_of_its_actions(
    model, horizon, as_mapping
):
    """``ep.evaluate`` with a horizon: the policy of the model's own states (its last
    action everywhere) against the expectimax of the model cut down to those actions."""
    chosen = {s: tuple(acts)[-1] for s, (_, acts) in model.nodes.items()}
    cut = CountedTable(
        model.initial,
        model.terminals,
        {s: (p, {chosen[s]: acts[chosen[s]]}) for s, (p, acts) in model.nodes.items()},
        model.steps,
        model.rewards,
    )
    policy = chosen if as_mapping else chosen.__getitem__
    solution = ep.evaluate(model, policy, horizon=horizon, counter=model.counter)
    V, _ = expectimax(cut, model.counter)
    assert solution.initial == (model.initial, horizon)
    for state in solution.states:
        inner, left = state
        assert solution.value(state) == (0 if left is None else V(inner, left)), state


@settings(max_examples=40, deadline=None)
@given(counted_models(), st.integers(0, 3))
def test_certified_and_depth_first_agree_with_exact(model, horizon):
    exact = ep.solve(model, horizon=horizon, counter=model.counter)
    depth_first = ep.solve(model, "depth-first", horizon=horizon, counter=model.counter)
    certified = ep.solve(model, "certified", horizon=horizon, counter=model.counter)
    for state in exact.states:
        assert depth_first.value(state) == exact.value(state)
        assert certified.value(state).contains(exact.value(state))


class FreeRetry:
    """Paying a step wins with 3/4, else tries again; a free retry wins with 1/3, loses
    with 1/3 and tries again with 1/3 (without using a step: a loop of free moves)."""

    initial = "try"

    def outcome(self, s):
        return {"won": 1, "lost": 0}.get(s)

    def actions(self, s):
        return ("pay", "free")

    def transition(self, s, a):
        if a == "pay":
            return Dist({"won": F(3, 4), "try": F(1, 4)})
        return Dist({"won": F(1, 3), "lost": F(1, 3), "try": F(1, 3)})


def test_a_loop_of_free_moves_has_its_closed_form():
    r"""With nothing left the free retry is all there is: :math:`V_0 = 1/3 + V_0/3 = 1/2`.
    With ``n`` steps, paying gives :math:`3/4 + V_{n-1}/4` and beats the free retry
    (:math:`1/3 + V_n/3 \le 1/2 + \dots` is at most :math:`(1/3)/(1 - 1/3)` when looping,
    and one free try then paying is :math:`1/3 + V_n/3 < V_n` for :math:`V_n > 1/2`), so
    :math:`V_n = 1 - 4^{-n}/2` by induction: :math:`3/4 + (1 - 4^{1-n}/2)/4 = 1 - 4^{-n}/2`."""
    counter = {"pay": 1, "free": 0}
    solution = ep.solve(FreeRetry(), horizon=6, counter=lambda s, a, t: counter[a])
    assert [solution.value(("try", n)) for n in range(7)] == [1 - F(1, 2 * 4**n) for n in range(7)]
    assert solution.policy(("try", 0)) == "free"
    assert all(solution.policy(("try", n)) == "pay" for n in range(1, 7))


@st.composite
def reach_models(draw):
    """<= 6 states of one mover (player 0 or 1 throughout), outcomes 0 and 1, no rewards."""
    model = draw(counted_models())
    mover = draw(st.integers(0, 1))
    terminals = {("T", 0): 0, ("T", 1): 1}
    nodes = {s: (mover, acts) for s, (_, acts) in model.nodes.items()}
    return TableModel(model.initial, terminals, nodes)


@settings(max_examples=25, deadline=None)
@given(reach_models())
def test_every_move_a_step_matches_storms_step_bounded_chance(model):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_bounded_reach

    graph = ep.explore(model).to_networkx()
    solution = ep.solve(model, horizon=5)
    for n in range(6):
        assert storm_bounded_reach(graph, n) == solution.value((model.initial, n))


@pytest.fixture(scope="module")
def two_dice_pig():
    starts = [(score, 0) for score in range(100)]
    return ep.solve(TwoDicePig(), horizon=15, counter=turns, starts=starts)


def test_two_dice_pig_reproduces_the_published_table(two_dice_pig):
    """Durango Bill's table of the chance to reach 100 within N turns, in percent to one
    decimal: the rows of the scores 88 to 99 (96 to 98 as 99), N = 1..15, and four more
    cells: 184 cells in all, from one solve."""
    published = published_cells()
    assert len(published) == 12 * 15 + 4
    for (score, n), shown in published.items():
        assert percent(two_dice_pig.value(((score, 0), n))) == shown, (score, n)


def test_two_dice_pig_one_turn_from_96_is_any_roll_without_a_one(two_dice_pig):
    """From 96 any roll without a 1 reaches 100: 25/36, then hold (a 1 ends the turn)."""
    assert two_dice_pig.value(((96, 0), 1)) == F(25, 36)
    assert two_dice_pig.policy(((96, 4), 1)) == "hold"


def test_two_dice_pig_the_best_play_depends_on_the_turns_left(two_dice_pig):
    """With one turn left at 50 there is nothing to bank for: roll on; with many turns
    left a bank of 30 is worth keeping. The chance grows with the turns."""
    assert two_dice_pig.policy(((50, 30), 1)) == "roll"
    assert two_dice_pig.policy(((50, 30), 14)) == "hold"
    chances = [two_dice_pig.value(((0, 0), n)) for n in range(16)]
    assert chances == sorted(chances) and chances[0] == 0


def test_two_dice_pig_played_by_the_rules_agrees(two_dice_pig):
    """Games played by the rules (two dice from a seeded generator, not the model's
    transitions) with the solved play by turns left: the share reaching 100 within 5 z."""
    rng = random.Random(52)
    for score, left in ((76, 1), (60, 3)):
        games = 4000
        wins = sum(play_turns(two_dice_pig, score, left, rng) for _ in range(games))
        assert ep.agrees_with(two_dice_pig.value(((score, 0), left)), wins, games)


class Counted:
    """A transition counter: one die rolled until a six, or stopped."""

    initial = 0

    def __init__(self):
        self.asked = 0

    def outcome(self, s):
        return 1 if s == 6 else None

    def actions(self, s):
        return ("roll",)

    def transition(self, s, a):
        self.asked += 1
        return Dist({6: F(1, 6), 0: F(5, 6)})


def test_the_model_is_asked_once_per_state_and_action_whatever_the_horizon():
    model = Counted()
    solution = ep.solve(model, horizon=50)
    assert model.asked == 1
    assert solution.value() == 1 - F(5, 6) ** 50
    assert solution.initial == (0, 50)


def test_a_symbolic_chance_gives_the_piecewise_best_within_n():
    """Bet at chance p, or a sure 1/2 that takes two steps: within 1 step only the bet
    fits (p); within 2, max(p + (1 - p) p, 1/2)."""
    p = sympy.Symbol("p")

    class Bet:
        initial = "s"

        def outcome(self, s):
            return {"won": 1, "lost": 0}.get(s)

        def actions(self, s):
            return ("bet", "sure")

        def transition(self, s, a):
            if a == "bet":
                return Dist({"won": p, "s": 1 - p})
            return Dist({"won": F(1, 2), "lost": F(1, 2)})

    counter = {"bet": 1, "sure": 2}
    solution = ep.solve(
        Bet(), horizon=2, counter=lambda s, a, t: counter[a], parameter_range=(0, 1)
    )
    for t in (F(1, 10), F(1, 4), F(1, 2), F(9, 10)):
        at = solution.at(t)
        assert at.value(("s", 1)) == t
        assert at.value(("s", 2)) == max(t + (1 - t) * t, F(1, 2))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"horizon": -1}, "horizon must be a whole number of steps, 0 or more, got -1"),
        ({"horizon": 2.0}, "horizon must be a whole number of steps, 0 or more, got 2.0"),
        ({"horizon": True}, "horizon must be a whole number of steps, 0 or more, got True"),
        (
            {"counter": lambda s, a, t: 1},
            "counter= counts steps towards a horizon; give horizon= too",
        ),
    ],
)
def test_bad_options_are_refused_in_one_line(options, message):
    with pytest.raises(UsageError) as caught:
        ep.solve(Counted(), **options)
    assert str(caught.value) == message


@pytest.mark.parametrize("steps", [-1, F(1, 2), 1.0, "1"])
def test_a_counter_that_is_not_a_whole_number_of_steps_is_refused(steps):
    message = f"the counter gives {steps!r} for the move from 0 by 'roll' to 0; a counter adds"
    with pytest.raises(ModelError, match=re.escape(message)):
        ep.solve(Counted(), horizon=2, counter=lambda s, a, t: steps)


def test_a_level_model_and_a_model_without_a_start_are_refused():
    from test_level_model import Layered

    level_model = Layered([1, 1], [[[[F(1)]]]], [[[F(0)]]], [F(1)])
    with pytest.raises(UsageError, match="horizon= is for a Model or an ArrayModel"):
        ep.solve(level_model, horizon=3)
    model = Counted()
    del Counted.initial
    try:
        with pytest.raises(ModelError, match="has no initial state; give starts="):
            ep.solve(model, horizon=3)
        assert ep.solve(model, horizon=1, starts=[0]).value() == F(1, 6)
    finally:
        Counted.initial = 0


class Race(ep.ArrayModel):
    """Roll a d6 until the total reaches 10 (the array model of the engine's docs):
    won on 10 or 11."""

    sizes, initial, actions = (16,), (0,), ("roll",)

    def terminal(self, states):
        return states[:, 0] >= 10

    def outcome(self, states):
        return (states[:, 0] <= 11).astype(int)

    def transition(self, states, action):
        return [("1/6", states + r) for r in range(1, 7)]


def test_an_array_model_plays_within_a_horizon_one_state_at_a_time():
    """The chance to end on 10 or 11 within n rolls, against the recursion from the rules:
    W(t, n) = [t in (10, 11)] at 10 or more, else the mean of W(t + r, n - 1)."""

    @cache
    def W(t, n):
        if t >= 10:
            return F(int(t <= 11))
        return F(0) if n == 0 else sum((W(t + r, n - 1) for r in range(1, 7)), F(0)) / 6

    solution = ep.solve(Race(), horizon=12)
    assert [solution.value(((0,), n)) for n in range(13)] == [W(0, n) for n in range(13)]
    assert solution.value(((0,), 12)) == ep.solve(Race()).value()  # 10 rolls always end it


class Forever:
    """A loop that pays 1 a move and never ends (``reward = None`` on the class stands
    for no rewards elsewhere; here it pays)."""

    initial = 0
    player = None

    def outcome(self, s):
        return None

    def actions(self, s):
        return ("go",)

    def transition(self, s, a):
        return Dist({0: 1})

    def reward(self, s, a):
        return 1


def test_every_move_a_step_earns_one_reward_a_step_as_storms_cumulative_reward():
    """Within n moves a loop paying 1 a move earns n (Storm's ``R=? [C<=n]``): the move
    that would be the (n + 1)-th comes too late and earns nothing."""
    solution = ep.solve(Forever(), horizon=5)
    assert [solution.value((0, n)) for n in range(6)] == list(range(6))


@pytest.mark.parametrize("reward", [6, sympy.Symbol("r")])
def test_a_reward_is_earned_on_the_share_of_moves_that_fit(reward):
    """A move to ``a`` uses one step, one to ``b`` two: with one step left, the action's
    reward is earned on the 1/3 that fits (exactly: a symbolic reward stays exact)."""

    class Split:
        initial = "s"

        def outcome(self, s):
            return None if s == "s" else 0

        def actions(self, s):
            return ("go",)

        def transition(self, s, a):
            return Dist({"a": F(1, 3), "b": F(2, 3)})

        def reward(self, s, a):
            return reward

    steps = {"a": 1, "b": 2}
    solution = ep.solve(Split(), horizon=2, counter=lambda s, a, t: steps[t])
    assert [solution.value(("s", n)) for n in range(3)] == [0, reward / 3, reward]
    assert sympy.sympify(solution.value(("s", 1))).atoms(sympy.Float) == set()


def test_a_none_player_or_reward_is_no_player_or_reward():
    class Plain(Forever):
        reward = None

        def outcome(self, s):
            return 1 if s == 1 else None

        def transition(self, s, a):
            return Dist({1: F(1, 2), 0: F(1, 2)})

    assert ep.solve(Plain(), horizon=2).value() == F(3, 4)


def test_an_array_model_with_several_initial_states_starts_from_each():
    two_starts = Race()
    two_starts.initial = [(0,), (8,)]
    solution = ep.solve(two_starts, horizon=1)
    assert solution.value(((8,), 1)) == F(2, 6)  # a 2 or a 3 ends on 10 or 11


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (
            {"counter": 5},
            UsageError,
            "counter must be a function counter(state, action, next_state), got 5",
        ),
        (
            {"counter": lambda s, a: 1},
            ModelError,
            "the counter takes (s, a), but the engine calls it as counter(state, action, next_state)",
        ),
        ({"starts": 5}, ModelError, "starts must be a sequence of states, got 5"),
        (
            {"horizon": 10**12},
            StateLimitError,
            "the model within the horizon has 1,000,000,000,001 states",
        ),
    ],
)
def test_bad_counters_starts_and_horizons_are_refused_up_front(options, error, message):
    with pytest.raises(error) as caught:
        ep.solve(Counted(), **{"horizon": 2, **options})
    assert str(caught.value).startswith(message)
