"""The state limit, defined once: a request that would hold more states than its limit is
refused before the memory is spent, with one message that says how to go on.

The engine's solvers and the games' solvers that hold states take ``max_states`` (the
console script's ``--max-states``), :data:`DEFAULT_MAX_STATES` unless the caller passes
another. A solver that knows its count up front (a grid, a closed-form count) refuses with
the count; the explorer finds out on the way and refuses at the first state past the
limit. (The Jeopardy games' own solvers take no limit; the console script bounds them by
their count of non-terminal states.)

>>> check_max_states(10)
10
>>> print(too_many_states("the fight", 10, 30))
the fight has 30 states, more than the limit of 10; pass max_states=30 to go on
>>> print(too_many_states("the model", 10))
the model has more than 10 reachable states; pass max_states=N with a larger N to go on

The advice is in the caller's words: the console script runs with
:data:`ON_COMMAND_LINE` set, and then it names the flag:

>>> with on_command_line():
...     print(too_many_states("the fight", 10, 30))
the fight has 30 states, more than the limit of 10; pass --max-states 30 to go on
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import StateLimitError

__all__ = [
    "DEFAULT_MAX_STATES",
    "ON_COMMAND_LINE",
    "check_max_states",
    "limit_name",
    "on_command_line",
    "raise_limit",
    "refuse_more_than",
    "too_many_states",
]

#: States any solver holds unless its caller allows more (a few hundred bytes each).
DEFAULT_MAX_STATES = 2_000_000
#: Whether the console script is running: messages then name its flags, not parameters.
ON_COMMAND_LINE: ContextVar[bool] = ContextVar("on_command_line", default=False)


@contextmanager
def on_command_line() -> Iterator[None]:
    """Speak to the command line within (the console script's run)."""
    token = ON_COMMAND_LINE.set(True)
    try:
        yield
    finally:
        ON_COMMAND_LINE.reset(token)


def limit_name() -> str:
    """The state limit as the caller spells it: ``max_states`` or ``--max-states``."""
    return "--max-states" if ON_COMMAND_LINE.get() else "max_states"


def raise_limit(states: int | None = None) -> str:
    """How to allow ``states`` states (``None``: more than now), in the caller's words.

    >>> raise_limit(30), raise_limit()
    ('pass max_states=30', 'pass max_states=N with a larger N')
    """
    value = "N" if states is None else str(states)
    spelled = f"--max-states {value}" if ON_COMMAND_LINE.get() else f"max_states={value}"
    return f"pass {spelled}" + (" with a larger N" if states is None else "")


def check_max_states(max_states: object, name: str = "max_states") -> int:
    """``max_states`` itself, refused unless it is a whole number of at least 1 (``name``
    is how the caller spelled it: the argument or the flag)."""
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise StateLimitError(f"{name} must be a whole number >= 1, got {max_states!r}")
    return max_states


def too_many_states(
    what: str,
    max_states: int,
    states: int | None = None,
    *,
    at_most: bool = False,
    how: str | None = None,
) -> StateLimitError:
    """The error for ``what`` holding ``states`` states (``at_most``: up to that many, a
    bound), more than ``max_states``; ``states`` is ``None`` when only the passing of the
    limit is known (found while exploring). ``how`` replaces the advice on going on, for
    a caller whose limit is not spelled ``max_states`` / ``--max-states``."""
    if states is None:
        found = f"{what} has more than {max_states:,} reachable states"
    else:
        bound = "up to " if at_most else ""
        found = f"{what} has {bound}{states:,} states, more than the limit of {max_states:,}"
    return StateLimitError(f"{found}; {how or raise_limit(states)} to go on")


def refuse_more_than(
    max_states: int, states: int, what: str, *, at_most: bool = False, how: str | None = None
) -> None:
    """Refuse, before any work, ``what`` with ``states`` states (``at_most``: a bound on
    them) when that is more than ``max_states``; ``how`` as in :func:`too_many_states`."""
    if states > max_states:
        raise too_many_states(what, max_states, states, at_most=at_most, how=how)
