r"""Risk's dice battle, exact: the chance of conquest and the armies left.

The attacker has :math:`A` armies and the defender :math:`D`. Each roll the attacker
throws :math:`\min(3, A - 1)` six-sided dice (one army stays behind) and the defender
:math:`\min(2, D)`. Both sort their dice from high to low and compare them in pairs,
as many pairs as the smaller number of dice; in each pair the higher die wins and a
tie goes to the defender. Each lost pair costs its side one army. The battle ends when
the defender has no armies left (conquest) or the attacker has one.

One roll's losses come from the distribution of the top dice, built exactly with
:class:`~exactprob.engine.dist.Dist`; the battle is then a Markov chain on :math:`(A, D)` with
no cycles (every roll costs at least one army), and

.. math::

    P(A, D) = \sum_{(l_a, l_d)} P_{n_a, n_d}(l_a, l_d)\; P(A - l_a,\, D - l_d), \qquad
    P(a, 0) = 1,\ P(1, d) = 0 .

>>> roll_losses(3, 2)[(0, 2)], roll_losses(3, 2)[(1, 1)], roll_losses(3, 2)[(2, 0)]
(Fraction(1445, 3888), Fraction(2611, 7776), Fraction(2275, 7776))
>>> risk_battle(3, 2).win
Fraction(235, 648)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ...engine import Dist, SolvedLaws, die, solve
from ...errors import ModelError
from ...util.display import JsonDisplay
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import exact_fields, probability_rows, whole_number
from ...util.resources import check_memory

__all__ = [
    "ENGINE_STATE_BYTES",
    "MAX_ARMIES",
    "RiskBattle",
    "RiskResult",
    "battle_bytes",
    "conquest_table",
    "risk_battle",
    "roll_losses",
]

#: Largest army a side may have (the chain has about ``A * D`` states).
MAX_ARMIES = 2000
RiskState = tuple[int, int]


@cache
def top_dice(n: int, keep: int) -> Dist[tuple[int, ...]]:
    """The ``keep`` highest of ``n`` d6, sorted high to low, as an exact distribution
    (dice added one at a time, keeping only the top ``keep``)."""
    nothing: tuple[int, ...] = ()
    tops = Dist({nothing: 1})
    for _ in range(n):
        tops = tops.bind(
            lambda t: die(6).map(lambda x: tuple(sorted((*t, x), reverse=True))[:keep])
        )
    return tops


@cache
def roll_losses(attacker_dice: int, defender_dice: int) -> Dist[tuple[int, int]]:
    """The distribution of (attacker's losses, defender's losses) in one roll.

    >>> roll_losses(1, 1)[(1, 0)]
    Fraction(7, 12)
    """
    pairs = min(attacker_dice, defender_dice)
    if pairs < 1 or attacker_dice > 3 or defender_dice > 2:
        raise ModelError("the attacker rolls 1 to 3 dice and the defender 1 or 2")
    defender = top_dice(defender_dice, pairs)

    def losses(a: tuple[int, ...]) -> Dist[tuple[int, int]]:
        def count(d: tuple[int, ...]) -> tuple[int, int]:
            lost = sum(x <= y for x, y in zip(a, d))
            return (lost, pairs - lost)

        return defender.map(count)

    return top_dice(attacker_dice, pairs).bind(losses)


class RiskBattle:
    """The dice battle as a Markov chain on (attacker armies, defender armies).

    Parameters
    ----------
    attackers : int
        Armies in the attacking territory, at least 2 (one stays behind).
    defenders : int
        Armies defending, at least 1.
    """

    def __init__(self, attackers: int, defenders: int) -> None:
        self.initial: RiskState = (
            whole_number("the attacker's armies", attackers, 2, MAX_ARMIES),
            whole_number("the defender's armies", defenders, 1, MAX_ARMIES),
        )

    def outcome(self, state: Any) -> int | None:
        """1 when the defender has no armies left, 0 when the attacker has one."""
        a, d = state
        if d == 0:
            return 1
        return 0 if a == 1 else None

    def actions(self, state: Any) -> tuple[str]:
        """One action: roll."""
        return ("roll",)

    def transition(self, state: Any, action: str) -> Dist[RiskState]:
        """One roll with the most dice each side may throw."""
        a, d = state
        return roll_losses(min(3, a - 1), min(2, d)).map(lambda l: (a - l[0], d - l[1]))


@dataclass(frozen=True)
class RiskResult(JsonDisplay):
    """The exact outcome of a Risk battle.

    Attributes
    ----------
    attackers, defenders : int
        Armies at the start.
    win : Fraction
        P(the attacker conquers); the attacker fails with ``1 - win``.
    expected_rolls : Fraction
        Expected number of rolls.
    attacker_remaining : Dist
        Armies left in the attacking territory at the end (1 when it fails; at
        least 2 after a conquest, the army that stays behind included).
    defender_remaining : Dist
        Defending armies left (0 after a conquest).
    """

    attackers: int
    defenders: int
    win: Fraction
    expected_rolls: Fraction
    attacker_remaining: Dist[int]
    defender_remaining: Dist[int]

    @property
    def lose(self) -> Fraction:
        """P(the attack fails)."""
        return 1 - self.win

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: exact values as ``"p/q"`` with ``*_decimal`` twins."""
        payload: dict[str, Any] = {"attacker": self.attackers, "defender": self.defenders}
        for key, value in (
            ("win", self.win),
            ("lose", self.lose),
            ("expected_rolls", self.expected_rolls),
        ):
            payload.update(exact_fields(key, value))
        for key, dist in (
            ("attacker_remaining", self.attacker_remaining),
            ("defender_remaining", self.defender_remaining),
        ):
            payload[key] = probability_rows(dist, "armies")
        return payload


