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
* A cyclic component with few feedback and entry states (:mod:`exactprob.engine._internal.reach`):
  exact values only at those, by forward reach under the float strategy's policy, which
  :mod:`exactprob.engine._internal.certify` proves optimal from them with a rigorous float bound (near
  calls compared exactly); every other value is computed when asked for.
* Any other cyclic component, or one whose certificate fails: one exact linear solve of
  :math:`(I - P_{SS}) V_S = P_{SO} V_O` under a fixed policy; with choices, exact
  policy iteration (strict improvements only, so it stops), and for two players
  Hoffman-Karp strategy iteration (player 1's best response inside every improvement
  step of player 0).

*Float guidance.* Choices are compared in floats first, with a proven bound on the
rounding error (:mod:`exactprob.util.rounding`): an action whose float value is worse than
the best by more than both bounds is certainly worse, and its exact value is never
computed; only the actions the floats cannot separate are compared exactly, so exact
ties are always found. In a cyclic component, policy iteration runs in floats first
(:mod:`exactprob.engine._internal.float_guide`), and its policy is what forward reach evaluates, or
where exact iteration starts.

Every policy is assumed to reach a terminal state with probability one; a policy that
does not is reported (:class:`~exactprob.errors.NonTerminationError`).

>>> from exactprob import Dist
>>> class Race:  # flip until two heads in a row; the outcome counts nothing, value 1
...     initial = 0
...     def outcome(self, s): return 1 if s == 2 else None
...     def actions(self, s): return ("flip",)
...     def transition(self, s, a): return Dist({s + 1: "1/2", 0: "1/2"})
>>> solve_model(Race()).expected_steps()
Fraction(6, 1)
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from ...errors import ModelError, NonTerminationError
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import Exact, mpq
from ...util.progress import Progress, progress_bar
from ...util.rounding import approx, float_dot
from .._internal.acyclic import SweptValues, peel, stays_forever, sweep
from .._internal.certify import near_choices
from .._internal.choose import best_and_ties, best_of, float_candidates
from .._internal.component_table import ComponentTable, one_blas_thread
from .._internal.cycle import Cycle
from .._internal.float_guide import float_guess
from .._internal.order import SolveOrder, edge_ends
from .._internal.reach import reach_values
from .._internal.rewards import check_cycle_rewards, value_graph
from ..array_model import Explorable
from ..graph.exploring import explore
from ..graph.state_graph import StateGraph, paused_garbage_collection
from ..model import seats_refused
from .solution import Solution
from .system import ExactSystem, field_of, fill_values

__all__ = ["solve_graph", "solve_model"]

_ZERO = mpq(0)
#: Cyclic components solved by forward reach have at most this many feedback and entry
#: states together, each counted once (each costs a pass over the component); others
#: are eliminated.
REACH_LIMIT = 32


def solve_model(
    model: Explorable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
) -> Solution:
    """Explore ``model`` and solve it exactly under optimal play: the generic engine's
    exact method, which :func:`exactprob.solve` uses for a model no game registered a
    faster path for.

    Player 0 maximises the expected terminal value (plus the total reward, for a model
    with rewards), player 1 minimises it.

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool
        Show a bar on stderr.
    starts : sequence, optional
        Solve from each of these (explored and solved together) instead of the model's
        initial state; the first is the state ``None`` stands for.

    Returns
    -------
    Solution
        Every state's exact value, its optimal action and the actions tied with it.

    Raises
    ------
    StateLimitError
        When the game has more than ``max_states`` states.
    NonTerminationError
        When some state's best play never ends.

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> solve_model(ruin).value()
    Fraction(40, 211)
    """
    G = explore(model, max_states=max_states, progress=progress, starts=starts)
    if G.seats:
        raise seats_refused("solve_model")
    return solve_graph(G, progress=progress)


