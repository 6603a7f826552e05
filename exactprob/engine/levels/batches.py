"""A level's stored values, one batch of a level model's step, and the exact numbers it
gives: what the level sweep, its Dask runner and the law's forward sweep share
(:mod:`exactprob.engine.levels.sweep`, :mod:`exactprob.engine.levels.cluster`,
:mod:`exactprob.engine.levels.laws`).

A level is held as the sorted keys of its states (each row read as a number in the mixed
radix ``sizes``) beside their values, so a step's look-up of the level below is one
``searchsorted``.

>>> import numpy as np
>>> below = Level(np.array([3, 5, 9]), np.array([0.5, 0.25, 1.0]), Fraction(0))
>>> below.positions(np.array([9, 3]), level=1).tolist()
[2, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

import numpy as np

from ...errors import InexactError, ModelError
from ...util.numbers import exact as exact_number
from ...util.numbers import is_symbolic
from .model import LevelModel

__all__ = [
    "BYTES_PER_STATE",
    "BatchRunner",
    "Level",
    "batch_bytes",
    "final_values",
    "keys_of",
    "rationals",
    "step_batch",
]

#: Bytes held per state: its key and its float value (in exact mode, a pointer to a
#: rational, whose digits come on top and are not estimated).
BYTES_PER_STATE = 16


class Level:
    """One level's states as sorted keys, and their values (filled by the sweep)."""

    __slots__ = ("keys", "radius", "values")

    def __init__(self, keys: np.ndarray, values: np.ndarray, radius: Fraction) -> None:
        self.keys, self.values, self.radius = keys, values, radius

    def positions(self, keys: np.ndarray, level: int) -> np.ndarray:
        """Where ``keys`` sit in this level (a :class:`ModelError` for one that is not here)."""
        at = np.searchsorted(self.keys, keys)
        inside = at < len(self.keys)
        if not (inside.all() and (self.keys[at] == keys).all()):
            raise ModelError(f"a step asked for a state that is not on level {level}")
        return at


#: How a sweep runs a level's batches: ``run(level, batches, below, exact)`` yields each
#: batch's index and values, in any order (here, one after another; or on a cluster).
BatchRunner = Callable[[int, list[np.ndarray], Level, bool], Iterator[tuple[int, np.ndarray]]]


def batch_bytes(model: LevelModel) -> int:
    """The working memory of one step's batch, as the model declares it."""
    return max(0, int(model.bytes_per_row)) * max(1, int(model.batch_rows))


def step_batch(
    model: LevelModel, level: int, batch: np.ndarray, below: Level, exact: bool
) -> np.ndarray:
    """The model's step on one batch of ``level``, reading the level ``below``, checked to
    give one value per row (what a cluster's worker runs)."""

    def values(states: np.ndarray) -> np.ndarray:
        found: np.ndarray = below.values[below.positions(keys_of(model, states), level + 1)]
        return found

    found = np.asarray(model.step(level, batch, values, exact))
    if found.shape != (len(batch),):
        raise ModelError(
            f"the step of level {level} gave {found.shape} values for {len(batch)} states"
        )
    return found


def keys_of(model: LevelModel, rows: np.ndarray) -> np.ndarray:
    """Each row read as a number in the mixed radix ``sizes`` (a :class:`ModelError` for
    a row outside them)."""
    try:
        keys: np.ndarray = np.ravel_multi_index(tuple(np.asarray(rows).T), model.sizes)
    except ValueError:
        raise ModelError(
            f"a state has a value outside 0 .. sizes - 1 (sizes {model.sizes})"
        ) from None
    return keys.astype(np.int64)


def rationals(values: np.ndarray, what: str) -> np.ndarray:
    """Values ``what`` gave (the end level's, an exact step's, exact moves' chances) as
    gmpy2 rationals; a float that is not exactly its printed decimal (or anything else
    inexact) is refused: it would pass for the rational it happens to equal."""
    try:
        found = [exact_number(int(v) if isinstance(v, np.integer) else v) for v in values]
    except InexactError as error:
        raise ModelError(f"{what} gave an inexact value (exact numbers only): {error}") from None
    if any(is_symbolic(v) for v in found):
        raise ModelError(f"{what} gave a symbolic value (rational numbers only)")
    return np.array(found, dtype=object)


def final_values(model: LevelModel, rows: np.ndarray) -> np.ndarray:
    """The end level's exact values of ``rows`` (:meth:`LevelModel.final`), one per row,
    as gmpy2 rationals."""
    found = np.asarray(model.final(rows))
    if found.shape != (len(rows),):
        raise ModelError(f"final gave {found.shape} values for {len(rows)} states")
    return rationals(found, "final")
