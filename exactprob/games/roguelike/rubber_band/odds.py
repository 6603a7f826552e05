r"""Rubber-band odds, exactly: a resource whose chance rises on every level it is missing
and falls each time it turns up; the waffles a hungry hero eats, and rare staircakes.

The rules (the game Brogue's "rubber band", as J. Mates, *Luck and Roguelikes*, describes
it). ``odds`` starts at ``start``; on each dungeon level :math:`i = 0, 1, \dots, L-1`

1. ``odds += up``;
2. the resource appears iff a uniform draw :math:`U \in [0, 1)` is below ``odds``;
3. if it appeared, ``odds -= down``.

With :math:`F_i` resources found before level :math:`i`, the odds at the draw are

.. math::

   o_i = \mathrm{start} + (i + 1)\,\mathrm{up} - \mathrm{down}\,F_i ,
   \qquad P(\text{resource at level } i \mid F_i) = h(o_i) = \min(1, \max(0, o_i)),

exactly, since :math:`P(U < o) = h(o)`. The odds are therefore a Markov chain, and a forward
recursion over the distribution of (odds, whatever else is counted) gives every answer
exactly: the number of resources, the longest run of levels without one, the hero's waffles.
Only states of positive probability are kept, and the rubber band keeps the odds in a
narrow band, so there are few of them (a handful for the default parameters): a miss needs
:math:`o < 1`, so when :math:`\mathrm{down} \ge \mathrm{up}` the odds at a draw never exceed
:math:`\max(o_0, 1 + \mathrm{up})`.

With ``grid = R`` the draw is instead uniform on :math:`\{0, 1/R, \dots, (R-1)/R\}`, so
:math:`h(o) = \min(R, \max(0, \lceil oR \rceil)) / R`: with :math:`R = 2^{14}` that is a draw
``RN / 2**14`` from Rogue 3.6.3's generator over its full cycle.

>>> from exactprob.util.numbers import decimal_string
>>> band = RubberBand()
>>> decimal_string(count_distribution(band).mean(), 6)
'8.693286'
>>> level_probabilities(band)[:3]
(Fraction(17, 20), Fraction(33, 50), Fraction(273, 500))
>>> starve_probability(Waffles())  # 2 waffles, one eaten every 3 levels: never starves
Fraction(0, 1)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, cast

import numpy as np

from ....engine import Dist, RandomSource, Runs
from ....errors import ModelError
from ....util.limits import check_max_states, limit_name, refuse_more_than
from ....util.numbers import Exact, exact, is_symbolic, mpq, to_fraction, whole_number

__all__ = [
    "MAX_LEVELS",
    "MAX_STATES",
    "MAX_STEP",
    "MAX_WAFFLES",
    "STAIRCAKES",
    "RubberBand",
    "RubberBandSample",
    "SimulatedWaffles",
    "StaircakeSummary",
    "Waffles",
    "count_distribution",
    "hit_probability",
    "level_probabilities",
    "longest_dry_streak",
    "simulate_rubber_band",
    "simulate_waffles",
    "staircakes",
    "starvation_distribution",
    "starve_probability",
    "streak_at_least",
]

#: Most dungeon levels a game may have.
MAX_LEVELS = 1000
#: Largest absolute value of ``start``, ``up`` and ``down``.
MAX_STEP = 100
#: Largest grid of a discrete draw (a 32-bit generator's resolution).
MAX_GRID = 2**32
#: Most starting waffles.
MAX_WAFFLES = 1000
#: Default bound on the states the recursion holds at one level (see ``max_states``).
MAX_STATES = 5_000
MAX_SCALE_DIGITS = 50_000
"""The exact walk keeps integers scaled by the steps' denominator to the power of the levels;
their digits are capped here (a step of 1e-2000 over 1,000 levels would need two million)."""

_ZERO = mpq(0)
_ONE = mpq(1)


def _rational(name: str, value: Any, low: int, high: int) -> Fraction:
    """``value`` as an exact Fraction from ``low`` to ``high``, or a ModelError naming it."""
    message = (
        f"{name} must be an exact number from {low} to {high} (an int, a Fraction or a "
        f"string such as '0.15'), got {value!r}"
    )
    try:
        q = exact(value)
    except ValueError:
        raise ModelError(message) from None
    if is_symbolic(q) or not low <= q <= high:
        raise ModelError(message)
    return to_fraction(q)


@dataclass(frozen=True)
class RubberBand:
    """The parameters of a rubber-band resource (defaults: the source's 0.7, 0.15, 0.4, 20).

    ``start``, ``up`` and ``down`` are exact (ints, Fractions or strings such as ``"0.15"``;
    a float only when exact, as 0.5 is), ``up`` and ``down`` non-negative; ``grid`` is ``None`` for a draw
    uniform on [0, 1), or ``R`` for a draw uniform on the multiples of 1/R below 1.

    >>> RubberBand(up="0.2").up
    Fraction(1, 5)
    >>> RubberBand(levels=0)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: levels must be a whole number from 1 to 1000, got 0
    """

    start: Fraction = Fraction(7, 10)
    up: Fraction = Fraction(3, 20)
    down: Fraction = Fraction(2, 5)
    levels: int = 20
    grid: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", _rational("start", self.start, -MAX_STEP, MAX_STEP))
        object.__setattr__(self, "up", _rational("up", self.up, 0, MAX_STEP))
        object.__setattr__(self, "down", _rational("down", self.down, 0, MAX_STEP))
        whole_number("levels", self.levels, 1, MAX_LEVELS)
        if self.grid is not None:
            whole_number("grid", self.grid, 1, MAX_GRID)
        unit = math.lcm(self.start.denominator, self.up.denominator, self.down.denominator)
        digits = self.levels * math.log10(unit)
        if digits > MAX_SCALE_DIGITS:
            raise ModelError(
                f"{self.levels} levels with steps of denominator about 10^{math.log10(unit):.0f} need "
                f"{digits:,.0f}-digit integers (at most {MAX_SCALE_DIGITS:,}); use coarser "
                "start, up and down or fewer levels"
            )


def _draw_counts(odds: int, unit: int, grid: int | None) -> tuple[int, int]:
    """(favourable, total): the draw is below ``odds / unit`` with chance favourable/total.

    >>> _draw_counts(17, 20, None), _draw_counts(-3, 20, None), _draw_counts(1, 20, 2**14)
    ((17, 20), (0, 20), (820, 16384))
    """
    if grid is None:
        return min(unit, max(0, odds)), unit
    below = -((-odds * grid) // unit)  # ceil(odds * grid / unit): grid values below the odds
    return min(grid, max(0, below)), grid


def hit_probability(odds: Any, grid: int | None = None) -> Exact:
    r"""The chance that the draw is below ``odds``: :math:`\min(1, \max(0, o))`, or on a
    grid of ``R`` values :math:`\min(R, \max(0, \lceil oR \rceil))/R` (exact ``mpq``).

    >>> hit_probability(mpq(17, 20)), hit_probability(mpq(-1, 5)), hit_probability(mpq(6, 5))
    (mpq(17,20), mpq(0,1), mpq(1,1))
    >>> hit_probability(mpq(1, 20), grid=2**14)  # Rogue's RN / 2**14: 820 of 16384 values
    mpq(205,4096)
    """
    o = exact(odds)
    if is_symbolic(o):
        raise ModelError(f"odds must be an exact rational, got {odds!r}")
    return mpq(*_draw_counts(int(o.numerator), int(o.denominator), grid))


class _Integers(NamedTuple):
    """The parameters as integers: the odds are integers over ``unit`` (the common
    denominator of start, up and down), the draw's chances integers over ``total``."""

    unit: int
    start: int
    up: int
    down: int
    total: int

    @classmethod
    def of(cls, band: RubberBand) -> _Integers:
        unit = math.lcm(band.start.denominator, band.up.denominator, band.down.denominator)
        start, up, down = (int(x * unit) for x in (band.start, band.up, band.down))
        return cls(unit, start, up, down, _draw_counts(0, unit, band.grid)[1])


# A state of the recursion: (the odds times ``unit``, what else is counted).
_State = tuple[int, Hashable]
_Update = Callable[[Hashable, int, bool], Hashable]


def _walk(
    band: RubberBand, initial: Hashable, update: _Update, max_states: int
) -> Iterator[tuple[dict[_State, int], int]]:
    """``(weights, scale)`` before level 0, 1, ..., L-1 and after the last: the state has
    probability ``weight / scale`` exactly (all integers, ``scale = total**level``, so no
    fraction is reduced on the way).

    ``update(extra, level, found)`` is the counted part's next value; the odds follow the
    rules. Raises StateLimitError when a level holds more than ``max_states`` states.
    """
    check_max_states(max_states)
    n = _Integers.of(band)
    states: dict[_State, int] = {(n.start, initial): 1}
    scale = 1
    yield states, scale
    for level in range(band.levels):
        following: dict[_State, int] = defaultdict(int)
        for (odds, extra), weight in states.items():
            odds += n.up
            hits = _draw_counts(odds, n.unit, band.grid)[0]
            if hits:
                following[odds - n.down, update(extra, level, True)] += weight * hits
            if hits != n.total:
                following[odds, update(extra, level, False)] += weight * (n.total - hits)
        refuse_more_than(
            max_states,
            len(following),
            f"the recursion after level {level}",
            how=f"use fewer levels or a larger {limit_name()}",
        )
        states, scale = following, scale * n.total
        yield states, scale


def _final(band: RubberBand, initial: Hashable, update: _Update, max_states: int) -> Dist[Any]:
    """The distribution of the counted part after the last level."""
    *_, (states, scale) = _walk(band, initial, update, max_states)
    counted: dict[Hashable, int] = defaultdict(int)
    for (_, extra), weight in states.items():
        counted[extra] += weight
    return Dist({extra: mpq(weight, scale) for extra, weight in counted.items()})


def _same(extra: Hashable, level: int, found: bool) -> Hashable:
    return extra


def level_probabilities(band: RubberBand, max_states: int = MAX_STATES) -> tuple[Fraction, ...]:
    r"""The exact chance of a resource on each level, :math:`P_i = E[h(o_i)]`.

    >>> level_probabilities(RubberBand(levels=2))  # 0.85, then 0.85·0.6 + 0.15·1
    (Fraction(17, 20), Fraction(33, 50))
    """
    n = _Integers.of(band)
    walk = _walk(band, None, _same, max_states)
    return tuple(
        Fraction(
            sum(w * _draw_counts(odds + n.up, n.unit, band.grid)[0] for (odds, _), w in s.items()),
            scale * n.total,
        )
        for _, (s, scale) in zip(range(band.levels), walk)
    )


def _count(found: Hashable, level: int, hit: bool) -> Hashable:
    return cast(int, found) + hit


def count_distribution(band: RubberBand, max_states: int = MAX_STATES) -> Dist[int]:
    """The exact distribution of the number of resources over the ``levels`` levels.

    >>> d = count_distribution(RubberBand(levels=2))  # a miss lifts the odds to 1
    >>> d[0], d[1], d[2]  # 0; 0.85·0.4 + 0.15·1; 0.85·0.6
    (Fraction(0, 1), Fraction(49, 100), Fraction(51, 100))
    """
    return _final(band, 0, _count, max_states)


def _streaks(extra: Hashable, level: int, found: bool) -> Hashable:
    current, longest = cast(tuple[int, int], extra)
    if found:
        return (0, longest)
    return (current + 1, max(longest, current + 1))


def longest_dry_streak(band: RubberBand, max_states: int = MAX_STATES) -> Dist[int]:
    """The exact distribution of the longest run of consecutive levels without a resource
    (the recursion counts the current run and the longest so far).

    >>> longest_dry_streak(RubberBand(levels=3))[2]  # a find, then misses at odds 0.6, 0.75
    Fraction(17, 200)
    """
    both = _final(band, (0, 0), _streaks, max_states)
    return both.map(lambda pair: pair[1])


def streak_at_least(band: RubberBand, max_states: int = MAX_STATES) -> dict[int, Fraction]:
    """``{k: P(longest dry streak >= k)}`` for ``k = 1 .. levels``.

    >>> streak_at_least(RubberBand(levels=2))[1]  # 1 - 0.85·0.6
    Fraction(49, 100)
    """
    longest = longest_dry_streak(band, max_states)
    tail = Fraction(0)
    at_least = {}
    for k in range(band.levels, 0, -1):
        tail += longest[k]
        at_least[k] = tail
    return dict(sorted(at_least.items()))


class StaircakeSummary(NamedTuple):
    """The expected number of staircakes per game and the chance of none."""

    expected: Fraction
    none: Fraction


#: Our staircake parameters (the source's were not available to us): the odds start at 0,
#: rise by 0.01 a level and drop by 1 on a find, over 20 levels (at most one per game).
STAIRCAKES = RubberBand(start=Fraction(0), up=Fraction(1, 100), down=Fraction(1), levels=20)


def staircakes(band: RubberBand = STAIRCAKES, max_states: int = MAX_STATES) -> StaircakeSummary:
    r"""Expected staircakes per game (:math:`\sum_i P_i`) and the chance of none
    (:math:`\prod_i (1 - h(\mathrm{start} + (i+1)\,\mathrm{up}))`, as nothing is found).

    >>> staircakes(RubberBand(start=0, up="0.1", down=1, levels=3))
    StaircakeSummary(expected=Fraction(62, 125), none=Fraction(63, 125))
    """
    counts = count_distribution(band, max_states)
    return StaircakeSummary(expected=counts.mean(), none=counts[0])


@dataclass(frozen=True)
class Waffles:
    """A hungry hero's waffles: ``waffles`` at the start; on each level whose index is a
    multiple of ``every`` one is eaten first, and if the count goes below zero the hero
    starves; then a waffle on the level (the ``band`` draw) adds one.

    **Revived** (our reading of the source, which does not say): a hero who starves is
    revived with the count set back to 0 and play goes on; that level's waffle draw still
    happens and counts. Up to the first starvation the revived game is the game itself.

    >>> Waffles(every=0)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: every must be a whole number from 1 to 1000, got 0
    """

    band: RubberBand = field(default_factory=RubberBand)
    waffles: int = 2
    every: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.band, RubberBand):
            raise ModelError(f"band must be a RubberBand, got {self.band!r}")
        whole_number("waffles", self.waffles, 0, MAX_WAFFLES)
        whole_number("every", self.every, 1, MAX_LEVELS)


