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

from ..choice_tree import (
    SolutionNode,
    Tree,
    reachable_nodes,
    situations,
    solve,
    walkthrough,
)
from ..errors import ModelError, StateLimitError, UsageError
from ..games.gamebook.book import Book, Hero, load_book
from ..limits import check_max_states
from ..numbers import decimal_string, exact_fields
from ..text import exact_text
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit, show_progress

__all__ = ["register", "run"]

DEFAULT_MAX_STATES = 1_000_000


def report(book: Book, tree: Tree, section: str) -> list[dict[str, Any]]:
    """The most likely situations on first arrival at ``section`` and the endings reached
    without passing it (the source's "HasLost 247: 0.0974" lines), sorted; they sum to 1."""
    if section not in book.sections:
        raise UsageError(f"--report: the book has no section {section!r}")
    found = situations(tree, lambda hero: hero.section == section or book.score(hero) is not None)
    return [
        {
            "situation": situation(book, hero),
            "ending": book.score(hero) is not None,
            **exact_fields("probability", p),
        }
        for hero, p in found
    ]


def situation(book: Book, hero: Hero) -> str:
    """A state in words; an ending says whether the hero won or lost there."""
    score = book.score(hero)
    if score is None:
        return book.describe(hero)
    return f"{'won' if score == 1 else 'lost'} at section {hero.section}"


def payload_of(book: Book, tree: Tree, args: argparse.Namespace) -> dict[str, Any]:
    nodes = list(reachable_nodes(tree))
    payload: dict[str, Any] = {"title": book.title, **exact_fields("win", tree.score)}
    payload["start"] = str(tree.state)
    payload["first_choice"] = tree.description if isinstance(tree, SolutionNode) else None
    payload["situations_under_optimal_play"] = len(nodes)
    if args.report is not None:
        payload["report_section"] = args.report
        payload["report"] = report(book, tree, args.report)
    if args.walkthrough:
        payload["walkthrough"] = [
            {"situation": book.describe(hero), "choice": choice, **exact_fields("win", value)}
            for hero, choice, value in walkthrough(tree)
        ]
    return payload


def text_of(payload: dict[str, Any], tree: Tree) -> str:
    lines = [f"{payload['title'] or 'Book'}: starting at {payload['start']}"]
    lines.append(f"  win with optimal play  {exact_text(tree.score)}")
    lines.append(f"  first choice           {payload['first_choice']}")
    for entry in payload.get("report", []):
        lines.append(f"  {entry['situation']}: {decimal_string(entry['probability'], 4)}")
    if "report" in payload and all(entry["ending"] for entry in payload["report"]):
        lines.append(f"  section {payload['report_section']} is never reached with optimal play")
    for step in payload.get("walkthrough", []):
        lines.append(f"  {step['situation']}: {step['choice']} ({step['win_decimal'][:8]})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    check_max_states(args.max_states, "--max-states")
    book = load_book(args.book)
    try:
        tree = solve(
            book.choices,
            book.score,
            book.initial,
            max_states=args.max_states,
            progress=show_progress(),  # a bar while solving, for a terminal
        )
    except (StateLimitError, ModelError) as error:  # too large; a loop never left
        raise UsageError(f"{args.book}: {error}") from None
    payload = payload_of(book, tree, args)
    emit(payload, text_of(payload, tree), args.json)


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
    add_max_states_flag(parser, DEFAULT_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
