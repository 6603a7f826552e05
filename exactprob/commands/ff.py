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
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..games.fighting_fantasy import (
    HEURISTICS,
    MAX_STAT,
    MAX_TAU,
    RULES,
    STRATEGY_CODES,
    LuckPolicy,
    Objective,
    atlas,
    atlas_csv_bytes,
    atlas_figure_jobs,
    atlas_states,
    fight_report,
    heuristic,
)
from ..util.files import check_directory, check_output, folder_for, write_all
from ..util.limits import DEFAULT_MAX_STATES, check_max_states, refuse_more_than
from ..util.numbers import parse_whole, whole_number
from ..util.text import duration_text
from . import help_of
from ._options import add_json_flag, add_max_states_flag, integer
from ._output import emit, show_progress

__all__ = ["register", "run"]


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
        number = parse_whole("--policy heuristic N", parts[1], 0, len(HEURISTICS) - 1, UsageError)
        tau = parse_whole("--policy heuristic TAU", parts[2], 1, MAX_TAU, UsageError)
        return f"heuristic:{number}:{tau}", heuristic(number, tau)
    raise UsageError(
        f"--policy must be optimal, none or heuristic:N:TAU (N 0-{len(HEURISTICS) - 1}, "
        f"TAU 1-{MAX_TAU}), got {text!r}"
    )


def fight_payload(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Solve the fight the flags describe; the JSON payload and the readable report."""
    hero = _stats("--hero", args.hero, ("SKILL", "STAMINA", "LUCK"))
    opponent_skill, opponent_stamina = _stats("--opponent", args.opponent, ("SKILL", "STAMINA"))
    label, policy = _policy(args.policy)
    rounds_cap = (
        None if args.rounds is None else whole_number("--rounds", args.rounds, 1, 1000, UsageError)
    )
    objective = Objective(
        keep_stamina=whole_number("--keep-stamina", args.keep_stamina, 0, error=UsageError),
        keep_luck=whole_number("--keep-luck", args.keep_luck, 0, error=UsageError),
    )
    report = fight_report(
        (hero[0], hero[1], hero[2]),
        (opponent_skill, opponent_stamina),
        rule=args.rule,
        policy=policy,
        policy_label=label,
        objective=objective,
        rounds_cap=rounds_cap,
        max_states=args.max_states,
        progress=show_progress(),
    )
    return report.to_json(), report.text()


#: The largest data file ``ff atlas`` writes, in bytes (the paper's atlas is 17 MB).
MAX_ATLAS_BYTES = 10**9


def check_atlas_size(stamina: int, luck: int) -> None:
    """Refuse, before any work, an atlas whose data file would pass
    :data:`MAX_ATLAS_BYTES`: its exact values grow with the staminas and the luck, and
    writing them takes about a minute per gigabyte."""
    size = atlas_csv_bytes(stamina, luck)
    if size > MAX_ATLAS_BYTES:
        raise UsageError(
            f"the atlas's data file would be about {size / 1e9:.1f} GB "
            f"({atlas_states(stamina, luck):,} exact values, longer as the staminas and "
            f"luck grow), more than {MAX_ATLAS_BYTES / 1e9:.0f} GB; lower --max-stamina or "
            "--max-luck"
        )


def atlas_payload(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Compute the atlas, write its data (and figures); the summary."""
    if args.out is None:
        raise UsageError("ff atlas needs --out FILE (the CSV data file to write)")
    out = check_output(Path(args.out), "--out")
    figure_dir = check_directory(Path(args.figures), "--figures") if args.figures else None
    stamina = whole_number("--max-stamina", args.max_stamina, 1, 1000, UsageError)
    luck = whole_number("--max-luck", args.max_luck, 0, 1000, UsageError)
    # refused before the --figures directory is made
    refuse_more_than(args.max_states, atlas_states(stamina, luck), "the atlas")
    check_atlas_size(stamina, luck)
    with folder_for(figure_dir, "--figures"):  # made before any work: a bad place fails first
        result = atlas(
            max_stamina=stamina,
            max_luck=luck,
            rule=args.rule,
            max_states=args.max_states,
            progress=show_progress(),
        )
        writes: list[tuple[Path, Any]] = [(out, result.write_csv)]
        if figure_dir is not None:
            writes += atlas_figure_jobs(result, figure_dir)
        write_all(writes, progress=show_progress())  # the data and its figures: all or none
    summary = result.summary()
    summary["rule"] = args.rule
    summary["data_file"] = str(out)
    if figure_dir is not None:
        summary["figures"] = [str(path) for path, _ in writes[1:]]
    return summary, atlas_text(summary)


def atlas_text(summary: dict[str, Any]) -> str:
    """The atlas's summary for people: what was solved, how the strategies split, the
    ties, and the files written."""
    deltas = summary["deltas"]
    strategies = summary["strategies"]
    rows = [
        ("states solved", f"{summary['states']:,} in {duration_text(summary['seconds'])}"),
        *(
            (f"strategy {code}: test luck {meaning}", f"{strategies[str(code)]:,}")
            for code, meaning in STRATEGY_CODES.items()
        ),
        ("exact ties", f"{summary['exact_ties']:,}"),
        ("forced ties (either choice ends the fight)", f"{summary['forced_ties']:,}"),
        ("near ties (within 1e-10)", f"{summary['near_ties_1e-10']:,}"),
        ("largest denominator", f"{summary['largest_denominator_digits']:,} digits"),
        ("data file", summary["data_file"]),
    ]
    if "figures" in summary:
        rows.append(("figures", f"{len(summary['figures'])} PNG files"))
    width = max(len(label) for label, _ in rows)
    head = (
        f"Fighting Fantasy atlas: skill differences {deltas[0]} to {deltas[-1]}, staminas "
        f"1 to {summary['max_hero_stamina']}, luck 0 to {summary['max_luck']} "
        f"(rule {summary['rule']})"
    )
    return "\n".join([head, *(f"  {label:<{width}}  {value}" for label, value in rows)])


#: The flags of one task only, with the value each has when not given.
TASK_FLAGS: dict[str, dict[str, Any]] = {
    "fight": {
        "hero": None,
        "opponent": None,
        "policy": "optimal",
        "keep_stamina": 0,
        "keep_luck": 0,
        "rounds": None,
    },
    "atlas": {"out": None, "figures": None, "max_stamina": 24, "max_luck": 12},
}


def check_task_flags(args: argparse.Namespace) -> None:
    """Refuse a flag of the other task (it would be ignored: a CSV not written, say)."""
    other = "fight" if args.task == "atlas" else "atlas"
    given = [
        "--" + name.replace("_", "-")
        for name, unset in TASK_FLAGS[other].items()
        if getattr(args, name) != unset
    ]
    if given:
        raise UsageError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for 'exactprob ff "
            f"{other}', not '{args.task}'"
        )


