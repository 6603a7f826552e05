"""The tavern wheel game against oracles written here from the rules: the optional stopping
theorem for fair wheels, Dubins and Savage's bold play for subfair even-money bets, every
deterministic stationary policy of small tables (each solved by Fraction Gauss-Jordan), and
a seeded simulator."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactprob.engine.choice_tree import solve_choices
from exactprob.engine.simulation import NumpyRandom
from exactprob.errors import ModelError
from exactprob.games.cartwheel.wheel import (
    CARTWHEEL,
    WALK_AWAY,
    Bet,
    Stake,
    Wheel,
    bold_play,
    policy_values,
    simulate_wheel,
    solve_wheel,
    stake_choices,
    timid_play,
)
from tests.models import gauss_solve

# ======================================================================================
# Oracles from the rules (no exactprob solver)
# ======================================================================================

WALK = "walk"


def rule_actions(numbers, bets, target, max_stake, gold):
    """(stake, covers, pays) for every allowed stake, and walking away."""
    top = gold if max_stake is None else min(gold, max_stake)
    return [(s, k, m) for k, m in bets for s in range(1, top + 1)] + [WALK]


def rule_policy_values(numbers, target, policy):
    """V(g), g = 1..T-1, under ``policy`` {g: (stake, covers, pays) or WALK}, from
    V(g) = p V(g + m s) + (1 - p) V(g - s), V(>= T) = 1, V(0) = 0, V(walked) = 0."""
    n = target - 1
    A = [[F(0)] * n for _ in range(n)]
    b = [[F(0)] for _ in range(n)]
    for g in range(1, target):
        A[g - 1][g - 1] += 1
        if policy[g] == WALK:
            continue
        s, k, m = policy[g]
        p = F(k, numbers)
        if g + m * s >= target:
            b[g - 1][0] += p
        else:
            A[g - 1][g + m * s - 1] -= p
        if g - s > 0:
            A[g - 1][g - s - 1] -= 1 - p
    x = gauss_solve(A, b)
    return {g: x[g - 1][0] for g in range(1, target)}


def rule_q(numbers, target, values, gold, action):
    """One spin's value with ``values`` afterwards (1 past the target, 0 when broke)."""
    if action == WALK:
        return F(0)
    s, k, m = action
    p = F(k, numbers)
    after = {0: F(0), **values}
    return p * (1 if gold + m * s >= target else after[gold + m * s]) + (1 - p) * after[gold - s]


def as_stake(action):
    return WALK_AWAY if action == WALK else Stake(action[0], Bet(action[1], action[2]))


def brute_force(numbers, bets, target, max_stake):
    """The best value at each gold over every deterministic stationary policy, and the
    actions whose one-spin value reaches it."""
    options = [rule_actions(numbers, bets, target, max_stake, g) for g in range(1, target)]
    best = {g: F(0) for g in range(1, target)}
    for combo in itertools.product(*options):
        values = rule_policy_values(numbers, target, dict(zip(range(1, target), combo)))
        best = {g: max(best[g], values[g]) for g in best}
    ties = {
        g: {as_stake(a) for a in options[g - 1] if rule_q(numbers, target, best, g, a) == best[g]}
        for g in best
    }
    return best, ties


def wheel_of(numbers, bets, target, max_stake=None):
    return Wheel(
        target=target,
        numbers=numbers,
        bets=tuple(Bet(k, m) for k, m in bets),
        max_stake=max_stake,
    )


# ======================================================================================
# Fair wheels: optional stopping
# ======================================================================================

EVEN_MONEY_FAIR = [(2, 1), (4, 2), (6, 3)]
FAIR_LONG_ODDS = [(3, 1, 2), (6, 2, 2), (4, 1, 3)]


