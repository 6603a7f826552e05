r"""A jeopardy race among two to six seats answered in full (:func:`seat_race_report`):
each seat's exact chance with every seat playing for itself, the head starts that make
the game fairest, and where each seat first holds. What ``exactprob pig --seats N`` (and
``fowl-play``, ``red-light``) prints.

Pig to 2 among three seats: the first roll wins unless it is a 1, so seat :math:`i` wins
:math:`\tfrac56 (1/6)^i / (1 - 6^{-3})`; a head start of 1 changes nothing (a roll of 2
to 6 still wins), so every head start ties as the fairest, and nobody holds:

>>> print(seat_race_report(Pig(goal=2), 3).text())
Pig to 2 with a d6, 3 seats, head starts 0, 0, 0, every seat optimal
  seat 1 wins  0.8372093023 = 36/43
  seat 2 wins  0.1395348837 = 6/43
  seat 3 wins  0.0232558140 = 1/43
  first hold at the start  seat 1: never, seat 2: never, seat 3: never
  non-terminal states  12
  fairest head starts  0, 0, 0 and 3 more (seats win 0.8372093023, 0.1395348837, 0.0232558140)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from ...engine import value_fields
from ...util.display import Report
from ...util.text import decimal_text, exact_text
from .report import refuse_above, rules_fields, rules_title
from .rules import FowlPlay, Pig
from .solving.seats import (
    SeatRace,
    check_head_starts,
    check_seats,
    seat_states,
    solve_seat_race,
)

__all__ = ["MAX_SEAT_STATES", "SeatRaceReport", "check_seat_size", "seat_race_report"]

#: The most non-terminal states :func:`seat_race_report` solves unless given ``max_states``
#: (three seats of Pig to 50 have 3,187,500).
MAX_SEAT_STATES = 4_000_000


def check_seat_size(game: Pig | FowlPlay, seats: int, max_states: int | None = None) -> None:
    """Refuse, before any work, a race among ``seats`` with more non-terminal states than
    ``max_states`` (by default :data:`MAX_SEAT_STATES`).

    >>> check_seat_size(FowlPlay(), 3)
    Traceback (most recent call last):
    ...
    exactprob.errors.StateLimitError: 3 seats of Fowl Play to 50 have 524,385,000 non-terminal \
states, more than the 4,000,000 solved by default; pass max_states=524385000 to try \
anyway
    """
    subject = f"{seats} seats of {game.name} to {game.goal} have"
    refuse_above(subject, seat_states(game, seats), max_states, MAX_SEAT_STATES)


@dataclass(frozen=True, eq=False)
class SeatRaceReport(Report):
    """The race among seats solved (``race``), asked about ``head_starts``."""

    race: SeatRace
    head_starts: tuple[int, ...]

    @property
    def seat_wins(self) -> tuple[Fraction, ...]:
        """Each seat's chance at the head starts asked about, in the order they play."""
        return self.race.seat_wins(self.head_starts)

    @cached_property
    def fairest(self) -> tuple[tuple[int, ...], ...]:
        """The fairest head starts (:meth:`~.solving.seats.SeatRace.fairest_head_starts`),
        found once for the JSON and the text."""
        return self.race.fairest_head_starts()

    @cached_property
    def first_holds(self) -> tuple[int | None, ...]:
        """Each seat's first hold at the head starts asked about, found once."""
        return self.race.first_holds(self.head_starts)

    def _build(self) -> dict[str, Any]:
        race, game, fairest = self.race, self.race.game, self.fairest
        return {
            "game": game.name,
            "goal": game.goal,
            **rules_fields(game),
            "seats": race.seats,
            "head_starts": list(self.head_starts),
            "exact": True,
            "tie_rule": "first",
            **value_fields("seat_wins", self.seat_wins),
            "first_hold": list(self.first_holds),
            "nonterminal_states": seat_states(game, race.seats),
            "fairest_head_starts": [list(head) for head in fairest],
            **value_fields("fairest_seat_wins", race.seat_wins(fairest[0])),
        }

    def text(self) -> str:
        """The report for people (seats numbered from 1, the first to move)."""
        race, fairest = self.race, self.fairest
        more = f" and {len(fairest) - 1} more" if len(fairest) > 1 else ""
        fair_wins = ", ".join(decimal_text(w) for w in race.seat_wins(fairest[0]))
        holds = ", ".join(
            f"seat {i}: {'never' if k is None else k}"
            for i, k in enumerate(self.first_holds, start=1)
        )
        title = f"{rules_title(race.game)}, {race.seats} seats"
        return "\n".join(
            [
                f"{title}, head starts {_listed(self.head_starts)}, every seat optimal",
                *(f"  seat {i} wins  {exact_text(w)}" for i, w in enumerate(self.seat_wins, 1)),
                f"  first hold at the start  {holds}",
                f"  non-terminal states  {seat_states(race.game, race.seats):,}",
                f"  fairest head starts  {_listed(fairest[0])}{more} (seats win {fair_wins})",
            ]
        )


def _listed(numbers: Sequence[int]) -> str:
    return ", ".join(map(str, numbers))


def seat_race_report(
    game: Pig | FowlPlay,
    seats: int,
    head_starts: Sequence[int] | None = None,
    *,
    max_states: int | None = None,
    progress: bool = False,
) -> SeatRaceReport:
    """Solve ``game`` among ``seats`` exactly (:func:`~.solving.seats.solve_seat_race`),
    asking about ``head_starts`` (one per seat, default none); a game larger than
    ``max_states`` is refused before any work (:func:`check_seat_size`)."""
    check_seat_size(game, check_seats(seats), max_states)
    head = check_head_starts(game, seats, head_starts)
    return SeatRaceReport(solve_seat_race(game, seats, progress=progress), head)
