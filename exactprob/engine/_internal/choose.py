r"""Choosing an action when every successor is solved: floats rule out, exact numbers decide.

A state's action values are :math:`Q(s, a) = \sum_t P(t \mid s, a)\, V(t)`; player 0
takes the largest, player 1 the smallest. :func:`float_candidates` keeps the actions
whose float value, within its proven error bound (:mod:`exactprob.util.rounding`), may be the
best; :func:`best_and_ties` compares the exact values of those, so the chosen action is
the first optimal one in the model's order and every exactly tied one is found.
When the actions :func:`share_successors`, as a choice between dice does, floats save
nothing: :func:`exact_best` values them all exactly over one common denominator
(:func:`~exactprob.util.numbers.common_denominator_dots`) for about the price of one, and
:func:`best_of` compares their numerators.

>>> float_candidates([(0.25, 1e-16), (0.75, 1e-16), (0.75, 1e-16)], player=0)
[1, 2]
>>> from gmpy2 import mpq
>>> best_and_ties({1: mpq(3, 4), 2: mpq(3, 4)}, player=0)
(mpq(3,4), (1, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...util.numbers import Exact, common_denominator_dots, integer_weights, mpq
from ...util.rounding import certainly_less

__all__ = ["best_and_ties", "best_of", "exact_best", "float_candidates", "share_successors"]


def float_candidates(floats: Sequence[tuple[float, float]], player: int) -> list[int]:
    """The indices of the actions, given as ``(float value, error bound)``, that the
    floats cannot prove worse than the float-best one (in order; the float-best is one).

    >>> float_candidates([(0.25, 0.3), (0.5, 0.0)], player=1)
    [0, 1]
    """
    sign = 1.0 if player == 0 else -1.0
    best = max(range(len(floats)), key=lambda k: sign * floats[k][0])
    b, b_error = floats[best]
    return [
        k
        for k, (q, error) in enumerate(floats)
        if k == best or not certainly_less(sign * q, error, sign * b, b_error)
    ]


def best_and_ties(q: Mapping[int, Exact], player: int) -> tuple[Exact, tuple[int, ...]]:
    """The optimal exact value among ``q`` (action index -> value) for ``player`` and
    every index that attains it, in increasing order.

    >>> best_and_ties({0: 1, 3: 0, 5: 0}, player=1)
    (0, (3, 5))
    """
    keys = sorted(q)
    best, tied = best_of([q[k] for k in keys], player)
    return best, tuple(keys[i] for i in tied)


def best_of(numbers: Sequence[Any], player: int) -> tuple[Any, tuple[int, ...]]:
    """The optimal one of ``numbers`` for ``player`` and every index that attains it.

    >>> best_of([3, 1, 3], player=0)
    (3, (0, 2))
    """
    best = max(numbers) if player == 0 else min(numbers)
    return best, tuple(k for k, x in enumerate(numbers) if x == best)


def share_successors(targets: Sequence[Sequence[int]]) -> bool:
    """Whether the action with the most successors (``targets``, one sequence of
    successor ids per action) reaches every successor of the others, so that valuing
    them all exactly scales no more values than valuing that one.

    >>> share_successors([[7, 8], [8]]), share_successors([[7], [8]])
    (True, False)
    """
    return len({t for ts in targets for t in ts}) <= max(map(len, targets))


def exact_best(
    rows: Sequence[tuple[Sequence[Any], Sequence[int]]],
    values: Sequence[Exact],
    player: int,
    constants: Sequence[Exact] | None = None,
) -> tuple[Exact, tuple[int, ...]]:
    r""":func:`best_of` the exact values :math:`r_k + \sum_i p_i\, V(t_i)` of the rows of
    ``mpq`` probabilities :math:`p_i` and successor ids :math:`t_i`, with the rows'
    ``constants`` :math:`r_k` (rewards; 0 when absent): the probabilities are made
    integers over their common denominator :math:`W`, the sums compared as integers over
    one denominator (:func:`~exactprob.util.numbers.common_denominator_dots`), and only
    the best reduced.

    >>> exact_best([([mpq(1, 2), mpq(1, 2)], [0, 1]), ([mpq(1)], [1])], [mpq(0), mpq(1, 2)], 1)
    (mpq(1,4), (0,))
    >>> exact_best([([mpq(1)], [0]), ([mpq(1)], [1])], [mpq(0), mpq(1, 2)], 0, [mpq(2, 3), 0])
    (mpq(2,3), (0,))
    """
    weights, w = integer_weights([p for probs, _ in rows for p in probs])
    at = iter(weights)  # each row takes its own weights back, in order
    numerators, denominator = common_denominator_dots(
        [([next(at) for _ in probs], targets) for probs, targets in rows], values
    )
    denominator *= w
    if constants is not None and any(constants):
        scaled, common = integer_weights([mpq(r) for r in constants])
        numerators = [n * common + r * denominator for n, r in zip(numerators, scaled)]
        denominator *= common
    best, tied = best_of(numerators, player)
    return mpq(best, denominator), tied
