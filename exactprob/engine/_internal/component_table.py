r"""One cyclic component of a state graph as numpy arrays, for the float passes.

The component's states are numbered locally in elimination order
(:func:`~exactprob.engine._internal.cycle.elimination_order`): the *acyclic part* :math:`N` first, each
state after every state of :math:`N` it can move to, then the *feedback set* :math:`F`.
Every choice (state and action) and every edge of the component gets a row, so a
policy's matrix and every action value are a few vectorised operations, with no Python
loop over edges.

Under a policy :math:`\pi`, with :math:`A = I - P^\pi_{SS}` in that order,
:math:`A_{NN}` is unit lower triangular, so

.. math::

    x_N = A_{NN}^{-1}\,(b_N - A_{NF}\, x_F), \qquad
    (A_{FF} - A_{FN} A_{NN}^{-1} A_{NF})\, x_F = b_F - A_{FN} A_{NN}^{-1} b_N,

a sparse triangular solve with :math:`|F| + 1` right-hand sides (its cost grows with
the component's moves, not with :math:`|N|^2`) and a dense :math:`|F| \times |F|` one,
instead of a solve of the whole component.
"""

from __future__ import annotations

import warnings
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import Any

import numpy as np

from ...util.arrays import ranges
from ...util.rounding import error_bounds

__all__ = [
    "FEEDBACK_LIMIT",
    "SMALL_GRAPH",
    "ComponentTable",
    "GraphArrays",
    "choice_sums",
    "first_maxima",
    "one_blas_thread",
]

#: Acyclic parts of at most this many states are held as a dense matrix (a dense
#: triangular solve costs :math:`|N|^2` operations per right-hand side, a sparse one
#: more per call, but in proportion to the moves).
DENSE_LIMIT = 400
#: Graphs of at most this many states are solved without scipy's BLAS controls and
#: ordered by Tarjan's algorithm in Python (:mod:`.order`): a first solve in a process
#: then does not load scipy (0.2 s) for a few milliseconds of work.
SMALL_GRAPH = 200
#: Components whose feedback set has more states than this are evaluated by one sparse
#: LU of the whole instead (the block elimination holds :math:`|N| \times |F|` floats
#: and makes :math:`|F| + 1` triangular solves).
FEEDBACK_LIMIT = 64


@cache
def _blas() -> Any:
    """The BLAS libraries of numpy and scipy (each wheel brings its own OpenBLAS), found
    once (milliseconds): scipy's is loaded first, since a controller made before
    ``scipy.linalg`` is imported would not see it, and its solves would run threaded."""
    import scipy.linalg  # noqa: F401
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread(states: int | None = None) -> AbstractContextManager[Any]:
    """A context in which BLAS uses one thread: the component matrices are small, and
    threads waiting for a busy core cost more than they save. A graph of at most
    :data:`SMALL_GRAPH` ``states`` gets no context: its matrices are too small for BLAS to
    thread, and finding scipy's BLAS would load it (a tenth of a second) for nothing."""
    if states is not None and states <= SMALL_GRAPH:
        return nullcontext()
    context: AbstractContextManager[Any] = _blas().limit(limits=1, user_api="blas")
    return context


