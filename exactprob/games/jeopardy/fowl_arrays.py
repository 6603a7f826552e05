r"""Fowl Play (and Red Light) as an :class:`~exactprob.engine.array_model.ArrayModel`: the same
game as :class:`~.rules.JeopardyModel`, explored by the engine in bulk.

A state is ``(score 0, score 1, turn total, wolves drawn, chickens drawn, mover)``. The
chance of the next card depends on what is left of the deck, so each draw is a branch
with per-row odds: a chicken with :math:`(C - c)/(C + W - c - w)`, a wolf with
:math:`(W - w)/(C + W - c - w)` (the last wolf reshuffles the deck). The states, their
order of actions and every probability are those of ``JeopardyModel(FowlPlay(...))``
(``tests/test_jeopardy_solver.py`` compares the two graphs and their enclosures).

>>> from exactprob import solve
>>> from exactprob.games.jeopardy import JeopardyModel
>>> game = FowlPlay(chickens=3, wolves=1, goal=2)
>>> solve(FowlPlayArrays(game)).value() == solve(JeopardyModel(game)).value()
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from ...engine import ArrayModel, Branch
from .rules import FowlPlay, check_komi

__all__ = ["FowlPlayArrays"]


class FowlPlayArrays(ArrayModel):
    """``game`` (a :class:`~.rules.FowlPlay`) for bulk exploration; player 0 moves first,
    player 1 starts with ``komi`` points, and the outcome is 1 when player 0 wins."""

    def __init__(self, game: FowlPlay, komi: int = 0) -> None:
        self.game = game
        goal = game.goal
        self.sizes = (goal + 1, goal + 1, goal + 1, game.wolves, game.chickens + 1, 2)
        self.initial = (0, check_komi(game, komi), 0, 0, 0, 0)
        self.actions = (game.draw_word, "hold")

    def terminal(self, states: np.ndarray) -> np.ndarray:
        return (states[:, 0] >= self.game.goal) | (states[:, 1] >= self.game.goal)

    def outcome(self, states: np.ndarray) -> np.ndarray:
        return (states[:, 0] >= self.game.goal).astype(np.int64)

    def player(self, states: np.ndarray) -> np.ndarray:
        return states[:, 5]

    def enabled(self, states: np.ndarray, action: Hashable) -> np.ndarray:
        """A turn total of 0 must draw; a mover who has reached the goal must hold."""
        mover = states[:, 5]
        score = np.where(mover == 0, states[:, 0], states[:, 1])
        turn_total = states[:, 2]
        if action == "hold":
            return turn_total > 0
        return (turn_total == 0) | (score + turn_total < self.game.goal)

    def transition(self, states: np.ndarray, action: Hashable) -> Sequence[Branch]:
        mover = states[:, 5]
        turn_total = states[:, 2]
        if action == "hold":  # bank the turn total; the other player's turn starts
            banked = states * [1, 1, 0, 1, 1, 0]
            banked[:, 0] += np.where(mover == 0, turn_total, 0)
            banked[:, 1] += np.where(mover == 1, turn_total, 0)
            banked[:, 5] = 1 - mover
            return [(1, banked)]
        wolves_drawn, chickens_drawn = states[:, 3], states[:, 4]
        chickens = self.game.chickens - chickens_drawn
        wolves = self.game.wolves - wolves_drawn
        left = chickens + wolves
        chicken = states + [0, 0, 1, 0, 1, 0]
        chicken[chickens == 0] = 0  # no chicken left: a branch of chance 0, never taken
        busted = states * [1, 1, 0, 1, 1, 0]
        busted[:, 3] += 1
        busted[wolves == 1, 3:5] = 0  # the last wolf: the whole deck is reshuffled
        busted[:, 5] = 1 - mover
        return [((chickens, left), chicken), ((wolves, left), busted)]
