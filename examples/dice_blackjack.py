"""Blackjack with a d10: a custom model solved exactly, with the optimal policy and ties.

The player draws d10s, adding them to a total, and may stop at any time; above 21 the
player busts and loses. Then the dealer draws d10s until reaching 17 or more. The higher
total wins (a tie is a push, worth 1/2). The value is the player's probability of
winning, counting a push as half a win.

Run: ``python examples/dice_blackjack.py``
"""

from __future__ import annotations

from fractions import Fraction

import exactprob as ep

D10 = ep.die(10)


def dealer_final() -> ep.Dist[int]:
    """Distribution of the dealer's final total (22 stands for any bust)."""

    def draw_from(total: int) -> ep.Dist[int]:
        if total >= 17:
            return ep.Dist({min(total, 22): 1})
        return D10.bind(lambda card: draw_from(total + card))

    return draw_from(0)


DEALER = dealer_final()


class DiceBlackjack:
    """States: ("draw", total) while the player decides; ("done", total) when stopped."""

    initial = ("draw", 0)

    def outcome(self, state: tuple[str, int]) -> Fraction | None:
        phase, total = state
        if total > 21:
            return Fraction(0)
        if phase == "draw":
            return None
        win = DEALER.probability(lambda d: d == 22 or d < total)
        push = DEALER[total]
        return win + push / 2

    def actions(self, state: tuple[str, int]) -> tuple[str, ...]:
        return ("draw", "stop") if state[1] > 0 else ("draw",)

    def transition(self, state: tuple[str, int], action: str) -> ep.Dist[tuple[str, int]]:
        total = state[1]
        if action == "stop":
            return ep.Dist({("done", total): 1})
        return D10.map(lambda card: ("draw", total + card))


def main() -> None:
    solution = ep.solve(DiceBlackjack())
    value = solution.value()
    print(f"player's value with optimal play: {value} = {float(value):.6f}")
    stops = [t for t in range(1, 22) if solution.policy(("draw", t)) == "stop"]
    print(f"optimal: stop from a total of {min(stops)} on")
    for total in range(1, 22):
        ties = solution.ties(("draw", total))
        if len(ties) > 1:
            print(f"exact tie at total {total}: {ties}")
    sim = ep.simulate(DiceBlackjack(), solution, n=20_000, seed=7)
    print(
        f"simulated mean {sim.mean:.4f}; agrees within 5 standard errors: {sim.agrees_with(value)}"
    )


if __name__ == "__main__":
    main()
