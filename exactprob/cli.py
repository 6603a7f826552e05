"""The ``exactprob`` console script: one subcommand per game, ``--json`` on each.

Exact numbers appear in JSON as ``"p/q"`` strings, each with a ``<key>_decimal`` twin.
Bad input gives one line on stderr and exit status 2, never a traceback. Ctrl-C stops a
command with one line and status 130, SIGTERM silently with status 143; either way a file
being written is removed (:func:`~exactprob.files.write_atomically`). Progress bars show
on a terminal only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .errors import ExactProbError, UsageError
from .files import check_output, write_atomically

__all__ = [
    "PLOT_FORMATS",
    "UsageError",
    "integer",
    "main",
    "one_line",
    "plot_path",
    "show_progress",
    "write_atomically",
]

DECIMAL_DIGITS = 12


#: A whole number as the flags take it: ASCII digits, an optional minus, at most 30 digits.
_INTEGER = re.compile(r"-?[0-9]{1,30}")
#: A value that starts with a minus but is a number, not an option: -3, -0.5, -1/10, -1e-3.
_NEGATIVE_NUMBER = re.compile(r"-([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?(/[0-9]+)?")


def integer(text: str) -> int:
    """The ``type`` of the whole-number flags: ASCII digits only. (``int`` also takes
    underscores and the digits of other scripts, ``١٠٠``, which the rest of the project
    refuses.)

    >>> integer("-12")
    -12
    >>> integer("1_000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number in digits 0-9, got '1_000'
    """
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a whole number in digits 0-9, got {text!r}")
    return int(text)


def one_line(message: str) -> str:
    """An error message on one line: a newline inside a quoted argument is shown as
    ``\\n``.

    >>> one_line("bad value 'a\\nb'")
    "bad value 'a\\\\nb'"
    """
    return message.replace("\r", "\\r").replace("\n", "\\n")


class _Parser(argparse.ArgumentParser):
    """argparse with the project's error convention (one line, exit status 2), and a
    negative fraction or exponent (``--start -1/10``) taken as a value, not an option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE_NUMBER
        #: The subcommands' parsers by name (the top-level parser only).
        self.commands: Mapping[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {one_line(message)}\n")
        raise SystemExit(2)


def build_parser(command: str | None = None) -> _Parser:
    """The parser of every subcommand, in which only ``command``'s module is imported and
    registered in full; the others are one-line entries of
    :data:`~exactprob.commands.SUBCOMMANDS`, enough for ``--help``.

    >>> parser = build_parser("dice")
    >>> parser.parse_args(["dice", "2d6"]).expression
    '2d6'
    """
    from .commands import SUBCOMMANDS, help_of, module_of

    parser: _Parser = _Parser(
        prog="exactprob",
        description=(
            "Exact probabilities for games of chance: exact rationals, optimal play with "
            "exact ties, independent checks. Every subcommand takes --json."
        ),
    )
    parser.add_argument("--version", action="version", version=f"exactprob {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    chosen = SUBCOMMANDS[command][0] if command in SUBCOMMANDS else None
    for name, (module, _) in SUBCOMMANDS.items():
        if module != chosen:
            sub.add_parser(name, help=help_of(name))
        elif name not in sub.choices:  # its module registers all of its subcommands
            module_of(name).register(sub)
    parser.commands = sub.choices
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line: the first word that is not an option
    (the script's own options, ``--help`` and ``--version``, take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """The ``--json`` flag every subcommand carries."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def add_max_states_flag(parser: argparse.ArgumentParser, default: int) -> None:
    """The ``--max-states`` flag of the subcommands that explore a state graph."""
    parser.add_argument(
        "--max-states",
        type=integer,
        default=default,
        help=f"refuse problems with more states than this (default {default:,})",
    )


PLOT_FORMATS = (".png", ".svg", ".pdf")


def plot_path(text: str | None) -> Path | None:
    """The ``--plot FILE`` of a subcommand, checked before any work: a known image format,
    and a place a file can be written (:func:`~exactprob.files.check_output`)."""
    if text is None:
        return None
    path = Path(text)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise UsageError(
            f"--plot: the file name must end in {', '.join(PLOT_FORMATS)}, got {text!r}"
        )
    return check_output(path, "--plot")


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
    return long_work and sys.stderr.isatty()


def emit(payload: dict[str, Any], text: str, as_json: bool) -> None:
    """Print ``payload`` as JSON or ``text`` for people."""
    print(json.dumps(payload, indent=2) if as_json else text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_in(words))
    args, unknown = parser.parse_known_args(words)
    if args.command is None:
        if unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        parser.print_help()
        return 0
    if unknown:  # reported by the subcommand's parser, so that the message names it
        parser.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        args.run(args)
        sys.stdout.flush()
    except ExactProbError as error:
        sys.stderr.write(f"exactprob {args.command}: error: {one_line(str(error))}\n")
        return 2
    except MemoryError:  # the estimates up front missed: still one line, nothing written
        sys.stderr.write(f"exactprob {args.command}: error: out of memory; try a smaller problem\n")
        return 2
    except BrokenPipeError:  # the reader went away (``exactprob ... | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # Ctrl-C: files being written were removed on the way out
        sys.stderr.write(f"\nexactprob {args.command}: interrupted\n")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM unwinds like Ctrl-C (a temporary output file is removed on the way) and
    the process exits with status 143 (128 + 15), silently."""
    raise SystemExit(128 + signum)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
