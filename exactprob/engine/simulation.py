r"""Seeded Monte-Carlo play of any model, and the statistical check against exact values.

This simulator walks the model itself, so it catches solver mistakes but not modelling
mistakes; each game also ships a simulator written straight from its rules.

The check: with :math:`n` independent plays and an exact mean :math:`\mu`, the sample
mean :math:`\bar x` agrees when :math:`|\bar x - \mu| \le z\,\sigma/\sqrt n`, with
:math:`\sigma` the exact standard deviation when known (for a probability,
:math:`\sigma^2 = p(1-p)`), else the sample one.

>>> from fractions import Fraction
>>> agrees_with(Fraction(1, 6), hits=170, n=1000)
True
>>> agrees_with(Fraction(1, 6), hits=300, n=1000)
False
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Protocol

import numpy as np

from ..errors import InexactError, ModelError, ResourceError, UsageError
from ..util.numbers import exact
from .array_model import Explorable, one_state_at_a_time
from .model import is_label

__all__ = ["NumpyRandom", "RandomSource", "Runs", "Simulation", "agrees_with", "simulate"]


class RandomSource(Protocol):
    """What a game's simulator written from its rules draws from: a seeded generator,
    numpy's (:class:`NumpyRandom`) or one a game reproduces (Rogue's). Draws are consumed
    in order, so a simulator that draws a ``(runs, steps)`` block row by row consumes them
    as a C loop over runs would."""

    name: str

    def integers(self, n: int, size: int) -> np.ndarray:
        """``size`` draws on ``0 .. n-1`` (int64), in the order the generator gives them."""
        ...

    def random(self, size: int) -> np.ndarray:
        """``size`` draws in ``[0, 1)`` (float64)."""
        ...


class NumpyRandom:
    """A :class:`RandomSource` on numpy's PCG64 generator, seeded.

    >>> a, b = NumpyRandom(7).integers(6, 5), NumpyRandom(7).integers(6, 5)
    >>> bool((a == b).all()) and bool(((0 <= a) & (a < 6)).all())
    True
    """

    name = "numpy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def integers(self, n: int, size: int) -> np.ndarray:
        return self._rng.integers(0, n, size=size, dtype=np.int64)

    def random(self, size: int) -> np.ndarray:
        return self._rng.random(size)


@dataclass(frozen=True)
class Simulation:
    """Results of ``n`` simulated plays: how often each terminal value came up."""

    n: int
    outcomes: Counter[Any]
    steps: int

    @property
    def mean(self) -> float:
        """Sample mean of the terminal value (endings that are labels have none: check
        each one's count, ``agrees_with(p, simulation.outcomes[label], simulation.n)``).

        >>> Simulation(2, Counter({"bust": 1, 17: 1}), 4).mean
        Traceback (most recent call last):
        ...
        exactprob.errors.UsageError: the endings include the label 'bust', which has no mean; check each ending's count: agrees_with(p, simulation.outcomes[ending], simulation.n)
        """
        return sum(self._number(v) * c for v, c in self.outcomes.items()) / self.n

    @property
    def std(self) -> float:
        """Sample standard deviation of the terminal value."""
        m = self.mean
        squares = sum((self._number(v) - m) ** 2 * c for v, c in self.outcomes.items())
        return math.sqrt(squares / self.n)

    @staticmethod
    def _number(ending: Any) -> float:
        """An ending as a float (a string such as ``"1/2"`` read exactly first); a label
        is refused."""
        try:
            return float(exact(ending)) if isinstance(ending, str) else float(ending)
        except (InexactError, TypeError, ValueError):
            if not is_label(ending):
                raise
        raise UsageError(
            f"the endings include the label {ending!r}, which has no mean; check each "
            "ending's count: agrees_with(p, simulation.outcomes[ending], simulation.n)"
        )

    def agrees_with(self, exact_mean: Any, z: float = 5.0) -> bool:
        """Whether the sample mean lies within ``z`` standard errors of ``exact_mean``."""
        return _within(float(exact(exact_mean)), self.mean, self.std, self.n, z)


class Runs:
    r"""What every game's own simulator (written from its rules) returns: ``n`` independent
    runs, each quantity a numpy array with one entry per run; a subclass names its arrays
    and says which one is the run's :attr:`result`, the quantity whose mean the game's
    headline exact number is (the chance to win, to conquer, ...).

    Any exact mean is checked the same way, :meth:`agrees_with`: a yes/no quantity (every
    value 0 or 1, ``bool`` or not) by the binomial count of :func:`agrees_with`, with the
    exact standard deviation :math:`\sqrt{p(1-p)}`; any other by its sample mean within
    ``z`` sample standard errors (:meth:`Simulation.agrees_with`). Subclasses are frozen
    dataclasses with ``eq=False`` (arrays do not compare to one truth value).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, eq=False)
    ... class Coins(Runs):
    ...     heads: np.ndarray
    ...     @property
    ...     def result(self): return self.heads
    >>> coins = Coins(np.random.default_rng(1).random(4000) < 0.5)
    >>> coins.n, coins.agrees_with("1/2"), coins.agrees_with("3/5")
    (4000, True, False)
    >>> coins.agrees_with(1, values=coins.heads + 0.5)  # the mean of heads + 1/2
    True
    >>> coins.successes == int(coins.heads.sum())
    True
    """

    @property
    def result(self) -> np.ndarray:  # pragma: no cover
        """The per-run quantity of the game's headline exact number."""
        raise NotImplementedError

    @property
    def n(self) -> int:
        """Number of runs."""
        return int(self.result.shape[0])

    @property
    def steps(self) -> int:
        """Moves played over all runs, where the game counts them (0 otherwise)."""
        return 0

    @property
    def successes(self) -> int:
        """How many runs have a true (non-zero) :attr:`result`: the wins, for a win."""
        return int(np.count_nonzero(self.result))

    def sample(self, values: Any = None) -> Simulation:
        """A per-run quantity (default :attr:`result`) as a :class:`Simulation`: how often
        each value came up, its mean and spread."""
        chosen = self._per_run(values)
        return Simulation(self.n, Counter(chosen.tolist()), self.steps)

    def agrees_with(self, exact_mean: Any, values: Any = None, z: float = 5.0) -> bool:
        """Whether a per-run quantity (default :attr:`result`) agrees with ``exact_mean``,
        the exact mean it should have, within ``z`` standard errors."""
        chosen = self._per_run(values)
        if chosen.dtype == bool or np.isin(chosen, (0, 1)).all():
            return agrees_with(exact_mean, int(np.count_nonzero(chosen)), self.n, z)
        return self.sample(chosen).agrees_with(exact_mean, z)

    def _per_run(self, values: Any) -> np.ndarray:
        """``values`` (default :attr:`result`), checked to be one entry per run, of at
        least one run."""
        chosen = self.result if values is None else np.asarray(values)
        if self.n < 1:
            raise UsageError("no runs to check: simulate at least one")
        if chosen.shape != (self.n,):
            raise UsageError(
                f"values must hold one entry per run ({self.n:,}), got shape {chosen.shape}"
            )
        return chosen


