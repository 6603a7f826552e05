"""Independent exact oracle: export state graphs to Storm and check them there.

This module turns the state graph produced by the core explorer into Storm's
explicit DRN format and lets the probabilistic model checker Storm (through
``stormpy``) compute the same quantities as :mod:`exactprob` in *exact*
rational arithmetic.  It is meant as a cross-check (test oracle) for the core
engine, not as a solver for production use.

.. rubric:: The graph contract

The input is a :class:`~exactprob.engine.graph.state_graph.StateGraph` (read through its
:meth:`~exactprob.engine.graph.state_graph.StateGraph.to_networkx` view) or a :class:`networkx.DiGraph`
``G`` with ``G.graph["initial"]``;
node attributes ``outcome`` (``None`` for non-terminal states, else the exact
terminal value), ``player`` (0 maximises, 1 minimises) and ``actions`` (tuple
of actions, empty for terminal states); edge attribute ``probs`` mapping each
action to the exact probability of that edge under the action.

.. rubric:: Encoding

* States are numbered stably: a breadth-first search from the initial state
  (successors in the graph's insertion order), so the initial state is ``0``;
  states unreachable from it follow in ``G.nodes`` order.  One extra state,
  the *sink* (the last index), is added.
* Every terminal state gets a single action leading to the sink with
  probability 1; the sink has a self-loop.  Each state's actions are written
  in the model's order, named ``a0, a1, ...`` (by position, since model
  actions may be arbitrary Python objects).
* Two action-reward models are written: ``value`` carries, on the terminal
  state's action to the sink, the terminal outcome, and on every other action
  its reward (node attribute ``rewards``, ``{action: reward}``, non-negative;
  absent means 0); ``steps`` carries ``1`` on every action of a non-terminal
  state.  The value of a state is then the
  expected reward accumulated until reaching the sink
  (``R{"value"}max=? [F "sink"]``) and the expected number of transitions
  until a terminal state is ``R{"steps"}=? [F "sink"]``.
* **Shifted outcomes.** Storm's reward algorithms for MDPs assume
  non-negative rewards, and Storm treats an all-zero reward model as absent,
  so when some outcome is below 1, *all* outcomes are shifted by
  ``c = 1 - min(outcome)`` before writing.  Because every policy
  reaches exactly one terminal state with probability 1, every value is
  shifted by exactly ``c``; the readers in this module subtract ``c`` again.
  The shift is recorded in a comment line ``// value shift: c`` of the DRN.
* Probabilities and rewards are written as exact rationals ``p/q`` and the
  header declares ``@value_type: rational``; a graph whose probabilities or rewards
  are sympy expressions is written as a parametric model (``@value_type:
  parametric``, its symbols under ``@parameters``, ``^`` for powers) for Storm's
  parametric engine.  Labels: only ``init`` (state 0) and ``sink`` (and, when
  asked, ``marked`` or ``goal``).  (Storm's DRN parser matches state labels with a
  ``std::regex``, about 50 microseconds per labelled state: labelling every
  choice state made building a 100k-state MDP 8 times slower.)
* Model type: ``DTMC`` if every state has one action; otherwise ``MDP``,
  maximised if only player 0 has choices, minimised if only player 1 has.

.. rubric:: Findings about Storm (stormpy 2.0.0, Storm 1.x/2.0 bundled with it)

* Exact DTMCs and MDPs work: ``stormpy.build_model_from_drn[stormpy.Rational]``
  parses the DRN with rational values, and ``stormpy.model_checking`` with
  ``stormpy.environments.exact()`` (the default for rational models) solves
  them exactly (topological solvers; the result reports "Exact solution").
  Values come back as ``stormpy.Rational`` (GMP ``mpq``); they are converted
  via their exact decimal string ``"p/q"``, never through ``float``.
* Two-player games (SMGs) **cannot** be checked: the DRN parser has no syntax
  for state owners (``@type: SMG`` is accepted but the model cannot be
  built, ``S2PG`` is rejected outright); SMGs can be built from PRISM-games
  files, but ``stormpy.model_checking`` returns ``None`` for every rPATL
  formula on them (also with floats), and Storm's rPATL checker supports
  neither quantitative reachability rewards nor exact arithmetic.  Hence
  :func:`storm_value` raises :class:`NotImplementedError` for graphs in which
  both players have choices.  :func:`storm_game_value` offers an exact
  substitute for *small* games: it enumerates the positional strategies of
  one player and lets Storm solve each resulting MDP exactly (positional
  strategies suffice for such stopping games).
* ``stormpy.build_model_from_drn`` only reads files, so the DRN text is
  written to a temporary file.
* Parametric chains: ``stormpy.build_model_from_drn[stormpy.RationalFunction]`` and
  ``stormpy.model_checking`` solve them exactly by state elimination, the value a
  rational function (read back through its string, ``^`` for powers). Parametric MDPs
  have no exact optimum there (parameter lifting answers by regions), so
  :func:`storm_parametric_value` takes chains only.

``stormpy`` is imported lazily inside the functions; importing this module
(or :mod:`exactprob`) does not require it.
"""

