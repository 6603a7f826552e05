r"""Solving a :class:`~exactprob.engine.levels.model.LevelModel`: one sweep from the last level
to the first, in batches.

Level :math:`k`'s values are the model's step applied to level :math:`k + 1`'s, which are
held in an array beside the sorted keys of their states (a state's key is its row read
as a number in the mixed radix ``sizes``), so a step's look-up is one ``searchsorted``.
Only the states' keys and values are kept: 16 bytes a state. In certified mode the
values are floats and level :math:`k` carries the radius :math:`r_k = r_{k+1} + e_k`
(:mod:`~exactprob.engine.levels.model`), summed exactly as rationals from the model's
rounding bounds; a state's enclosure is its float value :math:`\pm r_k`. In exact mode
the values are gmpy2 rationals and the radius is 0.

>>> import numpy as np
>>> from exactprob.engine.levels.model import LevelModel
>>> class Coins(LevelModel):  # toss 2 coins in turn; score 1 a head; may stop before each
...     levels, sizes, initial = 2, (3, 3), (0, 0)  # a state: (tosses, heads)
...     def states(self, level): return np.array([(level, h) for h in range(level + 1)])
...     def final(self, states): return states[:, 1]
...     def step(self, level, states, values, exact):
...         toss = (values(states + (1, 0)) + values(states + (1, 1))) / 2
...         return np.maximum(toss, states[:, 1])  # toss, or stop with the heads so far
...     def rounding_error(self, level, magnitude): return 2.0**-52 * (magnitude + 1)
>>> solved = solve_levels(Coins(), "exact")
>>> solved.value(), solved.value((1, 1)), solved.level_of((1, 1))
(Fraction(1, 1), Fraction(3, 2), 1)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import ModelError, UsageError
from ...util.deprecation import warn_deprecated
from ...util.display import exact_html, rows_html
from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.progress import Progress, progress_bar
from ...util.resources import check_memory
from ..enclosure import Enclosure
from ..results import Method, solved_json
from .batches import (
    BYTES_PER_STATE,
    BatchRunner,
    Level,
    batch_bytes,
    final_values,
    keys_of,
    rationals,
    step_batch,
)
from .model import LevelModel

__all__ = ["LevelSolution", "solve_levels"]


class LevelSolution:
    """Every state's value of a :class:`~exactprob.engine.levels.model.LevelModel`: exact, or an
    :class:`~exactprob.engine.enclosure.Enclosure` (certified). A level model's choices lie
    inside its steps, so it answers no policy or ties: the game reads its decisions from
    the values (:meth:`values`)."""

    __slots__ = ("_levels", "initial", "method", "model")
    solver = "level sweep"

    def __init__(
        self, model: LevelModel, levels: list[Level], method: Method, initial: Any
    ) -> None:
        self.model, self._levels, self.method, self.initial = model, levels, method, initial

    @property
    def states(self) -> Sequence[Hashable]:
        """Every state, level by level from level 0, each level in key order."""
        return _LevelStates(self)

    def level_of(self, state: Any) -> int:
        """The level ``state`` is on (a :class:`ModelError` when on none)."""
        key = _key_of(self.model, state)
        for level, held in enumerate(self._levels):
            at = np.searchsorted(held.keys, key)
            if at < len(held.keys) and held.keys[at] == key:
                return level
        raise ModelError(f"{state!r} is on no level of this model")

    def values(self, level: int, states: np.ndarray) -> np.ndarray:
        """The values of ``states`` (rows of ``level``): floats (certified, each within
        :meth:`radius` of the exact value) or gmpy2 rationals."""
        held = self._levels[level]
        found: np.ndarray = held.values[held.positions(keys_of(self.model, states), level)]
        return found

    def radius(self, level: int) -> Fraction:
        """How far a float value of ``level`` may be from the exact value (0 when exact)."""
        return self._levels[level].radius

    def value(self, state: Any = None) -> Any:
        """The value of ``state`` (the initial state when ``None``): a ``Fraction``, or an
        enclosure of it."""
        where = self.initial if state is None else state
        level = self.level_of(where)
        found = self.values(level, np.array([where], dtype=np.int64))[0]
        if self.method == "exact":
            return Fraction(int(found.numerator), int(found.denominator))
        radius = self._levels[level].radius
        return Enclosure(Fraction(float(found)) - radius, Fraction(float(found)) + radius)

    def reward_distribution(self, state: Any = None, *, progress: bool = False) -> Any:
        """The law of the total reward from ``state`` (the initial state when ``None``)
        under the choices the model's :meth:`~exactprob.engine.levels.model.LevelModel.moves`
        make from these values (:mod:`~exactprob.engine.levels.laws`): an exact
        :class:`~exactprob.engine.dist.Dist`, or a
        :class:`~exactprob.engine.certified.law.CertifiedLaw` when certified: the moves
        read the next level with :meth:`margin`, within which options count as tied and
        the model's tie rule picks (the choices it counts are the law's ``undecided``)."""
        from .laws import reward_law

        where = self.initial if state is None else state
        level = self.level_of(where)
        return reward_law(
            self.model,
            self.values,
            tuple(where),
            level,
            self.method,
            margins=self.margin,
            progress=progress,
        )

    def margin(self, level: int) -> float:
        """Twice :meth:`radius`, rounded up to a float: two values of ``level`` closer than
        this may be in either order exactly.

        >>> Fraction(_margin_above(Fraction(1, 3))) >= Fraction(1, 3)
        True
        """
        return _margin_above(2 * self.radius(level))

    def policy(self, state: Any = None) -> None:
        """Deprecated since 0.2.0 (always ``None``: the choices of a level model are inside
        its steps); read the decisions from :meth:`values`."""
        warn_deprecated("LevelSolution.policy()", "the values (LevelSolution.values)", "0.2.0")
        self.level_of(self.initial if state is None else state)

    def ties(self, state: Any = None) -> tuple[()]:
        """Deprecated since 0.2.0 (always ``()``: the choices of a level model are inside
        its steps); read the decisions from :meth:`values`."""
        warn_deprecated("LevelSolution.ties()", "the values (LevelSolution.values)", "0.2.0")
        self.level_of(self.initial if state is None else state)
        return ()

    def to_json(self, state: Any = None) -> dict[str, Any]:
        """The answer at ``state`` (:func:`~exactprob.engine.results.solved_json`)."""
        return solved_json(self, state)

    def _repr_html_(self) -> str:
        value = self.value()
        shown = value._repr_html_() if isinstance(value, Enclosure) else exact_html(value)
        rows = [
            ("value at the start", shown),
            ("levels", str(len(self._levels) - 1)),
            ("states", f"{sum(len(held.keys) for held in self._levels):,}"),
        ]
        return rows_html(f"Solved level by level ({self.method})", rows)


class _LevelStates(Sequence[Hashable]):
    """A solution's states as tuples, read from the keys on demand."""

    def __init__(self, solution: LevelSolution) -> None:
        self._solution = solution
        self._sizes = [len(held.keys) for held in solution._levels]

    def __len__(self) -> int:
        return sum(self._sizes)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        for held, size in zip(self._solution._levels, self._sizes, strict=True):
            if 0 <= i < size:
                row = np.unravel_index(int(held.keys[i]), self._solution.model.sizes)
                return tuple(int(x) for x in row)
            i -= size
        raise IndexError("state index out of range")

    def __iter__(self) -> Iterator[Hashable]:
        return (self[i] for i in range(len(self)))

    def __contains__(self, state: object) -> bool:
        try:
            self._solution.level_of(state)
        except (ModelError, ValueError, TypeError):
            return False
        return True


