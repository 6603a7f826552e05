"""Risk's dice battle, exact: the chance of conquest and the armies left. The rules and
the exact model are :mod:`.battle`, an independent simulator from the rules
:mod:`.simulator`, the figures :mod:`.figures` (loaded on use: they need matplotlib).

>>> risk_battle(3, 2).win
Fraction(235, 648)
"""

from __future__ import annotations

from .battle import (
    ENGINE_STATE_BYTES,
    MAX_ARMIES,
    RiskBattle,
    RiskResult,
    battle_bytes,
    conquest_table,
    risk_battle,
    roll_losses,
)
from .simulator import SimulatedRisk, simulate_risk

__all__ = [
    "ENGINE_STATE_BYTES",
    "MAX_ARMIES",
    "RiskBattle",
    "RiskResult",
    "SimulatedRisk",
    "battle_bytes",
    "conquest_table",
    "risk_battle",
    "roll_losses",
    "simulate_risk",
]
