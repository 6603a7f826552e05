"""The tavern wheel answered in full, one call: the best chance from the purse, bold and
timid play on every bet, the optimal stakes at every amount with exact ties
(:func:`wheel_report`). One result (:class:`WheelReport`) with its JSON form, its text
and its figure, which is all the ``exactprob cartwheel`` command prints.

Three slots, one covered at even money, target 3 (gambler's ruin with ratio 2: from 2
gold, staking 1 wins with 3/7, going all in with 1/3; bold play stakes what one win needs,
here 1, as timid play does):

>>> report = wheel_report(Wheel(target=3, numbers=3, bets=(Bet(1, 1),)), gold=2)
>>> report.to_json()["win"], [s["win"] for s in report.to_json()["strategies"]]  # bold, timid
('3/7', ['3/7', '3/7'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...util.display import Report
from ...util.numbers import (
    exact_fields,
    exact_list_fields,
    whole_number,
)
from ...util.text import PLACES, decimal_text, exact_text, table_lines
from .wheel import (
    Bet,
    Stake,
    Wheel,
    WheelSolution,
    bold_play,
    policy_values,
    solve_wheel,
    timid_play,
)

__all__ = ["WheelReport", "stakes_text", "wheel_report"]

#: ``(strategy name, bet, chance of reaching the target from every amount)``.
Strategy = tuple[str, Bet, dict[int, Fraction]]


def stakes_text(stakes: tuple[Stake, ...], single_bet: bool) -> str:
    """Tied stakes with runs of amounts joined: ``"1-3, 5"`` (``"1-3 on 1:8"`` with
    several bets).

    >>> bet = Bet(1, 8)
    >>> stakes_text((Stake(1, bet), Stake(2, bet), Stake(4, bet)), True)
    '1-2, 4'
    """
    parts = []
    for bet in dict.fromkeys(stake.bet for stake in stakes):
        amounts = [stake.amount for stake in stakes if stake.bet == bet]
        runs: list[list[int]] = []
        for amount in amounts:
            if runs and amount == runs[-1][-1] + 1:
                runs[-1].append(amount)
            else:
                runs.append([amount])
        text = ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
        parts.append(text if single_bet else f"{text} on {bet}")
    return "; ".join(parts)


@dataclass(frozen=True, eq=False)
class WheelReport(Report):
    """The wheel solved, from ``gold``: the optimal play and bold and timid play."""

    wheel: Wheel
    gold: int
    best: WheelSolution = field(repr=False)
    strategies: list[Strategy] = field(repr=False)

    def _build(self) -> dict[str, Any]:
        """The wheel, the win chance from the purse, each strategy's chance from every
        amount, and the optimal stakes at every amount."""
        return {
            "gold": self.gold,
            "target": self.wheel.target,
            "numbers": self.wheel.numbers,
            "max_stake": self.wheel.max_stake,
            "bets": [
                {
                    "bet": str(bet),
                    "covers": bet.covers,
                    "pays": bet.pays,
                    **exact_fields("chance", self.wheel.chance(bet)),
                    **exact_fields("edge", self.wheel.edge(bet)),
                }
                for bet in self.wheel.bets
            ],
            **exact_fields("win", self.best.values[self.gold]),
            "strategies": [
                {
                    "strategy": name,
                    "bet": str(bet),
                    **exact_fields("win", values[self.gold]),
                    **exact_list_fields("win_by_gold", [values[g] for g in sorted(values)]),
                }
                for name, bet, values in self.strategies
            ],
            "by_gold": [
                {
                    "gold": g,
                    **exact_fields("win", self.best.values[g]),
                    "stakes": [
                        {"amount": s.amount, "bet": str(s.bet)} for s in self.best.stakes[g]
                    ],
                }
                for g in sorted(self.best.values)
            ],
        }

    def text(self) -> str:
        """The wheel, the chances from the purse, the table of stakes."""
        single = len(self.wheel.bets) == 1
        limit = "the whole purse" if self.wheel.max_stake is None else str(self.wheel.max_stake)
        lines = [
            f"Wheel of {self.wheel.numbers} slots: from {self.gold} gold to {self.wheel.target}, stakes up to {limit}"
        ]
        for bet in self.wheel.bets:
            slots = "slot" if bet.covers == 1 else "slots"
            lines.append(
                f"  bet {bet}  covers {bet.covers} {slots}, pays {bet.pays} to 1: wins with "
                f"chance {exact_text(self.wheel.chance(bet))}, the player's edge "
                f"{exact_text(self.wheel.edge(bet))} per gold staked"
            )
        rows: list[tuple[str, Any]] = [("best chance", self.best.values[self.gold])]
        for name, bet, values in self.strategies:
            rows.append((f"{name} play" if single else f"{name} play on {bet}", values[self.gold]))
        lines += table_lines(rows)
        lines += [
            "Optimal stakes at every amount (all exactly tied stakes):",
            f"  {'gold':>4}  {'best chance':<{PLACES + 2}}  stakes",
        ]
        lines += [
            f"  {g:>4}  {decimal_text(self.best.values[g]):<{PLACES + 2}}  "
            f"{stakes_text(self.best.stakes[g], single)}"
            for g in sorted(self.best.values)
        ]
        return "\n".join(lines)

    def figure(self) -> Any:
        """The chance of reaching the target against the gold in hand: optimal, bold and
        timid (matplotlib axes)."""
        from .figures import win_chance_figure

        single = len(self.wheel.bets) == 1
        curves = {"optimal": self.best.values}
        curves.update(
            {
                (name if single else f"{name} on {bet}"): values
                for name, bet, values in self.strategies
            }
        )
        return win_chance_figure(self.wheel, curves, self.gold)


def wheel_report(wheel: Wheel, gold: int) -> WheelReport:
    """Solve ``wheel`` and value bold and timid play on every bet, from ``gold`` (1 to
    the target - 1)."""
    whole_number("gold", gold, 1, wheel.target - 1)
    strategies = [
        (name, bet, policy_values(wheel, play(wheel, bet)))
        for bet in wheel.bets
        for name, play in (("bold", bold_play), ("timid", timid_play))
    ]
    return WheelReport(wheel, gold, solve_wheel(wheel), strategies)
