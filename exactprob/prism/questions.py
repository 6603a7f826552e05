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

from array import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..engine import Dist, StateGraph
from ..util.arrays import ranges
from ..util.numbers import exact, is_symbolic, mpq
from .space import DEADLOCK, Columns, StateSpace

__all__ = ["STEPS", "LongRunModel", "QuestionModel", "RewardQuestionModel", "question_graph"]

#: The reward structure of Storm's ``T=?``: 1 for every step.
STEPS = "(steps)"

_ONE, _ZERO = mpq(1), mpq(0)


class QuestionModel:
    """The model of one question over a :class:`StateSpace`: ``terminal`` maps a
    position to its exact outcome; ``minimise`` makes the mover player 1; ``allowed``,
    when given, keeps only the moves whose targets all lie in it; ``every_move`` keeps
    a move that stays put surely, which counts within a bound on the steps."""

    def __init__(
        self,
        space: StateSpace,
        terminal: dict[int, Any],
        *,
        minimise: bool = False,
        allowed: set[int] | None = None,
        every_move: bool = False,
    ) -> None:
        self.space = space
        self.terminal = terminal
        self.minimise = minimise
        self.allowed = allowed
        self.every_move = every_move
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
        decides the value), unless ``every_move`` (within a bound, staying counts)."""
        space, allowed = self.space, self.allowed
        es, targets = space.edge_start, space.targets
        choices = list(range(space.choice_start[i], space.choice_start[i + 1]))
        if allowed is not None:
            choices = [
                c for c in choices if all(targets[e] in allowed for e in range(es[c], es[c + 1]))
            ]
        if self.every_move:
            return choices
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
        """The move's reward; a state without an enabled command earns none on the move
        PRISM adds there (as Storm counts it: ``R=? [C<=k]`` is 0 from such a state)."""
        if action == DEADLOCK:
            return _ZERO
        if self.structure == STEPS:
            return _ONE
        return self.space.program.move_rewards(self.structure, state, action)


class LongRunModel(QuestionModel):
    """The model itself, with no terminal state and every move, each earning
    ``earned(state, move)``: for its long run (``ep.stationary``), played best in an
    MDP (the mover minimises with ``minimise``)."""

    def __init__(
        self,
        space: StateSpace,
        earned: Callable[[tuple[Any, ...], str], Any],
        *,
        minimise: bool = False,
    ) -> None:
        super().__init__(space, {}, minimise=minimise, every_move=True)
        self.earned = earned

    def reward(self, state: tuple[Any, ...], action: str) -> Any:
        return self.earned(state, action)


def question_graph(model: QuestionModel, starts: Sequence[int]) -> StateGraph:
    """The state graph of ``model`` from the states at positions ``starts``, read off the
    space's columns: the graph ``explore(model, starts=...)`` builds, state for state,
    choice for choice and edge for edge, without asking the model for each state's
    moves again. The breadth-first search goes a level at a time in numpy: each level's
    new states are its edges' targets not seen before, in the order first met, which
    is the order a queue would take them in.

    >>> from exactprob.prism import loads
    >>> from exactprob import explore
    >>> prism = loads("dtmc module m x : [0..2] init 0; [] x=0 -> 0.3:(x'=1) + 0.7:(x'=2);"
    ...               " [] x>0 -> true; endmodule")
    >>> model = QuestionModel(prism.space, {1: mpq(1), 2: mpq(0)})
    >>> G = question_graph(model, [0])
    >>> (list(G.states), G.outcomes, list(G.targets))
    ([(0,), (1,), (2,)], [None, mpq(1,1), mpq(0,1)], [1, 2])
    >>> H = explore(model, starts=[(0,)])
    >>> (list(H.states), H.outcomes, list(H.targets)) == (list(G.states), G.outcomes, list(G.targets))
    True
    """
    space = model.space
    columns = space.columns()
    n = len(space)
    ending = np.zeros(n, dtype=bool)
    ending[list(model.terminal)] = True
    played = _played(model, columns, ending)
    played_count = np.bincount(columns.owner[played], minlength=n)
    first_played = np.concatenate(([0], np.cumsum(played_count)))
    edge_start, targets = columns.edge_start, columns.targets

    def edges_of(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The choices played in ``states`` and their edges, in order."""
        choices = played[ranges(first_played[states], played_count[states])]
        return choices, ranges(edge_start[choices], edge_start[choices + 1] - edge_start[choices])

    new_id = np.full(n, -1, dtype=np.int64)
    order = np.fromiter(dict.fromkeys(starts), dtype=np.int64)
    new_id[order] = np.arange(len(order))
    levels, level = [order], order
    count = len(order)
    while len(level):
        reached = targets[edges_of(level)[1]]
        unseen = reached[new_id[reached] < 0]
        found, first = np.unique(unseen, return_index=True)
        level = found[np.argsort(first)]
        new_id[level] = np.arange(count, count + len(level))
        count += len(level)
        levels.append(level)
    order = np.concatenate(levels)
    choices, edges = edges_of(order)
    counts = played_count[order]
    G = StateGraph()
    G.choice_start = array("q", np.concatenate(([0], np.cumsum(counts))).tobytes())
    ends = np.cumsum(edge_start[choices + 1] - edge_start[choices])
    G.edge_start = array("q", np.concatenate(([0], ends)).tobytes())
    G.targets = array("i", new_id[targets[edges]].astype(np.int32).tobytes())
    used = columns.prob_ids[edges]
    distinct, first_use = np.unique(used, return_index=True)
    kept = distinct[np.argsort(first_use)]  # the probabilities in the order first met
    renumbered = np.zeros(len(space.probabilities), dtype=np.int32)
    renumbered[kept] = np.arange(len(kept))
    G.prob_ids = array("i", renumbered[used].tobytes())
    G.probabilities = [space.probabilities[p] for p in kept.tolist()]
    G.symbolic = any(is_symbolic(p) for p in G.probabilities)
    positions = order.tolist()
    G.states = [space.states[s] for s in positions]
    G.index = {state: i for i, state in enumerate(G.states)}
    terminal = model.terminal
    G.outcomes = [None if s not in terminal else exact(terminal[s]) for s in positions]
    G.players = bytearray(~ending[order]) if model.minimise else bytearray(len(order))
    G.actions = _actions(space, played, first_played, positions)
    if isinstance(model, RewardQuestionModel):
        names, first_choice = space.move_names, space.choice_start
        G.rewards = [
            exact(model.reward(space.states[s], names[s][c - first_choice[s]]))
            for s, c in zip(columns.owner[choices].tolist(), choices.tolist(), strict=True)
        ]
    return G


