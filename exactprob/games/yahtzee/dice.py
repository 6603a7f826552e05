r"""Five dice as Yahtzee sees them: the 252 rolls, the 462 keeps, and the chances between.

Order does not matter, so a roll is a multiset of five faces (:math:`\binom{10}{5} = 252`
of them) and a *keep* is a multiset of 0 to 5 of a roll's dice (:math:`\binom{11}{5} =
462`). Rerolling the :math:`m = 5 - |k|` dice not kept turns keep :math:`k` into roll
:math:`r \supseteq k` with the multinomial chance

.. math::

    P(r \mid k) = \frac{m!}{\prod_f d_f!} \, 6^{-m}, \qquad d = r - k,

and the first roll is the keep of nothing. The best keep of a roll is a maximum over its
sub-multisets, computed for all rolls at once by :meth:`Dice.best_keep`: a keep's best
sub-keep is itself or the best of a keep with one die fewer (at most six of those).

>>> DICE.rolls.shape, DICE.keeps.shape
((252, 6), (462, 6))
>>> yahtzees = DICE.roll_counts[DICE.keep_index[(0, 0, 0, 0, 0, 0)]]  # from nothing
>>> int(yahtzees.sum()), int(yahtzees[DICE.roll_index[(0, 0, 0, 0, 0, 5)]])
(7776, 1)
"""

from __future__ import annotations

import itertools
from functools import cached_property
from math import factorial
from typing import Any

import gmpy2
import numpy as np

__all__ = ["DICE", "FACES", "Dice"]