def _within(mu: float, mean: float, sigma: float, n: int, z: float) -> bool:
    if sigma == 0:
        return math.isclose(mean, mu, rel_tol=1e-12, abs_tol=1e-12)
    return abs(mean - mu) <= z * sigma / math.sqrt(n)


def agrees_with(exact_probability: Any, hits: int, n: int, z: float = 5.0) -> bool:
    r"""Whether ``hits`` successes in ``n`` trials agree with an exact probability.

    Parameters
    ----------
    exact_probability : exact number
        The probability of a success, in [0, 1].
    hits : int
        The successes seen.
    n : int
        The trials, at least 1.
    z : float
        How many standard errors of the binomial count the hits may be off.

    Returns
    -------
    bool
        Within ``z`` standard errors (exact probabilities 0 and 1 demand 0 and ``n``
        hits).

    Raises
    ------
    UsageError
        For a probability outside [0, 1], or hits outside 0..n.

    See Also
    --------
    simulate : Seeded play of a model, the sample to check.
    exactprob.engine.simulation.Runs.agrees_with : The same check for a game's own simulator.

    References
    ----------
    - W. Feller, *An Introduction to Probability Theory and Its Applications*, Vol. 1,
      3rd ed., Wiley, 1968 (the binomial count's standard deviation, Chebyshev's
      inequality and the normal approximation, which bound how often the test fails).

    Examples
    --------
    The count has mean 1,000 and standard error :math:`\sqrt{6000 \cdot 5/36} \approx
    28.9`; 1,100 hits are 3.5 errors off, 1,200 are 6.9.

    >>> agrees_with("1/6", 1100, 6000), agrees_with("1/6", 1200, 6000)
    (True, False)
    """
    p = exact(exact_probability)
    if not 0 <= p <= 1:
        raise UsageError(f"a probability must lie in [0, 1], got {exact_probability}")
    if n < 1 or not 0 <= hits <= n:
        raise UsageError(f"need 0 <= hits <= n and n >= 1, got hits={hits}, n={n}")
    if p in (0, 1):
        return bool(hits == p * n)
    pf = float(p)
    return _within(pf, hits / n, math.sqrt(pf * (1 - pf)), n, z)


