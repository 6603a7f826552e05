r"""Every action's value in a state, from the values a result gives the states it moves to:

.. math::

    Q(s, a) = r(s, a) + \sum_t P(t \mid s, a)\, V(t),

exact when the values are, and an :class:`~exactprob.engine.enclosure.Enclosure` when they
are enclosures (the probabilities are exact and nonnegative, so the sums of the ends
enclose :math:`Q`). Each result with choices answers ``action_values(state)`` with it: the
optimal value is the best of them for the state's mover, and the ties are those equal to
it, but for an action that surely comes back to its state (it never ends play, so it is
no tie; :meth:`~exactprob.engine.exact.solution.Solution.ties`).

>>> import exactprob as ep
>>> class Gamble:  # keep 1/2, or flip a coin for 1 or 0
...     initial = "start"
...     def outcome(self, s): return {"start": None, "kept": "1/2", "won": 1, "lost": 0}[s]
...     def actions(self, s): return ("keep", "flip")
...     def transition(self, s, a):
...         return ep.Dist({"kept": 1}) if a == "keep" else ep.Dist({"won": "1/2", "lost": "1/2"})
>>> values = {"kept": Fraction(1, 2), "won": Fraction(1), "lost": Fraction(0)}
>>> model_action_values(Gamble(), values.__getitem__, "start")
{'keep': Fraction(1, 2), 'flip': Fraction(1, 2)}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from ...util.numbers import exact, to_fraction
from ..array_model import Explorable, one_state_at_a_time
from ..enclosure import Enclosure
from .state_graph import StateGraph

__all__ = ["graph_action_values", "model_action_values"]


def model_action_values(
    model: Explorable, value: Callable[[Any], Any], state: Any
) -> dict[Any, Any]:
    """``{action: Q(state, action)}`` in the model's order, from the model's transitions
    and rewards and ``value`` of each successor; ``{}`` for a terminal state."""
    model = one_state_at_a_time(model)
    if model.outcome(state) is not None:
        return {}
    reward = getattr(model, "reward", None)
    return {
        action: _q(
            0 if reward is None else reward(state, action),
            ((to_fraction(p), value(t)) for t, p in model.transition(state, action).exact_items()),
        )
        for action in model.actions(state)
    }


def graph_action_values(G: StateGraph, value: Callable[[int], Any], s: int) -> dict[Any, Any]:
    """``{action: Q(s, action)}`` for the state of id ``s`` of an explored graph, from
    ``value`` of each successor's id; ``{}`` for a terminal state."""
    start = G.choice_start[s]
    return {
        action: _q(
            0 if G.rewards is None else G.rewards[start + k],
            ((to_fraction(p), value(t)) for t, p in G.choice_edges(start + k)),
        )
        for k, action in enumerate(G.actions[s])
    }


def _q(reward: Any, moves: Iterable[tuple[Fraction, Any]]) -> Any:
    """The reward plus the chance-weighted values: exact, or an enclosure of enclosures."""
    r = to_fraction(exact(reward))
    moves = list(moves)
    if any(isinstance(v, Enclosure) for _, v in moves):
        ends = [(p, _ends(v)) for p, v in moves]
        low = r + sum(p * lo for p, (lo, _) in ends)
        high = r + sum(p * hi for p, (_, hi) in ends)
        return Enclosure(low, high)
    return r + sum(p * v for p, v in moves)


def _ends(value: Any) -> tuple[Fraction, Fraction]:
    """An enclosure's ends, or an exact value twice."""
    if isinstance(value, Enclosure):
        return value.low, value.high
    return Fraction(value), Fraction(value)
