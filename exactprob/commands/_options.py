"""The flags the subcommands share, parsed and checked before any work: whole numbers
in ASCII digits, ``--json``, ``--exact``, ``--max-states`` and ``--plot FILE``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from ..errors import UsageError
from ..util.files import check_output

__all__ = [
    "PLOT_FORMATS",
    "add_exact_flag",
    "add_json_flag",
    "add_max_states_flag",
    "integer",
    "plot_path",
]

#: The most digits a whole-number flag takes (every limit of the project is far below).
MOST_DIGITS = 30
#: A whole number as the flags take it: ASCII digits and an optional minus.
_INTEGER = re.compile(r"-?[0-9]+")


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
    >>> integer("9" * 40)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number of at most 30 digits is allowed, got one of 40
    """
    if not _INTEGER.fullmatch(text):
        shown = text if len(text) <= 40 else f"{text[:20]}...{text[-10:]}"
        raise argparse.ArgumentTypeError(f"expected a whole number in digits 0-9, got {shown!r}")
    digits = len(text.lstrip("-"))
    if digits > MOST_DIGITS:
        raise argparse.ArgumentTypeError(
            f"a whole number of at most {MOST_DIGITS} digits is allowed, got one of {digits:,}"
        )
    return int(text)


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """The ``--json`` flag every subcommand carries."""
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def add_exact_flag(
    parser: argparse.ArgumentParser | argparse._ActionsContainer, scope: str
) -> None:
    """The ``--exact`` flag, one meaning everywhere: exact rationals where the subcommand
    would otherwise give a certified enclosure; ``scope`` says where that is and the cost."""
    parser.add_argument(
        "--exact",
        action="store_true",
        help=f"exact rationals where a certified enclosure is the default: {scope}",
    )


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
    and a place a file can be written (:func:`~exactprob.util.files.check_output`)."""
    if text is None:
        return None
    path = Path(text)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise UsageError(
            f"--plot: the file name must end in {', '.join(PLOT_FORMATS)}, got {text!r}"
        )
    return check_output(path, "--plot")
