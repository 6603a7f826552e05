"""exactprob.util.numbers: conversion in, conversion out, decimal formatting.

Expected values are worked out by hand in the comments, or by an independent oracle
(Python's ``decimal`` module with ROUND_HALF_EVEN at high precision).
"""

from __future__ import annotations

import decimal
import math
import re
from fractions import Fraction as F

import flint
import gmpy2
import numpy as np
import pytest
import sympy
from hypothesis import example, given
from hypothesis import strategies as st

from exactprob import ExactProbError, InexactError
from exactprob.errors import ModelError
from exactprob.util.numbers import (
    common_denominator_dots,
    decimal_string,
    exact,
    fraction_string,
    is_symbolic,
    mpq,
    parse_fraction,
    rational_dot,
    to_fraction,
    to_public,
    to_sympy,
)

MPQ = type(mpq(0))


def same(q, expected):
    """``q`` is a gmpy2 mpq equal to the Fraction ``expected``."""
    return type(q) is MPQ and F(int(q.numerator), int(q.denominator)) == expected


# -- exact(): accepted inputs -------------------------------------------------------------


@pytest.mark.parametrize(
    "x, expected",
    [
        (0, F(0)),
        (7, F(7)),
        (-3, F(-3)),
        (10**40 + 1, F(10**40 + 1)),
        (F(2, 6), F(1, 3)),
        (F(-5, 10), F(-1, 2)),
        (mpq(3, 12), F(1, 4)),
        (gmpy2.mpz(5), F(5)),
        (flint.fmpq(3, 4), F(3, 4)),
        (flint.fmpz(-2), F(-2)),
        (sympy.Rational(2, 6), F(1, 3)),
        (sympy.Integer(9), F(9)),
    ],
)
def test_exact_numbers(x, expected):
    assert same(exact(x), expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1/6", F(1, 6)),
        ("3/12", F(1, 4)),  # reduced
        (" 3/4 ", F(3, 4)),  # surrounding blanks are ignored
        ("-1/2", F(-1, 2)),
        ("1/-2", F(-1, 2)),
        ("7", F(7)),
        ("0.125", F(1, 8)),  # 125/1000
        ("-0.125", F(-1, 8)),
        ("0.1", F(1, 10)),  # the decimal 0.1, not the binary float near it
        ("1e-3", F(1, 1000)),
        ("2.50", F(5, 2)),
    ],
)
def test_exact_strings(text, expected):
    assert same(exact(text), expected)


@pytest.mark.parametrize(
    "text", ["", "abc", "1/2/3", "1/0", "nan", "inf", "-Infinity", "1/x", "0x10"]
)
def test_exact_bad_strings(text):
    with pytest.raises(InexactError):
        exact(text)


def test_exact_division_by_zero_message():
    with pytest.raises(InexactError, match="zero"):
        exact("1/0")


# -- exact(): refused inputs --------------------------------------------------------------


@pytest.mark.parametrize("x", [0.1, 0.3, 1e-5, 2.0**-30, 1e300, 2.0**60, float("nan")])
def test_floats_whose_decimal_is_not_their_value_are_refused(x):
    # 0.1 is stored as 3602879701896397 / 2**55; 2**-30 is exact but prints as 9.3e-10
    with pytest.raises(InexactError) as info:
        exact(x)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert isinstance(info.value, ExactProbError)


@pytest.mark.parametrize(
    "x, suggested",
    [(0.1, "1/10"), (1 / 3, "1/3"), (2.0**60, str(2**60)), (2.0**-30, f"1/{2**30}")],
)
def test_float_message_names_an_exact_value_to_pass(x, suggested):
    """The simplest fraction that rounds to the float (what was likely meant), or the
    float's own binary value; either one, passed, is taken exactly."""
    with pytest.raises(InexactError, match=f"such as '{re.escape(suggested)}'"):
        exact(x)
    assert float(exact(suggested)) == x


@pytest.mark.parametrize(
    "x, value",
    [
        (0.5, F(1, 2)),
        (-0.75, F(-3, 4)),
        (0.375, F(3, 8)),
        (3.0, F(3)),
        (0.0, F(0)),
        (2.0**-20, F(1, 2**20)),
        (np.float64(0.25), F(1, 4)),
    ],
)
def test_floats_printed_exactly_are_taken_exactly(x, value):
    assert same(exact(x), value)


@given(st.integers(1, 2**40), st.integers(0, 40))
def test_a_float_is_taken_when_its_whole_decimal_is_short(numerator, power):
    """m/2^k = m 5^k / 10^k is a decimal with as many significant digits as m 5^k has once
    its trailing zeros go. Up to 15 digits no shorter decimal lies within half a unit in the
    last place (2^-53 relative), so Python prints it whole and it is taken; past 17 digits
    the float cannot print whole, and is refused."""
    digits = len(str(numerator * 5**power).rstrip("0"))
    x = numerator / 2**power
    if digits <= 15:
        assert same(exact(x), F(numerator, 2**power))
    elif digits > 17:
        with pytest.raises(InexactError):
            exact(x)


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_refused_with_inexact_error(x):
    with pytest.raises(InexactError):
        exact(x)


