r"""Two fixed players against each other, valued exactly.

With both players' choices fixed (two :class:`~exactprob.games.jeopardy.policies.PolicyTable` s), the game is a
Markov chain with cycles, solved component by component like the optimal game
(:mod:`exactprob.games.jeopardy.solving.solver`), without any comparison. Let
:math:`V_m(a, b, d)` be the chance that player :math:`m`, about to start a turn with
:math:`a` banked against :math:`b`, wins. A bust by player :math:`m` at scores
:math:`(a, b)` starts the other player's turn at :math:`(b, a)`, so the component
:math:`\{i, j\}` splits into the cycles

.. math::

    \bigl(V_0(i, j), V_1(j, i)\bigr) \quad\text{and}\quad \bigl(V_0(j, i), V_1(i, j)\bigr),

one when :math:`i = j`. In each cycle the first player's side is side 0 and the second's
side 1; a hold reads the *other* player's turn start, :math:`1 - V_{1-m}(b, a + k, d)`,
already known from a higher score sum. Every value is an affine form in the cycle's two
reset values (:mod:`.components`), and the reset values solve a 2 by 2 system.

Pig to 2, both players rolling once (any roll but a 1 wins):
:math:`V = \tfrac56 + \tfrac16 (1 - V)`, so :math:`V = 6/7`.

>>> from exactprob.games.jeopardy.policies import hold_at, policy_table
>>> from exactprob.games.jeopardy.rules import Pig
>>> game = Pig(goal=2)
>>> once = policy_table(game, hold_at(1))
>>> play_off(game, once, once).first_player_win()
Fraction(6, 7)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import Any

import numpy as np
from gmpy2 import mpq

from ....errors import NonTerminationError
from ....util.numbers import to_fraction
from ....util.progress import progress_bar
from ..fairness import SolvedRace
from ..policies import PolicyTable, check_table, deck_cards
from ..rules import FowlPlay, Jeopardy, Pig
from ..solving.components import (
    Form,
    Starts,
    at,
    component_forms,
    components_in_order,
    held,
    reach_forms,
    sides_of,
    solve_resets,
)

__all__ = ["Matchup", "check_ends", "passing_scores", "play_off"]

BOTH = (1, 0)  # in a cycle, each side's bust starts the other side's turn
_ZERO = mpq(0)


class Matchup(SolvedRace[Fraction]):
    """Exact turn-start values of two players against each other.

    ``starts[m][(a, b, deck)]`` is :math:`V_m(a, b, d)` as a ``gmpy2.mpq``.
    """

    play = "two fixed players"

    def __init__(self, game: Jeopardy, starts: tuple[Starts, Starts]) -> None:
        self.game, self.starts = game, starts

    def start_value(self, a: int, b: int) -> Fraction:
        r""":math:`V_0(a, b, \text{fresh})`: the first player's chance at a turn start."""
        return to_fraction(self.starts[0][a, b, self.game.fresh])


def play_off(
    game: Jeopardy, first: PolicyTable, second: PolicyTable, progress: bool = False
) -> Matchup:
    """Value ``first`` (moving first) against ``second`` exactly, at every turn start.

    Raises :class:`~exactprob.errors.NonTerminationError` when the two players can pass
    the turn back and forth forever (neither ever holds nor reaches the goal)."""
    tables = (check_table(game, first).holds, check_table(game, second).holds)
    starts: tuple[Starts, Starts] = ({}, {})
    goal = game.goal
    with progress_bar(
        progress, f"{game.name} to {goal}, two players", total=goal * (goal + 1) // 2
    ) as bar:
        for i, j in components_in_order(goal):
            for a, b in sides_of(i, j):
                cycle = [(a, b), (b, a)]  # the first player at (a, b), the second at (b, a)
                for m, values in enumerate(_cycle_values(game, cycle, tables, starts)):
                    starts[m].update(values)
            bar.update()
    return Matchup(game, starts)


