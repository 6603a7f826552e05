"""Luck mechanics of roguelikes, exactly (after J. Mates, "Luck and Roguelikes", 2018).

The source answered these questions by Monte-Carlo runs, some on Rogue 3.6.3's generator;
here each is answered exactly, and each simulator runs on either generator.

* :mod:`.rng`: Rogue 3.6.3's generator bit for bit, and numpy's, behind one protocol.
"""

from .rng import NumpyRandom, RandomSource, RogueRandom, random_source

__all__ = ["NumpyRandom", "RandomSource", "RogueRandom", "random_source"]
