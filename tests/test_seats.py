r"""Games of seats (outcomes that are tuples, one payoff per seat), checked against
oracles that do not use the seat solver: each profile's payoffs solved in sympy from the
game's tables, so that no seat gains by deviating at any state (the one-shot deviation
check) and the ties, the tie rule and the consequential ties are as reported; every
stationary profile enumerated on tiny games (an equilibrium the rule allows exists
exactly when the solve finds one); backward induction written from the rules on
acyclic games; a two-player zero-sum game as two seats; and play simulated with the
solved policy."""

from __future__ import annotations

import itertools
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import RewardTable, TableModel, check_optimal, cyclic_games, reachable

import exactprob as ep
from exactprob import ModelError, NonTerminationError, UsageError
from exactprob.engine.seats import TIE_RULES, solving

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from piglet_seats import Piglet, seat_wins


class SeatTable(TableModel):
    """A :class:`TableModel` whose terminals hold payoff tuples and whose movers are
    seats."""


class PayingSeatTable(SeatTable):
    """A :class:`SeatTable` whose moves pay each seat: ``paid`` is ``{(state, action):
    a tuple of rewards}``."""

    def __init__(self, initial, terminals, nodes, paid):
        super().__init__(initial, terminals, nodes)
        self.paid = paid

    def reward(self, s, a):
        return self.paid[s, a]

    def __repr__(self):
        return (
            f"PayingSeatTable({self.initial!r}, {self.terminals!r}, {self.nodes!r}, {self.paid!r})"
        )


def paid(game, s, a):
    """What the move by ``a`` from ``s`` pays each seat, as fractions (zeros unless paid)."""
    seats = len(next(iter(game.terminals.values())))
    return tuple(map(F, getattr(game, "paid", {}).get((s, a), (0,) * seats)))


@st.composite
def seat_games(draw, acyclic=False):
    """2-4 seats; <= 5 states ``("S", i)`` with 1-3 actions each (sometimes a copy of
    another, or one that pays the mover the same and the others differently, for ties);
    every action may end at once (so every profile ends); three terminals with payoffs
    0-3; in half the games, each move pays each seat -2 to 2 on the way. ``acyclic``: a
    state moves only to higher states."""
    seats = draw(st.integers(2, 4))
    payoff = st.tuples(*[st.integers(0, 3)] * seats)
    terminals = {("T", i): draw(payoff) for i in range(3)}
    n = draw(st.integers(1, 5))
    paying = draw(st.booleans())
    rewards = {}
    nodes = {}
    for i in range(n):
        later = [("S", j) for j in range(n) if not acyclic or j > i]
        acts: dict = {}
        for a in range(draw(st.integers(1, 3))):
            if paying:
                rewards[("S", i), f"a{a}"] = draw(st.tuples(*[st.integers(-2, 2)] * seats))
            if acts and draw(st.integers(0, 3)) == 0:
                copied = draw(st.sampled_from(sorted(acts)))
                acts[f"a{a}"] = dict(acts[copied])
                if paying:
                    rewards[("S", i), f"a{a}"] = rewards[("S", i), copied]
                continue
            inner = draw(st.lists(st.sampled_from(later), max_size=2, unique=True)) if later else []
            ends = draw(
                st.lists(st.sampled_from(sorted(terminals)), min_size=1, max_size=2, unique=True)
            )
            targets = inner + ends
            weights = draw(
                st.lists(st.integers(1, 4), min_size=len(targets), max_size=len(targets))
            )
            acts[f"a{a}"] = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
        nodes[("S", i)] = (draw(st.integers(0, seats - 1)), acts)
    if paying:
        return PayingSeatTable(("S", 0), terminals, nodes, rewards)
    return SeatTable(("S", 0), terminals, nodes)


