"""Files written whole or not at all.

A result file is written through a temporary file in the same directory and renamed over
the target only when complete, so a reader (or a rerun after a crash) sees the old file or
the new one, never half of one; several files that belong together (a data file and its
figures) are renamed only when all are complete (:func:`write_all`).

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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import WriteError
from .progress import progress_bar

__all__ = [
    "WriteError",
    "check_directory",
    "check_output",
    "folder_for",
    "shown_path",
    "write_all",
    "write_atomically",
]


def write_atomically(path: Path, write: Any) -> None:
    """Write through a temporary file in the same directory, renamed when complete
    (``write(temporary_path)`` does the writing); a file that cannot be written there is a
    :class:`WriteError` (one line), and nothing is left behind."""
    write_all([(path, write)])


def write_all(writes: Sequence[tuple[Path, Any]], *, progress: bool = False) -> None:
    """Write several files all or none: each ``write(temporary_path)`` fills a temporary
    file beside its target, and only when every one is complete are they renamed over
    their targets. A failure (a full disk, a signal) removes the temporaries and leaves
    every target as it was; an ``OSError`` becomes a one-line :class:`WriteError`. With
    ``progress``, a bar counts the files written.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     a, b = Path(folder) / "a.txt", Path(folder) / "b.txt"
    ...     def fail(temporary):
    ...         raise OSError(28, "No space left on device")
    ...     try:
    ...         write_all([(a, lambda t: t.write_text("a")), (b, fail)])
    ...     except WriteError as error:
    ...         print(error, sorted(p.name for p in Path(folder).iterdir()))  # doctest: +ELLIPSIS
    cannot write '.../b.txt': No space left on device []
    """
    staged: list[tuple[Path, Path]] = []
    current = Path()
    umask = os.umask(0)
    os.umask(umask)
    try:
        with progress_bar(progress, "writing", total=len(writes), unit=" files") as bar:
            for current, write in writes:
                temporary = Path(_temporary_beside(current))
                staged.append((temporary, current))
                write(temporary)
                os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 is for the temporary only
                bar.update(1)
        for temporary, current in staged:
            os.replace(temporary, current)
    except BaseException as error:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        if isinstance(error, OSError) and not isinstance(error, WriteError):
            raise WriteError(f"cannot write {str(current)!r}: {error.strerror}") from None
        raise


def _temporary_beside(path: Path) -> str:
    """A new empty temporary file in ``path``'s directory (a :class:`WriteError` if none
    can be made there)."""
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise WriteError(f"cannot write {str(path)!r}: {error.strerror}") from None
    os.close(handle)
    return temporary


@contextmanager
def folder_for(path: Path | None, what: str) -> Iterator[None]:
    """Make the directory ``path`` and its missing parents for a run's files (a
    :class:`WriteError` naming ``what`` if it cannot be made); should the run fail (a full
    disk, a signal), the directories it made that are still empty are removed again.
    ``None``: nothing to make.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     try:
    ...         with folder_for(Path(folder) / "a" / "b", "--cache"):
    ...             raise KeyboardInterrupt
    ...     except KeyboardInterrupt:
    ...         print(list(Path(folder).iterdir()))
    []
    """
    if path is None:
        yield
        return
    made: list[Path] = []
    try:
        path = Path(os.path.normpath(path.absolute()))  # no '..' left to miscount
        made = [folder for folder in (path, *path.parents) if not _exists(folder)]
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _remove_empty(made)  # a parent made before a name too long, say
        raise WriteError(
            f"{what}: cannot make the directory {shown_path(path)}: {error.strerror}"
        ) from None
    try:
        yield
    except BaseException:
        _remove_empty(made)
        raise


def _exists(folder: Path) -> bool:
    """Whether ``folder`` exists (a name too long for the file system does not)."""
    try:
        return folder.exists()
    except OSError:
        return False


def _remove_empty(made: list[Path]) -> None:
    """Remove the folders of ``made`` (the deepest first) that are empty."""
    for folder in made:
        try:
            folder.rmdir()
        except OSError:  # not empty (nor are the ones above it), or never made
            if _exists(folder):
                break


def shown_path(path: Path, width: int = 60) -> str:
    """``path`` quoted for a message, its middle elided past ``width`` characters (with
    its length in bytes).

    >>> shown_path(Path("a" * 300 + ".png"))
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...aaaaaaaaaaaaaaaaaaaaaaaaaa.png' (304 bytes)"
    """
    text = str(path)
    if len(text) <= width:
        return repr(text)
    half = width // 2
    return f"'{text[:half]}...{text[-half:]}' ({len(os.fsencode(text)):,} bytes)"


def check_directory(path: Path, flag: str) -> Path:
    """``path`` if it is a directory, or absent (to be made), checked before any work;
    else a :class:`WriteError` naming ``flag``.

    >>> check_directory(Path("/dev/null"), "--cache")
    Traceback (most recent call last):
    ...
    exactprob.errors.WriteError: --cache must be a directory, got the file '/dev/null'
    """
    try:
        a_file = path.exists() and not path.is_dir()
    except OSError as error:  # a name too long for the file system, say
        raise WriteError(f"{flag}: cannot use {shown_path(path)}: {error.strerror}") from None
    if a_file:
        raise WriteError(f"{flag} must be a directory, got the file {str(path)!r}")
    return path


def check_output(path: Path, flag: str) -> Path:
    """``path`` if a result can be written there, checked before any work: its directory
    exists and takes a new file, and ``path`` is absent or a regular file (a symlink, a
    device or a directory is refused rather than replaced); else a :class:`WriteError`
    naming ``flag``.

    >>> check_output(Path("/dev/null"), "--out")
    Traceback (most recent call last):
    ...
    exactprob.errors.WriteError: --out: '/dev/null' is not a regular file; write to a new or regular file
    """
    try:
        unusable = path.is_symlink() or (path.exists() and not path.is_file())
        parent_missing = not path.parent.is_dir()
    except OSError as error:  # a name too long for the file system, say
        raise WriteError(f"{flag}: cannot write to {shown_path(path)}: {error.strerror}") from None
    if unusable:
        raise WriteError(
            f"{flag}: {str(path)!r} is not a regular file; write to a new or regular file"
        )
    if parent_missing:
        raise WriteError(f"{flag}: directory {str(path.parent)!r} does not exist")
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        raise WriteError(
            f"{flag}: cannot write in {str(path.parent)!r}: {error.strerror}"
        ) from None
    return path
