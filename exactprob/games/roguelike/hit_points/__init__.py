r"""Hit points from dice per level: Rogue's 1d10 against 5d2 per level (and any dice),
exactly, with an independent simulator.

* :mod:`.dice`: the exact distributions, their moments in closed form, the comparison;
* :mod:`.report`: the whole answer in one call (what ``exactprob hp`` prints).

Eight levels of 5d2 on 12: mean :math:`12 + 40 \cdot 3/2 = 72`, variance :math:`40/4 = 10`.

>>> closed_form_moments(5, 2, 8, 12)
(Fraction(72, 1), Fraction(10, 1))
"""

from .dice import (
    MAX_BASE,
    MAX_LEVELS,
    ROGUE_BASE,
    ROGUE_LEVELS,
    DiceSpec,
    DistributionSummary,
    closed_form_moments,
    compare,
    hit_points,
    parse_dice_spec,
)
from .report import HitPointsReport, hit_points_report

__all__ = [
    "MAX_BASE",
    "MAX_LEVELS",
    "ROGUE_BASE",
    "ROGUE_LEVELS",
    "DiceSpec",
    "DistributionSummary",
    "HitPointsReport",
    "closed_form_moments",
    "compare",
    "hit_points",
    "hit_points_report",
    "parse_dice_spec",
]
