"""Rogue 3.6.3's generator: bit-for-bit against the C macro and a ctypes oracle, and the exact
analysis of :mod:`exactprob.games.roguelike.generator.cycle` against brute force over a whole cycle.

The oracles here are written from the C source's rules, not from the modules under test:
``RN`` is ``((seed = seed*11109+13849) & 0x7fff) >> 1`` on a wrapping 32-bit ``int``, and
``rnd(n)`` is ``n == 0 ? 0 : abs(RN) % n``.
"""

from __future__ import annotations

import ctypes
import json
import shutil
import subprocess
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run

from exactprob.engine.dist import uniform
from exactprob.engine.simulation import NumpyRandom, agrees_with
from exactprob.errors import ModelError
from exactprob.games.roguelike.generator import cycle as gen
from exactprob.games.roguelike.rng import RogueRandom

SEEDS = (0, 1, -1, 12345, -98765, 2**31 - 1, -(2**31), 314159265)
RANGES = (-1, 0, 1, 2, 3, 6, 10, 20, 100, 16384, 2**31 - 1)
"""Draw kinds cycled through by the sequence tests: -1 is a bare ``RN``, else ``rnd(n)``."""
DRAWS = 600
CYCLE = 2**15

C_SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>

static int seed;
#define RN (((seed = seed*11109+13849) & 0x7fff) >> 1)

static int rnd(int range) { return range == 0 ? 0 : abs(RN) % range; }

int main(int argc, char **argv) {
    seed = (int) strtol(argv[1], NULL, 10);
    int count = atoi(argv[2]), kinds = argc - 3;
    for (int i = 0; i < count; i++) {
        int range = (int) strtol(argv[3 + i % kinds], NULL, 10);
        printf("%d\n", range < 0 ? RN : rnd(range));
    }
    printf("%d\n", seed);
    return 0;
}
"""


# -- oracles ---------------------------------------------------------------------------------
class CtypesRogue:
    """Rogue's generator on a ``ctypes.c_int32``, which wraps as the C ``int`` does."""

    def __init__(self, seed: int) -> None:
        self.seed = ctypes.c_int32(seed)

    def rn(self) -> int:
        self.seed = ctypes.c_int32(self.seed.value * 11109 + 13849)
        return (self.seed.value & 0x7FFF) >> 1

    def draw(self, kind: int) -> int:
        if kind < 0:
            return self.rn()
        return 0 if kind == 0 else abs(self.rn()) % kind


def oracle_sequence(seed: int, count: int, kinds: tuple[int, ...]) -> tuple[list[int], int]:
    rogue = CtypesRogue(seed)
    return [rogue.draw(kinds[i % len(kinds)]) for i in range(count)], rogue.seed.value


@pytest.fixture(scope="module")
def c_rogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rogue's macro compiled with gcc -fwrapv (signed overflow wraps, as Rogue assumed)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not available")
    folder = tmp_path_factory.mktemp("rogue_c")
    (folder / "rogue.c").write_text(C_SOURCE)
    binary = folder / "rogue"
    subprocess.run([gcc, "-O2", "-fwrapv", "-o", str(binary), str(folder / "rogue.c")], check=True)
    return binary


def c_sequence(
    binary: Path, seed: int, count: int, kinds: tuple[int, ...]
) -> tuple[list[int], int]:
    args = [str(binary), str(seed), str(count), *map(str, kinds)]
    numbers = [
        int(line)
        for line in subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()
    ]
    return numbers[:-1], numbers[-1]


def scalar_sequence(seed: int, count: int, kinds: tuple[int, ...]) -> tuple[list[int], int]:
    rogue = RogueRandom(seed)
    draws = [
        rogue.rn() if kinds[i % len(kinds)] < 0 else rogue.rnd(kinds[i % len(kinds)])
        for i in range(count)
    ]
    return draws, rogue.seed


