r"""Models solved a level at a time from a vectorised step (``LevelModel``).

Some games are too large for a stored state graph but move through *levels* in one
direction: solitaire Yahtzee goes from turn to turn with one more category filled, and
each turn's ~1,700 rolls and keeps need not be states of their own. A :class:`LevelModel`
lists the states of each level (rows of whole numbers, as an
:class:`~exactprob.engine.array_model.ArrayModel`'s) and gives, for a batch of states of one
level, their values from the next level's values: the *step*, which holds the level's
inner choices and chances. The engine orders the levels (last first), looks the next
level's values up for the step, bounds how many states are held, shows progress, and
certifies the rounding.

*The step's contract.* Each value is the best (largest, or smallest) over the state's
inner choices of an expectation of rewards plus next-level values, nested as deep as the
level needs. Such a map :math:`T` is monotone and moves no value by more than its inputs
moved: :math:`\lVert T v - T w \rVert_\infty \le \lVert v - w \rVert_\infty`, since a
probability average and a maximum each have that property. So if every next-level value
is known within :math:`r_{k+1}` and the float step errs by at most :math:`e_k` on the
values it was given (:meth:`LevelModel.rounding_error`), the level's values are known
within

.. math::

    r_k = r_{k+1} + e_k, \qquad r_{\mathrm{levels}} = 0,

which is the certified mode's radius at level :math:`k`. In exact mode the same step
runs on gmpy2 rationals (object arrays), with no rounding.

Roll one die up to three times and keep the last roll: :math:`V_2 = 7/2`,
:math:`V_1 = E\max(X, 7/2) = 17/4`, :math:`V_0 = E\max(X, 17/4) = 14/3`.

>>> import numpy as np
>>> from fractions import Fraction
>>> from gmpy2 import mpq
>>> import exactprob as ep
>>> class Keep(LevelModel):
...     levels, sizes, initial = 3, (4,), (0,)  # a state: the rolls made
...     def states(self, level): return np.array([[level]])
...     def final(self, states): return np.zeros(len(states), dtype=np.int64)
...     def step(self, level, states, values, exact):
...         stop = values(states + 1)  # stop now: worth the next level's value
...         faces = [mpq(f) if exact else float(f) for f in range(1, 7)]
...         return sum(np.maximum(f, stop) for f in faces) / 6
...     def rounding_error(self, level, magnitude): return 8 * 2.0**-53 * (magnitude + 6)
>>> ep.solve(Keep()).value()
Fraction(14, 3)
>>> ep.solve(Keep(), method="certified").value().contains(Fraction(14, 3))
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["LevelModel", "LevelMoves", "NextLevel", "NextValues", "summed_by"]

#: How a step reads the next level: ``values(next_states)``, one value per row.
NextValues = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class NextLevel:
    """The next level's values as :meth:`LevelModel.moves` reads them: called with rows,
    like :data:`NextValues`, and carrying the ``margin`` within which the step's own
    float values do not decide a choice. Each value the step computes is within the
    level's radius :math:`r` of its exact counterpart, so two options whose floats differ
    by at most ``margin`` :math:`\\ge 2r` may be in either order, or tied, exactly (the
    integer 0 when exact, so that no float meets the rationals: then equal values are
    ties, broken as the model documents).

    >>> NextLevel(lambda rows: rows * 2, 0.5)(np.array([1, 2])).tolist()
    [2, 4]
    """

    read: NextValues
    margin: float

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return self.read(rows)


@dataclass(frozen=True)
class LevelMoves:
    """Where a batch of states moves under the step's own choices: move ``i`` goes from
    row ``source[i]`` of the batch to the next level's state ``target[i]`` with chance
    ``probability[i]``, earning the whole number ``reward[i] >= 0``. A state's chances sum
    to one; a state with several moves of one target and reward may list them apart.

    In floats, ``undecided`` counts the choices of the batch between options within the
    :attr:`NextLevel.margin` of each other, which the model's tie rule decided (``None``:
    the model does not say).
    """

    source: np.ndarray
    target: np.ndarray
    reward: np.ndarray
    probability: np.ndarray
    undecided: int | None = None


class LevelModel:
    """A game played level by level, solved from a vectorised step.

    Subclasses set ``levels``, ``sizes`` and ``initial`` and define :meth:`states`,
    :meth:`final`, :meth:`step` and :meth:`rounding_error`, and for the law of the total
    reward :meth:`moves` and :meth:`move_rounding`. Levels ``0 .. levels - 1`` are
    played; level ``levels`` is the end, valued by :meth:`final`.
    """

    #: Levels ``0 .. levels - 1`` are played, each moving to the next.
    levels: int = 0
    #: Variable ``i`` of a state takes the values ``0 .. sizes[i] - 1``.
    sizes: tuple[int, ...] = ()
    #: The state of level 0 that ``None`` stands for in a solution.
    initial: tuple[int, ...] = ()
    #: How many states one call of :meth:`step` receives at most (its working memory).
    batch_rows: int = 4096
    #: The most memory one row of a step uses, in bytes (0: too little to count); the
    #: engine checks a batch's before solving, here and on each worker of a cluster.
    bytes_per_row: int = 0

    def states(self, level: int) -> np.ndarray:
        """The states of ``level`` (``0 .. levels``), one per row, each once and on no
        other level."""
        raise NotImplementedError

    def final(self, states: np.ndarray) -> np.ndarray:
        """The exact values of the end level's rows (integers, or exact objects)."""
        raise NotImplementedError

    def step(self, level: int, states: np.ndarray, values: NextValues, exact: bool) -> np.ndarray:
        """The values of ``states`` (rows of ``level``) from the next level's ``values``:
        float64 when ``exact`` is false, else gmpy2 rationals in an object array. The map
        must be monotone and non-expansive (module docstring)."""
        raise NotImplementedError

    def rounding_error(self, level: int, magnitude: float) -> float:
        """A bound on how far the float :meth:`step` of ``level`` can be from the exact
        step of the same inputs, when every next-level value it reads is at most
        ``magnitude`` in absolute value."""
        raise NotImplementedError

    def moves(self, level: int, states: np.ndarray, values: NextValues, exact: bool) -> LevelMoves:
        """Optional, for the law of the total reward
        (:meth:`~exactprob.engine.levels.sweep.LevelSolution.reward_distribution`): the
        moves of ``states`` under the choices the step makes from the same ``values``
        (ties broken as the model documents), with float chances (each within the
        relative :meth:`move_rounding` of the exact chance of those choices) or gmpy2
        rationals. ``values`` is a :class:`NextLevel`: in floats, options within its
        ``margin`` of the best may be exactly tied with it, so the model takes the one its
        tie rule puts first among them (the exact mode's choice, where they are exact
        ties) and counts such choices (``LevelMoves.undecided``). The total reward is the moves' rewards plus the end level's
        :meth:`final` value, which must then be a whole number >= 0."""
        raise NotImplementedError

    def move_rounding(self, level: int) -> float:
        """A bound :math:`b` on the float chances of :meth:`moves`: each is within
        :math:`b` times the exact chance (no absolute part, so none is subnormal)."""
        raise NotImplementedError


def is_level_model(model: Any) -> bool:
    """Whether the engine solves ``model`` a level at a time.

    >>> is_level_model(LevelModel()), is_level_model(object())
    (True, False)
    """
    return isinstance(model, LevelModel)


def summed_by(index: np.ndarray, weights: np.ndarray, size: int, exact: bool) -> np.ndarray:
    """The sums of ``weights`` by ``index`` (``0 .. size - 1``): floats, or exact numbers
    in an object array (a move's chances merged, each state's total of them).

    >>> summed_by(np.array([0, 2, 0]), np.array([0.25, 0.5, 0.25]), 3, exact=False).tolist()
    [0.5, 0.0, 0.5]
    """
    if not exact:
        found: np.ndarray = np.bincount(index, weights=weights, minlength=size)
        return found
    out = np.zeros(size, dtype=object)
    np.add.at(out, index, weights)
    return out