@pytest.mark.parametrize("numbers,covers", EVEN_MONEY_FAIR)
@pytest.mark.parametrize("max_stake", [None, 1, 2, 3])
def test_fair_even_money_value_is_gold_over_target_and_no_overshoot_stakes_tie(
    numbers, covers, max_stake
):
    """k(m + 1) = n makes the gold a bounded martingale, so a strategy that never overshoots
    the target wins with g/T (optional stopping); at even money stake 1 never overshoots,
    so timid play attains g/T. A stake s with g + ms > T loses the excess: its spin is
    worth (pT + (1-p)(g-s))/T < g/T. So V(g) = g/T (it satisfies the Bellman equation and is
    attained), and the optimal stakes are exactly the s <= min(g, S) with g + s <= T: not
    every stake ties."""
    bet = Bet(covers, 1)
    for target in range(2, 10):
        wheel = Wheel(target=target, numbers=numbers, bets=(bet,), max_stake=max_stake)
        assert wheel.edge(bet) == 0
        best = solve_wheel(wheel)
        top = target if max_stake is None else max_stake
        for g in range(1, target):
            assert best.values[g] == F(g, target)
            no_overshoot = range(1, min(g, top, target - g) + 1)
            assert best.stakes[g] == tuple(Stake(s, bet) for s in no_overshoot)
        timid = policy_values(wheel, timid_play(wheel))
        assert timid == {g: F(g, target) for g in range(1, target)}
        assert policy_values(wheel, bold_play(wheel)) == timid  # bold never overshoots either


@pytest.mark.parametrize("numbers,covers,pays", FAIR_LONG_ODDS)
def test_fair_long_odds_never_beat_gold_over_target(numbers, covers, pays):
    """At m to 1 with m >= 2 the final gold still has mean g (optional stopping), and it is
    at least T when the hero wins, so P(win) <= g/T; from T - 1 every stake overshoots, so
    there V(T-1) = p + (1-p) V(T-1-s) for the best s, below (T-1)/T."""
    bet = Bet(covers, pays)
    for target in range(2, 12):
        best = solve_wheel(Wheel(target=target, numbers=numbers, bets=(bet,)))
        assert all(best.values[g] <= F(g, target) for g in range(1, target))
        assert best.values[target - 1] < F(target - 1, target)


# ======================================================================================
# Subfair even money: Dubins and Savage, bold play is optimal
# ======================================================================================


def bold_by_hand(numbers, covers, target):
    """Bold play's value: stake min(g, T - g), so V(g) = p V(2g) + q V(0) below T/2 and
    V(g) = p + q V(2g - T) above."""
    p = F(covers, numbers)
    policy = {g: (min(g, target - g), covers, 1) for g in range(1, target)}
    values = rule_policy_values(numbers, target, policy)
    for g in range(1, target):  # the equations, restated from the closed shape above
        lower = values.get(2 * g - target, F(0)) if 2 * g > target else F(0)
        upper = F(1) if 2 * g >= target else values[2 * g]
        assert values[g] == p * upper + (1 - p) * lower
    return values


@pytest.mark.parametrize("numbers,covers", [(3, 1), (5, 2), (10, 4), (37, 18)])
def test_subfair_even_money_bold_play_is_optimal(numbers, covers):
    bet = Bet(covers, 1)
    for target in range(2, 17):
        wheel = Wheel(target=target, numbers=numbers, bets=(bet,))
        assert wheel.edge(bet) < 0
        best = solve_wheel(wheel)
        bold = bold_by_hand(numbers, covers, target)
        assert best.values == bold
        assert policy_values(wheel, bold_play(wheel)) == bold
        for g in range(1, target):
            assert Stake(min(g, target - g), bet) in best.stakes[g]


def test_bold_play_to_eight_by_hand():
    """From 3 gold bold play stakes 3 (to 6 or 0), from 6 stakes 2 (to 8 or 4), from 4 stakes
    4 (to 8 or 0): V(4) = p, V(6) = p + q p, V(3) = p (p + q p); with p = 2/5 that is
    2/5 * 16/25 = 32/125, and bold play is optimal (Dubins and Savage)."""
    best = solve_wheel(Wheel(target=8, numbers=5, bets=(Bet(2, 1),)))
    assert best.values[3] == F(32, 125)
    assert Stake(3, Bet(2, 1)) in best.stakes[3]


# ======================================================================================
# Every stationary policy of small tables
# ======================================================================================

SMALL = [
    (10, [(1, 8)], 5, None),
    (10, [(1, 8)], 6, 2),
    (5, [(1, 3), (2, 1)], 5, None),
    (3, [(1, 1)], 6, None),
    (6, [(1, 4), (3, 1)], 5, 2),
    (3, [(1, 2)], 6, None),
    (4, [(1, 2), (2, 1)], 6, 1),
]


@pytest.mark.parametrize("numbers,bets,target,max_stake", SMALL)
def test_small_tables_match_every_policy(numbers, bets, target, max_stake):
    values, ties = brute_force(numbers, bets, target, max_stake)
    best = solve_wheel(wheel_of(numbers, bets, target, max_stake))
    assert best.values == values
    assert {g: set(s) for g, s in best.stakes.items()} == ties


