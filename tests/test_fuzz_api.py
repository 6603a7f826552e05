"""A fuzz of the Python API with broken models: every solver either solves a random model
or raises an ExactProbError subclass, never a RecursionError, KeyError, TypeError or a
hang.

A random model is a small table of states, each with some actions and moves; one fault
from :data:`FAULTS` is planted in one state (or none). The solvers are run with a small
state limit, so a model that grows without end is stopped by it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import all_policies, policy_values, probs, q_values, reachable

import exactprob as ep
from exactprob.errors import ExactProbError, NonTerminationError

#: What a faulty state does instead of answering properly.
FAULTS = [
    "none",
    "probabilities not summing to one",
    "a float probability",
    "an unhashable successor",
    "no actions",
    "actions is None",
    "actions is a string",
    "a repeated action",
    "an unhashable action",
    "a dict, not a Dist",
    "a float outcome",
    "player 2",
    "an endless counter",
    "a state that differs from itself",
    "a negative probability",
]


class _NotItself:
    """A state that is not equal to itself (like a NaN)."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 7


class RandomModel:
    """States ``0 .. n-1`` (the last terminal); ``moves[s]`` lists, per action, the
    successors with integer weights. ``fault`` happens in state ``where``."""

    def __init__(self, moves: list[list[list[tuple[int, int]]]], fault: str, where: int) -> None:
        self.moves, self.fault, self.where = moves, fault, where
        self.initial: Any = 0

    def _faulty(self, s: Any) -> bool:
        return s == self.where

    def outcome(self, s: Any) -> Any:
        if isinstance(s, tuple | _NotItself):
            return None
        if s == len(self.moves):
            return 0.25 if self.fault == "a float outcome" else 1
        return None

    def player(self, s: Any) -> int:
        return 2 if self.fault == "player 2" and self._faulty(s) else 0

    def actions(self, s: Any) -> Any:
        if isinstance(s, tuple | _NotItself):
            return ("on",)
        if self._faulty(s):
            special = {
                "no actions": (),
                "actions is None": None,
                "actions is a string": "ab",
                "a repeated action": (0, 0),
                "an unhashable action": (0, [1]),
            }
            if self.fault in special:
                return special[self.fault]
        return tuple(range(len(self.moves[s])))

    def transition(self, s: Any, a: Any) -> Any:
        if isinstance(s, tuple):  # the endless counter
            return ep.Dist({(s[0] + 1,): 1})
        if isinstance(s, _NotItself):
            return ep.Dist({_NotItself(): 1})
        weights = dict(self.moves[s][a % len(self.moves[s])])
        total = sum(weights.values())
        dist = {t: Fraction(w, total) for t, w in weights.items()}
        if self._faulty(s):
            fault = self.fault
            if fault == "probabilities not summing to one":
                dist = {t: p / 2 for t, p in dist.items()}
            elif fault == "a float probability":
                dist = {t: float(p) for t, p in dist.items()}
            elif fault == "an unhashable successor":
                return ep.Dist([([s], 1)])
            elif fault == "a dict, not a Dist":
                return dist
            elif fault == "an endless counter":
                return ep.Dist({(0,): 1})
            elif fault == "a state that differs from itself":
                return ep.Dist({_NotItself(): 1})
            elif fault == "a negative probability":
                first = next(iter(dist))
                dist = {first: -1, **{t: p for t, p in dist.items() if t != first}}
        return ep.Dist(dist)


@st.composite
def random_models(draw: st.DrawFn) -> RandomModel:
    n = draw(st.integers(1, 6))  # states 0..n-1, terminal n
    successor = st.tuples(st.integers(0, n), st.integers(1, 3))
    action = st.lists(successor, min_size=1, max_size=3)
    moves = [draw(st.lists(action, min_size=1, max_size=3)) for _ in range(n)]
    return RandomModel(moves, draw(st.sampled_from(FAULTS)), draw(st.integers(0, n - 1)))


#: The same 150 examples a test in a default run (as CI's); a longer profile
#: (``--hypothesis-profile thorough``) runs that many random ones instead.
FUZZ = settings(
    max_examples=max(150, settings.default.max_examples),
    derandomize=settings.default.max_examples <= 150,
    database=None,
    deadline=None,
)

SOLVERS = {
    "solve": lambda m: ep.solve(m, max_states=200),
    "solve_depth_first": lambda m: ep.solve(m, method="depth-first", max_states=200),
    "enclose": lambda m: ep.solve(m, method="certified", max_states=200),
}


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@FUZZ
@given(model=random_models())
def test_a_broken_model_raises_an_exactprob_error_or_solves(
    solver: str, model: RandomModel
) -> None:
    try:
        SOLVERS[solver](model)
    except ExactProbError:
        pass


