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
from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

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
    MEMORY_CHECK_MASK,
    check_model,
    checked_actions,
    checked_transition,
    components_reached,
    explore,
    reward_value,
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
        for component in search.components():
            if len(component) == 1 and not search.returns_to_itself(component[0]):
                search.value_alone(component[0])
            else:
                search.value_loop(component)
            bar.update(len(component))
    return search.solution()


class _Choice(NamedTuple):
    """One action of an open state: successor ids, their probabilities, its reward."""

    targets: list[int]
    probs: list[Exact]
    reward: Exact


class _Open(NamedTuple):
    """An open state's actions (the model's tuple), mover and choices."""

    actions: tuple[Any, ...]
    player: int
    choices: list[_Choice]


class _Search:
    """The states met so far (integer ids in order of first sight), their values, and
    Tarjan's search over them."""

    def __init__(self, model: Any, max_states: int, roots: list[Hashable]) -> None:
        self.model = model
        self.roots = roots
        self.max_states = max_states
        self.player = player_function(model)
        self.reward = getattr(model, "reward", None)
        self.states: list[Hashable] = []
        self.index: dict[Hashable, int] = {}
        self.values: list[Exact] = []
        self.solved = bytearray()  # 1 once the value is known
        self.approx = array("d")
        self.chosen: list[Any] = []
        self.ties: dict[int, tuple[Any, ...]] = {}
        self.open: dict[int, _Open] = {}
        self.float_of: dict[Exact, float] = {}
        # Every value solved so far is a mean of outcomes and rewards already seen, so
        # while none is negative, neither is any value a float dot product reads.
        self.nonnegative = True
        # Whether some value has a denominator of GUIDE_BITS bits or more: from then on
        # floats guide every choice (shorter fractions are compared exactly at once).
        self.long_values = False

    def id_of(self, state: Hashable) -> int:
        """The id of ``state``, given (and its outcome asked) on first sight."""
        s = self.index.get(state)
        if s is not None:
            return s
        s = len(self.states)
        if s >= self.max_states:
            raise still_growing(self.states, self.max_states)
        if s and not s & MEMORY_CHECK_MASK:
            check_resident(f"solving depth first ({s:,} states so far)")
        self.index[state] = s
        self.states.append(state)
        self.chosen.append(None)
        outcome = self.model.outcome(state)
        if outcome is None:
            self.values.append(None)
            self.approx.append(0.0)
            self.solved.append(0)
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
        self.solved.append(1)
        self.nonnegative = self.nonnegative and value >= 0
        return s

    def visit(self, s: int) -> list[int]:
        """Ask the model for the actions and transitions of open state ``s``; return
        its open successors (each once)."""
        state = self.states[s]
        model = self.model
        actions = checked_actions(state, model.actions(state))
        find = self.index.get
        choices = []
        for action in actions:
            dist = checked_transition(state, action, model.transition)
            if dist.symbolic:
                raise ModelError(
                    f"transition({state!r}, {action!r}) has symbolic probabilities; "
                    "depth-first mode solves rational models (solve() takes symbolic ones)"
                )
            items = dist.exact_items()
            found = [find(t) for t, _ in items]  # one hash of each state (often slow)
            targets = [i if i is not None else self.id_of(t) for i, (t, _) in zip(found, items)]
            probs = [p for _, p in items]
            choices.append(_Choice(targets, probs, self._reward(state, action)))
        self.open[s] = _Open(actions, self.player(state), choices)
        solved = self.solved
        return [t for t in dict.fromkeys(t for c in choices for t in c.targets) if not solved[t]]

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

    def _candidates(self, choices: list[_Choice], player: int) -> list[int]:
        """The choices the floats cannot prove worse than the float-best one (a reward
        is one more term, worth it times one)."""
        approx_values = self.approx
        floats = []
        for c in choices:
            probs, values = self._floats(c.probs), [approx_values[t] for t in c.targets]
            if c.reward:
                probs.append(approx_probability(c.reward))
                values.append(1.0)
            floats.append(float_dot(probs, values, self.nonnegative))
        return float_candidates(floats, player)

    def _floats(self, probs: list[Exact]) -> list[float]:
        floats = self.float_of
        for p in probs:
            if p not in floats:
                floats[p] = approx_probability(p)
        return [floats[p] for p in probs]

    def components(self) -> Iterator[list[int]]:
        """The open states' strongly connected components, each as soon as it is
        complete (:func:`~exactprob.engine.graph.exploring.components_reached`); a state is solved once
        it has a value."""
        return components_reached(
            [self.id_of(state) for state in self.roots], self.visit, self.solved.__getitem__
        )

    def returns_to_itself(self, s: int) -> bool:
        return any(s in c.targets for c in self.open[s].choices)

    def value_alone(self, s: int) -> None:
        """An open state whose successors are all solved: its value, choice and ties."""
        actions, player, choices = self.open.pop(s)
        values = self.values
        k = 0
        if len(choices) > 1:
            guide = self.long_values and not share_successors([c.targets for c in choices])
            ks = self._candidates(choices, player) if guide else range(len(choices))
            if len(ks) > 1:
                rows = [(choices[k].probs, choices[k].targets) for k in ks]
                rewards = [choices[k].reward for k in ks]
                best, tied = exact_best(rows, values, player, rewards)
                if len(tied) > 1:
                    self.ties[s] = tuple(actions[ks[j]] for j in tied)
                self._set(s, best, actions[ks[tied[0]]])
                return
            k = ks[0]
        self._set(s, _dot(choices[k], values), actions[k])

    def value_loop(self, component: list[int]) -> None:
        """A component with a loop: solved by :func:`~exactprob.engine.exact.solving.solve_graph` on
        its own graph, its exits terminal with their known values."""
        G = self._component_graph(component)
        solution = solve_graph(G)
        for s in component:
            state = self.states[s]
            self._set(s, mpq(solution.value(state)), solution.policy(state))
            ties = solution.ties(state)
            if len(ties) > 1:
                self.ties[s] = ties
            del self.open[s]

    def _component_graph(self, component: list[int]) -> StateGraph:
        """The component's states (its first is the initial state) and its exits, as a
        :class:`StateGraph` whose exits are terminal states worth their values."""
        G = StateGraph()
        local: dict[int, int] = {}
        exits: list[int] = []
        prob_index: dict[Exact, int] = {}
        for s in component:
            local[s] = len(local)
        for s in component:
            entry = self.open[s]
            G.outcomes.append(None)
            G.players.append(entry.player)
            G.actions.append(entry.actions)
            for c in entry.choices:
                for t, p in zip(c.targets, c.probs):
                    if t not in local:
                        local[t] = len(local)
                        exits.append(t)
                    G.targets.append(local[t])
                    G.prob_ids.append(prob_index.setdefault(p, len(prob_index)))
                G.edge_start.append(len(G.targets))
            G.choice_start.append(len(G.edge_start) - 1)
        for t in exits:
            G.outcomes.append(self.values[t])
            G.players.append(0)
            G.actions.append(())
            G.choice_start.append(len(G.edge_start) - 1)
        G.states = [self.states[s] for s in local]
        G.index = {self.states[s]: i for s, i in local.items()}
        G.probabilities.extend(prob_index)
        if self.reward is not None:
            G.rewards = [c.reward for s in component for c in self.open[s].choices]
        return G

    def _set(self, s: int, value: Exact, action: Any) -> None:
        self.values[s] = value
        self.approx[s] = approx(value)
        self.solved[s] = 1
        self.chosen[s] = action
        if not self.long_values:
            self.long_values = value.denominator.bit_length() >= GUIDE_BITS

    def solution(self) -> DepthFirstSolution:
        return DepthFirstSolution(
            self.model, self.states, self.index, self.values, self.chosen, self.ties
        )


def _dot(choice: _Choice, values: Sequence[Exact]) -> Exact:
    r""":math:`r + \sum_t P(t)\, V(t)` over the choice's edges and its reward, exactly
    (one reduction: :func:`~exactprob.util.numbers.rational_dot`)."""
    dot = rational_dot(choice.probs, map(values.__getitem__, choice.targets))
    return dot + choice.reward if choice.reward else dot