@st.composite
def small_tables(draw):
    numbers = draw(st.integers(2, 7))
    kinds = draw(
        st.lists(
            st.tuples(st.integers(1, numbers - 1), st.integers(1, 4)),
            min_size=1,
            max_size=2,
            unique=True,
        )
    )
    target = draw(st.integers(2, 5))
    max_stake = draw(st.sampled_from([None, 1, 2]))
    return numbers, kinds, target, max_stake


@settings(max_examples=25, deadline=None)
@given(small_tables())
def test_random_small_tables_match_every_policy(table):
    numbers, bets, target, max_stake = table
    values, ties = brute_force(numbers, bets, target, max_stake)
    best = solve_wheel(wheel_of(numbers, bets, target, max_stake))
    assert best.values == values
    assert {g: set(s) for g, s in best.stakes.items()} == ties


def bellman_certificate(numbers, bets, target, max_stake, values):
    """The actions that attain each V(g) if ``values`` solve the Bellman optimality equation
    (max over the rules' one-spin values equals V(g) at every gold), else None. Every policy
    ends with probability one, so the equation has one solution: the optimal values."""
    tied = {}
    for g in range(1, target):
        q = {
            a: rule_q(numbers, target, values, g, a)
            for a in rule_actions(numbers, bets, target, max_stake, g)
        }
        if max(q.values()) != values[g]:
            return None
        tied[g] = {as_stake(a) for a, v in q.items() if v == values[g]}
    return tied


LARGER = [
    (10, [(1, 8)], 20, 5),
    (10, [(1, 8)], 30, None),
    (37, [(1, 35), (18, 1), (12, 2)], 40, 10),
    (6, [(1, 4), (2, 2), (3, 1)], 25, None),
]


@pytest.mark.parametrize("numbers,bets,target,max_stake", LARGER)
def test_larger_tables_satisfy_the_bellman_equation_exactly(numbers, bets, target, max_stake):
    best = solve_wheel(wheel_of(numbers, bets, target, max_stake))
    tied = bellman_certificate(numbers, bets, target, max_stake, best.values)
    assert tied is not None
    assert {g: set(s) for g, s in best.stakes.items()} == tied
    by_rules = {g: (s.amount, s.bet.covers, s.bet.pays) for g, s in best.policy().items()}
    assert rule_policy_values(numbers, target, by_rules) == best.values


@pytest.mark.parametrize("numbers,bets,target,max_stake", SMALL[:3])
def test_fixed_policies_match_gauss_jordan(numbers, bets, target, max_stake):
    """Bold and timid play, and walking away at odd amounts, against the rules' equations."""
    wheel = wheel_of(numbers, bets, target, max_stake)
    for play in (bold_play(wheel), timid_play(wheel), timid_play(wheel, wheel.bets[-1])):
        policy = {g: play(g) for g in range(1, target)}
        by_rules = {g: (s.amount, s.bet.covers, s.bet.pays) for g, s in policy.items()}
        assert policy_values(wheel, play) == rule_policy_values(numbers, target, by_rules)
    mixed = {g: WALK_AWAY if g % 2 else Stake(1, wheel.bets[0]) for g in range(1, target)}
    by_rules = {g: WALK if g % 2 else (1, *bets[0]) for g in range(1, target)}
    assert policy_values(wheel, mixed.__getitem__) == rule_policy_values(numbers, target, by_rules)


def test_the_gamebook_solver_from_each_purse_agrees():
    """The one solve from every purse at once equals a plain gamebook solve per amount."""
    wheel = Wheel(target=12, max_stake=3, bets=(CARTWHEEL, Bet(3, 2)))
    best = solve_wheel(wheel)
    for g in range(1, 12):
        tree = solve_choices(wheel.choices, wheel.score, g)
        assert tree.score == best.values[g]
        assert set(tree.ties) == set(best.stakes[g])


# ======================================================================================
# Simulation
# ======================================================================================


def test_cartwheel_optimal_bold_and_timid_agree_with_simulation():
    wheel = Wheel(target=20, max_stake=5)
    best = solve_wheel(wheel)
    bold, timid = bold_play(wheel), timid_play(wheel)
    plays = [
        (best.policy(), best.values[10]),
        ({g: bold(g) for g in range(1, 20)}, policy_values(wheel, bold)[10]),
        ({g: timid(g) for g in range(1, 20)}, policy_values(wheel, timid)[10]),
    ]
    runs = 20_000
    for seed, (policy, exact) in enumerate(plays):
        sample = simulate_wheel(wheel, 10, policy, runs, NumpyRandom(seed), spins=2000)
        assert sample.unfinished == 0 and sample.wins + sample.losses == sample.n == runs
        assert sample.agrees_with(exact)
    assert not sample.agrees_with(best.values[10])  # timid play is 7 standard errors worse


