"""Pig for three seats, two ways: the game written from its rules as a plain model for
``ep.solve``, and the race's own solver behind ``exactprob pig --seats 3``.

Each seat rolls a die as long as it likes; a 1 ends its turn with nothing, any other face
adds to the turn total, which holding banks; the first to the goal wins. Every seat plays
for itself (the model's outcome is a tuple, one payoff per seat), so both answers are an
exact equilibrium in which no seat gains by changing its play anywhere. They must be the
same numbers; the race's solver, which works one score component at a time, is the one
that reaches a goal of 50. Check: play simulated under the solved policy agrees with
each seat's chance.

Run: ``python examples/pig_seats.py``
"""

from __future__ import annotations

import time
from fractions import Fraction

import exactprob as ep
from exactprob.games.jeopardy import Pig, solve_seat_race

State = tuple[tuple[int, ...], int, int]  # (scores, seat to move, turn total)


class PigSeats:
    """Pig to ``goal`` with a ``sides``-sided die among ``seats``, the seats starting
    with ``head`` points (default none)."""

    def __init__(self, goal: int, seats: int, sides: int = 6, head: tuple[int, ...] = ()) -> None:
        self.goal, self.seats, self.sides = goal, seats, sides
        self.initial: State = (tuple(head) or (0,) * seats, 0, 0)

    def outcome(self, state: State) -> tuple[int, ...] | None:
        won = [i for i, score in enumerate(state[0]) if score >= self.goal]
        return tuple(int(i == won[0]) for i in range(self.seats)) if won else None

    def player(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> tuple[str, ...]:
        return ("roll", "hold") if state[2] else ("roll",)

    def transition(self, state: State, action: str) -> ep.Dist[State]:
        scores, mover, turn = state
        after = (mover + 1) % self.seats
        if action == "hold":
            return ep.Dist({(_banked(scores, mover, turn), after, 0): 1})
        chances: dict[State, Fraction] = {}
        for face in range(1, self.sides + 1):
            if face == 1:
                next_state = (scores, after, 0)
            elif scores[mover] + turn + face >= self.goal:  # reaching the goal wins at once
                next_state = (_banked(scores, mover, turn + face), after, 0)
            else:
                next_state = (scores, mover, turn + face)
            chances[next_state] = chances.get(next_state, Fraction(0)) + Fraction(1, self.sides)
        return ep.Dist(chances)


def _banked(scores: tuple[int, ...], mover: int, points: int) -> tuple[int, ...]:
    return tuple(score + points * (i == mover) for i, score in enumerate(scores))


def main() -> None:
    goal, seats = 12, 3
    model = PigSeats(goal, seats)
    start = time.perf_counter()
    solution = ep.solve(model)
    engine_seconds = time.perf_counter() - start
    engine = solution.value()
    start = time.perf_counter()
    race = solve_seat_race(Pig(goal), seats).seat_wins()
    race_seconds = time.perf_counter() - start
    print(f"Pig to {goal} for {seats} seats, each seat's chance:")
    for seat, chance in enumerate(race, start=1):
        print(f"  seat {seat}  {float(chance):.10f} = {chance}")
    print(f"the generic engine gives the same: {engine == race}")
    print(f"seconds: generic engine {engine_seconds:.1f}, the race's solver {race_seconds:.2f}")
    plays = ep.simulate(model, solution, n=4000, seed=seats)
    wins = [sum(n for end, n in plays.outcomes.items() if end[seat] == 1) for seat in range(seats)]
    agree = all(ep.agrees_with(race[seat], wins[seat], plays.n) for seat in range(seats))
    print(f"simulated play; agrees within 5 standard errors: {agree}")


if __name__ == "__main__":
    main()
