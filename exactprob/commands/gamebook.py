"""``exactprob gamebook``: solve a book file exactly (win probability, report, walkthrough).

>>> from exactprob.cli import main
>>> main(["gamebook", "examples/books/the_salt_mine.toml", "--json"])  # doctest: +ELLIPSIS
{
  "title": "The Salt Mine",
  "win": "41614300923/62500000000",
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import BookError, ModelError, StateLimitError, UsageError
from ..games.gamebook import solve_book
from ..util.limits import check_max_states
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit, show_progress

__all__ = ["register", "run"]

#: This command's --max-states by default, tighter than the engine's (an answer in seconds).
COMMAND_MAX_STATES = 1_000_000


def run(args: argparse.Namespace) -> None:
    check_max_states(args.max_states, "--max-states")
    try:
        solved = solve_book(
            args.book,
            section=args.report,
            walkthrough=args.walkthrough,
            max_states=args.max_states,
            progress=show_progress(),  # a bar while solving, for a terminal
        )
    except BookError:  # its message names the file already
        raise
    except (StateLimitError, ModelError) as error:  # no such section; too large; a loop
        raise UsageError(f"{args.book}: {error}") from None
    emit(solved.to_json(), solved.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "gamebook",
        help=help_of("gamebook"),
        description=(
            "Solve a book written in exactprob's TOML book format (see "
            "exactprob.games.gamebook.book) exactly: the winning probability under optimal "
            "choices as a fraction and a decimal, the most likely situations on arriving "
            "at a section (--report), and the optimal choice in every situation met "
            "(--walkthrough). Books with loops are solved through the engine's cyclic solver."
        ),
    )
    parser.add_argument("book", help="the book file (.toml)")
    parser.add_argument("--report", metavar="SECTION", help="most likely situations there")
    parser.add_argument(
        "--walkthrough", action="store_true", help="the optimal choice in every situation"
    )
    add_max_states_flag(parser, COMMAND_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
