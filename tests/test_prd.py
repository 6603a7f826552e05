"""PRD tables: every exact number against an oracle written here from the rules.

The rules: a table ``odds[0..n-1]``; the counter starts at 0; a trial activates with
``odds[counter]``; a hit resets the counter to 0, a miss advances it by one, wrapping to 0
after the last entry. Threshold ``t`` means ``(t + 1) / 2**32``.

The oracles, none of which uses :mod:`exactprob.games.roguelike.prd*`:

* the stationary distribution of the counter chain, from a Fraction linear solve;
* all :math:`2^N` hit/miss sequences, enumerated with their probabilities;
* the chain of "no activation yet" masses (the gap distribution) and an absorption solve
  for the gap's moments;
* the Markov-chain CLT variance :math:`2\\langle \\bar f, Z \\bar f\\rangle_\\pi -
  \\langle \\bar f, \\bar f\\rangle_\\pi` with the fundamental matrix :math:`Z`;
* a forward recursion on ``(counter, hits)`` with integer weights for :math:`N = 300`;
* binomial probabilities from ``math.comb`` for a one-entry table;
* the Dota 2 Wiki's published PRD constants for the inverse problem;
* Rogue's generator as the C macro, for the simulator's stream order.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from fractions import Fraction as F
from itertools import product
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from cli_runner import run
from flint import fmpq, fmpq_poly, fmpz_poly
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st
from models import gauss_solve

from exactprob.engine.simulation import NumpyRandom, agrees_with
from exactprob.errors import ExactProbError
from exactprob.games.roguelike.prd import PRDTable, threshold_probability
from exactprob.games.roguelike.prd.bounds import hits_enclosure
from exactprob.games.roguelike.prd.inverse import (
    _gap_sign,
    certified_root,
    linear_constant,
    linear_table,
)
from exactprob.games.roguelike.prd.simulator import simulate_hits
from exactprob.games.roguelike.prd.trials import (
    hit_moments,
    hits_distribution,
    hits_range,
    longest_miss_run,
)
from exactprob.games.roguelike.rng import RogueRandom

DECIMAL_ODDS = ("0.03", "0.17", "0.29", "0.37", "0.43", "0.59", "0.83")
THRESHOLDS = (128849018, 730144440, 1245540515, 1589137899, 1846835937, 2534030704, 3564822855)
DECIMAL = tuple(F(p) for p in DECIMAL_ODDS)  # Fraction("0.03") is exactly 3/100
THRESHOLD = tuple(F(t + 1, 2**32) for t in THRESHOLDS)
ZEROS_WRAP = (F(0), F(1, 3), F(1, 2), F(0))  # zeros at both ends, wraps
LINEAR = (F(1, 4), F(1, 2), F(3, 4), F(1))  # never wraps
FIXED = pytest.mark.parametrize(
    "odds",
    [DECIMAL, THRESHOLD, ZEROS_WRAP, LINEAR],
    ids=["decimal", "thresholds", "zeros", "linear"],
)


# -- oracles -----------------------------------------------------------------------------------
Matrix = list[list[F]]


def solve(matrix: Matrix, rhs: Sequence[F]) -> list[F]:
    """The solution of ``matrix @ x = rhs`` in Fractions (the shared Gauss-Jordan oracle)."""
    solution = gauss_solve(matrix, [[b] for b in rhs])
    assert solution is not None, "singular system"
    return [row[0] for row in solution]


def stationary(chain: Matrix) -> list[F]:
    """pi with pi P = pi and sum(pi) = 1 (one equation of (P^T - I) pi = 0 is redundant and
    is replaced by the normalisation; unique for a chain with one recurrent class)."""
    size = len(chain)
    system = [[chain[j][i] - (i == j) for j in range(size)] for i in range(size)]
    system[-1] = [F(1)] * size
    return solve(system, [F(0)] * (size - 1) + [F(1)])


def counter_chain(odds: Sequence[F]) -> Matrix:
    """The counter's transition matrix: a hit (odds[k]) to 0, a miss to k + 1 mod n."""
    n = len(odds)
    chain = [[F(0)] * n for _ in range(n)]
    for k, p in enumerate(odds):
        chain[k][0] += p
        chain[k][(k + 1) % n] += 1 - p
    return chain


def stationary_rate(odds: Sequence[F]) -> F:
    """The long-run activation rate: sum over counters of pi_k * odds[k]."""
    return sum((pi * p for pi, p in zip(stationary(counter_chain(odds)), odds)), F(0))


def sequences(odds: Sequence[F], trials: int) -> Iterator[tuple[int, int, F]]:
    """(hits, longest run of misses, probability) of each of the 2^trials hit/miss
    sequences with a positive probability, played from the rules."""
    n = len(odds)
    for outcome in product((True, False), repeat=trials):
        counter, probability, hits, run_length, longest = 0, F(1), 0, 0, 0
        for hit in outcome:
            probability *= odds[counter] if hit else 1 - odds[counter]
            if not probability:
                break
            if hit:
                hits, run_length, counter = hits + 1, 0, 0
            else:
                run_length, counter = run_length + 1, (counter + 1) % n
                longest = max(longest, run_length)
        if probability:
            yield hits, longest, probability


def waiting_chain(odds: Sequence[F], steps: int) -> tuple[list[F], list[F]]:
    """P(first activation at trial g) for g = 1..steps, and the mass still waiting after
    ``steps`` trials per counter value (from counter 0, misses only so far)."""
    n = len(odds)
    waiting = [F(1)] + [F(0)] * (n - 1)
    first = []
    for _ in range(steps):
        first.append(sum((w * p for w, p in zip(waiting, odds)), F(0)))
        waiting = [waiting[k - 1] * (1 - odds[k - 1]) for k in range(n)]  # k = 0: the wrap
    return first, waiting


