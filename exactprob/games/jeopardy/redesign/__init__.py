"""The search for the fairest Fowl Play deck and komi (Dask), and its answer in full.

* :mod:`.search`: every deck enclosed at every komi, cached, on one machine or a cluster;
* :mod:`.report`: the whole answer in one call (what ``exactprob fowl-redesign`` prints).
"""

from .report import RedesignReport, check_decks, range_text, redesign_report
from .search import (
    CACHE_FORMAT,
    DeckResult,
    Design,
    cache_path,
    deck_result,
    default_cache_dir,
    fairest_designs,
    load_cached,
    search,
    store,
)

__all__ = [
    "CACHE_FORMAT",
    "DeckResult",
    "Design",
    "RedesignReport",
    "cache_path",
    "check_decks",
    "deck_result",
    "default_cache_dir",
    "fairest_designs",
    "load_cached",
    "range_text",
    "redesign_report",
    "search",
    "store",
]
