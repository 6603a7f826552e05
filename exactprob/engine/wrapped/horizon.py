r"""Play within a horizon: a model whose play is cut off after ``N`` counted steps.

"What is my best chance to win within 10 turns?" is a question about a larger model: the
state must carry the steps left, and the best action then depends on them (a player
with one turn left gambles where one with five does not). :class:`WithinHorizon` is that
product: its states are pairs ``(state, left)``, the model's state and the steps left
from 0 to ``horizon``. A counter says how many steps each move uses, as it does for the
laws of a count (:meth:`~exactprob.engine.results.SolvedLaws.counter_distribution`):
``counter(state, action, next_state)``, a whole number 0 or more; 1 for every move by
default, or 1 for the first roll of each turn to count turns. A move that fits,
``counter(state, action, next_state) <= left``, is played as the model plays it, with
that many steps fewer left; one that does not ends play in ``(next_state, None)``: it
came too late, its outcome is 0 and it earns nothing (an action's reward is earned on
the moves that fit, so with every move one step a horizon of ``n`` earns ``n`` rewards,
as Storm's cumulative ``C<=n``). The model's own ending keeps its outcome whatever the
steps left. So with outcome 1 for a win and 0 otherwise, the value of ``(state, n)`` is
the best chance to win within ``n`` counted steps:

.. math::

   V_n(s) = \operatorname{best}_a \sum_{s' :\, c(s, a, s') \le n}
       P(s' \mid s, a) \big( r(s, a) + V_{n - c(s, a, s')}(s') \big)

with ``best`` the mover's max (player 0) or min (player 1). A move that uses no steps
stays on the same ``n``, so a cycle of them is solved as any cyclic model is.

:func:`exactprob.solve` builds the product when given ``horizon=``, and solves it from
``(state, n)`` for every ``n`` from ``horizon`` down to 0: one exploration and one solve
give the whole table over ``n``, and the policy at ``(state, n)`` is the best action with
``n`` steps left. The model's transitions and the counter are asked once per state and
action, whatever the horizon.

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
[Fraction(0, 1), Fraction(1, 6), Fraction(11, 36)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from ...errors import ModelError, UsageError
from ...util.callables import check_call
from ...util.limits import refuse_more_than
from ...util.numbers import exact, is_symbolic, mpq, plain_integer, to_sympy
from ..array_model import ArrayModel, initial_states, one_state_at_a_time
from ..dist import Dist
from ..model import move_count
from ..results import Counter

__all__ = ["WithinHorizon", "check_horizon", "within_horizon"]


def _every_move(state: Any, action: Any, after: Any) -> int:
    """The default counter: every move is one step."""
    return 1


class WithinHorizon:
    """``model`` played within ``horizon`` steps of ``counter`` (every move one step by
    default), as a model whose states are ``(state, steps left)``, and ``(state, None)``
    for a move that came too late (the module docstring has the rules and the equation).

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> within = WithinHorizon(GamblersRuin(goal=2, start=1, p="1/2"), 3)
    >>> within.initial, within.outcome((1, 0)), within.outcome((2, 0)), within.outcome((2, None))
    ((1, 3), None, 1, 0)
    >>> dict(within.transition((1, 0), "bet"))
    {(0, None): Fraction(1, 2), (2, None): Fraction(1, 2)}
    """

    def __init__(self, model: Any, horizon: int, counter: Counter | None = None) -> None:
        self.model: Any = one_state_at_a_time(model)
        self.horizon = check_horizon(horizon)
        self.counter = _every_move if counter is None else _checked_counter(counter)
        self._moves: dict[tuple[Hashable, Any], tuple[Dist[Any], dict[Any, int]]] = {}
        if hasattr(self.model, "initial"):
            self.initial = (self.model.initial, self.horizon)
        if getattr(self.model, "reward", None) is not None:
            self.reward = self._reward
        if getattr(self.model, "player", None) is not None:
            self.player = self._player
        expected = getattr(self.model, "expected_states", None)
        if expected is not None:
            self.expected_states = expected * (self.horizon + 2)

    def outcome(self, state: tuple[Any, int | None]) -> Any | None:
        inner, left = state
        return 0 if left is None else self.model.outcome(inner)

    def actions(self, state: tuple[Any, int | None]) -> Any:
        return self.model.actions(state[0])

    def transition(self, state: tuple[Any, int | None], action: Any) -> Dist[Any]:
        inner, left = state
        assert left is not None  # a state over the horizon is terminal
        moves, counts = self._moves_of(inner, action)
        return moves.map(
            lambda after: (after, left - counts[after] if counts[after] <= left else None)
        )

    def _moves_of(self, inner: Any, action: Any) -> tuple[Dist[Any], dict[Any, int]]:
        """The model's moves by ``action`` from ``inner`` and the steps each uses, asked
        of the model and the counter once."""
        key = (inner, action)
        found = self._moves.get(key)
        if found is None:
            moves = self.model.transition(inner, action)
            counts = {after: move_count(self.counter, inner, action, after) for after in moves}
            found = self._moves[key] = (moves, counts)
        return found

    def _player(self, state: tuple[Any, int | None]) -> Any:
        return self.model.player(state[0])

    def _reward(self, state: tuple[Any, int | None], action: Any) -> Any:
        """The action's reward, earned on the moves that fit: all of it when every move
        fits, its share :math:`r \\sum_{s' \\text{ fits}} P(s')` when only some do."""
        inner, left = state
        assert left is not None
        reward = self.model.reward(inner, action)
        moves, counts = self._moves_of(inner, action)
        if max(counts.values()) <= left:
            return reward
        fits = sum((p for after, p in moves.exact_items() if counts[after] <= left), mpq(0))
        earned = exact(reward)
        return to_sympy(earned) * to_sympy(fits) if is_symbolic(earned) else earned * fits


def within_horizon(
    model: Any,
    horizon: int,
    counter: Counter | None,
    starts: Sequence[Hashable] | None,
    max_states: int,
) -> tuple[WithinHorizon, list[tuple[Any, int]]]:
    """The product model and its starts: each of ``starts`` (the model's initial state,
    or an array model's initial states, by default) with every number of steps left,
    from ``horizon`` down to 0, so one solve answers the whole table. More starts than
    ``max_states`` are refused before they are listed.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=2, start=1, p="1/2")
    >>> within_horizon(ruin, 2, None, None, 100)[1]
    [(1, 2), (1, 1), (1, 0)]
    >>> within_horizon(ruin, 10**12, None, None, 100)[1]
    Traceback (most recent call last):
    ...
    exactprob.errors.StateLimitError: the model within the horizon has 1,000,000,000,001 states, more than the limit of 100; pass max_states=1000000000001 to go on
    """
    product = WithinHorizon(model, horizon, counter)
    if starts is None:
        if isinstance(model, ArrayModel):
            roots: list[Any] = initial_states(model)
        elif hasattr(product, "initial"):
            roots = [product.model.initial]
        else:
            raise ModelError(
                "the model has no initial state; give starts= to play within a horizon"
            )
    elif isinstance(starts, str | bytes) or not isinstance(starts, Iterable):
        raise ModelError(f"starts must be a sequence of states, got {starts!r}")
    else:
        roots = list(starts)
    refuse_more_than(max_states, len(roots) * (product.horizon + 1), "the model within the horizon")
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


def _checked_counter(counter: object) -> Counter:
    """``counter`` if it can be called as ``counter(state, action, next_state)``.

    >>> _checked_counter(5)
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: counter must be a function counter(state, action, next_state), got 5
    """
    if not callable(counter):
        raise UsageError(
            f"counter must be a function counter(state, action, next_state), got {counter!r}"
        )
    check_call(counter, "the counter", "counter(state, action, next_state)", 3)
    return counter
