"""Exact numbers in readable text: a decimal with its fraction, and aligned tables of them
(the subcommands' and the games' text reports; JSON always carries the full fractions)."""

from __future__ import annotations

from typing import Any

from .numbers import decimal_string, fraction_string

__all__ = ["MAX_FRACTION_CHARS", "exact_text", "table_lines"]

#: Longer fractions are summarised in text output (JSON always has them in full).
MAX_FRACTION_CHARS = 80


def exact_text(value: Any, digits: int = 10) -> str:
    """``"0.1234567890 = 12/97"``; a long fraction is summarised by its digit counts.

    >>> from fractions import Fraction
    >>> exact_text(Fraction(1, 8), 3)
    '0.125 = 1/8'
    >>> exact_text(Fraction(10**50 + 1, 3 * 10**50), 3)
    '0.333 (exact: a 51-digit over a 51-digit integer; see --json)'
    """
    decimal = decimal_string(value, digits)
    text = fraction_string(value)
    if len(text) <= MAX_FRACTION_CHARS:
        return f"{decimal} = {text}"
    numerator, _, denominator = text.partition("/")
    return (
        f"{decimal} (exact: a {len(numerator.lstrip('-'))}-digit over a {len(denominator)}-digit "
        "integer; see --json)"
    )


def table_lines(rows: list[tuple[str, Any]], indent: str = "  ", digits: int = 10) -> list[str]:
    """Aligned ``label  value`` lines for exact values."""
    width = max((len(label) for label, _ in rows), default=0)
    return [f"{indent}{label:<{width}}  {exact_text(value, digits)}" for label, value in rows]
