"""The hold boundary of a jeopardy game as a figure: for every pair of banked scores, the
turn total at which the mover should first hold (the roll/hold boundary of Neller and
Presser's Pig figures, seen from above). matplotlib is imported inside the function.

>>> import numpy as np
>>> ax = hold_boundary_figure(np.array([[2, 2], [1, 1]]), "Pig to 2")
>>> ax.get_xlabel(), ax.get_ylabel()
("opponent's score", "mover's score")
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...util.plot import axes_or_new

__all__ = ["hold_boundary_figure"]


def hold_boundary_figure(thresholds: np.ndarray, title: str, ax: Any = None) -> Any:
    """A heat map of ``thresholds[a, b]`` (mover's score ``a`` up, opponent's ``b``
    across) with contour lines every 5 points; grey where the mover should draw on until
    the goal.

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt

    ax = axes_or_new(ax, (6.4, 5.2))
    goal = thresholds.shape[0]
    to_goal = thresholds == goal - np.arange(goal)[:, None]
    shown = np.ma.masked_where(to_goal, thresholds)
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.85")
    image = ax.imshow(shown, origin="lower", cmap=cmap, interpolation="nearest")
    if goal >= 10 and shown.count():
        levels = np.arange(5, int(shown.max()) + 1, 5)
        if len(levels):
            lines = ax.contour(shown, levels=levels, colors="white", linewidths=0.6)
            ax.clabel(lines, fontsize="x-small")
    ax.figure.colorbar(image, ax=ax, label="first turn total to hold at")
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("mover's score")
    ax.set_title(f"{title}: when to hold (grey: draw on to the goal)", fontsize="medium")
    return ax
