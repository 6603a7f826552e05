r"""Exact values of a few states of a cyclic component, by forward reach.

A cyclic component in elimination order has an acyclic part :math:`N` and a feedback
set :math:`F` (:func:`~exactprob.engine._internal.cycle.elimination_order`). The states whose values are
wanted, the *cut* :math:`C`, are :math:`F` and the *sources* (the states other
components read). Under a fixed policy, start with probability one in a state
:math:`s \in C` and push probability forward through :math:`N \setminus C` in
topological order, stopping wherever it reaches :math:`C` or leaves the component. With
:math:`r_s(c)` the probability of reaching :math:`c \in C` first and :math:`m_s(t)` that
of leaving to a solved state :math:`t`,

.. math::

    X_s = \sum_t m_s(t)\, V(t) + \sum_{c \in C} r_s(c)\, X_c ,

a dense :math:`|C| \times |C|` system for the values :math:`X` of the cut. The reach
probabilities are products of the model's probabilities, short numbers; each long value
:math:`V(t)` from the solved part of the graph is multiplied once per cut state whose
pushes reach it, where eliminating the whole component would carry long numbers through
every state (the approach of :func:`~exactprob.games.jeopardy.solving.components.reach_forms`,
for any model). Stopping at every source, not only at :math:`F`, keeps a source's
pushes out of the others': in Pig, each player's turn is pushed once.

>>> from exactprob import Dist
>>> from exactprob.engine.graph import explore
>>> from exactprob.engine._internal.cycle import Cycle
>>> from exactprob.engine.exact.system import ExactSystem, field_of
>>> class Ring:  # 0 -> 1 -> 2 -> 0, each step ends the game with probability 1/2
...     initial = 0
...     def outcome(self, s): return 1 if s == "end" else None
...     def actions(self, s): return ("go",)
...     def transition(self, s, a): return Dist({(s + 1) % 3: "1/2", "end": "1/2"})
>>> G = explore(Ring())
>>> system = ExactSystem(G, field_of(G))
>>> values = [None, None, 1, None]
>>> reach_values(Cycle(system, [0, 1, 3]), {0: 0, 1: 0, 3: 0}, [0], values)
{0: mpq(1,1)}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...util.numbers import Exact

__all__ = ["reach_values"]


def reach_values(
    cycle: Any, policy: Mapping[int, int], sources: Iterable[int], values: Sequence[Exact]
) -> dict[int, Exact]:
    """The exact values of the feedback states of ``cycle`` and of ``sources`` under
    ``policy`` (``{id: action index}``), with ``values`` holding the exact values of
    every state the component can move to."""
    system = cycle.system
    field = system.field
    zero, one = system.zero, field.convert(1)
    order, position = cycle.component, cycle.position
    acyclic = cycle.acyclic
    cut = cycle.feedback + [s for s in dict.fromkeys(sources) if position[s] < acyclic]
    # where each position's mass goes: -1 pushes on through N, else that cut state
    stop = [-1] * len(order)
    for i, s in enumerate(cut):
        stop[position[s]] = i
    cs = system.choice_start
    targets, probabilities, es = system.targets, system.edge_probs, system.edge_start

    def reach(s: int) -> tuple[Exact, list[Exact]]:
        """``(sum_t m_s(t) V(t), [r_s(c) for c in C])``."""
        mass: list[Exact] = [None] * acyclic
        leaving: dict[int, Exact] = {}
        hits = [zero] * len(cut)
        u, m, j = s, one, min(position[s], acyclic)  # j: the position being pushed
        while True:
            c = cs[u] + policy[u]
            e0, e1 = es[c], es[c + 1]
            for t, p in zip(targets[e0:e1], probabilities[e0:e1]):
                k = position.get(t)
                if k is None:
                    before = leaving.get(t)
                    leaving[t] = m * p if before is None else before + m * p
                elif stop[k] >= 0:
                    hits[stop[k]] += m * p
                else:
                    before = mass[k]
                    mass[k] = m * p if before is None else before + m * p
            # the next state with mass, in topological order: moves go to lower positions
            j -= 1
            while j >= 0 and mass[j] is None:
                j -= 1
            if j < 0:
                break
            u, m = order[j], mass[j]
        return field.dot(leaving.values(), map(values.__getitem__, leaving)), hits

    pushed = [reach(s) for s in cut]
    rows = [
        {d: (one if c == d else zero) - r for d, r in enumerate(hits) if r or c == d}
        for c, (_, hits) in enumerate(pushed)
    ]
    x = [row[0] for row in cycle.solve_rows(rows, [[constant] for constant, _ in pushed])]
    return dict(zip(cut, x))
