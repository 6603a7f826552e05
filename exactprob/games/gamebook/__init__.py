"""Gamebooks: books of sections, choices and chance, solved exactly as in the "solving a
gamebook" series.

* :mod:`exactprob.engine.choice_tree` (the engine's): ``solve_choices(choices, score, state)``, the
  solution tree, the walkthrough and the most-likely-situations report, re-exported here;
* :mod:`.combat`: Lone Wolf style combat from a combat results table loaded from TOML (an
  original example table ships in ``data/``);
* :mod:`.book`: the TOML book format (sections, effects, conditions, random branches,
  combat against one enemy or several, evasion chosen round by round), validated with the
  file, section and field of every mistake.

The tavern wheel of the same series is a game of its own, :mod:`exactprob.games.cartwheel`.

>>> from exactprob.games.gamebook import solve_choices
>>> solve_choices(lambda s: [("open the door", [("win", "1/3"), ("lose", "2/3")])],
...       lambda s: {"win": 1, "lose": 0}.get(s), "hall").score
Fraction(1, 3)
"""

from __future__ import annotations

from ...engine import (
    BookModel,
    Leaf,
    SolutionNode,
    situations,
    solve_choices,
    walkthrough,
)
from .book import Book, BookError, Hero, example_book, load_book
from .combat import (
    CombatResultsTable,
    column_index,
    evasion_round,
    example_crt,
    fight,
    fight_round,
    fight_sequence,
    load_crt,
)
from .report import BookReport, solve_book

__all__ = [
    "Book",
    "BookError",
    "BookModel",
    "BookReport",
    "CombatResultsTable",
    "Hero",
    "Leaf",
    "SolutionNode",
    "column_index",
    "evasion_round",
    "example_book",
    "example_crt",
    "fight",
    "fight_round",
    "fight_sequence",
    "load_book",
    "load_crt",
    "situations",
    "solve_book",
    "solve_choices",
    "walkthrough",
]
