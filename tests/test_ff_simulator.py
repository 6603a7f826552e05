"""The independent Fighting Fantasy simulator, against oracles derived here and the solver.

The oracles in this file share nothing with the exact model: round odds come from
enumerating the 6^4 dice outcomes with Fractions, the no-luck win probability from the
paper's closed form, and fixed-policy values from a brute-force recursion over
(hero, opponent, luck, streak) written from the rules. Then the exact solver
(:func:`~exactprob.games.fighting_fantasy.solve_grid`) is checked against the simulator
for optimal play, no luck and the paper's heuristics under all three rules, and against
the brute-force recursion exactly. Every sampled rate must lie within 5 standard errors.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import numpy as np
import pytest

from exactprob.engine.simulation import agrees_with
from exactprob.errors import ExactProbError, ModelError
from exactprob.games.fighting_fantasy import Fight, Objective, heuristic, solve_grid
from exactprob.games.fighting_fantasy.simulator import (
    SIMULATED_RULES,
    FightSimulation,
    VectorLuckPolicy,
    simulate_fight,
)

N = 30_000


# ---------------------------------------------------------------------------------------
# Oracles derived here
# ---------------------------------------------------------------------------------------
@cache
def round_odds(delta: int) -> tuple[Fraction, Fraction, Fraction]:
    """(win, draw, lose) for the hero, by enumerating all 1296 rolls of four dice."""
    counts = [0, 0, 0]
    for a, b, c, d in product(range(1, 7), repeat=4):
        margin = a + b + delta - c - d
        counts[0 if margin > 0 else 1 if margin == 0 else 2] += 1
    win, draw, lose = (Fraction(k, 6**4) for k in counts)
    return win, draw, lose


def luck_odds(luck: int) -> Fraction:
    """P(2d6 <= luck), by enumeration."""
    return Fraction(sum(a + b <= luck for a, b in product(range(1, 7), repeat=2)), 36)


def closed_form(delta: int, hero: int, opponent: int) -> Fraction:
    """The paper's no-luck victory probability, sum_j C(s_o-1+j, j) p^s_o q^j."""
    win, _, lose = round_odds(delta)
    if lose == 0:
        return Fraction(1)
    p = win / (win + lose)
    q = 1 - p
    sh, so = -(-hero // 2), -(-opponent // 2)
    return sum((comb(so - 1 + j, j) * p**so * q**j for j in range(sh)), Fraction(0))


def brute_value(
    delta: int, hero: int, opponent: int, luck: int, rule: str, policy: VectorLuckPolicy | None
) -> Fraction:
    """The exact victory probability of a fixed policy, by recursion over the rules.

    A draw returns to the same state (with the crypt streak broken), so outside a streak
    it is removed by renormalising with 1 / (1 - p_draw)."""
    win, draw, lose = round_odds(delta)
    lucky_hit, crypt = {"standard": (4, False), "amplify3": (3, False), "crypt": (4, True)}[rule]

    def tests(won: bool, h: int, o: int, lk: int, streak: bool) -> bool:
        if policy is None or lk < 1:
            return False
        answer = policy(*(np.array([x]) for x in (won, h, o, lk, streak)))
        return bool(np.asarray(answer)[0])

    def after(won: bool, h: int, o: int, lk: int, streak: bool) -> Fraction:
        nxt = crypt and not won
        if not tests(won, h, o, lk, streak):
            return value(h, o - 2, lk, nxt) if won else value(h - 2, o, lk, nxt)
        q = luck_odds(lk)
        if won:
            return q * value(h, o - lucky_hit, lk - 1, nxt) + (1 - q) * value(h, o - 1, lk - 1, nxt)
        return q * value(h - 1, o, lk - 1, nxt) + (1 - q) * value(h - 3, o, lk - 1, nxt)

    @cache
    def value(h: int, o: int, lk: int, streak: bool) -> Fraction:
        if o <= 0:
            return Fraction(1)
        if h <= 0:
            return Fraction(0)
        won = win * after(True, h, o, lk, streak) if win else Fraction(0)
        lost = Fraction(0) if streak or not lose else lose * after(False, h, o, lk, streak)
        if streak:
            return won + lost + draw * value(h, o, lk, False)
        return (won + lost) / (1 - draw)

    return value(hero, opponent, luck, False)


def always(won: np.ndarray, *_: np.ndarray) -> np.ndarray:
    return np.ones_like(won, dtype=bool)


def offensive(won: np.ndarray, *_: np.ndarray) -> np.ndarray:
    return won


def defensive_when_low(
    won: np.ndarray, hero: np.ndarray, opponent: np.ndarray, luck: np.ndarray, streak: np.ndarray
) -> np.ndarray:
    return ~won & (hero < 6) | won & (luck >= 6)


def after_a_loss(
    won: np.ndarray, hero: np.ndarray, opponent: np.ndarray, luck: np.ndarray, streak: np.ndarray
) -> np.ndarray:
    return streak | (opponent > hero)


POLICIES: dict[str, Callable[..., np.ndarray]] = {
    "always": always,
    "offensive": offensive,
    "defensive_when_low": defensive_when_low,
    "after_a_loss": after_a_loss,
}


# ---------------------------------------------------------------------------------------
# The oracles themselves
# ---------------------------------------------------------------------------------------
def test_enumerated_round_odds_match_the_spec_and_the_rules_module() -> None:
    from exactprob.games.fighting_fantasy.rules import round_odds as model_round_odds

    assert round_odds(0) == (Fraction(575, 1296), Fraction(146, 1296), Fraction(575, 1296))
    for delta in range(-12, 13):
        odds = model_round_odds(delta)
        assert round_odds(delta) == (odds.win, odds.draw, odds.lose)


def test_brute_force_no_luck_equals_closed_form() -> None:
    for delta, hero, opponent in [(0, 7, 9), (3, 12, 5), (-2, 4, 11)]:
        assert brute_value(delta, hero, opponent, 5, "standard", None) == closed_form(
            delta, hero, opponent
        )


# ---------------------------------------------------------------------------------------
# Certain outcomes
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_delta_beyond_ten_decides_every_fight(rule: str) -> None:
    strong = simulate_fight(Fight(11, 1, 24, 12, rule=rule), policy=always, n=2000, seed=3)
    weak = simulate_fight(Fight(-11, 24, 1, 12, rule=rule), policy=always, n=2000, seed=3)
    assert strong.won.all() and strong.win_rate == 1.0 and strong.agrees_with(1)
    assert not weak.won.any() and weak.win_rate == 0.0 and weak.agrees_with(0)
    assert strong.standard_error == weak.standard_error == 0.0


def test_delta_ten_draws_but_never_loses_and_nine_can_lose() -> None:
    ten = simulate_fight(Fight(10, 1, 1, 0), n=50_000, seed=4)
    assert ten.won.all() and (ten.rounds > 1).any()  # a draw: the opponent rolls 12, the hero 2
    nine = simulate_fight(Fight(9, 1, 1, 0), n=50_000, seed=4)
    assert not nine.won.all() and nine.agrees_with(closed_form(9, 1, 1))
    assert closed_form(9, 1, 1) == Fraction(1291, 1292)


# ---------------------------------------------------------------------------------------
# No luck: the paper's closed form, and the mean number of rounds
# ---------------------------------------------------------------------------------------
NO_LUCK = [(0, 12, 12), (2, 20, 14), (-3, 8, 18), (4, 5, 17), (-1, 1, 1), (1, 19, 20), (-6, 24, 6)]


@pytest.mark.parametrize("delta, hero, opponent", NO_LUCK)
def test_no_luck_matches_the_closed_form(delta: int, hero: int, opponent: int) -> None:
    sim = simulate_fight(Fight(delta, hero, opponent, 9), n=N, seed=hero * 100 + opponent)
    assert sim.agrees_with(closed_form(delta, hero, opponent))
    assert not sim.luck_spent.any() and (sim.luck == 9).all()


def expected_rounds(delta: int, hero: int, opponent: int) -> Fraction:
    """Mean rounds with no luck: decisive rounds by recursion, each costing 1/(1-p_draw)."""
    win, draw, lose = round_odds(delta)

    @cache
    def decisive(a: int, b: int) -> Fraction:
        if a <= 0 or b <= 0:
            return Fraction(0)
        return 1 + (win * decisive(a, b - 2) + lose * decisive(a - 2, b)) / (1 - draw)

    return decisive(hero, opponent) / (1 - draw)


@pytest.mark.parametrize("delta, hero, opponent", NO_LUCK[:4])
def test_no_luck_mean_rounds(delta: int, hero: int, opponent: int) -> None:
    sim = simulate_fight(Fight(delta, hero, opponent, 0), n=N, seed=7)
    assert sim.sample(sim.rounds).agrees_with(expected_rounds(delta, hero, opponent))
    assert sim.mean_rounds == pytest.approx(float(expected_rounds(delta, hero, opponent)), rel=0.05)


# ---------------------------------------------------------------------------------------
# Fixed luck policies against the brute-force recursion
# ---------------------------------------------------------------------------------------
POLICY_CASES = [
    (0, 10, 10, 9, "standard", "always"),
    (-2, 12, 8, 12, "standard", "offensive"),
    (2, 9, 12, 7, "amplify3", "offensive"),
    (1, 11, 11, 10, "standard", "defensive_when_low"),
    (-1, 8, 10, 6, "amplify3", "always"),
    (0, 10, 8, 8, "crypt", "always"),
    (3, 12, 12, 10, "crypt", "after_a_loss"),
    (-3, 9, 6, 11, "crypt", "defensive_when_low"),
]


@pytest.mark.parametrize("delta, hero, opponent, luck, rule, name", POLICY_CASES)
def test_fixed_policy_matches_brute_force(
    delta: int, hero: int, opponent: int, luck: int, rule: str, name: str
) -> None:
    policy = POLICIES[name]
    exact = brute_value(delta, hero, opponent, luck, rule, policy)
    sim = simulate_fight(Fight(delta, hero, opponent, luck, rule=rule), policy=policy, n=N, seed=11)
    assert sim.agrees_with(exact), (sim.win_rate, float(exact))


def test_a_wrong_value_is_detected() -> None:
    sim = simulate_fight(Fight(0, 10, 10, 9), policy=always, n=N, seed=12)
    assert sim.agrees_with(brute_value(0, 10, 10, 9, "standard", always))
    assert not sim.agrees_with(brute_value(0, 10, 10, 9, "amplify3", always))
    assert not sim.agrees_with(closed_form(0, 10, 10))


# ---------------------------------------------------------------------------------------
# Luck bookkeeping and what the policy sees
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("luck", [0, 1, 5, 12, 15])
def test_luck_always_spends_luck_correctly(luck: int) -> None:
    sim = simulate_fight(Fight(0, 20, 20, luck), policy=always, n=5000, seed=luck)
    assert (sim.luck >= 0).all() and (sim.luck_spent <= luck).all()
    assert (sim.luck_spent == luck - sim.luck).all()
    assert (sim.luck_spent <= sim.rounds).all()
    # a fight from 20 v 20 lasts at least 5 decisive rounds (a hit deals at most 4)
    assert (sim.luck_spent >= min(luck, 5)).all()
    assert sim.mean_luck_spent == sim.luck_spent.mean()


def test_luck_above_twelve_is_always_lucky() -> None:
    sim = simulate_fight(Fight(0, 20, 20, 30), policy=offensive, n=5000, seed=5)
    # every offensive test is lucky, so each hit deals 4: 5 hits kill a 20-stamina opponent
    assert (sim.opponent_stamina[sim.won] == 0).all() and (sim.luck_spent[sim.won] == 5).all()
    assert (sim.hero_stamina % 2 == 0).all()  # no defensive test: the hero loses 2 at a time


@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_the_policy_sees_the_state_before_damage(rule: str) -> None:
    seen: list[tuple[np.ndarray, ...]] = []

    def spy(*args: np.ndarray) -> np.ndarray:
        seen.append(args)
        return np.ones_like(args[0], dtype=bool)

    simulate_fight(Fight(0, 6, 6, 3, rule=rule), policy=spy, n=500, seed=6)
    won, hero, opponent, luck, streak = (np.concatenate(a) for a in zip(*seen))
    assert won.dtype == bool and streak.dtype == bool
    assert (hero > 0).all() and (opponent > 0).all() and (luck >= 1).all()
    assert (hero <= 6).all() and (opponent <= 6).all() and (luck <= 3).all()
    assert ((hero == 6) & (opponent == 6) & (luck == 3)).any()  # the first round
    if rule == "crypt":
        assert streak.any() and not (streak & ~won).any()  # lost after a loss: a kill
    else:
        assert not streak.any()


def test_crypt_kills_on_the_second_lost_round_in_a_row() -> None:
    sim = simulate_fight(Fight(-4, 24, 24, 0, rule="crypt"), n=5000, seed=8)
    lost = ~sim.won
    # killed outright, or worn down from 24 two at a time: a losing hero ends at 0
    assert (sim.hero_stamina[lost] == 0).all() and sim.rounds[lost].min() >= 2
    assert sim.agrees_with(brute_value(-4, 24, 24, 0, "crypt", None))


def test_crypt_loses_more_often_than_standard() -> None:
    for delta, luck, policy in [(0, 0, None), (2, 9, always), (4, 12, offensive)]:
        crypt = simulate_fight(Fight(delta, 16, 16, luck, rule="crypt"), policy=policy, n=N, seed=9)
        standard = simulate_fight(Fight(delta, 16, 16, luck), policy=policy, n=N, seed=9)
        assert crypt.win_rate + 5 * crypt.standard_error < standard.win_rate


def test_amplify3_wins_less_often_with_offensive_luck() -> None:
    amplify3 = simulate_fight(Fight(0, 16, 16, 12, rule="amplify3"), policy=offensive, n=N, seed=10)
    standard = simulate_fight(Fight(0, 16, 16, 12), policy=offensive, n=N, seed=10)
    assert amplify3.win_rate + 5 * amplify3.standard_error < standard.win_rate


# ---------------------------------------------------------------------------------------
# The result object, seeding and input errors
# ---------------------------------------------------------------------------------------
def test_result_arrays_and_seeding() -> None:
    a = simulate_fight(Fight(1, 9, 9, 4), policy=always, n=1000, seed=42)
    b = simulate_fight(Fight(1, 9, 9, 4), policy=always, n=1000, seed=42)
    assert isinstance(a, FightSimulation) and a.n == 1000
    for field in ("won", "rounds", "hero_stamina", "opponent_stamina", "luck", "luck_spent"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
        assert getattr(a, field).shape == (1000,)
    assert ((a.hero_stamina > 0) == a.won).all() and ((a.opponent_stamina <= 0) == a.won).all()
    assert a.wins == int(a.won.sum()) and a.win_rate == a.wins / 1000
    assert a.standard_error == pytest.approx((a.win_rate * (1 - a.win_rate) / 1000) ** 0.5)
    assert not np.array_equal(a.rounds, simulate_fight(Fight(1, 9, 9, 4), n=1000, seed=43).rounds)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((0, 0, 5, 3), {}, "hero stamina must be a whole number >= 1"),
        ((0, 5, 0, 3), {}, "opponent stamina must be a whole number >= 1"),
        ((0, 5, 5, -1), {}, "luck must be a whole number >= 0"),
        ((0.5, 5, 5, 3), {}, "delta must be a whole number"),
        ((0, 5, 5, True), {}, "luck must be a whole number"),
        ((0, "5", 5, 3), {}, "hero stamina must be a whole number"),
        ((0, 5, 5, 3), {"rule": "house"}, "unknown rule 'house'; allowed: standard, amplify3"),
    ],
)
def test_a_bad_fight_is_refused(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ModelError, match=message) as info:
        Fight(*args, **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ExactProbError) and isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, "n must be a whole number >= 1"),
        ({"max_rounds": 0}, "max_rounds must be a whole number >= 1"),
    ],
)
def test_bad_runs_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ModelError, match=message):
        simulate_fight(Fight(0, 5, 5, 3), **kwargs)  # type: ignore[arg-type]


