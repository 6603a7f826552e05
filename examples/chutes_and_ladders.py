"""Two-player Chutes & Ladders: an exact answer of 4,453 digits, in seconds.

The Milton Bradley board: squares 1 to 100, a spinner of 1 to 6; a spin that would pass
100 leaves the player where they are; landing at the foot of a ladder climbs it, at the
top of a chute slides down it; the first to stop on 100 wins. The model has one state
per round, the two players' squares before the first one spins. Its chain is cyclic
(chutes lead back), and the exact probability that the first player wins is a fraction
of thousands of digits: the engine lifts its digits from a float LU and checks the result
exactly (the solver page, "Long exact answers"). Then one player alone with a loaded
spinner: the expected number of spins as a rational function of the chance of a six.

Run: ``python examples/chutes_and_ladders.py``
"""

from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from typing import Any

import sympy

import exactprob as ep
from exactprob.util.numbers import decimal_string

#: The board's ladders (up) and chutes (down), from square to square.
JUMPS = {1: 38, 4: 14, 9: 31, 21: 42, 28: 84, 36: 44, 51: 67, 71: 91, 80: 100}
JUMPS |= {16: 6, 48: 26, 49: 11, 56: 53, 62: 19, 64: 60, 87: 24, 93: 73, 95: 75, 98: 78}
SPIN = ep.die(6)


def move(square: int, spin: int) -> int:
    """Where a player on ``square`` ends after ``spin``."""
    target = square + spin
    if target > 100:
        return square
    return JUMPS.get(target, target)


class ChutesAndLadders:
    """States: (first player's square, second player's square) at the start of a round;
    the terminal states 1 (the first player won) and 0 (the second did)."""

    initial = (0, 0)

    def outcome(self, state: object) -> int | None:
        return state if state in (0, 1) else None  # type: ignore[return-value]

    def actions(self, state: tuple[int, int]) -> tuple[str, ...]:
        return ("spin",)

    def transition(self, state: tuple[int, int], action: str) -> ep.Dist[object]:
        first, second = state

        def second_spins(a: int) -> ep.Dist[object]:
            if a == 100:
                return ep.Dist({1: 1})
            return SPIN.map(lambda s: 0 if move(second, s) == 100 else (a, move(second, s)))

        return SPIN.bind(lambda s: second_spins(move(first, s)))


class Alone:
    """One player alone with a spinner that shows six with chance ``p`` and each other
    face with chance ``(1 - p) / 5``; each spin earns 1, so the value is the expected
    number of spins to reach 100: a rational function of ``p`` when ``p`` is a symbol."""

    initial = 0

    def __init__(self, p: Any) -> None:
        self.spin = {face: (1 - p) / 5 for face in range(1, 6)} | {6: p}

    def outcome(self, square: int) -> int | None:
        return 0 if square == 100 else None

    def actions(self, square: int) -> tuple[str, ...]:
        return ("spin",)

    def reward(self, square: int, action: str) -> int:
        return 1

    def transition(self, square: int, action: str) -> ep.Dist[int]:
        squares: dict[int, Any] = {}
        for face, q in self.spin.items():
            target = move(square, face)
            squares[target] = squares.get(target, 0) + q
        return ep.Dist(squares)


def play(rng: random.Random) -> int:
    """One game from the rules: 1 if the first player wins."""
    squares = [0, 0]
    while True:
        for player in (0, 1):
            squares[player] = move(squares[player], rng.randint(1, 6))
            if squares[player] == 100:
                return 1 - player


def main() -> None:
    sys.set_int_max_str_digits(0)
    started = time.perf_counter()
    value = ep.solve(ChutesAndLadders()).value()
    seconds = time.perf_counter() - started
    digits = len(str(value.numerator)), len(str(value.denominator))
    print(f"first player wins with probability {decimal_string(value, 30)}")
    print(f"exact: a {digits[0]:,}-digit over a {digits[1]:,}-digit integer ({seconds:.1f} s)")
    enclosure = ep.solve(ChutesAndLadders(), method="certified").value()
    print(f"certified enclosure {enclosure.decimal()} holds it: {value in enclosure}")
    rng = random.Random(7)
    games = 20_000
    wins = sum(play(rng) for _ in range(games))
    print(
        f"{games:,} games played from the rules: {wins / games:.4f}; "
        f"agrees within 5 standard errors: {ep.agrees_with(value, wins, games)}"
    )
    p = sympy.Symbol("p")
    spins = ep.solve(Alone(p)).value()  # a rational function of the chance p of a six
    fair = Fraction(str(spins.subs(p, sympy.Rational(1, 6))))
    assert fair == ep.solve(Alone(Fraction(1, 6))).value()
    print(
        f"alone, expected spins to finish: {decimal_string(fair, 6)} with a fair spinner, "
        f"{decimal_string(Fraction(str(spins.subs(p, sympy.Rational(1, 3)))), 6)} when a "
        f"six comes up one spin in three (a ratio of polynomials of degrees "
        f"{sympy.degree(sympy.numer(spins), p)} and {sympy.degree(sympy.denom(spins), p)} "
        "in the chance of a six)"
    )


if __name__ == "__main__":
    main()
