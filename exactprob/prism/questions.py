"""A PRISM property as a model the engine solves: the explored states, with the states
the graph decides made terminal (paying 1 or 0, or 0 reward), the mover maximising or
minimising (player 0 or 1), and the reward structure as the model's ``reward``.

Why the engine's policy iteration answers these questions exactly: once the states of
probability 0 (and, for a reward, those where the target may be missed) are terminal,
starting from a policy that ends play, a strict improvement never closes a cycle that
stays forever (on such a cycle the values would satisfy :math:`v \\le Pv` with a strict
inequality somewhere, which a closed class's stationary law contradicts); so every
policy it visits ends play, and its fixed point is the least fixed point of the Bellman
equations, which is the optimum (for a reward, the rewards are non-negative).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Dist
from ..util.numbers import mpq
from .space import StateSpace

__all__ = ["STEPS", "ChainModel", "QuestionModel", "RewardQuestionModel"]

#: The reward structure of Storm's ``T=?``: 1 for every step.
STEPS = "(steps)"

_ONE = mpq(1)


class QuestionModel:
    """The model of one question over a :class:`StateSpace`: ``terminal`` maps a
    position to its exact outcome; ``minimise`` makes the mover player 1; ``allowed``,
    when given, keeps only the moves whose targets all lie in it."""

    def __init__(
        self,
        space: StateSpace,
        terminal: dict[int, Any],
        *,
        minimise: bool = False,
        allowed: set[int] | None = None,
    ) -> None:
        self.space = space
        self.terminal = terminal
        self.minimise = minimise
        self.allowed = allowed
        self.initial = space.states[space.initial[0]]
        self.expected_states = len(space)
        self._dists: dict[tuple[int, str], Dist[Any]] = {}

    def outcome(self, state: tuple[Any, ...]) -> Any:
        return self.terminal.get(self.space.index[state])

    def actions(self, state: tuple[Any, ...]) -> Sequence[str]:
        return [name for name, _ in self._moves(self.space.index[state])]

    def transition(self, state: tuple[Any, ...], action: str) -> Dist[Any]:
        i = self.space.index[state]
        key = (i, action)
        dist = self._dists.get(key)
        if dist is None:
            states = self.space.states
            targets = next(d for name, d in self._moves(i) if name == action)
            dist = self._dists[key] = Dist({states[t]: p for t, p in targets})
        return dist

    def player(self, state: tuple[Any, ...]) -> int:
        return 1 if self.minimise else 0

    def _moves(self, i: int) -> list[tuple[str, list[tuple[int, Any]]]]:
        """The moves played in state ``i``: those within ``allowed``, less a move that
        stays put surely where another is left (it never helps: the graph already made
        terminal every state where staying forever decides the value)."""
        moves = self.space.moves[i]
        if self.allowed is not None:
            moves = [(name, d) for name, d in moves if all(t in self.allowed for t, _ in d)]
        moving = [(name, d) for name, d in moves if d != [(i, _ONE)]]
        return moving or moves


class RewardQuestionModel(QuestionModel):
    """A question whose value is the reward gathered until play ends: ``structure``
    names the program's reward structure."""

    def __init__(
        self, space: StateSpace, terminal: dict[int, Any], structure: str | None, **options: Any
    ) -> None:
        super().__init__(space, terminal, **options)
        self.structure = structure

    def reward(self, state: tuple[Any, ...], action: str) -> Any:
        if self.structure == STEPS:
            return _ONE
        return self.space.program.move_rewards(self.structure, state, action)


class ChainModel(QuestionModel):
    """The DTMC itself, with no terminal state: for its long run (``ep.stationary``)."""

    def __init__(self, space: StateSpace) -> None:
        super().__init__(space, {})
