r"""The exact analysis of Rogue 3.6.3's random number generator.

Rogue keeps a C ``int`` seed :math:`s` and steps it as a linear congruential generator
(LCG) modulo :math:`2^{32}` (signed wraparound is arithmetic mod :math:`2^{32}`):

.. math::

   s_{t+1} = a\,s_t + c \bmod 2^{32},\quad a = 11109,\ c = 13849,\qquad
   \mathrm{RN}_t = \lfloor (s_t \bmod 2^{15}) / 2 \rfloor,\qquad
   \mathrm{rnd}(n) = \mathrm{RN} \bmod n .

``RN`` reads bits 1..14 of the seed only (``& 0x7fff`` keeps bits 0..14 and makes the value
non-negative, so Rogue's ``abs`` never changes it). The low :math:`k` bits of an LCG modulo
:math:`2^{32}` form an LCG modulo :math:`2^k` by themselves, so everything ``RN`` does is
decided by :math:`s \bmod 2^{15}`: a cycle of :math:`2^{15} = 32768` outputs in which each
value :math:`0 .. 2^{14}-1` appears exactly twice. Every statistic below is exact over that
cycle; a seed drawn uniformly from all :math:`2^{32}` values starts at each of the 32768
positions with the same probability (:math:`2^{17}` seeds each), so these are exactly the
distributions a simulation on this generator samples from.

>>> rn_period(), rnd_period(2)
(32768, 4)
>>> consecutive_sum_distribution(2, 40)  # forty coin flips: always twenty heads
Dist({20: '1'})
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ....engine import Dist
from ....errors import ModelError
from ....util.numbers import whole_number
from ..rng import INCREMENT, MULTIPLIER, RN_RANGE, RogueRandom

__all__ = [
    "CYCLE_LENGTH",
    "MAX_DRAWS",
    "MAX_N",
    "MAX_PAIR_N",
    "RN_BITS",
    "PairLines",
    "RndBias",
    "consecutive_sum_distribution",
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

SEED_BITS = 32
RN_BITS = 14
"""``RN`` is bits 1..14 of the seed: 14 bits."""
CYCLE_LENGTH = 2 * RN_RANGE
"""Length of ``RN``'s cycle, :math:`2^{15}` (:func:`rn_period` proves it)."""
MAX_N = 2**31 - 1
"""The largest ``n`` of ``rnd(n)``: its argument is a C ``int``."""
MAX_DRAWS = 10**6
"""The most draws summed by :func:`consecutive_sum_distribution` (and the largest stride)."""
MAX_PAIR_N = 256
"""The largest ``n`` whose ``n`` by ``n`` table of consecutive pairs is built."""


def hull_dobell(multiplier: int, increment: int, modulus: int) -> bool:
    r"""Whether :math:`x \mapsto a x + c \bmod m` has the full period :math:`m`.

    Hull–Dobell theorem: the period is :math:`m` exactly when :math:`\gcd(c, m) = 1`, every
    prime factor of :math:`m` divides :math:`a - 1`, and :math:`4 \mid a - 1` if
    :math:`4 \mid m`. For :math:`m = 2^k` this says: :math:`c` odd and
    :math:`a \equiv 1 \pmod 4` (:math:`a` odd for :math:`k \le 1`). Rogue's
    :math:`c = 13849` is odd and :math:`a = 11109 = 4 \cdot 2777 + 1`.

    >>> hull_dobell(MULTIPLIER, INCREMENT, 2**32)
    True
    >>> hull_dobell(3, 1, 16)  # 3 - 1 = 2 is not a multiple of 4
    False
    """
    import sympy

    whole_number("modulus", modulus, 1)
    a_minus_1 = multiplier - 1
    return (
        math.gcd(increment, modulus) == 1
        and all(a_minus_1 % p == 0 for p in sympy.primefactors(modulus))
        and (modulus % 4 != 0 or a_minus_1 % 4 == 0)
    )


