"""Piglet for two to four seats: each seat's exact chance to win, every seat playing for
itself, and the play by seat.

Piglet is Pig with a coin (Neller and Presser's small Pig): flip as long as you like;
heads adds one to the turn total, tails loses it and passes the turn; holding banks the
turn total; the first to the goal wins. The model's outcome is a tuple of one payoff per
seat (1 for the winner) and its mover is a seat, so ``ep.solve`` plays it as a game of
seats: an exact equilibrium in which no seat gains by changing its play anywhere.

Checks: the payoffs sum to 1, and play simulated under the solved policy agrees with
each seat's chance.

Run: ``python examples/piglet_seats.py``
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import exactprob as ep

State = tuple[tuple[int, ...], int, int]  # (scores, turn total, seat to move)


class Piglet:
    """Piglet to ``goal`` for ``seats`` seats."""

    def __init__(self, goal: int, seats: int) -> None:
        self.goal, self.seats = goal, seats
        self.initial: State = ((0,) * seats, 0, 0)

    def outcome(self, state: State) -> tuple[int, ...] | None:
        won = [i for i, score in enumerate(state[0]) if score >= self.goal]
        return tuple(int(i == won[0]) for i in range(self.seats)) if won else None

    def player(self, state: State) -> int:
        return state[2]

    def actions(self, state: State) -> tuple[str, ...]:
        return ("flip", "hold") if state[1] else ("flip",)

    def transition(self, state: State, action: str) -> ep.Dist[State]:
        scores, turn, mover = state
        after = (mover + 1) % self.seats
        banked = tuple(x + turn * (i == mover) for i, x in enumerate(scores))
        if action == "hold":
            return ep.Dist({(banked, 0, after): 1})
        half = Fraction(1, 2)
        if banked[mover] + 1 >= self.goal:
            won = tuple(x + (i == mover) for i, x in enumerate(banked))
            return ep.Dist({(won, 0, after): half, (scores, 0, after): half})
        return ep.Dist({(scores, turn + 1, mover): half, (scores, 0, after): half})


def three_seats_to_two() -> Piglet:
    """Three-seat Piglet to 2, small enough to write out (the derivation in the docs)."""
    return Piglet(2, 3)


def seat_wins(plays: Any, seat: int) -> int:
    """How many simulated plays ``seat`` won."""
    return sum(count for ending, count in plays.outcomes.items() if ending[seat] == 1)


def main() -> None:
    goal = 5
    agree = True
    for seats in (2, 3, 4):
        game = Piglet(goal, seats)
        solution = ep.solve(game)
        value = solution.value()
        assert sum(value) == 1
        chances = ", ".join(f"{float(v):.4f}" for v in value)
        holds = [
            min(
                (t for t in range(1, goal) if solution.policy(((0,) * seats, t, seat)) == "hold"),
                default=None,
            )
            for seat in range(seats)
        ]
        print(f"{seats} seats to {goal}: {len(solution.states):,} states; chances {chances}")
        print(f"  from all scores 0, each seat holds at a turn total of {holds}")
        plays = ep.simulate(game, solution, n=4000, seed=seats)
        agree = agree and all(
            ep.agrees_with(value[i], seat_wins(plays, i), plays.n) for i in range(seats)
        )
    print(f"simulated play; agrees within 5 standard errors: {agree}")


if __name__ == "__main__":
    main()
