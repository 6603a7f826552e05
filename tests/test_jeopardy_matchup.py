"""Two fixed players valued exactly (``matchup.play_off``) and enclosed
(``certified.enclose_matchup``), against the generic engine, the optimal solve and the
independent simulator."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactprob.engine.exact.policies import evaluate
from exactprob.errors import ModelError, NonTerminationError
from exactprob.games.jeopardy import FOWL_PLAY, FowlPlay, JeopardyModel, Pig
from exactprob.games.jeopardy.players.matchup import play_off
from exactprob.games.jeopardy.policies import (
    hold_at,
    optimal_policy_table,
    policy_table,
    risk_balancing,
)
from exactprob.games.jeopardy.solving.certified import enclose_matchup, enclose_race
from exactprob.games.jeopardy.solving.solver import solve_race
from tests.jeopardy_oracle import FIXED, model_policy, race, seed_of


@cache
def optimal(game: Pig | FowlPlay):
    return optimal_policy_table(solve_race(game))


def engine_value(game, holds0, holds1, komi=0):
    """The first player's chance by the generic engine, the game started at komi."""
    return evaluate(JeopardyModel(game, komi), model_policy(game, holds0, holds1)).value()


@pytest.mark.parametrize(("game", "komi", "holds0", "holds1"), FIXED)
def test_fixed_players_equal_the_generic_engine_at_every_komi(game, komi, holds0, holds1):
    matchup = play_off(game, policy_table(game, holds0), policy_table(game, holds1))
    assert matchup.first_player_win() == matchup.first_player_win(0)
    for asked in {komi, 0, game.goal // 2, game.goal - 1}:
        assert matchup.first_player_win(asked) == engine_value(game, holds0, holds1, asked)


@pytest.mark.parametrize(
    "game", [Pig(goal=9), FowlPlay(chickens=6, wolves=2, goal=7), FowlPlay(5, 2, 5)], ids=repr
)
def test_the_optimal_table_against_fixed_players_equals_the_generic_engine(game):
    table = optimal(game)
    for other in (hold_at(1), hold_at(3)):
        against = policy_table(game, other)
        assert play_off(game, table, against).first_player_win() == engine_value(game, table, other)
        assert play_off(game, against, table).first_player_win() == engine_value(game, other, table)


@pytest.mark.parametrize(
    "game",
    [Pig(goal=20), Pig(goal=10, sides=4), FowlPlay(8, 2, 8), FowlPlay(5, 2, 5)],
    ids=repr,
)
def test_optimal_against_itself_is_the_optimal_solve_at_every_komi(game):
    # FowlPlay(5, 2, 5) has exact ties: whichever way the table breaks them, the value holds
    solution = solve_race(game)
    table = optimal_policy_table(solution)
    matchup = play_off(game, table, table)
    for komi in range(game.goal):
        assert matchup.first_player_win(komi) == solution.first_player_win(komi)


def test_a_worse_player_loses_exactly_more_against_the_optimal_one():
    game = Pig(goal=15)
    table, naive = optimal(game), policy_table(game, hold_at(2))
    even = play_off(game, table, table).first_player_win()
    assert play_off(game, naive, table).first_player_win() < even
    assert play_off(game, table, naive).first_player_win() > even


def test_players_that_never_bank_are_refused():
    # 3 chickens cannot reach 5 in one turn: two players who never hold never finish
    game = FowlPlay(chickens=3, wolves=1, goal=5)
    never = policy_table(game, lambda a, b, k, w, c: np.zeros_like(k, dtype=bool))
    with pytest.raises(NonTerminationError, match="forever"):
        play_off(game, never, never)


@pytest.mark.parametrize(
    ("game", "komi", "holds0", "holds1"),
    [case for case in FIXED if isinstance(case.values[0], FowlPlay)],
)
def test_the_certified_matchup_encloses_the_exact_one(game, komi, holds0, holds1):
    tables = policy_table(game, holds0), policy_table(game, holds1)
    exact, box = play_off(game, *tables), enclose_matchup(game, *tables)
    for asked in range(game.goal):
        assert box.first_player_win(asked).contains(exact.first_player_win(asked))
        assert box.first_player_win(asked).width() < 1e-11


@settings(max_examples=12, deadline=None)
@example(chickens=1, wolves=1, goal=2, first=2, second=1)  # every bust reshuffles
@given(
    chickens=st.integers(1, 7),
    wolves=st.integers(1, 3),
    goal=st.integers(1, 7),
    first=st.integers(1, 4),
    second=st.integers(1, 4),
)
def test_certified_matchups_enclose_exact_ones_on_random_decks(
    chickens, wolves, goal, first, second
):
    game = FowlPlay(chickens, wolves, goal)
    tables = policy_table(game, hold_at(first)), policy_table(game, risk_balancing(game))
    tables = tables if second % 2 else tables[::-1]
    try:
        exact = play_off(game, *tables).first_player_win()
    except NonTerminationError:
        return
    box = enclose_matchup(game, *tables).first_player_win()
    assert box.contains(exact) and box.width() < 1e-11


def test_an_enclosure_is_the_matchups_own():
    # a different pair's exact value, 1e-3 away, lies outside the box
    game = FowlPlay(10, 3, 6)
    hold2, hold3, risk = (
        policy_table(game, p) for p in (hold_at(2), hold_at(3), risk_balancing(game))
    )
    box = enclose_matchup(game, hold2, risk).first_player_win()
    assert box.contains(play_off(game, hold2, risk).first_player_win())
    other = play_off(game, hold3, risk).first_player_win()
    assert abs(other - Fraction(box.midpoint())) > Fraction(1, 10**4)
    assert not box.contains(other)


@pytest.mark.parametrize(
    "game", [FowlPlay(8, 2, 8), FowlPlay(5, 2, 5), FowlPlay(42, 6, 10), FowlPlay(10, 3, 9)]
)
def test_the_certified_optimal_table_makes_the_exact_choices_where_it_decides(game):
    exact = optimal(game).holds
    certified = enclose_race(game).policy_table()
    assert certified.undecided is not None
    assert not ((exact != certified.holds) & ~certified.undecided).any()
    solution = solve_race(game)
    # an undecided choice is an exact tie (these games' enclosures are tight)
    for a, b, k, w, c in zip(*np.nonzero(certified.undecided), strict=True):
        assert len(solution.actions(int(a), int(b), int(k), (int(w), int(c)))) == 2


@pytest.mark.slow
def test_pig_to_100_hold_at_20_against_25_agrees_with_the_simulator():
    game = Pig()
    tables = [policy_table(game, hold_at(n)) for n in (20, 25)]
    exact = play_off(game, *tables).first_player_win()
    assert race(game, hold_at(20), hold_at(25), seed=seed_of("pig 20 v 25")).agrees_with(exact)


@pytest.mark.slow
def test_full_fowl_play_risk_balancing_against_hold_at_6_agrees_with_the_simulator():
    game = FOWL_PLAY
    risk, six = risk_balancing(game), hold_at(6)
    box = enclose_matchup(game, policy_table(game, risk), policy_table(game, six))
    value = box.first_player_win()
    assert value.width() < 1e-10
    races = race(game, risk, six, seed=seed_of("fowl risk v 6"))
    assert races.agrees_with(Fraction(value.midpoint()))


def test_a_table_of_another_game_is_refused():
    small, large = FowlPlay(3, 1, 4), FowlPlay(3, 1, 5)
    wrong = policy_table(large, hold_at(1))
    right = policy_table(small, hold_at(1))
    for value in (play_off, enclose_matchup):
        with pytest.raises(ModelError, match="shape"):
            value(small, right, wrong)
