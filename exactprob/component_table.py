r"""One cyclic component of a state graph as numpy arrays, for the float passes.

The component's states are numbered locally in elimination order
(:func:`~exactprob.cycle.elimination_order`): the *acyclic part* :math:`N` first, each
state after every state of :math:`N` it can move to, then the *feedback set* :math:`F`.
Every choice (state and action) and every edge of the component gets a row, so a
policy's matrix and every action value are a few vectorised operations, with no Python
loop over edges.

Under a policy :math:`\pi`, with :math:`A = I - P^\pi_{SS}` in that order,
:math:`A_{NN}` is unit lower triangular, so

.. math::

    x_N = A_{NN}^{-1}\,(b_N - A_{NF}\, x_F), \qquad
    (A_{FF} - A_{FN} A_{NN}^{-1} A_{NF})\, x_F = b_F - A_{FN} A_{NN}^{-1} b_N,

a triangular solve with :math:`|F| + 1` right-hand sides and a dense
:math:`|F| \times |F|` one, instead of a dense solve of the whole component.

>>> import numpy as np
>>> ranges(np.array([5, 0]), np.array([2, 3]))
array([5, 6, 0, 1, 2])
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import cache
from typing import Any

import numpy as np

__all__ = [
    "DENSE_LIMIT",
    "ComponentTable",
    "GraphArrays",
    "choice_sums",
    "first_maxima",
    "one_blas_thread",
    "ranges",
]

#: Components above this many states are evaluated by a sparse LU instead (the dense
#: block elimination holds :math:`|N| \times |F|` and :math:`n \times n` floats).
DENSE_LIMIT = 1500


@cache
def _blas() -> Any:
    """The BLAS libraries of numpy and scipy (each wheel brings its own OpenBLAS), found
    once (milliseconds): scipy's is loaded first, since a controller made before
    ``scipy.linalg`` is imported would not see it, and its solves would run threaded."""
    import scipy.linalg  # noqa: F401
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context in which BLAS uses one thread: the component matrices are small, and
    threads waiting for a busy core cost more than they save."""
    return _blas().limit(limits=1, user_api="blas")


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The concatenated integer ranges ``starts[i] .. starts[i] + counts[i] - 1``."""
    total = int(counts.sum())
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(total)


def choice_sums(
    terms: np.ndarray, edge_choice: np.ndarray, n_choices: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each choice's sum of its edges' ``terms`` (``edge_choice[e]``: the choice of edge
    ``e``), and the sum of their absolute values (for :func:`~exactprob.rounding.error_bounds`).

    >>> [x.tolist() for x in choice_sums(np.array([0.5, -0.25, 1.0]), np.array([0, 0, 1]), 2)]
    [[0.25, 1.0], [0.75, 1.0]]
    """
    q = np.bincount(edge_choice, weights=terms, minlength=n_choices)
    return q, np.bincount(edge_choice, weights=np.abs(terms), minlength=n_choices)


