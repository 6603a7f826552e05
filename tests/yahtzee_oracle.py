"""Solitaire Yahtzee written straight from the rules as a plain model, one state at a time.

The brute-force oracle of the level model: every roll, keep and category choice is a
state of its own, each category's points are the reward of filling it, the upper bonus
is paid with the fill that brings the upper total to 63 (so the value is the final
score's expectation and the law of the total reward is the final score's), the extra
Yahtzee bonus is added where the rule text says, and the
score of a category is computed here from the rule text, not taken from the game. The
generic engine solves it exactly; only small variants (2-4 categories) fit.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

import exactprob as ep

UPPER = ("Aces", "Twos", "Threes", "Fours", "Fives", "Sixes")
JOKER_POINTS = {"Full House": 25, "Small Straight": 30, "Large Straight": 40}


def plain_score(category: str, dice: tuple[int, ...]) -> int:
    """The score card's rule for ``category`` (no joker)."""
    counts = Counter(dice)
    if category in UPPER:
        face = UPPER.index(category) + 1
        return face * counts[face]
    faces = set(dice)
    if category == "Three of a Kind":
        return sum(dice) if max(counts.values()) >= 3 else 0
    if category == "Four of a Kind":
        return sum(dice) if max(counts.values()) >= 4 else 0
    if category == "Full House":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if category == "Small Straight":
        return 30 if any({a, a + 1, a + 2, a + 3} <= faces for a in (1, 2, 3)) else 0
    if category == "Large Straight":
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if category == "Yahtzee":
        return 50 if len(faces) == 1 else 0
    assert category == "Chance"
    return sum(dice)


@cache
def reroll(kept: tuple[int, ...]) -> ep.Dist:
    """The sorted dice after rolling ``5 - len(kept)`` fresh dice beside ``kept``."""
    fresh = 5 - len(kept)
    ways = Counter(
        tuple(sorted(kept + roll)) for roll in itertools.product(range(1, 7), repeat=fresh)
    )
    return ep.Dist({dice: Fraction(n, 6**fresh) for dice, n in ways.items()})


def sub_multisets(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to keep some of ``dice`` (sorted, each once)."""
    return sorted({tuple(sorted(c)) for n in range(6) for c in itertools.combinations(dice, n)})


class OracleYahtzee:
    """State: (categories left, upper total, Yahtzee box holds 50, dice, rerolls left);
    dice ``None`` before a turn's first roll."""

    def __init__(
        self,
        categories: tuple[str, ...],
        upper_bonus: bool,
        extra_yahtzees: bool,
        joker: str = "free",
    ):
        self.categories, self.upper_bonus, self.extra = categories, upper_bonus, extra_yahtzees
        self.forced = joker == "forced"
        self.initial = (frozenset(categories), 0, False, None, 0)

    def outcome(self, state: Any) -> Any:
        return None if state[0] else 0

    def actions(self, state: Any) -> list[Any]:
        _, _, _, dice, rerolls = state
        if dice is None:
            return ["roll"]
        keeps = [("keep", k) for k in sub_multisets(dice)] if rerolls else []
        return keeps + [("fill", c) for c in sorted(self.allowed(state))]

    def again(self, state: Any) -> bool:
        """A Yahtzee rolled when the Yahtzee box is filled (with 50 or 0)."""
        left, dice = state[0], state[3]
        return (
            self.extra
            and "Yahtzee" in self.categories
            and "Yahtzee" not in left
            and len(set(dice)) == 1
        )

    def own_open(self, state: Any) -> bool:
        return UPPER[state[3][0] - 1] in state[0]

    def allowed(self, state: Any) -> set[str]:
        """Free joker: any open box. Forced joker: a Yahtzee rolled again must go in its
        face's upper box if open, else any open lower box, else any open upper box."""
        left = state[0]
        if not (self.forced and self.again(state)):
            return set(left)
        if self.own_open(state):
            return {UPPER[state[3][0] - 1]}
        lower = {c for c in left if c not in UPPER}
        return lower or set(left)

    def transition(self, state: Any, action: Any) -> ep.Dist:
        left, upper, fifty, dice, rerolls = state
        if action == "roll":
            return reroll(()).map(lambda d: (left, upper, fifty, d, 2))
        kind, what = action
        if kind == "keep":
            return reroll(what).map(lambda d: (left, upper, fifty, d, rerolls - 1))
        new_fifty = fifty or (self.extra and what == "Yahtzee" and len(set(dice)) == 1)
        new_upper = upper + (plain_score(what, dice) if what in UPPER else 0)
        return ep.Dist({(left - {what}, new_upper, new_fifty, None, 0): 1})

    def reward(self, state: Any, action: Any) -> int:
        """The points of filling a category (with a joker's, an extra Yahtzee's and the
        upper bonus when the fill brings the upper total to 63)."""
        if action == "roll" or action[0] == "keep":
            return 0
        what, dice, upper, fifty = action[1], state[3], state[1], state[2]
        again = self.again(state)
        points = plain_score(what, dice)
        if again and (self.forced or not self.own_open(state)) and what in JOKER_POINTS:
            points = JOKER_POINTS[what]
        crossed = what in UPPER and upper < 63 <= upper + plain_score(what, dice)
        return (
            points + (100 if again and fifty else 0) + (35 if self.upper_bonus and crossed else 0)
        )


def first_best_law(rules: Any) -> dict[int, Fraction]:
    """The final score's law of the per-state model of ``rules`` (a ``YahtzeeRules``)
    played by its optimal actions, ties broken as the level model documents: the first
    keep (fewer dice first, then in order of the sorted dice) and the first category on
    the card."""
    oracle = OracleYahtzee(rules.categories, rules.upper_bonus, rules.extra_yahtzees, rules.joker)
    solved = ep.solve(oracle)

    def first_best(state: Any) -> Any:
        ties = solved.ties(state)
        keeps = [a for a in ties if a != "roll" and a[0] == "keep"]
        if keeps:  # keeping all five ties with filling now: it ends the same
            return min(keeps, key=lambda a: (len(a[1]), a[1]))
        fills = [a for a in ties if a != "roll"]
        return min(fills, key=lambda a: rules.categories.index(a[1])) if fills else "roll"

    law = ep.evaluate(oracle, first_best).reward_distribution()
    return {x: Fraction(p) for x, p in law.items()}


class GreedyOracle(OracleYahtzee):
    """The per-state model with the greedy player's keeps, or its categories, forced:
    ``keeps="greedy"`` keeps the dice of the face shown most (the higher face on a tie)
    while rerolls are left; ``fills="greedy"`` fills the allowed category with the
    highest plain score (the first on the card on a tie). The other choice stays free,
    so solving it gives the best play around the forced half. A turn fills only after
    its last roll (filling early ends the same as keeping all five)."""

    def __init__(self, rules: Any, keeps: str, fills: str) -> None:
        super().__init__(rules.categories, rules.upper_bonus, rules.extra_yahtzees, rules.joker)
        self.greedy_keeps, self.greedy_fills = keeps == "greedy", fills == "greedy"

    def actions(self, state: Any) -> list[Any]:
        found = super().actions(state)
        dice, rerolls = state[3], state[4]
        if dice is None:
            return found
        if rerolls:
            if self.greedy_keeps:
                counts = Counter(dice)
                face = max(counts, key=lambda f: (counts[f], f))
                return [("keep", (face,) * counts[face])]
            return [a for a in found if a[0] == "keep"]
        if self.greedy_fills:
            allowed = [c for c in self.categories if c in self.allowed(state)]
            return [("fill", max(allowed, key=lambda c: plain_score(c, dice)))]
        return found
