"""Files written whole or not at all.

A result file is written through a temporary file in the same directory and renamed over
the target only when complete, so a reader (or a rerun after a crash) sees the old file or
the new one, never half of one.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "note.txt"
...     write_atomically(path, lambda temporary: temporary.write_text("done"))
...     path.read_text(), sorted(p.name for p in Path(folder).iterdir())
('done', ['note.txt'])
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import ExactProbError

__all__ = ["WriteError", "check_output", "write_atomically"]


class WriteError(ExactProbError, OSError):
    """A file that cannot be written where it was asked for."""


def write_atomically(path: Path, write: Any) -> None:
    """Write through a temporary file in the same directory, renamed when complete
    (``write(temporary_path)`` does the writing); a file that cannot be written there is a
    :class:`WriteError` (one line), and nothing is left behind."""
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise WriteError(f"cannot write {str(path)!r}: {error.strerror}") from None
    os.close(handle)
    umask = os.umask(0)
    os.umask(umask)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 is for the temporary only
        os.replace(temporary, path)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, OSError) and not isinstance(error, WriteError):
            raise WriteError(f"cannot write {str(path)!r}: {error.strerror}") from None
        raise


def check_output(path: Path, flag: str) -> Path:
    """``path`` if a result can be written there, checked before any work: its directory
    exists and takes a new file, and ``path`` is absent or a regular file (a symlink, a
    device or a directory is refused rather than replaced); else a :class:`WriteError`
    naming ``flag``.

    >>> check_output(Path("/dev/null"), "--out")
    Traceback (most recent call last):
    ...
    exactprob.files.WriteError: --out: '/dev/null' is not a regular file; write to a new or regular file
    """
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise WriteError(
            f"{flag}: {str(path)!r} is not a regular file; write to a new or regular file"
        )
    if not path.parent.is_dir():
        raise WriteError(f"{flag}: directory {str(path.parent)!r} does not exist")
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        raise WriteError(
            f"{flag}: cannot write in {str(path.parent)!r}: {error.strerror}"
        ) from None
    return path
