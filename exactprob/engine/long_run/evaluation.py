r"""The gain and bias of a chain with rewards, exactly: the evaluation step of multichain
policy iteration, and the closed classes and stationary laws it rests on.

A chain moves from state :math:`s` to :math:`t` with probability :math:`P(t \mid s)` and
earns :math:`r(s)` as it leaves :math:`s` (a terminal state stays and earns 0). Its *gain*
:math:`g` (the long-run average reward from each state) and *bias* :math:`h` (the expected
total of :math:`r - g` along play, in the Cesàro sense) are the unique solution of

.. math::

    g = P g, \qquad g + h = r + P h, \qquad P^* h = 0,

where :math:`P^*` is the chain's limiting matrix (Puterman, *Markov Decision Processes*,
1994, §8.2.3). They are solved one closed class :math:`C` at a time and then on the
transient states :math:`T`:

- on :math:`C`, :math:`g = \pi r` for the class's stationary law :math:`\pi`; :math:`h` from
  :math:`h_u - \sum_{t \in C} P(t \mid u) h_t = r(u) - g` for :math:`u \ne c`, with
  :math:`h_c = 0` at the class's first state :math:`c` (non-singular: without :math:`c` the
  class leaks), then shifted by :math:`\pi h` so that :math:`\pi h = 0`;
- on :math:`T`, :math:`(I - P_{TT})\, g_T = P_{TC} g_C` and
  :math:`(I - P_{TT})\, h_T = r_T - g_T + P_{TC} h_C` (non-singular: every transient state
  leaves :math:`T` for good).

>>> from gmpy2 import mpq
>>> from exactprob.engine._internal.linear import RATIONAL
>>> moves = [[(1, mpq(1))], [(0, mpq(1, 2)), (1, mpq(1, 2))]]  # 0 -> 1; 1 -> 0 or stays
>>> run = evaluate_play(RATIONAL, moves, [mpq(3), mpq(0)])
>>> run.gain, run.bias
([mpq(1,1), mpq(1,1)], [mpq(4,3), mpq(-2,3)])
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from ...util.numbers import Exact
from .._internal.linear import Field, solve_linear
from .._internal.order import strong_components
from ..graph.state_graph import StateGraph

__all__ = [
    "Moves",
    "PlayEvaluation",
    "choice_moves",
    "class_law",
    "closed_classes",
    "evaluate_play",
]

#: Each state's moves under the play, ``(successor id, probability)``; ``[]`` when terminal.
Moves = Sequence[Sequence[tuple[int, Exact]]]


@dataclass(frozen=True, slots=True)
class PlayEvaluation:
    """A chain's closed classes (ids in order, ordered by their first id), the stationary
    law of each, and the gain and bias of every state."""

    classes: list[list[int]]
    laws: list[dict[int, Exact]]
    gain: list[Exact]
    bias: list[Exact]


def evaluate_play(field: Field, moves: Moves, reward: Sequence[Exact]) -> PlayEvaluation:
    """The gain and bias of the chain ``moves`` earning ``reward[s]`` in each state (see
    the module; a terminal state's reward is ignored), one strongly connected component
    at a time, each after those it moves to."""
    zero = field.convert(0)
    n = len(moves)
    gain, bias = [zero] * n, [zero] * n
    classes, laws = [], []
    one = field.convert(1)
    for ids, closed in _components(moves):
        if not closed and len(ids) == 1:  # most transient states: one division
            (u,) = ids
            stay, into_gain, into_bias = one, zero, zero
            for t, p in moves[u]:
                if t == u:
                    stay -= p
                else:
                    into_gain += p * gain[t]
                    into_bias += p * bias[t]
            gain[u] = into_gain / stay
            bias[u] = (reward[u] - gain[u] + into_bias) / stay
            continue
        if not closed:
            _transient_gain_and_bias(field, moves, reward, ids, gain, bias)
            continue
        law = class_law(field, moves, ids)
        classes.append(ids)
        laws.append(law)
        if moves[ids[0]]:  # else a terminal state: gain and bias 0
            g = field.dot((law[s] for s in ids), (reward[s] for s in ids))
            h = _class_bias(field, moves, ids, [reward[s] - g for s in ids])
            centre = field.dot((law[s] for s in ids), h)
            for s, x in zip(ids, h):
                gain[s], bias[s] = g, x - centre
    order = sorted(range(len(classes)), key=lambda k: classes[k][0])
    return PlayEvaluation([classes[k] for k in order], [laws[k] for k in order], gain, bias)


def choice_moves(G: StateGraph, field: Field) -> list[list[tuple[int, Exact]]]:
    """Every choice's moves in ``G``, ``(successor id, probability)`` with each distinct
    probability converted to ``field`` once."""
    probabilities = [field.convert(p) for p in G.probabilities]
    targets, prob_ids = G.targets, G.prob_ids
    return [
        [(t, probabilities[i]) for t, i in zip(targets[a:b], prob_ids[a:b])]
        for a, b in pairwise(G.edge_start)
    ]


def closed_classes(moves: Moves) -> list[list[int]]:
    """The strongly connected components of ``moves`` that no move leaves, each as its ids
    in order, ordered by their first id (a terminal state is one, alone)."""
    return sorted(ids for ids, closed in _components(moves) if closed)


def _components(moves: Moves) -> Iterator[tuple[list[int], bool]]:
    """The strongly connected components of the chain (ids ascending), each after every
    component it moves to (:func:`~exactprob.engine._internal.order.strong_components`),
    and whether it is closed (no move leaves it)."""
    G = StateGraph()
    G.states = range(len(moves))
    has_moves = [1 if out else 0 for out in moves]
    G.choice_start = array("q", [0, *accumulate(has_moves)])
    G.edge_start = array("q", [0, *accumulate(len(out) for out in moves if out)])
    G.targets = array("i", [t for out in moves for t, _ in out])
    for ids in strong_components(G):
        if len(ids) == 1:
            (u,) = ids
            yield ids, all(t == u for t, _ in moves[u])
            continue
        inside = set(ids)
        yield ids, all(t in inside for u in ids for t, _ in moves[u])


def class_law(field: Field, moves: Moves, ids: list[int]) -> dict[int, Exact]:
    r"""The stationary law of the closed class ``ids``: :math:`\pi_c = 1` at its first
    state :math:`c`, the others from
    :math:`\pi_j - \sum_{i \ne c} \pi_i P(j \mid i) = P(j \mid c)`, then normalised."""
    one, zero = field.convert(1), field.convert(0)
    if len(ids) == 1:
        return {ids[0]: one}
    c, others = ids[0], ids[1:]
    position = {s: i for i, s in enumerate(others)}
    rows: list[dict[int, Exact]] = [{i: one} for i in range(len(others))]
    rhs: list[list[Exact]] = [[zero] for _ in others]
    for u in ids:
        for t, p in moves[u]:
            j = position.get(t)
            if j is None:
                continue  # a move into c: its equation is the one left out
            if u == c:
                rhs[j][0] += p
            else:
                i = position[u]
                rows[j][i] = rows[j].get(i, zero) - p
    x = [v[0] for v in solve_linear(field, rows, rhs)]
    total = one + sum(x, zero)
    return {c: one / total, **{s: v / total for s, v in zip(others, x)}}


def _class_bias(field: Field, moves: Moves, ids: list[int], excess: list[Exact]) -> list[Exact]:
    """:math:`h` on a closed class with :math:`h = 0` at its first state, from
    :math:`h_u - \\sum_t P(t \\mid u) h_t = r(u) - g` at the others (``excess``)."""
    zero = field.convert(0)
    if len(ids) == 1:
        return [zero]
    position = {s: i for i, s in enumerate(ids[1:])}
    rows: list[dict[int, Exact]] = []
    for u in ids[1:]:
        row = {position[u]: field.convert(1)}
        for t, p in moves[u]:
            j = position.get(t)
            if j is not None:
                row[j] = row.get(j, zero) - p
        rows.append(row)
    x = solve_linear(field, rows, [[e] for e in excess[1:]])
    return [zero, *(v[0] for v in x)]


def _transient_gain_and_bias(
    field: Field,
    moves: Moves,
    reward: Sequence[Exact],
    ids: list[int],
    gain: list[Exact],
    bias: list[Exact],
) -> None:
    """Fill ``gain`` and ``bias`` on a component of several states that play leaves,
    from those of the states it moves to (see the module): two solves with the matrix
    :math:`I - P_{TT}`."""
    zero, one = field.convert(0), field.convert(1)
    position = {s: i for i, s in enumerate(ids)}
    rows: list[dict[int, Exact]] = []
    from_gain: list[list[Exact]] = []
    from_bias: list[Exact] = []
    for u in ids:
        row, into_gain, into_bias = {position[u]: one}, zero, zero
        for t, p in moves[u]:
            j = position.get(t)
            if j is None:
                into_gain += p * gain[t]
                into_bias += p * bias[t]
            else:
                row[j] = row.get(j, zero) - p
        rows.append(row)
        from_gain.append([into_gain])
        from_bias.append(into_bias)
    g = [v[0] for v in solve_linear(field, rows, from_gain)]
    rhs = [[reward[u] - gu + b] for u, gu, b in zip(ids, g, from_bias)]
    h = [v[0] for v in solve_linear(field, rows, rhs)]
    for u, gu, hu in zip(ids, g, h):
        gain[u], bias[u] = gu, hu
