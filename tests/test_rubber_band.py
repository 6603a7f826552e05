"""Rubber-band odds, waffles and staircakes: every exact number against an oracle that
enumerates all 2^L found/missed sequences with Fractions straight from the rules, against
hand-derived values, and against the numpy simulator; Rogue's draw order; the CLI."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest
from cli_runner import run
from hypothesis import given
from hypothesis import strategies as st

from exactprob.engine.simulation import NumpyRandom, agrees_with
from exactprob.errors import ModelError, StateLimitError
from exactprob.games.roguelike.rng import RogueRandom
from exactprob.games.roguelike.rubber_band.odds import (
    STAIRCAKES,
    RubberBand,
    Waffles,
    count_distribution,
    hit_probability,
    level_probabilities,
    longest_dry_streak,
    simulate_rubber_band,
    simulate_waffles,
    staircakes,
    starvation_distribution,
    starve_probability,
    streak_at_least,
)

# -- the oracle: every sequence of finds, its probability from the rules ------------------


def chance_below(odds: F, grid: int | None) -> F:
    """P(draw < odds): clamped odds, or by counting the grid values k/R below the odds."""
    if grid is None:
        return min(F(1), max(F(0), odds))
    return F(sum(F(k, grid) < odds for k in range(grid)), grid)


@dataclass(frozen=True)
class Game:
    """One sequence of finds (True = the level had the resource) and its probability."""

    found: tuple[bool, ...]
    probability: F


def games(start: F, up: F, down: F, levels: int, grid: int | None = None) -> Iterator[Game]:
    """All 2^levels sequences; odds += up, P(find) = P(draw < odds), odds -= down on a find."""
    for found in product((False, True), repeat=levels):
        odds, probability = start, F(1)
        for hit in found:
            odds += up
            p = chance_below(odds, grid)
            probability *= p if hit else 1 - p
            if hit:
                odds -= down
        if probability:
            yield Game(found, probability)


def longest_run_of_misses(found: tuple[bool, ...]) -> int:
    best = current = 0
    for hit in found:
        current = 0 if hit else current + 1
        best = max(best, current)
    return best


def starves(found: tuple[bool, ...], waffles: int, every: int) -> bool:
    """The game as stated: eat first on levels i % every == 0, below zero it ends."""
    for level, hit in enumerate(found):
        if level % every == 0:
            waffles -= 1
            if waffles < 0:
                return True
        waffles += hit
    return False


def revived_starvations(found: tuple[bool, ...], waffles: int, every: int) -> int:
    """A hero revived with 0 waffles after each starvation; the level's waffle still counts."""
    times = 0
    for level, hit in enumerate(found):
        if level % every == 0:
            if waffles == 0:
                times += 1
            else:
                waffles -= 1
        waffles += hit
    return times


def tally(pairs: Iterator[tuple[int, F]]) -> dict[int, F]:
    table: dict[int, F] = {}
    for key, p in pairs:
        table[key] = table.get(key, F(0)) + p
    return table


def band_oracle(band: RubberBand) -> list[Game]:
    return list(games(band.start, band.up, band.down, band.levels, band.grid))


# -- random parameters -------------------------------------------------------------------

steps = st.builds(F, st.integers(0, 30), st.sampled_from([1, 2, 3, 4, 5, 7, 10, 20]))
bands = st.builds(
    RubberBand,
    start=st.builds(F, st.integers(-20, 30), st.sampled_from([1, 3, 10, 20])),
    up=steps.map(lambda x: x / 10),
    down=steps.map(lambda x: x / 5),
    levels=st.integers(1, 8),
    grid=st.sampled_from([None, None, 1, 3, 8, 20]),
)


@given(bands)
def test_count_streak_and_levels_equal_enumeration(band: RubberBand) -> None:
    oracle = band_oracle(band)
    assert dict(count_distribution(band).items()) == tally(
        (sum(g.found), g.probability) for g in oracle
    )
    longest = tally((longest_run_of_misses(g.found), g.probability) for g in oracle)
    assert dict(longest_dry_streak(band).items()) == longest
    assert streak_at_least(band) == {
        k: sum((p for m, p in longest.items() if m >= k), F(0)) for k in range(1, band.levels + 1)
    }
    assert level_probabilities(band) == tuple(
        sum((g.probability for g in oracle if g.found[i]), F(0)) for i in range(band.levels)
    )


@given(bands, st.integers(0, 3), st.integers(1, 4))
def test_waffles_equal_enumeration(band: RubberBand, waffles: int, every: int) -> None:
    game = Waffles(band, waffles, every)
    oracle = band_oracle(band)
    starve = sum((g.probability for g in oracle if starves(g.found, waffles, every)), F(0))
    assert starve_probability(game) == starve
    assert dict(starvation_distribution(game).items()) == tally(
        (revived_starvations(g.found, waffles, every), g.probability) for g in oracle
    )


@given(bands)
def test_staircake_summary_equals_enumeration(band: RubberBand) -> None:
    oracle = band_oracle(band)
    summary = staircakes(band)
    assert summary.expected == sum((sum(g.found) * g.probability for g in oracle), F(0))
    assert summary.none == sum((g.probability for g in oracle if not any(g.found)), F(0))


