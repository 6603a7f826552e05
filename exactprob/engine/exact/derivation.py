r"""The derivation of a solved model, written out: its states, the order they are solved
in, the equation of each state under optimal play with its exact coefficients, each
decision with its exact margin over the other actions (and the ties), and the values.
A piecewise answer (:mod:`~exactprob.engine.symbolic.piecewise`) adds its pieces and breakpoints.

The states shown are those nearest the start under the optimal play (breadth first), at
most ``limit`` of them; a larger model is summarised (how many states, levels and cyclic
components, and the sizes of the largest) with these representative equations.

>>> import exactprob as ep
>>> from fractions import Fraction
>>> class Bet:  # keep 1/2, or win with chance 2/3
...     initial = "choose"
...     def outcome(self, s): return {"kept": Fraction(1, 2), "won": 1, "lost": 0}.get(s)
...     def actions(self, s): return ("safe", "bold")
...     def transition(self, s, a):
...         return ep.Dist({"kept": 1}) if a == "safe" else ep.Dist({"won": "2/3", "lost": "1/3"})
>>> print(ep.solve(Bet()).derivation().markdown())  # doctest: +ELLIPSIS
# Derivation
...
$$
\begin{aligned}
Q(\text{'choose'}, \text{safe}) &= V(\text{'kept'}) = \frac{1}{2} \\
Q(\text{'choose'}, \text{bold}) &= \frac{2}{3} V(\text{'won'}) + \frac{1}{3} V(\text{'lost'}) = \frac{2}{3}
\end{aligned}
$$
<BLANKLINE>
Player 0 (maximising) plays bold, better than safe by $\frac{1}{6}$.
...
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import numpy as np

from ...errors import UsageError
from ...util.latex_printer import latex_expression
from ...util.mathdoc import Document, Math, latex_number, math_text
from ...util.numbers import is_symbolic, to_fraction, to_sympy
from ...util.text import count_text
from .._internal.elimination import Step, eliminate
from .._internal.order import component_labels, component_levels, component_order, edge_ends
from ..graph.state_graph import StateGraph


@dataclass(frozen=True)
class Equation:
    r"""One printed equation in structured form: ``value`` of ``state`` (under ``action``;
    ``None`` for a terminal state's outcome) is
    :math:`r + \sum_i p_i V(t_i)` with ``reward`` :math:`r` and ``terms`` the pairs
    :math:`(p_i, t_i)` (probability, next state), exactly as the model gives them."""

    state: Any
    action: Any
    reward: Any
    terms: tuple[tuple[Any, Any], ...]
    value: Any


class Derivation(Document):
    """A derivation as printed (:class:`~exactprob.util.mathdoc.Document`), with its
    equations in structured form: ``equations_shown`` (each shown state's, under the
    chosen action, and each terminal state's outcome) and ``decisions`` (``state -> every
    action's equation``), and ``values_used`` (the values of the states they use that
    are not written in full), so that a reader can check each printed line; and
    ``do_overs``, the equations of shown states that can repeat themselves, with the
    repeats summed away (no term in the state itself); and ``eliminations``, the steps
    of solving one small cyclic component by hand (its ``reward`` the constant, its
    ``terms`` the states not yet eliminated)."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.equations_shown: list[Equation] = []
        self.decisions: dict[Any, list[Equation]] = {}
        self.values_used: dict[Any, Any] = {}
        self.do_overs: list[Equation] = []
        self.eliminations: list[Equation] = []


class ExactSolution(Protocol):
    """What a derivation reads of an exact solution
    (:class:`~exactprob.engine.exact.solution.Solution`)."""

    @property
    def graph(self) -> StateGraph: ...

    def value(self, state: Any = None) -> Any: ...

    def policy(self, state: Any = None) -> Any: ...

    def ties(self, state: Any = None) -> tuple[Any, ...]: ...

    def action_values(self, state: Any = None) -> dict[Any, Any]: ...


class Pieces(Protocol):
    """What a derivation reads of a piecewise solution
    (:class:`~exactprob.engine.symbolic.piecewise.PiecewiseSolution`); its pieces are
    :class:`~exactprob.engine.symbolic.piecewise.PieceTable` (by state id)."""

    @property
    def graph(self) -> StateGraph: ...

    @property
    def parameter(self) -> Any: ...

    @property
    def piece_tables(self) -> Sequence[Any]: ...


__all__ = [
    "Derivation",
    "Equation",
    "ExactSolution",
    "Pieces",
    "derivation_of",
    "derive",
    "derive_piecewise",
]

#: The components of a graph as :func:`~._internal.order.component_order` gives them.
_Components = tuple[np.ndarray, np.ndarray]

#: States shown by default: equations, decisions and values.
LIMIT = 12
#: State names longer than this are written ``V_{i}``, with a legend.
SHORT_NAME = 16


def derivation_of(
    solved: Any, *, limit: int = LIMIT, states: Sequence[Any] | None = None
) -> Document:
    """The derivation of an exact result of the generic engine (a
    :class:`~exactprob.engine.exact.solution.Solution` or a
    :class:`~exactprob.engine.symbolic.piecewise.PiecewiseSolution`)."""
    if hasattr(solved, "piece_tables"):
        return derive_piecewise(solved, limit=limit, states=states)
    if hasattr(solved, "graph") and (hasattr(solved, "system") or hasattr(solved, "tie_rule")):
        return derive(solved, limit=limit, states=states)
    raise UsageError(
        f"a derivation is written from the generic engine's exact solution, not from a "
        f"{type(solved).__name__}; solve with exactprob.solve(model, generic=True)"
    )


def derive(
    solution: ExactSolution, *, limit: int = LIMIT, states: Sequence[Any] | None = None
) -> Derivation:
    """The derivation of an exact :class:`~exactprob.engine.exact.solution.Solution` (or of
    a game of seats, :class:`~exactprob.engine.seats.solution.SeatSolution`, whose values
    are tuples, one payoff per seat): the ``limit`` states nearest the start, or the
    ``states`` given."""
    G = solution.graph
    doc = Derivation("Derivation")
    shown = _shown(G, limit, states)
    components = component_order(G)  # component k: order[ends[k]:ends[k + 1]]
    steps = _elimination_steps(solution, shown, limit, components)
    name = StateNames(G, shown, [step.state for step in steps])
    _describe_model(doc, G)
    _describe_order(doc, G, components)
    doc.heading("Equations under optimal play")
    inner = [s for s in shown if G.outcomes[s] is None]
    doc.paragraph(
        "Each state's value is the expected value of the next state under the chosen "
        "action (plus its reward). ",
        *name.legend(),
        _more(len(inner), sum(o is None for o in G.outcomes), states is not None),
    )
    chosen = [_equation(G, s, _chosen(solution, s), solution.value(G.states[s])) for s in inner]
    doc.equations([f"{name(G.id_of(e.state))} &= {_printed(e, name)}" for e in chosen])
    _describe_do_overs(doc, chosen, name)
    ends = [t for t in name.reprs if G.outcomes[t] is not None][:limit]
    outcomes = [Equation(G.states[t], None, 0, (), G.outcomes[t]) for t in ends]
    if ends:
        doc.paragraph("Play ends in these states, each worth its outcome:")
        doc.equations([f"{name(t)} &= {latex_number(G.outcomes[t])}" for t in ends])
    doc.equations_shown = chosen + outcomes
    _describe_elimination(doc, solution, steps, name)
    written = set(shown)
    used = [t for t in name.reprs if G.outcomes[t] is None and t not in written]
    if used:
        doc.paragraph(
            "The values these equations use, of states not written above: ",
            _more(min(len(used), 4 * limit), len(used), True),
        )
        doc.values_used = {G.states[t]: solution.value(G.states[t]) for t in used[: 4 * limit]}
        doc.equations(
            [f"{name(G.id_of(t))} &= {latex_number(v)}" for t, v in doc.values_used.items()]
        )
    _describe_decisions(doc, solution, shown, name, states is not None)
    doc.heading("The answer")
    doc.paragraph(
        f"From the start, {G.states[0]!r}: ",
        Math(f"{name(0)} = {latex_number(solution.value())}"),
        ".",
    )
    return doc


def derive_piecewise(
    solution: Pieces, *, limit: int = LIMIT, states: Sequence[Any] | None = None
) -> Document:
    """The derivation of a :class:`~exactprob.engine.symbolic.piecewise.PiecewiseSolution`: the
    model, then each piece (where it holds, the decisions there with their margins as
    functions of the parameter, the value at the start) and each breakpoint (its
    polynomial, an isolating interval, the actions that tie there)."""
    G = solution.graph
    p = solution.parameter
    doc = Document(f"Derivation in {p}")
    _describe_model(doc, G)
    shown = _shown(G, limit, states)
    name = StateNames(G, shown)
    doc.paragraph(
        "The model is solved for every value of ",
        Math(str(p)),
        f" at once: {len(solution.piece_tables)} pieces, open intervals on which one play is "
        "optimal and the points between them. ",
        *name.legend(),
    )
    for piece in solution.piece_tables:
        _describe_piece(doc, solution, piece, shown, name)
    return doc


# -- the parts ----------------------------------------------------------------------------


def _describe_model(doc: Document, G: StateGraph) -> None:
    n = len(G)
    ends = sum(o is not None for o in G.outcomes)
    deciders = [s for s in range(n) if len(G.actions[s]) > 1]
    players = sorted({G.players[s] for s in deciders})
    who: dict[tuple[int, ...], str] = {(0,): "player 0 (maximising)", (1,): "player 1 (minimising)"}
    doc.heading("The model")
    chooser = who.get(tuple(players), "a player (0 maximises, 1 minimises)")
    if G.seats:
        chooser = f"a seat (each of {G.seats} maximising its own payoff)"
    choices = (
        f"{len(deciders):,} where {chooser} chooses"
        if deciders
        else "none offers a choice (a Markov chain)"
    )
    paying = G.rewards is not None and any(map(_pays, G.rewards))
    rewards = ", with rewards on the actions" if paying else ""
    doc.paragraph(
        f"{count_text(n, 'state')} reachable from {G.states[0]!r}: {ends:,} where play ends, "
        f"{choices}; {count_text(G.number_of_transitions(), 'transition')}{rewards}."
    )


def _describe_order(doc: Document, G: StateGraph, components: _Components) -> None:
    """How the states are solved: levels of the condensation, and its cyclic components."""
    levels, cyclic = _condensation(G, components)
    doc.heading("Order of solution")
    text = (
        f"The states are solved backwards from the end of play in {count_text(levels, 'level')}: a "
        "state's value needs only the values of states on lower levels"
    )
    if not cyclic:
        doc.paragraph(text + ", so each is one sum (the graph has no cycle).")
        return
    largest = ", ".join(f"{size:,}" for size in cyclic[:5]) + (", ..." if len(cyclic) > 5 else "")
    doc.paragraph(
        text + f" or in its own cyclic component. {count_text(len(cyclic), 'cyclic component')} "
        f"({count_text(cyclic[0], 'state')}"
        + (f"; sizes {largest}" if len(cyclic) > 1 else "")
        + "): each is one system of linear equations, solved exactly, "
        + (
            "one column per seat, and where it offers choices the movers take their best "
            "replies until none is strictly better for its own seat."
            if G.seats
            else "and where it offers choices its policy is improved until no action is "
            "strictly better (policy iteration; Hoffman-Karp strategy iteration for two "
            "players)."
        )
    )


def _describe_do_overs(doc: Derivation, chosen: list[Equation], name: StateNames) -> None:
    r"""The equations of states that stay put with some probability :math:`r < 1`, with
    the repeats summed: :math:`V = (c + \sum_{t \ne s} p_t V(t)) / (1 - r)`."""
    doc.do_overs = [e for e in map(_summed_repeats, chosen) if e is not None]
    if not doc.do_overs:
        return
    doc.paragraph(
        "A state that can come back to itself at once, with probability ",
        Math("r"),
        " (its own term above), is played again until it moves: ",
        Math("n"),
        " repeats have probability ",
        Math("r^n (1 - r)"),
        " and ",
        Math(r"\sum_{n \ge 0} r^n = \frac{1}{1 - r}"),
        ", so its equation is the others' probabilities (and its reward) divided by ",
        Math("1 - r"),
        ", a do-over renormalisation solved with one exact division:",
    )
    doc.equations([f"{name(name.G.id_of(e.state))} &= {_printed(e, name)}" for e in doc.do_overs])


def _elimination_steps(
    solution: ExactSolution, shown: list[int], limit: int, components: _Components
) -> list[Step]:
    """The elimination of the first cyclic component of 2 to ``limit`` states that holds a
    shown state, under the chosen actions (:func:`~._internal.elimination.eliminate`)."""
    G = solution.graph
    if G.seats:  # a seat's values are tuples: the cycle's equations are printed, not solved
        return []
    order, ends = components
    component_of = component_labels(order, ends)
    for s in shown:
        k = component_of[s]
        members = order[ends[k] : ends[k + 1]].tolist()
        if 2 <= len(members) <= limit:
            break
    else:
        return []
    inside = set(members)
    choices = {s: G.choice_start[s] + _chosen(solution, s) for s in sorted(members)}
    moves = {s: list(G.choice_edges(c)) for s, c in choices.items()}
    outside = {t for m in moves.values() for t, _ in m if t not in inside}
    values = {t: solution.value(G.states[t]) for t in outside}
    number = _exact_numbers([p for m in moves.values() for _, p in m] + list(values.values()))
    rows = {}
    for s, c in choices.items():
        reward = number(0 if G.rewards is None else G.rewards[c])
        exits = (number(p) * number(values[t]) for t, p in moves[s] if t not in inside)
        rows[s] = ({t: number(p) for t, p in moves[s] if t in inside}, sum(exits, reward))
    return eliminate(rows)


def _describe_elimination(
    doc: Derivation, solution: ExactSolution, steps: list[Step], name: StateNames
) -> None:
    """The steps of solving one cyclic component by hand, each kept as an equation."""
    if not steps:
        return
    G = solution.graph
    doc.heading("Solving a cycle by elimination")
    doc.paragraph(
        f"The cyclic component of these states ({count_text(len(steps), 'state')}) is solved by "
        "eliminating its states one at a time, the one with the fewest links "
        "to the others first: each line writes the eliminated state from those not yet "
        "eliminated (its own term divided out, as for a do-over, and the values of the "
        "states outside the cycle summed into the constant); the last line is a value, "
        "and substituting back gives the others."
    )
    doc.eliminations = [
        Equation(
            G.states[step.state],
            G.actions[step.state][_chosen(solution, step.state)],
            step.constant,
            tuple((a, G.states[t]) for a, t in step.terms),
            solution.value(G.states[step.state]),
        )
        for step in steps
    ]
    doc.equations([f"{name(G.id_of(e.state))} &= {_printed(e, name)}" for e in doc.eliminations])


def _summed_repeats(equation: Equation) -> Equation | None:
    """``equation`` with its term in its own state removed and the rest divided by one
    minus that term's probability (the elimination of that one state); ``None`` without
    such a term."""
    stay = [p for p, t in equation.terms if t == equation.state]
    if not stay or stay[0] == 1:
        return None
    number = _exact_numbers([equation.reward, *(p for p, _ in equation.terms)])
    row = ({t: number(p) for p, t in equation.terms}, number(equation.reward))
    (step,) = eliminate({equation.state: row})
    return Equation(equation.state, equation.action, step.constant, step.terms, equation.value)


def _exact_numbers(values: Sequence[Any]) -> Callable[[Any], Any]:
    """How to write these numbers for arithmetic by hand: sympy expressions when one is
    symbolic (a ``gmpy2.mpq`` added to a sympy expression becomes a float), else
    ``Fraction``."""
    return to_sympy if any(is_symbolic(x) for x in values) else to_fraction


def _describe_decisions(
    doc: Derivation, solution: ExactSolution, shown: list[int], name: StateNames, asked: bool
) -> None:
    G = solution.graph
    deciders = [s for s in shown if len(G.actions[s]) > 1]
    if not deciders:
        return
    doc.heading("Decisions")
    total = sum(len(a) > 1 for a in G.actions)
    doc.paragraph(
        "Every action's value, and the margin of the chosen one over the others. ",
        _more(len(deciders), total, asked),
    )
    for s in deciders:
        state = G.states[s]
        q = solution.action_values(state)
        doc.decisions[state] = [_equation(G, s, k, v) for k, v in enumerate(q.values())]
        doc.equations(
            [
                f"Q({name.text(s)}, {_text(e.action)}) &= {_printed(e, name)}"
                for e in doc.decisions[state]
            ]
        )
        verdict = _verdict(G.players[s], solution.policy(state), solution.ties(state), q, G.seats)
        doc.paragraph(*verdict)


def _verdict(
    player: int, chosen: Any, ties: Sequence[Any], q: dict[Any, Any], seats: int = 0
) -> list[str | Math]:
    """ "Player 0 plays a, better than b by m" (or the ties); in a game of ``seats``, the
    seat's own payoff decides and its margins are in it.

    >>> from fractions import Fraction as F
    >>> q = {"a": (F(1, 2), F(1, 2)), "b": (F(1, 2), F(0)), "c": (F(1, 4), F(3, 4))}
    >>> print("".join(p for p in _verdict(0, "a", ("a", "b"), q, seats=2) if isinstance(p, str)))
    Seat 0 plays a, tied exactly with b (a tie that changes another seat's payoff), better for it than c by .
    """
    if seats:
        mover = f"Seat {player}"
    else:
        mover = "Player 0 (maximising)" if player == 0 else "Player 1 (minimising)"
    parts: list[str | Math] = [f"{mover} plays {_word(chosen)}"]
    if len(ties) > 1:
        parts.append(f", tied exactly with {', '.join(_word(a) for a in ties if a != chosen)}")
        if seats and len({q[a] for a in ties}) > 1:
            parts.append(" (a tie that changes another seat's payoff)")
    others = [a for a in q if a not in ties]
    for i, a in enumerate(others):
        if seats:
            margin = q[chosen][player] - q[a][player]
            parts += [", better for it than " if i == 0 else ", than ", f"{_word(a)} by "]
            parts.append(Math(latex_number(margin)))
            continue
        margin = q[chosen] - q[a] if player == 0 else q[a] - q[chosen]
        parts += [
            ", better than " if i == 0 else ", than ",
            f"{_word(a)} by ",
            Math(latex_number(margin)),
        ]
    parts.append(".")
    return parts


def _describe_piece(
    doc: Document, solution: Pieces, piece: Any, shown: list[int], name: StateNames
) -> None:
    G = solution.graph
    where = piece.where
    doc.heading(Math(where.latex()))
    if where.point:
        _describe_point(doc, piece)
    else:
        inner = [s for s in shown if G.outcomes[s] is None]
        doc.paragraph("Each state's value on this piece, under the play chosen there:")
        doc.equations(
            [
                f"{name(s)} &= {_printed(_equation(G, s, piece.choice[s], piece.value_of_id(s)), name)}"
                for s in inner
            ]
        )
    lines = []  # the margins, on an interval only (a point's ties say it all)
    convert = cache(piece.field.convert)  # a model's few chances, each converted once
    for s in () if where.point else (s for s in shown if len(G.actions[s]) > 1):
        tied = piece.tied_of_id(s)
        for k, action in enumerate(G.actions[s]):
            if k in tied:
                continue
            margin = _margin(G, s, k, piece, convert)
            lines.append(
                f"V({name.text(s)}) - Q({name.text(s)}, {_text(action)}) &= {latex_expression(margin)}"
            )
    chosen = "; ".join(
        f"in {G.states[s]!r}, {' or '.join(_word(G.actions[s][k]) for k in piece.tied_of_id(s))}"
        for s in shown
        if len(G.actions[s]) > 1
    )
    doc.paragraph(
        f"Optimal play: {chosen}; the value at the start is ",
        Math(latex_expression(piece.value_of_id(0))),
        ".",
    )
    if lines:
        doc.paragraph(
            "The margins of the chosen actions over the others, positive on the whole piece:"
        )
        doc.equations(lines)


def _describe_point(doc: Document, piece: Any) -> None:
    from .._internal.algebraic import RealRoot

    x = piece.where.low
    if isinstance(x, RealRoot):
        import sympy

        y = sympy.Symbol(str(piece.where.symbol))
        f = sympy.Poly(list(x.coefficients), y).as_expr()
        x.approx(6)
        doc.paragraph(
            "A breakpoint: the root of ",
            Math(f"{latex_expression(f)} = 0"),
            " in ",
            Math(f"({latex_number(x.low)}, {latex_number(x.high)})"),
            "; the actions whose margin vanishes there tie.",
        )


# -- helpers ------------------------------------------------------------------------------


class StateNames:
    """How a derivation writes states: ``\\text{repr}`` when every name it uses is
    short, else ``s_{i}`` with a legend of every state it names (those ``shown``, those
    ``more`` whose equations are written too, and their successors). Called, it gives
    ``V(...)``; :meth:`plain` writes a state in running text."""

    def __init__(self, G: StateGraph, shown: Sequence[int], more: Sequence[int] = ()) -> None:
        self.G = G
        self.reprs = {s: repr(G.states[s]) for s in shown}
        for s in [*shown, *more]:
            for t in [s, *G.successors(s).tolist()]:
                self.reprs.setdefault(t, repr(G.states[t]))
        self.short = all(len(r) <= SHORT_NAME for r in self.reprs.values())

    def text(self, s: int) -> str:
        return math_text(self.reprs.get(s, repr(self.G.states[s]))) if self.short else f"s_{{{s}}}"

    def __call__(self, s: int) -> str:
        return f"V({self.text(s)})"

    def plain(self, s: int) -> str:
        """The state in running text: its repr, or its number when names are numbered."""
        return self.reprs.get(s, repr(self.G.states[s])) if self.short else f"state {s}"

    def legend(self) -> list[str | Math]:
        if self.short:
            return []
        items = [f"{s}: {r}" for s, r in self.reprs.items()]
        return ["States by number: " + "; ".join(items) + ". "]


def _equation(G: StateGraph, s: int, k: int, value: Any) -> Equation:
    """Action ``k`` of state ``s`` as the model gives it, with its exact value."""
    c = G.choice_start[s] + k
    reward = 0 if G.rewards is None else G.rewards[c]
    terms = tuple((p, G.states[t]) for t, p in G.choice_edges(c))
    return Equation(G.states[s], G.actions[s][k], reward, terms, value)


def _printed(equation: Equation, name: StateNames) -> str:
    r"""``r + p_1 V(t_1) + ... = value``, from the structured equation."""
    G = name.G
    if not equation.terms:  # a value found: the last step of an elimination
        return latex_number(equation.value)
    terms = [
        name(G.id_of(t)) if p == 1 else f"{_coefficient(p)} {name(G.id_of(t))}"
        for p, t in equation.terms
    ]
    if _pays(equation.reward):
        terms.insert(0, latex_number(equation.reward))
    return " + ".join(terms).replace("+ -", "- ") + f" = {latex_number(equation.value)}"


def _pays(reward: Any) -> bool:
    """Whether a reward pays anything: a number other than 0, or in a game of seats a
    tuple with such a number.

    >>> _pays(0), _pays((0, 0, 0)), _pays((0, -1, 0))
    (False, False, True)
    """
    return any(r != 0 for r in reward) if isinstance(reward, tuple) else reward != 0


def _coefficient(p: Any) -> str:
    text = latex_number(p)
    return f"\\left({text}\\right)" if is_symbolic(p) and ("+" in text or "-" in text) else text


def _margin(G: StateGraph, s: int, k: int, piece: Any, convert: Callable[[Any], Any]) -> Any:
    r"""How much better the mover's chosen play is than action ``k`` of state ``s`` on an
    interval piece, :math:`\pm\bigl(V(s) - Q(s, a_k)\bigr)`, computed in the piece's
    field (rational functions of the parameter in FLINT, where the sum is cancelled as it
    is formed) and factored once as a sympy expression. Simplifying the sympy sum
    instead took most of a derivation's time. ``convert`` puts a chance or a reward into
    the field."""
    field, values = piece.field, piece.values
    c = G.choice_start[s] + k
    edges = list(G.choice_edges(c))
    q = field.dot([convert(p) for _, p in edges], [values[t] for t, _ in edges])
    if G.rewards is not None:
        q = q + convert(G.rewards[c])
    margin = values[s] - q
    return field.public(margin if G.players[s] == 0 else -margin)


def _text(action: Any) -> str:
    """An action inside mathematics, in words (:func:`_word`)."""
    return math_text(_word(action))


def _word(action: Any) -> str:
    """An action in words: a string as it is, anything else as Python writes it.

    >>> _word("test luck"), _word(2)
    ('test luck', '2')
    """
    return action if isinstance(action, str) else repr(action)


def _chosen(solution: ExactSolution, s: int) -> int:
    """The index of the chosen action of state ``s``."""
    G = solution.graph
    return G.actions[s].index(solution.policy(G.states[s]))


def _more(shown: int, total: int, asked: bool) -> str:
    """Which of the states are written: all, those asked for, or the nearest the start."""
    if shown >= total:
        return ""
    if asked:
        return f"Written for the states asked for: {shown:,} of {total:,}."
    return f"The {shown:,} nearest the start of {total:,} are shown."


def _shown(G: StateGraph, limit: int, states: Sequence[Any] | None) -> list[int]:
    """The ids of the states written in full: those given where play goes on, else the
    ``limit`` nearest the start."""
    if states is None:
        return _nearest(G, limit)
    return [G.id_of(state) for state in states if G.outcomes[G.id_of(state)] is None]


def _nearest(G: StateGraph, limit: int) -> list[int]:
    """Up to ``limit`` states where play goes on, nearest the start (breadth first over
    every action's moves)."""
    seen, order, queue = {0}, list[int](), deque([0])
    while queue and len(order) < limit:
        s = queue.popleft()
        if G.outcomes[s] is not None:
            continue
        order.append(s)
        for t in G.successors(s).tolist():
            if t not in seen:
                seen.add(t)
                queue.append(t)
    return order


def _condensation(G: StateGraph, components: _Components) -> tuple[int, list[int]]:
    """The number of levels of the graph's condensation (longest path from a state to
    the end of play, counted in components; :func:`~._internal.order.component_levels`)
    and the sizes of its cyclic components, largest first."""
    order, ends = components
    sources, targets, _ = edge_ends(G)
    sizes = np.diff(ends)
    component_of = component_labels(order, ends)
    looped = np.zeros(len(sizes), dtype=bool)
    looped[component_of[sources[sources == targets]]] = True
    cyclic = sorted((int(x) for x in sizes[(sizes > 1) | looped]), reverse=True)
    return len(component_levels(order, ends, sources, targets)), cyclic
