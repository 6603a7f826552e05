r"""Certified enclosures: an interval with exact rational ends that contains an exact value.

Where exact numbers grow too long to be useful, exactprob gives an :class:`Enclosure`
instead: :math:`\ell \le v \le h` with :math:`\ell, h` exact rationals (floats are
converted exactly: a double *is* a dyadic rational), proved by the computation that made
it. The engine's certified mode (:func:`exactprob.engine.certified.solving.enclose`), the jeopardy games'
enclosures and the softlock DP all return this one type.

>>> box = Enclosure(0.25, Fraction(3, 8))
>>> box.contains(Fraction(1, 3)), box.width()
(True, Fraction(1, 8))
>>> Enclosure(0.52421758905613, 0.52421758905674).decimal()
'0.524217589056'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import UsageError
from ..util.display import exact_html, rows_html
from ..util.numbers import decimal_string

__all__ = ["Enclosure"]


@dataclass(frozen=True, init=False)
class Enclosure:
    """A closed interval ``[low, high]`` with exact rational ends that is guaranteed to
    contain an exact value. Float ends are converted exactly (no rounding)."""

    low: Fraction
    high: Fraction

    def __init__(self, low: Any, high: Any) -> None:
        low, high = Fraction(low), Fraction(high)
        if low > high:
            raise UsageError(f"an enclosure needs low <= high, got [{low}, {high}]")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    def width(self) -> Fraction:
        """``high - low``, exactly."""
        return self.high - self.low

    def contains(self, value: Any) -> bool:
        """Whether the exact ``value`` lies in the interval (compared exactly).

        >>> Enclosure(0.1, 0.2).contains(Fraction(1, 10))  # the float 0.1 is above 1/10
        False
        """
        return bool(self.low <= value <= self.high)

    __contains__ = contains

    def midpoint(self) -> Fraction:
        """``(low + high) / 2``, exactly."""
        return (self.low + self.high) / 2

    def decimal(self) -> str:
        """The midpoint to as many places as the width allows: the exact value is within
        one unit of the last place shown (half the width is at most half that unit, and
        so is the rounding of the midpoint); exact ends show 17 places."""
        width = self.width()
        places = 17 if width == 0 else max(0, math.floor(-math.log10(width)))
        return decimal_string(self.midpoint(), places)

    def _repr_html_(self) -> str:
        """Jupyter's view: both exact ends, the width and the certain decimal."""
        rows = [
            ("low", exact_html(self.low)),
            ("high", exact_html(self.high)),
            ("width", exact_html(self.width())),
            ("value", self.decimal()),
        ]
        return rows_html("Enclosure: the exact value lies in [low, high]", rows)
