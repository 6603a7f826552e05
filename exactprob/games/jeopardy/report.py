r"""A jeopardy race answered in full, one call (:func:`race_report`): the first player's
chance with both players optimal, exact or certified, at every komi and the fairest komi;
beside it, when asked, fixed and learned players matched against each other. One result
(:class:`RaceReport`) with its JSON form, its text and its figure (the optimal hold
boundary), which is all the ``pig``, ``fowl-play`` and ``red-light`` commands print.

Pig to 2: any roll but a 1 reaches the goal, so the player to move wins with
:math:`P = 5/6 + (1/6)^2 P = 6/7`, with or without a komi of 1 (one roll of 2 to 6 still
wins), so komi 0 and 1 tie as the fairest; the non-terminal states are
:math:`g \cdot g (g + 1)/2 = 6`:

>>> print(race_report(Pig(goal=2)).text())
Pig to 2 with a d6, komi 0, both players optimal
  first player wins  0.8571428571 = 6/7
  non-terminal states  6
  fairest komi  0, 1 (first player wins 0.8571428571)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ...engine import Method, solve, value_fields
from ...errors import ModelError, StateLimitError, UsageError
from ...util.deprecation import ReportMethod, method_of_exact
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES, check_max_states, limit_name, raise_limit
from ...util.numbers import decimal_string, digit_count, exact_fields
from ...util.text import PLACES, count_text, decimal_text, exact_text
from .fairness import Win, fairest_komi, komi_wins
from .players import (
    BEST_RESPONSE,
    NeverEnds,
    Player,
    check_response_size,
    player_named,
    round_robin,
)
from .policies import PolicyTable, agreement, hold_thresholds, optimal_policy_table
from .rules import FowlPlay, JeopardyModel, Pig, check_komi
from .solving.certified import MAX_CERTIFIED_STATES
from .solving.fast_paths import solved_race

__all__ = [
    "EXACT_LIMIT",
    "MAX_EXACT_STATES",
    "RaceReport",
    "check_size",
    "is_exact",
    "race_report",
    "refuse_above",
    "rules_fields",
    "rules_title",
]

#: Fowl Play games with more non-terminal states are enclosed unless asked to be exact.
EXACT_LIMIT = 500_000
#: The most non-terminal states :func:`race_report` solves exactly unless given
#: ``max_states`` (Pig to 100 has 505,000 and takes about 15 s; the time grows faster than
#: the states, as the exact numbers grow longer); certified solves take up to
#: :data:`~.certified.MAX_CERTIFIED_STATES`.
MAX_EXACT_STATES = 2_000_000


def is_exact(game: Pig | FowlPlay, exact: bool | None) -> bool:
    """Pig always; Fowl Play up to :data:`EXACT_LIMIT` non-terminal states unless
    ``exact`` says (``True``: exact at any size, ``False``: certified)."""
    if exact is None:
        return isinstance(game, Pig) or game.nonterminal_states() <= EXACT_LIMIT
    return isinstance(game, Pig) or exact


def check_size(game: Pig | FowlPlay, exact: bool, max_states: int | None = None) -> None:
    """Refuse, before any work, a race with more non-terminal states than ``max_states``
    (by default :data:`MAX_EXACT_STATES` exact, :data:`~.certified.MAX_CERTIFIED_STATES`
    certified).

    >>> check_size(Pig(goal=20), exact=True, max_states=4199)
    Traceback (most recent call last):
    ...
    exactprob.errors.StateLimitError: the game has 4,200 non-terminal states, more than the \
max_states of 4,199; pass max_states=4200 to try anyway
    """
    default = MAX_EXACT_STATES if exact else MAX_CERTIFIED_STATES
    how = f"solved {'exact' if exact else 'certified'}"
    refuse_above("the game has", game.nonterminal_states(), max_states, default, how)


def refuse_above(
    subject: str, states: int, max_states: int | None, default: int, how: str = "solved"
) -> None:
    """Refuse ``states`` non-terminal states over ``max_states`` (``None``: over
    ``default``, which is ``how`` the game is solved by default), in one line that begins
    with ``subject`` and names the ``max_states`` to pass.

    >>> refuse_above("the race has", 5, 4, 10)
    Traceback (most recent call last):
    ...
    exactprob.errors.StateLimitError: the race has 5 non-terminal states, more than the \
