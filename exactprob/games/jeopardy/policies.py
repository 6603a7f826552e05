r"""Players of a jeopardy race: who holds where, as a vectorised rule or a lookup table.

A player is a :data:`Holds`: ``holds(a, b, k, w, c)`` says, for numpy arrays of states,
where the mover holds (``a`` the mover's banked score, ``b`` the opponent's, ``k`` the turn
total, ``w`` and ``c`` the wolves and chickens dealt since the last shuffle, 0 in Pig).
Whatever a player says, a turn total of 0 draws and a mover who has reached the goal holds.

* :func:`hold_at`: hold once the turn total reaches :math:`n` (the Pig papers' "hold at 20").
* :func:`keep_pace`: Neller and Presser's "keep pace and end race" Pig player.
* :func:`risk_balancing`: Fowl Play's simple rule, draw iff :math:`c_\text{rem} > w_\text{rem}
  \cdot k`: the expected gain of a draw, :math:`c_\text{rem}/(c_\text{rem} + w_\text{rem})`,
  beats its expected loss, :math:`k\, w_\text{rem}/(c_\text{rem} + w_\text{rem})`.
* :func:`policy_table`: any player as a :class:`PolicyTable`, one boolean per state, the
  form the exact and certified match-ups read.
* :func:`optimal_policy_table`: the optimal player from an exact or a certified solution.

>>> from exactprob.games.jeopardy.rules import FowlPlay
>>> game = FowlPlay(chickens=6, wolves=2, goal=5)
>>> table = policy_table(game, risk_balancing(game))
>>> table.holds.shape  # (a, b, k, w, c)
(5, 5, 5, 2, 7)
>>> table.holds[0, 0, 1:4, 0, 3].tolist()  # 3 chickens and 2 wolves left: hold from k = 2
[False, True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from ...errors import ModelError
from .rules import Jeopardy, Pig

__all__ = [
    "Holds",
    "PolicyTable",
    "SolvedWithTable",
    "agreement",
    "check_table",
    "choice_states",
    "deck_cards",
    "hold_at",
    "hold_thresholds",
    "keep_pace",
    "optimal_policy_table",
    "policy_table",
    "risk_balancing",
]

Holds = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""A vectorised player: ``holds(a, b, k, w, c)`` is True where the mover holds."""


def hold_at(n: int) -> Holds:
    """The player who holds as soon as the turn total reaches ``n``.

    >>> hold_at(3)(np.zeros(3), np.zeros(3), np.array([1, 3, 5]), 0, 0).tolist()
    [False, True, True]
    """
    return lambda a, b, k, w, c: np.asarray(k >= n)


class PolicyTable:
    """A lookup table ``holds[a, b, k, w, c]`` used as a :data:`Holds` player.

    ``undecided`` (same shape, or None when every choice is known to be right) marks the
    choices of an optimal table that its source could not certify (see
    :meth:`.certified.CertifiedRace.policy_table`).
    """

    def __init__(self, holds: np.ndarray, undecided: np.ndarray | None = None) -> None:
        self.holds, self.undecided = holds, undecided

    def __call__(
        self, a: np.ndarray, b: np.ndarray, k: np.ndarray, w: np.ndarray, c: np.ndarray
    ) -> np.ndarray:
        return self.holds[a, b, k, w, c]


class SolvedWithTable(Protocol):
    """A solved race that gives its optimal player's table: exact
    (:class:`~.solver.JeopardySolution`), certified (:class:`~.certified.CertifiedRace`),
    or either as :func:`exactprob.solve` answers it
    (:mod:`~exactprob.games.jeopardy.solving.fast_paths`)."""

    def policy_table(self) -> PolicyTable: ...


def optimal_policy_table(solution: SolvedWithTable) -> PolicyTable:
    r"""An optimal player, as a :class:`PolicyTable`, from an exact
    (:meth:`~exactprob.games.jeopardy.solving.solver.JeopardySolution.policy_table`) or a certified
    (:meth:`.certified.CertifiedRace.policy_table`) solution. On an exact tie the
    table **holds**.

    Pig to 10: from 0 to 0 the first player rolls until 10 (no hold at any turn total),
    and optimal play against itself wins 7776/10961 for the first player:

    >>> from exactprob.games.jeopardy.simulator import simulate_race
    >>> from exactprob.games.jeopardy.solving.solver import solve_race
    >>> solution = solve_race(Pig(goal=10))
    >>> table = optimal_policy_table(solution)
    >>> bool(table.holds[0, 0, 1:, 0, 0].any())
    False
    >>> races = simulate_race("pig", 10, table, table, games=20_000, seed=3)
    >>> solution.first_player_win(), races.agrees_with(solution.first_player_win())
    (Fraction(7776, 10961), True)
    """
    return solution.policy_table()


def hold_thresholds(game: Jeopardy, table: PolicyTable) -> np.ndarray:
    """``thresholds[a, b]``: the first turn total at which the player holds, on a turn
    that began on a fresh deck and has not busted (Fowl Play: deck ``(0, k)``); ``goal -
    a`` when the player draws on to the goal.

    >>> game = Pig(goal=4)
    >>> hold_thresholds(game, policy_table(game, hold_at(2))).tolist()
    [[2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [1, 1, 1, 1]]
    """
    goal = game.goal
    thresholds = goal - np.arange(goal)[:, None].repeat(goal, axis=1)
    for k in range(table.holds.shape[2] - 1, 0, -1):
        on_turn = table.holds[:, :, k, *deck_cards(game.deck_after(k))]
        thresholds = np.where(on_turn, np.minimum(thresholds, k), thresholds)
    return thresholds


