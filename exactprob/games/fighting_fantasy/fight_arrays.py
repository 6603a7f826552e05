r"""Fighting Fantasy combat as an :class:`~exactprob.engine.array_model.ArrayModel`: every start of
a round of a grid explored in bulk and solved by the generic engine.

The rules are :class:`~.model.FightModel`'s, on vectors of whole numbers
``(phase, hero + 2, opponent + 3, luck, streak)``: phase 0 rolls the dice, phase 1 and 2
follow a won and a lost round (the hero chooses ``"no luck"`` or ``"luck"``), and the
offsets keep every stamina a blow can leave (down to -2 and -3) inside the box. The
initial states are every ``(0, h + 2, o + 3, l, 0)`` of the grid, so one solve covers
the whole grid, as the atlas needs. The engine's answers equal the grid sweep's
(:mod:`.grid`) on every state (``tests/test_fighting_fantasy.py``); the grid is faster
(:doc:`/benchmarks`) and stays the game's solver.

>>> from exactprob import solve
>>> fights = solve(FightArrays(Fight(0, 4, 4, 7)))
>>> fights.value(round_start(4, 4, 7)), fights.value(round_start(4, 4, 0))
(Fraction(9185, 13824), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

import numpy as np

from ...engine import ArrayModel, Branch
from ...errors import ModelError
from .model import LUCK, NO_LUCK
from .rules import luck_probability, round_counts
from .terms import Fight

__all__ = ["FightArrays", "round_start"]

_HERO, _OPPONENT = 2, 3  # offsets: a stamina of -2 / -3 is stored as 0
_ROUND, _WON, _LOST = 0, 1, 2
_DICE = 1296  # the round's counts are out of 6**4 outcomes of four dice


def round_start(hero: int, opponent: int, luck: int) -> tuple[int, int, int, int, int]:
    """The engine state of the start of a round with these staminas and luck."""
    return (_ROUND, hero + _HERO, opponent + _OPPONENT, luck, 0)


class FightArrays(ArrayModel):
    """Every start of a :class:`~exactprob.games.fighting_fantasy.terms.Fight`'s grid at once: hero stamina
    ``1..hero_stamina``, opponent stamina ``1..opponent_stamina``, luck ``0..luck``."""

    actions = ("roll", NO_LUCK, LUCK)

    def __init__(self, fight: Fight) -> None:
        if not isinstance(fight, Fight):
            raise ModelError(f"FightArrays takes a Fight, got {type(fight).__name__}")
        self.fight = fight
        hero_stamina, opponent_stamina, luck = (
            fight.hero_stamina,
            fight.opponent_stamina,
            fight.luck,
        )
        self.counts = round_counts(fight.delta)
        self.sizes = (3, hero_stamina + _HERO + 1, opponent_stamina + _OPPONENT + 1, luck + 1, 2)
        self.initial = [
            round_start(h, o, l)
            for l in range(luck + 1)
            for h in range(1, hero_stamina + 1)
            for o in range(1, opponent_stamina + 1)
        ]
        chances = [luck_probability(l) for l in range(luck + 1)]
        self.luck_numerators = np.array([t.numerator for t in chances], dtype=np.int64)
        self.luck_denominators = np.array([t.denominator for t in chances], dtype=np.int64)

    def terminal(self, states: np.ndarray) -> np.ndarray:
        return (states[:, 1] <= _HERO) | (states[:, 2] <= _OPPONENT)

    def outcome(self, states: np.ndarray) -> np.ndarray:
        values = np.empty(len(states), dtype=object)
        score = self.fight.objective.score
        for i, (hero, opponent, luck) in enumerate(states[:, 1:4].tolist()):
            won = hero > _HERO and opponent <= _OPPONENT
            values[i] = score(hero - _HERO, luck) if won else Fraction(0)
        return values

    def enabled(self, states: np.ndarray, action: Hashable) -> np.ndarray:
        phase = states[:, 0]
        if action == "roll":
            return phase == _ROUND
        if action == NO_LUCK:
            return phase != _ROUND
        return (phase != _ROUND) & (states[:, 3] >= 1)

    def transition(self, states: np.ndarray, action: Hashable) -> Sequence[Branch]:
        if action == "roll":
            return self._round(states)
        won = (states[:, 0] == _WON)[:, None]
        streak = ~won if self.fight.rule.two_in_a_row_kills else np.zeros_like(won)
        after = states * [0, 1, 1, 1, 0] + streak * [0, 0, 0, 0, 1]
        if action == NO_LUCK:
            return [(1, after - np.where(won, [0, 0, 2, 0, 0], [0, 2, 0, 0, 0]))]
        luck = states[:, 3]
        success = (self.luck_numerators[luck], self.luck_denominators[luck])
        failure = (success[1] - success[0], success[1])
        hit = self.fight.rule.lucky_hit
        lucky = after - np.where(won, [0, 0, hit, 1, 0], [0, 1, 0, 1, 0])
        unlucky = after - np.where(won, [0, 0, 1, 1, 0], [0, 3, 0, 1, 0])
        return [(success, lucky), (failure, unlucky)]

    def _round(self, states: np.ndarray) -> list[Branch]:
        """Won, drawn or lost; under *Crypt* a second lost round in a row kills."""
        win, draw, lose = self.counts
        streak = states[:, 4:5] == 1
        lost = np.where(streak, states * [0, 0, 1, 1, 0], states + [_LOST, 0, 0, 0, 0])
        drawn = states * [1, 1, 1, 1, 0]
        return [
            ((win, _DICE), states + [_WON, 0, 0, 0, 0]),
            ((draw, _DICE), drawn),
            ((lose, _DICE), lost),
        ]
