"""``explore``: the reachable state graph of a model, with exact edge probabilities.

The graph is a :class:`networkx.DiGraph`:

* ``G.graph["initial"]``: the initial state; ``G.graph["symbolic"]``: whether some
  probability is a sympy expression.
* node attributes ``outcome`` (``None`` or the terminal value), ``player`` (0 maximises,
  1 minimises) and ``actions`` (a tuple, in the model's order; empty when terminal).
* edge attribute ``probs``: ``{action: probability}`` for the move ``u -> v`` (exact,
  ``gmpy2.mpq`` or sympy); for each state and action they sum to exactly one.

>>> from exactprob import die
>>> class TwoRolls:  # roll a die twice; the outcome is the total
...     initial = (0, 0)
...     def outcome(self, s): return s[1] if s[0] == 2 else None
...     def actions(self, s): return ("roll",)
...     def transition(self, s, a): return die(6).map(lambda x: (s[0] + 1, s[1] + x))
>>> G = explore(TwoRolls())
>>> G.number_of_nodes(), G.graph["initial"]
(18, (0, 0))
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import networkx as nx

from .dist import Dist
from .errors import InexactError, ModelError, StateLimitError
from .model import player_function
from .numbers import exact

__all__ = ["DEFAULT_MAX_STATES", "components_in_solve_order", "components_reached", "explore"]

#: Default cap on reachable states; pass ``max_states`` to go further.
DEFAULT_MAX_STATES = 2_000_000


def explore(
    model: Any, *, max_states: int = DEFAULT_MAX_STATES, progress: bool = False
) -> nx.DiGraph:
    """Breadth-first exploration of every state reachable from ``model.initial``.

    Raises :class:`~exactprob.errors.StateLimitError` as soon as more than
    ``max_states`` states are found, before the graph grows further.
    """
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise StateLimitError(f"max_states must be a whole number >= 1, got {max_states!r}")
    with paused_garbage_collection():
        return _explore(model, max_states, progress)


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


def _explore(model: Any, max_states: int, progress: bool) -> nx.DiGraph:
    player = player_function(model)
    G = nx.DiGraph(initial=model.initial, symbolic=False)
    G.add_node(model.initial)
    queue: deque[Hashable] = deque([model.initial])
    bar = progress_bar(progress, "exploring", unit=" states")
    symbolic = False
    while queue:
        state = queue.popleft()
        if bar is not None:
            bar.update(1)
        value = model.outcome(state)
        node = G._node[state]
        if value is not None:
            node.update(outcome=_terminal_value(state, value), player=0, actions=())
            continue
        actions = tuple(model.actions(state))
        if not actions:
            raise ModelError(f"actions({state!r}) is empty; a non-terminal state needs an action")
        if len(set(actions)) != len(actions):
            raise ModelError(f"actions({state!r}) repeats an action: {actions!r}")
        node.update(outcome=None, player=player(state), actions=actions)
        successors = G._adj[state]
        for action in actions:
            dist = model.transition(state, action)
            if not isinstance(dist, Dist):
                raise ModelError(
                    f"transition({state!r}, {action!r}) returned {type(dist).__name__}, not a Dist"
                )
            symbolic = symbolic or dist.symbolic
            for nxt, p in dist.exact_items():
                if nxt not in G._node:
                    if len(G._node) >= max_states:
                        raise StateLimitError(
                            f"the model has more than {max_states:,} reachable states; "
                            f"pass max_states=N with a larger N to go on"
                        )
                    G.add_node(nxt)
                    queue.append(nxt)
                edge = successors.get(nxt)
                if edge is None:
                    G.add_edge(state, nxt, probs={action: p})
                else:
                    edge["probs"][action] = p
    if bar is not None:
        bar.close()
    G.graph["symbolic"] = symbolic
    return G


def _terminal_value(state: Hashable, value: Any) -> Any:
    try:
        return exact(value)
    except InexactError as error:
        raise ModelError(f"outcome({state!r}) is not an exact number: {error}") from None


def progress_bar(enabled: bool, description: str, **options: Any) -> Any:
    """A tqdm bar on stderr when ``enabled`` (else ``None``); tqdm loads only then."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(desc=description, leave=False, **options)


def components_in_solve_order(G: nx.DiGraph) -> Iterator[list[Hashable]]:
    """Strongly connected components, each after every component it can reach.

    This is the reverse topological order of the condensation: when a component comes
    up, the value of every state outside it that it can move to is already known.

    >>> G = nx.DiGraph([(1, 2), (2, 1), (2, 3)])
    >>> [sorted(c) for c in components_in_solve_order(G)]
    [[3], [1, 2]]
    """
    adj = G._adj
    return components_reached(adj, adj.__getitem__)


def components_reached(
    roots: Iterable[Hashable], successors: Callable[[Hashable], Iterable[Hashable]]
) -> Iterator[list[Hashable]]:
    """The strongly connected components of the states reached from ``roots``, each after
    every component it can reach, for a graph given by its ``successors`` function.

    Tarjan's algorithm emits components in exactly this order; it runs iteratively here
    (no recursion limit). It is lazy: ``successors(v)`` is called once, when ``v`` is
    first reached, and a component is yielded as soon as it is complete, so a consumer
    can solve it before the search goes on, and the graph need never be stored.

    >>> [sorted(c) for c in components_reached([0], lambda v: {0: [1], 1: [0, 2]}.get(v, []))]
    [[2], [0, 1]]
    """
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    stack: list[Hashable] = []
    on_stack: set[Hashable] = set()
    for root in roots:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            v, following = work[-1]
            for w in following:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(successors(w))))
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    yield component
