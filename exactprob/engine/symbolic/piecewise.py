r"""Best play as a function of one parameter: exact pieces and breakpoints.

A model whose probabilities (and outcomes, rewards) are rational functions of one sympy
symbol :math:`p` and that offers choices is solved for every :math:`p` of an open range at
once. The answer is a list of *pieces*: open intervals between exact breakpoints, on each
of which one policy is optimal and every value is a rational function of :math:`p`, and
the breakpoints themselves, where the policies on either side tie.

*How.* Pick the simplest rational :math:`t` in a stretch of the range not yet covered,
solve the model at :math:`p = t` exactly (:func:`~exactprob.engine.exact.solving.solve_graph`),
and evaluate its policy :math:`\pi` symbolically: values :math:`V_\pi(p)`. For every state
:math:`s` and action :math:`a` the *margin*
:math:`d_{s,a}(p) = \pm\bigl(V_\pi(s) - Q_\pi(s, a)\bigr)` (the sign of the state's
mover) is a rational function, :math:`\ge 0` at :math:`t`. On the largest interval around
:math:`t` where no margin changes sign (its ends are real roots of margin numerators, of
odd multiplicity, isolated exactly by :mod:`~exactprob.engine._internal.algebraic`),
:math:`\pi` passes at every :math:`p` the very test that ends the engine's policy
iteration (no action strictly better for its mover, the policy ends play since the
support of every move is the same as at :math:`t`), so it is optimal there; a margin that
is identically zero is a tie on the whole piece, and one that touches zero at a point is
a tie at that point. The rest of the range is covered the same way. Optimal values are
continuous in :math:`p` (a maximum or minimum of finitely many continuous
:math:`V_\sigma`), so at a breakpoint the policies of both sides are optimal, with the
value of either.

Points where a probability becomes 0 (the moves change) or a reward changes sign are
solved on their own, by substituting :math:`p`; they must be rational. The range is
where every probability lies in [0, 1] (when that is one interval), or the one given.

>>> import sympy, exactprob as ep
>>> p = sympy.Symbol("p")
>>> class Gamble:  # take 1/3 for sure, or try to win two rounds, each with chance p
...     initial = "start"
...     def outcome(self, s): return {"won": 1, "lost": 0, "kept": "1/3"}.get(s)
...     def actions(self, s): return ("sure", "gamble") if s == "start" else ("play",)
...     def transition(self, s, a):
...         if a == "sure":
...             return ep.Dist({"kept": 1})
...         return ep.Dist({"one won" if s == "start" else "won": p, "lost": 1 - p})
>>> solved = ep.solve(Gamble())
>>> solved.value()
Piecewise((1/3, (p > 0) & (p < sqrt(3)/3)), (1/3, Eq(p, sqrt(3)/3)), (p**2, (p < 1) & (p > sqrt(3)/3)))
>>> [(str(piece.where), piece.policy()) for piece in solved.pieces]
[('0 < p < sqrt(3)/3', 'sure'), ('p = sqrt(3)/3', 'sure'), ('sqrt(3)/3 < p < 1', 'gamble')]
>>> solved.pieces[1].ties(), solved.breakpoints
(('sure', 'gamble'), [sqrt(3)/3])
>>> solved.at(Fraction(2, 3)).value(), solved.at(Fraction(2, 3)).policy("one won")
(Fraction(4, 9), 'play')
"""

from __future__ import annotations

import dataclasses
import html
import itertools
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

from flint import fmpq, fmpq_poly

from ...errors import ModelError, UsageError
from ...util import display
from ...util.deprecation import warn_deprecated
from ...util.limits import DEFAULT_MAX_STATES
from ...util.mathdoc import Document
from ...util.numbers import Exact, exact, to_sympy
from ...util.progress import Progress, progress_bar
from .._internal.acyclic import pass_through
from .._internal.algebraic import (
    Point,
    RealRoot,
    compare,
    real_roots,
    simplest_between,
    to_sympy_point,
)
from .._internal.linear import Field
from .._internal.order import edge_ends
from .._internal.rewards import value_graph
from .._internal.univariate import RationalFunction
from ..array_model import Explorable
from ..exact.solution import Solution
from ..exact.solving import solve_graph
from ..exact.system import field_of
from ..graph.exploring import explore
from ..graph.state_graph import GraphStates, StateGraph
from ..model import seats_refused
from ..results import Method
from ..seats.solution import SeatSolution
from ..seats.solving import TieRule, solve_seats

__all__ = ["Piece", "PieceTable", "PiecewiseSolution", "Range", "solve_exact", "solve_piecewise"]

