"""``exactprob fowl-redesign``: the fairest Fowl Play decks and komi, searched on Dask.

Every deck of the grid ``--chickens`` x ``--wolves`` is solved once (a certified
enclosure), on a local Dask cluster or ``--scheduler``, and cached on disk; a design is a
deck with a komi, ranked by how far from 1/2 the first player's chance can be.

>>> parse_range("--chickens", "20-44:8")
range(20, 45, 8)
>>> range_text(parse_range("--wolves", "4"))
'4'
"""

from __future__ import annotations

import argparse
import os
import re
from decimal import ROUND_CEILING, Context, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..games.jeopardy import FowlPlay
from ..games.jeopardy.certified import working_bytes
from ..games.jeopardy.redesign import (
    DeckResult,
    Design,
    default_cache_dir,
    fairest_designs,
    search,
)
from ..games.jeopardy.rules import MAX_CARDS, MAX_GOAL
from ..numbers import exact_fields, parse_whole
from ..resources import check_memory
from . import help_of
from ._options import add_json_flag
from ._output import emit, show_progress
from .jeopardy import MAX_CERTIFIED_STATES, win_fields

__all__ = ["parse_range", "payload_of", "range_text", "register", "text_of"]

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


def range_text(values: range) -> str:
    """The range as the flag would write it."""
    if len(values) == 1:
        return str(values[0])
    step = f":{values.step}" if values.step > 1 else ""
    return f"{values[0]}-{values[-1]}{step}"


def _at_most(x: Fraction) -> str:
    """``x`` rounded up to three significant digits, for an upper bound shown in text.

    >>> _at_most(Fraction(11017, 10**9)), _at_most(Fraction(0))
    ('1.11e-5', '0')
    """
    if x == 0:
        return "0"
    up = Context(prec=3, rounding=ROUND_CEILING).divide(Decimal(x.numerator), x.denominator)
    return f"{up:.2e}"


def _design_fields(rank: int, design: Design) -> dict[str, Any]:
    return {
        "rank": rank,
        "rank_best": design.ranks[0],
        "rank_worst": design.ranks[1],
        "chickens": design.chickens,
        "wolves": design.wolves,
        "komi": design.komi,
        **win_fields("first_player_win", design.win),
        **exact_fields("distance_from_even_low", design.distance[0]),
        **exact_fields("distance_from_even_high", design.distance[1]),
    }


def payload_of(
    results: list[DeckResult], designs: list[Design], goal: int, cache: Path
) -> dict[str, Any]:
    """The JSON report: the grid, what came from the cache, the ranked designs (each
    enclosure's bounds and the exact bounds of its distance from 1/2) and every deck's
    fairest komi."""
    solved = [result for result in results if not result.cached]
    return {
        "game": "Fowl Play",
        "goal": goal,
        "decks": len(results),
        "decks_cached": len(results) - len(solved),
        "decks_solved": len(solved),
        "solve_seconds": round(sum(result.seconds for result in solved), 3),
        "cache": str(cache),
        "designs": len(results) * goal,
        "fairest": [_design_fields(rank, d) for rank, d in enumerate(designs, start=1)],
        "deck_table": [
            {
                "chickens": result.chickens,
                "wolves": result.wolves,
                "fairest_komi": list(result.fairest_komi()),
                "cached": result.cached,
                "seconds": round(result.seconds, 3),
            }
            for result in results
        ],
    }


def text_of(
    results: list[DeckResult], designs: list[Design], goal: int, grid: str, cache: Path
) -> str:
    """The readable report: a table of the top designs and the cache summary."""
    solved = [result for result in results if not result.cached]
    header = ("rank", "chickens", "wolves", "komi", "first player wins", "width", "|P - 1/2| <=")
    rows = [
        (
            f"{rank}" if design.decided else f"{design.ranks[0]}-{design.ranks[1]}",
            str(design.chickens),
            str(design.wolves),
            str(design.komi),
            design.win.decimal(),
            f"{float(design.win.width()):.1e}",
            _at_most(design.distance[1]),
        )
        for rank, design in enumerate(designs, start=1)
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    table = [
        "  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths)).rstrip()
        for row in [header, *rows]
    ]
    undecided = (
        "every rank shown is certified by the enclosures"
        if all(design.decided for design in designs)
        else "a rank shown as A-B is not decided: enclosures overlap, the exact rank is in A..B"
    )
    title = (
        f"Fowl Play redesign to {goal}: {len(results)} decks ({grid}), "
        f"{len(results) * goal:,} designs (deck, komi), fairest first"
    )
    seconds = sum(result.seconds for result in solved)
    sources = (
        f"  decks: {len(results) - len(solved)} from the cache, {len(solved)} solved "
        f"({seconds:.1f} s of solving); cache {cache}"
    )
    return "\n".join([title, sources, *table, f"  {undecided}"])


def _cache_dir(text: str | None) -> Path:
    cache = default_cache_dir() if text is None else Path(text)
    if cache.exists() and not cache.is_dir():
        raise UsageError(f"--cache must be a directory, got the file {str(cache)!r}")
    return cache


def check_decks(decks: list[tuple[int, int]], goal: int, parallel: int) -> None:
    """Refuse, before any work, a grid whose largest deck has more non-terminal states
    than a certified solve takes by default, or whose ``parallel`` largest decks, solved
    at once on this machine, need more memory than it has (``working_bytes``)."""
    games = sorted((FowlPlay(c, w, goal) for c, w in decks), key=working_bytes, reverse=True)
    largest = games[0]
    states = largest.nonterminal_states()
    if states > MAX_CERTIFIED_STATES:
        raise UsageError(
            f"the deck of {largest.chickens} chickens and {largest.wolves} wolves to {goal} "
            f"has {states:,} non-terminal states, more than the {MAX_CERTIFIED_STATES:,} a "
            "certified solve takes; choose smaller decks"
        )
    need = sum(working_bytes(game) for game in games[:parallel])
    check_memory(need, f"solving {parallel} of these decks at once")


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
    decks = [(c, w) for c in chickens for w in wolves]
    if args.scheduler is None:  # the local cluster's workers share this machine's memory
        check_decks(decks, goal, min(workers or os.cpu_count() or 1, len(decks)))
    results = search(decks, goal, cache, args.scheduler, workers, progress=show_progress())
    designs = fairest_designs(results, top)
    grid = f"chickens {range_text(chickens)}, wolves {range_text(wolves)}"
    emit(
        payload_of(results, designs, goal, cache),
        text_of(results, designs, goal, grid, cache),
        args.json,
    )


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
