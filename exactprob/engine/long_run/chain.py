r"""The long run of a Markov chain, exactly: its closed classes, the stationary law and
period of each, where play from a state settles, long-run averages, expected visits, and
mean first-passage and return times.

A chain is a model with one action in every state (or a model and a fixed policy); it
need not end. Its *closed classes* are the strongly connected components that no move
leaves (a terminal state is one, alone); every other state is *transient*. On a closed
class :math:`C` the stationary law is the unique :math:`\pi` with

.. math::

    \pi_j = \sum_{i \in C} \pi_i P(j \mid i), \qquad \sum_{j \in C} \pi_j = 1,

solved exactly with :math:`\pi_r = 1` fixed at the class's first state :math:`r` and the
others from the sparse system :math:`\pi_j - \sum_{i \ne r} \pi_i P(j \mid i) =
P(j \mid r)` (non-singular: without :math:`r` the class leaks), then normalised. The
*period* is the gcd of :math:`\ell(u) + 1 - \ell(v)` over the class's moves
:math:`u \to v`, :math:`\ell` the breadth-first level from :math:`r`: the law is still
stationary when the period exceeds 1, and the long-run fraction of time in each state.

From a transient state, the probabilities of settling in each class, and the expected
visits to each transient state before, are pushed forward exactly
(:func:`~exactprob.engine.exact.forward.push_forward`, the classes absorbing). The long-run
average reward is :math:`\sum_k P(\text{class } k) \sum_{i \in C_k} \pi^{(k)}_i r(i)`; the
mean return time to a recurrent state is :math:`1 / \pi_s` (Kac's lemma); the mean
first-passage time to a set is the expected number of moves until it is first entered.

>>> from fractions import Fraction
>>> from exactprob import Dist
>>> class Ehrenfest:  # 4 balls in two urns; a ball chosen at random changes urn
...     initial = 0
...     def outcome(self, k): return None
...     def actions(self, k): return ("move",)
...     def transition(self, k, a):
...         moves = {k - 1: Fraction(k, 4), k + 1: Fraction(4 - k, 4)}
...         return Dist({j: p for j, p in moves.items() if p})
>>> run = stationary(Ehrenfest())
>>> run.law()  # binomial(4, 1/2)
Dist({0: '1/16', 1: '1/4', 2: '3/8', 3: '1/4', 4: '1/16'})
>>> run.period(), run.mean_return_time(0)
(2, Fraction(16, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from math import gcd
from typing import Any

from ...errors import ModelError
from ...util.display import exact_html, rows_html
from ...util.limits import DEFAULT_MAX_STATES
from ...util.mathdoc import Document
from ...util.numbers import Exact
from ...util.progress import shows_progress
from ...util.text import short_repr
from .._internal.linear import Field, field_for
from ..array_model import Explorable
from ..dist import Dist
from ..exact.forward import push_forward
from ..exact.policies import Policy, fixed_policy
from ..graph.exploring import explore
from ..graph.state_graph import GraphStates, StateGraph
from ..model import seats_refused
from .evaluation import PlayEvaluation, choice_moves, class_law, closed_classes, evaluate_play
from .policy_iteration import BestPlay, best_play

__all__ = ["LongRun", "stationary"]


def stationary(
    chain: Explorable,
    *,
    policy: Policy | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    starts: Sequence[Hashable] | None = None,
) -> LongRun:
    """The long run of ``chain`` (see the module): its closed classes, their stationary
    laws and periods, and the long-run questions of :class:`LongRun`.

    A model with choices and no ``policy`` is played best: the mover (player 0)
    maximises the long-run average of its ``reward(state, action)`` from every state
    (a model whose only mover is player 1 minimises it, a cost), by exact multichain
    policy iteration (:mod:`~exactprob.engine.long_run.policy_iteration`); the answer
    is the long run of that play, with its :meth:`~LongRun.policy`, exact
    :meth:`~LongRun.ties` and :meth:`~LongRun.bias`.

    Parameters
    ----------
    chain : Model or ArrayModel
        A model with one action in every state; any model with ``policy``; or a model
        with choices and rewards, played best.
    policy : callable or mapping, optional
        The action in each state, for a model with choices.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool, optional
        Show a bar on stderr; by default, when stderr is a terminal.
    starts : sequence, optional
        Explore from each of these instead of the initial state (the first stands for
        ``None``).

    Returns
    -------
    LongRun
        The classes, laws and periods, and the questions about the long run.

    Raises
    ------
    ModelError
        When a model with choices has no rewards or holds symbols, or both players
        choose (a mean-payoff game).

    See Also
    --------
    exactprob.solve : Where play ends, and its value, for a chain that ends.

    References
    ----------
    - J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
      (closed classes, stationary laws, periods, absorption and first passage).
    - M. Kac, "On the notion of recurrence in discrete stochastic processes", *Bulletin
      of the American Mathematical Society* 53, 1947 (the mean return time to a state
      is the inverse of its stationary probability).
    - R. A. Howard, *Dynamic Programming and Markov Processes*, MIT Press, 1960, and
      M. L. Puterman, *Markov Decision Processes*, Wiley, 1994, §9.2 (multichain
      policy iteration).

    Examples
    --------
    >>> from exactprob import Dist
    >>> class Flip:  # a two-state chain: stay with 1/3, switch with 2/3
    ...     initial = "a"
    ...     def outcome(self, s): return None
    ...     def actions(self, s): return ("go",)
    ...     def transition(self, s, a): return Dist({s: "1/3", "b" if s == "a" else "a": "2/3"})
    >>> stationary(Flip()).law()
    Dist({'a': '1/2', 'b': '1/2'})

    With choices, the best play: a worn machine earns 1 a day; renewing it costs 3,
    and a new one earns 4 a day and wears out with chance 1/2 each day.

    >>> class Machine:
    ...     initial = "worn"
    ...     def outcome(self, s): return None
    ...     def actions(self, s): return ("keep", "renew") if s == "worn" else ("run",)
    ...     def transition(self, s, a):
    ...         if a == "run": return Dist({"new": "1/2", "worn": "1/2"})
    ...         return Dist({"worn" if a == "keep" else "new": 1})
    ...     def reward(self, s, a): return {"keep": 1, "renew": -3, "run": 4}[a]
    >>> best = stationary(Machine())
    >>> best.policy("worn"), best.long_run_average(), best.bias("new") - best.bias("worn")
    ('renew', Fraction(5, 3), Fraction(14, 3))
    """
    if policy is not None:
        first = starts[0] if starts else None
        chain = fixed_policy(chain, policy, first)
    G = explore(chain, max_states=max_states, progress=progress, starts=starts)
    if G.seats:
        raise seats_refused("the long run")
    if all(len(a) <= 1 for a in G.actions):
        return LongRun(G)
    return LongRun(G, best_play(G, sign=_mover_sign(G), progress=shows_progress(progress)))


class LongRun(GraphStates):
    """The long run of an explored chain, or of the best play of an explored model with
    choices (``best``, :func:`~.policy_iteration.best_play`), as :func:`stationary`
    gives it. ``state=None`` means the initial state; classes are numbered ``0, 1, ...``
    in the order of their first states' ids."""

    __slots__ = (
        "_best",
        "_choice",
        "_class_of",
        "_evaluation",
        "_laws",
        "_moves",
        "_periods",
        "_settled",
        "classes",
        "field",
        "graph",
    )

    def __init__(self, G: StateGraph, best: BestPlay | None = None) -> None:
        if best is None:
            several = next((s for s, a in enumerate(G.actions) if len(a) > 1), None)
            if several is not None:
                raise ModelError(
                    f"state {G.states[several]!r} offers {len(G.actions[several])} actions; "
                    "LongRun(graph) takes a chain: for the best play or a given one, call "
                    "stationary(model) or stationary(model, policy=...)"
                )
        self.graph = G
        self._best = best
        self._choice = best.choice if best else [0 if a else -1 for a in G.actions]
        self.field: Field = (
            best.field if best else field_for([*G.probabilities, *(G.rewards or ())])
        )
        if best:
            self._moves = best.moves
            members, self._laws = best.evaluation.classes, best.evaluation.laws
        else:  # a chain: each state's one choice, or none
            edges, cs = choice_moves(G, self.field), G.choice_start
            self._moves = [edges[cs[s]] if cs[s + 1] > cs[s] else [] for s in range(len(G))]
            members = closed_classes(self._moves)
            self._laws = [class_law(self.field, self._moves, ids) for ids in members]
        self.classes: tuple[tuple[Hashable, ...], ...] = tuple(
            tuple(G.states[s] for s in ids) for ids in members
        )
        self._class_of = {s: k for k, ids in enumerate(members) for s in ids}
        self._periods = [self._class_period(ids) for ids in members]
        self._settled: dict[int, Any] = {}
        self._evaluation: PlayEvaluation | None = best.evaluation if best else None

    # -- the classes --------------------------------------------------------------
    @property
    def laws(self) -> tuple[Dist[Any], ...]:
        """The stationary law of each closed class."""
        return tuple(self._public_law(law) for law in self._laws)

    @property
    def periods(self) -> tuple[int, ...]:
        """The period of each closed class (1 when aperiodic)."""
        return tuple(self._periods)

    def law(self, k: int | None = None) -> Dist[Any]:
        """The stationary law of class ``k``; without ``k``, of the only class (a
        :class:`~exactprob.errors.ModelError` when there are several: see
        :meth:`limit_law`)."""
        return self._public_law(self._laws[self._class_index(k)])

    def period(self, k: int | None = None) -> int:
        """The period of class ``k`` (the only class without ``k``)."""
        return self._periods[self._class_index(k)]

    # -- the play ---------------------------------------------------------------
    def policy(self, state: Any = None) -> Any:
        """The action played in ``state`` (``None`` when terminal): a chain's only one,
        the given policy's, or the best play's. Among tied actions, the best play keeps
        the one policy iteration held: it starts from the largest immediate reward and
        moves only for a strict improvement (every tie is as good: :meth:`ties`)."""
        s = self._id(state)
        k = self._choice[s]
        return None if k < 0 else self.graph.actions[s][k]

    def ties(self, state: Any = None) -> tuple[Any, ...]:
        """The actions of ``state`` that attain both optimality equations of the best
        long run (:mod:`.policy_iteration`), in the model's order: playing any of them,
        in every state, has the best gain. For a chain, its one action."""
        s = self._id(state)
        actions = self.graph.actions[s]
        if self._best is None:
            return actions
        return tuple(actions[k] for k in self._best.ties[s])

    def policy_map(self) -> dict[Hashable, Any]:
        """The action played in every non-terminal state."""
        states, actions = self.graph.states, self.graph.actions
        return {states[s]: actions[s][k] for s, k in enumerate(self._choice) if k >= 0}

    def bias(self, state: Any = None, reward: Callable[[Any], Any] | None = None) -> Any:
        r"""The bias of the play from ``state`` for ``reward(state)``, or the model's
        rewards when not given (as in :meth:`long_run_average`): the expected
        total of reward minus gain along play, :math:`h` with
        :math:`g + h = r + P h` and :math:`P^* h = 0` (:mod:`.evaluation`). Two
        states of one closed class differ in bias by what starting in one rather than
        the other earns in the long run."""
        s = self._id(state)
        if reward is not None:
            return self.field.public(self._evaluate(reward).bias[s])
        if self._evaluation is None:
            self._evaluation = self._evaluate(None)
        sign = self._best.sign if self._best else 1
        return self.field.public(sign * self._evaluation.bias[s])

    def derivation(self, *, limit: int = 12) -> Document:
        """The long run written out (a :class:`~exactprob.util.mathdoc.Document`:
        ``.latex()``, ``.rst()``, ``.markdown()``): each class's law and gain, the bias
        equations and the decisions of the first ``limit`` states
        (:mod:`~exactprob.engine.long_run.derivation`)."""
        from .derivation import derive_long_run

        return derive_long_run(self, limit=limit)

    # -- from a state -------------------------------------------------------------
    def class_probabilities(self, state: Any = None) -> Dist[int]:
        """The probability that the chain from ``state`` settles in each class."""
        settled = self._settle(self._id(state))
        return Dist._trusted({k: self._public(p) for k, p in sorted(settled[0].items())})

    def limit_law(self, state: Any = None) -> Dist[Any]:
        """The long-run fraction of time in each state from ``state``: each class's law
        weighted by the chance of settling in it (for an aperiodic chain also the limit
        of the law of the state after :math:`n` moves)."""
        mixed: dict[int, Exact] = {}
        for k, p in self._settle(self._id(state))[0].items():
            for s, q in self._laws[k].items():
                mixed[s] = mixed[s] + p * q if s in mixed else p * q
        states = self.graph.states
        return Dist._trusted({states[s]: self._public(q) for s, q in sorted(mixed.items())})

    def long_run_average(
        self, reward: Callable[[Any], Any] | None = None, state: Any = None
    ) -> Any:
        """The long-run average reward per move from ``state``: ``reward(state)``, or the
        model's ``reward(state, action)`` when not given (a terminal state earns 0)."""
        earned = self._rewards(reward)
        zero = self.field.convert(0)
        total = zero
        for k, p in self._settle(self._id(state))[0].items():
            total += p * sum((q * earned(s) for s, q in self._laws[k].items()), zero)
        return self.field.public(total)

    def expected_visits(self, state: Any = None) -> dict[Hashable, Any]:
        """The expected number of times the chain from ``state`` is in each transient
        state before it settles in a class (``state`` itself counted once at the start)."""
        states = self.graph.states
        visits = self._settle(self._id(state))[1]
        return {states[s]: self.field.public(x) for s, x in sorted(visits.items())}

    def mean_first_passage(
        self, target: Collection[Any] | Callable[[Any], bool], state: Any = None
    ) -> Any:
        """The expected number of moves from ``state`` until the chain first enters
        ``target`` (a collection of states, or a test of a state): 0 from inside it. A
        :class:`~exactprob.errors.ModelError` when the chain may never enter it."""
        G = self.graph
        inside = _target_ids(G, target)
        start = self._id(state)
        if not inside:
            raise ModelError(
                f"the chain reaches none of the target states {short_repr(target)}: it never "
                "enters the target, and the expected time is infinite"
            )
        if start in inside:
            return self.field.public(self.field.convert(0))
        reaching = _reaching(G, inside)
        moves = self._moves

        def until(u: int) -> list[tuple[int, Exact]]:
            if u in inside:
                return []
            if u not in reaching:
                raise ModelError(
                    f"from {G.states[start]!r} the chain can reach {G.states[u]!r}, which never "
                    "leads to the target: the expected time is infinite"
                )
            return moves[u]

        return self.field.public(push_forward(start, until, self.field).weight)

    def mean_return_time(self, target: Any = None) -> Any:
        """The expected number of moves to come back to ``target``: a state (the initial
        state when ``None``), a collection of states, or a test of a state. For a set
        :math:`A` in one closed class, started from the long run there (the stationary
        law given :math:`A`), it is :math:`1 / \\pi(A)` (Kac's lemma); for one recurrent
        state, :math:`1 / \\pi_s`. A ModelError when :math:`A` holds no recurrent state (it
        may never come back), or recurrent states of several classes.

        >>> from exactprob import Dist
        >>> class Ring:  # 0 -> 1 -> 2 -> 0
        ...     initial = 0
        ...     def outcome(self, s): return None
        ...     def actions(self, s): return ("go",)
        ...     def transition(self, s, a): return Dist({(s + 1) % 3: 1})
        >>> ring = stationary(Ring())
        >>> ring.mean_return_time(0), ring.mean_return_time({0, 1}), ring.mean_return_time(lambda s: s > 0)
        (Fraction(3, 1), Fraction(3, 2), Fraction(3, 2))
        """
        G = self.graph
        inside = _target_ids(G, target) if _is_set(G, target) else {self._id(target)}
        classes = {self._class_of[s] for s in inside if s in self._class_of and self._moves[s]}
        if len(inside) == 1 and not classes:
            (s,) = inside
            kind = "terminal" if s in self._class_of else "transient: it may never come back"
            raise ModelError(f"state {G.states[s]!r} is {kind}; no mean return time")
        if len(classes) != 1:
            why = (
                "holds no recurrent state: play may never come back"
                if not classes
                else f"meets {len(classes)} closed classes: the return time depends on which"
            )
            raise ModelError(f"{short_repr(target)} {why}; no mean return time")
        (k,) = classes
        law = self._laws[k]
        zero = self.field.convert(0)
        return self.field.public(1 / sum((law[s] for s in inside if s in law), zero))

    # -- internals ----------------------------------------------------------------
    def _public(self, q: Exact) -> Any:
        return self.field.public(q) if self.field.symbolic else q

    def _public_law(self, law: Mapping[int, Exact]) -> Dist[Any]:
        states = self.graph.states
        return Dist._trusted({states[s]: self._public(q) for s, q in law.items()})

    def _class_index(self, k: int | None) -> int:
        n = len(self.classes)
        if k is None:
            if n > 1:
                raise ModelError(
                    f"the chain has {n} closed classes; ask for one (k = 0 .. {n - 1}), or "
                    "for limit_law(state)"
                )
            return 0
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n:
            raise ModelError(f"class must be a whole number from 0 to {n - 1}, got {k!r}")
        return k

    def _settle(self, s: int) -> tuple[dict[int, Exact], dict[int, Exact]]:
        """The chances of settling in each class from ``s``, and the expected visits
        to transient states before (computed once per state)."""
        if s not in self._settled:
            k = self._class_of.get(s)
            if k is not None:
                self._settled[s] = ({k: self.field.convert(1)}, {})
            else:
                moves, class_of = self._moves, self._class_of
                pushed = push_forward(s, lambda u: [] if u in class_of else moves[u], self.field)
                chances: dict[int, Exact] = {}
                for t, p in pushed.absorbed.items():
                    k = class_of[t]
                    chances[k] = chances[k] + p if k in chances else p
                self._settled[s] = (chances, pushed.visits)
        settled: tuple[dict[int, Exact], dict[int, Exact]] = self._settled[s]
        return settled

    def _rewards(self, reward: Callable[[Any], Any] | None) -> Callable[[int], Exact]:
        """Each state's reward by id, from ``reward(state)`` or the model's rewards."""
        G, convert = self.graph, self.field.convert
        if reward is not None:
            return lambda s: convert(reward(G.states[s])) if self._moves[s] else convert(0)
        rewards = G.rewards
        if rewards is None:
            raise ModelError("the chain has no rewards; pass reward=, a function of the state")
        cs, choice = G.choice_start, self._choice
        return lambda s: convert(rewards[cs[s] + choice[s]]) if choice[s] >= 0 else convert(0)

    def _evaluate(self, reward: Callable[[Any], Any] | None) -> PlayEvaluation:
        """The gain and bias of the play for ``reward(state)`` or the model's rewards."""
        earned = self._rewards(reward)
        return evaluate_play(self.field, self._moves, [earned(u) for u in range(len(self.graph))])

    def _class_period(self, ids: list[int]) -> int:
        """The gcd of the level differences along the class's moves (1 for a terminal
        state)."""
        level = {ids[0]: 0}
        frontier = [ids[0]]
        while frontier:
            following = []
            for u in frontier:
                for t, _ in self._moves[u]:
                    if t not in level:
                        level[t] = level[u] + 1
                        following.append(t)
            frontier = following
        period = 0
        for u in ids:
            for t, _ in self._moves[u]:
                period = gcd(period, level[u] + 1 - level[t])
        return period or 1

    def __repr__(self) -> str:
        return f"LongRun(states={len(self.graph)}, classes={len(self.classes)})"

    def _repr_html_(self) -> str:
        """Jupyter's view: each class's size, period and largest stationary chances."""
        rows = []
        for k, (members, law, period) in enumerate(zip(self.classes, self.laws, self.periods)):
            top = sorted(law.items(), key=lambda item: item[1], reverse=True)[:3]
            shown = ", ".join(f"{state!r}: {exact_html(p)}" for state, p in top)
            rows.append((f"class {k}: {len(members):,} states, period {period}", shown))
        return rows_html(f"LongRun: {len(self.graph):,} states", rows)


