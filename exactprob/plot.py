"""matplotlib figures of exact results. matplotlib is imported inside each function, so
``import exactprob`` never needs it.

>>> from exactprob.games.fleet_battle import battle, parse_fleet
>>> ax = survivor_chart(battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun")), "attacker")
>>> [t.get_text() for t in ax.get_xticklabels()][:2]
['5 fighter', '4 fighter']
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

__all__ = ["conquest_heatmap", "survivor_chart"]


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=size, layout="constrained")
    return new


def survivor_chart(result: Any, side: str = "attacker", ax: Any = None) -> Any:
    """Bar chart of the distribution of one side's surviving ships.

    Parameters
    ----------
    result : BattleResult
        A solved battle (:func:`exactprob.games.fleet_battle.battle`).
    side : {"attacker", "defender"}
        Whose survivors to draw; "none" is the fleet destroyed.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib Axes
    """
    rows = result.survivor_labels(side)
    ax = _axes(ax, (max(4.0, 0.6 * len(rows) + 1.5), 3.2))
    labels = [label for label, _ in rows]
    heights = [float(p) for _, p in rows]
    ax.bar(range(len(rows)), heights, color="tab:blue" if side == "attacker" else "tab:red")
    slanted = len(rows) > 4
    ax.set_xticks(
        range(len(rows)), labels, rotation=45 if slanted else 0, ha="right" if slanted else "center"
    )
    ax.set_ylabel("P(ships left at the end)")
    fleet = result.attacker if side == "attacker" else result.defender
    ax.set_title(f"{side}: {fleet}", fontsize="medium")
    return ax


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
    ax = _axes(ax, (6.0, 5.0))
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
