"""The ``Model`` protocol: how a game describes itself to the engine.

A model is any object with these members (duck typing; :class:`Model` documents it):

``initial``
    the initial state (hashable: a small tuple or a frozen dataclass); a model solved
    only from given ``starts=`` needs none.
``outcome(state)``
    the terminal value (int, ``Fraction``, sympy expression) or ``None`` while play goes on;
    or a *label* naming how play ended (``"bust"``, the seat that won), which
    :func:`exactprob.solve` pays from its ``payoffs=`` (:mod:`exactprob.engine.wrapped.payoffs`).
``actions(state)``
    a non-empty sequence of actions; a single action everywhere makes a Markov chain.
``transition(state, action)``
    a :class:`~exactprob.engine.dist.Dist` of next states.
``player(state)`` (optional)
    0 if the mover maximises the terminal value, 1 if it minimises it (two-player
    zero-sum games); 0 everywhere when absent. In a game of ``n`` seats, whose outcomes
    are tuples of ``n`` exact payoffs (one per seat), the seat ``0 .. n-1`` that moves,
    maximising its own payoff (:mod:`exactprob.engine.seats`).
``reward(state, action)`` (optional)
    the exact reward earned by taking ``action`` in ``state`` (PRISM's transition
    reward). The value of a state is then the expected total reward until play ends
    plus the terminal outcome; a cost is a reward minimised by player 1
    (:mod:`exactprob.engine._internal.rewards`). In a game of ``n`` seats, a tuple of
    ``n`` exact rewards, one per seat, added to each seat's payoff.
``expected_states`` (optional)
    how many states exploring will reach, when the model knows (an estimate will do): the
    total of the exploring bar, which otherwise only counts.

A transition back to the same state (a round in which nothing happens) needs no special
care: the solver removes every self-loop by do-over renormalisation.

>>> from exactprob import Dist
>>> class Coin:
...     initial = "start"
...     def outcome(self, s): return {"start": None, "H": 1, "T": 0}[s]
...     def actions(self, s): return ("flip",)
...     def transition(self, s, a): return Dist({"H": "1/2", "T": "1/2"})
>>> isinstance(Coin(), Model)
True

A reward adds to the outcome: here each flip pays 1, so the value is the one flip's
reward plus the expected outcome, :math:`1 + 1/2`:

>>> import exactprob as ep
>>> class PaidCoin(Coin):
...     def reward(self, s, a): return 1
>>> ep.solve(PaidCoin()).value()
Fraction(3, 2)
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from typing_extensions import TypeVar

from ..errors import InexactError, ModelError, UsageError
from ..util.numbers import exact, is_symbolic
from .dist import Dist

__all__ = [
    "MAX_SEATS",
    "Action",
    "Model",
    "State",
    "is_label",
    "move_count",
    "movers_allowed",
    "player_function",
    "seat_payoffs",
    "seats_refused",
    "unpaid_labels",
]

#: A model's state type: ``Model[State, Action]``, and its answers' (``ep.Solved[State]``).
#: Unsaid, it is ``Any``.
State = TypeVar("State", default=Any)
#: A model's action type (``Any`` unsaid).
Action = TypeVar("Action", default=Any)


@runtime_checkable
class Model(Protocol[State, Action]):
    """A game as states, actions and exact transition distributions: ``Model[State,
    Action]`` for its types, which a type checker reads from the model's annotations and
    carries into its answer (``ep.solve(model).value(state)`` takes a ``State``)."""

    @property
    def initial(self) -> State:
        """The state play starts from (hashable)."""

    def outcome(self, state: State) -> Any | None:
        """Terminal value of ``state`` (or a label naming the ending, paid by
        ``payoffs=``), or ``None`` if the game goes on."""

    def actions(self, state: State) -> Sequence[Action]:
        """The actions available in a non-terminal ``state`` (non-empty)."""

    def transition(self, state: State, action: Action) -> Dist[State]:
        """The distribution of the next state after ``action`` in ``state``."""


#: The most seats a game may have (a mover is kept in a byte).
MAX_SEATS = 256


def player_function(model: Any, seats: int = 2) -> Callable[[Any], int]:
    """The model's ``player`` method, checked to return a whole number from 0 to
    ``seats - 1`` (0 or 1 by default), or ``lambda s: 0``.

    >>> player_function(object())("any state")
    0
    """
    method = getattr(model, "player", None)
    if method is None:
        return lambda state: 0
    allowed = (
        "0 or 1, or a seat 0, 1, 2, ... in a game of seats"
        if seats == MAX_SEATS
        else movers_allowed(seats)
    )

    def checked(state: Any) -> int:
        who = method(state)
        try:
            seat = -1 if isinstance(who, bool) else operator.index(who)  # numpy ints too
        except TypeError:
            seat = -1
        if not 0 <= seat < seats:
            raise ModelError(f"player({state!r}) must be {allowed}, got {who!r}")
        return seat

    return checked


def movers_allowed(seats: int) -> str:
    """What ``player()`` may return in a game of ``seats`` (2: two zero-sum players).

    >>> movers_allowed(2), movers_allowed(3)
    ('0 or 1', 'a seat from 0 to 2')
    """
    return "0 or 1" if seats == 2 else f"a seat from 0 to {seats - 1}"


def seat_payoffs(outcome: object) -> tuple[Any, ...] | None:
    """``outcome`` as one exact payoff per seat, when it is a tuple of at least two exact
    rationals; else ``None``.

    >>> seat_payoffs((1, "1/2", 0)), seat_payoffs(("win", 1)), seat_payoffs(1)
    ((mpq(1,1), mpq(1,2), mpq(0,1)), None, None)
    """
    if type(outcome) is not tuple or len(outcome) < 2:
        return None
    try:
        payoffs = tuple(exact(x) for x in outcome)
    except InexactError:
        return None
    return None if any(is_symbolic(x) for x in payoffs) else payoffs


def move_count(counter: Callable[[Any, Any, Any], Any], state: Any, action: Any, after: Any) -> int:
    """What ``counter(state, action, after)`` adds to a count for the move from ``state``
    by ``action`` to ``after``: a whole number >= 0, or a :class:`ModelError` naming the
    move (the rule of every counter: the laws of a count, a horizon's steps).

    >>> move_count(lambda s, a, t: -1, 0, "roll", 1)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: the counter gives -1 for the move from 0 by 'roll' to 1; a counter adds a whole number >= 0 per move
    """
    count = counter(state, action, after)
    try:
        n = operator.index(count)
    except TypeError:
        n = -1
    if n < 0:
        raise ModelError(
            f"the counter gives {count!r} for the move from {state!r} by {action!r} to "
            f"{after!r}; a counter adds a whole number >= 0 per move"
        )
    return n


def is_label(outcome: object) -> bool:
    """Whether an outcome names an ending rather than paying for it: a hashable value
    that is neither a number nor a sympy expression (a string that reads as a number,
    ``"1/2"``, is read as one before this is asked).

    >>> is_label("bust"), is_label(("seat", 2)), is_label(0.1), is_label(True), is_label([1])
    (True, True, False, False, False)
    """
    if isinstance(outcome, numbers.Number) or is_symbolic(outcome):
        return False
    try:
        hash(outcome)
    except TypeError:
        return False
    return True


#: How many of a model's endings a refusal lists before "and N more".
SHOWN_ENDINGS = 12


def unpaid_labels(labels: Iterable[object], numbers: Iterable[object] | None = None) -> ModelError:
    """The refusal of a model whose outcomes include ``labels`` when no payoffs were given:
    one line naming the labels, and every ending a ``payoffs`` mapping must then pay (the
    labels and the ``numbers`` the other endings gave, when they are known).

    >>> print(unpaid_labels(["bust"], [17, 18]))
    outcome() gave labels, not numbers: 'bust'; solve or evaluate with payoffs={ending: \
value, ...} for every ending: 'bust', 17, 18
    >>> print(unpaid_labels(["bust"]))
    outcome() gave labels, not numbers: 'bust'; solve or evaluate with payoffs={ending: \
value, ...} for every ending, numbers included
    """
    labels = list(dict.fromkeys(labels))
    refusal = f"outcome() gave labels, not numbers: {_listed(labels)}; solve or evaluate "
    refusal += "with payoffs={ending: value, ...} for every ending"
    if numbers is None:
        return ModelError(f"{refusal}, numbers included")
    others = list(dict.fromkeys(numbers))
    try:
        others.sort()
    except TypeError:  # symbols: listed as met
        pass
    return ModelError(f"{refusal}: {_listed(labels + others)}")


def _listed(endings: list[object]) -> str:
    """The first :data:`SHOWN_ENDINGS` endings (a label as its ``repr``, a number as it
    prints), and how many more."""
    shown = ", ".join(repr(e) if is_label(e) else str(e) for e in endings[:SHOWN_ENDINGS])
    more = len(endings) - SHOWN_ENDINGS
    return shown if more <= 0 else f"{shown} and {more:,} more"


def seats_refused(what: str) -> UsageError:
    """The refusal of a game of seats (outcomes that are tuples) by ``what``, which
    answers games with one value per ending.

    >>> print(seats_refused("certified mode"))
    certified mode is for games with one value per ending; a game of seats (outcomes that are tuples, one payoff per seat) is solved by exactprob.solve(model), method 'exact'
    """
    return UsageError(
        f"{what} is for games with one value per ending; a game of seats (outcomes that "
        "are tuples, one payoff per seat) is solved by exactprob.solve(model), method 'exact'"
    )
