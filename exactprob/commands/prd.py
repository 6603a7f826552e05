"""``exactprob prd``: what a pseudo-random distribution table really gives.

>>> from exactprob.cli import main
>>> main(["prd", "--odds", "0.25,1", "--trials", "4", "--json"])  # doctest: +ELLIPSIS
{
  "odds": [
    "1/4",
    "1"
  ],
  "odds_decimal": [
    "0.250000000000",
    "1.000000000000"
  ],
  "rate": "4/7",
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.roguelike.prd import (
    THRESHOLD_SCALE,
    PRDTable,
    Simulated,
    check_work,
    constant_report,
    distribution_is_exact,
    prd_report,
)
from ..util.numbers import parse_fraction, parse_whole
from . import help_of
from ._options import add_json_flag, integer, plot_path
from ._output import emit, save_figure

__all__ = ["register", "run"]

MAX_CLI_TRIALS = 100_000
MAX_ENTRIES = 1_000
MAX_DRAWS = 200_000_000


def _entries(flag: str, text: str) -> list[str]:
    entries = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in entries):
        raise UsageError(f"{flag} must be a comma-separated list with no empty entry, got {text!r}")
    return entries


def parse_table(args: argparse.Namespace) -> tuple[PRDTable, dict[str, Any]]:
    """The table from ``--odds`` or ``--thresholds``, and how it was given (for the JSON)."""
    if args.odds is not None:
        odds = [
            parse_fraction(f"--odds entry {k + 1}", text, 0, 1, UsageError)
            for k, text in enumerate(_entries("--odds", args.odds))
        ]
        table, given = PRDTable(tuple(odds)), {}
    else:
        thresholds = [
            parse_whole(f"--thresholds entry {k + 1}", text, 0, THRESHOLD_SCALE - 1, UsageError)
            for k, text in enumerate(_entries("--thresholds", args.thresholds))
        ]
        table, given = PRDTable.from_thresholds(thresholds), {"thresholds": thresholds}
    # PRDTable itself refuses an all-zero table; the CLI's size limit is stricter than its own
    if table.size > MAX_ENTRIES:
        raise UsageError(
            f"a PRD table has at most {MAX_ENTRIES:,} entries here, got {table.size:,}"
        )
    return table, given


def check_simulation(args: argparse.Namespace, trials: int) -> int:
    """The number of runs asked for, within :data:`MAX_DRAWS` draws in all."""
    runs = parse_whole("--simulate", args.simulate, 2, MAX_DRAWS, UsageError)
    if runs * trials > MAX_DRAWS:
        raise UsageError(
            f"--simulate {runs:,} runs of {trials:,} trials is {runs * trials:,} draws; "
            f"at most {MAX_DRAWS:,} (the source's 10,000 x 10,000 is 10^8)"
        )
    if args.generator == "numpy" and args.seed < 0:
        raise UsageError(f"--seed must be >= 0 for numpy's generator, got {args.seed}")
    return runs


def run(args: argparse.Namespace) -> None:
    plot = plot_path(args.plot)
    if plot is not None and args.target_rate is not None:
        raise UsageError("--plot draws a table's hits: give --odds or --thresholds with it")
    if args.target_rate is not None:
        target = parse_fraction("--target-rate", args.target_rate, 0, 1, UsageError)
        if target == 0:
            raise UsageError("--target-rate must be above 0 (a rate of 0 needs no table)")
        constant = constant_report(target)
        emit(constant.to_json(), constant.text(), args.json)
        return
    table, given = parse_table(args)
    trials = parse_whole("--trials", args.trials, 1, MAX_CLI_TRIALS, UsageError)
    exact_distribution = distribution_is_exact(trials, args.exact_distribution)
    gaps = None if args.gaps is None else parse_whole("--gaps", args.gaps, 1, 10_000, UsageError)
    check_work(table, trials, exact_distribution, gaps)  # the cost first, then the flags below
    runs = None if args.simulate is None else check_simulation(args, trials)
    report = prd_report(
        table,
        trials,
        given=given,
        exact_distribution=exact_distribution,
        gaps=gaps,
        longest_run=args.longest_run,
        simulated=None if runs is None else Simulated(runs, args.generator, args.seed),
    )
    if plot is not None:
        save_figure(lambda: report.figure().figure, plot)
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "prd",
        help=help_of("prd"),
        description=(
            "What a PRD table really gives: the chance of activation is read from a table "
            "at a counter that advances after each miss (wrapping) and resets after a hit. "
            "Prints the exact long-run rate (renewal argument), the gap distribution, the "
            "exact mean and variance of hits in N trials next to Bernoulli trials at the same "
            "rate, and the hit quantiles (exact up to 200 trials, certified bounds beyond). "
            "With --target-rate, solves for the constant C of the table min(1, C(k+1))."
        ),
    )
    table = parser.add_mutually_exclusive_group(required=True)
    table.add_argument("--odds", metavar="P,P,...", help="exact probabilities: 0.03,0.17 or 1/3,1")
    table.add_argument(
        "--thresholds", metavar="T,T,...", help="uint32 thresholds t (activate iff u <= t)"
    )
    table.add_argument("--target-rate", metavar="R", help="find C for p_k = min(1, C(k+1))")
    parser.add_argument("--trials", default="10000", help="trials N per run (default 10000)")
    parser.add_argument(
        "--gaps", default=None, help="gaps listed (default twice the table, at most 40)"
    )
    parser.add_argument(
        "--exact-distribution",
        action="store_true",
        help="the exact distribution above 200 trials too, up to 1,000 (slow: N^3)",
    )
    parser.add_argument(
        "--longest-run",
        action="store_true",
        help="P(longest run of misses >= L) for L up to 3 passes of the table",
    )
    parser.add_argument("--simulate", metavar="RUNS", help="also simulate RUNS runs")
    parser.add_argument(
        "--generator",
        choices=("numpy", "rogue"),
        default="numpy",
        help="the random numbers of --simulate: numpy's, or Rogue 3.6.3's own generator "
        "(default numpy)",
    )
    parser.add_argument("--seed", type=integer, default=0, help="simulation seed (default 0)")
    parser.add_argument("--plot", metavar="FILE", help="write the hits-vs-Bernoulli figure")
    add_json_flag(parser)
    parser.set_defaults(run=run)
