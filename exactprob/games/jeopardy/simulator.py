r"""An independent, vectorised numpy simulator of Pig and Fowl Play, for two seats or more.

Written straight from the rules of :doc:`/jeopardy`, sharing nothing with the solvers or
with :mod:`~exactprob.games.jeopardy.rules` (no ``draws``, no ``decks``): many games are
played side by side, one numpy entry per game.

* **Pig**: the mover rolls a ``sides``-sided die; a 1 ends the turn with nothing (a
  *bust*), any other face adds its pips to the turn total :math:`k`. A player whose banked
  score :math:`a` plus :math:`k` reaches the goal wins at once.
* **Fowl Play**: each game has a real deck, ``chickens`` chickens and ``wolves`` wolves
  in a random order; cards are dealt from it one by one, across turns and players. A
  chicken adds 1 to :math:`k`, a wolf busts. Dealt cards stay out until the last wolf is
  dealt; then the deck is shuffled whole again. A mover with :math:`a + k \ge` goal holds,
  which wins.
* The second player starts with ``komi`` points; the first player moves first.
* A player is a vectorised policy ``holds(a, b, k, w, c) -> bool array``: ``a`` the
  mover's banked score, ``b`` the opponent's, ``k`` the turn total, ``w`` and ``c`` the
  wolves and chickens dealt since the last shuffle (always 0 in Pig). Holding banks
  :math:`k` and passes the turn; a turn total of 0 must draw, whatever the policy says.
* Among :math:`n` seats (:func:`simulate_seat_race`) the seats move in turn from seat 0,
  and a player is a :data:`SeatHolds`, ``holds(scores, k, w, c)``, with ``scores`` one
  row per game of the banked scores seen from the mover (its own first, then the seats
  in the order they move next).

Pig to 2 with a d6: the first roll wins unless it is a 1, so the first player wins with
:math:`P = \tfrac56 + \tfrac16 (1 - P)`, :math:`P = 6/7`. Fowl Play to 1 with one chicken
and one wolf: :math:`P = \tfrac12 + \tfrac12 (1 - P) = 2/3` (the wolf is the last one, so
the opponent starts on a fresh deck):

>>> from exactprob.games.jeopardy.policies import hold_at
>>> races = simulate_race("pig", 2, hold_at(1), hold_at(1), games=20_000, seed=1)
>>> races.agrees_with("6/7"), races.agrees_with("5/6")
(True, False)
>>> races = simulate_race("fowl-play", 1, hold_at(1), hold_at(1), 20_000, 2, chickens=1, wolves=1)
>>> races.agrees_with("2/3")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from ...engine import Runs
from ...errors import ModelError
from ...util.numbers import plain_integer, whole_number
from .policies import Holds

__all__ = ["SeatHolds", "SimulatedRaces", "simulate_race", "simulate_seat_race", "table_player"]

SeatHolds = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""A vectorised player among seats: ``holds(scores, k, w, c)`` is True where the mover
holds, ``scores[g]`` game ``g``'s banked scores from the mover."""

CHICKEN, WOLF = 1, 0


@dataclass(frozen=True, eq=False)
class SimulatedRaces(Runs):
    """Simulated games among ``seats``: the winner of each (the seat, 0 for the first
    player); the :attr:`result` is ``seat``'s win, the first player's unless seen
    :meth:`for_seat`."""

    winner: np.ndarray
    seat: int = 0
    seats: int = 2

    @property
    def result(self) -> np.ndarray:
        """Whether :attr:`seat` won each game."""
        return self.winner == self.seat

    @property
    def wins(self) -> int:
        """How many games :attr:`seat` won."""
        return self.successes

    def for_seat(self, seat: int) -> SimulatedRaces:
        """The same games, with ``seat``'s win as the result (a seat of the games, from 0)."""
        return replace(self, seat=whole_number("seat", plain_integer(seat), 0, self.seats - 1))


def simulate_race(
    kind: Literal["pig", "fowl-play"],
    goal: int,
    holds0: Holds,
    holds1: Holds,
    games: int,
    seed: int,
    *,
    sides: int = 6,
    chickens: int = 42,
    wolves: int = 6,
    komi: int = 0,
) -> SimulatedRaces:
    """Play ``games`` games of ``kind`` to ``goal`` (first player ``holds0``, second
    ``holds1``, who starts with ``komi``) with ``numpy.random.default_rng(seed)``, each
    to its winner. ``sides`` is Pig's die; ``chickens`` and ``wolves`` make Fowl Play's
    deck.

    >>> from exactprob.games.jeopardy.policies import hold_at
    >>> simulate_race("pig", 10, hold_at(1), hold_at(1), games=10, seed=0, komi=10)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: komi must be a whole number from 0 to 9, got 10
    """
    _check(kind, goal, games, sides, chickens, wolves, komi)
    players = [_two_seat(holds0), _two_seat(holds1)]
    return _play(kind, goal, players, (0, komi), games, seed, sides, chickens, wolves)


