"""A report's values declared once, for its JSON and its text alike.

A :class:`ReportField` is one value a report gives: its JSON key, its label in the text, and
the value. :func:`json_fields` writes a list of them as JSON fields (the exact fraction
and its decimal twin, or what ``render`` makes of the value) and :func:`field_lines` as
the text's aligned lines (:func:`~exactprob.util.text.table_lines`), so a value both
forms show is named, computed and ordered in one place.

>>> from fractions import Fraction
>>> rows = [ReportField("win", "attacker wins", Fraction(1, 4)), ReportField("rounds", "rounds", 3)]
>>> json_fields(rows)
{'win': '1/4', 'win_decimal': '0.250000000000', 'rounds': '3', 'rounds_decimal': '3.000000000000'}
>>> field_lines(rows)
['  attacker wins  0.2500000000 = 1/4', '  rounds         3']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .numbers import exact_fields
from .text import table_lines

__all__ = ["ReportField", "field_lines", "json_fields"]


@dataclass(frozen=True)
class ReportField:
    """One value of a report: ``key`` in its JSON, ``label`` in its text."""

    key: str
    label: str
    value: Any


def json_fields(
    fields: Iterable[ReportField], render: Callable[[str, Any], dict[str, Any]] = exact_fields
) -> dict[str, Any]:
    """The fields as JSON, in order: ``render(key, value)`` of each (by default the exact
    ``"p/q"`` and its ``_decimal`` twin)."""
    payload: dict[str, Any] = {}
    for field in fields:
        payload |= render(field.key, field.value)
    return payload


def field_lines(fields: Iterable[ReportField], indent: str = "  ") -> list[str]:
    """The fields as the text's aligned ``label  value`` lines, in order."""
    return table_lines([(field.label, field.value) for field in fields], indent)
