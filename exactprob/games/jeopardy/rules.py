r"""Jeopardy race games as rules: Pig, Fowl Play and Red Light.

Two players race to ``goal`` banked points. On a turn the mover draws (rolls a die,
draws a card or a chip) again and again; each draw either *busts*, ending the turn with
nothing, or adds to the turn total, which the mover may bank by *holding*. Every game here
is described by the same few things, which is all the solvers use:

* ``fresh``: the deck state at the start of the game (Pig has one, ``0``);
* ``draws(deck)``: the draws from a deck state, as ``(probability, gain, next deck)``
  with gain 0 for a bust;
* ``decks()``: every deck state, each listed before any deck it can follow in a turn
  (so a deck's draws lead to decks already listed, or back to ``fresh``);
* ``max_turn_total(deck)``: the largest turn total possible in that deck state.

A state is ``(mover's score, other's score, turn total, deck)``. The mover wins as soon
as score plus turn total reaches the goal (in Fowl Play by holding then, which a player
always does; :attr:`hold_to_win` says whether such states count as non-terminal).

>>> game = FowlPlay(chickens=2, wolves=1, goal=2)
>>> [(str(p), gain, deck) for p, gain, deck in game.draws((0, 1))]
[('1/2', 1, (0, 2)), ('1/2', 0, (0, 0))]
>>> Pig(goal=10).nonterminal_states()
550
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...engine import Dist
from ...util.numbers import Exact, mpq, plain_integer, whole_number

__all__ = [
    "FOWL_PLAY",
    "MAX_CARDS",
    "MAX_GOAL",
    "MAX_SIDES",
    "RED_LIGHT",
    "RED_LIGHT_KOMI",
    "Draw",
    "FowlPlay",
    "Jeopardy",
    "JeopardyModel",
    "Pig",
    "check_komi",
    "turn_actions",
]

#: The largest goal, die and deck the rules take (every caller checks against these).
MAX_GOAL = 10_000
MAX_SIDES = 1000
MAX_CARDS = 10_000

Draw = tuple[Fraction, int, Hashable]
"""``(probability, gain, next deck)``; a gain of 0 is a bust."""
ExactDraw = tuple[Exact, int, Hashable]
"""A :data:`Draw` with its probability as the engine's exact scalar (``gmpy2.mpq``)."""
RaceState = tuple[int, int, int, Any, int]
"""``(score 0, score 1, turn total, deck, mover)``: a state of :class:`JeopardyModel`."""


def check_komi(game: Jeopardy, komi: int) -> int:
    """``komi``, the second player's head start, checked: a whole number below the goal
    (a numpy integer too, as one picked from an array would be).

    >>> check_komi(Pig(goal=3), 3)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: komi must be a whole number from 0 to 2, got 3
    """
    return whole_number("komi", plain_integer(komi), 0, game.goal - 1)


@dataclass(frozen=True)
class Pig:
    """Pig: roll a ``sides``-sided die; a 1 busts, any other face adds its pips.

    >>> [str(p) + ":" + str(g) for p, g, _ in Pig(goal=100, sides=3).draws(0)]
    ['1/3:0', '1/3:2', '1/3:3']
    """

    goal: int = 100
    sides: int = 6

    name = "Pig"
    draw_word = "roll"
    hold_to_win = False
    fresh = 0

    def __post_init__(self) -> None:
        whole_number("goal", self.goal, 1, MAX_GOAL)
        whole_number("sides", self.sides, 2, MAX_SIDES)

    def draws(self, deck: Hashable) -> tuple[Draw, ...]:
        p = Fraction(1, self.sides)
        return tuple((p, 0 if face == 1 else face, 0) for face in range(1, self.sides + 1))

    def decks(self) -> tuple[int, ...]:
        return (0,)

    def max_turn_total(self, deck: Hashable) -> int:
        return self.goal

    def deck_after(self, turn_total: int) -> Hashable:
        """The deck state after a turn from a fresh deck reached ``turn_total``."""
        return 0

    def nonterminal_states(self) -> int:
        """States ``(i, j, k)`` with ``i, j < goal`` and ``i + k < goal`` (Neller and
        Presser's count: 505,000 for the goal 100)."""
        g = self.goal
        return g * g * (g + 1) // 2


@dataclass(frozen=True)
class FowlPlay:
    """Fowl Play: draw from a deck of ``chickens`` and ``wolves`` without replacement.

    A chicken adds 1; a wolf busts. Drawn cards stay out until the last wolf is drawn;
    then the whole deck is reshuffled. A deck state is ``(w, c)``: wolves and chickens
    drawn since the last shuffle. A head start for the second player (komi) is part of
    the question asked of the game, not of the game: see ``first_player_win(komi)``.

    >>> FOWL_PLAY.nonterminal_states()
    10487700
    >>> RED_LIGHT, RED_LIGHT_KOMI
    (FowlPlay(chickens=24, wolves=4, goal=50), 1)
    """

    chickens: int = 42
    wolves: int = 6
    goal: int = 50

    draw_word = "draw"
    hold_to_win = True
    fresh = (0, 0)

    def __post_init__(self) -> None:
        whole_number("goal", self.goal, 1, MAX_GOAL)
        whole_number("chickens", self.chickens, 1, MAX_CARDS)
        whole_number("wolves", self.wolves, 1, MAX_CARDS)

    @property
    def name(self) -> str:
        if (self.chickens, self.wolves) == (24, 4):
            return "Red Light"
        return "Fowl Play"

    def draws(self, deck: Hashable) -> tuple[Draw, ...]:
        w, c = _wolves_and_chickens(deck)
        chickens, wolves = self.chickens - c, self.wolves - w
        left = chickens + wolves
        after_wolf = (w + 1, c) if wolves > 1 else self.fresh
        wolf = (Fraction(wolves, left), 0, after_wolf)
        if chickens == 0:
            return (wolf,)
        return ((Fraction(chickens, left), 1, (w, c + 1)), wolf)

    def decks(self) -> list[tuple[int, int]]:
        return [
            (w, c) for w in reversed(range(self.wolves)) for c in reversed(range(self.chickens + 1))
        ]

    def max_turn_total(self, deck: Hashable) -> int:
        return _wolves_and_chickens(deck)[1]

    def deck_after(self, turn_total: int) -> Hashable:
        """The deck state after a turn from a fresh deck drew ``turn_total`` chickens."""
        return (0, turn_total)

    def nonterminal_states(self) -> int:
        """States ``(i, j, k, w, c)`` with ``i, j < goal``, ``i + k <= goal`` (a mover at
        the goal must still hold), ``k <= c <= chickens`` and ``w < wolves``."""
        g, chickens = self.goal, self.chickens
        return g * self.wolves * sum(_capped_sum(chickens, m) for m in range(1, g + 1))