from __future__ import annotations

import itertools
import os
import re
import tempfile
import time
from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gmpy2 import mpq

from ..errors import InexactError, ModelError, ResourceError, UsageError
from ..util.numbers import exact, is_symbolic, to_sympy

__all__ = [
    "DrnExport",
    "export_drn",
    "storm_bounded_reach",
    "storm_expected_steps",
    "storm_game_value",
    "storm_long_run_average",
    "storm_parametric_value",
    "storm_steady_state",
    "storm_timed_long_run_average",
    "storm_timed_parametric_value",
    "storm_timed_value",
    "storm_value",
    "storm_values",
    "to_drn",
]

#: Name of the reward model holding the (shifted) terminal outcomes.
VALUE_REWARD = "value"
#: Name of the reward model counting transitions.
STEPS_REWARD = "steps"


def _exact(x: Any) -> Any:
    """Convert an exact number (int, Fraction, gmpy2 mpq/mpz) to ``gmpy2.mpq``.

    Parameters
    ----------
    x : int, fractions.Fraction, gmpy2.mpq or gmpy2.mpz
        Exact rational number.  Floats are rejected.

    Returns
    -------
    gmpy2.mpq
        The same number.

    Raises
    ------
    InexactError
        If `x` is a float (or another inexact / non-numeric value).
    """
    if type(x) is mpq:
        return x
    if isinstance(x, float) or type(x).__name__ == "mpfr":
        raise InexactError(f"inexact float {x!r} in the state graph")
    try:
        return mpq(x)
    except (TypeError, ValueError) as exc:
        raise InexactError(f"not an exact rational: {x!r}") from exc


def _entry(x: Any, parametric: bool) -> Any:
    """A probability or reward of the graph: ``gmpy2.mpq``, or (``parametric``) a sympy
    expression in the model's symbols. Floats, irrational constants and, for a rational
    export, symbols raise :class:`InexactError`."""
    if not is_symbolic(x):
        return _exact(x)
    value = exact(x)  # a sympy rational becomes an mpq; a Float or sqrt(2) is refused
    if not is_symbolic(value):
        return value
    import sympy

    if value.has(sympy.Float):  # exact() keeps an expression in symbols whole, 0.5*p too
        raise InexactError(f"inexact float in {value!r} in the state graph")
    if not parametric:
        raise InexactError(
            f"not an exact rational: {value} (a graph with symbols is a parametric model: "
            "storm_parametric_value solves it)"
        )
    return value


def _drn_number(x: Any, names: dict[Any, str]) -> str:
    """An entry in Storm's syntax: gmpy2's ``str`` of an ``mpq`` is ``"p/q"`` already; a
    sympy expression has its symbols renamed ``v0, v1, ...`` in order of appearance
    (``names`` grows; a symbol's own name may be one Storm cannot parse or a Python
    keyword) and ``^`` for powers."""
    if not is_symbolic(x):
        return str(x)
    import sympy

    for symbol in sorted(x.free_symbols, key=str):
        names.setdefault(symbol, f"v{len(names)}")
    renamed = x.xreplace({symbol: sympy.Symbol(names[symbol]) for symbol in x.free_symbols})
    return str(renamed).replace("**", "^")


