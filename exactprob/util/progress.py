"""Progress bars on long work: one context manager for every loop that shows one.

A bar is drawn on stderr only when asked for (the console script asks when stderr is a
terminal); otherwise the loop gets a silent stand-in with the same ``update``, so no loop
tests whether it has a bar. tqdm is imported only when a bar is drawn, and the bar is
closed however the loop ends (an error, Ctrl-C).

>>> with progress_bar(False, "solving", total=3, unit=" states") as bar:
...     for _ in range(3):
...         bar.update()
>>> bar.update(5) is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["Progress", "on_terminal", "progress_bar", "shows_progress"]


def on_terminal() -> bool:
    """Whether stderr is a terminal: where a bar is shown unless asked otherwise (a bar in
    a log file, a pipe or a notebook's captured stream is noise; so is no stderr, or a
    closed one)."""
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # an object without isatty; a closed stream
        return False


def shows_progress(progress: bool | None) -> bool:
    """Whether to show a bar for a public function's ``progress``: as asked, or by
    default (``None``) when stderr is a terminal (:func:`on_terminal`).

    >>> shows_progress(True), shows_progress(0)
    (True, False)
    """
    return on_terminal() if progress is None else bool(progress)


class Progress(Protocol):
    """What a loop sees of its bar: ``update(n)`` after ``n`` more units of work."""

    def update(self, n: int = 1) -> object: ...


class _Silent:
    """The bar of a loop that shows none."""

    __slots__ = ()

    def update(self, n: int = 1) -> None:
        """Nothing to draw."""


@contextmanager
def progress_bar(
    enabled: bool, description: str, *, total: int | None = None, unit: str = "it"
) -> Iterator[Progress]:
    """A tqdm bar on stderr labelled ``description`` when ``enabled``, else a silent one;
    ``total`` units of work when known (a count with no end otherwise)."""
    if not enabled:
        yield _Silent()
        return
    from tqdm import tqdm

    with tqdm(desc=description, total=total, unit=unit, leave=False) as bar:
        yield bar
