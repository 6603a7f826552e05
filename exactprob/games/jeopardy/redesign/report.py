"""The redesign search answered in full, one call (:func:`redesign_report`): every deck of
a grid solved once (certified, on Dask, cached), the designs (deck, komi) ranked by how far
from 1/2 the first player's chance can be. One result (:class:`RedesignReport`) with its
JSON form and its text, which is all the ``exactprob fowl-redesign`` command prints; a
grid too large for the machine is refused before any work (:func:`check_decks`).

>>> range_text(range(20, 45, 8)), range_text(range(4, 5))
('20-44:8', '4')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....engine import value_fields
from ....errors import ModelError, UsageError
from ....util.display import Report
from ....util.numbers import exact_fields
from ....util.resources import check_memory
from ....util.text import bound_text, certified_decimal, duration_text
from ..rules import FowlPlay
from ..solving.certified import MAX_CERTIFIED_STATES, working_bytes
from .search import DeckResult, Design, fairest_designs, search

__all__ = ["RedesignReport", "check_decks", "range_text", "redesign_report"]


def range_text(values: range) -> str:
    """The range as the flag would write it."""
    if len(values) == 1:
        return str(values[0])
    step = f":{values.step}" if values.step > 1 else ""
    return f"{values[0]}-{values[-1]}{step}"


def _design_fields(rank: int, design: Design) -> dict[str, Any]:
    return {
        "rank": rank,
        "rank_best": design.ranks[0],
        "rank_worst": design.ranks[1],
        "chickens": design.chickens,
        "wolves": design.wolves,
        "komi": design.komi,
        **value_fields("first_player_win", design.win),
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
    header = ("rank", "chickens", "wolves", "komi", "first player wins", "within", "off even by <=")
    rows = [
        (
            f"{rank}" if design.decided else f"{design.ranks[0]}-{design.ranks[1]}",
            str(design.chickens),
            str(design.wolves),
            str(design.komi),
            *certified_decimal(design.win.low, design.win.high),
            bound_text(design.distance[1]),
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
        f"({duration_text(seconds)} of solving); cache {cache}"
    )
    return "\n".join([title, sources, *table, f"  {undecided}"])


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


@dataclass(frozen=True, eq=False)
class RedesignReport(Report):
    """The decks of a grid solved and the fairest designs."""

    results: list[DeckResult] = field(repr=False)
    designs: list[Design] = field(repr=False)
    goal: int
    grid: str
    cache: Path

    def _build(self) -> dict[str, Any]:
        return payload_of(self.results, self.designs, self.goal, self.cache)

    def text(self) -> str:
        """The table of the fairest designs and the cache summary."""
        return text_of(self.results, self.designs, self.goal, self.grid, self.cache)


def redesign_report(
    chickens: range,
    wolves: range,
    goal: int,
    cache: Path,
    *,
    top: int = 10,
    scheduler: str | None = None,
    workers: int | None = None,
    parallel: int | None = None,
    progress: bool = False,
) -> RedesignReport:
    """Solve every deck of ``chickens`` x ``wolves`` to ``goal`` (cached in ``cache``; on
    ``scheduler``, else a local cluster of ``workers``) and rank the ``top`` designs.
    ``parallel`` decks solved at once on this machine are checked to fit in its memory
    first (``None``: the cluster runs elsewhere)."""
    decks = [(c, w) for c in chickens for w in wolves]
    if not decks:
        raise ModelError("the grid of decks is empty: give at least one chickens and one wolves")
    if parallel is not None:
        check_decks(decks, goal, parallel)
    results = search(decks, goal, cache, scheduler, workers, progress=progress)
    grid = f"chickens {range_text(chickens)}, wolves {range_text(wolves)}"
    return RedesignReport(results, fairest_designs(results, top), goal, grid, cache)
