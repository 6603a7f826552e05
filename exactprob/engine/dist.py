r"""``Dist``: an immutable, hashable finite probability distribution with exact weights.

A :class:`Dist` maps outcomes to exact probabilities that sum to exactly one. It is
built once, normalised once (zero-probability outcomes dropped), and never changes.

.. math::

    (X + Y)(z) = \sum_{x + y = z} X(x)\,Y(y) \qquad \text{(the independent sum } X + Y\text{)}

>>> from exactprob import die
>>> two = die(6) + die(6)
>>> two[7], two.mean(), two.cdf(4)
(Fraction(1, 6), Fraction(7, 1), Fraction(1, 6))
>>> (3 @ die(6)).ge(10)[True]
Fraction(5, 8)
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

from ..errors import DistributionError, ModelError, ResourceError
from ..util import display
from ..util.numbers import Exact, exact, is_symbolic, mpq, to_public, to_sympy, whole_number

__all__ = [
    "MAX_DIGITS",
    "MAX_OUTCOMES",
    "Dist",
    "bernoulli",
    "binomial",
    "check_size",
    "dice",
    "die",
    "draw",
    "hypergeometric",
    "uniform",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

_ZERO = mpq(0)
_ONE = mpq(1)
_MPQ = type(_ZERO)
# Polynomial convolution (FLINT) is used when the outcome span is at most this many
# times the number of products the dictionary method would compute.
_POLY_SPAN_FACTOR = 8


class Dist(Mapping[T, Any], Generic[T]):
    """A finite distribution: outcome -> exact probability.

    Parameters
    ----------
    probabilities : Mapping
        Outcome -> probability. A probability may be an ``int``, ``Fraction``, a string
        ``"p/q"`` or ``"0.25"``, a ``gmpy2.mpq``, or a sympy expression (symbolic mode).
        A float is taken only when it prints as its exact value (``0.5``, not ``0.1``).
        Rational probabilities must lie in [0, 1] and sum to exactly one; symbolic ones
        must sum to one identically.

    Notes
    -----
    ``d[x]`` is the probability of ``x`` as a ``Fraction`` (0 for an impossible
    outcome); iteration yields outcomes, sorted when they are comparable.
    ``d1 + d2`` and ``d1 - d2`` are the distributions of the sum and difference of
    independent variables, ``d + 3`` shifts, ``n @ d`` is the sum of ``n``
    independent copies. Comparisons that build distributions are named methods
    (:meth:`lt`, :meth:`ge`, ...); ``==`` is plain equality of distributions.

    >>> Dist({"heads": "1/2", "tails": "1/2"})["heads"]
    Fraction(1, 2)
    >>> Dist({1: "1/3", 2: "1/3"})
    Traceback (most recent call last):
    ...
    exactprob.errors.DistributionError: probabilities sum to 2/3, not 1
    """

    __slots__ = ("_hash", "_order", "_p", "_symbolic")

    _p: dict[T, Exact]
    _symbolic: bool
    _hash: int | None
    _order: list[T] | None

    def __new__(cls, probabilities: Mapping[T, Any] | Iterable[tuple[T, Any]]) -> Dist[T]:
        if type(probabilities) is dict and len(probabilities) == 1:  # a certain move
            ((outcome, p),) = probabilities.items()
            if (type(p) is int or type(p) is _MPQ) and p == 1:
                return cls._clean({outcome: _ONE}, False)
        items = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        if not isinstance(items, Iterable):
            raise DistributionError(
                "Dist() takes a mapping {outcome: probability} or (outcome, probability) "
                f"pairs; got {type(probabilities).__name__}"
            )
        weights: dict[T, Exact] = {}
        rational = True  # every probability an mpq: then the checks are two comparisons
        for item in items:
            try:
                outcome, p = item
                seen = outcome in weights  # hashes the outcome: an unhashable one fails here
            except (TypeError, ValueError):
                raise _bad_item(probabilities, item) from None
            q = p if type(p) is _MPQ else exact(p)  # an mpq already: the engine's own
            if type(q) is not _MPQ:
                rational = False
            elif q < 0:
                raise DistributionError(f"probability of {outcome!r} is negative: {p}")
            weights[outcome] = weights[outcome] + q if seen else q
        if rational and sum(weights.values(), _ZERO) == 1:
            return cls._clean({k: q for k, q in weights.items() if q}, False)
        _check_total(weights.values())
        return cls._trusted(weights)

    @classmethod
    def _trusted(cls, weights: dict[T, Exact]) -> Dist[T]:
        """Build from weights already known to be exact and to sum to one."""
        symbolic = {type(q) for q in weights.values()} != {_MPQ}
        if symbolic:  # sympy rationals go back to mpq; symbolic only if something is left
            weights = {k: exact(q) for k, q in weights.items()}
            symbolic = {type(q) for q in weights.values()} != {_MPQ}
        if symbolic:
            weights = {k: to_sympy(q) for k, q in weights.items()}
        return cls._clean({k: q for k, q in weights.items() if q != 0}, symbolic)

    @classmethod
    def _clean(cls, weights: dict[T, Exact], symbolic: bool) -> Dist[T]:
        """Wrap weights that are exact, positive, of one kind and sum to one (no checks:
        the fast path for sums of positive rationals, as in :meth:`map`)."""
        self = object.__new__(cls)
        self._p = weights
        self._symbolic = symbolic
        self._hash = None
        self._order = None
        return self

    def _outcomes(self) -> list[T]:
        """Outcomes sorted when comparable, else in first-seen order (computed once)."""
        if self._order is None:
            try:
                self._order = sorted(self._p)  # type: ignore[type-var]
            except TypeError:
                self._order = list(self._p)
        return self._order

    @classmethod
    def from_weights(cls, weights: Mapping[T, Any]) -> Dist[T]:
        """Normalise non-negative weights (counts) to a distribution.

        >>> Dist.from_weights({"wolf": 6, "chicken": 42})["wolf"]
        Fraction(1, 8)
        """
        raw = {k: exact(w) for k, w in weights.items()}
        if any(not is_symbolic(w) and w < 0 for w in raw.values()):
            raise DistributionError("weights must be non-negative")
        total = sum(raw.values(), _ZERO)
        if total == 0:
            raise DistributionError("weights sum to zero: no outcome is possible")
        return cls._trusted({k: w / total for k, w in raw.items()})

    # -- Mapping protocol ---------------------------------------------------------------
    def __getitem__(self, outcome: T) -> Any:
        q = self._lookup(outcome)
        return Fraction(0) if q is None else to_public(q)

    def get(self, outcome: T, default: Any = None) -> Any:
        """The probability of ``outcome`` if possible, else ``default``."""
        q = self._lookup(outcome)
        return default if q is None else to_public(q)

    def __contains__(self, outcome: object) -> bool:
        return self._lookup(outcome) is not None

    def _lookup(self, outcome: object) -> Exact | None:
        """The probability of ``outcome``; ``None`` when it is not an outcome, which an
        unhashable object (a list) never is."""
        try:
            return self._p.get(outcome)  # type: ignore[arg-type]
        except TypeError:
            return None

    def __iter__(self) -> Iterator[T]:
        return iter(self._outcomes())

    def __len__(self) -> int:
        return len(self._p)

    def exact_items(self) -> Iterable[tuple[T, Exact]]:
        """Pairs (outcome, probability) in the engine's internal exact type, unsorted
        (the fast path for the engine)."""
        return self._p.items()

    @property
    def symbolic(self) -> bool:
        """True when some probability is a sympy expression."""
        return self._symbolic

    # -- value semantics ----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._p == other._p

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._p.items()))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Dist, ({k: to_public(q) for k, q in self._p.items()},))

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {_repr_prob(self._p[k])}" for k in self._outcomes())
        return f"Dist({{{body}}})"

    def _repr_html_(self) -> str:
        """Jupyter's view: a table of exact probabilities with bars (:mod:`.display`)."""
        return display.dist_html(self)

    def _repr_latex_(self) -> str:
        """Jupyter's LaTeX view: outcomes and exact probabilities as an array."""
        return display.dist_latex(self)

    # -- transformations ----------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """Distribution of ``f(X)``; outcomes with equal images are merged.

        >>> die(6).map(lambda x: x % 2)[0]
        Fraction(1, 2)
        >>> die(2).map(lambda x: [x])
        Traceback (most recent call last):
        ...
        exactprob.errors.DistributionError: the outcome [1] is not hashable (a list); use a tuple instead of a list, a frozenset instead of a set
        """
        out: dict[U, Exact] = {}
        for x, q in self._p.items():
            y = f(x)
            try:
                out[y] = out[y] + q if y in out else q
            except TypeError:
                raise _unhashable_outcome(y) from None
        if self._symbolic:  # symbolic sums may cancel to zero or to plain rationals
            return Dist._trusted(out)
        return Dist._clean(out, False)

    def bind(self, f: Callable[[T], Dist[U]]) -> Dist[U]:
        """Chain a random step: ``f(x)`` is a ``Dist`` for each outcome ``x``; the
        results are mixed with weights ``P(x)`` and equal outcomes regrouped.

        >>> die(2).bind(lambda n: dice(n, 2))[2]
        Fraction(3, 8)
        """
        out: dict[U, Exact] = {}
        for x, q in self._p.items():
            d = f(x)
            if not isinstance(d, Dist):
                raise ModelError(f"bind: the function returned {type(d).__name__}, not a Dist")
            for y, r in _coerced(d, self._symbolic):
                w = q * r
                out[y] = out[y] + w if y in out else w
        return Dist._trusted(out)

    def condition(self, predicate: Callable[[T], bool]) -> Dist[T]:
        """The distribution given ``predicate(X)``.

        >>> die(6).condition(lambda x: x > 4)[6]
        Fraction(1, 2)
        """
        kept = {x: q for x, q in self._p.items() if predicate(x)}
        total = sum(kept.values(), _ZERO)
        if total == 0:
            raise DistributionError("the condition has probability zero")
        return Dist._trusted({x: q / total for x, q in kept.items()})

    # -- arithmetic of independent variables --------------------------------------------
    def __add__(self, other: Any) -> Dist[Any]:
        if isinstance(other, Dist):
            return _convolve(self, other)
        if not _is_scalar(other):
            return NotImplemented
        return self._arithmetic(lambda x: x + other)

    def __radd__(self, other: Any) -> Dist[Any]:
        if not _is_scalar(other):
            return NotImplemented
        return self._arithmetic(lambda x: other + x)

    def __neg__(self) -> Dist[Any]:
        return self._arithmetic(operator.neg)

    def __sub__(self, other: Any) -> Dist[Any]:
        if isinstance(other, Dist):
            return _convolve(self, -other)
        if not _is_scalar(other):
            return NotImplemented
        return self._arithmetic(lambda x: x - other)

    def __rsub__(self, other: Any) -> Dist[Any]:
        if not _is_scalar(other):
            return NotImplemented
        return self._arithmetic(lambda x: other - x)

    def _arithmetic(self, f: Callable[[Any], Any]) -> Dist[Any]:
        """:meth:`map` for the operators, whose outcomes must be numbers."""
        try:
            return self.map(f)
        except TypeError:
            raise _not_numbers(self) from None

    def __rmatmul__(self, n: int) -> Dist[Any]:
        """``n @ d``: the sum of ``n`` independent copies (by repeated squaring)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise DistributionError(f"n @ dist needs a whole number n >= 0, got {n!r}")
        if n > 1:
            check_size(f"{n} @ a distribution of {len(self):,} outcomes", *_power_size(n, self))
        result: Dist[Any] = Dist._trusted({0: _ONE})
        power: Dist[Any] = self
        while n:
            if n & 1:
                result = _convolve(result, power)
            n >>= 1
            if n:
                power = _convolve(power, power)
        return result

    # -- comparisons as distributions ---------------------------------------------------
    def _compare(self, other: Any, op: Callable[[Any, Any], bool]) -> Dist[bool]:
        """The event ``op(X, other)``; outcomes that cannot be ordered with ``other`` get
        the project's one-line error, not Python's ``TypeError``.

        >>> Dist({"a": 1}).lt(3)
        Traceback (most recent call last):
        ...
        exactprob.errors.DistributionError: comparing the outcomes with 3: an outcome such as 'a' cannot be ordered with it
        """
        try:
            if isinstance(other, Dist):
                return self.bind(lambda x: other.map(lambda y: op(x, y)))
            return self.map(lambda x: op(x, other))
        except TypeError:
            shown = "another distribution's outcomes" if isinstance(other, Dist) else repr(other)
            raise DistributionError(
                f"comparing the outcomes with {shown}: an outcome such as "
                f"{_unordered(self._p, other)!r} cannot be ordered with it"
            ) from None

    def lt(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X < other`` (``other`` a value or an independent ``Dist``)."""
        return self._compare(other, lambda a, b: a < b)

    def le(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X <= other``."""
        return self._compare(other, lambda a, b: a <= b)

    def gt(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X > other``.

        >>> die(6).gt(die(6))[True]
        Fraction(5, 12)
        """
        return self._compare(other, lambda a, b: a > b)

    def ge(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X >= other``."""
        return self._compare(other, lambda a, b: a >= b)

    def eq(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X == other`` (the event, not equality of distributions)."""
        return self._compare(other, lambda a, b: a == b)

    def ne(self, other: Any) -> Dist[bool]:
        """``Dist[bool]`` of ``X != other``."""
        return self._compare(other, lambda a, b: a != b)

    # -- summaries ----------------------------------------------------------------------
    def probability(self, predicate: Callable[[T], bool]) -> Any:
        """``P(predicate(X))``, exact.

        >>> die(6).probability(lambda x: x >= 5)
        Fraction(1, 3)
        """
        return to_public(sum((q for x, q in self._p.items() if predicate(x)), _ZERO))

    def mean(self) -> Any:
        r"""Exact mean :math:`\sum_x x\,P(x)`.

        >>> dice(2, 6).mean()
        Fraction(7, 1)
        """
        return to_public(self._moment(lambda x: x))

    def variance(self) -> Any:
        r"""Exact variance :math:`E[X^2] - E[X]^2`.

        >>> die(6).variance()
        Fraction(35, 12)
        """
        m = self._moment(lambda x: x)
        spread = self._moment(lambda x: x * x) - m * m
        return to_public(_simplify(spread) if is_symbolic(spread) else spread)

    def _moment(self, f: Callable[[Any], Any]) -> Exact:
        r""":math:`\sum_x f(x) P(x)`, in sympy when a probability or a value is symbolic
        (an ``mpq`` meeting a sympy expression would become a float)."""
        values = [exact(_number(f(x))) for x in self._p]
        if self._symbolic or any(is_symbolic(v) for v in values):
            terms = (to_sympy(v) * to_sympy(q) for v, q in zip(values, self._p.values()))
            return _simplify(sum(terms))
        return sum((v * q for v, q in zip(values, self._p.values())), _ZERO)

    def cdf(self, x: Any) -> Any:
        """``P(X <= x)``.

        >>> die(6).cdf(2)
        Fraction(1, 3)
        """
        try:
            return self.probability(lambda y: y <= x)
        except TypeError:
            raise DistributionError(
                f"cdf({x!r}) compares every outcome with {x!r}; outcomes such as "
                f"{next(iter(self._p))!r} cannot be compared with it"
            ) from None

    def quantile(self, q: Any) -> T:
        """The smallest outcome ``x`` with ``P(X <= x) >= q`` (``0 < q <= 1``), exact.

        >>> dice(2, 6).quantile("1/2")
        7
        """
        level = exact(q)
        if self._symbolic:
            raise DistributionError("quantiles need rational probabilities, not symbolic ones")
        if is_symbolic(level) or not 0 < level <= 1:
            raise DistributionError(f"quantile level must lie in (0, 1], got {q}")
        ordered = self._outcomes()
        if not _in_one_order(ordered):
            raise DistributionError(
                f"quantile({q!r}) needs outcomes in one order; outcomes such as "
                f"{ordered[0]!r} cannot be ordered with the others"
            )
        running = _ZERO
        for x in self._outcomes():
            running += self._p[x]
            if running >= level:
                return x
        raise AssertionError("probabilities sum to one, so the loop returns")  # pragma: no cover

    def to_sympy(self, name: str = "X") -> Any:
        """This distribution as a ``sympy.stats`` finite random variable.

        >>> from sympy.stats import E
        >>> E(die(6).to_sympy())
        7/2
        """
        from sympy.stats import FiniteRV

        return FiniteRV(name, {x: to_sympy(q) for x, q in self._p.items()})


def _number(x: Any) -> Any:
    """An outcome as a number for moments: booleans count as 0 and 1."""
    return int(x) if isinstance(x, bool) else x


def _repr_prob(q: Exact) -> str:
    return f"'{q}'" if not is_symbolic(q) else repr(q)


def _simplify(expr: Any) -> Any:
    import sympy

    return sympy.factor(sympy.cancel(expr))


def _check_total(values: Iterable[Exact]) -> None:
    values = list(values)
    if any(is_symbolic(v) for v in values):
        total = sum((to_sympy(v) for v in values), to_sympy(0))
        if _simplify(total - 1) != 0:
            raise DistributionError(f"probabilities sum to {_simplify(total)}, not 1")
        return
    if any(v > 1 for v in values):
        raise DistributionError("a probability is greater than 1")
    total = sum(values, _ZERO)
    if total != 1:
        raise DistributionError(f"probabilities sum to {total}, not 1")


def _coerced(d: Dist[Any], symbolic: bool) -> Iterable[tuple[Any, Exact]]:
    if symbolic and not d._symbolic:
        return ((x, to_sympy(q)) for x, q in d._p.items())
    return d._p.items()


def _is_scalar(x: object) -> bool:
    """A number (or a sympy expression) that shifts every outcome of a distribution; for
    anything else the arithmetic operators return ``NotImplemented``, so that Python asks
    the other operand, and raises ``TypeError`` when neither knows the sum.

    >>> _is_scalar(3), _is_scalar(Fraction(1, 2)), _is_scalar("3"), _is_scalar(None)
    (True, True, False, False)
    """
    return isinstance(x, numbers.Number) or is_symbolic(x)


def _convolve(a: Dist[Any], b: Dist[Any]) -> Dist[Any]:
    """Distribution of the sum of independent ``a`` and ``b``; FLINT polynomial
    multiplication for integer outcomes over a compact span, else a dictionary."""
    if not (a._symbolic or b._symbolic):
        poly = _poly_convolve(a, b)
        if poly is not None:
            return poly
    return _dict_convolve(a, b)


def _dict_convolve(a: Dist[Any], b: Dist[Any]) -> Dist[Any]:
    symbolic = a._symbolic or b._symbolic
    out: dict[Any, Exact] = {}
    b_items = list(_coerced(b, symbolic))
    for x, p in _coerced(a, symbolic):
        for y, q in b_items:
            try:
                z = x + y
            except TypeError:
                raise _not_numbers(a if not _is_scalar(x) else b) from None
            w = p * q
            out[z] = out[z] + w if z in out else w
    return Dist._trusted(out)


def _integer_span(d: Dist[Any]) -> tuple[int, int] | None:
    keys = d._p.keys()
    if not all(type(k) is int for k in keys):
        return None
    return min(keys), max(keys)


def _poly_convolve(a: Dist[Any], b: Dist[Any]) -> Dist[Any] | None:
    r"""Convolution as a product of integer polynomials.

    With :math:`X(x) = n_x / D` the generating function is :math:`x^{\min}\,N(x)/D`,
    and :math:`G_{X+Y} = G_X G_Y`, so the numerators multiply as FLINT ``fmpz_poly``.
    """
    span_a, span_b = _integer_span(a), _integer_span(b)
    if span_a is None or span_b is None:
        return None
    width = (span_a[1] - span_a[0]) + (span_b[1] - span_b[0]) + 1
    if width > _POLY_SPAN_FACTOR * len(a) * len(b) + 64:
        return None
    from flint import fmpz_poly

    polys = []
    denominators = []
    for d, (low, high) in ((a, span_a), (b, span_b)):
        den = math.lcm(*(int(q.denominator) for q in d._p.values()))
        coeffs = [0] * (high - low + 1)
        for k, q in d._p.items():
            coeffs[k - low] = int(q.numerator) * (den // int(q.denominator))
        polys.append(fmpz_poly(coeffs))
        denominators.append(den)
    product = polys[0] * polys[1]
    den = denominators[0] * denominators[1]
    low = span_a[0] + span_b[0]
    out = {low + i: mpq(int(c), den) for i, c in enumerate(product.coeffs()) if c != 0}
    return Dist._trusted(out)


# -- constructors -------------------------------------------------------------------------
def _bad_item(probabilities: Any, item: Any) -> DistributionError:
    """The error for an entry of ``Dist(probabilities)`` that is not an
    ``(outcome, probability)`` pair with a hashable outcome.

    >>> _bad_item("ab", "a")
    DistributionError("Dist() takes a mapping {outcome: probability} or (outcome, probability) pairs; got str with the entry 'a'")
    """
    try:
        outcome, _ = item
    except (TypeError, ValueError):
        return DistributionError(
            "Dist() takes a mapping {outcome: probability} or (outcome, probability) pairs; "
            f"got {type(probabilities).__name__} with the entry {item!r}"
        )
    return _unhashable_outcome(outcome)


def _unhashable_outcome(outcome: Any) -> DistributionError:
    return DistributionError(
        f"the outcome {outcome!r} is not hashable (a {type(outcome).__name__}); "
        "use a tuple instead of a list, a frozenset instead of a set"
    )


def _in_one_order(ordered: list[Any]) -> bool:
    """Whether each outcome is below the next (so ``<`` orders them all, as a quantile
    needs; sets ordered by inclusion, or NaN, are not).

    >>> _in_one_order([1, 2]), _in_one_order([frozenset({2}), frozenset({1})]), _in_one_order(["a", 1])
    (True, False, False)
    """
    try:
        return all(a < b for a, b in itertools.pairwise(ordered))
    except TypeError:
        return False


def _unordered(outcomes: Iterable[Any], other: Any) -> Any:
    """The first of ``outcomes`` that cannot be compared with ``other`` (a value, or every
    outcome of a distribution).

    >>> _unordered([1, "b"], 2)
    'b'
    """
    others = list(other) if isinstance(other, Dist) else [other]
    for x in outcomes:
        try:
            for y in others:
                _ = x < y
        except TypeError:
            return x
    return next(iter(outcomes))


def _not_numbers(d: Dist[Any]) -> DistributionError:
    """The error for arithmetic on a distribution whose outcomes are not numbers.

    >>> _not_numbers(Dist({"a": 1}))
    DistributionError("+, - and @ add outcomes, and this distribution's, such as 'a', are not numbers")
    """
    example = next((x for x in d._p if not _is_scalar(x)), next(iter(d._p)))
    return DistributionError(
        f"+, - and @ add outcomes, and this distribution's, such as {example!r}, are not numbers"
    )


def _positive_int(name: str, value: Any, minimum: int = 1) -> int:
    return whole_number(name, value, minimum, error=DistributionError)


#: The most outcomes a distribution built by :func:`die`, :func:`uniform`,
#: :func:`binomial` or ``n @ d`` may have (the engine's default state limit).
MAX_OUTCOMES = 2_000_000
#: The most decimal digits all of its exact probabilities may take together (about
#: 400 MB of integers).
MAX_DIGITS = 10**9


def check_size(what: str, outcomes: int, digits: float) -> None:
    """Refuse, before any work, a distribution of more than :data:`MAX_OUTCOMES`
    outcomes or :data:`MAX_DIGITS` digits of probabilities (a one-line
    :class:`~exactprob.errors.ResourceError`, not a MemoryError or an abort in GMP).

    >>> check_size("die(10**9)", 10**9, 0)
    Traceback (most recent call last):
    ...
    exactprob.errors.ResourceError: die(10**9) would have 1,000,000,000 outcomes; at most 2,000,000 are allowed
    """
    if outcomes > MAX_OUTCOMES:
        raise ResourceError(
            f"{what} would have {outcomes:,} outcomes; at most {MAX_OUTCOMES:,} are allowed"
        )
    if digits > MAX_DIGITS:
        raise ResourceError(
            f"{what} would need about {digits:,.0f} digits of exact probabilities; at most "
            f"{MAX_DIGITS:,} are allowed"
        )


def _power_size(n: int, dist: Dist[Any]) -> tuple[int, float]:
    r"""An upper bound on the outcomes of ``n @ dist`` and on the digits of their
    probabilities: at most :math:`n\,(b - a) + 1` integer outcomes for a support in
    :math:`[a, b]`, and never more than the :math:`\binom{n + k - 1}{k - 1}` multisets of
    :math:`k` numbers (:math:`k^n` sequences for other outcomes); each probability's
    denominator divides :math:`D^n` for the least common denominator :math:`D`."""
    k = len(dist)
    keys = list(dist._p)
    if not all(isinstance(x, numbers.Number) and not isinstance(x, bool) for x in keys):
        # a sum that is not a number's (tuples, strings) may tell every order apart
        outcomes = k**n if n * math.log2(max(k, 2)) < 64 else MAX_OUTCOMES + 1
    elif k < 64 or n < 64:
        outcomes = math.comb(n + k - 1, k - 1)
    else:
        outcomes = MAX_OUTCOMES + 1
    if all(type(x) is int for x in keys):
        outcomes = min(outcomes, n * (max(keys) - min(keys)) + 1)
    if dist.symbolic:
        return outcomes, 0.0
    common = 1
    for q in dist._p.values():
        common = math.lcm(common, int(q.denominator))
    return outcomes, outcomes * n * math.log10(common) if common > 1 else 0.0


def uniform(outcomes: Iterable[T]) -> Dist[T]:
    """Equal weight on each listed outcome (a repeated outcome counts twice).

    Parameters
    ----------
    outcomes : iterable
        The outcomes, at least one.

    Returns
    -------
    Dist
        Each outcome with its share of the list.

    Raises
    ------
    DistributionError
        For no outcome at all.

    See Also
    --------
    die : The faces 1 to ``n`` of a fair die.

    Examples
    --------
    >>> uniform("aab")["a"]
    Fraction(2, 3)
    """
    counts: dict[T, int] = {}
    for x in outcomes:
        try:
            counts[x] = counts.get(x, 0) + 1
        except TypeError:
            raise _unhashable_outcome(x) from None
        if len(counts) > MAX_OUTCOMES:
            raise ResourceError(
                f"uniform() got more than {MAX_OUTCOMES:,} distinct outcomes; at most "
                f"{MAX_OUTCOMES:,} are allowed"
            )
    if not counts:
        raise DistributionError("uniform() needs at least one outcome")
    return Dist.from_weights(counts)


def die(sides: int) -> Dist[int]:
    """A fair die numbered 1..sides.

    Parameters
    ----------
    sides : int
        The number of faces, at least 1.

    Returns
    -------
    Dist
        Each face with probability ``1/sides``.

    See Also
    --------
    dice : The sum of several dice.
    uniform : Equally likely outcomes of any kind.

    Examples
    --------
    >>> die(4)
    Dist({1: '1/4', 2: '1/4', 3: '1/4', 4: '1/4'})
    """
    _positive_int("sides", sides)
    check_size(f"die({sides})", sides, 0)
    q = mpq(1, sides)
    return Dist._trusted({k: q for k in range(1, sides + 1)})


def dice(n: int, sides: int) -> Dist[int]:
    """The sum of ``n`` fair dice with ``sides`` sides (``ndS``).

    Parameters
    ----------
    n : int
        How many dice.
    sides : int
        The faces of each die.

    Returns
    -------
    Dist
        The distribution of the sum.

    See Also
    --------
    die : A single die.
    uniform : Equally likely outcomes of any kind.

    References
    ----------
    - D. E. Knuth, *The Art of Computer Programming*, Vol. 2, *Seminumerical
      Algorithms*, 3rd ed., Addison-Wesley, 1997 (§4.6.3, powers by repeated squaring:
      the sum of ``n`` dice takes about ``2 log2(n)`` convolutions).
    - W. B. Hart, "Fast Library for Number Theory: an introduction", *Mathematical
      Software, ICMS 2010*, Lecture Notes in Computer Science 6327, Springer, 2010
      (FLINT, whose integer polynomial products are the convolutions).

    Examples
    --------
    >>> dice(2, 6)[12]
    Fraction(1, 36)
    """
    return _positive_int("n", n, 0) @ die(sides)


def bernoulli(p: Any) -> Dist[int]:
    """1 with probability ``p``, else 0.

    Parameters
    ----------
    p : exact number
        The probability of 1, in [0, 1].

    Returns
    -------
    Dist
        0 and 1 (an outcome of probability 0 left out).

    Raises
    ------
    DistributionError
        For ``p`` outside [0, 1].

    See Also
    --------
    binomial : The number of successes in ``n`` such trials.

    Examples
    --------
    >>> bernoulli("1/3")[1]
    Fraction(1, 3)
    """
    q = exact(p)
    if not is_symbolic(q) and not 0 <= q <= 1:
        raise DistributionError(f"p must lie in [0, 1], got {p}")
    return Dist._trusted({1: q, 0: 1 - q})


def binomial(n: int, p: Any) -> Dist[int]:
    r"""Number of successes in ``n`` independent trials of probability ``p``:
    :math:`P(k) = \binom{n}{k} p^k (1-p)^{n-k}`.

    Parameters
    ----------
    n : int
        The trials.
    p : exact number
        The probability of a success, in [0, 1].

    Returns
    -------
    Dist
        The number of successes.

    Raises
    ------
    DistributionError
        For ``p`` outside [0, 1].

    See Also
    --------
    bernoulli : A single trial.
    hypergeometric : Successes drawn without replacement.

    References
    ----------
    - N. L. Johnson, A. W. Kemp and S. Kotz, *Univariate Discrete Distributions*, 3rd
      ed., Wiley, 2005 (the binomial distribution).

    Examples
    --------
    >>> binomial(3, "1/2")[1]
    Fraction(3, 8)
    """
    _positive_int("n", n, 0)
    q = exact(p)
    if not is_symbolic(q) and not 0 <= q <= 1:
        raise DistributionError(f"p must lie in [0, 1], got {p}")
    digits = 0.0 if is_symbolic(q) else (n + 1) * n * math.log10(max(int(q.denominator), 1))
    check_size(f"binomial({n}, p)", n + 1, digits)
    return Dist._trusted({k: math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)})


def hypergeometric(population: int, successes: int, n: int) -> Dist[int]:
    r"""Successes among ``n`` draws without replacement from ``population`` items of
    which ``successes`` are marked: :math:`P(k) = \binom{K}{k}\binom{N-K}{n-k}/\binom{N}{n}`.

    Parameters
    ----------
    population : int
        The items, :math:`N`.
    successes : int
        The marked items among them, :math:`K`.
    n : int
        The draws.

    Returns
    -------
    Dist
        The number of marked items drawn.

    Raises
    ------
    DistributionError
        For counts that do not fit (more draws or marked items than the population).

    See Also
    --------
    draw : The cards drawn themselves.
    binomial : Draws with replacement.

    References
    ----------
    - N. L. Johnson, A. W. Kemp and S. Kotz, *Univariate Discrete Distributions*, 3rd
      ed., Wiley, 2005 (the hypergeometric distribution).

    Examples
    --------
    >>> hypergeometric(48, 6, 2)[2]
    Fraction(5, 376)
    """
    _positive_int("population", population, 0)
    _positive_int("successes", successes, 0)
    _positive_int("n", n, 0)
    if successes > population or n > population:
        raise DistributionError(
            f"need successes <= population and n <= population, got {successes}, {n}, {population}"
        )
    deck = {True: successes, False: population - successes}
    what = f"hypergeometric({population}, {successes}, {n})"
    return _drawn(deck, n, what).map(lambda c: c[0])


def draw(deck: Mapping[T, int], n: int) -> Dist[tuple[int, ...]]:
    r"""Draw ``n`` cards without replacement from ``deck`` (kind -> count).

    The outcome is the tuple of how many of each kind were drawn, in the deck's key
    order (multivariate hypergeometric):
    :math:`P(k_1, \dots, k_m) = \prod_i \binom{c_i}{k_i} / \binom{\sum c_i}{n}`.

    Parameters
    ----------
    deck : mapping
        How many cards of each kind.
    n : int
        The cards drawn.

    Returns
    -------
    Dist
        The counts drawn of each kind, as a tuple in the deck's order.

    Raises
    ------
    DistributionError
        For more cards than the deck holds.

    See Also
    --------
    hypergeometric : How many marked cards the draw holds.

    References
    ----------
    - N. L. Johnson, S. Kotz and N. Balakrishnan, *Discrete Multivariate
      Distributions*, Wiley, 1997 (the multivariate hypergeometric distribution).

    Examples
    --------
    >>> draw({"chicken": 42, "wolf": 6}, 2)[(1, 1)]
    Fraction(21, 94)
    """
    return _drawn(deck, n, f"a draw of {n} cards")


def _drawn(deck: Mapping[T, int], n: int, what: str) -> Dist[tuple[int, ...]]:
    r""":func:`draw`, its size checked before any work (``what`` names it in a refusal).

    The counts are built kind by kind, each kind's count :math:`k_i` only from
    :math:`\max(0, r - C_{>i})` to :math:`\min(c_i, r)` (:math:`r` cards left to draw,
    :math:`C_{>i}` cards of the later kinds), so every partial tuple kept completes to an
    outcome and the last kind's count is forced. The outcomes, and so every partial
    table, are at most :func:`_draw_outcomes`; each probability's denominator is
    :math:`\binom{N}{n}`, of at most :math:`\min(n, N - n)\log_{10} N` digits."""
    kinds = list(deck)
    counts = [_positive_int(f"count of {k!r}", deck[k], 0) for k in kinds]
    _positive_int("n", n, 0)
    total = sum(counts)
    if n > total:
        raise DistributionError(f"cannot draw {n} cards from a deck of {total}")
    outcomes = _draw_outcomes(counts, n)
    if outcomes > MAX_OUTCOMES:  # the count first: the digits' product could be huge
        raise ResourceError(
            f"{what} would have more than {MAX_OUTCOMES:,} outcomes; at most "
            f"{MAX_OUTCOMES:,} are allowed"
        )
    digits = outcomes * min(n, total - n) * math.log10(total + 1)
    check_size(what, outcomes, digits)
    later = total
    ways: dict[tuple[int, ...], tuple[int, int]] = {(): (1, 0)}  # prefix: (ways, drawn)
    for c in counts:  # extend the partial tuples kind by kind
        later -= c
        ways = {
            prefix + (k,): (w * math.comb(c, k), drawn + k)
            for prefix, (w, drawn) in ways.items()
            for k in range(max(0, n - drawn - later), min(c, n - drawn) + 1)
        }
    denominator = math.comb(total, n)
    return Dist._trusted({t: mpq(w, denominator) for t, (w, _) in ways.items()})


def _draw_outcomes(counts: list[int], n: int) -> int:
    r"""An upper bound on the count tuples of a draw of ``n`` (capped just above
    :data:`MAX_OUTCOMES`): the kinds that hold cards but the largest choose their counts
    (:math:`\prod (\min(c_i, n) + 1)`, the last is forced), and at most
    :math:`\binom{n + m - 1}{m - 1}` tuples of :math:`m` kinds sum to :math:`n`.

    >>> _draw_outcomes([1, 3_000_000], 3_000_000), _draw_outcomes([5] * 20, 3)
    (2, 1540)
    """
    factors = sorted(min(c, n) + 1 for c in counts if c)[:-1]
    product = 1
    for factor in factors:
        product *= factor
        if product > MAX_OUTCOMES:
            break
    free = len(factors)  # the kinds whose counts are chosen
    tuples = math.comb(n + free, free) if min(n, free) <= 64 else MAX_OUTCOMES + 1
    return min(product, tuples, MAX_OUTCOMES + 1)
