r"""Certified mode: rigorous enclosures of every state's optimal value, computed in floats.

When exact values grow too long (two-player Pig to 100 has denominators of 20,855
digits), :func:`enclose` gives each state an :class:`~exactprob.engine.enclosure.Enclosure`
:math:`[L(s), U(s)]` guaranteed to contain its exact optimal value :math:`V^*(s)`, and
the optimal action wherever the enclosures prove it. Components of the state graph are
taken as in the exact solver (:mod:`exactprob.engine.exact.solving`), each after every component it can
move to, whose enclosures are then known.

*A state outside any cycle.* Every action value :math:`Q(s,a) = \sum_t P(t \mid s,a)
V^*(t)` is enclosed by the float dot products with the ends :math:`L(t)` and :math:`U(t)`,
widened by their proven rounding bound (:func:`~exactprob.util.rounding.error_bound`) and
rounded outward; the maximum (player 0) or minimum (player 1) of enclosures encloses
the maximum or minimum. All such states of one level of the condensation (their
successors lie on lower levels) are enclosed together, in numpy. So are several cyclic
components of one level (below): no move joins them, so every step of the argument
holds for each of them within their union, which is evaluated as one.

*A cyclic component* :math:`C`, upper end. Fix player 1's choices at the states of
:math:`C` to a strategy :math:`\tau` and let :math:`T_\tau` be the Bellman operator of
what remains, player 0 maximising, with the exits at their upper ends:
:math:`(T_\tau v)(s) = \max_a Q_a(v)(s)` where player 0 moves and
:math:`Q_{\tau(s)}(v)(s)` where player 1 does, with :math:`Q_a(v)(s) = \sum_{t \in C}
P(t \mid s,a)\, v(t) + \sum_{t \notin C} P(t \mid s,a)\, U(t)`. Player 1 can do at
least as well as :math:`\tau`, so :math:`V^* \le V_\tau`, the value of that one-player
problem. Suppose a vector :math:`w \ge 0` satisfies :math:`1 + \sum_{t \in C} P(t \mid
s, a)\, w(t) \le w(s)` for every action of player 0 and for :math:`\tau`'s (:math:`w`
bounds the expected steps in :math:`C` against :math:`\tau`, whatever player 0 does).
Then for :math:`\delta \ge 0`,

.. math::

    T_\tau(v + \delta w) \le T_\tau v + \delta \max_a P_a w \le T_\tau v + \delta (w - 1),

because a maximum of sums is at most the maximum of the first terms plus the largest
second term. So if :math:`T_\tau v \le v + \delta`, the vector :math:`u = v + \delta w`
has :math:`T_\tau u \le u`. The same inequality shows :math:`T_\tau` contracts in the
norm :math:`\max_s |x(s)| / w(s)` (factor :math:`\max_s (1 - 1/w(s)) < 1`), so
:math:`T_\tau^k u \to V_\tau` and, :math:`T_\tau` being monotone,
:math:`V^* \le V_\tau \le u`. The lower end is symmetric: player 0's choices fixed to
:math:`\sigma`, player 1 minimising, :math:`v - \delta w` with the exits at their lower
ends. Only each player's own strategy has to end the play whatever the other does;
plays that never end may exist (both players passing the turn forever in Fowl Play,
where the deck cannot carry a low score to the goal in one turn).

Here :math:`v` is the float value of the float strategy iteration's policy
(:mod:`exactprob.engine._internal.float_guide`), one for each end, whose choices for the other player
are :math:`\tau` (or :math:`\sigma`), so :math:`\delta` is the residual
:math:`\max_s ((T_\tau v)(s) - v(s))^+`, bounded rigorously, of the order of the rounding
errors: the widths grow by little more than rounding per component, where iterating
both ends until they meet (interval iteration) would take many sweeps. The weights are
the expected steps :math:`w = (I - P^\pi)^{-1} \mathbf 1` under the policy, scaled by
:math:`1 + 2^{-30} \max(1, \max w)` and checked by the inequality above with outward
rounding; where another action of the optimising player stays longer, policy iteration
for the longest expected stay takes over (if that player can stay in the component
forever, there is no such :math:`w` and :class:`~exactprob.errors.NonTerminationError`
is raised).

*The policy.* An action is *certainly worse* than another when its enclosed value lies
strictly below the other's (player 0; above, for player 1). The policy is certified at a
state where every other action is certainly worse; elsewhere
:meth:`CertifiedSolution.undecided` lists the actions the enclosures cannot separate
(exact ties always among them: use :func:`~exactprob.solve` to settle them).

>>> from exactprob import Dist
>>> class Race:  # flip until two heads in a row, or stop now for 1/2
...     initial = 0
...     def outcome(self, s): return {2: 1, "stop": "1/2"}.get(s)
...     def actions(self, s): return ("flip", "stop") if s == 0 else ("flip",)
...     def transition(self, s, a):
...         return Dist({"stop": 1}) if a == "stop" else Dist({s + 1: "1/2", 0: "1/2"})
>>> box = enclose(Race())
>>> box.value().contains(1), float(box.value().width()) < 1e-14, box.policy()
(True, True, 'flip')
"""

