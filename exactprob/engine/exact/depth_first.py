r"""Depth-first mode: solve a model one strongly connected component at a time, as soon as
the component is complete, without ever storing its graph.

:func:`~exactprob.engine.exact.solving.solve_model` explores every reachable state into a
:class:`~exactprob.engine.graph.state_graph.StateGraph` and then solves it, so its memory grows with the
transitions. :func:`solve_depth_first` runs Tarjan's algorithm on the model itself: the
transitions of a state are asked for when the search first visits it, kept while its
component is open, and dropped as soon as the component is solved (Tarjan closes a
component only after every component it can move to). What stays is, per state, its
exact value, that value as a float, and the chosen action (and the tied actions, where
there are any).

* A component of one state without a loop to itself is valued on the spot,
  :math:`V(s) = \max_a Q(s, a)` for player 0 (:math:`\min` for player 1) with
  :math:`Q(s, a) = \sum_t P(t \mid s, a)\, V(t)` and every :math:`V(t)` known. Float
  values with a proven error bound rule out the actions certainly worse
  (:mod:`exactprob.engine._internal.choose`); the others are summed exactly, so exact ties are found.
* Any other component (a loop, or a state that can return to itself) goes, with its
  exits as terminal states worth their known values, to the in-memory solver
  (:func:`~exactprob.engine.exact.solving.solve_graph`): float-guided exact policy iteration, strategy
  iteration for two players, and the refusal of a loop that never ends.

Questions that need the transitions again (absorption, expected steps, the networkx
view) ask the model again (:class:`DepthFirstSolution`).

Below, from rungs 0 and 1 a step goes up (1/2), back to 0 (1/4) or falls (1/4); rung 2
wins. Then :math:`V(1) = 1/2 + V(0)/4` and :math:`V(0) = V(1)/2 + V(0)/4`, so
:math:`V(1) = 3/5` and :math:`V(0) = 2/5`; the expected steps :math:`E(1) = 1 + E(0)/4` and
:math:`E(0) = 1 + E(1)/2 + E(0)/4` give :math:`E(0) = 12/5`:

>>> from exactprob import Dist
>>> class Ladder:
...     initial = 0
...     def outcome(self, s): return {2: 1, "fall": 0}.get(s)
...     def actions(self, s): return ("step",)
...     def transition(self, s, a): return Dist({s + 1: "1/2", 0: "1/4", "fall": "1/4"})
>>> solution = solve_depth_first(Ladder())
>>> solution.value(), solution.value(1), solution.policy(2)
(Fraction(2, 5), Fraction(3, 5), None)
>>> solution.expected_steps()
Fraction(12, 5)
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from ...errors import ModelError
from ...util.display import solution_html
from ...util.limits import DEFAULT_MAX_STATES, check_max_states
from ...util.numbers import Exact, is_symbolic, mpq, rational_dot, to_fraction
from ...util.progress import progress_bar
from ...util.resources import check_resident
from ...util.rounding import approx, approx_probability, float_dot
from .._internal.choose import exact_best, float_candidates, share_successors
from ..array_model import Explorable, one_state_at_a_time
from ..graph.action_values import model_action_values
from ..graph.exploring import (
    MEMORY_CHECK_EDGES,
    MEMORY_CHECK_MASK,
    check_model,
    checked_transition,
    explore,
    reward_value,
    shared_actions_of,
    start_states,
    still_growing,
    terminal_value,
)
from ..graph.state_graph import StateGraph, id_in, paused_garbage_collection
from ..model import player_function, seats_refused
from ..results import Method, PolicyLaws, solved_json
from .policies import evaluate
from .solution import Solution
from .solving import solve_graph

__all__ = ["DepthFirstSolution", "solve_depth_first"]

#: Choices reading values with shorter denominators are compared exactly at once: a
#: six-term sum of 128-bit fractions costs about 3 µs, the float pass with its error
#: bounds about 8 µs a state, and a sum of 1,024-bit ones 30 µs.
GUIDE_BITS = 256
_ZERO = mpq(0)
#: A state's place on Tarjan's stack before its visit, and once its value is known.
UNVISITED, SOLVED = -1, -2


class DepthFirstSolution(PolicyLaws):
    """The exact solution found by :func:`solve_depth_first`: the same questions as
    :class:`~exactprob.engine.exact.solution.Solution`, with no state graph kept.

    ``value``, ``policy``, ``ties``, ``policy_map`` and ``states`` read what the search
    kept. ``absorption``, ``outcome_distribution`` and ``expected_steps`` explore the
    model again from the asked state under the chosen actions only
    (:func:`~exactprob.engine.exact.policies.evaluate`, once per state asked); :meth:`to_networkx`
    explores every reachable state again.
    """

    __slots__ = ("_chosen", "_evaluated", "_index", "_model", "_states", "_ties", "_values")

    def __init__(
        self,
        model: Any,
        states: list[Hashable],
        index: dict[Hashable, int],
        values: list[Exact],
        chosen: list[Any],
        ties: dict[int, tuple[Any, ...]],
    ) -> None:
        self._model = model
        self._states = states
        self._index = index
        self._values = values
        self._chosen = chosen
        self._ties = ties
        self._evaluated: dict[int, Solution] = {}

    def _id(self, state: Any) -> int:
        return 0 if state is None else id_in(self._index, state)

    def __len__(self) -> int:
        return len(self._states)

    def value(self, state: Any = None) -> Fraction:
        """The exact value of ``state`` (the initial state when ``None``)."""
        return to_fraction(self._values[self._id(state)])

    def policy(self, state: Any = None) -> Any:
        """The chosen action (``None`` for a terminal state): the first optimal one in
        the model's order, except inside a loop, where it is policy iteration's
        (terminating) choice, as in :meth:`~exactprob.engine.exact.solution.Solution.policy`."""
        return self._chosen[self._id(state)]

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """Every action whose value equals the optimum exactly, in the model's order."""
        s = self._id(state)
        chosen = self._chosen[s]
        return () if chosen is None else self._ties.get(s, (chosen,))

    def policy_map(self) -> dict[Hashable, Any]:
        """The chosen action of every non-terminal state."""
        return {
            state: action for state, action in zip(self._states, self._chosen) if action is not None
        }

    method: Method = "depth-first"
    solver = "generic"

    def action_values(self, state: Any = None) -> dict[Any, Any]:
        r"""Every action's exact value :math:`Q(s, a)` in ``state``, in the model's order,
        from the values the search kept (:mod:`~exactprob.engine.graph.action_values`)."""
        where = self.initial if state is None else state
        return model_action_values(self._model, self.value, where)

    @property
    def initial(self) -> Hashable:
        """The initial state (the state ``None`` stands for)."""
        return self._states[0]

    @property
    def states(self) -> Sequence[Hashable]:
        """Every reachable state (the initial state first)."""
        return self._states

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`)."""
        return solved_json(self, state)

    def _repr_html_(self) -> str:
        """Jupyter's view: the value, the best action and the exact ties at the start."""
        return solution_html(self, f"DepthFirstSolution: {len(self._states):,} states")

    def to_networkx(self) -> Any:
        """The model's whole state graph as a :class:`networkx.DiGraph` (explored again,
        see :meth:`~exactprob.engine.graph.state_graph.StateGraph.to_networkx`), from every
        state the search kept, so from every start it was given."""
        graph = explore(
            self._model, max_states=len(self._states), progress=False, starts=self._states
        )
        return graph.to_networkx()

    def _under_policy(self, state: Any) -> Solution:
        """The model from ``state`` with only the chosen actions, solved (kept)."""
        s = self._id(state)
        if s not in self._evaluated:
            chosen = self._chosen
            index = self._index
            self._evaluated[s] = evaluate(
                self._model,
                lambda t: chosen[index[t]],
                starts=[self._states[s]],
                max_states=len(self._states),
                progress=False,
            )
        return self._evaluated[s]

    def __repr__(self) -> str:
        return f"DepthFirstSolution(states={len(self._states)}, value={self.value()})"


def solve_depth_first(
    model: Explorable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
) -> DepthFirstSolution:
    """Solve ``model`` exactly under optimal play, depth first (see the module).

    The values, policy and ties are those of :func:`~exactprob.engine.exact.solving.solve_model`; the memory
    is one value per state instead of the whole graph. Probabilities and outcomes must be
    rational.

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool
        Show a bar of solved states on stderr.
    starts : sequence, optional
        Solve from each of these (explored and solved together) instead of the model's
        initial state; the first is the state ``None`` stands for.

    Returns
    -------
    DepthFirstSolution
        Every reached state's exact value, optimal action and exact ties.

    Raises
    ------
    StateLimitError
        Past ``max_states`` states.
    NonTerminationError
        For a loop that never ends.

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> solve_depth_first(ruin).value()
    Fraction(40, 211)
    """
    check_max_states(max_states)
    model = one_state_at_a_time(model)
    check_model(model, needs_initial=starts is None)
    search = _Search(model, max_states, start_states(model, starts))
    with progress_bar(progress, "solving", unit=" states") as bar, paused_garbage_collection():
        search.run(bar.update)
    return search.solution()


class _Search:
    """The states met so far (integer ids in order of first sight), their values, and
    Tarjan's search over them.

    The open states (visited, their component not yet solved) form Tarjan's stack, in
    the order of their visits; their actions' transitions are stored flat in that same
    order (per open state its choices, per choice its edges: successor id and the id of
    its probability in a table of the distinct ones). Tarjan closes a component only
    when every state visited after its root is in it or already solved, so a closing
    component is always the top of the stack and its transitions the tail of the
    arrays, which are cut back as soon as it is valued. Places are reused once a
    component closes, but among the states on the stack they are in the order of
    discovery, and the low links only ever compare states on the stack.
    """

    def __init__(self, model: Any, max_states: int, roots: list[Hashable]) -> None:
        self.model = model
        self.roots = roots
        self.max_states = max_states
        self.player = player_function(model)
        self.outcome = model.outcome
        self.reward = getattr(model, "reward", None)
        # Per state id, kept to the end.
        self.states: list[Hashable] = []
        self.index: dict[Hashable, int] = {}
        self.values: list[Exact] = []
        self.approx = array("d")
        self.chosen: list[Any] = []
        self.ties: dict[int, tuple[Any, ...]] = {}
        self.place = array("i")  # its place on the stack while open, else UNVISITED or SOLVED
        # Per open state, by place on the stack.
        self.stack = array("i")  # its id
        self.low = array("i")  # its low link (a place)
        self.open_actions: list[tuple[Any, ...]] = []  # the model's tuple
        self.open_players = bytearray()
        self.choice_start = array("q", [0])  # its choices: choice_start[p] to [p + 1]
        # Per choice, then per edge.
        self.edge_start = array("q", [0])  # its edges: edge_start[c] to [c + 1]
        self.rewards: list[Exact] = []  # with a reward method only
        self.targets = array("i")
        self.prob_ids = array("i")
        # The distinct probabilities, their floats, and each checked tuple of actions.
        self.probabilities: list[Exact] = []
        self.prob_floats = array("d")
        self.prob_index: dict[Exact, int] = {}
        self.shared_actions: dict[Any, tuple[Any, ...]] = {}
        self.next_memory_check = MEMORY_CHECK_EDGES  # edges held when memory is next checked
        # Every value solved so far is a mean of outcomes and rewards already seen, so
        # while none is negative, neither is any value a float dot product reads.
        self.nonnegative = True
        # Whether some value has a denominator of GUIDE_BITS bits or more: from then on
        # floats guide every choice (shorter fractions are compared exactly at once).
        self.long_values = False

    def id_of(self, state: Hashable) -> int:
        """The id of ``state``, given (and its outcome asked) on first sight."""
        s = self.index.get(state)
        return self.new_id(state) if s is None else s

    def new_id(self, state: Hashable) -> int:
        """Give ``state``, not met before, the next id, and ask for its outcome."""
        s = len(self.states)
        if s >= self.max_states:
            raise still_growing(self.states, self.max_states)
        if s and not s & MEMORY_CHECK_MASK:
            check_resident(f"solving depth first ({s:,} states so far)")
        self.index[state] = s
        self.states.append(state)
        self.chosen.append(None)
        outcome = self.outcome(state)
        if outcome is None:
            self.place.append(UNVISITED)
            self.values.append(None)
            self.approx.append(0.0)
            return s
        value = terminal_value(state, outcome)
        if isinstance(value, tuple):
            raise seats_refused("depth-first mode")
        if is_symbolic(value):
            raise ModelError(
                f"outcome({state!r}) is symbolic; depth-first mode solves rational models "
                "(solve() takes symbolic ones)"
            )
        self.values.append(value)
        self.approx.append(approx(value))
        self.place.append(SOLVED)
        self.nonnegative = self.nonnegative and value >= 0
        return s

    def run(self, solved_count: Callable[[int], object]) -> None:
        """Tarjan's search from every root, iterative (no recursion limit): each
        component is valued as soon as it closes, and ``solved_count`` told its size."""
        place, low, targets = self.place, self.low, self.targets
        edge_start, choice_start = self.edge_start, self.choice_start
        unvisited = UNVISITED
        for r in [self.id_of(root) for root in self.roots]:  # the starts first, in order
            if place[r] == SOLVED:
                continue
            work = array("i", [self.visit(r)])  # places on the stack, depth first
            next_edge = array("q", [edge_start[choice_start[work[-1]]]])
            while work:
                p = work[-1]
                for e in range(next_edge[-1], edge_start[choice_start[p + 1]]):
                    q = place[targets[e]]
                    if q >= 0:  # open: on the stack
                        low[p] = min(low[p], q)
                    elif q == unvisited:  # go down
                        next_edge[-1] = e + 1
                        q = self.visit(targets[e])
                        work.append(q)
                        next_edge.append(edge_start[choice_start[q]])
                        break
                else:
                    work.pop()
                    next_edge.pop()
                    if work and low[p] < low[work[-1]]:
                        low[work[-1]] = low[p]
                    if low[p] == p:
                        solved_count(self.close(p))

    def visit(self, s: int) -> int:
        """Push open state ``s`` on the stack, with the actions and transitions the model
        gives it; return its place."""
        state = self.states[s]
        model = self.model
        p = len(self.stack)
        self.place[s] = p
        self.stack.append(s)
        self.low.append(p)
        actions = shared_actions_of(state, model.actions(state), self.shared_actions)
        self.open_actions.append(actions)
        self.open_players.append(self.player(state))
        find, prob_index = self.index.get, self.prob_index
        targets, prob_ids = self.targets, self.prob_ids
        for action in actions:
            dist = checked_transition(state, action, model.transition)
            if dist.symbolic:
                raise ModelError(
                    f"transition({state!r}, {action!r}) has symbolic probabilities; "
                    "depth-first mode solves rational models (solve() takes symbolic ones)"
                )
            for t, prob in dist.exact_items():
                i = find(t)
                targets.append(self.new_id(t) if i is None else i)
                k = prob_index.get(prob)
                if k is None:
                    k = prob_index[prob] = len(self.probabilities)
                    self.probabilities.append(prob)
                    self.prob_floats.append(approx_probability(prob))
                prob_ids.append(k)
            self.edge_start.append(len(targets))
            if self.reward is not None:
                self.rewards.append(self._reward(state, action))
        self.choice_start.append(len(self.edge_start) - 1)
        if len(targets) >= self.next_memory_check:
            check_resident(f"solving depth first ({len(targets):,} open transitions)")
            self.next_memory_check = len(targets) + MEMORY_CHECK_EDGES
        return p

    def close(self, p: int) -> int:
        """Value the component of the stack's places ``p`` and up, then drop its
        transitions; return its size."""
        top = len(self.stack)
        if top - p == 1 and not self._returns_to_itself(p):
            self._value_alone(p)
        else:
            self._value_loop(range(top - 1, p - 1, -1))
        c, e = self.choice_start[p], self.edge_start[self.choice_start[p]]
        del self.stack[p:], self.low[p:], self.open_actions[p:], self.open_players[p:]
        del self.choice_start[p + 1 :], self.edge_start[c + 1 :], self.rewards[c:]
        del self.targets[e:], self.prob_ids[e:]
        return top - p

    def _choices(self, p: int) -> range:
        """The choices (in the actions' order) of the open state at place ``p``."""
        return range(self.choice_start[p], self.choice_start[p + 1])

    def _edges(self, c: int) -> range:
        """The edges of choice ``c``."""
        return range(self.edge_start[c], self.edge_start[c + 1])

    def _probs(self, c: int) -> list[Exact]:
        ids = self.prob_ids[self.edge_start[c] : self.edge_start[c + 1]]
        return list(map(self.probabilities.__getitem__, ids))

    def _successors(self, c: int) -> array[int]:
        return self.targets[self.edge_start[c] : self.edge_start[c + 1]]

    def _reward_of(self, c: int) -> Exact:
        return self.rewards[c] if self.reward is not None else _ZERO

    def _returns_to_itself(self, p: int) -> bool:
        s = self.stack[p]
        first, last = (
            self.edge_start[self.choice_start[p]],
            self.edge_start[self.choice_start[p + 1]],
        )
        return s in self.targets[first:last]

    def _reward(self, state: Hashable, action: Any) -> Exact:
        """The model's exact reward for ``action`` in ``state`` (0 without rewards)."""
        if self.reward is None:
            return _ZERO
        reward = reward_value(state, action, self.reward(state, action))
        if is_symbolic(reward):
            raise ModelError(
                f"reward({state!r}, {action!r}) is symbolic; depth-first mode solves rational "
                "models (solve() takes symbolic ones)"
            )
        self.nonnegative = self.nonnegative and reward >= 0
        return reward

    def _candidates(self, choices: Sequence[int], player: int) -> list[int]:
        """The choices (their places in ``choices``) the floats cannot prove worse than
        the float-best one (a reward is one more term, worth it times one)."""
        approx_values, prob_floats, prob_ids, targets = (
            self.approx,
            self.prob_floats,
            self.prob_ids,
            self.targets,
        )
        floats = []
        for c in choices:
            edges = self._edges(c)
            probs = [prob_floats[prob_ids[e]] for e in edges]
            values = [approx_values[targets[e]] for e in edges]
            reward = self._reward_of(c)
            if reward:
                probs.append(approx_probability(reward))
                values.append(1.0)
            floats.append(float_dot(probs, values, self.nonnegative))
        return float_candidates(floats, player)

    def _value_alone(self, p: int) -> None:
        """The open state at place ``p``, whose successors are all solved: its value,
        choice and ties."""
        s, actions, player = self.stack[p], self.open_actions[p], self.open_players[p]
        choices = self._choices(p)
        values = self.values
        k = 0
        if len(choices) > 1:
            guide = self.long_values and not share_successors(
                [self._successors(c) for c in choices]
            )
            ks = self._candidates(choices, player) if guide else range(len(choices))
            if len(ks) > 1:
                rows = [(self._probs(choices[k]), self._successors(choices[k])) for k in ks]
                rewards = [self._reward_of(choices[k]) for k in ks]
                best, tied = exact_best(rows, values, player, rewards)
                if len(tied) > 1:
                    self.ties[s] = tuple(actions[ks[j]] for j in tied)
                self._set(s, best, actions[ks[tied[0]]])
                return
            k = ks[0]
        c = choices[k]
        dot = rational_dot(self._probs(c), map(values.__getitem__, self._successors(c)))
        reward = self._reward_of(c)
        self._set(s, dot + reward if reward else dot, actions[k])

    def _value_loop(self, places: Sequence[int]) -> None:
        """A component with a loop (its open states at ``places``): solved by
        :func:`~exactprob.engine.exact.solving.solve_graph` on its own graph, its exits
        terminal with their known values."""
        solution = solve_graph(self._component_graph(places))
        for p in places:
            s = self.stack[p]
            state = self.states[s]
            self._set(s, mpq(solution.value(state)), solution.policy(state))
            ties = solution.ties(state)
            if len(ties) > 1:
                self.ties[s] = ties

    def _component_graph(self, places: Sequence[int]) -> StateGraph:
        """The component's states (its first is the initial state) and its exits, as a
        :class:`StateGraph` whose exits are terminal states worth their values."""
        G = StateGraph()
        local: dict[int, int] = {}
        exits: list[int] = []
        prob_index: dict[int, int] = {}  # the search's probability id -> the graph's
        for p in places:
            local[self.stack[p]] = len(local)
        for p in places:
            G.outcomes.append(None)
            G.players.append(self.open_players[p])
            G.actions.append(self.open_actions[p])
            for c in self._choices(p):
                for e in self._edges(c):
                    t = self.targets[e]
                    if t not in local:
                        local[t] = len(local)
                        exits.append(t)
                    G.targets.append(local[t])
                    G.prob_ids.append(prob_index.setdefault(self.prob_ids[e], len(prob_index)))
                G.edge_start.append(len(G.targets))
            G.choice_start.append(len(G.edge_start) - 1)
        for t in exits:
            G.outcomes.append(self.values[t])
            G.players.append(0)
            G.actions.append(())
            G.choice_start.append(len(G.edge_start) - 1)
        G.states = [self.states[s] for s in local]
        G.index = {self.states[s]: i for s, i in local.items()}
        G.probabilities.extend(self.probabilities[k] for k in prob_index)
        if self.reward is not None:
            G.rewards = [self.rewards[c] for p in places for c in self._choices(p)]
        return G

    def _set(self, s: int, value: Exact, action: Any) -> None:
        self.values[s] = value
        self.approx[s] = approx(value)
        self.place[s] = SOLVED
        self.chosen[s] = action
        if not self.long_values:
            self.long_values = value.denominator.bit_length() >= GUIDE_BITS

    def solution(self) -> DepthFirstSolution:
        return DepthFirstSolution(
            self.model, self.states, self.index, self.values, self.chosen, self.ties
        )
