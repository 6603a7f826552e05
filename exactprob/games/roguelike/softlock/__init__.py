"""The floating eye's softlock: locked for a number of turns (exact, or certified) and
forever (an algebraic number).

* :mod:`.walk`: the paralysis as a random walk, its laws and its simulator;
* :mod:`.report`: the whole answer in one call (what ``exactprob softlock`` prints).
"""

from .report import CLOSED_FORM_DIGITS, LONG_RUN_TURNS, SoftlockReport, softlock_report
from .walk import (
    ENCLOSURE_BITS,
    EXACT_LIMIT,
    MAX_AC,
    TURN_ORDERS,
    ReturnProbability,
    SimulatedLocks,
    drift,
    drift_threshold,
    gaze_probability,
    jump_distribution,
    locked_enclosure,
    locked_forever,
    locked_within,
    return_probability,
    ruin_polynomial,
    simulate_locked,
)

__all__ = [
    "CLOSED_FORM_DIGITS",
    "ENCLOSURE_BITS",
    "EXACT_LIMIT",
    "LONG_RUN_TURNS",
    "MAX_AC",
    "TURN_ORDERS",
    "ReturnProbability",
    "SimulatedLocks",
    "SoftlockReport",
    "drift",
    "drift_threshold",
    "gaze_probability",
    "jump_distribution",
    "locked_enclosure",
    "locked_forever",
    "locked_within",
    "return_probability",
    "ruin_polynomial",
    "simulate_locked",
    "softlock_report",
]
