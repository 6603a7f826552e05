"""Best responses to fixed players: against every table by enumeration, certified against
exact, and Neller and Presser's published figures for Pig."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactprob.errors import ModelError, StateLimitError
from exactprob.games.jeopardy import FOWL_PLAY, FowlPlay, Pig
from exactprob.games.jeopardy.players.best_response import best_response, engine_response
from exactprob.games.jeopardy.players.matchup import play_off
from exactprob.games.jeopardy.players.roster import player_named
from exactprob.games.jeopardy.policies import (
    PolicyTable,
    choice_states,
    hold_at,
    optimal_policy_table,
    policy_table,
    risk_balancing,
)
from exactprob.games.jeopardy.solving.certified import enclose_matchup, enclose_race
from exactprob.games.jeopardy.solving.response import respond
from exactprob.games.jeopardy.solving.solver import solve_race
from tests.cli_runner import run


def every_table(game: Pig) -> list[PolicyTable]:
    """Every player of ``game``: each choice state holds or rolls (the forced moves kept)."""
    base = policy_table(game, hold_at(game.goal))
    choices = np.argwhere(choice_states(game))
    tables = []
    for holds in itertools.product((False, True), repeat=len(choices)):
        table = base.holds.copy()
        for index, hold in zip(choices, holds, strict=True):
            table[tuple(index)] = hold
        tables.append(PolicyTable(table))
    return tables


@pytest.mark.parametrize(
    ("game", "opponent", "komi"),
    [(Pig(goal=3), 1, 0), (Pig(goal=3), 2, 0), (Pig(goal=3, sides=3), 1, 0), (Pig(goal=3), 2, 1)],
    ids=str,
)
def test_the_best_response_beats_every_table_moving_first_or_second(game, opponent, komi) -> None:
    """All 2^9 players of Pig to 3, each valued exactly against the opponent in both seats
    (the match-up code, not the engine): none does better than the response, in either."""
    fixed = policy_table(game, hold_at(opponent))
    response = best_response(game, fixed, fill=fixed, exact=True)
    first = play_off(game, response, fixed).first_player_win(komi)
    second = play_off(game, fixed, response).first_player_win(komi)
    tables = every_table(game)
    assert len(tables) == 2**9
    assert first == max(play_off(game, t, fixed).first_player_win(komi) for t in tables)
    assert second == min(play_off(game, fixed, t).first_player_win(komi) for t in tables)


SMALL_GAMES = [Pig(goal=goal, sides=sides) for goal in (3, 6, 9) for sides in (3, 4, 6)] + [
    FowlPlay(chickens=c, wolves=w, goal=g)
    for c, w, g in [(3, 1, 4), (4, 2, 5), (6, 3, 5), (8, 2, 10), (1, 1, 5), (2, 1, 7), (3, 1, 9)]
]  # the last three: few chickens, far goals, where a random player passes the turn forever


@given(
    game=st.sampled_from(SMALL_GAMES),
    holding=st.sampled_from([0.0, 0.1, 0.5, 0.9]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_race_cycles_respond_as_the_engine_does(game, holding: float, seed: int) -> None:
    """The game's own cycles and the generic engine, against a random player (each choice
    holding with chance ``holding``; at 0, in Fowl Play, a player that can pass the turn
    forever): the same table at every state, exact ties (which hold) included."""
    rng = np.random.default_rng(seed)
    holds = policy_table(game, hold_at(game.goal + 1)).holds.copy()
    choices = choice_states(game)
    holds[choices] = rng.random(int(choices.sum())) < holding
    opponent, fill = PolicyTable(holds), policy_table(game, hold_at(2))
    cycles = respond(game, opponent, fill)
    assert np.array_equal(cycles.holds, engine_response(game, opponent, fill).holds)


def test_a_response_to_a_player_that_never_banks_banks_on_a_tie() -> None:
    """Against a player that never banks and cannot reach 4 with three chickens, any bank
    wins for sure, and so does drawing on (a bust only hands over a turn that must bust
    back): draw and hold tie at 1. The response banks; drawing everywhere would pass the
    turn back and forth forever (the cycle's system singular)."""
    game = FowlPlay(chickens=3, wolves=1, goal=4)
    never = policy_table(game, hold_at(99))
    response = respond(game, never, fill=never)
    assert response.holds[0, 0, 1, 0, 1] and response.holds[0, 0, 3, 0, 3]
    assert np.array_equal(response.holds, engine_response(game, never, fill=never).holds)
    assert play_off(game, response, never).first_player_win() == 1


def test_a_response_whose_first_choices_would_loop_starts_by_banking() -> None:
    """One chicken, a goal of 4: an opponent that banks everywhere but at (2, 0) can
    pass the turn forever there. Choosing greedily at made-up values first (each turn
    start worth 1/2) would draw everywhere at the responder's (0, 2), where banking is
    worth less than 1/2, and the cycle's system would be singular; banking everywhere
    first, the response banks there, as the engine's does."""
    game = FowlPlay(chickens=1, wolves=1, goal=4)
    holds = policy_table(game, hold_at(1)).holds.copy()
    holds[2, 0, 1] = False
    opponent, fill = PolicyTable(holds), policy_table(game, hold_at(1))
    response = best_response(game, opponent, fill, exact=True)
    assert response.holds[0, 2, 1, 0, :].all()
    assert np.array_equal(response.holds, engine_response(game, opponent, fill).holds)


@pytest.mark.parametrize(
    ("game", "opponent"),
    [
        (FowlPlay(chickens=5, wolves=2, goal=6), hold_at(2)),
        (FowlPlay(chickens=8, wolves=3, goal=8), hold_at(3)),
        (FowlPlay(chickens=10, wolves=3, goal=7), None),
    ],
    ids=["5/2 to 6 v hold 2", "8/3 to 8 v hold 3", "10/3 to 7 v risk-balancing"],
)
def test_a_certified_response_makes_the_exact_choices_where_it_decides(game, opponent) -> None:
    """The game's interval sweep (certified) against the engine's exact decision process."""
    fixed = policy_table(game, opponent or risk_balancing(game))
    exact = best_response(game, fixed, fill=fixed, exact=True)
    certified = best_response(game, fixed, fill=fixed, exact=False)
    assert certified.undecided is not None
    decided = choice_states(game) & ~certified.undecided
    assert np.array_equal(certified.holds[decided], exact.holds[decided])
    assert np.count_nonzero(decided) >= 0.99 * np.count_nonzero(choice_states(game))


def test_the_full_fowl_play_is_refused_exactly_and_certified_on_request() -> None:
    fixed = policy_table(FOWL_PLAY, hold_at(6))
    # both movers at every non-terminal state: 2 x 10,487,700 (docs/jeopardy.rst)
    with pytest.raises(
        StateLimitError, match="has up to 20,975,400 states, more than the limit of 2,000,000"
    ):
        best_response(FOWL_PLAY, fixed, fill=fixed, exact=True)
    pig = Pig(goal=5)
    hold2 = policy_table(pig, hold_at(2))
    with pytest.raises(ModelError, match="Pig's is exact"):
        best_response(pig, hold2, fill=hold2, exact=False)


@pytest.mark.slow
def test_the_full_fowl_play_response_to_hold_at_6_beats_the_optimal_player_against_it() -> None:
    """Certified, every choice decided; against hold at 6 it does at least as well as the
    optimal table, in both seats (enclosures compared end to end)."""
    fixed = policy_table(FOWL_PLAY, hold_at(6))
    response = best_response(FOWL_PLAY, fixed, fill=fixed, exact=False)
    assert response.undecided is not None and not response.undecided.any()
    optimal = enclose_race(FOWL_PLAY).policy_table()
    mine = enclose_matchup(FOWL_PLAY, response, fixed).first_player_win()
    theirs = enclose_matchup(FOWL_PLAY, optimal, fixed).first_player_win()
    assert mine.high >= theirs.low and mine.low >= theirs.low - 1e-12


def test_cli_round_robin_with_a_best_response(capsys) -> None:
    argv = ["pig", "--goal", "8", "--players", "best-response:hold-at-3,hold-at-3", "--json"]
    status, out, _ = run(capsys, *argv)
    payload = json.loads(out)
    assert status == 0
    wins = {(m["first"], m["second"]): m["first_player_win"] for m in payload["matchups"]}
    game = Pig(goal=8)
    fixed = policy_table(game, hold_at(3))
    optimal = optimal_policy_table(solve_race(game))
    response = best_response(game, fixed, fill=optimal, exact=True)
    expected = play_off(game, response, fixed).first_player_win()
    assert wins["best-response:hold-at-3", "hold-at-3"] == str(expected)
    assert expected >= play_off(game, optimal, fixed).first_player_win()  # equal at this goal


@pytest.mark.parametrize(
    "name", ["best-response:", "best-response:foo", "best-response:best-response:optimal"]
)
def test_cli_bad_best_response_names(capsys, name: str) -> None:
    status, out, err = run(capsys, "pig", "--goal", "8", "--players", name)
    assert status == 2 and out == "" and err.count("\n") == 1 and "unknown player" in err


def test_keep_pace_and_end_race_is_the_papers_rule_everywhere() -> None:
    """Neller and Presser (2010), written here with exact rounding: if either score is 71
    or more, roll for the goal; otherwise hold at 21 + round((j - i)/8), halves up."""

    def rule(i: int, j: int, k: int) -> bool:
        if k == 0:
            return False
        if i >= 71 or j >= 71:
            return i + k >= 100
        return k >= 21 + math.floor(Fraction(j - i, 8) + Fraction(1, 2))

    game = Pig(goal=100)
    table = player_named(game, "keep-pace", policy_table(game, hold_at(20))).table.holds
    for i, j, k in itertools.product(range(100), range(100), range(100)):
        assert table[i, j, k, 0, 0] == (rule(i, j, k) or i + k >= 100), (i, j, k)


def test_keep_pace_is_a_pig_player(capsys) -> None:
    status, out, _ = run(capsys, "pig", "--goal", "40", "--players", "keep-pace,optimal", "--json")
    assert status == 0 and json.loads(out)["players"][0]["parameters"] == 3
    status, _, err = run(capsys, "fowl-play", "--goal", "5", "--players", "keep-pace")
    assert status == 2 and "unknown player 'keep-pace' for Fowl Play" in err


def test_the_command_line_bounds_a_best_response_before_the_race_is_solved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--max-states bounds the response's own solve (twice the race's states), and is
    checked before the race is solved: Pig to 100 (505,000 states, 15 s) is not solved
    when its best response (1,010,000) is over the limit."""
    best = ["--players", "best-response:hold-at-20"]
    status, printed, err = run(capsys, "pig", "--max-states", "600000", *best)
    assert (status, printed) == (2, "")
    assert "1,010,000 states, more than the limit of 600,000" in err and err.count("\n") == 1
    status, _, err = run(capsys, "pig", "--goal", "30", "--max-states", "13950", *best)
    assert status == 2 and "27,900 states, more than the limit of 13,950" in err
    status, printed, _ = run(capsys, "pig", "--goal", "30", "--max-states", "27900", *best)
    assert status == 0 and "best-response:hold-at-20" in printed