#: The faces of a die.
FACES = np.arange(1, 7)


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` faces as counts per face, in a fixed order."""
    found = []
    for combo in itertools.combinations_with_replacement(range(6), size):
        counts = [0] * 6
        for face in combo:
            counts[face] += 1
        found.append(tuple(counts))
    return found


class Dice:
    """The rolls and keeps of five six-sided dice, as face counts, with their chances."""

    def __init__(self) -> None:
        keeps = [counts for size in range(6) for counts in _multisets(size)]
        rolls = _multisets(5)
        self.keeps = np.array(keeps, dtype=np.int64)
        self.rolls = np.array(rolls, dtype=np.int64)
        self.keep_index = {k: i for i, k in enumerate(keeps)}
        self.roll_index = {r: i for i, r in enumerate(rolls)}
        #: ``roll_counts[k, r]``: the ways (out of :math:`6^m`) keep ``k`` becomes roll ``r``.
        rest = self.rolls[None, :, :] - self.keeps[:, None, :]  # the dice the reroll adds
        factorials = np.array([factorial(n) for n in range(6)], dtype=np.int64)
        ways = factorials[rest.clip(0).sum(axis=2)] // factorials[rest.clip(0)].prod(axis=2)
        self.roll_counts = np.where((rest >= 0).all(axis=2), ways, 0)
        #: The number of dice rerolled from each keep.
        self.rerolled = 5 - self.keeps.sum(axis=1)
        #: Each keep's keeps with one die fewer, as indices (``len(keeps)`` for none).
        self.smaller = np.full((len(keeps), 6), len(keeps), dtype=np.int64)
        for i, keep in enumerate(keeps):
            for face in range(6):
                if keep[face]:
                    less = list(keep)
                    less[face] -= 1
                    self.smaller[i, face] = self.keep_index[tuple(less)]
        #: Each roll as a keep of all five dice.
        self.roll_as_keep = np.array([self.keep_index[r] for r in rolls], dtype=np.int64)

    @cached_property
    def float_chances(self) -> np.ndarray:
        """``P(r | k)`` as floats (each within a relative :math:`2^{-53}` of the exact chance)."""
        return self.roll_counts / (6.0**self.rerolled)[:, None]

    @cached_property
    def exact_chances(self) -> np.ndarray:
        """``P(r | k)`` as gmpy2 rationals."""
        scale = [gmpy2.mpq(1, 6 ** int(m)) for m in self.rerolled]
        return np.array(
            [
                [gmpy2.mpq(int(c)) * s for c in row]
                for row, s in zip(self.roll_counts, scale, strict=True)
            ],
            dtype=object,
        )

    def chances(self, exact: bool) -> np.ndarray:
        """``P(r | k)`` in the arithmetic asked for."""
        return self.exact_chances if exact else self.float_chances

    def roll_indices(self, dice: np.ndarray) -> np.ndarray:
        """Each row of five dice (faces 1-6, any order) as its index among the rolls.

        >>> int(DICE.roll_indices(np.array([[6, 6, 6, 6, 6]]))[0]) == DICE.roll_index[(0, 0, 0, 0, 0, 5)]
        True
        """
        counts = (np.asarray(dice)[:, :, None] == FACES[None, None, :]).sum(axis=1)
        return np.array([self.roll_index[tuple(row)] for row in counts.tolist()], dtype=np.int64)

    def keeps_within(self, rolls: np.ndarray) -> np.ndarray:
        """``(n, 462)`` booleans: which keeps are part of each roll (roll indices)."""
        inside: np.ndarray = (self.keeps[None, :, :] <= self.rolls[rolls][:, None, :]).all(axis=2)
        return inside

    @cached_property
    def _sizes(self) -> list[tuple[int, int]]:
        """Where the keeps of each size from 1 to 5 lie among the keeps: ``(start, stop)``."""
        stops = np.cumsum([len(_multisets(size)) for size in range(6)])
        return [(int(stops[size - 1]), int(stops[size])) for size in range(1, 6)]

    def _with_none(self, keep_values: np.ndarray, below: Any) -> np.ndarray:
        """``keep_values`` with one more column, ``below``, standing for no keep."""
        out = np.empty((len(keep_values), len(self.keeps) + 1), dtype=keep_values.dtype)
        out[:, :-1] = keep_values
        out[:, -1] = below
        return out

    def best_keep(self, keep_values: np.ndarray) -> np.ndarray:
        r"""For each row of ``keep_values`` (one value per keep, all >= 0), the best value
        of a keep of each roll: :math:`\max_{k \subseteq r} v(k)`, shape ``(n, 252)``.

        >>> values = np.zeros((1, 462))
        >>> values[0, DICE.keep_index[(1, 0, 0, 0, 0, 0)]] = 1.0  # keeping one ace
        >>> best = DICE.best_keep(values)[0]
        >>> float(best[DICE.roll_index[(1, 1, 1, 1, 1, 0)]]), float(best[DICE.roll_index[(0, 5, 0, 0, 0, 0)]])
        (1.0, 0.0)
        """
        best = self._with_none(keep_values, -1)  # below every value
        for start, stop in self._sizes:
            smaller = best[:, self.smaller[start:stop]]  # (n, keeps of this size, 6)
            best[:, start:stop] = np.maximum(best[:, start:stop], smaller.max(axis=2))
        return best[:, self.roll_as_keep]

    def best_keep_index(self, keep_values: np.ndarray) -> np.ndarray:
        r"""For each row of ``keep_values`` (all >= 0), the first keep (in the order of
        :attr:`keeps`) of each roll whose value is :meth:`best_keep`'s, shape ``(n, 252)``:
        each keep carries the first best of its sub-keeps, itself or its keeps with one
        die fewer.

        >>> values = np.zeros((1, 462))
        >>> best = DICE.best_keep_index(values)[0]  # every keep ties: keeping nothing is first
        >>> set(best.tolist())
        {0}
        """
        best = self._with_none(keep_values, -1)
        first = self._with_none(
            np.broadcast_to(np.arange(len(self.keeps)), keep_values.shape), len(self.keeps)
        )
        for start, stop in self._sizes:
            around = np.concatenate(
                [np.arange(start, stop)[:, None], self.smaller[start:stop]], axis=1
            )
            candidates, named = best[:, around], first[:, around]  # (n, keeps of this size, 7)
            top = candidates.max(axis=2)
            best[:, start:stop] = top
            first[:, start:stop] = np.where(
                candidates == top[:, :, None], named, len(self.keeps)
            ).min(axis=2)
        return first[:, self.roll_as_keep]


#: The one set of dice every Yahtzee computation shares.
DICE = Dice()