@pytest.mark.parametrize("every", [1, 2, 3])
def test_default_parameters_over_twelve_levels(every: int) -> None:
    band = RubberBand(levels=12)
    oracle = band_oracle(band)
    counts = count_distribution(band)
    mean = sum((sum(g.found) * g.probability for g in oracle), F(0))
    square = sum((sum(g.found) ** 2 * g.probability for g in oracle), F(0))
    assert counts.mean() == mean and counts.variance() == square - mean**2
    starve = sum((g.probability for g in oracle if starves(g.found, 2, every)), F(0))
    assert starve_probability(Waffles(band, 2, every)) == starve


@given(
    st.builds(F, st.integers(-50, 150), st.integers(1, 60)),
    st.sampled_from([None, 1, 2, 7, 16, 64]),
)
def test_hit_probability_counts_grid_values(odds: F, grid: int | None) -> None:
    assert hit_probability(odds, grid) == chance_below(odds, grid)


# -- hand-derived values ----------------------------------------------------------------


def test_first_levels_by_hand() -> None:
    # level 0: odds 0.7 + 0.15 = 0.85. After a find: 0.45 + 0.15 = 0.6; after a miss: 1.
    # P(level 1) = 0.85 * 0.6 + 0.15 * 1 = 0.66. Level 2: after find-find 0.2 + 0.15 = 0.35,
    # after find-miss or miss-find 0.75: 0.51 * 0.35 + 0.49 * 0.75 = 0.546.
    assert level_probabilities(RubberBand(levels=3)) == (F(17, 20), F(33, 50), F(273, 500))


def test_staircake_defaults_are_a_product() -> None:
    # no staircake: the odds are 0.01 (i + 1) at level i; a find drops them below -0.8,
    # so there is at most one per game and E = 1 - P(none).
    none = math.prod(1 - F(k, 100) for k in range(1, 21))
    assert staircakes() == (1 - none, none)
    assert STAIRCAKES.levels == 20


@pytest.mark.parametrize("up, exactly", [("0.1", 2), ("0.05", 1)])
def test_fast_staircakes_come_a_fixed_number_of_times(up: str, exactly: int) -> None:
    # start 0, down 1: the odds reach 1 (a sure find) 1/up levels after the last find, so a
    # find is certain by level 1/up - 1, and each find needs 1/up levels to recover.
    band = RubberBand(start=F(0), up=F(up), down=F(1), levels=20)
    assert dict(count_distribution(band).items()) == {exactly: F(1)}


def test_default_hero_never_starves_in_a_thousand_levels() -> None:
    # A miss needs odds < 1, so the odds at a draw stay <= 1.15 and then
    # 0.85 + 0.15 i - 0.4 F_i <= 1.15, F_i >= 0.375 i - 0.75 > i / 3 - 1: never starved.
    assert starve_probability(Waffles(RubberBand(levels=1000))) == 0


# -- the simulator ----------------------------------------------------------------------


def assert_agrees(exact: dict[int, F], sampled: np.ndarray) -> None:
    values, counts = np.unique(sampled, return_counts=True)
    seen = dict(zip(values.tolist(), counts.tolist()))
    assert set(seen) <= set(exact)
    for k, p in exact.items():
        assert agrees_with(p, seen.get(k, 0), len(sampled)), (k, p, seen.get(k, 0))


def test_simulator_agrees_with_exact_counts_and_streaks() -> None:
    band, runs = RubberBand(levels=20), 20_000
    sample = simulate_rubber_band(band, runs, NumpyRandom(2024))
    assert_agrees(dict(count_distribution(band).items()), sample.counts)
    assert sample.agrees_with(count_distribution(band).mean())
    assert not sample.agrees_with(count_distribution(RubberBand(levels=21)).mean())
    assert_agrees(dict(longest_dry_streak(band).items()), sample.longest_dry)
    for level, p in enumerate(level_probabilities(band)):
        assert agrees_with(p, int(sample.found[:, level].sum()), runs)


@pytest.mark.parametrize("every", [1, 2])
def test_simulator_agrees_with_exact_starvations(every: int) -> None:
    game = Waffles(RubberBand(levels=30), 2, every)
    simulated = simulate_waffles(game, 20_000, NumpyRandom(7 + every))
    assert_agrees(dict(starvation_distribution(game).items()), simulated.starvations)
    assert simulated.agrees_with(starve_probability(game))


def test_simulator_agrees_with_exact_staircakes() -> None:
    sample = simulate_rubber_band(STAIRCAKES, 20_000, NumpyRandom(11))
    assert_agrees(dict(count_distribution(STAIRCAKES).items()), sample.counts)


