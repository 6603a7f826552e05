r"""The solve order of a state graph, from compiled graph search on its flat arrays.

The solver visits the strongly connected components of the graph so that each comes
after every component it can move to (reverse topological order of the condensation),
and inside a cyclic component it wants an *elimination order*: a cut set of states
last, and before it the other states, each after every one of them it can move to.
Both come from :func:`scipy.sparse.csgraph.connected_components` (Pearce's variant of
Tarjan's search, in C), whose labels number the components in the order the search
completes them: every move :math:`u \to v` has :math:`\text{label}(v) \le \text{label}(u)`.
That numbering is not part of scipy's documented contract, so it is checked on every
edge; where the check fails, the pure-Python :func:`tarjan_components` and
:func:`~exactprob.engine._internal.cycle.elimination_order` give orders of the same kind.

>>> from exactprob import Dist
>>> from exactprob.engine.graph import explore
>>> class Loop:  # 0 <-> 1 -> 2 (terminal)
...     initial = 0
...     def outcome(self, s): return 1 if s == 2 else None
...     def actions(self, s): return ("go",)
...     def transition(self, s, a): return Dist({0: "1/2", 2: "1/2"}) if s else Dist({1: 1})
>>> G = explore(Loop())
>>> list(strong_components(G))
[[2], [0, 1]]
>>> cuts = CutOrders(G, *component_order(G), cut=np.array([True, False, False]))
>>> cuts.order(1, most=5)  # component 1: state 1 first, then the cut state 0
([1, 0], 1)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise

import numpy as np

from ...util.arrays import ranges
from ..graph.state_graph import StateGraph
from .component_table import SMALL_GRAPH

__all__ = [
    "NARROW",
    "CutOrders",
    "SolveOrder",
    "component_labels",
    "component_levels",
    "component_order",
    "edge_ends",
    "entry_states",
    "longest_path_levels",
    "strong_components",
    "tarjan_components",
]


def strong_components(G: StateGraph) -> Iterator[list[int]]:
    """The strongly connected components of ``G`` as lists of ids (ascending), each
    after every component it can reach: when a component comes up, every state outside
    it that it can move to is already done (:func:`component_order`)."""
    order, ends = component_order(G)
    for b0, b1 in pairwise(ends.tolist()):
        yield order[b0:b1].tolist()


def component_order(G: StateGraph) -> tuple[np.ndarray, np.ndarray]:
    """Every state id, grouped by strongly connected component, each component after
    every component it can reach, as ``(order, ends)``: component ``i`` is
    ``order[ends[i]:ends[i + 1]]``, its ids ascending."""
    sources, targets, first_edge = edge_ends(G)
    labels = _sinks_first(len(G), sources, targets, first_edge)
    if labels is None:
        return _flat(tarjan_components(G))
    order = np.argsort(labels, kind="stable").astype(np.int32)
    ends = np.flatnonzero(np.diff(labels[order])) + 1
    return order, np.concatenate(([0], ends, [len(G)])).astype(np.int64)


class SolveOrder:
    """The components of ``G`` in solve order (:func:`component_order`), iterated as
    ``(component, cut_order)``: a list of ids, and for a cyclic component its
    elimination order cut at its entry states (:class:`CutOrders`) when that cut meets
    every cycle and holds at most ``most`` states, else ``None``. ``entry[s]`` says
    whether ``s`` is an entry state (:func:`entry_states`)."""

    __slots__ = ("cuts", "ends", "entry", "most", "order")

    def __init__(self, G: StateGraph, most: int) -> None:
        self.order, self.ends = component_order(G)
        self.entry = entry_states(G, self.order, self.ends)
        cyclic = len(self.ends) - 1 < len(G)  # fewer components than states
        self.cuts = CutOrders(G, self.order, self.ends, self.entry) if cyclic else None
        self.most = most

    def __iter__(self) -> Iterator[tuple[list[int], tuple[list[int], int] | None]]:
        for i in range(len(self.ends) - 1):
            yield self.component(i)

    def component(self, i: int) -> tuple[list[int], tuple[list[int], int] | None]:
        """Component ``i`` (in solve order) and its cut elimination order, if any."""
        b0, b1 = int(self.ends[i]), int(self.ends[i + 1])
        if b1 - b0 == 1:
            return [int(self.order[b0])], None
        assert self.cuts is not None
        return self.order[b0:b1].tolist(), self.cuts.order(i, self.most)

    def levels(self, sources: np.ndarray, targets: np.ndarray) -> list[np.ndarray]:
        """The components (indices in solve order) by level of the condensation of the
        graph with these edges (:func:`edge_ends`): a component's level is its longest
        path to a sink component, so every component moves only to lower levels, and
        those of one level can be solved in any order, or together
        (:func:`longest_path_levels` on the condensation's edges)."""
        return component_levels(self.order, self.ends, sources, targets)


def component_levels(
    order: np.ndarray, ends: np.ndarray, sources: np.ndarray, targets: np.ndarray
) -> list[np.ndarray]:
    """The components ``(order, ends)`` (:func:`component_order`, indices in that order)
    by level of the condensation of the graph with these edges: a component's level is
    its longest path to a sink component (:func:`longest_path_levels` on the edges
    between components)."""
    component_of = component_labels(order, ends)
    a, b = component_of[sources], component_of[targets]
    apart = a != b
    a, b = a[apart], b[apart]  # the whole columns are let go here
    return longest_path_levels(len(ends) - 1, a, b)[1]


def component_labels(order: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each state's component (:func:`component_order`'s ``order[ends[k]:ends[k + 1]]``
    is component ``k``), as ``int32``: 4 bytes a state, and a move when read per edge.

    >>> component_labels(np.array([2, 0, 1]), np.array([0, 1, 3])).tolist()
    [1, 1, 0]
    """
    sizes = np.diff(ends)
    component_of = np.empty(len(order), dtype=np.int32)
    component_of[order] = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    return component_of


def entry_states(G: StateGraph, order: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether each state lies in a cyclic component and can be entered from outside it
    (an edge from another component leads to it, or it is the initial state): the
    states of cycles whose exact values other components read. Component ``i`` is
    ``order[ends[i]:ends[i+1]]``."""
    n = len(G)
    entry = np.zeros(n, dtype=bool)
    sizes = np.diff(ends)
    if not np.any(sizes > 1):
        return entry
    in_cycle = np.repeat(sizes > 1, sizes)
    component_of = np.full(n, -1, dtype=np.int32)
    component_of[order[in_cycle]] = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)[
        in_cycle
    ]
    sources, targets, _ = edge_ends(G)
    entry[targets[component_of[sources] != component_of[targets]]] = True
    entry[0] = True
    entry &= component_of >= 0
    return entry


