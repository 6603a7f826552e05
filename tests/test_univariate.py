"""exactprob.engine._internal.univariate: rational functions of one variable in FLINT.

The oracle is sympy's own fraction field :math:`\\mathbb{Q}(p)` (its ``cancel``), which
shares no code with the FLINT arithmetic: every operation on random rational functions is
compared with sympy's, and elements come back to sympy in its canonical form (equal, as
sympy compares them, to the same function built by sympy).
"""

from __future__ import annotations

import operator

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.polys.domains import QQ

from exactprob.engine._internal.linear import solve_linear, symbolic_field
from exactprob.engine._internal.univariate import factored, from_sympy_field, to_sympy_field

P = sympy.Symbol("p")
K = QQ.frac_field(P)

coefficient = st.fractions(min_value=-19, max_value=19, max_denominator=6)
coefficients = st.lists(coefficient, max_size=4)


def polynomial(cs):
    return sum((sympy.Rational(c.numerator, c.denominator) * P**k for k, c in enumerate(cs)), 0)


@st.composite
def rational_functions(draw):
    numerator = polynomial(draw(coefficients))
    denominator = polynomial(draw(coefficients)) or 1 + P
    return K.from_sympy(sympy.cancel(numerator / denominator))


OPERATIONS = [operator.add, operator.sub, operator.mul, operator.truediv]


@settings(max_examples=150, deadline=None)
@given(rational_functions(), rational_functions(), st.sampled_from(OPERATIONS))
def test_arithmetic_agrees_with_sympys_field(a, b, op):
    if op is operator.truediv and not b:
        with pytest.raises(ZeroDivisionError):
            op(from_sympy_field(a), from_sympy_field(b))
        return
    ours = to_sympy_field(K, op(from_sympy_field(a), from_sympy_field(b)))
    assert ours == op(a, b)  # sympy compares canonical numerators and denominators
    assert ours.numer == op(a, b).numer and ours.denom == op(a, b).denom


@settings(max_examples=80, deadline=None)
@given(rational_functions())
def test_the_round_trip_is_sympys_canonical_form(a):
    back = to_sympy_field(K, from_sympy_field(a))
    assert (back.numer, back.denom) == (a.numer, a.denom)
    assert bool(from_sympy_field(a)) == bool(a)


def test_constants_mix_with_elements():
    half = from_sympy_field(K.from_sympy(P / 2))
    assert to_sympy_field(K, 1 - half) == K.from_sympy(1 - P / 2)
    assert half * 2 == from_sympy_field(K.from_sympy(P)) and half != 0
    assert to_sympy_field(K, 1 / half) == K.from_sympy(2 / P)


def test_a_one_symbol_chain_is_solved_in_flint():
    # gambler's ruin to 6 from each fortune: (1 - r^i) / (1 - r^6), r = (1 - p) / p
    field = symbolic_field([P])
    rows, rhs = [], []
    for i in range(5):
        row = {i: field.convert(1)}
        if i < 4:
            row[i + 1] = field.convert(-P)
        if i > 0:
            row[i - 1] = field.convert(P - 1)
        rows.append(row)
        rhs.append([field.convert(P if i == 4 else 0)])
    x = solve_linear(field, rows, rhs)
    r = (1 - P) / P
    for i, value in enumerate(x, start=1):
        assert sympy.cancel(field.public(value[0]) - (1 - r**i) / (1 - r**6)) == 0


@st.composite
def products(draw):
    """A rational function built as a product of small factors to powers, so that
    factoring has repeated and several factors to find."""
    factors = draw(st.lists(st.tuples(coefficients, st.integers(-3, 3)), max_size=4))
    value = sympy.Rational(draw(st.integers(-12, 12)) or 1, draw(st.integers(1, 12)))
    for cs, power in factors:
        base = polynomial(cs)
        if base != 0:
            value *= base**power
    return K.from_sympy(sympy.cancel(value))


@settings(max_examples=300, deadline=None)
@given(st.one_of(rational_functions(), products()))
def test_factored_is_sympys_factor(x):
    """The FLINT factorisation comes back as the very expression sympy.factor makes (equal
    as sympy compares trees, and printed alike)."""
    expected = sympy.factor(K.to_sympy(x))
    got = factored(from_sympy_field(x), P)
    assert got == expected and str(got) == str(expected)
    assert sympy.latex(got) == sympy.latex(expected)
