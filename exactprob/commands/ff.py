"""``exactprob ff``: a Fighting Fantasy fight, exact, with optimal luck; and the atlas.

>>> from exactprob.cli import main
>>> main(["ff", "--hero", "10", "4", "0", "--opponent", "10", "4", "--json"])  # doctest: +ELLIPSIS
{
  "hero": {
    "skill": 10,
    "stamina": 4,
    "luck": 0
  },
  "opponent": {
    "skill": 10,
    "stamina": 4
  },
  "delta": 0,
  "rule": "standard",
  "policy": "optimal",
  "win": "1/2",
  "win_decimal": "0.500000000000",
...
0
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..files import check_output, write_all
from ..games.fighting_fantasy import (
    ATLAS_DELTAS,
    RULES,
    STRATEGY_CODES,
    FightGrid,
    LuckPolicy,
    Objective,
    atlas,
    fight_outcomes,
    heuristic,
    no_luck_value,
    round_odds,
    solve_grid,
)
from ..limits import DEFAULT_MAX_STATES, check_max_states, refuse_more_than
from ..numbers import exact_fields, fraction_string, parse_whole, whole_number
from . import help_of
from ._options import add_json_flag, add_max_states_flag, integer
from ._output import emit, show_progress
from ._text import table_lines

__all__ = ["register", "run"]

MAX_STAT = 10**6
#: Fights with this many states or more show a progress bar on stderr.
LONG_SOLVE_STATES = 200_000


def _stats(flag: str, values: list[str] | None, names: tuple[str, ...]) -> list[int]:
    """The numbers after ``flag``, one per name, each a whole number in range."""
    if values is None:
        raise UsageError(f"{flag} {' '.join(names)} is required")
    if len(values) != len(names):
        raise UsageError(
            f"{flag} takes {len(names)} numbers ({' '.join(names)}), got {len(values)}"
        )
    lows = {"SKILL": 0, "STAMINA": 1, "LUCK": 0}
    return [
        parse_whole(f"{flag} {name}", text, lows[name], MAX_STAT, UsageError)
        for name, text in zip(names, values)
    ]


def _policy(text: str) -> tuple[str, LuckPolicy | None]:
    """``optimal``, ``none`` or ``heuristic:N:TAU`` as (label, policy for solve_grid)."""
    if text == "optimal":
        return text, None
    if text == "none":
        return text, heuristic(0, 1)
    parts = text.split(":")
    if len(parts) == 3 and parts[0] == "heuristic":
        number = parse_whole("--policy heuristic N", parts[1], 0, 8, UsageError)
        tau = parse_whole("--policy heuristic TAU", parts[2], 1, 12, UsageError)
        return f"heuristic:{number}:{tau}", heuristic(number, tau)
    raise UsageError(
        f"--policy must be optimal, none or heuristic:N:TAU (N 0-8, TAU 1-12), got {text!r}"
    )


def _certain_note(delta: int) -> str | None:
    """Why the answer is exactly 0 or 1 when the dice cannot bridge the skill gap."""
    odds = round_odds(delta)
    if odds.lose == 0:
        return f"skill difference {delta} >= 10: the opponent's 2d6 can never beat the hero's, so the hero cannot lose"
    if odds.win == 0:
        return f"skill difference {delta} <= -10: the hero's 2d6 can never beat the opponent's, so the hero cannot win"
    return None


def _decision(
    grid: FightGrid, won: bool, hero: int, opponent: int, luck: int
) -> dict[str, Any] | None:
    if luck == 0:
        return None
    no, yes = grid.options(won, hero, opponent, luck)
    assert yes is not None
    return {
        "test_luck": grid.uses_luck(won, hero, opponent, luck),
        "tie": yes == no,
        **exact_fields("value_with_luck", yes),
        **exact_fields("value_without_luck", no),
    }


def _no_luck_win(rule: str, delta: int, hero: int, opponent: int) -> Fraction:
    """The chance of victory without luck: the paper's closed form, except under *Crypt*,
    whose streak rule it does not cover (a luck-0 grid then)."""
    if RULES[rule].two_in_a_row_kills:
        return solve_grid(delta, hero, opponent, 0, rule=rule).value(hero, opponent, 0)
    odds = round_odds(delta)
    return no_luck_value(odds.win, odds.lose, hero, opponent)


def _distribution(dist: Any) -> dict[str, str]:
    return {str(k): fraction_string(p) for k, p in dist.items()}


def fight_payload(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Solve the fight the flags describe; the JSON payload and the readable report."""
    hero_skill, hero_stamina, luck = _stats("--hero", args.hero, ("SKILL", "STAMINA", "LUCK"))
    opponent_skill, opponent_stamina = _stats("--opponent", args.opponent, ("SKILL", "STAMINA"))
    label, policy = _policy(args.policy)
    rounds_cap = (
        None if args.rounds is None else whole_number("--rounds", args.rounds, 1, 1000, UsageError)
    )
    objective = Objective(
        keep_stamina=whole_number("--keep-stamina", args.keep_stamina, 0, error=UsageError),
        keep_luck=whole_number("--keep-luck", args.keep_luck, 0, error=UsageError),
    )
    delta = hero_skill - opponent_skill
    grid = solve_grid(
        delta,
        hero_stamina,
        opponent_stamina,
        luck,
        rule=args.rule,
        objective=objective,
        policy=policy,
        max_states=args.max_states,
        progress=show_progress(hero_stamina * opponent_stamina * (luck + 1) >= LONG_SOLVE_STATES),
    )
    outcome = fight_outcomes(grid, hero_stamina, opponent_stamina, luck)
    odds = round_odds(delta)
    payload: dict[str, Any] = {
        "hero": {"skill": hero_skill, "stamina": hero_stamina, "luck": luck},
        "opponent": {"skill": opponent_skill, "stamina": opponent_stamina},
        "delta": delta,
        "rule": args.rule,
        "policy": label,
        **exact_fields("win", outcome.win),
    }
    if not objective.is_win:
        payload["objective"] = {"keep_stamina": args.keep_stamina, "keep_luck": args.keep_luck}
        payload.update(
            exact_fields("objective_value", grid.value(hero_stamina, opponent_stamina, luck))
        )
    payload.update(
        exact_fields("no_luck_win", _no_luck_win(args.rule, delta, hero_stamina, opponent_stamina))
    )
    payload["round"] = {k: fraction_string(v) for k, v in vars(odds).items()}
    payload["strategy"] = grid.strategy(hero_stamina, opponent_stamina, luck)
    payload["strategy_meaning"] = STRATEGY_CODES[payload["strategy"]]
    payload["first_decision"] = {
        "after_won_round": _decision(grid, True, hero_stamina, opponent_stamina, luck),
        "after_lost_round": _decision(grid, False, hero_stamina, opponent_stamina, luck),
    }
    payload.update(exact_fields("expected_rounds", outcome.expected_rounds))
    payload["decisive_rounds"] = _distribution(outcome.decisive_rounds)
    payload["luck_spent"] = _distribution(outcome.luck_spent)
    if outcome.win:
        payload["stamina_on_victory"] = _distribution(outcome.stamina_on_victory)
    if rounds_cap is not None:
        law = outcome.rounds(rounds_cap)
        payload["rounds"] = {
            (f"{k}+" if k == rounds_cap else str(k)): fraction_string(p) for k, p in law.items()
        }
    payload["states_solved"] = sum(1 for _ in grid.states()) * len(grid.flags)
    note = _certain_note(delta)
    if note:
        payload["note"] = note
    return payload, _fight_text(payload, outcome)


