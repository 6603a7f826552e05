"""``exactprob fowl-redesign``: the fairest Fowl Play decks and komi, searched on Dask.

Every deck of the grid ``--chickens`` x ``--wolves`` is solved once (a certified
enclosure), on a local Dask cluster or ``--scheduler``, and cached on disk; a design is a
deck with a komi, ranked by how far from 1/2 the first player's chance can be.

>>> parse_range("--chickens", "20-44:8"), parse_range("--wolves", "4")
(range(20, 45, 8), range(4, 5))
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..games.jeopardy import MAX_CARDS, MAX_GOAL
from ..games.jeopardy.redesign import default_cache_dir, redesign_report
from ..util.files import check_directory
from ..util.numbers import parse_whole
from . import help_of
from ._options import add_json_flag
from ._output import emit, show_progress

__all__ = ["parse_range", "register"]

MAX_DECKS = 10_000
RANGE = re.compile(r"([0-9]+)(?:-([0-9]+)(?::([0-9]+))?)?")


def parse_range(flag: str, text: str) -> range:
    """``N``, ``LOW-HIGH`` or ``LOW-HIGH:STEP`` (both ends included), every number from 1."""
    match = RANGE.fullmatch(text.strip())
    if match is None:
        raise UsageError(
            f"{flag} must be a whole number or a range LOW-HIGH or LOW-HIGH:STEP "
            f"(e.g. 20-44:4), got {text!r}"
        )
    low = parse_whole(flag, match[1], 1, MAX_CARDS, UsageError)
    high = parse_whole(flag, match[2] or match[1], 1, MAX_CARDS, UsageError)
    step = parse_whole(f"{flag} step", match[3] or "1", 1, MAX_CARDS, UsageError)
    if high < low:
        raise UsageError(f"{flag} range {text!r} is empty: LOW must not exceed HIGH")
    return range(low, high + 1, step)


def _cache_dir(text: str | None) -> Path:
    return check_directory(default_cache_dir() if text is None else Path(text), "--cache")


def run(args: argparse.Namespace) -> None:
    goal = parse_whole("--goal", args.goal, 1, MAX_GOAL, UsageError)
    chickens = parse_range("--chickens", args.chickens)
    wolves = parse_range("--wolves", args.wolves)
    if len(chickens) * len(wolves) > MAX_DECKS:
        raise UsageError(
            f"the grid --chickens x --wolves must have at most {MAX_DECKS:,} decks, "
            f"got {len(chickens) * len(wolves):,}"
        )
    top = parse_whole("--top", args.top, 1, None, UsageError)
    workers = (
        None
        if args.workers is None
        else parse_whole("--workers", args.workers, 1, 1024, UsageError)
    )
    if workers is not None and args.scheduler is not None:
        raise UsageError("--workers sizes the local cluster; leave it out with --scheduler")
    cache = _cache_dir(args.cache)
    local = args.scheduler is None  # the local cluster's workers share this machine's memory
    decks = len(chickens) * len(wolves)
    report = redesign_report(
        chickens,
        wolves,
        goal,
        cache,
        top=top,
        scheduler=args.scheduler,
        workers=workers,
        parallel=min(workers or os.cpu_count() or 1, decks) if local else None,
        progress=show_progress(),
    )
    emit(report.to_json(), report.text(), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "fowl-redesign",
        help=help_of("fowl-redesign"),
        description=(
            "Searches Fowl Play decks (--chickens x --wolves, each a number or a range "
            "LOW-HIGH[:STEP]) and komi for the fairest designs: the first player's chance "
            "under optimal play closest to 1/2. Each deck is one certified solve (an "
            "interval guaranteed to hold the exact value for every komi), run as a task on "
            "a Dask cluster (a local one by default) and cached in --cache, so a rerun "
            "solves only what is missing. Ranks the enclosures cannot decide are shown as "
            "ranges."
        ),
    )
    parser.add_argument("--chickens", default="18-48:3", help="chickens (default 18-48:3)")
    parser.add_argument("--wolves", default="2-8", help="wolves (default 2-8)")
    parser.add_argument("--goal", default="50", help="points to win (default 50)")
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="cache directory (default $XDG_CACHE_HOME/exactprob/redesign, "
        "else ~/.cache/exactprob/redesign)",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786"
    )
    parser.add_argument(
        "--workers", help="worker processes of the local cluster (default: one per core)"
    )
    parser.add_argument("--top", default="10", help="designs shown (default 10)")
    add_json_flag(parser)
    parser.set_defaults(run=run)
