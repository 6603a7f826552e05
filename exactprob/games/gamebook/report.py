"""A book solved and reported in one call: the chance of winning with optimal choices,
the first choice, the most likely situations on first reaching a section, the walkthrough.
One result (:class:`BookReport`) with its JSON form and its text, which is all the
``exactprob gamebook`` command prints.

>>> report = solve_book("examples/books/the_salt_mine.toml", walkthrough=True)
>>> payload = report.to_json()
>>> first = payload["walkthrough"][0]  # the walkthrough starts where the book does
>>> first["situation"] == payload["start"], first["win"] == payload["win"]
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...engine import (
    SolutionNode,
    Tree,
    reachable_nodes,
    situations,
    solve_choices,
    walkthrough,
)
from ...errors import ModelError
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.numbers import exact_fields
from ...util.text import decimal_text, exact_text
from .book import Book, Hero, load_book

__all__ = ["BookReport", "solve_book"]


@dataclass(frozen=True, eq=False)
class BookReport(Report):
    """A solved book, with the report on ``section`` and the walkthrough when asked."""

    book: Book = field(repr=False)
    tree: Tree = field(repr=False)
    section: str | None = None
    with_walkthrough: bool = False

    @property
    def win(self) -> Fraction:
        """The chance of winning with optimal choices."""
        score: Fraction = self.tree.score
        return score

    def situation(self, hero: Hero) -> str:
        """A state in words; an ending says whether the hero won or lost there."""
        score = self.book.score(hero)
        if score is None:
            return self.book.describe(hero)
        return f"{'won' if score == 1 else 'lost'} at section {hero.section}"

    def section_report(self) -> list[dict[str, Any]]:
        """The most likely situations on first arrival at the section and the endings
        reached without passing it (the source's "HasLost 247: 0.0974" lines), sorted;
        they sum to 1."""
        book, section = self.book, self.section
        found = situations(
            self.tree, lambda hero: hero.section == section or book.score(hero) is not None
        )
        return [
            {
                "situation": self.situation(hero),
                "ending": book.score(hero) is not None,
                **exact_fields("probability", p),
            }
            for hero, p in found
        ]

    def _build(self) -> dict[str, Any]:
        """The JSON form, computed once."""
        tree = self.tree
        payload: dict[str, Any] = {"title": self.book.title, **exact_fields("win", tree.score)}
        payload["start"] = str(tree.state)
        payload["first_choice"] = tree.description if isinstance(tree, SolutionNode) else None
        payload["situations_under_optimal_play"] = sum(1 for _ in reachable_nodes(tree))
        if self.section is not None:
            payload["report_section"] = self.section
            payload["report"] = self.section_report()
        if self.with_walkthrough:
            payload["walkthrough"] = [
                {
                    "situation": self.book.describe(hero),
                    "choice": choice,
                    **exact_fields("win", value),
                }
                for hero, choice, value in walkthrough(tree)
            ]
        return payload

    def text(self) -> str:
        """The report for people: the chance of winning, the first choice, the section's
        situations as decimals and the walkthrough."""
        payload = self._json
        lines = [f"{payload['title'] or 'Book'}: starting at {payload['start']}"]
        lines.append(f"  win with optimal play  {exact_text(self.tree.score)}")
        lines.append(f"  first choice           {payload['first_choice']}")
        for entry in payload.get("report", []):
            lines.append(f"  {entry['situation']}: {exact_text(entry['probability'])}")
        if "report" in payload and all(entry["ending"] for entry in payload["report"]):
            lines.append(
                f"  section {payload['report_section']} is never reached with optimal play"
            )
        for step in payload.get("walkthrough", []):
            lines.append(f"  {step['situation']}: {step['choice']} ({decimal_text(step['win'])})")
        return "\n".join(lines)


def solve_book(
    book: Book | str | Path,
    *,
    section: str | None = None,
    walkthrough: bool = False,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> BookReport:
    """Solve ``book`` (a :class:`~.book.Book` or its file) exactly; report on
    ``section`` (checked before any work) and the walkthrough when asked.

    Raises :class:`~exactprob.errors.ModelError` for a section the book does not have or
    a loop that can never be left, :class:`~exactprob.errors.StateLimitError` past
    ``max_states`` (up front when one evadable fight alone can pass it:
    :meth:`~.book.Book.largest_fight`)."""
    if not isinstance(book, Book):
        book = load_book(book)
    if section is not None and section not in book.sections:
        raise ModelError(f"the book has no section {section!r}")
    fight_states, where = book.largest_fight()  # refused before any work
    refuse_more_than(max_states, fight_states, f"the evadable fight in {where}", at_most=True)
    tree = solve_choices(
        book.choices, book.score, book.initial, max_states=max_states, progress=progress
    )
    return BookReport(book, tree, section, walkthrough)