def run(args: argparse.Namespace) -> None:
    check_max_states(args.max_states, "--max-states")
    check_task_flags(args)
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
        default=TASK_FLAGS["fight"]["policy"],
        help="optimal (default), none, or heuristic:N:TAU (the paper's heuristic N "
        f"0-{len(HEURISTICS) - 1}, using luck only while luck >= TAU, 1-{MAX_TAU})",
    )
    parser.add_argument(
        "--rule",
        default="standard",
        choices=tuple(RULES),
        help="; ".join(f"{r.name}: {r.description}" for r in RULES.values())
        + " (default standard)",
    )
    parser.add_argument(
        "--keep-stamina",
        type=integer,
        default=TASK_FLAGS["fight"]["keep_stamina"],
        metavar="R",
        help="count only victories with at least R stamina left (default 0)",
    )
    parser.add_argument(
        "--keep-luck",
        type=integer,
        default=TASK_FLAGS["fight"]["keep_luck"],
        metavar="M",
        help="count only victories with at least M luck left (default 0)",
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
        "--figures",
        metavar="DIR",
        help="atlas: also write the policy-map figures (one PNG per skill difference) here",
    )
    parser.add_argument(
        "--max-stamina",
        type=integer,
        default=TASK_FLAGS["atlas"]["max_stamina"],
        metavar="N",
        help="atlas: staminas 1..N for both sides (default 24)",
    )
    parser.add_argument(
        "--max-luck",
        type=integer,
        default=TASK_FLAGS["atlas"]["max_luck"],
        metavar="N",
        help="atlas: luck 0..N (default 12)",
    )
    add_max_states_flag(parser, DEFAULT_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
