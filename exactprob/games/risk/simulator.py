"""An independent simulator of Risk's dice battle, written straight from the rules (not
from :class:`~.battle.RiskBattle`), to check the exact numbers against.

>>> battles = simulate_risk(3, 2, 4, seed=1)
>>> bool(((battles.attackers == 1) | (battles.defenders == 0)).all())  # every one ended
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine import Runs

__all__ = ["SimulatedRisk", "simulate_risk"]


@dataclass(frozen=True, eq=False)
class SimulatedRisk(Runs):
    """Simulated battles: the attacker's and the defender's armies at the end of each;
    the :attr:`result` is the conquest (no defender left)."""

    attackers: np.ndarray
    defenders: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Whether the attacker conquered the territory in each battle."""
        return self.defenders == 0


def simulate_risk(
    attackers: int | np.ndarray, defenders: int | np.ndarray, n: int, *, seed: int
) -> SimulatedRisk:
    """Play ``n`` battles (or one per entry of array starts) with
    ``numpy.random.default_rng(seed)``, straight from the rules, to their ends."""
    rng = np.random.default_rng(seed)
    a = np.broadcast_to(np.asarray(attackers), (n,)).astype(np.int64)
    d = np.broadcast_to(np.asarray(defenders), (n,)).astype(np.int64)
    active = (a > 1) & (d > 0)
    while active.any():
        idx = np.flatnonzero(active)
        n_att, n_def = np.minimum(3, a[idx] - 1), np.minimum(2, d[idx])
        att = np.where(np.arange(3) < n_att[:, None], rng.integers(1, 7, (idx.size, 3)), 0)
        dfd = np.where(np.arange(2) < n_def[:, None], rng.integers(1, 7, (idx.size, 2)), 0)
        att, dfd = -np.sort(-att, axis=1)[:, :2], -np.sort(-dfd, axis=1)
        compared = np.arange(2) < np.minimum(n_att, n_def)[:, None]
        attacker_lost = ((att <= dfd) & compared).sum(axis=1)
        a[idx] -= attacker_lost
        d[idx] -= compared.sum(axis=1) - attacker_lost
        active = (a > 1) & (d > 0)
    return SimulatedRisk(a, d)
