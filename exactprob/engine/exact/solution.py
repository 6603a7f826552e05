"""The generic engine's exact answer (:class:`Solution`): values, the optimal policy with
its exact ties, action values, absorption laws, expected steps and counters, read by
state from the solved graph."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ...errors import ModelError
from ...util import display
from ...util.mathdoc import Document
from ...util.numbers import Exact, is_symbolic
from .._internal.acyclic import SweptValues
from ..dist import Dist
from ..graph.state_graph import GraphStates, StateGraph
from ..results import Method, solved_json
from .forward import Counter, check_cap, count_distribution, move_counts, push_forward
from .system import ExactSystem, fill_values

__all__ = ["Solution"]


class Solution(GraphStates):
    """The exact solution of a model under optimal play (or under a fixed policy).

    Values are ``Fraction`` (sympy expressions for symbolic models). ``state=None``
    always means the initial state. ``graph`` is the explored
    :class:`~exactprob.engine.graph.state_graph.StateGraph`; :meth:`to_networkx` gives its networkx view.
    """

    __slots__ = (
        "_absorption",
        "_choice",
        "_swept",
        "_ties",
        "_values",
        "field",
        "graph",
        "system",
    )

    def __init__(
        self,
        graph: StateGraph,
        system: ExactSystem,
        values: list[Exact],
        choice: array[int],
        ties: dict[int, tuple[int, ...]],
        swept: SweptValues | None = None,
    ) -> None:
        self.graph = graph
        self.system = system  # the graph's numbers in the solve's field
        self.field = system.field
        self._values = values
        self._choice = choice
        self._ties = ties
        self._swept = swept  # the values of the acyclic part, reduced when asked for
        self._absorption: dict[int, tuple[dict[int, Exact], Exact]] = {}

    def value(self, state: Any = None) -> Any:
        """The exact value of ``state`` (the initial state when ``None``). Values of the
        acyclic part are reduced, and values inside a cyclic component computed
        (:func:`fill_values`), on first request."""
        return self.field.public(self._exact_value(self._id(state)))

    def _exact_value(self, s: int) -> Exact:
        if self._values[s] is None:
            if self._swept is not None and self._swept.covers(s):
                self._values[s] = self._swept.value(s)
            else:
                fill_values(self.system, self._choice, self._values, [s])
        return self._values[s]

    def _field_values(self) -> list[Exact]:
        """Every state's value in the solve's field (a symbolic chain's are rational
        functions), all computed now."""
        return [self._exact_value(s) for s in range(len(self.graph))]

    def derivation(self, *, limit: int = 12, states: Sequence[Any] | None = None) -> Document:
        """The derivation of this solution written out (a
        :class:`~exactprob.util.mathdoc.Document`: ``.latex()``, ``.rst()``,
        ``.markdown()``), the ``limit`` states nearest the start in full, or the
        ``states`` given (:mod:`exactprob.engine.exact.derivation`)."""
        from .derivation import derive

        return derive(self, limit=limit, states=states)

    def action_values(self, state: Any = None) -> dict[Any, Any]:
        r"""Every action's exact value in ``state``,
        :math:`Q(s, a) = r(s, a) + \sum_t P(t \mid s, a)\,V(t)`, in the model's order
        (empty for a terminal state): the optimal value is the best of them for the
        state's mover, and the ties are those equal to it.

        >>> from exactprob.games.gamblers_ruin import GamblersRuin
        >>> from exactprob.engine.exact.solving import solve_model
        >>> solve_model(GamblersRuin(goal=5, start=2, p="2/5")).action_values()
        {'bet': Fraction(40, 211)}
        """
        s = self._id(state)
        start = self.system.choice_start[s]
        values = _LazyValues(self)
        return {
            action: self.field.public(self.system.q(start + k, values))
            for k, action in enumerate(self.graph.actions[s])
        }

    def policy(self, state: Any = None) -> Any:
        """The chosen action in ``state`` (``None`` for a terminal state): the first
        optimal one in the model's order, except inside a cycle (of states that are not
        all one-move states, which count as a self-loop), where it is policy iteration's
        final choice, so that the whole policy map terminates."""
        s = self._id(state)
        k = self._choice[s]
        return None if k < 0 else self.graph.actions[s][k]

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action whose value :math:`Q(s, a)` equals the optimum exactly, in the
        model's order. Inside a cycle, tied actions are optimal one at a time, not in
        every combination: two tied "wait for the other" actions may never terminate."""
        s = self._id(state)
        k = self._choice[s]
        if k < 0:
            return ()
        actions = self.graph.actions[s]
        return tuple(actions[j] for j in self._ties.get(s, (k,)))

    def policy_map(self) -> dict[Hashable, Any]:
        """The chosen action of every non-terminal state."""
        states, actions = self.graph.states, self.graph.actions
        return {states[s]: actions[s][k] for s, k in enumerate(self._choice) if k >= 0}

    method: Method = "exact"
    solver = "generic"

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`)."""
        return solved_json(self, state)

    def to_networkx(self) -> Any:
        """The explored graph as a :class:`networkx.DiGraph` (see
        :meth:`~exactprob.engine.graph.state_graph.StateGraph.to_networkx`)."""
        return self.graph.to_networkx()

    def expected_steps(self, state: Any = None) -> Any:
        """Expected number of transitions from ``state`` to a terminal state (the sum
        of the expected visits to the non-terminal states)."""
        return self.field.public(self._forward(state)[1])

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""
        absorbed = self._forward(state)[0]
        states = self.graph.states
        return Dist._trusted({states[t]: self._public(q) for t, q in absorbed.items()})

    def _forward(self, state: Any) -> tuple[dict[int, Exact], Exact]:
        """Absorption probabilities and expected steps from ``state`` (computed once,
        :func:`~exactprob.engine.exact.forward.push_forward`)."""
        s = self._id(state)
        if s not in self._absorption:
            pushed = push_forward(s, self._moves, self.field)
            self._absorption[s] = (pushed.absorbed, pushed.weight)
        return self._absorption[s]

    def _moves(self, s: int) -> list[tuple[int, Exact]]:
        """``(successor, probability)`` of the chosen action of ``s`` (none if terminal;
        a reward's edge to the unit state is not a move)."""
        k = self._choice[s]
        if k < 0:
            return []
        unit = self.system.unit
        return [(t, p) for t, p in self.system.edges(self.graph.choice_start[s] + k) if t != unit]

    def _counts(self, counter: Counter) -> Callable[[int], list[int]]:
        """What ``counter`` adds on each chosen move of a state (asked once a state)."""
        states, actions = self.graph.states, self.graph.actions
        return move_counts(
            counter, self._moves, states.__getitem__, lambda s: actions[s][self._choice[s]]
        )

    def counter_distribution(
        self, counter: Counter, state: Any = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The law of a counter at the end of play from ``state``: the sum, over the
        moves made, of ``counter(state, action, next_state)`` (a whole number >= 0 per
        move; e.g. ``1`` per round, or whether luck was tested). With ``cap``, the law of
        ``min(count, cap)``: exact for every count below ``cap``, and the chance of
        ``cap`` or more. A counter that a move inside a cycle increases has no largest
        value and needs a ``cap`` (:func:`~exactprob.engine.exact.forward.count_distribution`)."""
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

        def weight(s: int) -> Exact:
            return sum(
                (p * field.convert(c) for (_, p), c in zip(self._moves(s), counts(s))),
                self.system.zero,
            )

        return field.public(push_forward(self._id(state), self._moves, field, weight).weight)

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """The law of the total reward earned from ``state`` until play ends, under the
        solution's policy: :meth:`counter_distribution` counting each move's reward,
        which must be a whole number >= 0 on the moves played (the value, its mean plus
        the expected outcome, takes any reward). ``cap`` as there."""
        return self.counter_distribution(self._reward_counter(), state, cap=cap)

    def _reward_counter(self) -> Counter:
        """The model's reward of each move, as a counter (whole numbers >= 0)."""
        G = self.graph
        rewards = G.rewards
        if rewards is None:
            raise ModelError("the model has no rewards; define reward(state, action)")
        index, actions, cs = G.index, G.actions, G.choice_start

        def earned(state: Any, action: Any, _after: Any) -> int:
            s = index[state]
            r = rewards[cs[s] + actions[s].index(action)]
            if is_symbolic(r) or r < 0 or r.denominator != 1:
                raise ModelError(
                    f"reward({state!r}, {action!r}) = {r}: the law of the total reward needs "
                    "whole rewards >= 0 (the value, its mean, takes any)"
                )
            return int(r)

        return earned

    def _public(self, q: Exact) -> Any:
        """A probability as returned in a ``Dist``: ``mpq`` kept, symbolic made public."""
        return self.field.public(q) if self.field.symbolic else q

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""
        outcomes = self.system.outcomes
        index = self.graph.index
        return self.absorption(state).map(lambda t: self.field.public(outcomes[index[t]]))

    def __repr__(self) -> str:
        return f"Solution(states={len(self.graph)}, value={self.value()})"

    def _repr_html_(self) -> str:
        """Jupyter's view: the value, the best action and the exact ties at the start."""
        return display.solution_html(self, f"Solution: {len(self.graph):,} states")


class _LazyValues(Sequence[Any]):
    """A solution's exact values by id (the reward unit's too), each computed when read."""

    __slots__ = ("solution",)

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    def __getitem__(self, s: Any) -> Any:
        return self.solution._exact_value(s)

    def __len__(self) -> int:  # pragma: no cover - Sequence requirement only
        return len(self.solution._values)
