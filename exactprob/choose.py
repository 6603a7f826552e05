r"""Choosing an action when every successor is solved: floats rule out, exact numbers decide.

A state's action values are :math:`Q(s, a) = \sum_t P(t \mid s, a)\, V(t)`; player 0
takes the largest, player 1 the smallest. :func:`float_candidates` keeps the actions
whose float value, within its proven error bound (:mod:`exactprob.rounding`), may be the
best; :func:`best_and_ties` compares the exact values of those, so the chosen action is
the first optimal one in the model's order and every exactly tied one is found.

>>> float_candidates([(0.25, 1e-16), (0.75, 1e-16), (0.75, 1e-16)], player=0)
[1, 2]
>>> from gmpy2 import mpq
>>> best_and_ties({1: mpq(3, 4), 2: mpq(3, 4)}, player=0)
(mpq(3,4), (1, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .numbers import Exact
from .rounding import certainly_less

__all__ = ["best_and_ties", "float_candidates"]


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
    best = max(q.values()) if player == 0 else min(q.values())
    return best, tuple(k for k in sorted(q) if q[k] == best)
