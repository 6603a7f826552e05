r"""A cyclic component of a state graph: its elimination order, a terminating start
policy, and its exact linear systems under a policy.

>>> from exactprob import Dist
>>> from exactprob.engine.graph import explore
>>> class Ring:  # 0 -> 1 -> 2 -> 0, each step ends the game with probability 1/2
...     initial = 0
...     def outcome(self, s): return 1 if s == "end" else None
...     def actions(self, s): return ("go",)
...     def transition(self, s, a): return Dist({(s + 1) % 3: "1/2", "end": "1/2"})
>>> G = explore(Ring())
>>> order, acyclic = elimination_order(G.successors, [0, 1, 3])
>>> [G.states[s] for s in order], acyclic
([2, 1, 0], 2)
>>> graph_elimination_order(G, [0, 1, 3])  # the same cut, from a compiled search
([3, 1, 0], 2)
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

import numpy as np

from ...errors import NonTerminationError
from ...util.arrays import ranges
from ...util.numbers import Exact, mpq
from ..graph.state_graph import StateGraph
from .component_table import SMALL_GRAPH
from .linear import solve_linear

__all__ = [
    "LONG_RUN_HINT",
    "Cycle",
    "component_rows",
    "elimination_order",
    "graph_elimination_order",
    "local_elimination_order",
    "subtree_ends",
    "terminating_choices",
]

#: What a message about a chain that never ends points to.
LONG_RUN_HINT = "where a chain that never ends settles in the long run is ep.stationary(model)"

H = TypeVar("H", bound=Hashable)
_ZERO = mpq(0)
_ONE = mpq(1)


class Cycle:
    """A cyclic component: its states in elimination order (``order``: the states and
    the size of the acyclic part; else :func:`elimination_order`'s), the acyclic part
    first (``component[:acyclic]``) and the feedback states last (``feedback``), their
    positions, and the linear systems under a policy (``policy[s]`` an action index)."""

    __slots__ = ("acyclic", "component", "position", "system")

    def __init__(
        self, system: Any, component: list[int], order: tuple[list[int], int] | None = None
    ) -> None:
        self.system = system
        self.component, self.acyclic = order or graph_elimination_order(system.graph, component)
        self.position = {s: i for i, s in enumerate(self.component)}

    @property
    def feedback(self) -> list[int]:
        """The feedback states: every cycle of the component passes through one."""
        return self.component[self.acyclic :]

    def terminating_start(self, preferred: Mapping[int, int]) -> dict[int, int]:
        """A policy under which every state of the component leaves it with probability
        one, taking the ``preferred`` action (default: the first) wherever that keeps it
        terminating (:func:`terminating_choices`), so that policy iteration may start
        from it."""
        component, system = self.component, self.system
        cs, unit = system.choice_start, system.unit
        if all(cs[s + 1] - cs[s] == 1 for s in component):
            return self._only_policy()
        policy = terminating_choices(
            component,
            self.position,
            lambda s: cs[s + 1] - cs[s],
            # a reward's edge (to the unit) leaves nothing
            lambda s, k: (t for t, _ in system.edges(cs[s] + k) if t != unit),
            preferred,
        )
        if len(policy) < len(component):
            self._never_leaves([s for s in component if s not in policy])
        return policy

    def _only_policy(self) -> dict[int, int]:
        """The policy of a component with one action per state: it terminates when any
        move leaves the component, because every state can reach that move."""
        system = self.system
        cs = system.choice_start
        position, unit = self.position, system.unit
        if not any(
            t not in position and t != unit for s in self.component for t, _ in system.edges(cs[s])
        ):
            self._never_leaves(self.component, chain=True)
        return dict.fromkeys(self.component, 0)

    def _never_leaves(self, states: list[int], *, chain: bool = False) -> NoReturn:
        shown = [self.system.graph.states[s] for s in states[:3]]
        raise NonTerminationError(
            f"states such as {', '.join(map(repr, shown))} cannot leave their cycle "
            f"under any policy, so they never reach a terminal state"
            + (f"; {LONG_RUN_HINT}" if chain else "")
        )

    def system_rows(
        self, policy: Mapping[int, int]
    ) -> tuple[list[dict[int, Exact]], list[list[tuple[int, Exact]]]]:
        """The rows of :math:`I - P_{SS}` and each state's moves out of the component,
        under ``policy`` (:func:`component_rows`)."""
        cs, edges = self.system.choice_start, self.system.edges
        return component_rows(
            self.component, self.position, lambda s: edges(cs[s] + policy[s]), _ONE, _ZERO
        )

    def values(
        self, policy: Mapping[int, int], values: Sequence[Exact], progress: bool = False
    ) -> list[Exact]:
        """Solve ``(I - P_SS) x = P_SO v_O`` for the component under ``policy``
        (``progress``: a bar on a long solve)."""
        rows, exits = self.system_rows(policy)
        dot = self.system.field.dot
        rhs = [[dot([p for _, p in out], [values[t] for t, _ in out])] for out in exits]
        return [x[0] for x in self.solve_rows(rows, rhs, progress)]

    def solve_rows(
        self, rows: list[dict[int, Exact]], rhs: list[list[Exact]], progress: bool = False
    ) -> list[list[Exact]]:
        """:func:`~exactprob.engine._internal.linear.solve_linear` for rows of this component's states,
        with a singular system reported by those states."""
        try:
            return solve_linear(self.system.field, rows, rhs, progress=progress)
        except NonTerminationError:
            states = self.system.graph.states
            shown = ", ".join(repr(states[s]) for s in self.component[:3])
            more = ", ..." if len(self.component) > 3 else ""
            raise NonTerminationError(
                f"under the current policy the states {shown}{more} can cycle forever without "
                "reaching a terminal state; every policy must terminate with probability 1"
            ) from None


def terminating_choices(
    component: Sequence[int],
    inside: Container[int],
    choices: Callable[[int], int],
    targets: Callable[[int, int], Iterable[int]],
    preferred: Mapping[int, int],
) -> dict[int, int]:
    """A choice for each state of ``component`` that can leave it, such that from every
    one of them play leaves the component with probability one; the ``preferred`` choice
    (default: the first) wherever that keeps play leaving. States missing from the
    answer cannot leave, whatever is chosen.

    Backward search (an attractor): a state joins when a choice (``k < choices(s)``) has
    a target (``targets(s, k)``) outside the component (not in ``inside``) or among the
    states that have joined; by its preferred choice whenever that can, and only when no
    state can join that way, every state that can join by some choice does, by the first
    such choice. Along the chosen choices every state has a positive-probability path
    out. Each edge is looked at once.

    >>> moves = {0: [[1], [9]], 1: [[0], [1]]}  # state 0: to 1, or out; state 1: to 0, or stay
    >>> terminating_choices([0, 1], {0, 1}, lambda s: 2, lambda s, k: moves[s][k], {})
    {0: 1, 1: 0}
    >>> terminating_choices([1], {1}, lambda s: 1, lambda s, k: [1], {})  # cannot leave
    {}
    """
    entering: dict[int, list[tuple[int, int]]] = {s: [] for s in component}
    progressing: list[tuple[int, int]] = []
    for s in component:
        for k in range(choices(s)):
            for t in targets(s, k):
                if t in inside:
                    entering[t].append((s, k))
                else:
                    progressing.append((s, k))
    policy: dict[int, int] = {}
    by_preferred: list[int] = []
    by_first: dict[int, int] = {}

    def progress(s: int, k: int) -> None:
        if s in policy:
            return
        if k == preferred.get(s, 0):
            by_preferred.append(s)
        elif k < by_first.get(s, k + 1):
            by_first[s] = k

    def join(s: int, k: int) -> None:
        policy[s] = k
        for u, a in entering[s]:
            progress(u, a)

    for s, k in progressing:
        progress(s, k)
    while len(policy) < len(component):
        while by_preferred:
            s = by_preferred.pop()
            if s not in policy:
                join(s, preferred.get(s, 0))
        waiting = [(s, k) for s, k in by_first.items() if s not in policy]
        by_first.clear()
        if not waiting:
            break
        for s, k in waiting:
            join(s, k)
    return policy


def component_rows(
    order: Sequence[H],
    position: Mapping[H, int],
    moves: Callable[[H], Iterable[tuple[H, Exact]]],
    one: Exact,
    zero: Exact,
) -> tuple[list[dict[int, Exact]], list[list[tuple[H, Exact]]]]:
    """The rows of :math:`I - P_{CC}` (``{column: entry}``) for the states of a component
    in ``order`` (``position[s]``: the row and column of ``s``), with ``moves(s)`` the
    ``(target, probability)`` pairs of the action taken in ``s``; and each state's moves
    out of the component.

    >>> component_rows([0, 1], {0: 0, 1: 1}, lambda s: [(1 - s, 0.5), ("end", 0.5)], 1, 0)
    ([{0: 1, 1: -0.5}, {1: 1, 0: -0.5}], [[('end', 0.5)], [('end', 0.5)]])
    """
    rows: list[dict[int, Exact]] = []
    exits: list[list[tuple[H, Exact]]] = []
    for i, s in enumerate(order):
        row: dict[int, Exact] = {i: one}
        out: list[tuple[H, Exact]] = []
        for t, p in moves(s):
            j = position.get(t)
            if j is None:
                out.append((t, p))
            else:
                row[j] = row.get(j, zero) - p
        rows.append(row)
        exits.append(out)
    return rows, exits


def elimination_order(
    successors: Callable[[H], Iterable[H]], component: list[H]
) -> tuple[list[H], int]:
    r"""The states of a cyclic component ordered for elimination, and the size of the
    *acyclic part*: a *feedback set* last, and before it the other states, each after
    every one of them it can move to (``successors(s)``: the states ``s`` can move to,
    inside the component or not).

    A depth-first search inside the component (from the state with the most moves into
    it: in Pig, a turn start, where every roll of 1 lands) meets every cycle at a back
    edge; the back edges' targets form the feedback set :math:`F`, and removing them
    leaves an acyclic graph whose post-order is the order wanted. Eliminating in that
    order, every row is reduced to an affine form in the values of :math:`F` before it
    is used: a state costs about :math:`|F|` exact operations on long numbers instead of
    one per state the fill-in of an arbitrary order would bring, and the solve is a
    dense :math:`|F| \times |F|` system plus back substitution. The same order lets
    probability be pushed forward through the acyclic part (:mod:`exactprob.engine._internal.reach`).
    The order only affects speed; any order gives the same exact solution.
    (Example in the module docstring.)
    """
    position = {s: i for i, s in enumerate(component)}
    inner = [[position[t] for t in successors(s) if t in position] for s in component]
    order, acyclic = local_elimination_order(inner)
    return [component[i] for i in order], acyclic


def graph_elimination_order(G: StateGraph, component: list[int]) -> tuple[list[int], int]:
    r""":func:`elimination_order` of a strongly connected component of ``G`` (its ids,
    taken in ascending order), by a depth-first search in compiled code.

    scipy's :func:`~scipy.sparse.csgraph.depth_first_order` gives the preorder
    position :math:`p(v)` of each state and its parent in the search tree (from the
    state with the most moves into it). A subtree is a run of positions:
    :math:`v`'s ends at the first position after :math:`p(v)` whose state's parent lies
    before :math:`p(v)` (:func:`subtree_ends`). A move :math:`u \to v` is a back edge
    exactly when :math:`v` is an ancestor of :math:`u` (or :math:`u` itself), i.e.
    :math:`p(v) \le p(u) < \mathrm{end}(v)`; their targets are :math:`F`, and sorting by
    (end, then later position first) is the post-order. The result is checked move by
    move (each state of the acyclic part after every one it moves to); should the
    search not be a depth-first one, or the component have at most
    :data:`~.component_table.SMALL_GRAPH` states (no scipy to load for it),
    :func:`local_elimination_order` is used instead. (Example in the module docstring.)
    """
    ids = np.sort(np.asarray(component, dtype=np.int64))
    n = len(ids)
    choice_start = np.frombuffer(G.choice_start, dtype=np.int64)
    edge_start = np.frombuffer(G.edge_start, dtype=np.int64)
    first, last = edge_start[choice_start[ids]], edge_start[choice_start[ids + 1]]
    targets = np.frombuffer(G.targets, dtype=np.int32)[ranges(first, last - first)]
    local = np.minimum(np.searchsorted(ids, targets), n - 1)
    inside = ids[local] == targets
    source = np.repeat(np.arange(n), last - first)[inside]
    target = local[inside]
    if n > SMALL_GRAPH:
        ordered = _depth_first_elimination_order(n, source, target)
        if ordered is not None:
            order, acyclic = ordered
            return ids[order].tolist(), acyclic
    cuts = np.searchsorted(source, np.arange(1, n)).tolist()
    listed = target.tolist()
    inner = [listed[a:b] for a, b in zip([0, *cuts], [*cuts, len(listed)])]
    fallback, acyclic = local_elimination_order(inner)
    return ids[fallback].tolist(), acyclic


def _depth_first_elimination_order(
    n: int, source: np.ndarray, target: np.ndarray
) -> tuple[np.ndarray, int] | None:
    """:func:`graph_elimination_order`'s search in compiled code on the moves
    ``source -> target`` among ``n`` local states: the order and the size of its acyclic
    part, or ``None`` when the search's order fails the check."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import depth_first_order

    root = int(np.argmax(np.bincount(target, minlength=n)))
    moves = csr_array((np.ones(len(source)), (source, target)), shape=(n, n))
    preorder, parent = depth_first_order(moves, root, directed=True, return_predecessors=True)
    if len(preorder) == n:
        position = np.empty(n, dtype=np.int64)
        position[preorder] = np.arange(n)
        parents = parent[preorder]
        parent_position = np.where(parents >= 0, position[np.maximum(parents, 0)], -1)
        end = subtree_ends(parent_position)[position]
        p_source, p_target = position[source], position[target]
        back = (p_target <= p_source) & (p_source < end[target])
        feedback = np.zeros(n, dtype=bool)
        feedback[target[back]] = True
        post = np.lexsort((-position, end))
        order = np.concatenate((post[~feedback[post]], post[feedback[post]]))
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        acyclic = n - int(feedback.sum())
        check = ~feedback[target]
        if np.all(rank[target[check]] < rank[source[check]]):
            return order, acyclic
    return None


def subtree_ends(parent_position: np.ndarray) -> np.ndarray:
    """For a tree in preorder (``parent_position[q]``: the position of the parent of
    the node at position ``q``, ``-1`` for the root), the position just after each
    node's subtree: the first ``q > p`` with ``parent_position[q] < p``, else the
    number of nodes. Binary lifting on range minima, :math:`O(n \\log n)` in numpy.

    >>> subtree_ends(np.array([-1, 0, 1, 0, 3])).tolist()  # 0 -> (1 -> 2), (3 -> 4)
    [5, 3, 3, 5, 5]
    """
    n = len(parent_position)
    p = np.arange(n)
    minima = [parent_position]  # minima[j][i]: the least of positions i .. i + 2^j - 1
    while 2 ** len(minima) <= n:
        m, half = minima[-1], 2 ** (len(minima) - 1)
        minima.append(np.minimum(m[: len(m) - half], m[half:]))
    end = p + 1
    for j in range(len(minima) - 1, -1, -1):
        m = minima[j]
        can = end < len(m)  # a block of 2^j positions from ``end`` lies inside
        step = can.copy()
        step[can] = m[end[can]] >= p[can]
        end[step] += 2**j
    return end


def local_elimination_order(inner: Sequence[Sequence[int]]) -> tuple[list[int], int]:
    """:func:`elimination_order` of states ``0 .. n-1`` with ``inner[i]`` the states
    ``i`` can move to, all of them inside the component.

    >>> local_elimination_order([[1], [2], [0]])
    ([2, 1, 0], 2)
    """
    n = len(inner)
    moves_in = [0] * n
    for moves in inner:
        for t in moves:
            moves_in[t] += 1
    root = max(range(n), key=moves_in.__getitem__)
    status = [0] * n  # 0 unseen, 1 on the search path, 2 finished
    post: list[int] = []
    feedback = [False] * n
    for start in [root, *range(n)]:
        if status[start]:
            continue
        status[start] = 1
        path = [(start, iter(inner[start]))]
        while path:
            v, following = path[-1]
            for w in following:
                if status[w] == 0:
                    status[w] = 1
                    path.append((w, iter(inner[w])))
                    break
                if status[w] == 1:
                    feedback[w] = True
            else:
                path.pop()
                status[v] = 2
                post.append(v)
    acyclic = [s for s in post if not feedback[s]]
    return acyclic + [s for s in post if feedback[s]], len(acyclic)
