r"""The exact best response to a fixed player, one turn-start cycle at a time.

With the opponent's choices fixed by its table, the game is a decision process for the
responder alone. Its turn starts fall into the cycles of a match-up
(:mod:`~exactprob.games.jeopardy.players.matchup`): the responder at :math:`(a, b)` and
the opponent at :math:`(b, a)`, each one's bust starting the other's turn, and each hold
leaving for a higher score sum, already valued. So the cycles are taken from the highest
score sum down, as the optimal race's components are, each by exact policy iteration
(:mod:`.iteration`) with the responder's side choosing and the opponent's following its
table. Each state is valued from its mover's side: the responder's chance where the
responder moves, the opponent's where the opponent does.

Policy iteration starts from banking at every turn total, which ends each cycle (a turn
from a fresh deck banks unless it busts at once), and changes a choice only where the
other is strictly better (:class:`.iteration.CycleIteration`,
:func:`.iteration.greedy_at`). Such a change never closes a loop that nothing leaves: on
a closed class of the new play, the old values :math:`V` would satisfy :math:`V \le PV`
with a strict inequality at the changed state, which the class's stationary law
:math:`\mu` forbids (:math:`\mu V < \mu P V = \mu V`). So every cycle's system stays
regular, and its solution is what the play achieves; verified optimal, it is the best
value (achieved, so at most the least solution of the optimality equations, and at least
it). Where draw and hold are then exactly level, the response holds (the rule of the
optimal table).

Pig to 3, against a player who holds at 1: with 2 in the turn at 0 against 0, a roll of 2
to 6 wins at once, so the response rolls rather than bank 2 and hand over the die.

>>> from exactprob.games.jeopardy.policies import hold_at, policy_table
>>> from exactprob.games.jeopardy.rules import Pig
>>> game = Pig(goal=3)
>>> once = policy_table(game, hold_at(1))
>>> response = respond(game, once, fill=once)
>>> bool(response.holds[0, 0, 2, 0, 0])
False
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from ....util.progress import progress_bar
from ..policies import PolicyTable, deck_cards
from ..rules import Jeopardy
from .components import Starts, components_in_order, sides_of
from .iteration import CycleIteration

__all__ = ["respond", "turn_states"]


def respond(
    game: Jeopardy, opponent: PolicyTable, fill: PolicyTable, progress: bool = False
) -> PolicyTable:
    """The best response to ``opponent`` as a policy table, exact: where draw and hold tie
    exactly it holds, and at the states no turn can reach (:func:`turn_states`) it copies
    ``fill``."""
    holds = fill.holds.copy()
    reached = turn_states(game)
    starts: tuple[Starts, Starts] = ({}, {})
    floats: tuple[dict[Any, float], dict[Any, float]] = ({}, {})
    goal = game.goal
    desc = f"{game.name} to {goal}, best response"
    with progress_bar(progress, desc, total=goal * (goal + 1) // 2) as bar:
        for i, j in components_in_order(goal):
            for a, b in sides_of(i, j):
                cycle = _ResponseCycle(game, a, b, opponent.holds, starts, floats)
                values, decided = cycle.iterate()
                for m in (0, 1):
                    starts[m].update(values[m])
                    floats[m].update((key, float(value)) for key, value in values[m].items())
                for (_, deck, k), hold in decided.items():
                    if (k, deck) in reached:
                        holds[(a, b, k, *deck_cards(deck))] = hold
            bar.update()
    return PolicyTable(holds)


def turn_states(game: Jeopardy) -> set[tuple[int, Hashable]]:
    """The ``(turn total, deck)`` pairs below the goal that a turn reaches from a turn
    start at any deck. Pig's dice never make a turn total of 1:

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> sorted(k for k, _ in turn_states(Pig(goal=6)))
    [0, 2, 3, 4, 5]
    """
    seen: set[tuple[int, Hashable]] = {(0, deck) for deck in game.decks()}
    todo = list(seen)
    while todo:
        k, deck = todo.pop()
        for _, gain, after in game.draws(deck):
            state = (k + gain, after)
            if gain and k + gain < game.goal and state not in seen:
                seen.add(state)
                todo.append(state)
    return seen


class _ResponseCycle(CycleIteration):
    """The cycle of the responder at ``(a, b)`` (side 0, choosing) and the opponent at
    ``(b, a)`` (side 1, following ``opponent``, a policy table's array); ``starts[m]`` and
    ``floats[m]`` hold the known turn starts of the responder (0) and the opponent (1)."""

    first_holds = True  # from a play that ends, never into a loop of equal value

    def __init__(
        self,
        game: Jeopardy,
        a: int,
        b: int,
        opponent: np.ndarray,
        starts: tuple[Starts, Starts],
        floats: tuple[dict[Any, float], dict[Any, float]],
    ) -> None:
        super().__init__(game, [(a, b), (b, a)], partner=(1, 0), choosing=(True, False))
        self.opponent, self.starts, self.floats = opponent, starts, floats

    def exact_hold(self, s: int, banked: int, deck: Hashable) -> Any:
        """The other's turn start after the bank, from the mover's side."""
        return 1 - self.starts[1 - s][self.sides[s][1], banked, deck]

    def float_hold(self, s: int, banked: int, deck: Hashable) -> float:
        return 1 - self.floats[1 - s][self.sides[s][1], banked, deck]

    def fixed_holds(self, s: int, deck: Hashable, k: int) -> bool:
        return bool(self.opponent[(*self.sides[s], k, *deck_cards(deck))])