def simulate_seat_race(
    kind: Literal["pig", "fowl-play"],
    goal: int,
    players: Sequence[SeatHolds],
    games: int,
    seed: int,
    *,
    sides: int = 6,
    chickens: int = 42,
    wolves: int = 6,
    head_starts: Sequence[int] | None = None,
) -> SimulatedRaces:
    r"""Play ``games`` games of ``kind`` among ``len(players)`` seats, seat ``i`` played by
    ``players[i]`` and starting with ``head_starts[i]`` points (default 0), seat 0 first.

    Pig to 2 among three seats: the first roll wins unless it is a 1, so seat 0 wins
    :math:`\tfrac56 / (1 - 6^{-3}) = 36/43`:

    >>> always = lambda scores, k, w, c: k > 0
    >>> races = simulate_seat_race("pig", 2, [always] * 3, games=20_000, seed=3)
    >>> races.agrees_with("36/43"), races.for_seat(2).agrees_with("1/43")
    (True, True)
    """
    starts = tuple(head_starts) if head_starts is not None else (0,) * len(players)
    if len(players) < 2 or len(starts) != len(players):
        raise ModelError(
            f"players and head_starts must name the same seats, two or more; got "
            f"{len(players)} players and {len(starts)} head starts"
        )
    for start in starts:
        _check(kind, goal, games, sides, chickens, wolves, start)
    return _play(kind, goal, players, starts, games, seed, sides, chickens, wolves)


def table_player(holds: np.ndarray) -> SeatHolds:
    """The player who holds where the array ``holds[a_0, ..., a_{n-1}, k, w, c]`` says
    (the scores from the mover, as :meth:`~.solving.seats.SeatRace.hold_table` gives)."""
    return lambda scores, k, w, c: holds[(*scores.T, k, w, c)]


def _two_seat(holds: Holds) -> SeatHolds:
    """A two-player policy as a seat policy: the mover's score and the other's."""
    return lambda scores, k, w, c: holds(scores[:, 0], scores[:, 1], k, w, c)


def _play(
    kind: str,
    goal: int,
    players: Sequence[SeatHolds],
    starts: Sequence[int],
    games: int,
    seed: int,
    sides: int,
    chickens: int,
    wolves: int,
) -> SimulatedRaces:
    """Every game played to its winner, the seats in turn from seat 0."""
    rng = np.random.default_rng(seed)
    deck = _Deck(rng, games, chickens, wolves) if kind == "fowl-play" else None
    n = len(players)
    score = np.tile(np.asarray(starts, dtype=np.int64), (games, 1))
    mover = np.zeros(games, dtype=np.int64)
    turn = np.zeros(games, dtype=np.int64)
    winner = np.full(games, -1)
    live = np.arange(games)
    while live.size:
        me = mover[live]
        seen = score[live[:, None], (me[:, None] + np.arange(n)) % n]  # from the mover
        k = turn[live]
        if deck is None:  # Pig has no deck
            w = c = np.zeros_like(k)
        else:
            w, c = deck.wolves_out[live], deck.chickens_out[live]
        holding = np.zeros(live.size, dtype=bool)
        for seat, policy in enumerate(players):
            mine = me == seat
            holding[mine] = policy(seen[mine], k[mine], w[mine], c[mine])
        holding &= k > 0
        held = live[holding]
        score[held, mover[held]] += turn[held]
        drawing = live[~holding]
        if deck is not None:
            gain = deck.deal(drawing)
        else:
            gain = rng.integers(1, sides + 1, size=drawing.size)
            gain[gain == 1] = 0
        turn[drawing] += gain
        won = drawing[score[drawing, mover[drawing]] + turn[drawing] >= goal]
        winner[won] = mover[won]
        ended = np.concatenate([held, drawing[gain == 0]])
        turn[ended] = 0
        mover[ended] = (mover[ended] + 1) % n
        live = live[winner[live] < 0]
    return SimulatedRaces(winner, seats=n)


def _check(
    kind: str, goal: int, games: int, sides: int, chickens: int, wolves: int, komi: int
) -> None:
    """Refuse rules that are not a game (with one line naming the value)."""
    if kind not in ("pig", "fowl-play"):
        raise ModelError(f"kind must be 'pig' or 'fowl-play', got {kind!r}")
    whole_number("goal", goal, 1)
    whole_number("komi", komi, 0, goal - 1)
    whole_number("games", games, 1)
    whole_number("sides", sides, 2)
    whole_number("chickens", chickens, 1)
    whole_number("wolves", wolves, 1)


class _Deck:
    """One shuffled deck per game: ``order[g]`` the cards, ``dealt[g]`` how many are out."""

    def __init__(self, rng: np.random.Generator, games: int, chickens: int, wolves: int) -> None:
        self.rng, self.wolves = rng, wolves
        self.cards = np.array([CHICKEN] * chickens + [WOLF] * wolves)
        self.order = self._shuffled(games)
        self.dealt = np.zeros(games, dtype=np.int64)
        self.wolves_out = np.zeros(games, dtype=np.int64)
        self.chickens_out = np.zeros(games, dtype=np.int64)

    def _shuffled(self, games: int) -> np.ndarray:
        return self.rng.permuted(np.tile(self.cards, (games, 1)), axis=1)

    def deal(self, games: np.ndarray) -> np.ndarray:
        """Deal the next card in each of ``games``: its gain (1 for a chicken, 0 for a
        wolf). The last wolf puts every card back and shuffles the deck."""
        card = self.order[games, self.dealt[games]]
        self.dealt[games] += 1
        self.chickens_out[games] += card == CHICKEN
        self.wolves_out[games] += card == WOLF
        done = games[self.wolves_out[games] == self.wolves]
        self.order[done] = self._shuffled(done.size)
        self.dealt[done] = 0
        self.wolves_out[done] = 0
        self.chickens_out[done] = 0
        return card
