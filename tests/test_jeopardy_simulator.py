"""The jeopardy solvers against an independent simulator written from the rules.

``exactprob.games.jeopardy.simulator`` plays Pig with a die and Fowl Play with a real
shuffled deck per game; it shares no code with ``rules.py`` or the solvers. Optimal play
comes from the exact solution's policy table; fixed policies are valued exactly by the
generic engine (``exactprob.engine.exact.policies.evaluate``), which also shares no code with the
simulator. Every comparison is ``agrees_with(..., z=5)`` on a seeded run.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from exactprob.engine.exact.policies import evaluate
from exactprob.games.jeopardy import FowlPlay, JeopardyModel, Pig
from exactprob.games.jeopardy.policies import (
    PolicyTable,
    hold_at,
    optimal_policy_table,
)
from exactprob.games.jeopardy.solving.solver import solve_race
from tests.jeopardy_oracle import FIXED, GAMES, model_policy, race, seed_of


@cache
def solved(game: Pig | FowlPlay) -> tuple[Any, PolicyTable]:
    solution = solve_race(game)
    return solution, optimal_policy_table(solution)


OPTIMAL = [
    (Pig(goal=15), 0),
    (Pig(goal=18), 0),
    (Pig(goal=12, sides=3), 2),
    (FowlPlay(goal=8), 0),  # the full deck: 42 chickens, 6 wolves
    (FowlPlay(goal=8), 3),  # komi: the same solution, the start (0, 3)
    pytest.param(FowlPlay(goal=10), 2, marks=pytest.mark.slow),  # a 3.5 s solve
    (FowlPlay(chickens=24, wolves=4, goal=6), 1),  # Red Light's deck and komi
    (FowlPlay(chickens=24, wolves=4, goal=6), 4),
    (FowlPlay(chickens=3, wolves=2, goal=7), 0),  # many reshuffles per game
]


@pytest.mark.parametrize(("game", "komi"), OPTIMAL, ids=lambda x: repr(x))
def test_optimal_against_optimal_agrees_with_the_exact_value(game, komi):
    solution, table = solved(game)
    races = race(game, table, table, seed=seed_of(game, komi), komi=komi)
    assert races.n == GAMES
    assert races.agrees_with(solution.first_player_win(komi))


def test_the_check_has_power():
    # komi 1 instead of 0 moves Fowl Play to 8 by several standard errors (~0.0016)
    solution, table = solved(FowlPlay(goal=8))
    races = race(FowlPlay(goal=8), table, table, seed=11, komi=0)
    assert abs(solution.first_player_win(1) - solution.first_player_win(0)) > 0.02
    assert not races.agrees_with(solution.first_player_win(1))
    # and a naive player is not optimal: hold-at-1 against itself is another game
    naive = race(FowlPlay(goal=8), hold_at(1), hold_at(1), seed=12)
    assert not naive.agrees_with(solution.first_player_win(0))


@pytest.mark.parametrize(("game", "komi", "holds0", "holds1"), FIXED)
def test_fixed_policies_agree_with_the_generic_engine(game, komi, holds0, holds1):
    exact = evaluate(JeopardyModel(game, komi), model_policy(game, holds0, holds1)).value()
    assert race(game, holds0, holds1, seed=seed_of(game, komi), komi=komi).agrees_with(exact)


def test_optimal_table_against_a_fixed_player_agrees_with_the_generic_engine():
    # the table read as a policy on the model's states, valued exactly by the engine
    game = FowlPlay(chickens=6, wolves=2, goal=7)
    _, table = solved(game)
    exact = evaluate(JeopardyModel(game), model_policy(game, table, hold_at(2))).value()
    assert race(game, table, hold_at(2), seed=5).agrees_with(exact)


@pytest.mark.parametrize(
    "game",
    [
        Pig(goal=10),
        Pig(goal=9, sides=4),
        FowlPlay(chickens=4, wolves=2, goal=5),
        FowlPlay(chickens=1, wolves=1, goal=4),
        FowlPlay(chickens=5, wolves=2, goal=5),
    ],
    ids=repr,
)
def test_the_table_makes_the_solutions_optimal_choices(game):
    # the table holds exactly where holding is optimal (so on exact ties too)
    solution, table = solved(game)
    decks = (
        [(0, 0)]
        if isinstance(game, Pig)
        else [(w, c) for w in range(game.wolves) for c in range(game.chickens + 1)]
    )
    checked = ties = 0
    for a in range(game.goal):
        for b in range(game.goal):
            for w, c in decks:
                top = game.goal - a - 1 if isinstance(game, Pig) else min(c, game.goal - a - 1)
                for k in range(1, top + 1):
                    deck = 0 if isinstance(game, Pig) else (w, c)
                    best = solution.actions(a, b, k, deck)
                    holds = bool(table.holds[a, b, k, w, c])
                    assert holds == ("hold" in best), (a, b, k, deck, best)
                    checked += 1
                    ties += len(best) == 2
    assert checked > 0
    if game == FowlPlay(chickens=5, wolves=2, goal=5):
        assert ties > 0  # this game has exact ties: the tie rule is exercised
