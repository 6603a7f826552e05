r"""Exact values of a few states of a cyclic component, by forward reach.

A cyclic component in elimination order has an acyclic part :math:`N` and a feedback
set :math:`F` (:func:`~exactprob.cycle.elimination_order`). Under a fixed policy, start
with probability one in a state :math:`s` and push probability forward through
:math:`N` in topological order, stopping wherever it reaches :math:`F` or leaves the
component. With :math:`r_s(f)` the probability of reaching :math:`f \in F` first and
:math:`m_s(t)` that of leaving to a solved state :math:`t`,

.. math::

    V(s) = \sum_t m_s(t)\, V(t) + \sum_{f \in F} r_s(f)\, X_f .

For :math:`s \in F` these are the equations of the feedback values :math:`X` (a dense
:math:`|F| \times |F|` system); for any other :math:`s` the value follows from
:math:`X`. The reach probabilities are products of the model's probabilities, short
numbers; each long value :math:`V(t)` from the solved part of the graph is multiplied
once per source, where eliminating the whole component would carry long numbers
through every state (the approach of :func:`~exactprob.games.jeopardy.components.reach_forms`,
for any model).

>>> from exactprob import Dist
>>> from exactprob.graph import explore
>>> from exactprob.cycle import Cycle
>>> from exactprob.solve import _System, _field_of
>>> class Ring:  # 0 -> 1 -> 2 -> 0, each step ends the game with probability 1/2
...     initial = 0
...     def outcome(self, s): return 1 if s == "end" else None
...     def actions(self, s): return ("go",)
...     def transition(self, s, a): return Dist({(s + 1) % 3: "1/2", "end": "1/2"})
>>> G = explore(Ring())
>>> system = _System(G, _field_of(G))
>>> values = [None, None, 1, None]
>>> reach_values(Cycle(system, [0, 1, 3]), {0: 0, 1: 0, 3: 0}, [0], values)
{0: mpq(1,1)}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .numbers import Exact

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
    feedback = order[acyclic:]
    cs = system.choice_start

    targets, probabilities, es = system.targets, system.edge_probs, system.edge_start

    def reach(s: int) -> tuple[Exact, list[Exact]]:
        """``(sum_t m_s(t) V(t), [r_s(f) for f in F])``."""
        mass: list[Exact] = [None] * acyclic
        leaving: dict[int, Exact] = {}
        hits = [zero] * len(feedback)
        u, m, j = s, one, min(position[s], acyclic)  # j: the position being pushed
        while True:
            c = cs[u] + policy[u]
            e0, e1 = es[c], es[c + 1]
            for t, p in zip(targets[e0:e1], probabilities[e0:e1]):
                k = position.get(t)
                if k is None:
                    before = leaving.get(t)
                    leaving[t] = m * p if before is None else before + m * p
                elif k >= acyclic:
                    hits[k - acyclic] += m * p
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
        return sum((m * values[t] for t, m in leaving.items()), zero), hits

    own = [reach(f) for f in feedback]
    rows = [
        {g: (one if f == g else zero) - r for g, r in enumerate(hits) if r or f == g}
        for f, (_, hits) in enumerate(own)
    ]
    x = [row[0] for row in cycle.solve_rows(rows, [[c] for c, _ in own])]
    found = dict(zip(feedback, x))
    for s in sources:
        if s not in found:
            constant, hits = reach(s)
            found[s] = constant + sum((r * v for r, v in zip(hits, x)), zero)
    return found
