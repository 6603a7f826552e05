r"""Endings that are categories: a model whose ``outcome`` names how play ended, paid
by a table of payoffs.

A model may say *how* play ended rather than what it is worth: ``outcome(state)`` returns
a label such as ``"bust"``, the dealer's final total, or the seat that won. The law of
the labels does not depend on what they are worth; a value does, and the best play too.
:func:`exactprob.solve` takes the worth of each ending as ``payoffs={ending: value}``
and plays the model with :class:`Paid`: the same states, actions, moves, movers and
rewards, each ending worth its payoff,

.. math::

   V(s) = u\big(\ell(s)\big) \quad \text{for a terminal } s,

with :math:`\ell(s)` the model's outcome and :math:`u` the payoffs, which pay every
ending the model reaches, numbers included: an outcome missing from them is refused in
one line, never taken as its own value. Without payoffs, a model whose outcomes include
labels is refused in one line naming those met (the explorers'
:func:`~exactprob.engine.model.unpaid_labels`). The law of the labels, under the
answer's play, is where play ends read through the model's outcome:
``solution.absorption().map(model.outcome)`` (``ep.per_state(model).outcome`` for an
array model). Payoffs may be symbols: a chain's value is then a function of them.

A d6 rolled until the total reaches 4: it ends on 4 (``"four"``) or passes it
(``"over"``). From 0 the law is :math:`P(\text{four}) = (1 + 1/6)^3/6 = 343/1296`
(a total of 4 is hit exactly when each of the totals before it is rolled from one
below with 1/6 more), and with ``four`` paying 1 the value is that chance:

>>> import exactprob as ep
>>> class ToFour:
...     initial = 0
...     def outcome(self, s): return None if s < 4 else ("four" if s == 4 else "over")
...     def actions(self, s): return ("roll",)
...     def transition(self, s, a): return ep.die(6).map(lambda face: s + face)
>>> solution = ep.solve(ToFour(), payoffs={"four": 1, "over": 0})
>>> solution.value()
Fraction(343, 1296)
>>> dict(solution.absorption().map(ToFour().outcome))
{'four': Fraction(343, 1296), 'over': Fraction(953, 1296)}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from ...errors import InexactError, ModelError, UsageError
from ...util.numbers import exact
from ..array_model import ArrayModel, Branch
from ..model import seat_payoffs

__all__ = ["Paid", "PaidArrays", "check_payoffs", "paid"]


def check_payoffs(payoffs: object) -> dict[Hashable, Any]:
    """``payoffs`` as a dict of exact values (a rational, a sympy expression in symbols,
    or for a game of seats a tuple of rationals, one per seat), at least one; anything
    else is refused in one line.

    >>> check_payoffs({"win": "1/2", "lose": 0})
    {'win': mpq(1,2), 'lose': mpq(0,1)}
    >>> check_payoffs({"win": 0.1})
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: payoffs['win'] must be an exact number: float 0.1 is not the number it prints (in binary it is 3602879701896397/2**55); pass an exact value such as '1/10' (a float is taken only when it prints its exact value, as 0.5 does)
    """
    if not isinstance(payoffs, Mapping) or not payoffs:
        raise UsageError(
            f"payoffs must be a mapping from each ending to its value, such as "
            f"{{'win': 1, 'lose': 0}}, got {payoffs!r}"
        )
    checked = {}
    for ending, value in payoffs.items():
        if isinstance(value, tuple):  # a game of seats: one payoff per seat
            seats = seat_payoffs(value)
            if seats is None:
                raise UsageError(
                    f"payoffs[{ending!r}] must be an exact number, or a tuple of at least two "
                    f"exact rationals (one payoff per seat), got {value!r}"
                )
            checked[ending] = seats
            continue
        try:
            checked[ending] = exact(value)
        except InexactError as error:
            raise UsageError(f"payoffs[{ending!r}] must be an exact number: {error}") from None
    return checked


class _Payoffs:
    """The payoffs of one model's endings, looked up with a refusal naming the ending."""

    def __init__(self, payoffs: object) -> None:
        self.payoffs = check_payoffs(payoffs)

    def of(self, ending: Any, state: Any) -> Any:
        """The payoff of ``ending``, the outcome of ``state``: its own key, or, for an
        ending that reads as a number (``"1/2"``, ``sympy.Rational(1, 2)``), the key
        equal to that number, as the refusal without payoffs lists it.

        >>> _Payoffs({17: 1, "bust": 0}).of("17", "s")
        mpq(1,1)
        """
        try:
            return self.payoffs[ending]
        except (KeyError, TypeError):
            pass
        try:
            return self.payoffs[exact(ending)]
        except (InexactError, KeyError, TypeError):
            paid = ", ".join(repr(e) for e in self.payoffs)
            raise ModelError(
                f"outcome({state!r}) is {ending!r}, which payoffs does not pay; it pays {paid}"
            ) from None


