r"""Exact solutions of large sparse rational systems by refining a float LU.

Eliminating a cyclic component of thousands of states over the rationals carries
numbers as long as the answer (thousands of digits) through every step. Numeric-symbolic
iterative refinement (Z. Wan, "Computing the rational solution of linear systems by
numerical methods", 2006; the same lifting as Dixon's p-adic solver, 1982, in base
:math:`2^k` instead of :math:`p`) finds the answer's binary digits a few dozen at a time
with one float LU and exact integers that fit a machine word:

1. Each row of :math:`A` is scaled to integers, and the right-hand side, after the same
   scaling, to integers over one denominator :math:`\Delta`: :math:`A x = b/\Delta`
   with :math:`A, b` integral. :math:`A` holds a model's probabilities (short numbers);
   :math:`b` holds solved values (long numbers, fine: see 3).
2. The invariant is :math:`A N = D\,b - r` with integer vectors :math:`N`, :math:`r` and
   :math:`D = 2^e`, from :math:`N = 0,\ r = b,\ D = 1`.
3. A step solves :math:`A \hat x = r` in floats (the LU is factored once), rounds
   :math:`y = \lfloor 2^k \hat x \rceil`, and sets :math:`N \gets 2^k N + y`,
   :math:`r \gets 2^k r - A y`, :math:`D \gets 2^k D`. The new residual is computed
   exactly in 64-bit integers; it stays as small as the old one while :math:`2^k` is
   below the float solve's accuracy, so every step adds about :math:`k` bits (``k`` is
   adapted to the residual's growth: about :math:`53 - \log_2 \kappa(A)`). While
   :math:`r` is longer than a word (a long :math:`b`), steps take :math:`k = 0` and
   :math:`y` the leading bits of :math:`A^{-1} r`: the residual then shortens by about
   that many bits a step, in :math:`n` operations on long numbers (the products
   :math:`A y` stay in machine integers).
4. Since :math:`x - N/D = A^{-1} r / D`, the error is at most :math:`E/D` with
   :math:`E \approx \lVert \hat x \rVert_\infty` of the next step. A fraction
   :math:`a/q` with :math:`|x_j - a/q| \le E/D` and :math:`2Eq^2 < D` is a continued
   fraction convergent of :math:`N_j/D` (Legendre), so once :math:`D` is large enough
   every :math:`x_j` is recovered exactly. Cramer's rule and Hadamard's inequality bound
   the denominators (:meth:`IntegerSystem.determinant_bits`), so the lifting stops at the
   latest at twice that; it tries earlier, at checkpoints, on a random
   combination of the entries (whose denominator is their common one), as soon as its
   convergent leaves a margin of :data:`MARGIN` bits.
5. Whatever the floats did, the result is checked exactly, :math:`A m = L b` over the
   integers for :math:`x = m / (L \Delta)`, before it is returned; a failed check lifts
   further. The floats only decide how fast the lifting goes, never what it returns.

The cost grows with the length of the answer, not with that of every intermediate number:
the 4,453-digit value of two-player Chutes & Ladders (5,776 cyclic states) takes seconds
where elimination takes hours. Floats cannot tell a singular system from a non-singular
one; the signs and graph of :math:`A` can (:func:`chained_dominance`), and the lifting
starts only once they have.

>>> refined_solve([{0: mpq(1), 1: mpq(-1, 2)}, {0: mpq(-1, 3), 1: mpq(1)}], [[mpq(1, 2)], [mpq(0)]])
[[mpq(3,5)], [mpq(1,5)]]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import NonTerminationError
from ...util.numbers import Exact, integer_weights, mpq
from ...util.progress import Progress, progress_bar
from ...util.resources import check_memory

__all__ = [
    "IntegerSystem",
    "Lifting",
    "chained_dominance",
    "refined_solve",
    "singular_system",
]

#: A convergent is trusted (and checked exactly) only with this many spare bits.
MARGIN = 64
#: After a failed checkpoint the next comes when the precision has grown by this share.
CHECKPOINT_GROWTH = 0.15
#: A row's integer entries must sum, in absolute value, below ``2**ROW_BITS``.
ROW_BITS = 40
#: Steps in a row without a gain in precision before the lifting gives up.
STALLED_STEPS = 20
#: The most bits one step may add.
MAX_STEP_BITS = 52
_WORD = 62  # a residual times 2^k, and a rounded step, stay below 2^62
_FLOAT_EXACT = 52  # a residual this short converts to a float exactly


def singular_system() -> NonTerminationError:
    """The error of a singular system :math:`I - P`."""
    return NonTerminationError(
        "some states never reach a terminal state under this policy "
        "(the linear system I - P is singular)"
    )


class _RefinementFailed(Exception):
    """The floats were too inaccurate for the lifting to make progress."""


class IntegerSystem:
    r"""A rational system scaled to integers: row :math:`i` of ``rows`` (``{column:
    a_ij}``) times the least common multiple :math:`d_i` of its denominators is row
    :math:`i` of ``matrix``; column :math:`j` of ``rhs`` (times the same :math:`d_i`)
    is ``rhs[j] / denominators[j]`` with ``rhs[j]`` integral. :meth:`of` gives
    ``None`` when a row's integers are too long for machine-word products.

    >>> S = IntegerSystem.of([{0: mpq(1), 1: mpq(-1, 6)}, {1: mpq(5, 6)}], [[mpq(1, 4)], [mpq(2, 9)]])
    >>> S.matrix.toarray().tolist(), S.rhs[0].tolist(), S.denominators
    ([[6, -1], [0, 5]], [9, 8], [6])
    """

    __slots__ = ("denominators", "limb_bits", "matrix", "rhs", "scales")

    def __init__(
        self, matrix: Any, rhs: list[np.ndarray], denominators: list[int], scales: list[int]
    ) -> None:
        self.matrix, self.rhs, self.denominators = matrix, rhs, denominators
        self.scales = scales
        widest = int(abs(matrix).sum(axis=1).max()) if matrix.nnz else 1
        self.limb_bits = _WORD - widest.bit_length()

    @classmethod
    def of(
        cls, rows: Sequence[dict[int, Exact]], rhs: Sequence[Sequence[Exact]]
    ) -> IntegerSystem | None:
        """The scaled system, or ``None`` if a row's integers sum to ``ROW_BITS`` bits."""
        from scipy.sparse import csr_array

        n = len(rows)
        indptr = np.zeros(n + 1, dtype=np.int64)
        indices: list[int] = []
        data: list[int] = []
        scaled_rhs: list[list[Any]] = []
        scales: list[int] = []
        for i, row in enumerate(rows):
            row = {j: v for j, v in row.items() if v}  # the graph is that of the non-zeros
            weights, scale = integer_weights([mpq(v) for v in row.values()])
            scaled = [int(v) for v in weights]
            if sum(map(abs, scaled)).bit_length() >= ROW_BITS:
                return None
            indices.extend(row.keys())
            data.extend(scaled)
            indptr[i + 1] = len(data)
            scaled_rhs.append([mpq(v) * scale for v in rhs[i]])
            scales.append(int(scale))
        matrix = csr_array(
            (np.array(data, dtype=np.int64), np.array(indices, dtype=np.int64), indptr),
            shape=(n, n),
        )
        columns, denominators = [], []
        for column in zip(*scaled_rhs):
            whole, common = integer_weights(column)
            columns.append(np.array([int(v) for v in whole], dtype=object))
            denominators.append(int(common))
        return cls(matrix, columns, denominators, scales)

    def __len__(self) -> int:
        n: int = self.matrix.shape[0]
        return n

    def _limbs(self, y: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """:math:`A y_l` and its shift for the limbs :math:`y = \\sum_l y_l 2^{s_l}` of
        an ``int64`` vector with :math:`|y| < 2^{62}`, each product exact in 64 bits."""
        sign = np.where(y < 0, -1, 1).astype(np.int64)
        rest = np.abs(y)
        mask = np.int64((1 << self.limb_bits) - 1)
        products, shift = [], 0
        while rest.any():
            products.append((shift, self.matrix @ ((rest & mask) * sign)))
            rest = rest >> self.limb_bits
            shift += self.limb_bits
        return products

    def times(self, y: np.ndarray) -> np.ndarray:
        r""":math:`A y \bmod 2^{64}`, as ``uint64``, for ``int64`` :math:`|y| < 2^{62}`.

        >>> S = IntegerSystem.of([{0: mpq(5)}], [[mpq(0)]])
        >>> S.times(np.array([2**61], dtype=np.int64)).view(np.int64).tolist()  # wraps
        [-6917529027641081856]
        """
        total = np.zeros(y.shape, dtype=np.uint64)
        for shift, product in self._limbs(y):
            total += product.view(np.uint64) << np.uint64(shift)
        return total

    def exact_times(self, y: np.ndarray) -> np.ndarray:
        """:math:`A y` exactly, as Python integers, for ``int64`` :math:`|y| < 2^{62}`."""
        total = np.zeros(y.shape, dtype=object)
        for shift, product in self._limbs(y):
            total += np.array(product.tolist(), dtype=object) << shift
        return total

    def nonsingular(self) -> bool | None:
        r"""Whether :math:`A` is non-singular, decided exactly from its signs and
        graph (:func:`chained_dominance`), for the rational matrix by rows or by
        columns (:math:`A^T`: the systems of expected visits and stationary laws), or
        ``None`` when neither tells.

        >>> IntegerSystem.of([{0: mpq(1), 1: mpq(-1, 2)}, {1: mpq(1), 0: mpq(-1)}], [[1], [1]]).nonsingular()
        True
        >>> IntegerSystem.of([{0: mpq(1), 1: mpq(-1)}, {1: mpq(1), 0: mpq(-1)}], [[1], [1]]).nonsingular()
        False
        >>> by_columns = [{0: mpq(1), 1: mpq(-1, 3), 2: mpq(-1)}, {1: mpq(1, 3)}, {2: mpq(1)}]
        >>> IntegerSystem.of(by_columns, [[1]] * 3).nonsingular()
        True
        """
        A = self.matrix.tocoo()
        by_rows = chained_dominance(A.row, A.col, A.data.astype(object), len(self))
        if by_rows is not None:
            return by_rows
        # the rational matrix's columns: entry (i, j) is A_ij / d_i, scaled by lcm(d)
        common = math.lcm(*self.scales)
        weights = np.array([common // d for d in self.scales], dtype=object)
        return chained_dominance(A.col, A.row, A.data.astype(object) * weights[A.row], len(self))

    def determinant_bits(self) -> int:
        r"""Bits of Hadamard's bound on :math:`|\det A|`, the smaller of
        :math:`\prod_i \lVert A_{i\cdot} \rVert_2` (rows) and :math:`\prod_j \lVert
        A_{\cdot j} \rVert_2` (columns), rounded up: by Cramer's rule every entry of
        :math:`A^{-1} b` (:math:`b` integral) has a denominator dividing
        :math:`\det A`.

        >>> IntegerSystem.of([{0: mpq(3), 1: mpq(-4)}, {1: mpq(5)}], [[0], [0]]).determinant_bits()  # det 15
        6
        """
        A = self.matrix.tocoo()
        squares = A.data.astype(np.float64) ** 2
        by_rows = np.bincount(A.row, squares, minlength=len(self))
        by_columns = np.bincount(A.col, squares, minlength=len(self))
        bits = [0.5 * float(np.log2(np.maximum(sums, 1.0)).sum()) for sums in (by_rows, by_columns)]
        return math.ceil(min(bits) * (1 + 1e-12)) + 1

    def check(self, j: int, numerators: list[int], denominator: int) -> bool:
        """Whether :math:`A m = L b_j` exactly over the integers (``numerators``
        :math:`m`, ``denominator`` :math:`L`)."""
        A = self.matrix
        products = A.data.astype(object) * np.array(numerators, dtype=object)[A.indices]
        sums = np.zeros(len(self), dtype=object)
        np.add.at(sums, np.repeat(np.arange(len(self)), np.diff(A.indptr)), products)
        return bool(np.array_equal(sums, self.rhs[j] * denominator))


def chained_dominance(
    rows: np.ndarray, columns: np.ndarray, values: np.ndarray, n: int
) -> bool | None:
    r"""Whether the matrix with entries ``values`` at (``rows``, ``columns``) is
    non-singular, from its signs and graph, or ``None`` when they do not tell.

    It is *weakly chained diagonally dominant* when :math:`|a_{ii}| \ge \sum_{j \ne i}
    |a_{ij}|` in every row and every row reaches, along the non-zero entries, a row
    where the inequality is strict; such a matrix is non-singular (Shivakumar and Chew,
    1974). :math:`I - P` of a policy under which every state can leave is one. When
    every row is dominant but the rows reaching no strict row are a set :math:`S`, the
    diagonal :math:`\ge 0` and the rest :math:`\le 0`, :math:`S` is closed with row
    sums zero: :math:`A_{SS} \mathbf 1 = 0`, and the matrix is singular (the states of
    :math:`S` never leave).

    >>> chained_dominance(np.array([0, 0, 1]), np.array([0, 1, 1]), np.array([2, -1, 1]), 2)
    True
    """
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import breadth_first_order

    on = rows == columns
    diagonal = np.zeros(n, dtype=object)
    np.add.at(diagonal, rows[on], values[on])
    off = np.zeros(n, dtype=object)
    np.add.at(off, rows[~on], np.abs(values[~on]))
    if np.any(np.abs(diagonal) < off):
        return None
    # the rows reaching a strict row: forward from a virtual node n along reversed entries
    strict = np.flatnonzero(np.abs(diagonal) > off)
    sources = np.concatenate((columns[~on], np.full(len(strict), n)))
    targets = np.concatenate((rows[~on], strict))
    graph = csr_array((np.ones(len(sources)), (sources, targets)), shape=(n + 1, n + 1))
    if len(breadth_first_order(graph, n, directed=True, return_predecessors=False)) == n + 1:
        return True
    return False if np.all(diagonal >= 0) and np.all(values[~on] <= 0) else None


def refined_solve(
    rows: Sequence[dict[int, Exact]],
    rhs: Sequence[Sequence[Exact]],
    progress: bool = False,
) -> list[list[Exact]] | None:
    """The exact solution of ``A X = B`` (``rows[i]``: row ``i`` of ``A`` as
    ``{column: a_ij}``; ``rhs[i]``: row ``i`` of ``B``) by iterative refinement (module
    docstring), checked exactly; ``None`` when the method does not apply (a row too
    long for machine-word products, a matrix not known to be non-singular from its
    signs, a float LU too inaccurate): the caller then eliminates. Raises
    :class:`~exactprob.errors.NonTerminationError` for a singular :math:`I - P`. ``bar`` advances by the bits of precision gained.

    >>> refined_solve([{0: mpq(1), 1: mpq(-1, 2)}, {0: mpq(-1, 3), 1: mpq(1)}],
    ...               [[mpq(1, 2)], [mpq(0)]])
    [[mpq(3,5)], [mpq(1,5)]]
    """
    system = IntegerSystem.of(rows, rhs)
    n = len(rows)
    if system is None or n == 0:
        return None
    nonsingular = system.nonsingular()
    if nonsingular is False:
        raise singular_system()
    if nonsingular is None:
        return None
    try:
        lifting = Lifting(system)
        total = lifting.final_bits() * len(system.rhs)
        check_memory(lifting.memory(), f"the exact solve of a cyclic component of {n:,} states")
        with progress_bar(
            progress, f"lifting {len(system):,} states", total=total, unit=" bits"
        ) as bar:
            columns = [lifting.solve_column(j, bar) for j in range(len(system.rhs))]
    except _RefinementFailed:
        return None
    return [list(row) for row in zip(*columns)]


class Lifting:
    """A system's float LU, factored once, and the lifting of its right-hand sides."""

    def __init__(self, system: IntegerSystem) -> None:
        from scipy.sparse.linalg import splu

        self.system = system
        self.float_matrix = system.matrix.astype(np.float64).tocsc()
        self.abs_matrix = abs(self.float_matrix).tocsr()
        try:
            self.lu = splu(self.float_matrix)
        except RuntimeError:  # singular in floats
            raise _RefinementFailed from None
        self.widest_row = int(np.diff(system.matrix.indptr).max()) + 1

    def final_bits(self) -> int:
        """The precision (bits) at which every column is surely reconstructed: twice
        the bound on the denominators (:meth:`IntegerSystem.determinant_bits`), the
        margin, and the random combination's weights."""
        n = len(self.system)
        return 2 * self.system.determinant_bits() + MARGIN + 20 + 2 * n.bit_length()

    def memory(self) -> int:
        """Bytes the lifting may need, at most: the LU's factors, the steps kept between
        checkpoints (a word per state and about 40 bits), and each column's numbers of
        up to :meth:`final_bits` bits, a few copies of them while they are folded."""
        n, bits = len(self.system), self.final_bits()
        factors = 12 * int(self.lu.L.nnz + self.lu.U.nnz)
        return factors + len(self.system.rhs) * n * (8 * bits // 40 + 4 * bits // 8)

    def solve_column(self, j: int, bar: Progress | None = None) -> list[Exact]:
        """Column ``j`` of the solution: shorten a long residual (:meth:`_shorten`),
        then lift until a checkpoint's reconstruction passes the exact check."""
        system = self.system
        digits = _Digits(len(system))
        r = self._shorten(system.rhs[j].copy(), digits)
        exponent, step_bits, checkpoint, shown = 0, 30, 256.0, 0
        final = self.final_bits()
        best, stalled = -math.inf, 0
        x_hat = self._float_solve(r)
        while True:
            if not r.any():  # N / D is the exact solution
                return self._column(j, *_reduced(digits.fold().tolist(), 1 << exponent))
            error = 2 * math.ceil(float(np.abs(x_hat).max())) + 1
            precision = exponent - math.log2(error)
            best, stalled = (precision, 0) if precision > best else (best, stalled + 1)
            if stalled > STALLED_STEPS:  # the floats cannot shorten the residual
                raise _RefinementFailed
            if bar is not None and min(int(precision), final) > shown:
                bar.update(min(int(precision), final) - shown)
                shown = min(int(precision), final)
            if precision >= checkpoint:
                found = digits.reconstruct(exponent, error)
                if found is not None and system.check(j, *found):
                    return self._column(j, *found)
                if precision >= final:  # beyond Hadamard's bound: the floats misled
                    raise _RefinementFailed
                checkpoint = min(max(precision * (1 + CHECKPOINT_GROWTH), precision + 256), final)
            k, y, r_next = self._step(r, x_hat, step_bits)
            growth = _bits(r_next) - _bits(r)
            step_bits = (
                max(1, step_bits - growth - 1) if growth > 0 else min(MAX_STEP_BITS, step_bits + 1)
            )
            digits.add(k, y)
            exponent += k
            r = r_next
            x_hat = self._float_solve(r)

    def _column(self, j: int, numerators: list[int], denominator: int) -> list[Exact]:
        scale = denominator * self.system.denominators[j]
        return [mpq(m, scale) for m in numerators]

    def _shorten(self, r: np.ndarray, digits: _Digits) -> np.ndarray:
        r"""Steps with :math:`k = 0` while the residual is longer than a float holds
        exactly: :math:`y` is :math:`A^{-1} r` to 62 bits (shifted up as needed), and
        :math:`r - A y` drops about as many bits as the float solve has right. Returns
        the residual as ``int64``."""
        while (size := _bits(r)) > _FLOAT_EXACT:
            drop = size - _FLOAT_EXACT
            x_hat = self._float_solve((r >> drop).astype(np.float64))
            shift = max(0, drop - (_WORD - 1 - _float_bits(x_hat)))
            y = np.rint(np.ldexp(x_hat, drop - shift)).astype(np.int64)
            r = r - (self.system.exact_times(y) << shift)
            if _bits(r) > size - 8:  # the floats do not shorten it
                raise _RefinementFailed
            digits.add(0, np.array(y.tolist(), dtype=object) << shift)
        return r.astype(np.int64)

    def _step(
        self, r: np.ndarray, x_hat: np.ndarray, wanted: int
    ) -> tuple[int, np.ndarray, np.ndarray]:
        """One lifting step of about ``wanted`` bits: :math:`k`, :math:`y` and the new
        residual :math:`2^k r - A y`, with :math:`k` smaller where :math:`2^k r` or
        :math:`y` would leave 62 bits, or where the residual would (then halved)."""
        room = min(_WORD - _bits(r), _WORD - 1 - _float_bits(x_hat))
        k = max(0, min(wanted, room))
        while True:
            y = np.rint(np.ldexp(x_hat, k)).astype(np.int64)
            shifted = r << k
            r_next = (shifted.view(np.uint64) - self.system.times(y)).view(np.int64)
            if self._plausible(shifted, y, r_next):
                return k, y, r_next
            if k == 0:
                raise _RefinementFailed
            k //= 2

    def _plausible(self, shifted: np.ndarray, y: np.ndarray, r_next: np.ndarray) -> bool:
        r"""Whether the residual computed modulo :math:`2^{64}` is the true one: it must
        agree with a float evaluation of :math:`2^k r - A y` within that evaluation's
        rounding bound (:math:`\gamma_m \sum_j |a_{ij} y_j|`, :math:`m` the widest row)
        and stay below :math:`2^{61}`. (A wrong residual could only slow the lifting:
        the result is checked exactly.)"""
        approx = shifted.astype(np.float64) - self.float_matrix @ y.astype(np.float64)
        scale = np.abs(shifted).astype(np.float64) + self.abs_matrix @ np.abs(y).astype(np.float64)
        slack = scale * (self.widest_row * 2.0**-52) + 2.0
        if np.any(np.abs(approx) + slack >= 2.0**61):
            return False
        return bool(np.all(np.abs(r_next.astype(np.float64) - approx) <= slack))

    def _float_solve(self, r: np.ndarray) -> np.ndarray:
        x: np.ndarray = self.lu.solve(r.astype(np.float64))
        if not np.all(np.isfinite(x)):
            raise _RefinementFailed
        return x


class _Digits:
    r"""The lifted numerators :math:`N` and a random combination :math:`c = \sum_j w_j
    N_j` of them. Steps :math:`(k_i, y_i)` update :math:`c` as they come
    (:math:`c \gets 2^{k_i} c + w \cdot y_i`) and are folded into :math:`N` only when
    :math:`c`'s convergent is found: by halves (:math:`N = 2^{k_R} N_L + N_R` for a run
    of steps split into left and right), so each long number is built in
    :math:`O(\log s)` passes over :math:`s` steps instead of one per step."""

    def __init__(self, n: int) -> None:
        self.value = np.zeros(n, dtype=object)
        self.steps: list[tuple[int, np.ndarray]] = []
        rng = random.Random(n)
        self.weights = np.array([rng.randrange(1, 1 << 16) for _ in range(n)], dtype=object)
        self.combined = 0

    def add(self, k: int, y: np.ndarray) -> None:
        r"""One more step: :math:`N \gets 2^k N + y`."""
        self.steps.append((k, y))
        self.combined = (self.combined << k) + int(np.dot(self.weights, y.astype(object)))

    def fold(self) -> np.ndarray:
        """:math:`N`, with every step so far folded in."""
        if self.steps:
            tail, shift = _fold(self.steps)
            self.value = (self.value << shift) + tail
            self.steps = []
        return self.value

    def reconstruct(self, exponent: int, error: int) -> tuple[list[int], int] | None:
        r"""Numerators :math:`m` and a denominator :math:`L` with :math:`x = m/L`, from
        :math:`N/D \approx x` (:math:`|x_j - N_j/D| \le E/D`, :math:`D = 2^e`);
        ``None`` when the precision does not yet suffice. The convergent of
        :math:`c/D` gives the common denominator :math:`L` (that of
        :math:`\sum_j w_j x_j`); then :func:`_entries`. Unchecked: the caller checks
        :math:`A m = L b` exactly.

        >>> digits = _Digits(2)
        >>> digits.add(200, np.array([2**200 // 3, 2**200 // 7], dtype=object))
        >>> digits.reconstruct(40, 3), digits.reconstruct(200, 3)  # 1/3, 1/7
        (None, ([7, 3], 21))
        """
        D = 1 << exponent
        fraction = _convergent(self.combined, D, error * int(self.weights.sum()))
        if fraction is None:
            return None
        return _entries(self.fold(), exponent, error, fraction.denominator)


def _fold(steps: list[tuple[int, np.ndarray]]) -> tuple[np.ndarray, int]:
    if len(steps) == 1:
        k, y = steps[0]
        return np.array(y.tolist(), dtype=object), k
    half = len(steps) // 2
    left, k_left = _fold(steps[:half])
    right, k_right = _fold(steps[half:])
    return (left << k_right) + right, k_left + k_right


def _bits(v: np.ndarray) -> int:
    """Bits of the largest absolute value in an integer array."""
    return int(np.abs(v).max()).bit_length() if len(v) else 0


def _float_bits(v: np.ndarray) -> int:
    """Bits of the integer part of the largest absolute value in a float array."""
    top = float(np.abs(v).max()) if len(v) else 0.0
    return math.frexp(top)[1] if top >= 1 else 0


def _reduced(numerators: list[int], denominator: int) -> tuple[list[int], int]:
    common = math.gcd(denominator, *numerators)
    return [v // common for v in numerators], denominator // common


def _entries(N: np.ndarray, exponent: int, error: int, L: int) -> tuple[list[int], int] | None:
    r"""Each :math:`x_j` as :math:`m_j / L`: :math:`L N_j / D` rounded, unless that is not
    within :math:`LE/D` of an integer (an entry whose denominator does not divide
    :math:`L`: reconstructed alone, and :math:`L` grows); reduced. ``None`` if an entry
    has no convergent yet.

    >>> _entries(np.array([2**100 // 3, 2**100 // 5], dtype=object), 100, 3, 3)
    ([5, 3], 15)
    """
    tolerance = L * error
    half = 1 << exponent >> 1
    numerators: list[int] = []
    for v in N.tolist():
        t = L * v
        m = (t + half) >> exponent  # L N_j / D, rounded
        if abs(t - (m << exponent)) > tolerance:
            alone = _convergent(v, 1 << exponent, error)
            if alone is None:
                return None
            grow = alone.denominator // math.gcd(L, alone.denominator)
            L *= grow
            tolerance = L * error
            numerators = [u * grow for u in numerators]
            m = alone.numerator * (L // alone.denominator)
        numerators.append(m)
    return _reduced(numerators, L)


def _convergent(numerator: int, D: int, error: int) -> Fraction | None:
    r"""The fraction :math:`a/q` closest to :math:`N/D` with :math:`2E q^2 2^{M} \le D`
    (:data:`MARGIN` bits :math:`M` to spare), if it lies within :math:`E/D` of it: the
    only candidate Legendre's theorem leaves for a value known to that error.

    >>> _convergent(2**100 // 3, 2**100, 1)
    Fraction(1, 3)
    """
    most = math.isqrt(D // ((2 * error) << MARGIN))
    if most < 1:
        return None
    f = Fraction(numerator, D).limit_denominator(most)
    if abs(numerator * f.denominator - f.numerator * D) > error * f.denominator:
        return None
    return f