# -- (1) bit for bit -------------------------------------------------------------------------
def test_ctypes_oracle_wraps_like_c() -> None:
    # by hand: (2^31 - 1) * 11109 = 11109 * 2^31 - 11109 = 2^31 - 11109 (mod 2^32, 11109 odd);
    # + 13849 gives 2^31 + 2740, which as a C int is -2^31 + 2740 = -2147480908; its low 15
    # bits are 2740, and 2740 >> 1 = 1370
    rogue = CtypesRogue(2**31 - 1)
    assert rogue.rn() == 1370 and rogue.seed.value == -2147480908
    # -1 * 11109 + 13849 = 2740
    assert CtypesRogue(-1).rn() == 1370


@pytest.mark.parametrize("seed", SEEDS)
def test_scalar_matches_c_and_ctypes(c_rogue: Path, seed: int) -> None:
    expected = c_sequence(c_rogue, seed, DRAWS, RANGES)
    assert oracle_sequence(seed, DRAWS, RANGES) == expected
    assert scalar_sequence(seed, DRAWS, RANGES) == expected


@pytest.mark.parametrize("seed", SEEDS)
def test_blocks_match_c(c_rogue: Path, seed: int) -> None:
    rn_only, final = c_sequence(c_rogue, seed, DRAWS, (-1,))
    assert (rn_only, final) == oracle_sequence(seed, DRAWS, (-1,))
    rogue = RogueRandom(seed)
    assert rogue.rn_block(DRAWS).tolist() == rn_only
    assert rogue.seed == final
    for n in (1, 2, 6, 100, 2**31 - 1):
        assert (
            RogueRandom(seed).integers(n, DRAWS).tolist()
            == c_sequence(c_rogue, seed, DRAWS, (n,))[0]
        )
    fractions = RogueRandom(seed).random(DRAWS)
    assert fractions.tolist() == [value / 2**14 for value in rn_only]


@pytest.mark.parametrize("seed", SEEDS)
def test_state_after_block_equals_scalar_steps(seed: int) -> None:
    """Blocks and scalar draws interleave: the stream is one stream either way."""
    mixed = RogueRandom(seed)
    drawn = mixed.rn_block(5).tolist() + [mixed.rn() for _ in range(3)] + mixed.rn_block(7).tolist()
    scalar = RogueRandom(seed)
    assert drawn == [scalar.rn() for _ in range(15)]
    assert mixed.seed == scalar.seed == oracle_sequence(seed, 15, (-1,))[1]
    assert RogueRandom(seed).rn_block(0).tolist() == []


# -- (2) the analysis against brute force over a whole cycle ---------------------------------
@pytest.fixture(scope="module")
def walk() -> tuple[list[int], list[int]]:
    """Two laps of the scalar generator from seed 0: the seeds and the RN values."""
    rogue = RogueRandom(0)
    outputs = [rogue.rn() for _ in range(2 * CYCLE)]
    seeds = []
    rogue = RogueRandom(0)
    for _ in range(CYCLE):
        rogue.rn()
        seeds.append(rogue.seed)
    return seeds, outputs


def least_period(values: list[int] | np.ndarray) -> int:
    """The least period of a sequence known to repeat after ``len(values)`` steps: the least
    divisor p of that length with values[t + p] == values[t] all round."""
    array = np.asarray(values)
    length = len(array)
    return min(
        p for p in range(1, length + 1) if length % p == 0 and (np.roll(array, -p) == array).all()
    )


def test_cycle_is_the_scalar_walk(walk: tuple[list[int], list[int]]) -> None:
    seeds, outputs = walk
    assert gen.rn_cycle().tolist() == outputs[:CYCLE] == outputs[CYCLE:]
    assert sorted(Counter(outputs[:CYCLE]).values()) == [2] * 2**14  # 0..16383 twice each
    assert set(outputs) == set(range(2**14))
    low = [s & 0x7FFF for s in seeds]  # the seed's low 15 bits: every value once per lap
    assert sorted(low) == list(range(CYCLE))
    with pytest.raises(ValueError):
        gen.rn_cycle()[0] = 1  # the cached cycle is read-only