def test_a_rule_the_simulator_does_not_know_is_refused() -> None:
    """The simulator plays the rules from its own table: a rule of another name, or a
    named rule with other terms, is refused rather than played wrongly."""
    from exactprob.games.fighting_fantasy import Rule

    for rule in (Rule("house", lucky_hit=5), Rule("standard", lucky_hit=5)):
        with pytest.raises(ModelError, match="the simulator plays the rules standard"):
            simulate_fight(Fight(0, 5, 5, 3, rule), n=10)


def test_numpy_integers_are_accepted() -> None:
    fight = Fight(np.int64(0), np.int64(4), np.int64(4), np.int64(2))  # type: ignore[arg-type]
    assert type(fight.hero_stamina) is int and simulate_fight(fight, n=100).n == 100


def test_a_policy_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ModelError, match="the policy returned shape"):
        simulate_fight(Fight(0, 5, 5, 3), policy=lambda *a: np.ones(1, dtype=bool), n=50)


def test_max_rounds_is_enforced() -> None:
    with pytest.raises(ModelError, match="lasted more than 3 rounds"):
        simulate_fight(Fight(0, 24, 24, 0), n=100, max_rounds=3)
    assert simulate_fight(Fight(11, 1, 1, 0), n=10, max_rounds=1).won.all()


