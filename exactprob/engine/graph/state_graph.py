"""The explored state graph: every reachable state of a model, its actions and its exact
transition probabilities in flat columns (:class:`StateGraph`), which
:func:`~exactprob.engine.graph.exploring.explore` builds one state at a time and
:func:`~exactprob.engine.graph.bulk.explore_arrays` a level at a time.

>>> G = StateGraph()
>>> len(G), G.number_of_transitions()
(0, 0)
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ...errors import ModelError
from ...util.numbers import Exact

__all__ = ["GraphStates", "StateGraph", "id_in", "paused_garbage_collection"]


class StateGraph:
    """Every reachable state of a model, its actions and exact transition probabilities.

    Integer ids ``0 .. n-1`` (``0`` is the initial state) index every column:

    ``states[s]``, ``index[state]``
        the state of an id and back.
    ``outcomes[s]``
        the exact terminal value, or ``None`` while play goes on; in a game of ``seats``
        (when that is not 0), a tuple of one exact payoff per seat.
    ``players[s]``
        0 (maximises the outcome) or 1 (minimises it); in a game of seats, the seat
        that moves, each maximising its own payoff.
    ``actions[s]``
        the actions in the model's order (``()`` when terminal); equal tuples are shared.
    ``choice_start[s] .. choice_start[s + 1] - 1``
        the choices of ``s``: choice ``choice_start[s] + k`` is action ``actions[s][k]``.
    ``edge_start[c] .. edge_start[c + 1] - 1``
        the edges of choice ``c``: edge ``e`` moves to ``targets[e]`` with probability
        ``probabilities[prob_ids[e]]``; a choice's probabilities sum to exactly one.
    ``rewards[c]``
        the exact reward of choice ``c`` (the model's ``reward(state, action)``; in a
        game of seats a tuple of one per seat); the column is ``None`` for a model
        without rewards.

    The edges of a state are contiguous too: ``edge_start[choice_start[s]]`` to
    ``edge_start[choice_start[s + 1]]``.
    """

    __slots__ = (
        "actions",
        "choice_start",
        "edge_start",
        "index",
        "outcomes",
        "players",
        "prob_ids",
        "probabilities",
        "rewards",
        "seats",
        "states",
        "symbolic",
        "targets",
    )

    def __init__(self) -> None:
        self.states: Sequence[Hashable] = []  # a list, or a view for a bulk exploration
        self.index: Mapping[Hashable, int] = {}
        self.outcomes: list[Exact | None] = []
        self.players = bytearray()
        self.actions: list[tuple[Any, ...]] = []
        self.choice_start = array("q", [0])
        self.edge_start = array("q", [0])
        self.targets = array("i")
        self.prob_ids = array("i")
        self.probabilities: list[Exact] = []
        self.rewards: list[Exact] | None = None
        self.symbolic = False
        self.seats = 0  # a game of two zero-sum players; n >= 2 for one of n seats

    @property
    def initial(self) -> Hashable:
        """The initial state (id 0)."""
        return self.states[0]

    def __len__(self) -> int:
        return len(self.states)

    def number_of_transitions(self) -> int:
        """The number of (state, action, successor) triples with positive probability."""
        return len(self.targets)

    def id_of(self, state: Hashable) -> int:
        """The id of a reachable ``state`` (a :class:`ModelError` for any other)."""
        return id_in(self.index, state)

    def choice_edges(self, c: int) -> Iterator[tuple[int, Exact]]:
        """``(successor id, probability)`` of every edge of choice ``c``."""
        probs, targets, ids = self.probabilities, self.targets, self.prob_ids
        for e in range(self.edge_start[c], self.edge_start[c + 1]):
            yield targets[e], probs[ids[e]]

    def successors(self, s: int) -> array[int]:
        """The successor ids of state ``s`` over all its actions (repeats possible)."""
        starts = self.edge_start
        cs = self.choice_start
        return self.targets[starts[cs[s]] : starts[cs[s + 1]]]

    def has_self_loop(self, s: int) -> bool:
        """Whether some action of ``s`` can return to ``s``."""
        return s in self.successors(s)

    def to_networkx(self) -> Any:
        """The same graph as a :class:`networkx.DiGraph` keyed by states.

        ``G.graph["initial"]`` and ``G.graph["symbolic"]``; node attributes ``outcome``,
        ``player`` and ``actions``, and for a model with rewards ``rewards``,
        ``{action: reward}``; edge attribute ``probs``, ``{action: probability}`` for the
        move ``u -> v``.
        """
        import networkx as nx

        G = nx.DiGraph(initial=self.initial, symbolic=self.symbolic)
        states = list(self.states)  # decoded once, for a bulk exploration's view
        rewards, cs = self.rewards, self.choice_start
        for s, state in enumerate(states):
            G.add_node(
                state, outcome=self.outcomes[s], player=self.players[s], actions=self.actions[s]
            )
            if rewards is not None:
                G.nodes[state]["rewards"] = dict(zip(self.actions[s], rewards[cs[s] : cs[s + 1]]))
        for s, state in enumerate(states):
            adjacency = G._adj[state]
            for k, action in enumerate(self.actions[s]):
                for t, p in self.choice_edges(self.choice_start[s] + k):
                    edge = adjacency.get(states[t])
                    if edge is None:
                        G.add_edge(state, states[t], probs={action: p})
                    else:
                        edge["probs"][action] = p
        return G

    def __repr__(self) -> str:
        return f"StateGraph(states={len(self):,}, transitions={self.number_of_transitions():,})"


class GraphStates:
    """``initial`` and ``states`` of a result that keeps its explored ``graph``."""

    __slots__ = ()
    graph: StateGraph

    @property
    def initial(self) -> Hashable:
        """The initial state (the state ``None`` stands for)."""
        return self.graph.initial

    @property
    def states(self) -> Sequence[Hashable]:
        """Every reachable state (the initial state first)."""
        return self.graph.states

    def _id(self, state: Any) -> int:
        """The id of ``state`` in the graph; ``None`` is the initial state (id 0)."""
        return 0 if state is None else self.graph.id_of(state)


def id_in(index: Mapping[Hashable, int], state: Hashable) -> int:
    """The id of ``state`` in ``index`` (a :class:`ModelError` if it was not reached)."""
    try:
        return index[state]
    except (KeyError, TypeError):
        raise ModelError(f"{state!r} is not a reachable state of this model") from None


@contextmanager
def paused_garbage_collection() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the duration of the block.

    Exploring and solving allocate millions of small objects that all stay alive until
    the end; the collector would scan them again and again (about 45% of the time of
    exploring 100k states) and could free none of them.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