def gap_moments_by_absorption(odds: Sequence[F]) -> tuple[F, F]:
    """Mean and variance of the trials up to the first activation, from counter 0:
    t_k = 1 + (1 - p_k) t_{k+1}, s_k = E[G_k^2] = 1 + (1 - p_k)(2 t_{k+1} + s_{k+1})."""
    n = len(odds)
    system = [[F(i == j) for j in range(n)] for i in range(n)]
    for k, p in enumerate(odds):
        system[k][(k + 1) % n] -= 1 - p
    t = solve(system, [F(1)] * n)
    s = solve(system, [1 + 2 * (1 - p) * t[(k + 1) % n] for k, p in enumerate(odds)])
    return t[0], s[0] - t[0] ** 2


def clt_variance(odds: Sequence[F]) -> F:
    """lim Var(H_N)/N for the chain on (counter, last outcome) with f = last outcome:
    sigma^2 = 2 <fbar, Z fbar>_pi - <fbar, fbar>_pi, Z = (I - P + 1 pi)^-1."""
    n = len(odds)
    states = [(k, h) for k in range(n) for h in (0, 1)]
    index = {state: i for i, state in enumerate(states)}
    chain = [[F(0)] * len(states) for _ in states]
    for (k, h), i in index.items():
        chain[i][index[0, 1]] += odds[k]
        chain[i][index[(k + 1) % n, 0]] += 1 - odds[k]
    pi = stationary(chain)
    mean = sum((p for p, (_, h) in zip(pi, states) if h), F(0))
    fbar = [h - mean for _, h in states]
    size = len(states)
    system = [[(i == j) - chain[i][j] + pi[j] for j in range(size)] for i in range(size)]
    x = solve(system, fbar)
    return 2 * sum((p * f * y for p, f, y in zip(pi, fbar, x)), F(0)) - sum(
        (p * f * f for p, f in zip(pi, fbar)), F(0)
    )


def hit_counts(odds: Sequence[F], trials: int) -> dict[int, F]:
    """P(H_N = h) by a forward recursion on (counter, hits) with integer weights over D^t."""
    n = len(odds)
    scale = math.lcm(*(p.denominator for p in odds))
    hit_weight = [int(p * scale) for p in odds]
    weights: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(trials):
        step: dict[tuple[int, int], int] = defaultdict(int)
        for (k, h), w in weights.items():
            if hit_weight[k]:
                step[0, h + 1] += hit_weight[k] * w
            if scale - hit_weight[k]:
                step[(k + 1) % n, h] += (scale - hit_weight[k]) * w
        weights = step
    totals: dict[int, int] = defaultdict(int)
    for (_, h), w in weights.items():
        totals[h] += w
    return {h: F(w, scale**trials) for h, w in sorted(totals.items())}


def moments(dist: dict[int, F]) -> tuple[F, F]:
    mean = sum((h * p for h, p in dist.items()), F(0))
    return mean, sum((h * h * p for h, p in dist.items()), F(0)) - mean * mean


def quantile(dist: dict[int, F], level: F) -> int:
    """The smallest h with P(H <= h) >= level."""
    running = F(0)
    for h in sorted(dist):
        running += dist[h]
        if running >= level:
            return h
    raise AssertionError("a distribution sums to 1")


def rogue_rn(seed: int, count: int) -> tuple[list[int], int]:
    """Rogue 3.6.3's RN as the C macro reads: seed = seed*11109 + 13849 on a wrapping
    32-bit int, RN = (seed & 0x7fff) >> 1; the draws and the final seed."""
    draws = []
    for _ in range(count):
        seed = (seed * 11109 + 13849) & 0xFFFFFFFF
        seed -= (seed >> 31) << 32  # back to a signed int
        draws.append((seed & 0x7FFF) >> 1)
    return draws, seed


# -- strategies --------------------------------------------------------------------------------
entry = st.one_of(
    st.sampled_from([F(0), F(1)]),
    st.builds(F, st.integers(0, 6), st.integers(1, 6)).filter(lambda p: p <= 1),
)
tables = st.builds(
    lambda odds, certain_last: tuple(odds) + ((F(1),) if certain_last else ()),
    st.lists(entry, min_size=1, max_size=5),
    st.booleans(),
).filter(any)


# -- the rate ----------------------------------------------------------------------------------
@FIXED
def test_rate_of_fixed_tables_is_the_stationary_hit_chance(odds: tuple[F, ...]) -> None:
    table = PRDTable(odds)
    assert table.rate() == stationary_rate(odds)
    assert table.gap_mean() == 1 / table.rate()


def test_source_tables_read_exactly() -> None:
    assert PRDTable.from_odds(DECIMAL_ODDS).odds == DECIMAL
    assert PRDTable.from_thresholds(THRESHOLDS).odds == THRESHOLD
    assert PRDTable.from_odds(["3/100", F(17, 100)]).odds == DECIMAL[:2]
    # thresholds round each decimal entry up or down by less than 2^-32
    assert all(abs(a - b) < F(1, 2**32) for a, b in zip(DECIMAL, THRESHOLD))
    # the two rates differ, by less than a billionth
    difference = PRDTable(THRESHOLD).rate() - PRDTable(DECIMAL).rate()
    assert difference != 0 and abs(difference) < F(1, 10**9)


@given(tables)
def test_rate_is_the_stationary_hit_chance(odds: tuple[F, ...]) -> None:
    table = PRDTable(odds)
    assert table.rate() == stationary_rate(odds)
    assert table.wrap_probability == math.prod(1 - p for p in odds)


def test_threshold_probability_ends() -> None:
    assert threshold_probability(0) == F(1, 2**32)
    assert threshold_probability(2**32 - 1) == 1
    for bad in (-1, 2**32, True):
        with pytest.raises(ExactProbError):
            threshold_probability(bad)


@pytest.mark.parametrize(
    "odds",
    [[], ["0", "0"], ["1.5"], ["-1/3"], ["1/2"] * 100_001],
    ids=["empty", "zeros", "above-1", "negative", "too-long"],
)
def test_bad_tables_are_refused(odds: list[str]) -> None:
    with pytest.raises(ExactProbError):
        PRDTable.from_odds(odds)


def test_float_entries_are_refused_unless_exact() -> None:
    assert PRDTable.from_odds([0.5]) == PRDTable.from_odds(["1/2"])
    for float_entry in (0.1, 0.03):
        with pytest.raises(ExactProbError):
            PRDTable.from_odds([float_entry])


