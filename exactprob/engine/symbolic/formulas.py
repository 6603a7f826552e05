r"""Check a closed form against an exact answer: proved equal, or a point where it fails.

A user believes a formula for a value, a rational function of the model's symbols (a
gambler's ruin, a first-step analysis). :func:`check_formula` compares it with the exact
answer: two rational functions are equal exactly when their difference cancels to zero,
so equality is *proved* (a symbolic identity, no sampling); when they differ, their
difference is a nonzero rational function, zero at only finitely many points, and the
simplest rationals are tried until one shows the difference. For a piecewise answer
(:mod:`~exactprob.engine.symbolic.piecewise`) each piece is checked on its own, and each
breakpoint by the exact value there; the formula may have pieces too (``Piecewise``,
``Max``, ``Min``), and each of its branches is checked on the part of each piece where it
applies, its own breakpoints by their exact values.

>>> import sympy, exactprob as ep
>>> from exactprob.games.gamblers_ruin import GamblersRuin
>>> p = sympy.Symbol("p")
>>> ruin = ep.solve(GamblersRuin(goal=3, start=1, p=p))
>>> check_formula(ruin, p**2 / (1 - p + p**2))  # (r - 1)/(r^3 - 1), r = (1 - p)/p
FormulaCheck(holds=True)
>>> check_formula(ruin, p**2)
FormulaCheck(holds=False, at {p: 1/2}: the formula gives 1/4, the exact value is 1/3)
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import UsageError
from ...util.numbers import to_sympy
from ..enclosure import Enclosure

__all__ = ["FormulaCheck", "check_formula"]

#: An open interval ``(low, high)`` of the parameter; ``None`` for no bound (a rational,
#: or an irrational breakpoint of a piecewise answer).
Interval = tuple[Any, Any]

#: How many candidate points are tried for a counterexample (each symbol's simplest
#: rationals in (0, 1), then above 1 and below 0); a nonzero difference of small degree
#: shows itself at one of the first few.
MAX_TRIES = 10_000


@dataclass(frozen=True)
class FormulaCheck:
    """The verdict: ``holds`` (a proof of equality), or the point where the formula and
    the exact value differ and both values there. True in a boolean context when the
    formula holds."""

    holds: bool
    point: dict[Any, Any] | None = None
    formula_value: Any = None
    exact_value: Any = None

    def __bool__(self) -> bool:
        return self.holds

    def __repr__(self) -> str:
        if self.holds:
            return "FormulaCheck(holds=True)"
        where = ", ".join(f"{k}: {v}" for k, v in (self.point or {}).items())
        return (
            f"FormulaCheck(holds=False, at {{{where}}}: the formula gives "
            f"{self.formula_value}, the exact value is {self.exact_value})"
        )


def check_formula(solved: Any, formula: Any, state: Any = None) -> FormulaCheck:
    """Whether ``formula`` equals the exact value of ``state`` (the initial state when
    ``None``) in an exact ``solved`` result: a proof when it does, else a point where it
    does not.

    Parameters
    ----------
    solved : Solution or PiecewiseSolution
        An exact answer (rational, symbolic, or piecewise in one symbol).
    formula : sympy expression or exact number
        The closed form believed: a rational function of the model's symbols with
        rational coefficients; against a piecewise answer, also one with pieces
        (``Piecewise``, ``Max``, ``Min``, ``Abs``) in its parameter, each branch such a
        function, checked branch by branch where it applies.
    state : state, optional
        Whose value to check.

    Returns
    -------
    FormulaCheck
        ``holds``, or the point (``{symbol: value}``, rational where possible) where the
        formula and the exact value differ, with both values there.

    Raises
    ------
    UsageError
        For a formula that is not a rational function with rational coefficients (or
        pieces of them, against a piecewise answer), or an inexact result (certified
        enclosures cannot prove an identity).

    See Also
    --------
    exactprob.solve : The exact answers checked.

    References
    ----------
    - J. T. Schwartz, "Fast probabilistic algorithms for verification of polynomial
      identities", *Journal of the ACM* 27(4), 1980 (a nonzero polynomial vanishes at few
      points of a grid: why a search of small rationals finds where a false formula fails).
    - R. Zippel, "Probabilistic algorithms for sparse polynomials", *Symbolic and Algebraic
      Computation (EUROSAM 1979)*, Lecture Notes in Computer Science 72, Springer, 1979.

    Examples
    --------
    >>> import exactprob as ep
    >>> from fractions import Fraction
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> bool(check_formula(ep.solve(GamblersRuin(goal=5, start=2, p="2/5")), Fraction(40, 211)))
    True
    """
    if hasattr(solved, "piece_tables"):
        branches = _branches(formula, solved.parameter)
        return _check_pieces(solved, branches, state)
    expected = _rational_function(formula)
    value = solved.value(state)
    if isinstance(value, Enclosure):
        raise UsageError("a certified enclosure cannot prove a formula; solve exactly")
    return _check_function(expected, to_sympy(value), None)


def _rational_function(formula: Any) -> Any:
    import sympy

    expr = sympy.sympify(formula)
    if expr.atoms(sympy.Float):
        raise UsageError(f"the formula {formula} holds a float; write it with exact rationals")
    if expr.has(sympy.Piecewise, sympy.Max, sympy.Min, sympy.Abs):
        raise UsageError(
            f"the formula {formula} has pieces; it is checked against a piecewise answer "
            "(solve with parameter_range=...), piece by piece"
        )
    if not expr.is_rational_function(*expr.free_symbols) or expr.atoms(sympy.AlgebraicNumber):
        raise UsageError(
            f"the formula {formula} is not a rational function of its symbols; only those "
            "can be proved equal here"
        )
    return expr


def _branches(formula: Any, parameter: Any) -> list[tuple[Any, Any]]:
    """``formula`` as ``(rational function, the set of the parameter where it applies)``
    pairs: one pair over the whole line for a rational function; for a formula with
    ``Piecewise``, ``Max``, ``Min`` or ``Abs``, its branches, folded into one
    ``Piecewise`` and solved for where each applies
    (:meth:`sympy.functions.elementary.piecewise.Piecewise.as_expr_set_pairs`)."""
    import sympy

    expr = sympy.sympify(formula)
    if not expr.has(sympy.Piecewise, sympy.Max, sympy.Min, sympy.Abs):
        return [(_rational_function(expr), sympy.Reals)]
    if expr.free_symbols - {parameter}:
        raise UsageError(
            f"the formula {formula} has pieces in symbols other than the answer's "
            f"parameter {parameter}; a formula with pieces is checked in that one symbol"
        )
    folded = sympy.piecewise_fold(expr.rewrite(sympy.Piecewise))
    if not isinstance(folded, sympy.Piecewise):
        return [(_rational_function(folded), sympy.Reals)]
    return [(_rational_function(branch), where) for branch, where in folded.as_expr_set_pairs()]


def _check_function(formula: Any, value: Any, interval: Interval | None) -> FormulaCheck:
    """Compare two rational functions (on the open ``interval`` ``(low, high)`` when
    given)."""
    import sympy

    difference = sympy.cancel(sympy.together(formula - value))
    if difference == 0:
        return FormulaCheck(True)
    symbols = sorted(difference.free_symbols | formula.free_symbols | value.free_symbols, key=str)
    numerator, denominator = sympy.fraction(difference)
    value_denominator = sympy.fraction(sympy.together(value))[1]
    for point in itertools.islice(_candidates(symbols, interval), MAX_TRIES):
        at = {s: sympy.Rational(v.numerator, v.denominator) for s, v in point.items()}
        if denominator.subs(at) == 0 or value_denominator.subs(at) == 0:
            continue
        if numerator.subs(at) != 0:
            return FormulaCheck(False, at, formula.subs(at), value.subs(at))
    raise AssertionError("no counterexample among the candidates")  # pragma: no cover


def _candidates(symbols: list[Any], interval: Interval | None) -> Iterator[dict[Any, Fraction]]:
    """Points to try: each symbol over the simplest rationals (in ``interval`` when
    given), all combinations, nearest first."""
    if not symbols:
        yield {}
        return
    values = list(itertools.islice(_simple_rationals(interval), 60))
    for total in range(len(values) * len(symbols)):
        for combo in itertools.product(range(min(total + 1, len(values))), repeat=len(symbols)):
            if sum(combo) == total:
                yield {s: values[i] for s, i in zip(symbols, combo)}


def _simple_rationals(interval: Interval | None) -> Iterator[Fraction]:
    """Rationals by increasing denominator, those in (0, 1) (where probabilities live)
    first, then whole numbers and the others; inside an interval ``(low, high)``, the
    simplest rational of it, then of each half it leaves, breadth first."""
    if interval is not None:
        from .piecewise import sample_between

        halves = deque([interval])
        while halves:
            low, high = halves.popleft()
            t = sample_between(low, high)
            yield t
            halves += [(low, t), (t, high)]
        return
    inside = (Fraction(n, q) for q in itertools.count(2) for n in range(1, q))
    outside = (Fraction(n, q) for q in itertools.count(1) for n in range(-3 * q, 4 * q))
    seen: set[Fraction] = set()
    for x in itertools.chain(itertools.islice(inside, 40), outside):
        if x not in seen:
            seen.add(x)
            yield x


def _check_pieces(solved: Any, branches: list[tuple[Any, Any]], state: Any) -> FormulaCheck:
    """Each piece of a piecewise answer against each branch of the formula that applies
    on part of it: an identity of rational functions on each open part; at a single
    point (a breakpoint of the answer or of the formula) the exact values. At an
    irrational breakpoint x, a root of the irreducible f, the answer's value is the
    neighbouring piece's rational function V there, and the formula's branch B equals it
    exactly when f divides the numerator of B - V."""
    import sympy

    from .._internal.algebraic import RealRoot, to_sympy_point

    s = 0 if state is None else solved.graph.id_of(state)
    p = solved.parameter
    covered = sympy.Union(*(where for _, where in branches))
    for piece in solved.piece_tables:
        low, high = piece.where.low, piece.where.high
        if piece.where.point:
            span = sympy.FiniteSet(x := to_sympy_point(low))
        else:
            span = sympy.Interval.open(
                -sympy.oo if low is None else to_sympy_point(low),
                sympy.oo if high is None else to_sympy_point(high),
            )
        gap = sympy.Complement(span, covered)
        if not gap.is_empty:
            raise UsageError(f"the formula has no value for {p} in {gap}, where the answer has")
        if piece.where.point:
            branch = next(b for b, where in branches if where.contains(x) == sympy.true)
            if isinstance(low, RealRoot):
                difference = sympy.together(branch - piece.field.public(piece.values[s]))
                f = sympy.Poly(list(low.coefficients), p)
                holds = sympy.Poly(sympy.fraction(difference)[0], p).rem(f).is_zero
            else:
                holds = branch.subs(p, x) == piece.value_of_id(s)
            if not holds:
                return FormulaCheck(
                    False, {p: x}, sympy.radsimp(branch.subs(p, x)), piece.value_of_id(s)
                )
            continue
        value = piece.value_of_id(s)
        for branch, where in branches:
            for part in _parts(span.intersect(where)):
                verdict = _check_part(branch, value, part, p)
                if not verdict:
                    return verdict
    return FormulaCheck(True)


def _parts(where: Any) -> list[Any]:
    """A set of reals as its intervals and single points."""
    import sympy

    if isinstance(where, sympy.Union):
        return [part for each in where.args for part in _parts(each)]
    if isinstance(where, sympy.FiniteSet):
        return list(where)
    return [] if where.is_empty else [where]


def _check_part(branch: Any, value: Any, part: Any, p: Any) -> FormulaCheck:
    """The formula's ``branch`` against the answer's ``value`` on ``part``: an interval
    (an identity, or a rational point inside where they differ) or a single point."""
    import sympy

    if not isinstance(part, sympy.Interval):  # a point: exact values
        formula_value, exact_value = branch.subs(p, part), value.subs(p, part)
        if sympy.simplify(formula_value - exact_value) == 0:
            return FormulaCheck(True)
        return FormulaCheck(False, {p: part}, sympy.radsimp(formula_value), exact_value)
    return _check_function(branch, value, (_inside(part.start, 1), _inside(part.end, -1)))


def _inside(end: Any, direction: int) -> Fraction | None:
    """A rational end for an interval's end: itself when rational, else a rational just
    inside it (above a lower end, ``direction`` 1; below an upper end, -1); ``None``
    for an infinite end."""
    import sympy

    if end.is_infinite:
        return None
    if end.is_Rational:
        return Fraction(int(end.p), int(end.q))
    digits = 30
    while True:
        q = sympy.Rational(str(sympy.N(end, digits))) + direction * sympy.Rational(1, 10**digits)
        if (q > end) == (direction > 0):
            return Fraction(int(q.p), int(q.q))
        digits *= 2
