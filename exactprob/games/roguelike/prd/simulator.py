"""The source's PRD experiment, simulated from the rules on either generator.

Each run plays ``trials`` trials: draw ``u`` in [0, 1), hit iff ``u`` is below the entry
at the counter, then reset the counter or advance it (wrapping). A run draws its
``trials`` numbers in order, runs one after another, as a C loop over runs would. A
one-entry table ``(p,)`` is a plain Bernoulli trial, the source's comparison.

>>> from exactprob.games.roguelike.prd import PRDTable
>>> from exactprob.engine import NumpyRandom
>>> simulate_hits(PRDTable.from_odds(["1"]), 5, 3, NumpyRandom(1)).hits.tolist()
[5, 5, 5]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....engine import RandomSource, Runs
from .table import PRDTable
from .trials import check_trials

__all__ = ["SimulatedHits", "simulate_hits"]

BLOCK_DRAWS = 10_000_000
"""Draws held in memory at once (80 MB of float64)."""


@dataclass(frozen=True, eq=False)
class SimulatedHits(Runs):
    """Simulated runs of a PRD table: the hits of each run (int64), the :attr:`result`."""

    hits: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """The hits of each run."""
        return self.hits


def simulate_hits(table: PRDTable, trials: int, runs: int, source: RandomSource) -> SimulatedHits:
    """``runs`` runs of ``trials`` trials each, from the rules."""
    check_trials(trials)
    odds = np.array([float(p) for p in table.odds])
    counts = np.empty(runs, dtype=np.int64)
    rows_per_block = max(1, BLOCK_DRAWS // trials)
    for first in range(0, runs, rows_per_block):
        rows = min(rows_per_block, runs - first)
        draws = source.random(rows * trials).reshape(rows, trials)
        counter = np.zeros(rows, dtype=np.int64)
        hits = np.zeros(rows, dtype=np.int64)
        for t in range(trials):
            hit = draws[:, t] < odds[counter]
            hits += hit
            counter = np.where(hit, 0, (counter + 1) % table.size)
        counts[first : first + rows] = hits
    return SimulatedHits(counts)
