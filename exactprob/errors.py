"""The exception hierarchy: one root, subclasses that are also built-in errors.

Every error exactprob raises on bad input derives from :class:`ExactProbError`, so a
caller (the CLI in particular) can catch them all, and from the matching built-in
(``ValueError`` or ``TypeError``) so ordinary ``except ValueError`` code works too.
Messages name the bad value and say what is allowed.

>>> issubclass(InexactError, ValueError) and issubclass(InexactError, ExactProbError)
True
"""

from __future__ import annotations

__all__ = [
    "BookError",
    "ConstantError",
    "DistributionError",
    "ExactProbDeprecationWarning",
    "ExactProbError",
    "InexactError",
    "MissingExtraError",
    "ModelError",
    "NonTerminationError",
    "NumberTooLongError",
    "PRDError",
    "ResourceError",
    "SchedulerError",
    "StateLimitError",
    "UsageError",
    "WriteError",
]


class ExactProbError(Exception):
    """Root of every error exactprob raises on bad input or an unsolvable request."""


class InexactError(ExactProbError, ValueError, TypeError):
    """A number that cannot be represented exactly (a float that is not a dyadic rational
    we can accept, a NaN, an unparsable string)."""


class NumberTooLongError(InexactError):
    """A number written with more digits than exactprob reads (its message names the limit)."""


class DistributionError(ExactProbError, ValueError):
    """A distribution whose probabilities are negative, above one, or do not sum to one."""


class ModelError(ExactProbError, ValueError):
    """A model that breaks the protocol (no actions, a bad player, a bad transition)."""


class StateLimitError(ExactProbError, ValueError):
    """Exploration would pass the caller's state limit; raised before memory is spent."""


class NonTerminationError(ExactProbError, ValueError):
    """Some states never reach a terminal state under a policy, so values are undefined."""


class MissingExtraError(ExactProbError, ImportError):
    """A feature whose library is an optional extra that is not installed."""


class ResourceError(ExactProbError, ValueError):
    """A request too large to finish (outcomes, digits or memory beyond a limit): raised
    before the work from an estimate, or as soon as memory grows past what the machine
    can give."""


class UsageError(ExactProbError, ValueError):
    """A value the caller chose that is not allowed: a command-line flag, a function's
    option (an unknown name, a count out of range)."""


class ConstantError(UsageError):
    """A constant of a PRISM model with no value; ``name`` says which (the command line
    names its flag, the API its parameter)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"the constant {name} has no value: give it one with constants={{{name!r}: ...}}"
        )
        self.name = name


class WriteError(ExactProbError, OSError):
    """A file that cannot be written where it was asked for."""


class SchedulerError(ExactProbError, ValueError):
    """A Dask scheduler address that is malformed or cannot be reached."""


class BookError(ModelError):
    """A mistake in a book file; the message names the file, the section and the field."""


class PRDError(ModelError):
    """A pseudo-random distribution (PRD) table that is not allowed."""


class ExactProbDeprecationWarning(DeprecationWarning):
    """A public name, parameter or key that still works and goes in the next minor version;
    the message names its new spelling (:mod:`exactprob.util.deprecation`)."""
