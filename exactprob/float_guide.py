r"""Policy iteration in floats for a cyclic component: the exact solver's starting guess.

For a strongly connected component :math:`S` whose exits are solved, and a policy
:math:`\pi`, the values solve :math:`(I - P^\pi_{SS})\,x = r^\pi`, where :math:`r^\pi` holds
each state's exit contributions :math:`\sum_{t \notin S} P(t \mid s, \pi(s))\,V(t)`. Here
that runs in numpy floats (a dense solve; components above :data:`DENSE_LIMIT` states get
no guess), with the same strategy iteration as the exact solver: player 1's best
response inside every improvement step of player 0, a switch only on an improvement
larger than a relative tolerance. Nothing here is trusted: the exact solver starts from
this policy, evaluates it exactly and keeps improving until its exact optimality check
passes, so a poor guess costs time, never correctness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["DENSE_LIMIT", "float_strategy"]

#: Largest component given a float guess (a dense n-by-n solve per evaluation).
DENSE_LIMIT = 1500
#: Improvement rounds before the guess is handed over as it is.
MAX_ROUNDS = 100
#: A switch needs a float improvement above this, relative to the values' size.
TOLERANCE = 1e-12


def float_strategy(
    system: Any, cycle: Any, deciders: Sequence[int], approx: Sequence[float]
) -> dict[int, int]:
    """An (approximately) optimal action index for every decider of the component
    ``cycle``, from float strategy iteration; ``{}`` when there is no float guess."""
    component = cycle.component
    if len(component) > DENSE_LIMIT:
        return {}
    with np.errstate(all="ignore"):
        try:
            table = _ChoiceTable(system, cycle, approx)
            return table.strategy(deciders)
        except (np.linalg.LinAlgError, FloatingPointError, _NoGuess):
            return {}


class _NoGuess(Exception):
    """The float iteration went out of range (an infinite or undefined value)."""


class _ChoiceTable:
    """Every choice of the component's states, with its exit value and inside edges."""

    def __init__(self, system: Any, cycle: Any, approx: Sequence[float]) -> None:
        position = cycle.position
        cs, es = system.choice_start, system.edge_start
        targets, probs = system.targets, system.float_probs
        players = system.graph.players
        n = len(cycle.component)
        first: list[int] = []  # first choice (local numbering) of each state
        exit_value: list[float] = []
        rows: list[int] = []
        cols: list[int] = []
        weights: list[float] = []
        for s in cycle.component:
            first.append(len(exit_value))
            for c in range(cs[s], cs[s + 1]):
                r = 0.0
                for e in range(es[c], es[c + 1]):
                    j = position.get(targets[e])
                    if j is None:
                        r += probs[e] * approx[targets[e]]
                    else:
                        rows.append(len(exit_value))
                        cols.append(j)
                        weights.append(probs[e])
                exit_value.append(r)
        first.append(len(exit_value))
        self.n = n
        self.first = np.array(first)
        self.exit_value = np.array(exit_value)
        if not np.all(np.isfinite(self.exit_value)):
            raise _NoGuess
        self.rows = np.array(rows, dtype=np.int64)
        self.cols = np.array(cols, dtype=np.int64)
        self.weights = np.array(weights)
        self.sign = np.array([1.0 if players[s] == 0 else -1.0 for s in cycle.component])
        self.owner = np.repeat(np.arange(n), np.diff(self.first))
        self.cycle = cycle

    def evaluate(self, policy: np.ndarray) -> np.ndarray:
        """Values of the component under ``policy`` (local choice numbers per state)."""
        chosen = np.zeros(len(self.exit_value), dtype=bool)
        chosen[policy] = True
        keep = chosen[self.rows]
        choice_row = np.full(len(self.exit_value), -1)
        choice_row[policy] = np.arange(self.n)
        A = np.eye(self.n)
        np.add.at(A, (choice_row[self.rows[keep]], self.cols[keep]), -self.weights[keep])
        x = np.linalg.solve(A, self.exit_value[policy])
        if not np.all(np.isfinite(x)):
            raise _NoGuess
        return x

    def improve(self, policy: np.ndarray, x: np.ndarray, movers: np.ndarray) -> bool:
        """Switch every state in ``movers`` to its best choice when that is better by
        more than the tolerance; report whether any switched."""
        q = self.exit_value + np.bincount(
            self.rows, weights=self.weights * x[self.cols], minlength=len(self.exit_value)
        )
        signed = q * self.sign[self.owner]
        scale = 1.0 + np.abs(x).max(initial=0.0)
        changed = False
        for i in movers:
            lo, hi = self.first[i], self.first[i + 1]
            best = lo + int(np.argmax(signed[lo:hi]))
            if signed[best] > signed[policy[i]] + TOLERANCE * scale:
                policy[i] = best
                changed = True
        return changed

    def strategy(self, deciders: Sequence[int]) -> dict[int, int]:
        movers = [self.cycle.position[s] for s in deciders]
        inner = np.array([i for i in movers if self.sign[i] < 0], dtype=np.int64)
        outer = np.array([i for i in movers if self.sign[i] > 0], dtype=np.int64)
        start = self.cycle.terminating_start({})
        policy = np.array([self.first[i] + start[s] for i, s in enumerate(self.cycle.component)])
        if len(inner) and len(outer):
            for _ in range(MAX_ROUNDS):
                x = self._best_response(policy, inner)
                if not self.improve(policy, x, outer):
                    break
        else:
            self._best_response(policy, np.array(movers, dtype=np.int64))
        component = self.cycle.component
        return {component[i]: int(policy[i] - self.first[i]) for i in movers}

    def _best_response(self, policy: np.ndarray, movers: np.ndarray) -> np.ndarray:
        x = self.evaluate(policy)
        for _ in range(MAX_ROUNDS):
            if not self.improve(policy, x, movers):
                break
            x = self.evaluate(policy)
        return x
