"""Figures of PRD tables: the hit count against Bernoulli trials at the same rate, and
the gaps. matplotlib is imported inside each function.

>>> from exactprob.games.roguelike.prd import PRDTable
>>> ax = hits_figure(PRDTable.from_odds(["0.25", "1"]), 200)
>>> ax.get_xlabel()
'hits in 200 trials'
"""

from __future__ import annotations

from math import exp, lgamma, log
from typing import Any

import numpy as np

from ....util.plot import axes_or_new
from .bounds import hits_enclosure
from .table import PRDTable
from .trials import hit_moments


def _binomial_pmf(trials: int, rate: float, hits: np.ndarray) -> np.ndarray:
    """Binomial probabilities in floats (a picture, not an exact result); a rate that is 0
    or 1 as a float puts everything on 0 or ``trials`` hits."""
    if rate <= 0 or rate >= 1:
        return (hits == (trials if rate >= 1 else 0)).astype(float)
    logs = [
        lgamma(trials + 1)
        - lgamma(h + 1)
        - lgamma(trials - h + 1)
        + h * log(rate)
        + (trials - h) * log(1 - rate)
        for h in hits
    ]
    return np.array([exp(x) for x in logs])


def hits_figure(table: PRDTable, trials: int, ax: Any = None) -> Any:
    """The distribution of hits in ``trials`` trials (certified bounds, drawn at their
    upper ends; they agree to 1e-10) next to the binomial at the table's rate."""
    ax = axes_or_new(ax, (7, 3.6))
    rate = table.rate()
    mean, variance = hit_moments(table, trials)
    spread = 6 * float(trials * rate * (1 - rate)) ** 0.5
    hits = np.arange(max(0, int(float(mean) - spread)), min(trials, int(float(mean) + spread)) + 1)
    prd = hits_enclosure(table, trials).upper[hits]
    ax.bar(hits, prd, width=1.0, color="tab:blue", alpha=0.7, label="PRD table")
    ax.plot(
        hits,
        _binomial_pmf(trials, float(rate), hits),
        color="tab:red",
        label=f"Bernoulli at the same rate {float(rate):.4f}",
    )
    ax.set_xlabel(f"hits in {trials} trials")
    ax.set_ylabel("probability")
    ax.set_title(f"variance {float(variance):.1f} against {float(trials * rate * (1 - rate)):.1f}")
    ax.legend(loc="upper right", fontsize="small")
    return ax


def gaps_figure(table: PRDTable, longest: int | None = None, ax: Any = None) -> Any:
    """The distribution of the gap between activations (trials up to the next hit)."""
    ax = axes_or_new(ax, (7, 3.6))
    longest = longest or 2 * table.size
    gaps = range(1, longest + 1)
    ax.bar(gaps, [float(table.gap_probability(g)) for g in gaps], color="tab:blue")
    ax.set_xlabel("trials up to and including the next activation")
    ax.set_ylabel("probability")
    return ax
