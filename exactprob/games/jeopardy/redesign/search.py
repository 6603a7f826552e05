r"""The redesign search: which Fowl Play deck and komi make the fairest game?

A *design* is a deck of :math:`C` chickens and :math:`W` wolves played to a goal :math:`G`
with komi :math:`K`. One certified solve of the deck (:func:`.certified.enclose_race`) encloses
the first player's chance :math:`P_{C,W}(K) = P(0, K, 0, \text{fresh})` for every komi
:math:`0 \le K < G` at once, in an interval :math:`[\ell, h]`. The design's distance from an
even game, :math:`d = |P - \tfrac12|`, then lies in

.. math::

    d_\ell = \begin{cases} 0 & \ell \le \tfrac12 \le h \\
                           \min(|\ell - \tfrac12|, |h - \tfrac12|) & \text{otherwise}
             \end{cases},
    \qquad d_h = \max(|\ell - \tfrac12|, |h - \tfrac12|),

computed exactly (:func:`.fairness.distance_from_even`). Designs are ranked by
:math:`d_h`. Where enclosures overlap the ranking is not certain, so each design also gets
the ranks it could take for any exact values inside the enclosures,

.. math::

    r_\text{best} = 1 + \#\{e : d_h(e) < d_\ell(x)\}, \qquad
    r_\text{worst} = \#\{e : d_\ell(e) \le d_h(x)\},

and a rank is *decided* when the two agree.

:func:`search` solves many decks in parallel on Dask, one task per deck (a
``distributed.LocalCluster`` by default, or an existing scheduler), and keeps every deck's
enclosures in a small JSON file, so a rerun solves only the decks not yet on disk.

With one chicken and one wolf to a goal of 1, the mover wins on a chicken and hands a fresh
deck to the other side on the wolf, so :math:`P = \tfrac12 + \tfrac12 (1 - P) = \tfrac23`:

>>> deck_result(1, 1, 1).wins[0].contains(Fraction(2, 3))
True
>>> best = fairest_designs([deck_result(3, 1, 4), deck_result(2, 2, 4)], top=2)
>>> [(d.chickens, d.wolves, d.komi, d.win.decimal(), d.ranks) for d in best]
[(3, 1, 1, '0.4800000000000', (1, 1)), (2, 2, 0, '0.5394921875000', (2, 2))]
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from ....engine import Enclosure
from ....errors import SchedulerError
from ....util.cluster import dask_client, distributed_module
from ....util.files import folder_for, write_atomically
from ....util.progress import progress_bar
from ..fairness import distance_from_even, fairest_komi, komi_wins
from ..rules import FowlPlay
from ..solving.certified import enclose_race

__all__ = [
    "CACHE_FORMAT",
    "DeckResult",
    "Design",
    "SchedulerError",
    "cache_path",
    "deck_result",
    "default_cache_dir",
    "fairest_designs",
    "load_cached",
    "search",
    "store",
]

#: What the Dask cluster is for, in messages.
PURPOSE = "the Fowl Play redesign search (Dask)"
CACHE_FORMAT = 2
"""Version of the cache files' layout; a file of another version is recomputed. (2: each
file carries the SHA-256 of its record, so that a hand-edited or damaged file is
recomputed rather than reported as certified.)"""


@dataclass(frozen=True)
class DeckResult:
    """One deck's certified first-player chances, ``wins[komi]`` for komi ``0 .. goal - 1``,
    the seconds its solve took, and whether it came from the cache."""

    chickens: int
    wolves: int
    goal: int
    wins: tuple[Enclosure, ...]
    seconds: float
    cached: bool = False

    @property
    def deck(self) -> tuple[int, int]:
        return self.chickens, self.wolves

    def fairest_komi(self) -> tuple[int, ...]:
        """The komi values whose designs might be the deck's fairest."""
        return fairest_komi(self.wins)


@dataclass(frozen=True)
class Design:
    """A deck with a komi: the enclosure of the first player's chance, the exact bounds
    ``(low, high)`` of its distance from 1/2, and the certified ``ranks`` range
    ``(best, worst)`` among all the designs searched."""

    chickens: int
    wolves: int
    komi: int
    win: Enclosure
    distance: tuple[Fraction, Fraction]
    ranks: tuple[int, int]

    @property
    def decided(self) -> bool:
        """Whether the enclosures fix this design's rank."""
        return self.ranks[0] == self.ranks[1]


def deck_result(chickens: int, wolves: int, goal: int) -> DeckResult:
    """Solve one deck (the task each Dask worker runs): every komi's enclosure."""
    game = FowlPlay(chickens, wolves, goal)
    start = time.perf_counter()
    wins = cast(list[Enclosure], komi_wins(enclose_race(game)))  # enclosures, not rationals
    return DeckResult(chickens, wolves, goal, tuple(wins), time.perf_counter() - start)


def fairest_designs(results: Iterable[DeckResult], top: int) -> list[Design]:
    """The ``top`` designs (deck, komi) closest to an even game, by the upper bound of
    their distance from 1/2, each with its certified rank range among all designs."""
    scored = [
        (distance_from_even(win), result, komi)
        for result in results
        for komi, win in enumerate(result.wins)
    ]
    scored.sort(key=lambda item: (item[0][1], item[0][0], item[1].deck, item[2]))
    highs = [high for (_, high), _, _ in scored]
    lows = sorted(low for (low, _), _, _ in scored)
    return [
        Design(
            result.chickens,
            result.wolves,
            komi,
            result.wins[komi],
            (low, high),
            (1 + bisect_left(highs, low), bisect_right(lows, high)),
        )
        for (low, high), result, komi in scored[:top]
    ]


