"""Figures of fleet battles' exact results. matplotlib is imported when a figure is drawn.

>>> from exactprob.games.fleet_battle import battle, parse_fleet
>>> ax = survivor_chart(battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun")), "attacker")
>>> [t.get_text() for t in ax.get_xticklabels()][:2]
['5 fighter', '4 fighter']
"""

from __future__ import annotations

from typing import Any

from ...util.plot import axes_or_new

__all__ = ["survivor_chart"]


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
    ax = axes_or_new(ax, (max(4.0, 0.6 * len(rows) + 1.5), 3.2))
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
