"""Certified enclosures (float interval iteration) against the exact component solver.

``enclose_race(game)`` claims ``low[a, b, w, c] <= P(a, b, 0, (w, c)) <= high[a, b, w, c]`` for
every turn start. The exact values come from ``solve_race(game)``, which the solver tests check
against the generic engine on every state; containment is tested exactly (floats turned
into Fractions), for every turn start, with a mutation check that the test can fail.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from memory_probe import peak_added

from exactprob.games.jeopardy import FowlPlay
from exactprob.games.jeopardy.solving.certified import CertifiedRace, enclose_race, working_bytes
from exactprob.games.jeopardy.solving.solver import solve_race
from tests.jeopardy_oracle import SMALL_FOWL_PLAY

WIDTH = 1e-11


def exact_starts(game: FowlPlay) -> dict[tuple[int, int, int, int], Fraction]:
    """Every turn start's exact value, keyed ``(a, b, w, c)`` like the enclosure arrays."""
    solution = solve_race(game)
    return {(a, b, *deck): solution.start_value(a, b, deck) for a, b, deck in solution.starts}


def uncontained(box: CertifiedRace, values: dict) -> list[tuple[int, int, int, int]]:
    """The turn starts whose value lies outside their interval (compared exactly)."""
    return [
        key
        for key, value in values.items()
        if not Fraction(float(box.low[key])) <= value <= Fraction(float(box.high[key]))
    ]


def check(game: FowlPlay) -> None:
    values = exact_starts(game)
    box = enclose_race(game)
    every_start = game.goal * game.goal * game.wolves * (game.chickens + 1)
    assert len(values) == every_start
    assert box.low.shape == box.high.shape == (game.goal, game.goal, game.wolves, game.chickens + 1)
    assert uncontained(box, values) == []
    assert float((box.high - box.low).max()) < WIDTH


GAMES = [
    *(game for game, _ in SMALL_FOWL_PLAY),
    FowlPlay(chickens=24, wolves=4, goal=5),  # Red Light's deck
    FowlPlay(chickens=42, wolves=6, goal=4),  # Fowl Play's deck
    FowlPlay(chickens=1, wolves=1, goal=1),
]


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_every_turn_start_is_enclosed(game):
    check(game)


@given(
    chickens=st.integers(1, 6),
    wolves=st.integers(1, 3),
    goal=st.integers(1, 6),
)
def test_every_turn_start_is_enclosed_for_any_small_deck(chickens, wolves, goal):
    check(FowlPlay(chickens=chickens, wolves=wolves, goal=goal))


def test_first_player_win_encloses_every_komi_and_its_decimal_is_within_one_unit():
    game = FowlPlay(chickens=6, wolves=2, goal=7)
    solution, box = solve_race(game), enclose_race(game)
    for komi in range(game.goal):
        exact = solution.first_player_win(komi)
        enclosure = box.first_player_win(komi)
        assert enclosure.contains(exact)
        assert enclosure.width() < WIDTH
        shown = enclosure.decimal()
        places = len(shown.partition(".")[2])
        assert places >= 11  # the width is below 1e-11
        assert abs(Fraction(shown) - exact) <= Fraction(1, 10**places)


def test_the_containment_check_can_fail():
    game = FowlPlay(chickens=4, wolves=2, goal=5)
    values, box = exact_starts(game), enclose_race(game)
    assert uncontained(box, values) == []
    shift = Fraction(1, 10**9)  # far wider than the intervals (< 1e-11)
    for sign in (1, -1):
        shifted = {key: value + sign * shift for key, value in values.items()}
        assert uncontained(box, shifted) == list(values)
    one = (2, 3, 1, 2)
    assert uncontained(box, {**values, one: values[one] + shift}) == [one]
    # another game's values (one more chicken) are not this game's enclosures
    other = exact_starts(FowlPlay(chickens=5, wolves=2, goal=5))
    assert uncontained(box, {key: other[key] for key in values})
    assert not math.isclose(float(other[0, 0, 0, 0]), float(values[0, 0, 0, 0]), abs_tol=1e-6)


@pytest.mark.parametrize("deck", [pytest.param((400, 2, 20), marks=pytest.mark.slow), (700, 1, 5)])
def test_the_memory_estimate_matches_the_measured_peak(deck: tuple[int, int, int]) -> None:
    """working_bytes, which the CLI checks before a certified solve, against the peak
    resident memory that enclose_race adds in a fresh process (within 15%)."""
    chickens, wolves, goal = deck
    measured = peak_added(
        "from exactprob.games.jeopardy import FowlPlay\n"
        "from exactprob.games.jeopardy.solving.certified import enclose_race",
        f"enclose_race(FowlPlay({chickens}, {wolves}, {goal}))",
    )
    estimate = working_bytes(FowlPlay(chickens, wolves, goal))
    assert 0.85 * estimate <= measured <= 1.15 * estimate


def test_the_api_refuses_an_enclosure_beyond_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """enclose itself checks working_bytes (the CLI is not the only way in)."""
    import exactprob.util.resources
    from exactprob.errors import ResourceError

    monkeypatch.setattr(exactprob.util.resources, "physical_memory", lambda: 2**30)
    with pytest.raises(ResourceError, match="enclosing Fowl Play to 5 needs about 917.7 MiB"):
        enclose_race(FowlPlay(2000, 1, 5))
