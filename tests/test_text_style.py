"""Every subcommand writes its text in one style (``exactprob.util.text``), checked line by
line (:func:`text_style.style_faults`) on small runs of each."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import SMALL_RUNS
from text_style import style_faults

from exactprob.cli import main
from exactprob.commands import SUBCOMMANDS

BOOK = "examples/books/the_salt_mine.toml"
#: Text paths the small runs do not reach: other flags, certified values, tables, advice.
MORE_RUNS = [
    ["dice", "1d6"],
    ["dice", "300d6"],
    ["battle", "--attacker", "2 cruiser", "--defender", "2 fighter", "--optimal", "attacker"],
    ["ff", "--hero", "9", "6", "3", "--opponent", "8", "6", "--rounds", "5"],
    ["ff", "--hero", "9", "6", "3", "--opponent", "8", "6", "--policy", "none"],
    ["rogue-rng", "--n", "3", "--sum-of", "4", "--stride", "2"],
    ["hp", "--dice", "1d4", "--levels", "2", "--compare", "2d2", "--full"],
    ["prd", "--odds", "0.3,0.6,1", "--trials", "30", "--gaps", "5", "--simulate", "200"],
    ["prd", "--odds", "1/1000,1/500,1", "--trials", "12", "--exact-distribution"],
    ["softlock", "--ac", "10", "--eyes", "2"],
    ["softlock", "--ac", "5", "--limit", "3000"],
    ["softlock", "--ac", "12", "--limit", "40", "--exact"],
    ["gamebook", BOOK, "--walkthrough", "--report", "2"],
    ["cartwheel", "--gold", "3", "--target", "9", "--numbers", "5", "--bet", "1:3", "2:1"],
    ["pig", "--goal", "8", "--players", "hold-at-3,keep-pace,optimal"],
    ["pig", "--goal", "8", "--solitaire"],
    ["fowl-play", "--chickens", "4", "--wolves", "1", "--goal", "4", "--certified"],
    ["yahtzee", "--categories", "sixes,yahtzee"],
    ["yahtzee", "--categories", "sixes,chance", "--dice", "22356", "--roll", "2"],
    ["yahtzee", "--categories", "sixes", "--exact", "--simulate", "30"],
    ["waffles", "--levels", "4"],
]


def test_the_runs_cover_every_subcommand() -> None:
    # fowl-redesign needs a Dask cluster: its text is checked in test_jeopardy_redesign.py
    assert {argv[0] for argv in SMALL_RUNS + MORE_RUNS} | {"fowl-redesign"} == set(SUBCOMMANDS)


@pytest.mark.parametrize("argv", SMALL_RUNS + MORE_RUNS, ids=" ".join)
def test_every_subcommand_writes_the_one_text_style(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 0
    assert style_faults(capsys.readouterr().out) == []


def test_the_atlas_summary_writes_the_one_text_style(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["ff", "atlas", "--out", str(tmp_path / "a.csv"), "--max-stamina", "3"]
    assert main([*argv, "--max-luck", "1"]) == 0
    assert style_faults(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    "line",
    [
        "  p  0.25",
        "  p  0.2500000000 = 1/3 = 1/3",
        "  p  1/4 = 0.2500000000",
        "  d  {'0': 77702}",
        "  q  0.000012 = 3/250000",
        "  q  " + "1" * 201,
    ],
)
def test_the_style_check_finds_each_fault(line: str) -> None:
    assert style_faults("header\n" + line)


def test_the_style_check_passes_each_form() -> None:
    text = "\n".join(
        [
            "header 1/2 0.5",
            "  a  0.2500000000 = 1/4",
            "  b  3",
            "  c  1.653817169e-8 = 1/60466176",
            "  d  0.3333333333 (exact: a 51-digit over a 51-digit integer; see --json)",
            "  e  0.7094243226 (certified: the exact value is within 1.6e-14)",
            "  f  4.9749371855 = 3*sqrt(11)/2",
            f"  g  {Fraction(1, 3):}".replace("1/3", "0.3333333333 = 1/3"),
        ]
    )
    assert style_faults(text) == []
