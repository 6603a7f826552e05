"""Shared oracles for the jeopardy tests, written from the rules and the generic engine.

``race`` plays games in the independent simulator (:mod:`exactprob.games.jeopardy.simulator`);
``model_policy`` turns two players into a policy on the generic model's states, which
``exactprob.engine.exact.policies.evaluate`` values exactly with no code shared with the component solver.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest

from exactprob.games.jeopardy import RED_LIGHT, RED_LIGHT_KOMI, FowlPlay, Pig
from exactprob.games.jeopardy.policies import Holds, hold_at, risk_balancing
from exactprob.games.jeopardy.simulator import SimulatedRaces, simulate_race

GAMES = 100_000

SMALL_FOWL_PLAY = [
    (FowlPlay(chickens=3, wolves=1, goal=3), 0),
    (FowlPlay(chickens=4, wolves=2, goal=5), 0),
    (FowlPlay(chickens=2, wolves=3, goal=4), 2),
    (FowlPlay(chickens=6, wolves=2, goal=7), 1),
    # comparisons too close for floats: these take the solver's exact path; (5, 2, 5) has
    # exact ties in three states
    (FowlPlay(chickens=1, wolves=1, goal=4), 0),
    (FowlPlay(chickens=1, wolves=2, goal=6), 0),
    (FowlPlay(chickens=5, wolves=2, goal=5), 0),
]
"""Small Fowl Play games, each with a komi to start from, that every jeopardy solver is
checked on."""


def race(
    game: Pig | FowlPlay, holds0: Holds, holds1: Holds, seed: int, komi: int = 0
) -> SimulatedRaces:
    """``GAMES`` simulated games of ``game``, the second player starting with ``komi``
    points."""
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
    pytest.param(Pig(goal=12), 0, hold_at(6), hold_at(3), id="pig 12: hold at 6 v 3"),
    pytest.param(Pig(goal=10, sides=4), 3, hold_at(2), hold_at(5), id="pig 10 d4 komi 3"),
    pytest.param(FowlPlay(5, 2, 6), 0, hold_at(2), hold_at(1), id="fowl 5/2 to 6: 2 v 1"),
    pytest.param(FowlPlay(4, 3, 5), 1, hold_at(1), hold_at(2), id="fowl 4/3 to 5 komi 1"),
    pytest.param(
        FowlPlay(10, 3, 6), 0, risk_balancing(FowlPlay(10, 3, 6)), hold_at(2), id="fowl risk v 2"
    ),
    pytest.param(
        FowlPlay(24, 4, 4),
        RED_LIGHT_KOMI,
        hold_at(3),
        risk_balancing(RED_LIGHT),
        id="red light 3 v risk",
    ),
]
"""Fixed players ``(game, komi, first player's rule, second player's rule)``."""
