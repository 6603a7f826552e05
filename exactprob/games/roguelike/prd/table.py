r"""Pseudo-random distribution (PRD): an ability whose chance grows with each miss.

The chance is read from a table ``odds[0..n-1]`` at a counter that starts at 0, returns to
0 after a hit and advances by one after a miss, wrapping to 0 after the last entry (a last
entry of 1 makes every activation certain by then, so the table never wraps).

**Renewal argument.** The counter returns to 0 after a hit or a wrap; call the trials
between two returns a *cycle*. The cycle reaches entry :math:`k` with probability
:math:`S_k = \prod_{i<k}(1-p_i)`, so its mean length is :math:`\sum_{k<n} S_k`; it ends
with a hit with probability :math:`1-q`, :math:`q = S_n`. By the renewal-reward theorem
the long-run activation rate is

.. math::

   r = \frac{1 - q}{\sum_{k=0}^{n-1} S_k}.

**Gaps.** The number :math:`G` of trials up to and including the next activation is
:math:`G = nM + K + 1` with :math:`M` (wrapped cycles) geometric,
:math:`P(M=m) = q^m(1-q)`, independent of the entry :math:`K` that hits,
:math:`P(K=k) = p_k S_k/(1-q)`. So :math:`E[G] = 1/r` and
:math:`\operatorname{Var} G = n^2 q/(1-q)^2 + \operatorname{Var} K`.

>>> table = PRDTable.from_odds(["0.03", "0.17", "0.29", "0.37", "0.43", "0.59", "0.83"])
>>> table.rate()  # also the stationary chance of a hit (tests/test_prd.py)
Fraction(98569274365333, 399627166255100)
>>> table.wraps, table.gap_mean() == 1 / table.rate()
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any

from ....engine import Dist
from ....errors import PRDError
from ....util.numbers import exact, to_fraction, whole_number

__all__ = [
    "MAX_TABLE_SIZE",
    "THRESHOLD_SCALE",
    "PRDTable",
    "threshold_probability",
]

THRESHOLD_SCALE = 2**32
"""A uint32 threshold ``t`` activates when ``u <= t`` for ``u`` uniform on ``0..2**32-1``."""

MAX_TABLE_SIZE = 100_000


def threshold_probability(threshold: int) -> Fraction:
    """The chance that ``u <= threshold`` for ``u`` uniform on ``0 .. 2**32 - 1``:
    :math:`(t+1)/2^{32}`.

    >>> threshold_probability(2**31 - 1)
    Fraction(1, 2)
    """
    whole_number("a threshold", threshold, 0, THRESHOLD_SCALE - 1, PRDError)
    return Fraction(threshold + 1, THRESHOLD_SCALE)


@dataclass(frozen=True)
class PRDTable:
    """A PRD table of exact activation chances, one per counter value.

    >>> PRDTable.from_odds(["1/4", "1/2", "1"]).rate()  # mean gap 1 + 3/4 + 3/8
    Fraction(8, 17)
    """

    odds: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if not self.odds:
            raise PRDError("a PRD table needs at least one entry")
        if len(self.odds) > MAX_TABLE_SIZE:
            raise PRDError(f"a PRD table has at most {MAX_TABLE_SIZE:,} entries")
        for k, p in enumerate(self.odds):
            if not isinstance(p, Fraction) or not 0 <= p <= 1:
                raise PRDError(f"entry {k} of the PRD table must be a probability, got {p!r}")
        if not any(self.odds):
            raise PRDError("a PRD table needs a positive entry (all zeros never activate)")

    @classmethod
    def from_odds(cls, odds: Iterable[Any]) -> PRDTable:
        """A table from exact probabilities (``Fraction``, ``int``, or strings such as
        ``"0.03"`` or ``"3/100"``); a float only when exact, as 0.5 is."""
        return cls(tuple(to_fraction(exact(p)) for p in odds))

    @classmethod
    def from_thresholds(cls, thresholds: Iterable[int]) -> PRDTable:
        """A table from uint32 thresholds, entry ``t`` activating with :math:`(t+1)/2^{32}`.

        >>> PRDTable.from_thresholds([2**32 - 1]).rate()
        Fraction(1, 1)
        """
        return cls(tuple(threshold_probability(t) for t in thresholds))

    @property
    def size(self) -> int:
        return len(self.odds)

    @property
    def first_certain(self) -> int | None:
        """The first entry equal to 1 (a run of misses stops there), or ``None``.

        >>> PRDTable.from_odds(["1/2", "1", "1/3"]).first_certain
        1
        """
        return next((k for k, p in enumerate(self.odds) if p == 1), None)

    @property
    def wraps(self) -> bool:
        """Whether a run of misses can pass the last entry (no entry is certain)."""
        return self.first_certain is None

    @cached_property
    def reach(self) -> tuple[Fraction, ...]:
        """:math:`S_0..S_n`: the chance that a cycle reaches entry ``k`` (``S_n = q``).

        >>> PRDTable.from_odds(["1/2", "1"]).reach
        (Fraction(1, 1), Fraction(1, 2), Fraction(0, 1))
        """
        reach = [Fraction(1)]
        for p in self.odds:
            reach.append(reach[-1] * (1 - p))
        return tuple(reach)

    @property
    def wrap_probability(self) -> Fraction:
        """:math:`q`, the chance of missing at every entry of one pass through the table."""
        return self.reach[-1]

    def rate(self) -> Fraction:
        """The long-run activation rate :math:`(1-q)/\\sum_{k<n} S_k` (renewal-reward)."""
        return (1 - self.wrap_probability) / sum(self.reach[:-1], Fraction(0))

    def hitting_entry(self) -> Dist[int]:
        """The distribution of the entry :math:`K` that activates, given a cycle ends with a
        hit: :math:`P(K=k) = p_k S_k / (1-q)`.

        >>> PRDTable.from_odds(["1/2", "1"]).hitting_entry()
        Dist({0: '1/2', 1: '1/2'})
        """
        scale = 1 - self.wrap_probability
        return Dist({k: p * s / scale for k, (p, s) in enumerate(zip(self.odds, self.reach))})

    def gap_probability(self, gap: int) -> Fraction:
        """:math:`P(G = g)` for the gap :math:`G` between activations: with
        :math:`g - 1 = mn + k`, it is :math:`q^m p_k S_k`.

        >>> table = PRDTable.from_odds(["1/2"])
        >>> [table.gap_probability(g) for g in (1, 2, 3)]
        [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)]
        """
        whole_number("a gap", gap, 1, error=PRDError)
        wraps, k = divmod(gap - 1, self.size)
        return self.wrap_probability**wraps * self.odds[k] * self.reach[k]

    def gap_mean(self) -> Fraction:
        """:math:`E[G] = nq/(1-q) + E[K] + 1`, which equals :math:`1/r`."""
        q = self.wrap_probability
        return self.size * q / (1 - q) + to_fraction(exact(self.hitting_entry().mean())) + 1

    def gap_variance(self) -> Fraction:
        """:math:`\\operatorname{Var} G = n^2 q/(1-q)^2 + \\operatorname{Var} K`.

        >>> PRDTable.from_odds(["1/2"]).gap_variance()  # geometric: (1-p)/p^2
        Fraction(2, 1)
        """
        q = self.wrap_probability
        entry_variance = to_fraction(exact(self.hitting_entry().variance()))
        return self.size**2 * q / (1 - q) ** 2 + entry_variance

    def gaps(self, longest: int) -> Dist[int | str]:
        """The gap distribution up to ``longest`` trials, the rest lumped as ``"longer"``:
        with :math:`L = mn + k`, no activation in :math:`L` trials has the chance
        :math:`q^m S_k` (no sum of the listed ones: their denominators grow with
        :math:`m`).

        >>> PRDTable.from_odds(["1/2", "1"]).gaps(5)
        Dist({1: '1/2', 2: '1/2'})
        >>> PRDTable.from_odds(["1/2"]).gaps(2)["longer"]
        Fraction(1, 4)
        """
        whole_number("the longest gap listed", longest, 1, 10 * MAX_TABLE_SIZE, PRDError)
        listed: dict[int | str, Fraction] = {}
        wrapped = Fraction(1)  # q^m for the wrap the gap is in
        for g in range(1, longest + 1):
            wraps, k = divmod(g - 1, self.size)
            if k == 0 and wraps:
                wrapped *= self.wrap_probability
            listed[g] = wrapped * self.odds[k] * self.reach[k]
        wraps, k = divmod(longest, self.size)
        listed["longer"] = self.wrap_probability**wraps * self.reach[k]
        return Dist(listed)

    def asymptotic_variance_per_trial(self) -> Fraction:
        """:math:`\\lim_{N\\to\\infty} \\operatorname{Var}(H_N)/N = \\operatorname{Var}(G)\\,r^3`,
        the renewal central limit theorem's variance of the hit count.

        >>> PRDTable.from_odds(["1/2"]).asymptotic_variance_per_trial()  # Bernoulli: p(1-p)
        Fraction(1, 4)
        """
        return self.gap_variance() * self.rate() ** 3

    def common_denominator(self) -> int:
        """The least common denominator :math:`D` of the entries: after :math:`t` trials
        every probability is an integer over :math:`D^t`."""
        return lcm(*(p.denominator for p in self.odds))

    def integer_weights(self) -> tuple[Sequence[int], Sequence[int], int]:
        """``(hit, miss, D)``: each entry as ``hit[k]/D`` and its complement ``miss[k]/D``.

        >>> PRDTable.from_odds(["1/4", "1/2"]).integer_weights()
        ((1, 2), (3, 2), 4)
        """
        d = self.common_denominator()
        hit = tuple(int(p * d) for p in self.odds)
        return hit, tuple(d - h for h in hit), d
