r"""What a PRD table gives in :math:`N` trials: hits, longest miss runs, exactly.

All three computations run the counter chain forward with every probability scaled by
:math:`D^t`, :math:`D` the common denominator of the table, so the state after :math:`t`
trials holds integers and nothing is divided until the end.

* :func:`hit_moments`: the mean and variance of the hit count :math:`H_N`, exact for any
  :math:`N`, by carrying :math:`E[1]`, :math:`E[H]`, :math:`E[H^2]` on each counter value
  (a hit maps :math:`H^2` to :math:`H^2 + 2H + 1`);
* :func:`hits_distribution`: the whole distribution of :math:`H_N`, one integer polynomial
  in :math:`y` (marking hits) per counter value, multiplied in C by python-flint;
  its exact numbers grow as :math:`N^2 \log D` digits in all, so it is refused above
  ``max_trials`` (default 1,000) -- :func:`~.bounds.hits_enclosure` gives certified
  bounds beyond;
* :func:`longest_miss_run`: :math:`P(\text{longest run of misses} \ge L)`, from a chain on the
  current run length (whose remainder mod :math:`n` is the counter).

>>> from exactprob.games.roguelike.prd import PRDTable
>>> coin = PRDTable.from_odds(["1/2"])  # a fair coin: H_N is binomial
>>> hit_moments(coin, 10)
(Fraction(5, 1), Fraction(5, 2))
>>> hits_distribution(coin, 2)
Dist({0: '1/4', 1: '1/2', 2: '1/4'})
>>> longest_miss_run(coin, 3)[3]  # three tails in a row
Fraction(1, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flint import fmpz_poly
from gmpy2 import mpq, mpz

from ....engine import Dist
from ....errors import PRDError
from ....util.numbers import to_fraction, whole_number
from .table import PRDTable

__all__ = [
    "DEFAULT_MAX_EXACT_TRIALS",
    "MAX_TRIALS",
    "hit_moments",
    "hits_distribution",
    "hits_range",
    "longest_miss_run",
]

DEFAULT_MAX_EXACT_TRIALS = 1_000
"""Above this many trials the exact distribution is refused by default (about 1.5 s here at
1,000 trials for a 7-entry decimal table, growing as :math:`N^3`)."""

MAX_TRIALS = 1_000_000


def check_trials(trials: int) -> int:
    """``trials`` if it is a whole number from 1 to :data:`MAX_TRIALS`."""
    return whole_number("the number of trials", trials, 1, MAX_TRIALS, PRDError)


def hits_range(table: PRDTable, trials: int) -> tuple[int, int]:
    """The fewest and the most hits ``trials`` trials can give.

    A hit needs at least :math:`k^*+1` trials from a reset, :math:`k^*` the first positive
    entry; one is forced within :math:`j^*+1`, :math:`j^*` the first entry equal to 1 (no
    such entry: every trial can miss).

    >>> hits_range(PRDTable.from_odds(["0", "1/2", "1"]), 7)
    (2, 3)
    """
    check_trials(trials)
    first_possible = next(k for k, p in enumerate(table.odds) if p > 0)
    first_certain = table.first_certain
    fewest = 0 if first_certain is None else trials // (first_certain + 1)
    return fewest, trials // (first_possible + 1)


def hit_moments(table: PRDTable, trials: int) -> tuple[Fraction, Fraction]:
    """The exact mean and variance of the number of hits in ``trials`` trials.

    Linear in ``trials`` (integers of :math:`t \\log_2 D` bits after :math:`t` trials).

    >>> hit_moments(PRDTable.from_odds(["1/4", "1"]), 2)  # 2 hits w.p. 1/16, else 1
    (Fraction(17, 16), Fraction(15, 256))
    """
    check_trials(trials)
    hit, miss, d = table.integer_weights()
    n = table.size
    zero = mpz(0)
    mass, first, second = [zero] * n, [zero] * n, [zero] * n
    mass[0] = mpz(1)
    for _ in range(trials):
        new_mass, new_first, new_second = [zero] * n, [zero] * n, [zero] * n
        for k in range(n):
            a, b, c = mass[k], first[k], second[k]
            if hit[k]:
                new_mass[0] += hit[k] * a
                new_first[0] += hit[k] * (b + a)
                new_second[0] += hit[k] * (c + 2 * b + a)
            if miss[k]:
                after = (k + 1) % n
                new_mass[after] += miss[k] * a
                new_first[after] += miss[k] * b
                new_second[after] += miss[k] * c
        mass, first, second = new_mass, new_first, new_second
    scale = mpz(d) ** trials
    mean = mpq(sum(first), scale)  # gmpy2 reduces huge fractions far faster than Fraction
    return to_fraction(mean), to_fraction(mpq(sum(second), scale) - mean * mean)


def hits_distribution(
    table: PRDTable, trials: int, max_trials: int = DEFAULT_MAX_EXACT_TRIALS
) -> Dist[int]:
    """The exact distribution of the number of hits in ``trials`` trials.

    Counter value :math:`k` carries the polynomial :math:`P_k(y) = \\sum_h w_{k,h} y^h`;
    a trial maps them to :math:`P'_0 = y \\sum_k h_k P_k + m_{n-1} P_{n-1}` and
    :math:`P'_{k+1} = m_k P_k`.

    >>> hits_distribution(PRDTable.from_odds(["1/4", "1"]), 2)
    Dist({1: '15/16', 2: '1/16'})
    """
    check_trials(trials)
    if trials > max_trials:
        raise PRDError(
            f"the exact distribution of hits in {trials:,} trials is refused above "
            f"{max_trials:,} trials (its numbers grow as trials^2 digits); raise the limit, "
            "or use the certified bounds of hits_enclosure"
        )
    hit, miss, d = table.integer_weights()
    n = table.size
    polys = [fmpz_poly([1])] + [fmpz_poly([]) for _ in range(n - 1)]
    for _ in range(trials):
        hits = fmpz_poly([])
        for k in range(n):
            if hit[k]:
                hits += polys[k] * hit[k]
        shifted = [hits.left_shift(1)] + [polys[k] * miss[k] for k in range(n - 1)]
        shifted[0] += polys[n - 1] * miss[n - 1]
        polys = shifted
    total = sum(polys[1:], polys[0])
    scale = d**trials
    return Dist({h: Fraction(int(w), scale) for h, w in enumerate(total.coeffs()) if w})


def longest_miss_run(table: PRDTable, trials: int, up_to: int | None = None) -> dict[int, Fraction]:
    """``{L: P(some run of at least L misses in a row)}`` for ``L = 1 .. up_to``.

    No run is longer than the first certain entry :math:`j^*` when there is one (the rows
    stop at :math:`j^*+1`, with 0); ``up_to`` defaults to three passes through a table
    that wraps, and is cut at ``trials``.

    >>> longest_miss_run(PRDTable.from_odds(["1/2", "1"]), 4)
    {1: Fraction(15, 16), 2: Fraction(0, 1)}
    """
    check_trials(trials)
    n = table.size
    certain = table.first_certain
    if up_to is None:
        up_to = 3 * n if certain is None else certain + 1
    whole_number("the longest run asked for", up_to, 1, MAX_TRIALS, PRDError)
    up_to = min(up_to, trials)
    hit, miss, d = table.integer_weights()
    scale = d**trials
    result: dict[int, Fraction] = {}
    for length in range(1, up_to + 1):
        if certain is not None and length > certain:
            result[length] = Fraction(0)
            break
        result[length] = 1 - Fraction(_runs_shorter_than(length, trials, hit, miss), scale)
    return result


def _runs_shorter_than(length: int, trials: int, hit: Sequence[int], miss: Sequence[int]) -> int:
    """:math:`D^N P(\\text{no run of `length` misses})`, on states ``run = 0 .. length-1``."""
    n = len(hit)
    weights = [1] + [0] * (length - 1)
    for _ in range(trials):
        restart = sum(hit[r % n] * w for r, w in enumerate(weights))
        weights = [restart] + [miss[r % n] * weights[r] for r in range(length - 1)]
    return sum(weights)