from __future__ import annotations

import copy
import math
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ...errors import ModelError, NonTerminationError
from ...util.arrays import ranges
from ...util.display import solution_html
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import mpq
from ...util.progress import progress_bar
from ...util.rounding import LIMIT, NORMAL, SAFETY, approx_probability, error_bounds
from .._internal.acyclic import pass_through
from .._internal.component_table import (
    ComponentTable,
    GraphArrays,
    first_maxima,
    one_blas_thread,
)
from .._internal.cycle import LONG_RUN_HINT, Cycle, graph_elimination_order
from .._internal.float_guide import FloatStrategy, float_guess, float_strategy
from .._internal.order import SolveOrder, component_labels, edge_ends
from .._internal.rewards import check_cycle_rewards, value_graph
from ..array_model import Explorable
from ..enclosure import Enclosure
from ..exact.system import ExactSystem, field_of
from ..graph.action_values import graph_action_values
from ..graph.exploring import explore
from ..graph.state_graph import GraphStates, StateGraph, paused_garbage_collection
from ..model import seats_refused
from ..results import Method, solved_json

__all__ = ["CertifiedSolution", "enclose", "enclose_graph"]

#: Cyclic components whose entry states number more than this are ordered by a search
#: for a feedback set instead (each evaluation solves a dense system of the cut's size).
CUT_LIMIT = 32
#: At most this many states of one level's cyclic components are enclosed together ...
BATCH_STATES = 20_000
#: ... with a feedback set of at most this many states: the Schur complement of a batch
#: is a dense square of that size (Pig to 100 certified: 7.0 s at 8, 5.3 s at 32, 5.6 s at
#: 64).
BATCH_FEEDBACK = 32
#: States whose policy is read off their enclosures at a time.
POLICY_CHUNK = 1 << 20
#: The expected-steps weights are scaled by 1 + WEIGHT_SLACK * max(1, max w): a margin
#: of that much in the inequality they must satisfy, far above their solve's float error.
WEIGHT_SLACK = 2.0**-30
#: Twice the unit round-off of ``longdouble`` (80-bit extended on x86: 2^-63; where it is
#: a double, 2^-52 and the bounds are those of doubles).
EXTENDED_TWO_U = float(np.finfo(np.longdouble).eps)
#: The float strategy iteration switches actions on relative improvements above this
#: (the exact solver's 1e-12 would leave near ties of that size in the residual, and so
#: in the widths; rounding noise is about 2^-52).
POLICY_TOLERANCE = 2.0**-48
#: Rounds of policy iteration for the longest expected stay, when the policy's own
#: expected steps are not a valid weight.
MAX_WEIGHT_ROUNDS = 100