def solve_graph(G: StateGraph, *, progress: bool = False) -> Solution:
    """Solve an explored graph exactly, as :func:`solve_model` does a model.

    The float passes run on one BLAS thread: their matrices are small, and threads
    waiting for a busy core cost more than they save.

    Parameters
    ----------
    G : StateGraph
        A graph from :func:`~exactprob.engine.graph.exploring.explore`.
    progress : bool
        Show a bar on stderr.

    Returns
    -------
    Solution
        Every state's exact value, optimal action and exact ties.

    Raises
    ------
    NonTerminationError
        When some state's best play never ends.

    See Also
    --------
    exactprob.solve : Explores a model and solves it (a game's fast path where one is registered).
    enclose_graph : Certified enclosures of an explored graph.

    References
    ----------
    - R. E. Tarjan, "Depth-first search and linear graph algorithms", *SIAM Journal on
      Computing* 1(2), 1972 (the strongly connected components, in the order solved).
    - R. A. Howard, *Dynamic Programming and Markov Processes*, MIT Press, 1960
      (policy iteration with exact linear solves in each cyclic component).
    - A. J. Hoffman and R. M. Karp, "On nonterminating stochastic games", *Management
      Science* 12(5), 1966 (strategy iteration, for two players).

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> solve_graph(explore(ruin)).value(1)  # (r - 1)/(r^5 - 1)
    Fraction(16, 211)
    """
    if G.seats:
        raise seats_refused("solve_graph")
    with paused_garbage_collection(), one_blas_thread(len(G)):
        return _Solver(G, progress).run()