def profile_values(game, profile, states):
    """Every state's payoffs under ``profile`` (``{state: actions}``, each of the
    actions as likely), solved in sympy: :math:`(I - P) V = B`, one column per seat,
    :math:`B` the rewards and the moves to endings; ``None`` where play need not end."""
    inner = sorted((s for s in states if s in game.nodes), key=repr)
    pos = {s: i for i, s in enumerate(inner)}
    seats = len(next(iter(game.terminals.values())))
    A, B = sympy.zeros(len(inner)), sympy.zeros(len(inner), seats)
    for s in inner:
        A[pos[s], pos[s]] += 1
        share = sympy.Rational(1, len(profile[s]))
        for a in profile[s]:
            for j, r in enumerate(paid(game, s, a)):
                B[pos[s], j] += share * sympy.Rational(r.numerator, r.denominator)
        for t, p in ((t, p) for a in profile[s] for t, p in game.nodes[s][1][a].items()):
            p = share * sympy.Rational(p.numerator, p.denominator)
            if t in pos:
                A[pos[s], pos[t]] -= p
            else:
                for j in range(seats):
                    B[pos[s], j] += p * game.terminals[t][j]
    if inner and A.det() == 0:
        return None
    X = A.inv() * B if inner else B
    values = {s: tuple(F(str(X[pos[s], j])) for j in range(seats)) for s in inner}
    values.update({t: tuple(map(F, v)) for t, v in game.terminals.items() if t in states})
    return values


def q_values(game, s, values):
    seats = len(values[s])
    return {
        a: tuple(
            paid(game, s, a)[j] + sum((p * values[t][j] for t, p in d.items()), F(0))
            for j in range(seats)
        )
        for a, d in game.nodes[s][1].items()
    }


def rule_pick(q, mover, rule):
    """The actions the tie rule plays, written from its definition."""
    best = max(v[mover] for v in q.values())
    tied = tuple(a for a in q if q[a][mover] == best)
    if rule == "uniform":
        return tied
    if rule == "first":
        return tied[:1]
    others = {a: sum(q[a]) - q[a][mover] for a in tied}
    target = (max if rule == "others-best" else min)(others.values())
    return (next(a for a in tied if others[a] == target),)


def rule_equilibria(game, rule):
    """Every stationary profile in which each mover plays the rule's pick among its best
    replies to the profile's own payoffs (enumerated)."""
    states = reachable(game)
    inner = sorted((s for s in states if s in game.nodes), key=repr)
    found = []
    options = [
        _subsets(list(game.nodes[s][1])) if rule == "uniform" else [(a,) for a in game.nodes[s][1]]
        for s in inner
    ]
    for combo in itertools.product(*options):
        profile = dict(zip(inner, combo))
        values = profile_values(game, profile, states)
        if values is not None and all(
            profile[s] == rule_pick(q_values(game, s, values), game.player(s), rule) for s in inner
        ):
            found.append(profile)
    return found


def _subsets(actions):
    return [c for k in range(1, len(actions) + 1) for c in itertools.combinations(actions, k)]


def check_equilibrium(game, solution, rule):
    """The solution's payoffs are its policy's (solved independently), no mover gains by
    deviating, and the ties, the rule's pick and the consequential ties are as reported."""
    states = reachable(game)
    profile = {s: solution.played(s) for s in states if s in game.nodes}
    values = profile_values(game, profile, states)
    consequential = {}
    for s in states:
        assert solution.value(s) == values[s], s
        if s not in game.nodes:
            continue
        q = q_values(game, s, values)
        mover = game.player(s)
        best = max(v[mover] for v in q.values())
        tied = tuple(a for a in q if q[a][mover] == best)
        assert solution.ties(s) == tied and solution.action_values(s) == q
        assert profile[s] == rule_pick(q, mover, rule)  # a best reply, the rule's
        if len({q[a] for a in tied}) > 1:
            consequential[s] = tied
    assert solution.consequential_ties() == consequential


@settings(max_examples=150, deadline=None)
@given(seat_games(), st.sampled_from(TIE_RULES))
def test_no_seat_gains_by_deviating_and_ties_are_exact(game, rule):
    try:
        solution = ep.solve(game, tie_rule=rule)
    except NonTerminationError as refusal:
        assert "keep changing" in str(refusal)
        if len(game.nodes) <= 4:  # enumerated: then no equilibrium the rule allows exists
            assert rule_equilibria(game, rule) == []
        return
    assert solution.seats == len(game.terminals[("T", 0)])
    check_equilibrium(game, solution, rule)


