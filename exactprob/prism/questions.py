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

from ..engine import Dist, StateGraph
from ..util.numbers import exact, is_symbolic, mpq
from .space import StateSpace

__all__ = ["STEPS", "ChainModel", "QuestionModel", "RewardQuestionModel", "question_graph"]

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
        """The moves played in state ``i``, as :meth:`played` chooses them."""
        space = self.space
        first = space.choice_start[i]
        return [
            (space.move_names[i][c - first], list(space.choice_edges(c))) for c in self.played(i)
        ]

    def played(self, i: int) -> list[int]:
        """The choices (of the space's columns) played in state ``i``: those within
        ``allowed``, less a move that stays put surely where another is left (it never
        helps: the graph already made terminal every state where staying forever
        decides the value)."""
        space, allowed = self.space, self.allowed
        es, targets = space.edge_start, space.targets
        choices = list(range(space.choice_start[i], space.choice_start[i + 1]))
        if allowed is not None:
            choices = [
                c for c in choices if all(targets[e] in allowed for e in range(es[c], es[c + 1]))
            ]
        moving = [c for c in choices if es[c + 1] - es[c] != 1 or targets[es[c]] != i]
        return moving or choices


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


def question_graph(model: QuestionModel, starts: Sequence[int]) -> StateGraph:
    """The state graph of ``model`` from the states at positions ``starts``, read off the
    space's columns: the graph ``explore(model, starts=...)`` builds, state for state,
    choice for choice and edge for edge (the same breadth-first order), without asking
    the model for each state's moves again.

    >>> from exactprob.prism import loads
    >>> from exactprob import explore
    >>> prism = loads("dtmc module m x : [0..2] init 0; [] x=0 -> 0.3:(x'=1) + 0.7:(x'=2);"
    ...               " [] x>0 -> true; endmodule")
    >>> model = QuestionModel(prism.space, {1: mpq(1), 2: mpq(0)})
    >>> G = question_graph(model, [0])
    >>> (list(G.states), G.outcomes, list(G.targets), G.probabilities)
    ([(0,), (1,), (2,)], [None, mpq(1,1), mpq(0,1)], [1, 2], [mpq(3,10), mpq(7,10)])
    >>> H = explore(model, starts=[(0,)])
    >>> (list(H.states), H.outcomes, list(H.targets)) == (list(G.states), G.outcomes, list(G.targets))
    True
    """
    space, terminal = model.space, model.terminal
    names, choice_first = space.move_names, space.choice_start
    edge_start, targets, prob_ids = space.edge_start, space.targets, space.prob_ids
    reward = model.reward if isinstance(model, RewardQuestionModel) else None
    player = 1 if model.minimise else 0
    G = StateGraph()
    order = list(dict.fromkeys(starts))
    new = {s: i for i, s in enumerate(order)}
    prob_new: dict[int, int] = {}
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    rewards: list[Any] | None = None if reward is None else []
    G.rewards = rewards
    k = 0
    while k < len(order):
        s = order[k]
        k += 1
        value = terminal.get(s)
        if value is not None:
            G.outcomes.append(exact(value))
            G.players.append(0)
            G.actions.append(())
            G.choice_start.append(len(G.edge_start) - 1)
            continue
        played = model.played(s)
        actions = tuple(names[s][c - choice_first[s]] for c in played)
        G.outcomes.append(None)
        G.players.append(player)
        G.actions.append(shared.setdefault(actions, actions))
        for c, action in zip(played, actions, strict=True):
            for e in range(edge_start[c], edge_start[c + 1]):
                t = targets[e]
                i = new.get(t)
                if i is None:
                    i = new[t] = len(order)
                    order.append(t)
                pid = prob_new.get(prob_ids[e])
                if pid is None:
                    pid = prob_new[prob_ids[e]] = len(prob_new)
                G.targets.append(i)
                G.prob_ids.append(pid)
            G.edge_start.append(len(G.targets))
            if rewards is not None:
                assert reward is not None
                rewards.append(exact(reward(space.states[s], action)))
        G.choice_start.append(len(G.edge_start) - 1)
    G.probabilities = [space.probabilities[p] for p in prob_new]
    G.symbolic = any(is_symbolic(p) for p in G.probabilities)
    G.states = [space.states[s] for s in order]
    G.index = {state: i for i, state in enumerate(G.states)}
    return G
