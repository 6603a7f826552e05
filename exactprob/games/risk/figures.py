"""Figures of Risk's exact results. matplotlib is imported when a figure is drawn.

>>> from exactprob.games.risk import conquest_table
>>> ax = conquest_heatmap(conquest_table(4, 3))
>>> ax.get_xlabel(), ax.get_ylabel()
('defending armies D', 'attacking armies A')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...util.plot import axes_or_new

__all__ = ["conquest_heatmap"]


def conquest_heatmap(table: Mapping[tuple[int, int], Fraction], ax: Any = None) -> Any:
    """P(conquest) for every (attacking armies, defending armies) of a Risk table
    (:func:`exactprob.games.risk.conquest_table`) as a colour map.

    Returns
    -------
    matplotlib Axes
    """
    attackers = sorted({a for a, _ in table})
    defenders = sorted({d for _, d in table})
    grid = [[float(table.get((a, d), Fraction(0))) for d in defenders] for a in attackers]
    ax = axes_or_new(ax, (6.0, 5.0))
    extent = (defenders[0] - 0.5, defenders[-1] + 0.5, attackers[0] - 0.5, attackers[-1] + 0.5)
    image = ax.imshow(
        grid, origin="lower", extent=extent, vmin=0, vmax=1, cmap="viridis", aspect="auto"
    )
    ax.figure.colorbar(image, ax=ax, label="P(attacker conquers)")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("defending armies D")
    ax.set_ylabel("attacking armies A")
    return ax
