"""exactprob.engine.dist: the exact finite distribution.

Every expected value is derived by hand (comments), by a closed form (math.comb), or by
brute-force enumeration of all outcomes with itertools.product written here.
"""

from __future__ import annotations

import itertools
import math
import operator
import pickle
import re
import time
from collections import Counter
from fractions import Fraction as F
from typing import Any
from unittest import mock

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import exactprob as ep
import exactprob.engine.dist as dist_module
from exactprob import (
    Dist,
    DistributionError,
    InexactError,
    ModelError,
    bernoulli,
    binomial,
    dice,
    die,
    draw,
    hypergeometric,
    uniform,
)
from exactprob.engine.dist import _dict_convolve, _poly_convolve
from exactprob.errors import ResourceError

p_sym = sympy.Symbol("p")


def table(d):
    """The distribution as a plain ``{outcome: Fraction}`` dict (through Mapping)."""
    return {x: d[x] for x in d}


def enumerate_sum(*tables):
    """Brute force: distribution of the sum of independent variables given as dicts."""
    out = Counter()
    for combo in itertools.product(*(t.items() for t in tables)):
        value = sum(x for x, _ in combo)
        out[value] += math.prod((p for _, p in combo), start=F(1))
    return {k: v for k, v in out.items() if v}


# -- construction -------------------------------------------------------------------------


def test_construction_from_mapping_and_pairs():
    d = Dist({"heads": "1/2", "tails": F(1, 2)})
    assert d["heads"] == F(1, 2) and type(d["heads"]) is F
    pairs = Dist([(1, "1/4"), (2, "1/2"), (1, "1/4")])  # repeated outcomes add up
    assert table(pairs) == {1: F(1, 2), 2: F(1, 2)}


def test_zero_probabilities_dropped():
    d = Dist({1: 1, 2: 0, 3: "0/5"})
    assert len(d) == 1 and 2 not in d and list(d) == [1]
    assert d[2] == 0


def test_mapping_behaviour():
    d = Dist({3: "1/6", 1: "1/2", 2: "1/3"})
    assert len(d) == 3
    assert list(d) == [1, 2, 3]  # sorted
    assert list(d.keys()) == [1, 2, 3]
    assert list(d.values()) == [F(1, 2), F(1, 3), F(1, 6)]
    assert dict(d.items()) == {1: F(1, 2), 2: F(1, 3), 3: F(1, 6)}
    assert dict(d) == {1: F(1, 2), 2: F(1, 3), 3: F(1, 6)}
    assert 2 in d and 7 not in d
    assert d[7] == 0 and type(d[7]) is F and d["x"] == 0
    with pytest.raises(TypeError):
        d[1] = F(1)  # immutable
    with pytest.raises(AttributeError):
        d.extra = 1  # __slots__


def test_sorting_and_unorderable_outcomes():
    assert list(Dist({"b": "1/2", "a": "1/2"})) == ["a", "b"]
    assert list(Dist({(2, 1): "1/2", (1, 5): "1/2"})) == [(1, 5), (2, 1)]
    mixed = Dist({"x": "1/2", 1: "1/2"})  # not comparable: insertion order kept
    assert set(mixed) == {"x", 1} and mixed["x"] == F(1, 2)


def test_equality_ignores_construction_order():
    a = Dist({1: "1/3", 2: "2/3"})
    b = Dist([(2, F(2, 3)), (1, mpq_like(1, 3))])
    assert a == b and hash(a) == hash(b)
    assert a != Dist({1: "2/3", 2: "1/3"})
    assert a != {1: F(1, 3), 2: F(2, 3)}  # a Dist is not equal to a dict
    assert len({a, b}) == 1


def mpq_like(n, d):
    from exactprob.util.numbers import mpq

    return mpq(n, d)


