r"""Exact solving of a state graph: optimal values, policies with exact ties,
absorption distributions and expected steps.

Strongly connected components are processed so that every component comes after all
the components it can move to (reverse topological order of the condensation). For a
state :math:`s` with action :math:`a`, the action value is

.. math::

    Q(s, a) = \sum_{t} P(t \mid s, a)\, V(t), \qquad
    V(s) = \max_a Q(s, a) \ \text{(player 0)}, \quad \min_a Q(s, a) \ \text{(player 1)}.

* A component of one state without a self-loop: the sum above, once.
* A self-loop (a round that changes nothing): the do-over rule
  :math:`Q(s, a) = \sum_{t \ne s} P(t \mid s, a) V(t) / (1 - P(s \mid s, a))`.
* A cyclic component: one exact linear solve of :math:`(I - P_{SS}) V_S = P_{SO} V_O` under a
  fixed policy; with choices, exact policy iteration (strict improvements only, so it
  stops), and for two players Hoffman-Karp strategy iteration (player 1's best response
  inside every improvement step of player 0).

Every policy is assumed to reach a terminal state with probability one; a policy that
does not is reported (:class:`~exactprob.errors.NonTerminationError`).

>>> from exactprob import Dist
>>> class Race:  # flip until two heads in a row; the outcome counts nothing, value 1
...     initial = 0
...     def outcome(self, s): return 1 if s == 2 else None
...     def actions(self, s): return ("flip",)
...     def transition(self, s, a): return Dist({s + 1: "1/2", 0: "1/2"})
>>> solve(Race()).expected_steps()
Fraction(6, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

import networkx as nx

from .dist import Dist
from .errors import ModelError, NonTerminationError
from .graph import (
    DEFAULT_MAX_STATES,
    components_in_solve_order,
    explore,
    paused_garbage_collection,
    progress_bar,
)
from .linear import Field, field_for, solve_linear
from .numbers import Exact, mpq

__all__ = ["Solution", "evaluate", "solve", "solve_graph"]

Policy = Callable[[Any], Any] | Mapping[Any, Any]
_ZERO = mpq(0)
_ONE = mpq(1)


class Solution:
    """The exact solution of a model under optimal play (or under a fixed policy).

    Values are ``Fraction`` (sympy expressions for symbolic models). ``state=None``
    always means the initial state.
    """

    __slots__ = ("_absorption", "_choice", "_ties", "_values", "_work", "field", "graph")

    def __init__(
        self,
        graph: nx.DiGraph,
        work: nx.DiGraph,
        field: Field,
        values: dict[Hashable, Exact],
        choice: dict[Hashable, Any],
        ties: dict[Hashable, tuple[Any, ...]],
    ) -> None:
        self.graph = graph
        self._work = work  # the graph with every number in the solve's field
        self.field = field
        self._values = values
        self._choice = choice
        self._ties = ties
        self._absorption: dict[Hashable, tuple[dict[Hashable, Exact], Exact]] = {}

    def _state(self, state: Any) -> Hashable:
        s = self.graph.graph["initial"] if state is None else state
        if s not in self._values:
            raise ModelError(f"{s!r} is not a reachable state of this model")
        return s

    def value(self, state: Any = None) -> Any:
        """The exact value of ``state`` (the initial state when ``None``)."""
        return self.field.public(self._values[self._state(state)])

    def policy(self, state: Any = None) -> Any:
        """The chosen action in ``state`` (``None`` for a terminal state): the first
        optimal one in the model's order, except inside a cycle, where it is policy
        iteration's final choice, so that the whole policy map terminates."""
        return self._choice.get(self._state(state))

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action whose value :math:`Q(s, a)` equals the optimum exactly, in the
        model's order. Inside a cycle, tied actions are optimal one at a time, not in
        every combination: two tied "wait for the other" actions may never terminate."""
        return self._ties.get(self._state(state), ())

    def policy_map(self) -> dict[Hashable, Any]:
        """The chosen action of every non-terminal state."""
        return dict(self._choice)

    def states(self) -> Iterable[Hashable]:
        """Every reachable state."""
        return self._values.keys()

    def expected_steps(self, state: Any = None) -> Any:
        """Expected number of transitions from ``state`` to a terminal state (the sum
        of the expected visits to the non-terminal states)."""
        return self.field.public(self._forward(state)[1])

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""
        absorbed = self._forward(state)[0]
        public = self.field.public if self.field.symbolic else (lambda q: q)
        return Dist._trusted({t: public(q) for t, q in absorbed.items()})

    def _forward(self, state: Any) -> tuple[dict[Hashable, Exact], Exact]:
        """Absorption probabilities and expected steps from ``state`` (computed once)."""
        s = self._state(state)
        if s not in self._absorption:
            self._absorption[s] = _absorption(self._work, self.field, self._choice, s)
        return self._absorption[s]

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""
        outcomes = self._work.nodes
        return self.absorption(state).map(lambda t: self.field.public(outcomes[t]["outcome"]))

    def __repr__(self) -> str:
        return f"Solution(states={len(self._values)}, value={self.value()})"


def solve(model: Any, *, max_states: int = DEFAULT_MAX_STATES, progress: bool = False) -> Solution:
    """Explore ``model`` and solve it exactly under optimal play.

    Player 0 maximises the expected terminal value, player 1 minimises it.
    """
    return solve_graph(explore(model, max_states=max_states, progress=progress), progress=progress)


def evaluate(model: Any, policy: Policy, *, max_states: int = DEFAULT_MAX_STATES) -> Solution:
    """The exact value of a fixed ``policy`` (a callable ``state -> action`` or a mapping).

    Only states reachable under the policy are explored, so a policy need only be
    defined where it is used.
    """
    chooser = policy.__getitem__ if isinstance(policy, Mapping) else policy
    restricted = _FixedPolicy(model, chooser)
    G = explore(restricted, max_states=max_states)
    return solve_graph(G)


class _FixedPolicy:
    """A model whose every state offers only the action the policy picks."""

    def __init__(self, model: Any, chooser: Callable[[Any], Any]) -> None:
        self.model = model
        self.chooser = chooser
        self.initial = model.initial

    def outcome(self, state: Any) -> Any:
        return self.model.outcome(state)

    def actions(self, state: Any) -> tuple[Any, ...]:
        try:
            action = self.chooser(state)
        except (KeyError, IndexError):
            raise ModelError(f"the policy gives no action for state {state!r}") from None
        allowed = tuple(self.model.actions(state))
        if action not in allowed:
            raise ModelError(
                f"the policy picks {action!r} in state {state!r}; allowed: {list(allowed)}"
            )
        return (action,)

    def transition(self, state: Any, action: Any) -> Dist[Any]:
        return self.model.transition(state, action)

    def player(self, state: Any) -> int:
        player = getattr(self.model, "player", None)
        return 0 if player is None else player(state)


def solve_graph(G: nx.DiGraph, *, progress: bool = False) -> Solution:
    """Solve an explored graph (see :func:`~exactprob.graph.explore`) exactly;
    ``progress`` shows a bar on stderr."""
    with paused_garbage_collection():
        return _solve_graph(G, progress)


def _solve_graph(G: nx.DiGraph, progress: bool) -> Solution:
    field = _field_of(G)
    original, G = G, (_in_field(G, field) if field.symbolic else G)
    values: dict[Hashable, Exact] = {}
    choice: dict[Hashable, Any] = {}
    ties: dict[Hashable, tuple[Any, ...]] = {}
    nodes = G.nodes
    bar = progress_bar(progress, "solving", total=G.number_of_nodes(), unit=" states")
    for component in components_in_solve_order(G):
        if bar is not None:
            bar.update(len(component))
        if len(component) == 1 and not G.has_edge(component[0], component[0]):
            s = component[0]
            data = nodes[s]
            if data["actions"]:
                q = {a: _q_value(G, s, a, values) for a in data["actions"]}
                _pick(field, s, data, q, values, choice, ties)
            else:
                values[s] = field.convert(data["outcome"])
        elif len(component) == 1:
            s = component[0]
            data = nodes[s]
            _pick(field, s, data, _do_over_values(G, s, data["actions"], values), values, choice, ties)
        else:
            _solve_cyclic(G, field, component, values, choice, ties)
    if bar is not None:
        bar.close()
    return Solution(original, G, field, values, choice, ties)


def _in_field(G: nx.DiGraph, field: Field) -> nx.DiGraph:
    """A copy of ``G`` with every probability and outcome converted into ``field``."""
    H = G.copy()
    for _, data in H.nodes(data=True):
        if data["outcome"] is not None:
            data["outcome"] = field.convert(data["outcome"])
    for _, _, e in H.edges(data=True):
        e["probs"] = {a: field.convert(p) for a, p in e["probs"].items()}
    return H


def _field_of(G: nx.DiGraph) -> Field:
    """Rationals, or the rational functions in every symbol of the outcomes and
    (for a symbolic graph) the probabilities."""
    values: list[Any] = [d["outcome"] for _, d in G.nodes(data=True) if d["outcome"] is not None]
    if G.graph.get("symbolic"):
        for _, _, e in G.edges(data=True):
            values.extend(e["probs"].values())
    return field_for(values)


def _edges(G: nx.DiGraph, s: Hashable, a: Any) -> Iterable[tuple[Hashable, Exact]]:
    for t, e in G._adj[s].items():
        p = e["probs"].get(a)
        if p is not None:
            yield t, p


def _q_value(G: nx.DiGraph, s: Hashable, a: Any, values: Mapping[Hashable, Exact]) -> Exact:
    """:math:`Q(s, a) = \\sum_t P(t \\mid s, a) V(t)` (the hot loop: kept flat)."""
    total = _ZERO
    for t, edge in G._adj[s].items():
        p = edge["probs"].get(a)
        if p is not None:
            total += p * values[t]
    return total


def _do_over_values(
    G: nx.DiGraph, s: Hashable, actions: tuple[Any, ...], values: Mapping[Hashable, Exact]
) -> dict[Any, Exact]:
    """Values of the actions of ``s`` with the self-loop renormalised away. An action that
    stays in ``s`` with probability one never terminates and is left out, as it is from
    a cycle's start policy; if every action does, the state never terminates."""
    q: dict[Any, Exact] = {}
    for a in actions:
        stay = _ZERO
        total = _ZERO
        for t, p in _edges(G, s, a):
            if t == s:
                stay = stay + p
            else:
                total = total + p * values[t]
        if stay != 1:
            q[a] = total / (1 - stay)
    if not q:
        raise NonTerminationError(f"every action in state {s!r} returns to {s!r} with probability 1")
    return q


