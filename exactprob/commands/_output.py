"""What the subcommands write: a result as JSON or as text, a figure to a file, and
whether a progress bar shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..util.files import write_atomically
from ..util.progress import on_terminal

__all__ = ["emit", "save_figure", "show_progress"]


def save_figure(draw: Any, path: Path) -> None:
    """Draw a matplotlib figure (``draw()`` returns it) on the file backend and write it
    atomically to ``path`` in the format its suffix names; the figure is closed after."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = draw()
    try:
        write_atomically(
            path, lambda temporary: figure.savefig(temporary, format=path.suffix[1:].lower())
        )
    finally:
        plt.close(figure)


def show_progress(long_work: bool = True) -> bool:
    """Whether a command shows a progress bar: for ``long_work``, and only when stderr is a
    terminal (a bar in a log file or a pipe is noise)."""
    return long_work and on_terminal()


def emit(payload: dict[str, Any], text: str, as_json: bool) -> None:
    """Print ``payload`` as JSON or ``text`` for people."""
    print(json.dumps(payload, indent=2) if as_json else text)


def emit_with_plot(report: Any, plot: Path | None, as_json: bool) -> None:
    """Print ``report`` (its ``to_json()`` or ``text()``), first drawing its
    ``figure()`` (matplotlib axes) to ``plot`` when one is asked for: the JSON names the
    file, and the text ends with where it went."""
    payload, text = report.to_json(), report.text()
    if plot is not None:
        save_figure(lambda: report.figure().figure, plot)
        payload["plot"] = str(plot)
        text += f"\nplot written to {plot}"
    emit(payload, text, as_json)