class Scripted:
    """A random source that plays back a list of slots."""

    name = "scripted"

    def __init__(self, slots):
        self.slots = list(slots)

    def integers(self, n, size):
        taken, self.slots = self.slots[:size], self.slots[size:]
        return np.array(taken, dtype=np.int64)

    def random(self, size):  # pragma: no cover - not drawn by this simulator
        raise AssertionError


def test_simulator_reads_the_stream_run_by_run():
    """Run 0 gets draws 0..2 (all misses), run 1 draws 3..5 (a hit first): in (spin, run)
    order both runs would miss their first spin."""
    wheel = Wheel(target=2, numbers=2, bets=(Bet(1, 1),))
    sample = simulate_wheel(
        wheel, 1, {1: Stake(1, Bet(1, 1))}, 2, Scripted([1, 1, 1, 0, 0, 0]), spins=3
    )
    assert (sample.wins, sample.losses, sample.unfinished) == (1, 1, 0)


def test_simulator_counts_unfinished_and_walking_away():
    wheel = Wheel(target=3, numbers=2, bets=(Bet(1, 1),))
    stake = Stake(1, Bet(1, 1))
    # 1 -> 2 (hit), 2 -> 1 (miss), then out of spins
    sample = simulate_wheel(wheel, 1, {1: stake, 2: stake}, 1, Scripted([0, 1]), spins=2)
    assert sample.unfinished == 1
    sample = simulate_wheel(wheel, 2, {1: WALK_AWAY, 2: stake}, 1, Scripted([1, 0]), spins=2)
    assert (sample.wins, sample.losses) == (0, 1)


# ======================================================================================
# Rules and bad input
# ======================================================================================


def test_stake_choices_counts_the_stakes():
    for target, max_stake, bets in [(7, None, (CARTWHEEL,)), (9, 3, (CARTWHEEL, Bet(2, 3)))]:
        wheel = Wheel(target=target, max_stake=max_stake, bets=bets)
        listed = sum(len(wheel.stakes(g)) for g in range(1, target))
        assert stake_choices(target, max_stake, len(bets)) == listed


@pytest.mark.parametrize(
    "options,message",
    [
        ({"target": 1}, "target must be a whole number from 2 to 1000, got 1"),
        ({"target": 1001, "max_stake": 1}, "target must be a whole number from 2 to 1000"),
        ({"target": 5, "numbers": 1}, "numbers must be a whole number >= 2"),
        ({"target": 5, "max_stake": 0}, "max_stake must be a whole number >= 1"),
        ({"target": 5, "bets": ()}, "at least one bet"),
        ({"target": 5, "bets": (Bet(10, 1),)}, "covered slots of bet 10:1"),
        ({"target": 5, "bets": (Bet(0, 1),)}, "covered slots of bet 0:1"),
        ({"target": 5, "bets": (Bet(1, 0),)}, "payout of bet 1:0"),
        ({"target": 5, "bets": (CARTWHEEL, CARTWHEEL)}, "must not repeat"),
        ({"target": 201}, r"20,100 \(gold, stake\) choices, more than 20,000"),
    ],
)
def test_bad_wheels_are_refused(options, message):
    with pytest.raises(ModelError, match=message):
        Wheel(**options)


def test_bad_stakes_and_policies_are_refused():
    wheel = Wheel(target=10, max_stake=3)
    with pytest.raises(ModelError, match="4 on 1:8 is not allowed with 5 gold: stake 1 to 3"):
        wheel.spin(5, Stake(4, CARTWHEEL))
    with pytest.raises(ModelError, match="not allowed"):
        wheel.spin(5, Stake(1, Bet(2, 3)))
    with pytest.raises(ModelError, match="1 at 9 gold is neither a Stake nor 'walk away'"):
        policy_values(wheel, lambda gold: 1 if gold == 9 else Stake(1, CARTWHEEL))
    with pytest.raises(ModelError, match="gold must be a whole number from 1 to 9"):
        simulate_wheel(wheel, 10, {}, 1, NumpyRandom(0))
