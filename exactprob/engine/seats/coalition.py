r"""A seat against all the others: the payoffs a seat can guarantee itself whatever the
other seats do together.

In a game of seats, seat :math:`i`'s *guaranteed* payoff is the value of the two-player
zero-sum game in which it maximises its own payoff and every other seat, as one
coalition, minimises it:

.. math::

   W_i(s) = \begin{cases} \max_a Q_i(s, a) & \text{seat } i \text{ moves at } s, \\
   \min_a Q_i(s, a) & \text{another seat moves,} \end{cases} \qquad
   Q_i(s, a) = r_i(s, a) + \sum_t P(t \mid s, a)\, W_i(t),

with :math:`W_i(t) = u_i(t)` at an ending and :math:`r_i` seat :math:`i`'s reward.

It is what a model checker for games reports as the coalition view
(PRISM-games' ``<<i>> Pmax``): a lower bound on seat :math:`i`'s payoff in every
equilibrium. As everywhere in the exact engine, the maximising side plays so that play
ends. The same explored graph
is read with one payoff per ending and two players, and solved by the exact engine
(:func:`~exactprob.engine.exact.solving.solve_graph`).
"""

from __future__ import annotations

from ...errors import UsageError
from ..exact.solution import Solution
from ..exact.solving import solve_graph
from ..graph.state_graph import StateGraph

__all__ = ["against_the_rest", "coalition_graph"]


def coalition_graph(G: StateGraph, seat: int) -> StateGraph:
    """``G`` as a two-player zero-sum game: ``seat``'s payoff at every ending and its
    reward on every move, ``seat`` moving as player 0 and every other seat as player 1 (the moves are ``G``'s own)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < G.seats:
        raise UsageError(f"seat must be a seat from 0 to {G.seats - 1}, got {seat!r}")
    H = StateGraph()
    for name in StateGraph.__slots__:
        setattr(H, name, getattr(G, name))
    H.outcomes = [None if o is None else o[seat] for o in G.outcomes]
    if G.rewards is not None:
        H.rewards = [r[seat] for r in G.rewards]
    H.players = bytearray(p != seat for p in G.players)
    H.seats = 0
    return H


def against_the_rest(G: StateGraph, seat: int) -> Solution:
    """The exact answer of ``seat`` against all the others (the module docstring)."""
    return solve_graph(coalition_graph(G, seat))
