"""Solitaire Pig (and Fowl Play): the fewest expected turns to reach the goal, against
float value iteration written here from the rules, Storm's exact engine, and the law of
the turns against a turn-by-turn recursion from the rules under the reported policy; the
best chance within N turns against an exact recursion from the rules and an outside
solver's figure."""

from __future__ import annotations

from fractions import Fraction as F
from functools import cache

import pytest
from cli_runner import run

from exactprob.engine.graph import explore
from exactprob.games.jeopardy import (
    FowlPlay,
    Pig,
    SolitaireModel,
    solitaire_report,
    solitaire_turns_report,
)


def float_fewest_turns(goal, sides=6, sweeps=2000):
    """Value iteration from the rules: E(i), the expected turns from a turn start at
    score i, and C(i, k) the turns still to come at turn total k (rolling: a 1 costs the
    turn total, a face f adds f and reaching the goal ends the game; holding banks)."""
    E = [0.0] * goal
    for _ in range(sweeps):
        new = []
        for i in range(goal):
            C = {}
            for k in range(goal - i - 1, -1, -1):
                roll = (
                    E[i] / sides
                    + sum(C[k + f] if i + k + f < goal else 0.0 for f in range(2, sides + 1))
                    / sides
                )
                C[k] = roll if k == 0 else min(roll, E[i + k] if i + k < goal else 0.0)
            new.append(1 + C[0])
        if max(abs(a - b) for a, b in zip(new, E)) < 1e-13:
            break
        E = new
    return E[0]


@pytest.mark.parametrize(("goal", "sides"), [(10, 6), (30, 6), (25, 4)])
def test_fewest_turns_match_value_iteration(goal, sides):
    report = solitaire_report(Pig(goal=goal, sides=sides))
    assert abs(float(report.turns) - float_fewest_turns(goal, sides)) < 1e-9


@pytest.mark.parametrize("game", [Pig(goal=20), FowlPlay(chickens=4, wolves=2, goal=6)])
def test_fewest_turns_equal_storm(game):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_value

    assert storm_value(explore(SolitaireModel(game))) == solitaire_report(game).turns


def turns_law(goal, holds, cap, sides=6):
    """P(turns = n) for n < cap and P(turns >= cap), turn by turn from the rules, holding
    at score i when the turn total reaches holds[i]: each turn moves the score from i to
    i + k (hold) or leaves it (a 1), or ends the game."""

    def turn(i):  # the law of the score after one turn from i (goal: done)
        after, frontier = {}, {0: F(1)}
        while frontier:
            following = {}
            for k, p in frontier.items():
                if k and k >= holds[i]:
                    after[i + k] = after.get(i + k, 0) + p
                    continue
                after[i] = after.get(i, 0) + p / sides
                for face in range(2, sides + 1):
                    if i + k + face >= goal:
                        after[goal] = after.get(goal, 0) + p / sides
                    else:
                        following[k + face] = following.get(k + face, 0) + p / sides
            frontier = following
        return after

    law, scores = {}, {0: F(1)}
    for n in range(1, cap):
        nxt = {}
        for i, p in scores.items():
            for j, q in turn(i).items():
                nxt[j] = nxt.get(j, 0) + p * q
        law[n] = nxt.pop(goal, F(0))
        scores = nxt
    law[cap] = sum(scores.values())
    return law


def test_the_law_of_the_turns_follows_the_rules():
    report = solitaire_report(Pig(goal=20))
    cap = max(report.law.keys())
    assert dict(report.law.items()) == turns_law(20, report.holds, cap)
    assert sum(n * p for n, p in turns_law(20, report.holds, 60).items()) == pytest.approx(
        float(report.turns), abs=1e-9
    )


def test_the_command_plays_alone(capsys):
    status, out, _ = run(capsys, "pig", "--solitaire", "--goal", "2")
    assert status == 0
    assert "expected turns  1.2000000000 = 6/5" in out
    assert "turns needed  median: 1, 90%: 2, 99%: 3" in out
    status, out, _ = run(capsys, "pig", "--solitaire", "--goal", "2", "--json")
    assert '"expected_turns": "6/5"' in out and '"turns_law"' in out


@pytest.mark.parametrize("flag", [["--komi", "1"], ["--players", "optimal"], ["--plot", "x.png"]])
def test_solitaire_refuses_the_race_flags(capsys, flag):
    status, out, err = run(capsys, "pig", "--solitaire", "--goal", "5", *flag)
    assert status == 2 and out == "" and "Traceback" not in err
    expected = (
        "--solitaire plays alone: it takes --goal, --sides, --turns, --max-states and "
        "--json (and --plot with --turns)"
    )
    assert f"{expected}, not {flag[0]}" in err


