r"""Models on vectors of whole numbers, called on many states at once (``ArrayModel``).

A plain :class:`~exactprob.engine.model.Model` is called once per state, so exploring it costs a
few microseconds of Python per state. An :class:`ArrayModel` describes a game whose
states are tuples of whole numbers, variable ``i`` taking the values
``0 .. sizes[i] - 1``, and its methods receive *batches*: the rows of a 2-D numpy integer
array, one state per row, answered with one entry (or one row) per row. The engine
explores it a breadth-first level at a time with a few numpy calls per level
(:func:`~exactprob.engine.graph.bulk.explore_arrays`); solving, enclosing and the
:class:`~exactprob.engine.exact.solution.Solution` are the same as for any model.

A model with rewards (:mod:`exactprob.engine._internal.rewards`) also defines
``reward(states, action)``: the exact reward of ``action`` in each row, integers or an
object array of exact numbers, as ``outcome`` gives them.

A transition is a short list of *branches* ``(probability, next_states)``. ``next_states``
has one row per row of ``states``; ``probability`` is one exact number for every row
(``"1/6"``, ``Fraction(1, 6)``, ``1``), or a pair ``(numerators, denominators)`` of
integer arrays (either may be a single integer) for a chance that depends on the state,
such as drawing from what is left of a deck. A row whose numerator is 0 has no such
move. The branches of each row must sum to exactly one; two branches of a row that reach
the same state are added. Numerators and denominators must fit in 62 bits.

>>> import numpy as np
>>> import exactprob as ep
>>> class Race(ArrayModel):  # roll a d6 until the total reaches 10: win on 10 or 11
...     sizes = (16,)
...     initial = (0,)
...     actions = ("roll",)
...     def terminal(self, states): return states[:, 0] >= 10
...     def outcome(self, states): return (states[:, 0] <= 11).astype(int)
...     def transition(self, states, action):
...         return [("1/6", states + r) for r in range(1, 7)]
>>> solution = ep.solve(Race())
>>> solution.value((9,)), solution.value((8,)), solution.value((7,))
(Fraction(1, 3), Fraction(7, 18), Fraction(49, 108))

By hand: from 9, a 1 or a 2 wins, :math:`V(9) = 2/6`; from 8, a 1 goes to 9 and a 2 or
a 3 wins, :math:`V(8) = (1/3 + 2)/6 = 7/18`; from 7, :math:`V(7) = (7/18 + 1/3 + 2)/6 =
49/108`.

The same game one state at a time is :func:`per_state` (what depth-first mode,
:func:`~exactprob.engine.exact.policies.evaluate` and :func:`~exactprob.engine.simulation.simulate` use).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

import numpy as np

from ..errors import InexactError, ModelError
from ..util.numbers import exact
from .dist import Dist
from .model import Model, is_label, unpaid_labels

__all__ = ["ArrayModel", "Branch", "Explorable", "Probability", "one_state_at_a_time", "per_state"]

#: One exact number for every row, or ``(numerators, denominators)`` per row.
Probability = Any
#: ``(probability, next_states)``: one way a transition can go.
Branch = tuple[Probability, np.ndarray]

#: Largest numerator or denominator of a branch probability (62 bits: sums of a
#: choice's edges over a common denominator stay inside 64-bit integers).
PROBABILITY_LIMIT = 2**62


class ArrayModel:
    """A game whose states are vectors of whole numbers, handled in batches.

    Subclasses set ``sizes``, ``initial`` and ``actions`` and define ``terminal``,
    ``outcome`` and ``transition``; ``enabled`` and ``player`` have defaults. Every
    method receives ``states``, an ``(n, len(sizes))`` integer array, and answers for
    every row.
    """

    #: Variable ``i`` of a state takes the values ``0 .. sizes[i] - 1``.
    sizes: tuple[int, ...] = ()
    #: The initial state, or a list of initial states (the first is the default state
    #: of a solution; all are explored, so one solve covers many starts).
    initial: Any = ()
    #: Every action, in the order the engine offers them.
    actions: tuple[Hashable, ...] = ()

    def terminal(self, states: np.ndarray) -> np.ndarray:
        """Which rows are terminal states (booleans)."""
        raise NotImplementedError

    def outcome(self, states: np.ndarray) -> np.ndarray:
        """The exact value of each (terminal) row: integers, or objects such as
        ``Fraction``."""
        raise NotImplementedError

    def enabled(self, states: np.ndarray, action: Hashable) -> np.ndarray:
        """Which (non-terminal) rows may play ``action``; every row by default."""
        return np.ones(len(states), dtype=bool)

    def transition(self, states: np.ndarray, action: Hashable) -> Sequence[Branch]:
        """The branches of ``action`` from every row (all rows have it enabled)."""
        raise NotImplementedError

    def player(self, states: np.ndarray) -> np.ndarray:
        """The mover of each (non-terminal) row: 0 maximises, 1 minimises (an integer or
        boolean array; floats are refused)."""
        return np.zeros(len(states), dtype=np.uint8)

    #: Optional: ``reward(states, action)``, the exact reward of ``action`` in each row
    #: (all rows have it enabled), given as :meth:`outcome` gives values. Only declared:
    #: a model without rewards has no ``reward``.
    reward: Callable[[np.ndarray, Hashable], Any]


#: What the engine explores: a model one state at a time, or one in bulk.
Explorable: TypeAlias = Model | ArrayModel


def initial_states(model: ArrayModel) -> list[tuple[int, ...]]:
    """The model's initial states as a list of tuples (one or several)."""
    initial = model.initial
    several = initial if isinstance(initial, list) else [initial]
    if not all(isinstance(state, tuple) for state in several):
        raise ModelError(
            f"initial must be a tuple of whole numbers, or a list of such tuples; got {initial!r}"
        )
    return list(several)