# -- gaps ------------------------------------------------------------------------------------
@given(tables)
def test_gaps_against_the_waiting_chain_and_absorption(odds: tuple[F, ...]) -> None:
    table = PRDTable(odds)
    n = len(odds)
    first, _ = waiting_chain(odds, 3 * n + 2)
    assert [table.gap_probability(g) for g in range(1, 3 * n + 3)] == first
    listed = table.gaps(3 * n)
    expected: dict[int | str, F] = {g: p for g, p in enumerate(first[: 3 * n], 1) if p}
    longer = 1 - sum(first[: 3 * n], F(0))
    if longer:
        expected["longer"] = longer
    assert dict(listed.items()) == expected
    mean, variance = gap_moments_by_absorption(odds)
    assert table.gap_mean() == mean == 1 / stationary_rate(odds)
    assert table.gap_variance() == variance
    # G = nM + K + 1: the entry K that hits has P(K = k) = P(G = k + 1) / (1 - q)
    q = sum(waiting_chain(odds, n)[1])
    assert dict(table.hitting_entry().items()) == {
        k: p / (1 - q) for k, p in enumerate(first[:n]) if p
    }


@FIXED
def test_gap_moments_by_direct_sum_and_exact_tail(odds: tuple[F, ...]) -> None:
    """Sum g P(G = g) over the first T = 5n gaps. After T trials without a hit the counter
    is back at 0 (T is a multiple of n), so the rest is a fresh gap started T later:
    E[G] = A1 + w (T + E[G]), E[G^2] = A2 + w (T^2 + 2 T E[G] + E[G^2]), w = P(G > T)."""
    table = PRDTable(odds)
    span = 5 * len(odds)
    first, waiting = waiting_chain(odds, span)
    assert all(w == 0 for w in waiting[1:])  # all the waiting mass is at counter 0
    w = waiting[0]
    a1 = sum((g * p for g, p in enumerate(first, 1)), F(0))
    a2 = sum((g * g * p for g, p in enumerate(first, 1)), F(0))
    mean = (a1 + w * span) / (1 - w)
    second = (a2 + w * (span * span + 2 * span * mean)) / (1 - w)
    assert table.gap_mean() == mean
    assert table.gap_variance() == second - mean * mean


@given(tables)
def test_asymptotic_variance_is_the_markov_chain_clt_variance(odds: tuple[F, ...]) -> None:
    table = PRDTable(odds)
    assert table.asymptotic_variance_per_trial() == clt_variance(odds)


def test_asymptotic_variance_of_the_source_table() -> None:
    table = PRDTable(DECIMAL)
    sigma2 = clt_variance(DECIMAL)
    assert table.asymptotic_variance_per_trial() == sigma2
    # Var(H_N) = N sigma^2 + c + (geometrically small): the increments settle on sigma^2
    _, v1000 = hit_moments(table, 1000)
    _, v2000 = hit_moments(table, 2000)
    assert abs((v2000 - v1000) / 1000 - sigma2) < F(1, 10**12)
    # a plain Bernoulli table: Var(H_N) = N p (1 - p) exactly
    assert hit_moments(PRDTable((F(37, 100),)), 500)[1] == 500 * F(37, 100) * F(63, 100)


def test_integer_weights() -> None:
    hit, miss, d = PRDTable(DECIMAL).integer_weights()
    assert d == 100 and [F(h, d) for h in hit] == list(DECIMAL)
    assert all(h + m == d for h, m in zip(hit, miss))


# -- hits in N trials --------------------------------------------------------------------------
@settings(max_examples=40)
@given(tables, st.integers(1, 9))
def test_hits_against_all_sequences(odds: tuple[F, ...], trials: int) -> None:
    table = PRDTable(odds)
    played = list(sequences(odds, trials))
    dist: dict[int, F] = defaultdict(F)
    for hits, _, p in played:
        dist[hits] += p
    dist = {h: p for h, p in dist.items() if p}
    assert dict(hits_distribution(table, trials).items()) == dist
    assert hit_moments(table, trials) == moments(dist)
    assert hits_range(table, trials) == (min(dist), max(dist))
    runs = longest_miss_run(table, trials, up_to=trials)
    assert runs == {
        length: sum((p for _, longest, p in played if longest >= length), F(0))
        for length in range(1, len(runs) + 1)
    }
    assert len(runs) == trials or not table.wraps  # cut short only at a certain last entry
    assert all(p == 0 for _, longest, p in played if longest >= len(odds) and not table.wraps)


def test_hits_against_all_sequences_of_twelve_trials() -> None:
    played = list(sequences(DECIMAL, 12))
    assert len(played) == 2**12  # every entry is strictly between 0 and 1
    dist: dict[int, F] = defaultdict(F)
    for hits, _, p in played:
        dist[hits] += p
    table = PRDTable(DECIMAL)
    assert dict(hits_distribution(table, 12).items()) == dist
    assert hit_moments(table, 12) == moments(dist)
    assert hits_range(table, 12) == (0, 12)
    runs = longest_miss_run(table, 12)  # default: three passes, cut at 12 trials
    assert list(runs) == list(range(1, 13))
    assert runs == {
        length: sum((p for _, longest, p in played if longest >= length), F(0)) for length in runs
    }