def choice_sums(
    terms: np.ndarray, edge_choice: np.ndarray, n_choices: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each choice's sum of its edges' ``terms`` (``edge_choice[e]``: the choice of edge
    ``e``), and the sum of their absolute values (for :func:`~exactprob.util.rounding.error_bounds`).

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

    def __init__(
        self,
        arrays: GraphArrays,
        order: list[int],
        feedback: int,
        member: np.ndarray | None = None,
    ) -> None:
        states = np.asarray(order, dtype=np.int64)
        n = len(states)
        self.n, self.n_acyclic = n, n - feedback
        self.columns = None if member is None else _feedback_columns(member, n - feedback)
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
        # in a small graph, scipy is not loaded for the triangular solves (_Blocks)
        self.small_graph = len(arrays.local) <= SMALL_GRAPH
        self._kept: _Factors | None = None  # the last policy evaluated, factored

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
        values: np.ndarray = np.where(
            self.inside, x[np.maximum(self.edge_local, 0)], outside[self.edge_target]
        )
        return values

    def action_values(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every choice's float value :math:`\\sum p\\,v` from the edge values, and the
        sum of its absolute terms."""
        return choice_sums(self.edge_prob * values, self.edge_choice, self.n_choices)

    def candidates(self, outside: np.ndarray, x: np.ndarray) -> list[bool] | None:
        """For every choice, whether the floats leave it a candidate for its state's
        best: the float-best choice of each state, and each choice that the floats
        cannot prove worse (:func:`~exactprob.engine._internal.choose.float_candidates`
        for all states at once, with the bound from the terms' absolute values, never
        the tighter one for values known to be at least 0); ``outside`` and ``x`` are
        float values of the exact ones, outside (global) and inside (local). ``None``
        when a value is not finite.

        The sums run in another order than a Python loop's, which the bound allows: it
        holds for any order of summation.
        """
        q, magnitude = self.action_values(self.edge_values(outside, x))
        if not np.all(np.isfinite(q)):
            return None
        error = error_bounds(self.edge_counts, magnitude)
        signed = q * self.sign[self.owner]
        _, best = first_maxima(signed, self.first[:-1], self.owner)
        best_of_owner = best[self.owner]
        worse = signed[best_of_owner] - signed > (error + error[best_of_owner]) * 1.001
        chosen: list[bool] = (~worse | (np.arange(self.n_choices) == best_of_owner)).tolist()
        return chosen

    def _policy_entries(self, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and probabilities of the entries of :math:`P^\\pi_{SS}`."""
        row_of_choice = np.full(self.n_choices, -1)
        row_of_choice[policy] = np.arange(self.n)
        rows = row_of_choice[self.edge_choice]
        keep = (rows >= 0) & self.inside
        return rows[keep], self.edge_local[keep], self.edge_prob[keep]

    def inside_values(self, x: np.ndarray) -> np.ndarray:
        """Each choice's float value from its edges inside the component, ``x`` local."""
        terms = self.edge_prob * np.where(self.inside, x[np.maximum(self.edge_local, 0)], 0.0)
        return np.bincount(self.edge_choice, weights=terms, minlength=self.n_choices)

    def exit_values(self, outside: np.ndarray) -> np.ndarray:
        """Each choice's float value from its edges leaving the component."""
        terms = np.where(self.inside, 0.0, self.edge_prob * outside[self.edge_target])
        return np.bincount(self.edge_choice, weights=terms, minlength=self.n_choices)

    def evaluate(self, policy: np.ndarray, exit_value: np.ndarray) -> np.ndarray:
        """Float values of the component under ``policy`` (block elimination, above; one
        sparse LU of the whole when the feedback set has more than
        :data:`FEEDBACK_LIMIT` states), with ``exit_value`` per choice
        (:meth:`exit_values`). The last policy's factors are kept: evaluating it again
        (other exits, or the expected steps) costs one triangular solve."""
        b = exit_value[policy]
        if self.n - self.n_acyclic > FEEDBACK_LIMIT:
            return self._evaluate_sparse(policy, b)
        return self._factors(policy).solve(b)

    def _evaluate_sparse(self, policy: np.ndarray, b: np.ndarray) -> np.ndarray:
        """:meth:`evaluate` by scipy's sparse LU (SuperLU) on :math:`I - P^\\pi_{SS}`; a
        policy that stays in the component forever makes it singular, and the values
        not finite (the callers check), with no warning on stderr."""
        from scipy.sparse import csc_array
        from scipy.sparse.linalg import MatrixRankWarning, spsolve

        rows, columns, entries = self._matrix_entries(policy)
        A = csc_array((entries, (rows, columns)), shape=(self.n, self.n))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MatrixRankWarning)
            return np.asarray(spsolve(A, b), dtype=np.float64)

    def evaluate_acyclic(
        self, policy: np.ndarray, exit_value: np.ndarray, x_feedback: np.ndarray
    ) -> np.ndarray:
        """Float values of the acyclic part under ``policy`` with the feedback states'
        values fixed at ``x_feedback``; the whole local vector."""
        blocks = self._factors(policy).blocks
        b = exit_value[policy][: self.n_acyclic]
        x_n = blocks.solve_acyclic(b - blocks.NF @ x_feedback)
        return np.concatenate((x_n, x_feedback))

    def _factors(self, policy: np.ndarray) -> _Factors:
        """The block elimination of ``policy``'s matrix, made once per policy in a row."""
        kept = self._kept
        if kept is None or not np.array_equal(kept.policy, policy):
            kept = self._kept = _Factors(self, policy)
        return kept

    def _matrix_entries(self, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and values of :math:`A = I - P^\\pi_{SS}`, a repeated position
        to be summed (the unit diagonal's entries last)."""
        rows, columns, probs = self._policy_entries(policy)
        diagonal = np.arange(self.n)
        return (
            np.concatenate((rows, diagonal)),
            np.concatenate((columns, diagonal)),
            np.concatenate((-probs, np.ones(self.n))),
        )


class _Blocks:
    """:math:`A = I - P^\\pi_{SS}` of a component split at its feedback set: ``NN``
    (unit lower triangular, the elimination order's) dense up to :data:`DENSE_LIMIT`
    states, else sparse; ``NF``, ``FN`` and ``FF`` dense (the feedback set is small)."""

    __slots__ = ("FF", "FN", "NF", "NN", "small_graph")

    def __init__(self, table: ComponentTable, policy: np.ndarray) -> None:
        k, n = table.n_acyclic, table.n
        self.small_graph = table.small_graph
        self.NN: Any
        if k <= DENSE_LIMIT:  # one dense matrix, and its blocks as views
            rows, columns, probs = table._policy_entries(policy)
            A = np.eye(n)
            np.subtract.at(A, (rows, columns), probs)
            self.NN, self.NF, self.FN, self.FF = A[:k, :k], A[:k, k:], A[k:, :k], A[k:, k:]
            return
        from scipy.sparse import csr_array

        rows, columns, entries = table._matrix_entries(policy)

        row_in_n, column_in_n = rows < k, columns < k
        nn = row_in_n & column_in_n
        self.NN = csr_array((entries[nn], (rows[nn], columns[nn])), shape=(k, k))
        self.NF, self.FN, self.FF = (
            np.zeros((k, n - k)),
            np.zeros((n - k, k)),
            np.zeros((n - k, n - k)),
        )
        for block, at, row_offset, column_offset in (
            (self.NF, row_in_n & ~column_in_n, 0, k),
            (self.FN, ~row_in_n & column_in_n, k, 0),
            (self.FF, ~row_in_n & ~column_in_n, k, k),
        ):
            np.add.at(block, (rows[at] - row_offset, columns[at] - column_offset), entries[at])

    def solve_acyclic(self, right: np.ndarray) -> np.ndarray:
        """:math:`A_{NN}^{-1}` ``right``: a triangular solve, dense (LAPACK's) or sparse
        (SuperLU's). In a graph of at most :data:`SMALL_GRAPH` states by numpy's LU,
        which loads no scipy (a tenth of a second on a first solve, for microseconds of
        work): every entry below the unit diagonal is a probability's negative, at most
        1 in size, so partial pivoting keeps the diagonal (LAPACK takes the first of
        equal pivots) and the LU is forward substitution."""
        if right.shape[0] == 0:
            return right
        if isinstance(self.NN, np.ndarray):
            if self.small_graph:
                return np.linalg.solve(self.NN, right)
            from scipy.linalg import solve_triangular

            solved: np.ndarray = solve_triangular(
                self.NN, right, lower=True, unit_diagonal=True, check_finite=False
            )
            return solved
        from scipy.sparse.linalg import spsolve_triangular

        x = spsolve_triangular(self.NN, right, lower=True, unit_diagonal=True, overwrite_b=True)
        return np.asarray(x, dtype=np.float64)


def _feedback_columns(member: np.ndarray, acyclic: int) -> np.ndarray:
    """For a batch of components (``member[i]``: the component of local state ``i``; the
    feedback states last, grouped by component), each acyclic state's feedback columns:
    row ``i`` lists the feedback states of ``i``'s component (positions in the feedback
    set), padded with ``|F|``, which stands for a zero.

    >>> _feedback_columns(np.array([0, 1, 1, 0, 1, 1]), 3).tolist()
    [[0, 3], [1, 2], [1, 2]]
    """
    feedback_member = member[acyclic:]
    f = len(feedback_member)
    slot = np.arange(f) - np.searchsorted(feedback_member, feedback_member)
    columns = np.full((int(member.max(initial=0)) + 1, int(slot.max(initial=0)) + 1), f)
    columns[feedback_member, slot] = np.arange(f)
    compact: np.ndarray = columns[member[:acyclic]]
    return compact


class _Factors:
    """A policy's block elimination: its :class:`_Blocks`, and after the first solve
    :math:`Z = A_{NN}^{-1} A_{NF}` and the Schur complement :math:`A_{FF} - A_{FN} Z`,
    from which each further right-hand side costs one triangular solve and a dense
    :math:`|F| \\times |F|` one. For a batch of components (``table.columns``), a row of
    :math:`Z` is nonzero only at its own component's feedback states: :math:`Z` is kept
    compact, one column per feedback state of the largest feedback set."""

    __slots__ = ("Z", "blocks", "columns", "policy", "schur")

    def __init__(self, table: ComponentTable, policy: np.ndarray) -> None:
        self.policy = policy.copy()
        self.blocks = _Blocks(table, policy)
        self.columns = table.columns
        self.Z: np.ndarray | None = None
        self.schur: np.ndarray | None = None

    def solve(self, b: np.ndarray) -> np.ndarray:
        """:math:`x` with :math:`A x = b`."""
        blocks = self.blocks
        k = blocks.NF.shape[0]
        if self.Z is None or self.schur is None:  # Z with the first right-hand side
            Y = blocks.solve_acyclic(np.column_stack((b[:k], self._right())))
            z, self.Z = Y[:, 0], Y[:, 1:]
            self.schur = self._schur()
        else:
            z = blocks.solve_acyclic(b[:k].copy())
        x_f = np.linalg.solve(self.schur, b[k:] - blocks.FN @ z)
        if self.columns is None:
            return np.concatenate((z - self.Z @ x_f, x_f))
        padded = np.append(x_f, 0.0)[self.columns]
        return np.concatenate((z - np.einsum("ij,ij->i", self.Z, padded), x_f))

    def _right(self) -> np.ndarray:
        """:math:`A_{NF}`, compact for a batch."""
        NF = self.blocks.NF
        if self.columns is None:
            return NF
        padded = np.column_stack((NF, np.zeros(len(NF))))
        return np.take_along_axis(padded, self.columns, axis=1)

    def _schur(self) -> np.ndarray:
        """:math:`A_{FF} - A_{FN} Z`, from the compact :math:`Z` for a batch."""
        blocks, Z = self.blocks, self.Z
        assert Z is not None
        if self.columns is None:
            dense: np.ndarray = blocks.FF - blocks.FN @ Z
            return dense
        schur = np.array(blocks.FF, dtype=np.float64)
        rows, inner = np.nonzero(blocks.FN)  # a feedback state's moves into N
        targets = self.columns[inner]  # the feedback columns of each such move's row
        terms = blocks.FN[rows, inner][:, None] * Z[inner]
        real = targets < len(schur)
        np.subtract.at(
            schur, (np.broadcast_to(rows[:, None], targets.shape)[real], targets[real]), terms[real]
        )
        return schur