def low_bits_period(bits: int, multiplier: int = MULTIPLIER, increment: int = INCREMENT) -> int:
    r"""The period of :math:`s \bmod 2^{\text{bits}}`, which is :math:`2^{\text{bits}}`.

    Since :math:`2^{\text{bits}}` divides :math:`2^{32}`, the low bits step by themselves:
    :math:`s_{t+1} \bmod 2^k = (a (s_t \bmod 2^k) + c) \bmod 2^k`, an LCG modulo
    :math:`2^k` with full period by :func:`hull_dobell`. A generator that fails the
    conditions is refused (its period is not a power of two in general).

    >>> low_bits_period(15)
    32768
    >>> low_bits_period(4, multiplier=3)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: x -> 3x + 13849 mod 2^4 fails the Hull-Dobell conditions, so its period is not 2^4
    """
    modulus: int = 2 ** whole_number("bits", bits, 0, SEED_BITS)
    if not hull_dobell(multiplier, increment, modulus):
        raise ModelError(
            f"x -> {multiplier}x + {increment} mod 2^{bits} fails the Hull-Dobell conditions, "
            f"so its period is not 2^{bits}"
        )
    return modulus


def seed_period() -> int:
    """The period of Rogue's seed: :math:`2^{32}`, every C ``int`` once per cycle.

    >>> seed_period() == 2**32
    True
    """
    return low_bits_period(SEED_BITS)


def seed_bit_period(i: int) -> int:
    r"""The period of bit ``i`` of the seed: exactly :math:`2^{i+1}`.

    Bit :math:`i` is a function of :math:`s \bmod 2^{i+1}`, whose period is
    :math:`2^{i+1}`, so its period divides :math:`2^{i+1}`. After :math:`2^i` steps
    :math:`s \bmod 2^i` is back where it was but :math:`s \bmod 2^{i+1}` is not (the step
    is a bijection, so a repeat at one time would make :math:`2^i` a period); hence
    :math:`s_{t+2^i} \equiv s_t + 2^i \pmod{2^{i+1}}`: bit :math:`i` flips every
    :math:`2^i` steps, and its period is :math:`2^{i+1}`, not less.

    >>> [seed_bit_period(i) for i in range(4)]
    [2, 4, 8, 16]
    """
    whole_number("seed bit", i, 0, SEED_BITS - 1)
    return low_bits_period(i + 1)


def rn_bit_period(j: int) -> int:
    r"""The period of bit ``j`` of ``RN`` (bit ``j + 1`` of the seed): :math:`2^{j+2}`.

    Bit 0 of ``RN`` (``RN & 1``, Rogue's coin flip) has period 4.

    >>> rn_bit_period(0), rn_bit_period(13)
    (4, 32768)
    """
    whole_number("RN bit", j, 0, RN_BITS - 1)
    return seed_bit_period(j + 1)


def rn_period() -> int:
    r"""The period of ``RN``: the least common multiple of its 14 bits' periods, :math:`2^{15}`.

    A tuple of bits repeats after :math:`p` steps exactly when each bit does.

    >>> rn_period()
    32768
    """
    return math.lcm(*(rn_bit_period(j) for j in range(RN_BITS)))


def _check_n(n: int) -> int:
    return whole_number("n", n, 1, MAX_N)


def rnd_period(n: int) -> int:
    r"""The period of ``rnd(n)``'s output sequence.

    * :math:`n = 1`: always 0, period 1.
    * :math:`n = 2^k`, :math:`1 \le k \le 14`: ``rnd(n)`` is bits 0..k-1 of ``RN``, period
      that of bit :math:`k-1`, :math:`2^{k+1}`.
    * otherwise :math:`2^{15}`: the period divides :math:`2^{15}`, and after :math:`2^{14}`
      steps ``RN`` changes by exactly :math:`\pm 2^{13}` (only its top bit flips, see
      :func:`seed_bit_period`), which leaves ``RN mod n`` unchanged only if
      :math:`n \mid 2^{13}`.

    >>> rnd_period(1), rnd_period(2), rnd_period(8), rnd_period(6), rnd_period(2**20)
    (1, 4, 16, 32768, 32768)
    """
    _check_n(n)
    if n == 1:
        return 1
    k = n.bit_length() - 1
    if n == 1 << k and k <= RN_BITS:
        return rn_bit_period(k - 1)
    return rn_period()


