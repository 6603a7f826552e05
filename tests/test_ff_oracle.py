"""The Fighting Fantasy atlas against a brute-force oracle.

The oracle is the benchmark's baseline, ``fraction_atlas`` in ``benchmarks/bench_ff.py``:
a plain memoised ``Fraction`` recursion written from the rules alone (it imports nothing
from exactprob). It is first checked by hand-derivable values and by the paper's
closed form for fights without luck, then every value of
``exactprob.games.fighting_fantasy.atlas`` on a small grid must equal it exactly, and
every optimal strategy must agree wherever neither decision is an exact tie.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from fractions import Fraction
from math import ceil, comb
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_ff
from bench_ff import (
    BOTH,
    NONE,
    float_atlas,
    fraction_atlas,
    luck_success,
    round_probabilities,
    strict_strategies,
)

DELTAS = range(-3, 4)
MAX_STAMINA = 10
MAX_LUCK = 6


@pytest.fixture(scope="module")
def oracle() -> dict[tuple[int, int, int, int], Fraction]:
    return fraction_atlas(DELTAS, MAX_STAMINA, MAX_LUCK)


# ---------------------------------------------------------------------------------------
# The oracle itself
# ---------------------------------------------------------------------------------------
def test_bench_ff_doctests() -> None:
    assert doctest.testmod(bench_ff).failed == 0


def test_round_probabilities_by_hand() -> None:
    # Y + 10 has counts 1, 4, 10, 20, 35, 56, 80, 104, 125, 140, 146, 140, ... over 1296
    assert round_probabilities(0) == (Fraction(575, 1296), Fraction(575, 1296))
    assert round_probabilities(2) == (Fraction(861, 1296), Fraction(310, 1296))
    assert round_probabilities(-2) == (Fraction(310, 1296), Fraction(861, 1296))
    assert round_probabilities(11) == (Fraction(1), Fraction(0))


def test_luck_success_by_hand() -> None:
    ways = [0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36]  # of the 36 rolls of 2d6
    assert [luck_success(k) * 36 for k in range(13)] == ways


def test_hand_derived_values() -> None:
    v = fraction_atlas([0], 4, 12)
    half = Fraction(1, 2)
    # one non-draw round decides: luck cannot help (a won round kills, a lost one too)
    assert v[0, 1, 1, 0] == half
    assert all(v[0, 1, 1, luck] == half for luck in range(13))
    assert v[0, 2, 2, 0] == half
    # hero 1 vs opponent 4: two wins before a loss without luck; with luck 12 (always
    # lucky) one won round deals 4
    assert v[0, 1, 4, 0] == Fraction(1, 4)
    assert v[0, 1, 4, 12] == half
    # hero 2 vs opponent 2, luck 12: a lost round costs only 1, then it is 1 vs 2
    assert v[0, 2, 2, 12] == half + half * half
    # symmetric fights without luck
    assert all(v[0, s, s, 0] == half for s in range(1, 5))


def test_no_luck_matches_the_incomplete_beta_sum(oracle: dict) -> None:
    """Without luck: win sigma_o hits before taking sigma_h (the paper's Eq 5-8)."""
    for delta in DELTAS:
        p_win, p_lose = round_probabilities(delta)
        p, q = p_win / (p_win + p_lose), p_lose / (p_win + p_lose)
        for h in range(1, MAX_STAMINA + 1):
            for o in range(1, MAX_STAMINA + 1):
                sh, so = ceil(h / 2), ceil(o / 2)
                closed = sum(comb(so - 1 + j, j) * p**so * q**j for j in range(sh))
                assert oracle[delta, h, o, 0] == closed, (delta, h, o)


def test_oracle_monotone(oracle: dict) -> None:
    """More skill, stamina or luck never hurts; a tougher opponent never helps."""
    for (delta, h, o, luck), x in oracle.items():
        assert 0 < x < 1
        if delta + 1 in DELTAS:
            assert oracle[delta + 1, h, o, luck] >= x
        if h < MAX_STAMINA:
            assert oracle[delta, h + 1, o, luck] >= x
        if o < MAX_STAMINA:
            assert oracle[delta, h, o + 1, luck] <= x
        if luck < MAX_LUCK:
            assert oracle[delta, h, o, luck + 1] >= x


def test_strategies_by_hand() -> None:
    codes = strict_strategies(fraction_atlas([0], 4, 12))
    assert codes[0, 3, 4, 0] == NONE
    # hero 3 vs 4 with sure luck: a lucky hit kills, a lucky parry keeps 2 stamina
    assert codes[0, 3, 4, 12] == BOTH
    # hero 1 vs 1: any won round kills, any lost round is fatal: both decisions tie
    assert codes[0, 1, 1, 12] is None


def test_float_recursion_is_close(oracle: dict) -> None:
    approx = float_atlas(DELTAS, MAX_STAMINA, MAX_LUCK)
    assert max(abs(Fraction(approx[k]) - x) for k, x in oracle.items()) < Fraction(1, 10**12)


# ---------------------------------------------------------------------------------------
# exactprob against the oracle
# ---------------------------------------------------------------------------------------
def test_atlas_equals_oracle(oracle: dict) -> None:
    from exactprob.games.fighting_fantasy import atlas

    solved = atlas(deltas=DELTAS, max_stamina=MAX_STAMINA, max_luck=MAX_LUCK)
    differing = [k for k, x in oracle.items() if solved.value(*k) != x]
    assert not differing, f"{len(differing)} states differ, e.g. {differing[:5]}"
    for k in oracle:
        assert isinstance(solved.value(*k), Fraction)
    strict = {k: c for k, c in strict_strategies(oracle).items() if c is not None}
    assert strict  # most states have a strict optimum
    wrong = [k for k, c in strict.items() if solved.strategy(*k) != c]
    assert not wrong, f"{len(wrong)} strategies differ, e.g. {wrong[:5]}"


def test_quick_benchmark_runs(tmp_path: Path) -> None:
    report = tmp_path / "bench_ff.md"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_ff.py"), "--quick", "--out", str(report)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # exit 1 when a value differs
    assert "equal" in done.stdout
    assert report.read_text() == done.stdout