def _to_fraction(x: Any) -> Fraction:
    """Convert an exact ``gmpy2.mpq`` (or int / Fraction) to a Fraction."""
    q = _exact(x)
    return Fraction(int(q.numerator), int(q.denominator))


def _from_storm(value: Any) -> Fraction:
    """Convert a ``stormpy.Rational`` (or int) to an exact Fraction.

    Storm's ``str`` of a GMP rational is the exact ``"p/q"`` (or ``"p"``)
    string, which :class:`fractions.Fraction` parses exactly.

    Parameters
    ----------
    value : stormpy.Rational
        Exact value returned by Storm.

    Returns
    -------
    fractions.Fraction
        The same number.
    """
    if isinstance(value, float):
        raise InexactError(f"Storm returned an inexact float {value!r}")
    return Fraction(str(value))


@dataclass
class DrnExport:
    """A state graph encoded in Storm's DRN format, with its bookkeeping.

    Attributes
    ----------
    text : str
        The DRN text.
    index : dict
        Map from graph state to its DRN state number (initial state is 0).
    sink : int
        Number of the added sink state.
    shift : fractions.Fraction
        Constant added to every outcome (0 unless some outcome is negative).
    model_type : str
        ``"DTMC"`` or ``"MDP"``.
    direction : str or None
        ``"max"`` or ``"min"`` for MDPs (the optimising player's direction),
        ``None`` for DTMCs.
    choice_players : set of int
        Players owning a state with at least two (unfixed) actions.
    parameters : tuple of sympy.Symbol
        The symbols of a parametric model (empty for a rational one), named ``v0, v1,
        ...`` in the DRN in this order.
    """

    text: str
    index: dict[Hashable, int]
    sink: int
    shift: Fraction
    model_type: str
    direction: str | None
    choice_players: set[int] = field(default_factory=set)
    parameters: tuple[Any, ...] = ()


def _as_networkx(graph: Any) -> Any:
    """The networkx view of a :class:`~exactprob.engine.graph.state_graph.StateGraph`; a networkx graph as is."""
    to_networkx = getattr(graph, "to_networkx", None)
    return graph if to_networkx is None else to_networkx()


def _numbering(graph: Any) -> list[Hashable]:
    """Stable state order: BFS from the initial state, then the rest."""
    initial = graph.graph["initial"]
    order: list[Hashable] = [initial]
    seen = {initial}
    queue = deque([initial])
    while queue:
        u = queue.popleft()
        for v in graph.successors(u):
            if v not in seen:
                seen.add(v)
                order.append(v)
                queue.append(v)
    for u in graph.nodes:
        if u not in seen:
            seen.add(u)
            order.append(u)
    return order


