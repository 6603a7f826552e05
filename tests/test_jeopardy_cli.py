"""The CLI contract of ``exactprob pig | fowl-play | red-light`` (issue 5).

Every exact number printed is compared with the generic engine (``exactprob.solve`` on
``JeopardyModel``: the whole game as one graph, exact policy iteration), which shares no
code with the component solver the CLI uses; state counts are enumerated here from the
spec's definition; the fairest komi is recomputed from the generic engine's value of each
komi.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from cli_runner import run

from exactprob import evaluate
from exactprob.engine.exact.solving import solve_model as generic_solve
from exactprob.games.jeopardy import FowlPlay, JeopardyModel, Pig

HALF_UNIT = Fraction(1, 2 * 10**12)  # decimals are rounded to 12 places


def label(value: object) -> str:
    """A test id: argument lists as a command line."""
    return " ".join(value) if isinstance(value, list) else repr(value)


@cache
def generic_value(game: Pig | FowlPlay, komi: int = 0) -> Fraction:
    """The first player's chance by the generic engine, the second starting with ``komi``."""
    return Fraction(generic_solve(JeopardyModel(game, komi)).value())


def run_json(capsys, *argv: str) -> dict:
    status, out, err = run(capsys, *argv, "--json")
    assert (status, err) == (0, "")
    return json.loads(out)


def assert_exact(payload: dict, value: Fraction, key: str = "first_player_win") -> None:
    assert payload[key] == f"{value.numerator}/{value.denominator}"
    decimal = payload[f"{key}_decimal"]
    assert re.fullmatch(r"0\.\d{12}", decimal), decimal
    assert abs(Fraction(decimal) - value) <= HALF_UNIT


def fowl_play_states(chickens: int, wolves: int, goal: int) -> int:
    """The spec's count: every (i, j, k, w, c) with i, j < goal, i + k <= goal,
    k <= c <= chickens and w < wolves (enumerated on a grid)."""
    i, k, c = np.ix_(range(goal), range(goal + 1), range(chickens + 1))
    return int(((i + k <= goal) & (k <= c)).sum()) * goal * wolves


def pig_states(goal: int) -> int:
    """Neller and Presser's count: every (i, j, k) with i, j < goal and i + k < goal."""
    i, k = np.ix_(range(goal), range(goal))
    return int((i + k < goal).sum()) * goal


def test_the_state_enumeration_gives_the_papers_counts():
    assert fowl_play_states(42, 6, 50) == 10_487_700  # Neller et al. (2013)
    assert pig_states(100) == 505_000  # Neller and Presser (2004)


@pytest.mark.parametrize(
    ("argv", "game", "komi"),
    [
        (["--goal", "1"], Pig(goal=1), 0),
        (["--goal", "6"], Pig(goal=6), 0),
        (["--goal", "9"], Pig(goal=9), 0),
        (["--goal", "8", "--sides", "3", "--komi", "2"], Pig(goal=8, sides=3), 2),
    ],
    ids=label,
)
def test_pig_prints_the_generic_engines_exact_value(capsys, argv, game, komi):
    payload = run_json(capsys, "pig", *argv)
    assert_exact(payload, generic_value(game, komi))
    assert payload["exact"] is True
    assert (payload["goal"], payload["sides"], payload["komi"]) == (game.goal, game.sides, komi)
    assert payload["nonterminal_states"] == pig_states(game.goal)


FOWL = [
    (FowlPlay(chickens=3, wolves=2, goal=4), 0),
    (FowlPlay(chickens=2, wolves=1, goal=3), 1),
    (FowlPlay(chickens=5, wolves=2, goal=5), 0),
    (FowlPlay(chickens=1, wolves=3, goal=2), 0),
]


def fowl_argv(game: FowlPlay, komi: int) -> list[str]:
    return [
        "--chickens", str(game.chickens), "--wolves", str(game.wolves),
        "--goal", str(game.goal), "--komi", str(komi),
    ]  # fmt: skip


@pytest.mark.parametrize(("game", "komi"), FOWL, ids=repr)
def test_fowl_play_prints_the_generic_engines_exact_value_and_the_state_count(capsys, game, komi):
    payload = run_json(capsys, "fowl-play", *fowl_argv(game, komi))
    assert_exact(payload, generic_value(game, komi))
    assert payload["exact"] is True
    assert payload["nonterminal_states"] == fowl_play_states(game.chickens, game.wolves, game.goal)
    assert (payload["chickens"], payload["wolves"], payload["komi"]) == (
        game.chickens,
        game.wolves,
        komi,
    )


@pytest.mark.parametrize(("game", "komi"), FOWL[:3], ids=repr)
def test_certified_encloses_the_exact_value_and_prints_no_fraction(capsys, game, komi):
    payload = run_json(capsys, "fowl-play", *fowl_argv(game, komi), "--certified")
    exact = generic_value(game, komi)
    assert "first_player_win" not in payload
    assert payload["exact"] is False
    low, high = (
        Fraction(payload["first_player_win_low"]),
        Fraction(payload["first_player_win_high"]),
    )
    assert low <= exact <= high
    assert high - low < Fraction(1, 10**11)
    decimal = Fraction(payload["first_player_win_decimal"])
    assert abs(decimal - exact) <= Fraction(1, 10**11)
    assert payload["nonterminal_states"] == fowl_play_states(game.chickens, game.wolves, game.goal)


