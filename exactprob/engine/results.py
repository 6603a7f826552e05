r"""One result protocol: what every solving method answers, whichever path solved the model.

:func:`exactprob.solve` returns a :class:`Solved`: the generic engine's exact, certified and
depth-first solutions and the games' own fast paths alike. ``state=None`` always means the
model's initial state.

* :meth:`Solved.value` is the optimal value :math:`V(s)`: exact (``Fraction``, or a sympy
  expression for a symbolic model), or an :class:`~exactprob.engine.enclosure.Enclosure` proved to
  contain it (certified);
* :meth:`Solved.policy` an optimal action, :meth:`Solved.ties` every action that may be
  optimal: exactly tied with the best (exact), or not ruled out by the enclosures
  (certified); the policy's action is always among them, and a terminal state has none;
* :attr:`Solved.states` the states it knows, and :meth:`Solved.to_json` the answer at a
  state as JSON (exact numbers as ``"p/q"`` strings with a ``_decimal`` twin).

An exact result is also a :class:`SolvedLaws`: the laws of play under its policy (where
play ends, the law and mean of anything counted on the way, the expected number of
moves). A game's fast path derives its result from
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

from collections.abc import Collection, Hashable
from typing import Any, Protocol, runtime_checkable

from ..util.numbers import exact_fields, is_symbolic
from .dist import Dist
from .enclosure import Enclosure
from .forward import Counter

__all__ = [
    "PolicyLaws",
    "Solved",
    "SolvedLaws",
    "solved_json",
    "value_fields",
]


@runtime_checkable
class Solved(Protocol):
    """A solved model, exact or certified, whichever method solved it."""

    @property
    def initial(self) -> Any:
        """The initial state: the state ``None`` stands for."""

    @property
    def method(self) -> str:
        """What solved it: ``"exact"``, ``"certified"`` or ``"depth-first"``, and for a
        fast path its name in parentheses (``"exact (jeopardy components)"``)."""

    @property
    def states(self) -> Collection[Hashable]:
        """Every state the result knows (the initial state first where it is a sequence)."""

    def value(self, state: Any = None) -> Any:
        """The optimal value of ``state``: exact, or an enclosure when certified."""

    def policy(self, state: Any = None) -> Any:
        """An optimal action in ``state``; ``None`` when it is terminal."""

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action of ``state`` that may be optimal, in the model's order (exactly
        tied, or not ruled out when certified); ``()`` when terminal."""

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` as JSON (:func:`solved_json`)."""

    def _repr_html_(self) -> str:
        """Jupyter's view."""


@runtime_checkable
class SolvedLaws(Solved, Protocol):
    """An exact result, which also knows the laws of play under its policy."""

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""

    def expected_steps(self, state: Any = None) -> Any:
        """The expected number of moves from ``state`` to the end."""

    def counter_distribution(
        self, counter: Counter, state: Any = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The exact law of what ``counter`` counts along play from ``state``."""

    def expected_count(self, counter: Counter, state: Any = None) -> Any:
        """The expected total of ``counter`` along play from ``state``."""

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """The law of the total reward earned along play from ``state`` (a model with
        whole rewards >= 0)."""


def value_fields(key: str, value: Any) -> dict[str, str]:
    """JSON fields of a value: the exact fraction and its decimal, an enclosure's decimal
    (its certain digits), ends and width, or a symbolic value's expression alone.

    >>> from fractions import Fraction
    >>> value_fields("p", Fraction(1, 4))
    {'p': '1/4', 'p_decimal': '0.250000000000'}
    >>> value_fields("q", Enclosure(0.25, 0.5))["q_width"]
    '0.25'
    >>> import sympy
    >>> value_fields("r", sympy.Symbol("p") / 2)
    {'r': 'p/2'}
    """
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
    """A result's answer at ``state`` (the initial state when ``None``): the method, the
    value, the chosen action and every action that may be optimal (as ``repr`` strings).

    >>> import exactprob as ep
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> solved_json(ep.solve(GamblersRuin(goal=5, start=2, p="2/5")))
    {'method': 'exact', 'state': '2', 'value': '40/211', 'value_decimal': '0.189573459716', \
'policy': "'bet'", 'ties': ["'bet'"]}
    """
    where = result.initial if state is None else state
    action = result.policy(state)
    return {
        "method": result.method,
        "state": repr(where),
        **value_fields("value", result.value(state)),
        "policy": None if action is None else repr(action),
        "ties": [repr(a) for a in result.ties(state)],
    }


class PolicyLaws:
    """The six laws of :class:`SolvedLaws`, each read from the model solved under the
    result's policy from the asked state (``_under_policy``, which a subclass gives: the
    generic engine's :func:`~exactprob.engine.solve.evaluate` of its policy, kept per state)."""

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
        (:meth:`~exactprob.engine.solve.Solution.counter_distribution`)."""
        return self._under_policy(state).counter_distribution(counter, cap=cap)

    def expected_count(self, counter: Counter, state: Any = None) -> Any:
        """The expected total of ``counter`` along play from ``state``
        (:meth:`~exactprob.engine.solve.Solution.expected_count`)."""
        return self._under_policy(state).expected_count(counter)

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """The law of the total reward earned along play from ``state``
        (:meth:`~exactprob.engine.solve.Solution.reward_distribution`)."""
        return self._under_policy(state).reward_distribution(cap=cap)