def test_hits_range_by_hand() -> None:
    # (0, 1/2, 1): a hit needs two trials from a reset, and one comes within three
    assert hits_range(PRDTable.from_odds(["0", "1/2", "1"]), 7) == (7 // 3, 7 // 2)
    assert hits_range(PRDTable.from_odds(["0", "0", "1/5"]), 10) == (0, 3)


def test_default_longest_run_of_a_certain_last_entry() -> None:
    # (1/2, 1): at most one miss in a row; P(some miss in 4 trials) = 1 - P(4 hits) = 15/16
    assert longest_miss_run(PRDTable.from_odds(["1/2", "1"]), 4) == {1: F(15, 16), 2: F(0)}


def test_exact_distribution_is_refused_above_its_limit() -> None:
    table = PRDTable(DECIMAL)
    with pytest.raises(ExactProbError, match="hits_enclosure"):
        hits_distribution(table, 1001)
    assert len(hits_distribution(PRDTable.from_odds(["1/2"]), 1001, max_trials=1001)) == 1002
    for bad in (0, -1, 10**7, 2.0):
        with pytest.raises(ExactProbError):
            hit_moments(table, bad)  # type: ignore[arg-type]


# -- certified bounds --------------------------------------------------------------------------
def check_enclosure(odds: tuple[F, ...], exact: dict[int, F], trials: int) -> None:
    box = hits_enclosure(PRDTable(odds), trials)
    assert len(box.lower) == len(box.upper) == trials + 1
    for h in range(trials + 1):
        assert box.contains(h, exact.get(h, F(0))), h
        low, high = F(float(box.lower[h])), F(float(box.upper[h]))  # the same test, by hand
        assert 0 <= low <= exact.get(h, F(0)) <= high <= 1
    visible = box.upper > 1e-300
    widths = (box.upper[visible] - box.lower[visible]) / box.upper[visible]
    assert widths.max() < 1e-10 and box.widest_relative() < 1e-10
    # the CDF bounds contain the exact CDF, and the quantile ranges the exact quantiles
    cdf_low, cdf_high = box.cdf_bounds()
    running = F(0)
    for h in range(trials + 1):
        running += exact.get(h, F(0))
        assert F(float(cdf_low[h])) <= running <= F(float(cdf_high[h]))
    for level in (F(1, 100), F(1, 4), F(1, 2), F(3, 4), F(99, 100)):
        at_least, at_most = box.quantile_range(level)
        assert at_least <= quantile(exact, level) <= at_most


@FIXED
def test_enclosure_contains_the_exact_distribution_of_300_trials(odds: tuple[F, ...]) -> None:
    exact = hit_counts(odds, 300)
    assert dict(hits_distribution(PRDTable(odds), 300).items()) == exact
    check_enclosure(odds, exact, 300)


def test_enclosure_of_bernoulli_trials_contains_the_binomial() -> None:
    p, trials = F(37, 100), 300
    binomial = {h: math.comb(trials, h) * p**h * (1 - p) ** (trials - h) for h in range(301)}
    check_enclosure((p,), binomial, trials)
    assert dict(hits_distribution(PRDTable((p,)), 60).items()) == {
        h: math.comb(60, h) * p**h * (1 - p) ** (60 - h) for h in range(61)
    }


@pytest.mark.slow
def test_enclosure_of_ten_thousand_trials_is_consistent() -> None:
    """No exact distribution to compare with; the bounds must hold the total 1 and the
    exact mean (sums of the float bounds, in Fractions)."""
    table = PRDTable(DECIMAL)
    box = hits_enclosure(table, 10_000)
    lower = [F(float(x)) for x in box.lower]
    upper = [F(float(x)) for x in box.upper]
    assert sum(lower) <= 1 <= sum(upper)
    mean, _ = hit_moments(table, 10_000)
    assert (
        sum(h * x for h, x in enumerate(lower)) <= mean <= sum(h * x for h, x in enumerate(upper))
    )
    assert box.widest_relative() < 1e-10


# -- the inverse problem -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rate", "constant"),
    [
        # With C >= 1/2 the table is (C, 1): gaps are 1 (w.p. C) or 2, the mean gap 2 - C,
        # so rate = 1 / (2 - C) and C = 2 - 1/rate:
        (F(7, 10), F(4, 7)),  # 2 - 10/7 = 4/7
        (F(3, 4), F(2, 3)),  # 2 - 4/3 = 2/3
        (F(9, 10), F(8, 9)),  # 2 - 10/9 = 8/9
        (F(2, 3), F(1, 2)),  # 2 - 3/2 = 1/2: the table (1/2, 1), at the end of its piece
        # C = 1/3: table (1/3, 2/3, 1), mean gap 1 + 2/3 + 2/3 * 1/3 = 17/9
        (F(9, 17), F(1, 3)),
    ],
)
def test_rational_constants(rate: F, constant: F) -> None:
    found = linear_constant(rate)
    low, high = found.interval
    assert low <= constant <= high and high - low <= F(1, 10**40)
    if constant in (F(1, 2), F(1, 3)):  # the end of a piece: found exactly
        assert low == high
    assert found.expression == sp.Rational(constant.numerator, constant.denominator)
    assert linear_table(constant).rate() == rate == stationary_rate(linear_table(constant).odds)
    assert found.entries == math.ceil(1 / constant)


@given(st.integers(2, 40).flatmap(lambda b: st.tuples(st.integers(1, b - 1), st.just(b))))
def test_rational_constants_round_trip(fraction: tuple[int, int]) -> None:
    constant = F(*fraction)
    table = linear_table(constant)
    assert table.odds == tuple(min(F(1), constant * (k + 1)) for k in range(len(table.odds)))
    assert table.odds[-1] == 1 and (len(table.odds) == 1 or table.odds[-2] < 1)
    rate = stationary_rate(table.odds)
    assert table.rate() == rate
    found = linear_constant(rate)
    assert found.expression == sp.Rational(*fraction)
    assert found.interval[0] <= constant <= found.interval[1]


def test_rate_one_needs_constant_one() -> None:
    assert linear_constant(F(1)).interval == (F(1), F(1))


# The Dota 2 Wiki / Liquipedia Dota 2 "Random Distribution" page (PRD) publishes C for each
# nominal chance; here to the 6 decimals it shows.
DOTA_CONSTANTS = {
    F(5, 100): "0.003802",
    F(10, 100): "0.014746",
    F(15, 100): "0.032221",
    F(20, 100): "0.055704",
    F(25, 100): "0.084744",
    F(30, 100): "0.118949",
    F(50, 100): "0.302103",
}


def mean_gap(entries: int) -> fmpq_poly:
    """sum_{k<m} prod_{i=1..k} (1 - i C): the mean gap of min(1, C(k+1)) while the counter
    cannot pass m entries, as a polynomial in C."""
    total, term = fmpq_poly([1]), fmpq_poly([1])
    for i in range(1, entries):
        term *= fmpq_poly([1, -i])
        total += term
    return total