@functools.cache
def rn_cycle() -> np.ndarray:
    """``RN`` over one whole cycle (int64, read-only): the 32768 values after seed 0.

    Every statistic over the cycle is the same whichever position it starts from.

    >>> cycle = rn_cycle()
    >>> len(cycle), cycle[:4].tolist()
    (32768, [6924, 8315, 5267, 16318])
    >>> set(np.bincount(cycle).tolist())  # each value 0 .. 16383 exactly twice
    {2}
    """
    cycle = RogueRandom(0).rn_block(CYCLE_LENGTH)
    cycle.setflags(write=False)
    return cycle


def rnd_distribution(n: int) -> Dist[int]:
    r"""The exact distribution of ``rnd(n)`` over the whole cycle.

    Over a cycle :math:`s \bmod 2^{15}` takes every value once, so ``RN`` takes each value
    :math:`0 .. 2^{14}-1` twice, and with :math:`2^{14} = q n + r`:

    .. math::

       P(\mathrm{rnd}(n) = x) = \frac{\#\{v < 2^{14} : v \equiv x \bmod n\}}{2^{14}}
       = \begin{cases} (q+1)/2^{14} & x < r \\ q / 2^{14} & r \le x < n \end{cases}

    >>> rnd_distribution(3)
    Dist({0: '2731/8192', 1: '5461/16384', 2: '5461/16384'})
    """
    _check_n(n)
    laps, extra = divmod(RN_RANGE, n)
    return Dist.from_weights(
        {x: laps + (x < extra) for x in range(min(n, RN_RANGE))},
    )


@dataclass(frozen=True, slots=True)
class RndBias:
    """How far ``rnd(n)`` over the cycle is from uniform on ``0 .. n-1``.

    Residues ``0 .. residues_at_max - 1`` have ``max_probability``, the others
    ``min_probability``; ``total_variation`` is :math:`\\frac12\\sum_x |P(x) - 1/n|`.
    """

    n: int
    max_probability: Fraction
    min_probability: Fraction
    residues_at_max: int
    total_variation: Fraction

    @property
    def exactly_uniform(self) -> bool:
        """True when every residue has probability exactly ``1/n`` (``n`` divides 2^14)."""
        return self.total_variation == 0


def rnd_bias(n: int) -> RndBias:
    r"""The bias of ``rnd(n)`` over the cycle, from :func:`rnd_distribution`'s closed form.

    With :math:`2^{14} = q n + r`: if :math:`r = 0` every residue has :math:`1/n` (``n`` is a
    power of two up to :math:`2^{14}`); otherwise residues below :math:`r` have
    :math:`(q+1)/2^{14} > 1/n`, the rest :math:`q/2^{14} < 1/n`, and the total variation
    distance from uniform is :math:`r\,\bigl((q+1)/2^{14} - 1/n\bigr)`. For
    :math:`n > 2^{14}` (:math:`q = 0`) the residues from :math:`2^{14}` on never occur.

    >>> bias = rnd_bias(6)
    >>> bias.max_probability, bias.min_probability, bias.residues_at_max, bias.total_variation
    (Fraction(2731, 16384), Fraction(1365, 8192), 4, Fraction(1, 12288))
    """
    _check_n(n)
    laps, extra = divmod(RN_RANGE, n)
    low = Fraction(laps, RN_RANGE)
    high = Fraction(laps + 1, RN_RANGE) if extra else low
    return RndBias(
        n=n,
        max_probability=high,
        min_probability=low,
        residues_at_max=extra if extra else n,
        total_variation=extra * (high - Fraction(1, n)),
    )