def _fight_text(payload: dict[str, Any], outcome: Any) -> str:
    hero, opponent = payload["hero"], payload["opponent"]
    title = (
        f"Fighting Fantasy: hero skill {hero['skill']} stamina {hero['stamina']} luck {hero['luck']} "
        f"against skill {opponent['skill']} stamina {opponent['stamina']} "
        f"(rule {payload['rule']}, policy {payload['policy']})"
    )
    lines = [title]
    rows = [("hero wins", outcome.win), ("without any luck", Fraction(payload["no_luck_win"]))]
    if "objective_value" in payload:
        rows.append(("objective", Fraction(payload["objective_value"])))
    rows.append(("expected rounds", outcome.expected_rounds))
    rows += [(f"{key} rounds", Fraction(p)) for key, p in payload.get("rounds", {}).items()]
    lines += table_lines(rows)
    lines.append(f"  strategy now: {payload['strategy']} (test luck {payload['strategy_meaning']})")
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
                f"{decision['value_with_luck_decimal']}, without {decision['value_without_luck_decimal']}"
            )
    if "note" in payload:
        lines.append(f"  note: {payload['note']}")
    return "\n".join(lines)


def atlas_payload(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Compute the atlas, write its data (and figures); the summary."""
    if args.out is None:
        raise UsageError("ff atlas needs --out FILE (the CSV data file to write)")
    out = check_output(Path(args.out), "--out")
    plot_dir = Path(args.plot) if args.plot else None
    if plot_dir is not None and plot_dir.exists() and not plot_dir.is_dir():
        raise UsageError(f"--plot: {str(plot_dir)!r} exists and is not a directory")
    stamina = whole_number("--max-stamina", args.max_stamina, 1, 1000, UsageError)
    luck = whole_number("--max-luck", args.max_luck, 0, 1000, UsageError)
    states = len(ATLAS_DELTAS) * stamina * stamina * (luck + 1)
    refuse_more_than(args.max_states, states, "the atlas")
    made = plot_dir is not None and not plot_dir.exists()
    if plot_dir is not None:  # made before any work, so that a bad place fails first
        try:
            plot_dir.mkdir(exist_ok=True)
        except OSError as error:
            raise UsageError(
                f"--plot: cannot make the directory {str(plot_dir)!r}: {error.strerror}"
            ) from None
    try:
        result = atlas(max_stamina=stamina, max_luck=luck, rule=args.rule, progress=show_progress())
        writes: list[tuple[Path, Any]] = [(out, result.write_csv)]
        if plot_dir is not None:
            from ..games.fighting_fantasy.figures import atlas_figure_jobs

            writes += atlas_figure_jobs(result, plot_dir)
        write_all(writes)  # the data and its figures: all or none
    except BaseException:
        if made and plot_dir is not None and not any(plot_dir.iterdir()):
            plot_dir.rmdir()  # the directory this run made, left empty
        raise
    summary = result.summary()
    summary["rule"] = args.rule
    summary["data_file"] = str(out)
    if plot_dir is not None:
        summary["figures"] = [str(path) for path, _ in writes[1:]]
    text = "Fighting Fantasy atlas\n" + "\n".join(f"  {k}: {v}" for k, v in summary.items())
    return summary, text


def run(args: argparse.Namespace) -> None:
    check_max_states(args.max_states, "--max-states")
    payload, text = atlas_payload(args) if args.task == "atlas" else fight_payload(args)
    emit(payload, text, args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "ff",
        help=help_of("ff"),
        description=(
            "Each round both sides roll 2d6 + skill; the loser of a round loses 2 stamina. "
            "After a won or lost round the hero may test luck (2d6 <= luck; luck then drops "
            "by 1): a lucky blow deals 4 instead of 2 (unlucky: 1), a lucky defence costs 1 "
            "instead of 2 (unlucky: 3). 'exactprob ff --hero ... --opponent ...' solves one "
            "fight exactly; 'exactprob ff atlas --out FILE' solves every state for skill "
            "differences -9..9, staminas 1..24, luck 0..12."
        ),
    )
    parser.add_argument(
        "task",
        nargs="?",
        choices=("fight", "atlas"),
        default="fight",
        help="fight (default) or atlas",
    )
    parser.add_argument("--hero", nargs="+", metavar="N", help="the hero's SKILL STAMINA LUCK")
    parser.add_argument("--opponent", nargs="+", metavar="N", help="the opponent's SKILL STAMINA")
    parser.add_argument(
        "--policy",
        default="optimal",
        help="optimal (default), none, or heuristic:N:TAU (the paper's heuristic N "
        "0-8, using luck only while luck >= TAU, 1-12)",
    )
    parser.add_argument(
        "--rule",
        default="standard",
        choices=tuple(RULES),
        help="; ".join(f"{r.name}: {r.description}" for r in RULES.values()),
    )
    parser.add_argument(
        "--keep-stamina",
        type=integer,
        default=0,
        metavar="R",
        help="count only victories with at least R stamina left",
    )
    parser.add_argument(
        "--keep-luck",
        type=integer,
        default=0,
        metavar="M",
        help="count only victories with at least M luck left",
    )
    parser.add_argument(
        "--rounds",
        type=integer,
        metavar="N",
        help="fight: also give the exact law of the number of rounds (draws included), "
        "capped at N: the last entry is the chance of N rounds or more",
    )
    parser.add_argument("--out", metavar="FILE", help="atlas: the CSV data file to write")
    parser.add_argument(
        "--plot", metavar="DIR", help="atlas: also write the policy-map figures here"
    )
    parser.add_argument(
        "--max-stamina",
        type=integer,
        default=24,
        metavar="N",
        help="atlas: staminas 1..N for both sides (default 24)",
    )
    parser.add_argument(
        "--max-luck", type=integer, default=12, metavar="N", help="atlas: luck 0..N (default 12)"
    )
    add_max_states_flag(parser, DEFAULT_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
