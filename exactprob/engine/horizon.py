r"""Play within a horizon: a model whose play is cut off after ``N`` counted steps.

"What is my best chance to win within 10 turns?" is a question about a larger model: the
state must carry the steps left, and the best action then depends on them (a player
with one turn left gambles where one with five does not). :class:`WithinHorizon` is that
product: its states are pairs ``(state, left)``, the model's state and the steps left
from 0 to ``horizon``. A ``counter(state, action)`` says how many steps an action uses
(a whole number, 0 or more; 1 for every action by default, or 1 for the first action of
each turn to count turns). An action that fits, ``counter(state, action) <= left``, is
played as the model plays it, with ``left - counter(state, action)`` steps left after it;
one that does not fit ends play there, in the state ``(state, None)``, whose outcome is
0 and which collects no reward for that action. A state from which no action fits ends
play with outcome 0 itself. The model's own ending keeps its outcome whatever the steps
left. So with outcome 1 for a win and 0 otherwise, the value of ``(state, n)`` is the best
chance to win within ``n`` counted steps:

.. math::

   V_n(s) = \operatorname{best}_a \begin{cases}
       r(s, a) + \sum_{s'} P(s' \mid s, a)\, V_{n - c(s, a)}(s') & c(s, a) \le n \\
       0 & c(s, a) > n
   \end{cases}

with ``best`` the mover's max (player 0) or min (player 1). An action that uses no steps
stays on the same ``n``, so a cycle of them is solved as any cyclic model is.

:func:`exactprob.solve` builds the product when given ``horizon=``, and solves it from
``(state, n)`` for every ``n`` from ``horizon`` down to 0: one exploration and one solve
give the whole table over ``n``, and the policy at ``(state, n)`` is the best action with
``n`` steps left. The model's transitions are asked once per state and action, whatever
the horizon.

Best chance to get a six within ``n`` rolls of a die, or to stop: one roll gives 1/6,
two give :math:`1 - (5/6)^2 = 11/36`.

>>> import exactprob as ep
>>> class Six:
...     initial = "rolling"
...     def outcome(self, s): return 1 if s == "six" else None
...     def actions(self, s): return ("roll",)
...     def transition(self, s, a): return ep.Dist({"six": "1/6", "rolling": "5/6"})
>>> solution = ep.solve(Six(), horizon=2)
>>> [solution.value(("rolling", n)) for n in range(3)]
[0, Fraction(1, 6), Fraction(11, 36)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..errors import ModelError, UsageError
from ..util.numbers import plain_integer
from .array_model import one_state_at_a_time
from .dist import Dist

__all__ = ["Counter", "WithinHorizon", "within_horizon"]

#: ``counter(state, action)``: the steps an action uses, a whole number 0 or more.
Counter = Callable[[Any, Any], int]


def _every_action(state: Any, action: Any) -> int:
    """The default counter: every action is one step."""
    return 1


class WithinHorizon:
    """``model`` played within ``horizon`` steps of ``counter`` (every action one step by
    default), as a model whose states are ``(state, steps left)`` and ``(state, None)``
    for a play that went over (the module docstring has the rules and the equation).

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> within = WithinHorizon(GamblersRuin(goal=2, start=1, p="1/2"), 3)
    >>> within.initial, within.outcome((1, 0)), within.outcome((2, 0))
    ((1, 3), 0, 1)
    """

    def __init__(self, model: Any, horizon: int, counter: Counter | None = None) -> None:
        self.model: Any = one_state_at_a_time(model)
        self.horizon = check_horizon(horizon)
        self.counter = _every_action if counter is None else counter
        self._actions: dict[Hashable, tuple[tuple[Any, int], ...]] = {}  # state: (action, steps)
        self._moves: dict[tuple[Hashable, Any], Dist[Any]] = {}  # the model's, asked once
        if hasattr(self.model, "initial"):
            self.initial = (self.model.initial, self.horizon)
        if hasattr(self.model, "reward"):
            self.reward = self._reward
        if hasattr(self.model, "player"):
            self.player = self._player
        expected = getattr(self.model, "expected_states", None)
        if expected is not None:
            self.expected_states = expected * (self.horizon + 1)

    def outcome(self, state: tuple[Any, int | None]) -> Any | None:
        inner, left = state
        if left is None:
            return 0
        value = self.model.outcome(inner)
        if value is not None:
            return value
        if all(steps > left for _, steps in self._counted(inner)):
            return 0
        return None

    def actions(self, state: tuple[Any, int | None]) -> tuple[Any, ...]:
        return tuple(action for action, _ in self._counted(state[0]))

    def transition(self, state: tuple[Any, int | None], action: Any) -> Dist[Any]:
        inner, left = state
        steps = self._steps(inner, action)
        if left is None or steps > left:
            return Dist({(inner, None): 1})
        key = (inner, action)
        moves = self._moves.get(key)
        if moves is None:
            moves = self._moves[key] = self.model.transition(inner, action)
        after = left - steps
        return moves.map(lambda nxt: (nxt, after))

    def _player(self, state: tuple[Any, int | None]) -> Any:
        return self.model.player(state[0])

    def _reward(self, state: tuple[Any, int | None], action: Any) -> Any:
        inner, left = state
        if left is None or self._steps(inner, action) > left:
            return 0
        return self.model.reward(inner, action)

    def _steps(self, inner: Any, action: Any) -> int:
        for listed, steps in self._counted(inner):
            if listed == action:
                return steps
        return 0  # not offered: the explorer refuses the action itself

    def _counted(self, inner: Any) -> tuple[tuple[Any, int], ...]:
        """The model's actions at ``inner`` with the steps each uses, asked once."""
        found = self._actions.get(inner)
        if found is None:
            found = self._actions[inner] = tuple(
                (action, _checked_steps(self.counter, inner, action))
                for action in self.model.actions(inner)
            )
        return found


def within_horizon(
    model: Any, horizon: int, counter: Counter | None, starts: Sequence[Hashable] | None
) -> tuple[WithinHorizon, list[tuple[Any, int]]]:
    """The product model and its starts: each of ``starts`` (the model's initial state
    by default) with every number of steps left, from ``horizon`` down to 0, so one solve
    answers the whole table.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> _, starts = within_horizon(GamblersRuin(goal=2, start=1, p="1/2"), 2, None, None)
    >>> starts
    [(1, 2), (1, 1), (1, 0)]
    """
    product = WithinHorizon(model, horizon, counter)
    if starts is None:
        if not hasattr(product, "initial"):
            raise ModelError(
                "the model has no initial state; give starts= to play within a horizon"
            )
        roots = [product.model.initial]
    elif isinstance(starts, str | bytes):
        raise ModelError(f"starts must be a sequence of states, got {starts!r}")
    else:
        roots = list(starts)
    return product, [(root, n) for root in roots for n in range(product.horizon, -1, -1)]


def check_horizon(horizon: object) -> int:
    """``horizon`` checked: a whole number of steps, 0 or more.

    >>> check_horizon(-1)
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: horizon must be a whole number of steps, 0 or more, got -1
    """
    number = plain_integer(horizon)
    if type(number) is not int or number < 0:
        raise UsageError(f"horizon must be a whole number of steps, 0 or more, got {horizon!r}")
    return number


def _checked_steps(counter: Counter, state: Any, action: Any) -> int:
    """``counter(state, action)``, checked to be a whole number 0 or more."""
    steps = plain_integer(counter(state, action))
    if type(steps) is not int or steps < 0:
        raise ModelError(
            f"counter({state!r}, {action!r}) must be a whole number of steps, 0 or more, "
            f"got {steps!r}"
        )
    return steps