def test_red_light_is_fowl_play_with_24_green_4_red_and_komi_1(capsys):
    payload = run_json(capsys, "red-light", "--goal", "5")
    assert (payload["chickens"], payload["wolves"], payload["komi"]) == (24, 4, 1)
    assert_exact(payload, generic_value(FowlPlay(chickens=24, wolves=4, goal=5), 1))


def fairest_by_the_generic_engine(game: Pig | FowlPlay) -> list[int]:
    distance = [abs(generic_value(game, komi) - Fraction(1, 2)) for komi in range(game.goal)]
    return [komi for komi, d in enumerate(distance) if d == min(distance)]


@pytest.mark.parametrize(
    "argv",
    [
        ["pig", "--goal", "6"],
        ["pig", "--goal", "5", "--sides", "4"],
        ["fowl-play", *fowl_argv(*FOWL[0])],
    ],
    ids=label,
)
def test_fairest_komi_and_komi_table_agree_with_the_generic_engine(capsys, argv):
    payload = run_json(capsys, *argv)
    if argv[0] == "pig":
        game: Pig | FowlPlay = Pig(goal=payload["goal"], sides=payload["sides"])
    else:
        game = FowlPlay(payload["chickens"], payload["wolves"], payload["goal"])
    assert payload["fairest_komi"] == fairest_by_the_generic_engine(game)
    table = payload["komi_table"]
    assert [row["komi"] for row in table] == list(range(game.goal))
    for komi, row in enumerate(table):
        value = generic_value(game, komi)
        assert abs(Fraction(row["first_player_win_decimal"]) - value) <= HALF_UNIT
        if payload["exact"]:  # every exact number as "p/q", with its decimal twin
            assert_exact(row, value)
        else:  # certified: the bounds hold the engine's exact value
            assert Fraction(row["first_player_win_low"]) <= value
            assert value <= Fraction(row["first_player_win_high"])


def test_pig_to_6_has_a_fairest_komi_tie(capsys):
    # with komi 4 or 5 the second player wins with any roll of 2 to 6 (the goal is 6):
    # both komi values give the same game, so both are reported
    assert run_json(capsys, "pig", "--goal", "6")["fairest_komi"] == [4, 5]


BAD = [
    (["pig", "--goal", "0"], "--goal"),
    (["pig", "--goal", "ten"], "--goal"),
    (["pig", "--sides", "1"], "--sides"),
    (["pig", "--komi", "-1"], "--komi"),
    (["pig", "--goal", "5", "--komi", "5"], "--komi"),
    (["fowl-play", "--goal", "0"], "--goal"),
    (["fowl-play", "--wolves", "0"], "--wolves"),
    (["fowl-play", "--chickens", "0"], "--chickens"),
    (["fowl-play", "--komi", "-2"], "--komi"),
    (["fowl-play", "--goal", "4", "--komi", "4"], "--komi"),
    (["fowl-play", "--goal", "4", "--komi", "9"], "--komi"),
    (["fowl-play", "--exact", "--certified"], "--exact"),
    (["red-light", "--goal", "0"], "--goal"),
    (["red-light", "--komi", "50"], "--komi"),
    (["red-light", "--wolves", "0"], "--wolves"),
    (["pig", "--players", "optimal,risk-balancing"], "risk-balancing"),
    (["pig", "--players", "hold-at-0"], "hold-at-0"),
    (["fowl-play", "--players", "optimal,,hold-at-2"], "''"),
    (["fowl-play", "--players", "optimal,optimal"], "--players"),
    (["pig", "--goal", "1", "--players", "optimal"], "--players"),
    (["fowl-play", "--goal", "1", "--players", "hold-at-1"], "--players"),
]


@pytest.mark.parametrize(("argv", "field"), BAD, ids=label)
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_bad_input_exits_2_with_one_line_naming_the_field(capsys, argv, field, as_json):
    status, out, err = run(capsys, *argv, *(["--json"] if as_json else []))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert field in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["pig", "fowl-play", "red-light"])
def test_help_exits_0(capsys, command):
    status, out, err = run(capsys, command, "--help")
    assert (status, err) == (0, "")
    assert "--goal" in out and "--json" in out and "--komi" in out


def engine_matchup(
    game: Pig | FowlPlay, komi: int, first: int | None, second: int | None
) -> Fraction:
    """The generic engine's value of two players, the second starting with ``komi``: hold
    at a total (None: optimal play, decided exactly on the engine's own solution; ties
    hold, like the tables)."""
    model = JeopardyModel(game, komi)
    best = generic_solve(model)

    def choose(state: tuple) -> str:
        actions = model.actions(state)
        total = (first, second)[state[4]]
        if len(actions) == 1:
            return actions[0]
        holds = "hold" in best.ties(state) if total is None else state[2] >= total
        return "hold" if holds else game.draw_word

    return Fraction(evaluate(model, choose).value())