def low_bit_pattern(seed: int = 0) -> tuple[int, ...]:
    r"""The next four values of ``RN & 1`` (``rnd(2)``) after ``seed``.

    ``RN & 1`` is bit 1 of the seed, which flips every 2 steps (:func:`seed_bit_period`):
    :math:`b_{t+2} = 1 - b_t`. So every run of four coin flips is a rotation of
    ``(0, 0, 1, 1)``: exactly two of each, whatever the seed. Over the cycle ``RN & 1`` is
    exactly fair (:func:`rnd_distribution` with ``n = 2``), yet completely predictable.

    >>> low_bit_pattern(0), low_bit_pattern(1), low_bit_pattern(-2**31)
    ((0, 1, 1, 0), (1, 1, 0, 0), (0, 1, 1, 0))
    """
    return tuple((RogueRandom(seed).rn_block(4) & 1).tolist())


def _outputs(n: int | None) -> np.ndarray:
    """``RN`` (``n is None``) or ``rnd(n)`` over the cycle."""
    return rn_cycle() if n is None else rn_cycle() % _check_n(n)


def serial_covariance(lag: int = 1, n: int | None = None) -> Fraction:
    r"""The exact covariance of outputs ``lag`` draws apart, over the cycle.

    For :math:`y_t` = ``RN`` (``n`` None) or ``rnd(n)`` and :math:`t` uniform on the cycle,
    :math:`y_t` and :math:`y_{t+k}` have the same distribution (both run over the whole
    cycle once), so with :math:`\mu = \frac1P \sum_t y_t`:

    .. math:: \mathrm{Cov}(y_t, y_{t+k}) = \frac1P \sum_t y_t\,y_{t+k} - \mu^2 .

    >>> serial_covariance(1)
    Fraction(9107, 2)
    """
    whole_number("lag", lag, 0)
    values = _outputs(n)
    later = np.roll(values, -lag)
    mean = Fraction(int(values.sum()), CYCLE_LENGTH)
    return Fraction(int(np.dot(values, later)), CYCLE_LENGTH) - mean * mean


def serial_correlation(lag: int = 1, n: int | None = None) -> Fraction | None:
    r"""The exact correlation of outputs ``lag`` draws apart over the cycle; None when the
    output is constant (``n = 1``).

    Both margins are the same, so :math:`\rho = \mathrm{Cov}(y_t, y_{t+k}) /
    \mathrm{Var}(y_t)` is a ratio of rationals. ``RN``'s lag-1 correlation is tiny, but its
    coin flips are perfectly anti-correlated two draws apart (:math:`b_{t+2} = 1 - b_t`).

    >>> serial_correlation(1)
    Fraction(18214, 89478485)
    >>> [serial_correlation(lag, n=2) for lag in (1, 2, 3, 4)]
    [Fraction(0, 1), Fraction(-1, 1), Fraction(0, 1), Fraction(1, 1)]
    """
    variance = serial_covariance(0, n)
    return None if variance == 0 else serial_covariance(lag, n) / variance


def _pair_counts(n: int, lag: int) -> np.ndarray:
    """``counts[x, y]``: positions ``t`` of the cycle with ``rnd(n)`` = x at t, y at t+lag."""
    whole_number("n", n, 1, MAX_PAIR_N)
    whole_number("lag", lag, 0)
    values = _outputs(n)
    codes = values * n + np.roll(values, -lag)
    return np.bincount(codes, minlength=n * n).reshape(n, n)


def pair_distribution(n: int, lag: int = 1) -> Dist[tuple[int, int]]:
    r"""The exact joint distribution of ``(rnd(n)`` now, ``rnd(n)`` ``lag`` draws later)``.

    Pairs that never occur are absent. When :math:`2^k \mid n` (:math:`k \le 14`),
    :math:`\mathrm{rnd}(n) \equiv \mathrm{RN} \pmod{2^k}`, and the pair of residues mod
    :math:`2^k` repeats with the period :math:`2^{k+1}` of ``rnd(2^k)``: only
    :math:`2^{k+1}` of the :math:`4^k` residue pairs ever occur, so at most a fraction
    :math:`2^{1-k}` of the :math:`n^2` pairs do (half of them for a d100).

    ``rnd(4)`` is bits 1..2 of the seed, an LCG mod 8 (:math:`x \mapsto 5x + 1`), and runs
    ``0, 0, 3, 3, 2, 2, 1, 1`` round and round: 8 of the 16 pairs occur.

    >>> sorted(pair_distribution(4))
    [(0, 0), (0, 3), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3)]
    >>> set(pair_distribution(4).values()) == {Fraction(1, 8)}
    True
    """
    counts = _pair_counts(n, lag)
    rows, columns = np.nonzero(counts)
    return Dist.from_weights(
        {(x, y): int(counts[x, y]) for x, y in zip(rows.tolist(), columns.tolist())}
    )


