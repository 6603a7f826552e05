r"""The value of a simple strategy, through the engine: the level model with its choices fixed.

The optimal turn (:mod:`~exactprob.games.yahtzee.model`) takes a maximum at each choice;
a fixed strategy takes its own choice instead, and everything else (the rolls' chances,
the scores, the bonuses, the next turn's value) is the same. Its expected score is then
``ep.solve(GreedyLevels(rules))``, exact or certified like the optimum: fixed choices
make the step an average, which is monotone and non-expansive, and rounds no more than
the optimal step.

:class:`GreedyLevels` values the greedy player of the simulator
(:class:`~exactprob.games.yahtzee.simulator.GreedyPlayer`): keep the dice of the face
shown most (the higher face on a tie), and after the last roll fill the allowed
category whose plain score is highest (the first on the card on a tie).
:class:`GreedyKeeps` keeps greedily but fills the best category for what is to come, and
:class:`GreedyFills` fills greedily but keeps the best dice for that (a maximum over keeps
is still monotone and non-expansive): together they tell which half of the greedy
player's loss is its keeping and which its filling.

>>> import exactprob as ep
>>> from fractions import Fraction
>>> from .rules import YahtzeeRules
>>> one = YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False)
>>> ep.solve(GreedyLevels(one)).value() == 50 * Fraction(2_783_176, 6**10)
True

(Keeping the most common face is how the classic chance of a Yahtzee in three rolls,
2,783,176 / 6^10, is counted.)
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .dice import DICE
from .model import NOT_ALLOWED, YahtzeeLevels

__all__ = ["STRATEGIES", "GreedyFills", "GreedyKeeps", "GreedyLevels"]


class GreedyKeeps(YahtzeeLevels):
    """Keeps the dice of the face shown most (the higher face on a tie), whatever the
    values; fills the best category."""

    @cached_property
    def greedy_keep(self) -> np.ndarray:
        """For each roll, the keep of the dice of its most common face (the higher face
        on a tie), as an index among the keeps."""
        keeps = []
        for counts in DICE.rolls:
            face = 5 - int(np.argmax(counts[::-1]))  # the highest face shown most
            kept = [0] * 6
            kept[face] = int(counts[face])
            keeps.append(DICE.keep_index[tuple(kept)])
        return np.array(keeps, dtype=np.int64)

    def keep_pick(self, keep_values: np.ndarray) -> np.ndarray:
        """The greedy keep of each roll, whatever the values."""
        return np.broadcast_to(self.greedy_keep, (len(keep_values), len(self.greedy_keep)))

    def keep_choice(self, keep_values: np.ndarray) -> np.ndarray:
        """The value of the greedy keep of each roll."""
        kept: np.ndarray = keep_values[:, self.greedy_keep]
        return kept


class GreedyFills(YahtzeeLevels):
    """Fills the allowed category whose plain score is highest now (the first on the
    card on a tie); keeps the best dice for that."""

    def fill_pick(self, filled: np.ndarray) -> np.ndarray:
        """The allowed category with the highest plain score (the first on the card on a
        tie), for each roll."""
        plain = self.scores[0]  # (categories, rolls)
        allowed = filled != NOT_ALLOWED
        pick: np.ndarray = np.argmax(np.where(allowed, plain[None, :, :], -1), axis=1)
        return pick

    def fill_choice(self, filled: np.ndarray) -> np.ndarray:
        """The value of the category :meth:`fill_pick` takes."""
        chosen: np.ndarray = np.take_along_axis(filled, self.fill_pick(filled)[:, None, :], axis=1)
        return chosen[:, 0, :]


class GreedyLevels(GreedyKeeps, GreedyFills):
    """The greedy player's game: its keeps and categories in place of the best ones."""


#: The simple strategies valued beside optimal play, by name.
STRATEGIES: dict[str, type[YahtzeeLevels]] = {
    "greedy keeps, best categories": GreedyKeeps,
    "best keeps, greedy categories": GreedyFills,
    "greedy keeps and categories": GreedyLevels,
}
