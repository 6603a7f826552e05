r"""Pushing probability forward along a fixed policy: where play ends, the expected
weight gathered on the way, and the distribution of a counter.

Under a fixed policy a model is a Markov chain on *nodes* (state ids, or pairs of a
state and a count). Starting with probability one at ``start``, mass is pushed through
the strongly connected components of the reachable chain in topological order. A node
alone passes its mass on once; a cyclic component :math:`C` turns the mass :math:`m`
entering it into expected visits :math:`x` (:math:`x^T (I - P_{CC}) = m^T`, one exact
linear solve) and passes :math:`x_u P(t \mid u)` to each exit :math:`t`. Terminal
nodes keep what reaches them. A node's *weight* :math:`w(u)` (the expected increase of
some quantity on leaving :math:`u`; one step by default) adds :math:`x_u\, w(u)` to the
expected total, so expected steps and expected counts need no more than the visits.

*A counter.* Each move :math:`u \to t` adds a whole number :math:`c(u, t) \ge 0`. The
chain on pairs :math:`(u, k)`, :math:`k` the count so far, moves to
:math:`(t, k + c(u, t))`; its terminal pairs give the joint law of the terminal node and
the final count. When a move that counts lies on a cycle, the count has no largest
value; then only the *capped* count :math:`\min(k, \text{cap})` is a finite chain (a
pair at the cap stays there), and its law gives :math:`P(\text{count} = k)` exactly for
every :math:`k < \text{cap}` and :math:`P(\text{count} \ge \text{cap})`.

Below, a coin is flipped until heads; each tails counts one. The count is geometric,
:math:`P(k) = 2^{-(k+1)}`, so :math:`P(k \ge 3) = 1/8`:

>>> from gmpy2 import mpq
>>> from exactprob.engine._internal.linear import RATIONAL
>>> def flip(u): return [] if u == "H" else [("H", mpq(1, 2)), ("T", mpq(1, 2))]
>>> def tails(u): return [0, 1]
>>> capped = count_distribution("T", flip, tails, RATIONAL, cap=3)
>>> sorted(capped.items())
[(0, mpq(1,2)), (1, mpq(1,4)), (2, mpq(1,8)), (3, mpq(1,8))]
>>> push_forward("T", flip, RATIONAL).weight  # expected flips
mpq(2,1)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import ModelError
from ...util.callables import check_call
from ...util.numbers import Exact
from .._internal.cycle import component_rows, elimination_order
from .._internal.linear import Field, solve_linear
from ..dist import Dist
from ..graph.exploring import components_reached
from ..graph.state_graph import GraphStates
from ..model import move_count
from ..results import Counter

__all__ = [
    "Counter",
    "ForwardLaws",
    "Pushed",
    "check_cap",
    "count_distribution",
    "move_counts",
    "push_forward",
]

Moves = Callable[[Any], Sequence[tuple[Any, Exact]]]
"""``moves(node)``: the ``(target, probability)`` of the chosen action; empty at a terminal node."""


@dataclass
class Pushed:
    """Where the mass pushed from one node ends (``absorbed``: terminal node to
    probability), the expected total ``weight`` gathered on the way, and the expected
    ``visits`` to each non-terminal node."""

    absorbed: dict[Any, Exact]
    weight: Exact
    visits: dict[Any, Exact]


def push_forward(
    start: Hashable, moves: Moves, field: Field, weight: Callable[[Any], Exact] | None = None
) -> Pushed:
    """Push probability one from ``start`` along ``moves`` to the terminal nodes;
    ``weight(node)`` is added per expected visit of each non-terminal node (one step
    when ``None``)."""
    zero, one = field.convert(0), field.convert(1)
    out: dict[Any, Sequence[tuple[Any, Exact]]] = {}

    def successors(u: Any) -> list[Any]:
        out[u] = moves(u)
        return [t for t, _ in out[u]]

    mass: dict[Any, Exact] = {start: one}
    absorbed: dict[Any, Exact] = {}
    visited: dict[Any, Exact] = {}
    total = zero

    def send(u: Any, amount: Exact) -> None:
        mass[u] = mass.get(u, zero) + amount

    for component in reversed(list(components_reached([start], successors))):
        u = component[0]
        if len(component) == 1 and not out[u]:
            absorbed[u] = mass.pop(u, zero)
            continue
        if len(component) == 1:  # a loop to itself at most: renormalised away
            stay = sum((p for t, p in out[u] if t == u), zero)
            m = mass.pop(u, zero)
            visits, exits = (
                [m / (one - stay) if stay else m],
                [[(t, p) for t, p in out[u] if t != u]],
            )
        else:
            component, visits, exits = _visits(component, out, mass, field)
        for u, x, leaving in zip(component, visits, exits):
            visited[u] = x
            total += x * (one if weight is None else weight(u))
            for t, p in leaving:
                send(t, x * p)
    return Pushed(absorbed, total, visited)


def _visits(
    component: list[Any],
    out: dict[Any, Sequence[tuple[Any, Exact]]],
    mass: dict[Any, Exact],
    field: Field,
) -> tuple[list[Any], list[Exact], list[list[tuple[Any, Exact]]]]:
    """The component in elimination order (:func:`~exactprob.engine._internal.cycle.elimination_order`),
    the expected visits to each of its nodes from the ``mass`` entering it (taken out of
    ``mass``), and each node's moves out of the component."""
    order, _ = elimination_order(lambda u: [t for t, _ in out[u]], component)
    position = {u: i for i, u in enumerate(order)}
    zero = field.convert(0)
    rows, exits = component_rows(order, position, out.__getitem__, field.convert(1), zero)
    columns: list[dict[int, Exact]] = [{} for _ in rows]  # (I - P)^T
    for i, row in enumerate(rows):
        for j, a in row.items():
            columns[j][i] = a
    x = solve_linear(field, columns, [[mass.pop(u, zero)] for u in order])
    return order, [v[0] for v in x], exits