@pytest.mark.parametrize("rate", list(DOTA_CONSTANTS), ids=str)
def test_irrational_constants_against_the_dota_wiki(rate: F) -> None:
    found = linear_constant(rate)
    low, high = found.interval
    assert 0 < high - low <= F(1, 10**40)
    # the exact rate at the ends straddles the target: the root is inside
    assert linear_table(low).rate() < rate < linear_table(high).rate()
    assert found.decimal(6) == DOTA_CONSTANTS[rate]
    assert F(1, found.entries) <= low <= high <= F(1, found.entries - 1)
    # the minimal polynomial is irreducible, changes sign on the interval, and divides
    # a E(C) - b, with E the mean gap written here
    coefficients = [int(c) for c in reversed(found.minimal_polynomial.all_coeffs())]
    poly = fmpz_poly(coefficients)
    assert poly.degree() >= 2
    _, factors = poly.factor()
    assert len(factors) == 1 and factors[0][1] == 1
    ends = [poly(fmpq(x.numerator, x.denominator)) for x in (low, high)]
    assert ends[0] * ends[1] < 0
    target = mean_gap(found.entries) * rate.numerator - rate.denominator
    assert target % fmpq_poly(coefficients) == 0


@pytest.mark.parametrize("rate", [F(15, 100), F(20, 100), F(25, 100), F(30, 100)], ids=str)
def test_root_of_forms_lie_in_the_interval(rate: F) -> None:
    found = linear_constant(rate)
    assert isinstance(found.expression, sp.CRootOf)
    assert found.expression.poly == sp.PurePoly(found.minimal_polynomial.as_expr())
    inside(found.expression, found.interval)


def inside(expression: sp.Expr, interval: tuple[F, F]) -> None:
    value = sp.N(expression, 60)
    low, high = (sp.Rational(x.numerator, x.denominator) for x in interval)
    slack = sp.Rational(1, 10**50)
    assert abs(sp.im(value)) < slack
    assert low - slack <= sp.re(value) <= high + slack


def test_fifty_percent_is_a_cubic_in_radicals() -> None:
    # four entries (C, 2C, 3C, 1); E(C) = 1 + (1-C) + (1-C)(1-2C) + (1-C)(1-2C)(1-3C)
    #      = 4 - 10C + 13C^2 - 6C^3 = 2   <=>   6C^3 - 13C^2 + 10C - 2 = 0
    c = sp.Symbol("C")
    found = linear_constant(F(1, 2))
    cubic = 6 * c**3 - 13 * c**2 + 10 * c - 2
    assert found.entries == 4
    assert sp.expand(found.minimal_polynomial.as_expr() - cubic) == 0
    expression = found.expression
    assert not expression.is_Rational and not expression.has(sp.CRootOf)
    assert sp.simplify(sp.expand(cubic.subs(c, expression))) == 0
    assert sp.expand(sp.minimal_polynomial(expression, c) - cubic) == 0
    inside(expression, found.interval)


def test_quadratic_constant_is_a_square_root() -> None:
    # three entries (C, 2C, 1): E = 1 + (1-C) + (1-C)(1-2C) = 3 - 4C + 2C^2 = 5/3 at 60%
    # <=> 3C^2 - 6C + 2 = 0 <=> C = 1 - sqrt(3)/3 (the root in [1/3, 1/2])
    found = linear_constant(F(3, 5))
    assert sp.simplify(found.expression - (1 - sp.sqrt(3) / 3)) == 0


def test_inverse_refuses_bad_rates() -> None:
    for bad in (F(0), F(-1, 2), F(3, 2)):
        with pytest.raises(ExactProbError):
            linear_constant(bad)
    with pytest.raises(ExactProbError):
        linear_table(F(0))
    with pytest.raises(ExactProbError):
        linear_table(F(1, 10**6))  # a million entries


# -- the simulator -----------------------------------------------------------------------------
def test_simulated_hits_agree_with_the_exact_mean_and_variance() -> None:
    table, trials, runs = PRDTable(DECIMAL), 1000, 2000
    simulated = simulate_hits(table, trials, runs, NumpyRandom(2024))
    counts = simulated.hits
    mean, variance = hit_moments(table, trials)
    assert simulated.agrees_with(mean)
    assert abs(counts.mean() - float(mean)) <= 5 * math.sqrt(float(variance) / runs)
    # the sample variance of a near-normal count has a standard error var * sqrt(2/(R-1))
    spread = 5 * float(variance) * math.sqrt(2 / (runs - 1))
    assert abs(counts.var(ddof=1) - float(variance)) <= spread
    bernoulli = trials * float(table.rate() * (1 - table.rate()))
    assert counts.var(ddof=1) < bernoulli / 2  # PRD is far less spread out


def test_simulated_bernoulli_trials() -> None:
    p = F(37, 100)
    counts = simulate_hits(PRDTable((p,)), 200, 500, NumpyRandom(5)).hits
    assert agrees_with(p, int(counts.sum()), 200 * 500)


def test_simulator_draws_in_run_order_on_rogues_generator() -> None:
    odds, trials, runs, seed = DECIMAL, 37, 5, -123
    draws, final_seed = rogue_rn(seed, trials * runs)
    expected = []
    for r in range(runs):
        counter, hits = 0, 0
        for t in range(trials):
            if F(draws[r * trials + t], 2**14) < odds[counter]:
                hits, counter = hits + 1, 0
            else:
                counter = (counter + 1) % len(odds)
        expected.append(hits)
    source = RogueRandom(seed)
    assert simulate_hits(PRDTable(odds), trials, runs, source).hits.tolist() == expected
    assert source.seed == final_seed


