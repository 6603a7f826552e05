r"""An independent, vectorised numpy simulator of Fighting Fantasy combat.

It is written straight from the rules, not from the exact model: it rolls every die
(four d6 per round, two more per luck test), plays draws as rounds where nothing
happens (no renormalisation), and shares no round or luck probability with the solver,
so a modelling mistake in either shows up as a disagreement. Fights run side by side,
one numpy row each, until one side's stamina reaches 0 or less.

A round: the hero wins when its 2d6 plus ``delta`` (hero skill minus opponent skill)
beats the opponent's 2d6, loses when it is lower, draws when equal. The loser of a
round loses 2 stamina unless the hero tests luck (allowed while luck is at least 1; the
policy decides, seeing the state before the round's damage): roll 2d6, lucky iff the
roll is at most the current luck, then luck drops by 1. A won round then deals 4 if
lucky (3 under ``"amplify3"``) or 1 if not; a lost round costs the hero 1 if lucky or
3 if not. Under ``"crypt"`` the opponent kills the hero outright when it wins a round
right after winning the previous one (a draw breaks the run); no luck is tested then.

>>> simulate_fight(Fight(11, 1, 24, 0), n=1000).win_rate
1.0
>>> sim = simulate_fight(Fight(0, 2, 2, 0), n=10_000, seed=1)
>>> round(sim.win_rate, 1), sim.agrees_with("1/2")
(0.5, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from ...engine import Runs
from ...errors import ModelError
from ...util.numbers import plain_integer, whole_number
from .terms import Fight

__all__ = ["SIMULATED_RULES", "FightSimulation", "VectorLuckPolicy", "simulate_fight"]

#: A vectorised luck policy: ``policy(won, hero, opponent, luck, streak)`` gets one entry
#: per fight deciding this round (``won`` True when the hero won the round; staminas and
#: luck before the round's damage; ``streak`` True when the opponent won the previous
#: round with no draw since, always False outside ``"crypt"``) and returns a bool array,
#: True to test luck.
VectorLuckPolicy: TypeAlias = Callable[
    [np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], Any
]

#: What a lucky offensive test deals, and whether two lost rounds in a row kill, per rule.
SIMULATED_RULES: dict[str, tuple[int, bool]] = {
    "standard": (4, False),
    "amplify3": (3, False),
    "crypt": (4, True),
}


@dataclass(frozen=True, eq=False)
class FightSimulation(Runs):
    """``n`` simulated fights, one array entry each: whether the hero won (the
    :attr:`result`), the rounds played (draws included), the final staminas (0 or less for
    the loser; a hero killed outright under ``"crypt"`` ends at 0), the final luck and the
    luck spent."""

    won: np.ndarray
    rounds: np.ndarray
    hero_stamina: np.ndarray
    opponent_stamina: np.ndarray
    luck: np.ndarray
    luck_spent: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Whether the hero won each fight."""
        return self.won

    @property
    def steps(self) -> int:
        """Rounds played over all fights."""
        return int(self.rounds.sum())

    @property
    def wins(self) -> int:
        """Number of fights the hero won."""
        return self.successes

    @property
    def win_rate(self) -> float:
        """Fraction of fights the hero won."""
        return self.wins / self.n

    @property
    def standard_error(self) -> float:
        """Estimated standard error of :attr:`win_rate`, :math:`\\sqrt{\\hat p(1-\\hat p)/n}`."""
        p = self.win_rate
        return math.sqrt(p * (1 - p) / self.n)

    @property
    def mean_rounds(self) -> float:
        """Mean number of rounds per fight, draws included."""
        return float(self.rounds.mean())

    @property
    def mean_luck_spent(self) -> float:
        """Mean number of luck tests per fight."""
        return float(self.luck_spent.mean())


def _whole(name: str, value: object, low: int) -> int:
    """:func:`~exactprob.util.numbers.whole_number`, accepting numpy integers too."""
    return whole_number(name, plain_integer(value), low)