def _pick(
    field: Field,
    s: Hashable,
    data: Mapping[str, Any],
    q: Mapping[Any, Exact],
    values: dict[Hashable, Exact],
    choice: dict[Hashable, Any],
    ties: dict[Hashable, tuple[Any, ...]],
) -> None:
    """Store the optimal value, the first optimal action and every exactly tied one
    (among the actions valued in ``q``, in the model's order)."""
    actions = tuple(a for a in data["actions"] if a in q)
    if len(actions) == 1:
        best = q[actions[0]]
        best_actions: tuple[Any, ...] = actions
    else:
        if not field.comparable():
            raise ModelError(
                f"state {s!r} offers {len(actions)} actions but its values are symbolic and "
                "cannot be compared; symbolic probabilities need one action per state"
            )
        best = max(q.values()) if data["player"] == 0 else min(q.values())
        best_actions = tuple(a for a in actions if q[a] == best)
    values[s] = best
    choice[s] = best_actions[0]
    ties[s] = best_actions


def _solve_cyclic(
    G: nx.DiGraph,
    field: Field,
    component: list[Hashable],
    values: dict[Hashable, Exact],
    choice: dict[Hashable, Any],
    ties: dict[Hashable, tuple[Any, ...]],
) -> None:
    """Values of a strongly connected component whose exits are solved."""
    nodes = G.nodes
    deciders = {s for s in component if len(nodes[s]["actions"]) > 1}
    if deciders and not field.comparable():
        s = next(iter(deciders))
        raise ModelError(
            f"state {s!r} offers several actions but its values are symbolic; "
            "symbolic probabilities need one action per state"
        )
    policy = _terminating_start(G, component)
    players = {nodes[s]["player"] for s in deciders}
    if players == {0, 1}:
        inner = {s for s in deciders if nodes[s]["player"] == 1}
        outer = deciders - inner
        while True:
            local = _best_response(G, field, component, policy, inner, values)
            if not _improve(G, component, policy, outer, local, values):
                break
    else:
        local = _best_response(G, field, component, policy, deciders, values)
    merged = _Chain(local, values)
    for s in component:
        if s in deciders:
            q = {a: _q_value(G, s, a, merged) for a in nodes[s]["actions"]}
            _pick(field, s, nodes[s], q, values, choice, ties)
        else:
            ties[s] = nodes[s]["actions"]
        # Inside a cycle, greedy choices among tied actions can cycle forever (two states
        # each "waiting" for the other); the policy iteration's own choice terminates.
        choice[s] = policy[s]
    values.update(local)


