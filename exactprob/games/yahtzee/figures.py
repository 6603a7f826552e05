"""The law of the final score drawn: its probabilities in bins of a few points (up to the
score that only one game in 100,000 passes), beside the scores of simulated games when
given. matplotlib is imported when a figure is drawn.

>>> import exactprob as ep
>>> from .model import YahtzeeLevels
>>> from .rules import YahtzeeRules
>>> law = ep.solve(YahtzeeLevels(YahtzeeRules(categories=("Chance",)))).reward_distribution()
>>> ax = score_law_figure(law)
>>> ax.get_xlabel()
'final score'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...engine import CertifiedLaw
from ...util.plot import axes_or_new

__all__ = ["BIN_POINTS", "score_law_figure"]

#: Points per bar: single scores are spiky (25 for a full house, 30 and 40 for straights).
BIN_POINTS = 5


def score_law_figure(law: Any, scores: np.ndarray | None = None, ax: Any = None) -> Any:
    """The chance of a final score in each bin of :data:`BIN_POINTS` points, from an exact
    law (a :class:`~exactprob.engine.dist.Dist`) or a
    :class:`~exactprob.engine.certified.law.CertifiedLaw` (drawn from its floats, which
    agree with the exact chances to its relative error); with ``scores``, the share of
    simulated games in each bin as a line.

    Returns
    -------
    matplotlib Axes
    """
    if isinstance(law, CertifiedLaw):
        outcomes, chances = law.outcomes, law.floats
    else:
        outcomes = np.array(sorted(law))
        chances = np.array([float(law[x]) for x in outcomes])
    edges = np.arange(0, int(outcomes.max()) + 2 * BIN_POINTS, BIN_POINTS)
    binned = np.histogram(outcomes, bins=edges, weights=chances)[0]
    ax = axes_or_new(ax, (7.0, 3.6))
    ax.bar(
        edges[:-1],
        binned,
        width=BIN_POINTS,
        align="edge",
        color="tab:blue",
        alpha=0.7,
        label="the law",
    )
    if scores is not None:
        shares = np.histogram(scores, bins=edges)[0] / len(scores)
        ax.step(
            edges[:-1],
            shares,
            where="post",
            color="tab:red",
            label=f"{len(scores):,} simulated games",
        )
    shown = np.cumsum(chances) / chances.sum()  # the view leaves out the last 1e-5
    ax.set_xlim(0, outcomes[np.searchsorted(shown, 1 - 1e-5)] + BIN_POINTS)
    ax.set_xlabel("final score")
    ax.set_ylabel(f"chance per {BIN_POINTS} points")
    ax.legend(loc="upper right", fontsize="small")
    return ax