#: A bound of the parameter range: a rational or algebraic point, or ``None`` for no bound.
Bound = Point | None


@dataclass(frozen=True)
class Range:
    """Where a piece holds: the open interval ``low < p < high`` (``None``: unbounded), or
    the single point ``p = low`` when ``point``."""

    symbol: Any
    low: Bound
    high: Bound
    point: bool = False

    def contains(self, t: Fraction) -> bool:
        """Whether the rational ``t`` lies in this range."""
        if self.point:
            assert self.low is not None
            return compare(self.low, t) == 0
        return (self.low is None or compare(self.low, t) < 0) and (
            self.high is None or compare(t, self.high) < 0
        )

    def condition(self) -> Any:
        """The range as a sympy condition on the symbol."""
        import sympy

        if self.point:
            assert self.low is not None
            return sympy.Eq(self.symbol, to_sympy_point(self.low))
        parts = []
        if self.low is not None:
            parts.append(self.symbol > to_sympy_point(self.low))
        if self.high is not None:
            parts.append(self.symbol < to_sympy_point(self.high))
        return sympy.And(*parts)

    def latex(self) -> str:
        """The range in LaTeX, as mathematics: ``0 < p < \\frac{1}{2}``."""
        import sympy

        def shown(x: Point) -> str:
            return str(sympy.latex(to_sympy_point(x)))

        symbol = sympy.latex(self.symbol)
        if self.point:
            assert self.low is not None
            return f"{symbol} = {shown(self.low)}"
        low = "" if self.low is None else f"{shown(self.low)} < "
        high = "" if self.high is None else f" < {shown(self.high)}"
        return f"{low}{symbol}{high}"

    def __str__(self) -> str:
        if self.point:
            return f"{self.symbol} = {to_sympy_point(self.low)}"  # type: ignore[arg-type]
        low = "" if self.low is None else f"{to_sympy_point(self.low)} < "
        high = "" if self.high is None else f" < {to_sympy_point(self.high)}"
        return f"{low}{self.symbol}{high}"

    def __repr__(self) -> str:
        return str(self)


@dataclass
class PieceTable:
    """One piece of a piecewise answer as the solver holds it, by state id: where it
    holds, the optimal action of every state id (indices into its actions) and every
    action exactly tied with it there, and each state id's value (a rational function of
    the parameter, or the exact value at a point). Users read a piece by state through
    :class:`Piece`."""

    where: Range
    choice: Sequence[int]
    ties: dict[int, tuple[int, ...]]
    values: list[Any]
    field: Field = dataclasses.field(repr=False)
    #: ``(state, action) ->`` the numerator of its margin (an ``fmpq_poly``) and the
    #: numerator's real roots, for the actions not tied on the piece (intervals).
    margins: dict[tuple[int, int], Any] = dataclasses.field(default_factory=dict, repr=False)

    def tied_of_id(self, s: int) -> tuple[int, ...]:
        """The indices of the actions of the state of id ``s`` optimal on this piece: the
        chosen one, or every exactly tied one."""
        return self.ties.get(s, (self.choice[s],))

    def value_of_id(self, s: int) -> Any:
        """The value of the state of id ``s`` on this piece as a sympy expression: a
        rational function of the parameter, or its exact value at a breakpoint."""
        v = self.values[s]
        if self.where.point and isinstance(self.where.low, RealRoot):
            return self.where.low.at(*_polynomials(v))
        return self.field.public(v) if self.field.symbolic else to_sympy(v)


