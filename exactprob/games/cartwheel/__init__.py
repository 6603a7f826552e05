"""The tavern wheel (the *cartwheel*): gamble gold on a wheel of numbers until the purse
reaches a target; the best chance, every optimal stake and exact ties, bold and timid
play, an independent simulator (:mod:`.wheel`), the whole answer in one call
(:mod:`.report`), and its figure (:mod:`.figures`, loaded on use: it needs matplotlib).

>>> solve_wheel(Wheel(target=3, numbers=3, bets=(Bet(1, 1),))).values[2]
Fraction(3, 7)
"""

from __future__ import annotations

from .report import WheelReport, wheel_report
from .wheel import (
    CARTWHEEL,
    CARTWHEEL_NUMBERS,
    MAX_CHOICES,
    MAX_TARGET,
    Bet,
    Stake,
    Wheel,
    WheelSample,
    WheelSolution,
    bold_play,
    policy_values,
    simulate_wheel,
    solve_wheel,
    stake_choices,
    timid_play,
)

__all__ = [
    "CARTWHEEL",
    "CARTWHEEL_NUMBERS",
    "MAX_CHOICES",
    "MAX_TARGET",
    "Bet",
    "Stake",
    "Wheel",
    "WheelReport",
    "WheelSample",
    "WheelSolution",
    "bold_play",
    "policy_values",
    "simulate_wheel",
    "solve_wheel",
    "stake_choices",
    "timid_play",
    "wheel_report",
]