def branch_probability(
    probability: Probability, n: int, where: str
) -> tuple[np.ndarray, np.ndarray]:
    """A branch's probability as reduced ``(numerators, denominators)`` int64 arrays of
    length ``n``, each in ``0 .. denominator``; a ModelError naming ``where`` otherwise.

    >>> [a.tolist() for a in branch_probability("2/6", 2, "here")]
    [[1, 1], [3, 3]]
    >>> [a.tolist() for a in branch_probability((np.array([0, 2]), 4), 2, "here")]
    [[0, 1], [1, 2]]
    """
    if isinstance(probability, tuple):
        if len(probability) != 2:
            raise ModelError(
                f"{where}: a per-row probability is a pair (numerators, denominators), "
                f"got {len(probability)} items"
            )
        numerators, denominators = (_integers(x, n, where) for x in probability)
    else:
        numerator, denominator = _scalar(probability, where)
        numerators = _integers(numerator, n, where)
        denominators = _integers(denominator, n, where)
    if np.any(denominators <= 0) or np.any(numerators < 0) or np.any(numerators > denominators):
        bad = int(
            np.flatnonzero((denominators <= 0) | (numerators < 0) | (numerators > denominators))[0]
        )
        raise ModelError(
            f"{where}: probability {int(numerators[bad])}/{int(denominators[bad])} of row "
            f"{bad} is not between 0 and 1"
        )
    common = np.gcd(numerators, denominators)
    return numerators // common, denominators // common


def _scalar(probability: Any, where: str) -> tuple[int, int]:
    """One exact probability as (numerator, denominator); a string such as ``"1/6"`` is
    parsed once however many levels use it."""
    try:
        return _parsed(probability)
    except InexactError as error:  # (also a TypeError: caught first)
        raise ModelError(f"{where}: {error}") from None
    except TypeError:  # unhashable: not an exact scalar either
        raise ModelError(f"{where}: {probability!r} is not an exact probability") from None


@lru_cache(maxsize=256, typed=True)  # typed: a float 0.1 is never taken for its cached binary twin
def _parsed(probability: Any) -> tuple[int, int]:
    p = exact(probability)
    if not hasattr(p, "denominator"):  # a symbol: array models are rational
        raise InexactError(f"probability {probability!r} is not a rational number")
    return int(p.numerator), int(p.denominator)


def _integers(x: Any, n: int, where: str) -> np.ndarray:
    """``x`` (an integer or an integer array of length ``n``) as int64 of length ``n``,
    each at most :data:`PROBABILITY_LIMIT` in size."""
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        if abs(int(x)) >= PROBABILITY_LIMIT:
            raise ModelError(
                f"{where}: {x} is too large; numerators and denominators fit in 62 bits"
            )
        return np.full(n, int(x), dtype=np.int64)
    array = np.asarray(x)
    if array.dtype.kind not in "iu" or array.shape != (n,):
        raise ModelError(
            f"{where}: numerators and denominators are integers or integer arrays of one "
            f"entry per row ({n}), got {array.dtype} of shape {array.shape}"
        )
    if array.dtype == np.uint64 and np.any(array >= PROBABILITY_LIMIT):
        raise ModelError(f"{where}: a probability's numbers must fit in 62 bits")
    array = array.astype(np.int64)
    if np.any(np.abs(array) >= PROBABILITY_LIMIT):
        raise ModelError(f"{where}: a probability's numbers must fit in 62 bits")
    return array