def test_periods_by_iteration(walk: tuple[list[int], list[int]]) -> None:
    seeds, outputs = walk
    lap = outputs[:CYCLE]
    assert least_period(lap) == gen.rn_period() == CYCLE
    for j in range(14):
        assert least_period([(v >> j) & 1 for v in lap]) == gen.rn_bit_period(j) == 2 ** (j + 2)
    for i in range(15):
        assert least_period([(s >> i) & 1 for s in seeds]) == gen.seed_bit_period(i) == 2 ** (i + 1)
    for n in [*range(1, 70), 128, 1024, 8192, 2**14, 2**15, 10**6]:
        assert least_period([v % n for v in lap]) == gen.rnd_period(n), n


def test_low_bits_periods_by_iteration() -> None:
    for bits in range(1, 17):
        modulus, state, steps = 2**bits, 0, 0
        while True:
            state, steps = (state * 11109 + 13849) % modulus, steps + 1
            if state == 0:
                break
        assert steps == gen.low_bits_period(bits) == modulus


def test_seed_period_by_jumping() -> None:
    """The affine step composed with itself 2^31 and 2^32 times (repeated squaring): the orbit
    of seed 0 closes after 2^32 steps and not after 2^31, so it holds every 32-bit value."""
    multiplier, increment = 11109, 13849
    jumps = {}
    for k in range(1, 33):
        increment = (multiplier * increment + increment) % 2**32
        multiplier = multiplier * multiplier % 2**32
        jumps[k] = (multiplier, increment)  # 2^k steps: x -> multiplier x + increment
    assert jumps[32] == (1, 0)
    assert jumps[31][1] != 0
    assert gen.seed_period() == 2**32


def test_hull_dobell_against_brute_force() -> None:
    for modulus in range(1, 33):
        for a in range(modulus):
            for c in range(modulus):
                state, steps = c % modulus, 1
                while state != 0 and steps <= modulus:
                    state, steps = (a * state + c) % modulus, steps + 1
                assert gen.hull_dobell(a, c, modulus) == (steps == modulus), (a, c, modulus)
    with pytest.raises(ModelError, match="Hull-Dobell"):
        gen.low_bits_period(4, multiplier=3)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 10, 20, 100, 1000, 2**14, 2**14 + 1, 2**31 - 1])
def test_rnd_distribution_and_bias(walk: tuple[list[int], list[int]], n: int) -> None:
    counts = Counter(v % n for v in walk[1][:CYCLE])
    probabilities = {x: Fraction(c, CYCLE) for x, c in counts.items()}
    assert dict(gen.rnd_distribution(n)) == probabilities
    top = max(probabilities.values())
    bottom = min(probabilities.values()) if len(probabilities) == n else Fraction(0)
    at_top = sorted(x for x, p in probabilities.items() if p == top)
    missing = n - len(probabilities)  # residues that never occur, each 1/n short
    distance = (
        sum(abs(p - Fraction(1, n)) for p in probabilities.values()) + Fraction(missing, n)
    ) / 2
    bias = gen.rnd_bias(n)
    assert (bias.max_probability, bias.min_probability, bias.total_variation) == (
        top,
        bottom,
        distance,
    )
    assert at_top == list(range(bias.residues_at_max))
    assert bias.exactly_uniform == (n & (n - 1) == 0 and n <= 2**14)


def test_rnd_bias_by_hand() -> None:
    # 2^14 = 3 * 5461 + 1: residue 0 has 5462 of the 16384 values, 1 and 2 have 5461
    assert gen.rnd_distribution(3)[0] == Fraction(5462, 16384)
    # 2^14 = 100 * 163 + 84: residues 0..83 have 164/16384, 84..99 have 163/16384
    bias = gen.rnd_bias(100)
    assert (bias.max_probability, bias.min_probability) == (
        Fraction(164, 16384),
        Fraction(163, 16384),
    )
    assert bias.residues_at_max == 84


