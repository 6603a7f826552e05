r"""Rubber-band odds, waffles (starvation) and staircakes, exactly.

* :mod:`.odds`: a resource whose chance rises on every level it is missing, as exact laws
  over the levels, and its simulators;
* :mod:`.report`: each question answered in full (what ``exactprob rubber-band``,
  ``waffles`` and ``staircakes`` print).

Two levels from odds 0.85, lifted by a miss to 1: the second level finds with
:math:`0.85 \cdot 0.6 + 0.15 \cdot 1 = 33/50`.

>>> level_probabilities(RubberBand(levels=2))
(Fraction(17, 20), Fraction(33, 50))
"""

from .odds import (
    MAX_LEVELS,
    MAX_STATES,
    MAX_STEP,
    MAX_WAFFLES,
    STAIRCAKES,
    RubberBand,
    Waffles,
    count_distribution,
    level_probabilities,
    staircakes,
    starve_probability,
)
from .report import (
    RubberBandReport,
    StaircakesReport,
    WafflesReport,
    plain,
    rubber_band_report,
    staircakes_report,
    waffles_report,
)

__all__ = [
    "MAX_LEVELS",
    "MAX_STATES",
    "MAX_STEP",
    "MAX_WAFFLES",
    "STAIRCAKES",
    "RubberBand",
    "RubberBandReport",
    "StaircakesReport",
    "Waffles",
    "WafflesReport",
    "count_distribution",
    "level_probabilities",
    "plain",
    "rubber_band_report",
    "staircakes",
    "staircakes_report",
    "starve_probability",
    "waffles_report",
]