def test_simulator_draws_one_number_per_level_run_by_run() -> None:
    # the rules as a scalar C loop over runs and levels on Rogue's generator
    band, runs, seed = RubberBand(levels=7), 40, 12345
    rogue = RogueRandom(seed)
    expected = []
    for _ in range(runs):
        odds, row = F(7, 10), []
        for _ in range(band.levels):
            odds += F(3, 20)
            row.append(F(rogue.rn(), 2**14) < odds)
            odds -= F(2, 5) * row[-1]
        expected.append(row)
    source = RogueRandom(seed)
    assert simulate_rubber_band(band, runs, source).found.tolist() == expected
    assert source.seed == rogue.seed


# -- validation and limits --------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"levels": 0}, "levels"),
        ({"levels": 1001}, "levels"),
        ({"levels": True}, "levels"),
        ({"start": 0.7}, "start"),
        ({"up": "-0.1"}, "up"),
        ({"down": "x"}, "down"),
        ({"start": 101}, "start"),
        ({"grid": 0}, "grid"),
    ],
)
def test_bad_parameters_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ModelError, match=f"^{field} must be"):
        RubberBand(**kwargs)  # type: ignore[arg-type]


def test_bad_waffles_name_the_field() -> None:
    with pytest.raises(ModelError, match="^waffles must be"):
        Waffles(waffles=-1)
    with pytest.raises(ModelError, match="^band must be"):
        Waffles(band=None)  # type: ignore[arg-type]


def test_state_limit_refuses_quickly() -> None:
    # no rubber band: the longest streak needs (current, longest) pairs, ~i^2/2 states
    with pytest.raises(
        StateLimitError,
        match="after level 42 has 506 states, more than the limit of 500; use fewer levels",
    ):
        longest_dry_streak(
            RubberBand(start=F(1, 2), up=F(0), down=F(0), levels=300), max_states=500
        )


# -- the CLI ----------------------------------------------------------------------------


def rows(payload: list[dict[str, str]], key: str) -> dict[int, F]:
    return {int(row[key]): F(row["probability"]) for row in payload}


def test_cli_rubber_band_json_equals_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rubber-band", "--levels", "9", "--up", "0.2", "--streak", "3", "--json"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    payload = json.loads(out)
    oracle = list(games(F(7, 10), F(1, 5), F(2, 5), 9))
    counts = tally((sum(g.found), g.probability) for g in oracle)
    longest = tally((longest_run_of_misses(g.found), g.probability) for g in oracle)
    assert rows(payload["count"], "count") == counts
    assert rows(payload["longest_dry_streak"], "streak") == longest
    assert F(payload["mean"]) == sum(k * p for k, p in counts.items())
    at_least_3 = sum(p for k, p in longest.items() if k >= 3)
    assert F(payload["streak"]["at_least"]) == at_least_3
    assert rows(payload["streak_at_least"], "k")[3] == at_least_3
    assert payload["up"] == "1/5" and payload["levels"] == 9


def test_cli_waffles_json_equals_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, *["waffles", "--levels", "10", "--every", "2", "--waffles", "1", "--json"]
    )
    assert status == 0
    payload = json.loads(out)
    oracle = list(games(F(7, 10), F(3, 20), F(2, 5), 10))
    assert F(payload["starve"]) == sum(g.probability for g in oracle if starves(g.found, 1, 2))
    assert rows(payload["starvations"], "starvations") == tally(
        (revived_starvations(g.found, 1, 2), g.probability) for g in oracle
    )


def test_cli_staircakes_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "staircakes", "--levels", "5", "--json")
    assert status == 0
    payload = json.loads(out)
    none = math.prod(1 - F(k, 100) for k in range(1, 6))
    assert F(payload["none"]) == none and F(payload["expected"]) == 1 - none


@pytest.mark.parametrize("command", ["rubber-band", "staircakes", "waffles"])
def test_cli_text_output(capsys: pytest.CaptureFixture[str], command: str) -> None:
    status, out, _ = run(capsys, command)
    assert status == 0 and "levels" in out and "=" in out


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["rubber-band", "--start", "0.1.2"], "--start"),
        (["rubber-band", "--levels", "0"], "--levels"),
        (["rubber-band", "--levels", "1001"], "--levels"),
        (["rubber-band", "--up", "-0.1"], "--up"),
        (["rubber-band", "--down", "nan"], "--down"),
        (["rubber-band", "--streak", "21"], "--streak"),
        (["staircakes", "--start", "1/0"], "--start"),
        (["waffles", "--waffles", "-1"], "--waffles"),
        (["waffles", "--every", "0"], "--every"),
        (["waffles", "--max-states", "0"], "--max-states"),
    ],
)
def test_cli_bad_input_one_line_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], flag: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and flag in err and "Traceback" not in err


def test_cli_state_limit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "rubber-band",
        "--up",
        "0",
        "--down",
        "0",
        "--start",
        "0.5",
        "--levels",
        "300",
        "--max-states",
        "300",
    ]
    status, _, err = run(capsys, *argv)
    assert status == 2 and err.count("\n") == 1 and "a larger --max-states" in err


def test_steps_too_fine_for_the_levels_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # a step of 1e-2000 over 1,000 levels scales every probability by 10^2,000,000
    status, _, err = run(capsys, "rubber-band", "--up", "1e-2000", "--levels", "1000")
    assert status == 2 and err.count("\n") == 1 and "digit" in err
