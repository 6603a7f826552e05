r"""A small document of text and mathematics, written out as LaTeX, reStructuredText or
Markdown (generated derivations: :mod:`exactprob.engine.exact.derivation`).

A :class:`Document` is a title and blocks: headings, paragraphs (text with inline
mathematics, :class:`Math`) and aligned equations (LaTeX lines, ``&`` marking where they
align). Exact numbers become LaTeX through :func:`latex_number`.

>>> from fractions import Fraction
>>> doc = Document("Coin")
>>> doc.paragraph("A fair coin: ", Math(r"P(H) = " + latex_number(Fraction(1, 2))), ".")
>>> doc.equations([r"V &= \tfrac{1}{2}"])
>>> print(doc.markdown())
# Coin
<BLANKLINE>
A fair coin: $P(H) = \frac{1}{2}$.
<BLANKLINE>
$$
\begin{aligned}
V &= \tfrac{1}{2}
\end{aligned}
$$
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from .latex_printer import latex_expression
from .numbers import decimal_string, is_symbolic, to_public

__all__ = ["Document", "Math", "latex_number", "latex_text", "math_text"]

#: A fraction with more digits than this is written by its digit counts and a decimal.
MAX_DIGITS = 40


@dataclass(frozen=True)
class Math:
    """Inline mathematics in a paragraph (LaTeX)."""

    latex: str


@dataclass(frozen=True)
class _Heading:
    parts: tuple[str | Math, ...]


@dataclass(frozen=True)
class _Paragraph:
    parts: tuple[str | Math, ...]


@dataclass(frozen=True)
class _Equations:
    lines: tuple[str, ...]


class Document:
    """A title and its blocks, in order; :meth:`latex`, :meth:`rst` and :meth:`markdown`
    write it out (Jupyter shows the Markdown, its mathematics rendered; a notebook
    converted to PDF, the LaTeX)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.blocks: list[_Heading | _Paragraph | _Equations] = []

    def heading(self, *parts: str | Math) -> None:
        """Start a section, titled with text and inline :class:`Math`."""
        self.blocks.append(_Heading(parts))

    def paragraph(self, *parts: str | Math) -> None:
        """A paragraph of text and inline :class:`Math`."""
        self.blocks.append(_Paragraph(parts))

    def equations(self, lines: list[str]) -> None:
        """Displayed equations, one a line, aligned at ``&``."""
        if lines:
            self.blocks.append(_Equations(tuple(lines)))

    def latex(self, *, standalone: bool = False) -> str:
        r"""A LaTeX fragment: ``\section*`` headings, ``align*`` equations (``amsmath``);
        with ``standalone``, a whole document that ``pdflatex`` compiles.

        >>> doc = Document("Coin")
        >>> doc.heading("Where ", Math("p < 1"))
        >>> doc.equations(["V &= p"])
        >>> print(doc.latex(standalone=True))  # doctest: +ELLIPSIS
        \documentclass{article}
        ...
        \begin{document}
        \section*{Coin}
        <BLANKLINE>
        \subsection*{Where $p < 1$}
        <BLANKLINE>
        \begin{align*}
        V &= p
        \end{align*}
        <BLANKLINE>
        \end{document}
        """
        inline = partial(_inline, escape=latex_text, math="${}$")
        body = self._write(
            [f"\\section*{{{latex_text(self.title)}}}"],
            lambda parts: [f"\\subsection*{{{inline(parts)}}}"],
            inline,
            lambda lines: ["\\begin{align*}", " \\\\\n".join(lines), "\\end{align*}"],
        )
        if not standalone:
            return body
        return "\n".join([*_PREAMBLE, "\\begin{document}", body, "\\end{document}"])

    def rst(self, *, rubrics: bool = False) -> str:
        """reStructuredText: ``:math:`` roles and ``.. math::`` blocks (Sphinx sets the
        lines of one in a ``split`` environment, aligned at &; a single line is set alone,
        with no & to align); with ``rubrics``, no title and headings as ``.. rubric::``
        (to sit inside a page's own section)."""

        def heading(parts: tuple[str | Math, ...]) -> list[str]:
            text = _inline(parts, _rst_text, ":math:`{}`")
            return [f".. rubric:: {text}"] if rubrics else [text, "-" * len(text)]

        def equations(lines: tuple[str, ...]) -> list[str]:
            alone = lines if len(lines) > 1 else (lines[0].replace("&", ""),)
            return [".. math::", "", "   " + " \\\\\n   ".join(alone)]

        return self._write(
            [] if rubrics else [self.title, "=" * len(self.title)],
            heading,
            lambda parts: _inline(parts, _rst_text, ":math:`{}`"),
            equations,
        )

    def markdown(self) -> str:
        """Markdown: inline mathematics between single dollar signs, displayed between
        double ones."""
        return self._write(
            [f"# {self.title}"],
            lambda parts: [f"## {_inline(parts, _markdown_text, '${}$')}"],
            lambda parts: _inline(parts, _markdown_text, "${}$"),
            lambda lines: ["$$", "\\begin{aligned}", " \\\\\n".join(lines), "\\end{aligned}", "$$"],
        )

    def _write(
        self,
        title: list[str],
        heading: Callable[[tuple[str | Math, ...]], list[str]],
        paragraph: Callable[[tuple[str | Math, ...]], str],
        equations: Callable[[tuple[str, ...]], list[str]],
    ) -> str:
        """The document in one format: each block by its writer, a blank line after each."""
        out = [*title, ""] if title else []
        for block in self.blocks:
            if isinstance(block, _Heading):
                out += [*heading(block.parts), ""]
            elif isinstance(block, _Paragraph):
                out += [paragraph(block.parts), ""]
            else:
                out += [*equations(block.lines), ""]
        return "\n".join(out)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def _repr_latex_(self) -> str:
        """The LaTeX fragment, which ``jupyter nbconvert --to pdf`` typesets (Jupyter's
        notebook views rank Markdown before LaTeX and show :meth:`markdown`)."""
        return self.latex()

    def __str__(self) -> str:
        return self.markdown()


