"""exactprob.util.text: the one way text writes exact, certified and bounded values.

Oracles: the definitions, checked in exact rationals (a bound is at least what it bounds
and has two significant digits; a certified decimal is within its bound of every point of
the interval; an outward-rounded interval contains the exact one)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from exactprob import Enclosure
from exactprob.util.text import bound_text, certified_decimal

positive = st.fractions(min_value=Fraction(1, 10**40), max_value=Fraction(10**15))


@given(positive)
def test_a_bound_is_at_least_its_size_and_two_digits_long(size: Fraction) -> None:
    shown = bound_text(size)
    mantissa, _, exponent = shown.partition("e")
    assert len(mantissa) == 3 and Fraction(mantissa) * Fraction(10) ** int(exponent) >= size
    # the next two-digit number down is below the size: the bound is the least one
    below = (Fraction(mantissa) - Fraction(1, 10)) * Fraction(10) ** int(exponent)
    assert below < size


@given(
    st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**20),
    st.fractions(min_value=0, max_value=Fraction(1, 10), max_denominator=10**20),
)
def test_a_certified_decimal_is_within_its_bound_of_the_whole_interval(
    low: Fraction, width: Fraction
) -> None:
    high = low + width
    shown, bound = certified_decimal(low, high)
    mantissa, _, exponent = shown.partition("e")
    value = Fraction(mantissa) * Fraction(10) ** int(exponent or 0)
    mantissa, _, exponent = bound.partition("e")
    far = Fraction(mantissa) * Fraction(10) ** int(exponent or 0)
    assert abs(high - value) <= far and abs(value - low) <= far


def test_a_wide_matchup_cell_rounds_its_ends_outward() -> None:
    from exactprob.games.jeopardy.report import _short

    low, high = Fraction("0.12345678906"), Fraction("0.98765432104")
    shown = _short(Enclosure(low, high)).strip("[]").split(", ")
    assert Fraction(shown[0]) <= low and high <= Fraction(shown[1])
