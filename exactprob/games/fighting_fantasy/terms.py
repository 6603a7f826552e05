"""What a fight to solve is, before any solver sees it: its start checked, its rule
resolved by name, what a victory is worth (:class:`Objective`), and the signature of a
luck policy. The grid, the model and the arrays all take their terms from here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import ModelError
from ...util.numbers import exact, to_fraction, whole_number
from .rules import RULES, Rule

__all__ = ["MAX_STAT", "LuckPolicy", "Objective", "check_fight", "fight_terms", "resolve_rule"]

#: The largest skill difference a fight takes, and the largest skill, stamina or luck the
#: command line accepts.
MAX_STAT = 10**6

#: ``policy(won, hero, opponent, luck, streak) -> bool``: test luck after this round?
#: Called with Python scalars by the exact solvers and with numpy arrays by the simulator.
LuckPolicy = Callable[[Any, Any, Any, Any, Any], Any]


@dataclass(frozen=True)
class Objective:
    r"""What a victory is worth: :math:`[h \ge r][l \ge m]\,(1 + a h + b l)` for a victory
    with :math:`h` stamina and :math:`l` luck left; a defeat scores 0. The default is the
    plain chance of winning.

    >>> Objective(keep_stamina=5).score(4, 0), Objective(luck_weight=Fraction(1, 10)).score(4, 3)
    (Fraction(0, 1), Fraction(13, 10))
    """

    keep_stamina: int = 0
    keep_luck: int = 0
    stamina_weight: Fraction = Fraction(0)
    luck_weight: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        whole_number("keep_stamina", self.keep_stamina, 0)
        whole_number("keep_luck", self.keep_luck, 0)
        for name in ("stamina_weight", "luck_weight"):
            weight = to_fraction(exact(getattr(self, name)))
            if weight < 0:
                raise ModelError(f"{name} must be >= 0, got {weight}")
            object.__setattr__(self, name, weight)

    @property
    def is_win(self) -> bool:
        """True for the plain chance of winning."""
        return self == Objective()

    def score(self, hero_stamina: int, luck: int) -> Fraction:
        """The score of a victory with ``hero_stamina`` and ``luck`` left."""
        if hero_stamina < self.keep_stamina or luck < self.keep_luck:
            return Fraction(0)
        return 1 + self.stamina_weight * hero_stamina + self.luck_weight * luck


def resolve_rule(rule: str | Rule) -> Rule:
    """A :class:`~.rules.Rule` from its name (or itself)."""
    if isinstance(rule, Rule):
        return rule
    if rule not in RULES:
        raise ModelError(f"unknown rule {rule!r}; allowed: {', '.join(RULES)}")
    return RULES[rule]


def check_fight(delta: int, hero_stamina: int, opponent_stamina: int, luck: int) -> None:
    """Refuse a starting state that is not whole numbers in range (one line naming the
    field).

    >>> check_fight(0, 0, 5, 0)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: hero stamina must be a whole number >= 1, got 0
    """
    whole_number("delta", delta, -MAX_STAT, MAX_STAT)
    whole_number("hero stamina", hero_stamina, 1)
    whole_number("opponent stamina", opponent_stamina, 1)
    whole_number("luck", luck, 0)


def fight_terms(
    delta: int,
    hero_stamina: int,
    opponent_stamina: int,
    luck: int,
    rule: str | Rule,
    objective: Objective | None,
) -> tuple[Rule, Objective]:
    """The rule and objective of a fight whose start is checked (:func:`check_fight`):
    the rule resolved by name, the plain chance of winning when no objective is given.

    >>> fight_terms(0, 5, 5, 0, "crypt", None)[0].two_in_a_row_kills
    True
    """
    check_fight(delta, hero_stamina, opponent_stamina, luck)
    return resolve_rule(rule), objective or Objective()