class Piece(GraphStates):
    """One piece of a piecewise answer, read by state: where it holds (:attr:`where`, an
    open interval of the parameter or one point), each state's value there (a rational
    function of the parameter, or the exact value at the point), its optimal action and
    the actions exactly tied with it."""

    __slots__ = ("graph", "table")

    def __init__(self, graph: StateGraph, table: PieceTable) -> None:
        self.graph, self.table = graph, table

    @property
    def where(self) -> Range:
        """Where the piece holds."""
        return self.table.where

    def value(self, state: Any = None) -> Any:
        """The value of ``state`` on this piece, a sympy expression."""
        return self.table.value_of_id(self._id(state))

    def policy(self, state: Any = None) -> Any:
        """The optimal action of ``state`` on this piece (the first in the model's order
        at a breakpoint); ``None`` when ``state`` is terminal."""
        s = self._id(state)
        actions = self.graph.actions[s]
        return actions[self.table.choice[s]] if actions else None

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action of ``state`` exactly optimal on this piece, in the model's order;
        ``()`` when terminal."""
        s = self._id(state)
        actions = self.graph.actions[s]
        if not actions:
            return ()
        return tuple(actions[k] for k in self.table.tied_of_id(s))

    def value_expr(self, s: int) -> Any:
        """Deprecated since 0.2.0: the value of the state of *id* ``s`` (not the state
        ``s``); use :meth:`value`, which takes the state."""
        warn_deprecated("Piece.value_expr(id)", "Piece.value(state)", "0.2.0")
        return self.table.value_of_id(s)

    def __repr__(self) -> str:
        return f"Piece({self.where})"


class PiecewiseSolution(GraphStates):
    """The exact solution of a one-parameter model for every value of its parameter.

    :meth:`value` is a ``sympy.Piecewise``; :attr:`pieces` the pieces (:class:`Piece`: the
    values, optimal actions and ties on each, by state) in increasing order of the
    parameter, open intervals and the points between them; :attr:`breakpoints` the points
    where the optimal play changes; :meth:`at` the model solved at one rational value of
    the parameter (an ordinary exact result), :meth:`piece_at` the piece holding it.
    """

    __slots__ = ("graph", "parameter", "piece_tables")
    method: Method = "exact"
    solver = "piecewise"

    def __init__(self, graph: StateGraph, parameter: Any, tables: list[PieceTable]) -> None:
        self.graph = graph
        self.parameter = parameter
        #: The pieces as the solver holds them, by state id (the derivation's and
        #: :func:`~exactprob.engine.symbolic.formulas.check_formula`'s view).
        self.piece_tables = tables

    @property
    def pieces(self) -> list[Piece]:
        """The pieces, in increasing order of the parameter."""
        return [Piece(self.graph, table) for table in self.piece_tables]

    @property
    def breakpoints(self) -> list[Any]:
        """The points where the optimal play changes (sympy numbers, increasing)."""
        tables = self.piece_tables
        found = []
        for before, point, after in zip(tables, tables[1:], tables[2:]):
            if point.where.point and list(before.choice) != list(after.choice):
                found.append(to_sympy_point(point.where.low))  # type: ignore[arg-type]
        return found

    def piece_at(self, t: Any) -> Piece:
        """The piece holding the parameter value ``t`` (an exact rational)."""
        q = self._rational(t)
        for table in self.piece_tables:
            if table.where.contains(q):
                return Piece(self.graph, table)
        raise ModelError(f"{self.parameter} = {q} is outside the range solved, {self._range()}")

    def at(self, t: Any) -> Solution:
        """The model solved exactly at the parameter value ``t`` (an exact rational in the
        range solved): values, optimal play, ties and laws by state, as
        :func:`exactprob.solve` gives them for the model with ``t`` in place of the
        parameter."""
        q = self._rational(t)
        self.piece_at(q)  # refuses a value outside the range solved
        return solve_graph(_substitute(self.graph, self.parameter, q))

    def _rational(self, t: Any) -> Fraction:
        return Fraction(str(exact(t)))

    def _range(self) -> Range:
        tables = self.piece_tables
        return Range(self.parameter, tables[0].where.low, tables[-1].where.high)

    def value(self, state: Any = None) -> Any:
        """The optimal value of ``state`` as a ``sympy.Piecewise`` in the parameter."""
        import sympy

        s = self._id(state)
        return sympy.Piecewise(
            *((table.value_of_id(s), table.where.condition()) for table in self.piece_tables),
            evaluate=False,
        )

    def policy(self, state: Any = None) -> tuple[tuple[Range, Any], ...]:
        """Deprecated since 0.2.0: ``(range, optimal action)`` for each piece; read each
        piece's play by state (:meth:`Piece.policy`)."""
        warn_deprecated(
            "PiecewiseSolution.policy(state)",
            "[(piece.where, piece.policy(state)) for piece in solution.pieces]",
            "0.2.0",
        )
        if not self.graph.actions[self._id(state)]:
            return ()
        return tuple((piece.where, piece.policy(state)) for piece in self.pieces)

    def ties(self, state: Any = None) -> tuple[tuple[Range, tuple[Any, ...]], ...]:
        """Deprecated since 0.2.0: ``(range, tied actions)`` for each piece where several
        actions are optimal together; read each piece's ties by state
        (:meth:`Piece.ties`)."""
        warn_deprecated(
            "PiecewiseSolution.ties(state)",
            "[(piece.where, piece.ties(state)) for piece in solution.pieces]",
            "0.2.0",
        )
        return tuple(
            (piece.where, tied) for piece in self.pieces if len(tied := piece.ties(state)) > 1
        )

    def derivation(self, *, limit: int = 12, states: Sequence[Any] | None = None) -> Document:
        """The derivation written out: the model, each piece and each breakpoint
        (:func:`~exactprob.engine.exact.derivation.derive_piecewise`)."""
        from ..exact.derivation import derive_piecewise

        return derive_piecewise(self, limit=limit, states=states)

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state``: each piece with its range, value and actions."""
        where = self.graph.states[self._id(state)]
        return {
            "method": self.method,
            "solver": self.solver,
            "state": repr(where),
            "parameter": str(self.parameter),
            "pieces": [
                {
                    "where": str(piece.where),
                    "value": str(piece.value(where)),
                    "policy": None if (action := piece.policy(where)) is None else repr(action),
                    "ties": [repr(action) for action in piece.ties(where)],
                }
                for piece in self.pieces
            ],
        }

    def _repr_latex_(self) -> str:
        import sympy

        return f"$\\displaystyle {sympy.latex(self.value())}$"

    def _repr_html_(self) -> str:
        rows = [
            (
                html.escape(str(piece.where)),
                display.exact_html(piece.value()) + html.escape(f" ({piece.policy()!r})"),
            )
            for piece in self.pieces
        ]
        return display.rows_html(f"Piecewise solution in {self.parameter}", rows)

    def __repr__(self) -> str:
        return f"PiecewiseSolution({self.parameter}: {len(self.piece_tables)} pieces, {len(self.graph):,} states)"


def solve_exact(
    model: Explorable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
    parameter_range: tuple[Any, Any] | None = None,
    tie_rule: TieRule | None = None,
) -> Solution | PiecewiseSolution | SeatSolution:
    """The generic engine's exact method: explore ``model``, then solve it piecewise
    when it offers choices and its numbers hold one symbol (:func:`solve_piecewise`), as
    a game of seats when its outcomes are tuples
    (:func:`~exactprob.engine.seats.solving.solve_seats`, its ties by ``tie_rule``),
    else by :func:`~exactprob.engine.exact.solving.solve_graph`."""
    G = explore(model, max_states=max_states, progress=progress, starts=starts)
    if G.seats:
        if parameter_range is not None or G.symbolic:
            raise seats_refused("a symbolic parameter")
        return solve_seats(G, tie_rule=tie_rule or "first")
    if tie_rule is not None:
        raise UsageError(
            "tie_rule= chooses among a seat's tied actions in a game of seats (outcomes "
            "that are tuples); this model's outcomes are single numbers"
        )
    if G.symbolic and any(len(actions) > 1 for actions in set(G.actions)):
        return solve_piecewise(G, parameter_range=parameter_range, progress=progress)
    if parameter_range is not None:
        raise UsageError("parameter_range is for a model with choices and one symbolic parameter")
    return solve_graph(G, progress=progress)


def solve_piecewise(
    G: StateGraph, *, parameter_range: tuple[Any, Any] | None = None, progress: bool = False
) -> PiecewiseSolution:
    """Solve a symbolic graph in one parameter for every value of its parameter.

    ``parameter_range`` ``(low, high)``: the open range to solve over (exact rationals,
    ``None`` for no bound); by default the one interval where every probability lies in
    [0, 1].
    """
    return _Piecewise(G, parameter_range, progress).run()


class _Piecewise:
    """One piecewise solve: the graph's numbers as rational functions, and the pieces."""

    def __init__(self, G: StateGraph, parameter_range: tuple[Any, Any] | None, progress: bool):
        self.G = G
        self.H = value_graph(G)
        self.field = _one_parameter_field(self.H)
        self.symbol = self.field.symbols[0]
        self.progress = progress
        self.deciders = [s for s in range(len(G)) if len(G.actions[s]) > 1]
        self.stays = _sure_returns(G, self.deciders)
        self.covered = 0.0  # percent of the range covered, for the progress bar
        self.weights = [_polynomials(self.field.convert(w)) for w in self.H.probabilities]
        probabilities = [self.field.convert(q) for q in G.probabilities]
        self.cuts = self._cut_points(probabilities)
        self.low, self.high = self._range(probabilities, parameter_range)

    # -- the range -------------------------------------------------------------------
    def _cut_points(self, probabilities: list[Any]) -> list[Point]:
        """Where a probability, an outcome or a reward may vanish or be undefined."""
        numbers = list(probabilities)
        numbers += [self.field.convert(o) for o in self.G.outcomes if o is not None]
        numbers += [self.field.convert(r) for r in self.G.rewards or ()]
        points: list[Point] = []
        for q in numbers:
            for polynomial in _polynomials(q):
                points.extend(point for point, _ in _roots_of(polynomial))
        return _sorted_distinct(points)

    def _range(
        self, probabilities: list[Any], given: tuple[Any, Any] | None
    ) -> tuple[Bound, Bound]:
        if given is not None:
            low, high = (None if b is None else Fraction(str(exact(b))) for b in given)
            if low is not None and high is not None and not low < high:
                raise ModelError(f"the parameter range ({low}, {high}) is empty")
            self._check_valid(probabilities, low, high)
            return low, high
        ends: list[Bound] = [None, *self.cuts, None]
        valid = [self._positive(probabilities, a, b) for a, b in itertools.pairwise(ends)]
        runs: list[tuple[Bound, Bound]] = []
        for i, ok in enumerate(valid):
            if not ok:
                continue
            if runs and valid[i - 1] and self._allowed_at(probabilities, ends[i]):
                runs[-1] = (runs[-1][0], ends[i + 1])
            else:
                runs.append((ends[i], ends[i + 1]))
        if len(runs) != 1:
            found = ", ".join(str(Range(self.symbol, a, b)) for a, b in runs) or "none"
            raise ModelError(
                f"the probabilities are valid on {len(runs)} ranges of {self.symbol} "
                f"({found}); choose one with parameter_range=(low, high)"
            )
        return runs[0]

    def _check_valid(self, probabilities: list[Any], low: Bound, high: Bound) -> None:
        inside = [c for c in self.cuts if _between(c, low, high)]
        ends: list[Bound] = [low, *inside, high]
        for a, b in itertools.pairwise(ends):
            if not self._positive(probabilities, a, b):
                raise ModelError(
                    f"some probability is negative or undefined for {Range(self.symbol, a, b)}"
                )
        for c in inside:
            if not self._allowed_at(probabilities, c):
                raise ModelError(f"some probability is undefined at {self.symbol} = {c}")

    def _positive(self, probabilities: list[Any], a: Bound, b: Bound) -> bool:
        t = sample_between(a, b)
        return all(_evaluate(q, t) > 0 for q in probabilities)

    def _allowed_at(self, probabilities: list[Any], c: Bound) -> bool:
        """Whether every probability is defined at the cut point ``c`` (a point where
        some vanishes, inside a valid run)."""
        return c is not None and all(not _vanishes(_polynomials(q)[1], c) for q in probabilities)

    # -- the pieces ------------------------------------------------------------------
    def run(self) -> PiecewiseSolution:
        pieces: list[PieceTable] = []
        inside = [c for c in self.cuts if _between(c, self.low, self.high)]
        for c in inside:
            pieces.append(self._at_point(c))
        ends: list[Bound] = [self.low, *inside, self.high]
        bounded = self.low is not None and self.high is not None
        label = f"solving in {self.symbol}" + (" (% of the range)" if bounded else "")
        with progress_bar(self.progress, label, total=100 if bounded else None, unit="") as bar:
            for a, b in itertools.pairwise(ends):
                self._cover(a, b, pieces, bar)
        pieces.sort(key=_piece_key)
        return PiecewiseSolution(self.G, self.symbol, pieces)

    def _cover(self, a: Bound, b: Bound, pieces: list[PieceTable], bar: Progress) -> None:
        """Add the pieces covering the open interval ``(a, b)``, on which the support of
        every move is that of any point inside."""
        stack = [(a, b)]
        while stack:
            a, b = stack.pop()
            found: PieceTable | Fraction = sample_between(a, b)
            while isinstance(found, Fraction):  # a sample that is no root of a margin
                found = self._around(found, a, b)
            pieces.extend(self._split_at_touches(found))
            shown = int(self.covered)
            self.covered += self._share(found.where)
            bar.update(int(self.covered) - shown)
            low, high = found.where.low, found.where.high
            if low is not a:
                assert low is not None
                pieces.append(self._breakpoint(found, low))
                stack.append((a, low))
            if high is not b:
                assert high is not None
                pieces.append(self._breakpoint(found, high))
                stack.append((high, b))

    def _share(self, where: Range) -> float:
        """The share of a bounded range an interval covers, in percent (a float for the
        progress bar only); one piece for an unbounded range."""
        if self.low is None or self.high is None:
            return 1
        assert where.low is not None and where.high is not None
        width = float(_approx(self.high) - _approx(self.low))
        return 100 * float(_approx(where.high) - _approx(where.low)) / width

    def _around(self, t: Fraction, a: Bound, b: Bound) -> PieceTable | Fraction:
        """The piece around ``t``: the policy optimal at ``t``, its values, and the
        nearest sign changes of its margins on either side (within ``(a, b)``); or a
        new sample when ``t`` is itself a root of some margin."""
        solved = solve_graph(_substitute(self.G, self.symbol, t))
        choice = list(solved._choice[: len(self.G)])
        values = _field_values(solve_graph(_restrict(self.G, choice)), self.field)
        numerators, denominator = _over_one_denominator(values)
        at = fmpq(t.numerator, t.denominator)
        sign_d = _sign(denominator(at))
        ties: dict[int, tuple[int, ...]] = {}
        margins: dict[tuple[int, int], _Margin] = {}
        at_t: list[int] = []
        for s in self.deciders:
            tied = [choice[s]]
            for k, margin, common in self._margins(s, choice[s], numerators):
                if margin.degree() < 0:  # tied on the whole piece, unless it never ends play
                    if (s, k) not in self.stays:
                        tied.append(k)
                    continue
                margins[s, k] = (margin, _roots_of(margin))
                at_t.append(_sign(margin(at)) * sign_d * _sign(common(at)))
            if len(tied) > 1:
                ties[s] = tuple(sorted(tied))
        if min(at_t, default=1) < 0:  # pragma: no cover - the exact solve is optimal at t
            raise AssertionError(f"the policy solved at {t} is not optimal there")
        roots = [
            (root, multiplicity)
            for _, found in margins.values()
            for root, multiplicity in found
            if _between(root, a, b)
        ]
        if 0 in at_t:  # t is a breakpoint: sample again, short of the next root above it
            above = [root for root, _ in roots if compare(root, t) > 0]
            return sample_between(t, min(above, key=_order, default=b))
        low, high = a, b
        for root, multiplicity in roots:
            if multiplicity % 2 and _between(root, low, high):
                if compare(root, t) < 0:
                    low = root
                else:
                    high = root
        return PieceTable(Range(self.symbol, low, high), choice, ties, values, self.field, margins)

    def _split_at_touches(self, piece: PieceTable) -> list[PieceTable]:
        """The piece cut at the points inside it where a margin touches 0 without
        changing sign: ties at a point, the same policy on both sides."""
        low, high = piece.where.low, piece.where.high
        touches = _sorted_distinct(
            [
                root
                for _, found in piece.margins.values()
                for root, multiplicity in found
                if multiplicity % 2 == 0 and _between(root, low, high)
            ]
        )
        if not touches:
            return [piece]
        ends: list[Bound] = [low, *touches, high]
        parts = [self._breakpoint(piece, x) for x in touches]
        for u, v in itertools.pairwise(ends):
            part = PieceTable(
                Range(self.symbol, u, v),
                piece.choice,
                piece.ties,
                piece.values,
                self.field,
                piece.margins,
            )
            parts.append(part)
        return parts

    def _margins(
        self, s: int, chosen: int, numerators: list[Any]
    ) -> Iterator[tuple[int, Any, Any]]:
        r"""``(k, m, B)`` for each other action ``k`` of ``s``: the numerator ``m`` of its
        margin (how much worse it is for the mover than the chosen one; the zero
        polynomial for an exact tie) and ``B``. With values :math:`V = N/D` and the
        action's weights :math:`a_e/b_e`, :math:`B = \operatorname{lcm} b_e`, the margin is
        :math:`\pm(N_s B - \sum_e a_e (B/b_e) N_{t_e})/(D B)`; neither :math:`D` nor
        :math:`B` vanishes inside the range, so the margin's roots there are those of
        ``m``, and its sign is that of :math:`m D B`."""
        H = self.H
        cs, starts, targets, ids = H.choice_start, H.edge_start, H.targets, H.prob_ids
        sign_of = 1 if H.players[s] == 0 else -1
        for k in range(cs[s + 1] - cs[s]):
            if k == chosen:
                continue
            c = cs[s] + k
            edges = range(starts[c], starts[c + 1])
            common = _lcm(self.weights[ids[e]][1] for e in edges)
            q = sum(
                (
                    self.weights[ids[e]][0]
                    * (common // self.weights[ids[e]][1])
                    * numerators[targets[e]]
                    for e in edges
                ),
                fmpq_poly(),
            )
            yield k, sign_of * (numerators[s] * common - q), common

    def _breakpoint(self, piece: PieceTable, x: Point) -> PieceTable:
        """The point piece at ``x``, an end of ``piece``: the same values; tied are the
        actions whose margin vanishes at ``x``."""
        ties: dict[int, set[int]] = {s: set(t) for s, t in piece.ties.items()}
        for (s, k), (margin, _) in piece.margins.items():
            if _vanishes(margin, x):
                ties.setdefault(s, {piece.choice[s]}).add(k)
        choice = list(piece.choice)
        for s, tied in ties.items():
            choice[s] = min(tied)
        values, field = piece.values, self.field
        if isinstance(x, Fraction):  # exact rationals there
            values, field = [_evaluate(v, x) for v in values], _RATIONAL_VALUES
        return PieceTable(Range(self.symbol, x, x, True), choice, _sorted_ties(ties), values, field)

    def _at_point(self, c: Point) -> PieceTable:
        """A point where the moves or a reward's sign change: solved on its own."""
        if isinstance(c, RealRoot):
            raise ModelError(
                f"a probability or reward of the model vanishes at {self.symbol} = {c}, an "
                "irrational point inside the range; choose a parameter_range that avoids it"
            )
        solved = solve_graph(_substitute(self.G, self.symbol, c))
        values = [solved.field.public(v) for v in _field_values(solved, None)]
        ties = {s: tuple(t) for s, t in solved._ties.items() if s < len(self.G)}
        choice = list(solved._choice[: len(self.G)])
        return PieceTable(Range(self.symbol, c, c, True), choice, ties, values, _RATIONAL_VALUES)


_RATIONAL_VALUES = Field()


def _one_parameter_field(H: StateGraph) -> Field:
    """The field of the value graph's numbers (outcomes, probabilities and rewards), if
    it has one symbol."""
    field = field_of(H)
    if len(field.symbols) != 1:
        names = ", ".join(map(str, field.symbols))
        raise ModelError(
            f"a model with choices can be solved in one parameter, not {len(field.symbols)} "
            f"({names}); substitute values for all but one"
        )
    return field


def _sure_returns(G: StateGraph, deciders: Sequence[int]) -> set[tuple[int, int]]:
    """``(state, action index)`` of each action that surely comes back to its state,
    directly or through a run of pass-through states: it never ends play, so it is no
    tie, as in :meth:`~exactprob.engine.exact.solution.Solution.ties`."""
    _, _, first_edge = edge_ends(G)
    representative = pass_through(G, first_edge)
    found = set()
    for s in deciders:
        for k in range(len(G.actions[s])):
            c = G.choice_start[s] + k
            targets = G.targets[G.edge_start[c] : G.edge_start[c + 1]]
            if all(representative[t] == s for t in targets):
                found.add((s, k))
    return found


def _substitute(G: StateGraph, symbol: Any, t: Fraction) -> StateGraph:
    """``G`` at ``symbol = t``: rational numbers, the edges of probability 0 left out."""
    import sympy

    value = sympy.Rational(t.numerator, t.denominator)

    known: dict[Any, Exact] = {}  # outcomes and rewards repeat: substitute each once

    def at(x: Exact) -> Exact:
        found = known.get(x)
        if found is None:
            found = known[x] = exact(to_sympy(x).subs(symbol, value))
        return found

    R = StateGraph()
    R.states, R.index, R.players, R.actions = G.states, G.index, G.players, G.actions
    R.choice_start = G.choice_start
    R.outcomes = [None if o is None else at(o) for o in G.outcomes]
    R.rewards = None if G.rewards is None else [at(r) for r in G.rewards]
    # Distinct probabilities may become equal (p and 1 - p at 1/2): one id each, as
    # the engine expects of a graph's probabilities.
    distinct: dict[Exact, int] = {}
    new_id = [distinct.setdefault(at(q), len(distinct)) for q in G.probabilities]
    R.probabilities = list(distinct)
    starts, targets, ids = G.edge_start, G.targets, G.prob_ids
    for c in range(len(starts) - 1):
        for e in range(starts[c], starts[c + 1]):
            i = new_id[ids[e]]
            if R.probabilities[i] != 0:
                R.targets.append(targets[e])
                R.prob_ids.append(i)
        R.edge_start.append(len(R.targets))
    return R


def _restrict(G: StateGraph, choice: Sequence[int]) -> StateGraph:
    """``G`` with only the chosen action of each state (a Markov chain, same ids)."""
    R = StateGraph()
    R.states, R.index, R.players, R.outcomes = G.states, G.index, G.players, G.outcomes
    R.probabilities, R.symbolic = G.probabilities, G.symbolic
    R.rewards = None if G.rewards is None else []
    cs, starts = G.choice_start, G.edge_start
    for s in range(len(G)):
        if cs[s + 1] > cs[s]:
            c = cs[s] + choice[s]
            R.actions.append((G.actions[s][choice[s]],))
            R.targets.extend(G.targets[starts[c] : starts[c + 1]])
            R.prob_ids.extend(G.prob_ids[starts[c] : starts[c + 1]])
            R.edge_start.append(len(R.targets))
            if R.rewards is not None:
                R.rewards.append(G.rewards[c])  # type: ignore[index]
        else:
            R.actions.append(())
        R.choice_start.append(len(R.edge_start) - 1)
    return R


def _field_values(solution: Solution, field: Field | None) -> list[Any]:
    """Every state's value in ``field`` (the solution's own when ``None``), plus 1 for a
    reward's unit state (:func:`~exactprob.engine._internal.rewards.value_graph`)."""
    values = solution._field_values()
    if field is not None:
        values = [field.convert(v) for v in values]
    return [*values, (field or solution.field).convert(1)]


def _evaluate(q: Any, t: Fraction) -> Fraction:
    """A rational function of the field (or an exact rational) at ``t``, exactly."""
    numerator, denominator = _polynomials(q)
    at = fmpq(t.numerator, t.denominator)
    value = numerator(at) / denominator(at)
    return Fraction(int(value.p), int(value.q))


def _vanishes(polynomial: Any, x: Point) -> bool:
    """Whether the ``fmpq_poly`` is 0 at the point ``x`` (at an irrational root: whether
    the root's irreducible polynomial divides it)."""
    if isinstance(x, Fraction):
        return bool(polynomial(fmpq(x.numerator, x.denominator)) == 0)
    return bool((polynomial % fmpq_poly(list(reversed(x.coefficients)))).degree() < 0)


#: A margin's numerator and its real roots with their multiplicities.
_Margin = tuple[Any, list[tuple[Point, int]]]


def _polynomials(q: Any) -> tuple[Any, Any]:
    """A rational function of the field (or a rational) as FLINT numerator and
    denominator polynomials."""
    if isinstance(q, RationalFunction):
        return q.num, q.den
    r = Fraction(str(exact(q)))
    return fmpq_poly([fmpq(r.numerator, r.denominator)]), fmpq_poly([1])


def _over_one_denominator(values: list[Any]) -> tuple[list[Any], Any]:
    """Numerators :math:`N_s` and one denominator :math:`D` (the least common multiple
    of the values' own) with :math:`V_s = N_s / D`."""
    pairs = [_polynomials(v) for v in values]
    denominator = _lcm(d for _, d in pairs)
    return [n * (denominator // d) for n, d in pairs], denominator


def _lcm(polynomials: Iterable[Any]) -> Any:
    result = fmpq_poly([1])
    for p in polynomials:
        if p.degree() > 0:
            result = result * p // result.gcd(p)
    return result


def _roots_of(polynomial: Any) -> list[tuple[Point, int]]:
    """The real roots of a polynomial (none for a constant)."""
    return real_roots(polynomial) if polynomial.degree() > 0 else []


def _sign(x: Any) -> int:
    return int(x > 0) - int(x < 0)


def sample_between(a: Bound, b: Bound) -> Fraction:
    """The simplest rational strictly between ``a < b`` (``None``: no bound)."""
    if a is None and b is None:
        return Fraction(0)
    if a is None:
        assert b is not None
        high = _rational_below(b)
        return simplest_between(high - 1 - abs(high), high)
    if b is None:
        low = _rational_above(a)
        return simplest_between(low, low + 1 + abs(low))
    while not _rational_above(a) < _rational_below(b):
        for x in (a, b):
            if isinstance(x, RealRoot):
                x.refine()
    return simplest_between(_rational_above(a), _rational_below(b))


def _approx(x: Point) -> Fraction:
    return x.approx(6) if isinstance(x, RealRoot) else x


def _rational_above(x: Point) -> Fraction:
    """A rational at or above ``x`` (``x`` itself when rational; above an irrational)."""
    return x.high if isinstance(x, RealRoot) else x


def _rational_below(x: Point) -> Fraction:
    """A rational at or below ``x``."""
    return x.low if isinstance(x, RealRoot) else x


def _between(x: Point, a: Bound, b: Bound) -> bool:
    return (a is None or compare(a, x) < 0) and (b is None or compare(x, b) < 0)


def _sorted_distinct(points: list[Point]) -> list[Point]:
    ordered = sorted(points, key=_order)
    return [x for i, x in enumerate(ordered) if i == 0 or compare(ordered[i - 1], x) != 0]


_order = cmp_to_key(compare)


def _piece_key(piece: PieceTable) -> Any:
    """Pieces along the parameter: by lower end, a point before the interval it opens."""
    low = piece.where.low
    return (low is not None, _order(low) if low is not None else 0, not piece.where.point)


def _sorted_ties(ties: dict[int, set[int]]) -> dict[int, tuple[int, ...]]:
    return {s: tuple(sorted(t)) for s, t in ties.items() if len(t) > 1}
