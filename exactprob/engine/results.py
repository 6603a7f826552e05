r"""One result protocol: what every solving method answers, whichever path solved the model.

:func:`exactprob.solve` returns a :class:`Solved`: the generic engine's exact, certified and
depth-first solutions, the games' own fast paths, level sweeps and piecewise answers alike.
``state=None`` always means the model's initial state. A name means one thing on every
result, and a result that cannot answer a question does not have its method.

* :class:`Solved`, every answer: :meth:`~Solved.value` is the optimal value :math:`V(s)`,
  exact (``Fraction``, or a sympy expression for a symbolic model) or an
  :class:`~exactprob.engine.enclosure.Enclosure` proved to contain it (certified);
  :attr:`~Solved.states` the states it knows; :attr:`~Solved.method` one of
  :data:`METHODS` and :attr:`~Solved.solver` which solver answered;
  :meth:`~Solved.to_json` the answer at a state as JSON (exact numbers as ``"p/q"``
  strings with a ``_decimal`` twin).
* :class:`SolvedPlay`, an answer with choices: :meth:`~SolvedPlay.policy` an optimal
  action, :meth:`~SolvedPlay.ties` every action that may be optimal (exactly tied with the
  best, or not ruled out by the enclosures; the policy's action is always among them, and
  a terminal state has none), :meth:`~SolvedPlay.action_values` every action's value.
* :class:`SolvedLaws`, an exact answer with choices: the laws of play under its policy
  (where play ends, the law and mean of anything counted on the way, the expected number
  of moves).

A level model's answer (:class:`~exactprob.engine.levels.sweep.LevelSolution`) is a
:class:`Solved` only: its choices are inside its steps. A one-parameter answer
(:class:`~exactprob.engine.symbolic.piecewise.PiecewiseSolution`) is a :class:`Solved` whose values
are ``sympy.Piecewise``; its ``at(x)`` is a :class:`SolvedLaws` at a value of the
parameter. A game's fast path derives its result from
:class:`~exactprob.engine.fast_path.FastPathResult`, or for an exact one from
:class:`~exactprob.engine.fast_path.ExactFastPath`, which gives it those laws from its policy
through the generic engine's policy evaluation.

>>> import exactprob as ep
>>> class Coin:
...     initial = "start"
...     def outcome(self, s): return {"start": None, "H": 1, "T": 0}[s]
...     def actions(self, s): return ("flip",)
...     def transition(self, s, a): return ep.Dist({"H": "1/2", "T": "1/2"})
>>> solved = ep.solve(Coin())
>>> isinstance(solved, SolvedLaws), solved.ties(), solved.to_json()["value"]
(True, ('flip',), '1/2')
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Literal, Protocol, runtime_checkable

from ..util.numbers import exact_fields, is_symbolic
from .dist import Dist
from .enclosure import Enclosure
from .model import Action, State

Method = Literal["exact", "certified", "depth-first"]
#: The methods every model can be solved by (:func:`exactprob.solve`).
METHODS: tuple[Method, ...] = ("exact", "certified", "depth-first")

__all__ = [
    "METHODS",
    "Counter",
    "Method",
    "PolicyLaws",
    "Solved",
    "SolvedLaws",
    "SolvedPlay",
    "solved_json",
    "value_fields",
]

Counter = Callable[[Any, Any, Any], int]
"""``counter(state, action, next_state)``: what one move adds to a count (a whole number >= 0)."""


@runtime_checkable
class Solved(Protocol[State]):
    """A solved model, exact or certified, whichever method and solver answered: every
    state's value."""

    @property
    def initial(self) -> State:
        """The initial state: the state ``None`` stands for."""

    @property
    def method(self) -> Method:
        """How it was solved: one of :data:`~exactprob.engine.methods.METHODS`."""

    @property
    def solver(self) -> str:
        """Which solver answered: ``"generic"`` (the engine's own), or the name of a game's
        fast path (``"jeopardy components"``), ``"piecewise"`` or ``"level sweep"``."""

    @property
    def states(self) -> Collection[State]:
        """Every state the result knows (the initial state first where it is a sequence)."""

    def value(self, state: State | None = None) -> Any:
        """The optimal value of ``state``: exact, or an enclosure when certified."""

    def to_json(self, state: State | None = None) -> dict[str, Any]:
        """The answer at ``state`` as JSON (:func:`solved_json`)."""

    def _repr_html_(self) -> str:
        """Jupyter's view."""


@runtime_checkable
class SolvedPlay(Solved[State], Protocol[State, Action]):
    """A solved model with choices: besides the values, the optimal play at every state."""

    def policy(self, state: State | None = None) -> Action | None:
        """An optimal action in ``state``; ``None`` when it is terminal."""

    def ties(self, state: State | None = None) -> tuple[Action, ...]:
        """Every action of ``state`` that may be optimal, in the model's order (exactly
        tied, or not ruled out when certified); ``()`` when terminal."""

    def action_values(self, state: State | None = None) -> dict[Action, Any]:
        r"""Every action's value :math:`Q(s, a)` in ``state``, in the model's order
        (exact, or enclosures when certified); ``{}`` when terminal
        (:mod:`~exactprob.engine.graph.action_values`)."""


