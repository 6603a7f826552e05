"""Exact numbers in readable text, one style for every subcommand and report:

- a decimal has :data:`PLACES` places after the point; a nonzero value below
  :math:`10^{-3}` in size, or one of :math:`10^{12}` or more, has ``PLACES`` significant
  digits in scientific notation (:func:`decimal_text`);
- an exact value is its decimal, then ``=`` and its fraction (``0.3626543210 = 235/648``);
  a whole number is written alone; a fraction longer than :data:`MAX_FRACTION_CHARS`
  characters is summarised by its digit counts, and ``--json`` carries it whole
  (:func:`exact_text`);
- an algebraic or symbolic value is its decimal, then ``=`` and its expression; an
  expression in free symbols is written alone;
- a certified enclosure is its midpoint's decimal and how far the exact value may lie
  from it (:func:`enclosure_text`).

Tables of exact values align their labels (:func:`table_lines`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .numbers import (
    decimal_exponent,
    decimal_string,
    exact,
    fraction_string,
    is_symbolic,
    readable_decimal,
)

__all__ = [
    "MAX_FRACTION_CHARS",
    "PLACES",
    "agreed_decimal",
    "bound_text",
    "certified_decimal",
    "count_text",
    "decimal_text",
    "duration_text",
    "enclosure_text",
    "exact_text",
    "short_repr",
    "table_lines",
]

#: Places after the point of every decimal in text (significant digits when scientific).
PLACES = 10
#: Longer fractions are summarised in text output (JSON always has them in full).
MAX_FRACTION_CHARS = 80


def decimal_text(value: Any) -> str:
    """The decimal of an exact value as text shows it, rounded exactly (half to even); of
    a certified enclosure (exact ``low`` and ``high`` ends), its midpoint's.

    >>> from fractions import Fraction
    >>> decimal_text(Fraction(1, 3)), decimal_text(Fraction(1, 6**10))
    ('0.3333333333', '1.653817169e-8')
    """
    if hasattr(value, "low") and hasattr(value, "high"):
        value = (Fraction(value.low) + Fraction(value.high)) / 2
    return readable_decimal(value, PLACES)


def exact_text(value: Any) -> str:
    """An exact value as text: ``decimal = fraction``, a whole number alone, a long
    fraction summarised; a certified enclosure (a value with exact ``low`` and ``high``
    ends) as :func:`enclosure_text` writes it.

    >>> from fractions import Fraction
    >>> exact_text(Fraction(1, 8)), exact_text(Fraction(56))
    ('0.1250000000 = 1/8', '56')
    >>> exact_text(Fraction(10**50 + 1, 3 * 10**50))
    '0.3333333333 (exact: a 51-digit over a 51-digit integer; see --json)'
    >>> import sympy
    >>> exact_text(3 * sympy.sqrt(11) / 2), exact_text(sympy.Symbol("p") ** 2)
    ('4.9749371855 = 3*sqrt(11)/2', 'p**2')
    """
    if hasattr(value, "low") and hasattr(value, "high"):
        return enclosure_text(value.low, value.high)
    if is_symbolic(value):
        if value.free_symbols:
            return str(value)
        if value.is_Rational:
            value = exact(value)
    text = fraction_string(value)
    symbolic = is_symbolic(value)
    whole = not symbolic and "/" not in text
    if len(text) <= MAX_FRACTION_CHARS:
        return text if whole else f"{decimal_text(value)} = {text}"
    if whole:
        digits = len(text.lstrip("-"))
        return f"{decimal_text(value)} (exact: a {digits}-digit integer; see --json)"
    if symbolic:
        return f"{decimal_text(value)} (exact: a {len(text)}-character expression; see --json)"
    numerator, _, denominator = text.partition("/")
    return (
        f"{decimal_text(value)} (exact: a {len(numerator.lstrip('-'))}-digit over a "
        f"{len(denominator)}-digit integer; see --json)"
    )


def enclosure_text(low: Any, high: Any) -> str:
    """A certified value, the exact one in ``[low, high]``: the decimal of the midpoint
    and how far from that decimal the exact value may be (:func:`certified_decimal`).

    >>> from fractions import Fraction
    >>> enclosure_text(Fraction(1, 4) - Fraction(1, 10**14), Fraction(1, 4) + Fraction(1, 10**14))
    '0.2500000000 (certified: the exact value is within 1.0e-14)'
    >>> enclosure_text(Fraction(1, 2), Fraction(1, 2))
    '0.5000000000 = 1/2'
    """
    low, high = Fraction(low), Fraction(high)
    if low == high:
        return exact_text(low)
    shown, bound = certified_decimal(low, high)
    return f"{shown} (certified: the exact value is within {bound})"


def certified_decimal(low: Any, high: Any) -> tuple[str, str]:
    """The decimal of ``[low, high]``'s midpoint, and a bound on how far the exact value,
    anywhere in the interval, lies from that decimal (not from the midpoint: the
    rounding counts too), two significant digits rounded up.

    >>> from fractions import Fraction
    >>> certified_decimal(Fraction(1, 3) - Fraction(1, 10**14), Fraction(1, 3) + Fraction(1, 10**14))
    ('0.3333333333', '3.4e-11')
    """
    low, high = Fraction(low), Fraction(high)
    shown = decimal_text((low + high) / 2)
    value = Fraction(shown)
    far = max(high - value, value - low)
    return shown, bound_text(far)


def agreed_decimal(low: Any, high: Any, most_places: int) -> str:
    """The value in ``[low, high]`` to as many places (at most ``most_places``) as both
    ends agree on: both round (half to even) to that decimal, so every value between them
    does too.

    >>> from fractions import Fraction
    >>> agreed_decimal(Fraction(1234, 10**4), Fraction(1239, 10**4), 40)
    '0.12'
    >>> agreed_decimal(1 - Fraction(1, 10**40), Fraction(1), 39)
    '1.000000000000000000000000000000000000000'
    """
    places = 0
    while places < most_places and decimal_string(low, places + 1) == decimal_string(
        high, places + 1
    ):
        places += 1
    return decimal_string(low, places)


def bound_text(size: Fraction) -> str:
    """``size`` >= 0 to two significant digits in scientific notation, rounded up, so the
    bound shown is still a bound; ``"0"`` for 0.

    >>> bound_text(Fraction(1, 3)), bound_text(Fraction(1, 10**14)), bound_text(Fraction(0))
    ('3.4e-1', '1.0e-14', '0')
    """
    if size == 0:
        return "0"
    exponent = decimal_exponent(size)
    tenths = -(-size * 10 / Fraction(10) ** exponent // 1)  # ceiling, in [10, 100]
    if tenths == 100:
        exponent, tenths = exponent + 1, 10
    return f"{tenths // 10}.{tenths % 10}e{exponent}"


def duration_text(seconds: float) -> str:
    """A measured time, whole (a float, not an exact value): milliseconds below 10 s.

    >>> duration_text(0.0064), duration_text(956.57)
    ('6 ms', '957 s')
    """
    return f"{round(seconds * 1000):,} ms" if seconds < 10 else f"{round(seconds):,} s"


def short_repr(value: Any, most: int = 40) -> str:
    """``repr(value)``, cut to ``most`` characters with an ellipsis (for a state named in
    a one-line message).

    >>> short_repr((1, 2)), short_repr(list(range(30)), 12)
    ('(1, 2)', '[0, 1, 2, 3…')
    """
    text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "…"


def count_text(n: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, in the plural (by default the noun and an ``s``) but for one.

    >>> count_text(1, "level"), count_text(2_500, "level"), count_text(3, "entry", "entries")
    ('1 level', '2,500 levels', '3 entries')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def table_lines(rows: list[tuple[str, Any]], indent: str = "  ") -> list[str]:
    """Aligned ``label  value`` lines for exact values.

    >>> from fractions import Fraction
    >>> table_lines([("win", Fraction(1, 4)), ("rounds", Fraction(3))])
    ['  win     0.2500000000 = 1/4', '  rounds  3']
    """
    width = max((len(label) for label, _ in rows), default=0)
    return [f"{indent}{label:<{width}}  {exact_text(value)}" for label, value in rows]
