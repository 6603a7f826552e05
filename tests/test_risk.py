"""Risk: single rolls by enumerating every die, an independent recursion, the numpy
simulator over the whole 20 x 20 table, Storm, and the ``risk`` subcommand."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from functools import cache

import numpy as np
import pytest
from cli_runner import run
from memory_probe import peak_added

from exactprob import explore
from exactprob.engine.simulation import agrees_with
from exactprob.errors import ModelError
from exactprob.games.risk import (
    RiskBattle,
    battle_bytes,
    conquest_table,
    risk_battle,
    roll_losses,
    simulate_risk,
)


@cache
def enumerated_roll(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], F]:
    """(attacker's losses, defender's losses) over all 6^(a+d) rolls, compared by the
    rules: both sorted high to low, pairs compared, ties to the defender."""
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for faces in itertools.product(range(1, 7), repeat=attacker_dice + defender_dice):
        att = sorted(faces[:attacker_dice], reverse=True)
        dfd = sorted(faces[attacker_dice:], reverse=True)
        attacker_lost = sum(a <= d for a, d in zip(att, dfd))
        key = (attacker_lost, min(attacker_dice, defender_dice) - attacker_lost)
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return {k: F(c, total) for k, c in counts.items()}


@cache
def recursion(a: int, d: int) -> dict[tuple[int, int], F]:
    """Distribution of the final (attacker, defender) armies, by memoised recursion."""
    if d == 0 or a == 1:
        return {(a, d): F(1)}
    out: dict[tuple[int, int], F] = {}
    for (la, ld), p in enumerated_roll(min(3, a - 1), min(2, d)).items():
        for end, q in recursion(a - la, d - ld).items():
            out[end] = out.get(end, F(0)) + p * q
    return out


@pytest.mark.parametrize("na, nd", list(itertools.product((1, 2, 3), (1, 2))))
def test_single_roll_equals_enumeration(na: int, nd: int) -> None:
    assert dict(roll_losses(na, nd).items()) == enumerated_roll(na, nd)


def test_three_against_two_known_numbers() -> None:
    # attacker loses 0 / 1 / 2 armies in 2890 / 2611 / 2275 of the 7776 rolls
    table = enumerated_roll(3, 2)
    assert table == {(0, 2): F(2890, 7776), (1, 1): F(2611, 7776), (2, 0): F(2275, 7776)}
    assert dict(roll_losses(3, 2).items()) == table


def test_table_equals_independent_recursion() -> None:
    table = conquest_table(8, 8)
    for (a, d), p in table.items():
        assert p == sum(q for (_, left), q in recursion(a, d).items() if left == 0), (a, d)


def test_remaining_armies_equal_recursion() -> None:
    result = risk_battle(9, 7)
    final = recursion(9, 7)
    attackers: dict[int, F] = {}
    for (a, _), q in final.items():
        attackers[a] = attackers.get(a, F(0)) + q
    assert dict(result.attacker_remaining.items()) == attackers
    assert result.win == sum(q for (_, d), q in final.items() if d == 0)
    assert (
        result.defender_remaining[0] == result.win and result.attacker_remaining[1] == result.lose
    )
    assert min(a for a, p in result.attacker_remaining.items() if a > 1) == 2


def test_table_cells_equal_single_solves() -> None:
    table = conquest_table(20, 20)
    assert len(table) == 19 * 20
    for start in [(2, 1), (10, 10), (20, 20), (20, 1), (2, 20), (13, 7)]:
        assert table[start] == risk_battle(*start).win


def test_table_against_simulator() -> None:
    table = conquest_table(20, 20)
    starts = sorted(table)
    per_cell = 1500
    a0 = np.repeat([a for a, _ in starts], per_cell)
    d0 = np.repeat([d for _, d in starts], per_cell)
    conquered = simulate_risk(a0, d0, a0.size, seed=11).result
    won = conquered.reshape(len(starts), per_cell).sum(axis=1)
    for start, hits in zip(starts, won):
        assert agrees_with(table[start], int(hits), per_cell), start


def test_simulated_armies_left_agree() -> None:
    result = risk_battle(12, 9)
    battles = simulate_risk(12, 9, 20_000, seed=3)
    for k, p in result.attacker_remaining.items():
        assert battles.agrees_with(p, battles.attackers == k), k
    assert battles.agrees_with(result.win)
    assert not battles.agrees_with(risk_battle(12, 10).win)  # one more defender


def test_storm_agrees() -> None:
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_expected_steps, storm_value

    G = explore(RiskBattle(7, 6))
    result = risk_battle(7, 6)
    assert storm_value(G) == result.win
    assert storm_expected_steps(G) == result.expected_rolls


@pytest.mark.parametrize("a, d", [(1, 3), (5, 0), (2.5, 3), (True, 3), (3, 2001)])
def test_bad_armies(a: object, d: object) -> None:
    with pytest.raises(ModelError):
        RiskBattle(a, d)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# The risk subcommand
# ---------------------------------------------------------------------------------------


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "risk", "--attacker", "6", "--defender", "5", "--json")
    assert status == 0
    payload = json.loads(out)
    expected = sum(q for (_, d), q in recursion(6, 5).items() if d == 0)
    assert F(payload["win"]) == expected and F(payload["lose"]) == 1 - expected
    assert payload["win_decimal"].startswith("0.")
    assert sum(F(row["probability"]) for row in payload["attacker_remaining"]) == 1


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "risk", "--attacker", "3", "--defender", "2")
    assert status == 0 and "attacker conquers" in out and "armies left" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--attacker", "1", "--defender", "3"], "--attacker must be a whole number from 2"),
        (["--attacker", "x", "--defender", "3"], "got 'x'"),
        (["--attacker", "4", "--defender", "0"], "--defender must be a whole number from 1"),
        (["--attacker", "4", "--defender", "-2"], "got '-2'"),
        (["--attacker", "2000", "--defender", "2000"], "pass --max-states 4002000 to go on"),
        (["--attacker", "\u00b2", "--defender", "3"], "got '\u00b2'"),  # a digit to isdigit()
        (["--attacker", "9" * 5000, "--defender", "3"], "--attacker must be a whole number"),
        (["--attacker", "4", "--defender", "3", "--max-states", "-5"], "--max-states must be"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    status, out, err = run(capsys, "risk", *argv)
    assert status == 2 and out == ""
    assert fragment in err and err.count("\n") == 1


def test_tour_headline(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tour", "--json")
    assert status == 0
    expected = sum(q for (_, d), q in recursion(10, 10).items() if d == 0)
    assert F(json.loads(out)["risk_10_v_10"]) == expected


def test_the_memory_estimate_bounds_the_measured_peak() -> None:
    """battle_bytes, checked before a battle is solved, against the peak resident memory
    that solving 300 against 300 adds in a fresh process: at least it, at most 3x."""
    measured = peak_added("from exactprob.games.risk import risk_battle", "risk_battle(300, 300)")
    assert measured <= battle_bytes(300, 300) <= 3 * measured


def test_a_battle_beyond_memory_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import exactprob.util.resources

    monkeypatch.setattr(exactprob.util.resources, "physical_memory", lambda: 2**30)
    argv = ["risk", "--attacker", "1000", "--defender", "1000", "--max-states", "2000000"]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("exactprob risk: error: 1000 against 1000 needs about 2.8 GiB")