def result_of(model: RiskBattle, solution: SolvedLaws) -> RiskResult:
    """The :class:`RiskResult` from the solver's absorption distribution."""
    end: Dist[RiskState] = solution.absorption()
    a, d = model.initial
    return RiskResult(
        attackers=a,
        defenders=d,
        win=solution.value(),
        expected_rolls=solution.expected_steps(),
        attacker_remaining=end.map(lambda s: s[0]),
        defender_remaining=end.map(lambda s: s[1]),
    )


#: The engine's bytes per state besides the exact values: ids, edges, floats, lists.
ENGINE_STATE_BYTES = 1000


def battle_bytes(attackers: int, defenders: int) -> int:
    r"""An estimate of a battle's memory, checked before it is solved: up to
    :math:`A (D + 1)` states, each with the engine's :data:`ENGINE_STATE_BYTES`, its
    value and its reach probability (for the armies left), rationals whose numerator and
    denominator take about :math:`8 (a + d)` bits together (measured: 7.0 to 7.5 per
    army from 100 to 400 armies; a roll's chances have denominator :math:`6^5`).

    >>> battle_bytes(2000, 2000) > 16 * 2**30  # refused on a 24 GB machine
    True
    """
    states = attackers * (defenders + 1)
    bits = 8 * (attackers + defenders) / 2  # the average state's a + d is half of A + D
    return int(states * (ENGINE_STATE_BYTES + 2 * bits / 8))


def risk_battle(
    attackers: int, defenders: int, *, max_states: int = DEFAULT_MAX_STATES
) -> RiskResult:
    """Solve one Risk battle exactly (refused up front when it would not fit in memory,
    :func:`battle_bytes`)."""
    model = RiskBattle(attackers, defenders)
    check_memory(battle_bytes(attackers, defenders), f"{attackers} against {defenders}")
    return result_of(model, solve(model, max_states=max_states, progress=False))


def conquest_table(attackers: int, defenders: int) -> dict[RiskState, Fraction]:
    """P(conquest) for every start with 2..``attackers`` and 1..``defenders`` armies,
    from one exploration and one solve."""
    starts = [(a, d) for a in range(2, attackers + 1) for d in range(1, defenders + 1)]
    check_memory(battle_bytes(attackers, defenders), f"the table up to {attackers} x {defenders}")
    solution = solve(RiskBattle(attackers, defenders), starts=starts, progress=False)
    return {start: solution.value(start) for start in starts}