class Paid:
    """``model`` with each ending worth its payoff (the module docstring has the rule):
    the model's states, actions, moves, movers and rewards, as they are.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin  # ends 1 at the goal, 0 ruined
    >>> paid = Paid(GamblersRuin(goal=2, start=1, p="1/2"), {0: -1, 1: 5})
    >>> paid.initial, paid.outcome(1), paid.outcome(0), paid.outcome(2)
    (1, None, mpq(-1,1), mpq(5,1))
    """

    def __init__(self, model: Any, payoffs: object) -> None:
        self.model = model
        self._payoffs = _Payoffs(payoffs)
        for name in ("initial", "player", "reward", "expected_states"):
            if getattr(model, name, None) is not None:
                setattr(self, name, getattr(model, name))

    def outcome(self, state: Any) -> Any | None:
        ending = self.model.outcome(state)
        return None if ending is None else self._payoffs.of(ending, state)

    def actions(self, state: Any) -> Any:
        return self.model.actions(state)

    def transition(self, state: Any, action: Any) -> Any:
        return self.model.transition(state, action)


class PaidArrays(ArrayModel):
    """An :class:`~exactprob.engine.array_model.ArrayModel` with each ending worth its
    payoff: its ``outcome(states)`` gives an ending per row (integer codes, or an object
    array of labels), which are paid row by row; the rest is the model's.

    >>> class Coin(ArrayModel):
    ...     sizes, initial, actions = (3,), (0,), ("flip",)
    ...     def terminal(self, states): return states[:, 0] > 0
    ...     def outcome(self, states): return np.where(states[:, 0] == 1, "heads", "tails")
    ...     def transition(self, states, action): return [("1/2", states + 1), ("1/2", states + 2)]
    >>> PaidArrays(Coin(), {"heads": 1, "tails": 0}).outcome(np.array([[1], [2]])).tolist()
    [mpq(1,1), mpq(0,1)]
    """

    def __init__(self, model: ArrayModel, payoffs: object) -> None:
        self.model = model
        self._payoffs = _Payoffs(payoffs)
        self.sizes, self.initial, self.actions = model.sizes, model.initial, model.actions
        for name in ("reward", "expected_states"):
            if getattr(model, name, None) is not None:
                setattr(self, name, getattr(model, name))

    def terminal(self, states: np.ndarray) -> np.ndarray:
        return self.model.terminal(states)

    def outcome(self, states: np.ndarray) -> np.ndarray:
        endings = np.asarray(self.model.outcome(states))
        if endings.shape != (len(states),):
            raise ModelError(
                f"outcome() returned shape {endings.shape} for {len(states)} states; one "
                "ending per row"
            )
        paid = np.empty(len(states), dtype=object)
        for row, (state, ending) in enumerate(zip(states.tolist(), endings.tolist())):
            paid[row] = self._payoffs.of(ending, tuple(state))
        return paid

    def enabled(self, states: np.ndarray, action: Hashable) -> np.ndarray:
        return self.model.enabled(states, action)

    def transition(self, states: np.ndarray, action: Hashable) -> list[Branch]:
        return list(self.model.transition(states, action))

    def player(self, states: np.ndarray) -> np.ndarray:
        return self.model.player(states)


def paid(model: Any, payoffs: object) -> Paid | PaidArrays:
    """``model`` with its endings paid by ``payoffs``: a :class:`PaidArrays` for an array
    model, a :class:`Paid` for any other."""
    if isinstance(model, ArrayModel):
        return PaidArrays(model, payoffs)
    return Paid(model, payoffs)