def _mover_sign(G: StateGraph) -> int:
    """1 when player 0 makes every choice of ``G`` (it maximises), -1 when player 1 does
    (it minimises); a :class:`ModelError` naming a state of each when both do."""
    choosers: dict[int, int] = {}
    for s, actions in enumerate(G.actions):
        if len(actions) > 1:
            choosers.setdefault(G.players[s], s)
    if len(choosers) > 1:
        raise ModelError(
            f"both players choose (player 0 in {G.states[choosers[0]]!r}, player 1 in "
            f"{G.states[choosers[1]]!r}): the best long run of a two-player mean-payoff game "
            "is not solved; fix one player's play with a policy"
        )
    return -1 if 1 in choosers else 1


def _is_state(G: StateGraph, target: Any) -> bool:
    """Whether ``target`` is a state of ``G`` (a tuple state before a set of states)."""
    try:
        return target in G.index
    except TypeError:  # unhashable: a list or a set of states
        return False


def _is_set(G: StateGraph, target: Any) -> bool:
    """Whether ``target`` names states (a test, or a collection: a tuple only when it is
    no state and every item is one) rather than one state."""
    if target is None or _is_state(G, target):
        return False
    if callable(target):
        return True
    if isinstance(target, tuple):
        return all(_is_state(G, item) for item in target)
    return isinstance(target, Collection) and not isinstance(target, str | bytes)


def _target_ids(G: StateGraph, target: Collection[Any] | Callable[[Any], bool]) -> set[int]:
    """The ids of the target states (a collection of states, or a test of a state); a
    state the chain never reaches is never entered, and has none."""
    if callable(target):
        return {s for s, state in enumerate(G.states) if target(state)}
    if isinstance(target, str | bytes) or not isinstance(target, Collection):
        raise ModelError(
            f"target must be a collection of states or a test of a state, got {target!r}"
        )
    index = G.index
    return {index[state] for state in target if _hashable(state) and state in index}


def _hashable(state: Any) -> bool:
    try:
        hash(state)
    except TypeError:
        return False
    return True


def _reaching(G: StateGraph, inside: set[int]) -> set[int]:
    """The states from which some path reaches ``inside`` (those included)."""
    predecessors: list[list[int]] = [[] for _ in range(len(G))]
    for u in range(len(G)):
        for t in G.successors(u):
            predecessors[t].append(u)
    found, frontier = set(inside), list(inside)
    while frontier:
        following = []
        for t in frontier:
            for u in predecessors[t]:
                if u not in found:
                    found.add(u)
                    following.append(u)
        frontier = following
    return found