@settings(max_examples=80, deadline=None)
@given(seat_games(), st.sampled_from(TIE_RULES))
def test_an_equilibrium_the_rule_allows_is_found_when_one_exists(game, rule):
    """Tiny games, every stationary profile enumerated: the solve answers exactly when
    some profile is an equilibrium that follows the rule, and gives one of them."""
    if len(game.nodes) > 4:
        return
    found = rule_equilibria(game, rule)
    try:
        solution = ep.solve(game, tie_rule=rule)
    except NonTerminationError:
        assert found == []
        return
    profile = {s: solution.played(s) for s in reachable(game) if s in game.nodes}
    assert profile in found


@settings(max_examples=100, deadline=None)
@given(seat_games(acyclic=True))
def test_acyclic_games_equal_backward_induction_from_the_rules(game):
    """Where play cannot return, the equilibrium with the first of tied actions is
    unique: backward induction, memoised, from the tables."""
    memo: dict = {}

    def value(s):
        if s in game.terminals:
            return tuple(map(F, game.terminals[s]))
        if s not in memo:
            q = {
                a: tuple(
                    paid(game, s, a)[j] + sum((p * value(t)[j] for t, p in d.items()), F(0))
                    for j in range(len(game.terminals[("T", 0)]))
                )
                for a, d in game.nodes[s][1].items()
            }
            memo[s] = q[rule_pick(q, game.player(s), "first")[0]]
        return memo[s]

    solution = ep.solve(game)
    for s in reachable(game):
        assert solution.value(s) == value(s)


@settings(max_examples=80, deadline=None)
@given(cyclic_games(two_players=True))
def test_two_zero_sum_players_as_two_seats_keep_their_value(game):
    """Player 1 minimising ``v`` is seat 1 maximising ``-v``: the same values."""
    seats = SeatTable(game.initial, {t: (v, -v) for t, v in game.terminals.items()}, game.nodes)
    scalar = ep.solve(game)
    solution = ep.solve(seats)
    for s in scalar.states:
        assert solution.value(s) == (scalar.value(s), -scalar.value(s))


class Draw:
    """Three seats draw in turn; a draw wins with chance 1/3, else the next seat draws."""

    initial = 0

    def outcome(self, s):
        return s if isinstance(s, tuple) else None

    def player(self, s):
        return s

    def actions(self, s):
        return ("draw",)

    def transition(self, s, a):
        return ep.Dist({tuple(int(i == s) for i in range(3)): F(1, 3), (s + 1) % 3: F(2, 3)})


def test_three_seats_drawing_in_turn_match_the_geometric_series():
    """Seat i wins with (1/3)(2/3)^i / (1 - (2/3)^3)."""
    solution = ep.solve(Draw())
    assert solution.value() == tuple(F(1, 3) * F(2, 3) ** i / (1 - F(2, 3) ** 3) for i in range(3))
    assert solution.to_json()["value"] == ["9/19", "6/19", "4/19"]
    assert sum(solution.value(1)) == 1


@pytest.mark.parametrize("seats", [3, 4])
def test_piglet_for_several_seats_agrees_with_play(seats):
    game = Piglet(4, seats)
    solution = ep.solve(game)
    value = solution.value()
    assert sum(value) == 1 and list(value) == sorted(value, reverse=True)  # first seat ahead
    plays = ep.simulate(game, solution, n=6000, seed=4)
    for i in range(seats):
        assert ep.agrees_with(value[i], seat_wins(plays, i), plays.n), i


def test_a_mover_outside_the_seats_is_refused():
    class Outside(Draw):
        def player(self, s):
            return 3

    with pytest.raises(ModelError, match=r"player\(0\) must be a seat from 0 to 2, got 3"):
        ep.solve(Outside())