#: The preamble of a standalone LaTeX document: T1 fonts (so that <, > and | in text are
#: themselves), amsmath for ``align*``, and UTF-8 input.
_PREAMBLE = (
    "\\documentclass{article}",
    "\\usepackage[T1]{fontenc}",
    "\\usepackage[utf8]{inputenc}",
    "\\usepackage{amsmath}",
    "\\usepackage{amssymb}",
)


def _inline(parts: tuple[str | Math, ...], escape: Any, math: str) -> str:
    text = "".join(math.format(p.latex) if isinstance(p, Math) else escape(p) for p in parts)
    return text.rstrip().removesuffix("\\").rstrip()


def latex_text(text: str) -> str:
    r"""Text with LaTeX's special characters escaped.

    >>> latex_text("50% of {a_b} \\")
    '50\\% of \\{a\\_b\\} \\textbackslash{}'
    """
    return text.translate(_LATEX_ESCAPES)


_LATEX_ESCAPES = str.maketrans(
    {
        **{char: f"\\{char}" for char in "{}_%&#$"},
        "\\": r"\textbackslash{}",
        "^": r"\textasciicircum{}",
        "~": r"\textasciitilde{}",
    }
)


def _rst_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")


def _markdown_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_").replace("$", "\\$")


def math_text(text: str) -> str:
    r"""``\text{...}`` for text inside mathematics (MathJax), its special characters
    escaped.

    >>> math_text("'a_b'"), math_text("x^2")
    ("\\text{'a\\_b'}", '\\text{x}\\hat{}\\text{2}')
    """
    return f"\\text{{{text.translate(_MATH_TEXT_ESCAPES)}}}"


# A backslash, tilde or caret leaves the text for its math symbol (LaTeX has no text form
# of them that MathJax's \text also reads).
_MATH_TEXT_ESCAPES = str.maketrans(
    {c: "\\" + c for c in "&%$#_{}"}
    | {"\\": r"}\backslash\text{", "~": r"}\sim\text{", "^": r"}\hat{}\text{"}
)


def latex_number(value: Any, max_digits: int | None = MAX_DIGITS) -> str:
    r"""An exact number in LaTeX: ``\frac{p}{q}``, a sympy expression, or for a fraction
    over ``max_digits`` digits (``None``: no limit) its decimal and digit counts.

    >>> latex_number(Fraction(-3, 4)), latex_number(Fraction(5))
    ('-\\frac{3}{4}', '5')
    >>> latex_number(Fraction(10**50 + 1, 3 * 10**50))
    '\\approx 0.3333333333\\ (\\text{a 51-digit over a 51-digit integer})'
    >>> latex_number((Fraction(1, 2), Fraction(1, 2), Fraction(0)))  # one payoff per seat
    '\\left(\\frac{1}{2}, \\frac{1}{2}, 0\\right)'
    """
    if isinstance(value, tuple):
        return "\\left(" + ", ".join(latex_number(v, max_digits) for v in value) + "\\right)"
    if is_symbolic(value):
        return latex_expression(value)
    q = Fraction(to_public(value))
    numerator, denominator = abs(q.numerator), q.denominator
    sign = "-" if q < 0 else ""
    if max_digits is not None and max(len(str(numerator)), len(str(denominator))) > max_digits:
        return (
            f"\\approx {decimal_string(q, 10)}\\ (\\text{{a {len(str(numerator))}-digit over a "
            f"{len(str(denominator))}-digit integer}})"
        )
    if denominator == 1:
        return f"{sign}{numerator}"
    return f"{sign}\\frac{{{numerator}}}{{{denominator}}}"