@pytest.mark.parametrize("n", [None, 2, 3, 6, 100])
def test_serial_correlation(walk: tuple[list[int], list[int]], n: int | None) -> None:
    values = [v if n is None else v % n for v in walk[1][:CYCLE]]
    mean = Fraction(sum(values), CYCLE)
    variance = Fraction(sum(v * v for v in values), CYCLE) - mean**2
    for lag in (0, 1, 2, 3, 5, 100):
        products = sum(values[t] * values[(t + lag) % CYCLE] for t in range(CYCLE))
        covariance = Fraction(products, CYCLE) - mean**2
        assert gen.serial_covariance(lag, n) == covariance
        assert gen.serial_correlation(lag, n) == covariance / variance


def test_serial_correlation_of_coin_flips_by_hand() -> None:
    # flips run 0,0,1,1 in rotation: the flip two draws later is the other side (-1),
    # four draws later the same (+1); one or three draws later the four pairs are equally
    # often (0,0),(0,1),(1,1),(1,0): no correlation
    assert [gen.serial_correlation(lag, 2) for lag in (1, 2, 3, 4)] == [0, -1, 0, 1]
    assert gen.serial_correlation(1, 1) is None


@pytest.mark.parametrize(
    ("n", "lag"), [(2, 1), (2, 2), (3, 1), (4, 1), (8, 1), (12, 1), (100, 1), (6, 7)]
)
def test_pairs(walk: tuple[list[int], list[int]], n: int, lag: int) -> None:
    lap = walk[1][:CYCLE]
    seen = Counter((lap[t] % n, lap[(t + lag) % CYCLE] % n) for t in range(CYCLE))
    assert dict(gen.pair_distribution(n, lag)) == {
        pair: Fraction(c, CYCLE) for pair, c in seen.items()
    }
    never = [(x, y) for x in range(n) for y in range(n) if (x, y) not in seen]
    assert gen.impossible_pairs(n, lag) == never


def test_impossible_pairs_by_hand() -> None:
    # 4 | 100: rnd(100) = RN (mod 4), and the residue pair mod 4 follows rnd(4), which has
    # period 8, so only 8 of the 16 residue pairs occur: half of the 100^2 pairs never do
    assert len(gen.impossible_pairs(100)) == 100**2 // 2
    # rnd(8) has period 16: 16 of the 64 pairs occur
    assert len(gen.impossible_pairs(8)) == 64 - 16
    assert gen.impossible_pairs(2, lag=2) == [(0, 0), (1, 1)]


def window_sums(lap: list[int], n: int, m: int, stride: int) -> Counter[int]:
    """Direct summation over every start t of sum_{i<m} rnd(n) at position t + i*stride; for
    stride 1 by prefix sums over the sequence written out to length CYCLE + m."""
    values = np.array(lap, dtype=np.int64) % n
    if stride == 1:
        written = np.resize(values, CYCLE + m)  # np.resize repeats the cycle
        prefix = np.concatenate(([0], np.cumsum(written)))
        return Counter((prefix[m : m + CYCLE] - prefix[:CYCLE]).tolist())
    starts = np.arange(CYCLE)
    totals = np.zeros(CYCLE, dtype=np.int64)
    for i in range(m):
        totals += values[(starts + i * stride) % CYCLE]
    return Counter(totals.tolist())


@pytest.mark.parametrize(
    ("n", "m", "stride"),
    [
        (2, 40, 1),
        (2, 6, 1),
        (2, 5, 1),
        (3, 7, 1),
        (6, 100, 1),
        (2, 8, 4),
        (2, 40, 2),
        (10, 33, 3),
        (7, 50, 6),
        (100, 3 * CYCLE + 5, 1),
        (5, 21, 2**12),
        (2**31 - 1, 9, 1),
        (5, 3, CYCLE),
    ],
)
def test_consecutive_sums(walk: tuple[list[int], list[int]], n: int, m: int, stride: int) -> None:
    expected = window_sums(walk[1][:CYCLE], n, m, stride)
    got = gen.consecutive_sum_distribution(n, m, stride)
    assert dict(got) == {total: Fraction(c, CYCLE) for total, c in expected.items()}


