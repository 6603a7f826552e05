"""Figures of the tavern wheel game: the chance of reaching the target against the gold in
hand, for optimal play and fixed strategies. matplotlib is imported inside the function.

>>> from exactprob.games.cartwheel.wheel import Wheel, bold_play, policy_values, solve_wheel
>>> wheel = Wheel(target=6)
>>> ax = win_chance_figure(wheel, {"optimal": solve_wheel(wheel).values,
...                                "bold": policy_values(wheel, bold_play(wheel))}, gold=2)
>>> [line.get_label() for line in ax.get_lines()][:2], ax.get_xlabel()
(['optimal', 'bold'], 'gold in hand')
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...util.plot import axes_or_new
from .wheel import Wheel

__all__ = ["win_chance_figure"]

MARKERS = "os^dv<>"


def win_chance_figure(
    wheel: Wheel,
    curves: Mapping[str, Mapping[int, Fraction]],
    gold: int | None = None,
    ax: Any = None,
) -> Any:
    """One line per strategy: its exact chance of reaching ``wheel.target`` from every
    amount (drawn as floats), with ``gold`` (the hero's purse) marked.

    Returns
    -------
    matplotlib Axes
    """
    ax = axes_or_new(ax, (7, 3.6))
    small = wheel.target <= 40
    for (label, values), marker in zip(curves.items(), MARKERS * len(curves)):
        amounts = sorted(values)
        ax.plot(
            amounts,
            [float(values[g]) for g in amounts],
            marker=marker if small else None,
            markersize=4,
            label=label,
        )
    if gold is not None:
        ax.axvline(gold, color="grey", linestyle=":", linewidth=1)
    bets = ", ".join(map(str, wheel.bets))
    stakes = "any stake" if wheel.max_stake is None else f"stakes up to {wheel.max_stake}"
    ax.set_title(
        f"{wheel.numbers}-slot wheel, bets {bets}, {stakes}: reaching {wheel.target} gold",
        fontsize="medium",
    )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("gold in hand")
    ax.set_ylabel("P(reach the target)")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize="small")
    return ax