def count_distribution(
    start: Hashable,
    moves: Moves,
    counts: Callable[[Any], Sequence[int]],
    field: Field,
    cap: int | None = None,
    name: Callable[[Any], Any] = lambda u: u,
) -> dict[int, Exact]:
    """The law of the count at the end of play from ``start``: ``counts(node)[i]`` is what
    the ``i``-th move of ``moves(node)`` adds. With ``cap``, the law of
    ``min(count, cap)``; without, a count that can grow on a cycle is refused
    (:class:`~exactprob.errors.ModelError`, naming the move by ``name(node)``)."""
    if cap is None:
        _check_bounded(start, moves, counts, name)

    def counted(pair: tuple[Any, int]) -> list[tuple[tuple[Any, int], Exact]]:
        u, k = pair
        after = (k + c for c in counts(u))
        if cap is not None:
            after = (min(n, cap) for n in after)
        return [((t, n), p) for (t, p), n in zip(moves(u), after)]

    law: dict[int, Exact] = {}
    for (_, k), p in push_forward((start, 0), counted, field).absorbed.items():
        law[k] = law[k] + p if k in law else p
    return law


def move_counts(
    counter: Counter,
    moves: Moves,
    state_of: Callable[[Any], Any],
    actions_of: Callable[[Any], Sequence[Any]],
) -> Callable[[Any], list[int]]:
    """``counts(node)``: what ``counter`` adds on each of ``moves(node)``, each taken by
    its action in ``actions_of(node)``, asked of the user's ``counter`` once a node and
    checked to be whole numbers >= 0.

    >>> counts = move_counts(lambda s, a, t: t - s, lambda u: [(u + 2, 1)], int, lambda u: "a")
    >>> counts(0)
    [2]
    """
    check_call(counter, "the counter", "counter(state, action, after)", 3)
    known: dict[Any, list[int]] = {}

    def counts(u: Any) -> list[int]:
        found = known.get(u)
        if found is None:
            found = known[u] = []
            targets = [state_of(t) for t, _ in moves(u)]
            if targets:
                state = state_of(u)
                found.extend(
                    move_count(counter, state, action, t)
                    for action, t in zip(actions_of(u), targets)
                )
        return found

    return counts


