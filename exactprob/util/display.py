r"""Rich display in Jupyter: distributions, solutions and results as HTML and LaTeX.

Jupyter shows an object through its ``_repr_html_`` (or ``_repr_latex_``) method; the
classes of exactprob call the functions here. Every number shown is exact: a probability
as :math:`p/q` beside its decimal expansion, rounded from the exact value in integers
(:func:`~exactprob.util.numbers.decimal_string`), never through a float. A distribution's bar
lengths are :math:`\lfloor 100\, p / p_{\max} \rceil` percent of the longest bar, also
computed exactly.

Long distributions show their first and last :data:`ROWS` // 2 outcomes and say how many
are left out.

>>> from exactprob import dice
>>> print(dist_latex(dice(1, 2)))
$\begin{array}{r|l} x & P(X = x) \\ \hline 1 & \frac{1}{2} \\ 2 & \frac{1}{2} \end{array}$
"""

from __future__ import annotations

import copy
import html
import numbers
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from typing import Any

from .mathdoc import latex_number, math_text
from .numbers import decimal_string, fraction_string, is_symbolic, mpq, readable_decimal
from .text import MAX_FRACTION_CHARS, exact_text

__all__ = [
    "ROWS",
    "JsonDisplay",
    "Report",
    "dist_html",
    "dist_latex",
    "exact_html",
    "json_html",
    "rows_html",
    "solution_html",
]

#: The most outcomes a distribution's display lists (first half and last half).
ROWS = 40
#: Decimal places shown beside an exact value.
PLACES = 6

_TABLE = '<table class="exactprob">'
_MPQ = type(mpq(0))
_FRACTION = re.compile(r"-?[0-9]+/[0-9]+")
_BAR = (
    '<div style="background:#2a5d9f;height:0.9em;width:{width}%;min-width:1px" '
    'title="{width}% of the largest"></div>'
)


def exact_html(value: Any) -> str:
    r"""An exact value as HTML: ``p/q ≈ decimal``; a symbolic value as LaTeX between
    inline-math delimiters, which Jupyter typesets.

    >>> from fractions import Fraction
    >>> exact_html(Fraction(1, 3))
    '1/3 <small>≈ 0.333333</small>'
    >>> exact_html(Fraction(1, 2))
    '1/2'
    >>> import sympy
    >>> exact_html((1 - sympy.Symbol("p")) ** 2)[2:-2]  # the LaTeX, inside the delimiters
    '\\left(1 - p\\right)^{2}'
    """
    if isinstance(value, tuple):  # one payoff per seat
        return "(" + ", ".join(exact_html(v) for v in value) + ")"
    if is_symbolic(value):
        import sympy

        return html.escape(f"\\({sympy.latex(value)}\\)")
    if not _is_number(value) and not isinstance(value, _MPQ):
        return html.escape(str(value))
    value = mpq(value)
    text = fraction_string(value)
    if len(text) > MAX_FRACTION_CHARS:  # as text shows it: the decimal and the digit counts
        return html.escape(exact_text(value))
    if mpq(decimal_string(value, PLACES)) == value:  # a terminating expansion says nothing new
        return text
    return f"{text} <small>≈ {readable_decimal(value, PLACES)}</small>"


def _listed(
    items: list[tuple[Any, Any]], row: Callable[[Any, Any], str], gap: Callable[[int], str]
) -> list[str]:
    """``row(x, p)`` for each outcome a display lists (all, or the first and last
    ``ROWS // 2``), with ``gap(n)`` in place of the ``n`` left out."""
    if len(items) <= ROWS:
        return [row(x, p) for x, p in items]
    half = ROWS // 2
    return [
        *(row(x, p) for x, p in items[:half]),
        gap(len(items) - 2 * half),
        *(row(x, p) for x, p in items[-half:]),
    ]


def dist_html(dist: Any) -> str:
    """A distribution as an HTML table: each outcome, its exact probability and a bar."""
    items = [(x, dist[x]) for x in dist]
    symbolic = dist.symbolic
    largest = None if symbolic else max(p for _, p in items)

    def row(x: Any, p: Any) -> str:
        bar = "" if largest is None else _BAR.format(width=round(100 * p / largest))
        return f"<tr><td>{html.escape(repr(x))}</td><td>{exact_html(p)}</td><td>{bar}</td></tr>"

    def gap(n: int) -> str:
        return f'<tr><td colspan="3"><i>… {n:,} more outcomes …</i></td></tr>'

    caption = f"{len(items):,} outcome{'s' if len(items) != 1 else ''}"
    if not symbolic and all(_is_number(x) for x, _ in items):
        caption += f"; mean {exact_html(dist.mean())}"
    return (
        f"{_TABLE}<caption>Dist: {caption}</caption>"
        "<thead><tr><th>outcome</th><th>probability</th><th></th></tr></thead>"
        f"<tbody>{''.join(_listed(items, row, gap))}</tbody></table>"
    )


def dist_latex(dist: Any) -> str:
    """A distribution as a LaTeX array of outcomes and exact probabilities."""
    lines = _listed(
        [(x, dist[x]) for x in dist],
        lambda x, p: f"{_latex(x)} & {_latex(p)}",
        lambda n: rf"\vdots & \text{{{n:,} more}}",
    )
    body = r" \\ ".join(lines)
    return rf"$\begin{{array}}{{r|l}} x & P(X = x) \\ \hline {body} \end{{array}}$"


