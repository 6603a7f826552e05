"""A model of your own, in one parameter: a Fighting Fantasy fight in which the hero wins
each decisive round with chance p. For which p does testing luck pay?

    python examples/lucky_fight.py

The rules are the gamebooks' (the Fighting Fantasy page): the loser of a round loses 2
stamina; after a round, the hero may test luck (2d6 at most the current luck, which then
drops by one) to deal 4 instead of 2, or 1 after an unlucky test, or to take 1 instead of
2, or 3. Draws change nothing, so only the chance p that a decisive round goes to the
hero matters, and here it is a sympy symbol: ``exactprob.solve`` returns the best play for
every p at once, piece by piece. The script prints where the first decisions change, checks
the answer at p = 1/2 and p = 721/1156 (equal skills, and one point of skill more) against
the game's own grid solver, and plays the fight from the rules at p = 3/5.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import sympy

import exactprob as ep
from exactprob.games.fighting_fantasy import Fight, luck_probability, round_odds, solve_grid

P = sympy.Symbol("p")
#: A state: the phase (a round to fight, or the decision after a won or a lost one),
#: the hero's stamina, the opponent's, and the hero's luck.
State = tuple[str, int, int, int]


class LuckyFight:
    """A fight from ``(hero, opponent, luck)``; the hero wins a decisive round with chance
    ``p`` (a number, or a sympy symbol)."""

    def __init__(self, hero: int, opponent: int, luck: int, p: Any = P) -> None:
        self.initial: State = ("round", hero, opponent, luck)
        self.p = p

    def outcome(self, state: State) -> int | None:
        _, hero, opponent, _ = state
        return 0 if hero <= 0 else (1 if opponent <= 0 else None)

    def actions(self, state: State) -> tuple[str, ...]:
        phase, _, _, luck = state
        if phase == "round":
            return ("fight",)
        return ("keep luck", "test luck") if luck >= 1 else ("keep luck",)

    def transition(self, state: State, action: str) -> ep.Dist[State]:
        phase, hero, opponent, luck = state
        if phase == "round":
            return ep.Dist({("won", *state[1:]): self.p, ("lost", *state[1:]): 1 - self.p})
        won = phase == "won"
        if action == "keep luck":
            hit = (hero, opponent - 2) if won else (hero - 2, opponent)
            return ep.Dist({("round", *hit, luck): 1})
        lucky, unlucky = ((0, 4), (0, 1)) if won else ((1, 0), (3, 0))
        t = luck_probability(luck)
        return ep.Dist(
            {
                ("round", hero - lucky[0], opponent - lucky[1], luck - 1): t,
                ("round", hero - unlucky[0], opponent - unlucky[1], luck - 1): 1 - t,
            }
        )


def small_fight() -> LuckyFight:
    """Stamina 4 against 4 with luck 3: the fight whose derivation the docs print."""
    return LuckyFight(4, 4, 3)


def play_by_ranges(solved: Any, state: State) -> list[tuple[str, str]]:
    """The optimal play in ``state`` over the whole range of p, consecutive pieces with the
    same play joined: ``[(where, play), ...]`` with ``where`` an interval of p (closed at
    an end that is a breakpoint with the same play) and ``play`` the optimal action, or
    the actions exactly tied there joined by ``=``."""
    plays = [(piece.where, " = ".join(piece.ties(state))) for piece in solved.pieces]
    joined = []
    for play, pieces in itertools.groupby(plays, key=lambda piece: piece[1]):
        where = [r for r, _ in pieces]
        first, last = where[0], where[-1]
        if first is last and first.point:
            joined.append((f"p = {_shown(first.low)}", play))
            continue
        low = f"{_shown(first.low)} {'<=' if first.point else '<'} "
        high = f" {'<=' if last.point else '<'} {_shown(last.high)}"
        joined.append((low + "p" + high, play))
    return joined


def _shown(point: Any) -> str:
    """An end of a range: exact, with its decimal when it is not a rational."""
    if point is None:  # the range is unbounded on that side
        return "oo"
    exact = sympy.sympify(str(point))
    return str(exact) if exact.is_Rational else f"{exact} = {float(sympy.N(exact, 8)):.6f}"


def play(rng: random.Random, fight: LuckyFight, policy: dict[State, str]) -> int:
    """One fight from the rules, the hero following ``policy``: 1 if the hero wins."""
    _, hero, opponent, luck = fight.initial
    p = fight.p
    while hero > 0 and opponent > 0:
        won = rng.random() < p
        choice = policy[("won" if won else "lost", hero, opponent, luck)]
        if choice == "keep luck":
            hero, opponent = (hero, opponent - 2) if won else (hero - 2, opponent)
            continue
        lucky = rng.randint(1, 6) + rng.randint(1, 6) <= luck
        luck -= 1
        if won:
            opponent -= 4 if lucky else 1
        else:
            hero -= 1 if lucky else 3
    return int(hero > 0)


def main() -> None:
    solved = ep.solve(LuckyFight(8, 8, 7))
    print(f"stamina 8 against 8, luck 7: {len(solved.pieces)} pieces in p")
    for phase in ("won", "lost"):
        print(f"after the first {phase} round:")
        for where, action in play_by_ranges(solved, (phase, 8, 8, 7)):
            print(f"  {action:<9}  for {where}")
    for delta in (0, 1):  # the game's grid solver, written separately, at p = w / (w + l)
        odds = round_odds(delta)
        p = odds.win / (odds.win + odds.lose)
        ours = solved.at(p).value()
        assert ours == solve_grid(Fight(delta, 8, 8, 7)).value(8, 8, 7)
        print(f"at p = {p} (skill difference {delta}): {ours}, the grid solver's value")
    fight = LuckyFight(8, 8, 7, Fraction(3, 5))
    exact = ep.solve(fight)
    assert exact.value() == Fraction(str(solved.value().subs(P, sympy.Rational(3, 5))))
    policy = exact.policy_map()
    rng = random.Random(11)
    games = 20_000
    wins = sum(play(rng, fight, policy) for _ in range(games))
    print(
        f"at p = 3/5 the hero wins {exact.value()} = {float(exact.value()):.4f}; "
        f"{games:,} fights played from the rules: {wins / games:.4f}; "
        f"agrees within 5 standard errors: {ep.agrees_with(exact.value(), wins, games)}"
    )


if __name__ == "__main__":
    main()