def test_from_weights():
    d = Dist.from_weights({"wolf": 6, "chicken": 42})
    assert table(d) == {"chicken": F(7, 8), "wolf": F(1, 8)}  # 42/48, 6/48
    assert table(Dist.from_weights({1: "1/2", 2: "1/4"})) == {1: F(2, 3), 2: F(1, 3)}
    assert table(Dist.from_weights({1: 0, 2: 5})) == {2: F(1)}
    with pytest.raises(DistributionError):
        Dist.from_weights({1: -1, 2: 3})
    with pytest.raises(DistributionError):
        Dist.from_weights({1: 0, 2: 0})
    with pytest.raises(InexactError):
        Dist.from_weights({1: 0.1})


def test_uniform():
    assert table(uniform("aab")) == {"a": F(2, 3), "b": F(1, 3)}
    assert table(uniform(range(4))) == {k: F(1, 4) for k in range(4)}
    with pytest.raises(DistributionError):
        uniform([])


# -- errors on construction ----------------------------------------------------------------


@pytest.mark.parametrize(
    "weights",
    [
        {1: "1/3", 2: "1/3"},  # sums to 2/3
        {1: "1/2", 2: "2/3"},  # sums to 7/6
        {1: 0},  # sums to 0
    ],
)
def test_sum_not_one(weights):
    with pytest.raises(DistributionError, match="sum"):
        Dist(weights)


def test_negative_and_above_one():
    with pytest.raises(DistributionError, match="negative"):
        Dist({1: "3/2", 2: "-1/2"})  # sums to 1 but has a negative weight
    with pytest.raises(DistributionError):
        Dist({1: "3/2"})
    assert isinstance(DistributionError("x"), ValueError)


def test_float_probabilities_refused_unless_printed_exactly():
    assert table(Dist({1: 0.5, 2: 0.5})) == {1: F(1, 2), 2: F(1, 2)}
    assert bernoulli(0.25)[1] == F(1, 4)
    with pytest.raises(InexactError):
        Dist({1: 0.1, 2: 0.9})
    with pytest.raises(InexactError):
        bernoulli(0.2)
    with pytest.raises(InexactError):
        Dist({1: True})


def test_symbolic_must_sum_to_one_identically():
    p = p_sym
    assert Dist({1: p, 0: 1 - p}).symbolic
    with pytest.raises(DistributionError):
        Dist({1: p, 0: p})


# -- value semantics ------------------------------------------------------------------------


def test_pickle_round_trip():
    for d in [die(6), Dist({"a": "1/3", (1, 2): "2/3"}), dice(3, 4), bernoulli(p_sym)]:
        e = pickle.loads(pickle.dumps(d))
        assert e == d and hash(e) == hash(d) and e.symbolic == d.symbolic


def test_repr_round_trip():
    namespace = {"Dist": Dist, "Fraction": F, "p": p_sym}
    for d in [
        die(4),
        Dist({"a": "1/3", (1, "x"): "2/3"}),
        Dist({F(1, 2): "1/7", -3: "6/7"}),
        Dist({True: "1/5", False: "4/5"}),
        binomial(3, p_sym),
    ]:
        assert eval(repr(d), namespace) == d
    assert repr(die(4)) == "Dist({1: '1/4', 2: '1/4', 3: '1/4', 4: '1/4'})"


# -- constructors ---------------------------------------------------------------------------


def test_die_and_dice():
    assert table(die(6)) == {k: F(1, 6) for k in range(1, 7)}
    assert table(die(1)) == {1: F(1)}
    # 2d6 by enumeration of the 36 ordered pairs
    pairs = Counter(a + b for a, b in itertools.product(range(1, 7), repeat=2))
    assert table(dice(2, 6)) == {s: F(c, 36) for s, c in pairs.items()}
    assert table(dice(0, 6)) == {0: F(1)}
    # 3d4 by enumeration
    triples = Counter(sum(t) for t in itertools.product(range(1, 5), repeat=3))
    assert table(dice(3, 4)) == {s: F(c, 64) for s, c in triples.items()}


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "6", None])
def test_die_bad_sides(bad):
    with pytest.raises(DistributionError):
        die(bad)


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_dice_bad_n(bad):
    with pytest.raises(DistributionError):
        dice(bad, 6)


