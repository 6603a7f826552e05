r"""A jeopardy race played alone: the fewest expected turns to reach the goal, the policy
that achieves it, and the law of the number of turns under that policy.

The model (:class:`SolitaireModel`) pays a cost of one on the first draw of every turn and
player 1 minimises it (rewards: :mod:`exactprob.engine._internal.rewards`); the law of
the turns is the solution's :meth:`~exactprob.engine.exact.solution.Solution.reward_distribution`.

Pig to 2 with a d6: a turn reaches 2 unless its first roll is a 1, so the number of turns
is geometric with success :math:`5/6`: :math:`6/5` turns on average and
:math:`P(\text{turns} = n) = (1/6)^{n-1} (5/6)`, so one turn is the median, two turns
finish with chance :math:`35/36 \ge 90\%` and three with :math:`215/216 \ge 99\%`:

>>> print(solitaire_report(Pig(goal=2)).text())
Solitaire Pig to 2 with a d6, fewest expected turns
  expected turns  1.2000000000 = 6/5
  states  6
  holds at (scores: turn total)  0: 2
  exactly tied choices  0
  turns needed  median: 1, 90%: 2, 99%: 3
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...engine import Dist, Solution, solve
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.numbers import exact_fields, probability_rows
from ...util.text import exact_text
from .report import rules_fields, rules_title
from .rules import FowlPlay, Jeopardy, Pig, turn_actions

__all__ = [
    "LAW_LIMIT",
    "SolitaireModel",
    "SolitaireReport",
    "SoloMoves",
    "SoloState",
    "refuse_large_solitaire",
    "solitaire_report",
    "solo_states",
    "turn_start",
]

SoloState = tuple[int, int, Any]
"""``(score, turn total, deck)``."""
#: The law of the turns is computed when states times its cap stay within this many.
LAW_LIMIT = 4_000_000
#: The quantiles of the number of turns the text shows.
QUANTILES = (("median", Fraction(1, 2)), ("90%", Fraction(9, 10)), ("99%", Fraction(99, 100)))


class SoloMoves:
    """``game`` played alone: states ``(score, turn total, deck)``, starting at 0 on a
    fresh deck. A turn total of 0 must draw; a player at the goal in Fowl Play must hold
    (in Pig the roll that reaches it ends the game). What is asked of it (the fewest
    turns, the best chance within some) is a subclass's outcome."""

    def __init__(self, game: Jeopardy) -> None:
        self.game = game
        self.initial: SoloState = (0, 0, game.fresh)

    def actions(self, state: SoloState) -> tuple[str, ...]:
        return turn_actions(self.game, state[0], state[1])

    def transition(self, state: SoloState, action: str) -> Dist[SoloState]:
        score, total, deck = state
        if action == "hold":
            return Dist({(score + total, 0, deck): 1})
        game = self.game
        after_draw: dict[SoloState, Fraction] = {}
        for p, gain, after in game.draws(deck):
            if gain == 0:
                nxt = (score, 0, after)
            elif score + total + gain >= game.goal and not game.hold_to_win:
                nxt = (score + total + gain, 0, after)
            else:
                nxt = (score, total + gain, after)
            after_draw[nxt] = after_draw.get(nxt, 0) + p
        return Dist(after_draw)


def solo_states(game: Jeopardy) -> int:
    """The non-terminal states of ``game`` played alone, counted as the two-player game's
    are (:meth:`~exactprob.games.jeopardy.rules.Pig.nonterminal_states`) without the
    opponent's score: :math:`g(g+1)/2` for Pig to :math:`g`.

    >>> solo_states(Pig(goal=100)), solo_states(Pig(goal=10_000))
    (5050, 50005000)
    """
    return game.nonterminal_states() // game.goal


def refuse_large_solitaire(game: Jeopardy, max_states: int, turns: int | None = None) -> None:
    """Refuse, before any work, ``game`` played alone (within ``turns`` turns: a copy of
    each state per number of turns left) when its states pass ``max_states``."""
    states = solo_states(game) * (1 if turns is None else turns + 1)
    within = "" if turns is None else f" within {turns:,} turns"
    refuse_more_than(
        max_states, states, f"{game.name} to {game.goal} played alone{within}", at_most=True
    )


def turn_start(state: SoloState, action: str, after: SoloState | None = None) -> int:
    """1 for the first draw of a turn (the only one with a turn total of 0), else 0,
    whatever the move leads to: the cost of :class:`SolitaireModel`, and the turns as a
    counter (``counter(state, action, next_state)``) within a horizon.

    >>> turn_start((5, 0, 0), "roll"), turn_start((5, 3, 0), "roll", (5, 7, 0))
    (1, 0)
    """
    return 1 if state[1] == 0 else 0


class SolitaireModel(SoloMoves):
    """``game`` played alone (:class:`SoloMoves`), as a
    :class:`~exactprob.engine.model.Model` with a cost of one a turn that player 1
    minimises.

    Pig to 3: from 0 a turn wins on a 3 to 6 and reaches 2 on a 2, where rolling on
    (a 1 costs the turn) beats holding (6/5 more turns from 2), so the expected turns
    :math:`E` solve :math:`E = 1 + E/6 + (1/6)(E/6)`: :math:`E = 36/29`.

    >>> import exactprob as ep
    >>> solution = ep.solve(SolitaireModel(Pig(goal=3)))
    >>> solution.value(), solution.policy((0, 2, 0))
    (Fraction(36, 29), 'roll')
    """

    def outcome(self, state: SoloState) -> int | None:
        return 0 if state[0] >= self.game.goal else None

    def player(self, state: SoloState) -> int:
        return 1

    def reward(self, state: SoloState, action: str) -> int:
        """A turn starts with its first draw."""
        return turn_start(state, action)