def test_a_two_player_game_with_a_third_mover_is_told_about_seats():
    game = TableModel(0, {"T": 1}, {0: (2, {"go": {"T": F(1)}})})
    with pytest.raises(ModelError, match=r"player\(0\) must be 0 or 1, got 2 \(in a game of 3"):
        ep.solve(game)
    float_mover = TableModel(0, {"T": 1}, {0: (1.0, {"go": {"T": F(1)}})})
    with pytest.raises(ModelError, match=r"player\(0\) must be 0 or 1, or a seat .*, got 1.0"):
        ep.solve(float_mover)


@pytest.mark.parametrize(
    ("terminals", "refusal"),
    [
        ({"A": (1, 0), "B": (1, 0, 0)}, r"gives \d payoffs and outcome\('\w'\) \d"),
        ({"A": (1, 0), "B": 1}, r"outcome\('B'\) is one number where outcome\('A'\) pays 2"),
    ],
)
def test_endings_that_pay_the_seats_differently_are_refused(terminals, refusal):
    game = TableModel(0, terminals, {0: (0, {"go": {"A": F(1, 2), "B": F(1, 2)}})})
    with pytest.raises(ModelError, match=refusal):
        ep.solve(game)


@pytest.mark.parametrize(
    ("call", "refusal"),
    [
        (lambda: ep.solve(Draw(), "certified"), "certified mode is for games with one value"),
        (lambda: ep.solve(Draw(), "depth-first"), "depth-first mode is for games with one"),
        (lambda: ep.evaluate(Draw(), lambda s: "draw"), "exactprob.evaluate is for games"),
        (lambda: ep.stationary(Draw()), "the long run is for games with one value"),
        (lambda: ep.solve(Draw(), tie_rule="last"), "tie_rule must be one of 'first'"),
        (lambda: ep.solve(Draw(), "certified", tie_rule="first"), "tie_rule= is for a game"),
        (lambda: ep.solve(Piglet(2, 2), parameter_range=(0, 1)), "a symbolic parameter is for"),
    ],
)
def test_what_a_game_of_seats_does_not_take_is_refused_in_one_line(call, refusal):
    with pytest.raises(UsageError, match=refusal):
        call()


def test_a_tie_rule_for_a_game_of_one_value_is_refused():
    with pytest.raises(UsageError, match="this model's outcomes are single numbers"):
        ep.solve(TableModel(0, {"T": 1}, {0: (0, {"go": {"T": F(1)}})}), tie_rule="first")


class PayingDraw(Draw):
    """Drawing in turn, each draw costing the drawer ``cost``."""

    def __init__(self, cost):
        self.cost = cost

    def reward(self, s, a):
        return tuple(-self.cost if i == s else 0 for i in range(3))


def test_moves_that_pay_each_seat_add_up_with_the_endings():
    """Seat i wins with (2/3)^i 9/19 and draws (2/3)^i 27/19 times on average
    (sum over k of (2/3)^(3k + i)), so it gets (2/3)^i (9 - 27 c) / 19."""
    c = F(1, 10)
    solution = ep.solve(PayingDraw(c))
    assert solution.value() == tuple(F(2, 3) ** i * (9 - 27 * c) / 19 for i in range(3))
    equation = solution.derivation().equations_shown[0]
    assert equation.reward == (-c, 0, 0)
    assert "with rewards on the actions" in solution.derivation().markdown()


@pytest.mark.parametrize(
    ("rewards", "refusal"),
    [
        (lambda s, a: 1, r"reward\(0, 'draw'\) is one number in a game of 3 seats: return a tuple"),
        (lambda s, a: (1, 0), r"reward\(0, 'draw'\) pays 2 seats where the endings pay 3"),
    ],
)
def test_rewards_that_do_not_pay_each_seat_once_are_refused(rewards, refusal):
    class Paying(Draw):
        def reward(self, s, a):
            return rewards(s, a)

    with pytest.raises(ModelError, match=refusal):
        ep.solve(Paying())


