r"""Komi and fairness: the first player's chance for every komi, and the fairest komi.

One solve gives every komi at once: with komi :math:`K` the game starts at the turn start
:math:`(0, K)`, a state the solve of the whole game has already valued. The fairest komi
minimises :math:`|P(0, K, 0, \text{fresh}) - \tfrac12|`; exact values compare exactly (ties
all listed), enclosures list every komi that their widths cannot rule out.

>>> from exactprob.games.jeopardy.rules import Pig
>>> from exactprob.games.jeopardy.solving.solver import solve_race
>>> wins = komi_wins(solve_race(Pig(goal=6)))
>>> [str(w) for w in wins]  # a 2 to 6 reaches 6 from 4 or 5: komi 4 and 5 tie
['24/31', '3672/4799', '153/202', '612/815', '102/137', '102/137']
>>> fairest_komi(wins)
(4, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar

from ...engine import Enclosure
from ...util.display import exact_html, rows_html
from .rules import check_komi

__all__ = [
    "SolvedRace",
    "Win",
    "distance_from_even",
    "fairest_komi",
    "komi_wins",
    "win_html",
]

Win = Fraction | Enclosure
W = TypeVar("W", Fraction, Enclosure)
HALF = Fraction(1, 2)


def komi_wins(solution: SolvedRace[Fraction] | SolvedRace[Enclosure]) -> list[Win]:
    """The first player's chance for each komi ``0 .. goal - 1`` (exact or enclosed)."""
    return [solution.first_player_win(komi) for komi in range(solution.game.goal)]


def distance_from_even(win: Win) -> tuple[Fraction, Fraction]:
    """Bounds on :math:`|P - 1/2|`, exact (equal bounds) for a rational :math:`P`.

    >>> distance_from_even(Enclosure(0.25, 0.75))
    (Fraction(0, 1), Fraction(1, 4))
    """
    if isinstance(win, Fraction):
        return abs(win - HALF), abs(win - HALF)
    low, high = Fraction(win.low) - HALF, Fraction(win.high) - HALF
    far = max(abs(low), abs(high))
    return (Fraction(0) if low <= 0 <= high else min(abs(low), abs(high))), far


def fairest_komi(wins: Sequence[Win]) -> tuple[int, ...]:
    """The komi values closest to an even game: exact ties all, or for enclosures every
    komi whose distance from 1/2 might be the smallest.

    >>> fairest_komi([Fraction(3, 5), Fraction(2, 5), Fraction(1, 4)])
    (0, 1)
    """
    bounds = [distance_from_even(win) for win in wins]
    best = min(high for _, high in bounds)
    return tuple(komi for komi, (low, _) in enumerate(bounds) if low <= best)


def win_html(win: Win) -> str:
    """A chance to win as HTML: exact, or an enclosure's certain digits.

    >>> win_html(Enclosure(Fraction(333, 1000), Fraction(334, 1000)))
    '≈ 0.334 <small>(certified: within one unit of the last digit)</small>'
    """
    if isinstance(win, Fraction):
        return exact_html(win)
    return f"≈ {win.decimal()} <small>(certified: within one unit of the last digit)</small>"


class SolvedRace(Generic[W]):
    """A solved race, exact or certified: the first player's chance at any komi, which is
    the start :math:`(0, K)` of the solved game; Jupyter shows komi 0 and the fairest.
    A subclass gives ``start_value(a, b)``, the first player's chance at the start of a
    turn with ``a`` banked against ``b`` (fresh deck), and says what it solved in
    ``play``."""

    game: Any
    play = "optimal play"

    def start_value(self, a: int, b: int) -> W:  # pragma: no cover
        raise NotImplementedError

    def first_player_win(self, komi: int = 0) -> W:
        """The first player's chance to win when the second starts with ``komi`` points."""
        return self.start_value(0, check_komi(self.game, komi))

    def _repr_html_(self) -> str:
        wins = komi_wins(self)
        fair = fairest_komi(wins)
        rows = [
            ("first player wins, komi 0", win_html(wins[0])),
            ("fairest komi", ", ".join(f"{k}: {win_html(wins[k])}" for k in fair)),
        ]
        how = "exact" if isinstance(wins[0], Fraction) else "certified"
        return rows_html(f"{self.game.name} to {self.game.goal}, {self.play} ({how})", rows)