def starvation_distribution(game: Waffles, max_states: int = MAX_STATES) -> Dist[int]:
    r"""The exact distribution of the number of starvations of a revived hero.

    The recursion's state is (odds, waffles in hand, starvations so far); on level
    :math:`i` with :math:`E \mid i` the count :math:`w` becomes :math:`w - 1`, and a
    :math:`-1` is a starvation and becomes 0.

    >>> starvation_distribution(Waffles(waffles=0, every=1, band=RubberBand(levels=1)))[1]
    Fraction(1, 1)
    """

    def eat_then_find(extra: Hashable, level: int, found: bool) -> Hashable:
        count, starved = cast(tuple[int, int], extra)
        if level % game.every == 0:
            count -= 1
            if count < 0:
                count, starved = 0, starved + 1
        return (count + found, starved)

    both = _final(game.band, (game.waffles, 0), eat_then_find, max_states)
    return both.map(lambda pair: pair[1])


def starve_probability(game: Waffles, max_states: int = MAX_STATES) -> Fraction:
    """The exact chance that the hero starves within the levels (the game ends then):
    one minus the chance a revived hero never starves.

    >>> starve_probability(Waffles(waffles=1, every=1, band=RubberBand(levels=2)))
    Fraction(3, 20)
    """
    starve: Fraction = 1 - starvation_distribution(game, max_states)[0]
    return starve


