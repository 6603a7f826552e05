"""Derivations written from a model: push your luck, solved for every chance p of a good
roll, and red and black at p = 2/5, each with its equations, decisions and margins.

    python examples/derivations.py

Prints both derivations in Markdown, then plays push your luck at p = 3/5 by the rules and
checks the simulated mean against the exact value of the piece holding 3/5. The docs
build the same derivations with the ``exactprob-derivation`` directive.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

import exactprob as ep
from exactprob.games.fighting_fantasy import Fight

P = sympy.Symbol("p")


class PushYourLuck:
    """Roll for a point with chance ``p``, or hold and keep the points; a failed roll ends
    the turn with nothing; at ``cap`` points the player holds."""

    initial = 0

    def __init__(self, cap: int, p: Any) -> None:
        self.cap, self.p = cap, p

    def outcome(self, s: Any) -> int | None:
        return s[1] if isinstance(s, tuple) else None

    def actions(self, s: int) -> tuple[str, ...]:
        return ("hold", "roll") if s < self.cap else ("hold",)

    def transition(self, s: int, a: str) -> ep.Dist[Any]:
        if a == "hold":
            return ep.Dist({("held", s): 1})
        return ep.Dist({s + 1: self.p, ("held", 0): 1 - self.p})


class RedAndBlack:
    """Dubins and Savage's red and black: with fortune ``i`` stake any whole amount up
    to ``min(i, goal - i)``, win it with chance ``p``, lose it otherwise."""

    def __init__(self, goal: int, p: Any, start: int | None = None) -> None:
        self.goal, self.p = goal, p
        self.initial = goal // 2 if start is None else start

    def outcome(self, s: int) -> int | None:
        return 1 if s == self.goal else (0 if s == 0 else None)

    def actions(self, s: int) -> tuple[int, ...]:
        return tuple(range(1, min(s, self.goal - s) + 1))

    def transition(self, s: int, stake: int) -> ep.Dist[int]:
        return ep.Dist({s + stake: self.p, s - stake: 1 - self.p})


def red_and_black() -> RedAndBlack:
    """Red and black to 5 from 2, at p = 2/5."""
    return RedAndBlack(5, Fraction(2, 5))


def push_your_luck() -> PushYourLuck:
    """Push your luck to 3 points, in the symbol ``p``."""
    return PushYourLuck(3, P)


def fight_against_seven() -> Any:
    """Fighting Fantasy, equal skills, stamina 8 against 7 with luck 7 (the page's
    example: after a won round the hero tests luck)."""
    from exactprob.games.fighting_fantasy import FightModel

    return FightModel(Fight(0, 8, 7, 7))


def fighter_against_war_sun() -> Any:
    """One fighter attacking one war sun: every round without a hit is a do-over."""
    from exactprob.games.fleet_battle import FleetBattle, parse_fleet

    return FleetBattle(parse_fleet("1 fighter"), parse_fleet("1 war-sun"))


def main() -> None:
    piecewise = ep.solve(push_your_luck())
    print(piecewise.derivation().markdown())
    print(ep.solve(red_and_black()).derivation().markdown())
    at = Fraction(3, 5)
    model = PushYourLuck(3, at)
    solved = ep.solve(model)
    expected = piecewise.piece_at(at).value().subs(P, sympy.Rational(3, 5))
    assert solved.value() == Fraction(str(expected))  # 2 p^2 = 18/25 on 1/2 < p < 2/3
    runs = ep.simulate(model, solved, n=20_000, seed=3)
    print(f"push your luck at p = 3/5: exact {solved.value()}")
    print("simulated play agrees within 5 standard errors:", runs.agrees_with(solved.value()))


if __name__ == "__main__":
    main()