def _capped_sum(chickens: int, m: int) -> int:
    r"""How many turn totals :math:`k \le \min(c, m)` there are over :math:`c = 0..C`:
    :math:`\sum_{c=0}^{C} (\min(c, m) + 1)`, in closed form (the loop over :math:`c` took
    seconds for ten thousand chickens).

    >>> _capped_sum(5, 2) == sum(min(c, 2) + 1 for c in range(6))
    True
    """
    if m >= chickens:
        return (chickens + 1) * (chickens + 2) // 2
    return (chickens + 1) + m * (m + 1) // 2 + m * (chickens - m)


Jeopardy = Pig | FowlPlay

FOWL_PLAY = FowlPlay()
RED_LIGHT = FowlPlay(chickens=24, wolves=4, goal=50)
#: Red Light's rules give the second player a head start of 1 point (the redesign of Neller,
#: Malec, Presser and Jacobs, 2013); the ``red-light`` command asks at this komi by default.
RED_LIGHT_KOMI = 1


def _wolves_and_chickens(deck: Hashable) -> tuple[int, int]:
    w, c = deck  # type: ignore[misc]
    return int(w), int(c)  # type: ignore[has-type]


class JeopardyModel:
    """A jeopardy game as a :class:`~exactprob.engine.model.Model` for the generic engine.

    States are ``(score0, score1, turn total, deck, mover)``; player 0 moves first, player
    1 starts with ``komi`` points, and the outcome is 1 when player 0 wins. A turn total of
    0 must draw; a mover who has reached the goal in Fowl Play must hold (in Pig the roll
    that reaches it wins at once).

    >>> from exactprob import solve
    >>> solve(JeopardyModel(Pig(goal=10))).value()
    Fraction(7776, 10961)
    """

    def __init__(self, game: Jeopardy, komi: int = 0) -> None:
        self.game = game
        self.initial = (0, check_komi(game, komi), 0, game.fresh, 0)
        self._draws: dict[Hashable, tuple[ExactDraw, ...]] = {}  # each deck's, read once

    def outcome(self, state: RaceState) -> int | None:
        s0, s1 = state[0], state[1]
        if s0 >= self.game.goal:
            return 1
        return 0 if s1 >= self.game.goal else None

    def player(self, state: RaceState) -> int:
        return state[4]

    def actions(self, state: RaceState) -> tuple[str, ...]:
        return turn_actions(self.game, state[state[4]], state[2])

    def transition(self, state: RaceState, action: str) -> Dist[RaceState]:
        s0, s1, k, deck, mover = state
        if action == "hold":
            return Dist({_bank(s0, s1, mover, k, deck): 1})
        goal = self.game.goal
        outcomes: dict[RaceState, Any] = {}
        for p, gain, after in self._exact_draws(deck):
            if gain == 0:
                nxt = (s0, s1, 0, after, 1 - mover)
            elif (s0, s1)[mover] + k + gain >= goal and not self.game.hold_to_win:
                nxt = _bank(s0, s1, mover, k + gain, after)
            else:
                nxt = (s0, s1, k + gain, after, mover)
            outcomes[nxt] = outcomes[nxt] + p if nxt in outcomes else p
        return Dist(outcomes)

    def _exact_draws(self, deck: Hashable) -> tuple[ExactDraw, ...]:
        """The deck's draws with their chances as gmpy2 rationals, read once (a ``Dist``
        of them is built without converting each chance at every state)."""
        found = self._draws.get(deck)
        if found is None:
            found = self._draws[deck] = tuple(
                (mpq(p), gain, after) for p, gain, after in self.game.draws(deck)
            )
        return found


def turn_actions(game: Jeopardy, score: int, turn_total: int) -> tuple[str, ...]:
    """The mover's actions at ``score`` with ``turn_total``: a turn total of 0 must
    draw, one that reaches the goal must hold (Fowl Play's way to win), else either.

    >>> turn_actions(Pig(goal=10), 5, 0), turn_actions(Pig(goal=10), 5, 6)
    (('roll',), ('hold',))
    """
    if turn_total == 0:
        return (game.draw_word,)
    if score + turn_total >= game.goal:
        return ("hold",)
    return (game.draw_word, "hold")


def _bank(s0: int, s1: int, mover: int, points: int, deck: Hashable) -> RaceState:
    """The state after the mover banks ``points``: the other player's turn starts."""
    if mover == 0:
        return (s0 + points, s1, 0, deck, 1)
    return (s0, s1 + points, 0, deck, 0)
