"""Luck mechanics of roguelikes, exactly (after J. Mates, "Luck and Roguelikes", 2018).

The source answered these questions by Monte-Carlo runs, some on Rogue 3.6.3's generator;
here each is answered exactly, and each simulator runs on either generator.

Each mechanic is a package of its own, with its face, its model, and its answer in full
in one call (``report``, what the commands print); they share only the generators:

* :mod:`.rng`: Rogue 3.6.3's generator bit for bit, and numpy's, behind one protocol;
* :mod:`.generator`: Rogue's generator taken apart over its whole cycle (periods, the bias
  of ``rnd(n)``, serial correlation, why its 12 + 40d2 hit points are always 72);
* :mod:`.prd`: pseudo-random distribution tables (rate, gaps, hits in N trials exactly or
  with certified bounds, longest miss runs, the inverse problem);
* :mod:`.hit_points`: hit-point dice (12 + 8d10 against 12 + 40d2, 3d6 against 1d20);
* :mod:`.rubber_band`: rubber-band odds, waffles (starvation) and staircakes;
* :mod:`.softlock`: the floating eye's paralysis as a random walk, locked for ``limit`` turns
  (exact, or certified beyond 2,000 turns) and forever (an algebraic number).

>>> PRDTable.from_odds(["1/4", "1"]).rate()
Fraction(4, 7)
"""

from ...engine import NumpyRandom, RandomSource
from .generator import generator_report
from .hit_points import DistributionSummary, compare, hit_points, hit_points_report
from .prd import PRDTable, hit_moments, hits_distribution, linear_constant, longest_miss_run
from .rng import RogueRandom, random_source
from .rubber_band import (
    RubberBand,
    Waffles,
    count_distribution,
    rubber_band_report,
    staircakes,
    staircakes_report,
    starve_probability,
    waffles_report,
)
from .softlock import locked_enclosure, locked_forever, locked_within, softlock_report

__all__ = [
    "DistributionSummary",
    "NumpyRandom",
    "PRDTable",
    "RandomSource",
    "RogueRandom",
    "RubberBand",
    "Waffles",
    "compare",
    "count_distribution",
    "generator_report",
    "hit_moments",
    "hit_points",
    "hit_points_report",
    "hits_distribution",
    "linear_constant",
    "locked_enclosure",
    "locked_forever",
    "locked_within",
    "longest_miss_run",
    "random_source",
    "rubber_band_report",
    "softlock_report",
    "staircakes",
    "staircakes_report",
    "starve_probability",
    "waffles_report",
]
