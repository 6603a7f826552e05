"""exactprob.engine.graph.bulk and exactprob.engine.array_model: models explored a breadth-first level at a time.

Oracle: the same model one state at a time (``per_state``) through the plain explorer,
which shares none of the bulk explorer's code (no codes, no id table, no sorting of edges,
no merging, no probability table): the two graphs must be the same graph (states,
outcomes, movers, actions, and every transition's exact probability), and their
solutions equal. Random models come from tables drawn by hypothesis: cycles, self-loops,
two branches to one state, per-row probabilities with zero rows, two players, Fraction
outcomes. The dice race is also checked against a closed recursion written here.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import check_against_recursion

from exactprob import (
    ArrayModel,
    ModelError,
    NonTerminationError,
    StateLimitError,
    evaluate,
    explore,
    per_state,
    simulate,
    solve,
)
from exactprob.engine.certified.solving import enclose
from exactprob.engine.exact.depth_first import solve_depth_first
from exactprob.engine.graph.bulk import Box


class TableArrays(ArrayModel):
    """A random game on the box ``sizes``, given by tables over state codes.

    ``ends[c]``: the outcome (a Fraction) of a terminal code, absent otherwise;
    ``moves[a][c]``: for an enabled action, a list of ``(numerator, denominator,
    target code)`` branches (the table pads shorter lists with zero-probability
    branches); ``movers[c]``: 0 or 1."""

    def __init__(self, sizes, initial, ends, moves, movers):
        self.sizes = sizes
        self.initial = initial
        self.actions = tuple(f"a{k}" for k in range(len(moves)))
        self.box = Box(sizes)
        self.ends, self.moves, self.movers = ends, moves, movers

    def _codes(self, states):
        return self.box.encode(states).tolist()

    def terminal(self, states):
        return np.array([c in self.ends for c in self._codes(states)], dtype=bool)

    def outcome(self, states):
        return np.array([self.ends[c] for c in self._codes(states)] + [None], dtype=object)[:-1]

    def enabled(self, states, action):
        table = self.moves[self.actions.index(action)]
        return np.array([c in table for c in self._codes(states)], dtype=bool)

    def player(self, states):
        return np.array([self.movers[c] for c in self._codes(states)], dtype=np.uint8)

    def transition(self, states, action):
        table = self.moves[self.actions.index(action)]
        rows = [table[c] for c in self._codes(states)]
        width = max(len(r) for r in rows)
        branches = []
        for b in range(width):
            num = np.array([r[b][0] if b < len(r) else 0 for r in rows], dtype=np.int64)
            den = np.array([r[b][1] if b < len(r) else 1 for r in rows], dtype=np.int64)
            codes = np.array([r[b][2] if b < len(r) else 0 for r in rows], dtype=np.int64)
            branches.append(((num, den), self.box.decode(codes)))
        return branches

    def __repr__(self):
        return (
            f"TableArrays({self.sizes}, {self.initial}, {self.ends}, {self.moves}, {self.movers})"
        )


@st.composite
def table_models(draw, acyclic=False):
    """Up to 12 codes; each non-terminal code has 1-3 actions of 1-4 branches whose
    integer weights become exact probabilities (some branches repeat a target; with
    ``acyclic``, targets have larger codes or are the state itself)."""
    sizes = draw(st.sampled_from([(12,), (3, 4), (2, 2, 3)]))
    n = int(np.prod(sizes))
    last = n - 1
    ends = {last: F(draw(st.integers(-3, 3)), draw(st.integers(1, 3)))}
    for c in range(n - 1):
        if draw(st.integers(0, 3)) == 0:
            ends[c] = F(draw(st.integers(-3, 3)), draw(st.integers(1, 3)))
    n_actions = draw(st.integers(1, 3))
    moves = [{} for _ in range(n_actions)]
    for c in range(n):
        if c in ends:
            continue
        enabled = [a for a in range(n_actions) if draw(st.booleans())] or [0]
        for a in enabled:
            lowest = c if acyclic else 0
            targets = draw(st.lists(st.integers(lowest, last), min_size=1, max_size=4))
            if acyclic and all(t == c for t in targets):
                targets.append(last)
            weights = draw(
                st.lists(st.integers(1, 5), min_size=len(targets), max_size=len(targets))
            )
            total = sum(weights)
            moves[a][c] = [
                (F(w, total).numerator, F(w, total).denominator, t)
                for w, t in zip(weights, targets)
            ]
    movers = {c: draw(st.integers(0, 1)) for c in range(n)}
    box = Box(sizes)
    start = tuple(box.decode(np.array([draw(st.integers(0, last))]))[0].tolist())
    return TableArrays(sizes, start, ends, moves, movers)


def graph_as_dict(G):
    """Everything a state graph says, keyed by states (not ids)."""
    out = {}
    for s in range(len(G)):
        choices = {}
        for k, action in enumerate(G.actions[s]):
            moves: dict = {}
            for t, p in G.choice_edges(G.choice_start[s] + k):
                moves[G.states[t]] = moves.get(G.states[t], 0) + F(
                    int(p.numerator), int(p.denominator)
                )
            if G.rewards is not None:
                moves = (moves, F(G.rewards[G.choice_start[s] + k]))
            choices[action] = moves
        outcome = G.outcomes[s]
        player = G.players[s] if outcome is None else 0
        out[G.states[s]] = (None if outcome is None else F(outcome), player, choices)
    return out


@settings(max_examples=150, deadline=None)
@given(table_models())
def test_bulk_graph_equals_the_per_state_graph(model):
    bulk = explore(model)
    plain = explore(per_state(model))
    assert graph_as_dict(bulk) == graph_as_dict(plain)
    assert bulk.number_of_transitions() == plain.number_of_transitions()  # repeats merged
    assert bulk.states[0] == plain.states[0] == model.initial
    for s in range(len(bulk)):
        assert bulk.index[bulk.states[s]] == s


@settings(max_examples=100, deadline=None)
@given(table_models(acyclic=True))
def test_bulk_solutions_equal_per_state_solutions(model):
    bulk = solve(model)
    plain = solve(per_state(model))
    for state in plain.states:
        assert bulk.value(state) == plain.value(state)
        assert bulk.ties(state) == plain.ties(state)


class RewardArrays(TableArrays):
    """A :class:`TableArrays` with a reward for every enabled action of a code:
    ``rewards[(code, action index)]``."""

    def __init__(self, model, rewards):
        super().__init__(model.sizes, model.initial, model.ends, model.moves, model.movers)
        self.rewards = rewards

    def reward(self, states, action):
        a = self.actions.index(action)
        values = [self.rewards[c, a] for c in self._codes(states)]
        return np.array([*values, None], dtype=object)[:-1]


@st.composite
def reward_models(draw, acyclic=False):
    """:func:`table_models` with a small reward (any sign) on every enabled action."""
    model = draw(table_models(acyclic))
    rewards = {
        (c, a): F(draw(st.integers(-3, 3)), draw(st.integers(1, 3)))
        for a, table in enumerate(model.moves)
        for c in table
    }
    return RewardArrays(model, rewards)


@settings(max_examples=100, deadline=None)
@given(reward_models())
def test_bulk_rewards_equal_the_per_state_rewards(model):
    assert graph_as_dict(explore(model)) == graph_as_dict(explore(per_state(model)))


@settings(max_examples=100, deadline=None)
@given(reward_models(acyclic=True))
def test_bulk_reward_solutions_match_the_recursion(model):
    check_against_recursion(per_state(model), solve(model), self_loops=True)


class DiceRace(ArrayModel):
    """Race to square ``target`` within ``turns`` turns, a d6 or 2d3 a turn; landing on
    ``target .. target + 2`` wins. State (turn, square)."""

    actions = ("d6", "2d3")

    def __init__(self, target, turns):
        self.target, self.turns = target, turns
        self.sizes = (turns + 1, target + 7)
        self.initial = (0, 0)

    def terminal(self, states):
        return (states[:, 1] >= self.target) | (states[:, 0] == self.turns)

    def outcome(self, states):
        square = states[:, 1]
        return ((square >= self.target) & (square <= self.target + 2)).astype(int)

    def transition(self, states, action):
        if action == "d6":
            return [("1/6", states + [1, r]) for r in range(1, 7)]
        return [(F(c, 9), states + [1, r]) for r, c in ((2, 1), (3, 2), (4, 3), (5, 2), (6, 1))]


def race_values(target, turns):
    """The optimal chance to win from every (turn, square), by backward recursion."""
    d6 = {r: F(1, 6) for r in range(1, 7)}
    two_d3 = {2: F(1, 9), 3: F(2, 9), 4: F(3, 9), 5: F(2, 9), 6: F(1, 9)}
    V = {}
    for t in range(turns, -1, -1):
        for square in range(target + 6, -1, -1):
            if square >= target:
                V[t, square] = F(int(square <= target + 2))
            elif t == turns:
                V[t, square] = F(0)
            else:
                V[t, square] = max(
                    sum(p * V[t + 1, square + r] for r, p in d.items()) for d in (d6, two_d3)
                )
    return V


def test_dice_race_equals_the_recursion():
    solution = solve(DiceRace(30, 12))
    V = race_values(30, 12)
    for state in solution.states:
        assert solution.value(state) == V[state]


def test_several_initial_states_are_all_explored_and_the_first_is_the_default():
    model = DiceRace(10, 4)
    model.initial = [(2, 5), (0, 0), (2, 5)]
    solution = solve(model)
    V = race_values(10, 4)
    assert solution.value() == V[2, 5] and solution.value((0, 0)) == V[0, 0]
    assert solution.states[:2] == [(2, 5), (0, 0)]


def test_per_state_callers_accept_an_array_model():
    """Depth-first mode, a fixed policy and simulation go through per_state."""
    model = DiceRace(12, 5)
    exact = solve(model)
    assert solve_depth_first(model).value() == exact.value()
    d6 = evaluate(model, lambda state: "d6")
    V6 = {}  # always a d6: a recursion of its own
    for t in range(5, -1, -1):
        for square in range(12 + 6, -1, -1):
            if square >= 12:
                V6[t, square] = F(int(square <= 14))
            else:
                V6[t, square] = (
                    F(0) if t == 5 else sum(F(1, 6) * V6[t + 1, square + r] for r in range(1, 7))
                )
    assert d6.value() == V6[0, 0]
    assert simulate(model, lambda state: exact.policy(state), n=4000, seed=3).agrees_with(
        exact.value()
    )
    assert enclose(model).value().contains(exact.value())


def test_too_many_states_is_refused():
    with pytest.raises(StateLimitError, match="more than 20 reachable states"):
        explore(DiceRace(30, 12), max_states=20)


def test_unreached_state_is_a_model_error():
    solution = solve(DiceRace(10, 4))
    for bad in [(0, 1), (9, 9), (1,), "x", (0.5, 0)]:
        with pytest.raises(ModelError, match="not a reachable state"):
            solution.value(bad)


def test_networkx_view_of_a_bulk_graph():
    G = explore(DiceRace(6, 2))
    nx_graph = G.to_networkx()
    assert nx_graph.number_of_nodes() == len(G)
    assert nx_graph.graph["initial"] == (0, 0)


def test_a_self_loop_is_a_do_over():
    class Volley(ArrayModel):  # state 0 fights; 1 wins (1/3), 2 loses (1/6), else again
        sizes, initial, actions = (3,), (0,), ("shoot",)

        def terminal(self, states):
            return states[:, 0] > 0

        def outcome(self, states):
            return (states[:, 0] == 1).astype(int)

        def transition(self, states, action):
            return [("1/3", states + 1), ("1/6", states + 2), ("1/4", states), ("1/4", states)]

    solution = solve(Volley())
    assert solution.value() == F(2, 3)  # (1/3) / (1/3 + 1/6)
    assert solution.expected_steps() == 2  # leaves with chance 1/2 a volley


class Broken(ArrayModel):
    """A one-variable walk whose parts the tests below break one at a time."""

    sizes, initial, actions = (5,), (0,), ("step",)

    def terminal(self, states):
        return states[:, 0] == 4

    def outcome(self, states):
        return np.ones(len(states), dtype=int)

    def transition(self, states, action):
        return [("1/2", states + 1), ("1/2", np.minimum(states + 2, 4))]


def broken(**parts):
    model = Broken()
    for name, value in parts.items():
        setattr(model, name, value)
    return model


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        ({"sizes": (0,)}, "sizes must be a non-empty tuple of whole numbers >= 1"),
        ({"sizes": [5]}, "sizes must be a non-empty tuple"),
        ({"actions": ()}, "actions must be a non-empty tuple of distinct actions"),
        ({"actions": ("a", "a")}, "distinct actions"),
        ({"initial": (7,)}, r"initial state \(7,\) is not inside sizes \(5,\)"),
        ({"initial": ("x",)}, "initial states must be tuples of whole numbers"),
        ({"terminal": lambda s: s[:, 0]}, "terminal\\(\\) must return one boolean per row"),
        ({"outcome": lambda s: np.full(len(s), 0.5)}, "outcome\\(\\) returned float64 values"),
        (
            {"outcome": lambda s: np.array([0.1] * len(s) + [None], dtype=object)[:-1]},
            r"outcome\(\(4,\)\) is not an exact number",
        ),
        (
            {"enabled": lambda s, a: np.zeros(len(s), dtype=bool)},
            r"no action is enabled in the non-terminal state \(0,\)",
        ),
        ({"player": lambda s: np.full(len(s), 2)}, "player\\(\\) must return 0 or 1 per row"),
        (
            {"transition": lambda s, a: [("1/2", s + 1), ("1/3", s + 2)]},
            r"transition\(\(0,\), 'step'\) has probabilities summing to 5/6, not 1",
        ),
        (
            {"transition": lambda s, a: [("1/2", s + 1), ("1/2", s + 9)]},
            r"moves \(0,\) to \(9,\), outside sizes \(5,\)",
        ),
        (
            {"transition": lambda s, a: [(0.1, s + 1), (0.9, s + 2)]},
            "float 0.1 is not the number it prints",
        ),
        (
            {"transition": lambda s, a: [("3/2", s + 1)]},
            "probability 3/2 of row 0 is not between 0 and 1",
        ),
        (
            {"transition": lambda s, a: [((np.ones(len(s)), 2), s + 1)]},
            "integers or integer arrays",
        ),
        (
            {"transition": lambda s, a: [([1, 2], s + 1)]},
            r"\[1, 2\] is not an exact probability",
        ),
        (
            {"transition": lambda s, a: [((1, 2, 3), s + 1)]},
            "a pair \\(numerators, denominators\\)",
        ),
        (
            {"transition": lambda s, a: [("1/2", s[:, :0])]},
            "next states must be a whole-number array",
        ),
        ({"transition": lambda s, a: ["1/2"]}, "a branch is a pair \\(probability, next_states\\)"),
        ({"transition": lambda s, a: [(2**70, s + 1)]}, "62 bits"),
    ],
)
def test_bad_array_models_get_one_clear_line(parts, message):
    with pytest.raises(ModelError, match=message):
        explore(broken(**parts))


def test_a_state_that_only_waits_never_terminates():
    model = broken(transition=lambda s, a: [(1, s)])
    with pytest.raises(NonTerminationError, match=r"every action in state \(0,\) returns to it"):
        solve(model)


def test_branches_to_one_state_are_added():
    model = broken(
        transition=lambda s, a: (
            [("1/4", np.minimum(s + 1, 4))] * 2 + [("1/2", np.minimum(s + 1, 4))]
        )
    )
    G = explore(model)
    assert G.number_of_transitions() == 4  # one edge per state: 0 -> 1 -> 2 -> 3 -> 4
    assert [str(p) for p in G.probabilities] == ["1/4", "1/2", "1"]
    assert solve(model).value() == 1


@pytest.mark.parametrize("denominator", [6, 2**30 + 7, 2**31 + 11, 2**61 + 1])
def test_per_row_probabilities_of_any_size(denominator):
    """A chance that depends on the state, with denominators on both sides of the packed
    (31-bit) path: the same graph as one state at a time."""

    class Uneven(ArrayModel):  # from x, step +1 with chance (x + 1) / d, else +2
        sizes, initial, actions = (9,), (0,), ("step",)

        def terminal(self, states):
            return states[:, 0] >= 6

        def outcome(self, states):
            return states[:, 0] - 6

        def transition(self, states, action):
            up = states[:, 0] + 1
            return [((up, denominator), states + 1), ((denominator - up, denominator), states + 2)]

    assert graph_as_dict(explore(Uneven())) == graph_as_dict(explore(per_state(Uneven())))
    assert solve(Uneven()).value() == solve(per_state(Uneven())).value()


def test_many_actions():
    """Seventy bets (more than a 64-bit mask holds): bet k of 70 wins with chance
    k/70 and pays 70 - k; the best bets are 35 (k = 35: 35/70 * 35 = 17.5)."""

    class Bets(ArrayModel):
        sizes, initial, actions = (71,), (0,), tuple(range(1, 71))

        def terminal(self, states):
            return states[:, 0] > 0

        def outcome(self, states):
            return np.array(
                [F(70 - k, 1) if k < 70 else F(0) for k in states[:, 0].tolist()] + [None],
                dtype=object,
            )[:-1]

        def transition(self, states, action):
            win = np.full((len(states), 1), action)
            return [((action, 70), win), ((70 - action, 70), np.full((len(states), 1), 70))]

    solution = solve(Bets())
    assert solution.value() == F(35, 2) and solution.ties() == (35,)
    assert len(solution.graph.actions[0]) == 70


def test_a_float_probability_is_refused_even_after_its_exact_twin():
    """Exact scalars are parsed once and remembered; a float equal to one of them (0.1 ==
    Fraction(3602879701896397, 2**55), its binary value) must still be refused."""
    tenth = F(0.1)
    explore(broken(transition=lambda s, a: [(tenth, s + 1), (1 - tenth, np.minimum(s + 2, 4))]))
    with pytest.raises(ModelError, match="float 0.1 is not the number it prints"):
        explore(broken(transition=lambda s, a: [(0.1, s + 1), (0.9, np.minimum(s + 2, 4))]))


@pytest.mark.parametrize(
    "transition",
    [
        lambda s, a: [],  # no branch at all
        lambda s, a: [((np.zeros(len(s), dtype=int), 1), s + 1)],  # branches of chance 0
    ],
)
def test_an_enabled_action_without_a_move_is_refused(transition):
    """An action enabled in a state must move somewhere: otherwise its probabilities sum
    to 0 (found by review: the action list and the choices fell out of step, and the
    value of one action was reported for another)."""

    class Two(ArrayModel):
        sizes, initial, actions = (3,), (0,), ("stay", "go")

        def terminal(self, states):
            return states[:, 0] == 2

        def outcome(self, states):
            return states[:, 0]

        def transition(self, states, action):
            return [("1", states + 2)] if action == "go" else transition(states, action)

    with pytest.raises(
        ModelError, match=r"transition\(\(0,\), 'stay'\) has probabilities summing to 0, not 1"
    ):
        explore(Two())


@pytest.mark.parametrize("initial", [(2.9,), [0, 1], [], ((0,),)])
def test_initial_states_must_be_tuples_of_whole_numbers(initial):
    with pytest.raises(ModelError, match="initial"):
        explore(broken(initial=initial))


def test_merged_branches_may_pass_62_bits():
    """Each branch fits in 62 bits, their sum to one state need not (found by review)."""
    p, q = 2**61 - 1, 2**31 - 1

    class Fine(ArrayModel):
        sizes, initial, actions = (4,), (0,), ("go",)

        def terminal(self, states):
            return states[:, 0] > 0

        def outcome(self, states):
            return states[:, 0]

        def transition(self, states, action):
            return [
                (F(1, p), states + 1),
                (F(1, q), states + 1),
                (F(p - 2, 2 * p), states + 2),
                (F(q - 2, 2 * q), states + 3),
            ]

    assert solve(Fine()).value() == solve(per_state(Fine())).value()