def _terminating_start(G: nx.DiGraph, component: list[Hashable]) -> dict[Hashable, Any]:
    """A policy under which every state of the component leaves it with probability one.

    Backward search (an attractor): first the states with an action that can leave the
    component, then states with an action that can reach an already chosen state; each
    takes the first such action in the model's order. Along the chosen actions every
    state has a positive-probability path out, so the policy terminates, and policy
    iteration may start from it.
    """
    inside = set(component)
    nodes, adj = G.nodes, G._adj

    def progresses(s: Hashable, a: Any) -> bool:
        return any(
            a in edge["probs"] and (t not in inside or t in policy) for t, edge in adj[s].items()
        )

    policy: dict[Hashable, Any] = {}
    while len(policy) < len(component):
        added = {}
        for s in component:
            if s not in policy:
                first = next((a for a in nodes[s]["actions"] if progresses(s, a)), None)
                if first is not None:
                    added[s] = first
        if not added:
            stuck = [s for s in component if s not in policy][:3]
            raise NonTerminationError(
                f"states such as {', '.join(map(repr, stuck))} cannot leave their cycle under "
                "any policy, so they never reach a terminal state"
            )
        policy.update(added)
    return policy


def _best_response(
    G: nx.DiGraph,
    field: Field,
    component: list[Hashable],
    policy: dict[Hashable, Any],
    deciders: set[Hashable],
    values: Mapping[Hashable, Exact],
) -> dict[Hashable, Exact]:
    """Policy iteration for the ``deciders`` (all of one player) with the rest fixed;
    updates ``policy`` in place and returns the component's values under it."""
    while True:
        local = _component_values(G, field, component, policy, values)
        if not _improve(G, component, policy, deciders, local, values):
            return local


