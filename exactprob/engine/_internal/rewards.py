r"""Rewards as edges: the graph the exact solver values for a model with rewards, and the
condition under which those values are finite.

With a reward :math:`r(s, a)` earned on taking action :math:`a` in state :math:`s`, the
value of a state is the expected total reward until play ends plus the terminal outcome:

.. math::

    V(s) = \max_a \Bigl( r(s, a) + \sum_t P(t \mid s, a)\, V(t) \Bigr)
    \quad\text{(player 0; player 1 takes the minimum).}

*A reward is an edge to a state worth one* (homogeneous coordinates): add one terminal
state :math:`u` with outcome 1 and give every choice with :math:`r(s, a) \ne 0` an edge to
:math:`u` of weight :math:`r(s, a)`. Then :math:`r(s, a) + \sum_t P(t \mid s, a) V(t) =
\sum_{t} w(t \mid s, a) V(t)` over the new edges, the equation of a model without rewards.
Every algorithm of the solver that is linear in the edge weights (the level sweep, the
elimination of a cycle, forward reach, the float guide and its certificate, whose error
bounds take each term's magnitude) values :func:`value_graph` unchanged. What reads the
edges as probabilities (whether a policy terminates, absorption, expected steps) reads
the model's own graph, or skips :math:`u` (``solve``'s ``unit``).

*Finite values.* The solver considers only policies under which play ends with
probability one. A reward in an *end component* (states where play can stay for ever,
:func:`end_components`) that favours a player moving there (a gain for the maximiser, a
cost for the minimiser) could be collected again and again before play ends, so the
best total may be unbounded: such models are refused with the state named
(:func:`check_cycle_rewards`). Otherwise a policy that never ends play earns nothing
better than zero per round in the end component it stays in: policies that end play are
never beaten by ones that do not (Bertsekas and Tsitsiklis, "An analysis of stochastic
shortest path problems", 1991), and policy iteration from a terminating policy stays
terminating. A stopping game (every policy ends play) has no end component and takes
rewards of any sign.

>>> from exactprob import Dist
>>> from exactprob.engine.graph import explore
>>> class Rolls:  # roll a die until a six, one point per roll
...     initial = "rolling"
...     def outcome(self, s): return 0 if s == "six" else None
...     def actions(self, s): return ("roll",)
...     def transition(self, s, a): return Dist({"six": "1/6", "rolling": "5/6"})
...     def reward(self, s, a): return 1
>>> V = value_graph(explore(Rolls()))
>>> [(V.states[t], V.probabilities[V.prob_ids[e]]) for e, t in enumerate(V.targets)]
[('six', mpq(1,6)), ('rolling', mpq(5,6)), ('the unit state', mpq(1,1))]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any, overload

import numpy as np

from ...errors import ModelError
from ...util.numbers import mpq
from ..graph.state_graph import StateGraph
from .order import edge_ends

__all__ = ["UNIT", "check_cycle_rewards", "end_components", "value_graph"]

#: The name of the state worth one that rewards lead to (never a model's state).
UNIT = "the unit state"
_MPQ = type(mpq(0))


def value_graph(G: StateGraph) -> StateGraph:
    """``G`` with its rewards as edges to one more terminal state, id ``len(G)``, whose
    outcome is 1 (see the module's text); ``G`` itself when no reward is other than 0."""
    rewards = G.rewards
    if rewards is None or not any(rewards):
        return G
    n, n_choices = len(G), len(rewards)
    edge_start = np.frombuffer(G.edge_start, dtype=np.int64)
    rewarded = np.fromiter((r != 0 for r in rewards), dtype=bool, count=n_choices)
    extra_before = np.concatenate(([0], np.cumsum(rewarded)))  # unit edges before choice c
    new_start = edge_start + extra_before
    choice_of_edge = np.repeat(np.arange(n_choices), np.diff(edge_start))
    old_position = np.arange(len(G.targets)) + extra_before[choice_of_edge]
    unit_position = new_start[1:][rewarded] - 1
    targets = np.empty(new_start[-1], dtype=np.int32)
    targets[old_position] = np.frombuffer(G.targets, dtype=np.int32)
    targets[unit_position] = n
    weights = list(G.probabilities)
    weight_id = {w: i for i, w in enumerate(weights)}
    ids = np.empty(new_start[-1], dtype=np.int32)
    ids[old_position] = np.frombuffer(G.prob_ids, dtype=np.int32)
    for position, c in zip(unit_position.tolist(), np.flatnonzero(rewarded).tolist()):
        ids[position] = weight_id.setdefault(rewards[c], len(weight_id))
    weights.extend(list(weight_id)[len(weights) :])
    V = StateGraph()
    V.states = _WithUnit(G.states)
    V.index = G.index
    V.outcomes = [*G.outcomes, mpq(1)]
    V.players = G.players + b"\0"
    V.actions = [*G.actions, ()]
    V.choice_start = G.choice_start[:]
    V.choice_start.append(V.choice_start[-1])
    V.edge_start = type(G.edge_start)("q", new_start.tobytes())
    V.targets = type(G.targets)("i", targets.tobytes())
    V.prob_ids = type(G.prob_ids)("i", ids.tobytes())
    V.probabilities = weights
    V.symbolic = G.symbolic or any(type(r) is not _MPQ for r in rewards)
    return V


class _WithUnit(Sequence[Hashable]):
    """A graph's states followed by :data:`UNIT`."""

    __slots__ = ("states",)

    def __init__(self, states: Sequence[Hashable]) -> None:
        self.states = states

    def __len__(self) -> int:
        return len(self.states) + 1

    @overload
    def __getitem__(self, i: int) -> Hashable: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Hashable]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return list(self)[i]
        return UNIT if i == len(self.states) or i == -1 else self.states[i]

    def __iter__(self) -> Iterator[Hashable]:
        yield from self.states
        yield UNIT


