"""Rogue 3.6.3's random number generator, taken apart exactly over its whole cycle.

* :mod:`.cycle`: periods, the bias of ``rnd(n)``, serial correlation, and why Rogue's
  12 + 40d2 hit points are always 72;
* :mod:`.report`: the whole answer in one call (what ``exactprob rogue-rng`` prints).

Forty consecutive ``rnd(2)`` span ten periods of the low bit (period 4), so they always
sum to 20 and 12 + 40d2 is 12 + 40 + 20:

>>> rogue_d2_hit_points()
Dist({72: '1'})
"""

from .cycle import MAX_DRAWS, MAX_N, rogue_d2_hit_points
from .report import GeneratorReport, generator_report

__all__ = ["MAX_DRAWS", "MAX_N", "GeneratorReport", "generator_report", "rogue_d2_hit_points"]
