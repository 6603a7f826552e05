r"""sympy's LaTeX, to the byte, with polynomials in one symbol written directly.

A piecewise derivation prints hundreds of factored rational functions whose factors are
polynomials of degree up to the model's size; sympy's printer sorts and prints each term
of each sum as a general expression, which took most of a derivation's time.
:func:`latex_expression` gives what ``sympy.latex`` gives, but a sum whose terms are each
:math:`c\,x^n` (a rational :math:`c`, one symbol :math:`x`, :math:`n \ge 0`) is written
from its coefficients: highest power first, as sympy orders a polynomial's terms (but a
positive constant before one negative term: ``3 - 7 p``), each term as sympy's printer
writes it (``3 p^{2}``, ``\frac{p}{2}``, ``- \frac{3}{4}``).
Everything else, and the structure around such sums, is sympy's own printing.

>>> from sympy import Rational, Symbol
>>> p = Symbol("p")
>>> latex_expression(Rational(3, 2) * p**2 - p + Rational(1, 4))
'\\frac{3 p^{2}}{2} - p + \\frac{1}{4}'
>>> latex_expression((p - 1) ** 2 / (2 * p + 1))
'\\frac{\\left(p - 1\\right)^{2}}{2 p + 1}'
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["latex_expression"]


def latex_expression(expr: Any) -> str:
    """``sympy.latex(expr)``, the same string, faster on polynomials in one symbol."""
    return str(_printer().doprint(expr))


@cache
def _printer() -> Any:
    """One printer for the process (sympy is loaded when a derivation first prints)."""
    from sympy.printing.latex import LatexPrinter

    class PolynomialPrinter(LatexPrinter):  # type: ignore[misc]
        """sympy's LaTeX printer with :meth:`_print_Add` written directly for a
        polynomial in one symbol."""

        def __init__(self) -> None:
            super().__init__()
            self.powers: dict[tuple[Any, int], str] = {}

        def _print_Add(self, expr: Any, order: Any = None) -> str:
            terms = None if order is not None else _polynomial_terms(expr)
            if terms is None:
                return str(super()._print_Add(expr, order))
            symbol, coefficients = terms
            ordered = sorted(coefficients, reverse=True)
            if len(ordered) == 2 and ordered[1][0] == 0 and ordered[1][1].p > 0 > ordered[0][1].p:
                ordered.reverse()  # sympy writes 3 - 7 p, not - 7 p + 3
            parts = []
            for i, (n, c) in enumerate(ordered):
                if i:
                    parts.append(" - " if c.p < 0 else " + ")
                    c = -c if c.p < 0 else c
                parts.append(self.term(c, n, symbol))
            return "".join(parts)

        def term(self, c: Any, n: int, symbol: Any) -> str:
            r"""The term :math:`c\,x^n` as sympy's printer writes it (``- `` before a
            negative one)."""
            if n == 0:
                return str(self._print(c))
            power = self.powers.get((symbol, n))
            if power is None:
                power = self.powers[symbol, n] = str(self._print(symbol**n))
            sign, a = ("- ", -c) if c.p < 0 else ("", c)
            numerator = power if a.p == 1 else f"{a.p} {power}"
            if a.q == 1:
                return sign + numerator
            return f"{sign}\\frac{{{numerator}}}{{{a.q}}}"

    return PolynomialPrinter()


def _polynomial_terms(expr: Any) -> tuple[Any, list[tuple[int, Any]]] | None:
    r"""The symbol :math:`x` and the terms ``(n, c)`` of a sum whose every term is
    :math:`c\,x^n` with a rational :math:`c`, or ``None`` for any other sum.

    >>> from sympy import Symbol
    >>> p, q = Symbol("p"), Symbol("q")
    >>> _polynomial_terms(3 * p**2 - 1)
    (p, [(0, -1), (2, 3)])
    >>> _polynomial_terms(p + q), _polynomial_terms(p**2 * q + 1)
    (None, None)
    """
    from sympy import S

    symbol, terms = None, []
    for arg in expr.args:
        if arg.is_Rational:
            terms.append((0, arg))
            continue
        c, rest = arg.args if arg.is_Mul and len(arg.args) == 2 else (None, arg)
        if c is not None and not c.is_Rational:
            return None
        if rest.is_Symbol:
            base, n = rest, 1
        elif rest.is_Pow and rest.base.is_Symbol and rest.exp.is_Integer and rest.exp > 0:
            base, n = rest.base, int(rest.exp)
        else:
            return None
        if symbol is None:
            symbol = base
        elif base != symbol:
            return None
        terms.append((n, S.One if c is None else c))
    return None if symbol is None else (symbol, terms)