def test_bernoulli():
    assert table(bernoulli("1/3")) == {0: F(2, 3), 1: F(1, 3)}
    assert table(bernoulli(0)) == {0: F(1)}
    assert table(bernoulli(1)) == {1: F(1)}
    for bad in ["3/2", -1, "-1/3"]:
        with pytest.raises(DistributionError):
            bernoulli(bad)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("p", [F(0), F(1, 3), F(1, 2), F(4, 5), F(1)])
def test_binomial_formula_and_enumeration(n, p):
    d = binomial(n, p)
    formula = {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}
    assert table(d) == {k: v for k, v in formula.items() if v}
    # brute force over all 2**n success patterns
    brute = Counter()
    for pattern in itertools.product((0, 1), repeat=n):
        brute[sum(pattern)] += math.prod((p if x else 1 - p for x in pattern), start=F(1))
    assert table(d) == {k: v for k, v in brute.items() if v}


@pytest.mark.parametrize("n, p", [(-1, "1/2"), (1.5, "1/2"), (True, "1/2"), (3, "3/2"), (3, -1)])
def test_binomial_errors(n, p):
    with pytest.raises(DistributionError):
        binomial(n, p)


def test_symbolic_binomial_sums_to_one():
    for n in range(6):
        d = binomial(n, p_sym)
        assert d.symbolic or n == 0
        assert sympy.expand(sum(d[k] for k in d)) == 1
        assert sympy.expand(d.mean() - n * p_sym) == 0
        assert sympy.expand(d.variance() - n * p_sym * (1 - p_sym)) == 0
        # at p = 1/3 it is the rational binomial
        assert {
            k: F(str(sympy.Rational(sympy.sympify(d[k]).subs(p_sym, sympy.Rational(1, 3)))))
            for k in d
        } == table(binomial(n, "1/3"))


def test_hypergeometric_vs_comb():
    for N, K, n in [(48, 6, 2), (10, 3, 4), (5, 5, 3), (5, 0, 2), (7, 2, 0), (6, 3, 6)]:
        d = hypergeometric(N, K, n)
        expected = {
            k: F(math.comb(K, k) * math.comb(N - K, n - k), math.comb(N, n))
            for k in range(n + 1)
            if k <= K and n - k <= N - K
        }
        assert table(d) == expected
    assert hypergeometric(48, 6, 2)[2] == F(15, 1128) == F(5, 376)  # C(6,2)/C(48,2)


def test_draw_vs_comb_and_enumeration():
    deck = {"r": 3, "g": 4, "b": 5}
    d = draw(deck, 4)
    total = math.comb(12, 4)
    for a, b, c in itertools.product(range(5), repeat=3):
        expected = (
            F(math.comb(3, a) * math.comb(4, b) * math.comb(5, c), total) if a + b + c == 4 else 0
        )
        assert d[(a, b, c)] == expected
    # brute force: every 3-card hand from labelled cards, equally likely
    cards = [kind for kind, count in {"x": 2, "y": 3, "z": 1}.items() for _ in range(count)]
    hands = list(itertools.combinations(range(len(cards)), 3))
    brute = Counter()
    for hand in hands:
        kinds = [cards[i] for i in hand]
        brute[(kinds.count("x"), kinds.count("y"), kinds.count("z"))] += F(1, len(hands))
    assert table(draw({"x": 2, "y": 3, "z": 1}, 3)) == dict(brute)
    assert draw({"chicken": 42, "wolf": 6}, 2)[(1, 1)] == F(42 * 6, math.comb(48, 2))


@pytest.mark.parametrize(
    "call",
    [
        lambda: draw({"a": 2, "b": 1}, 4),
        lambda: draw({"a": -1}, 0),
        lambda: draw({"a": 2}, -1),
        lambda: draw({"a": 2}, 1.0),
        lambda: hypergeometric(5, 6, 1),
        lambda: hypergeometric(5, 2, 6),
        lambda: hypergeometric(-1, 0, 0),
    ],
)
def test_draw_errors(call):
    with pytest.raises(DistributionError):
        call()


