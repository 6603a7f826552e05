"""``exactprob gamebook``: the JSON contract, the report and the walkthrough, bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run

BOOK = str(Path(__file__).parent.parent / "examples" / "books" / "the_salt_mine.toml")

TINY = """
[book]
title = "Two doors"
start = "1"
endurance = 5
combat_skill = 10

[section.1]
[[section.1.choices]]
text = "Left door"
random = [{p = "1/3", goto = "2"}, {p = "2/3", goto = "3"}]
[[section.1.choices]]
text = "Right door"
random = [{p = "1/2", goto = "2"}, {p = "1/2", goto = "3"}]

[section.2]
win = true

[section.3]
death = true
"""


def test_json_contract_on_a_book_solved_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # left wins with 1/3, right with 1/2: the right door, win 1/2
    book = tmp_path / "tiny.toml"
    book.write_text(TINY)
    status, out, _ = run(capsys, "gamebook", str(book), "--json", "--walkthrough")
    payload = json.loads(out)
    assert status == 0 and payload["win"] == "1/2" and payload["win_decimal"] == "0.500000000000"
    assert payload["first_choice"] == "Right door"
    assert [step["choice"] for step in payload["walkthrough"]] == ["Right door"]


def test_report_covers_every_way_play_can_go(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "gamebook", BOOK, "--report", "5", "--json")
    payload = json.loads(out)
    report = [Fraction(entry["probability"]) for entry in payload["report"]]
    assert status == 0 and payload["report_section"] == "5"
    # first arrival at section 5, or an ending without passing it: together, certain
    assert sum(report) == 1 and report == sorted(report, reverse=True)
    assert all(entry["situation"].startswith("section 5 ") for entry in payload["report"][:2])


def test_walkthrough_starts_at_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "gamebook", BOOK, "--walkthrough", "--json")
    payload = json.loads(out)
    first = payload["walkthrough"][0]
    assert status == 0 and first["situation"] == payload["start"]
    assert first["choice"] == payload["first_choice"] and first["win"] == payload["win"]
    assert 0 < Fraction(payload["win"]) < 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("/no/such/book.toml",), "cannot read"),
        ((BOOK, "--report", "999"), "no section '999'"),
        (  # one evadable fight alone passes the limit: refused before any work
            (BOOK, "--max-states", "10"),
            "the evadable fight in section 21 (Salt golem) has up to 672 states, more than",
        ),
        (  # the fights fit, the whole book does not: refused while exploring
            (BOOK, "--max-states", "700"),
            "more than 700 reachable states; pass --max-states N with a larger N to go on",
        ),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], says: str
) -> None:
    status, out, err = run(capsys, "gamebook", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and says in err


def test_a_broken_book_names_file_section_and_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    book = tmp_path / "broken.toml"
    book.write_text(TINY.replace('{p = "2/3", goto = "3"}', '{p = "0.6666", goto = "3"}'))
    status, _, err = run(capsys, "gamebook", str(book))
    assert status == 2 and err.count("\n") == 1
    assert "broken.toml" in err and "section 1" in err and "random" in err


def test_files_that_are_not_utf8_or_loop_forever_are_one_line_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    status, _, err = run(capsys, "gamebook", str(binary))
    assert status == 2 and err.count("\n") == 1 and "binary.toml: not valid TOML" in err
    trap = tmp_path / "trap.toml"  # section 4 only leads back to itself
    trap.write_text(
        TINY.replace('goto = "3"}]\n\n[section.2]', 'goto = "4"}]\n\n[section.2]')
        + '[section.4]\n[[section.4.choices]]\ntext = "Wait"\ngoto = "4"\n'
    )
    status, _, err = run(capsys, "gamebook", str(trap))
    assert status == 2 and err.count("\n") == 1
    assert "trap.toml: no solution is well defined" in err and "section='4'" in err


def test_a_section_never_reached_is_said_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    book = tmp_path / "unreached.toml"  # section 4 is reached by the worse door only
    book.write_text(
        TINY.replace('{p = "2/3", goto = "3"}', '{p = "2/3", goto = "4"}')
        + '[section.4]\n[[section.4.choices]]\ntext = "Fall"\ngoto = "3"\n'
    )
    status, out, _ = run(capsys, "gamebook", str(book), "--report", "4")
    assert status == 0 and "section 4 is never reached with optimal play" in out


GIANT = """
[book]
title = "A long fight"
start = "1"
endurance = 1000
combat_skill = 13

[section.1]
[[section.1.choices]]
text = "Fight the giant"
combat = { enemy = "Giant", combat_skill = 13, endurance = 1000, win = "2", evade_after = 1, evade = "3" }

[section.2]
win = true

[section.3]
[[section.3.choices]]
text = "Back"
goto = "1"
"""


def test_an_evadable_fight_past_the_limit_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Endurance 1,000 against 1,000 with evasion from the first round: up to 1,000 x
    1,000 x 2 states in that fight alone (it ran minutes, then passed the limit)."""
    book = tmp_path / "giant.toml"
    book.write_text(GIANT)
    status, printed, err = run(capsys, "gamebook", str(book))
    assert (status, printed) == (2, "") and err.count("\n") == 1
    assert "fight in section 1 (Giant) has up to 2,000,000 states" in err


def test_the_largest_evadable_fight_of_the_example_book() -> None:
    """The Salt Mine: the golem (section 21, 14 endurance, evasion after 2 rounds) against
    the hero's 16 at most: 16 x 14 x 3; the keeper (10, after 1 round) has 16 x 10 x 2."""
    from exactprob.games.gamebook import load_book

    assert load_book(BOOK).largest_fight() == (16 * 14 * 3, "section 21 (Salt golem)")