def solve_levels(
    model: LevelModel,
    method: Method,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
    cluster: Any = None,
) -> LevelSolution:
    """Solve ``model`` from its last level to its first: exactly (``method="exact"``) or
    in floats with a certified radius per level (``"certified"``). ``starts`` names the
    state ``None`` stands for (its first). ``cluster`` runs the steps on Dask
    (:mod:`~exactprob.engine.levels.cluster`): a ``distributed.Client``, a scheduler's
    address, or ``"local"`` for a cluster of this machine's cores."""
    if method not in ("exact", "certified"):
        raise UsageError(
            f"a level model is solved level by level: method 'exact' or 'certified', got {method!r}"
        )
    count = _level_count(model)
    rows: list[np.ndarray] = []
    for level in range(count + 1):
        rows.append(_level_rows(model, level))
        refuse_more_than(max_states, sum(len(r) for r in rows), "this level model", at_most=True)
    total = sum(len(r) for r in rows)
    held = sum(r.nbytes for r in rows) + total * BYTES_PER_STATE + batch_bytes(model)
    check_memory(held, "solving this level model")
    exact = method == "exact"
    _check_one_level_each(model, rows)
    if cluster is None:
        levels = _sweep(model, rows, exact, progress, _run_here(model))
    else:
        from .cluster import cluster_runner

        largest = max(len(r) for r in rows)
        with cluster_runner(cluster, model, largest) as run:
            levels = _sweep(model, rows, exact, progress, run)
    first: Any = starts[0] if starts else model.initial
    initial = tuple(first)
    solution = LevelSolution(model, levels, method, initial)
    for state in [initial, *(starts or ())]:
        solution.level_of(state)
    return solution


def _sweep(
    model: LevelModel, rows: list[np.ndarray], exact: bool, progress: bool, run: BatchRunner
) -> list[Level]:
    """Every level's values, the end level's from ``final``, the others by ``run``."""
    count = len(rows) - 1
    levels: list[Level] = [Level(np.empty(0, np.int64), np.empty(0), Fraction(0))] * count
    keys, order = _sortedkeys_of(model, rows[count])
    levels.append(Level(keys, *_final_values(model, rows[count][order], exact)))
    total = sum(len(r) for r in rows)
    with progress_bar(progress, "solving levels", total=total, unit=" states") as bar:
        bar.update(len(keys))
        for level in range(count - 1, -1, -1):
            levels[level] = _swept(model, level, rows[level], levels[level + 1], exact, bar, run)
    return levels