def test_a_reward_per_seat_that_is_not_exact_or_reaches_no_ending_is_refused_saying_so():
    class Inexact(Draw):
        def reward(self, s, a):
            return (0.1, 0, 0)

    with pytest.raises(ModelError, match=r"reward\(0, 'draw'\) is \(0.1, 0, 0\): a game of seats"):
        ep.solve(Inexact())
    endless = PayingSeatTable(0, {}, {0: (0, {"stay": {0: F(1)}})}, {(0, "stay"): (0, 0, 0)})
    with pytest.raises(ModelError, match=r"pays 3 seats, but play reaches no ending"):
        ep.solve(endless)


def test_rewards_per_seat_need_endings_per_seat():
    game = RewardTable(0, {"T": 1}, {0: (0, {"go": {"T": F(1)}})}, {(0, "go"): (1, 0)})
    with pytest.raises(ModelError, match=r"reward\(0, 'go'\) pays 2 seats, but no ending does"):
        ep.solve(game)
    with pytest.raises(UsageError, match=r"reward\(0, 'go'\) gives one reward per seat, but"):
        ep.solve(game, "depth-first")


def test_a_loop_that_pays_the_seats_that_keep_it_going_is_refused():
    """Each seat is paid for passing the turn on: whoever stops, the other gains by
    passing once more, so no profile whose play ends is an equilibrium (the float guide
    guesses the loop; the solve starts from a profile that ends and says why it stops)."""
    game = PayingSeatTable(
        0,
        {"T": (0, 0)},
        {
            0: (0, {"pass": {1: F(1)}, "stop": {"T": F(1)}}),
            1: (1, {"pass": {0: F(1)}, "stop": {"T": F(1)}}),
        },
        {(0, "pass"): (1, 0), (0, "stop"): (0, 0), (1, "pass"): (0, 1), (1, "stop"): (0, 0)},
    )
    with pytest.raises(
        NonTerminationError, match="play never ends once a seat takes its best reply at"
    ):
        ep.solve(game)


def test_a_game_without_an_equilibrium_of_pure_actions_is_refused_naming_states():
    """Four states, three seats: enumerated, no stationary profile of one action per
    state (whatever the ties) is an equilibrium, and the solve says so."""
    T0, T1, T2 = ("T", 0), ("T", 1), ("T", 2)
    S = [("S", i) for i in range(4)]
    game = SeatTable(
        S[0],
        {T0: (2, 0, 1), T1: (1, 1, 0), T2: (3, 3, 3)},
        {
            S[0]: (
                0,
                {
                    "a0": {S[1]: F(2, 5), T2: F(3, 5)},
                    "a1": {S[3]: F(1, 2), T0: F(1, 4), T1: F(1, 4)},
                },
            ),
            S[1]: (
                2,
                {
                    "a0": {S[1]: F(4, 11), S[2]: F(1, 11), T2: F(3, 11), T1: F(3, 11)},
                    "a1": {T0: F(1)},
                    "a2": {S[3]: F(4, 7), T0: F(3, 7)},
                },
            ),
            S[2]: (
                1,
                {
                    "a0": {S[3]: F(1, 3), T1: F(2, 3)},
                    "a1": {T2: F(1, 2), T0: F(1, 2)},
                    "a2": {S[2]: F(1, 5), S[0]: F(3, 5), T1: F(1, 5)},
                },
            ),
            S[3]: (1, {"a0": {T1: F(2, 5), T2: F(3, 5)}, "a1": {S[1]: F(2, 3), T2: F(1, 3)}}),
        },
    )
    assert all(rule_equilibria(game, rule) == [] for rule in ("first", "uniform"))
    with pytest.raises(NonTerminationError, match=r"best replies keep changing at \('S', \d\)"):
        ep.solve(game)


def test_a_cycle_that_no_action_leaves_is_refused_naming_its_states():
    game = SeatTable(
        0,
        {"T": (1, 0)},
        {
            0: (0, {"on": {1: F(1)}, "end": {"T": F(1)}}),
            1: (1, {"back": {2: F(1)}}),
            2: (0, {"on": {1: F(1)}}),
        },
    )
    with pytest.raises(
        NonTerminationError, match=r"play never ends from 1, 2 whatever the seats play"
    ):
        ep.solve(game)


