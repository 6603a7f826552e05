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
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ModelError, NonTerminationError, UsageError
from ..util import display
from ..util.deprecation import warn_deprecated
from ..util.limits import DEFAULT_MAX_STATES
from ..util.mathdoc import Document
from ..util.numbers import Exact, common_denominator_dots, integer_weights, is_symbolic, mpq
from ..util.progress import Progress, progress_bar, shows_progress
from ..util.rounding import approx, approx_probability, float_dot
from ._internal.certify import near_choices
from ._internal.choose import best_and_ties, best_of, float_candidates, share_successors
from ._internal.component_table import ComponentTable, GraphArrays, one_blas_thread
from ._internal.cycle import Cycle
from ._internal.float_guide import float_guess
from ._internal.levels import SweptValues, peel, stays_forever, sweep
from ._internal.linear import Field, field_for
from ._internal.order import SolveOrder, edge_ends
from ._internal.reach import reach_values
from ._internal.rewards import check_cycle_rewards, value_graph
from .array_model import Explorable, one_state_at_a_time
from .dist import Dist
from .forward import Counter, check_cap, count_distribution, move_counts, push_forward
from .graph import check_model, explore, start_states
from .results import Method, solved_json
from .state_graph import GraphStates, StateGraph, paused_garbage_collection

__all__ = ["Policy", "Solution", "evaluate", "fixed_policy", "solve_graph", "solve_model"]

Policy = Callable[[Any], Any] | Mapping[Any, Any]
#: ``evaluate``'s deprecated ``start=`` when it is not given.
_NOT_GIVEN: Any = object()
_ZERO = mpq(0)
#: Cyclic components solved by forward reach have at most this many feedback and entry
#: states together, each counted once (each costs a pass over the component); others
#: are eliminated.
REACH_LIMIT = 32
#: Largest cyclic component given a float table (dense matrices of its size).
TABLE_LIMIT = 1500