# -- values: a brute-force oracle over every stationary policy ---------------------------------
class SoundModel:
    """A random model without faults: states ``0 .. n-1``, terminal states ``n`` (worth
    ``end``) and ``n + 1`` (worth 0); ``moves[s][a]`` the successors with integer weights,
    ``rewards[s][a]`` the reward of each action; players alternate when ``two_players``."""

    def __init__(self, moves, rewards, end, two_players):
        self.moves, self.rewards, self.end, self.two_players = moves, rewards, end, two_players
        self.initial = 0

    def outcome(self, s):
        n = len(self.moves)
        return {n: self.end, n + 1: 0}.get(s)

    def player(self, s):
        return s % 2 if self.two_players else 0

    def actions(self, s):
        return tuple(range(len(self.moves[s])))

    def transition(self, s, a):
        weights = dict(self.moves[s][a])
        total = sum(weights.values())
        return ep.Dist({t: Fraction(w, total) for t, w in weights.items()})

    def reward(self, s, a):
        return self.rewards[s][a]

    def __repr__(self):
        return f"SoundModel({self.moves!r}, {self.rewards!r}, {self.end!r}, {self.two_players})"


@st.composite
def sound_models(draw: st.DrawFn) -> SoundModel:
    """<= 5 states with cycles, self-loops, exact copies of actions (ties) and rewards:
    costs (<= 0) for one player, any sign for two (their games are kept only when every
    strategy pair ends play, see :func:`optimum`)."""
    n = draw(st.integers(1, 5))
    two_players = draw(st.booleans())
    successor = st.tuples(st.integers(0, n + 1), st.integers(1, 3))
    action = st.lists(successor, min_size=1, max_size=3)
    moves = []
    for _ in range(n):
        acts = draw(st.lists(action, min_size=1, max_size=3))
        if draw(st.integers(0, 3)) == 0:
            acts.append(list(draw(st.sampled_from(acts))))  # a copy: a tie
        moves.append(acts)
    reward = st.integers(-2, 2 if two_players else 0)
    rewards = [[draw(reward) for _ in acts] for acts in moves]
    return SoundModel(moves, rewards, draw(st.integers(-1, 2)), two_players)


def optimum(model: SoundModel) -> dict[Any, Fraction] | None:
    """The optimal value of every state, by brute force over every stationary profile
    (an action for each state): for one player the best over the profiles that end play
    surely from the state (the engine's convention), ``None`` when some state has none;
    for two players (only games where every profile ends play: the caller checks)
    ``max`` over player 0's choices of ``min`` over player 1's."""
    states = sorted(reachable(model))
    inner = [s for s in states if model.outcome(s) is None]
    values: dict[Any, list[tuple[dict, Fraction]]] = {s: [] for s in states}
    for profile in all_policies(model, states):
        for s, v in _ending_values(model, profile, states).items():
            values[s].append((profile, v))
    if any(not values[s] for s in inner):
        return None
    if not model.two_players:
        return {s: max(v for _, v in values[s]) for s in states}
    mine = [s for s in inner if model.player(s) == 0]
    best: dict[Any, Fraction] = {}
    for s in states:
        worst: dict[tuple, Fraction] = {}
        for profile, v in values[s]:
            key = tuple(profile[t] for t in mine)
            worst[key] = min(worst.get(key, v), v)
        best[s] = max(worst.values())
    return best


def _ending_values(model, profile, states) -> dict[Any, Fraction]:
    """The values under ``profile`` of the states from which it ends play surely: those
    that cannot reach a state from which no terminal state can be reached."""
    successors = {s: set(probs(model, s, profile[s])) for s in states if model.outcome(s) is None}
    ends = {s for s in states if model.outcome(s) is not None}
    grew = True
    while grew:
        reach = {s for s, nxt in successors.items() if nxt & ends} - ends
        grew, ends = bool(reach), ends | reach
    stuck = set(states) - ends
    grew = True
    while grew:
        reach = {s for s, nxt in successors.items() if nxt & stuck} - stuck
        grew, stuck = bool(reach), stuck | reach
    surely = [s for s in states if s not in stuck]
    return policy_values(model, profile, surely) if surely else {}


def every_profile_ends(model) -> bool:
    states = sorted(reachable(model))
    inner = {s for s in states if model.outcome(s) is None}
    return all(inner <= set(_ending_values(model, p, states)) for p in all_policies(model, states))


def _leaves(model, s, a) -> bool:
    """Whether a move of action ``a`` may end anywhere but back at ``s`` once every run of
    one-move states (one action, one successor) is followed to its end; an action that
    surely comes back never ends play, as a self-loop does: it is never chosen, no tie."""
    return any(_end_of_run(model, t) != s for t in probs(model, s, a))


def _end_of_run(model, t):
    seen = set()
    while t not in seen and model.outcome(t) is None and len(model.actions(t)) == 1:
        moves = probs(model, t, model.actions(t)[0])
        if len(moves) != 1:
            break
        seen.add(t)
        (t,) = moves
    return t


