"""The hold boundary of a jeopardy game as a figure: for every pair of banked scores, the
turn total at which the mover should first hold (the roll/hold boundary of Neller and
Presser's Pig figures, seen from above); played alone within N turns, the chance for
each N beside the first bank by score and turns left. matplotlib is imported inside the
functions.

>>> import numpy as np
>>> ax = hold_boundary_figure(np.array([[2, 2], [1, 1]]), "Pig to 2")
>>> ax.get_xlabel(), ax.get_ylabel()
("opponent's score", "mover's score")
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...util.plot import axes_or_new

__all__ = ["hold_boundary_figure", "within_turns_figure"]


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


def within_turns_figure(chances: np.ndarray, banks: np.ndarray, title: str) -> Any:
    """Two panels: ``chances[n - 1]``, the best chance within ``n`` turns, against ``n``;
    and a heat map of ``banks[a, n - 1]``, the first turn total to bank at score ``a``
    with ``n`` turns left (NaN where no such turn starts: blank; 0 where it draws on to
    the goal: grey).

    >>> ax = within_turns_figure(np.array([0.5, 0.75]), np.array([[0, 2.0], [0, np.nan]]), "Pig")
    >>> [panel.get_xlabel() for panel in ax.figure.axes[:2]]
    ['turns N', 'turns left (this one included)']

    Returns
    -------
    matplotlib Axes
        The first panel's (``.figure`` holds both).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.ticker import MaxNLocator

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), layout="constrained")
    turns = np.arange(1, len(chances) + 1)
    left.plot(turns, chances, marker="o", markersize=3)
    left.set_xlabel("turns N")
    left.set_ylabel("best chance to reach the goal within N turns")
    left.set_ylim(0, 1)
    left.grid(alpha=0.3)
    extent = (0.5, banks.shape[1] + 0.5, -0.5, banks.shape[0] - 0.5)
    shown = {"origin": "lower", "aspect": "auto", "extent": extent, "interpolation": "nearest"}
    draws_on = np.ma.masked_where(banks != 0, np.zeros_like(banks))  # NaN != 0: masked
    right.imshow(draws_on, cmap=ListedColormap(["0.8"]).with_extremes(bad="white"), **shown)
    banked = np.ma.masked_where(~(banks > 0), banks)  # NaN and 0: see-through
    viridis = plt.get_cmap("viridis").with_extremes(bad=(0, 0, 0, 0))
    image = right.imshow(banked, cmap=viridis, **shown)
    figure.colorbar(image, ax=right, label="first turn total to bank at")
    for axis in (left.xaxis, right.xaxis, right.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    right.set_xlabel("turns left (this one included)")
    right.set_ylabel("score at the start of the turn")
    figure.suptitle(f"{title} within N turns (grey: draw on to the goal)", fontsize="medium")
    return left
