r"""An independent simulator of solitaire Yahtzee, written from the rules, many games at once.

Each game rolls real dice (numpy), asks its player which dice to keep after rolls 1 and
2 and which category to fill after roll 3, and scores by the rule text
(:func:`~exactprob.games.yahtzee.rules.score`, the bonuses and the joker rule applied here, not by the level
model): a player that picks a category the rules forbid is an error. Players:

* :class:`OptimalPlayer`: the best keep and category read from a solved game, the same
  tables as :func:`~exactprob.games.yahtzee.advice.advise`; :class:`ModelPlayer` plays
  any solved strategy's choices the same way;
* :class:`GreedyPlayer`: keeps the dice of its most common face (the higher face on a
  tie) and fills the category that scores most now (the first on the card on a tie).

>>> import exactprob as ep
>>> from .model import TurnTables, YahtzeeLevels
>>> from .rules import YahtzeeRules
>>> rules = YahtzeeRules(categories=("Chance",))
>>> solved = ep.solve(YahtzeeLevels(rules))  # each die: 3.5, then E max(X, 3.5) = 17/4,
>>> solved.value()                          # then E max(X, 17/4) = 14/3; five dice: 70/3
Fraction(70, 3)
>>> simulate_games(rules, OptimalPlayer(solved), 4000, seed=1).agrees_with(solved.value())
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...engine import LevelSolution, Runs
from ...errors import UsageError
from ...util.limits import check_max_states
from ...util.progress import progress_bar
from .dice import DICE, FACES
from .model import TurnTables, YahtzeeLevels
from .rules import LOWER, UPPER, UPPER_BONUS, UPPER_BONUS_AT, YAHTZEE_BONUS, YahtzeeRules, score

__all__ = [
    "GreedyPlayer",
    "ModelPlayer",
    "OptimalPlayer",
    "Player",
    "Sheet",
    "YahtzeeRuns",
    "simulate_games",
]

#: Games played together (the optimal player's tables are built per batch).
BATCH = 2000


@dataclass
class Sheet:
    """The score sheets of a batch of games: which categories are ``filled``
    (``(n, categories)`` booleans), the ``upper`` total, whether the Yahtzee box holds 50
    (``fifty``), the ``total`` so far and the extra Yahtzees scored."""

    filled: np.ndarray
    upper: np.ndarray
    fifty: np.ndarray
    total: np.ndarray
    extras: np.ndarray


class Player(Protocol):
    """Decides for a batch of games: the dice to keep (``(n, 5)`` booleans) after roll
    ``rolls`` (1 or 2), and the category to fill (an index into the rules' categories)."""

    def keep(self, sheet: Sheet, dice: np.ndarray, rolls: int) -> np.ndarray: ...

    def fill(self, sheet: Sheet, dice: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True, eq=False)
class YahtzeeRuns(Runs):
    """``score`` per game (the :attr:`result`), whether it earned the upper ``bonus``, and
    how many ``extras`` (extra Yahtzees) it scored."""

    score: np.ndarray
    bonus: np.ndarray
    extras: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """The final score of each game."""
        return self.score


def simulate_games(
    rules: YahtzeeRules,
    player: Player,
    games: int,
    seed: int | None = None,
    *,
    progress: bool = False,
) -> YahtzeeRuns:
    """Play ``games`` games of ``rules`` by ``player`` with ``numpy.random.default_rng(seed)``
    (``progress``: a bar on stderr)."""
    check_max_states(games, "games")
    rng = np.random.default_rng(seed)
    parts = []
    with progress_bar(progress, "playing Yahtzee", total=games, unit=" games") as bar:
        for start in range(0, games, BATCH):
            parts.append(_play(rules, player, min(BATCH, games - start), rng))
            bar.update(len(parts[-1][0]))
    return YahtzeeRuns(*(np.concatenate(arrays) for arrays in zip(*parts, strict=True)))


def _play(
    rules: YahtzeeRules, player: Player, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One batch of ``n`` games: final scores, upper bonuses, extra Yahtzees."""
    count = len(rules.categories)
    sheet = Sheet(
        np.zeros((n, count), dtype=bool), np.zeros(n, np.int64), np.zeros(n, bool),
        np.zeros(n, np.int64), np.zeros(n, np.int64),
    )  # fmt: skip
    for _ in range(count):
        dice = np.sort(rng.integers(1, 7, size=(n, 5)), axis=1)
        for rolls in (1, 2):
            kept = np.asarray(player.keep(sheet, dice, rolls), dtype=bool)
            dice = np.sort(np.where(kept, dice, rng.integers(1, 7, size=(n, 5))), axis=1)
        _score_turn(rules, sheet, dice, np.asarray(player.fill(sheet, dice)))
    bonus = rules.upper_bonus & (sheet.upper >= UPPER_BONUS_AT) & bool(rules.upper)
    return sheet.total + UPPER_BONUS * bonus, bonus, sheet.extras


def _score_turn(rules: YahtzeeRules, sheet: Sheet, dice: np.ndarray, chosen: np.ndarray) -> None:
    """Fill the chosen category of every game, by the rules (the joker rule checked)."""
    allowed = legal_categories(rules, sheet, dice)
    if not allowed[np.arange(len(dice)), chosen].all():
        raise UsageError("a player chose a category the rules do not allow")
    for i, (hand, c) in enumerate(zip(dice.tolist(), chosen.tolist(), strict=True)):
        name = rules.categories[c]
        again = _yahtzee_again(rules, sheet, i, hand)
        points = score(name, hand, joker=again and _joker(rules, sheet, i, hand))
        if name == "Yahtzee" and points == 50:
            sheet.fifty[i] = rules.extra_yahtzees
        if name in UPPER:
            sheet.upper[i] += points
        if again and sheet.fifty[i]:
            points += YAHTZEE_BONUS
            sheet.extras[i] += 1
        sheet.total[i] += points
        sheet.filled[i, c] = True


def _yahtzee_again(rules: YahtzeeRules, sheet: Sheet, i: int, hand: list[int]) -> bool:
    """Whether game ``i`` rolled a Yahtzee with its Yahtzee box filled (extra Yahtzees played)."""
    if not rules.tracks_yahtzee or len(set(hand)) != 1:
        return False
    return bool(sheet.filled[i, rules.categories.index("Yahtzee")])


def _own_box_open(rules: YahtzeeRules, sheet: Sheet, i: int, hand: list[int]) -> bool:
    """Whether the upper box of a Yahtzee's face is played and still empty in game ``i``."""
    own = UPPER[hand[0] - 1]
    return own in rules.categories and not sheet.filled[i, rules.categories.index(own)]


def _joker(rules: YahtzeeRules, sheet: Sheet, i: int, hand: list[int]) -> bool:
    """Whether a Yahtzee rolled again scores the patterned boxes in full: always under the
    forced rule, and under the free rule once its own upper box is filled."""
    return rules.joker == "forced" or not _own_box_open(rules, sheet, i, hand)


def legal_categories(rules: YahtzeeRules, sheet: Sheet, dice: np.ndarray) -> np.ndarray:
    """``(n, categories)``: the categories each game may fill with its dice: any empty one,
    except under the forced joker rule, where a Yahtzee rolled again must fill its face's
    upper box if empty, else an empty lower box, else an empty upper box."""
    allowed = ~sheet.filled.copy()
    if rules.joker != "forced":
        return allowed
    lower = np.array([c in LOWER for c in rules.categories])
    for i, hand in enumerate(dice.tolist()):
        if not _yahtzee_again(rules, sheet, i, hand):
            continue
        if _own_box_open(rules, sheet, i, hand):
            allowed[i] = np.array([c == UPPER[hand[0] - 1] for c in rules.categories])
        elif (allowed[i] & lower).any():
            allowed[i] &= lower
    return allowed


class GreedyPlayer:
    """Keeps its most common face; fills the allowed category scoring most now."""

    def __init__(self, rules: YahtzeeRules) -> None:
        self.rules = rules

    def keep(self, sheet: Sheet, dice: np.ndarray, rolls: int) -> np.ndarray:
        """The dice showing the face shown most (the higher face on a tie)."""
        counts = (dice[:, :, None] == FACES[None, None, :]).sum(axis=1)
        face = 6 - np.argmax(counts[:, ::-1], axis=1)
        return dice == face[:, None]

    def fill(self, sheet: Sheet, dice: np.ndarray) -> np.ndarray:
        """The allowed category with the highest plain score now (a joker's full points
        not counted; the first on a tie)."""
        allowed = legal_categories(self.rules, sheet, dice)
        points = np.array(
            [[score(c, hand) for c in self.rules.categories] for hand in dice.tolist()]
        )
        return np.argmax(np.where(allowed, points, -1), axis=1)


class ModelPlayer:
    """The keeps and categories of a solved Yahtzee level model, read from its tables
    (:meth:`~exactprob.games.yahtzee.model.YahtzeeLevels.keep_pick` and
    :meth:`~exactprob.games.yahtzee.model.YahtzeeLevels.fill_pick`): the best ones for
    :class:`~exactprob.games.yahtzee.model.YahtzeeLevels`, a strategy's own for
    :mod:`~exactprob.games.yahtzee.strategies`."""

    def __init__(self, solution: LevelSolution) -> None:
        if not isinstance(solution.model, YahtzeeLevels):
            raise UsageError("a Yahtzee player needs a solved YahtzeeLevels model")
        self.solution, self.model = solution, solution.model
        self._turn: tuple[bytes, TurnTables, np.ndarray] | None = None

    def _tables(self, sheet: Sheet) -> tuple[TurnTables, np.ndarray]:
        """The turn tables of the games' distinct turn-start states, and which row of
        them each game reads (built once per turn)."""
        rules = self.model.rules
        mask = (sheet.filled * (1 << np.arange(len(rules.categories)))).sum(axis=1)
        upper = np.minimum(sheet.upper, UPPER_BONUS_AT) if rules.tracks_upper else 0 * mask
        fifty = sheet.fifty.astype(np.int64) if rules.tracks_yahtzee else 0 * mask
        states = np.stack([mask, upper, fifty], axis=1)
        key = states.tobytes()
        if self._turn is None or self._turn[0] != key:
            level = int(sheet.filled[0].sum())
            exact = self.solution.method == "exact"
            distinct, row = np.unique(states, axis=0, return_inverse=True)

            def values(rows: np.ndarray) -> np.ndarray:
                return self.solution.values(level + 1, rows)

            self._turn = (key, self.model.turn(distinct, values, exact), row.ravel())
        return self._turn[1], self._turn[2]

    def keep(self, sheet: Sheet, dice: np.ndarray, rolls: int) -> np.ndarray:
        """The model's keep of each game's dice, as a mask of its dice."""
        tables, row = self._tables(sheet)
        keep_values = tables.keep_first if rolls == 1 else tables.keep_second
        picks = self.model.keep_pick(keep_values)[row, DICE.roll_indices(dice)]
        return _kept_dice(dice, DICE.keeps[picks])

    def fill(self, sheet: Sheet, dice: np.ndarray) -> np.ndarray:
        """The model's category for each game's dice."""
        tables, row = self._tables(sheet)
        picks: np.ndarray = self.model.fill_pick(tables.filled)[row, DICE.roll_indices(dice)]
        return picks


class OptimalPlayer(ModelPlayer):
    """The best keeps and categories of a game solved by ``ep.solve(YahtzeeLevels(rules))``
    (ties broken by the first keep or category)."""

    def __init__(self, solution: LevelSolution) -> None:
        if type(solution.model) is not YahtzeeLevels:
            raise UsageError("an optimal player needs a solved YahtzeeLevels model")
        super().__init__(solution)


def _kept_dice(dice: np.ndarray, keep_counts: np.ndarray) -> np.ndarray:
    """Which of each row's sorted dice a keep (counts per face) holds: the first
    ``count`` dice of each face."""
    kept = np.zeros(dice.shape, dtype=bool)
    for f, face in enumerate(FACES):
        showing = dice == face
        rank = np.cumsum(showing, axis=1)
        kept |= showing & (rank <= keep_counts[:, f : f + 1])
    return kept