class CutOrders:
    """Elimination orders of every cyclic component at once, for a given ``cut``
    (a boolean per state): in each component the states outside the cut, each after
    every one of them it can move to, then the cut states. Only where the cut meets
    every cycle of the component (a state with a self-loop counts as cut) is there
    such an order; :meth:`order` says so.

    The moves into cut states are deleted and the rest searched once for its
    components (:func:`_sinks_first`): where every state outside the cut is alone in its
    component, their labels order them.
    """

    __slots__ = ("acyclic", "broken", "elimination", "ends")

    def __init__(self, G: StateGraph, order: np.ndarray, ends: np.ndarray, cut: np.ndarray) -> None:
        sources, targets, _ = edge_ends(G)
        n = len(G)
        self.ends = ends
        cut = cut.copy()
        cut[sources[sources == targets]] = True
        kept = ~cut[targets]
        sources, targets = sources[kept], targets[kept]
        first_edge = np.concatenate(([0], np.cumsum(np.bincount(sources, minlength=n))))
        labels = _sinks_first(n, sources, targets, first_edge)
        sizes = np.diff(ends)
        component = np.repeat(np.arange(len(sizes)), sizes)  # by position in ``order``
        self.acyclic = np.bincount(component, weights=~cut[order], minlength=len(sizes))
        self.acyclic = self.acyclic.astype(np.int64)
        if labels is None:
            self.elimination, self.broken = order, np.ones(len(sizes), dtype=bool)
            return
        by = np.lexsort((labels[order], cut[order], component))
        self.elimination = order[by]
        # two states outside the cut with one label share a cycle that avoids the cut
        rest = ~cut[self.elimination]
        same = (np.diff(labels[self.elimination]) == 0) & rest[1:] & rest[:-1]
        self.broken = np.zeros(len(sizes), dtype=bool)
        self.broken[component[1:][same]] = True

    def order(self, i: int, most: int) -> tuple[list[int], int] | None:
        """Component ``i``'s states in elimination order and the size of its acyclic
        part, or ``None`` when the cut misses a cycle of it or holds more than ``most``
        of its states."""
        if self.broken[i] or self.ends[i + 1] - self.ends[i] - self.acyclic[i] > most:
            return None
        return self.elimination[self.ends[i] : self.ends[i + 1]].tolist(), int(self.acyclic[i])


