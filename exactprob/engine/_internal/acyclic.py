r"""The acyclic part of a state graph, solved a whole level at a time in exact integers.

A state's *level* is the length of its longest path to a terminal state, self-loops left
out (:func:`peel`): terminal states are level 0, and every move of a level-:math:`k` state
goes to a lower level or back to itself. States that can reach a cycle of two or more
states have no level and are left to the component solver. Every state of a level
depends only on lower levels, so the whole level is valued by a few numpy passes over its
edges (:func:`sweep`), not by a Python loop per state; a level of at most
:data:`~.order.NARROW` states is valued by a plain loop, which costs less than the numpy
passes' fixed tens of microseconds. A pass-through state (one action, one move) is
worth what the state it leads to is worth, and is contracted before the levels are
taken (:func:`pass_through`): a deterministic chain is one level, not one a state.

*The numbers.* Level :math:`j`'s values are integers :math:`N(s)` over one denominator
:math:`E_j`, the least common multiple of their reduced denominators. For level
:math:`k`, let :math:`C` be the lcm of :math:`E_j` over the levels its successors lie on,
scale each successor once, :math:`S(t) = N(t)\,C / E_{j(t)}`, and write the graph's
probabilities as integers :math:`a_e / W`. Action :math:`c` of state :math:`s`, with the
self-loop removed by the do-over rule, is worth

.. math::

    Q(s, c) = \frac{\sum_{e:\,t_e \ne s} a_e\,S(t_e)}{C\,f_c}, \qquad
    f_c = W - \sum_{e:\,t_e = s} a_e ,

so with :math:`M = \operatorname{lcm}(W, f_c, \dots)` every action of the level is the
integer :math:`q_c = (M / f_c) \sum a_e S(t_e)` over the common :math:`C M`. Integers
compare the actions exactly: each state keeps its best (largest for player 0, smallest
for player 1), the first in the model's order, and every equal one is a tie. Dividing the
kept numerators and :math:`C M` by their gcd :math:`g` gives :math:`E_k = C M / g`. An
action with :math:`f_c = 0` stays forever and is never chosen; a state with only such
actions never terminates.

No fraction is reduced during the sweep (a fraction's gcd costs as much as the rest of
its arithmetic); :meth:`SweptValues.value` reduces one when it is asked for.

>>> from exactprob import Dist
>>> from exactprob.engine.graph import explore
>>> class Walk:  # from 0, step +1 or +2 with chances 1/3, 2/3; 3 wins, 4 loses
...     initial = 0
...     def outcome(self, s): return {3: 1, 4: 0}.get(s)
...     def actions(self, s): return ("step",)
...     def transition(self, s, a): return Dist({s + 1: "1/3", s + 2: "2/3"})
>>> G = explore(Walk())
>>> levels = peel(G)
>>> [G.states[s] for s in levels.fronts[3]], levels.complete
([0], True)
>>> swept = sweep(G, levels)
>>> swept.value(0)  # 1/3·(1/3·1/3 + 2/3) + 2/3·1/3
mpq(13,27)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import reduce
from itertools import pairwise
from typing import Any

import gmpy2
import numpy as np
from gmpy2 import mpq, mpz

from ...errors import NonTerminationError
from ...util.arrays import ranges
from ...util.numbers import Exact, integer_weights
from ..graph.state_graph import StateGraph
from .order import NARROW, edge_ends, longest_path_levels

__all__ = ["Levels", "SweptValues", "peel", "stays_forever", "sweep"]

_ONE = mpz(1)


class Levels:
    """The levels of a graph's states: ``level[s]`` (``-1``: the state can reach a cycle
    of two or more states) and ``fronts[k]``, the states of level ``k`` (ascending ids)
    that the sweep values. A *pass-through* state (one action, one move, to another
    state) is worth what the state it leads to is worth: it is on no front, but on its
    representative's level (``representative[s]``, the first state down its run of
    pass-throughs that is not one), among ``followers[k]``, and takes its value once
    level ``k`` is valued. ``targets``: each edge's target with every pass-through state
    replaced by its representative (a move to a run of them leading back to the mover
    is then a self-loop). ``complete``: every state has a level, so no component solver
    is needed."""

    __slots__ = ("complete", "followers", "fronts", "level", "representative", "targets")

    def __init__(
        self,
        level: np.ndarray,
        fronts: list[np.ndarray],
        representative: np.ndarray,
        followers: list[np.ndarray],
        targets: np.ndarray,
    ) -> None:
        self.level = level
        self.fronts = fronts
        self.representative = representative
        self.followers = followers
        self.targets = targets
        self.complete = bool(len(level)) and bool(level.min() >= 0)


def peel(G: StateGraph) -> Levels:
    """Levels by peeling from the terminal states (Kahn's algorithm, one numpy pass a
    level): a state joins level ``k`` once every successor other than itself is on a
    lower level. States whose only moves are self-loops sit on level 0 beside the
    terminal states; :func:`sweep` reports them. Pass-through states are contracted
    first (:func:`pass_through`): a deterministic chain of :math:`n` states is one
    level, not :math:`n`."""
    sources, targets, first_edge = edge_ends(G)
    representative = pass_through(G, first_edge)
    contracted = np.flatnonzero(representative != np.arange(len(G)))
    redirected = representative.astype(np.int32)[targets] if len(contracted) else targets
    if len(contracted):  # the edges of states that are no pass-through, redirected
        kept = representative[sources] == sources
        sources, targets = sources[kept], redirected[kept]
    moving = targets != sources
    level, fronts = longest_path_levels(len(G), sources[moving], targets[moving])
    if not len(contracted):
        return Levels(level, fronts, representative, [contracted] * len(fronts), redirected)
    level[contracted] = level[representative[contracted]]
    if len(fronts):
        fronts[0] = fronts[0][representative[fronts[0]] == fronts[0]]
    on = level[contracted]
    contracted, on = contracted[on >= 0], on[on >= 0]
    by_level = np.argsort(on, kind="stable")
    bounds = np.searchsorted(on[by_level], np.arange(len(fronts) + 1))
    followers = [contracted[by_level[a:b]] for a, b in pairwise(bounds.tolist())]
    return Levels(level, fronts, representative, followers, redirected)


def pass_through(G: StateGraph, first_edge: np.ndarray) -> np.ndarray:
    r"""Each state's representative: itself, or for a *pass-through* state (one action
    with one move, to another state, so worth exactly what that state is worth) the
    first state down its run of pass-throughs that is not one, found by pointer doubling
    (:math:`\lceil \log_2 n \rceil` numpy passes). A run that closes a loop of
    pass-throughs never ends; its states stay their own representatives.

    >>> from exactprob import Dist
    >>> from exactprob.engine.graph import explore
    >>> class Chain:  # 0 -> 1 -> 2 -> 3, then 3 wins half the time and returns to 0
    ...     initial = 0
    ...     def outcome(self, s): return 1 if s == 4 else None
    ...     def actions(self, s): return ("go",)
    ...     def transition(self, s, a): return Dist({4: "1/2", 0: "1/2"} if s == 3 else {s + 1: 1})
    >>> G = explore(Chain())
    >>> pass_through(G, edge_ends(G)[2]).tolist()  # ids: 0, 1, 2, 3, 4 in that order
    [3, 3, 3, 3, 4]
    """
    n = len(G)
    identity = np.arange(n, dtype=np.int64)
    choice_start = np.frombuffer(G.choice_start, dtype=np.int64)
    one_move = (np.diff(choice_start) == 1) & (np.diff(first_edge) == 1)
    candidates = np.flatnonzero(one_move)
    first = identity.copy()
    first[candidates] = np.frombuffer(G.targets, dtype=np.int32)[first_edge[candidates]]
    if not len(candidates):
        return first
    step = first
    for _ in range(max(1, n.bit_length())):  # 2**bit_length > n: past the longest run
        after = step[step]
        if np.array_equal(after, step):  # every run already at its end (or in a loop)
            break
        step = after
    ends = first[step] == step  # the run reached a state that is no pass-through
    return np.where(ends, step, identity)


class SweptValues:
    """The exact values, choices and ties of every state with a level: ``numerators[s]``
    over ``denominators[level[s]]``; ``choice[s]`` the index of the first optimal action
    (``-1`` for a terminal state) and ``ties[s]`` every optimal one where there are
    several. ``complete``: every state was valued."""

    __slots__ = ("choice", "complete", "denominators", "level", "numerators", "ties")

    def __init__(self, levels: Levels) -> None:
        n = len(levels.level)
        self.level = levels.level
        self.complete = levels.complete
        self.numerators = np.empty(n, dtype=object)
        self.denominators: list[Any] = []
        self.choice = np.full(n, -1, dtype=np.int64)
        self.ties: dict[int, tuple[int, ...]] = {}

    def covers(self, s: int) -> bool:
        """Whether state ``s`` was valued by the sweep."""
        return bool(self.level[s] >= 0)

    def value(self, s: int) -> Any:
        """The exact value of state ``s`` as a reduced ``mpq``."""
        return mpq(self.numerators[s], self.denominators[self.level[s]])


def sweep(
    G: StateGraph,
    levels: Levels,
    outcomes: Sequence[Exact] | None = None,
    progress: Callable[[int], object] | None = None,
) -> SweptValues:
    """Value every state that has a level, level by level (see the module's text).
    ``outcomes``: the terminal values, exact rationals (default ``G.outcomes``);
    ``progress`` is called with the number of states of each level once it is valued."""
    swept = SweptValues(levels)
    sweeper = _Sweep(G, levels, swept, G.outcomes if outcomes is None else outcomes)
    for k, (front, followers) in enumerate(zip(levels.fronts, levels.followers, strict=True)):
        if k == 0:
            sweeper.terminal(front)
        elif len(front) <= NARROW:
            sweeper.narrow_level(front)
        else:
            sweeper.level(front)
        if len(followers):
            swept.numerators[followers] = swept.numerators[levels.representative[followers]]
            swept.choice[followers] = 0
        if progress is not None:
            progress(len(front) + len(followers))
    return swept


def stays_forever(state: Hashable) -> NonTerminationError:
    """The error for a state each of whose actions returns to it with probability 1."""
    return NonTerminationError(f"every action in state {state!r} returns to it with probability 1")


class _Sweep:
    """The arrays one sweep reads, and the level-by-level loop."""

    def __init__(
        self, G: StateGraph, levels: Levels, swept: SweptValues, outcomes: Sequence[Exact]
    ) -> None:
        self.G = G
        self.swept = swept
        self.outcomes = outcomes
        self.choice_start = np.frombuffer(G.choice_start, dtype=np.int64)
        self.edge_start = np.frombuffer(G.edge_start, dtype=np.int64)
        self.targets = levels.targets  # a move to a pass-through: to its representative
        self.prob_ids = np.frombuffer(G.prob_ids, dtype=np.int32)
        self.players = np.frombuffer(G.players, dtype=np.uint8)
        weights, self.W = integer_weights(G.probabilities)
        self.weights = np.array(weights, dtype=object)

    def terminal(self, front: np.ndarray) -> None:
        """Level 0: the terminal values over the lcm of their denominators."""
        cs = self.choice_start
        self._refuse(front[cs[front + 1] > cs[front]])
        values = [mpq(self.outcomes[s]) for s in front.tolist()]
        common = reduce(gmpy2.lcm, (v.denominator for v in values), _ONE)
        self.swept.numerators[front] = [v.numerator * (common // v.denominator) for v in values]
        self.swept.denominators.append(common)

    def level(self, front: np.ndarray) -> None:
        """One level: every action's numerator over the common denominator, the best and
        the ties of each state, the level's common factor divided out."""
        swept = self.swept
        cs, es = self.choice_start, self.edge_start
        n_choices = cs[front + 1] - cs[front]
        choices = ranges(cs[front], n_choices)
        n_edges = es[choices + 1] - es[choices]
        edges = ranges(es[choices], n_edges)
        edge_choice = np.repeat(np.arange(len(choices)), n_edges)
        owners = np.repeat(np.repeat(front, n_choices), n_edges)
        targets = self.targets[edges].astype(np.int64)
        weights = self.weights[self.prob_ids[edges]]
        stays = targets == owners
        # successors scaled once each to the common denominator C of their levels
        successors, inverse = np.unique(targets[~stays], return_inverse=True)
        scaled, common = self._scaled(successors)
        terms = np.zeros(len(edges), dtype=object)
        terms[~stays] = weights[~stays] * scaled[inverse]
        sums = np.add.reduceat(terms, np.cumsum(n_edges) - n_edges)
        q, M, forever = self._do_over(sums, stays, weights, edge_choice)
        if len(choices) == len(front):
            self._refuse(front[forever])
            best = q
            swept.choice[front] = 0
        else:
            best = self._decide(front, q, n_choices, forever)
        best, D = _reduced(best, common * M)
        swept.numerators[front] = best
        swept.denominators.append(D)

    def narrow_level(self, front: np.ndarray) -> None:
        """A level of at most :data:`~.order.NARROW` states, one action at a time in
        Python: the numbers of :meth:`level` without its fixed cost of numpy passes (a
        chain has a level per state). Actions that stay forever are never chosen."""
        swept, E, W = self.swept, self.swept.denominators, self.W
        numerators = swept.numerators
        states = front.tolist()
        actions = [self._actions(s) for s in states]
        level = {t: int(swept.level[t]) for acts in actions for moves, _ in acts for _, t in moves}
        used = set(level.values())
        common = reduce(gmpy2.lcm, (E[j] for j in used), _ONE)
        ratio = {j: common // E[j] for j in used}
        M = reduce(gmpy2.lcm, (W - stay for acts in actions for _, stay in acts if stay != W), W)
        best, choices = [], []
        for s, acts in zip(states, actions, strict=True):
            sign = -1 if self.players[s] == 1 else 1
            q = {  # the actions that leave: numerators over C M
                k: sum(a * numerators[t] * ratio[level[t]] for a, t in moves) * (M // (W - stay))
                for k, (moves, stay) in enumerate(acts)
                if stay != W
            }
            if not q:
                raise stays_forever(self.G.states[s])
            top = max(sign * x for x in q.values())
            at_best = [k for k, x in q.items() if sign * x == top]
            choices.append(at_best[0])
            best.append(q[at_best[0]])
            if len(at_best) > 1:
                swept.ties[s] = tuple(at_best)
        best, D = _reduced(best, common * M)
        for s, x, c in zip(states, best, choices, strict=True):  # no fancy indexing: 1 µs each
            numerators[s] = x
            swept.choice[s] = c
        E.append(D)

    def _actions(self, s: int) -> list[tuple[list[tuple[Any, int]], Any]]:
        """State ``s``'s actions, each as its moves elsewhere ``(weight, target)`` and the
        weight of staying; its slices of the graph's arrays are read as Python lists (a
        numpy element read one at a time costs more than a narrow level's arithmetic)."""
        first, last = self.choice_start[s : s + 2].tolist()
        bounds = self.edge_start[first : last + 1].tolist()
        start, stop = bounds[0], bounds[-1]
        edges = list(
            zip(
                self.targets[start:stop].tolist(),
                self.weights[self.prob_ids[start:stop]].tolist(),
                strict=True,
            )
        )
        actions = []
        for begin, end in pairwise(bounds):
            moves, stay = [], 0
            for t, a in edges[begin - start : end - start]:
                if t == s:
                    stay += a
                else:
                    moves.append((a, t))
            actions.append((moves, stay))
        return actions

    def _scaled(self, successors: np.ndarray) -> tuple[np.ndarray, Any]:
        """``N(t) C / E_j(t)`` for each successor, and ``C``."""
        swept = self.swept
        their_levels = swept.level[successors]
        used = np.unique(their_levels).tolist()
        E = swept.denominators
        common = reduce(gmpy2.lcm, (E[j] for j in used), _ONE)
        numerators = swept.numerators[successors]
        if all(E[j] == common for j in used):
            return numerators, common
        ratios = np.empty(len(E), dtype=object)  # read only at the levels used
        ratios[used] = [common // E[j] for j in used]
        return numerators * ratios[their_levels], common

    def _do_over(
        self, sums: np.ndarray, stays: np.ndarray, weights: np.ndarray, edge_choice: np.ndarray
    ) -> tuple[np.ndarray, Any, np.ndarray]:
        """The actions' numerators over ``C M``, ``M``, and which actions stay forever
        (their numerator is meaningless): ``sums`` times ``M / W``, or ``M / f_c`` for an
        action with a self-loop."""
        W = self.W
        forever = np.zeros(len(sums), dtype=bool)
        if not stays.any():
            return sums, W, forever
        stay = np.zeros(len(sums), dtype=object)
        np.add.at(stay, edge_choice[stays], weights[stays])
        looping = np.flatnonzero(stay != 0)
        leave = [W - x for x in stay[looping].tolist()]
        M = reduce(gmpy2.lcm, (f for f in leave if f), W)
        q = sums * (M // W) if M != W else sums.copy()
        for c, f in zip(looping.tolist(), leave):
            if f:
                q[c] = sums[c] * (M // f)
            else:
                forever[c] = True
        return q, M, forever

    def _refuse(self, stuck: np.ndarray) -> None:
        """Refuse the first of these states: each of its actions stays in it forever."""
        if len(stuck):
            raise stays_forever(self.G.states[int(stuck[0])])

    def _decide(
        self, front: np.ndarray, q: np.ndarray, n_choices: np.ndarray, forever: np.ndarray
    ) -> np.ndarray:
        """Each state's best numerator (player 1 minimises: its actions are negated for
        the maximum); its first best action and its ties recorded. An action that stays
        forever is put below every other action of the level."""
        swept = self.swept
        starts = np.cumsum(n_choices) - n_choices
        run = np.repeat(np.arange(len(front)), n_choices)
        minimiser = self.players[front] == 1
        signs = np.where(minimiser, -1, 1)
        if forever.any():
            leaving = np.bincount(run[~forever], minlength=len(front))
            self._refuse(front[leaving == 0])
            q[forever] = 0
        signed = q * signs[run] if minimiser.any() else q
        if forever.any():
            signed[forever] = min(signed[~forever].tolist()) - 1
        best = np.maximum.reduceat(signed, starts)
        at_best = np.flatnonzero(signed == best[run])
        first = np.ones(len(at_best), dtype=bool)
        first[1:] = run[at_best[1:]] != run[at_best[:-1]]
        swept.choice[front] = at_best[first] - starts
        tied = np.bincount(run[at_best], minlength=len(front)) > 1
        at_tie = at_best[tied[run[at_best]]]
        ties: dict[int, list[int]] = {}
        for s, k in zip(front[run[at_tie]].tolist(), (at_tie - starts[run[at_tie]]).tolist()):
            ties.setdefault(s, []).append(k)
        swept.ties.update((s, tuple(ks)) for s, ks in ties.items())
        return best * signs if minimiser.any() else best


def _reduced(numerators: Any, D: Any) -> tuple[Any, Any]:
    """A level's numerators over ``D`` with their common factor divided out."""
    g = _common_factor(D, numerators)
    if g == 1:
        return numerators, D
    return [x // g for x in numerators], D // g


def _common_factor(D: Any, numerators: Any) -> Any:
    """``gcd(D, numerators...)`` (an array or a list), stopping as soon as it reaches 1."""
    g = mpz(D)
    gcd = gmpy2.gcd
    for x in list(numerators):
        g = gcd(g, x)
        if g == 1:
            break
    return g
