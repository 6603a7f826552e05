"""Reading the gamebook's TOML files (books and combat results tables) with one message
for a file that cannot be read or parsed."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..errors import ExactProbError, ModelError

__all__ = ["read_toml"]


def read_toml(path: Path, what: str, error: type[ExactProbError] = ModelError) -> dict[str, Any]:
    """The parsed document at ``path``; ``error`` naming the file and ``what`` it holds
    when it cannot be read, or is not valid TOML.

    >>> read_toml(Path("/no/such.toml"), "the book")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: /no/such.toml: cannot read the book: ...
    """
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as problem:
        raise error(f"{path}: cannot read {what}: {problem}") from None
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{path}: not valid TOML: {problem}") from None
    except UnicodeDecodeError as problem:
        raise error(f"{path}: not valid TOML: not UTF-8 text ({problem.reason})") from None