class ForwardLaws(GraphStates, ABC):
    """The laws of play under an answer's play, pushed forward from a state
    (:func:`push_forward`, :func:`count_distribution`): the base of an answer that keeps
    its ``graph`` and a ``field``, and gives by state id the moves it plays
    (:meth:`_moves`), their actions (:meth:`_move_actions`) and a terminal state's
    outcome (:meth:`_ending`); ``_absorption`` caches each start's pushed mass."""

    __slots__ = ()
    field: Field
    _absorption: dict[int, tuple[dict[int, Exact], Exact]]

    @abstractmethod
    def _moves(self, s: int) -> list[tuple[int, Exact]]:
        """``(successor, probability)`` of each move played from ``s`` (none if terminal)."""

    @abstractmethod
    def _move_actions(self, s: int) -> Sequence[Any]:
        """The action of each of :meth:`_moves` of ``s``."""

    @abstractmethod
    def _ending(self, t: int) -> Any:
        """The outcome of the terminal state ``t``, as answers return it."""

    def expected_steps(self, state: Any = None) -> Any:
        """Expected number of moves from ``state`` to a terminal state (the sum of the
        expected visits to the non-terminal states)."""
        return self.field.public(self._forward(state)[1])

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""
        absorbed = self._forward(state)[0]
        states = self.graph.states
        return Dist._trusted({states[t]: self._public(q) for t, q in absorbed.items()})

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""
        index = self.graph.index
        return self.absorption(state).map(lambda t: self._ending(index[t]))

    def counter_distribution(
        self, counter: Counter, state: Any = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The law of a counter at the end of play from ``state``: the sum, over the
        moves made, of ``counter(state, action, next_state)`` (a whole number >= 0 per
        move; e.g. ``1`` per round, or whether luck was tested). With ``cap``, the law of
        ``min(count, cap)``: exact for every count below ``cap``, and the chance of
        ``cap`` or more. A counter that a move inside a cycle increases has no largest
        value and needs a ``cap`` (:func:`count_distribution`)."""
        law = count_distribution(
            self._id(state),
            self._moves,
            self._counts(counter),
            self.field,
            check_cap(cap),
            name=self.graph.states.__getitem__,
        )
        return Dist._trusted({k: self._public(law[k]) for k in sorted(law)})

    def expected_count(self, counter: Counter, state: Any = None) -> Any:
        """The expected value of a counter at the end of play (as in
        :meth:`counter_distribution`, with no cap needed: loops included)."""
        counts = self._counts(counter)
        field = self.field
        zero = field.convert(0)

        def weight(s: int) -> Exact:
            return sum((p * field.convert(c) for (_, p), c in zip(self._moves(s), counts(s))), zero)

        return field.public(push_forward(self._id(state), self._moves, field, weight).weight)

    def _forward(self, state: Any) -> tuple[dict[int, Exact], Exact]:
        """Absorption probabilities and expected steps from ``state``, computed once."""
        s = self._id(state)
        if s not in self._absorption:
            pushed = push_forward(s, self._moves, self.field)
            self._absorption[s] = (pushed.absorbed, pushed.weight)
        return self._absorption[s]

    def _counts(self, counter: Counter) -> Callable[[int], list[int]]:
        """What ``counter`` adds on each move played from a state (asked once a state)."""
        return move_counts(counter, self._moves, self.graph.states.__getitem__, self._move_actions)

    def _public(self, q: Exact) -> Any:
        """A probability as returned in a ``Dist``: ``mpq`` kept, symbolic made public."""
        return self.field.public(q) if self.field.symbolic else q


def check_cap(cap: object) -> int | None:
    """``cap`` if it is ``None`` or a whole number >= 1, else a :class:`ModelError`.

    >>> check_cap(5), check_cap(None)
    (5, None)
    """
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        raise ModelError(f"cap must be a whole number >= 1 (or None), got {cap!r}")
    return cap


def _check_bounded(
    start: Hashable,
    moves: Moves,
    counts: Callable[[Any], Sequence[int]],
    name: Callable[[Any], Any],
) -> None:
    """Refuse a counter that some move inside a cycle increases."""
    targets = {}

    def successors(u: Any) -> list[Any]:
        targets[u] = [t for t, _ in moves(u)]
        return targets[u]

    for component in components_reached([start], successors):
        inside = set(component)
        for u in component:
            for t, c in zip(targets[u], counts(u)):
                if c and t in inside and (len(component) > 1 or t == u):
                    raise ModelError(
                        f"the counter grows on a cycle (the move from {name(u)!r} to "
                        f"{name(t)!r} adds {c} and can be repeated), so it has no largest "
                        "value; give a cap for the law of min(count, cap)"
                    )