# -- transformations --------------------------------------------------------------------------


def test_map_merges_equal_images():
    assert table(die(6).map(lambda x: x % 2)) == {0: F(1, 2), 1: F(1, 2)}
    assert table(die(6).map(lambda x: min(x, 3))) == {1: F(1, 6), 2: F(1, 6), 3: F(2, 3)}
    assert table(die(6).map(lambda x: "same")) == {"same": F(1)}


def test_bind():
    # die(2) then that many d2: n=1 -> {1,2} each 1/2; n=2 -> {2:1/4,3:1/2,4:1/4}
    # P(2) = 1/2*1/2 + 1/2*1/4 = 3/8; P(1) = 1/4; P(3) = 1/4; P(4) = 1/8
    d = die(2).bind(lambda n: dice(n, 2))
    assert table(d) == {1: F(1, 4), 2: F(3, 8), 3: F(1, 4), 4: F(1, 8)}
    with pytest.raises(ModelError):
        die(2).bind(lambda n: {n: 1})


def test_condition():
    assert table(die(6).condition(lambda x: x > 4)) == {5: F(1, 2), 6: F(1, 2)}
    # 2d6 given a double: 6 equally likely doubles
    doubles = Dist({(a, b): F(1, 36) for a in range(1, 7) for b in range(1, 7)}).condition(
        lambda t: t[0] == t[1]
    )
    assert table(doubles) == {(k, k): F(1, 6) for k in range(1, 7)}
    with pytest.raises(DistributionError):
        die(6).condition(lambda x: x > 6)


def test_arithmetic():
    d = die(4)
    assert table(d + 3) == {k + 3: F(1, 4) for k in range(1, 5)}
    assert table(3 + d) == table(d + 3)
    assert table(d - 1) == {k - 1: F(1, 4) for k in range(1, 5)}
    assert table(10 - d) == {10 - k: F(1, 4) for k in range(1, 5)}
    assert table(-d) == {-k: F(1, 4) for k in range(1, 5)}
    assert table(d + F(1, 2)) == {k + F(1, 2): F(1, 4) for k in range(1, 5)}
    # d4 - d4 by enumeration: difference j has 4 - |j| ordered pairs
    assert table(d - d) == {j: F(4 - abs(j), 16) for j in range(-3, 4)}
    assert table(d + die(6)) == enumerate_sum(table(d), table(die(6)))
    assert sum([d, d, d]) == 3 @ d  # sum() starts from 0 + d


def test_n_at_d():
    d = Dist({0: "1/2", 1: "1/3", 5: "1/6"})
    for n in range(5):
        assert table(n @ d) == (enumerate_sum(*([table(d)] * n)) if n else {0: F(1)})
    assert 3 @ die(6) == dice(3, 6)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2", None])
def test_n_at_d_bad_n(bad):
    with pytest.raises(DistributionError):
        bad @ die(6)


def test_non_integer_outcomes_convolve():
    a = Dist({F(1, 2): "1/2", F(3, 2): "1/2"})
    b = Dist({F(1, 3): "1/3", 2: "2/3"})
    assert table(a + b) == enumerate_sum(table(a), table(b))


# -- summaries ------------------------------------------------------------------------------


def test_mean_variance():
    assert die(6).mean() == F(7, 2) and type(die(6).mean()) is F
    assert die(6).variance() == F(35, 12)  # (6^2 - 1)/12
    assert dice(3, 6).variance() == F(35, 4)  # independent sum: 3 * 35/12
    assert dice(2, 6).mean() == 7
    d = Dist({-2: "1/4", F(1, 2): "3/4"})
    assert d.mean() == F(-2, 4) + F(3, 8)  # -1/8
    assert d.variance() == F(4, 4) + F(3, 16) - F(1, 64)  # E[X^2] - E[X]^2 = 75/64
    with pytest.raises(InexactError):
        Dist({"a": 1}).mean()