def _played(model: QuestionModel, columns: Columns, ending: np.ndarray) -> np.ndarray:
    """The choices :meth:`QuestionModel.played` plays, for every state that is not
    terminal at once (in the space's order)."""
    owner, edge_start, targets = columns.owner, columns.edge_start, columns.targets
    n_choices = len(owner)
    ok = ~ending[owner]
    if model.allowed is not None:
        inside = np.zeros(len(ending), dtype=bool)
        inside[list(model.allowed)] = True
        outside_edges = np.flatnonzero(~inside[targets])
        ok &= np.bincount(columns.edge_choice[outside_edges], minlength=n_choices) == 0
    sizes = np.diff(edge_start)
    stays = (sizes == 1) & (targets[edge_start[:-1]] == owner)
    moving = ok & ~stays if not model.every_move else ok
    some_move = np.bincount(owner[moving], minlength=len(ending)) > 0
    return np.flatnonzero(moving | (ok & ~some_move[owner]))


def _actions(
    space: StateSpace, played: np.ndarray, first_played: np.ndarray, positions: list[int]
) -> list[tuple[str, ...]]:
    """Each state's actions: its move names, or those of the moves played where some
    are not."""
    counts = np.diff(first_played).tolist()
    every = np.diff(np.frombuffer(space.choice_start, dtype=np.int64)).tolist()
    names, starts = space.move_names, first_played.tolist()
    played_list = played.tolist()
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    actions = []
    for s in positions:
        if counts[s] == every[s]:
            actions.append(names[s])
            continue
        first = space.choice_start[s]
        chosen = tuple(names[s][c - first] for c in played_list[starts[s] : starts[s + 1]])
        actions.append(shared.setdefault(chosen, chosen))
    return actions