def _swept(
    model: LevelModel,
    level: int,
    rows: np.ndarray,
    below: Level,
    exact: bool,
    bar: Progress,
    run: BatchRunner,
) -> Level:
    """Level ``level``'s values and radius from the level below it."""
    keys, order = _sortedkeys_of(model, rows)
    rows = rows[order]
    size = max(1, int(model.batch_rows))
    batches = [rows[start : start + size] for start in range(0, len(rows), size)]
    out = np.empty(len(rows), dtype=object if exact else np.float64)
    for index, found in run(level, batches, below, exact):
        out[index * size : index * size + len(found)] = found
        bar.update(len(found))
    if exact:
        return Level(keys, rationals(out, f"the exact step of level {level}"), Fraction(0))
    if not np.isfinite(out).all():
        raise ModelError(f"the step of level {level} gave a value that is not finite")
    return Level(keys, out, below.radius + _rounding(model, level, below))


def _run_here(model: LevelModel) -> BatchRunner:
    """Run the batches in this process, one after another."""

    def run(
        level: int, batches: list[np.ndarray], below: Level, exact: bool
    ) -> Iterator[tuple[int, np.ndarray]]:
        for index, batch in enumerate(batches):
            yield index, step_batch(model, level, batch, below, exact)

    return run


def _rounding(model: LevelModel, level: int, below: Level) -> Fraction:
    """The model's rounding bound for ``level`` as an exact rational (refused unless finite
    and >= 0), given the largest next-level value widened by its radius."""
    largest = float(np.max(np.abs(below.values))) if len(below.values) else 0.0
    magnitude = float(Fraction(largest) + below.radius) * (1 + 2.0**-50)
    error = model.rounding_error(level, magnitude)
    if not (isinstance(error, float | int) and 0 <= error < float("inf")):
        raise ModelError(
            f"rounding_error of level {level} must be a finite number >= 0, got {error!r}"
        )
    return Fraction(error)


def _final_values(model: LevelModel, rows: np.ndarray, exact: bool) -> tuple[np.ndarray, Fraction]:
    """The end level's values, rationals (exact) or floats, and how far the floats are
    from the exact values (0 for integers and dyadic rationals)."""
    exact_values = final_values(model, rows)
    if exact:
        return exact_values, Fraction(0)
    floats = np.array([float(v) for v in exact_values])
    errors = [
        abs(Fraction(f) - Fraction(int(v.numerator), int(v.denominator)))
        for f, v in zip(floats, exact_values, strict=True)
    ]
    return floats, max(errors, default=Fraction(0))


def _level_count(model: LevelModel) -> int:
    count = model.levels
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ModelError(f"levels must be a whole number >= 1, got {count!r}")
    return count


def _level_rows(model: LevelModel, level: int) -> np.ndarray:
    """The rows of ``level``, checked: a 2-D array of whole numbers inside ``sizes``."""
    rows = np.asarray(model.states(level))
    width = len(model.sizes)
    if rows.ndim != 2 or rows.shape[1] != width or not np.issubdtype(rows.dtype, np.integer):
        raise ModelError(f"states({level}) must be whole numbers in rows of {width}")
    if len(rows) and ((rows < 0).any() or (rows >= np.asarray(model.sizes)).any()):
        raise ModelError(f"states({level}) has a value outside 0 .. sizes - 1")
    return rows.astype(np.int64, copy=False)


def _check_one_level_each(model: LevelModel, rows: list[np.ndarray]) -> None:
    """Refuse a state listed twice, on one level or on two (a solution finds a state's
    level by its key)."""
    keys = np.concatenate([keys_of(model, r) for r in rows])
    if len(np.unique(keys)) < len(keys):
        raise ModelError("a state is listed twice: list each state once, on one level")


def _sortedkeys_of(model: LevelModel, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows' keys sorted, and the order that sorts them."""
    keys = keys_of(model, rows)
    order = np.argsort(keys, kind="stable")
    return keys[order], order


def _key_of(model: LevelModel, state: Any) -> int:
    """One state's key (a :class:`ModelError` for something that is not a state)."""
    try:
        row = np.array([tuple(state)], dtype=np.int64)
        return int(keys_of(model, row)[0])
    except (TypeError, ValueError, OverflowError, ModelError):
        raise ModelError(f"{state!r} is not a state of this level model") from None


def _margin_above(bound: Fraction) -> float:
    r"""The least float :math:`\ge` ``bound``."""
    nearest = float(bound)
    return nearest if Fraction(nearest) >= bound else math.nextafter(nearest, math.inf)