def impossible_pairs(n: int, lag: int = 1) -> list[tuple[int, int]]:
    """The pairs ``(x, y)`` such that ``rnd(n)`` never gives ``y`` ``lag`` draws after ``x``.

    >>> len(impossible_pairs(100)), len(impossible_pairs(6))
    (5000, 0)
    >>> impossible_pairs(2, lag=2)  # a coin flip two draws later is always the other side
    [(0, 0), (1, 1)]
    """
    rows, columns = np.nonzero(_pair_counts(n, lag) == 0)
    return list(zip(rows.tolist(), columns.tolist()))


def consecutive_sum_distribution(n: int, m: int, stride: int = 1) -> Dist[int]:
    r"""The exact distribution of ``rnd(n)`` summed over ``m`` draws, over every start.

    :math:`S(t) = \sum_{i<m} y_{t + i k}` with :math:`y = \mathrm{rnd}(n)`, stride
    :math:`k` (``stride = 2`` sums every other draw, as a simulation drawing two numbers per
    step would), and :math:`t` uniform on the 32768 positions of the cycle: what a
    simulation on Rogue's generator can ever see, whatever its seed.

    For :math:`k = 1`, :math:`S(t+1) - S(t) = y_{t+m} - y_t`, so :math:`S` is constant
    exactly when the period :math:`p` of ``rnd(n)`` (:func:`rnd_period`) divides :math:`m`,
    and then :math:`S = (m/p) \sum_{t<p} y_t`. For ``rnd(2)``, :math:`p = 4` and every four
    flips hold two ones: forty flips always sum to 20.

    The draws :math:`t, t+k, \dots` run round an orbit of length
    :math:`P/\gcd(k, P)`; the sum is whole laps of it plus a window of what is left.

    >>> consecutive_sum_distribution(2, 6)
    Dist({2: '1/4', 3: '1/2', 4: '1/4'})
    >>> consecutive_sum_distribution(2, 8, stride=4)  # every fourth flip is the same
    Dist({0: '1/2', 8: '1/2'})
    """
    _check_n(n)
    whole_number("m", m, 1, MAX_DRAWS)
    whole_number("stride", stride, 1, MAX_DRAWS)
    orbits = math.gcd(stride, CYCLE_LENGTH)
    length = CYCLE_LENGTH // orbits
    positions = (np.arange(orbits)[:, None] + stride * np.arange(length)[None, :]) % CYCLE_LENGTH
    draws = _outputs(n)[positions]
    laps, rest = divmod(m, length)
    prefix = np.zeros((orbits, 2 * length + 1), dtype=np.int64)
    np.cumsum(np.tile(draws, 2), axis=1, out=prefix[:, 1:])
    windows = prefix[:, rest : rest + length] - prefix[:, :length]
    sums = windows + laps * draws.sum(axis=1, keepdims=True)
    values, counts = np.unique(sums, return_counts=True)
    return Dist.from_weights(dict(zip(values.tolist(), counts.tolist())))


def independent_sum_moments(n: int, m: int) -> tuple[Fraction, Fraction]:
    r"""Mean and variance of the sum of ``m`` independent uniform draws on ``0 .. n-1``:
    :math:`m(n-1)/2` and :math:`m(n^2-1)/12`, what a good generator would give.

    >>> independent_sum_moments(2, 40)
    (Fraction(20, 1), Fraction(10, 1))
    """
    _check_n(n)
    whole_number("m", m, 1)
    return Fraction(m * (n - 1), 2), Fraction(m * (n * n - 1), 12)