max_states of 4; pass max_states=5 to try anyway
    """
    if max_states is None:
        limit, than = default, f"the {default:,} {how} by default"
    else:
        limit, than = check_max_states(max_states), f"the {limit_name()} of {max_states:,}"
    if states > limit:
        raise StateLimitError(
            f"{subject} {states:,} non-terminal states, more than {than}; "
            f"{raise_limit(states)} to try anyway"
        )


def payload_of(game: Pig | FowlPlay, komi: int, wins: list[Win], exact: bool) -> dict[str, Any]:
    """The JSON report: the game, the first player's chance at ``komi`` (exact, or
    enclosed with its bounds and width), the state count, and the chance for every komi."""
    win = wins[komi]
    payload = {
        "game": game.name,
        "goal": game.goal,
        **rules_fields(game),
        "komi": komi,
        "exact": exact,
        **value_fields("first_player_win", win),
        "nonterminal_states": game.nonterminal_states(),
        "fairest_komi": list(fairest_komi(wins)),
        "komi_table": [
            {"komi": komi, **value_fields("first_player_win", w)} for komi, w in enumerate(wins)
        ],
    }
    if isinstance(win, Fraction):
        payload["denominator_digits"] = digit_count(win.denominator)
    return payload


def rules_fields(game: Pig | FowlPlay) -> dict[str, int]:
    """The game's die, or deck, as JSON fields."""
    if isinstance(game, Pig):
        return {"sides": game.sides}
    return {"chickens": game.chickens, "wolves": game.wolves}


def rules_title(game: Pig | FowlPlay) -> str:
    """The game in words: ``Pig to 100 with a d6``."""
    if isinstance(game, Pig):
        return f"{game.name} to {game.goal} with a d{game.sides}"
    chickens = count_text(game.chickens, "chicken")
    wolves = count_text(game.wolves, "wolf", "wolves")
    return f"{game.name} to {game.goal}, {chickens} and {wolves}"


def text_of(game: Pig | FowlPlay, komi: int, wins: list[Win]) -> str:
    """The readable report, at ``komi``."""
    rules = rules_title(game)
    fairest = fairest_komi(wins)
    fairest_line = (
        f"  fairest komi  {', '.join(map(str, fairest))} "
        f"(first player wins {decimal_text(wins[fairest[0]])})"
    )
    return "\n".join(
        [
            f"{rules}, komi {komi}, both players optimal",
            f"  first player wins  {exact_text(wins[komi])}",
            f"  non-terminal states  {game.nonterminal_states():,}",
            fairest_line,
        ]
    )


def players_text(players: list[Player], agreements: list[Fraction]) -> str:
    """One line per player: its parameters and its agreement with the optimal choices."""
    width = max(len(player.name) for player in players)
    return "\n".join(
        ["  players  (parameters; optimal choices matched)"]
        + [
            f"    {player.name:<{width}}  {player.parameters:>9,}  {decimal_text(a)}"
            for player, a in zip(players, agreements, strict=True)
        ]
    )


def matchups_text(names: list[str], wins: dict[tuple[str, str], Win | NeverEnds]) -> str:
    """The round robin as a matrix: the first player's chance, first player by row."""
    width = max(len(name) for name in names)
    cells = {key: _short(win) for key, win in wins.items()}
    column = max(12, *(len(text) for text in [*names, *cells.values()]))
    header = " " * (width + 4) + "".join(f"{name:>{column + 2}}" for name in names)
    rows = [
        f"    {first:<{width}}"
        + "".join(f"{cells[first, second]:>{column + 2}}" for second in names)
        for first in names
    ]
    return "\n".join(["  first player's chance (row moves first, column second)", header, *rows])


def _short(win: Win | NeverEnds) -> str:
    """A cell of the matrix: the decimal of the value, or of an enclosure's midpoint when
    it is narrower than the last place shown; a wider enclosure is shown as its ends
    rounded outward, so the interval shown holds it (``--json`` has them in full); a
    match-up that can go on forever, ``never ends``.

    >>> from exactprob import Enclosure
    >>> _short(Enclosure(Fraction("0.12345678906"), Fraction("0.98765432104")))
    '[0.1234567890, 0.9876543211]'
    """
    if isinstance(win, NeverEnds):
        return "never ends"
    if isinstance(win, Fraction) or win.width() <= Fraction(1, 10**PLACES):
        return decimal_text(win)
    unit = 10**PLACES
    low, high = math.floor(win.low * unit), math.ceil(win.high * unit)
    return f"[{decimal_string(Fraction(low, unit), PLACES)}, {decimal_string(Fraction(high, unit), PLACES)}]"


