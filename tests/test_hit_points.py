"""Hit-point dice: exact distributions against brute-force enumeration, the moment
formulas, icepool, a simulator on numpy's generator, and the defect of Rogue's generator.

The oracles here are written from the rules alone: every outcome of every die is listed
(``itertools.product``) and counted.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy
from cli_runner import run

from exactprob import die
from exactprob.engine.simulation import NumpyRandom, agrees_with
from exactprob.errors import ModelError
from exactprob.games.roguelike.hit_points.dice import (
    DiceSpec,
    DistributionSummary,
    compare,
    hit_points,
    parse_dice_spec,
    plot_distributions,
    simulate_hit_points,
)
from exactprob.games.roguelike.rng import RogueRandom

# ---------------------------------------------------------------------------------------
# Oracles: enumerate every roll
# ---------------------------------------------------------------------------------------
SMALL_CASES = [  # (count, sides, levels, base)
    (2, 3, 3, 12),  # 3 levels of 2d3: 3^6 = 729 rolls
    (1, 4, 2, 0),
    (1, 2, 4, 5),
    (3, 6, 1, 0),  # 3d6: 216 rolls
    (1, 20, 1, 0),
    (2, 1, 3, 7),  # d1: a constant
    (1, 6, 0, 12),  # no level gained
]


def all_totals(count: int, sides: int, levels: int, base: int) -> Counter[int]:
    """How many of the sides^(count*levels) equally likely rolls give each total."""
    return Counter(base + sum(roll) for roll in product(range(1, sides + 1), repeat=count * levels))


def as_dist(counts: Counter[int]) -> dict[int, Fraction]:
    total = sum(counts.values())
    return {x: Fraction(c, total) for x, c in counts.items()}


def oracle_quantile(counts: Counter[int], q: Fraction) -> int:
    """The smallest total whose share of rolls at or below it is at least q (exact
    integer comparison: count(<= x) >= q * all)."""
    total, running = sum(counts.values()), 0
    for x in sorted(counts):
        running += counts[x]
        if running * q.denominator >= q.numerator * total:
            return x
    raise AssertionError("unreachable")


@pytest.mark.parametrize("count, sides, levels, base", SMALL_CASES)
def test_distribution_equals_enumeration(count: int, sides: int, levels: int, base: int) -> None:
    dist = hit_points(f"{count}d{sides}", levels, base)
    assert {x: dist[x] for x in dist} == as_dist(all_totals(count, sides, levels, base))


@pytest.mark.parametrize("count, sides, levels, base", SMALL_CASES)
def test_summary_equals_enumeration(count: int, sides: int, levels: int, base: int) -> None:
    counts = all_totals(count, sides, levels, base)
    rolls = sum(counts.values())
    mean = Fraction(sum(x * c for x, c in counts.items()), rolls)
    variance = Fraction(sum((x - mean) ** 2 * c for x, c in counts.items()), rolls)
    summary = DistributionSummary.of(hit_points(f"{count}d{sides}", levels, base))
    assert (summary.mean, summary.variance) == (mean, variance)
    assert summary.minimum == min(counts) and summary.maximum == max(counts)
    expected = tuple(
        (q, oracle_quantile(counts, q)) for q in map(Fraction, ("0", "1/4", "1/2", "3/4", "1"))
    )
    assert summary.quantiles == expected
    top = max(counts.values())
    assert summary.modes == tuple(sorted(x for x, c in counts.items() if c == top))
    assert summary.mode_probability == Fraction(top, rolls)
    # the standard deviation is the exact non-negative square root of the variance
    assert summary.sd**2 == sympy.Rational(variance.numerator, variance.denominator)
    assert summary.sd >= 0


def test_summary_json_is_exact_strings() -> None:
    payload = DistributionSummary.of(hit_points("3d6", 1, 0)).to_json()
    # 3d6 by hand: mean 3 * 7/2, variance 3 * 35/12, modes 10 and 11 with 27/216 each
    assert payload["mean"] == "21/2" and payload["variance"] == "35/4"
    assert payload["sd"] == "sqrt(35)/2" and payload["sd_decimal"].startswith("2.95803989")
    assert payload["modes"] == [10, 11] and payload["mode_probability"] == "1/8"
    assert set(payload["quantiles"]) == {"0", "1/4", "1/2", "3/4", "1"}


def test_a_distribution_per_level_is_accepted() -> None:
    half_d6 = die(6).map(lambda x: x // 2)  # 0, 1, 1, 2, 2, 3
    counts = Counter(5 + sum(x // 2 for x in roll) for roll in product(range(1, 7), repeat=3))
    dist = hit_points(half_d6, 3, 5)
    assert {x: dist[x] for x in dist} == as_dist(counts)


# ---------------------------------------------------------------------------------------
# The moment formulas (proofs/proof_hp_moments.py): E = b + LN(S+1)/2, Var = LN(S^2-1)/12
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec, levels, base, mean, variance",
    [
        ("1d10", 8, 12, 56, 66),  # 12 + 8 * 11/2; 8 * 99/12
        ("5d2", 8, 12, 72, 10),  # 12 + 40 * 3/2; 40 * 3/12
        ("3d6", 1, 0, Fraction(21, 2), Fraction(35, 4)),  # 3 * 7/2; 3 * 35/12
        ("1d20", 1, 0, Fraction(21, 2), Fraction(133, 4)),  # 21/2; 399/12
        ("100d10", 1, 12, 562, 825),  # 12 + 100 * 11/2; 100 * 99/12
        ("1d2", 500, 12, 762, 125),  # 12 + 500 * 3/2; 500 * 3/12
    ],
)
def test_moments_match_the_formulas(
    spec: str, levels: int, base: int, mean: Fraction, variance: Fraction
) -> None:
    summary = DistributionSummary.of(hit_points(spec, levels, base))
    assert (summary.mean, summary.variance) == (mean, variance)


# ---------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------
def oracle_relation(a: Counter[int], b: Counter[int]) -> tuple[Fraction, Fraction, Fraction]:
    """P(A > B), P(A = B), P(A < B) by counting every pair of rolls."""
    pairs: Counter[int] = Counter()
    for (x, cx), (y, cy) in product(a.items(), b.items()):
        pairs[(x > y) - (x < y)] += cx * cy
    total = sum(pairs.values())
    return Fraction(pairs[1], total), Fraction(pairs[0], total), Fraction(pairs[-1], total)


def test_comparison_equals_enumeration_of_pairs() -> None:
    expected = oracle_relation(all_totals(1, 3, 3, 1), all_totals(2, 4, 1, 0))  # 1 + 3d3, 2d4
    result = compare(hit_points("1d3", 3, 1), hit_points("2d4", 1, 0))
    assert (result.p_greater, result.p_equal, result.p_less) == expected


def test_3d6_against_1d20_same_mean_different_spread() -> None:
    expected = oracle_relation(all_totals(3, 6, 1, 0), all_totals(1, 20, 1, 0))
    result = compare(hit_points("3d6", 1, 0), hit_points("1d20", 1, 0))
    assert result.same_mean
    assert (result.p_greater, result.p_equal, result.p_less) == expected
    # sd ratio by hand: sqrt((35/4) / (133/4)) = sqrt(5/19) = sqrt(95)/19
    assert result.sd_ratio == sympy.sqrt(95) / 19
    assert result.to_json()["sd_ratio"] == "sqrt(95)/19"


def test_rogue_levels_comparison_spread_and_total_probability() -> None:
    result = compare(hit_points("1d10", 8, 12), hit_points("5d2", 8, 12))
    assert not result.same_mean  # 56 against 72
    assert result.p_greater + result.p_equal + result.p_less == 1
    assert result.sd_ratio is not None
    assert result.sd_ratio**2 == sympy.Rational(66, 10)  # variances 66 and 10


def test_constant_second_total_has_no_spread_ratio() -> None:
    result = compare(hit_points("1d6", 1, 0), hit_points("1d1", 3, 0))  # B = 3 surely
    assert result.sd_ratio is None and result.to_json()["sd_ratio"] is None
    assert result.p_greater == Fraction(3, 6)  # rolls 4, 5, 6


# ---------------------------------------------------------------------------------------
# icepool, an independent dice engine
# ---------------------------------------------------------------------------------------
def icepool_total(count: int, sides: int, base: int) -> Any:
    icepool = pytest.importorskip("icepool")
    return base + count @ icepool.Die(range(1, sides + 1))


def icepool_as_fractions(die_: Any) -> dict[int, Fraction]:
    den = die_.denominator()
    return {int(k): Fraction(q, den) for k, q in die_.items() if q}


@pytest.mark.parametrize(
    "spec, levels, base, dice_count, sides",
    [
        ("1d10", 8, 12, 8, 10),
        ("5d2", 8, 12, 40, 2),
        ("3d6", 1, 0, 3, 6),
        ("1d20", 1, 0, 1, 20),
        ("1d10", 100, 12, 100, 10),
        ("1d2", 500, 12, 500, 2),
    ],
)
def test_distribution_equals_icepool(
    spec: str, levels: int, base: int, dice_count: int, sides: int
) -> None:
    theirs = icepool_total(dice_count, sides, base)
    ours = hit_points(spec, levels, base)
    assert {x: ours[x] for x in ours} == icepool_as_fractions(theirs)


def test_rogue_comparison_equals_icepool() -> None:
    a, b = icepool_total(8, 10, 12), icepool_total(40, 2, 12)
    result = compare(hit_points("1d10", 8, 12), hit_points("5d2", 8, 12))
    assert result.p_greater == (a > b).probability(True)
    assert result.p_equal == (a == b).probability(True)
    assert result.p_less == (a < b).probability(True)


# ---------------------------------------------------------------------------------------
# The simulator
# ---------------------------------------------------------------------------------------
class CountingSource:
    """Draws 0, 1, 2, ... modulo n: shows the order in which a simulator consumes draws."""

    name = "counting"

    def __init__(self) -> None:
        self.next = 0

    def integers(self, n: int, size: int) -> np.ndarray:
        values = np.arange(self.next, self.next + size, dtype=np.int64)
        self.next += size
        return values % n

    def random(self, size: int) -> np.ndarray:  # pragma: no cover - not used here
        raise NotImplementedError


def test_simulator_draws_row_major_across_chunks() -> None:
    runs, count, sides, levels = 5000, 5, 7, 8  # 200,000 draws: several chunks
    totals = simulate_hit_points(CountingSource(), f"{count}d{sides}", levels, 3, runs).totals
    draws = np.arange(runs * count * levels, dtype=np.int64) % sides + 1
    assert np.array_equal(totals, 3 + draws.reshape(runs, count * levels).sum(axis=1))


def test_simulator_agrees_with_exact_on_numpy() -> None:
    n = 40_000
    totals = simulate_hit_points(NumpyRandom(2018), "1d10", 8, 12, n).totals
    summary = DistributionSummary.of(hit_points("1d10", 8, 12))
    dist = hit_points("1d10", 8, 12)
    for _, x in summary.quantiles:
        assert agrees_with(dist.cdf(x), int((totals <= x).sum()), n, z=5)
    assert agrees_with(dist[56], int((totals == 56).sum()), n, z=5)
    # the sample mean within 5 standard errors of 56 (sd sqrt(66), from the formula)
    assert abs(totals.mean() - 56) <= 5 * math.sqrt(66 / n)
    heroes = simulate_hit_points(NumpyRandom(2018), "1d10", 8, 12, n)
    assert heroes.agrees_with(56) and not heroes.agrees_with(57)


def test_simulator_agrees_outcome_by_outcome_on_a_small_case() -> None:
    n = 20_000
    totals = simulate_hit_points(NumpyRandom(7), "2d3", 3, 12, n).totals
    exact = as_dist(all_totals(2, 3, 3, 12))
    assert set(np.unique(totals).tolist()) <= set(exact)
    for x, p in exact.items():
        assert agrees_with(p, int((totals == x).sum()), n, z=5), x


# ---------------------------------------------------------------------------------------
# Rogue's generator: 40 draws of rnd(2) always hold exactly 20 ones
# ---------------------------------------------------------------------------------------
SEEDS = [0, 1, 12, -7, 2**31 - 1, -(2**31), 20180401]


def test_low_bit_of_rn_has_period_four_with_two_ones() -> None:
    # RN & 1 is bit 1 of the seed; mod 4 the step is s -> s + 1 (11109 = 13849 = 1 mod 4),
    # so bit 1 runs through 0, 0, 1, 1 in some rotation: two ones in any 4 consecutive draws
    assert 11109 % 4 == 1 and 13849 % 4 == 1
    for seed in SEEDS:
        bits = RogueRandom(seed).rn_block(4000) & 1
        assert np.array_equal(bits[4:], bits[:-4])
        assert set(np.convolve(bits, np.ones(4, dtype=np.int64), "valid").tolist()) == {2}


@pytest.mark.parametrize("seed", SEEDS)
def test_rogue_generator_makes_40d2_constant(seed: int) -> None:
    totals = simulate_hit_points(RogueRandom(seed), "5d2", 8, 12, 2_000).totals
    assert set(totals.tolist()) == {72}  # 12 + 40 + 20 every time
    # whereas exactly, 12 + 40d2 = 72 only when 20 of the 40 dice show 2
    assert hit_points("5d2", 8, 12)[72] == Fraction(math.comb(40, 20), 2**40)


@pytest.mark.parametrize("seed", SEEDS)
def test_rogue_generator_makes_8d10_even(seed: int) -> None:
    # rnd(10) has the parity of RN (10 is even), so 8 draws hold exactly 4 odd values:
    # the 8 dice (rnd + 1) sum to an even number, and so does 12 + 8d10
    totals = simulate_hit_points(RogueRandom(seed), "1d10", 8, 12, 2_000).totals
    assert (totals % 2 == 0).all()
    # exactly, the parity of the last die is even or odd with probability 1/2 each,
    # whatever the others show
    assert hit_points("1d10", 8, 12).probability(lambda x: x % 2 == 1) == Fraction(1, 2)


def test_rogue_generator_repeats_its_heroes_after_4096() -> None:
    # RN reads only the seed mod 2^15, whose period is 2^15 (11109 = 1 mod 4 and 13849 is
    # odd: a full-period LCG mod 2^15), so with 8 draws per hero the heroes repeat after 4096
    totals = simulate_hit_points(RogueRandom(5), "1d10", 8, 12, 3 * 4096).totals
    assert np.array_equal(totals[:4096], totals[4096:8192])
    assert np.array_equal(totals[:4096], totals[8192:])
    assert not np.array_equal(totals[:2048], totals[2048:4096])


def test_numpy_generator_varies_40d2() -> None:
    totals = simulate_hit_points(NumpyRandom(1), "5d2", 8, 12, 2_000).totals
    assert len(set(totals.tolist())) > 10


# ---------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, fragment",
    [
        ("2d6+1", "dice must be written NdS"),
        ("d", "dice must be written NdS"),
        ("1.5d6", "dice must be written NdS"),
        ("0d6", "the number of dice must be a whole number from 1 to 10000, got 0"),
        ("1d0", "the number of sides must be a whole number from 1 to 10000, got 0"),
        ("9" * 30 + "d6", "dice must be written NdS"),
    ],
)
def test_bad_dice_text(text: str, fragment: str) -> None:
    with pytest.raises(ModelError, match=fragment):
        parse_dice_spec(text)


def test_parse_and_spec() -> None:
    assert parse_dice_spec("d20") == DiceSpec(1, 20) and str(parse_dice_spec(" 5d2")) == "5d2"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("1d10", -1, 12), "levels must be a whole number from 0 to 10000"),
        (("1d10", 8, -3), "base must be a whole number from 0"),
        (("1d10", 2.0, 12), "levels must be a whole number"),
        (("100d10", 101, 12), "roll 10,100 dice; at most 10,000"),
        (("10d100", 100, 0), "too large to compute exactly"),
    ],
)
def test_bad_sizes(args: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(ModelError, match=fragment):
        hit_points(*args)  # type: ignore[arg-type]


def test_simulator_checks_runs() -> None:
    with pytest.raises(ModelError, match="runs must be a whole number from 1"):
        simulate_hit_points(NumpyRandom(1), "1d6", 1, 0, 0)


# ---------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------
def test_plot_draws_one_bar_per_total() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    axes = plot_distributions(
        [("12 + 8d10", hit_points("1d10", 8, 12)), ("3d6", hit_points("3d6", 1, 0))]
    )
    try:
        bars = [len(ax.containers[0]) for ax in axes]
        assert bars == [73, 16]  # one bar per total: 20..92 and 3..18
        assert axes[0].get_title().startswith("12 + 8d10: mean 56.0, sd 8.12")
    finally:
        plt.close(axes[0].figure)
    with pytest.raises(ModelError):
        plot_distributions([])


# ---------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------
def test_cli_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "hp", "--dice", "1d10", "--levels", "8", "--base", "12", "--json"
    )
    assert status == 0 and err == ""
    payload = json.loads(out)
    assert payload["total"] == "12 + 8d10" and payload["mean"] == "56"
    assert payload["mean_decimal"] == "56.000000000000" and payload["variance"] == "66"
    assert payload["sd"] == "sqrt(66)" and payload["sd_decimal"] == "8.124038404636"
    assert payload["min"] == 20 and payload["max"] == 92
    assert "distribution" not in payload and "compare" not in payload


def test_cli_full_distribution_and_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "hp",
        "--dice",
        "3d6",
        "--levels",
        "1",
        "--base",
        "0",
        "--compare",
        "1d20",
        "--full",
        "--json",
    )
    assert status == 0
    payload = json.loads(out)
    table = {row["outcome"]: Fraction(row["probability"]) for row in payload["distribution"]}
    assert table == as_dist(all_totals(3, 6, 1, 0))
    assert payload["compare"]["total"] == "1d20" and len(payload["compare"]["distribution"]) == 20
    assert payload["comparison"]["same_mean"] is True
    greater, equal, _ = oracle_relation(all_totals(3, 6, 1, 0), all_totals(1, 20, 1, 0))
    assert Fraction(payload["comparison"]["p_a_greater"]) == greater
    assert Fraction(payload["comparison"]["p_equal"]) == equal


def test_cli_text_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    figure = tmp_path / "hp.png"
    status, out, _ = run(capsys, "hp", "--compare", "5d2", "--plot", str(figure))
    assert status == 0
    assert "12 + 8d10 (1d10 per level for 8 levels, from 12)" in out
    assert "12 + 40d2 (5d2 per level for 8 levels, from 12)" in out
    assert "sd(A) / sd(B)  2.5690465157 = sqrt(165)/5" in out  # sqrt(66/10)
    assert figure.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir()] == ["hp.png"]  # no temporary left


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--dice", "2x6"], "--dice: dice must be written NdS"),
        (["--compare", "0d2"], "--compare: the number of dice must be a whole number from 1"),
        (["--levels", "-1"], "--levels must be a whole number from 0 to 10000"),
        (["--levels", "eight"], "--levels must be a whole number"),
        (["--base", "1e3"], "--base must be a whole number"),
        (["--dice", "100d10", "--levels", "101"], "at most 10,000 are allowed"),
        (["--dice", "100d100", "--levels", "10"], "too large to compute exactly"),
        (["--plot", "x.jpg"], "--plot: the file name must end in .png, .svg, .pdf"),
        (["--plot", "/no/such/dir/x.png"], "--plot: directory '/no/such/dir' does not exist"),
    ],
)
def test_cli_bad_input_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status, out, err = run(capsys, "hp", *argv)
    assert status == 2 and out == ""
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_console_script_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "exactprob.cli", "hp", "--dice", "1d0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        "exactprob hp: error: --dice: the number of sides must be a whole number from 1 to "
        "10000, got 0"
    )
