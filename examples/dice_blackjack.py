"""Blackjack with a d10: a custom model solved exactly, with the optimal policy and ties.

The player draws d10s, adding them to a total, and may stop at any time; above 21 the
player busts and loses. Then the dealer draws d10s until reaching 17 or more. The higher
total wins (a tie is a push, worth 1/2). The value is the player's probability of
winning, counting a push as half a win.

:class:`Showdown` is the same game with the dealer's draws in the model and endings that
are labels, ``"win"``, ``"push"`` or ``"lose"``: ``ep.solve`` takes what each is worth as
``payoffs``, so one model answers for a push worth half a win (the value above, state by
state) and for a push worth nothing, where the best play changes.

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


class Showdown:
    """States: ("draw", total) while the player decides; ("dealer", total, dealer's
    total) while the dealer draws. Ends as "win", "push" or "lose"."""

    initial = ("draw", 0)

    def outcome(self, state: tuple) -> str | None:
        if state[0] == "draw":
            return "lose" if state[1] > 21 else None
        _, mine, dealer = state
        if dealer < 17:
            return None
        if dealer > 21 or dealer < mine:
            return "win"
        return "push" if dealer == mine else "lose"

    def actions(self, state: tuple) -> tuple[str, ...]:
        if state[0] == "dealer":
            return ("deal",)
        return ("draw", "stop") if state[1] > 0 else ("draw",)

    def transition(self, state: tuple, action: str) -> ep.Dist[tuple]:
        if state[0] == "dealer":
            return D10.map(lambda card: ("dealer", state[1], state[2] + card))
        if action == "stop":
            return ep.Dist({("dealer", state[1], 0): 1})
        return D10.map(lambda card: ("draw", state[1] + card))


def first_stop(solution: ep.SolvedPlay) -> int:
    """The smallest total the solution stops at."""
    return min(t for t in range(1, 22) if solution.policy(("draw", t)) == "stop")


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
    print(f"simulated mean {sim.mean:.4f}; agrees: {sim.agrees_with(value)}")

    showdown = Showdown()
    half = ep.solve(showdown, payoffs={"win": 1, "push": "1/2", "lose": 0})
    same = all(half.value(("draw", t)) == solution.value(("draw", t)) for t in range(22))
    print(f"endings as labels, a push worth 1/2: the same value at every total: {same}")
    law = half.absorption().map(showdown.outcome)
    print("the law of the endings:", ", ".join(f"{e} {float(p):.6f}" for e, p in law.items()))
    outright = ep.solve(showdown, payoffs={"win": 1, "push": 0, "lose": 0})
    print(
        f"a push worth nothing: win outright {float(outright.value()):.6f}, "
        f"stopping from {first_stop(outright)} on (from {first_stop(half)} on before)"
    )
    plays = ep.simulate(showdown, half, n=20_000, seed=8)
    each = all(ep.agrees_with(p, plays.outcomes[e], plays.n) for e, p in law.items())
    print(f"simulated endings; agrees within 5 standard errors: {each and sim.agrees_with(value)}")


if __name__ == "__main__":
    main()
