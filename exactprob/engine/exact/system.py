"""A state graph's exact numbers in one field (:class:`ExactSystem`): the rationals of the
graph as integers over common denominators, or its symbols' field, and the linear
systems a cyclic component gives under a policy."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...util.numbers import Exact, common_denominator_dots, integer_weights
from ...util.rounding import approx_probability
from .._internal.choose import share_successors
from .._internal.component_table import GraphArrays
from .._internal.linear import Field, field_for
from ..graph.state_graph import StateGraph

__all__ = ["ExactSystem", "field_of", "fill_values"]


class ExactSystem:
    """A state graph's numbers in the solve's field, laid out for the hot loops.

    ``edge_probs[e]`` is edge ``e``'s probability (one shared object per distinct
    probability), ``outcomes[s]`` the terminal value. ``guided`` says whether floats
    guide the choices (rational numbers and some state with several actions); only
    then do ``float_probs`` hold the probabilities as floats and ``arrays`` the graph's
    columns for numpy (:class:`~exactprob.engine._internal.component_table.GraphArrays`), and
    ``weights[i]`` the distinct probability ``i`` times ``weight_denominator``, the least
    common multiple of all their denominators (an integer). The per-edge columns are
    built when first read: a graph the level sweep solves whole never reads them.
    """

    __slots__ = (
        "_arrays",
        "_edge_probs",
        "_float_probs",
        "choice_start",
        "edge_start",
        "field",
        "graph",
        "guided",
        "outcomes",
        "prob_ids",
        "probabilities",
        "targets",
        "unit",
        "weight_denominator",
        "weights",
        "zero",
    )

    def __init__(self, G: StateGraph, field: Field, unit: int = -1) -> None:
        self.graph = G
        self.field = field
        self.unit = unit  # the state rewards lead to (:mod:`~exactprob.engine._internal.rewards`)
        probs = G.probabilities
        outcomes = G.outcomes
        if field.symbolic:
            probs = [field.convert(p) for p in probs]
            outcomes = [None if o is None else field.convert(o) for o in outcomes]
        self.outcomes = outcomes
        self.probabilities = probs
        self.zero = field.convert(0)
        self.guided = not field.symbolic and any(len(a) > 1 for a in set(G.actions))
        self._edge_probs: list[Exact] | None = None
        self._float_probs: list[float] | None = None
        self._arrays: GraphArrays | None = None
        self.targets = G.targets
        self.edge_start = G.edge_start
        self.choice_start = G.choice_start
        self.prob_ids = G.prob_ids
        if self.guided:
            self.weights, self.weight_denominator = integer_weights(probs)

    @property
    def edge_probs(self) -> list[Exact]:
        """Each edge's exact probability (one shared object per distinct one)."""
        if self._edge_probs is None:
            self._edge_probs = [self.probabilities[i] for i in self.prob_ids]
        return self._edge_probs

    @property
    def float_probs(self) -> list[float] | None:
        """Each edge's probability as a float (a guided solve only)."""
        if self._float_probs is None and self.guided:
            floats = [approx_probability(p) for p in self.probabilities]
            self._float_probs = [floats[i] for i in self.prob_ids]
        return self._float_probs

    @property
    def arrays(self) -> GraphArrays | None:
        """The graph's columns for numpy (a guided solve only)."""
        if self._arrays is None and self.guided:
            self._arrays = GraphArrays(
                self.graph, [approx_probability(p) for p in self.probabilities]
            )
        return self._arrays

    def edges(self, c: int) -> Iterable[tuple[int, Exact]]:
        """``(target, probability)`` of every edge of choice ``c``."""
        e0, e1 = self.edge_start[c], self.edge_start[c + 1]
        return zip(self.targets[e0:e1], self.edge_probs[e0:e1])

    def share_successors(self, c0: int, c1: int) -> bool:
        """Whether choices ``c0 .. c1 - 1`` :func:`~exactprob.engine._internal.choose.share_successors`."""
        starts, targets = self.edge_start, self.targets
        return share_successors([targets[starts[c] : starts[c + 1]] for c in range(c0, c1)])

    def numerators(self, choices: Iterable[int], values: Sequence[Exact]) -> tuple[list[Any], Any]:
        r"""Integers :math:`N_c` and one denominator :math:`D` with
        :math:`Q(s, c) = N_c / D` for each of ``choices`` (a guided solve only):
        :func:`~exactprob.util.numbers.common_denominator_dots` over the integer ``weights``."""
        starts, targets, ids, weight = self.edge_start, self.targets, self.prob_ids, self.weights
        rows = [
            (
                map(weight.__getitem__, ids[starts[c] : starts[c + 1]]),
                targets[starts[c] : starts[c + 1]],
            )
            for c in choices
        ]
        numerators, denominator = common_denominator_dots(rows, values)
        return numerators, denominator * self.weight_denominator

    def q(self, c: int, values: Sequence[Exact]) -> Exact:
        r""":math:`Q(s, a) = \sum_t P(t \mid s, a) V(t)` for choice ``c`` (the hot loop)."""
        e0, e1 = self.edge_start[c], self.edge_start[c + 1]
        return self.field.dot(self.edge_probs[e0:e1], map(values.__getitem__, self.targets[e0:e1]))


def field_of(G: StateGraph) -> Field:
    """Rationals, or the rational functions in every symbol of the outcomes and
    (for a symbolic graph) the probabilities."""
    values: list[Any] = [o for o in G.outcomes if o is not None]
    if G.symbolic:
        values.extend(G.probabilities)
    return field_for(values)


def fill_values(
    system: ExactSystem, choice: Sequence[int], values: list[Exact], wanted: Iterable[int]
) -> None:
    r"""Make ``values[s]`` exact for every ``s`` in ``wanted``: :math:`V(s) = \sum_t
    P(t \mid s, \pi(s))\, V(t)` along the chosen actions, depth first, for the states
    still unknown. The solver leaves unknown only states of the acyclic part of a
    cyclic component, whose moves stay in that part or reach known states, so the
    search ends."""
    cs = system.choice_start
    for w in wanted:
        stack = [w]
        while stack:
            s = stack[-1]
            if values[s] is not None:
                stack.pop()
                continue
            c = cs[s] + choice[s]
            missing = [t for t, _ in system.edges(c) if values[t] is None]
            if missing:
                stack.extend(missing)
                continue
            values[s] = system.q(c, values)
            stack.pop()
