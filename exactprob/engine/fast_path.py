"""The base of a game's fast path (:mod:`exactprob.engine.methods`): a result that answers values,
policy and ties from the game's own tables for the model it solved, and everything else of
the result protocol (:mod:`exactprob.engine.results`) from the generic engine: the states by
exploring the model, the laws of play by evaluating its policy.

>>> import exactprob as ep
>>> class Coin(ExactFastPath):  # a fast path for a fair coin worth 1 on heads
...     name = "by hand"
...     def value(self, state=None): return ep.Dist({1: "1/2", 0: "1/2"}).mean() if state in (None, "start") else {"H": 1, "T": 0}[state]
...     def ties(self, state=None): return ("flip",) if state in (None, "start") else ()
>>> class Flip:
...     initial = "start"
...     def outcome(self, s): return {"start": None, "H": 1, "T": 0}[s]
...     def actions(self, s): return ("flip",)
...     def transition(self, s, a): return ep.Dist({"H": "1/2", "T": "1/2"})
>>> coin = Coin(Flip())
>>> coin.method, coin.solver, coin.value(), coin.absorption(), list(coin.states)
('exact', 'by hand', Fraction(1, 2), Dist({'H': '1/2', 'T': '1/2'}), ['start', 'H', 'T'])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..util.display import solution_html
from ..util.limits import DEFAULT_MAX_STATES
from .exact.policies import evaluate
from .graph.action_values import model_action_values
from .graph.exploring import explore
from .results import Method, PolicyLaws, SolvedLaws, solved_json

__all__ = ["ExactFastPath", "FastPathResult"]


class FastPathResult:
    """The base of a game's fast path: the subclass answers :meth:`value` and :meth:`ties`
    (and :meth:`policy`, where the first tied action is not its choice) from its own
    tables for the model it solved; :attr:`states` explores the model (once, when asked).
    ``name`` says which fast path it is, ``kind`` which method (see
    :class:`ExactFastPath` for an exact one)."""

    __slots__ = ("_explored", "max_states", "model")
    name = "fast path"
    kind: Method = "certified"

    def __init__(self, model: Any, max_states: int = DEFAULT_MAX_STATES) -> None:
        self.model, self.max_states = model, max_states
        self._explored: Sequence[Hashable] | None = None

    @property
    def method(self) -> Method:
        """The method it answers for: ``"exact"`` or ``"certified"``."""
        return self.kind

    @property
    def solver(self) -> str:
        """The fast path's name, e.g. ``"jeopardy components"``."""
        return self.name

    @property
    def initial(self) -> Any:
        """The model's initial state."""
        return self.model.initial

    def value(self, state: Any = None) -> Any:  # pragma: no cover - subclasses
        raise NotImplementedError

    def policy(self, state: Any = None) -> Any:
        """An optimal action: the first of :meth:`ties` (on an exact tie, the one the
        model lists first); ``None`` when ``state`` is terminal."""
        tied = self.ties(state)
        return tied[0] if tied else None

    def ties(self, state: Any = None) -> tuple[Any, ...]:  # pragma: no cover - subclasses
        raise NotImplementedError

    def action_values(self, state: Any = None) -> dict[Any, Any]:
        r"""Every action's value :math:`Q(s, a)` in ``state``, in the model's order, from
        the model's transitions and this result's values of the states they reach
        (:mod:`~exactprob.engine.graph.action_values`): exact, or enclosures when certified."""
        where = self.initial if state is None else state
        return model_action_values(self.model, self.value, where)

    @property
    def states(self) -> Sequence[Hashable]:
        """Every state reachable from the initial state (the initial state first)."""
        if self._explored is None:
            self._explored = explore(self.model, max_states=self.max_states, progress=False).states
        return self._explored

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`solved_json`)."""
        return solved_json(self, state)

    def _repr_html_(self) -> str:
        return solution_html(self, f"{self.method} ({self.solver})")


class ExactFastPath(FastPathResult, PolicyLaws):
    """An exact fast path: besides values, policy and ties, the laws of play under its
    policy, each from the generic engine's evaluation of that policy from the asked
    state (:func:`~exactprob.engine.exact.policies.evaluate`, once per state)."""

    __slots__ = ("_evaluated",)
    kind: Method = "exact"

    def __init__(self, model: Any, max_states: int = DEFAULT_MAX_STATES) -> None:
        super().__init__(model, max_states)
        self._evaluated: dict[Any, SolvedLaws] = {}

    def _under_policy(self, state: Any) -> SolvedLaws:
        start = self.initial if state is None else state
        if start not in self._evaluated:
            self._evaluated[start] = evaluate(
                self.model, self.policy, starts=[start], max_states=self.max_states, progress=False
            )
        return self._evaluated[start]