class Solution(GraphStates):
    """The exact solution of a model under optimal play (or under a fixed policy).

    Values are ``Fraction`` (sympy expressions for symbolic models). ``state=None``
    always means the initial state. ``graph`` is the explored
    :class:`~exactprob.engine.state_graph.StateGraph`; :meth:`to_networkx` gives its networkx view.
    """

    __slots__ = (
        "_absorption",
        "_choice",
        "_swept",
        "_ties",
        "_values",
        "field",
        "graph",
        "system",
    )

    def __init__(
        self,
        graph: StateGraph,
        system: ExactSystem,
        values: list[Exact],
        choice: array[int],
        ties: dict[int, tuple[int, ...]],
        swept: SweptValues | None = None,
    ) -> None:
        self.graph = graph
        self.system = system  # the graph's numbers in the solve's field
        self.field = system.field
        self._values = values
        self._choice = choice
        self._ties = ties
        self._swept = swept  # the values of the acyclic part, reduced when asked for
        self._absorption: dict[int, tuple[dict[int, Exact], Exact]] = {}

    def value(self, state: Any = None) -> Any:
        """The exact value of ``state`` (the initial state when ``None``). Values of the
        acyclic part are reduced, and values inside a cyclic component computed
        (:func:`_fill_values`), on first request."""
        return self.field.public(self._exact_value(self._id(state)))

    def _exact_value(self, s: int) -> Exact:
        if self._values[s] is None:
            if self._swept is not None and self._swept.covers(s):
                self._values[s] = self._swept.value(s)
            else:
                _fill_values(self.system, self._choice, self._values, [s])
        return self._values[s]

    def _field_values(self) -> list[Exact]:
        """Every state's value in the solve's field (a symbolic chain's are rational
        functions), all computed now."""
        return [self._exact_value(s) for s in range(len(self.graph))]

    def derivation(self, *, limit: int = 12, states: Sequence[Any] | None = None) -> Document:
        """The derivation of this solution written out (a
        :class:`~exactprob.util.mathdoc.Document`: ``.latex()``, ``.rst()``,
        ``.markdown()``), the ``limit`` states nearest the start in full, or the
        ``states`` given (:mod:`exactprob.engine.derivation`)."""
        from .derivation import derive

        return derive(self, limit=limit, states=states)

    def action_values(self, state: Any = None) -> dict[Any, Any]:
        r"""Every action's exact value in ``state``,
        :math:`Q(s, a) = r(s, a) + \sum_t P(t \mid s, a)\,V(t)`, in the model's order
        (empty for a terminal state): the optimal value is the best of them for the
        state's mover, and the ties are those equal to it.

        >>> from exactprob.games.gamblers_ruin import GamblersRuin
        >>> solve_model(GamblersRuin(goal=5, start=2, p="2/5")).action_values()
        {'bet': Fraction(40, 211)}
        """
        s = self._id(state)
        start = self.system.choice_start[s]
        values = _LazyValues(self)
        return {
            action: self.field.public(self.system.q(start + k, values))
            for k, action in enumerate(self.graph.actions[s])
        }

    def policy(self, state: Any = None) -> Any:
        """The chosen action in ``state`` (``None`` for a terminal state): the first
        optimal one in the model's order, except inside a cycle (of states that are not
        all one-move states, which count as a self-loop), where it is policy iteration's
        final choice, so that the whole policy map terminates."""
        s = self._id(state)
        k = self._choice[s]
        return None if k < 0 else self.graph.actions[s][k]

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action whose value :math:`Q(s, a)` equals the optimum exactly, in the
        model's order. Inside a cycle, tied actions are optimal one at a time, not in
        every combination: two tied "wait for the other" actions may never terminate."""
        s = self._id(state)
        k = self._choice[s]
        if k < 0:
            return ()
        actions = self.graph.actions[s]
        return tuple(actions[j] for j in self._ties.get(s, (k,)))

    def policy_map(self) -> dict[Hashable, Any]:
        """The chosen action of every non-terminal state."""
        states, actions = self.graph.states, self.graph.actions
        return {states[s]: actions[s][k] for s, k in enumerate(self._choice) if k >= 0}

    method: Method = "exact"
    solver = "generic"

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`)."""
        return solved_json(self, state)

    def to_networkx(self) -> Any:
        """The explored graph as a :class:`networkx.DiGraph` (see
        :meth:`~exactprob.engine.state_graph.StateGraph.to_networkx`)."""
        return self.graph.to_networkx()

    def expected_steps(self, state: Any = None) -> Any:
        """Expected number of transitions from ``state`` to a terminal state (the sum
        of the expected visits to the non-terminal states)."""
        return self.field.public(self._forward(state)[1])

    def absorption(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal state reached from ``state``."""
        absorbed = self._forward(state)[0]
        states = self.graph.states
        return Dist._trusted({states[t]: self._public(q) for t, q in absorbed.items()})

    def _forward(self, state: Any) -> tuple[dict[int, Exact], Exact]:
        """Absorption probabilities and expected steps from ``state`` (computed once,
        :func:`~exactprob.engine.forward.push_forward`)."""
        s = self._id(state)
        if s not in self._absorption:
            pushed = push_forward(s, self._moves, self.field)
            self._absorption[s] = (pushed.absorbed, pushed.weight)
        return self._absorption[s]

    def _moves(self, s: int) -> list[tuple[int, Exact]]:
        """``(successor, probability)`` of the chosen action of ``s`` (none if terminal;
        a reward's edge to the unit state is not a move)."""
        k = self._choice[s]
        if k < 0:
            return []
        unit = self.system.unit
        return [(t, p) for t, p in self.system.edges(self.graph.choice_start[s] + k) if t != unit]

    def _counts(self, counter: Counter) -> Callable[[int], list[int]]:
        """What ``counter`` adds on each chosen move of a state (asked once a state)."""
        states, actions = self.graph.states, self.graph.actions
        return move_counts(
            counter, self._moves, states.__getitem__, lambda s: actions[s][self._choice[s]]
        )

    def counter_distribution(
        self, counter: Counter, state: Any = None, *, cap: int | None = None
    ) -> Dist[int]:
        """The law of a counter at the end of play from ``state``: the sum, over the
        moves made, of ``counter(state, action, next_state)`` (a whole number >= 0 per
        move; e.g. ``1`` per round, or whether luck was tested). With ``cap``, the law of
        ``min(count, cap)``: exact for every count below ``cap``, and the chance of
        ``cap`` or more. A counter that a move inside a cycle increases has no largest
        value and needs a ``cap`` (:func:`~exactprob.engine.forward.count_distribution`)."""
        law = count_distribution(
            self._id(state),
            self._moves,
            self._counts(counter),
            self.field,
            check_cap(cap),
            name=self.graph.states.__getitem__,
        )
        return Dist._trusted({k: self._public(law[k]) for k in sorted(law)})

    def expected_count(self, counter: Counter, state: Any = None) -> Any:
        """The expected value of a counter at the end of play (as in
        :meth:`counter_distribution`, with no cap needed: loops included)."""
        counts = self._counts(counter)
        field = self.field

        def weight(s: int) -> Exact:
            return sum(
                (p * field.convert(c) for (_, p), c in zip(self._moves(s), counts(s))),
                self.system.zero,
            )

        return field.public(push_forward(self._id(state), self._moves, field, weight).weight)

    def reward_distribution(self, state: Any = None, *, cap: int | None = None) -> Dist[int]:
        """The law of the total reward earned from ``state`` until play ends, under the
        solution's policy: :meth:`counter_distribution` counting each move's reward,
        which must be a whole number >= 0 on the moves played (the value, its mean plus
        the expected outcome, takes any reward). ``cap`` as there."""
        return self.counter_distribution(self._reward_counter(), state, cap=cap)

    def _reward_counter(self) -> Counter:
        """The model's reward of each move, as a counter (whole numbers >= 0)."""
        G = self.graph
        rewards = G.rewards
        if rewards is None:
            raise ModelError("the model has no rewards; define reward(state, action)")
        index, actions, cs = G.index, G.actions, G.choice_start

        def earned(state: Any, action: Any, _after: Any) -> int:
            s = index[state]
            r = rewards[cs[s] + actions[s].index(action)]
            if is_symbolic(r) or r < 0 or r.denominator != 1:
                raise ModelError(
                    f"reward({state!r}, {action!r}) = {r}: the law of the total reward needs "
                    "whole rewards >= 0 (the value, its mean, takes any)"
                )
            return int(r)

        return earned

    def _public(self, q: Exact) -> Any:
        """A probability as returned in a ``Dist``: ``mpq`` kept, symbolic made public."""
        return self.field.public(q) if self.field.symbolic else q

    def outcome_distribution(self, state: Any = None) -> Dist[Any]:
        """The distribution of the terminal value reached from ``state``."""
        outcomes = self.system.outcomes
        index = self.graph.index
        return self.absorption(state).map(lambda t: self.field.public(outcomes[index[t]]))

    def __repr__(self) -> str:
        return f"Solution(states={len(self.graph)}, value={self.value()})"

    def _repr_html_(self) -> str:
        """Jupyter's view: the value, the best action and the exact ties at the start."""
        return display.solution_html(self, f"Solution: {len(self.graph):,} states")


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
    return solve_graph(G, progress=progress)


def evaluate(
    model: Explorable,
    policy: Policy,
    *,
    starts: Sequence[Hashable] | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    start: Any = _NOT_GIVEN,
) -> Solution:
    """The exact value of a fixed ``policy``.

    Only states reachable under the policy are explored, so a policy need only be
    defined where it is used.

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    policy : callable or mapping
        The action in each state: ``policy(state)`` or ``policy[state]``.
    starts : sequence, optional
        Evaluate from each of these at once instead of the model's initial state; the
        first is the solution's initial state (the state ``None`` stands for).
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool, optional
        Show a bar on stderr; by default, when stderr is a terminal.
    start : state, optional
        Deprecated since 0.2.0: ``starts=[state]``.

    Returns
    -------
    Solution
        Every reached state's exact value under ``policy``.

    Raises
    ------
    ModelError
        When the policy picks an action the state does not offer.
    NonTerminationError
        When play under the policy never ends from some state.

    See Also
    --------
    exactprob.solve : The values under optimal play.

    References
    ----------
    - J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
      (absorbing chains: the values under a fixed policy solve one linear system).

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> evaluate(ruin, lambda fortune: "bet", starts=[3]).value()  # (r^3 - 1)/(r^5 - 1)
    Fraction(76, 211)
    """
    if start is not _NOT_GIVEN:
        warn_deprecated("evaluate(model, policy, start=s)", "starts=[s]", "0.2.0")
        if starts is not None:
            raise UsageError("evaluate takes starts=[...] or the deprecated start=, not both")
        starts = None if start is None else [start]
    if starts is not None:
        starts = start_states(model, starts)  # refuses an empty or unhashable one
    progress = shows_progress(progress)
    restricted = fixed_policy(model, policy, starts[0] if starts else None)
    graph = explore(restricted, max_states=max_states, progress=progress, starts=starts)
    return solve_graph(graph, progress=progress)


def fixed_policy(model: Explorable, policy: Policy, start: Any = None) -> Any:
    """``model`` with only ``policy``'s action in each state (a Markov chain), from
    ``start`` (the model's initial state by default); a policy is a function of the
    state or a mapping, and a ModelError names a state it gives no allowed action."""
    if not (isinstance(policy, Mapping) or callable(policy)):
        raise ModelError(
            f"a policy is a function of the state or a mapping from states to actions, not "
            f"{type(policy).__name__}"
        )
    chooser = policy.__getitem__ if isinstance(policy, Mapping) else policy
    model = one_state_at_a_time(model)
    check_model(model, needs_initial=start is None)
    return _FixedPolicy(model, chooser, model.initial if start is None else start)


class _FixedPolicy:
    """A model whose every state offers only the action the policy picks."""

    def __init__(self, model: Any, chooser: Callable[[Any], Any], initial: Hashable) -> None:
        self.model = model
        self.chooser = chooser
        self.initial = initial

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
        dist: Dist[Any] = self.model.transition(state, action)
        return dist

    def player(self, state: Any) -> int:
        player = getattr(self.model, "player", None)
        return 0 if player is None else player(state)

    def __getattr__(self, name: str) -> Any:
        """The model's ``reward``, where it has one (the only other part read)."""
        if name == "reward":
            return getattr(self.model, name)
        raise AttributeError(name)


class ExactSystem:
    """A state graph's numbers in the solve's field, laid out for the hot loops.

    ``edge_probs[e]`` is edge ``e``'s probability (one shared object per distinct
    probability), ``outcomes[s]`` the terminal value. ``guided`` says whether floats
    guide the choices (rational numbers and some state with several actions); only
    then do ``float_probs`` hold the probabilities as floats and ``arrays`` the graph's
    columns for numpy (:class:`~exactprob.engine._internal.component_table.GraphArrays`), and
    ``weights[i]`` the distinct probability ``i`` times ``weight_denominator``, the least
    common multiple of all their denominators (an integer). The per-edge columns are
    built when first read: a graph the level sweep solves whole never reads them.
    """

    __slots__ = (
        "_arrays",
        "_edge_probs",
        "_float_probs",
        "choice_start",
        "edge_start",
        "field",
        "graph",
        "guided",
        "outcomes",
        "prob_ids",
        "probabilities",
        "targets",
        "unit",
        "weight_denominator",
        "weights",
        "zero",
    )

    def __init__(self, G: StateGraph, field: Field, unit: int = -1) -> None:
        self.graph = G
        self.field = field
        self.unit = unit  # the state rewards lead to (:mod:`~exactprob.engine._internal.rewards`)
        probs = G.probabilities
        outcomes = G.outcomes
        if field.symbolic:
            probs = [field.convert(p) for p in probs]
            outcomes = [None if o is None else field.convert(o) for o in outcomes]
        self.outcomes = outcomes
        self.probabilities = probs
        self.zero = field.convert(0)
        self.guided = not field.symbolic and any(len(a) > 1 for a in set(G.actions))
        self._edge_probs: list[Exact] | None = None
        self._float_probs: list[float] | None = None
        self._arrays: GraphArrays | None = None
        self.targets = G.targets
        self.edge_start = G.edge_start
        self.choice_start = G.choice_start
        self.prob_ids = G.prob_ids
        if self.guided:
            self.weights, self.weight_denominator = integer_weights(probs)

    @property
    def edge_probs(self) -> list[Exact]:
        """Each edge's exact probability (one shared object per distinct one)."""
        if self._edge_probs is None:
            self._edge_probs = [self.probabilities[i] for i in self.prob_ids]
        return self._edge_probs

    @property
    def float_probs(self) -> list[float] | None:
        """Each edge's probability as a float (a guided solve only)."""
        if self._float_probs is None and self.guided:
            floats = [approx_probability(p) for p in self.probabilities]
            self._float_probs = [floats[i] for i in self.prob_ids]
        return self._float_probs

    @property
    def arrays(self) -> GraphArrays | None:
        """The graph's columns for numpy (a guided solve only)."""
        if self._arrays is None and self.guided:
            self._arrays = GraphArrays(
                self.graph, [approx_probability(p) for p in self.probabilities]
            )
        return self._arrays

    def edges(self, c: int) -> Iterable[tuple[int, Exact]]:
        """``(target, probability)`` of every edge of choice ``c``."""
        e0, e1 = self.edge_start[c], self.edge_start[c + 1]
        return zip(self.targets[e0:e1], self.edge_probs[e0:e1])

    def share_successors(self, c0: int, c1: int) -> bool:
        """Whether choices ``c0 .. c1 - 1`` :func:`~exactprob.engine._internal.choose.share_successors`."""
        starts, targets = self.edge_start, self.targets
        return share_successors([targets[starts[c] : starts[c + 1]] for c in range(c0, c1)])

    def numerators(self, choices: Iterable[int], values: Sequence[Exact]) -> tuple[list[Any], Any]:
        r"""Integers :math:`N_c` and one denominator :math:`D` with
        :math:`Q(s, c) = N_c / D` for each of ``choices`` (a guided solve only):
        :func:`~exactprob.util.numbers.common_denominator_dots` over the integer ``weights``."""
        starts, targets, ids, weight = self.edge_start, self.targets, self.prob_ids, self.weights
        rows = [
            (
                map(weight.__getitem__, ids[starts[c] : starts[c + 1]]),
                targets[starts[c] : starts[c + 1]],
            )
            for c in choices
        ]
        numerators, denominator = common_denominator_dots(rows, values)
        return numerators, denominator * self.weight_denominator

    def q(self, c: int, values: Sequence[Exact]) -> Exact:
        r""":math:`Q(s, a) = \sum_t P(t \mid s, a) V(t)` for choice ``c`` (the hot loop)."""
        e0, e1 = self.edge_start[c], self.edge_start[c + 1]
        return self.field.dot(self.edge_probs[e0:e1], map(values.__getitem__, self.targets[e0:e1]))


def solve_graph(G: StateGraph, *, progress: bool = False) -> Solution:
    """Solve an explored graph exactly, as :func:`solve_model` does a model.

    The float passes run on one BLAS thread: their matrices are small, and threads
    waiting for a busy core cost more than they save.

    Parameters
    ----------
    G : StateGraph
        A graph from :func:`~exactprob.engine.graph.explore`.
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
    with paused_garbage_collection(), one_blas_thread():
        return _Solver(G, progress).run()


def field_of(G: StateGraph) -> Field:
    """Rationals, or the rational functions in every symbol of the outcomes and
    (for a symbolic graph) the probabilities."""
    values: list[Any] = [o for o in G.outcomes if o is not None]
    if G.symbolic:
        values.extend(G.probabilities)
    return field_for(values)


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
        exact integers (:mod:`exactprob.engine._internal.levels`); ``None`` for a symbolic field. The
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

    def _stays(self, c: int, s: int) -> bool:
        """Whether every move of choice ``c`` of state ``s`` goes back to ``s``, directly
        or through a run of pass-through states leading to it
        (:func:`~exactprob.engine._internal.levels.pass_through`): such an action never
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
        except NonTerminationError:  # a guess that does not terminate: keep what can be kept
            policy = cycle.terminating_start(policy)
        inner = [s for s in deciders if G.players[s] == 1]
        outer = [s for s in deciders if G.players[s] == 0]
        if inner and outer:
            while True:
                local = self._best_response(cycle, policy, inner)
                if not self._improve(cycle, policy, outer, local):
                    break
        else:
            local = self._best_response(cycle, policy, deciders)
        for s, v in zip(cycle.component, local):
            self._set(s, v)
        for s in deciders:
            self._decide(s)
        # Inside a cycle, greedy choices among tied actions can cycle forever (two states
        # each "waiting" for the other); the policy iteration's own choice terminates.
        for s in component:
            self.choice[s] = policy[s]

    def _start(self, cycle: Cycle, table: ComponentTable | None) -> dict[int, int]:
        """The policy to start from: the float strategy's guess (:func:`float_guess`),
        else a terminating policy. A guess may not terminate; the exact solve finds that
        out (:meth:`_cyclic`)."""
        if table is None:
            return cycle.terminating_start({})
        assert self.approx_array is not None
        guess = float_guess(
            table, self.approx_array, lambda: table.policy_array(cycle.terminating_start({}))
        )
        return table.policy_dict(guess.policy)

    def _table(self, cycle: Cycle) -> ComponentTable | None:
        """The component's float table, when floats guide and it is small enough."""
        arrays = self.system.arrays
        if arrays is None or len(cycle.component) > TABLE_LIMIT:
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
            _fill_values(self.system, self.choice, self.values, self.G.successors(s))
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
        self, cycle: Cycle, policy: dict[int, int], deciders: list[int]
    ) -> list[Exact]:
        """Policy iteration for the ``deciders`` (all of one player) with the rest fixed;
        updates ``policy`` in place and returns the component's values under it."""
        while True:
            local = cycle.values(policy, self.values, self.progress)
            if not self._improve(cycle, policy, deciders, local):
                return local

    def _improve(
        self, cycle: Cycle, policy: dict[int, int], deciders: list[int], local: list[Exact]
    ) -> bool:
        """Switch each decider to a strictly better action, if any; report whether any
        did. Actions the floats prove worse than the current one are not valued exactly."""
        if not deciders:
            return False
        values = _Overlay(self.values, cycle.position, local)
        approx_values = _Overlay(self.approx, cycle.position, [approx(v) for v in local])
        cs = self.G.choice_start
        changed = False
        for s in deciders:
            sign = 1 if self.G.players[s] == 0 else -1
            ks = self._candidates(s, approx_values)
            if ks == [policy[s]]:
                continue
            current = self.system.q(cs[s] + policy[s], values)
            for k in ks:
                q = self.system.q(cs[s] + k, values)
                if sign * (q - current) > 0:
                    current, policy[s] = q, k
                    changed = True
        return changed


class _LazyValues(Sequence[Any]):
    """A solution's exact values by id (the reward unit's too), each computed when read."""

    __slots__ = ("solution",)

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    def __getitem__(self, s: Any) -> Any:
        return self.solution._exact_value(s)

    def __len__(self) -> int:  # pragma: no cover - Sequence requirement only
        return len(self.solution._values)


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


def _fill_values(
    system: ExactSystem, choice: Sequence[int], values: list[Exact], wanted: Iterable[int]
) -> None:
    r"""Make ``values[s]`` exact for every ``s`` in ``wanted``: :math:`V(s) = \sum_t
    P(t \mid s, \pi(s))\, V(t)` along the chosen actions, depth first, for the states
    still unknown. The solver leaves unknown only states of the acyclic part of a
    cyclic component, whose moves stay in that part or reach known states, so the
    search ends."""
    cs = system.choice_start
    for w in wanted:
        stack = [w]
        while stack:
            s = stack[-1]
            if values[s] is not None:
                stack.pop()
                continue
            c = cs[s] + choice[s]
            missing = [t for t, _ in system.edges(c) if values[t] is None]
            if missing:
                stack.extend(missing)
                continue
            values[s] = system.q(c, values)
            stack.pop()