def test_sum_is_constant_exactly_when_the_period_divides_m(
    walk: tuple[list[int], list[int]],
) -> None:
    for n in (2, 3, 4, 8):
        for m in range(1, 21):
            constant = len(window_sums(walk[1][:CYCLE], n, m, 1)) == 1
            assert constant == (m % gen.rnd_period(n) == 0), (n, m)


def test_rogue_hit_points_are_always_72() -> None:
    """All 32768 starting positions, simulated straight from the C rules in numpy: seeds
    0..32767 cover every value of seed mod 2^15, so every position of the cycle.
    By hand: 40 flips hold ten runs of 0,0,1,1 (rotated), so twenty ones; each d2 is the
    flip + 1, so 40 d2 = 40 + 20 = 60, and 12 + 60 = 72."""
    seeds = np.arange(CYCLE, dtype=np.uint64)
    totals = np.full(CYCLE, 12, dtype=np.int64)
    for _ in range(8 * 5):
        seeds = (seeds * np.uint64(11109) + np.uint64(13849)) & np.uint64(0xFFFFFFFF)
        totals += (((seeds & np.uint64(0x7FFF)) >> np.uint64(1)) & np.uint64(1)).astype(
            np.int64
        ) + 1
    assert set(totals.tolist()) == {72}
    assert dict(gen.rogue_d2_hit_points()) == {72: 1}
    assert dict(gen.consecutive_sum_distribution(2, 40)) == {20: 1}


def test_low_bit_pattern_is_a_rotation_of_0011() -> None:
    rotations = {(0, 0, 1, 1), (0, 1, 1, 0), (1, 1, 0, 0), (1, 0, 0, 1)}
    for seed in [*SEEDS, *np.random.default_rng(5).integers(-(2**31), 2**31, 50).tolist()]:
        flips = tuple(v & 1 for v in oracle_sequence(seed, 4, (-1,))[0])
        assert gen.low_bit_pattern(seed) == flips
        assert flips in rotations


def test_pair_lines(walk: tuple[list[int], list[int]]) -> None:
    lap = walk[1][:CYCLE]
    lines = gen.pair_lines()
    u1, u2 = lines.normal
    assert (u1 + 11109 * u2) % CYCLE == 0  # in the dual lattice

    # the shortest dual vector by enumeration: for each u2, the u1 = -11109 u2 nearest 0
    def nearest(v: int) -> int:
        u = (-11109 * v) % CYCLE
        return u - CYCLE if u > CYCLE // 2 else u

    assert u1 * u1 + u2 * u2 == min(nearest(v) ** 2 + v * v for v in range(-400, 401) if v)
    assert lines.lines == len({u1 * lap[t] + u2 * lap[(t + 1) % CYCLE] for t in range(CYCLE)})
    assert lines.lines < CYCLE // 100  # 32768 points on a few hundred lines


@pytest.mark.parametrize(("n", "m"), [(1, 3), (2, 5), (6, 3), (10, 2)])
def test_independent_sum_moments(n: int, m: int) -> None:
    total = m @ uniform(range(n))
    assert gen.independent_sum_moments(n, m) == (total.mean(), total.variance())


@pytest.mark.parametrize(
    "call",
    [
        lambda: gen.rnd_distribution(0),
        lambda: gen.rnd_bias(2**31),
        lambda: gen.consecutive_sum_distribution(2, 0),
        lambda: gen.consecutive_sum_distribution(2, gen.MAX_DRAWS + 1),
        lambda: gen.consecutive_sum_distribution(2, 4, stride=0),
        lambda: gen.pair_distribution(gen.MAX_PAIR_N + 1),
        lambda: gen.serial_covariance(-1),
        lambda: gen.rn_bit_period(14),
    ],
)
def test_bad_arguments(call: object) -> None:
    with pytest.raises(ModelError):
        call()  # type: ignore[operator]