def rogue_d2_hit_points(levels: int = 8, flips_per_level: int = 5, base: int = 12) -> Dist[int]:
    r"""Hit points ``base`` + (``levels`` :math:`\times` ``flips_per_level``) d2 rolled on
    Rogue's generator, with each d2 = ``rnd(2) + 1`` drawn consecutively.

    The total is :math:`\text{base} + F + S` with :math:`F` flips and :math:`S` the sum of
    :math:`F` consecutive ``rnd(2)``. The source's 8 levels of 5 flips make :math:`F = 40`,
    a multiple of the period 4, so :math:`S = 40/4 \cdot 2 = 20` and the total is
    :math:`12 + 40 + 20 = 72` for every seed: the mean of :math:`12 + 40\mathrm{d}2`, with
    its standard deviation :math:`\sqrt{10}` gone.

    >>> rogue_d2_hit_points()
    Dist({72: '1'})
    """
    whole_number("levels", levels, 1)
    whole_number("flips per level", flips_per_level, 1)
    flips = levels * flips_per_level
    return consecutive_sum_distribution(2, flips) + (base + flips)


@dataclass(frozen=True, slots=True)
class PairLines:
    """Every pair ``(RN_t, RN_{t+1})`` satisfies ``normal[0]*RN_t + normal[1]*RN_{t+1} = C``
    for one of ``lines`` constants ``C``: the 32768 points lie on that many parallel lines."""

    normal: tuple[int, int]
    lines: int


def _shortest_vector(u: tuple[int, int], v: tuple[int, int]) -> tuple[int, int]:
    """A shortest nonzero vector of the lattice spanned by ``u`` and ``v`` (Lagrange-Gauss
    reduction, exact integer arithmetic), with a positive first nonzero coordinate."""

    def norm(w: tuple[int, int]) -> int:
        return w[0] * w[0] + w[1] * w[1]

    if norm(u) < norm(v):
        u, v = v, u
    while True:
        mu = round(Fraction(u[0] * v[0] + u[1] * v[1], norm(v)))
        u = (u[0] - mu * v[0], u[1] - mu * v[1])
        if norm(u) >= norm(v):
            break
        u, v = v, u
    return v if v > (0, 0) else (-v[0], -v[1])


def pair_lines() -> PairLines:
    r"""The parallel lines carrying all consecutive pairs :math:`(\mathrm{RN}_t,
    \mathrm{RN}_{t+1})`.

    With :math:`x_t = s_t \bmod 2^{15}`, :math:`x_{t+1} \equiv a x_t + c`. Any
    :math:`(u_1, u_2)` with :math:`u_1 + a u_2 \equiv 0 \pmod{2^{15}}` (the dual lattice)
    gives :math:`u_1 x_t + u_2 x_{t+1} \equiv u_2 c`: the points lie on the lines
    :math:`u_1 x + u_2 y = u_2 c + j\,2^{15}`, few when :math:`(u_1, u_2)` is short (the
    spectral test). Since :math:`a, c` are odd, :math:`x_t` alternates parity and
    :math:`\mathrm{RN}_t = (x_t - (x_t \bmod 2))/2`, so the ``RN`` pairs lie on two
    interleaved families of the same lines. The normal here is the dual lattice's shortest
    vector; ``lines`` is the exact count of distinct :math:`u_1 \mathrm{RN}_t + u_2
    \mathrm{RN}_{t+1}` over the cycle.

    >>> pair_lines()
    PairLines(normal=(71, -59), lines=258)
    """
    u1, u2 = _shortest_vector((CYCLE_LENGTH, 0), (-MULTIPLIER, 1))
    cycle = rn_cycle()
    constants = u1 * cycle + u2 * np.roll(cycle, -1)
    return PairLines(normal=(u1, u2), lines=len(np.unique(constants)))
