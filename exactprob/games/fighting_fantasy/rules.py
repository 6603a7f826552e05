r"""The rules of Fighting Fantasy combat as exact numbers: one round, one luck test.

Each round both sides roll 2d6 and add their skill. With :math:`Y` the opponent's 2d6
minus the hero's 2d6 and :math:`\Delta = k_h - k_o`, the hero wins the round when
:math:`Y < \Delta`, draws when :math:`Y = \Delta` and loses when :math:`Y > \Delta`.
:math:`Y + 10` is a sum of four dice with faces :math:`0..5`, so the number of the
:math:`6^4` outcomes with :math:`Y + 10 = k` is the coefficient of :math:`x^k` in the
sextinomial generating function

.. math::

    (1 + x + x^2 + x^3 + x^4 + x^5)^4 = 1 + 4x + 10x^2 + 20x^3 + 35x^4 + \cdots + x^{20}.

>>> round_odds(0)
RoundOdds(win=Fraction(575, 1296), draw=Fraction(73, 648), lose=Fraction(575, 1296))
>>> luck_probability(6), luck_probability(7), luck_probability(12)
(Fraction(5, 12), Fraction(7, 12), Fraction(1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ...engine import dice

__all__ = [
    "RULES",
    "RoundOdds",
    "Rule",
    "ends_either_way",
    "luck_probability",
    "round_counts",
    "round_odds",
    "sextinomial_row",
]


@dataclass(frozen=True)
class Rule:
    """A variant of the rules: what a lucky offensive test deals, and whether the
    opponent kills outright after winning two rounds in a row (a draw breaks the run)."""

    name: str
    lucky_hit: int = 4
    two_in_a_row_kills: bool = False
    description: str = ""


#: The rule variants by name: the book's rule, the author's later code (a lucky hit
#: deals 3), and the final fight of *Crypt of the Sorcerer*.
RULES: dict[str, Rule] = {
    rule.name: rule
    for rule in (
        Rule("standard", description="the rulebook: a lucky hit deals 4, an unlucky one 1"),
        Rule("amplify3", lucky_hit=3, description="a lucky hit deals 3 in total instead of 4"),
        Rule(
            "crypt",
            two_in_a_row_kills=True,
            description="the opponent kills outright after winning two rounds in a row",
        ),
    )
}


@dataclass(frozen=True)
class RoundOdds:
    """The exact chances that the hero wins, draws and loses one round."""

    win: Fraction
    draw: Fraction
    lose: Fraction


@cache
def sextinomial_row() -> tuple[int, ...]:
    """The coefficients of :math:`(1 + x + \\cdots + x^5)^4`: the number of ways four dice
    show each total from 4 to 24 (``proofs/proof_sextinomial.py`` expands the polynomial
    with sympy).

    >>> sextinomial_row()[:6], sum(sextinomial_row())
    ((1, 4, 10, 20, 35, 56), 1296)
    """
    four_dice = dice(4, 6)
    return tuple(int(four_dice[total] * 6**4) for total in range(4, 25))


def round_counts(delta: int) -> tuple[int, int, int]:
    """How many of the 1296 dice outcomes the hero wins, draws and loses at skill
    difference ``delta`` (any integer: beyond :math:`\\pm 10` one side always wins).

    >>> round_counts(0), round_counts(10), round_counts(11), round_counts(-11)
    ((575, 146, 575), (1295, 1, 0), (1296, 0, 0), (0, 0, 1296))
    """
    row = sextinomial_row()
    k = delta + 10  # the index of Y = delta in the row
    win = sum(row[: max(k, 0)])
    draw = row[k] if 0 <= k < len(row) else 0
    return win, draw, sum(row) - win - draw


def round_odds(delta: int) -> RoundOdds:
    """:func:`round_counts` as probabilities."""
    total = sum(sextinomial_row())
    win, draw, lose = round_counts(delta)
    return RoundOdds(Fraction(win, total), Fraction(draw, total), Fraction(lose, total))


@cache
def _two_dice_cdf() -> tuple[Fraction, ...]:
    two_dice = dice(2, 6)
    return tuple(two_dice.cdf(luck) for luck in range(13))


def luck_probability(luck: int) -> Fraction:
    """:math:`P(2d6 \\le \\text{luck})`, the chance that a luck test succeeds (0 for
    luck 0 or less, 1 from luck 12 up)."""
    return _two_dice_cdf()[min(max(luck, 0), 12)]


def ends_either_way(won: bool, hero: int, opponent: int, luck: int, lucky_hit: int = 4) -> bool:
    """Whether the fight ends after a won (``won``) or lost round whatever the hero
    decides and however the luck test goes (a test that cannot fail or cannot succeed
    counts only its possible side): then testing luck or not ties, and the tie says
    nothing about the strategy (the atlas counts such ties apart, the figures leave them
    unmarked). ``lucky_hit`` is what a lucky offensive test deals (:class:`Rule`).

    >>> ends_either_way(True, 5, 2, 12), ends_either_way(True, 5, 2, 3)  # 12 cannot fail
    (True, False)
    """
    t = luck_probability(luck)
    # stamina lost by the side that lost the round: without luck, lucky, unlucky
    without, lucky, unlucky = (2, lucky_hit, 1) if won else (2, 1, 3)
    stamina = opponent if won else hero
    least = without
    if t.numerator:  # the test can succeed
        least = min(least, lucky)
    if t.numerator != t.denominator:  # the test can fail
        least = min(least, unlucky)
    return stamina <= least