def simulate_fight(
    fight: Fight,
    *,
    policy: VectorLuckPolicy | None = None,
    n: int = 100_000,
    seed: int | None = 0,
    max_rounds: int = 10_000,
) -> FightSimulation:
    """Play ``n`` copies of ``fight`` with ``numpy.random.default_rng(seed)``.

    ``policy`` is a :data:`VectorLuckPolicy` (``None``: never test luck), consulted only
    for fights that won or lost this round with luck at least 1 (and not on a ``"crypt"``
    killing round). The fight's rule must be one of :data:`SIMULATED_RULES`, which the
    simulator plays from its own table; the fight's objective is not read (the runs
    record every outcome). Raises :class:`~exactprob.errors.ModelError` on bad input, a
    policy answer of the wrong shape, or a fight longer than ``max_rounds`` rounds.
    """
    if not isinstance(fight, Fight):
        raise ModelError(f"simulate_fight takes a Fight, got {type(fight).__name__}")
    n = _whole("n", n, 1)
    max_rounds = _whole("max_rounds", max_rounds, 1)
    rule = fight.rule
    if SIMULATED_RULES.get(rule.name) != (rule.lucky_hit, rule.two_in_a_row_kills):
        raise ModelError(f"the simulator plays the rules {', '.join(SIMULATED_RULES)}, got {rule}")
    lucky_hit, two_in_a_row_kills = SIMULATED_RULES[rule.name]
    delta, hero_stamina, opponent_stamina, luck = (
        fight.delta,
        fight.hero_stamina,
        fight.opponent_stamina,
        fight.luck,
    )

    rng = np.random.default_rng(seed)
    hero = np.full(n, hero_stamina, dtype=np.int64)
    opponent = np.full(n, opponent_stamina, dtype=np.int64)
    lk = np.full(n, luck, dtype=np.int64)
    streak = np.zeros(n, dtype=bool)
    rounds = np.zeros(n, dtype=np.int64)
    idx = np.arange(n)  # the fights still running
    for _ in range(max_rounds):
        if idx.size == 0:
            break
        d = rng.integers(1, 7, size=(idx.size, 4))
        margin = d[:, 0] + d[:, 1] + delta - d[:, 2] - d[:, 3]
        rounds[idx] += 1
        won, lost = margin > 0, margin < 0
        kill = lost & streak[idx] if two_in_a_row_kills else np.zeros(idx.size, dtype=bool)
        hit = lost & ~kill
        test = np.zeros(idx.size, dtype=bool)
        ask = (won | hit) & (lk[idx] >= 1)
        if policy is not None and ask.any():
            f = idx[ask]
            answer = np.asarray(
                policy(won[ask], hero[f], opponent[f], lk[f], streak[f]), dtype=bool
            )
            if answer.shape != f.shape:
                raise ModelError(f"the policy returned shape {answer.shape} for {f.size} fights")
            test[ask] = answer
        lucky = np.zeros(idx.size, dtype=bool)
        if test.any():
            t = idx[test]
            lucky[test] = rng.integers(1, 7, size=(t.size, 2)).sum(axis=1) <= lk[t]
            lk[t] -= 1
        opponent[idx] -= np.where(won, np.where(test, np.where(lucky, lucky_hit, 1), 2), 0)
        hero[idx] -= np.where(hit, np.where(test, np.where(lucky, 1, 3), 2), 0)
        if two_in_a_row_kills:
            hero[idx[kill]] = 0
            streak[idx] = lost
        idx = idx[(hero[idx] > 0) & (opponent[idx] > 0)]
    if idx.size:
        raise ModelError(f"a simulated fight lasted more than {max_rounds} rounds")
    return FightSimulation(
        won=opponent <= 0,
        rounds=rounds,
        hero_stamina=hero,
        opponent_stamina=opponent,
        luck=lk,
        luck_spent=luck - lk,
    )
