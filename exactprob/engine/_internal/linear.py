r"""Exact linear solves for the cyclic parts of a state graph.

A cyclic component under a fixed policy is the system

.. math::

    (I - P_{SS})\,x = B

where :math:`P_{SS}` holds the probabilities of moves inside the component and the
right-hand side :math:`B` the contributions of states already solved. When every state
of the component reaches a terminal state with probability one, :math:`I - P_{SS}` is a
non-singular M-matrix: every leading principal minor is positive, so Gaussian
elimination with diagonal pivots never meets a zero pivot. A zero pivot therefore proves
that some state never terminates.

Three exact methods, chosen by size: from :data:`REFINE_LIMIT` states on, the digits of
the answer lifted from a float LU and checked exactly (:mod:`.refine`: its cost grows
with the length of the answer, not with that of every intermediate number); below it, or
where that does not apply, sparse elimination of states one by one in ``gmpy2.mpq``
(each step is a do-over renormalisation of the eliminated state followed by
substitution), and dense LU through sympy's ``DomainMatrix`` (FLINT when installed) for
small dense systems and for fields of several symbols. Rational functions of one symbol
are eliminated sparsely too, their polynomials in FLINT (:mod:`.univariate`).

>>> x = solve_linear(RATIONAL, [{0: mpq(1), 1: mpq(-1, 2)}, {0: mpq(-1, 2), 1: mpq(1)}],
...                  [[mpq(1, 2)], [mpq(0)]])
>>> x
[[mpq(2,3)], [mpq(1,3)]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import mul
from typing import Any

from ...util.numbers import Exact, exact, is_symbolic, mpq, rational_dot, to_fraction, to_sympy
from .refine import refined_solve, singular_system

__all__ = ["RATIONAL", "Field", "field_for", "solve_linear", "symbolic_field"]

#: Systems up to this size (and dense enough) go to the dense FLINT solver.
DENSE_LIMIT = 60
#: Rational systems up to this size are eliminated directly in ``mpq`` (no conversion).
SMALL_LIMIT = 8
#: Rational systems from this size are solved by refining a float LU (:mod:`.refine`).
REFINE_LIMIT = 200


class Field:
    """The exact field a solve works in: rationals (``gmpy2.mpq``), rational functions of
    one symbol (:class:`~.univariate.RationalFunction`, FLINT polynomials), or sympy's
    fraction field :math:`\\mathbb{Q}(p_1, \\dots, p_k)` for several symbols."""

    __slots__ = ("_domain", "symbols")

    def __init__(self, symbols: tuple[Any, ...] = ()) -> None:
        self.symbols = symbols
        self._domain: Any = None

    @property
    def domain(self) -> Any:
        """The sympy domain (``QQ`` or a fraction field), imported when first needed:
        sympy takes a fifth of a second to load, and a rational solve rarely needs it."""
        if self._domain is None:
            from sympy.polys.domains import QQ

            self._domain = QQ.frac_field(*self.symbols) if self.symbols else QQ
        return self._domain

    @property
    def symbolic(self) -> bool:
        """True for a field of rational functions."""
        return bool(self.symbols)

    @property
    def univariate(self) -> bool:
        """True for rational functions of one symbol (elements in FLINT)."""
        return len(self.symbols) == 1

    def convert(self, x: Any) -> Exact:
        """An exact scalar (or sympy expression) as an element of this field."""
        if self.univariate:
            from .univariate import RationalFunction, from_sympy_field

            if isinstance(x, RationalFunction):
                return x
            if is_symbolic(x):
                return from_sympy_field(self.domain.from_sympy(x))
            return from_sympy_field(exact(x))
        if self.symbolic:
            if self.domain.of_type(x):
                return x
            return self.domain.from_sympy(to_sympy(x))
        return exact(x)

    def public(self, x: Exact) -> Any:
        """A field element as the user sees it: ``Fraction``, or a factored sympy expression."""
        if self.symbolic:
            import sympy

            if self.univariate:
                from .univariate import factored

                return factored(x, self.symbols[0])
            return sympy.factor(self.domain.to_sympy(x))
        return to_fraction(x)

    def comparable(self) -> bool:
        """Whether elements can be ordered (rationals: yes; rational functions: no)."""
        return not self.symbolic

    def dot(self, weights: Iterable[Exact], values: Iterable[Exact]) -> Exact:
        r""":math:`\sum_i w_i v_i` for elements of this field; over the rationals with
        one reduction at the end (:func:`~exactprob.util.numbers.rational_dot`).

        >>> RATIONAL.dot([mpq(1, 2), mpq(1, 2)], [mpq(1, 3), mpq(2, 3)])
        mpq(1,2)
        """
        if self.symbolic:
            return sum(map(mul, weights, values), self.convert(0))
        return rational_dot(weights, values)


RATIONAL = Field()


def symbolic_field(symbols: Sequence[Any]) -> Field:
    """The field of rational functions in ``symbols`` (sorted by name)."""
    return Field(tuple(sorted(set(symbols), key=str)))


def field_for(values: Sequence[Any]) -> Field:
    """The smallest field holding ``values``: ``RATIONAL`` unless some are symbolic.

    >>> field_for([mpq(1, 2)]) is RATIONAL
    True
    """
    symbols: set[Any] = set()
    for v in values:
        if is_symbolic(v):
            symbols |= to_sympy(v).free_symbols
    return symbolic_field(list(symbols)) if symbols else RATIONAL


def solve_linear(
    field: Field,
    rows: Sequence[dict[int, Exact]],
    rhs: Sequence[Sequence[Exact]],
    *,
    progress: bool = False,
) -> list[list[Exact]]:
    """Solve ``A X = B`` exactly; ``rows[i]`` is row ``i`` of ``A`` as ``{column: a_ij}``,
    ``rhs[i]`` row ``i`` of ``B``. Raises :class:`NonTerminationError` when singular.
    ``progress``: a bar on a long refinement (:func:`~.refine.refined_solve`)."""
    n = len(rows)
    if not field.symbolic and n <= SMALL_LIMIT:
        return _sparse_solve(rows, rhs)
    if not field.symbolic and n >= REFINE_LIMIT:
        refined = refined_solve(rows, rhs, progress)
        if refined is not None:
            return refined
    if field.univariate:  # sparse elimination in FLINT: sympy's dense LU cancels in Python
        return _sparse_solve([{j: field.convert(v) for j, v in r.items()} for r in rows], rhs)
    nonzeros = sum(len(r) for r in rows)
    if field.symbolic or (n <= DENSE_LIMIT and nonzeros * 4 > n * n):
        return _dense_solve(field, rows, rhs)
    return _sparse_solve(rows, rhs)


def _dense_solve(
    field: Field, rows: Sequence[dict[int, Exact]], rhs: Sequence[Sequence[Exact]]
) -> list[list[Exact]]:
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

    K = field.domain
    n, k = len(rows), len(rhs[0]) if rhs else 0
    to_k: Callable[[Any], Any] = (
        (lambda x: x) if field.symbolic else (lambda x: K(int(x.numerator), int(x.denominator)))
    )
    A = DomainMatrix(
        {i: {j: to_k(a) for j, a in r.items() if a} for i, r in enumerate(rows)}, (n, n), K
    )
    B = DomainMatrix(
        {i: {j: to_k(b) for j, b in enumerate(r) if b} for i, r in enumerate(rhs)}, (n, k), K
    )
    try:
        X = A.to_dense().lu_solve(B.to_dense())
    except (DMNonInvertibleMatrixError, ZeroDivisionError):
        raise singular_system() from None
    out: list[list[Exact]] = X.to_list()
    if field.symbolic:
        return out
    return [[mpq(int(K.numer(x)), int(K.denom(x))) for x in row] for row in out]


def _sparse_solve(
    rows: Sequence[dict[int, Exact]], rhs: Sequence[Sequence[Exact]]
) -> list[list[Exact]]:
    """Gaussian elimination on sparse rows in index order, then back substitution."""
    n = len(rows)
    a = [dict(r) for r in rows]
    b = [list(r) for r in rhs]
    users: list[set[int]] = [set() for _ in range(n)]  # users[j]: rows i != j with a_ij != 0
    for i, r in enumerate(a):
        for j in r:
            if j != i:
                users[j].add(i)
    for k in range(n):
        pivot = a[k].pop(k, 0)
        if pivot == 0:
            raise singular_system()
        row_k = {j: v / pivot for j, v in a[k].items()}
        rhs_k = [v / pivot for v in b[k]]
        a[k], b[k] = row_k, rhs_k
        for i in users[k]:
            factor = a[i].pop(k, None) if i > k else None
            if factor is None:  # an eliminated row, or an entry that cancelled to zero
                continue
            row_i = a[i]
            for j, v in row_k.items():
                new = row_i.get(j, 0) - factor * v
                if new:
                    row_i[j] = new
                    if j != i:
                        users[j].add(i)
                else:
                    row_i.pop(j, None)
            b[i] = [x - factor * y for x, y in zip(b[i], rhs_k)]
        users[k] = set()
    x: list[list[Exact]] = [[] for _ in range(n)]
    for k in range(n - 1, -1, -1):
        acc = list(b[k])
        for j, v in a[k].items():
            acc = [s - v * t for s, t in zip(acc, x[j])]
        x[k] = acc
    return x