def export_drn(
    graph: Any,
    *,
    fix: Mapping[Hashable, Hashable] | None = None,
    check: bool = True,
    marked: Hashable | None = None,
    goal: bool = False,
    parametric: bool = False,
) -> DrnExport:
    """Encode a state graph as DRN and return the text with its bookkeeping.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    fix : mapping, optional
        ``{state: action}``: restrict these non-terminal states to the given
        single action (e.g. to evaluate a fixed policy, or to turn a game into
        an MDP).  The action must be one of the state's actions.
    check : bool, default True
        Verify that each exported action's probabilities are non-negative
        and sum to exactly 1.  (Outcomes and probabilities are always
        required to be exact; floats are rejected.)
    marked : state, optional
        A state to label ``marked`` (for a formula about it).
    goal : bool, default False
        Label the terminal states of outcome 1 ``goal``: with outcomes 0 and 1 only and
        no rewards, the value is the probability ``P=? [F "goal"]``.
    parametric : bool, default False
        Accept probabilities and rewards that are sympy expressions in symbols, and write
        a parametric model (its symbols renamed ``v0, v1, ...``).

    Returns
    -------
    DrnExport
        The DRN text, the state numbering, the sink, the outcome shift and
        the model type / optimisation direction.

    Raises
    ------
    ModelError
        If the graph violates the contract (probabilities not summing to 1,
        non-terminal state without actions, unknown fixed action, ...).
    InexactError
        If an outcome or probability is a float (not exact), or symbolic when
        ``parametric`` is false.
    """
    fix = dict(fix or {})
    graph = _as_networkx(graph)
    order = _numbering(graph)
    index = {u: i for i, u in enumerate(order)}
    sink = len(order)
    nodes = graph.nodes
    zero, one = mpq(0), mpq(1)

    outcomes = [nodes[u].get("outcome") for u in order]
    terminal_values = [_exact(o) for o in outcomes if o is not None]
    lowest = min(terminal_values, default=one)  # a chain that never ends: no shift
    # Storm drops a reward model whose rewards are all zero, so shift up to at least one.
    shift = one - lowest if lowest < one else zero

    # gmpy2's str(mpq) is exactly Storm's rational syntax ("p/q" or "p").
    lines: list[str] = []
    nr_choices = 0
    choice_players: set[int] = set()
    names: dict[Any, str] = {}  # a parametric model's symbols and their names in the DRN
    for i, u in enumerate(order):
        data = nodes[u]
        outcome = outcomes[i]
        init = (" init" if i == 0 else "") + (" marked" if u == marked else "")
        init += " goal" if goal and outcome == 1 else ""
        if outcome is not None:
            value = _exact(outcome) + shift
            lines.append(f"state {i}{init}\n\taction a0 [{value},0]\n\t\t{sink} : 1")
            nr_choices += 1
            continue
        actions = tuple(data.get("actions", ()))
        if not actions:
            raise ModelError(f"non-terminal state {u!r} has no actions")
        # Successors per action, in graph order (a DiGraph has one edge per pair).
        succ: dict[Hashable, list[tuple[int, Any]]] = {a: [] for a in actions}
        for _, v, probs in graph.out_edges(u, data="probs"):
            j = index[v]
            for a, p in (probs or {}).items():
                target = succ.get(a)
                if target is None:
                    raise ModelError(f"edge {u!r}->{v!r} has probability for unknown action {a!r}")
                q = _entry(p, parametric)
                if q != 0:
                    target.append((j, q))
        if u in fix:
            if fix[u] not in succ:
                raise ModelError(f"fixed action {fix[u]!r} is not an action of state {u!r}")
            chosen = [(actions.index(fix[u]), fix[u])]
        else:
            chosen = list(enumerate(actions))
        if len(chosen) > 1:
            player = data.get("player", 0)
            if player not in (0, 1):
                raise ModelError(f"state {u!r} has invalid player {player!r}")
            choice_players.add(player)
        lines.append(f"state {i}{init}")
        for k, a in chosen:
            targets = succ[a]
            if check:
                _check_probabilities(u, a, [q for _, q in targets])
            reward = _entry(data.get("rewards", {}).get(a, 0), parametric)
            if not is_symbolic(reward) and reward < 0:
                raise ModelError(
                    f"action {a!r} in state {u!r} earns {reward}: Storm's reward algorithms "
                    "take non-negative rewards only"
                )
            lines.append(f"\taction a{k} [{_drn_number(reward, names)},1]")
            lines.extend([f"\t\t{j} : {_drn_number(q, names)}" for j, q in targets])
            nr_choices += 1
    lines.append(f"state {sink} sink\n\taction a0 [0,0]\n\t\t{sink} : 1")
    nr_choices += 1

    if not choice_players:
        model_type, direction = "DTMC", None
    elif choice_players == {0}:
        model_type, direction = "MDP", "max"
    elif choice_players == {1}:
        model_type, direction = "MDP", "min"
    else:
        model_type, direction = "MDP", None  # a genuine game; see storm_value

    header = [
        "// exactprob state graph",
        f"// value shift: {shift}",
        f"@type: {model_type}",
        "@value_type: parametric" if names else "@value_type: rational",
        "@parameters",
        " ".join(names.values()),
        "@reward_models",
        f"{VALUE_REWARD} {STEPS_REWARD}",
        "@nr_states",
        str(sink + 1),
        "@nr_choices",
        str(nr_choices),
        "@model",
    ]
    text = "\n".join(header + lines) + "\n"
    return DrnExport(
        text,
        index,
        sink,
        _to_fraction(shift),
        model_type,
        direction,
        choice_players,
        tuple(names),
    )