def test_simulator_draws_in_run_order_on_numpy() -> None:
    trials, runs = 11, 4
    draws = np.random.default_rng(9).random(trials * runs).reshape(runs, trials)
    odds = [float(p) for p in LINEAR]
    expected = []
    for row in draws:
        counter, hits = 0, 0
        for u in row:
            hit = u < odds[counter]
            hits, counter = (hits + 1, 0) if hit else (hits, (counter + 1) % len(odds))
        expected.append(hits)
    assert simulate_hits(PRDTable(LINEAR), trials, runs, NumpyRandom(9)).hits.tolist() == expected


def test_rogue_runs_repeat_with_the_generators_period() -> None:
    # RN repeats every 2^15 draws; runs of 1000 draws: gcd(1000, 2^15) = 8, so run r + 4096
    # starts where run r did (4096 * 1000 = 125 * 2^15)
    counts = simulate_hits(PRDTable(DECIMAL), 1000, 4200, RogueRandom(3)).hits
    assert (counts[4096:] == counts[:104]).all()


# -- the command line --------------------------------------------------------------------------
def prd(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    status, out, err = run(capsys, "prd", *argv, "--json")
    assert status == 0 and err == ""
    return json.loads(out)


def test_cli_odds(capsys: pytest.CaptureFixture[str]) -> None:
    result = prd(capsys, "--odds", ",".join(DECIMAL_ODDS), "--trials", "150", "--gaps", "9")
    assert result["odds"] == ["3/100", "17/100", "29/100", "37/100", "43/100", "59/100", "83/100"]
    rate = stationary_rate(DECIMAL)
    assert F(result["rate"]) == rate
    assert abs(F(result["rate_decimal"]) - rate) <= F(1, 2 * 10**12)
    assert result["wraps"] is True
    assert F(result["wrap_probability"]) == math.prod(1 - p for p in DECIMAL)
    mean_gap_, gap_variance = gap_moments_by_absorption(DECIMAL)
    assert F(result["gap_mean"]) == mean_gap_ and F(result["gap_variance"]) == gap_variance
    first, _ = waiting_chain(DECIMAL, 9)
    assert result["gaps"] == {
        **{str(g): str(p) for g, p in enumerate(first, 1)},
        "longer": str(1 - sum(first)),
    }
    exact = hit_counts(DECIMAL, 150)
    mean, variance = moments(exact)
    assert result["trials"] == 150
    assert F(result["hits_mean"]) == mean and F(result["hits_variance"]) == variance
    bernoulli = 150 * rate * (1 - rate)
    assert F(result["bernoulli_variance"]) == bernoulli
    assert F(result["variance_ratio"]) == variance / bernoulli
    assert F(result["asymptotic_variance_ratio"]) == clt_variance(DECIMAL) / (rate * (1 - rate))
    summary = result["hits_distribution"]
    assert summary["exact"] is True
    assert summary["quantiles"] == {
        "0": 0,  # every entry is below 1: all misses can happen
        **{str(q): quantile(exact, F(q, 100)) for q in (25, 50, 75)},
        "100": 150,  # and all hits (0.03 > 0)
    }
    assert "longest_miss_run_at_least" not in result and "simulation" not in result


def test_cli_thresholds(capsys: pytest.CaptureFixture[str]) -> None:
    result = prd(capsys, "--thresholds", ",".join(map(str, THRESHOLDS)), "--trials", "50")
    assert result["thresholds"] == list(THRESHOLDS)
    assert F(result["rate"]) == stationary_rate(THRESHOLD)
    assert F(result["hits_mean"]) == moments(hit_counts(THRESHOLD, 50))[0]


def test_cli_default_size_gives_certified_quantiles(capsys: pytest.CaptureFixture[str]) -> None:
    result = prd(capsys, "--odds", ",".join(DECIMAL_ODDS))  # 10,000 trials
    summary = result["hits_distribution"]
    assert result["trials"] == 10_000 and summary["exact"] is False
    assert summary["max_relative_width"] < 1e-10
    quantiles = summary["quantiles"]
    assert quantiles["0"] == 0 and quantiles["100"] == 10_000
    inner = [quantiles[q] for q in ("25", "50", "75")]
    assert all(isinstance(q, int) for q in inner) and inner == sorted(inner)
    rate = stationary_rate(DECIMAL)
    # E[H_N] - N r tends to a constant (the start at counter 0): within a hit of N r
    # (gmpy2 reads the 20,000-digit numbers; Fraction's parser stops at 4,300 digits)
    assert abs(mpq(result["hits_mean"]) - 10_000 * mpq(rate)) < 1
    assert abs(mpq(result["asymptotic_variance_ratio"]) - mpq(result["variance_ratio"])) < 0.01


def test_cli_longest_run(capsys: pytest.CaptureFixture[str]) -> None:
    odds = (F(1, 2), F(1, 3))
    result = prd(capsys, "--odds", "1/2,1/3", "--trials", "9", "--longest-run")
    played = list(sequences(odds, 9))
    assert result["longest_miss_run_at_least"] == {
        str(length): str(sum((p for _, longest, p in played if longest >= length), F(0)))
        for length in range(1, 7)  # three passes of the table
    }


@pytest.mark.parametrize("generator", ["numpy", "rogue"])
def test_cli_simulate(capsys: pytest.CaptureFixture[str], generator: str) -> None:
    result = prd(
        capsys, "--odds", ",".join(DECIMAL_ODDS), "--trials", "300", "--simulate", "400",
        "--generator", generator, "--seed", "7",
    )  # fmt: skip
    sim = result["simulation"]
    assert sim["generator"] == generator and sim["runs"] == 400
    mean, variance = moments(hit_counts(DECIMAL, 300))
    z = (sim["mean"] - float(mean)) / math.sqrt(float(variance) / 400)
    assert sim["mean_z"] == pytest.approx(z)
    assert sim["variance_over_exact"] == pytest.approx(sim["variance"] / float(variance))
    if generator == "numpy":
        assert abs(z) < 5 and 0.6 < sim["variance_over_exact"] < 1.4


def test_cli_target_rate(capsys: pytest.CaptureFixture[str]) -> None:
    seventy = prd(capsys, "--target-rate", "0.7")
    assert seventy["constant"] == "4/7" and seventy["form"] == "rational"
    low, high = (F(x) for x in seventy["constant_interval"])
    assert seventy["entries"] == 2 and low <= F(4, 7) <= high
    half = prd(capsys, "--target-rate", "1/2")
    assert half["form"] == "radicals" and half["constant_decimal"].startswith("0.302103")
    assert half["entries"] == 4
    five = prd(capsys, "--target-rate", "0.05")
    assert five["form"] == "interval" and five["constant"] is None
    assert five["constant_decimal"].startswith("0.003801")  # the wiki's 0.003802, rounded
    assert five["entries"] == 264  # ceil(1/C) = ceil(263.04...)
    low, high = (F(x) for x in five["constant_interval"])
    assert linear_table(low).rate() < F(1, 20) < linear_table(high).rate()


def test_cli_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "prd", "--odds", "1/4,1", "--trials", "4")
    # (1/4, 1): gaps 1 or 2, mean gap 1 + 3/4, rate 4/7
    assert status == 0 and err == ""
    assert "never wraps" in out and "4/7" in out and "hit quantiles (exact)" in out
    status, out, _ = run(capsys, "prd", "--target-rate", "0.75")
    # C = 2/3: p = (2/3, 1), mean gap 1 + 1/3, rate 3/4
    assert status == 0 and "C  0.6666666667 = 2/3\n  C is rational\n" in out


