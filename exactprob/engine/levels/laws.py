r"""The law of a level model's total reward under its step's own choices: one sweep forward.

From the start state (its level, total 0) the chance of each pair (state, total so far)
is pushed one level on along the model's moves
(:meth:`~exactprob.engine.levels.model.LevelModel.moves`): a move :math:`u \to t` with
chance :math:`p` earning :math:`d` adds :math:`p\,L_u(x)` to :math:`L_t(x + d)`. A level is
a matrix :math:`L_k` (the states reached, by the totals so far), and one level's push is
one sparse product per reward :math:`d`:

.. math::

    L_{k+1}[\,\cdot\,, d + x] \mathrel{+}= (M_d L_k)[\,\cdot\,, x], \qquad
    M_d[t, u] = \text{the chance of } u\text{'s moves to } t \text{ earning } d.

At the end level each state's :meth:`~exactprob.engine.levels.model.LevelModel.final`
value is added to its totals, and the law is the sum over the end states. Exactly, on
gmpy2 rationals, or in floats with a certified band (returned as a
:class:`~exactprob.engine.certified.law.CertifiedLaw`):

*The band.* Every number of the sweep is >= 0 and none is subnormal (checked: each
level's smallest chance times its smallest entry is at least :math:`2^{-1020}`), so each
float is its exact value times a factor: a move's chance within :math:`1 \pm b_k`
(the model's :meth:`~exactprob.engine.levels.model.LevelModel.move_rounding`), and an
entry of :math:`L_{k+1}`, a sum of :math:`n` products of rounded inputs (its incoming
moves, counted), within :math:`1 \pm \gamma_n` of the same sum of the rounded inputs in
exact arithmetic, :math:`\gamma_n = nu/(1 - nu)` (Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., §3.1, any order of summation). Factors of sums and
products of positive numbers compose, so with :math:`\ell_0 = h_0 = 1`

.. math::

    \ell_{k+1} = \ell_k (1 - b_k)(1 - \gamma_{n_k}), \qquad
    h_{k+1} = h_k (1 + b_k)(1 + \gamma_{n_k}),

multiplied out as exact rationals, and the end's sum over :math:`n` states adds one more
:math:`\gamma_n`.

*Choices the floats do not decide.* The band is for the choices the moves make. Where a
step's options are within the level's margin of each other
(:class:`~exactprob.engine.levels.model.NextLevel`), the floats cannot tell an exact
tie from a near one; the model then takes the option its tie rule puts first among
them, and counts the choice (``LevelMoves.undecided``). The law says how many it met
(``CertifiedLaw.undecided``): it is the law of the exact mode's player where those
options are exact ties, and of a player within twice the margin of optimal at each such
choice otherwise.

Three tosses of a fair coin, each head scoring one (the law is binomial):

>>> import numpy as np
>>> from gmpy2 import mpq
>>> from .model import LevelModel, LevelMoves
>>> class Tosses(LevelModel):
...     levels, sizes, initial = 3, (4,), (0,)
...     def states(self, level): return np.array([[level]])
...     def final(self, states): return np.zeros(len(states), dtype=np.int64)
...     def moves(self, level, states, values, exact):
...         half = mpq(1, 2) if exact else 0.5
...         return LevelMoves(np.array([0, 0]), np.array([[level + 1]] * 2), np.array([0, 1]),
...                           np.array([half, half], dtype=object if exact else float))
...     def move_rounding(self, level): return 0.0
>>> law = reward_law(Tosses(), lambda level, rows: None, (0,), 0, "exact")
>>> sorted((x, str(p)) for x, p in law.items())
[(0, '1/8'), (1, '3/8'), (2, '3/8'), (3, '1/8')]
>>> reward_law(Tosses(), lambda level, rows: None, (0,), 0, "certified").mean().contains(mpq(3, 2))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse
from gmpy2 import mpq

from ...errors import ModelError, UsageError
from ...util.progress import progress_bar
from ...util.resources import check_memory
from ...util.rounding import UNIT_ROUNDOFF
from ..certified.law import CertifiedLaw
from ..dist import Dist
from .batches import final_values, keys_of, rationals
from .model import LevelModel, LevelMoves, NextLevel, summed_by

__all__ = ["reward_law"]

#: How a law reads the solved values: ``values(level, rows)``, one per row.
LevelValues = Callable[[int, np.ndarray], Any]
#: How close two of a level's float values may be and not decide a choice:
#: ``margin(level)``.
LevelMargins = Callable[[int], float]
#: The smallest product of a chance and an entry the float sweep accepts (no underflow).
SMALLEST_PRODUCT = 2.0**-1020
#: Bytes an exact entry is taken to hold (a pointer and a small rational).
EXACT_ENTRY_BYTES = 100


class _Band:
    """The certified band ``[low, high]`` of every float of a level: each is its exact
    value times a factor inside it (module docstring)."""

    def __init__(self) -> None:
        self.low, self.high = Fraction(1), Fraction(1)

    def widen(self, relative: float | Fraction) -> None:
        """Compose with one more factor in ``1 +- relative``."""
        try:
            relative = Fraction(relative)
        except (TypeError, ValueError, OverflowError):
            raise ModelError(
                f"a relative rounding bound must be a number, got {relative!r}"
            ) from None
        if not 0 <= relative < 1:
            raise ModelError(f"a relative rounding bound must be in [0, 1), got {float(relative)}")
        self.low *= 1 - relative
        self.high *= 1 + relative


def _gamma(n: int) -> Fraction:
    """:math:`\\gamma_n = nu / (1 - nu)`, exactly."""
    nu = n * Fraction(UNIT_ROUNDOFF)
    return nu / (1 - nu)


def reward_law(
    model: LevelModel,
    values: LevelValues,
    start: tuple[int, ...],
    first: int,
    method: str,
    *,
    margins: LevelMargins | None = None,
    progress: bool = False,
) -> Any:
    """The law of the total reward from ``start`` (a state of level ``first``) under the
    choices the model's moves make from the solved ``values``: a
    :class:`~exactprob.engine.dist.Dist` (``method="exact"``) or a
    :class:`~exactprob.engine.certified.law.CertifiedLaw` (``"certified"``, with the
    choices within ``margins(level)`` that the model's tie rule decided counted)."""
    if method not in ("exact", "certified"):
        raise UsageError(f"a law is exact or certified, got method {method!r}")
    exact = method == "exact"
    needs = ("moves",) if exact else ("moves", "move_rounding")
    missing = [name for name in needs if getattr(type(model), name) is getattr(LevelModel, name)]
    if missing:
        raise UsageError(
            f"{type(model).__name__} gives no {' or '.join(missing)}: the law of its total "
            "reward needs LevelModel.moves (and move_rounding when certified)"
        )
    states = np.array([start], dtype=np.int64)
    law = np.array([[mpq(1) if exact else 1.0]], dtype=object if exact else np.float64)
    band = _Band()
    undecided: int | None = 0  # None once some moves do not say
    with progress_bar(
        progress, "law of the total", total=model.levels - first, unit=" levels"
    ) as bar:
        for level in range(first, model.levels):
            margin = 0 if exact or margins is None else margins(level)  # exact: no float
            moves = _level_moves(model, level, states, values, margin, exact)
            undecided = _total([undecided, moves.undecided])
            if not exact:
                _check_no_underflow(moves.probability, law, level)
                band.widen(model.move_rounding(level))
            states, law, incoming = _push(model, level, law, moves, values, exact)
            band.widen(_gamma(incoming))
            bar.update(1)
    return _ended(model, states, law, band, exact, undecided)


def _level_moves(
    model: LevelModel,
    level: int,
    states: np.ndarray,
    values: LevelValues,
    margin: float,
    exact: bool,
) -> LevelMoves:
    """The moves of every state reached on ``level``, batch by batch, checked
    (:func:`_checked`), the model reading the next level with ``margin``."""
    size = max(1, int(model.batch_rows))
    parts: list[LevelMoves] = []
    below = NextLevel(lambda rows: values(level + 1, rows), margin)
    for begin in range(0, len(states), size):
        batch = states[begin : begin + size]
        found = _checked(model, model.moves(level, batch, below, exact), len(batch), level, exact)
        parts.append(replace(found, source=found.source + begin))
    source, target, reward, probability = (
        np.concatenate(arrays) for arrays in zip(*(_fields(p) for p in parts), strict=True)
    )
    return LevelMoves(
        source, target, reward, probability, undecided=_total(p.undecided for p in parts)
    )


def _total(counts: Iterable[int | None]) -> int | None:
    """The sum of ``counts``, or ``None`` when one of them is (a count not given).

    >>> _total([1, 2]), _total([1, None])
    (3, None)
    """
    found = list(counts)
    return None if None in found else sum(found)  # type: ignore[arg-type]


def _fields(moves: LevelMoves) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return moves.source, moves.target, moves.reward, moves.probability


def _checked(
    model: LevelModel, moves: LevelMoves, count: int, level: int, exact: bool
) -> LevelMoves:
    """A batch's moves, checked: one source (in the batch), target (a row of the model's
    width), whole reward >= 0 and chance each; chances >= 0 summing to one for each of
    the batch's ``count`` states (exactly, or within :math:`10^{-9}` in floats)."""
    where = f"the moves of level {level}"
    source, reward = np.asarray(moves.source), np.asarray(moves.reward)
    target = np.asarray(moves.target)
    n = len(source)
    if source.ndim != 1 or reward.shape != (n,) or np.shape(moves.probability) != (n,):
        raise ModelError(f"{where} need one source, target, reward and chance each")
    if not np.issubdtype(source.dtype, np.integer):
        raise ModelError(f"{where}: each source must be a whole number (a row of the batch)")
    if target.shape != (n, len(model.sizes)) or not np.issubdtype(target.dtype, np.integer):
        raise ModelError(f"{where}: each target must be a row of {len(model.sizes)} whole numbers")
    if n and (source.min() < 0 or source.max() >= count):
        raise ModelError(f"{where} name a source outside the batch")
    if not np.issubdtype(reward.dtype, np.integer) or (reward < 0).any():
        raise ModelError(f"{where} must earn whole numbers >= 0")
    if exact:
        chances = rationals(np.asarray(moves.probability), f"the exact moves of level {level}")
        totals = summed_by(source, chances, count, exact)
        fair = all(c >= 0 for c in chances) and all(t == 1 for t in totals)
    else:
        chances = np.asarray(moves.probability, dtype=np.float64)
        totals = summed_by(source, chances, count, exact)
        fair = bool((chances >= 0).all() and (abs(totals - 1) <= 1e-9).all())
    if not fair:
        raise ModelError(f"{where}: a state's chances are not >= 0 summing to 1")
    undecided = getattr(moves, "undecided", None)
    if undecided is not None and (
        isinstance(undecided, bool) or not isinstance(undecided, int | np.integer) or undecided < 0
    ):
        raise ModelError(f"{where}: the undecided choices must be a whole number >= 0 or None")
    return LevelMoves(
        source,
        target.astype(np.int64),
        reward.astype(np.int64),
        chances,
        None if undecided is None else int(undecided),
    )


def _check_no_underflow(chances: np.ndarray, law: np.ndarray, level: int) -> None:
    """Refuse a float push whose products could leave the normal range (the band would
    not hold)."""
    positive = chances[chances > 0]
    entries = law[law > 0]
    if len(positive) and len(entries) and positive.min() * entries.min() < SMALLEST_PRODUCT:
        raise ModelError(
            f"the law reaches chances below 2^-1020 on level {level}: too small for a "
            "certified float law (solve exactly)"
        )


def _push(
    model: LevelModel,
    level: int,
    law: np.ndarray,
    moves: LevelMoves,
    values: LevelValues,
    exact: bool,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The states the moves reach (checked to be on the next level), their law, and the
    most moves into one of them (the terms of its sums)."""
    reached, first, into = np.unique(
        keys_of(model, moves.target), return_index=True, return_inverse=True
    )
    into = into.ravel()
    targets = moves.target[first]
    values(level + 1, targets)  # a ModelError for a target not on the next level
    width = law.shape[1] + int(moves.reward.max(initial=0))
    order = np.argsort(moves.reward, kind="stable")
    rewards, starts = np.unique(moves.reward[order], return_index=True)
    groups = np.split(order, starts[1:])
    # the law and the next one, a product and its copy at once; exact: a group's terms too
    entries = law.size + 3 * len(reached) * width
    if exact:
        entries += max((len(group) for group in groups), default=0) * law.shape[1]
    check_memory(entries * (EXACT_ENTRY_BYTES if exact else 8), "the law of the total reward")
    if exact:
        out = np.full((len(reached), width), mpq(0), dtype=object)
    else:
        out = np.zeros((len(reached), width))
    columns = law.shape[1]
    for reward, group in zip(rewards, groups, strict=True):
        shifted = out[:, reward : reward + columns]
        chances, source = moves.probability[group], moves.source[group]
        if exact:
            np.add.at(shifted, into[group], chances[:, None] * law[source])
        else:  # only the rows this reward reaches: the product is dense
            rows, row = np.unique(into[group], return_inverse=True)
            pushed = scipy.sparse.csr_matrix(
                (chances, (row.ravel(), source)), shape=(len(rows), law.shape[0])
            )
            shifted[rows] += pushed @ law
    incoming = int(np.bincount(into).max(initial=1))
    return targets, _trimmed(out), incoming


def _trimmed(law: np.ndarray) -> np.ndarray:
    """``law`` without its columns of zeros at the right (totals no state has reached),
    contiguous (a sparse product would copy a strided one each time)."""
    used = np.flatnonzero((law != 0).any(axis=0))
    return np.ascontiguousarray(law[:, : int(used[-1]) + 1] if len(used) else law[:, :1])


def _ended(
    model: LevelModel,
    states: np.ndarray,
    law: np.ndarray,
    band: _Band,
    exact: bool,
    undecided: int | None,
) -> Any:
    """The law of the total: each end state's final value added to its totals, summed."""
    final = final_values(model, states)
    if any(v.denominator != 1 or v < 0 for v in final):
        raise ModelError("the law of the total needs final values that are whole numbers >= 0")
    shifts = np.array([int(v) for v in final], dtype=np.int64)
    width = law.shape[1] + int(shifts.max(initial=0))
    total = np.full(width, mpq(0), dtype=object) if exact else np.zeros(width)
    for shift in np.unique(shifts):
        total[shift : shift + law.shape[1]] += law[shifts == shift].sum(axis=0)
    outcomes = np.flatnonzero(total != 0)
    if exact:
        return Dist(
            {int(x): Fraction(int(total[x].numerator), int(total[x].denominator)) for x in outcomes}
        )
    band.widen(_gamma(len(states)))
    return CertifiedLaw(outcomes, total[outcomes], band.low, band.high, undecided)