def _check_probabilities(state: Hashable, action: Hashable, probabilities: list[Any]) -> None:
    """Raise :class:`ModelError` unless the probabilities of ``action`` in ``state`` sum to
    one (identically, for a parametric model) and the rational ones are non-negative."""
    if any(is_symbolic(q) for q in probabilities):
        import sympy

        total = sympy.cancel(sum(map(to_sympy, probabilities), sympy.Integer(0)))
    else:
        total = sum(probabilities, mpq(0))
    if total != 1 or any(not is_symbolic(q) and q < 0 for q in probabilities):
        raise ModelError(
            f"probabilities of action {action!r} in state {state!r} sum to {total}, not 1"
        )


def to_drn(graph: Any, *, fix: Mapping[Hashable, Hashable] | None = None) -> str:
    """Export a state graph to Storm's explicit DRN format.

    See the module docstring for the encoding (sink state, reward models
    ``value`` and ``steps``, outcome shift for negative outcomes, labels).

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    fix : mapping, optional
        ``{state: action}`` restricting some states to one action.

    Returns
    -------
    str
        The DRN text (a DTMC or an MDP).

    Raises
    ------
    NotImplementedError
        If both players have choices: DRN cannot express two-player games.
    """
    export = export_drn(graph, fix=fix)
    if export.model_type == "MDP" and export.direction is None:
        raise NotImplementedError(
            "Storm's DRN format cannot express two-player games (state owners); "
            "fix one player's actions with `fix=` to obtain an MDP"
        )
    return export.text


def _build(export: DrnExport) -> Any:
    """Build an exact sparse Storm model from a DRN export."""
    import stormpy

    fd, path = tempfile.mkstemp(suffix=".drn", prefix="exactprob-")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(export.text)
        number = stormpy.RationalFunction if export.parameters else stormpy.Rational
        return stormpy.build_model_from_drn[number](path)
    finally:
        os.unlink(path)


def _check(model: Any, formula: str, *, only_initial: bool) -> Any:
    """Model check `formula` exactly and return Storm's result object."""
    import stormpy

    prop = stormpy.parse_properties(formula)[0]
    env = stormpy.environments.exact()
    result = stormpy.model_checking(model, prop, only_initial_states=only_initial, environment=env)
    if result is None:  # pragma: no cover - Storm found no applicable checker
        raise NotImplementedError(f"Storm cannot check {formula!r} on this model")
    return result


def _value_formula(export: DrnExport, optimise: bool) -> str:
    """Reachability-reward formula for the value of the exported model."""
    if export.model_type == "MDP" and export.direction is None:
        raise NotImplementedError(
            "two-player games cannot be checked exactly by Storm (stormpy 2.0.0): "
            "DRN has no state owners, and Storm's rPATL checker for SMGs supports "
            "neither quantitative reachability rewards nor exact arithmetic "
            "(model_checking returns None). Use storm_game_value() for small games."
        )
    if export.direction is None:
        return f'R{{"{VALUE_REWARD}"}}=? [F "sink"]'
    direction = export.direction
    if not optimise:
        direction = "min" if direction == "max" else "max"
    return f'R{{"{VALUE_REWARD}"}}{direction}=? [F "sink"]'


def storm_values(
    graph: Any,
    *,
    optimise: bool = True,
    fix: Mapping[Hashable, Hashable] | None = None,
) -> dict[Hashable, Fraction]:
    """Exact value of every state of the graph, computed by Storm.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    optimise : bool, default True
        If True each player optimises (player 0 maximises, player 1
        minimises).  If False the choosing player plays *against* its
        objective, giving the other end of the range of policy values.
    fix : mapping, optional
        ``{state: action}`` restricting some states to one action.

    Returns
    -------
    dict
        ``{state: Fraction}`` for every state of the graph (terminal states
        get their outcome).

    Raises
    ------
    NotImplementedError
        If both players have choices (see :func:`storm_game_value`).
    """
    export = export_drn(graph, fix=fix)
    formula = _value_formula(export, optimise)
    result = _check(_build(export), formula, only_initial=False)
    return {u: _from_storm(result.get_value(i)) - export.shift for u, i in export.index.items()}