#: Levels of at most this many nodes (or states) are handled one node at a time.
NARROW = 8


def longest_path_levels(
    n: int, sources: np.ndarray, targets: np.ndarray
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Each node's longest path to a sink along these edges (``-1`` for a node that can
    reach a cycle), and the nodes of each level (ascending): Kahn's algorithm from the
    sinks, one numpy pass over the reversed edges per level, or a Python loop over a level
    of at most :data:`NARROW` nodes (a long chain has a level per node, and a numpy pass
    costs tens of microseconds however few its nodes). Edges may repeat.

    >>> level, fronts = longest_path_levels(4, np.array([0, 0, 1, 3]), np.array([1, 2, 2, 3]))
    >>> level.tolist(), [f.tolist() for f in fronts]
    ([2, 1, 0, -1], [[2], [1], [0]])
    """
    waiting = np.bincount(sources, minlength=n)  # edges to nodes not yet on a level
    by_target = np.argsort(targets, kind="stable")
    predecessors = sources[by_target]
    starts = np.searchsorted(targets[by_target], np.arange(n + 1))
    level = np.full(n, -1, dtype=np.int64)
    fronts: list[np.ndarray] = []
    front = np.flatnonzero(waiting == 0)
    while len(front):
        level[front] = len(fronts)
        fronts.append(front)
        if len(front) <= NARROW:
            front = _next_front(front, predecessors, starts, waiting)
            continue
        done = predecessors[ranges(starts[front], starts[front + 1] - starts[front])]
        nodes, edges = np.unique(done, return_counts=True)
        waiting[nodes] -= edges
        front = nodes[waiting[nodes] == 0]
    return level, fronts


def _next_front(
    front: np.ndarray, predecessors: np.ndarray, starts: np.ndarray, waiting: np.ndarray
) -> np.ndarray:
    """The nodes whose last waiting edge leads into ``front`` (a few nodes), ascending;
    ``waiting`` is counted down one edge at a time."""
    ready = []
    for node in front.tolist():
        for before in predecessors[starts[node] : starts[node + 1]].tolist():
            waiting[before] -= 1
            if waiting[before] == 0:
                ready.append(before)
    return np.array(sorted(ready), dtype=front.dtype)


def edge_ends(G: StateGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each edge's source and target state, and where each state's edges start."""
    first_edge = np.frombuffer(G.edge_start, dtype=np.int64)[
        np.frombuffer(G.choice_start, dtype=np.int64)
    ]
    sources = np.repeat(np.arange(len(G), dtype=np.int32), np.diff(first_edge))
    return sources, np.frombuffer(G.targets, dtype=np.int32), first_edge