@pytest.mark.parametrize("x", [True, False])
def test_bools_refused(x):
    with pytest.raises(InexactError, match="boolean"):
        exact(x)


@pytest.mark.parametrize("x", [None, [1], 1j, object(), b"1/2"])
def test_other_types_refused(x):
    with pytest.raises(InexactError):
        exact(x)


def test_sympy_float_refused():
    with pytest.raises(InexactError):
        exact(sympy.Float("0.5"))


@pytest.mark.parametrize("x", [sympy.nan, sympy.oo, sympy.zoo, sympy.I])
def test_sympy_non_real_refused(x):
    with pytest.raises(InexactError):
        exact(x)


# -- symbolic values -----------------------------------------------------------------------


def test_sympy_expressions_stay_symbolic():
    p = sympy.Symbol("p")
    e = exact(1 - p)
    assert is_symbolic(e) and sympy.expand(e - (1 - p)) == 0


@pytest.mark.parametrize("irrational", [sympy.sqrt(2), sympy.sqrt(2) / 2, sympy.pi])
def test_irrational_constants_refused(irrational):
    # no field of rational functions holds them: the solver would mix them into mpq
    with pytest.raises(InexactError, match="is not a rational number"):
        exact(irrational)


def test_huge_decimal_exponent_refused_quickly():
    with pytest.raises(InexactError, match="exponent"):
        exact("1e-99999999")


def test_decimal_string_of_huge_values_and_bad_digits():
    assert decimal_string(F(10**5000, 3), 3) == "3" * 5000 + "." + "3" * 3
    with pytest.raises(InexactError, match="digits must be a whole number >= 0"):
        decimal_string(F(1, 3), -1)


def test_is_symbolic():
    p = sympy.Symbol("p")
    assert is_symbolic(p) and is_symbolic(sympy.Rational(1, 2))
    assert not is_symbolic(F(1, 2)) and not is_symbolic(mpq(1, 2)) and not is_symbolic(3)


# -- conversions out -------------------------------------------------------------------------


def test_to_fraction_and_public():
    assert to_fraction(mpq(2, 6)) == F(1, 3) and type(to_fraction(mpq(2, 6))) is F
    assert type(to_public(mpq(3, 4))) is F and to_public(mpq(3, 4)) == F(3, 4)
    assert type(to_public(5)) is F and to_public(5) == 5
    p = sympy.Symbol("p")
    assert to_public(p) is p


def test_to_sympy():
    r = to_sympy(F(1, 3))
    assert isinstance(r, sympy.Rational) and r == sympy.Rational(1, 3)
    assert to_sympy(mpq(-5, 10)) == sympy.Rational(-1, 2)
    assert to_sympy("0.25") == sympy.Rational(1, 4)
    p = sympy.Symbol("p")
    assert to_sympy(p) is p


# -- decimal_string --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, digits, expected",
    [
        (F(1, 3), 5, "0.33333"),
        (F(2, 3), 4, "0.6667"),  # 0.66666... rounds up
        (F(1, 8), 2, "0.12"),  # 12.5 -> 12 (half to even)
        (F(3, 8), 2, "0.38"),  # 37.5 -> 38 (half to even)
        (F(5, 8), 2, "0.62"),  # 62.5 -> 62
        (F(7, 8), 2, "0.88"),  # 87.5 -> 88
        (F(-1, 8), 2, "-0.12"),  # -12.5 -> -12
        (F(-3, 8), 2, "-0.38"),  # -37.5 -> -38
        (F(-15, 1000), 2, "-0.02"),  # -1.5 -> -2
        (F(-25, 1000), 2, "-0.02"),  # -2.5 -> -2
        (F(-1, 1000), 2, "0.00"),  # rounds to zero: no "-0.00"
        (F(5, 2), 0, "2"),  # 2.5 -> 2
        (F(7, 2), 0, "4"),  # 3.5 -> 4
        (F(-7, 2), 0, "-4"),
        (F(3), 3, "3.000"),
        (F(-1, 3), 3, "-0.333"),
        (F(1, 10**6), 5, "0.00000"),  # 0.1 at scale 10**5 rounds to 0
        (F(10**20 + 1, 3), 2, "33333333333333333333.67"),  # 33333333333333333333.666...
        (F(7776, 10961), 5, "0.70942"),
    ],
)
def test_decimal_string(x, digits, expected):
    assert decimal_string(x, digits) == expected


@given(st.fractions(max_denominator=10**40), st.integers(0, 25))
def test_decimal_string_is_python_s_half_even_round(x, digits):
    """Python's exact ``round`` of a Fraction (half to even) is the oracle."""
    n = round(x * 10**digits)
    sign = "-" if n < 0 else ""
    whole, frac = divmod(abs(n), 10**digits)
    expected = f"{sign}{whole}" + (f".{frac:0{digits}d}" if digits else "")
    assert decimal_string(x, digits) == expected
    assert decimal_string(mpq(x.numerator, x.denominator), digits) == expected


