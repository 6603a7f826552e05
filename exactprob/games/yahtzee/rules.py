r"""The rules of solitaire Yahtzee, as one value checked once, and the score of a roll.

A game is 13 turns. A turn rolls five dice, may reroll any of them twice, and then fills
one empty category of the score card with the roll's score there (possibly 0):

========================  =============================================================
category                  score
========================  =============================================================
Aces ... Sixes            the sum of the dice showing that face
Three / Four of a Kind    the sum of all dice, if at least 3 / 4 show one face
Full House                25, for three of one face and two of another
Small / Large Straight    30 / 40, for 4 / 5 consecutive faces
Yahtzee                   50, for five of one face
Chance                    the sum of all dice
========================  =============================================================

*Upper bonus*: 35 once the six upper categories (Aces ... Sixes) total 63 or more.
*Extra Yahtzees*: a Yahtzee rolled when the Yahtzee box already holds 50 earns 100 more.
Two readings of the *joker* rule for a Yahtzee rolled when the Yahtzee box is filled
(with 50 or 0):

* ``"free"`` (the default; Verhoeff 1999, whose optimal player scores 254.5896): the
  player fills any empty box; if the roll's own upper box is filled, the roll is a joker
  and Full House, Small and Large Straight score 25, 30, 40 as if it were one;
* ``"forced"`` (the order printed in the official rules): the roll must fill its own
  upper box if that is empty; else any empty lower box, as a joker; else an empty upper
  box, for 0 (optimal play: 254.5877).

A variant plays only some categories (as many turns as categories) and may leave either
bonus out; without extra Yahtzees there is no joker rule either (a Yahtzee rolled again
scores as any other roll), and both need the Yahtzee box to be played.

>>> rules = YahtzeeRules()
>>> len(rules.categories), rules.upper_bonus, rules.extra_yahtzees
(13, True, True)
>>> score("Full House", (2, 2, 3, 3, 3)), score("Small Straight", (1, 2, 3, 4, 6))
(25, 30)
>>> score("Full House", (4, 4, 4, 4, 4)), score("Full House", (4, 4, 4, 4, 4), joker=True)
(0, 25)
>>> YahtzeeRules(categories=("Aces", "Bogus"))
Traceback (most recent call last):
...
exactprob.errors.UsageError: unknown category 'Bogus'; the categories are Aces, Twos, Threes, Fours, Fives, Sixes, Three of a Kind, Four of a Kind, Full House, Small Straight, Large Straight, Yahtzee, Chance
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ...errors import UsageError

__all__ = [
    "CATEGORIES",
    "JOKERS",
    "LOWER",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_AT",
    "YAHTZEE_BONUS",
    "YahtzeeRules",
    "parse_categories",
    "score",
]

#: The upper section: the category of each face 1 .. 6.
UPPER = ("Aces", "Twos", "Threes", "Fours", "Fives", "Sixes")
#: The lower section.
LOWER = (
    "Three of a Kind",
    "Four of a Kind",
    "Full House",
    "Small Straight",
    "Large Straight",
    "Yahtzee",
    "Chance",
)
#: All 13 categories in score-card order.
CATEGORIES = UPPER + LOWER
#: The upper bonus, and the upper total that earns it.
UPPER_BONUS, UPPER_BONUS_AT = 35, 63
#: What each extra Yahtzee earns while the Yahtzee box holds 50.
YAHTZEE_BONUS = 100
#: The readings of the joker rule (module docstring).
JOKERS = ("free", "forced")
#: The fixed scores of the patterned lower categories (a joker scores them too).
PATTERN_SCORES = {"Full House": 25, "Small Straight": 30, "Large Straight": 40, "Yahtzee": 50}


@dataclass(frozen=True)
class YahtzeeRules:
    """Which categories are played (in score-card order), which bonuses apply and how the
    joker rule is read."""

    categories: tuple[str, ...] = CATEGORIES
    upper_bonus: bool = True
    extra_yahtzees: bool = True
    joker: str = "free"

    def __post_init__(self) -> None:
        if self.joker not in JOKERS:
            raise UsageError(
                f"the joker rule must be one of {', '.join(JOKERS)}, got {self.joker!r}"
            )
        chosen = tuple(self.categories)
        for name in chosen:
            if name not in CATEGORIES:
                raise UsageError(
                    f"unknown category {name!r}; the categories are {', '.join(CATEGORIES)}"
                )
        if not chosen or len(set(chosen)) != len(chosen):
            raise UsageError("a game needs at least one category, each named once")
        object.__setattr__(self, "categories", tuple(c for c in CATEGORIES if c in chosen))

    @property
    def upper(self) -> tuple[str, ...]:
        """The upper categories played."""
        return tuple(c for c in self.categories if c in UPPER)

    @property
    def tracks_upper(self) -> bool:
        """Whether the upper total matters (the bonus is played and can be reached)."""
        return self.upper_bonus and bool(self.upper)

    @property
    def tracks_yahtzee(self) -> bool:
        """Whether extra Yahtzees are played (they need the Yahtzee box)."""
        return self.extra_yahtzees and "Yahtzee" in self.categories

    def describe(self) -> str:
        """One line: the categories and the bonuses.

        >>> YahtzeeRules(categories=("Aces", "Yahtzee"), upper_bonus=False).describe()
        'categories Aces, Yahtzee; extra Yahtzees (100 each, free jokers)'
        >>> YahtzeeRules(categories=("Chance",)).describe()  # no bonus can apply
        'categories Chance; no bonuses'
        """
        every = self.categories == CATEGORIES
        cards = "all 13 categories" if every else "categories " + ", ".join(self.categories)
        bonuses = [
            *([f"upper bonus {UPPER_BONUS} at {UPPER_BONUS_AT}"] if self.tracks_upper else []),
            *([f"extra Yahtzees (100 each, {self.joker} jokers)"] if self.tracks_yahtzee else []),
        ]
        return f"{cards}; {', '.join(bonuses) or 'no bonuses'}"


def parse_categories(text: str) -> tuple[str, ...]:
    """Category names from a comma-separated list, case and spaces ignored
    (``"aces, yahtzee"``); ``"all"`` for all 13.

    >>> parse_categories("aces,  FULL house")
    ('Aces', 'Full House')
    """
    if text.strip().lower() == "all":
        return CATEGORIES
    known = {"".join(c.lower().split()): c for c in CATEGORIES}
    found = []
    for part in text.split(","):
        key = "".join(part.lower().split())
        if key not in known:
            raise UsageError(
                f"unknown category {part.strip()!r}; the categories are {', '.join(CATEGORIES)}"
            )
        found.append(known[key])
    return tuple(found)


def score(category: str, dice: Iterable[int], *, joker: bool = False) -> int:
    """The score of five ``dice`` in ``category`` (a ``joker`` Yahtzee scores the patterned
    lower categories in full); the bonuses are not included."""
    faces = sorted(dice)
    counts = Counter(faces)
    if category in UPPER:
        face = UPPER.index(category) + 1
        return face * counts[face]
    if joker and category in PATTERN_SCORES:
        return PATTERN_SCORES[category]
    most = max(counts.values())
    return {
        "Three of a Kind": sum(faces) if most >= 3 else 0,
        "Four of a Kind": sum(faces) if most >= 4 else 0,
        "Full House": 25 if sorted(counts.values()) == [2, 3] else 0,
        "Small Straight": 30 if _has_run(counts, 4) else 0,
        "Large Straight": 40 if _has_run(counts, 5) else 0,
        "Yahtzee": 50 if most == 5 else 0,
        "Chance": sum(faces),
    }[category]


def _has_run(counts: Counter[int], length: int) -> bool:
    """Whether the faces include ``length`` consecutive values."""
    return any(all(counts[f] for f in range(low, low + length)) for low in range(1, 8 - length))
