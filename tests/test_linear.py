"""exactprob.engine._internal.linear: the exact linear solves behind cyclic components.

The oracle is ``sympy.Matrix.LUsolve`` (and ``det`` to classify singular systems), plus
the Fraction Gauss-Jordan ``models.gauss_solve`` which is itself checked against sympy.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import gauss_solve

from exactprob import NonTerminationError
from exactprob.engine._internal.linear import (
    DENSE_LIMIT,
    RATIONAL,
    _dense_solve,
    _sparse_solve,
    field_for,
    solve_linear,
    symbolic_field,
)
from exactprob.util.numbers import mpq


def fr(x):
    return F(int(x.numerator), int(x.denominator))


def sympy_solution(P, B):
    """``(I - P)^-1 B`` by sympy, or None when singular."""
    n = len(P)
    A = sympy.eye(n) - sympy.Matrix(n, n, lambda i, j: sympy.Rational(P[i][j]))
    if A.det() == 0:
        return None
    X = A.LUsolve(sympy.Matrix(B).applyfunc(sympy.Rational))
    return [[F(str(X[i, j])) for j in range(X.cols)] for i in range(n)]


def as_rows(P):
    """Sparse rows of I - P in mpq, as the solver builds them."""
    rows = []
    for i, r in enumerate(P):
        row = {i: mpq(1)}
        for j, p in enumerate(r):
            if p:
                row[j] = row.get(j, mpq(0)) - mpq(p.numerator, p.denominator)
        rows.append({j: v for j, v in row.items() if v})
    return rows


def as_rhs(B):
    return [[mpq(x.numerator, x.denominator) for x in row] for row in B]


def unpack(x):
    return [[fr(v) for v in row] for row in x]


@st.composite
def chains(draw, max_n=7, leak=True):
    """Substochastic P (n x n) and a right-hand side B (n x k).

    With ``leak`` every row keeps some probability outside (so I - P is non-singular);
    without it rows may be stochastic and the system may be singular.
    """
    n = draw(st.integers(1, max_n))
    k = draw(st.integers(1, 3))
    P = []
    for _ in range(n):
        weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        out = draw(st.integers(1, 4) if leak else st.sampled_from([0, 0, 0, 1, 3]))
        if not leak and sum(weights) + out == 0:
            out = 1
        total = sum(weights) + out
        P.append([F(w, total) for w in weights])
    B = [[F(draw(st.integers(-5, 5)), draw(st.integers(1, 4))) for _ in range(k)] for _ in range(n)]
    return P, B


@settings(max_examples=80)
@given(chains())
def test_sparse_and_dense_agree_with_sympy(chain):
    P, B = chain
    expected = sympy_solution(P, B)
    assert expected is not None  # leaky rows: I - P is a non-singular M-matrix
    assert unpack(_sparse_solve(as_rows(P), as_rhs(B))) == expected
    assert unpack(_dense_solve(RATIONAL, as_rows(P), as_rhs(B))) == expected
    assert unpack(solve_linear(RATIONAL, as_rows(P), as_rhs(B))) == expected


@settings(max_examples=80)
@given(chains(max_n=5, leak=False))
def test_singular_systems_raise_non_termination(chain):
    P, B = chain
    expected = sympy_solution(P, B)
    if expected is None:
        with pytest.raises(NonTerminationError):
            _sparse_solve(as_rows(P), as_rhs(B))
        with pytest.raises(NonTerminationError):
            _dense_solve(RATIONAL, as_rows(P), as_rhs(B))
    else:
        assert unpack(_sparse_solve(as_rows(P), as_rhs(B))) == expected
        assert unpack(_dense_solve(RATIONAL, as_rows(P), as_rhs(B))) == expected


@pytest.mark.parametrize(
    "P",
    [
        [[F(1)]],  # a state that loops on itself forever
        [[0, F(1)], [F(1), 0]],  # a 2-cycle with no exit
        [[0, F(1, 2), F(1, 2)], [F(1), 0, 0], [F(1), 0, 0]],  # closed class {0,1,2}
        [[F(1, 2), 0], [0, F(1)]],  # state 1 closed, state 0 leaks
    ],
)
def test_explicit_singular_examples(P):
    P = [[F(x) for x in r] for r in P]
    B = [[F(1)] for _ in P]
    assert sympy_solution(P, B) is None
    for solve in (lambda r, b: _sparse_solve(r, b), lambda r, b: _dense_solve(RATIONAL, r, b)):
        with pytest.raises(NonTerminationError, match="never reach"):
            solve(as_rows(P), as_rhs(B))


def test_gauss_oracle_against_sympy():
    A = [[F(2), F(1), F(-1)], [F(-3), F(-1), F(2)], [F(-2), F(1), F(2)]]
    b = [[F(8)], [F(-11)], [F(-3)]]
    # the classical example: x = 2, y = 3, z = -1
    assert gauss_solve(A, b) == [[F(2)], [F(3)], [F(-1)]]
    assert gauss_solve([[F(1), F(2)], [F(2), F(4)]], [[F(1)], [F(2)]]) is None


def test_large_sparse_path_fair_ruin():
    # Fair gambler's ruin on 0..N with N = 101: h(i) = i/N solves
    # h(i) = h(i-1)/2 + h(i+1)/2 with h(0) = 0, h(N) = 1 (n = 100 > DENSE_LIMIT, sparse).
    N = 101
    n = N - 1
    assert n > DENSE_LIMIT
    rows = []
    rhs = []
    for i in range(1, N):
        row = {i - 1: mpq(1)}
        if i > 1:
            row[i - 2] = mpq(-1, 2)
        if i < N - 1:
            row[i] = mpq(-1, 2)
        rows.append(row)
        rhs.append([mpq(1, 2) if i == N - 1 else mpq(0)])
    x = solve_linear(RATIONAL, rows, rhs)
    assert [fr(v[0]) for v in x] == [F(i, N) for i in range(1, N)]
    assert unpack(_dense_solve(RATIONAL, rows, rhs)) == unpack(x)


def test_symbolic_dense_solve():
    # (I - P) x = b with P = [[0, p], [q, 0]], b = (q, 0)... written out:
    # x0 - p x1 = 1 - p, x1 - (1 - p) x0 = 0  =>  x0 = (1 - p) / (1 - p (1 - p))
    p = sympy.Symbol("p")
    field = symbolic_field([p])
    rows = [
        {0: field.convert(1), 1: field.convert(-p)},
        {0: field.convert(p - 1), 1: field.convert(1)},
    ]
    rhs = [[field.convert(1 - p)], [field.convert(0)]]
    x = solve_linear(field, rows, rhs)
    x0 = field.public(x[0][0])
    assert sympy.cancel(x0 - (1 - p) / (1 - p * (1 - p))) == 0
    assert sympy.cancel(field.public(x[1][0]) - (1 - p) * x0) == 0


def test_field_for():
    p, r = sympy.symbols("p r")
    assert field_for([mpq(1, 2), mpq(3)]) is RATIONAL
    f = field_for([mpq(1, 2), p * r, 1 - p])
    assert f.symbolic and set(f.symbols) == {p, r}
    assert not f.comparable() and RATIONAL.comparable()