@dataclass(frozen=True, eq=False)
class RaceReport(Report):
    """The race solved (``wins``: the first player's chance at every komi, ``komi`` the
    one asked about), and the players matched at that komi when asked."""

    game: Pig | FowlPlay
    komi: int
    exact: bool
    wins: list[Win] = field(repr=False)
    table: PolicyTable | None = field(default=None, repr=False)
    players: list[Player] = field(default_factory=list, repr=False)
    matchups: dict[tuple[str, str], Win | NeverEnds] = field(default_factory=dict, repr=False)

    @cached_property
    def agreements(self) -> list[Fraction]:
        """Each player's share of the optimal choices it makes."""
        table = self.table
        return [] if table is None else [agreement(self.game, table, p.table) for p in self.players]

    def _build(self) -> dict[str, Any]:
        payload = payload_of(self.game, self.komi, self.wins, self.exact)
        if self.table is not None and self.table.undecided is not None:
            payload["undecided_choices"] = int(self.table.undecided.sum())
        if self.players:
            payload["players"] = [
                {"name": p.name, "parameters": p.parameters, **exact_fields("agreement", a, 6)}
                for p, a in zip(self.players, self.agreements, strict=True)
            ]
            payload["matchups"] = [
                {
                    "first": first,
                    "second": second,
                    **(
                        {"never_ends": win.why}
                        if isinstance(win, NeverEnds)
                        else value_fields("first_player_win", win)
                    ),
                }
                for (first, second), win in self.matchups.items()
            ]
        return payload

    def text(self) -> str:
        """The report for people."""
        text = text_of(self.game, self.komi, self.wins)
        if self.table is not None and self.table.undecided is not None:
            undecided = int(self.table.undecided.sum())
            text += f"\n  choices the enclosure leaves undecided  {undecided:,}"
        if self.players:
            names = [p.name for p in self.players]
            text += "\n" + players_text(self.players, self.agreements)
            text += "\n" + matchups_text(names, self.matchups)
        return text

    def figure(self) -> Any:
        """The optimal player's hold boundary (matplotlib axes); the report must keep the
        optimal table (``race_report(..., table=True)``)."""
        from .figures import hold_boundary_figure

        if self.table is None:
            raise UsageError("the hold boundary needs the optimal table: pass table=True")
        title = f"{self.game.name} to {self.game.goal}"
        return hold_boundary_figure(hold_thresholds(self.game, self.table), title)


def race_report(
    game: Pig | FowlPlay,
    komi: int = 0,
    *,
    method: ReportMethod | None = None,
    exact: bool | None = None,
    max_states: int | None = None,
    players: list[str] | None = None,
    table: bool = False,
    progress: bool = False,
) -> RaceReport:
    """Solve ``game`` by ``method`` (``"exact"``, ``"certified"``, or by default as
    :func:`is_exact` decides; Pig is always exact; ``exact=`` is the deprecated
    spelling) at every komi, asking
    about ``komi`` (the second player's head start); match ``players`` (names of
    :data:`~exactprob.games.jeopardy.players.roster.NAMES`) against each other at that
    komi; keep the optimal policy table when ``table`` (for the figure). A game larger
    than ``max_states`` is refused before any work (:func:`check_size`), and so is an
    exact best response among the players with more states than ``max_states`` (by
    default 2,000,000; :func:`~exactprob.games.jeopardy.players.check_response_size`)."""
    check_komi(game, komi)
    if players and game.goal < 2:
        raise ModelError(
            f"players need a goal of 2 or more (no choice to make below), got {game.goal}"
        )
    chosen = method_of_exact(exact, method)
    exact = is_exact(game, None if chosen is None else chosen == "exact")
    check_size(game, exact, max_states)
    response_states = DEFAULT_MAX_STATES if max_states is None else max_states
    if exact and any(name.startswith(BEST_RESPONSE) for name in players or []):
        check_response_size(game, response_states)  # before the race is solved
    # the front door, which takes the race's fast paths (the whole game, every komi)
    solving: Method = "exact" if exact else "certified"
    states = max(game.nonterminal_states(), 1)
    solution = solved_race(
        solve(JeopardyModel(game), solving, max_states=states, progress=progress)
    )
    wins = komi_wins(solution)
    if not (players or table):
        return RaceReport(game, komi, exact, wins)
    optimal = optimal_policy_table(solution)
    named = [
        player_named(game, name, optimal, max_states=response_states, progress=progress)
        for name in players or []
    ]
    matchups = round_robin(game, named, exact, komi, progress) if named else {}
    return RaceReport(game, komi, exact, wins, optimal, named, matchups)
