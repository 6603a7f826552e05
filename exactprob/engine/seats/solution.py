"""The exact answer of a game of seats (:class:`SeatSolution`): each state's payoffs, one
per seat, the mover's action and the actions tied with it, and where a tie matters to
another seat."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...errors import UsageError
from ...util import display
from ...util.numbers import Exact, mpq, to_fraction
from .._internal.linear import RATIONAL
from ..dist import Dist
from ..exact.forward import ForwardLaws
from ..graph.state_graph import StateGraph
from ..results import Method, solved_json

if TYPE_CHECKING:
    from ...util.mathdoc import Document
    from ..exact.solution import Solution

__all__ = ["SeatSolution", "expected_payoffs", "leaving_choices", "seat_rewards"]


class SeatSolution(ForwardLaws):
    """A game of seats solved exactly (:mod:`exactprob.engine.seats.solving`):
    :meth:`value` is a tuple of one ``Fraction`` per seat; :meth:`policy`, :meth:`ties`
    and :meth:`action_values` as for two players, each mover maximising its own entry;
    :meth:`played` the actions the mover plays (several, each as likely, under the tie
    rule ``"uniform"``); ``tie_rule`` the rule that chose among tied actions. The laws of
    play under the equilibrium as for two players (:meth:`absorption`,
    :meth:`outcome_distribution`, whose outcomes are the endings' tuples,
    :meth:`expected_steps`, :meth:`counter_distribution`, :meth:`expected_count`)."""

    __slots__ = ("_absorption", "_plays", "_values", "graph", "tie_rule")
    field = RATIONAL

    method: Method = "exact"
    solver = "generic"

    def __init__(
        self,
        graph: StateGraph,
        values: Sequence[tuple[Exact, ...] | None],
        plays: Sequence[tuple[int, ...]],
        tie_rule: str,
    ) -> None:
        self.graph = graph
        self._values = values
        self._plays = plays
        self.tie_rule = tie_rule
        self._absorption: dict[int, tuple[dict[int, Exact], Exact]] = {}

    @property
    def seats(self) -> int:
        """How many seats play."""
        return self.graph.seats

    def value(self, state: Any = None) -> tuple[Fraction, ...]:
        """Every seat's exact payoff from ``state`` under the equilibrium."""
        return _fractions(self._values[self._id(state)])

    def policy(self, state: Any = None) -> Any:
        """The mover's action at ``state`` (``None`` when it is terminal; the first of
        those it plays, :meth:`played`, under the tie rule ``"uniform"``)."""
        played = self.played(state)
        return played[0] if played else None

    def played(self, state: Any = None) -> tuple[Any, ...]:
        """The actions the mover plays at ``state``, each as likely: one, or every tied
        best action under the tie rule ``"uniform"`` (``()`` when terminal)."""
        s = self._id(state)
        return tuple(self.graph.actions[s][k] for k in self._plays[s])

    def policy_map(self) -> dict[Hashable, Any]:
        """The chosen action of every non-terminal state."""
        states, actions = self.graph.states, self.graph.actions
        return {states[s]: actions[s][ks[0]] for s, ks in enumerate(self._plays) if ks}

    def action_values(self, state: Any = None) -> dict[Any, tuple[Fraction, ...]]:
        r"""Every action's payoffs at ``state``, its rewards and what it leads to,
        :math:`Q(s, a) = r(s, a) + \sum_t P(t \mid s, a) V(t)`, in the model's order
        (``{}`` when terminal)."""
        s = self._id(state)
        G = self.graph
        first = G.choice_start[s]
        return {
            action: _fractions(expected_payoffs(G, first + k, self._values))
            for k, action in enumerate(G.actions[s])
        }

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action as good for the mover as its chosen one, exactly, in the model's
        order (``()`` when terminal); not one that stays put forever, which ends
        nothing."""
        s = self._id(state)
        if not self._plays[s]:
            return ()
        mover = self.graph.players[s]
        best = self.value(state)[mover]
        q = self.action_values(state)
        actions = self.graph.actions[s]
        return tuple(
            actions[k] for k in leaving_choices(self.graph, s) if q[actions[k]][mover] == best
        )

    def consequential_ties(self) -> dict[Hashable, tuple[Any, ...]]:
        """The states whose mover's tied actions give some other seat different payoffs,
        with those actions: where another tie rule changes the other seats' values."""
        found = {}
        for s, ks in enumerate(self._plays):
            if not ks or len(self.graph.actions[s]) < 2:
                continue
            state = self.graph.states[s]
            tied = self.ties(state)
            if len(tied) > 1:
                payoffs = self.action_values(state)
                if len({payoffs[a] for a in tied}) > 1:
                    found[state] = tied
        return found

    def _moves(self, s: int) -> list[tuple[int, Exact]]:
        """The moves of the actions played at ``s``, each action as likely."""
        G, plays = self.graph, self._plays[s]
        if not plays:  # a terminal state
            return []
        share = mpq(1, len(plays))
        return [(t, share * p) for k in plays for t, p in G.choice_edges(G.choice_start[s] + k)]

    def _move_actions(self, s: int) -> list[Any]:
        G = self.graph
        actions = G.actions[s]
        return [actions[k] for k in self._plays[s] for _ in G.choice_edges(G.choice_start[s] + k)]

    def _ending(self, t: int) -> tuple[Fraction, ...]:
        return _fractions(self.graph.outcomes[t])

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """Not one law in a game of seats, whose moves pay each seat its own reward: the
        law of one seat's rewards is :meth:`counter_distribution` with a counter that
        returns that seat's reward of each move."""
        raise UsageError(
            "a game of seats pays each seat its own reward, so it has no one law of the "
            "total reward: count one seat's with counter_distribution(lambda state, "
            "action, after: ...)"
        )

    def derivation(self, *, limit: int = 12, states: Sequence[Any] | None = None) -> Document:
        """The derivation written out, as for two players
        (:meth:`~exactprob.engine.exact.solution.Solution.derivation`): each shown state's
        equation with its tuple of payoffs, and each decision with its margins in the
        mover's own payoff and the ties that change another seat's."""
        from ..exact.derivation import derive

        return derive(self, limit=limit, states=states)

    def against_the_rest(self, seat: int) -> Solution:
        """What ``seat`` can guarantee itself whatever the other seats do together: the
        exact answer of the two-player zero-sum game where ``seat`` maximises its payoff
        and the others minimise it (:mod:`~exactprob.engine.seats.coalition`)."""
        from .coalition import against_the_rest

        return against_the_rest(self.graph, seat)

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`): the
        value a list of ``"p/q"`` per seat with its ``_decimal`` twin."""
        return solved_json(self, state)

    def __repr__(self) -> str:
        return f"SeatSolution(seats={self.seats}, states={len(self.graph)}, value={self.value()})"

    def _repr_html_(self) -> str:
        """Jupyter's view: every seat's value, the mover's action and its exact ties."""
        return display.solution_html(
            self, f"Game of {self.seats} seats: {len(self.graph):,} states"
        )


def expected_payoffs(
    G: StateGraph, c: int, values: Sequence[tuple[Exact, ...] | None]
) -> tuple[Exact, ...]:
    """:math:`Q` of choice ``c`` of a game of seats: its rewards, one per seat, and the
    expected payoffs of its moves, :math:`r + \\sum_t P(t)\\, V(t)`, from ``values``
    by state id."""
    total = list(seat_rewards(G, c))
    for t, p in G.choice_edges(c):
        after = values[t]
        assert after is not None  # a successor is valued before its predecessors
        total = [x + p * v for x, v in zip(total, after)]
    return tuple(total)


def seat_rewards(G: StateGraph, c: int) -> tuple[Exact, ...]:
    """What choice ``c`` of a game of seats pays each seat on the move (zeros in a
    game without rewards)."""
    if G.rewards is None:
        return (mpq(0),) * G.seats
    return G.rewards[c]


def leaving_choices(G: StateGraph, s: int) -> list[int]:
    """The choices of ``s`` (offsets from its first) that may leave it: an action that
    stays with probability 1 never ends play, so it is never played (all of them, when
    none leaves: the solve then refuses the state)."""
    first, last = G.choice_start[s], G.choice_start[s + 1]
    leaving = [c - first for c in range(first, last) if any(t != s for t, _ in G.choice_edges(c))]
    return leaving or list(range(last - first))


def _fractions(payoffs: tuple[Exact, ...] | None) -> tuple[Fraction, ...]:
    assert payoffs is not None
    return tuple(to_fraction(v) for v in payoffs)