#: The largest cache file read (a record holds two numbers per komi: a few KB).
MAX_CACHE_BYTES = 1_000_000


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/exactprob/redesign``, or ``~/.cache/exactprob/redesign``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "exactprob" / "redesign"


def cache_path(cache_dir: Path, chickens: int, wolves: int, goal: int) -> Path:
    """The cache file of one deck and goal.

    >>> cache_path(Path("cache"), 24, 4, 50).name
    'fowl-play-c24-w4-g50.json'
    """
    return Path(cache_dir) / f"fowl-play-c{chickens}-w{wolves}-g{goal}.json"


def store(result: DeckResult, cache_dir: Path) -> Path:
    """Write ``result`` to its cache file atomically: the game's parameters, the format
    version and each komi's bounds as ``repr`` strings (which read back exactly)."""
    record = {
        "format": CACHE_FORMAT,
        "game": "Fowl Play",
        "chickens": result.chickens,
        "wolves": result.wolves,
        "goal": result.goal,
        "seconds": result.seconds,
        "komi_low": [repr(float(win.low)) for win in result.wins],
        "komi_high": [repr(float(win.high)) for win in result.wins],
    }
    record["sha256"] = _digest(record)
    path = cache_path(cache_dir, result.chickens, result.wolves, result.goal)
    write_atomically(path, lambda temporary: temporary.write_text(json.dumps(record)))
    return path


def _digest(record: dict[str, Any]) -> str:
    """The SHA-256 of a cache record (its keys sorted, the digest itself left out)."""
    content = {key: value for key, value in record.items() if key != "sha256"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def load_cached(cache_dir: Path, chickens: int, wolves: int, goal: int) -> DeckResult | None:
    """The deck's cached result, or ``None`` when there is no file or it cannot be trusted
    (not a regular file of at most :data:`MAX_CACHE_BYTES`, unreadable, nested too deeply,
    not this format version, a digest that does not match the content, other parameters,
    bounds out of order). A FIFO or a device is not opened: it could block or never end."""
    path = cache_path(cache_dir, chickens, wolves, goal)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CACHE_BYTES:
            return None
        with open(path, "rb") as file:
            record = json.loads(file.read(MAX_CACHE_BYTES + 1))
        if record.get("sha256") != _digest(record):
            return None
        wins = _cached_wins(record, chickens, wolves, goal)
        seconds = float(record["seconds"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    if wins is None or not math.isfinite(seconds):
        return None
    return DeckResult(chickens, wolves, goal, wins, seconds, cached=True)


def _cached_wins(
    record: Any, chickens: int, wolves: int, goal: int
) -> tuple[Enclosure, ...] | None:
    """The enclosures of a parsed cache record, if it is the one asked for and sound."""
    expected = {"format": CACHE_FORMAT, "chickens": chickens, "wolves": wolves, "goal": goal}
    if any(type(record[key]) is not int or record[key] != value for key, value in expected.items()):
        return None
    lows, highs = record["komi_low"], record["komi_high"]
    if not (isinstance(lows, list) and isinstance(highs, list) and len(lows) == len(highs) == goal):
        return None
    wins = tuple(Enclosure(float(low), float(high)) for low, high in zip(lows, highs, strict=True))
    sound = all(0.0 <= win.low <= win.high <= 1.0 for win in wins)
    return wins if sound else None


def search(
    decks: Iterable[tuple[int, int]],
    goal: int,
    cache_dir: Path,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> list[DeckResult]:
    """Every deck's result, in the order given (repeats dropped): cached decks read from
    ``cache_dir``, the others solved on Dask, one task per deck, each stored as it
    completes. Without missing decks no cluster is started or contacted.

    ``scheduler`` is the address of a running Dask scheduler; without it a
    ``LocalCluster`` of ``workers`` single-threaded processes runs on this machine
    (default: one per core, at most one per missing deck).
    """
    games = [FowlPlay(chickens, wolves, goal) for chickens, wolves in dict.fromkeys(decks)]
    results = {}
    for game in games:
        cached = load_cached(cache_dir, game.chickens, game.wolves, goal)
        if cached is not None:
            results[game] = cached
    missing = [game for game in games if game not in results]
    if missing:
        count = min(workers or os.cpu_count() or 1, len(missing))
        with (
            folder_for(Path(cache_dir), "the cache"),  # a bad place fails before the cluster
            dask_client(scheduler, count, PURPOSE) as client,
        ):
            for result in _solved(client, missing, goal, progress):
                store(result, cache_dir)
                results[FowlPlay(result.chickens, result.wolves, goal)] = result
    return [results[game] for game in games]


def _solved(
    client: Any, games: Sequence[FowlPlay], goal: int, progress: bool
) -> Iterator[DeckResult]:
    """The decks' results as the cluster completes them, with a progress bar."""
    as_completed = distributed_module(PURPOSE).as_completed

    futures = client.map(
        deck_result,
        [game.chickens for game in games],
        [game.wolves for game in games],
        [goal] * len(games),
    )
    with progress_bar(
        progress, f"Fowl Play redesign to {goal}", total=len(games), unit="deck"
    ) as bar:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
            bar.update()