@dataclass(frozen=True, eq=False)
class SolitaireReport(Report):
    """The solitaire race solved: the fewest expected ``turns``, the number of ``states``,
    each score's first turn total at which the policy holds (``holds``, on a fresh
    deck), the states whose draw and hold tie exactly, and the law of the number of turns
    (``law``: the chance of each count below its cap, then of the cap or more; ``None``
    above :data:`LAW_LIMIT`)."""

    game: Pig | FowlPlay
    turns: Fraction
    states: int
    holds: dict[int, int]
    ties: int
    law: Dist[int] | None = field(repr=False)

    def _build(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "game": self.game.name,
            "goal": self.game.goal,
            **rules_fields(self.game),
            **exact_fields("expected_turns", self.turns),
            "states": self.states,
            "holds": [{"score": a, "turn_total": k} for a, k in self.holds.items()],
            "tied_choices": self.ties,
        }
        if self.law is not None:
            payload["turns_law"] = probability_rows(dict(self.law.items()), "turns")
            payload["turns_law_capped_at"] = max(self.law.keys())
        return payload

    def text(self) -> str:
        """The report for people: the hold rule as runs of scores, the law of the turns
        as its quantiles (in full in the JSON)."""
        lines = [
            f"Solitaire {rules_title(self.game)}, fewest expected turns",
            f"  expected turns  {exact_text(self.turns)}",
            f"  states  {self.states:,}",
            *_wrapped("  holds at (scores: turn total)  ", _runs(self.holds)),
            f"  exactly tied choices  {self.ties:,}",
        ]
        if self.law is None:
            lines.append(
                f"  turns needed  (law not computed: over {LAW_LIMIT:,} states times turns)"
            )
        else:
            shown = ", ".join(f"{share}: {_quantile(self.law, q)}" for share, q in QUANTILES)
            lines.append(f"  turns needed  {shown}")
        return "\n".join(lines)


def solitaire_report(
    game: Pig | FowlPlay, *, max_states: int = DEFAULT_MAX_STATES, progress: bool = False
) -> SolitaireReport:
    """Solve ``game`` played alone (:class:`SolitaireModel`) and report it
    (:class:`SolitaireReport`); the law of the turns is capped at three times the expected
    turns, rounded up, plus one."""
    refuse_large_solitaire(game, max_states)
    solution = solve(SolitaireModel(game), max_states=max_states, progress=progress)
    assert isinstance(solution, Solution)
    turns = Fraction(solution.value())
    states = solution.states
    cap = 3 * math.ceil(turns) + 1
    law = solution.reward_distribution(cap=cap) if len(states) * cap <= LAW_LIMIT else None
    return SolitaireReport(
        game=game,
        turns=turns,
        states=len(states),
        holds=_holds(game, solution),
        ties=sum(len(solution.ties(s)) > 1 for s in states),
        law=law,
    )


def _wrapped(head: str, items: list[str], width: int = 88) -> list[str]:
    """``head`` and the comma-separated ``items`` in lines of at most ``width``
    characters (one item longer alone), the next lines indented by four.

    >>> _wrapped("  a  ", ["1: 2", "3-4: 5"], width=12)
    ['  a  1: 2,', '    3-4: 5']
    """
    lines, line = [], head
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if line.strip() and len(line) + len(piece) + 1 > width and line != head:
            lines.append(line.rstrip())
            line = "    "
        line += piece + " "
    return [*lines, line.rstrip()]


def _runs(holds: dict[int, int]) -> list[str]:
    """Scores with one threshold as runs: ``0-2: 19``, ``3-4: 23``.

    >>> _runs({0: 19, 2: 19, 3: 19, 4: 23, 5: 22})
    ['0: 19', '2-3: 19', '4: 23', '5: 22']
    """
    runs: list[list[int]] = []  # [first score, last score, threshold]
    for score, total in holds.items():
        if runs and runs[-1][2] == total and runs[-1][1] == score - 1:
            runs[-1][1] = score
        else:
            runs.append([score, score, total])
    return [f"{a}{'' if a == b else f'-{b}'}: {k}" for a, b, k in runs]


def _quantile(law: Dist[int], q: Fraction) -> str:
    """The fewest turns that finish with chance at least ``q`` (``"n or more"`` at the
    law's cap).

    >>> _quantile(Dist({1: "1/2", 2: "1/4", 3: "1/4"}), Fraction(3, 4))
    '2'
    """
    cap = max(law.keys())
    done = Fraction(0)
    for n, p in law.items():
        done += p
        if done >= q and n < cap:
            return str(n)
    return f"{cap} or more"


def _holds(game: Jeopardy, solution: Solution) -> dict[int, int]:
    """Each score's first turn total at which the policy holds, on a turn that began on
    a fresh deck and has not busted (the goal minus the score when it draws on)."""
    holds: dict[int, int] = {}
    known = solution.graph.index
    for score in range(game.goal):
        if (score, 0, game.fresh) not in known:
            continue  # no turn starts there on a fresh deck
        total = 0
        while score + total < game.goal:
            state = (score, total, game.deck_after(total) if total else game.fresh)
            if total and state in known and solution.policy(state) == "hold":
                break
            total += 1
        holds[score] = total
    return holds