@pytest.mark.parametrize(
    ("argv", "game", "komi"),
    [
        (["pig", "--goal", "9"], Pig(goal=9), 0),
        (["pig", "--goal", "9", "--komi", "4"], Pig(goal=9), 4),
        (["fowl-play", "--goal", "5", "--chickens", "5", "--wolves", "2"], FowlPlay(5, 2, 5), 0),
        (["red-light", "--goal", "4"], FowlPlay(24, 4, 4), 1),  # Red Light's komi by default
    ],
    ids=label,
)
def test_players_round_robin_matches_the_generic_engine(capsys, argv, game, komi):
    payload = run_json(capsys, *argv, "--players", "optimal,hold-at-2,hold-at-3")
    totals = {"optimal": None, "hold-at-2": 2, "hold-at-3": 3}
    assert [p["name"] for p in payload["players"]] == list(totals)
    assert [p["parameters"] for p in payload["players"]][1:] == [1, 1]
    assert len(payload["matchups"]) == 9
    for row in payload["matchups"]:
        expected = engine_matchup(game, komi, totals[row["first"]], totals[row["second"]])
        assert_exact(row, expected)


def test_certified_players_enclose_the_exact_matchups(capsys):
    argv = ["fowl-play", "--goal", "6", "--chickens", "10", "--wolves", "3"]
    players = ["--players", "risk-balancing,optimal"]
    exact = run_json(capsys, *argv, "--exact", *players)["matchups"]
    certified = run_json(capsys, *argv, "--certified", *players)
    assert certified["undecided_choices"] == 0
    for box, value in zip(certified["matchups"], exact, strict=True):
        low, high = float(box["first_player_win_low"]), float(box["first_player_win_high"])
        assert Fraction(low) <= Fraction(value["first_player_win"]) <= Fraction(high)
        assert "first_player_win" not in box


def test_the_plot_is_drawn_for_certified_solves_too(capsys, tmp_path):
    path = tmp_path / "fowl.png"
    argv = ["fowl-play", "--goal", "6", "--certified", "--plot", str(path)]
    assert run_json(capsys, *argv)["plot"] == str(path)
    assert path.stat().st_size > 0


@pytest.mark.parametrize(
    "argv, fragment",
    [
        # Pig to g has g * g * (g + 1) / 2 non-terminal states: 300 * 300 * 301 / 2
        (["pig", "--goal", "300"], "has 13,545,000 non-terminal states, more than the 2,000,000"),
        (
            ["pig", "--goal", "20", "--max-states", "4199"],
            "has 4,200 non-terminal states, more than the --max-states of 4,199;",
        ),
        (["pig", "--goal", "5", "--max-states", "0"], "--max-states must be a whole number >= 1"),
        (
            ["fowl-play", "--chickens", "10000", "--wolves", "10000", "--goal", "10000"],
            "more than the 50,000,000 solved certified by default",
        ),
        (
            ["fowl-play", "--chickens", "200", "--wolves", "20", "--exact"],
            (
                "more than the 2,000,000 solved exact by default; pass --max-states "
                "244225000 to try anyway"
            ),
        ),
    ],
)
def test_a_game_too_large_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert fragment in err and err.count("\n") == 1


def test_a_certified_solve_larger_than_memory_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a machine of 1 GiB, 2,000 chickens against one wolf to 5 (about 0.9 GiB of
    float bounds by working_bytes, whose estimate test_jeopardy_certified measures)."""
    import exactprob.util.resources

    monkeypatch.setattr(exactprob.util.resources, "physical_memory", lambda: 2**30)
    argv = ["fowl-play", "--chickens", "2000", "--wolves", "1", "--goal", "5", "--certified"]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert "enclosing Fowl Play to 5 needs about 917.7 MiB of memory, more than the 768.0" in err


def test_max_states_lets_a_larger_game_through(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "pig", "--goal", "20", "--max-states", "4200", "--json")
    assert status == 0 and json.loads(out)["nonterminal_states"] == 4200


def test_race_report_refuses_an_oversized_race_before_any_work() -> None:
    """The budget is the game's: 200 * 200 * 201 / 2 = 4,020,000 non-terminal states."""
    from exactprob.errors import StateLimitError
    from exactprob.games.jeopardy import race_report

    with pytest.raises(StateLimitError, match="4,020,000 non-terminal states, more than the 2,"):
        race_report(Pig(goal=200))
    with pytest.raises(StateLimitError, match="more than the max_states of 4,019,999"):
        race_report(Pig(goal=200), max_states=4_019_999)
    with pytest.raises(StateLimitError, match="max_states must be a whole number >= 1"):
        race_report(Pig(goal=2), max_states=0)
    assert race_report(Pig(goal=2), max_states=6).exact  # Pig to 2 has 6: allowed
