"""An independent simulator of Risk's dice battle, written straight from the rules (not
from :class:`~.battle.RiskBattle`), to check the exact numbers against.

>>> a, d = simulate_risk(3, 2, 4, seed=1)
>>> bool(((a == 1) | (d == 0)).all())  # every battle ran to its end
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["simulate_risk"]


def simulate_risk(
    attackers: int | np.ndarray, defenders: int | np.ndarray, n: int, *, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n`` battles (or one per entry of array starts) with
    ``numpy.random.default_rng(seed)``, straight from the rules; returns the attacker's
    and the defender's armies at the end."""
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
    return a, d
