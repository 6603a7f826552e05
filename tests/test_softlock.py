"""Floating-eye softlock: every exact number against an oracle written here from the rules."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import mpmath
import pytest
import sympy

from exactprob.engine.simulation import NumpyRandom
from exactprob.errors import ModelError
from exactprob.games.roguelike.rng import RogueRandom
from exactprob.games.roguelike.softlock.walk import (
    drift,
    jump_distribution,
    locked_enclosure,
    locked_forever,
    locked_within,
    return_probability,
    simulate_locked,
)
from tests.cli_runner import run


def gaze_chance(ac: int) -> Fraction:
    """The d20 rolls 1..20 that reach 20 - AC, counted."""
    return Fraction(sum(1 for roll in range(1, 21) if roll >= 20 - ac), 20)


def oracle_locked(ac: int, limit: int, eyes: int, turn_order: str = "game") -> Fraction:
    """Enumerate every sequence of per-eye gaze outcomes (miss, +2, +3) and play the rules:
    the counter starts at 0; each turn the eyes gaze, then (the game) a positive counter
    drops by 1 and a zero counter frees the hero, or (the source's function, line by line)
    a positive counter drops by 1 and, if it is now 0, the hero is free."""
    g = gaze_chance(ac)
    outcomes = [(0, 1 - g), (2, g / 2), (3, g / 2)]
    total = Fraction(0)
    for sequence in itertools.product(outcomes, repeat=limit * eyes):
        counter, probability, free = 0, Fraction(1), False
        for turn in range(limit):
            for added, p in sequence[turn * eyes : (turn + 1) * eyes]:
                counter += added
                probability *= p
            if turn_order == "game":
                if counter > 0:
                    counter -= 1
                else:
                    free = True
                    break
            else:
                if counter > 0:
                    counter -= 1
                if counter == 0:
                    free = True
                    break
        if not free:
            total += probability
    return total


@pytest.mark.parametrize("ac", [0, 5, 7, 10, 18, 19, 20])
def test_exact_dp_equals_brute_force_one_eye(ac: int) -> None:
    for limit in range(1, 7):
        assert locked_within(ac, limit) == oracle_locked(ac, limit, 1), (ac, limit)


@pytest.mark.parametrize("ac", [0, 3, 9, 12, 20])
def test_exact_dp_equals_brute_force_two_eyes(ac: int) -> None:
    for limit in range(1, 4):
        assert locked_within(ac, limit, eyes=2) == oracle_locked(ac, limit, 2), (ac, limit)


@pytest.mark.parametrize("ac", [0, 7, 8, 10, 18, 19])
def test_source_order_dp_equals_its_own_loop(ac: int) -> None:
    for limit in range(1, 7):
        expected = oracle_locked(ac, limit, 1, "source")
        assert locked_within(ac, limit, turn_order="source") == expected, (ac, limit)
    for limit in range(1, 4):
        expected = oracle_locked(ac, limit, 2, "source")
        assert locked_within(ac, limit, 2, turn_order="source") == expected, (ac, limit)


def test_source_order_forever_is_the_spec_s_ideal_generator_figures() -> None:
    """The spec: with an ideal generator the source's function gives, as limit -> oo,
    about 9.26%, 27.15%, 44.34% at AC 8, 10, 12 (and nothing below the drift threshold)."""
    for ac, percent in ((8, "9.26"), (10, "27.15"), (12, "44.34")):
        assert f"{100 * sympy.N(locked_forever(ac, turn_order='source'), 20):.2f}" == percent
    assert locked_forever(7, turn_order="source") == 0
    assert locked_forever(19, 2, turn_order="source") == 1


@pytest.mark.parametrize("ac", range(8, 19))
def test_source_order_one_eye_closed_form(ac: int) -> None:
    """The issue's form for one eye, (g/2)(1 - rho)(2 + rho), with rho the game's."""
    g = sympy.Rational(gaze_chance(ac).numerator, gaze_chance(ac).denominator)
    rho = return_probability(ac).value
    expected = g / 2 * (1 - rho) * (2 + rho)
    assert sympy.simplify(locked_forever(ac, turn_order="source") - expected) == 0


@pytest.mark.parametrize(("eyes", "ac", "limit"), [(1, 10, 1200), (2, 10, 500)])
def test_source_order_approaches_its_closed_form(eyes: int, ac: int, limit: int) -> None:
    value = locked_within(ac, limit, eyes, turn_order="source")
    forever = sympy.N(locked_forever(ac, eyes, turn_order="source"), 40)
    assert 0 <= value - sympy.Rational(str(forever)) < sympy.Rational(1, 10**9)
    assert value < locked_within(ac, limit, eyes)  # freed one level earlier: less locking


def test_source_order_enclosure_and_simulator() -> None:
    exact = locked_within(10, 150, turn_order="source")
    box = locked_enclosure(10, 150, bits=64, turn_order="source")
    assert box.low <= exact <= box.high
    runs = 20_000
    episodes = simulate_locked(10, 150, runs, NumpyRandom(5), turn_order="source")
    assert episodes.n == runs
    assert episodes.agrees_with(exact)
    assert not episodes.agrees_with(locked_within(10, 150))  # the game's differs


def test_an_unknown_turn_order_is_refused() -> None:
    with pytest.raises(ModelError, match="turn order"):
        locked_within(10, 5, turn_order="monster first")


def test_small_values_by_hand() -> None:
    # one turn: locked iff a gaze succeeds; two eyes: 1 - (1 - g)^2
    assert locked_within(10, 1) == Fraction(11, 20)
    assert locked_within(10, 1, eyes=2) == 1 - Fraction(9, 20) ** 2
    # every gaze succeeds from AC 19 on: locked for sure
    assert locked_within(19, 25) == 1 == locked_within(20, 25, eyes=2)


def test_jumps_and_drift_by_hand() -> None:
    assert dict(jump_distribution(9).items()) == {
        0: Fraction(1, 2),
        2: Fraction(1, 4),
        3: Fraction(1, 4),
    }
    # drift 5g/2 - 1 for one eye (AC 8: 9/8 - 1), 5g - 1 for two (zero at g = 1/5, AC 3)
    assert drift(8) == Fraction(1, 8) and drift(7) == 0 and drift(3, eyes=2) == 0
    assert drift(4, eyes=2) == Fraction(1, 4)


@pytest.mark.parametrize(("ac", "limit"), [(7, 120), (10, 200), (12, 90)])
def test_enclosure_contains_the_exact_value(ac: int, limit: int) -> None:
    for eyes in (1, 2):
        box = locked_enclosure(ac, limit, eyes, bits=64)
        exact = locked_within(ac, limit, eyes)
        assert box.low <= exact <= box.high
        assert 0 < box.width() < Fraction(limit * limit, 2**64)


def test_enclosure_refuses_bad_bits() -> None:
    with pytest.raises(ValueError, match="bits"):
        locked_enclosure(10, 5, bits=2)


def test_closed_forms_by_hand() -> None:
    # AC 9: g = 1/2, rho solves (x^2 + 2x - 2)/4 = 0, rho = sqrt(3) - 1, locked 2 - sqrt(3)
    assert sympy.simplify(locked_forever(9) - (2 - sympy.sqrt(3))) == 0
    assert locked_forever(7) == 0 and locked_forever(3, eyes=2) == 0
    assert locked_forever(19, eyes=2) == 1


@pytest.mark.parametrize("ac", [4, 8, 12, 18])
def test_two_eye_root_solves_the_ruin_equation(ac: int) -> None:
    """E[rho^J] = rho, with E computed here from the rules at 60 digits."""
    mpmath.mp.dps = 60
    g = mpmath.mpf(gaze_chance(ac).numerator) / gaze_chance(ac).denominator
    rho = mpmath.mpf(str(sympy.N(return_probability(ac, eyes=2).value, 70)))
    one_eye = (1 - g) + g / 2 * (rho**2 + rho**3)
    assert abs(one_eye**2 - rho) < mpmath.mpf(10) ** -55
    locked = sympy.N(locked_forever(ac, eyes=2), 60)
    assert abs(mpmath.mpf(str(locked)) - (1 - rho)) < mpmath.mpf(10) ** -55
    assert 0 < rho < 1


@pytest.mark.parametrize(
    ("eyes", "ac", "limit"), [(1, 8, 1500), (1, 10, 1500), (1, 12, 800), (2, 4, 1000), (2, 10, 600)]
)
def test_closed_form_is_below_the_dp_and_close(eyes: int, ac: int, limit: int) -> None:
    """Locked for ``limit`` turns >= locked forever, exactly, and within 10^-6 of it (the gap
    shrinks geometrically, slowest next to the critical AC: 7e-7 at AC 8, 1,500 turns)."""
    value = locked_within(ac, limit, eyes)
    forever = locked_forever(ac, eyes)
    x = sympy.Symbol("x")
    poly = sympy.Poly(sympy.minimal_polynomial(forever, x), x)
    ((low, high),) = [
        iv
        for iv, _ in poly.intervals(eps=sympy.Rational(1, 10**12))
        if iv[0] <= sympy.N(forever, 30) <= iv[1]
    ]
    target = sympy.Rational(value.numerator, value.denominator)
    while low <= target <= high:  # refine until the rational value leaves the interval
        low, high = poly.refine_root(low, high, eps=(high - low) ** 2)
    assert target > high
    assert target - low < sympy.Rational(1, 10**6)


@pytest.mark.parametrize(
    ("ac", "limit", "eyes"), [(10, 30, 1), (7, 60, 1), (12, 20, 2), (3, 40, 2)]
)
def test_simulator_agrees(ac: int, limit: int, eyes: int) -> None:
    runs = 20_000
    episodes = simulate_locked(ac, limit, runs, NumpyRandom(2018), eyes)
    assert episodes.agrees_with(locked_within(ac, limit, eyes))


def test_simulator_detects_a_wrong_value() -> None:
    episodes = simulate_locked(10, 30, 20_000, NumpyRandom(7))
    assert not episodes.agrees_with(locked_within(11, 30))


@pytest.mark.parametrize("turn_order", ["game", "source"])
def test_simulator_consumes_the_stream_as_the_c_loop_does(turn_order: str) -> None:
    """Rogue's generator, scalar: per run, per turn, per eye rnd(20) then rnd(2), always."""
    ac, limit, runs, eyes = 10, 40, 300, 2
    rogue = RogueRandom(42)
    locked = 0
    for _ in range(runs):
        counter, free = 0, False
        for _ in range(limit):
            for _ in range(eyes):
                roll, coin = rogue.rnd(20) + 1, rogue.rnd(2)
                if roll >= 20 - ac:
                    counter += 2 + coin
            if turn_order == "game":
                if counter > 0:
                    counter -= 1
                else:
                    free = True  # keep drawing: the vectorised simulator draws a fixed number
            else:
                if counter > 0:
                    counter -= 1
                if counter == 0:
                    free = True
        locked += not free
    episodes = simulate_locked(ac, limit, runs, RogueRandom(42), eyes, turn_order)
    assert episodes.stayed_locked == locked


def test_cli_closed_form(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "softlock", "--ac", "9", "--json")
    payload = json.loads(out)
    assert status == 0
    assert sympy.simplify(sympy.sympify(payload["locked"]) - (2 - sympy.sqrt(3))) == 0
    assert payload["locked_decimal"].startswith("0.26794919243112270647255365849412763305")
    assert payload["form"] == "radicals" and payload["drift_threshold_ac"] == 8
    assert payload["exact"] is True and payload["limit"] is None


def test_cli_source_turn_order_gives_both_readings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "softlock", "--ac", "12", "--turn-order", "source", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["turn_order"] == "source"
    both = payload["locked_forever_by_turn_order"]
    assert both["source"] == payload["locked"] and "locked_forever" not in payload
    g, rho = sympy.Rational(13, 20), sympy.sympify(payload["rho"])
    source = sympy.sympify(both["source"])
    assert sympy.simplify(source - g / 2 * (1 - rho) * (2 + rho)) == 0
    assert sympy.simplify(sympy.sympify(both["game"]) - (1 - rho)) == 0
    decimals = payload["locked_forever_by_turn_order_decimal"]
    assert decimals["source"].startswith("0.4433")  # the spec's 44.34%
    status, out, _ = run(
        capsys, "softlock", "--ac", "10", "--limit", "4", "--turn-order", "source", "--json"
    )
    assert Fraction(json.loads(out)["locked"]) == oracle_locked(10, 4, 1, "source")


def test_cli_two_eyes_root_of(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "softlock", "--ac", "10", "--eyes", "2", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["form"] == "root_of" and payload["galois_group"] == "S5"
    assert payload["solvable"] is False and payload["drift_threshold_ac"] == 4
    assert "CRootOf" in payload["locked"] and len(payload["locked_decimal"]) >= 32


def test_cli_finite_limit_exact_and_enclosure(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "softlock", "--ac", "10", "--limit", "3", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["exact"] is True
    assert Fraction(payload["locked"]) == oracle_locked(10, 3, 1)
    status, out, _ = run(capsys, "softlock", "--ac", "10", "--limit", "2100", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["exact"] is False and "locked" not in payload
    low, high = Fraction(payload["locked_low"]), Fraction(payload["locked_high"])
    assert payload["locked_low_decimal"].startswith("0.3763117182280225")
    assert low < high and payload["locked_decimal"].startswith("0.3763117182280225")
    status, out, _ = run(capsys, "softlock", "--ac", "10", "--limit", "2100", "--exact", "--json")
    payload = json.loads(out)
    assert payload["exact"] is True
    assert low <= Fraction(payload["locked"]) <= high  # the certificate holds


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "softlock", "--ac", "12", "--limit", "10")
    assert status == 0 and "locked 10 turns" in out and "2 - 3*sqrt(39)/13" in out


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--ac", "21"], "--ac"),
        (["--ac", "-1"], "--ac"),
        (["--ac", "7.5"], "--ac"),
        (["--ac", "5", "--eyes", "3"], "--eyes"),
        (["--ac", "5", "--eyes", "0"], "--eyes"),
        (["--ac", "5", "--limit", "0"], "--limit"),
        (["--ac", "5", "--limit", "ten"], "--limit"),
        (["--ac", "5", "--limit", "5000", "--bits", "4"], "--bits"),
        (["--ac", "5", "--turn-order", "monster"], "--turn-order"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], field: str) -> None:
    status, out, err = run(capsys, "softlock", *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err


def test_certified_decimal_of_a_sure_lock_reads_one(capsys: pytest.CaptureFixture[str]) -> None:
    # AC 19: every gaze succeeds ((1 + 19)/20 = 1), so the hero is locked with probability 1;
    # the enclosure must not read as "0" (its ends straddle 1 before clipping)
    status, out, _ = run(capsys, "softlock", "--ac", "19", "--limit", "2001", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["exact"] is False
    assert payload["locked_decimal"].startswith("1.000000000000000000000000000")
    assert Fraction(payload["locked_high"]) == 1


@pytest.mark.parametrize(
    "argv", [("--limit", "100001"), ("--limit", "10001", "--exact"), ("--limit", "10**9")]
)
def test_limits_beyond_the_caps_are_refused(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    status, _, err = run(capsys, "softlock", "--ac", "10", *argv)
    assert status == 2 and err.count("\n") == 1 and "--" in err
