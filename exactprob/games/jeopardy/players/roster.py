r"""Named players and a round robin between them, each game valued exactly or enclosed.

A :class:`Player` is a policy table with a name and a *parameter count*: how many numbers
it takes to write the player down. The optimal player needs one bit per choice state; a
hold-at-:math:`n` player one number; the risk-balancing rule none (its rule is fixed by
the deck).

Names understood by :func:`player_named`: ``optimal``, ``hold-at-N`` (``N`` a whole
number from 1), ``keep-pace`` (Pig only: "keep pace and end race", three numbers:
:func:`~exactprob.games.jeopardy.policies.keep_pace`), ``risk-balancing`` (Fowl Play and Red Light only), the learned players
``network`` (13 hidden units) and ``tree`` (40 leaves), fitted to the optimal table with
their default settings and seed (:mod:`.learned`), and ``best-response:NAME``, the best
response to the player ``NAME`` (:mod:`.best_response`; one bit per choice state, like the
optimal player).

>>> from exactprob.games.jeopardy.policies import optimal_policy_table
>>> from exactprob.games.jeopardy.rules import Pig
>>> from exactprob.games.jeopardy.solving.solver import solve_race
>>> game = Pig(goal=6)
>>> optimal = optimal_policy_table(solve_race(game))
>>> players = [player_named(game, name, optimal) for name in ("optimal", "hold-at-2")]

Pig to 6 has 90 choice states: 15 pairs of a score :math:`a` and a turn total
:math:`1 \le k < 6 - a`, for each of 6 opponent's scores.

>>> [(p.name, p.parameters) for p in players]
[('optimal', 90), ('hold-at-2', 1)]
>>> wins = round_robin(game, players, exact=True)
>>> wins["optimal", "optimal"]  # the optimal game: the first player wins 24/31
Fraction(24, 31)
>>> wins["hold-at-2", "optimal"] < wins["optimal", "optimal"] < wins["optimal", "hold-at-2"]
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ....errors import ModelError, NonTerminationError
from ....util.limits import DEFAULT_MAX_STATES
from ....util.progress import progress_bar
from ..fairness import Win
from ..policies import (
    PolicyTable,
    choice_states,
    hold_at,
    keep_pace,
    policy_table,
    risk_balancing,
)
from ..rules import FowlPlay, Jeopardy, Pig
from ..solving.certified import enclose_matchup
from .best_response import best_response
from .learned import fit_network, fit_tree
from .matchup import check_ends, passing_scores, play_off

__all__ = [
    "BEST_RESPONSE",
    "NAMES",
    "NeverEnds",
    "Player",
    "check_player_name",
    "player_named",
    "round_robin",
]

NAMES = (
    "optimal, hold-at-N (N from 1 to 999999), keep-pace (Pig), risk-balancing (Fowl Play), "
    "network, tree, best-response:NAME (to any of these)"
)

BEST_RESPONSE = "best-response:"


@dataclass(frozen=True)
class Player:
    """A named policy table and the number of parameters that define it."""

    name: str
    table: PolicyTable
    parameters: int


HOLD_AT = re.compile(r"hold-at-([1-9][0-9]{0,5})")


def check_player_name(game: Jeopardy, name: str) -> None:
    """Refuse a name :func:`player_named` does not know, in one line.

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> check_player_name(Pig(), "risk-balancing")
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: unknown player 'risk-balancing' for Pig; choose from ...
    """
    target = name.removeprefix(BEST_RESPONSE)
    known = target in ("optimal", "network", "tree") or HOLD_AT.fullmatch(target) is not None
    fits = (target == "risk-balancing" and isinstance(game, FowlPlay)) or (
        target == "keep-pace" and isinstance(game, Pig)
    )
    if not (known or fits):
        raise ModelError(f"unknown player {name!r} for {game.name}; choose from {NAMES}")


def player_named(
    game: Jeopardy,
    name: str,
    optimal: PolicyTable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Player:
    """The player called ``name`` for ``game`` (``optimal``: the given optimal table, which
    the learned players are also fitted to); a best response goes through at most
    ``max_states`` states (:func:`.best_response.best_response`), with bars when
    ``progress``."""
    check_player_name(game, name)
    if name.startswith(BEST_RESPONSE):
        target = player_named(game, name.removeprefix(BEST_RESPONSE), optimal)
        exact = optimal.undecided is None
        table = best_response(
            game, target.table, optimal, exact, max_states=max_states, progress=progress
        )
        return Player(name, table, int(choice_states(game).sum()))
    if name in ("network", "tree"):
        learned = (fit_network if name == "network" else fit_tree)(game, optimal)
        return Player(name, learned.table, learned.parameters)
    if name == "optimal":
        return Player(name, optimal, int(choice_states(game).sum()))
    if name == "risk-balancing":
        return Player(name, policy_table(game, risk_balancing(game)), 0)
    if name == "keep-pace":  # 29 (the race's end), 21 and 8
        return Player(name, policy_table(game, keep_pace(game)), 3)
    total = int(HOLD_AT.fullmatch(name).group(1))  # type: ignore[union-attr]
    return Player(name, policy_table(game, hold_at(total)), 1)


def round_robin(
    game: Jeopardy,
    players: Sequence[Player],
    exact: bool,
    komi: int = 0,
    progress: bool = False,
) -> dict[tuple[str, str], Win | NeverEnds]:
    """The first player's chance for every ordered pair ``(first, second)`` of players,
    when the second starts with ``komi`` points: exact (:func:`.matchup.play_off`) or
    enclosed (:func:`.certified.enclose_matchup`, Fowl Play only); a pair that can pass
    the turn back and forth forever is :class:`NeverEnds`, and the others are answered."""
    wins: dict[tuple[str, str], Win | NeverEnds] = {}
    with progress_bar(progress, "match-ups", total=len(players) ** 2) as bar:
        for first in players:
            for second in players:
                try:
                    win: Win | NeverEnds = _first_player_win(game, first, second, exact, komi)
                except NonTerminationError as error:
                    win = NeverEnds(str(error))
                wins[first.name, second.name] = win
                bar.update()
    return wins


@dataclass(frozen=True)
class NeverEnds:
    """A match-up whose play can go on forever, so it has no first player's chance:
    ``why``, in one line."""

    why: str


def _first_player_win(game: Jeopardy, first: Player, second: Player, exact: bool, komi: int) -> Win:
    if exact or not isinstance(game, FowlPlay):
        return play_off(game, first.table, second.table).first_player_win(komi)
    check_ends(game, first.table, second.table, passing_scores(game, first.table, second.table))
    enclosed = enclose_matchup(game, first.table, second.table)
    check_ends(game, first.table, second.table, enclosed.unsettled_starts())
    return enclosed.first_player_win(komi)