# ---------------------------------------------------------------------------------------
# The exact solver
# ---------------------------------------------------------------------------------------
SOLVER_STATES = [
    (0, 12, 12, 9, "standard"),
    (-2, 18, 10, 12, "standard"),
    (2, 8, 16, 7, "standard"),
    (-4, 20, 6, 6, "standard"),
    (-3, 15, 9, 10, "amplify3"),
    (1, 10, 14, 11, "amplify3"),
    (3, 6, 20, 12, "crypt"),
    (0, 14, 8, 10, "crypt"),
    (4, 20, 20, 5, "crypt"),
    (-1, 4, 5, 0, "crypt"),
]
#: (label, heuristic pair or None for optimal play); "never" is heuristic 0.
SOLVER_POLICIES = [("optimal", None), ("never", (0, 1)), ("h1 t4", (1, 4)), ("h3 t6", (3, 6))]
MORE_HEURISTICS = [(2, 7), (4, 3), (5, 9), (6, 2), (7, 1), (8, 5)]


def solver_and_policy(
    delta: int, hero: int, opponent: int, luck: int, rule: str, pair: tuple[int, int] | None
) -> tuple[Fraction, VectorLuckPolicy | None]:
    """The exact value from the solver and the policy to simulate with."""
    if pair is None:
        grid = solve_grid(Fight(delta, hero, opponent, luck, rule=rule))
        return grid.value(hero, opponent, luck), grid.policy_function()
    policy = heuristic(*pair)
    grid = solve_grid(Fight(delta, hero, opponent, luck, rule=rule), policy=policy)
    return grid.value(hero, opponent, luck), None if pair[0] == 0 else policy


