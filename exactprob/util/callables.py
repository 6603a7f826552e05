"""What a user's function can be called with: a model's methods and a counter are checked
once, up front, so that a wrong signature is one line naming the call the engine makes,
not Python's error from deep inside a solve.

>>> def counter(state, action): return 1
>>> takes_arguments(counter, 3), parameters_text(counter)
(False, '(state, action)')
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..errors import ModelError

__all__ = ["check_call", "parameters_text", "takes_arguments"]


def takes_arguments(function: Callable[..., Any], n: int) -> bool:
    """Whether ``function`` can be called with ``n`` positional arguments, by its own
    signature or by the one it wraps (a decorator's ``functools.wraps``); a callable
    whose signature Python cannot read is taken on trust."""
    for follow_wrapped in (True, False):
        try:
            inspect.signature(function, follow_wrapped=follow_wrapped).bind(*range(n))
        except TypeError:
            continue
        except ValueError:
            return True
        return True
    return False


def parameters_text(function: Callable[..., Any]) -> str:
    """How ``function`` reads, its parameters' names: ``(s, extra)``."""
    try:
        return f"({', '.join(inspect.signature(function).parameters)})"
    except ValueError:
        return "(...)"


def check_call(function: Callable[..., Any], what: str, call: str, n: int) -> None:
    """Refuse ``function`` (``what``, e.g. "the model's outcome") when it cannot be called
    as ``call`` with ``n`` positional arguments.

    >>> check_call(lambda s: 1, "the counter", "counter(state, action, after)", 3)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: the counter takes (s), but the engine calls it as counter(state, action, after)
    """
    if not takes_arguments(function, n):
        raise ModelError(
            f"{what} takes {parameters_text(function)}, but the engine calls it as {call}"
        )