class CertifiedSolution(GraphStates):
    """Enclosures of the optimal value of every state, and the policy where certified.

    ``low[s]`` and ``high[s]`` (numpy float arrays, by state id) are the ends; ``graph``
    is the explored :class:`~exactprob.engine.graph.state_graph.StateGraph`. ``state=None`` means the
    initial state.
    """

    __slots__ = ("_choice", "_undecided", "graph", "high", "low")

    def __init__(
        self,
        graph: StateGraph,
        low: np.ndarray,
        high: np.ndarray,
        choice: np.ndarray,
        undecided: dict[int, tuple[int, ...]],
    ) -> None:
        self.graph, self.low, self.high = graph, low, high
        self._choice, self._undecided = choice, undecided

    def value(self, state: Any = None) -> Enclosure:
        """The enclosure of the optimal value of ``state``."""
        return self._enclosure(self._id(state))

    def policy(self, state: Any = None) -> Any:
        """The optimal action in ``state`` when certified, else the candidate with the
        best float midpoint (see :meth:`undecided`); ``None`` for a terminal state."""
        s = self._id(state)
        k = int(self._choice[s])
        return None if k < 0 else self.graph.actions[s][k]

    def undecided(self, state: Any = None) -> tuple[Any, ...]:
        """The actions of ``state`` that the enclosures cannot rule out, in the model's
        order, when there are several (``()`` where the policy is certified). Exact ties
        are always among them."""
        s = self._id(state)
        actions = self.graph.actions[s]
        return tuple(actions[k] for k in self._undecided.get(s, ()))

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action of ``state`` that may be optimal: :meth:`undecided` where the
        enclosures leave a choice open, else the certified action alone (``()`` when
        terminal)."""
        undecided = self.undecided(state)
        if undecided:
            return undecided
        action = self.policy(state)
        return () if action is None else (action,)

    def undecided_states(self) -> list[Hashable]:
        """Every state where the policy is not certified."""
        return [self.graph.states[s] for s in sorted(self._undecided)]

    def max_width(self) -> float:
        """The widest enclosure over all states (an upper bound, rounded up)."""
        widths = np.nextafter(self.high - self.low, np.inf)
        return float(widths.max(initial=0.0))

    method: Method = "certified"
    solver = "generic"

    def action_values(self, state: Any = None) -> dict[Any, Enclosure]:
        r"""An enclosure of every action's value :math:`Q(s, a)` in ``state``, in the
        model's order (:mod:`~exactprob.engine.graph.action_values`): an action whose enclosure
        lies wholly below another's (for the mover) is certainly not optimal."""
        return graph_action_values(self.graph, self._enclosure, self._id(state))

    def _enclosure(self, s: int) -> Enclosure:
        return Enclosure(float(self.low[s]), float(self.high[s]))

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`): the
        enclosure's decimal, ends and width."""
        return solved_json(self, state)

    def _repr_html_(self) -> str:
        """Jupyter's view: the enclosure at the start and the actions not ruled out."""
        return solution_html(self, f"CertifiedSolution: {len(self.graph):,} states")

    def __repr__(self) -> str:
        box = self.value()
        return (
            f"CertifiedSolution(states={len(self.graph)}, value in [{float(box.low)!r}, "
            f"{float(box.high)!r}], undecided={len(self._undecided)})"
        )


def enclose(
    model: Explorable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
) -> CertifiedSolution:
    """Explore ``model`` and enclose the optimal value of every state (certified mode).

    Player 0 maximises the expected terminal value (plus the total reward, for a model
    with rewards), player 1 minimises it. The outcomes and rewards
    must be rational numbers below :math:`2^{1000}` in size.

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
    CertifiedSolution
        Every state's value between two floats proved to hold it, and the actions the
        enclosures prove optimal.

    Raises
    ------
    ModelError
        For symbolic probabilities, or outcomes or probabilities out of the floats' range.
    NonTerminationError
        When a player can keep the play going forever.

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> from fractions import Fraction
    >>> enclose(ruin).value().contains(Fraction(40, 211))
    True
    """
    G = explore(model, max_states=max_states, progress=progress, starts=starts)
    return enclose_graph(G, progress=progress)


def enclose_graph(G: StateGraph, *, progress: bool = False) -> CertifiedSolution:
    """:func:`enclose` for an explored graph.

    Parameters
    ----------
    G : StateGraph
        A graph from :func:`~exactprob.engine.graph.exploring.explore`, with rational probabilities.
    progress : bool
        Show a bar on stderr.

    Returns
    -------
    CertifiedSolution
        Every state's enclosure and the actions proved optimal.

    Raises
    ------
    ModelError
        For a symbolic graph, or outcomes or probabilities out of the floats' range.

    See Also
    --------
    exactprob.solve : With ``method="certified"``, explores and encloses a model (a game's fast path where one is registered).
    solve_graph : The exact values of an explored graph.

    References
    ----------
    - D. P. Bertsekas and J. N. Tsitsiklis, *Neuro-Dynamic Programming*, Athena
      Scientific, 1996 (stochastic shortest paths: with every policy ending play, the
      Bellman operator contracts in a norm weighted by the expected steps).
    - N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM, 2002
      (§3.1, the error of a floating-point inner product).

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> from fractions import Fraction
    >>> enclose_graph(explore(ruin)).value(1).contains(Fraction(16, 211))  # (r - 1)/(r^5 - 1)
    True
    """
    if G.seats:
        raise seats_refused("certified mode")
    check_cycle_rewards(G)
    V = value_graph(G)  # rewards as edges to a state worth one, enclosed by a point
    if V.symbolic:
        raise ModelError(
            "certified mode needs rational probabilities and rewards; solve symbolic models"
        )
    with paused_garbage_collection(), one_blas_thread(len(G)), np.errstate(all="ignore"):
        return _Encloser(V, G, progress).run()


def _outward(value: Any) -> tuple[float, float]:
    """The floats just below and above an exact rational (equal when it is a float).

    >>> _outward(mpq(1, 3))
    (0.3333333333333333, 0.33333333333333337)
    """
    nearest = float(value)
    exact = mpq(nearest)
    low = nearest if exact <= value else math.nextafter(nearest, -math.inf)
    high = nearest if exact >= value else math.nextafter(nearest, math.inf)
    return low, high


class _Encloser:
    """One certified solve: the ends of every state, component by component."""

    def __init__(self, G: StateGraph, model_graph: StateGraph, progress: bool) -> None:
        """``G``: the graph valued (``model_graph`` with its rewards as edges,
        :func:`~exactprob.engine._internal.rewards.value_graph`)."""
        self.G, self.model_graph, self.progress = G, model_graph, progress
        n = len(G)
        self.low, self.high = np.zeros(n), np.zeros(n)
        tiny = next((p for p in G.probabilities if 0 < abs(p) < NORMAL), None)
        if tiny is not None:
            raise ModelError(
                f"a probability or reward of about 2**{_binary_exponent(abs(tiny))} is below "
                "2**-1022, where doubles lose their relative precision: certified mode cannot "
                "bound it; solve it exactly"
            )
        rewards = model_graph.rewards
        large = next((r for r in rewards or () if not abs(r) < LIMIT), None)
        if large is not None:
            raise ModelError(
                f"a reward of {large} is too large for certified mode (below 2**1000 in "
                "size); solve it exactly"
            )
        unit = len(model_graph) if G is not model_graph else -1
        self.system = ExactSystem(G, field_of(G), unit)  # what Cycle reads: the graph's edges
        arrays = self.system.arrays  # None when no state has a choice: built here then
        self.arrays = (
            arrays
            if arrays is not None
            else GraphArrays(G, [approx_probability(p) for p in G.probabilities])
        )
        # each distinct probability in extended precision, read per component by edge
        self.extended = np.array([_extended(p) for p in G.probabilities], dtype=np.longdouble)
        self.prob_ids = np.frombuffer(G.prob_ids, dtype=np.int32)
        terminal = [(s, o) for s, o in enumerate(G.outcomes) if o is not None]
        if not terminal:
            raise NonTerminationError(
                f"no terminal state is reachable, so no play ever ends; {LONG_RUN_HINT}"
            )
        for s, o in terminal:
            if not abs(o) < LIMIT:
                raise ModelError(
                    f"outcome({G.states[s]!r}) = {o} is too large for certified mode "
                    "(below 2**1000 in size); solve it exactly"
                )
            self.low[s], self.high[s] = _outward(o)
        # without rewards every value is a mean of outcomes, so lies between them
        paid = G is not model_graph
        self.floor = -math.inf if paid else float(min(self.low[s] for s, _ in terminal))
        self.ceiling = math.inf if paid else float(max(self.high[s] for s, _ in terminal))

    def run(self) -> CertifiedSolution:
        """The components level by level of the condensation (:meth:`~exactprob.engine._internal.order.
        SolveOrder.levels`): a level's single states outside any cycle all at once, then
        its cyclic components (and states with a self-loop) in batches (:class:`_Batch`)."""
        G = self.G
        solve_order = SolveOrder(G, CUT_LIMIT)
        sources, targets, first_edge = edge_ends(G)
        looping = np.zeros(len(G), dtype=bool)
        looping[sources[sources == targets]] = True
        deciding = np.diff(self.arrays.choice_start) > 0
        first = solve_order.order[solve_order.ends[:-1]]
        skipped, representative = _skipped(G, first_edge, solve_order)
        if len(skipped):  # read every move into a skipped state from its representative
            sources, targets = _redirected(sources, targets, skipped, representative)
            self.arrays = copy.copy(self.arrays)
            self.arrays.targets = representative.astype(np.int32)[self.arrays.targets]
        # a level's components are enclosed together, which needs true levels: no move
        # between two components of one level (the solve order has such moves)
        levels = solve_order.levels(sources, targets)
        del sources, targets  # 16 bytes a move, not needed from here on
        # components by level, and per level the single states outside a cycle (with an
        # action) and the other components, sliced once rather than level by level
        components = np.concatenate(levels)
        bounds = np.cumsum([0] + [len(level) for level in levels])
        sizes = np.diff(solve_order.ends)[components]
        state = first[components]
        plain = (sizes == 1) & ~looping[state] & deciding[state]
        plain &= representative[state] == state  # no skipped state
        cyclic = (sizes > 1) | ((sizes == 1) & looping[state])
        plain_at = np.searchsorted(np.flatnonzero(plain), bounds)
        plain_states = state[plain]
        cyclic_at = np.searchsorted(np.flatnonzero(cyclic), bounds).tolist()
        cyclic_components = components[cyclic].tolist()
        with progress_bar(self.progress, "enclosing", total=len(G), unit=" states") as bar:
            for k in range(len(levels)):
                if plain_at[k] < plain_at[k + 1]:
                    self._acyclic(plain_states[plain_at[k] : plain_at[k + 1]])
                batch = _Batch()
                for i in cyclic_components[cyclic_at[k] : cyclic_at[k + 1]]:
                    component, cut_order = solve_order.component(i)
                    order = cut_order or graph_elimination_order(G, component)
                    if not batch.fits(order):
                        self._cyclic(batch)
                        batch = _Batch()
                    batch.add(order)
                if batch.orders:
                    self._cyclic(batch)
                bar.update(int(sizes[bounds[k] : bounds[k + 1]].sum()))
        self.low[skipped] = self.low[representative[skipped]]
        self.high[skipped] = self.high[representative[skipped]]
        choice, undecided = _certified_policy(self.arrays, self.low, self.high)
        return CertifiedSolution(
            self.model_graph, self.low.copy(), self.high.copy(), choice, undecided
        )

    def _acyclic(self, states: np.ndarray) -> None:
        """Enclose states outside any cycle, whose successors are all enclosed, at once:
        every action's enclosure (:func:`_choice_bounds`), then the best end of each."""
        arrays = self.arrays
        cs = arrays.choice_start
        n_choices = cs[states + 1] - cs[states]
        starts = np.cumsum(n_choices) - n_choices
        q_low, q_high = _choice_bounds(arrays, self.low, self.high, ranges(cs[states], n_choices))
        minimiser = arrays.players[states] == 1  # player 1: the smallest ends
        low = np.where(
            minimiser, np.minimum.reduceat(q_low, starts), np.maximum.reduceat(q_low, starts)
        )
        high = np.where(
            minimiser, np.minimum.reduceat(q_high, starts), np.maximum.reduceat(q_high, starts)
        )
        self.low[states] = np.maximum(low, self.floor)
        self.high[states] = np.minimum(high, self.ceiling)

    def _cyclic(self, batch: _Batch) -> None:
        """Enclose a batch of cyclic components (or states with a self-loop) of one
        level, as one: the module's residual bound at each end of each component, around
        the float strategy's values. Should a strategy stay forever in one of them, each
        is enclosed alone, which names the state."""
        order, acyclic, member = batch.union()
        cycle = Cycle(self.system, order, (order, acyclic))
        several = len(batch.orders) > 1
        table = ComponentTable(
            self.arrays, order, len(order) - acyclic, member if several else None
        )

        def terminating() -> np.ndarray:
            return table.policy_array(cycle.terminating_start({}))

        maximiser = table.sign > 0
        upper = float_guess(table, self.high, terminating, POLICY_TOLERANCE)
        upper_weights = _weights(table, upper.policy, free=maximiser)
        lower = float_strategy(table, upper.policy, self.low, POLICY_TOLERANCE)
        if lower is None:
            lower = FloatStrategy(upper.policy, None)
        lower_weights = _weights(table, lower.policy, free=~maximiser)
        if upper_weights is None or lower_weights is None:
            if len(batch.orders) > 1:
                for alone in batch.orders:
                    self._cyclic(_Batch([alone]))
                return
            player = 0 if upper_weights is None else 1
            raise NonTerminationError(
                f"player {player} can keep the play forever in the cycle through state "
                f"{self.G.states[min(order)]!r}, whatever the other player's best "
                "strategy; certified mode needs each player to have a strategy that leaves "
                "each cycle whatever the other does (solve it exactly instead)"
            )
        states = np.asarray(order)
        extended = self.extended[self.prob_ids[table.edges]]
        for ends, (policy, values), weights, is_upper in (
            (self.high, upper, upper_weights, True),
            (self.low, lower, lower_weights, False),
        ):
            v = table.evaluate(policy, table.exit_values(ends)) if values is None else values
            free = maximiser if is_upper else ~maximiser
            residual = _residuals(
                table,
                ends,
                v,
                _Fixed(policy, free, is_upper),
                extended,
                member,
            )
            step = np.nextafter(residual[member] * weights, np.inf)
            if is_upper:
                bound = np.minimum(np.nextafter(v + step, np.inf), self.ceiling)
            else:
                bound = np.maximum(np.nextafter(v - step, -np.inf), self.floor)
            broken = np.zeros(len(batch.orders), dtype=bool)  # a component with no bound
            np.logical_or.at(broken, member, ~np.isfinite(bound))
            bound[broken[member]] = self.ceiling if is_upper else self.floor
            ends[states] = bound


def _skipped(
    G: StateGraph, first_edge: np.ndarray, solve_order: SolveOrder
) -> tuple[np.ndarray, np.ndarray]:
    """The pass-through states outside any cycle (:func:`~exactprob.engine._internal.
    levels.pass_through`), each enclosed exactly as its representative is, and every
    state's representative, in which no skipped state remains (it is kept as its own
    where its run of pass-throughs goes round a cycle)."""
    representative = pass_through(G, first_edge)
    size = np.diff(solve_order.ends)[component_labels(solve_order.order, solve_order.ends)]
    alone = size == 1
    skipped = np.flatnonzero((representative != np.arange(len(G))) & alone)
    kept = np.arange(len(G))
    kept[skipped] = representative[skipped]
    return skipped, kept


def _redirected(
    sources: np.ndarray, targets: np.ndarray, skipped: np.ndarray, representative: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The edges with the skipped states' own left out and every move into one sent to
    its representative (for the levels of the condensation)."""
    leaving = np.ones(len(representative), dtype=bool)
    leaving[skipped] = False
    kept = leaving[sources]
    return sources[kept], representative[targets[kept]]


class _Fixed(NamedTuple):
    """The operator :math:`T_\\tau` of one end: the ``free`` states' player optimises
    (player 0 at the upper end, player 1 at the lower), the others keep their choice in
    ``policy``."""

    policy: np.ndarray
    free: np.ndarray
    upper: bool


class _Batch:
    """Cyclic components of one level of the condensation, each in elimination order
    (``(states, size of the acyclic part)``), enclosed together: no move joins two of
    them, so their union is evaluated as one block-diagonal component, with one float
    strategy iteration and one triangular solve per evaluation instead of one each.
    Filled up to :data:`BATCH_STATES` states and :data:`BATCH_FEEDBACK` feedback
    states (one component always fits)."""

    __slots__ = ("feedback", "orders", "states")

    def __init__(self, orders: list[tuple[list[int], int]] | None = None) -> None:
        self.orders = orders or []
        self.states = sum(len(o) for o, _ in self.orders)
        self.feedback = sum(len(o) - a for o, a in self.orders)

    def fits(self, order: tuple[list[int], int]) -> bool:
        """Whether ``order`` may join the batch."""
        states, acyclic = order
        return not self.orders or (
            self.states + len(states) <= BATCH_STATES
            and self.feedback + len(states) - acyclic <= BATCH_FEEDBACK
        )

    def add(self, order: tuple[list[int], int]) -> None:
        """Join ``order`` to the batch."""
        self.orders.append(order)
        self.states += len(order[0])
        self.feedback += len(order[0]) - order[1]

    def union(self) -> tuple[list[int], int, np.ndarray]:
        """The union in elimination order: every acyclic part, then every feedback set;
        the size of its acyclic part, and each local state's component in the batch."""
        acyclic = [s for states, a in self.orders for s in states[:a]]
        feedback = [s for states, a in self.orders for s in states[a:]]
        member = np.concatenate(
            [np.repeat(np.arange(len(self.orders)), [a for _, a in self.orders])]
            + [np.repeat(np.arange(len(self.orders)), [len(o) - a for o, a in self.orders])]
        )
        return acyclic + feedback, len(acyclic), member


def _binary_exponent(x: Any) -> int:
    """:math:`\\lfloor \\log_2 x \\rfloor` of a positive rational, give or take one.

    >>> _binary_exponent(mpq(1, 2**1100))
    -1100
    """
    return int(x.numerator).bit_length() - int(x.denominator).bit_length()


def _extended(probability: Any) -> np.longdouble:
    """An exact rational as a ``longdouble`` within :math:`2 u` of it (:math:`u` the
    ``longdouble`` unit round-off): the nearest double plus the rest rounded to a double.

    >>> float(_extended(mpq(1, 3)) - np.longdouble(1) / 3) == 0.0
    True
    """
    high = float(probability)
    return np.longdouble(high) + np.longdouble(float(probability - mpq(high)))


def _bellman(
    table: ComponentTable, ends: np.ndarray, v: np.ndarray, end: _Fixed, extended: np.ndarray
) -> np.ndarray:
    """A rigorous upper (or lower) bound on :math:`(T_\\tau v)(s)` for every local
    state, the exits at ``ends``, computed in ``longdouble`` with the edges'
    probabilities ``extended`` (one per edge of the table): the residual then measures ``v``,
    not the rounding of its own evaluation."""
    values = table.edge_values(ends, v).astype(np.longdouble)
    terms = extended * values
    starts = table.edge_start_of_choice
    q = np.add.reduceat(terms, starts)
    bound = error_bounds(table.edge_counts, np.add.reduceat(np.abs(terms), starts), EXTENDED_TWO_U)
    q = np.nextafter(q + bound, np.inf) if end.upper else np.nextafter(q - bound, -np.inf)
    signed = q * table.sign[table.owner]
    applied = np.maximum.reduceat(signed, table.first[:-1]) * table.sign
    chosen: np.ndarray = np.where(end.free, applied, q[end.policy])
    return chosen


def _residuals(
    table: ComponentTable,
    ends: np.ndarray,
    v: np.ndarray,
    end: _Fixed,
    extended: np.ndarray,
    member: np.ndarray,
) -> np.ndarray:
    """For each component of a batch (``member[i]``: the component of local state
    ``i``), :math:`\\delta \\ge \\max_s ((T_\\tau v)(s) - v(s))^+` over its states
    (upper end) or :math:`\\max_s (v(s) - (T_\\sigma v)(s))^+` (lower end),
    rigorously, as doubles."""
    applied = _bellman(table, ends, v, end, extended)
    gap = (applied - v) if end.upper else (v - applied)
    worst = np.zeros(int(member.max(initial=-1)) + 1, dtype=np.longdouble)
    np.maximum.at(worst, member, gap)
    worst = (worst * np.longdouble(SAFETY)).astype(np.float64)  # rounds to nearest ...
    return np.where(np.isfinite(worst), np.nextafter(worst, np.inf), np.inf)  # ... then up


def _weights(table: ComponentTable, policy: np.ndarray, free: np.ndarray) -> np.ndarray | None:
    """Weights :math:`w` with :math:`1 + P_a w \\le w` for every action of the ``free``
    states and the ``policy``'s action elsewhere, proved with outward rounding (see the
    module); ``None`` when none is found."""
    ones = np.ones(table.n_choices)
    policy = policy.copy()
    checked = free[table.owner]
    checked[policy] = True
    for _ in range(MAX_WEIGHT_ROUNDS):
        try:
            w = table.evaluate(policy, ones)
        except np.linalg.LinAlgError:  # a policy that never leaves: singular
            return None
        if not (np.all(np.isfinite(w)) and np.all(w >= 1.0)):
            return None
        w *= 1.0 + WEIGHT_SLACK * max(1.0, float(w.max()))
        stay = table.inside_values(w)
        stay_up = np.nextafter(stay + error_bounds(table.edge_counts, stay), np.inf)
        if np.all((stay_up <= np.nextafter(w - 1.0, -np.inf)[table.owner]) | ~checked):
            return w
        longest, first_longest = first_maxima(
            np.where(checked, stay, -np.inf), table.first[:-1], table.owner
        )
        longer = (longest > stay[policy]) & free
        if not longer.any():
            return None
        policy[longer] = first_longest[longer]
    return None


def _choice_bounds(
    arrays: GraphArrays, low: np.ndarray, high: np.ndarray, choices: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Rigorous float ends of :math:`Q(s, a) = \sum_t P(t \mid s, a) V(t)` for these
    choices (default: every choice of the graph) from the ends ``low``, ``high`` of
    their successors: the float dot products widened by their proven rounding bound
    (:func:`~exactprob.util.rounding.error_bounds`, valid in any order of summation) and
    rounded outward."""
    es = arrays.edge_start
    if choices is None:
        counts, starts = np.diff(es), es[:-1]
        probs, targets = arrays.probs, arrays.targets
    else:
        counts = es[choices + 1] - es[choices]
        edges = ranges(es[choices], counts)
        starts = np.cumsum(counts) - counts
        probs, targets = arrays.probs[edges], arrays.targets[edges]
    ends = []
    for values, outward in ((low, -np.inf), (high, np.inf)):
        terms = probs * values[targets]
        q = np.add.reduceat(terms, starts)
        bound = error_bounds(counts, np.add.reduceat(np.abs(terms), starts))
        ends.append(np.nextafter(q - bound if outward < 0 else q + bound, outward))
    return ends[0], ends[1]


def _certified_policy(
    arrays: GraphArrays, low: np.ndarray, high: np.ndarray
) -> tuple[np.ndarray, dict[int, tuple[int, ...]]]:
    """Each state's action (``-1`` when terminal) and, where the enclosures cannot
    separate several actions, those actions (local indices), over the whole graph, in
    chunks of :data:`POLICY_CHUNK` states (the float temporaries of a whole graph would
    take about 300 bytes a state)."""
    cs = arrays.choice_start
    choices = np.diff(cs)
    deciding = np.flatnonzero(choices > 0)  # the non-terminal states, in id order
    choice = np.full(len(low), -1, dtype=np.int64)
    undecided: dict[int, tuple[int, ...]] = {}
    for at in range(0, len(deciding), POLICY_CHUNK):
        states = deciding[at : at + POLICY_CHUNK]
        first = int(cs[states[0]])  # the chunk's choices are contiguous from here
        starts = cs[states] - first
        run = np.repeat(np.arange(len(states)), choices[states])  # each choice's state
        sign = 1.0 - 2.0 * arrays.players[states[run]].astype(np.float64)
        q_low, q_high = _choice_bounds(arrays, low, high, first + np.arange(len(run)))
        # in signed terms (higher is better for the mover) an enclosure is [worst, best]
        worst = np.where(sign > 0, q_low, -q_high)
        best = np.where(sign > 0, q_high, -q_low)
        floor, _ = first_maxima(worst, starts, run)
        candidate = best >= floor[run]
        middle = np.where(candidate, worst + best, -np.inf)  # twice the midpoint
        _, top = first_maxima(middle, starts, run)
        choice[states] = top - starts
        counts = np.bincount(run[candidate], minlength=len(states))
        for i in np.flatnonzero(counts > 1).tolist():
            ks = np.flatnonzero(candidate[starts[i] : starts[i] + choices[states[i]]])
            undecided[int(states[i])] = tuple(ks.tolist())
    return choice, undecided
