r"""Gambler's ruin: the smallest cyclic game, solved exactly and in closed form.

A gambler holds ``start`` units and bets one unit at a time, winning each bet with
probability :math:`p`, until reaching ``goal`` (outcome 1) or 0 (outcome 0). With
:math:`\rho = (1-p)/p \ne 1`,

.. math::

    P(\text{reach goal} \mid i) = \frac{\rho^{\,i} - 1}{\rho^{N} - 1},
    \qquad p = \tfrac12:\ \frac{i}{N}.

>>> from exactprob import solve
>>> solve(GamblersRuin(goal=5, start=2, p="2/5")).value()
Fraction(40, 211)
>>> closed_form(5, 2, "2/5")
40/211
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import Dist, Runs
from ..errors import ModelError
from ..util.numbers import exact, is_symbolic, to_sympy

__all__ = ["GamblersRuin", "SimulatedRuin", "closed_form", "simulate_ruin"]


class GamblersRuin:
    """The chain on ``0..goal``; states are the gambler's fortune."""

    def __init__(self, goal: int, start: int, p: Any = "1/2") -> None:
        if isinstance(goal, bool) or not isinstance(goal, int) or goal < 1:
            raise ModelError(f"goal must be a whole number >= 1, got {goal!r}")
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= goal:
            raise ModelError(f"start must be a whole number from 0 to goal={goal}, got {start!r}")
        q = exact(p)
        if not is_symbolic(q) and not 0 < q < 1:
            raise ModelError(f"p must lie strictly between 0 and 1, got {p}")
        self.goal, self.initial, self.p = goal, start, q

    def outcome(self, fortune: int) -> int | None:
        if fortune == self.goal:
            return 1
        return 0 if fortune == 0 else None

    def actions(self, fortune: int) -> tuple[str]:
        return ("bet",)

    def transition(self, fortune: int, action: str) -> Dist[int]:
        return Dist({fortune + 1: self.p, fortune - 1: 1 - self.p})


def closed_form(goal: int, start: int, p: Any) -> Any:
    """The textbook ruin formula as a sympy expression (``p`` may be a symbol)."""
    import sympy

    prob = to_sympy(exact(p))
    rho = (1 - prob) / prob
    if prob == sympy.Rational(1, 2):
        return sympy.Rational(start, goal)
    return sympy.factor(sympy.cancel((rho**start - 1) / (rho**goal - 1)))


@dataclass(frozen=True, eq=False)
class SimulatedRuin(Runs):
    """Simulated plays: the gambler's fortune at the end of each (0 or the goal); the
    :attr:`result` is reaching the goal."""

    fortune: np.ndarray
    goal: int

    @property
    def result(self) -> np.ndarray:
        """Whether each play reached the goal."""
        return self.fortune == self.goal


def simulate_ruin(goal: int, start: int, p: float, n: int, *, seed: int) -> SimulatedRuin:
    """``n`` plays to their ends: a vectorised numpy walk written from the rules,
    independent of the model above.

    >>> simulate_ruin(5, 2, 0.4, 20_000, seed=1).agrees_with(closed_form(5, 2, "2/5"))
    True
    """
    rng = np.random.default_rng(seed)
    fortune = np.full(n, start)
    active = (fortune > 0) & (fortune < goal)
    while active.any():
        steps = np.where(rng.random(active.sum()) < p, 1, -1)
        fortune[active] += steps
        active = (fortune > 0) & (fortune < goal)
    return SimulatedRuin(fortune, goal)