def storm_value(
    graph: Any,
    *,
    optimise: bool = True,
    fix: Mapping[Hashable, Hashable] | None = None,
) -> Fraction:
    """Exact value of the initial state, computed by Storm.

    The value is the expected terminal outcome when player 0 maximises and
    player 1 minimises (only one of them may have choices; a graph where
    every state has one action is a Markov chain).  Storm solves
    ``R{"value"}max=? [F "sink"]`` (or ``min``, or the DTMC version) on the
    exact model built from :func:`to_drn`.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    optimise : bool, default True
        If False, the choosing player plays against its objective (so for a
        maximising MDP this returns the minimal value over policies).
    fix : mapping, optional
        ``{state: action}`` restricting some states to one action, e.g. to
        evaluate a given policy.

    Returns
    -------
    fractions.Fraction
        The exact value of ``graph.graph["initial"]``.

    Raises
    ------
    NotImplementedError
        If both players have choices (Storm cannot solve two-player games
        exactly; see :func:`storm_game_value`).
    """
    return storm_timed_value(graph, optimise=optimise, fix=fix)[0]


def storm_timed_value(
    graph: Any,
    *,
    optimise: bool = True,
    fix: Mapping[Hashable, Hashable] | None = None,
) -> tuple[Fraction, dict[str, float]]:
    """Like :func:`storm_value`, also returning wall-clock timings.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    optimise : bool, default True
        See :func:`storm_value`.
    fix : mapping, optional
        See :func:`storm_value`.

    Returns
    -------
    value : fractions.Fraction
        The exact value of the initial state.
    timings : dict
        Seconds spent in ``"export"`` (Python DRN writing), ``"build"``
        (writing the temporary file, Storm parsing the DRN and building the
        exact sparse model) and
        ``"check"`` (exact model checking, initial state only).
    """
    t0 = time.perf_counter()
    export = export_drn(graph, fix=fix)
    formula = _value_formula(export, optimise)
    t1 = time.perf_counter()
    model = _build(export)
    t2 = time.perf_counter()
    result = _check(model, formula, only_initial=True)
    value = _from_storm(result.get_value(0)) - export.shift
    t3 = time.perf_counter()
    return value, {"export": t1 - t0, "build": t2 - t1, "check": t3 - t2}


def storm_parametric_value(graph: Any) -> Any:
    """The value of a parametric chain's initial state, computed by Storm's parametric
    engine (state elimination over rational functions), as a sympy expression.

    Parameters
    ----------
    graph : StateGraph or networkx.DiGraph
        A chain (one action per state) whose probabilities or rewards are sympy
        expressions in one or more symbols; outcomes rational.

    Returns
    -------
    sympy.Expr
        The value, a rational function of the parameters.

    Raises
    ------
    NotImplementedError
        If the graph has choices: Storm's parametric engine solves chains exactly, and
        parametric MDPs only by regions.

    Examples
    --------
    >>> import sympy, exactprob as ep
    >>> p = sympy.Symbol("p")
    >>> class Streak:  # two successes in a row, each with chance p
    ...     initial = 0
    ...     def outcome(self, s): return 1 if s == 2 else (0 if s == -1 else None)
    ...     def actions(self, s): return ("try",)
    ...     def transition(self, s, a): return ep.Dist({s + 1: p, -1: 1 - p})
    >>> storm_parametric_value(ep.explore(Streak()))  # doctest: +SKIP
    p**2
    """
    return storm_timed_parametric_value(graph)[0]


