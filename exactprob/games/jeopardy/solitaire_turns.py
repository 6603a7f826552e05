r"""A jeopardy race played alone against the clock: the best chance to reach the goal
within ``N`` turns, for every ``N`` up to a limit, and how the best play changes with the
turns left (Neller and Presser's *Pig Solitaire*).

The model (:class:`ReachAlone`) wins (1) at the goal; :func:`exactprob.solve` plays it
within a horizon of turns, a turn counted at its first draw
(:func:`~exactprob.games.jeopardy.solitaire.turn_start`), and one solve gives every
``N``.

Pig to 3 with a d6 in one turn: a 3 to 6 wins at once; a 2 leaves 2 in the turn, and
with no turn after this one rolling on is all there is (a 2 to 6 wins): :math:`4/6 +
(1/6)(5/6) = 29/36`. With two turns, a 1 first leaves one turn (29/36); after a 2,
rolling on wins with 5/6 and on a 1 still has a turn, which beats banking 2 (5/6 next
turn): :math:`4/6 + (1/6)(29/36) + (1/6)(5/6 + (1/6)(29/36)) = 1247/1296`.

>>> report = solitaire_turns_report(Pig(goal=3), 2)
>>> report.chances
(Fraction(29, 36), Fraction(1247, 1296))
>>> print(report.text())
Solitaire Pig to 3 with a d6, the best chance within N turns
  states  28
  exactly tied choices  0
  N  banks from 0 at  chance within N turns
  1  never            0.8055555556 = 29/36
  2  never            0.9621913580 = 1247/1296
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine import SolvedPlay, solve
from ...errors import ModelError
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import exact_fields, fraction_string, whole_number
from ...util.text import MAX_FRACTION_CHARS, decimal_text
from .report import rules_fields, rules_title
from .rules import FowlPlay, Pig
from .solitaire import SoloMoves, SoloState, refuse_large_solitaire, turn_start

__all__ = ["MAX_TURNS", "Bank", "ReachAlone", "SolitaireTurnsReport", "solitaire_turns_report"]

Bank = tuple[int, bool]
"""``(turn total, tied)``: the first total at which holding is a best play, and whether
drawing on is exactly as good there."""

#: The most turns asked about (the states grow with them; ``max_states`` bounds the rest).
MAX_TURNS = 1000


class ReachAlone(SoloMoves):
    """``game`` played alone, won (1) on reaching the goal; within a horizon of turns
    (:func:`~exactprob.games.jeopardy.solitaire.turn_start`) its value is the chance to
    get there in time.

    >>> import exactprob as ep
    >>> ep.solve(ReachAlone(Pig(goal=2)), horizon=1, counter=turn_start).value()
    Fraction(5, 6)
    """

    def outcome(self, state: SoloState) -> int | None:
        return 1 if state[0] >= self.game.goal else None


@dataclass(frozen=True, eq=False)
class SolitaireTurnsReport(Report):
    """The race alone within ``turns``: the best chance within each ``N`` from 1 to
    ``turns`` (``chances``), the states of the one solve, how many of them offer exactly
    tied choices, and the first bank (``holds``): for each number of turns left (this one
    included) and each score where such a turn starts on a fresh deck, the smallest turn
    total at which holding is a best play, with whether drawing on is exactly as good
    (``None``: it draws on to the goal)."""

    game: Pig | FowlPlay
    turns: int
    chances: tuple[Fraction, ...]
    states: int
    ties: int
    holds: dict[int, dict[int, Bank | None]]

    def _build(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "goal": self.game.goal,
            **rules_fields(self.game),
            "turns": self.turns,
            "states": self.states,
            "tied_choices": self.ties,
            "within": [
                {"turns": n, **exact_fields("chance", chance)}
                for n, chance in enumerate(self.chances, 1)
            ],
            "holds": [
                {
                    "turns_left": n,
                    "score": score,
                    "turn_total": None if bank is None else bank[0],
                    "tied": bank is not None and bank[1],
                }
                for n, by_score in self.holds.items()
                for score, bank in by_score.items()
            ],
        }

    def text(self) -> str:
        """The chance for each ``N`` (a long fraction in the JSON only), with the first
        bank from a score of 0 on the first of the ``N`` turns (``=``: tied with drawing
        on; every score's in the JSON)."""
        head = ("N", "banks from 0 at", "chance within N turns")
        rows = [
            (str(n), _bank_text(self.holds[n].get(0)), _chance_text(chance))
            for n, chance in enumerate(self.chances, 1)
        ]
        widths = [max(len(row[k]) for row in [head, *rows]) for k in range(2)]
        lines = [
            f"Solitaire {rules_title(self.game)}, the best chance within N turns",
            f"  states  {self.states:,}",
            f"  exactly tied choices  {self.ties:,}",
        ]
        lines += [f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c}" for a, b, c in [head, *rows]]
        return "\n".join(lines)

    def figure(self) -> Any:
        """The chance for each ``N``, and the first bank by score and turns left
        (:func:`~exactprob.games.jeopardy.figures.within_turns_figure`; matplotlib axes of
        the first panel)."""
        from .figures import within_turns_figure

        banks = np.full((self.game.goal, self.turns), np.nan)
        for n, by_score in self.holds.items():
            for score, bank in by_score.items():
                banks[score, n - 1] = 0 if bank is None else bank[0]
        chances = np.array([float(chance) for chance in self.chances])
        return within_turns_figure(chances, banks, f"Solitaire {rules_title(self.game)}")


def solitaire_turns_report(
    game: Pig | FowlPlay,
    turns: int,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> SolitaireTurnsReport:
    """Solve ``game`` alone within every number of turns up to ``turns`` in one solve
    (:class:`ReachAlone` within a horizon) and report it (:class:`SolitaireTurnsReport`)."""
    whole_number("turns", turns, 1, MAX_TURNS, ModelError)
    refuse_large_solitaire(game, max_states, turns)
    model = ReachAlone(game)
    solution = solve(
        model, horizon=turns, counter=turn_start, max_states=max_states, progress=progress
    )
    start, known = model.initial, set(solution.states)
    return SolitaireTurnsReport(
        game=game,
        turns=turns,
        chances=tuple(Fraction(solution.value((start, n))) for n in range(1, turns + 1)),
        states=len(solution.states),
        ties=sum(len(solution.ties(s)) > 1 for s in solution.states),
        holds={n: _first_banks(game, solution, known, n) for n in range(1, turns + 1)},
    )


def _first_banks(
    game: Pig | FowlPlay, solution: SolvedPlay, known: set[Any], turns: int
) -> dict[int, Bank | None]:
    """With ``turns`` turns left (this one included), each score's smallest turn total
    at which holding is a best play, and whether it is tied, on a turn begun on a fresh
    deck that has not busted; scores where no such turn starts (not in ``known``, the
    solution's states) are left out."""
    banks: dict[int, Bank | None] = {}
    for score in range(game.goal):
        if ((score, 0, game.fresh), turns) not in known:
            continue  # no turn starts there with these turns left
        banks[score] = None
        for total in range(1, game.goal - score):
            state = ((score, total, game.deck_after(total)), turns - 1)
            best = solution.ties(state) if state in known else ()
            if "hold" in best:
                banks[score] = (total, len(best) > 1)
                break
    return banks


def _bank_text(bank: Bank | None) -> str:
    """``never``, a turn total, or a turn total and ``=`` when tied."""
    return "never" if bank is None else f"{bank[0]}{'=' if bank[1] else ''}"


def _chance_text(chance: Fraction) -> str:
    """``decimal = p/q``, or the decimal alone when the fraction is long.

    >>> _chance_text(Fraction(1, 8)), _chance_text(Fraction(2**300 - 1, 2**301))
    ('0.1250000000 = 1/8', '0.5000000000 (exact in --json)')
    """
    fraction = fraction_string(chance)
    if len(fraction) <= MAX_FRACTION_CHARS:
        return f"{decimal_text(chance)} = {fraction}"
    return f"{decimal_text(chance)} (exact in --json)"
