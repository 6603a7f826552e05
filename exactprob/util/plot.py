"""What the games' figures share: matplotlib axes to draw on. matplotlib is imported only
when a figure is drawn, so ``import exactprob`` never needs it; each game's figures are
in its own ``figures`` module.

>>> ax = axes_or_new(None, (4.0, 3.0))
>>> axes_or_new(ax, (1.0, 1.0)) is ax
True
"""

from __future__ import annotations

from typing import Any

__all__ = ["axes_or_new"]


def axes_or_new(ax: Any, size: tuple[float, float]) -> Any:
    """``ax`` when given, else the axes of a new figure of ``size`` inches (constrained
    layout)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new
