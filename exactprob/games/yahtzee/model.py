r"""Solitaire Yahtzee as a level model: the turn-start states, one level per filled category.

A turn starts in a state :math:`s = (F, u, y)`: the set :math:`F` of filled categories (a
bit mask over the game's categories), the upper total :math:`u` capped at 63 (all the
upper bonus needs to know; 0 when the bonus is not played) and :math:`y = 1` when the
Yahtzee box holds 50 (extra Yahtzees earn 100). Level :math:`k` holds the states with
:math:`k` categories filled, and :math:`V(s)` is the expected score still to come under
optimal play; the last level is worth 0. One turn from :math:`s` is the step
(:class:`~exactprob.engine.levels.model.LevelModel`), in three stages over the 252 rolls
:math:`r` and 462 keeps :math:`k` (:mod:`~exactprob.games.yahtzee.dice`):

.. math::

    E_3(r) &= \max_{c} \bigl(\text{score}(s, c, r) + V(s')\bigr), \\
    E_2(r) &= \max_{k \subseteq r} \sum_{r'} P(r' \mid k)\, E_3(r'), \qquad
    E_1(r) = \max_{k \subseteq r} \sum_{r'} P(r' \mid k)\, E_2(r'), \\
    V(s) &= \sum_{r} P(r \mid \varnothing)\, E_1(r),

where :math:`c` runs over the categories the rules allow for :math:`r` in :math:`s`
(the joker rule restricts them), the score includes any bonus earned, and :math:`s'` is
the state after filling :math:`c`. The whole turn is vectorised over a batch of states;
the same code runs on floats and on exact rationals.

*Rounding* (certified mode). With every next value at most :math:`M` in size and a
turn's gain at most :math:`G = 185` (50 in a category, 100 extra, 35 upper bonus), every
number of the turn is at most :math:`M + G`. Adding a score to :math:`V(s')` errs by at
most :math:`u(M + G)`, a maximum not at all, and each of the three averages of 252 terms
with rounded chances (each within :math:`u` relative) by at most
:math:`\gamma_{253}(M + G)`, with :math:`u = 2^{-53}`, :math:`\gamma_n = nu/(1 - nu)`
(Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1: any order of
summation, so BLAS may block it). Errors already made pass through an average or a
maximum without growing, so one turn errs by at most :math:`(u + 3\gamma_{253})(M + G)`.

>>> from .rules import YahtzeeRules
>>> model = YahtzeeLevels(YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False))
>>> model.levels, [len(model.states(level)) for level in (0, 1)]
(1, [1, 1])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from ...engine import LevelModel, LevelMoves, NextLevel, NextValues, summed_by
from ...util.rounding import SAFETY, UNIT_ROUNDOFF
from .dice import DICE, FACES
from .rules import (
    LOWER,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    YAHTZEE_BONUS,
    YahtzeeRules,
    score,
)

__all__ = ["MOST_GAINED", "TurnTables", "YahtzeeLevels"]

#: The most one turn can add: 50 in a category, 100 for an extra Yahtzee, 35 upper bonus.
MOST_GAINED = 50 + YAHTZEE_BONUS + UPPER_BONUS
#: Below every value of a turn (all are >= 0): marks what may not be chosen.
NOT_ALLOWED = -1
#: ``SUB_KEEPS[r]``: the keeps of roll ``r`` in the keeps' order (at most 32: five
#: different dice), then ``len(DICE.keeps)`` (no keep) to fill the row.
SUB_KEEPS = np.array(
    [
        [*np.flatnonzero(inside), *[len(DICE.keeps)] * (32 - int(inside.sum()))]
        for inside in DICE.keeps_within(np.arange(len(DICE.rolls)))
    ]
)
#: Turn-start states whose keeps are compared at once (64 KB of work each).
OPEN_ROWS = 256


@dataclass(frozen=True)
class Filling:
    """Filling one category from the ``rows`` of a batch where it is open: the points
    ``gained[i, r]`` with roll ``r`` (score, extra Yahtzee, upper bonus), the states
    ``after[i, m]`` it may lead to, and ``which[i, r]``, the one roll ``r`` leads to
    (``which[r]`` when the same for every row)."""

    rows: np.ndarray
    gained: np.ndarray
    after: np.ndarray
    which: np.ndarray


@dataclass(frozen=True)
class TurnTables:
    """One turn's stages for a batch of turn-start states (rows), as in the module
    docstring: ``filled[i, c, r]`` is the value of filling category ``c`` with roll ``r``
    (``NOT_ALLOWED`` where the rules forbid it); ``last``, ``second`` and ``first`` are
    :math:`E_3, E_2, E_1` per roll; ``keep_second`` and ``keep_first`` the values of each
    keep before the third and the second roll; ``value`` is :math:`V(s)`; ``fillings``
    what filling each category does (``None`` where it is open in no row)."""

    filled: np.ndarray
    last: np.ndarray
    keep_second: np.ndarray
    second: np.ndarray
    keep_first: np.ndarray
    first: np.ndarray
    value: np.ndarray
    fillings: list[Filling | None]


@cache
def _reachable_totals(faces: tuple[int, ...]) -> list[int]:
    """The upper totals, capped at 63, that 0 to 5 dice of each of ``faces`` can make."""
    totals = {0}
    for face in faces:
        totals = {min(UPPER_BONUS_AT, t + face * n) for t in totals for n in range(6)}
    return sorted(totals)


class YahtzeeLevels(LevelModel):
    """The turn-start states of a Yahtzee game under ``rules``, level by level."""

    def __init__(self, rules: YahtzeeRules | None = None) -> None:
        self.rules = rules or YahtzeeRules()
        count = len(self.rules.categories)
        self.levels = count
        self.sizes = (2**count, UPPER_BONUS_AT + 1, 2)
        self.initial = (0, 0, 0)
        self.batch_rows = 512
        self.bytes_per_row = (
            100_000  # measured peak: 61 KB a row (tracemalloc, a full game's level 5)
        )

    # -- the states of a level ------------------------------------------------------

    def states(self, level: int) -> np.ndarray:
        """Every turn-start state with ``level`` categories filled: each mask of that many,
        each upper total its filled upper categories can make, each Yahtzee flag its
        Yahtzee box allows."""
        rows: list[tuple[int, int, int]] = []
        for mask in range(2**self.levels):
            if mask.bit_count() != level:
                continue
            uppers = self.upper_totals(mask)
            flags = (0, 1) if self.rules.tracks_yahtzee and self._filled(mask, "Yahtzee") else (0,)
            for flag in flags:
                rows.extend((mask, u, flag) for u in uppers)
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def final(self, states: np.ndarray) -> np.ndarray:
        """Nothing is left to score once every category is filled."""
        return np.zeros(len(states), dtype=np.int64)

    def _bit(self, category: str) -> int:
        return 1 << self.rules.categories.index(category)

    def _filled(self, mask: int, category: str) -> bool:
        return category in self.rules.categories and bool(mask & self._bit(category))

    def upper_totals(self, mask: int) -> list[int]:
        """The capped upper totals reachable with the upper categories of ``mask`` filled."""
        if not self.rules.tracks_upper:
            return [0]
        filled = tuple(face for face, name in enumerate(UPPER, 1) if self._filled(mask, name))
        return _reachable_totals(filled)

    # -- one turn ---------------------------------------------------------------------

    @cached_property
    def scores(self) -> np.ndarray:
        """``score(c, r)`` for each category of the game and each roll, and the same for a
        joker (two ``(categories, 252)`` integer arrays stacked)."""
        rolls = [np.repeat(FACES, counts) for counts in DICE.rolls]
        return np.array(
            [
                [[score(c, roll, joker=joker) for roll in rolls] for c in self.rules.categories]
                for joker in (False, True)
            ],
            dtype=np.int64,
        )

    def step(self, level: int, states: np.ndarray, values: NextValues, exact: bool) -> np.ndarray:
        """The expected score to come from each turn-start state (module docstring)."""
        return self.turn(states, values, exact).value

    def turn(self, states: np.ndarray, values: NextValues, exact: bool) -> TurnTables:
        """Every stage of one turn from each row of ``states``."""
        allowed, fillings = self._fillings(states)
        filled = self._filling(allowed, fillings, values, exact)
        last = self.fill_choice(filled)
        chances = DICE.chances(exact)
        keep_second = last @ chances.T
        second = self.keep_choice(keep_second)
        keep_first = second @ chances.T
        first = self.keep_choice(keep_first)
        value = first @ chances[0]
        return TurnTables(filled, last, keep_second, second, keep_first, first, value, fillings)

    def fill_choice(self, filled: np.ndarray) -> np.ndarray:
        """The value of each roll after the last roll: the best category's (a player with
        other choices overrides this and :meth:`fill_pick`)."""
        best: np.ndarray = filled.max(axis=1)
        return best

    def fill_pick(self, filled: np.ndarray) -> np.ndarray:
        """The category :meth:`fill_choice` takes for each roll: the first best on the card."""
        first: np.ndarray = np.argmax(filled, axis=1)
        return first

    def keep_choice(self, keep_values: np.ndarray) -> np.ndarray:
        """The value of each roll before a reroll: the best keep's (a player with other
        choices overrides this and :meth:`keep_pick`)."""
        return DICE.best_keep(keep_values)

    def keep_pick(self, keep_values: np.ndarray) -> np.ndarray:
        """The keep :meth:`keep_choice` takes for each roll: the first best keep."""
        return DICE.best_keep_index(keep_values)

    # -- where a turn leads, for the law of the final score -----------------------------

    def moves(self, level: int, states: np.ndarray, values: NextValues, exact: bool) -> LevelMoves:
        """Where one turn from each row leads under the choices the values make
        (:meth:`keep_pick`, :meth:`fill_pick`): the chance of each next state and points
        gained. A roll :math:`r` follows keep :math:`k` with :math:`P(r \\mid k)`, so
        the chances of the second and third rolls are :math:`q_{j+1} = W_j C`, with
        :math:`W_j[k]` the chance of the rolls whose chosen keep is :math:`k`.

        In floats, the keeps (or categories) within the values'
        :attr:`~exactprob.engine.levels.model.NextLevel.margin` of the best may be
        exactly tied with it: the first of them is taken, as exact mode takes the first
        of the exactly tied, and the choice is counted as undecided."""
        margin = values.margin if isinstance(values, NextLevel) and not exact else 0
        tables = self.turn(states, values, exact)
        chances = DICE.chances(exact)
        first = np.broadcast_to(chances[0], (len(states), len(DICE.rolls)))
        keep_first, open_first = self._keeps_within(tables.keep_first, tables.first, margin)
        keep_second, open_second = self._keeps_within(tables.keep_second, tables.second, margin)
        second = _rerolled(first, keep_first, chances, exact)
        last = _rerolled(second, keep_second, chances, exact)
        pick, open_fills = self._fills_within(tables.filled, margin)
        parts = []
        for j, filling in enumerate(tables.fillings):
            if filling is not None:
                at, roll = np.nonzero(pick[filling.rows] == j)
                rows = filling.rows[at]
                which = np.broadcast_to(filling.which, filling.gained.shape)
                after = filling.after[at, which[at, roll]]
                parts.append((rows, after, filling.gained[at, roll], last[rows, roll]))
        rows, after, gained, chance = (np.concatenate(part) for part in zip(*parts, strict=True))
        code = np.ravel_multi_index(
            (rows, np.ravel_multi_index(tuple(after.T), self.sizes), gained),
            (len(states), int(np.prod(self.sizes)), MOST_GAINED + 1),
        )
        merged, first_of, into = np.unique(code, return_index=True, return_inverse=True)
        summed = summed_by(into.ravel(), chance, len(merged), exact)
        undecided = open_first + open_second + open_fills
        return LevelMoves(rows[first_of], after[first_of], gained[first_of], summed, undecided)

    def _keeps_within(
        self, keep_values: np.ndarray, best: np.ndarray, margin: float
    ) -> tuple[np.ndarray, int]:
        """The keep taken with each roll ``(n, rolls)``: :meth:`keep_pick`'s, or (a
        ``margin`` given, and the keeps the values' best: :meth:`keep_pick` not
        overridden by a player with other choices) the first of the roll's keeps within it
        of the best ``best``; and how many rolls had more than one keep within it."""
        if not margin or type(self).keep_pick is not YahtzeeLevels.keep_pick:
            return self.keep_pick(keep_values), 0
        picked = np.empty(best.shape, dtype=np.int64)
        undecided = 0
        padded = np.concatenate([keep_values, np.full((len(best), 1), -np.inf)], axis=1)
        for at in range(0, len(best), OPEN_ROWS):
            rows = slice(at, at + OPEN_ROWS)
            near = padded[rows][:, SUB_KEEPS] >= (best[rows] - margin)[:, :, None]
            picked[rows] = SUB_KEEPS[np.arange(len(DICE.rolls)), np.argmax(near, axis=2)]
            undecided += int((near.sum(axis=2) > 1).sum())
        return picked, undecided

    def _fills_within(self, filled: np.ndarray, margin: float) -> tuple[np.ndarray, int]:
        """The category filled with each roll ``(n, rolls)``: :meth:`fill_pick`'s, or (the
        categories the values' best) the first on the card within ``margin`` of the best;
        and how many rolls had a choice within it."""
        if not margin or type(self).fill_pick is not YahtzeeLevels.fill_pick:
            return self.fill_pick(filled), 0
        near = (filled >= filled.max(axis=1, keepdims=True) - margin) & (filled != NOT_ALLOWED)
        return np.argmax(near, axis=1), int((near.sum(axis=1) > 1).sum())

    def move_rounding(self, level: int) -> float:
        """:math:`\\gamma_{1700}`: a move's float chance is a sum of products of three
        rounded chances, each path through at most 1680 roundings (the first roll's
        chance; per reroll, 251 additions into a keep, its chance and product, 461
        additions over keeps; 251 additions merging rolls)."""
        n = 1700
        return n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF) * SAFETY

    def _filling(
        self,
        allowed: np.ndarray,
        fillings: list[Filling | None],
        values: NextValues,
        exact: bool,
    ) -> np.ndarray:
        """``filled[i, c, r]``: score and bonuses of filling ``c`` with ``r`` from row ``i``,
        plus the next state's value; ``NOT_ALLOWED`` where the rules forbid it."""
        out = np.full(allowed.shape, NOT_ALLOWED, dtype=object if exact else np.float64)
        for j, filling in enumerate(fillings):
            if filling is None:
                continue
            rows = filling.rows
            worth = values(filling.after.reshape(-1, 3)).reshape(len(rows), -1)
            if filling.which.ndim == 1:  # the same for every row: one gather
                next_value = worth[:, filling.which]
            else:
                next_value = np.take_along_axis(worth, filling.which, axis=1)
            out[rows, j, :] = np.where(
                allowed[rows, j, :], filling.gained + next_value, NOT_ALLOWED
            )
        return out

    def _fillings(self, states: np.ndarray) -> tuple[np.ndarray, list[Filling | None]]:
        """Which categories the rules allow for each row and roll ``(n, categories,
        rolls)``, and for each category what filling it does from the rows where it is
        open (``None`` where it is open in none)."""
        rules = self.rules
        n, rolls = len(states), len(DICE.rolls)
        opened = np.stack([(states[:, 0] & self._bit(c)) == 0 for c in rules.categories], axis=1)
        again, own_open = self._yahtzee_again(opened)
        extra = np.where(again & (states[:, 2] == 1)[:, None], YAHTZEE_BONUS, 0)
        joker = again & ~own_open if rules.joker == "free" else again
        allowed = np.broadcast_to(opened[:, :, None], (n, len(rules.categories), rolls))
        if rules.joker == "forced":
            allowed = allowed & self._forced(opened, own_open, again)
        fillings: list[Filling | None] = []
        for j, category in enumerate(rules.categories):
            rows = np.flatnonzero(opened[:, j])
            if not len(rows):
                fillings.append(None)
                continue
            scores = np.where(joker[rows], self.scores[1, j], self.scores[0, j]) + extra[rows]
            fillings.append(Filling(rows, *self._after(category, j, states[rows], scores)))
        return allowed, fillings

    @cached_property
    def _own_box(self) -> np.ndarray:
        """For each roll that is a Yahtzee, the index of its face's upper category if
        played; -1 otherwise."""
        own = np.full(len(DICE.rolls), -1)
        for r, counts in enumerate(DICE.rolls):
            name = UPPER[int(np.argmax(counts))]
            if counts.max() == 5 and name in self.rules.categories:
                own[r] = self.rules.categories.index(name)
        return own

    def _yahtzee_again(self, opened: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(n, rolls)``: which rolls are a Yahtzee with the Yahtzee box filled (extra
        Yahtzees played), and which rolls' own upper box is open."""
        rules, own = self.rules, self._own_box
        again = np.zeros((len(opened), len(DICE.rolls)), dtype=bool)
        if rules.tracks_yahtzee:
            filled = ~opened[:, rules.categories.index("Yahtzee")]
            again = filled[:, None] & (DICE.rolls.max(axis=1) == 5)[None, :]
        own_open = np.zeros(again.shape, dtype=bool)
        own_open[:, own >= 0] = opened[:, own[own >= 0]]
        return again, own_open

    def _forced(self, opened: np.ndarray, own_open: np.ndarray, again: np.ndarray) -> np.ndarray:
        """``(n, categories, rolls)``: the forced joker rule's choices: a Yahtzee again must
        fill its own upper box if open, else an open lower box, else an open upper box."""
        lower = np.array([c in LOWER for c in self.rules.categories])
        any_lower = (opened & lower).any(axis=1)[:, None, None]
        own = np.arange(len(lower))[None, :, None] == self._own_box[None, None, :]
        by_rule = np.where(
            own_open[:, None, :],
            own,
            np.where(any_lower, lower[None, :, None], ~lower[None, :, None]),
        )
        return np.where(again[:, None, :], by_rule, True)

    def _after(
        self, category: str, j: int, states: np.ndarray, scores: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Filling ``category`` (the ``j``-th) from each row with each roll: what it gains
        (its score, the extra and any upper bonus), the states it may lead to (``(rows,
        m, 3)``) and which of them each roll leads to (``(rows, rolls)``, or ``(rolls,)``
        when the same for every row)."""
        bit = 1 << j
        mask, upper, flag = states[:, 0], states[:, 1], states[:, 2]
        rolls = len(DICE.rolls)
        if category in UPPER and self.rules.tracks_upper:
            face = UPPER.index(category) + 1
            shown = DICE.rolls[:, face - 1]  # how many dice show the face, per roll
            totals = upper[:, None] + face * np.arange(6)[None, :]  # (rows, count)
            bonus = np.where(
                (upper[:, None] < UPPER_BONUS_AT) & (totals >= UPPER_BONUS_AT), UPPER_BONUS, 0
            )
            capped = np.minimum(totals, UPPER_BONUS_AT)
            after = np.stack(
                np.broadcast_arrays((mask | bit)[:, None], capped, flag[:, None]), axis=2
            )
            return scores + bonus[:, shown], after, shown
        if category == "Yahtzee" and self.rules.tracks_yahtzee:
            fifty = scores == 50  # filling the box with 50 turns extra Yahtzees on
            after = np.stack(
                [
                    np.stack([mask | bit, upper, flag], axis=1),
                    np.stack([mask | bit, upper, np.ones_like(flag)], axis=1),
                ],
                axis=1,
            )
            return scores, after, fifty.astype(np.int64)
        after = np.stack([mask | bit, upper, flag], axis=1)[:, None, :]
        return scores, after, np.zeros(rolls, dtype=np.int64)

    def rounding_error(self, level: int, magnitude: float) -> float:
        """:math:`(u + 3\\gamma_{253})(M + G)` (module docstring), rounded up."""
        n = len(DICE.rolls) + 1
        gamma = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
        return (UNIT_ROUNDOFF + 3 * gamma) * (magnitude + MOST_GAINED) * SAFETY


def _rerolled(
    chances_now: np.ndarray, keeps: np.ndarray, chances: np.ndarray, exact: bool
) -> np.ndarray:
    """The chances of the next roll of each row, from the chances ``(n, rolls)`` of this
    roll and the keep chosen for each."""
    n, count = len(chances_now), len(DICE.keeps)
    flat = (np.arange(n)[:, None] * count + keeps).ravel()
    weights = summed_by(flat, np.ravel(chances_now), n * count, exact).reshape(n, count)
    rolled: np.ndarray = weights @ chances
    return rolled