def test_cli_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "hits.png"
    status, _, err = run(capsys, "prd", "--odds", "0.25,1", "--trials", "100", "--plot", str(path))
    assert status == 0 and err == ""
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert [p.name for p in tmp_path.iterdir()] == ["hits.png"]  # no temporary left


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--odds", "0.3,1.2"], "--odds entry 2"),
        (["--odds", "-0.1"], "--odds entry 1"),
        (["--odds", "0.3,,1"], "--odds"),
        (["--odds", "abc"], "--odds entry 1"),
        (["--odds", ""], "--odds"),
        (["--odds", "0,0,0"], "positive entry"),
        (["--thresholds", "4294967296"], "--thresholds entry 1"),
        (["--thresholds", "5,-1"], "--thresholds entry 2"),
        (["--thresholds", "1.5"], "--thresholds entry 1"),
        (["--odds", "0.5", "--trials", "0"], "--trials"),
        (["--odds", "0.5", "--trials", "100001"], "--trials"),
        (["--odds", "0.5", "--simulate", "1"], "--simulate"),
        (["--target-rate", "0"], "--target-rate"),
        (["--target-rate", "1.5"], "--target-rate"),
        (["--odds", "0.5", "--gaps", "-3"], "gap"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], field: str) -> None:
    status, out, err = run(capsys, "prd", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and field in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--target-rate", "1"], id="rate-1"),
        pytest.param(["--target-rate", "0.5", "--plot", "{tmp}/c.png"], id="plot-target"),
        pytest.param(["--odds", "0.5", "--trials", "9", "--plot", "{tmp}/no/x.png"], id="no-dir"),
        pytest.param(["--odds", "0.5", "--trials", "9", "--plot", "{tmp}/x.foo"], id="suffix"),
    ],
)
def test_cli_never_tracebacks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    status, _, _ = run(capsys, "prd", *[a.format(tmp=tmp_path) for a in argv])
    assert status in (0, 2)


@pytest.mark.parametrize("rate", [F(2, 5), F(9, 20)])
def test_quartic_constants_come_as_radicals_inside_the_interval(rate: F) -> None:
    # 40% and 45% need tables of 4 entries: E[G](C) is a cubic in C, a*E[G] - b has degree 3
    # or a quartic factor; whichever, its root in the certified interval must be the radical.
    found = linear_constant(rate)
    assert found.minimal_polynomial.degree() <= 4
    assert not found.expression.has(sp.CRootOf)
    value = sp.N(found.expression, 60)
    assert abs(sp.im(value)) < sp.Rational(1, 10**50)
    low, high = found.interval
    assert sp.Rational(low.numerator, low.denominator) - sp.Rational(1, 10**50) <= sp.re(value)
    assert sp.re(value) <= sp.Rational(high.numerator, high.denominator) + sp.Rational(1, 10**50)
    residual = found.minimal_polynomial.as_expr().subs("C", value)
    assert abs(sp.N(residual, 60)) < sp.Rational(1, 10**45)


def test_gaps_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "prd", "--odds", "0.5", "--trials", "5", "--gaps", "0")
    assert status == 2 and "--gaps" in err and err.count("\n") == 1


# The Dota 2 Wiki's constants below 2.5%, to the digits it shows (0.015604% for 1%,
# 0.062009% for 2%): tables of thousands of entries, given as certified intervals.
DOTA_LOW_RATES = {F(1, 100): "0.00015604", F(2, 100): "0.00062009"}


@pytest.mark.parametrize("rate", list(DOTA_LOW_RATES), ids=str)
def test_low_rates_get_a_certified_interval(capsys: pytest.CaptureFixture[str], rate: F) -> None:
    status, out, _ = run(capsys, "prd", "--target-rate", str(rate), "--json")
    payload = json.loads(out)
    assert status == 0 and payload["form"] == "interval" and payload["constant"] is None
    assert payload["minimal_polynomial"] is None and payload["minimal_polynomial_degree"] is None
    m = payload["entries"]
    assert payload["defining_polynomial_degree"] == m - 1 > 1000
    low, high = (F(end) for end in payload["constant_interval"])
    assert F(1, m) <= low < high <= F(1, m - 1) and high - low <= F(1, 10**40)
    assert abs(F(payload["constant_decimal"]) - low) <= F(1, 10**30)
    digits = DOTA_LOW_RATES[rate]
    assert round((low + high) / 2, len(digits) - 2) == F(digits)


def test_a_certified_interval_straddles_the_exact_root() -> None:
    """Above 1,000 entries no polynomial is factored: the interval comes from ball
    arithmetic. The mean gap written here, evaluated exactly at its ends, shows the sign
    change of a E(C) - b (2%: 1,613 entries, a polynomial of degree 1,612)."""
    rate = F(2, 100)
    found = linear_constant(rate)
    assert found.entries == 1613 and found.minimal_polynomial is None
    target = mean_gap(found.entries) * rate.numerator - rate.denominator
    low, high = found.interval
    assert target(fmpq(low.numerator, low.denominator)) > 0
    assert target(fmpq(high.numerator, high.denominator)) < 0


