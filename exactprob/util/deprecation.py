"""Deprecations: a public name, parameter or JSON key removed or renamed keeps working for
one minor version, and each use warns with its new spelling.

exactprob follows semantic versioning (CHANGELOG.md). A name deprecated in version
``0.N.0`` warns with :class:`~exactprob.errors.ExactProbDeprecationWarning` (a
``DeprecationWarning``) through the ``0.N`` series and is gone in ``0.(N+1).0``.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warn_deprecated("ep.enclose(model)", 'ep.solve(model, method="certified")', "0.2.0")
>>> print(caught[0].message)
ep.enclose(model) is deprecated since exactprob 0.2.0 and goes in 0.3.0: use ep.solve(model, method="certified")
"""

from __future__ import annotations

import warnings
from typing import Any, Literal

from ..errors import ExactProbDeprecationWarning, UsageError

__all__ = ["NOT_GIVEN", "ReportMethod", "method_of_exact", "removal_version", "warn_deprecated"]

#: The default of a deprecated parameter: not given (``None`` may mean something).
NOT_GIVEN: Any = object()

#: The solving methods a report's ``method=`` takes (``exactprob.METHODS``' first two).
ReportMethod = Literal["exact", "certified"]


def removal_version(since: str) -> str:
    """The version that removes a name deprecated in ``since``: the next minor version.

    >>> removal_version("0.2.0")
    '0.3.0'
    """
    major, minor, _ = since.split(".")
    return f"{major}.{int(minor) + 1}.0"


def warn_deprecated(old: str, new: str, since: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated since ``since``, naming ``new``, its replacement.
    ``stacklevel`` points the warning at the caller's line (3: the caller of the function
    that calls this one)."""
    message = (
        f"{old} is deprecated since exactprob {since} and goes in {removal_version(since)}: "
        f"use {new}"
    )
    warnings.warn(message, ExactProbDeprecationWarning, stacklevel=stacklevel)


def method_of_exact(
    exact: bool | None,
    method: ReportMethod | None,
    *,
    if_false: ReportMethod | None = "certified",
    stacklevel: int = 4,
) -> ReportMethod | None:
    """The ``method`` of a game report that was given the ``exact`` flag deprecated in
    0.3.0: ``True`` is ``"exact"``, ``False`` is ``if_false`` (what that report did without
    ``exact``); both at once are refused. ``stacklevel`` 4 points the warning at the
    report's caller.

    >>> method_of_exact(None, "exact")
    'exact'
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     method_of_exact(True, None)
    'exact'
    >>> str(caught[0].message).split(": ")[1]
    'use method="exact"'
    """
    if method not in (None, "exact", "certified"):
        raise UsageError(f"method must be 'exact' or 'certified', got {method!r}")
    if exact is None:
        return method
    if method is not None:
        raise UsageError(f"give method={method!r} only: exact= is deprecated")
    new = "exact" if exact else if_false
    warn_deprecated(
        f"exact={exact}", f"method={new!r}".replace("'", '"'), "0.3.0", stacklevel=stacklevel
    )
    return new
