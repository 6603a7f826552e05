r"""The best keep or category in a situation of a game, read from a solved game.

A *situation* is a turn-start state (the categories left, the upper total, whether the
Yahtzee box holds 50), the dice showing and how many rolls of the turn are done. Its
options are the turn's tables (:class:`~exactprob.games.yahtzee.model.TurnTables`) for that one state, from the
solved values of the next level: after roll 1 or 2 the keeps of the dice, valued
:math:`\sum_{r'} P(r' \mid k) E(r')`; after roll 3 the categories the rules allow,
valued by their score, bonuses and :math:`V(s')`. Every option's value is the expected
final score still to come, so options compare directly.

Exact solutions give exact values and exact ties. Certified ones give each option within
the level's radius :math:`R` (:meth:`~exactprob.engine.levels.sweep.LevelSolution.radius`,
which bounds the next values' error plus the turn's rounding): an option is *ruled out*
when its upper end lies below the best option's lower end; the others may be optimal.

>>> import exactprob as ep
>>> from .model import YahtzeeLevels
>>> from .rules import YahtzeeRules
>>> rules = YahtzeeRules(categories=("Sixes", "Yahtzee"))
>>> solved = ep.solve(YahtzeeLevels(rules))
>>> advice = advise(solved, Situation(rules, left=rules.categories, dice=(6, 6, 6, 2, 3), rolls=1))
>>> advice.best, advice.ties
('keep 6 6 6', ('keep 6 6 6',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine import Enclosure, LevelSolution
from ...errors import UsageError
from .dice import DICE, FACES
from .model import NOT_ALLOWED, YahtzeeLevels
from .rules import UPPER_BONUS_AT, YahtzeeRules

__all__ = ["Advice", "Situation", "advise"]


@dataclass(frozen=True)
class Situation:
    """A moment of a game: ``left`` the categories still open, ``upper`` the upper total
    so far, ``fifty`` whether the Yahtzee box holds 50, the five ``dice`` showing after
    roll ``rolls`` (1, 2 or 3) of the turn."""

    rules: YahtzeeRules
    left: tuple[str, ...]
    dice: tuple[int, ...]
    rolls: int
    upper: int = 0
    fifty: bool = False

    def __post_init__(self) -> None:
        unknown = [c for c in self.left if c not in self.rules.categories]
        if unknown or not self.left:
            raise UsageError(
                f"the categories left must be some of {', '.join(self.rules.categories)}, got "
                f"{', '.join(self.left) or 'none'}"
            )
        if len(self.dice) != 5 or any(not 1 <= d <= 6 for d in self.dice):
            raise UsageError(
                f"the dice must be five faces 1-6, got {' '.join(map(str, self.dice))}"
            )
        if self.rolls not in (1, 2, 3):
            raise UsageError(f"the rolls done must be 1, 2 or 3, got {self.rolls}")
        if len(set(self.left)) != len(self.left):
            raise UsageError(f"the categories left name one twice: {', '.join(self.left)}")
        if self.fifty and not self.rules.tracks_yahtzee:
            raise UsageError("the Yahtzee box holding 50 matters only with extra Yahtzees")
        if self.fifty and "Yahtzee" in self.left:
            raise UsageError("the Yahtzee box can hold 50 only when it is filled")
        if self.upper and not self.rules.tracks_upper:
            raise UsageError("the upper total matters only with the upper bonus and upper boxes")
        mask, capped, _ = self.state()
        possible = YahtzeeLevels(self.rules).upper_totals(mask)
        if self.rules.tracks_upper and (self.upper < 0 or capped not in possible):
            made = [str(t) if t < UPPER_BONUS_AT else f"{t} or more" for t in possible]
            raise UsageError(
                f"the upper boxes filled cannot total {self.upper}; they can make {', '.join(made)}"
            )

    def state(self) -> tuple[int, int, int]:
        """The turn-start state of the level model."""
        rules = self.rules
        mask = sum(1 << i for i, c in enumerate(rules.categories) if c not in self.left)
        upper = min(self.upper, UPPER_BONUS_AT) if rules.tracks_upper else 0
        return mask, upper, int(self.fifty and rules.tracks_yahtzee)


@dataclass(frozen=True)
class Advice:
    """The options of a situation with their values (the expected final score still to
    come: exact, or enclosures), the ``best`` and every option that may be optimal."""

    options: tuple[tuple[str, Any], ...]
    best: str
    ties: tuple[str, ...]


def advise(solution: LevelSolution, situation: Situation) -> Advice:
    """The options of ``situation`` in a game solved by ``ep.solve(YahtzeeLevels(rules))``."""
    model = solution.model
    if not isinstance(model, YahtzeeLevels) or model.rules != situation.rules:
        raise UsageError("the situation's rules are not the solved game's")
    state = np.array([situation.state()], dtype=np.int64)
    level = solution.level_of(situation.state())
    exact = solution.method == "exact"

    def values(rows: np.ndarray) -> np.ndarray:
        return solution.values(level + 1, rows)

    tables = model.turn(state, values, exact)
    roll = int(DICE.roll_indices(np.array([situation.dice]))[0])
    if situation.rolls == 3:
        found = [
            (f"fill {c}", tables.filled[0, j, roll])
            for j, c in enumerate(model.rules.categories)
            if tables.filled[0, j, roll] != NOT_ALLOWED
        ]
    else:
        keeps = tables.keep_first if situation.rolls == 1 else tables.keep_second
        inside = np.flatnonzero(DICE.keeps_within(np.array([roll]))[0])
        found = [(_keep_name(int(k)), keeps[0, k]) for k in inside]
    return _judged(found, Fraction(0) if exact else solution.radius(level))


def _judged(found: Sequence[tuple[str, Any]], radius: Fraction) -> Advice:
    """Options valued exactly (``radius`` 0) or within ``radius`` of their floats."""
    exact = radius == 0
    values = [Fraction(v) if exact else Fraction(float(v)) for _, v in found]
    top = max(values)
    best = found[values.index(top)][0]
    ties = tuple(name for (name, _), v in zip(found, values, strict=True) if v + 2 * radius >= top)
    shown = tuple(
        (name, v if exact else Enclosure(v - radius, v + radius))
        for (name, _), v in zip(found, values, strict=True)
    )
    return Advice(shown, best, ties)


def _keep_name(keep: int) -> str:
    """``"keep 6 6 6"``, or ``"reroll all"``."""
    faces = [str(f) for f, n in zip(FACES, DICE.keeps[keep], strict=True) for _ in range(n)]
    return f"keep {' '.join(faces)}" if faces else "reroll all"