def within_turns(goal, sides, turns):
    """``(chance, first_bank)`` from the rules, exactly: ``W(a, n)`` the best chance from
    a turn start at score ``a`` with ``n`` turns (this one included), by a recursion on
    the turn total ``k`` (a 1 loses it and the turn; a face ``f`` adds ``f``, reaching
    the goal wins at once; holding banks it and ends the turn). ``first_bank(a, n)``: the
    smallest ``k`` (a total of 2 or more: a roll adds 2 to ``sides``) where holding is
    at least as good as rolling on, and whether they tie (``None``: never)."""

    @cache
    def W(a, n):
        return F(1) if a >= goal else F(0) if n == 0 else turn(a, 0, n)

    @cache
    def roll(a, k, n):
        faces = sum(
            (1 if a + k + f >= goal else turn(a, k + f, n) for f in range(2, sides + 1)), F(0)
        )
        return (W(a, n - 1) + faces) / sides

    @cache
    def turn(a, k, n):
        return roll(a, k, n) if k == 0 else max(roll(a, k, n), W(a + k, n - 1))

    def first_bank(a, n):
        for k in range(2, goal - a):
            if W(a + k, n - 1) >= roll(a, k, n):
                return k, W(a + k, n - 1) == roll(a, k, n)
        return None

    return [W(0, n) for n in range(1, turns + 1)], first_bank


@pytest.mark.parametrize(("goal", "sides", "turns"), [(20, 6, 5), (30, 4, 4), (12, 3, 6)])
def test_the_chance_within_n_turns_follows_the_rules(goal, sides, turns):
    report = solitaire_turns_report(Pig(goal=goal, sides=sides), turns)
    chances, first_bank = within_turns(goal, sides, turns)
    assert list(report.chances) == chances
    for n, by_score in report.holds.items():
        assert all(bank == first_bank(score, n) for score, bank in by_score.items())


def test_pig_to_100_within_ten_turns_matches_an_outside_solver():
    """An independent solver of Neller and Presser's Pig Solitaire exercise (reach 100
    within 10 turns; github.com/connorwhitlow/AI, hw5) prints 0.465442 (six digits, cut
    off), and says 11 turns are the fewest with an even chance."""
    report = solitaire_turns_report(Pig(goal=100), 11)
    assert f"{float(report.chances[9]):.7f}".startswith("0.465442")
    assert report.chances[9] < F(1, 2) <= report.chances[10]


def test_the_command_draws_the_chances_and_the_first_banks(capsys, tmp_path):
    path = tmp_path / "within.png"
    argv = ["pig", "--solitaire", "--goal", "12", "--turns", "3", "--plot", str(path)]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and out.endswith(f"plot written to {path}\n")
    assert path.read_bytes().startswith(b"\x89PNG")


def test_the_command_gives_the_chance_within_n_turns(capsys):
    status, out, _ = run(capsys, "pig", "--solitaire", "--goal", "3", "--turns", "2")
    assert status == 0
    assert "  2  never            0.9621913580 = 1247/1296" in out
    status, out, _ = run(capsys, "pig", "--solitaire", "--goal", "3", "--turns", "2", "--json")
    assert '"chance": "1247/1296"' in out and '"turns_left": 2' in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--turns", "3"], "--turns counts the turns of a game played alone: add --solitaire"),
        (["--solitaire", "--turns", "0"], "--turns must be a whole number from 1 to 1000, got 0"),
        (["--solitaire", "--turns", "x"], "--turns must be a whole number from 1 to 1000"),
        (["--solitaire", "--turns", "", "--plot", "x.png"], "--turns must be a whole number"),
    ],
)
def test_bad_turns_are_refused_in_one_line(capsys, argv, message):
    status, out, err = run(capsys, "pig", "--goal", "5", *argv)
    assert status == 2 and out == "" and "Traceback" not in err
    assert message in err


def test_a_first_bank_tied_with_drawing_on_is_marked():
    """Fowl Play to 6 with 4 chickens and 2 wolves cannot be won within 3 turns (the first
    banks at most 4, then only wolves are left until the reshuffle), so every choice
    ties at 0: the first bank is at 1, tied."""
    report = solitaire_turns_report(FowlPlay(chickens=4, wolves=2, goal=6), 3)
    assert report.chances == (0, 0, 0)
    assert all(report.holds[n][0] == (1, True) for n in (1, 2, 3))
    assert "  1  1=               0.0000000000 = 0" in report.text()
    assert {"turns_left": 1, "score": 0, "turn_total": 1, "tied": True} in report.to_json()["holds"]
