"""exactprob.util.latex_printer: sympy's LaTeX, to the byte, faster on polynomials.

The oracle is ``sympy.latex`` itself: random polynomials in one symbol (several names,
Greek and subscripted among them) with rational coefficients, alone and inside the
factored rational functions a derivation prints, and expressions the fast path must
leave to sympy (two symbols, non-rational coefficients, negative powers).
"""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactprob.util.latex_printer import latex_expression

SYMBOLS = [sympy.Symbol(name) for name in ("p", "theta", "p_1", "alpha2")]
SYMBOLS.append(sympy.Symbol("q", positive=True))

coefficient = st.builds(
    sympy.Rational,
    st.integers(-12, 12),
    st.sampled_from([1, 1, 2, 3, 7, 10**12]),
)


@st.composite
def polynomials(draw, symbol=None):
    x = symbol if symbol is not None else draw(st.sampled_from(SYMBOLS))
    cs = draw(st.lists(coefficient, max_size=7))
    return sum((c * x**n for n, c in enumerate(cs)), sympy.Integer(0))


@st.composite
def expressions(draw):
    """A polynomial, a factored quotient of two, a power of one over another, or a sum
    the fast path must leave alone."""
    x = draw(st.sampled_from(SYMBOLS))
    a, b = draw(polynomials(x)), draw(polynomials(x))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return a
    if kind == 1:
        return sympy.factor(a / (b + 1))
    if kind == 2:
        return draw(coefficient) * a ** draw(st.integers(1, 3)) / (x**2 + b + 1)
    if kind == 3:
        return a + sympy.Symbol("y") * b  # two symbols
    return a + sympy.sqrt(2) * x + 1 / (x + 3)  # an irrational coefficient, a quotient


@settings(max_examples=400, deadline=None)
@given(expressions())
def test_the_latex_is_sympys_to_the_byte(expr) -> None:
    assert latex_expression(expr) == sympy.latex(expr)


def test_a_positive_constant_comes_before_one_negative_term() -> None:
    """sympy writes a two-term sum of a positive number and a negative multiple first by
    the number; longer sums and other signs highest power first."""
    p = sympy.Symbol("p")
    cases = [3 - 7 * p, 3 - p**2, -7 * p - 3, 1 - p + p**2, -(p**2) + 3 * p]
    assert [latex_expression(e) for e in cases] == [
        "3 - 7 p",
        "3 - p^{2}",
        "- 7 p - 3",
        "p^{2} - p + 1",
        "- p^{2} + 3 p",
    ]
    assert all(latex_expression(e) == sympy.latex(e) for e in cases)
