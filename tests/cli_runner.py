"""Run the console script in-process and capture what it prints; small runs of every
subcommand, for the checks of its JSON and its text."""

from __future__ import annotations

import pytest

from exactprob.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``exactprob ARGV``; argparse's own exits
    (``--help``, ``--version``, usage errors) count as statuses too."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


#: One small run (a second or less) of every subcommand but fowl-redesign (a Dask cluster).
SMALL_RUNS = [
    ["dice", "2d6-2d6"],
    [
        "prism",
        "tests/qvbs/consensus/consensus.2.prism",
        "tests/qvbs/consensus/consensus.props",
        "--constant",
        "K=2",
    ],
    ["dice", "3d6>d20"],
    ["battle", "--attacker", "5 fighter", "--defender", "1 war-sun"],
    ["risk", "--attacker", "3", "--defender", "2"],
    ["ff", "--hero", "10", "4", "0", "--opponent", "10", "4"],
    ["rogue-rng"],
    ["hp", "--dice", "1d10", "--levels", "3", "--base", "12"],
    ["rubber-band"],
    ["staircakes"],
    ["waffles"],
    ["prd", "--odds", "0.25,1", "--longest-run"],
    ["prd", "--target-rate", "1/4"],
    ["softlock", "--ac", "5"],
    ["gamebook", "examples/books/the_salt_mine.toml"],
    ["cartwheel", "--gold", "10", "--target", "20", "--max-stake", "5"],
    ["pig", "--goal", "10"],
    ["fowl-play", "--chickens", "5", "--wolves", "2", "--goal", "6"],
    ["red-light", "--chickens", "5", "--wolves", "2", "--goal", "6"],
    ["yahtzee", "--categories", "sixes,yahtzee", "--exact", "--law", "--strategies"],
    ["tour"],
]
