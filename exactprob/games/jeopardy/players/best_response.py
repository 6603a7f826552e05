r"""The best response to a fixed player: how well can one do against *this* opponent?

Two questions are easy to confuse. The *optimal* player
(:mod:`exactprob.games.jeopardy.solving.solver`) maximises its chance against an opponent who also
plays optimally: the game's minimax value, the guarantee against anyone. The *best
response* to a given player maximises its chance against that player alone, and may lose
more against others. Neller and Presser's
"optimal vs hold at 20" figures (58.74% moving first, 47.76% for hold at 20 moving first,
55.49% on average) answer the second question; the optimal player wins only 57.15% moving
first against hold at 20 and 50.83% moving second.

With the opponent's choices fixed the game is a Markov decision process for one player.
Exactly, it is solved one turn-start cycle at a time by the game's own policy iteration
(:func:`.response.respond`). The generic engine solves it too (:func:`engine_response`),
on :class:`~.rules.JeopardyModel`'s states with the opponent's choices restricted to its
table's, from every turn start at once; the two give the same table on every game small
enough for the engine (``tests/test_jeopardy_best_response.py``). Certified, by the game's
own interval sweep with one side maximising (:func:`.certified.enclose_best_response`),
which takes the full Fowl Play. The response is then a
:class:`~exactprob.games.jeopardy.policies.PolicyTable` like any other player, and its
match-ups are valued by :func:`.matchup.play_off` (exact) or
:func:`.certified.enclose_matchup`.

>>> from exactprob.games.jeopardy.players.matchup import play_off
>>> from exactprob.games.jeopardy.policies import hold_at, policy_table
>>> from exactprob.games.jeopardy.rules import Pig
>>> game = Pig(goal=10)
>>> hold3 = policy_table(game, hold_at(3))
>>> response = best_response(game, hold3, fill=hold3, exact=True)
>>> play_off(game, response, hold3).first_player_win() > play_off(game, hold3, hold3).first_player_win()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from ....engine import Dist
from ....errors import ModelError
from ....util.limits import DEFAULT_MAX_STATES, check_max_states, raise_limit, refuse_more_than
from ..policies import PolicyTable, check_table, deck_cards
from ..rules import FowlPlay, Jeopardy, JeopardyModel
from ..solving.certified import enclose_best_response
from ..solving.response import respond

__all__ = ["best_response", "check_response_size", "engine_response"]

_EVERYWHERE = "every turn start"


class _AgainstFixed(JeopardyModel):
    """The game from every turn start at once (the initial state moves to each with the
    same chance), player 1's choices fixed by ``opponent``."""

    def __init__(self, game: Jeopardy, opponent: PolicyTable) -> None:
        super().__init__(game)
        self.opponent = opponent
        self.initial = _EVERYWHERE  # type: ignore[assignment]
        # the exploring bar's total: every non-terminal state with either mover, about
        # 94% of them reached (a turn total of 1 never is in Pig)
        self.expected_states = 2 * game.nonterminal_states() + 1
        goal = game.goal
        self.starts = [
            (s0, s1, 0, deck, mover)
            for s0 in range(goal)
            for s1 in range(goal)
            for deck in game.decks()
            for mover in (0, 1)
        ]

    def outcome(self, state: Any) -> int | None:
        return None if state == _EVERYWHERE else super().outcome(state)

    def player(self, state: Any) -> int:
        return 0 if state == _EVERYWHERE else super().player(state)

    def actions(self, state: Any) -> tuple[str, ...]:
        if state == _EVERYWHERE:
            return ("start",)
        actions = super().actions(state)
        s0, s1, k, deck, mover = state
        if mover == 0 or len(actions) == 1:
            return actions
        holds = self.opponent.holds[(s1, s0, k, *deck_cards(deck))]
        return ("hold",) if holds else (self.game.draw_word,)

    def transition(self, state: Any, action: str) -> Dist[Any]:
        if state == _EVERYWHERE:
            return Dist({start: Fraction(1, len(self.starts)) for start in self.starts})
        return super().transition(state, action)


def check_response_size(game: Jeopardy, max_states: int = DEFAULT_MAX_STATES) -> None:
    """Refuse, before any work, an exact best response in ``game`` past ``max_states``:
    it goes through twice the game's non-terminal states (both movers).

    >>> from exactprob.games.jeopardy.rules import Pig
    >>> check_response_size(Pig(goal=30), max_states=27_899)
    Traceback (most recent call last):
    ...
    exactprob.errors.StateLimitError: an exact best response in Pig to 30 has up to 27,900 \
states, more than the limit of 27,899; take a smaller goal or deck, or pass max_states=27900 \
to go on
    """
    states = 2 * game.nonterminal_states()
    check_max_states(max_states)
    certified = ", the certified response (--certified)" if isinstance(game, FowlPlay) else ""
    smaller = f"a smaller goal or deck{certified}"
    refuse_more_than(
        max_states,
        states,
        f"an exact best response in {game.name} to {game.goal}",
        at_most=True,
        how=f"take {smaller}, or {raise_limit(states)}",
    )


def best_response(
    game: Jeopardy,
    opponent: PolicyTable,
    fill: PolicyTable,
    exact: bool,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> PolicyTable:
    """The best response to ``opponent`` as a policy table. Exact (``exact``): every
    choice compared in rationals (an exact tie holds, as the optimal table does), and where
    no game against ``opponent`` can go (a turn total of 1 in Pig) the table copies
    ``fill``; refused up front past ``max_states`` (twice the game's non-terminal states:
    each with either player to move). Certified (Fowl Play): the game's own
    interval sweep (:func:`.certified.enclose_best_response`), with the choices the
    enclosures cannot separate marked ``undecided``; it takes the full game in seconds.
    ``progress`` shows bars (Pig to 100: about 1.7 times the optimal race)."""
    check_table(game, opponent, "opponent table")
    check_table(game, fill, "fill table")
    if not exact:
        if not isinstance(game, FowlPlay):
            raise ModelError("a certified best response is for Fowl Play; Pig's is exact")
        return enclose_best_response(game, opponent)
    check_response_size(game, max_states)
    return respond(game, opponent, fill, progress)


def engine_response(
    game: Jeopardy,
    opponent: PolicyTable,
    fill: PolicyTable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> PolicyTable:
    """The exact best response by the generic engine (:func:`exactprob.solve`) on the game
    against ``opponent`` from every turn start at once, as :func:`best_response` makes it:
    the choices where draw and hold tie exactly hold, and the states the engine does not
    reach copy ``fill``. The tests check the game's own cycles (:func:`.response.respond`)
    against it; it is slower (Pig to 100 against hold at 20: 1.6 times as long, five
    times the memory)."""
    check_response_size(game, max_states)
    from .... import solve  # the engine, loaded when a response is asked for

    model = _AgainstFixed(game, opponent)
    solution = solve(model, max_states=max_states + 1, progress=progress)  # + the start
    holds = fill.holds.copy()
    for state, index in _choices(model, solution.states):
        holds[index] = "hold" in solution.ties(state)
    return PolicyTable(holds)


def _choices(model: _AgainstFixed, states: Iterable[Any]) -> Iterator[tuple[Any, tuple[int, ...]]]:
    """Player 0's states with a choice, each with its policy-table index ``(a, b, k, w, c)``."""
    for state in states:
        if state == _EVERYWHERE or model.outcome(state) is not None:
            continue
        s0, s1, k, deck, mover = state
        if mover == 0 and len(model.actions(state)) == 2:
            yield state, (s0, s1, k, *deck_cards(deck))