@pytest.mark.parametrize("label, pair", SOLVER_POLICIES)
@pytest.mark.parametrize("delta, hero, opponent, luck, rule", SOLVER_STATES)
def test_solver_agrees_with_the_simulator(
    delta: int,
    hero: int,
    opponent: int,
    luck: int,
    rule: str,
    label: str,
    pair: tuple[int, int] | None,
) -> None:
    exact, policy = solver_and_policy(delta, hero, opponent, luck, rule, pair)
    sim = simulate_fight(
        Fight(delta, hero, opponent, luck, rule=rule), policy=policy, n=N, seed=2020
    )
    assert sim.agrees_with(exact), (sim.win_rate, float(exact), sim.standard_error)


@pytest.mark.parametrize("pair", MORE_HEURISTICS)
@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_solver_agrees_on_the_other_heuristics(rule: str, pair: tuple[int, int]) -> None:
    delta, hero, opponent, luck = (-1, 13, 11, 12) if rule != "crypt" else (2, 11, 13, 12)
    exact, policy = solver_and_policy(delta, hero, opponent, luck, rule, pair)
    sim = simulate_fight(
        Fight(delta, hero, opponent, luck, rule=rule), policy=policy, n=N, seed=2022
    )
    assert sim.agrees_with(exact), (sim.win_rate, float(exact), sim.standard_error)


