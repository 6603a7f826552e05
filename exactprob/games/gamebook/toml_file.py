"""Reading the gamebook's TOML files (books and combat results tables) with one message
for a file that cannot be read or parsed.

Only a regular file of at most :data:`MAX_TOML_BYTES` is read: a device (``/dev/zero``)
or a pipe would never end, and is refused before a byte is read."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from ...errors import ExactProbError, ModelError

__all__ = ["MAX_TOML_BYTES", "read_toml"]

#: The largest TOML file read (a book of thousands of sections is well under 1 MB).
MAX_TOML_BYTES = 16 * 2**20


def read_toml(path: Path, what: str, error: type[ExactProbError] = ModelError) -> dict[str, Any]:
    """The parsed document at ``path``; ``error`` naming the file and ``what`` it holds
    when it cannot be read, or is not valid TOML.

    >>> read_toml(Path("/no/such.toml"), "the book")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: /no/such.toml: cannot read the book: ...
    """
    try:
        data = _read_regular_file(path, MAX_TOML_BYTES)
    except OSError as problem:
        raise error(f"{path}: cannot read {what}: {problem.strerror or problem}") from None
    if data is None:
        raise error(f"{path}: cannot read {what}: not a regular file")
    if len(data) > MAX_TOML_BYTES:
        raise error(f"{path}: cannot read {what}: larger than {MAX_TOML_BYTES:,} bytes")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{path}: not valid TOML: {problem}") from None
    except UnicodeDecodeError as problem:
        raise error(f"{path}: not valid TOML: not UTF-8 text ({problem.reason})") from None
    except RecursionError:
        raise error(
            f"{path}: not valid TOML for {what}: arrays or tables nested too deeply"
        ) from None


def _read_regular_file(path: Path, most: int) -> bytes | None:
    """Up to ``most + 1`` bytes of ``path``, or ``None`` when it is not a regular file.
    Opened without blocking, so that a pipe with no writer is refused, not waited on."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            return handle.read(most + 1)
    finally:
        os.close(descriptor)
