r"""The paper's nine luck heuristics, evaluated exactly, and the fold increase of luck.

Heuristic :math:`n` with threshold :math:`\tau` tests luck only while the current luck is
at least :math:`\tau` (:math:`1 \le \tau \le 12`), and then when its condition holds
(:math:`h`, :math:`o` the staminas before the round's damage):

==  ===================================
0   never
1   after every won or lost round
2   after a lost round
3   after a won round
4   after a lost round, if :math:`h < 6`
5   after a won round, if :math:`o > 6`
6   after any round, if :math:`h < 6`
7   after any round, if :math:`h < 4`
8   after any round, if :math:`o > h`
==  ===================================

The paper simulated each heuristic :math:`10^4` times; here each is a fixed policy whose
value is the same backward sweep as the optimum without the maximum, so every state's
value is exact, and so is its gap to the optimum.

>>> policy = heuristic(3, 6)
>>> bool(policy(True, 10, 10, 6, False)), bool(policy(False, 10, 10, 6, False)), bool(policy(True, 10, 10, 5, False))
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import ModelError
from ...util.numbers import whole_number
from .grid import FightGrid, solve_grid
from .terms import Fight, LuckPolicy

__all__ = [
    "HEURISTICS",
    "MAX_TAU",
    "PAIRS",
    "BestHeuristic",
    "Fold",
    "best_heuristics",
    "fold_increases",
    "heuristic",
]

#: The largest luck threshold of a heuristic (a luck test succeeds at most on 12).
MAX_TAU = 12

#: Heuristic number -> (description, condition on (won, hero, opponent)); the conditions
#: use ``&``, ``|`` and ``~`` so that they work on numpy arrays as well as on scalars.
HEURISTICS: dict[int, tuple[str, Callable[[Any, Any, Any], Any]]] = {
    0: ("never", lambda won, h, o: won & False),
    1: ("every won or lost round", lambda won, h, o: won | True),
    2: ("lost rounds", lambda won, h, o: _lost(won)),
    3: ("won rounds", lambda won, h, o: won & True),
    4: ("lost rounds while hero stamina < 6", lambda won, h, o: _lost(won) & (h < 6)),
    5: ("won rounds while opponent stamina > 6", lambda won, h, o: won & (o > 6)),
    6: ("any round while hero stamina < 6", lambda won, h, o: h < 6),
    7: ("any round while hero stamina < 4", lambda won, h, o: h < 4),
    8: ("any round while opponent stamina > hero stamina", lambda won, h, o: o > h),
}


def _lost(won: Any) -> Any:
    """``not won`` for a bool, elementwise for an array."""
    return (not won) if isinstance(won, bool) else ~won


def heuristic(number: int, tau: int) -> LuckPolicy:
    """Heuristic ``number`` (a key of :data:`HEURISTICS`, 0-8) with luck threshold ``tau``
    (1 to :data:`MAX_TAU`) as a policy."""
    whole_number("heuristic", number, 0, len(HEURISTICS) - 1)
    whole_number("tau", tau, 1, MAX_TAU)
    condition = HEURISTICS[number][1]

    def policy(won: Any, hero: Any, opponent: Any, luck: Any, streak: Any) -> Any:
        return condition(won, hero, opponent) & (luck >= tau)

    policy.__name__ = policy.__qualname__ = f"heuristic_{number}_tau_{tau}"
    return policy


#: Every (heuristic, tau) pair worth evaluating: heuristic 0 does not depend on tau.
PAIRS = ((0, 1),) + tuple((n, tau) for n in range(1, 9) for tau in range(1, 13))


@dataclass(frozen=True)
class BestHeuristic:
    """The best heuristic of one state: the first best (number, tau) in the order of
    :data:`PAIRS`, its exact value, its gap to the optimum, and every pair tied with it."""

    number: int
    tau: int
    value: Fraction
    gap: Fraction
    tied: tuple[tuple[int, int], ...]


def _grids(fight: Fight) -> dict[tuple[int, int], FightGrid]:
    """One evaluated grid per (heuristic, tau) of :data:`PAIRS` (luck above 12 would
    need larger thresholds, so the grid's luck is capped at 12)."""
    if fight.luck > 12:
        raise ModelError("heuristics are defined for luck 0..12 (their thresholds are 1..12)")
    return {pair: solve_grid(fight, policy=heuristic(*pair)) for pair in PAIRS}


def best_heuristics(
    fight: Fight,
) -> tuple[dict[tuple[int, int, int], BestHeuristic], dict[int, dict[int, int]]]:
    """For every state of the fight's grid: the best heuristic and its gap to the optimum;
    and per heuristic 1-8, the histogram {tau: number of states where that tau is best
    for it}, over the states where tau changes the heuristic's value (the smallest best
    tau on ties). Where several heuristics tie, ``number``/``tau`` is the first in
    :data:`PAIRS` order and ``tied`` lists them all.

    >>> best, taus = best_heuristics(Fight(0, 4, 4, 12))
    >>> best[(4, 4, 12)].gap >= 0, 0 < sum(taus[3].values()) < 4 * 4 * 13
    (True, True)
    """
    grids = _grids(fight)
    optimum = solve_grid(fight)
    best: dict[tuple[int, int, int], BestHeuristic] = {}
    histograms: dict[int, dict[int, int]] = {n: dict.fromkeys(range(1, 13), 0) for n in range(1, 9)}
    for state in optimum.states():
        values = {pair: grid.value(*state) for pair, grid in grids.items()}
        top = max(values.values())
        tied = tuple(pair for pair, v in values.items() if v == top)
        best[state] = BestHeuristic(*tied[0], top, optimum.value(*state) - top, tied)
        for n, histogram in histograms.items():
            by_tau = [values[(n, t)] for t in range(1, 13)]
            if min(by_tau) < max(by_tau):  # states where tau makes no difference are skipped
                histogram[1 + by_tau.index(max(by_tau))] += 1
    return best, histograms


@dataclass(frozen=True)
class Fold:
    """A state whose optimal use of luck multiplies the chance of victory by ``fold``
    (from ``initial`` without luck to ``final`` with it)."""

    delta: int
    state: tuple[int, int, int]
    initial: Fraction
    final: Fraction

    @property
    def fold(self) -> Fraction:
        return self.final / self.initial


def fold_increases(
    grids: dict[int, FightGrid], floor: Fraction = Fraction(1, 100)
) -> dict[str, Fold]:
    """The states with the largest fold increase, optimal luck over no luck
    (:math:`V(h, o, l) / V(h, o, 0)`): overall, among states whose final probability
    exceeds ``floor``, and among those whose initial one does (the paper's three
    questions). States that cannot be won without luck are skipped (fold undefined).

    >>> folds = fold_increases({0: solve_grid(Fight(0, 6, 6, 12))})
    >>> folds["overall"].fold >= folds["final above floor"].fold >= 1
    True
    """
    folds = [
        Fold(delta, state, grid.value(state[0], state[1], 0), grid.value(*state))
        for delta, grid in grids.items()
        for state in grid.states()
        if grid.value(state[0], state[1], 0) > 0
    ]
    if not folds:
        raise ModelError("no state can be won without luck, so no fold increase is defined")

    def largest(candidates: list[Fold]) -> Fold:
        return max(candidates, key=lambda f: f.fold)

    result = {"overall": largest(folds)}
    keeps: tuple[tuple[str, Callable[[Fold], bool]], ...] = (
        ("final above floor", lambda f: f.final > floor),
        ("initial above floor", lambda f: f.initial > floor),
    )
    for name, keep in keeps:
        chosen = [f for f in folds if keep(f)]
        if chosen:
            result[name] = largest(chosen)
    return result