def test_symbolic_mean_variance():
    b = bernoulli(p_sym)
    assert sympy.expand(b.mean() - p_sym) == 0
    assert sympy.expand(b.variance() - p_sym * (1 - p_sym)) == 0


def test_cdf_and_probability():
    d = die(6)
    assert [d.cdf(x) for x in range(7)] == [F(k, 6) for k in range(7)]
    assert d.cdf(F(7, 2)) == F(1, 2)
    assert d.cdf(100) == 1
    assert d.probability(lambda x: x >= 5) == F(1, 3)
    assert dice(2, 6).cdf(4) == F(6, 36)  # (1,1),(1,2),(2,1),(1,3),(2,2),(3,1)


def test_quantile():
    d = die(6)
    assert d.quantile("1/6") == 1
    assert d.quantile("1/2") == 3  # cdf(3) = 1/2 >= 1/2
    assert d.quantile(F(1, 2) + F(1, 10**9)) == 4
    assert d.quantile(1) == 6
    assert dice(2, 6).quantile("1/2") == 7  # cdf(6) = 15/36 < 1/2 <= cdf(7) = 21/36
    for bad in [0, "-1/2", "3/2"]:
        with pytest.raises(DistributionError):
            d.quantile(bad)
    assert d.quantile(0.5) == 3
    with pytest.raises(InexactError):
        d.quantile(0.3)
    with pytest.raises(DistributionError):
        bernoulli(p_sym).quantile("1/2")


def test_comparisons_with_scalars():
    d = die(6)
    assert table(d.lt(3)) == {True: F(2, 6), False: F(4, 6)}
    assert table(d.le(3)) == {True: F(1, 2), False: F(1, 2)}
    assert table(d.gt(4)) == {True: F(1, 3), False: F(2, 3)}
    assert table(d.ge(4)) == {True: F(1, 2), False: F(1, 2)}
    assert table(d.eq(6)) == {True: F(1, 6), False: F(5, 6)}
    assert table(d.ne(6)) == {True: F(5, 6), False: F(1, 6)}
    assert table(d.ge(1)) == {True: F(1)}
    assert (3 @ die(6)).ge(10)[True] == F(5, 8)  # 135 of 216 triples sum to >= 10
    assert sum(1 for t in itertools.product(range(1, 7), repeat=3) if sum(t) >= 10) == 135


@pytest.mark.parametrize("name", ["lt", "le", "gt", "ge", "eq", "ne"])
def test_comparisons_between_dists(name):
    import operator

    op = getattr(operator, name)
    a, b = die(6), dice(2, 4) - 2
    brute = Counter()
    for (x, px), (y, py) in itertools.product(table(a).items(), table(b).items()):
        brute[op(x, y)] += px * py
    assert table(getattr(a, name)(b)) == {k: v for k, v in brute.items() if v}


def test_double_equals_is_plain_equality():
    assert (die(6) == die(6)) is True
    assert (die(6) == die(4)) is False
    assert die(6).gt(die(6))[True] == F(15, 36)


def test_to_sympy():
    from sympy.stats import E, P, density, variance

    X = die(6).to_sympy("X")
    assert E(X) == sympy.Rational(7, 2)
    assert variance(X) == sympy.Rational(35, 12)
    assert P(sympy.Eq(X, 3)) == sympy.Rational(1, 6)
    assert density(X).dict == {k: sympy.Rational(1, 6) for k in range(1, 7)}
    Y = bernoulli(p_sym).to_sympy("Y")
    assert sympy.expand(E(Y) - p_sym) == 0


# -- symbolic distributions ---------------------------------------------------------------


def test_symbolic_operations_sum_to_one():
    b = bernoulli(p_sym)
    for d in [
        b + b,
        b + die(2),
        b - b,
        3 @ b,
        b.bind(lambda x: die(x + 1)),
        b.map(lambda x: x * 2),
    ]:
        assert d.symbolic
        assert sympy.expand(sum(d[k] for k in d)) == 1
    # (b + b)[1] = 2 p (1 - p)
    assert sympy.expand((b + b)[1] - 2 * p_sym * (1 - p_sym)) == 0