def _improve(
    G: nx.DiGraph,
    component: list[Hashable],
    policy: dict[Hashable, Any],
    deciders: set[Hashable],
    local: Mapping[Hashable, Exact],
    values: Mapping[Hashable, Exact],
) -> bool:
    """Switch each decider to a strictly better action, if any; report whether any did."""
    nodes = G.nodes
    merged = _Chain(local, values)
    changed = False
    for s in deciders:
        sign = 1 if nodes[s]["player"] == 0 else -1
        current = _q_value(G, s, policy[s], merged)
        for a in nodes[s]["actions"]:
            q = _q_value(G, s, a, merged)
            if sign * (q - current) > 0:
                current, policy[s] = q, a
                changed = True
    return changed


class _Chain(Mapping[Hashable, Exact]):
    """Two value tables read as one (component values first, then solved exits)."""

    def __init__(self, first: Mapping[Hashable, Exact], second: Mapping[Hashable, Exact]) -> None:
        self.first, self.second = first, second

    def __getitem__(self, key: Hashable) -> Exact:
        v = self.first.get(key)
        return self.second[key] if v is None else v

    def __iter__(self) -> Any:  # pragma: no cover - Mapping requirement only
        return iter({**self.second, **self.first})

    def __len__(self) -> int:  # pragma: no cover - Mapping requirement only
        return len({**self.second, **self.first})


def _component_values(
    G: nx.DiGraph,
    field: Field,
    component: list[Hashable],
    policy: Mapping[Hashable, Any],
    values: Mapping[Hashable, Exact],
) -> dict[Hashable, Exact]:
    """Solve ``(I - P_SS) x = P_SO v_O`` for the component under ``policy``."""
    index, rows, exits = _component_system(G, component, policy)
    zero = field.convert(0)
    rhs = [[sum((p * values[t] for t, p in out), zero)] for out in exits]
    x = _solve_or_explain(field, component, rows, rhs)
    return {s: x[i][0] for s, i in index.items()}


