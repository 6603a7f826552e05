"""What a fight is, before any solver sees it: one :class:`Fight` value (its start checked,
its rule resolved by name, what a victory is worth, an :class:`Objective`), and the
signature of a luck policy. The grid, the model, the arrays and the simulator all take a
:class:`Fight`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import ModelError
from ...util.numbers import exact, plain_integer, to_fraction, whole_number
from .rules import RULES, Rule

__all__ = ["MAX_STAT", "Fight", "LuckPolicy", "Objective", "resolve_rule"]

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


@dataclass(frozen=True, init=False)
class Fight:
    r"""One fight, checked once: the skill difference :math:`\Delta` (hero's skill minus
    opponent's), the hero's stamina, the opponent's stamina, the hero's luck, the rule (a
    :class:`~.rules.Rule` or its name) and what a victory is worth (the plain chance of
    winning by default). Every solver of a fight and its simulator take this value; a
    bad field is one line naming it.

    >>> fight = Fight(0, 4, 4, 7, "crypt")
    >>> fight.rule.two_in_a_row_kills, fight.objective.is_win, fight.states
    (True, True, 256)
    >>> Fight(0, 0, 5, 0)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: hero stamina must be a whole number >= 1, got 0
    """

    delta: int
    hero_stamina: int
    opponent_stamina: int
    luck: int
    rule: Rule
    objective: Objective

    def __init__(
        self,
        delta: int,
        hero_stamina: int,
        opponent_stamina: int,
        luck: int,
        rule: str | Rule = "standard",
        objective: Objective | None = None,
    ) -> None:
        if objective is not None and not isinstance(objective, Objective):
            raise ModelError(f"objective must be an Objective, got {type(objective).__name__}")
        fields = {  # numpy integers (picked from arrays) are stored as Python ints
            "delta": whole_number("delta", plain_integer(delta), -MAX_STAT, MAX_STAT),
            "hero_stamina": whole_number("hero stamina", plain_integer(hero_stamina), 1),
            "opponent_stamina": whole_number(
                "opponent stamina", plain_integer(opponent_stamina), 1
            ),
            "luck": whole_number("luck", plain_integer(luck), 0),
            "rule": resolve_rule(rule),
            "objective": objective or Objective(),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def states(self) -> int:
        """The round-start states of the grid up to this fight's start: hero stamina x
        opponent stamina x (luck + 1), twice that under a rule with a streak flag."""
        flags = 2 if self.rule.two_in_a_row_kills else 1
        return self.hero_stamina * self.opponent_stamina * (self.luck + 1) * flags

    def at(self, hero_stamina: int, opponent_stamina: int, luck: int) -> Fight:
        """The same fight (skills, rule, objective) from another start.

        >>> Fight(2, 10, 8, 5, "crypt").at(3, 3, 0) == Fight(2, 3, 3, 0, "crypt")
        True
        """
        return Fight(self.delta, hero_stamina, opponent_stamina, luck, self.rule, self.objective)