def test_symbolic_dist_that_becomes_rational_equals_the_rational_dist():
    d = bernoulli(p_sym).map(lambda x: 0)  # P(0) = p + (1 - p) = 1
    assert d == Dist({0: 1})
    assert not d.symbolic
    assert d.quantile(1) == 0


# -- hypothesis properties --------------------------------------------------------------------

small_ints = st.integers(min_value=-6, max_value=6)


@st.composite
def int_dists(draw, outcomes=small_ints, max_size=5):
    keys = draw(st.lists(outcomes, min_size=1, max_size=max_size, unique=True))
    weights = draw(st.lists(st.integers(1, 7), min_size=len(keys), max_size=len(keys)))
    total = sum(weights)
    return {k: F(w, total) for k, w in zip(keys, weights)}


def total(d):
    return sum((d[k] for k in d), F(0))


@settings(max_examples=80)
@given(int_dists(), int_dists(), st.integers(0, 3))
def test_total_probability_is_one_after_every_operation(ta, tb, n):
    a, b = Dist(ta), Dist(tb)
    results = [
        a + b,
        a - b,
        n @ a,
        a + 2,
        a.map(lambda x: x * x % 5),
        a.bind(lambda x: b if x % 2 else Dist({x: 1})),
        a.lt(b),
        a.eq(b),
    ]
    if any(x > 0 for x in ta):
        results.append(a.condition(lambda x: x > 0))
    for d in results:
        assert total(d) == 1
        assert all(d[k] > 0 for k in d)


@settings(max_examples=80)
@given(int_dists(), int_dists(), int_dists())
def test_convolution_commutes_and_associates(ta, tb, tc):
    a, b, c = Dist(ta), Dist(tb), Dist(tc)
    assert a + b == b + a
    assert (a + b) + c == a + (b + c)
    assert table((a + b) + c) == enumerate_sum(ta, tb, tc)


@settings(max_examples=80)
@given(int_dists(), int_dists())
def test_convolution_equals_brute_force(ta, tb):
    assert table(Dist(ta) + Dist(tb)) == enumerate_sum(ta, tb)
    assert table(Dist(ta) - Dist(tb)) == enumerate_sum(ta, {-k: v for k, v in tb.items()})


@settings(max_examples=50)
@given(int_dists(max_size=4), st.integers(0, 4))
def test_n_at_d_equals_brute_force(ta, n):
    expected = enumerate_sum(*([ta] * n)) if n else {0: F(1)}
    assert table(n @ Dist(ta)) == expected


wide_ints = st.one_of(small_ints, st.integers(-(10**4), 10**4))


@settings(max_examples=100)
@given(int_dists(outcomes=wide_ints, max_size=6), int_dists(outcomes=wide_ints, max_size=6))
def test_poly_convolution_equals_dict_convolution(ta, tb):
    a, b = Dist(ta), Dist(tb)
    expected = _dict_convolve(a, b)
    assert table(expected) == enumerate_sum(ta, tb)
    poly = _poly_convolve(a, b)  # None when the span is too wide for the polynomial path
    if poly is not None:
        assert poly == expected
    # force the polynomial path on sparse wide spans as well (spans up to ~4 * 10**4)
    with mock.patch.object(dist_module, "_POLY_SPAN_FACTOR", 10**7):
        forced = _poly_convolve(a, b)
    assert forced is not None and forced == expected
    assert a + b == expected


def test_poly_path_is_taken_for_compact_integer_dists():
    d = dice(10, 6)
    assert _poly_convolve(d, d) == _dict_convolve(d, d)
    assert _poly_convolve(Dist({F(1, 2): 1}), d) is None  # not integer outcomes
    assert _poly_convolve(Dist({True: 1}), d) is None  # bools are not ints here
    assert _poly_convolve(Dist({0: "1/2", 10**9: "1/2"}), Dist({0: "1/2", 1: "1/2"})) is None