def test_best_replies_that_go_round_are_searched_for_an_equilibrium(monkeypatch):
    """Three states in a cycle whose best replies go round; a profile of the cycle's
    choices is an equilibrium (enumerated), and the search finds one that is."""
    S0, S1, S2, T0, T1 = ("S", 0), ("S", 1), ("S", 2), ("T", 0), ("T", 1)
    game = SeatTable(
        S0,
        {T0: (3, 0, 3), T1: (1, 3, 1)},
        {
            S0: (2, {"a0": {S2: F(1)}, "a1": {T1: F(1)}}),
            S1: (0, {"a0": {S0: F(2, 3), S2: F(1, 3)}, "a1": {S2: F(1)}}),
            S2: (1, {"a0": {S2: F(1, 3), T0: F(2, 3)}, "a1": {S1: F(2, 5), S0: F(3, 5)}}),
        },
    )
    solution = ep.solve(game)
    check_equilibrium(game, solution, "first")
    assert {s: solution.played(s) for s in game.nodes} in rule_equilibria(game, "first")
    monkeypatch.setattr(solving, "SEARCHED_PROFILES", 0)  # best replies alone go round
    with pytest.raises(NonTerminationError):
        ep.solve(game)


@settings(max_examples=80, deadline=None)
@given(seat_games(), st.data())
def test_a_seat_against_the_rest_is_the_two_player_game_it_plays_against_them(game, data):
    """The coalition view against the Bellman oracle of the two-player game written from
    the tables (the seat maximises its entry, everyone else minimises it), and a lower
    bound on the seat's payoff in the equilibrium, at every state."""
    try:
        solution = ep.solve(game)
    except NonTerminationError:
        return
    seat = data.draw(st.integers(0, solution.seats - 1))
    guaranteed = solution.against_the_rest(seat)
    twin = RewardTable(
        game.initial,
        {t: v[seat] for t, v in game.terminals.items()},
        {s: (int(p != seat), acts) for s, (p, acts) in game.nodes.items()},
        {(s, a): paid(game, s, a)[seat] for s, (_, acts) in game.nodes.items() for a in acts},
    )
    check_optimal(twin, guaranteed)
    for s in reachable(game):
        assert guaranteed.value(s) <= solution.value(s)[seat]


def test_two_zero_sum_seats_guarantee_their_value_and_a_bad_seat_is_refused():
    game = Piglet(3, 2)
    solution = ep.solve(game)
    assert solution.against_the_rest(0).value() == solution.value()[0]
    with pytest.raises(UsageError, match="seat must be a seat from 0 to 1, got 2"):
        solution.against_the_rest(2)


def test_an_action_that_stays_put_forever_is_never_played():
    """Waiting (a move back to the same state with probability 1) ends nothing: the
    seats play the actions that may leave, whichever comes first."""
    game = SeatTable(
        0,
        {"A": (1, 0, 0), "B": (0, 1, 1)},
        {
            0: (0, {"wait": {0: F(1)}, "pass": {1: F(1, 2), "B": F(1, 2)}}),
            1: (1, {"wait": {1: F(1)}, "back": {0: F(1, 2), "A": F(1, 2)}}),
        },
    )
    solution = ep.solve(game)
    assert solution.policy(0) == "pass" and solution.policy(1) == "back"
    # V0 = (1/2) V1 + (1/2) B, V1 = (1/2) V0 + (1/2) A: seat 0 gets 1/3
    assert solution.value() == (F(1, 3), F(2, 3), F(2, 3))


def test_labelled_endings_can_pay_each_seat():
    """Endings named by who won, paid a tuple per seat: the game of seats with numbers."""

    class Named(Draw):
        def outcome(self, s):
            return f"seat {s.index(1)} wins" if isinstance(s, tuple) else None

    payoffs = {f"seat {i} wins": tuple(int(j == i) for j in range(3)) for i in range(3)}
    assert ep.solve(Named(), payoffs=payoffs).value() == ep.solve(Draw()).value()
    with pytest.raises(UsageError, match=r"payoffs\['a'\] must be an exact number, or a tuple"):
        ep.solve(Named(), payoffs={"a": (1, "x")})