def first_maxima(
    values: np.ndarray, starts: np.ndarray, run: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The maximum of each run of ``values`` (run ``i`` starts at ``starts[i]``;
    ``run[j]`` is the run of index ``j``; no run is empty) and the first index where
    each run reaches it.

    >>> best, first = first_maxima(np.array([1.0, 3.0, 3.0, 2.0]), np.array([0, 1]),
    ...                            np.array([0, 1, 1, 1]))
    >>> best.tolist(), first.tolist()
    ([1.0, 3.0], [0, 1])
    """
    best = np.maximum.reduceat(values, starts) if len(starts) else values[:0]
    at_best = np.flatnonzero(values >= best[run])
    _, first_hit = np.unique(run[at_best], return_index=True)
    return best, at_best[first_hit]


class GraphArrays:
    """Numpy views of a state graph's columns, with each edge's probability as a float
    and a scratch map from global to local ids (``-1`` outside the current component)."""

    __slots__ = ("choice_start", "edge_start", "local", "players", "probs", "targets")

    def __init__(self, G: Any, float_probabilities: list[float]) -> None:
        self.choice_start = np.frombuffer(G.choice_start, dtype=np.int64)
        self.edge_start = np.frombuffer(G.edge_start, dtype=np.int64)
        self.targets = np.frombuffer(G.targets, dtype=np.int32)
        prob_ids = np.frombuffer(G.prob_ids, dtype=np.int32)
        self.probs = np.asarray(float_probabilities, dtype=np.float64)[prob_ids]
        self.players = np.frombuffer(G.players, dtype=np.uint8)
        self.local = np.full(len(G), -1, dtype=np.int64)


class ComponentTable:
    """Every choice and edge of one component, numbered locally.

    ``first[i] .. first[i + 1] - 1`` are the choices of local state ``i`` (in the model's
    order of actions), ``owner[c]`` the state of choice ``c``; edge ``e`` belongs to
    choice ``edge_choice[e]``, goes to local state ``edge_local[e]`` (``-1`` when it leaves
    the component, to global ``edge_target[e]``) with float probability ``edge_prob[e]``.
    ``sign[i]`` is 1 where player 0 (the maximiser) moves, -1 for player 1; ``edges``
    are the edges' global ids. A policy is an array of choice numbers, one per local
    state.
    """

    def __init__(self, arrays: GraphArrays, order: list[int], feedback: int) -> None:
        states = np.asarray(order, dtype=np.int64)
        n = len(states)
        self.n, self.n_acyclic = n, n - feedback
        c0 = arrays.choice_start[states]
        counts = arrays.choice_start[states + 1] - c0
        self.first = np.concatenate(([0], np.cumsum(counts)))
        self.owner = np.repeat(np.arange(n), counts)
        choices = ranges(c0, counts)
        e0 = arrays.edge_start[choices]
        self.edge_counts = arrays.edge_start[choices + 1] - e0
        edges = self.edges = ranges(e0, self.edge_counts)
        self.edge_choice = np.repeat(np.arange(len(choices)), self.edge_counts)
        self.edge_start_of_choice = np.cumsum(self.edge_counts) - self.edge_counts
        self.edge_target = arrays.targets[edges].astype(np.int64)
        self.edge_prob = arrays.probs[edges]
        arrays.local[states] = np.arange(n)
        self.edge_local = arrays.local[self.edge_target]
        arrays.local[states] = -1
        self.inside = self.edge_local >= 0
        self.sign = 1.0 - 2.0 * arrays.players[states]
        self.order = order

    @property
    def n_choices(self) -> int:
        """The number of choices of the component's states."""
        return int(self.first[-1])

    def policy_array(self, policy: dict[int, int]) -> np.ndarray:
        """A policy ``{global id: action index}`` as choice numbers."""
        return self.first[:-1] + np.array([policy[s] for s in self.order], dtype=np.int64)

    def policy_dict(self, policy: np.ndarray) -> dict[int, int]:
        """Choice numbers as a policy ``{global id: action index}``."""
        actions = (policy - self.first[:-1]).tolist()
        return dict(zip(self.order, actions))

    def edge_values(self, outside: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Each edge's target value: ``x`` (local) inside, ``outside`` (global) else."""
        return np.where(self.inside, x[np.maximum(self.edge_local, 0)], outside[self.edge_target])

    def action_values(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every choice's float value :math:`\\sum p\\,v` from the edge values, and the
        sum of its absolute terms."""
        return choice_sums(self.edge_prob * values, self.edge_choice, self.n_choices)

    def _policy_entries(self, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and probabilities of the entries of :math:`P^\\pi_{SS}`."""
        row_of_choice = np.full(self.n_choices, -1)
        row_of_choice[policy] = np.arange(self.n)
        rows = row_of_choice[self.edge_choice]
        keep = (rows >= 0) & self.inside
        return rows[keep], self.edge_local[keep], self.edge_prob[keep]

    def matrix(self, policy: np.ndarray, exit_value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:math:`A = I - P^\\pi_{SS}` (dense) and :math:`b` (the chosen choices' values
        from outside the component, ``exit_value`` per choice)."""
        n = self.n
        rows, columns, probs = self._policy_entries(policy)
        A = np.eye(n)  # zeroed pages: only the entries written below are touched
        np.subtract.at(A, (rows, columns), probs)
        return A, exit_value[policy]

    def inside_values(self, x: np.ndarray) -> np.ndarray:
        """Each choice's float value from its edges inside the component, ``x`` local."""
        terms = self.edge_prob * np.where(self.inside, x[np.maximum(self.edge_local, 0)], 0.0)
        return np.bincount(self.edge_choice, weights=terms, minlength=self.n_choices)

    def exit_values(self, outside: np.ndarray) -> np.ndarray:
        """Each choice's float value from its edges leaving the component."""
        terms = np.where(self.inside, 0.0, self.edge_prob * outside[self.edge_target])
        return np.bincount(self.edge_choice, weights=terms, minlength=self.n_choices)

    def evaluate(self, policy: np.ndarray, exit_value: np.ndarray) -> np.ndarray:
        """Float values of the component under ``policy`` (block elimination, above; a
        sparse LU above :data:`DENSE_LIMIT` states), with ``exit_value`` per choice
        (:meth:`exit_values`)."""
        from scipy.linalg import solve_triangular  # loaded on first use (0.2 s)

        if self.n > DENSE_LIMIT:
            return self._evaluate_sparse(policy, exit_value)
        A, b = self.matrix(policy, exit_value)
        k = self.n_acyclic
        right = np.column_stack((b[:k], A[:k, k:]))
        Z = solve_triangular(A[:k, :k], right, lower=True, unit_diagonal=True, check_finite=False)
        schur = A[k:, k:] - A[k:, :k] @ Z[:, 1:]
        x_f = np.linalg.solve(schur, b[k:] - A[k:, :k] @ Z[:, 0])
        return np.concatenate((Z[:, 0] - Z[:, 1:] @ x_f, x_f))

    def _evaluate_sparse(self, policy: np.ndarray, exit_value: np.ndarray) -> np.ndarray:
        """:meth:`evaluate` by scipy's sparse LU (SuperLU) on :math:`I - P^\\pi_{SS}`."""
        from scipy.sparse import csc_matrix, identity
        from scipy.sparse.linalg import spsolve

        n = self.n
        rows, columns, probs = self._policy_entries(policy)
        A = identity(n, format="csc") - csc_matrix((probs, (rows, columns)), shape=(n, n))
        return np.asarray(spsolve(A, exit_value[policy]), dtype=np.float64)

    def evaluate_acyclic(
        self, policy: np.ndarray, exit_value: np.ndarray, x_feedback: np.ndarray
    ) -> np.ndarray:
        """Float values of the acyclic part under ``policy`` with the feedback states'
        values fixed at ``x_feedback``; the whole local vector."""
        from scipy.linalg import solve_triangular

        A, b = self.matrix(policy, exit_value)
        k = self.n_acyclic
        x_n = solve_triangular(
            A[:k, :k],
            b[:k] - A[:k, k:] @ x_feedback,
            lower=True,
            unit_diagonal=True,
            check_finite=False,
        )
        return np.concatenate((x_n, x_feedback))