@settings(max_examples=80)
@given(int_dists(), st.permutations(range(5)))
def test_equal_dists_hash_equal(ta, perm):
    a = Dist(ta)
    items = list(ta.items())
    b = Dist([items[i] for i in perm if i < len(items)])  # another insertion order
    c = Dist.from_weights({k: 6 * v for k, v in ta.items()})  # scaled weights
    d = a.map(lambda x: x)
    e = pickle.loads(pickle.dumps(a))
    for other in (b, c, d, e):
        assert other == a and hash(other) == hash(a)


@settings(max_examples=60)
@given(int_dists(), st.lists(st.integers(-3, 3), min_size=13, max_size=13))
def test_map_equals_brute_force(ta, images):
    f = lambda x: images[x + 6]
    brute = Counter()
    for x, p in ta.items():
        brute[f(x)] += p
    assert table(Dist(ta).map(f)) == dict(brute)


@settings(max_examples=60)
@given(int_dists(), int_dists(), int_dists())
def test_bind_equals_brute_force(ta, tb, tc):
    choose = lambda x: tb if x % 2 == 0 else tc
    brute = Counter()
    for x, p in ta.items():
        for y, q in choose(x).items():
            brute[y] += p * q
    assert table(Dist(ta).bind(lambda x: Dist(choose(x)))) == {k: v for k, v in brute.items() if v}


@settings(max_examples=60)
@given(int_dists(max_size=6), st.sets(small_ints, min_size=1))
def test_condition_equals_brute_force(ta, keep):
    mass = sum((p for x, p in ta.items() if x in keep), F(0))
    if mass == 0:
        with pytest.raises(DistributionError):
            Dist(ta).condition(lambda x: x in keep)
        return
    assert table(Dist(ta).condition(lambda x: x in keep)) == {
        x: p / mass for x, p in ta.items() if x in keep
    }


@settings(max_examples=60)
@given(int_dists(max_size=6))
def test_summaries_equal_brute_force(ta):
    d = Dist(ta)
    mean = sum((x * p for x, p in ta.items()), F(0))
    assert d.mean() == mean
    assert d.variance() == sum(((x - mean) ** 2 * p for x, p in ta.items()), F(0))
    for x in range(-7, 8):
        assert d.cdf(x) == sum((p for y, p in ta.items() if y <= x), F(0))
    for level in [F(1, 7), F(1, 2), F(2, 3), F(1)]:
        q = d.quantile(level)
        assert d.cdf(q) >= level
        assert all(d.cdf(y) < level for y in ta if y < q)


@pytest.mark.parametrize(
    "build, fragment",
    [
        (lambda: 10**12 @ ep.die(2), "would have 1,000,000,000,001 outcomes"),
        (lambda: ep.uniform(range(10**7)), "uniform() got more than 2,000,000 distinct outcomes"),
        (lambda: ep.die(10**9), "die(1000000000) would have 1,000,000,000 outcomes"),
        (lambda: ep.dice(10**6, 6), "would have 5,000,001 outcomes"),
        (lambda: ep.binomial(10**6, "1/3"), "digits of exact probabilities"),
        # outcomes 0..999,000 are fine; 999,001 probabilities of 3,000 digits are not
        (lambda: 1000 @ ep.uniform(range(1000)), "would need about 2,997,003,000 digits"),
    ],
)
def test_a_distribution_too_large_is_refused_up_front(build: Any, fragment: str) -> None:
    """Each of these aborted the process in GMP, ran out of memory or hung; now one
    ResourceError, at once."""
    start = time.process_time()  # CPU time: a busy machine does not inflate it
    with pytest.raises(ResourceError, match=re.escape(fragment)):
        build()
    assert time.process_time() - start < 5


def test_the_power_size_bound_holds_on_small_cases() -> None:
    """_power_size never undercounts the outcomes of n @ d (it is what the refusals use)."""
    from exactprob.engine.dist import _power_size

    for d in (
        ep.die(6),
        ep.Dist({0: "1/2", 10: "1/2"}),
        ep.uniform([F(1, 2), 3, F(7, 3)]),
    ):
        for n in range(2, 7):
            outcomes, _ = _power_size(n, d)
            assert len(n @ d) <= outcomes