class _Solver:
    """One solve: the values, choices and ties of every state, component by component."""

    def __init__(self, model_graph: StateGraph, progress: bool) -> None:
        check_cycle_rewards(model_graph)
        self.model_graph = model_graph
        self.G = G = value_graph(model_graph)  # rewards as edges to a state worth one
        self.progress = progress
        self.field = field_of(G)
        unit = len(model_graph) if G is not model_graph else -1
        self.system = ExactSystem(G, self.field, unit)
        n = len(G)
        self.values: list[Exact] = [None] * n
        # Floats of the values, kept only when some state has a choice to guide.
        self.guided = self.system.guided
        self.approx = array("d", bytes(8 * n)) if self.guided else array("d")
        self.approx_array = np.frombuffer(self.approx) if self.guided else None
        self.entry = np.zeros(0, dtype=bool)
        self._nonnegative: bool | None = None
        self.choice = array("i", [-1]) * n
        self.ties: dict[int, tuple[int, ...]] = {}
        self.representative: np.ndarray | None = None  # of pass-through states, once peeled

    def run(self) -> Solution:
        with progress_bar(self.progress, "solving", total=len(self.G), unit=" states") as bar:
            swept = self._sweep_levels(bar)
            if swept is None or not swept.complete:
                self._components(swept, bar)
        return Solution(self.model_graph, self.system, self.values, self.choice, self.ties, swept)

    def _components(self, swept: SweptValues | None, bar: Progress) -> None:
        """Every component the level sweep left, each after those it moves to."""
        G = self.G
        cs = G.choice_start
        solve_order = SolveOrder(G, REACH_LIMIT)
        self.entry = solve_order.entry
        for component, cut_order in solve_order:
            if swept is not None and swept.covers(component[0]):
                continue
            bar.update(len(component))
            if len(component) > 1:
                self._cyclic(component, cut_order)
                continue
            s = component[0]
            c0, c1 = cs[s], cs[s + 1]
            if c0 == c1:
                self._set(s, self.system.outcomes[s])
            elif G.has_self_loop(s):
                self._self_loop(s)
            elif c1 - c0 == 1:
                self.choice[s] = 0
                self._set(s, self.system.q(c0, self.values))
            else:
                self._decide(s)

    def _sweep_levels(self, bar: Progress) -> SweptValues | None:
        """Solve the states that reach no cycle (self-loops aside) level by level in
        exact integers (:mod:`exactprob.engine._internal.acyclic`); ``None`` for a symbolic field. The
        choices and ties found are the solver's; the states the component loop still
        reads get their exact and float values."""
        if self.field.symbolic:
            return None
        levels = peel(self.G)
        self.representative = levels.representative
        swept = sweep(self.G, levels, self.system.outcomes, bar.update)
        self.choice = array("i", swept.choice.astype(np.int32).tobytes())
        self.ties = swept.ties
        if swept.complete:
            return swept
        covered = levels.level >= 0
        sources, targets, _ = edge_ends(self.G)
        for t in np.unique(targets[covered[targets] & ~covered[sources]]).tolist():
            self._set(t, swept.value(t))
        return swept

    @property
    def nonnegative(self) -> bool:
        """Whether every terminal value is at least 0 (a tighter float error bound)."""
        if self._nonnegative is None:
            G = self.model_graph
            self._nonnegative = all(o is None or o >= 0 for o in G.outcomes) and all(
                r >= 0 for r in G.rewards or ()
            )
        return self._nonnegative

    def _set(self, s: int, value: Exact) -> None:
        self.values[s] = value
        if self.guided:
            self.approx[s] = approx(value)

    def _candidates(self, s: int, approx_values: Sequence[float]) -> list[int]:
        """The actions of ``s`` (indices) that the floats cannot rule out as worse than
        the float-best one, in the model's order (:func:`~exactprob.engine._internal.choose.float_candidates`)."""
        system = self.system
        float_probs = system.float_probs
        assert float_probs is not None  # guided solves are over the rationals
        starts, targets, value_of = system.edge_start, system.targets, approx_values.__getitem__
        floats = [
            float_dot(
                float_probs[starts[c] : starts[c + 1]],
                map(value_of, targets[starts[c] : starts[c + 1]]),
                self.nonnegative,
            )
            for c in range(self.G.choice_start[s], self.G.choice_start[s + 1])
        ]
        return float_candidates(floats, self.G.players[s])

    def _decide(self, s: int) -> None:
        """A state with several actions and every successor solved. Where the actions
        :func:`~exactprob.engine._internal.choose.share_successors`, all are valued exactly at once;
        otherwise the floats rule out what they can and the rest are valued exactly."""
        c0, c1 = self.G.choice_start[s], self.G.choice_start[s + 1]
        system = self.system
        if not self.guided:  # symbolic: refused by _pick
            self._pick(s, {k: system.q(c0 + k, self.values) for k in range(c1 - c0)})
            return
        ks = range(c1 - c0) if system.share_successors(c0, c1) else self._candidates(s, self.approx)
        ks = [k for k in ks if not self._stays(c0 + k, s)]  # never ends: no value, no tie
        if len(ks) == 1:
            self.choice[s] = ks[0]
            self._set(s, system.q(c0 + ks[0], self.values))
            return
        numerators, denominator = system.numerators([c0 + k for k in ks], self.values)
        best, tied = best_of(numerators, self.G.players[s])
        self._store(s, mpq(best, denominator), tuple(ks[k] for k in tied))

    def _ties_in_cycle(self, s: int, candidates: list[int], chosen: int) -> None:
        """A decider of a solved cycle, whose value (under its policy's ``chosen``
        action) is set: the actions tied with it, found exactly among the
        ``candidates`` the floats leave; none to value when ``chosen`` is the only one."""
        c0 = self.G.choice_start[s]
        ks = [k for k in candidates if not self._stays(c0 + k, s)]
        if ks == [chosen]:
            self.choice[s] = chosen
            return
        numerators, denominator = self.system.numerators([c0 + k for k in ks], self.values)
        best, tied = best_of(numerators, self.G.players[s])
        self._store(s, mpq(best, denominator), tuple(ks[k] for k in tied))

    def _stays(self, c: int, s: int) -> bool:
        """Whether every move of choice ``c`` of state ``s`` goes back to ``s``, directly
        or through a run of pass-through states leading to it
        (:func:`~exactprob.engine._internal.acyclic.pass_through`): such an action never
        ends play, as a self-loop of probability one does, so it is never chosen and is
        no tie (the level sweep's do-over rule reads the same moves)."""
        system, representative = self.system, self.representative
        assert representative is not None  # peeled: every field whose states choose is
        targets = system.targets[system.edge_start[c] : system.edge_start[c + 1]]
        return all(representative[t] == s for t in targets)

    def _pick(self, s: int, q: Mapping[int, Exact]) -> None:
        """Store the optimal value, the first optimal action and every exactly tied one
        (among the actions valued in ``q``, in the model's order)."""
        if len(q) > 1 and not self.field.comparable():
            raise ModelError(
                f"state {self.G.states[s]!r} offers {len(q)} actions but its values are "
                "symbolic and cannot be compared; symbolic probabilities need one action per state"
            )
        best, tied = best_and_ties(q, self.G.players[s])
        self._store(s, best, tied)

    def _store(self, s: int, best: Exact, tied: tuple[int, ...]) -> None:
        """The optimal value of ``s``, its first optimal action and any exact ties."""
        self.choice[s] = tied[0]
        if len(tied) > 1:
            self.ties[s] = tied
        self._set(s, best)

    def _self_loop(self, s: int) -> None:
        """Values of the actions of ``s`` with the self-loop renormalised away. An action
        that stays in ``s`` with probability one never terminates and is left out, as it
        is from a cycle's start policy; if every action does, the state never terminates."""
        c0, c1 = self.G.choice_start[s], self.G.choice_start[s + 1]
        values = self.values
        q: dict[int, Exact] = {}
        for k in range(c1 - c0):
            stay = _ZERO
            total = _ZERO
            for t, p in self.system.edges(c0 + k):
                if t == s:
                    stay = stay + p
                else:
                    total = total + p * values[t]
            if stay != 1:
                q[k] = total / (1 - stay)
        if not q:
            raise stays_forever(self.G.states[s])
        self._pick(s, q)

    # -- cyclic components ----------------------------------------------------------
    def _cyclic(self, component: list[int], cut_order: tuple[list[int], int] | None) -> None:
        """Values of a strongly connected component whose exits are solved;
        ``cut_order``: its elimination order cut at its entry states, if there is one
        (:class:`~exactprob.engine._internal.order.CutOrders`)."""
        G = self.G
        cs = G.choice_start
        deciders = [s for s in component if cs[s + 1] - cs[s] > 1]
        if deciders and not self.field.comparable():
            raise ModelError(
                f"state {G.states[deciders[0]]!r} offers several actions but its values are "
                "symbolic; symbolic probabilities need one action per state"
            )
        cycle = Cycle(self.system, component, cut_order)
        table = self._table(cycle) if deciders else None
        policy = self._start(cycle, table)
        try:
            if self._by_reach(cycle, table, policy, deciders):
                return
        except NonTerminationError:
            pass
        # policy iteration starts from a policy that ends play: the float guess where it
        # does, else as much of it as keeps play ending (the floats can take a cycle that
        # never ends, of zero cost, for the best)
        policy = cycle.terminating_start(policy)
        inner = [s for s in deciders if G.players[s] == 1]
        outer = [s for s in deciders if G.players[s] == 0]
        if inner and outer:
            while True:
                local = self._best_response(cycle, table, policy, inner)
                if not self._improve(cycle, table, policy, outer, local):
                    break
        else:
            local = self._best_response(cycle, table, policy, deciders)
        for s, v in zip(cycle.component, local):
            self._set(s, v)
        screened = None
        if table is not None:
            assert self.approx_array is not None
            inside = np.array([self.approx[s] for s in cycle.component])
            screened = table.candidates(self.approx_array, inside)
        for s in deciders:
            if screened is None:
                self._decide(s)
            else:
                first = int(table.first[cycle.position[s]])  # type: ignore[union-attr]
                kept = [k for k in range(cs[s + 1] - cs[s]) if screened[first + k]]
                self._ties_in_cycle(s, kept, policy[s])
        # Inside a cycle, greedy choices among tied actions can cycle forever (two states
        # each "waiting" for the other); the policy iteration's own choice terminates.
        for s in component:
            self.choice[s] = policy[s]

    def _start(self, cycle: Cycle, table: ComponentTable | None) -> dict[int, int]:
        """The policy to start from: the float strategy's guess (:func:`float_guess`),
        else a terminating policy. A guess may not terminate: :meth:`_cyclic` keeps of it
        what ends play."""
        if table is None:
            return cycle.terminating_start({})
        assert self.approx_array is not None
        guess = float_guess(
            table, self.approx_array, lambda: table.policy_array(cycle.terminating_start({}))
        )
        return table.policy_dict(guess.policy)

    def _table(self, cycle: Cycle) -> ComponentTable | None:
        """The component's float table, when floats guide (its arrays grow with the
        component's moves; a float solve of a large one is one sparse LU, as the exact
        solve's own float guide makes)."""
        arrays = self.system.arrays
        if arrays is None:
            return None
        return ComponentTable(arrays, cycle.component, len(cycle.feedback))

    def _by_reach(
        self,
        cycle: Cycle,
        table: ComponentTable | None,
        policy: dict[int, int],
        deciders: list[int],
    ) -> bool:
        """Solve the component exactly only at its feedback and entry states, by
        forward reach (:mod:`exactprob.engine._internal.reach`), and certify ``policy`` in floats
        (:mod:`exactprob.engine._internal.certify`); the floats' near calls are settled exactly. Reports
        whether it did; if not (too many such states, no floats, or a better action
        found), the component is left to exact policy iteration from ``policy``."""
        sources = [s for s in cycle.component if self.entry[s]]
        cut = len(cycle.feedback) + sum(cycle.position[s] < cycle.acyclic for s in sources)
        if cut > REACH_LIMIT or (deciders and table is None):
            return False
        for s, v in reach_values(cycle, policy, sources, self.values).items():
            self._set(s, v)
        for s in cycle.component:
            self.choice[s] = policy[s]
        if not deciders:
            return True
        assert table is not None and self.approx_array is not None
        x_feedback = np.array([self.approx[f] for f in cycle.feedback])
        near = near_choices(table, table.policy_array(policy), self.approx_array, x_feedback)
        if near is None:
            return False
        ties: dict[int, tuple[int, ...]] = {}
        cs = self.G.choice_start
        for i, ks in near.items():
            s = cycle.component[i]
            chosen = policy[s]
            fill_values(self.system, self.choice, self.values, self.G.successors(s))
            leaving = [k for k in ks if not self._stays(cs[s] + k, s)]  # never a tie
            q = {k: self.system.q(cs[s] + k, self.values) for k in (chosen, *leaving)}
            sign = 1 if self.G.players[s] == 0 else -1
            if any(sign * (q[k] - q[chosen]) > 0 for k in leaving):
                return False
            tied = tuple(sorted(k for k in q if q[k] == q[chosen]))
            if len(tied) > 1:
                ties[s] = tied
        self.ties.update(ties)
        return True

    def _best_response(
        self,
        cycle: Cycle,
        table: ComponentTable | None,
        policy: dict[int, int],
        deciders: list[int],
    ) -> list[Exact]:
        """Policy iteration for the ``deciders`` (all of one player) with the rest fixed;
        updates ``policy`` in place and returns the component's values under it."""
        while True:
            local = cycle.values(policy, self.values, self.progress)
            if not self._improve(cycle, table, policy, deciders, local):
                return local

    def _improve(
        self,
        cycle: Cycle,
        table: ComponentTable | None,
        policy: dict[int, int],
        deciders: list[int],
        local: list[Exact],
    ) -> bool:
        """Switch each decider to a strictly better action, if any; report whether any
        did. Actions the floats prove worse than the current one are not valued exactly
        (screened for the whole component at once where it has a table)."""
        if not deciders:
            return False
        values = _Overlay(self.values, cycle.position, local)
        floats = [approx(v) for v in local]
        approx_values = _Overlay(self.approx, cycle.position, floats)
        screened = None
        if table is not None:
            assert self.approx_array is not None
            screened = table.candidates(self.approx_array, np.asarray(floats))
        cs = self.G.choice_start
        changed = False
        for s in deciders:
            sign = 1 if self.G.players[s] == 0 else -1
            if screened is None:
                ks = self._candidates(s, approx_values)
            else:
                first = int(table.first[cycle.position[s]])  # type: ignore[union-attr]
                ks = [k for k in range(cs[s + 1] - cs[s]) if screened[first + k]]
            if ks == [policy[s]]:
                continue
            current = self.system.q(cs[s] + policy[s], values)
            for k in ks:
                q = self.system.q(cs[s] + k, values)
                if sign * (q - current) > 0:
                    current, policy[s] = q, k
                    changed = True
        return changed


class _Overlay(Sequence[Any]):
    """A value table with a component's values laid over it (read-only, by id)."""

    __slots__ = ("base", "local", "position")

    def __init__(
        self, base: Sequence[Any], position: Mapping[int, int], local: Sequence[Any]
    ) -> None:
        self.base, self.position, self.local = base, position, local

    def __getitem__(self, s: Any) -> Any:
        i = self.position.get(s)
        return self.base[s] if i is None else self.local[i]

    def __len__(self) -> int:  # pragma: no cover - Sequence requirement only
        return len(self.base)