def end_components(G: StateGraph) -> tuple[np.ndarray, np.ndarray]:
    """The choices that lie in an end component, and each state's strongly connected
    component label among them.

    An *end component* is a set of states with a choice in each whose moves all stay in
    the set, strongly connected under those choices: play can stay in it forever. The
    classic decomposition (de Alfaro, 1997; Baier and Katoen, "Principles of Model
    Checking", 2008, Algorithm 47): drop every choice with a move out of its state's
    strongly connected component, and repeat on what is left until nothing drops.

    >>> from exactprob import Dist
    >>> from exactprob.engine.graph import explore
    >>> class Wait:  # "wait" stays in 0 for ever; "go" ends
    ...     initial = 0
    ...     def outcome(self, s): return 0 if s == 1 else None
    ...     def actions(self, s): return ("wait", "go")
    ...     def transition(self, s, a): return Dist({0 if a == "wait" else 1: 1})
    >>> inside, _ = end_components(explore(Wait()))
    >>> inside.tolist()
    [True, False]
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(G)
    edge_owner, targets, _ = edge_ends(G)
    edge_start = np.frombuffer(G.edge_start, dtype=np.int64)
    n_edges = np.diff(edge_start)
    edge_choice = np.repeat(np.arange(len(n_edges)), n_edges)
    inside = np.ones(len(n_edges), dtype=bool)
    while True:
        kept = inside[edge_choice]
        moves = csr_matrix(
            (np.ones(int(kept.sum())), (edge_owner[kept], targets[kept])), shape=(n, n)
        )
        _, label = connected_components(moves, directed=True, connection="strong")
        out = label[targets] != label[edge_owner]
        leaves = np.bincount(edge_choice[out], minlength=len(n_edges)) > 0
        still = inside & ~leaves
        if np.array_equal(still, inside):
            return inside, label
        inside = still


def check_cycle_rewards(G: StateGraph) -> None:
    """Refuse a reward that favours a player inside an end component where that player
    moves (:func:`end_components`): a gain for player 0, a cost for player 1, that play
    can collect again and again before it ends (see the module's text). A model whose
    every policy ends play (a stopping game) has no end component, and any rewards.

    >>> from exactprob import Dist
    >>> from exactprob.engine.graph import explore
    >>> class Loop:  # "again" earns a point and comes back: unbounded for the maximiser
    ...     initial = 0
    ...     def outcome(self, s): return 0 if s == 1 else None
    ...     def actions(self, s): return ("again", "stop")
    ...     def transition(self, s, a): return Dist({0 if a == "again" else 1: 1})
    ...     def reward(self, s, a): return 1 if a == "again" else 0
    >>> check_cycle_rewards(explore(Loop()))
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: action 'again' in state 0 earns 1 and play can repeat it for ever, where player 0 moves: the expected total may be unbounded; a reward that play can collect again and again before it ends must not favour a player who moves there (a gain for player 0, a cost for player 1)
    """
    rewards = G.rewards
    if rewards is None or not _may_favour(G, rewards):
        return
    inside, label = end_components(G)
    if not inside.any():
        return
    choice_start = np.frombuffer(G.choice_start, dtype=np.int64)
    owner = np.repeat(np.arange(len(G)), np.diff(choice_start))
    players = np.frombuffer(G.players, dtype=np.uint8).astype(np.int64)
    # who moves in each end component: bit 1 for player 0, bit 2 for player 1
    movers = np.zeros(label.max() + 1, dtype=np.int64)
    np.bitwise_or.at(movers, label[owner[inside]], 1 << players[owner[inside]])
    for c in np.flatnonzero(inside).tolist():
        r, s = rewards[c], int(owner[c])
        if type(r) is not _MPQ:  # symbolic: the solver refuses symbolic values with choices
            continue
        who = int(movers[label[s]])
        favoured = 0 if who & 1 and r > 0 else 1 if who & 2 and r < 0 else None
        if favoured is not None:
            state, action = G.states[s], G.actions[s][c - choice_start[s]]
            if _one_action_each(G, label, owner, inside, int(label[s])):
                raise ModelError(
                    f"state {state!r} earns {r} on a cycle that play may never leave: the "
                    "expected total may be unbounded; the long run of a chain that never ends "
                    "(its average reward per move) is ep.stationary(model)"
                )
            raise ModelError(
                f"action {action!r} in state {state!r} earns {r} and play can repeat it for "
                f"ever, where player {favoured} moves: the expected total may be unbounded; a "
                "reward that play can collect again and again before it ends must not favour "
                "a player who moves there (a gain for player 0, a cost for player 1)"
            )


def _one_action_each(
    G: StateGraph, label: np.ndarray, owner: np.ndarray, inside: np.ndarray, component: int
) -> bool:
    """Whether every state of end component ``component`` offers one action: a chain
    there, which play never leaves."""
    members = {s for s in owner[inside].tolist() if label[s] == component}
    return all(len(G.actions[s]) == 1 for s in members)


def _may_favour(G: StateGraph, rewards: list[Any]) -> bool:
    """Whether some reward could favour some mover: a gain where player 0 moves
    somewhere, or a cost where player 1 does (a cheap test before the decomposition).
    A symbolic reward counts as either."""
    n_actions = np.diff(np.frombuffer(G.choice_start, dtype=np.int64))
    movers = set(np.frombuffer(G.players, dtype=np.uint8)[n_actions > 0].tolist())
    gains = any(type(r) is not _MPQ or r > 0 for r in rewards)
    costs = any(type(r) is not _MPQ or r < 0 for r in rewards)
    return (gains and 0 in movers) or (costs and 1 in movers)