@pytest.mark.parametrize(
    "given, fragment",
    [
        ("ab", "Dist() takes a mapping {outcome: probability} or (outcome, probability) pairs"),
        ([1, 2], "got list with the entry 1"),
        ([([1], "1/2"), ((1,), "1/2")], "the outcome [1] is not hashable (a list)"),
    ],
)
def test_a_dist_of_something_else_is_a_distribution_error(given: Any, fragment: str) -> None:
    with pytest.raises(DistributionError, match=re.escape(fragment)):
        Dist(given)


@pytest.mark.parametrize("other", ["3", None, [1], object()])
def test_arithmetic_with_a_foreign_operand_is_a_type_error(other: Any) -> None:
    """Not a shift of every outcome by a string or a list: Python's own TypeError, after
    the other operand was asked (NotImplemented)."""
    for operation in (operator.add, operator.sub):
        with pytest.raises(TypeError, match="unsupported operand"):
            operation(ep.die(6), other)
        with pytest.raises(TypeError, match="unsupported operand|can only concatenate"):
            operation(other, ep.die(6))  # str and list say it their own way


def test_a_foreign_operand_is_asked_for_the_sum() -> None:
    class Tally:
        def __radd__(self, other: Any) -> str:
            return "tally"

    assert ep.die(6) + Tally() == "tally"


def test_symbolic_outcomes_with_rational_chances_keep_exact_moments() -> None:
    """A die shifted by a symbol: the mean is (2x + 7)/2, not 1.0*x + 3.5 (a gmpy2
    rational meeting a sympy expression became a float)."""
    x = sympy.Symbol("x")
    shifted = ep.die(6) + x
    assert sympy.simplify(shifted.mean() - (x + sympy.Rational(7, 2))) == 0
    assert shifted.variance() == sympy.Rational(35, 12)
    assert not shifted.mean().atoms(sympy.Float)


@pytest.mark.parametrize(
    "misuse",
    [
        lambda: Dist(5),
        lambda: Dist(None),
        lambda: Dist({"a": 1}) + die(6),
        lambda: die(6) - Dist({"a": 1}),
        lambda: -Dist({"a": 1}),
        lambda: Dist({"a": 1}) + 1,
        lambda: 3 @ Dist({"a": 1}),
        lambda: Dist({"a": "1/2", "b": "1/2"}).cdf(1),
        lambda: uniform([[1]]),
    ],
    ids=["int", "None", "str + int", "int - str", "-str", "str + 1", "3 @ str", "cdf", "list"],
)
def test_a_misused_distribution_says_so_in_one_error(misuse):
    with pytest.raises(DistributionError):
        misuse()


def test_an_unhashable_object_is_simply_not_an_outcome():
    d = die(6)
    assert d[[1]] == 0 and [1] not in d and d.get([1], "none") == "none"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ep.draw({"a": 10**6, "b": 10**6, "c": 10**6}, 10**4), "more than 2,000,000"),
        (lambda: ep.draw({i: 1 for i in range(2000)}, 1000), "more than 2,000,000"),
        (lambda: ep.hypergeometric(10**9, 10**8, 10**5), "digits of exact probabilities"),
    ],
)
def test_a_draw_too_large_to_write_out_is_refused_before_any_work(make, message):
    with pytest.raises(ResourceError, match=message):
        make()


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: ep.hypergeometric(1_000_001, 1, 1_000_000), {0: F(1, 1_000_001)}),
        (lambda: ep.hypergeometric(10**400, 1, 1), {1: F(1, 10**400)}),
        (lambda: ep.draw({"a": 10**400, "b": 1}, 1), {(0, 1): F(1, 10**400 + 1)}),
    ],
)
def test_lopsided_and_huge_decks_are_drawn_at_once(make, expected):
    # a kind's count only where the later kinds can still fill the draw: no wasted tuples
    dist = make()
    assert all(dist[x] == p for x, p in expected.items())
    assert len(dist) == 2