@runtime_checkable
class SolvedLaws(SolvedPlay[State, Action], Protocol[State, Action]):
    """An exact result, which also knows the laws of play under its policy."""

    def absorption(self, state: State | None = None) -> Dist[State]:
        """The distribution of the terminal state reached from ``state``."""

    def outcome_distribution(self, state: State | None = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""

    def expected_steps(self, state: State | None = None) -> Any:
        """The expected number of moves from ``state`` to the end."""

    def counter_distribution(
        self, counter: Counter, state: State | None = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The exact law of what ``counter`` counts along play from ``state``."""

    def expected_count(self, counter: Counter, state: State | None = None) -> Any:
        """The expected total of ``counter`` along play from ``state``."""

    def reward_distribution(
        self, state: State | None = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The law of the total reward earned along play from ``state`` (a model with
        whole rewards >= 0)."""


def value_fields(key: str, value: Any) -> dict[str, Any]:
    """JSON fields of a value: the exact fraction and its decimal, an enclosure's decimal
    (its certain digits), ends and width, a symbolic value's expression alone, or for a
    game of seats a list of each seat's fraction and one of its decimal.

    >>> from fractions import Fraction
    >>> value_fields("p", Fraction(1, 4))
    {'p': '1/4', 'p_decimal': '0.250000000000'}
    >>> value_fields("q", Enclosure(0.25, 0.5))["q_width"]
    '0.25'
    >>> import sympy
    >>> value_fields("r", sympy.Symbol("p") / 2)
    {'r': 'p/2'}
    >>> value_fields("s", (Fraction(1, 2), Fraction(1, 2)))  # one payoff per seat
    {'s': ['1/2', '1/2'], 's_decimal': ['0.500000000000', '0.500000000000']}
    """
    if isinstance(value, tuple):
        fields = [exact_fields(key, v) for v in value]
        return {
            key: [f[key] for f in fields],
            f"{key}_decimal": [f[f"{key}_decimal"] for f in fields],
        }
    if is_symbolic(value):
        return {key: str(value)}
    if isinstance(value, Enclosure):
        return {
            f"{key}_decimal": value.decimal(),
            f"{key}_low": repr(float(value.low)),
            f"{key}_high": repr(float(value.high)),
            f"{key}_width": repr(float(value.width())),
        }
    return exact_fields(key, value)


def solved_json(result: Solved, state: Any = None) -> dict[str, Any]:
    """A result's answer at ``state`` (the initial state when ``None``): the method and the
    solver, the value, and for a result with choices the chosen action and every action
    that may be optimal (as ``repr`` strings).

    >>> import exactprob as ep
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> solved_json(ep.solve(GamblersRuin(goal=5, start=2, p="2/5")))
    {'method': 'exact', 'solver': 'generic', 'state': '2', 'value': '40/211', \
'value_decimal': '0.189573459716', 'policy': "'bet'", 'ties': ["'bet'"]}
    """
    where = result.initial if state is None else state
    answer: dict[str, Any] = {
        "method": result.method,
        "solver": result.solver,
        "state": repr(where),
        **value_fields("value", result.value(state)),
    }
    if isinstance(result, SolvedPlay):
        action = result.policy(state)
        answer["policy"] = None if action is None else repr(action)
        answer["ties"] = [repr(a) for a in result.ties(state)]
    return answer


class PolicyLaws:
    """The six laws of :class:`SolvedLaws`, each read from the model solved under the
    result's policy from the asked state (``_under_policy``, which a subclass gives: the
    generic engine's :func:`~exactprob.engine.exact.policies.evaluate` of its policy, kept per state)."""

    __slots__ = ()

    def _under_policy(self, state: Any) -> SolvedLaws:  # pragma: no cover - subclasses
        raise NotImplementedError

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""
        return self._under_policy(state).absorption()

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""
        return self._under_policy(state).outcome_distribution()

    def expected_steps(self, state: Any = None) -> Any:
        """The expected number of moves from ``state`` to the end."""
        return self._under_policy(state).expected_steps()

    def counter_distribution(
        self, counter: Counter, state: Any = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The law of what ``counter`` counts along play from ``state``
        (:meth:`~exactprob.engine.exact.solution.Solution.counter_distribution`)."""
        return self._under_policy(state).counter_distribution(counter, cap=cap)

    def expected_count(self, counter: Counter, state: Any = None) -> Any:
        """The expected total of ``counter`` along play from ``state``
        (:meth:`~exactprob.engine.exact.solution.Solution.expected_count`)."""
        return self._under_policy(state).expected_count(counter)

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """The law of the total reward earned along play from ``state``
        (:meth:`~exactprob.engine.exact.solution.Solution.reward_distribution`)."""
        return self._under_policy(state).reward_distribution(cap=cap)
