"""Two-dice Pig played alone: the best chance to reach 100 within N turns, for every N.

    python examples/within_turns.py [N]

Prints the best chance from a score of 0 within 1..N turns (N = 15 by default), the
chances from the scores 88 to 99 beside the published table they reproduce, and how the
best play changes with the turns left; then plays 20,000 games with one turn left to go
from 76, by the rules and the solved play, and checks the share that reaches 100 against
the exact chance (within 5 standard errors).

The rules (Bill Butler, "Durango Bill's Pig (Pig-out) Analysis", durangobill.com/Pig.html;
a variant in T. Neller and C. Presser's Pig pages): roll two dice as often as you like;
without a 1 their sum adds to the turn total, which you may bank by holding; a single 1
loses the turn total and ends the turn; two 1s lose the whole banked score as well. The
chance is of a banked score of 100 within N turns, a turn counted at its first roll
(``turns``), and the table of every N is one solve (``ep.solve(..., horizon=N)``).
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction

import exactprob as ep

#: Score at the start of a turn: the chance in percent (one decimal) of reaching 100
#: within 1..15 turns under optimal play, as published by Durango Bill
#: (durangobill.com/Pig1Statistics.html), for the scores 88..99 (96..99 share a row).
DURANGO_BILL = {
    99: "69.4 88.8 94.2 95.7 96.2 96.4 96.6 96.8 97.0 97.2 97.4 97.7 97.9 98.1 98.3",
    95: "68.6 88.2 93.8 95.5 96.0 96.3 96.4 96.6 96.9 97.1 97.3 97.6 97.8 98.1 98.3",
    94: "66.9 87.1 93.2 95.0 95.7 96.0 96.2 96.4 96.6 96.9 97.1 97.4 97.7 97.9 98.1",
    93: "64.4 85.2 92.0 94.3 95.1 95.5 95.7 96.0 96.2 96.5 96.8 97.1 97.4 97.7 97.9",
    92: "61.0 82.6 90.3 93.1 94.3 94.8 95.1 95.4 95.7 96.0 96.3 96.7 97.0 97.3 97.6",
    91: "56.7 79.0 87.9 91.5 93.2 94.0 94.4 94.7 95.1 95.4 95.8 96.2 96.5 96.9 97.2",
    90: "53.2 75.9 85.6 90.2 92.3 93.3 93.8 94.2 94.5 94.9 95.3 95.7 96.1 96.5 96.9",
    89: "50.4 73.2 83.5 89.0 91.6 92.7 93.3 93.7 94.1 94.5 94.9 95.4 95.8 96.3 96.7",
    88: "48.2 71.0 81.7 88.0 91.0 92.2 92.9 93.3 93.7 94.2 94.6 95.1 95.6 96.0 96.4",
}
#: The same page's other published cells: (score, turns): percent.
DURANGO_BILL_CELLS = {(76, 1): "28.9", (76, 2): "47.6", (0, 1): "0.9", (0, 2): "1.9"}


def published_cells() -> dict[tuple[int, int], str]:
    """Every published cell, ``(score, turns): percent``: the rows above (96 to 98 as 99)
    and the four cells beside them, 184 in all."""
    cells = dict(DURANGO_BILL_CELLS)
    for score, row in DURANGO_BILL.items():
        for n, percent in enumerate(row.split(), 1):
            for same in range(96, 100) if score == 99 else (score,):
                cells[same, n] = percent
    return cells


PAIRS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


class TwoDicePig:
    """States ``(banked score, turn total)``; a banked score of ``goal`` or more wins (1).
    A turn total of 0 must roll; a total that reaches the goal holds."""

    def __init__(self, goal: int = 100) -> None:
        self.goal = goal
        self.initial = (0, 0)

    def outcome(self, state: tuple[int, int]) -> int | None:
        return 1 if state[0] >= self.goal else None

    def actions(self, state: tuple[int, int]) -> tuple[str, ...]:
        score, total = state
        if total == 0:
            return ("roll",)
        return ("hold",) if score + total >= self.goal else ("roll", "hold")

    def transition(self, state: tuple[int, int], action: str) -> ep.Dist[tuple[int, int]]:
        score, total = state
        if action == "hold":
            return ep.Dist({(score + total, 0): 1})
        after: dict[tuple[int, int], Fraction] = {}
        for a, b in PAIRS:
            if a == b == 1:
                nxt = (0, 0)
            elif 1 in (a, b):
                nxt = (score, 0)
            else:
                nxt = (score, total + a + b)
            after[nxt] = after.get(nxt, Fraction(0)) + Fraction(1, 36)
        return ep.Dist(after)


def turns(state: tuple[int, int], action: str, after: tuple[int, int]) -> int:
    """A turn is counted at its first roll (the only roll with a turn total of 0)."""
    return 1 if state[1] == 0 else 0


def play_turns(solution: ep.SolvedPlay, score: int, left: int, rng: random.Random) -> bool:
    """One game from ``score`` with ``left`` turns, by the rules above and the solved
    play at each (state, turns left); whether the banked score reaches 100."""
    total = 0
    while left > 0 or total > 0:
        if total == 0:
            left -= 1  # the first roll of a turn
        elif solution.policy(((score, total), left)) == "hold":
            score, total = score + total, 0
            if score >= 100:
                return True
            continue
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a == b == 1:
            score, total = 0, 0
        elif 1 in (a, b):
            total = 0
        else:
            total += a + b
    return False


def percent(chance: Fraction) -> str:
    """``chance`` in percent to one decimal, as the published table shows it."""
    return f"{float(100 * chance):.1f}"


def main(most: int = 15) -> None:
    starts = [(score, 0) for score in range(100)]  # every score at the start of a turn
    solution = ep.solve(TwoDicePig(), horizon=most, counter=turns, starts=starts, progress=False)
    print(f"Two-dice Pig alone, reaching 100 within N turns ({len(solution.states):,} states)")
    for n in range(1, most + 1):
        print(f"  N = {n:2}  {float(solution.value(((0, 0), n))):.6f}")
    cells = {cell: p for cell, p in published_cells().items() if cell[1] <= most}
    differ = [
        (score, n)
        for (score, n), p in cells.items()
        if percent(solution.value(((score, 0), n))) != p
    ]
    print(f"The published table: {len(cells) - len(differ)} of {len(cells)} cells agree {differ}")
    print("From 0, the first turn total where banking is best, by the turns left (=: tied):")
    print("  " + ", ".join(f"{n}: {first_hold(solution, 0, n)}" for n in range(1, most + 1)))
    rng, games, score, left = random.Random(2026), 20_000, 76, 1
    wins = sum(play_turns(solution, score, left, rng) for _ in range(games))
    exact = solution.value(((score, 0), left))
    print(
        f"From 76 with 1 turn: exact {float(exact):.4f}, {games:,} games {wins / games:.4f}; "
        f"agrees within 5 standard errors: {ep.agrees_with(exact, wins, games)}"
    )


def first_hold(solution: ep.SolvedPlay, score: int, left: int) -> str:
    """The smallest turn total at which holding is best at ``score`` with ``left`` turns
    (counting the one under way), with ``=`` when rolling on is exactly as good; ``never``
    when the best play rolls on to 100."""
    for total in range(4, 100 - score):
        ties = solution.ties(((score, total), left - 1))
        if "hold" in ties:
            return f"{total}{'=' if len(ties) > 1 else ''}"
    return "never"


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