def test_a_game_of_seats_with_a_symbolic_probability_is_refused():
    p = sympy.Symbol("p")

    class Biased(Draw):
        def transition(self, s, a):
            return ep.Dist({tuple(int(i == s) for i in range(3)): p, (s + 1) % 3: 1 - p})

    with pytest.raises(UsageError, match="a symbolic parameter is for games with one value"):
        ep.solve(Biased())


def test_movers_may_be_numpy_integers_but_not_floats():
    import numpy as np

    class NumpyMover(Draw):
        def player(self, s):
            return np.int64(s)

    assert ep.solve(NumpyMover()).value() == ep.solve(Draw()).value()


def test_a_tuple_of_inexact_numbers_is_refused_as_payoffs():
    game = TableModel(0, {"T": (F(1, 2), 0.1)}, {0: (0, {"go": {"T": F(1)}})})
    with pytest.raises(ModelError, match=r"outcome\('T'\) is .*: a game of seats pays each seat"):
        ep.solve(game)


def test_a_seat_derivation_writes_the_rules_equations_and_the_movers_decisions():
    """Every equation shown is the model's own transition with the payoffs it adds up to,
    and every decision shows each action's payoffs, the mover's best chosen."""
    game = Piglet(2, 3)
    solved = ep.solve(game)
    doc = solved.derivation(limit=50)

    def payoffs(state):
        return game.outcome(state) or solved.value(state)

    assert len(doc.equations_shown) == len(solved.graph)
    for equation in doc.equations_shown:
        if equation.action is None:  # an ending, worth its outcome
            assert equation.value == game.outcome(equation.state)
            continue
        rules = dict(game.transition(equation.state, equation.action).items())
        assert {t: p for p, t in equation.terms} == rules
        added = tuple(sum(p * F(payoffs(t)[i]) for t, p in rules.items()) for i in range(3))
        assert equation.value == added == solved.value(equation.state)
    assert doc.decisions
    for state, equations in doc.decisions.items():
        mover = game.player(state)
        chosen = next(e for e in equations if e.action == solved.policy(state))
        assert all(chosen.value[mover] >= e.value[mover] for e in equations)
    text = doc.markdown()
    assert "each of 3 maximising its own payoff" in text and "Seat 1 plays flip" in text


def test_a_seat_derivation_says_when_a_tie_changes_another_seats_payoff():
    """Seat 2 crowns seat 0 or seat 1: the same to it, not to them."""
    kingmaker = SeatTable(
        "seat 0",
        {"settled": (F(2, 5), F(2, 5), F(1, 5)), "0 crowned": (1, 0, 0), "1 crowned": (0, 1, 0)},
        {
            "seat 0": (0, {"settle": {"settled": 1}, "play on": {"seat 2": 1}}),
            "seat 2": (2, {"crown 0": {"0 crowned": 1}, "crown 1": {"1 crowned": 1}}),
        },
    )
    text = ep.solve(kingmaker).derivation().markdown()
    assert "Seat 2 plays crown 0, tied exactly with crown 1 (a tie that changes another" in text
    assert "Seat 0 plays play on, better for it than settle by $\\frac{3}{5}$" in text


class FeePiglet(Piglet):
    """Piglet with a fee for every flip, paid by the seat that flips."""

    def __init__(self, goal, seats, fee):
        super().__init__(goal, seats)
        self.fee = fee

    def reward(self, s, a):
        return tuple(-self.fee if i == s[2] and a == "flip" else 0 for i in range(self.seats))


def tabulated(model):
    """``model``'s reachable tables, read from its own calls, as a
    :class:`PayingSeatTable` for the oracles (no rewards when the model has none)."""
    states = reachable(model)
    terminals = {s: model.outcome(s) for s in states if model.outcome(s) is not None}
    nodes = {
        s: (model.player(s), {a: dict(model.transition(s, a).items()) for a in model.actions(s)})
        for s in states - terminals.keys()
    }
    paying = hasattr(model, "reward")
    rewards = {(s, a): model.reward(s, a) for s in nodes for a in nodes[s][1]} if paying else {}
    return PayingSeatTable(model.initial, terminals, nodes, rewards)