def _chooser(policy: Any) -> Callable[[Any], Any]:
    if hasattr(policy, "policy") and hasattr(policy, "value"):  # a Solution
        chosen: Callable[[Any], Any] = policy.policy
        return chosen
    if isinstance(policy, Mapping):
        return policy.__getitem__
    if callable(policy):
        function: Callable[[Any], Any] = policy
        return function
    raise ModelError(
        f"a policy is a callable, a mapping or a Solution, not {type(policy).__name__}"
    )


def simulate(
    model: Explorable,
    policy: Any = None,
    n: int = 10_000,
    *,
    seed: int,
    max_steps: int = 1_000_000,
) -> Simulation:
    """Play ``model`` ``n`` times, a Monte-Carlo check of exact results.

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    policy : Solution, callable or mapping, optional
        The action in each state (``None`` for one-action models).
    n : int
        The plays, at least 1.
    seed : int
        The seed of the ``numpy.random.default_rng`` generator.
    max_steps : int
        The most moves of one play.

    Returns
    -------
    Simulation
        The outcomes' counts and mean, and ``agrees_with`` an exact value.

    Raises
    ------
    UsageError
        For ``n`` below 1.
    ResourceError
        When a play does not end within ``max_steps`` moves.

    See Also
    --------
    agrees_with : The check of a simulation against an exact value.
    exactprob.solve : The exact values it is checked against.

    References
    ----------
    - L. Devroye, *Non-Uniform Random Variate Generation*, Springer, 1986 (each move
      drawn by inversion, a search in its cumulative probabilities).
    - M. E. O'Neill, "PCG: A family of simple fast space-efficient statistically good
      algorithms for random number generation", Technical Report HMC-CS-2014-0905,
      Harvey Mudd College, 2014 (numpy's default generator, PCG64).

    Examples
    --------
    >>> from exactprob import die, Dist
    >>> class Roll:
    ...     initial = 0
    ...     def outcome(self, s): return None if s == 0 else int(s == 6)
    ...     def actions(self, s): return ("roll",)
    ...     def transition(self, s, a): return die(6)
    >>> sim = simulate(Roll(), n=6000, seed=1)
    >>> sim.agrees_with("1/6")
    True
    """
    if n < 1:
        raise UsageError(f"n must be at least 1, got {n}")
    rng = np.random.default_rng(seed)
    model = one_state_at_a_time(model)
    choose = _chooser(policy) if policy is not None else None
    tables: dict[tuple[Hashable, Any], tuple[list[Any], list[float]]] = {}
    outcomes: Counter[Any] = Counter()
    total_steps = 0
    for _ in range(n):
        state = model.initial
        for _step in range(max_steps):
            value = model.outcome(state)
            if value is not None:
                outcomes[value] += 1
                break
            action = _action(model, state, choose)
            key = (state, action)
            table = tables.get(key)
            if table is None:
                dist = model.transition(state, action)
                states, probs = zip(*dist.exact_items())
                table = (list(states), list(accumulate(float(p) for p in probs)))
                tables[key] = table
            states_, cumulative = table
            i = bisect_right(cumulative, rng.random() * cumulative[-1])
            state = states_[min(i, len(states_) - 1)]
            total_steps += 1
        else:
            raise ResourceError(f"a play did not end within {max_steps} steps")
    return Simulation(n=n, outcomes=outcomes, steps=total_steps)


def _action(model: Any, state: Any, choose: Callable[[Any], Any] | None) -> Any:
    actions = model.actions(state)
    if choose is None:
        if len(actions) != 1:
            raise ModelError(f"state {state!r} has several actions; pass a policy to simulate")
        return actions[0]
    return choose(state)
