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
from itertools import pairwise
from math import gcd
from typing import Any

import numpy as np

from ..errors import ModelError
from ..util.display import exact_html, rows_html
from ..util.limits import DEFAULT_MAX_STATES
from ..util.numbers import Exact
from ..util.text import short_repr
from ._internal.linear import Field, field_for, solve_linear
from ._internal.order import edge_ends
from .array_model import Explorable
from .dist import Dist
from .exact.forward import push_forward
from .exact.policies import Policy, fixed_policy
from .graph.exploring import explore
from .graph.state_graph import GraphStates, StateGraph

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

    Parameters
    ----------
    chain : Model or ArrayModel
        A model with one action in every state; or any model with ``policy``.
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
        When a state offers several actions and no policy is given.

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
    """
    if policy is not None:
        first = starts[0] if starts else None
        chain = fixed_policy(chain, policy, first)
    G = explore(chain, max_states=max_states, progress=progress, starts=starts)
    return LongRun(G)


class LongRun(GraphStates):
    """The long run of an explored chain (:func:`stationary`). ``state=None`` means the
    initial state; classes are numbered ``0, 1, ...`` in the order their first states
    were found."""

    __slots__ = (
        "_class_of",
        "_laws",
        "_moves",
        "_periods",
        "_settled",
        "classes",
        "field",
        "graph",
    )

    def __init__(self, G: StateGraph) -> None:
        several = next((s for s, a in enumerate(G.actions) if len(a) > 1), None)
        if several is not None:
            raise ModelError(
                f"state {G.states[several]!r} offers {len(G.actions[several])} actions; the long "
                "run is a chain's: give a policy (stationary(model, policy=...))"
            )
        self.graph = G
        self.field: Field = field_for([*G.probabilities, *(G.rewards or ())])
        convert = self.field.convert
        probabilities = [convert(p) for p in G.probabilities]
        sources, targets, first_edge = edge_ends(G)  # a chain: a state's edges are its moves
        starts = first_edge.tolist()
        self._moves = [
            list(zip(G.targets[a:b], (probabilities[i] for i in G.prob_ids[a:b])))
            for a, b in pairwise(starts)
        ]
        members = _closed_classes(len(G), sources, targets)
        self.classes: tuple[tuple[Hashable, ...], ...] = tuple(
            tuple(G.states[s] for s in ids) for ids in members
        )
        self._class_of = {s: k for k, ids in enumerate(members) for s in ids}
        self._laws = [self._class_law(ids) for ids in members]
        self._periods = [self._class_period(ids) for ids in members]
        self._settled: dict[int, Any] = {}

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
        cs = G.choice_start
        return lambda s: convert(rewards[cs[s]]) if self._moves[s] else convert(0)

    def _class_law(self, ids: list[int]) -> dict[int, Exact]:
        """The stationary law of one closed class (see the module)."""
        field = self.field
        one = field.convert(1)
        if len(ids) == 1:
            return {ids[0]: one}
        r, others = ids[0], ids[1:]
        position = {s: i for i, s in enumerate(others)}
        zero = field.convert(0)
        rows: list[dict[int, Exact]] = [{i: one} for i in range(len(others))]
        rhs: list[list[Exact]] = [[zero] for _ in others]
        for u in ids:
            for t, p in self._moves[u]:
                j = position.get(t)
                if j is None:
                    continue  # a move into r: its equation is the one left out
                if u == r:
                    rhs[j][0] += p
                else:
                    i = position[u]
                    rows[j][i] = rows[j].get(i, zero) - p
        x = [v[0] for v in solve_linear(field, rows, rhs)]
        total = one + sum(x, zero)
        return {r: one / total, **{s: v / total for s, v in zip(others, x)}}

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


def _closed_classes(n: int, sources: np.ndarray, targets: np.ndarray) -> list[list[int]]:
    """The strongly connected components of the moves ``sources -> targets`` among ``n``
    states that no move leaves, each as its ids in order, ordered by their first id."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    moves = csr_matrix((np.ones(len(targets)), (sources, targets)), shape=(n, n))
    _, label = connected_components(moves, directed=True, connection="strong")
    leaving = np.unique(label[sources[label[sources] != label[targets]]])
    closed = np.isin(label, leaving, invert=True)
    members: dict[int, list[int]] = {}
    for s in np.flatnonzero(closed).tolist():
        members.setdefault(int(label[s]), []).append(s)
    return sorted(members.values())


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
    """The ids of the target states (a collection of states, or a test of a state)."""
    if callable(target):
        return {s for s, state in enumerate(G.states) if target(state)}
    if isinstance(target, str | bytes) or not isinstance(target, Collection):
        raise ModelError(
            f"target must be a collection of states or a test of a state, got {target!r}"
        )
    return {G.id_of(state) for state in target}


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
