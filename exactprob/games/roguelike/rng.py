"""Random sources for the roguelike simulators: Rogue 3.6.3's generator, or numpy's
(:class:`~exactprob.engine.simulation.NumpyRandom`, the engine's, as is the
:class:`~exactprob.engine.simulation.RandomSource` protocol they share).

Every simulator in :mod:`exactprob.games.roguelike` takes a
:class:`~exactprob.engine.simulation.RandomSource`, so the
same simulation runs on the generator the source used and on a good one; the difference
between the two is the generator's fault, not the mechanic's.

Rogue 3.6.3 keeps a C ``int`` seed and draws

.. math::

   s \\leftarrow 11109\\,s + 13849 \\pmod{2^{32}} \\text{ (signed wraparound)},\\qquad
   \\mathrm{RN} = (s \\mathbin{\\&} \\mathtt{0x7fff}) \\gg 1,\\qquad
   \\mathrm{rnd}(n) = |\\mathrm{RN}| \\bmod n .

``RN`` reads only bits 1..14 of the seed, so it is periodic with period at most
:math:`2^{15}`, and its lowest bit (bit 1 of the seed) with period 4.

>>> rogue = RogueRandom(seed=1)
>>> [rogue.rn() for _ in range(4)]
[12479, 11111, 7522, 10422]
>>> RogueRandom(seed=1).integers(2, 8).tolist()  # rnd(2): bit 1 of the seed, period 4
[1, 1, 0, 0, 1, 1, 0, 0]
"""

from __future__ import annotations

import numpy as np

from ...engine import NumpyRandom, RandomSource
from ...errors import UsageError

__all__ = [
    "INCREMENT",
    "MULTIPLIER",
    "RN_RANGE",
    "RogueRandom",
    "random_source",
    "wrap_int32",
]

MULTIPLIER = 11109
INCREMENT = 13849
MASK32 = (1 << 32) - 1
RN_RANGE = 1 << 14
"""``RN`` takes the values ``0 .. RN_RANGE - 1``."""


def wrap_int32(value: int) -> int:
    """``value`` as a C ``int`` after two's-complement wraparound.

    >>> wrap_int32(2**31), wrap_int32(-1), wrap_int32(2**32 + 5)
    (-2147483648, -1, 5)
    """
    value &= MASK32
    return value - (1 << 32) if value >= 1 << 31 else value


class RogueRandom:
    """Rogue 3.6.3's generator, bit for bit (the seed is a wrapping 32-bit C ``int``).

    Blocks of draws are computed at once by jumping ahead: after :math:`k` steps the seed
    is :math:`a^k s + c\\,(1 + a + \\dots + a^{k-1}) \\bmod 2^{32}`.

    >>> rogue = RogueRandom(seed=-5)
    >>> block = rogue.rn_block(3)
    >>> scalar = RogueRandom(seed=-5)
    >>> block.tolist() == [scalar.rn() for _ in range(3)], rogue.seed == scalar.seed
    (True, True)
    """

    name = "rogue"

    def __init__(self, seed: int = 0) -> None:
        self.seed = wrap_int32(seed)
        self._jumps: tuple[np.ndarray, np.ndarray] | None = None

    def rn(self) -> int:
        """One step of ``RN``: advance the seed, return ``(seed & 0x7fff) >> 1``."""
        self.seed = wrap_int32(self.seed * MULTIPLIER + INCREMENT)
        return (self.seed & 0x7FFF) >> 1

    def rnd(self, n: int) -> int:
        """Rogue's ``rnd(n)``: ``abs(RN) % n``, and 0 for ``n == 0``."""
        return 0 if n == 0 else abs(self.rn()) % n

    def rn_block(self, size: int) -> np.ndarray:
        """The next ``size`` values of ``RN`` (int64), advancing the seed past them."""
        if size <= 0:
            return np.zeros(0, dtype=np.int64)
        multipliers, offsets = self._jump_tables(size)
        start = np.uint64(self.seed & MASK32)
        seeds = (multipliers[:size] * start + offsets[:size]) & np.uint64(MASK32)
        self.seed = wrap_int32(int(seeds[-1]))
        return ((seeds & np.uint64(0x7FFF)) >> np.uint64(1)).astype(np.int64)

    def _jump_tables(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """:math:`A_k = a^k` and :math:`C_k = c(1 + \\dots + a^{k-1})` mod :math:`2^{32}` for
        k = 1..size, by doubling: :math:`A_{m+j} = A_j A_m`, :math:`C_{m+j} = A_j C_m + C_j`
        (products of two 32-bit numbers fit in uint64)."""
        if self._jumps is None or len(self._jumps[0]) < size:
            mask = np.uint64(MASK32)
            multipliers = np.array([MULTIPLIER], dtype=np.uint64)
            offsets = np.array([INCREMENT], dtype=np.uint64)
            while len(multipliers) < size:
                a_m, c_m = multipliers[-1], offsets[-1]
                multipliers = np.concatenate([multipliers, (multipliers * a_m) & mask])
                offsets = np.concatenate(
                    [offsets, (multipliers[: len(offsets)] * c_m + offsets) & mask]
                )
            self._jumps = (multipliers, offsets)
        return self._jumps

    def integers(self, n: int, size: int) -> np.ndarray:
        """``size`` calls of ``rnd(n)``."""
        return self.rn_block(size) % n

    def random(self, size: int) -> np.ndarray:
        """``RN / 2**14``: Rogue's draws as fractions of ``RN``'s range (14-bit resolution)."""
        return self.rn_block(size) / RN_RANGE


def random_source(name: str, seed: int | None = None) -> RandomSource:
    """The source called ``name`` (``"numpy"`` or ``"rogue"``), seeded.

    >>> random_source("rogue", 3).name
    'rogue'
    """
    if name == "numpy":
        return NumpyRandom(seed)
    if name == "rogue":
        return RogueRandom(0 if seed is None else seed)
    raise UsageError(f"unknown random source {name!r}; choose numpy or rogue")