@pytest.mark.parametrize("rate", [F(1, 4), F(10, 100), F(5, 100)], ids=str)
def test_ball_arithmetic_and_exact_bisection_bracket_the_same_root(rate: F) -> None:
    exact = linear_constant(rate)  # factored, bisected in exact rationals
    low, high = certified_root(rate, exact.entries)
    assert low <= exact.interval[1] and exact.interval[0] <= high  # one root: they meet
    assert high - low <= F(1, 10**40)


def test_rates_needing_over_a_hundred_thousand_entries_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "prd", "--target-rate", "0.001")
    assert status == 2 and err.count("\n") == 1 and "100,000 entries" in err


def test_high_degree_constants_report_their_degree_not_their_polynomial(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 5%: 264 entries, so a*E[G](C) - b has degree 263 with integers of thousands of digits
    status, out, _ = run(capsys, "prd", "--target-rate", "0.05", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["form"] == "interval" and payload["constant"] is None
    assert payload["minimal_polynomial"] is None and payload["minimal_polynomial_degree"] == 263
    assert payload["constant_decimal"].startswith("0.003801")  # the Dota 2 Wiki's 0.003802


def test_a_table_that_always_hits_has_no_variance_ratio(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # (1,): every trial hits, so Bernoulli at rate 1 has variance 0 and no ratio exists;
    # (0, 1): hits every other trial, variance 0, so a simulation has no z-score either
    status, out, _ = run(capsys, "prd", "--odds", "1", "--trials", "5", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["rate"] == "1" and payload["variance_ratio"] is None
    status, out, _ = run(capsys, "prd", "--odds", "0,1", "--trials", "10", "--simulate", "5")
    assert status == 0 and "mean 5.000" in out
    # a rate that is 1 as a float (not exactly) still plots
    plot = tmp_path / "a.png"
    status, _, _ = run(
        capsys, "prd", "--odds", "0.99999999999999999999", "--trials", "10", "--plot", str(plot)
    )
    assert status == 0 and plot.stat().st_size > 0


@pytest.mark.parametrize(
    "argv",
    [
        ("--odds", "1e-300,0.5"),  # 300-digit denominators at 10,000 trials: minutes
        ("--odds", "1e-20000,0.5", "--trials", "200"),  # the exact distribution: gigabytes
        ("--odds", "0.5", "--trials", "100000"),  # the certified distribution: 10^10 floats
        ("--odds", "0.5", "--trials", "1000", "--simulate", "1000000"),  # 10^9 draws
        ("--odds", "0.5", "--trials", "10", "--simulate", "10", "--seed", "-1"),
        ("--odds", "0.5", "--trials", "2000", "--exact-distribution"),
        ("--odds", ",".join(["0.5"] * 1001), "--trials", "1"),
        ("--odds", "0.5", "--trials", "10", "--plot", "/proc/x/a.png"),
        # 4,000-digit weights: each step's products cost more per digit (ran minutes)
        ("--odds", f"1/{'9' * 4000},1", "--trials", "1000"),
        # 1,000 digits: 1.2e9 under a plain count, 2.1e10 counted by the digits' cost
        ("--odds", f"1/{'9' * 1000},1", "--trials", "120", "--exact-distribution"),
    ],
)
def test_work_beyond_the_budgets_is_refused_before_it_starts(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    status, out, err = run(capsys, "prd", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1, err


def test_the_cost_of_long_weights_grows_with_their_digits() -> None:
    """The budgets' cost model (measured: 0.35 ns a digit of the moments at 40 digits, 6
    to 8 ns at 4,000): short weights count as before, long ones by their digits."""
    from exactprob.games.roguelike.prd.report import exact_moments_cost

    short = PRDTable.from_odds(["0.25", "1"])
    long = PRDTable.from_odds([f"1/{'9' * 4000}", "1"])
    assert exact_moments_cost(short, 100) == 2 * 100**2 * 1  # 1 digit: the denominator 4
    assert exact_moments_cost(long, 1000) > 1e11 and exact_moments_cost(long, 100) < 2e10


def test_a_quantile_on_an_exact_tie_is_settled_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    # a fair coin over 201 trials: by symmetry P(H <= 100) = 1/2 exactly, so the median (the
    # smallest h with P(H <= h) >= 1/2) is 100; bounds alone can only say 100 or 101
    status, out, _ = run(capsys, "prd", "--odds", "1/2", "--trials", "201", "--json")
    summary = json.loads(out)["hits_distribution"]
    assert status == 0 and summary["exact"] is True and summary["quantiles"]["50"] == 100


def test_a_rate_met_exactly_at_a_piece_end_is_decided_exactly() -> None:
    """At C = 1/3 the mean gap is 1 + 2/3 + (2/3)(1/3) = 17/9 exactly: no ball can tell
    E[G](1/3) - 17/9 from 0, so the sign comes from exact rationals, and the constant
    of the rate 9/17 is exactly 1/3, at the end of the 3-entry piece."""
    assert _gap_sign(F(1, 3), 3, F(17, 9)) == 0
    found = linear_constant(F(9, 17))
    assert found.entries == 3 and found.interval == (F(1, 3), F(1, 3))


@pytest.mark.parametrize(
    "odds", [["0.03", "0.17", "0.29", "0.37"], ["1/2"], ["0.25", "1"], ["0.1", "0.2", "0.3"]]
)
@pytest.mark.parametrize("longest", [1, 3, 7, 12])
def test_the_gaps_tail_in_closed_form_is_one_minus_the_listed_gaps(odds, longest):
    table = PRDTable.from_odds(odds)
    gaps = table.gaps(longest)
    listed = [table.gap_probability(g) for g in range(1, longest + 1)]
    assert gaps.get("longer", 0) == 1 - sum(listed, F(0))
    assert all(gaps.get(g, 0) == p for g, p in enumerate(listed, 1))
