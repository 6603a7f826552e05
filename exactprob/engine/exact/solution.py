"""The generic engine's exact answer (:class:`Solution`): values, the optimal policy with
its exact ties, action values, absorption laws, expected steps and counters, read by
state from the solved graph."""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence
from typing import Any

from ...errors import ModelError
from ...util import display
from ...util.mathdoc import Document
from ...util.numbers import Exact, is_symbolic
from .._internal.acyclic import SweptValues
from ..dist import Dist
from ..graph.state_graph import StateGraph
from ..results import Method, solved_json
from .forward import Counter, ForwardLaws
from .system import ExactSystem, fill_values

__all__ = ["Solution"]


class Solution(ForwardLaws):
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

    def _moves(self, s: int) -> list[tuple[int, Exact]]:
        """``(successor, probability)`` of the chosen action of ``s`` (none if terminal;
        a reward's edge to the unit state is not a move)."""
        k = self._choice[s]
        if k < 0:
            return []
        unit = self.system.unit
        return [(t, p) for t, p in self.system.edges(self.graph.choice_start[s] + k) if t != unit]

    def _move_actions(self, s: int) -> list[Any]:
        """The chosen action of ``s``, once for each of its moves."""
        return [self.graph.actions[s][self._choice[s]]] * len(self._moves(s))

    def _ending(self, t: int) -> Any:
        """The outcome of the terminal state ``t``, in the solve's field made public."""
        return self.field.public(self.system.outcomes[t])

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