@dataclass(frozen=True, eq=False)
class RubberBandSample(Runs):
    """Simulated games: ``found[run, level]`` is True when the level had the resource; the
    :attr:`result` is the resources found in each run."""

    found: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Resources per run (:attr:`counts`)."""
        return self.counts

    @property
    def counts(self) -> np.ndarray:
        """Resources per run."""
        return self.found.sum(axis=1)

    @property
    def longest_dry(self) -> np.ndarray:
        """The longest run of levels without a resource, per run."""
        current = np.zeros(len(self.found), dtype=np.int64)
        longest = np.zeros_like(current)
        for column in self.found.T:
            current = np.where(column, 0, current + 1)
            np.maximum(longest, current, out=longest)
        return longest


def simulate_rubber_band(band: RubberBand, runs: int, source: RandomSource) -> RubberBandSample:
    """``runs`` games played from the rules in floats (simulation only).

    Draws ``runs * levels`` numbers with ``source.random`` in row-major (run, level) order,
    one per level, as a C loop over runs would; level ``i`` of run ``r`` has the resource
    iff its draw is ``< odds``. The draw's resolution is the source's (``band.grid`` is not
    used: Rogue's draws have 14 bits).

    >>> from exactprob.engine import NumpyRandom
    >>> sample = simulate_rubber_band(RubberBand(levels=3), 5, NumpyRandom(1))
    >>> sample.found.shape, bool((sample.counts <= 3).all())
    ((5, 3), True)
    """
    whole_number("runs", runs, 1)
    draws = source.random(runs * band.levels).reshape(runs, band.levels)
    odds = np.full(runs, float(band.start))
    found = np.zeros((runs, band.levels), dtype=bool)
    for level in range(band.levels):
        odds += float(band.up)
        found[:, level] = draws[:, level] < odds
        odds -= float(band.down) * found[:, level]
    return RubberBandSample(found)


@dataclass(frozen=True, eq=False)
class SimulatedWaffles(Runs):
    """Simulated games of a revived hero: the starvations of each run; the :attr:`result`
    is whether the run starved at all."""

    starvations: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Whether each run starved at least once."""
        return self.starvations > 0


def simulate_waffles(game: Waffles, runs: int, source: RandomSource) -> SimulatedWaffles:
    """``runs`` games of a revived hero from the rules; the waffles are
    :func:`simulate_rubber_band`'s finds, so it draws the same ``runs * levels`` numbers in
    the same order.

    >>> from exactprob.engine import NumpyRandom
    >>> bool(simulate_waffles(Waffles(waffles=0, every=1), 3, NumpyRandom(1)).result.all())
    True
    """
    found = simulate_rubber_band(game.band, runs, source).found
    count = np.full(runs, game.waffles, dtype=np.int64)
    starved = np.zeros(runs, dtype=np.int64)
    for level in range(game.band.levels):
        if level % game.every == 0:
            count -= 1
            starved += count < 0
            np.maximum(count, 0, out=count)
        count += found[:, level]
    return SimulatedWaffles(starved)
