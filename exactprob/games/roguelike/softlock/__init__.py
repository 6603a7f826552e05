"""The floating eye's softlock: locked for a number of turns (exact, or certified) and
forever (an algebraic number).

* :mod:`.walk`: the paralysis as a random walk, its laws and its simulator;
* :mod:`.report`: the whole answer in one call (what ``exactprob softlock`` prints).
"""

from .report import SoftlockReport, softlock_report
from .walk import (
    ENCLOSURE_BITS,
    EXACT_LIMIT,
    MAX_AC,
    TURN_ORDERS,
    locked_enclosure,
    locked_forever,
    locked_within,
)

__all__ = [
    "ENCLOSURE_BITS",
    "EXACT_LIMIT",
    "MAX_AC",
    "TURN_ORDERS",
    "SoftlockReport",
    "locked_enclosure",
    "locked_forever",
    "locked_within",
    "softlock_report",
]
