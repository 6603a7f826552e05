"""The best long run: Howard's taxicab problem, and a machine kept running with spare parts.

    python examples/long_run.py

Prints the taxicab's best play, its exact gain and ties, and the derivation in Markdown;
then drives the taxi 100,000 trips by the tables under that play and checks the average
fare against the exact gain (within 5 standard errors). ``Upkeep`` is the scalable model of the benchmark
(``benchmarks/bench_long_run.py``).
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import exactprob as ep

#: Howard's taxicab problem (R. A. Howard, *Dynamic Programming and Markov Processes*,
#: MIT Press, 1960, ch. 5): in each town the driver cruises, waits at the cab stand or
#: waits for a radio call; each option gives the chances of the next town (A, B, C) and
#: the fare to it. Town B has no radio service.
TAXICAB = {
    "A": {
        "cruise": ((F(1, 2), F(1, 4), F(1, 4)), (10, 4, 8)),
        "cab stand": ((F(1, 16), F(3, 4), F(3, 16)), (8, 2, 4)),
        "radio": ((F(1, 4), F(1, 8), F(5, 8)), (4, 6, 4)),
    },
    "B": {
        "cruise": ((F(1, 2), F(0), F(1, 2)), (14, 0, 18)),
        "cab stand": ((F(1, 16), F(7, 8), F(1, 16)), (8, 16, 8)),
    },
    "C": {
        "cruise": ((F(1, 4), F(1, 4), F(1, 2)), (10, 2, 8)),
        "cab stand": ((F(1, 8), F(3, 4), F(1, 8)), (6, 4, 2)),
        "radio": ((F(3, 4), F(1, 16), F(3, 16)), (4, 0, 8)),
    },
}


class Taxicab:
    """The driver's town is the state; each option's reward is its expected fare."""

    initial = "A"

    def outcome(self, town: str) -> None:
        return None

    def actions(self, town: str) -> tuple[str, ...]:
        return tuple(TAXICAB[town])

    def transition(self, town: str, option: str) -> ep.Dist[str]:
        chances, _ = TAXICAB[town][option]
        return ep.Dist({t: p for t, p in zip("ABC", chances) if p})

    def reward(self, town: str, option: str) -> F:
        chances, fares = TAXICAB[town][option]
        return sum((p * fare for p, fare in zip(chances, fares)), F(0))


class Upkeep:
    """A machine with wear 0..``wear`` and a shelf of 0..``shelf`` spare parts. Running it
    earns ``wear - w`` and wears it by 0, 1 or 2 (chances 1/2, 1/3, 1/6; at most
    ``wear``); a repair uses a spare and makes it new; an order brings a spare with chance
    1/2 (nothing when the shelf is full). Every day also earns ``shelf - n``, the rent of the empty shelf space."""

    def __init__(self, wear: int, shelf: int) -> None:
        self.wear, self.shelf = wear, shelf
        self.initial = (0, 0)

    def outcome(self, state: tuple[int, int]) -> None:
        return None

    def actions(self, state: tuple[int, int]) -> tuple[str, ...]:
        return ("run", "repair", "order") if state[1] else ("run", "order")

    def transition(self, state: tuple[int, int], action: str) -> ep.Dist[tuple[int, int]]:
        w, n = state
        if action == "run":
            worn = ep.Dist({0: F(1, 2), 1: F(1, 3), 2: F(1, 6)})
            return worn.map(lambda dw: (min(w + dw, self.wear), n))
        if action == "repair":
            return ep.Dist({(0, n - 1): 1})
        if n == self.shelf:
            return ep.Dist({state: 1})
        return ep.Dist({(w, n + 1): F(1, 2), (w, n): F(1, 2)})

    def reward(self, state: tuple[int, int], action: str) -> int:
        w, n = state
        return (self.wear - w if action == "run" else 0) + self.shelf - n


def drive(play: dict[str, str], trips: int, seed: int = 1960) -> tuple[float, float]:
    """The average fare of ``trips`` trips drawn from Howard's tables under ``play``, and
    its standard error (from the means of batches of 1,000 trips)."""
    rng = random.Random(seed)
    town, total, batches = "A", 0, []
    for trip in range(1, trips + 1):
        chances, fares = TAXICAB[town][play[town]]
        k = rng.choices(range(3), weights=[float(p) for p in chances])[0]
        total += fares[k]
        town = "ABC"[k]
        if trip % 1000 == 0:
            batches.append(total / 1000)
            total = 0
    mean = sum(batches) / len(batches)
    spread = (sum((x - mean) ** 2 for x in batches) / (len(batches) - 1)) ** 0.5
    return mean, spread / len(batches) ** 0.5


def main() -> None:
    best = ep.stationary(Taxicab())
    print("play:", best.policy_map())
    print("gain:", best.long_run_average(), "=", float(best.long_run_average()))
    print("ties:", {town: best.ties(town) for town in "ABC"})
    print(best.derivation().markdown())
    mean, error = drive(best.policy_map(), 100_000)
    print(f"simulated average fare: {mean:.4f} (standard error {error:.4f})")
    agrees = abs(mean - float(best.long_run_average())) < 5 * error
    print("agrees within 5 standard errors:", agrees)


if __name__ == "__main__":
    main()
