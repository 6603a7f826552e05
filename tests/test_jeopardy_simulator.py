"""The jeopardy solvers against an independent simulator written from the rules.

``exactprob.games.jeopardy.simulate`` plays Pig with a die and Fowl Play with a real
shuffled deck per game; it shares no code with ``rules.py`` or the solvers. Optimal play
comes from the exact solution's turn-start values; fixed policies are valued exactly by the
generic engine (``exactprob.solve.evaluate``), which also shares no code with the
simulator. Every comparison is ``agrees_with(..., z=5)`` on a seeded run.
"""

from __future__ import annotations

import zlib
from functools import cache
from typing import Any

import numpy as np
import pytest

from exactprob.games.jeopardy import RED_LIGHT, FowlPlay, JeopardyModel, Pig
from exactprob.games.jeopardy.players import (
    Holds,
    PolicyTable,
    hold_at,
    optimal_policy_table,
    risk_balancing,
)
from exactprob.games.jeopardy.simulate import simulate_race
from exactprob.games.jeopardy.solver import solve
from exactprob.simulate import agrees_with
from exactprob.solve import evaluate

GAMES = 100_000


@cache
def solved(game: Pig | FowlPlay) -> tuple[Any, PolicyTable]:
    solution = solve(game)
    return solution, optimal_policy_table(solution)


def race(
    game: Pig | FowlPlay, holds0: Holds, holds1: Holds, seed: int, komi: int | None = None
) -> int:
    """First-player wins in ``GAMES`` simulated games of ``game``."""
    komi = game.komi if komi is None else komi
    if isinstance(game, Pig):
        return simulate_race(
            "pig", game.goal, holds0, holds1, GAMES, seed, sides=game.sides, komi=komi
        )
    return simulate_race(
        "fowl-play",
        game.goal,
        holds0,
        holds1,
        GAMES,
        seed,
        chickens=game.chickens,
        wolves=game.wolves,
        komi=komi,
    )


def seed_of(*parts: object) -> int:
    """A fixed seed per case (``hash`` of a string changes from run to run)."""
    return zlib.crc32(repr(parts).encode())


OPTIMAL = [
    (Pig(goal=15), 0),
    (Pig(goal=18), 0),
    (Pig(goal=12, sides=3), 2),
    (FowlPlay(goal=8), 0),  # the full deck: 42 chickens, 6 wolves
    (FowlPlay(goal=8), 3),  # komi: the same solution, the start (0, 3)
    pytest.param(FowlPlay(goal=10), 2, marks=pytest.mark.slow),  # a 3.5 s solve
    (FowlPlay(chickens=24, wolves=4, goal=6, komi=1), 1),  # Red Light's deck
    (FowlPlay(chickens=24, wolves=4, goal=6, komi=1), 4),
    (FowlPlay(chickens=3, wolves=2, goal=7), 0),  # many reshuffles per game
]


@pytest.mark.parametrize(("game", "komi"), OPTIMAL, ids=lambda x: repr(x))
def test_optimal_against_optimal_agrees_with_the_exact_value(game, komi):
    solution, table = solved(game)
    wins = race(game, table, table, seed=seed_of(game, komi), komi=komi)
    assert agrees_with(solution.first_player_win(komi), wins, GAMES)


def test_the_check_has_power():
    # komi 1 instead of 0 moves Fowl Play to 8 by several standard errors (~0.0016)
    solution, table = solved(FowlPlay(goal=8))
    wins = race(FowlPlay(goal=8), table, table, seed=11, komi=0)
    assert abs(solution.first_player_win(1) - solution.first_player_win(0)) > 0.02
    assert not agrees_with(solution.first_player_win(1), wins, GAMES)
    # and a naive player is not optimal: hold-at-1 against itself is another game
    naive = race(FowlPlay(goal=8), hold_at(1), hold_at(1), seed=12)
    assert not agrees_with(solution.first_player_win(0), naive, GAMES)


def model_policy(game: Pig | FowlPlay, holds0: Holds, holds1: Holds) -> Any:
    """The two players as a policy on JeopardyModel's states (s0, s1, k, deck, mover)."""
    draw, goal = ("roll" if isinstance(game, Pig) else "draw"), game.goal

    def choose(state: tuple) -> str:
        s0, s1, k, deck, mover = state
        a, b = (s0, s1) if mover == 0 else (s1, s0)
        w, c = (0, 0) if isinstance(game, Pig) else deck
        if k == 0:
            return draw
        if a + k >= goal:
            return "hold"
        holds = (holds0, holds1)[mover]
        return "hold" if bool(holds(*map(np.asarray, (a, b, k, w, c)))) else draw

    return choose


FIXED = [
    pytest.param(Pig(goal=12), hold_at(6), hold_at(3), id="pig 12: hold at 6 v 3"),
    pytest.param(Pig(goal=10, sides=4, komi=3), hold_at(2), hold_at(5), id="pig 10 d4 komi 3"),
    pytest.param(FowlPlay(5, 2, 6), hold_at(2), hold_at(1), id="fowl 5/2 to 6: 2 v 1"),
    pytest.param(FowlPlay(4, 3, 5, komi=1), hold_at(1), hold_at(2), id="fowl 4/3 to 5 komi 1"),
    pytest.param(FowlPlay(10, 3, 6), risk_balancing(FowlPlay(10, 3, 6)), hold_at(2), id="fowl risk v 2"),
    pytest.param(
        FowlPlay(24, 4, 4, komi=1), hold_at(3), risk_balancing(RED_LIGHT), id="red light 3 v risk"
    ),
]


@pytest.mark.parametrize(("game", "holds0", "holds1"), FIXED)
def test_fixed_policies_agree_with_the_generic_engine(game, holds0, holds1):
    exact = evaluate(JeopardyModel(game), model_policy(game, holds0, holds1)).value()
    wins = race(game, holds0, holds1, seed=seed_of(game))
    assert agrees_with(exact, wins, GAMES)


def test_optimal_table_against_a_fixed_player_agrees_with_the_generic_engine():
    # the table read as a policy on the model's states, valued exactly by the engine
    game = FowlPlay(chickens=6, wolves=2, goal=7)
    _, table = solved(game)
    exact = evaluate(JeopardyModel(game), model_policy(game, table, hold_at(2))).value()
    assert agrees_with(exact, race(game, table, hold_at(2), seed=5), GAMES)


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