# -- (3) numpy's generator --------------------------------------------------------------------
def test_numpy_random_sanity() -> None:
    first, again = NumpyRandom(11), NumpyRandom(11)
    faces = first.integers(6, 60_000)
    assert faces.tolist() == again.integers(6, 60_000).tolist()
    assert faces.dtype == np.int64 and 0 <= faces.min() and faces.max() <= 5
    for face in range(6):
        assert agrees_with(Fraction(1, 6), int((faces == face).sum()), len(faces))
    fractions = first.random(60_000)
    assert ((0 <= fractions) & (fractions < 1)).all()
    assert agrees_with(Fraction(1, 4), int((fractions < 0.25).sum()), len(fractions))
    # unlike Rogue's flips, numpy's come in all 16 patterns of four
    flips = first.integers(2, 4 * 4000).reshape(-1, 4)
    assert len({tuple(row) for row in flips.tolist()}) == 16
    assert NumpyRandom(11).name == "numpy" and RogueRandom(0).name == "rogue"


# -- (4) the command line ---------------------------------------------------------------------
def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "rogue-rng", "--json")
    assert (status, err) == (0, "")
    payload = json.loads(out)
    assert set(payload) == {
        "n",
        "sum_of",
        "stride",
        "full_period",
        "periods",
        "rnd",
        "serial_correlation",
        "sum",
    }
    assert payload["periods"] == {
        "seed": 2**32,
        "rn": CYCLE,
        "rn_bits": [2 ** (j + 2) for j in range(14)],
        "rnd": 4,
    }
    assert payload["full_period"] is True
    assert payload["sum"]["distribution"] == {"20": "1"}
    assert payload["sum"]["constant"] is True
    assert payload["sum"]["independent_variance"] == "10"
    assert payload["rnd"]["max_probability"] == "1/2" and payload["rnd"]["exactly_uniform"]
    assert payload["serial_correlation"]["rnd"] == "0"


def test_cli_json_biased_die(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rogue-rng", "--n", "6", "--sum-of", "3", "--json")
    payload = json.loads(out)
    assert status == 0
    # 2^14 = 6 * 2730 + 4: residues 0..3 have 2731/16384, residues 4, 5 have 2730/16384
    assert payload["rnd"]["max_probability"] == "2731/16384"
    assert payload["rnd"]["min_probability"] == "1365/8192"
    assert payload["rnd"]["residues_at_max"] == 4
    assert Fraction(payload["rnd"]["total_variation"]) == 4 * (
        Fraction(2731, 16384) - Fraction(1, 6)
    )
    distribution = {int(k): Fraction(v) for k, v in payload["sum"]["distribution"].items()}
    assert sum(distribution.values()) == 1
    assert payload["serial_correlation"]["rnd_decimal"].startswith("-0.0000837")


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rogue-rng")
    assert status == 0
    assert "always 20 (the period 4 of rnd(2) divides 40)" in out
    assert "seed 4294967296" in out and "18214/89478485" in out
    status, out, _ = run(capsys, "rogue-rng", "--n", "1")
    assert status == 0 and "undefined" in out
    status, out, _ = run(capsys, "rogue-rng", "--sum-of", "8", "--stride", "4")
    assert status == 0 and "2 values from 0 to 8" in out


@pytest.mark.parametrize(
    "argv",
    [
        ("--n", "0"),
        ("--n", str(2**31)),
        ("--n", "6.5"),
        ("--sum-of", "0"),
        ("--sum-of", str(10**6 + 1)),
        ("--stride", "0"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    status, out, err = run(capsys, "rogue-rng", *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and argv[0] in err