def test_a_fee_per_flip_makes_the_first_seat_bank_at_once():
    """Three-seat Piglet to 4 with a fee of 1/20 a flip (the docs' example): the answer
    is an equilibrium, its payoffs solved again in sympy from the tables; the first
    seat banks a turn total of 1, where without the fee it flips on."""
    game = FeePiglet(4, 3, F(1, 20))
    solution = ep.solve(game)
    check_equilibrium(tabulated(game), solution, "first")
    assert [round(float(v), 4) for v in solution.value()] == [0.0861, 0.0545, 0.0303]
    assert solution.policy(((0, 0, 0), 1, 0)) == "hold"
    assert ep.solve(Piglet(4, 3)).policy(((0, 0, 0), 1, 0)) == "flip"


def laws_solved_again(game, profile, costs):
    """Under ``profile``, the chance of each ending of ``game`` and the expected total of
    ``costs(s, a)`` (an action's expected count), solved in sympy from the tables: the
    endings paid to probe seats, one each, and the count paid to one more."""
    endings = sorted(game.terminals, key=repr)
    probe = PayingSeatTable(
        game.initial,
        {t: (*(int(t == e) for e in endings), 0) for t in endings},
        game.nodes,
        {
            (s, a): (0,) * len(endings) + (costs(s, a),)
            for s in game.nodes
            for a in game.nodes[s][1]
        },
    )
    solved = profile_values(probe, profile, reachable(probe))[game.initial]
    return {e: p for e, p in zip(endings, solved) if p}, solved[-1]


@settings(max_examples=60, deadline=None)
@given(seat_games(), st.sampled_from(TIE_RULES))
def test_the_laws_of_play_of_random_games_equal_the_chain_solved_again(game, rule):
    try:
        solution = ep.solve(game, tie_rule=rule)
    except NonTerminationError:
        return
    profile = {s: solution.played(s) for s in reachable(game) if s in game.nodes}
    reached, steps = laws_solved_again(game, profile, lambda s, a: 1)
    assert dict(solution.absorption().items()) == reached
    assert solution.expected_steps() == steps


def test_the_laws_of_play_under_the_equilibrium_equal_the_chain_solved_again():
    """Drawing in turn: the number of draws is geometric with mean 3, seat 0 draws
    27/19 times on average and wins 9/19 of the endings. Three-seat Piglet to 4 (the
    docs' numbers): the expected moves and turns under the solved play, and which ending
    is reached, each solved again in sympy from the tables."""
    draws = ep.solve(Draw())
    assert draws.expected_steps() == 3
    assert draws.expected_count(lambda s, a, t: int(s == 0)) == F(27, 19)
    assert draws.counter_distribution(lambda s, a, t: 1, cap=3) == ep.Dist(
        {1: F(1, 3), 2: F(2, 9), 3: F(4, 9)}
    )
    assert draws.absorption()[(1, 0, 0)] == F(9, 19)
    game = tabulated(Piglet(4, 3))
    solution = ep.solve(Piglet(4, 3))
    profile = {s: solution.played(s) for s in game.nodes}
    reached, steps = laws_solved_again(game, profile, lambda s, a: 1)
    _, turns = laws_solved_again(game, profile, lambda s, a: chance_the_turn_passes(game, s, a))
    assert dict(solution.absorption().items()) == reached
    assert solution.expected_steps() == steps == F(91517, 4477)
    assert solution.expected_count(lambda s, a, t: int(t[2] != s[2])) == turns == F(1464, 121)
    with pytest.raises(UsageError, match="a game of seats pays each seat its own reward"):
        solution.reward_distribution()


def chance_the_turn_passes(game, s, a):
    """The chance that ``a`` from ``s`` passes the turn in Piglet (the mover changes):
    a hold's 1, a flip's tails (or its winning heads): the expected count of its move."""
    return sum((p for t, p in game.nodes[s][1][a].items() if t[2] != s[2]), F(0))
