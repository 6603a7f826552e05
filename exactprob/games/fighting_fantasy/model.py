r"""Fighting Fantasy combat as a :class:`~exactprob.engine.model.Model` for the generic engine.

A state is ``(phase, hero, opponent, luck, streak)``. In phase ``"round"`` the dice
roll (one action); a won or lost round leads to phase ``"won"`` or ``"lost"``, where the
hero chooses ``"no luck"`` or ``"luck"`` (the latter only with luck left), and the
damage then leads to the next ``"round"``. A draw returns to the same state (the solver
removes the self-loop) except under *Crypt*, where it clears the streak flag. The fight
ends when a stamina reaches 0 or less; the opponent's second round won in a row under
*Crypt* sets the hero's stamina to 0.

This is the model the issue asks for; :mod:`.grid` solves the same equations faster, and
the tests require both to agree on every state of a grid.

>>> from exactprob import solve
>>> solution = solve(FightModel(Fight(0, 4, 4, 7)))
>>> solution.value()
Fraction(9185, 13824)
>>> solution.policy(("won", 4, 4, 7, False))
'luck'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...engine import Dist
from ...errors import ModelError
from .rules import luck_probability, round_odds
from .terms import Fight, LuckPolicy

__all__ = ["LUCK", "NO_LUCK", "FightModel", "FightState", "engine_policy"]

NO_LUCK = "no luck"
LUCK = "luck"
FightState = tuple[str, int, int, int, bool]


class FightModel:
    """One :class:`~exactprob.games.fighting_fantasy.terms.Fight` from its start, round by round (``odds`` are its round's
    chances, which a symbolic proof may replace)."""

    def __init__(self, fight: Fight) -> None:
        if not isinstance(fight, Fight):
            raise ModelError(f"FightModel takes a Fight, got {type(fight).__name__}")
        self.fight = fight
        self.odds = round_odds(fight.delta)
        self.initial: FightState = (
            "round",
            fight.hero_stamina,
            fight.opponent_stamina,
            fight.luck,
            False,
        )

    def outcome(self, state: FightState) -> Fraction | None:
        _, hero, opponent, luck, _ = state
        if hero <= 0:
            return Fraction(0)
        if opponent <= 0:
            return self.fight.objective.score(hero, luck)
        return None

    def actions(self, state: FightState) -> tuple[str, ...]:
        phase, _, _, luck, _ = state
        if phase == "round":
            return ("roll",)
        return (NO_LUCK, LUCK) if luck >= 1 else (NO_LUCK,)

    def transition(self, state: FightState, action: str) -> Dist[FightState]:
        phase, hero, opponent, luck, streak = state
        if phase == "round":
            return self._round(hero, opponent, luck, streak)
        won = phase == "won"  # the streak flag rides along so that a policy may read it
        after = (not won) and self.fight.rule.two_in_a_row_kills
        if action == NO_LUCK:
            hits = {(0, 2) if won else (2, 0): Fraction(1)}
        else:
            t = luck_probability(luck)
            lucky, unlucky = ((0, self.fight.rule.lucky_hit), (0, 1)) if won else ((1, 0), (3, 0))
            hits = {lucky: t, unlucky: 1 - t}
            luck -= 1
        return Dist(
            {("round", hero - a, opponent - b, luck, after): p for (a, b), p in hits.items() if p}
        )

    def _round(self, hero: int, opponent: int, luck: int, streak: bool) -> Dist[FightState]:
        lost: FightState = ("lost", hero, opponent, luck, streak)
        if streak:  # the opponent's second round in a row: the hero is killed outright
            lost = ("round", 0, opponent, luck, False)
        return Dist(
            {
                ("won", hero, opponent, luck, streak): self.odds.win,
                ("round", hero, opponent, luck, False): self.odds.draw,
                lost: self.odds.lose,
            }
        )


def engine_policy(policy: LuckPolicy) -> Any:
    """A :data:`~.terms.LuckPolicy` as a policy for :func:`exactprob.evaluate`.

    >>> engine_policy(lambda won, h, o, l, streak: won)(("won", 5, 5, 3, False))
    'luck'
    """

    def choose(state: FightState) -> str:
        phase, hero, opponent, luck, streak = state
        if phase == "round":
            return "roll"
        wants = luck >= 1 and bool(policy(phase == "won", hero, opponent, luck, streak))
        return LUCK if wants else NO_LUCK

    return choose
