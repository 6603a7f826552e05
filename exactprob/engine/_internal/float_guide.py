r"""Policy iteration in floats for a cyclic component: the exact solver's starting guess.

For a strongly connected component :math:`S` whose exits are solved, and a policy
:math:`\pi`, the values solve :math:`(I - P^\pi_{SS})\,x = r^\pi`, where :math:`r^\pi` holds
each state's exit contributions :math:`\sum_{t \notin S} P(t \mid s, \pi(s))\,V(t)`. Here
that runs in numpy floats on the component's table
(:class:`~exactprob.engine._internal.component_table.ComponentTable`: a triangular solve and a small
dense one per evaluation), a switch only on an improvement larger than a relative
tolerance. With two players, both first switch at once, for at most
:data:`SIMULTANEOUS` evaluations (the iteration of Pollatschek and Avi-Itzhak, 1969:
often a few evaluations, as in Pig's components, but it can cycle, or reach a pair of
strategies under which play never ends, whose evaluation is singular); if that has not
settled, the same strategy iteration as the exact solver takes over (Hoffman and Karp,
1966: player 1's best response inside every improvement step of player 0), from the
start if the simultaneous steps failed. Where it
settles, neither player has a better action, which is where Hoffman-Karp iteration
ends too. Nothing here is trusted: the exact solver
checks the policy it is given (:mod:`exactprob.engine._internal.certify`) and keeps improving until an
exact optimality check passes, so a poor guess costs time, never correctness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .component_table import ComponentTable, first_maxima

__all__ = ["FloatStrategy", "float_guess", "float_strategy"]

#: Improvement rounds before the guess is handed over as it is.
MAX_ROUNDS = 100
#: Rounds in which both players improve at once, before Hoffman-Karp iteration.
SIMULTANEOUS = 8
#: A switch needs a float improvement above this, relative to the values' size.
TOLERANCE = 1e-12


class FloatStrategy(NamedTuple):
    """A policy (choice numbers) and, when the iteration ended by evaluating it, its
    float values (local), else ``None``."""

    policy: np.ndarray
    values: np.ndarray | None


def float_strategy(
    table: ComponentTable, start: np.ndarray, outside: np.ndarray, tolerance: float = TOLERANCE
) -> FloatStrategy | None:
    """An (approximately) optimal policy for the component of ``table``, from float
    strategy iteration starting at the terminating policy ``start``, with the float
    values ``outside`` of the states it can move to; ``None`` when the floats go out of
    range. A switch needs an improvement above ``tolerance`` relative to the values'
    size."""
    with np.errstate(all="ignore"):
        try:
            iteration = _Iteration(table, outside, tolerance)
            policy = iteration.strategy(start.copy())
        except (np.linalg.LinAlgError, FloatingPointError, _NoGuess):
            return None
        return FloatStrategy(policy, iteration.values_of(policy))


def float_guess(
    table: ComponentTable,
    outside: np.ndarray,
    terminating: Callable[[], np.ndarray],
    tolerance: float = TOLERANCE,
) -> FloatStrategy:
    """The float strategy from the first actions, or, when the floats fail there, from
    the terminating policy ``terminating()`` (choice numbers); that policy itself when
    the floats fail from it too."""
    guess = float_strategy(table, table.first[:-1], outside, tolerance)
    if guess is None:
        start = terminating()
        guess = float_strategy(table, start, outside, tolerance)
        if guess is None:
            return FloatStrategy(start, None)
    return guess


class _NoGuess(Exception):
    """The float iteration went out of range (an infinite or undefined value)."""


class _Iteration:
    """Hoffman-Karp strategy iteration on one component's table."""

    def __init__(self, table: ComponentTable, outside: np.ndarray, tolerance: float) -> None:
        self.table, self.tolerance = table, tolerance
        self.exit_value = table.exit_values(outside)
        if not np.all(np.isfinite(self.exit_value)):
            raise _NoGuess
        deciders = np.flatnonzero(np.diff(table.first) > 1)
        self.inner = deciders[table.sign[deciders] < 0]
        self.outer = deciders[table.sign[deciders] > 0]
        self.last: tuple[np.ndarray, np.ndarray] | None = None  # policy and its values

    def evaluate(self, policy: np.ndarray) -> np.ndarray:
        x = self.table.evaluate(policy, self.exit_value)
        if not np.all(np.isfinite(x)):
            raise _NoGuess
        self.last = (policy.copy(), x)
        return x

    def values_of(self, policy: np.ndarray) -> np.ndarray | None:
        """The values of the last evaluation, if it was of ``policy``."""
        if self.last is None or not np.array_equal(self.last[0], policy):
            return None
        return self.last[1]

    def improve(self, policy: np.ndarray, x: np.ndarray, movers: np.ndarray) -> bool:
        """Switch every state in ``movers`` to its best choice when that is better by
        more than the tolerance; report whether any switched."""
        table = self.table
        q = self.exit_value + table.inside_values(x)
        signed = q * table.sign[table.owner]
        scale = 1.0 + np.abs(x).max(initial=0.0)
        best_value, best = first_maxima(signed, table.first[:-1], table.owner)
        switch = np.zeros(table.n, dtype=bool)
        switch[movers] = True
        switch &= best_value > signed[policy] + self.tolerance * scale
        policy[switch] = best[switch]
        return bool(switch.any())

    def strategy(self, policy: np.ndarray) -> np.ndarray:
        if len(self.inner) and len(self.outer):
            # both players improving at once usually settles in a few evaluations, but
            # may cycle, or reach a pair of strategies that never ends (a singular or
            # infinite evaluation); it is given a few rounds, then Hoffman-Karp takes
            # over, from the start in the second case
            start = policy.copy()
            try:
                if self._settled(policy, np.concatenate((self.inner, self.outer)), SIMULTANEOUS):
                    return policy
            except (np.linalg.LinAlgError, FloatingPointError, _NoGuess):
                policy[:] = start
            for _ in range(MAX_ROUNDS):
                x = self._best_response(policy, self.inner)
                if not self.improve(policy, x, self.outer):
                    break
        else:
            self._best_response(policy, np.concatenate((self.inner, self.outer)))
        return policy

    def _best_response(self, policy: np.ndarray, movers: np.ndarray) -> np.ndarray:
        x = self.evaluate(policy)
        for _ in range(MAX_ROUNDS):
            if not self.improve(policy, x, movers):
                break
            x = self.evaluate(policy)
        return x

    def _settled(self, policy: np.ndarray, movers: np.ndarray, rounds: int) -> bool:
        """Improve ``movers`` together for at most ``rounds`` evaluations; report whether
        none of them then has a better action."""
        for _ in range(rounds):
            if not self.improve(policy, self.evaluate(policy), movers):
                return True
        return False