def storm_timed_parametric_value(graph: Any) -> tuple[Any, dict[str, float]]:
    """Like :func:`storm_parametric_value`, also returning wall-clock timings: seconds in
    ``"export"`` (Python DRN writing), ``"build"`` (Storm parsing the DRN into a sparse
    model over rational functions), ``"check"`` (the parametric model checking) and
    ``"read"`` (Storm's rational function read back into sympy). A chain with outcomes 0
    and 1 and no rewards is asked Storm's own question, the probability of reaching an
    outcome of 1 (``P=? [F "goal"]``, faster in Storm than the reward formula)."""
    import sympy

    t0 = time.perf_counter()
    G = _as_networkx(graph)
    outcomes = {G.nodes[u].get("outcome") for u in G.nodes} - {None}
    rewarded = any(G.nodes[u].get("rewards") for u in G.nodes)
    probability = 1 in outcomes and outcomes <= {0, 1} and not rewarded  # Storm's own question
    export = export_drn(G, goal=probability, parametric=True)
    if export.model_type != "DTMC":
        raise NotImplementedError(
            "Storm solves parametric chains exactly; a parametric model with choices it "
            "answers only by regions (parameter lifting)"
        )
    formula = 'P=? [F "goal"]' if probability else _value_formula(export, True)
    t1 = time.perf_counter()
    model = _build(export)
    t2 = time.perf_counter()
    result = _check(model, formula, only_initial=True)
    t3 = time.perf_counter()
    names = {f"v{i}": x for i, x in enumerate(export.parameters)}
    value = sympy.sympify(str(result.get_value(0)).replace("^", "**"), locals=names)
    if not probability:
        value -= sympy.Rational(export.shift.numerator, export.shift.denominator)
    t4 = time.perf_counter()
    return value, {"export": t1 - t0, "build": t2 - t1, "check": t3 - t2, "read": t4 - t3}


def storm_expected_steps(
    graph: Any,
    *,
    fix: Mapping[Hashable, Hashable] | None = None,
) -> Fraction:
    """Exact expected number of transitions from the initial state to a terminal state.

    Only defined for Markov chains (every state has one action, possibly
    after restricting states with `fix`).

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    fix : mapping, optional
        ``{state: action}`` restricting some states to one action; use it to
        evaluate the expected duration under a given policy.

    Returns
    -------
    fractions.Fraction
        Expected number of steps.

    Raises
    ------
    UsageError
        If some state still has several actions.
    """
    export = export_drn(graph, fix=fix)
    if export.model_type != "DTMC":
        raise UsageError(
            "expected steps are only defined for Markov chains; fix the actions "
            "of the choice states with `fix=`"
        )
    result = _check(_build(export), f'R{{"{STEPS_REWARD}"}}=? [F "sink"]', only_initial=True)
    return _from_storm(result.get_value(0))


def _chooser_direction(export: DrnExport, what: str) -> str:
    """The operator's direction for Storm: ``""`` for a chain, ``"max"`` or ``"min"`` for
    the one player who chooses; ``what`` names the question refused when both do."""
    if export.model_type == "DTMC":
        return ""
    if export.direction is None:
        raise UsageError(f"{what}: only one player may choose")
    return str(export.direction)


def storm_long_run_average(graph: Any) -> Fraction:
    """Exact long-run average reward per move from the initial state (``R{"value"}=?
    [LRA]``): of a Markov chain, or of the best play of a model where one player chooses
    (``Rmax`` when player 0 chooses, ``Rmin`` when player 1 does). The rewards are those
    on the choices (node attribute ``rewards``), terminal states earning nothing once
    play has ended (the outcome, paid once on the way to the sink, does not count in
    the long run).

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.

    Returns
    -------
    fractions.Fraction
        The long-run average reward.

    Raises
    ------
    UsageError
        If both players choose somewhere.
    """
    return storm_timed_long_run_average(graph)[0]


def storm_timed_long_run_average(graph: Any) -> tuple[Fraction, dict[str, float]]:
    """Like :func:`storm_long_run_average`, also returning the seconds spent in
    ``"export"``, ``"build"`` and ``"check"`` (as :func:`storm_timed_value`)."""
    t0 = time.perf_counter()
    export = export_drn(graph)
    operator = _chooser_direction(export, "the long-run average of a game")
    t1 = time.perf_counter()
    model = _build(export)
    t2 = time.perf_counter()
    result = _check(model, f'R{{"{VALUE_REWARD}"}}{operator}=? [LRA]', only_initial=True)
    value = _from_storm(result.get_value(0))
    t3 = time.perf_counter()
    return value, {"export": t1 - t0, "build": t2 - t1, "check": t3 - t2}


