"""``exactprob yahtzee``: solitaire Yahtzee's optimal expected score, and the best move.

>>> from exactprob.cli import main
>>> main(["yahtzee", "--categories", "yahtzee", "--no-extra-yahtzees", "--exact"])
solitaire Yahtzee, categories Yahtzee; no bonuses (2 turn-start states)
  optimal expected score  2.3014321263 = 8697425/3779136
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.yahtzee import (
    JOKERS,
    Situation,
    YahtzeeRules,
    parse_categories,
    score_law_figure,
    yahtzee_report,
)
from ..util.limits import DEFAULT_MAX_STATES, check_max_states
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_exact_flag, add_json_flag, add_max_states_flag, integer, plot_path
from ._output import emit, save_figure, show_progress

__all__ = ["register", "run"]

#: The most games ``--simulate`` plays (100,000 optimal games take about 5 minutes).
MAX_GAMES = 100_000


def _dice(text: str) -> tuple[int, ...]:
    """Five faces, as ``22356`` or ``"2 2 3 5 6"``."""
    faces = [c for c in text if not c.isspace() and c != ","]
    if len(faces) != 5 or any(c not in "123456" for c in faces):
        raise UsageError(f"--dice must be five faces 1-6 (22356 or '2 2 3 5 6'), got {text!r}")
    return tuple(int(c) for c in faces)


def _situation(args: argparse.Namespace, rules: YahtzeeRules) -> Situation | None:
    """The situation of ``--dice`` and the flags that describe it, or ``None``."""
    given = [args.roll is not None, args.left is not None, args.upper is not None, args.yahtzee_50]
    if args.dice is None:
        if any(given):
            raise UsageError(
                "--roll, --left, --upper and --yahtzee-50 describe a situation: give --dice too"
            )
        return None
    left = rules.categories if args.left is None else parse_categories(args.left)
    upper = 0 if args.upper is None else parse_whole("--upper", str(args.upper), 0, 105, UsageError)
    return Situation(rules, left, _dice(args.dice), args.roll or 1, upper, args.yahtzee_50)


def run(args: argparse.Namespace) -> None:
    rules = YahtzeeRules(
        parse_categories(args.categories),
        not args.no_upper_bonus,
        not args.no_extra_yahtzees,
        args.joker,
    )
    situation = _situation(args, rules)
    max_states = check_max_states(args.max_states, "--max-states")
    simulate = None
    if args.simulate is not None:
        games = parse_whole("--simulate", str(args.simulate), 2, MAX_GAMES, UsageError)
        simulate = (games, parse_whole("--seed", str(args.seed), 0, 2**63 - 1, UsageError))
    plot = plot_path(args.plot)
    report = yahtzee_report(
        rules,
        method="exact" if args.exact else None,
        situation=situation,
        simulate=simulate,
        max_states=max_states,
        progress=show_progress(),
        cluster=args.cluster,
        law=args.law or plot is not None,
        strategies=args.strategies,
    )
    if plot is not None:
        scores = None if report.simulated is None else report.simulated.optimal.score
        save_figure(lambda: score_law_figure(report.law, scores).figure, plot)
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "yahtzee",
        help=help_of("yahtzee"),
        description=(
            "Solitaire Yahtzee under optimal play: the expected final score, certified (an "
            "interval proved to contain the exact value; about 20 seconds for the full game), "
            "or exact for a game of a few categories; the best keep or category in a "
            "situation; games simulated from the rules."
        ),
    )
    parser.add_argument(
        "--categories",
        default="all",
        help="the categories played, comma-separated (aces, twos, ..., chance), or 'all' (default all)",
    )
    parser.add_argument(
        "--no-upper-bonus", action="store_true", help="no 35 for 63 in the upper section"
    )
    parser.add_argument(
        "--no-extra-yahtzees",
        action="store_true",
        help="no 100 per extra Yahtzee and no joker rule",
    )
    parser.add_argument(
        "--joker",
        choices=JOKERS,
        default="free",
        help="a Yahtzee rolled again: 'free' (any empty box; Verhoeff's reading) or 'forced' "
        "(its upper box first, then a lower box) (default free)",
    )
    add_exact_flag(parser, "every game (seconds for a few categories; the fractions grow fast)")
    parser.add_argument("--dice", metavar="FACES", help="advise on these five dice, e.g. 22356")
    parser.add_argument(
        "--roll",
        type=integer,
        choices=(1, 2, 3),
        help="which roll of the turn showed them (default 1)",
    )
    parser.add_argument(
        "--left", metavar="CATEGORIES", help="the categories still open (default all played)"
    )
    parser.add_argument(
        "--upper", type=integer, help="the upper section's total so far (default 0)"
    )
    parser.add_argument(
        "--yahtzee-50",
        action="store_true",
        help="the Yahtzee box holds 50 (extra Yahtzees earn 100)",
    )
    parser.add_argument(
        "--simulate",
        type=integer,
        metavar="GAMES",
        help=f"also play this many games from the rules, by the optimal and a greedy player (at most {MAX_GAMES:,}; 10,000 take about 30 s)",
    )
    parser.add_argument("--seed", type=integer, default=1, help="the simulation's seed (default 1)")
    parser.add_argument(
        "--strategies",
        action="store_true",
        help="also the expected score of simple strategies (greedy keeps, greedy categories, "
        "both) and what each gives up against optimal play (about 20 seconds each for the "
        "full game)",
    )
    parser.add_argument(
        "--law",
        action="store_true",
        help="also the law of the final score under optimal play: mean, standard deviation, "
        "percentiles and every score's chance in --json (about 2 more minutes for the full "
        "game). Tied keeps or categories go to the first (fewer dice first; the first on "
        "the card); certified, options within the values' margin of the best count as tied, "
        "and a game small enough for --exact that meets one has its law solved exactly (up "
        "to about 0.05 s a turn-start state; JSON tie_rule, undecided_choices)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the law of the final score (with the simulated games' scores if "
        "--simulate) to FILE (.png, .svg or .pdf); implies --law",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="solve on Dask: 'local' (a worker process per core) or a running scheduler's "
        "address, e.g. tcp://host:8786 (the same answer as without)",
    )
    add_max_states_flag(parser, DEFAULT_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
