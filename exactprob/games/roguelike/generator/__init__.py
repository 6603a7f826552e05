"""Rogue 3.6.3's random number generator, taken apart exactly over its whole cycle.

* :mod:`.cycle`: periods, the bias of ``rnd(n)``, serial correlation, and why Rogue's
  12 + 40d2 hit points are always 72;
* :mod:`.report`: the whole answer in one call (what ``exactprob rogue-rng`` prints).

Forty consecutive ``rnd(2)`` span ten periods of the low bit (period 4), so they always
sum to 20 and 12 + 40d2 is 12 + 40 + 20:

>>> rogue_d2_hit_points()
Dist({72: '1'})
"""

from .cycle import (
    CYCLE_LENGTH,
    MAX_DRAWS,
    MAX_N,
    MAX_PAIR_N,
    RN_BITS,
    PairLines,
    RndBias,
    consecutive_sum_distribution,
    hull_dobell,
    impossible_pairs,
    independent_sum_moments,
    low_bit_pattern,
    low_bits_period,
    pair_distribution,
    pair_lines,
    rn_bit_period,
    rn_cycle,
    rn_period,
    rnd_bias,
    rnd_distribution,
    rnd_period,
    rogue_d2_hit_points,
    seed_bit_period,
    seed_period,
    serial_correlation,
    serial_covariance,
)
from .report import GeneratorReport, generator_report

__all__ = [
    "CYCLE_LENGTH",
    "MAX_DRAWS",
    "MAX_N",
    "MAX_PAIR_N",
    "RN_BITS",
    "GeneratorReport",
    "PairLines",
    "RndBias",
    "consecutive_sum_distribution",
    "generator_report",
    "hull_dobell",
    "impossible_pairs",
    "independent_sum_moments",
    "low_bit_pattern",
    "low_bits_period",
    "pair_distribution",
    "pair_lines",
    "rn_bit_period",
    "rn_cycle",
    "rn_period",
    "rnd_bias",
    "rnd_distribution",
    "rnd_period",
    "rogue_d2_hit_points",
    "seed_bit_period",
    "seed_period",
    "serial_correlation",
    "serial_covariance",
]