def test_solver_never_equals_the_closed_form() -> None:
    for delta in range(-4, 5):
        grid = solve_grid(Fight(delta, 20, 20, 3), policy=heuristic(0, 1))
        for hero, opponent in [(4, 20), (20, 4), (13, 17), (20, 20)]:
            assert grid.value(hero, opponent, 3) == closed_form(delta, hero, opponent)


@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_solver_equals_the_brute_force_recursion(rule: str) -> None:
    delta, hero, opponent, luck = 1, 8, 9, 8
    optimal = solve_grid(Fight(delta, hero, opponent, luck, rule=rule))
    policies = [optimal.policy_function()] + [heuristic(*pair) for pair in [(1, 4), (3, 6), (8, 5)]]
    for policy in policies:
        grid = (
            optimal
            if policy is policies[0]
            else solve_grid(Fight(delta, hero, opponent, luck, rule=rule), policy=policy)
        )
        assert grid.value(hero, opponent, luck) == brute_value(
            delta, hero, opponent, luck, rule, policy
        )


@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_final_stamina_and_luck_agree_with_the_solver(rule: str) -> None:
    delta, hero, opponent, luck, policy = 0, 16, 12, 10, heuristic(1, 5)
    sim = simulate_fight(
        Fight(delta, hero, opponent, luck, rule=rule), policy=policy, n=N, seed=2024
    )
    for objective, hits in [
        (Objective(keep_stamina=9), sim.won & (sim.hero_stamina >= 9)),
        (Objective(keep_luck=6), sim.won & (sim.luck >= 6)),
        (
            Objective(keep_stamina=5, keep_luck=7),
            sim.won & (sim.hero_stamina >= 5) & (sim.luck >= 7),
        ),
    ]:
        grid = solve_grid(
            Fight(delta, hero, opponent, luck, rule=rule, objective=objective), policy=policy
        )
        assert agrees_with(grid.value(hero, opponent, luck), int(hits.sum()), sim.n)


@pytest.mark.parametrize("delta", [-4, -2, 0, 2, 4])
@pytest.mark.parametrize("rule", list(SIMULATED_RULES))
def test_optimal_play_from_random_states_of_one_grid(rule: str, delta: int) -> None:
    grid = solve_grid(Fight(delta, 20, 20, 12, rule=rule))
    policy = grid.policy_function()
    rng = np.random.default_rng(delta + 10)
    for _ in range(6):
        hero, opponent = (int(x) for x in rng.integers(4, 21, size=2))
        luck = int(rng.integers(0, 13))
        sim = simulate_fight(
            Fight(delta, hero, opponent, luck, rule=rule), policy=policy, n=N, seed=luck
        )
        assert sim.agrees_with(grid.value(hero, opponent, luck)), (hero, opponent, luck)
