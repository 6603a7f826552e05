"""One fight answered in full, the game's single entry point for a question about a
fight: the chance of victory under a luck policy, the same without luck, the first
decision with its exact tie, the laws of rounds, luck spent and stamina left. It is one
result (:class:`FightReport`) with its JSON form and its text, which is all the
``exactprob ff`` command prints.

>>> report = fight_report((10, 4, 0), (10, 4))
>>> report.win  # equal skill, no luck: by symmetry
Fraction(1, 2)
>>> report.to_json()["strategy_meaning"]
'never'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...engine import evaluate, solve
from ...util.display import Report
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import exact_fields, exact_map_fields
from ...util.text import decimal_text, table_lines
from .closed_forms import no_luck_value
from .fast_paths import grid_of
from .grid import STRATEGY_CODES, FightGrid, solve_grid
from .model import FightModel, engine_policy
from .outcomes import FightOutcomes, outcomes_of
from .rules import round_odds
from .terms import Fight, LuckPolicy, Objective

__all__ = ["LONG_SOLVE_STATES", "FightReport", "fight_report"]

#: Fights with this many states or more show a progress bar (when bars are asked for).
LONG_SOLVE_STATES = 200_000


@dataclass(frozen=True, eq=False)
class FightReport(Report):
    """A solved fight and what the report says of it (see :func:`fight_report`)."""

    hero: tuple[int, int, int]
    opponent: tuple[int, int]
    policy: str
    rounds_cap: int | None
    grid: FightGrid = field(repr=False)
    outcome: FightOutcomes = field(repr=False)
    no_luck_win: Fraction

    @property
    def fight(self) -> Fight:
        """The fight solved (skill difference, staminas, luck, rule, objective)."""
        return self.grid.fight

    @property
    def delta(self) -> int:
        """Hero skill minus opponent skill."""
        return self.fight.delta

    @property
    def win(self) -> Fraction:
        """The chance of victory under the policy."""
        return self.outcome.win

    def _start(self) -> tuple[int, int, int]:
        return self.hero[1], self.opponent[1], self.hero[2]

    def decision(self, won: bool) -> dict[str, Any] | None:
        """The first decision after a won (``won``) or lost round: test luck or not, the
        two values and whether they tie exactly; ``None`` without luck."""
        hero, opponent, luck = self._start()
        if luck == 0:
            return None
        no, yes = self.grid.options(won, hero, opponent, luck)
        assert yes is not None
        return {
            "test_luck": self.grid.uses_luck(won, hero, opponent, luck),
            "tie": yes == no,
            **exact_fields("value_with_luck", yes),
            **exact_fields("value_without_luck", no),
        }

    def note(self) -> str | None:
        """Why the answer is exactly 0 or 1 when the dice cannot bridge the skill gap."""
        odds = round_odds(self.delta)
        if odds.lose == 0:
            return (
                f"skill difference {self.delta} >= 10: the opponent's 2d6 can never beat the "
                "hero's, so the hero cannot lose"
            )
        if odds.win == 0:
            return (
                f"skill difference {self.delta} <= -10: the hero's 2d6 can never beat the "
                "opponent's, so the hero cannot win"
            )
        return None

    def _build(self) -> dict[str, Any]:
        """The JSON form, computed once (the law of the rounds can take minutes)."""
        hero, opponent, luck = self._start()
        outcome, grid = self.outcome, self.grid
        payload: dict[str, Any] = {
            "hero": {"skill": self.hero[0], "stamina": hero, "luck": luck},
            "opponent": {"skill": self.opponent[0], "stamina": opponent},
            "delta": self.delta,
            "rule": self.fight.rule.name,
            "policy": self.policy,
            **exact_fields("win", outcome.win),
        }
        objective = self.fight.objective
        if not objective.is_win:
            payload["objective"] = {
                "keep_stamina": objective.keep_stamina,
                "keep_luck": objective.keep_luck,
            }
            payload.update(exact_fields("objective_value", grid.value(hero, opponent, luck)))
        payload.update(exact_fields("no_luck_win", self.no_luck_win))
        odds = round_odds(self.delta)
        payload.update(exact_map_fields("round", vars(odds)))
        payload["strategy"] = grid.strategy(hero, opponent, luck)
        payload["strategy_meaning"] = STRATEGY_CODES[payload["strategy"]]
        payload["first_decision"] = {
            "after_won_round": self.decision(True),
            "after_lost_round": self.decision(False),
        }
        payload.update(exact_fields("expected_rounds", outcome.expected_rounds))
        payload.update(exact_map_fields("decisive_rounds", outcome.decisive_rounds))
        payload.update(exact_map_fields("luck_spent", outcome.luck_spent))
        if outcome.win:
            payload.update(exact_map_fields("stamina_on_victory", outcome.stamina_on_victory))
        if self.rounds_cap is not None:
            cap = self.rounds_cap
            rounds = {(f"{k}+" if k == cap else str(k)): p for k, p in outcome.rounds(cap).items()}
            payload.update(exact_map_fields("rounds", rounds))
        payload["states_solved"] = sum(1 for _ in grid.states()) * len(grid.flags)
        note = self.note()
        if note:
            payload["note"] = note
        return payload

    def text(self) -> str:
        """The report for people: the chances as decimals and exact fractions, the
        strategy now, the first decision and its tie."""
        payload = self._json
        hero, opponent = payload["hero"], payload["opponent"]
        title = (
            f"Fighting Fantasy: hero skill {hero['skill']} stamina {hero['stamina']} luck "
            f"{hero['luck']} against skill {opponent['skill']} stamina {opponent['stamina']} "
            f"(rule {self.fight.rule.name}, policy {self.policy})"
        )
        lines = [title]
        rows = [("hero wins", self.win), ("without any luck", self.no_luck_win)]
        if "objective_value" in payload:
            rows.append(("objective", Fraction(payload["objective_value"])))
        rows.append(("expected rounds", self.outcome.expected_rounds))
        rows += [(f"{key} rounds", Fraction(p)) for key, p in payload.get("rounds", {}).items()]
        lines += table_lines(rows)
        lines.append(
            f"  strategy now: {payload['strategy']} (test luck {payload['strategy_meaning']})"
        )
        for key, label in (
            ("after_won_round", "after a won round"),
            ("after_lost_round", "after a lost round"),
        ):
            decision = payload["first_decision"][key]
            if decision is not None:
                verdict = "test luck" if decision["test_luck"] else "keep luck"
                tie = " (exact tie: either choice is optimal)" if decision["tie"] else ""
                lines.append(
                    f"  {label}: {verdict}{tie}; chance of victory with luck "
                    f"{decimal_text(decision['value_with_luck'])}, without "
                    f"{decimal_text(decision['value_without_luck'])}"
                )
        if "note" in payload:
            lines.append(f"  note: {payload['note']}")
        return "\n".join(lines)


def fight_report(
    hero: tuple[int, int, int],
    opponent: tuple[int, int],
    *,
    rule: str = "standard",
    policy: LuckPolicy | None = None,
    policy_label: str = "optimal",
    objective: Objective | None = None,
    rounds_cap: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> FightReport:
    """Solve the fight of ``hero`` (skill, stamina, luck) against ``opponent`` (skill,
    stamina) under ``policy`` (optimal luck when ``None``; ``policy_label`` names it in
    the report), for ``objective`` (the plain chance of victory by default), with the
    law of the number of rounds up to ``rounds_cap`` when asked; ``progress`` shows a bar
    on long solves (:data:`LONG_SOLVE_STATES`)."""
    (hero_skill, hero_stamina, luck), (opponent_skill, opponent_stamina) = hero, opponent
    fight = Fight(
        hero_skill - opponent_skill, hero_stamina, opponent_stamina, luck, rule, objective
    )
    bar = progress and fight.states >= LONG_SOLVE_STATES
    model = FightModel(fight)  # the front door takes the grid, optimal or under the policy
    solved = (
        solve(model, max_states=max_states, progress=bar)
        if policy is None
        else evaluate(model, engine_policy(policy), max_states=max_states, progress=bar)
    )
    return FightReport(
        hero,
        opponent,
        policy_label,
        rounds_cap,
        grid_of(solved),  # the grid: the game's own table, for the strategy codes
        outcomes_of(solved),
        _no_luck_win(fight),
    )


def _no_luck_win(fight: Fight) -> Fraction:
    """The chance of victory without luck: the paper's closed form, except under *Crypt*,
    whose streak rule it does not cover (a luck-0 grid then)."""
    hero, opponent = fight.hero_stamina, fight.opponent_stamina
    if fight.rule.two_in_a_row_kills:  # the chance of victory, whatever the objective
        without_luck = Fight(fight.delta, hero, opponent, 0, fight.rule)
        return solve_grid(without_luck).value(hero, opponent, 0)
    odds = round_odds(fight.delta)
    return no_luck_value(odds.win, odds.lose, hero, opponent)