def _component_visits(
    G: nx.DiGraph,
    field: Field,
    component: list[Hashable],
    policy: Mapping[Hashable, Any],
    entering: Mapping[Hashable, Exact],
) -> tuple[dict[Hashable, Exact], list[list[tuple[Hashable, Exact]]]]:
    """Expected visits :math:`x` to each state of the component, from the probability
    mass :math:`m` entering it: :math:`x^T (I - P_{SS}) = m^T`; and each state's exits."""
    index, rows, exits = _component_system(G, component, policy)
    transposed: list[dict[int, Exact]] = [{} for _ in rows]
    for i, row in enumerate(rows):
        for j, a in row.items():
            transposed[j][i] = a
    zero = field.convert(0)
    x = _solve_or_explain(field, component, transposed, [[entering.get(s, zero)] for s in component])
    return {s: x[i][0] for s, i in index.items()}, exits


def _component_system(
    G: nx.DiGraph, component: list[Hashable], policy: Mapping[Hashable, Any]
) -> tuple[dict[Hashable, int], list[dict[int, Exact]], list[list[tuple[Hashable, Exact]]]]:
    """The rows of :math:`I - P_{SS}` (``{column: entry}``) and each state's moves out
    of the component, under ``policy``."""
    index = {s: i for i, s in enumerate(component)}
    rows: list[dict[int, Exact]] = []
    exits: list[list[tuple[Hashable, Exact]]] = []
    for s in component:
        row: dict[int, Exact] = {index[s]: _ONE}
        out: list[tuple[Hashable, Exact]] = []
        for t, p in _edges(G, s, policy[s]):
            j = index.get(t)
            if j is None:
                out.append((t, p))
            else:
                row[j] = row.get(j, _ZERO) - p
        rows.append(row)
        exits.append(out)
    return index, rows, exits


def _solve_or_explain(
    field: Field, component: list[Hashable], rows: list[dict[int, Exact]], rhs: list[list[Exact]]
) -> list[list[Exact]]:
    """:func:`solve_linear`, with a singular system reported by its states."""
    try:
        return solve_linear(field, rows, rhs)
    except NonTerminationError:
        shown = ", ".join(repr(s) for s in component[:3])
        raise NonTerminationError(
            f"under the current policy the states {shown}{', ...' if len(component) > 3 else ''} "
            "can cycle forever without reaching a terminal state; every policy must terminate "
            "with probability 1"
        ) from None


def _absorption(
    G: nx.DiGraph, field: Field, policy: Mapping[Hashable, Any], start: Hashable
) -> tuple[dict[Hashable, Exact], Exact]:
    """The distribution of the terminal state reached from ``start`` under ``policy``,
    and the expected number of steps.

    Probability mass is pushed forward from ``start`` through the components in
    topological order; a cyclic component turns the mass entering it into expected
    visits (one linear solve) and passes it on along its exits. One scalar per state,
    where a backward pass would carry a whole distribution per state. The expected
    number of steps is the sum of the expected visits to non-terminal states.
    """
    H = G.subgraph(_reachable(G, policy, start))
    nodes = G.nodes
    zero = field.convert(0)
    mass: dict[Hashable, Exact] = {start: field.convert(1)}
    absorbed: dict[Hashable, Exact] = {}
    steps = zero

    def send(t: Hashable, amount: Exact) -> None:
        mass[t] = mass.get(t, zero) + amount

    for component in reversed(list(components_in_solve_order(H))):
        s = component[0]
        if len(component) == 1 and not nodes[s]["actions"]:
            absorbed[s] = mass.pop(s)
        elif len(component) == 1 and not G.has_edge(s, s):
            m = mass.pop(s)
            steps += m
            for t, p in _edges(G, s, policy[s]):
                send(t, m * p)
        else:
            visits, exits = _component_visits(G, field, component, policy, mass)
            for u, out in zip(component, exits):
                steps += visits[u]
                for t, p in out:
                    send(t, visits[u] * p)
                mass.pop(u, None)
    return absorbed, steps


def _reachable(G: nx.DiGraph, policy: Mapping[Hashable, Any], start: Hashable) -> set[Hashable]:
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        if s not in policy:
            continue
        for t, _ in _edges(G, s, policy[s]):
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return seen