def solution_html(solution: Any, title: str) -> str:
    """A solved model as HTML (any :class:`~exactprob.engine.results.Solved`): its value at the
    start, the chosen action there and every action that may be optimal with it."""
    action = solution.policy()
    value = solution.value()
    enclosed = hasattr(value, "_repr_html_")  # an enclosure shows itself
    rows = [("value at the start", value._repr_html_() if enclosed else exact_html(value))]
    if action is None:
        rows.append(("the start", "is terminal"))
    else:
        ties = solution.ties()
        rows.append(("best action at the start", html.escape(repr(action))))
        tied = ", ".join(html.escape(repr(a)) for a in ties) if len(ties) > 1 else "none"
        label = "actions not ruled out there" if enclosed else "exactly tied actions there"
        rows.append((label, tied))
    return rows_html(title, rows)


def rows_html(title: str, rows: Iterable[tuple[str, str]]) -> str:
    """A two-column HTML table with a caption (the cells are HTML already).

    >>> rows_html("T", [("a", "1")])
    '<table class="exactprob"><caption>T</caption><tbody><tr><th>a</th><td>1</td></tr></tbody></table>'
    """
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"{_TABLE}<caption>{html.escape(title)}</caption><tbody>{body}</tbody></table>"


def json_html(title: str, payload: Mapping[str, Any]) -> str:
    """A result's ``to_json()`` as an HTML table, nested keys joined by dots: an exact
    ``"p/q"`` string shown with its decimal (its ``_decimal`` twin, which says the same,
    left out), a list of records as a table of its own, a list of values as one line.

    >>> json_html("R", {"win": "1/3", "win_decimal": "0.333", "rows": [{"k": 1, "p": "1/2"}]})
    '<table class="exactprob"><caption>R</caption><tbody><tr><th>win</th><td>1/3 <small>≈ 0.333333</small></td></tr><tr><th>rows</th><td><table class="exactprob"><thead><tr><th>k</th><th>p</th></tr></thead><tbody><tr><td>1</td><td>1/2</td></tr></tbody></table></td></tr></tbody></table>'
    """
    return rows_html(title, ((html.escape(k), _json_cell(v)) for k, v in _flat(payload)))


def _flat(payload: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in _untwinned(payload).items():
        if isinstance(value, Mapping):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _untwinned(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` without the ``_decimal`` twins that say what their key's cell shows
    already: the decimal of an exact ``"p/q"`` (a symbolic value keeps its twin)."""
    return {
        k: v
        for k, v in record.items()
        if not (
            isinstance(k, str)
            and k.endswith("_decimal")
            and _shows_its_decimal(record.get(k[: -len("_decimal")]))
        )
    }


def _shows_its_decimal(value: Any) -> bool:
    """Whether a JSON value's cell shows its decimal: an exact ``"p/q"``, or a list or map
    of them."""
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        return bool(value) and all(_shows_its_decimal(v) for v in value)
    return isinstance(value, str) and _FRACTION.fullmatch(value) is not None


def _json_cell(value: Any) -> str:
    if isinstance(value, str) and _FRACTION.fullmatch(value):
        return exact_html(mpq(value))
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        return _records_html(value)
    if isinstance(value, list):
        return ", ".join(_json_cell(v) for v in value)
    return html.escape(str(value))


def _records_html(records: list[Mapping[str, Any]]) -> str:
    """A list of JSON records (one row each) as an HTML table."""
    rows = [_untwinned(record) for record in records]
    columns = list(dict.fromkeys(k for row in rows for k in row))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_json_cell(row.get(c, ''))}</td>" for c in columns) + "</tr>"
        for row in rows
    )
    return f"{_TABLE}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _is_number(x: object) -> bool:
    return isinstance(x, numbers.Rational) and not isinstance(x, bool)


def _latex(x: Any) -> str:
    """A value in LaTeX: a number or sympy expression in full
    (:func:`~exactprob.util.mathdoc.latex_number`), anything else as escaped text."""
    if is_symbolic(x) or _is_number(x):
        return latex_number(x, max_digits=None)
    return math_text(repr(x))


class JsonDisplay:
    """A base for results with ``to_json()``: Jupyter shows them as a table
    (:func:`json_html`)."""

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def _repr_html_(self) -> str:
        return json_html(type(self).__name__, self.to_json())


class Report(JsonDisplay):
    """A game's answer to one question (what a subcommand prints): its JSON form is built
    once (:meth:`_build`, which subclasses define) and handed out as a fresh copy, so that
    changing what :meth:`to_json` returned changes neither the report nor its text.

    >>> class Answer(Report):
    ...     def _build(self): return {"values": [1, 2]}
    >>> answer = Answer()
    >>> answer.to_json()["values"].append(3)
    >>> answer.to_json()
    {'values': [1, 2]}
    """

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:
        """The JSON form, built once."""
        return self._build()

    def _build(self) -> dict[str, Any]:  # pragma: no cover - every subclass defines it
        raise NotImplementedError