def check_ends(
    game: Jeopardy,
    first: PolicyTable,
    second: PolicyTable,
    scores: Iterable[tuple[int, int]],
) -> None:
    """Raise :func:`play_off`'s :class:`~exactprob.errors.NonTerminationError` when, from
    one of ``scores`` (the first player's ``(a, b)``), the two players can pass the turn
    back and forth forever. The test is :func:`play_off`'s, exact: the cycle's reset
    values solve a singular system. Its matrix is the chance of each side's turn ending
    in a bust, which does not depend on what a hold is worth, so the holds read 0 here.

    Eight chickens cannot make 9 or 10 points in a turn, so a player that never holds
    busts every turn from 1 point or less:

    >>> from exactprob.games.jeopardy.policies import hold_at, policy_table
    >>> from exactprob.games.jeopardy.rules import FowlPlay
    >>> game = FowlPlay(chickens=8, wolves=2, goal=10)
    >>> never, once = policy_table(game, hold_at(60)), policy_table(game, hold_at(1))
    >>> check_ends(game, never, once, [(1, 0)])  # the second holds: the game ends
    >>> check_ends(game, never, never, [(3, 4), (0, 0), (1, 0)])
    Traceback (most recent call last):
    ...
    exactprob.errors.NonTerminationError: from scores 1 and 0 the two players can pass the turn back and forth forever: neither ever holds nor reaches the goal
    """
    tables = (check_table(game, first).holds, check_table(game, second).holds)
    nothing: Starts = defaultdict(lambda: _ZERO)
    # in play_off's order (highest score sum first), so that both name the same scores
    for a, b in sorted(scores, key=lambda ab: (-sum(ab), min(ab), ab[0] > ab[1])):
        _cycle_values(game, [(a, b), (b, a)], tables, (nothing, nothing))


def passing_scores(
    game: FowlPlay, first: PolicyTable, second: PolicyTable
) -> list[tuple[int, int]]:
    """The scores ``(a, b)`` (the first player's) from which neither player could reach
    the goal in one turn of all the chickens, and where neither table holds at any turn
    total: where a match-up most plainly can pass the turn back and forth forever, the
    cheap places for :func:`check_ends` to test before anything is enclosed.

    >>> from exactprob.games.jeopardy.policies import hold_at, policy_table
    >>> from exactprob.games.jeopardy.rules import FowlPlay
    >>> game = FowlPlay(chickens=8, wolves=2, goal=10)
    >>> never, once = policy_table(game, hold_at(60)), policy_table(game, hold_at(1))
    >>> passing_scores(game, never, never), passing_scores(game, never, once)
    ([(0, 0), (0, 1), (1, 0), (1, 1)], [])
    """
    below = game.goal - game.chickens  # from these, a turn cannot reach the goal
    if below <= 0:
        return []
    holds = (check_table(game, first).holds, check_table(game, second).holds)
    never = [~table[:below, :below, 1:].any(axis=(2, 3, 4)) for table in holds]
    both = never[0] & never[1].T  # the second player's turn is at (b, a)
    return [(int(a), int(b)) for a, b in zip(*np.nonzero(both))]


def _cycle_values(
    game: Jeopardy,
    cycle: list[tuple[int, int]],
    tables: tuple[np.ndarray, np.ndarray],
    starts: tuple[Starts, Starts],
) -> list[Starts]:
    """Each side's turn-start values ``{(a, b, deck): value}`` in one cycle."""

    def hold_value(s: int, banked: int, deck: Hashable) -> Any:
        return 1 - starts[1 - s][cycle[s][1], banked, deck]

    def holds(s: int, deck: Hashable, k: int) -> bool:
        return bool(tables[s][(*cycle[s], k, *deck_cards(deck))])

    def decide(s: int, deck: Hashable, k: int, form: Form, hold: Any) -> Form:
        return held(hold, form) if holds(s, deck, k) else form

    fresh = game.fresh
    if isinstance(game, Pig):
        forms = reach_forms(game, cycle, hold_value, lambda s, k: holds(s, fresh, k), BOTH)
    else:
        forms = component_forms(game, cycle, hold_value, mpq, decide, BOTH)
    try:
        point = solve_resets(forms, fresh)
    except ZeroDivisionError:
        (a, b), _ = cycle
        raise NonTerminationError(
            f"from scores {a} and {b} the two players can pass the turn back and forth"
            " forever: neither ever holds nor reaches the goal"
        ) from None
    return [
        {(a, b, deck): at(column[0], point) for deck, column in forms.table[s].items()}
        for s, (a, b) in enumerate(cycle)
    ]