def test_decimal_string_default_digits_and_inputs():
    assert decimal_string(F(1, 3)) == "0." + "3" * 12
    assert decimal_string("1/6", 3) == "0.167"
    assert decimal_string(mpq(1, 4), 1) == "0.2"  # 2.5 -> 2
    assert decimal_string(2, 2) == "2.00"


def test_decimal_string_symbolic():
    assert decimal_string(sympy.sqrt(2), 5) == "1.41421"
    assert decimal_string(sympy.pi, 10) == "3.1415926536"
    assert decimal_string(sympy.Rational(1, 8), 2) == "0.12"  # exactly half: to even
    with pytest.raises(InexactError):
        decimal_string(sympy.I, 3)


def _decimal_oracle(q: F, digits: int) -> str:
    """Independent: Python's decimal module, ROUND_HALF_EVEN, enough precision."""
    with decimal.localcontext() as ctx:
        ctx.prec = 200
        d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        rounded = d.quantize(decimal.Decimal(1).scaleb(-digits), rounding=decimal.ROUND_HALF_EVEN)
        text = format(rounded, "f")  # plain notation (str() may give '0E-7')
    if text.startswith("-") and set(text[1:]) <= {"0", "."}:
        text = text[1:]  # the engine writes 0.00, not -0.00
    return text


@given(
    st.fractions(max_denominator=10**6).filter(lambda q: abs(q) < 10**30),
    st.integers(min_value=0, max_value=12),
)
@example(F(0), 7)
def test_decimal_string_matches_decimal_module(q, digits):
    assert decimal_string(q, digits) == _decimal_oracle(q, digits)


@given(st.integers(-(10**6), 10**6), st.integers(0, 6))
def test_decimal_string_exact_halves(k, digits):
    # k + 1/2 units of the last place: an exact tie, rounded to the even neighbour
    q = F(2 * k + 1, 2 * 10**digits)
    assert decimal_string(q, digits) == _decimal_oracle(q, digits)


# -- fraction_string -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, expected",
    [
        (F(7776, 10961), "7776/10961"),
        (mpq(2), "2"),
        (F(-1, 3), "-1/3"),
        ("0.25", "1/4"),
        (6, "6"),
        (F(4, 6), "2/3"),
    ],
)
def test_fraction_string(x, expected):
    assert fraction_string(x) == expected


def test_fraction_string_symbolic():
    p = sympy.Symbol("p")
    assert fraction_string(p / 2) == "p/2"


@given(st.fractions())
def test_fraction_string_round_trips(q):
    assert F(fraction_string(q)) == q
    assert same(exact(fraction_string(q)), q)


@pytest.mark.parametrize("text", ["１/2", "0.5_0", "1_0", "٣/4"])
def test_exact_numbers_are_written_in_ascii_digits(text: str) -> None:
    # the same rule as parse_whole: int() and Decimal() would read these silently
    with pytest.raises(InexactError):
        exact(text)
    with pytest.raises(ModelError):
        parse_fraction("--odds", text, 0, 1)


@given(
    st.lists(
        st.tuples(
            st.fractions(max_denominator=10**30),
            st.fractions(max_denominator=10**30),
        ),
        max_size=8,
    )
)
def test_rational_dot_equals_the_fraction_sum(terms):
    """One reduction over the lcm of the denominators gives the same reduced rational as
    adding Fractions term by term (Python's own arithmetic)."""
    weights = [mpq(w.numerator, w.denominator) for w, _ in terms]
    values = [mpq(v.numerator, v.denominator) for _, v in terms]
    assert same(rational_dot(weights, values), sum((w * v for w, v in terms), F(0)))


@given(
    st.lists(st.fractions(max_denominator=10**30), min_size=1, max_size=6),
    st.lists(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 5)), max_size=6), max_size=4),
)
def test_common_denominator_dots_equal_the_fraction_sums(values, rows):
    """Every row's integer-weighted sum of values, read off as N_k / D, equals the sum in
    Fractions; rows may read the same value (scaled once) or none."""
    rows = [[(a, t % len(values)) for a, t in row] for row in rows]
    numerators, denominator = common_denominator_dots(
        [([a for a, _ in row], [t for _, t in row]) for row in rows],
        [mpq(v.numerator, v.denominator) for v in values],
    )
    assert denominator > 0 and len(numerators) == len(rows)
    for row, n in zip(rows, numerators):
        assert F(int(n), int(denominator)) == sum((a * values[t] for a, t in row), F(0))


def test_decimal_inputs_are_limited_to_4000_digits():
    """Python reads at most 4,300 digits into an int; a longer typed-in number (digits and
    exponent together) is refused up front, in one line, not deep inside a command."""
    assert exact("1e-3999") == F(1, 10**3999)
    for text in ("1e-4001", "1e4001", "0." + "1" * 4000):
        with pytest.raises(InexactError, match="at most 4,000 digits"):
            exact(text)


def test_a_number_too_long_to_read_is_a_public_error_naming_the_limit():
    import exactprob as ep

    with pytest.raises(ep.NumberTooLongError, match="at most 4,000 digits") as caught:
        ep.Dist({1: "1" * 5000})
    assert isinstance(caught.value, ep.InexactError)