def _sinks_first(
    n: int, sources: np.ndarray, targets: np.ndarray, first_edge: np.ndarray
) -> np.ndarray | None:
    """Component labels of the graph of these edges (sorted by source) that number the
    components sinks first, or ``None`` if scipy's labels do not (checked on every edge).
    The matrix is made canonical first: with a repeated edge (two actions, or two
    outcomes of one action, with one successor) scipy 1.17's search never returned."""
    if n <= SMALL_GRAPH:  # Tarjan's emission order is sinks first; no scipy to load
        labels = np.empty(n, dtype=np.int64)
        for label, component in enumerate(_tarjan(n, targets.tolist(), first_edge.tolist())):
            labels[component] = label
        return labels
    from scipy.sparse import csr_matrix  # loaded on first use (0.2 s)
    from scipy.sparse.csgraph import connected_components

    moves = csr_matrix((np.ones(len(targets)), targets, first_edge), shape=(n, n), copy=True)
    moves.sum_duplicates()  # in place: hence the copy, as ``targets`` may be the graph's
    _, labels = connected_components(moves, directed=True, connection="strong")
    return labels if np.all(labels[targets] <= labels[sources]) else None


def _flat(components: Iterable[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Components as the ``(order, ends)`` arrays of :func:`component_order`."""
    order, ends = array("i"), array("q", [0])
    for component in components:
        order.extend(sorted(component))
        ends.append(len(order))
    return np.frombuffer(order, dtype=np.int32), np.frombuffer(ends, dtype=np.int64)


def tarjan_components(G: StateGraph) -> Iterator[list[int]]:
    """The components of :func:`strong_components`, each after every component it can
    reach (an order of that kind, not always the same one), by Tarjan's algorithm in
    Python: iterative, on the flat edge arrays, one ``int`` per state for its discovery
    index and low link, no recursion limit. The fallback of :func:`component_order`.

    >>> from exactprob import Dist
    >>> from exactprob.engine.graph import explore
    >>> class Ring:  # 0 -> 1 -> 2 -> 0, and each may stop (state 3)
    ...     initial = 0
    ...     def outcome(self, s): return 0 if s == 3 else None
    ...     def actions(self, s): return ("go",)
    ...     def transition(self, s, a): return Dist({(s + 1) % 3: "1/2", 3: "1/2"})
    >>> G = explore(Ring())
    >>> [[G.states[s] for s in c] for c in tarjan_components(G)]
    [[3], [2, 1, 0]]
    """
    n = len(G)
    edge_start, cs = G.edge_start, G.choice_start
    return _tarjan(n, G.targets, [edge_start[cs[s]] for s in range(n + 1)])


def _tarjan(n: int, targets: Sequence[int], first_edge: Sequence[int]) -> Iterator[list[int]]:
    """:func:`tarjan_components` of the graph of ``n`` states whose state ``s`` moves to
    ``targets[first_edge[s]:first_edge[s + 1]]``."""
    order = [-1] * n  # discovery index, -1 while unseen
    low = [0] * n
    done = bytearray(n)  # 1 once the state's component is emitted
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        work = [(root, first_edge[root])]
        while work:
            v, e = work[-1]
            end = first_edge[v + 1]
            low_v = low[v]
            while e < end:
                w = targets[e]
                e += 1
                if order[w] < 0:
                    break
                if not done[w] and order[w] < low_v:
                    low_v = order[w]
            else:
                w = -1
            low[v] = low_v
            if w >= 0:
                work[-1] = (v, e)
                order[w] = low[w] = counter
                counter += 1
                stack.append(w)
                work.append((w, first_edge[w]))
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low_v)
            if low_v == order[v]:
                if stack[-1] == v:  # a singleton: the common case, kept cheap
                    stack.pop()
                    done[v] = 1
                    yield [v]
                    continue
                component = []
                while True:
                    w = stack.pop()
                    done[w] = 1
                    component.append(w)
                    if w == v:
                        break
                yield component
