"""The ``exactprob`` console script: one subcommand per game, ``--json`` on each.

Exact numbers appear in JSON as ``"p/q"`` strings, each with a ``<key>_decimal`` twin.
Bad input gives one line on stderr and exit status 2, never a traceback. Ctrl-C stops a
command with one line and status 130, SIGTERM silently with status 143; either way a file
being written is removed (:func:`~exactprob.util.files.write_atomically`). Progress bars show
on a terminal only.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from . import __version__
from .errors import ExactProbError
from .util.limits import on_command_line

__all__ = ["build_parser", "main", "one_line"]

#: A value that starts with a minus but is a number, not an option: -3, -0.5, -1/10, -1e-3.
_NEGATIVE_NUMBER = re.compile(r"-([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?(/[0-9]+)?")


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
        with on_command_line():  # messages name flags (--max-states N), not parameters
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
