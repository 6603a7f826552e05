"""How a blackjack dealer's hand ends: endings that are categories, their exact law.

The dealer draws from an infinite deck (each rank 1/13, so a ten-valued card 4/13) until
the hand is worth 17 or more, counting an ace as 11 where that does not bust it; with
``hit_soft_17`` the dealer also draws to a soft 17 (an ace counted as 11). The hand ends
as one of seven categories: 17, 18, 19, 20, 21, ``"blackjack"`` (21 in two cards) or
``"bust"``. The model's ``outcome`` returns those labels; ``ep.solve`` takes what each is
worth as ``payoffs``, and the law of the endings is where play ends, read through the
outcome.

Checks: the chance of a bust from no cards and with a 6 showing against the exact
fractions of NicoAcosta/blackhack (``oddsB.swift``, infinite deck, dealer stands on soft
17), the whole law against the table of capelski/blackjack-stats
(``output/dealer-finals.md``, to two decimals), and a dealer dealt by the rules below.

Run: ``python examples/dealer_endings.py``
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

import exactprob as ep

#: A card's value: an ace is 1 (or 11, in the hand's best total), a ten, jack, queen or
#: king is 10.
CARD = ep.Dist({**{value: Fraction(1, 13) for value in range(1, 10)}, 10: Fraction(4, 13)})
#: The ways a dealer's hand ends.
ENDINGS = (17, 18, 19, 20, 21, "blackjack", "bust")

#: Published: the chance the dealer busts, from no cards and with a 6 up (NicoAcosta/blackhack,
#: BlackHack/Source/Deck/Dealer/oddsB.swift: infinite deck, the dealer stands on soft 17).
PUBLISHED_BUST = {None: Fraction(6560574127830, 23298085122481), 6: Fraction(345176856, 815730721)}
#: Published: the law of the endings from no cards, in percent to two decimals
#: (capelski/blackjack-stats, output/dealer-finals.md; infinite deck, stands on soft 17).
PUBLISHED_PERCENT = {
    17: "14.51",
    18: "13.95",
    19: "13.35",
    20: "18.03",
    21: "7.27",
    "blackjack": "4.73",
    "bust": "28.16",
}

Hand = tuple[int, bool, int]  # (total with aces as 1, an ace held, cards)


def best_total(total: int, ace: bool) -> int:
    """The hand's worth: an ace counts 11 where that keeps it at 21 or under."""
    return total + 10 if ace and total + 10 <= 21 else total


class Dealer:
    """The dealer's hand, ``(total with aces as 1, an ace held, cards)``, from the
    ``upcard`` (1 for an ace) or from no cards."""

    def __init__(self, upcard: int | None = None, hit_soft_17: bool = False) -> None:
        self.initial: Hand = (0, False, 0) if upcard is None else (upcard, upcard == 1, 1)
        self.hit_soft_17 = hit_soft_17

    def outcome(self, hand: Hand) -> int | str | None:
        total, ace, cards = hand
        worth = best_total(total, ace)
        if total > 21:
            return "bust"
        if worth < 17 or (self.hit_soft_17 and worth == 17 and ace and total == 7):
            return None
        return "blackjack" if worth == 21 and cards == 2 else worth

    def actions(self, hand: Hand) -> tuple[str, ...]:
        return ("draw",)

    def transition(self, hand: Hand, action: str) -> ep.Dist[Hand]:
        total, ace, cards = hand
        return CARD.map(lambda card: (total + card, ace or card == 1, cards + 1))


def endings(upcard: int | None = None, hit_soft_17: bool = False) -> ep.Dist:
    """The exact law of how the dealer's hand ends: the solve with a bust worth 1 (its
    value is the chance of a bust), and where play ends read through the outcome."""
    dealer = Dealer(upcard, hit_soft_17)
    payoffs = {ending: int(ending == "bust") for ending in ENDINGS}
    solution = ep.solve(dealer, payoffs=payoffs)
    law = solution.absorption().map(dealer.outcome)
    assert solution.value() == law["bust"]
    return law


def deal(n: int, seed: int, upcard: int | None = None, hit_soft_17: bool = False) -> Counter:
    """``n`` dealer hands dealt by the rules with random cards: how often each ending came."""
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    for _ in range(n):
        cards = [] if upcard is None else [upcard]
        while True:
            hard = sum(cards)
            soft = 1 in cards and hard + 10 <= 21
            worth = hard + 10 if soft else hard
            if worth > 17 or (worth == 17 and not (hit_soft_17 and soft)):
                break
            cards.append(min(int(rng.integers(1, 14)), 10))  # rank 1..13, faces count 10
        if sum(cards) > 21:
            counts["bust"] += 1
        elif worth == 21 and len(cards) == 2:
            counts["blackjack"] += 1
        else:
            counts[worth] += 1
    return counts


def main() -> None:
    law = endings()
    print("the dealer's hand from no cards, infinite deck, standing on soft 17:")
    for ending in ENDINGS:
        p = law[ending]
        print(f"  {ending!s:>9}: {p} = {float(p):.6f}")
    agree = all(
        abs(100 * law[e] - Fraction(PUBLISHED_PERCENT[e])) <= Fraction(1, 200) for e in ENDINGS
    )
    print(f"capelski/blackjack-stats' table (two decimals) agrees: {agree}")
    exact = all(endings(up)["bust"] == bust for up, bust in PUBLISHED_BUST.items())
    print(f"NicoAcosta/blackhack's bust fractions (no cards; 6 up) agree exactly: {exact}")
    hit = endings(hit_soft_17=True)
    print(f"hitting soft 17 busts {float(hit['bust']):.6f} of hands")
    n = 40_000
    dealt = deal(n, seed=3)
    each = all(ep.agrees_with(law[e], dealt[e], n) for e in ENDINGS)
    print(f"{n:,} hands dealt by the rules; agrees within 5 standard errors: {each}")


if __name__ == "__main__":
    main()