def storm_bounded_reach(graph: Any, steps: int) -> Fraction:
    """Exact best chance, from the initial state, of reaching a terminal state of outcome
    1 within ``steps`` moves: Storm's step-bounded ``P=? [F<=steps "goal"]`` (``Pmax``
    when player 0 chooses, ``Pmin`` when player 1 does). The outside check of
    ``ep.solve(model, horizon=steps)`` with every move one step.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring; its outcomes 0 and
        1 only, without rewards.
    steps : int
        The most moves.

    Returns
    -------
    fractions.Fraction
        The chance.

    Raises
    ------
    UsageError
        If both players choose somewhere.
    """
    export = export_drn(graph, goal=True)
    operator = _chooser_direction(export, "a step-bounded chance in a game")
    if not re.search(r"^state \d+.* goal$", export.text, re.MULTILINE):
        return Fraction(0)  # no state wins: Storm has no label to refer to
    result = _check(_build(export), f'P{operator}=? [F<={steps} "goal"]', only_initial=True)
    return _from_storm(result.get_value(0))


def storm_steady_state(graph: Any, state: Hashable) -> Fraction:
    """Exact long-run fraction of time a Markov chain spends in a non-terminal ``state``,
    from the initial state (``S=? ["marked"]``; a terminal state's mass goes on to the
    sink, so it has none).

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring, one action a state.
    state : state
        The state asked about.

    Returns
    -------
    fractions.Fraction
        The long-run fraction of time in ``state``.

    Raises
    ------
    UsageError
        If some state has several actions.
    """
    export = export_drn(graph, marked=state)
    if export.model_type != "DTMC":
        raise UsageError("the steady state of a chain: every state needs one action")
    result = _check(_build(export), 'S=? ["marked"]', only_initial=True)
    return _from_storm(result.get_value(0))


def _choice_states(graph: Any, player: int) -> list[Hashable]:
    """Non-terminal states of `player` with at least two actions, in stable order."""
    nodes = graph.nodes
    return [
        u
        for u in _numbering(graph)
        if nodes[u].get("outcome") is None
        and nodes[u].get("player", 0) == player
        and len(tuple(nodes[u].get("actions", ()))) > 1
    ]


def storm_game_value(graph: Any, *, max_strategies: int = 4096) -> Fraction:
    """Exact value of a small two-player game, via Storm MDP solves.

    Storm cannot solve stochastic games exactly, so this enumerates the
    positional (memoryless deterministic) strategies of the player with fewer
    of them; for each, the other player faces an MDP that Storm solves
    exactly.  Because every strategy profile reaches a terminal state with
    probability 1 (a *stopping* game), both players have optimal positional
    strategies, hence::

        value = min over positional s1 of (max over policies of player 0)
              = max over positional s0 of (min over policies of player 1).

    The cost is one Storm build and check per enumerated strategy, so use it
    only on small games.  Graphs that are not genuine games are passed to
    :func:`storm_value` directly.

    Parameters
    ----------
    graph : networkx.DiGraph
        State graph following the contract in the module docstring.
    max_strategies : int, default 4096
        Refuse games in which both players have more positional strategies.

    Returns
    -------
    fractions.Fraction
        The exact game value of the initial state.

    Raises
    ------
    ResourceError
        If both players have more than `max_strategies` positional strategies.
    """
    graph = _as_networkx(graph)
    states = {p: _choice_states(graph, p) for p in (0, 1)}
    if not states[0] or not states[1]:
        return storm_value(graph)
    counts = {}
    for p in (0, 1):
        n = 1
        for u in states[p]:
            n *= len(tuple(graph.nodes[u]["actions"]))
        counts[p] = n
    fixed = 0 if counts[0] <= counts[1] else 1
    if counts[fixed] > max_strategies:
        raise ResourceError(
            f"too many positional strategies to enumerate ({counts[fixed]} > {max_strategies})"
        )
    pick_best = max if fixed == 0 else min
    choices: list[Iterable[Hashable]] = [tuple(graph.nodes[u]["actions"]) for u in states[fixed]]
    best: Fraction | None = None
    for combo in itertools.product(*choices):
        value = storm_value(graph, fix=dict(zip(states[fixed], combo)))
        best = value if best is None else pick_best(best, value)
    assert best is not None
    return best