def choice_states(game: Jeopardy) -> np.ndarray:
    r"""Where a policy table has a real choice: a boolean array of the table's shape, True
    at :math:`k \ge 1`, :math:`a + k <` goal and, in Fowl Play, :math:`k \le c`.

    >>> int(choice_states(Pig(goal=3)).sum())  # (a, k) in {(0, 1), (0, 2), (1, 1)}, b in 0..2
    9
    """
    shape = table_shape(game)
    a, _, k, _, c = np.ogrid[tuple(slice(0, size) for size in shape)]
    choice = (k >= 1) & (a + k < game.goal)
    if not isinstance(game, Pig):
        choice = choice & (k <= c)
    return np.broadcast_to(choice, shape)


def agreement(game: Jeopardy, optimal: PolicyTable, table: PolicyTable) -> Fraction:
    """The fraction of choice states where ``table`` makes the same choice as ``optimal``.

    >>> game = Pig(goal=3)
    >>> agreement(game, policy_table(game, hold_at(1)), policy_table(game, hold_at(2)))
    Fraction(1, 3)
    """
    choice = choice_states(game)
    same = int(np.count_nonzero(choice & (optimal.holds == table.holds)))
    return Fraction(same, int(np.count_nonzero(choice)))


def keep_pace(game: Any) -> Holds:
    r"""Neller and Presser's "keep pace and end race" Pig player (*Practical Play of the
    Dice Game Pig*, UMAP Journal 31(1), 2010), for any goal :math:`G`: if either score is
    at least :math:`G - 29` (71 in Pig to 100), roll on to the goal; otherwise hold at
    :math:`21 + \mathrm{round}((b - a)/8)` with :math:`a` the mover's score and :math:`b`
    the opponent's (halves rounded up).

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> player = keep_pace(Pig(goal=100))
    >>> player(np.array([0, 0, 0]), np.array([0, 40, 44]), 21, 0, 0).tolist()  # 21, 26, 27
    [True, False, False]
    >>> player(np.array([0, 0]), np.array([44, 40]), 27, 0, 0).tolist()
    [True, True]
    >>> player(80, 0, np.array([19, 20]), 0, 0).tolist()  # racing: on to 100
    [False, True]
    """
    end_race = game.goal - 29

    def holds(a: Any, b: Any, k: Any, w: Any, c: Any) -> np.ndarray:
        a, b, k = np.asarray(a), np.asarray(b), np.asarray(k)
        pace = 21 + np.floor_divide(b - a + 4, 8)  # round((b - a)/8), halves up
        racing = (a >= end_race) | (b >= end_race)
        return np.asarray(np.where(racing, a + k >= game.goal, k >= pace))

    return holds


def risk_balancing(game: Any) -> Holds:
    r"""Fowl Play's risk-balancing player: hold iff :math:`c_\text{rem} \le w_\text{rem} k`.

    >>> from exactprob.games.jeopardy.rules import FOWL_PLAY
    >>> risk_balancing(FOWL_PLAY)(0, 0, np.array([6, 7, 8]), 0, 0).tolist()  # 42 <= 6k?
    [False, True, True]
    """
    chickens, wolves = game.chickens, game.wolves
    return lambda a, b, k, w, c: np.asarray((chickens - c) <= (wolves - w) * k)


def table_shape(game: Jeopardy) -> tuple[int, ...]:
    """The shape ``(a, b, k, w, c)`` of a policy table for ``game``.

    >>> table_shape(Pig(goal=10))
    (10, 10, 10, 1, 1)
    """
    goal = game.goal
    if isinstance(game, Pig):
        return goal, goal, goal, 1, 1
    return goal, goal, min(game.chickens, goal - 1) + 1, game.wolves, game.chickens + 1


def check_table(game: Jeopardy, table: PolicyTable, name: str = "table") -> PolicyTable:
    """``table`` if it has ``game``'s shape (:func:`table_shape`), else one clear error.

    >>> check_table(Pig(goal=3), PolicyTable(np.zeros((3, 3, 2, 1, 1), dtype=bool)))
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: table must have the shape (3, 3, 3, 1, 1), got (3, 3, 2, 1, 1)
    """
    shape = table_shape(game)
    if table.holds.shape != shape:
        raise ModelError(f"{name} must have the shape {shape}, got {table.holds.shape}")
    return table


def deck_cards(deck: Hashable) -> tuple[int, int]:
    """The ``(w, c)`` index of a deck in a policy table (Pig's one deck is ``(0, 0)``).

    >>> deck_cards((2, 5)), deck_cards(0)
    ((2, 5), (0, 0))
    """
    return deck if isinstance(deck, tuple) else (0, 0)


def policy_table(game: Jeopardy, holds: Holds) -> PolicyTable:
    """``holds`` asked once about every state of ``game`` (one mover score at a time, to
    keep memory small), with the forced moves applied: draw at :math:`k = 0`, hold at the
    goal."""
    goal, *rest = table_shape(game)
    b, k, w, c = np.indices(rest, dtype=np.int64)
    table = np.zeros((goal, *rest), dtype=bool)
    for a in range(goal):
        table[a] = np.broadcast_to(holds(np.full_like(k, a), b, k, w, c), rest)
        table[a] |= a + k >= goal
    table[:, :, 0] = False
    return PolicyTable(table)