def exact_outcomes(
    values: Any,
    states: np.ndarray,
    name: str = "outcome()",
    call: str = "outcome({})",
    labels: list[Any] | None = None,
) -> list[Any]:
    """``outcome(states)`` (or the method ``name``, called as ``call`` on one state
    ``{}``) as a list of exact numbers (a ModelError for floats). An outcome that is a
    label (:func:`~exactprob.engine.model.is_label`; a string that does not read as a
    number) is refused
    (:func:`~exactprob.engine.model.unpaid_labels`), or, given a list ``labels``, added
    to the list with ``None`` in its place, for the explorer to refuse them all at once.

    >>> exact_outcomes(np.array([1, 2]), np.array([[0], [1]]))
    [mpq(1,1), mpq(2,1)]
    >>> found = []
    >>> exact_outcomes(np.array(["win", "1"]), np.array([[0], [1]]), labels=found)
    [None, mpq(1,1)]
    >>> found
    ['win']
    """
    array = np.asarray(values)
    if array.shape != (len(states),):
        raise ModelError(
            f"{name} returned shape {array.shape} for {len(states)} states; one value per row"
        )
    if array.dtype.kind in "iu":
        return [exact(int(v)) for v in array.tolist()]
    outcomes = name == "outcome()"
    if array.dtype.kind not in "OSU" or (array.dtype.kind in "SU" and not outcomes):
        raise ModelError(
            f"{name} returned {array.dtype} values; return integers, or an object array "
            "of exact numbers such as Fraction"
        )
    out = []
    for state, value in zip(states.tolist(), array.tolist()):
        try:
            out.append(exact(value))
        except InexactError as error:
            if outcomes and is_label(value):
                out += _labels_met([value], labels)
                continue
            where = call.format(repr(tuple(state)))
            raise ModelError(f"{where} is not an exact number: {error}") from None
    return out


def _labels_met(found: list[Any], labels: list[Any] | None) -> list[None]:
    """Outcomes that are labels, ``found``: added to ``labels``, with ``None`` in their
    places (a tuple label would not fit a numpy row), or refused at once without that
    list."""
    if labels is None:
        raise unpaid_labels(found)
    labels.extend(found)
    return [None] * len(found)


class _PerState:
    """An :class:`ArrayModel` as a plain Model: each call is a batch of one row."""

    def __init__(self, model: ArrayModel) -> None:
        self.model = model
        self.initial = initial_states(model)[0]

    def _row(self, state: Any) -> np.ndarray:
        return np.array([state], dtype=np.int64)

    def outcome(self, state: Any) -> Any:
        row = self._row(state)
        if not bool(np.asarray(self.model.terminal(row))[0]):
            return None
        labels: list[Any] = []  # a label is the outcome as it is (the explorers refuse it)
        value = exact_outcomes(self.model.outcome(row), row, labels=labels)[0]
        return labels[0] if labels else value

    def actions(self, state: Any) -> tuple[Hashable, ...]:
        row = self._row(state)
        return tuple(
            a for a in self.model.actions if bool(np.asarray(self.model.enabled(row, a))[0])
        )

    def transition(self, state: Any, action: Any) -> Dist[Any]:
        row = self._row(state)
        weights: dict[tuple[int, ...], Fraction] = {}
        for probability, successors in self.model.transition(row, action):
            numerators, denominators = branch_probability(probability, 1, "transition()")
            if numerators[0]:
                nxt = tuple(int(v) for v in np.asarray(successors)[0])
                weights[nxt] = weights.get(nxt, Fraction(0)) + Fraction(
                    int(numerators[0]), int(denominators[0])
                )
        return Dist(weights)

    def player(self, state: Any) -> Any:
        """The mover as the bulk explorer reads it: an integer or boolean entry as a
        seat number, any other (a float such as ``1.0``) as it is, for the engine's own
        check to refuse rather than round to a seat."""
        mover = np.asarray(self.model.player(self._row(state)))[0]
        return int(mover) if mover.dtype.kind in "iub" else mover.item()

    def __getattr__(self, name: str) -> Any:
        """``reward(state, action)``, where the model has rewards."""
        if name != "reward" or not hasattr(self.model, "reward"):
            raise AttributeError(name)

        def reward(state: Any, action: Any) -> Any:
            row = self._row(state)
            earned = self.model.reward(row, action)
            return exact_outcomes(earned, row, "reward()", f"reward({{}}, {action!r})")[0]

        return reward


def per_state(model: ArrayModel) -> Model:
    """The same game as a plain :class:`~exactprob.engine.model.Model`, one state at a time.

    Parameters
    ----------
    model : ArrayModel
        The game in bulk.

    Returns
    -------
    Model
        The game whose states are tuples of Python integers.

    See Also
    --------
    exactprob.engine.array_model.ArrayModel : The bulk protocol it adapts.
    explore : A bulk model is explored a level at a time instead.

    Examples
    --------
    >>> class Coin(ArrayModel):
    ...     sizes, initial, actions = (3,), (0,), ("flip",)
    ...     def terminal(self, states): return states[:, 0] > 0
    ...     def outcome(self, states): return states[:, 0] - 1
    ...     def transition(self, states, action): return [("1/2", states + 1), ("1/2", states + 2)]
    >>> per_state(Coin()).transition((0,), "flip")
    Dist({(1,): '1/2', (2,): '1/2'})
    """
    return _PerState(model)


def one_state_at_a_time(model: Explorable) -> Model:
    """``model`` as the per-state callers (depth-first mode, fixed policies, simulation)
    need it: an :class:`ArrayModel` through :func:`per_state`, any other model as it is."""
    return per_state(model) if isinstance(model, ArrayModel) else model