@pytest.mark.parametrize("method", ["exact", "depth-first", "certified"])
@FUZZ
@given(model=sound_models())
def test_random_models_reach_the_optimum_over_every_policy(method: str, model: SoundModel):
    """Values equal the brute force's; the ties are exactly the actions worth the value
    (Bellman's q from the optimal values), the policy is one of them and, for one player,
    ends play and attains every value; a model where some state has no ending policy is
    refused. Certified mode encloses the same values, or refuses a game where a player
    can keep play going."""
    if model.two_players and not every_profile_ends(model):
        return  # no single convention for a game nobody need end
    expected = optimum(model)
    if expected is None:
        with pytest.raises(NonTerminationError):
            ep.solve(model, method, max_states=200)
        return
    try:
        solved = ep.solve(model, method, max_states=200)
    except NonTerminationError:
        assert method == "certified" and not every_profile_ends(model)
        return
    for s, v in expected.items():
        if method == "certified":
            assert solved.value(s).contains(v), (s, solved.value(s), v)
            continue
        assert solved.value(s) == v, (s, solved.value(s), v)
        if model.outcome(s) is None:
            q = q_values(model, s, expected)
            ties = tuple(a for a in model.actions(s) if q[a] == v and _leaves(model, s, a))
            assert solved.ties(s) == ties and solved.policy(s) in ties
    if method != "certified" and not model.two_players:
        assert policy_values(model, solved.policy_map(), list(expected)) == expected


# -- the edges: outcomes of any kind, movers of any kind, targets never reached -------------
#: Outcomes that a user's distribution may hold, orderable with each other or not.
ANY_OUTCOME = st.one_of(
    st.integers(-3, 3),
    st.fractions(-2, 2, max_denominator=3),
    st.text(max_size=2),
    st.tuples(st.integers(0, 2)),
    st.none(),
)


@FUZZ
@given(
    weights=st.dictionaries(ANY_OUTCOME, st.integers(1, 3), min_size=1, max_size=4),
    ask=st.sampled_from(["lt", "le", "gt", "ge", "cdf", "quantile"]),
    other=ANY_OUTCOME,
)
def test_any_outcomes_are_compared_or_refused_in_one_line(weights, ask, other) -> None:
    law = ep.Dist.from_weights(weights)
    try:
        if ask == "quantile":
            found = law.quantile(Fraction(1, 2))
            below = [x for x in weights if x != found]
            assert all(law.cdf(x) < Fraction(1, 2) for x in below if x < found)
        else:
            getattr(law, ask)(other)
    except ep.DistributionError:
        pass


class _Mover(ep.ArrayModel):
    """Steps 0 -> 1 -> 2 (the end), one or two at a time; ``mover`` moves in ``at``."""

    sizes, initial, actions = (4,), (0,), ("one", "two")

    def __init__(self, mover: Any, at: int) -> None:
        self.mover, self.at = mover, at

    def terminal(self, states: Any) -> Any:
        return states[:, 0] >= 2

    def outcome(self, states: Any) -> Any:
        return states[:, 0]

    def player(self, states: Any) -> Any:
        import numpy as np

        found = np.zeros(len(states), dtype=np.asarray(self.mover).dtype)
        found[states[:, 0] == self.at] = self.mover
        return found

    def transition(self, states: Any, action: str) -> Any:
        return [(1, states + (1 if action == "one" else 2))]


@FUZZ
@given(
    mover=st.sampled_from([0, 1, 1.0, 0.0, 0.5, True, 2, -1]),
    at=st.integers(0, 1),
    method=st.sampled_from(["exact", "depth-first", "certified"]),
    one_at_a_time=st.booleans(),
)
def test_a_mover_is_a_seat_number_or_refused(mover, at, method, one_at_a_time) -> None:
    from exactprob.engine.array_model import per_state

    model = _Mover(mover, at)
    # an array model's movers are an integer or boolean array of 0 and 1: 1.0 is no seat
    seat = isinstance(mover, int) and mover in (0, 1)
    try:
        ep.solve(per_state(model) if one_at_a_time else model, method=method)
    except ep.ModelError:
        assert not seat, (mover, at)
        return
    assert seat, (mover, at)


@FUZZ
@given(
    size=st.integers(2, 6),
    target=st.sets(st.integers(0, 9), min_size=1, max_size=4),
)
def test_a_first_passage_ignores_states_never_reached(size: int, target: set[int]) -> None:
    class Cycle:  # 0 -> 1 -> ... -> size - 1 -> 0
        initial = 0

        def outcome(self, state: int) -> None:
            return None

        def actions(self, state: int) -> tuple[str]:
            return ("go",)

        def transition(self, state: int, action: str) -> ep.Dist[int]:
            return ep.Dist({(state + 1) % size: 1})

    cycle = ep.stationary(Cycle())
    reached = {s for s in target if s < size}
    if not reached:
        with pytest.raises(ep.ModelError, match="none of the target states"):
            cycle.mean_first_passage(target)
        return
    assert cycle.mean_first_passage(target) == min(reached)  # one step a state
