r"""Certifying a cyclic component's policy in floats, from exact feedback values.

The exact solver knows the exact values :math:`x_F` of a component's feedback states
and :math:`v_O` of the states it can move to, for a policy :math:`\pi`. The values of
the acyclic part :math:`N` follow from those (:mod:`exactprob.engine._internal.component_table`); here
they are computed in floats, :math:`\hat x_N`, with a rigorous bound on their error, and
every action's value :math:`Q(s, a)` is compared with the policy's in floats.

*The bound.* The exact :math:`x_N` solves :math:`A_{NN} x_N = b_N - A_{NF} x_F`, so with
the residual :math:`r = b_N - A_{NF} x_F - A_{NN} \hat x_N` (exact arithmetic),
:math:`x_N - \hat x_N = A_{NN}^{-1} r`. The matrix
:math:`A_{NN}^{-1} = \sum_k (P^\pi_{NN})^k` is non-negative and its row sums are the
expected numbers of steps spent in :math:`N`, at most :math:`|N|` because no path in
the acyclic part visits a state twice. Each :math:`r_i = \sum_e p_e v_e - \hat x_i` is a
dot product of :math:`n_i + 1` terms, whose float value errs by at most
:func:`~exactprob.util.rounding.error_bound` (any order of summation). Hence

.. math::

    \max_{i \in N} |x_i - \hat x_i| \le \delta =
    |N| \max_i \bigl(|\hat r_i| + \mathrm{bound}_i\bigr),

and a float action value errs by at most its own dot-product bound plus :math:`\delta`
(its probabilities sum to one). An action is *certainly worse* than the policy's when
the float gap exceeds both errors, *certainly better* when the opposite gap does, and
*near* otherwise; near actions are compared exactly by the caller.

>>> SAFETY > 1
True
"""

from __future__ import annotations

import numpy as np

from ...util.rounding import SAFETY, error_bounds
from .component_table import ComponentTable

__all__ = ["near_choices"]


def near_choices(
    table: ComponentTable, policy: np.ndarray, outside: np.ndarray, x_feedback: np.ndarray
) -> dict[int, list[int]] | None:
    """The choices the floats cannot separate from ``policy``'s, by local state
    (``{}``: the policy is certified optimal); ``None`` when some choice is certainly
    better, or the bound is not finite.

    ``outside`` holds the floats of the exact values of the states outside the
    component, ``x_feedback`` those of the feedback states (both rounded to nearest).
    """
    with np.errstate(all="ignore"):
        x = table.evaluate_acyclic(policy, table.exit_values(outside), x_feedback)
        q, magnitude = table.action_values(table.edge_values(outside, x))
        bound = error_bounds(table.edge_counts, magnitude)
        k = table.n_acyclic
        chosen = policy[:k]
        residual = np.abs(q[chosen] - x[:k]) + error_bounds(
            table.edge_counts[chosen] + 1, magnitude[chosen] + np.abs(x[:k])
        )
        drift = k * residual.max(initial=0.0) * SAFETY
        if not np.isfinite(drift):
            return None
        owner = table.owner
        current = policy[owner]
        gap = table.sign[owner] * (q - q[current])
        tolerance = (bound + bound[current] + 2 * drift) * (1.001 * SAFETY)
        other = (np.diff(table.first) > 1)[owner] & (np.arange(len(q)) != current)
        if np.any(other & ~(gap <= tolerance)):  # certainly better, or not a number
            return None
        near = np.flatnonzero(other & (gap >= -tolerance))
    found: dict[int, list[int]] = {}
    for c in near.tolist():
        i = int(owner[c])
        found.setdefault(i, []).append(c - int(table.first[i]))
    return found
