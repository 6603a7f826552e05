"""Every subcommand's output, on a fixed set of runs, compared byte for byte between this
tree and an earlier revision: the check that a refactoring changed no answer.

    python benchmarks/diff_cli.py REV [--only COMMAND ...]

``REV`` is any git revision (``HEAD~3``, a tag, a commit); it is unpacked with ``git
archive`` into a temporary folder, and each run is made twice in a fresh Python process,
once with that folder first on ``PYTHONPATH`` and once with this tree, from the same empty
working directory. Standard output, standard error and the exit status must all be equal;
the script prints one line per run and exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = str(ROOT / "examples" / "books" / "the_salt_mine.toml")

#: The fixed runs: each subcommand's common questions, its JSON, and a bad input.
RUNS: list[list[str]] = [
    ["tour"],
    ["dice", "2d6-2d6"],
    ["dice", "3d6", "--json"],
    ["battle", "--attacker", "5 fighter", "--defender", "1 war-sun"],
    ["battle", "--attacker", "3 fighter", "--defender", "2 fighter", "--json"],
    ["risk", "--attacker", "10", "--defender", "10"],
    ["risk", "--attacker", "5", "--defender", "3", "--json"],
    ["ff", "--hero", "12", "24", "12", "--opponent", "10", "20"],
    ["ff", "--hero", "10", "10", "5", "--opponent", "8", "8", "--json"],
    ["ff", "--hero", "9", "12", "6", "--opponent", "9", "12", "--rule", "crypt", "--rounds", "6"],
    ["ff", "--hero", "10", "10", "5", "--opponent", "8", "8", "--policy", "heuristic:3:7"],
    ["ff", "--hero", "9", "12", "6", "--opponent", "9", "12", "--rule", "crypt", "--keep-stamina", "4"],
    ["ff", "--hero", "10", "0", "5", "--opponent", "8", "8"],
    ["pig", "--goal", "20"],
    ["pig", "--goal", "12", "--json", "--komi", "3"],
    ["pig", "--goal", "10", "--players", "optimal,hold-at-5,keep-pace"],
    ["pig", "--goal", "30", "--max-states", "100"],
    ["pig", "--solitaire", "--goal", "30"],
    ["fowl-play", "--chickens", "6", "--wolves", "2", "--goal", "8"],
    ["fowl-play", "--chickens", "6", "--wolves", "2", "--goal", "8", "--certified", "--json"],
    ["fowl-play", "--chickens", "5", "--wolves", "2", "--goal", "6", "--players", "optimal,risk-balancing"],
    ["red-light", "--chickens", "5", "--wolves", "2", "--goal", "8"],
    ["prd", "--odds", "0.03,0.17,0.29"],
    ["hp", "--dice", "1d10", "--levels", "3", "--base", "12"],
    ["hp", "--dice", "3d6", "--levels", "1", "--base", "0", "--compare", "1d20", "--json"],
    ["softlock", "--ac", "5"],
    ["rogue-rng"],
    ["rubber-band"],
    ["rubber-band", "--streak", "3", "--json"],
    ["waffles"],
    ["waffles", "--json"],
    ["staircakes"],
    ["staircakes", "--json"],
    ["cartwheel", "--gold", "10", "--target", "20", "--max-stake", "5"],
    ["gamebook", BOOK, "--walkthrough"],
    ["yahtzee", "--categories", "sixes,full house,yahtzee", "--dice", "66623", "--roll", "2"],
    ["yahtzee", "--categories", "aces,yahtzee", "--exact", "--dice", "11111", "--roll", "3", "--json"],
    ["yahtzee", "--categories", "sixes,yahtzee", "--law", "--strategies", "--exact"],
    ["yahtzee", "--categories", "chance,yahtzee", "--law", "--json"],
]  # fmt: skip


def run(tree: Path, argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """One run of the console script from ``tree``: exit status, stdout, stderr."""
    environment = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "100"}
    program = "import sys; from exactprob.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", program, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def unpack(revision: str, folder: Path) -> None:
    """The tree of ``revision`` in ``folder`` (``git archive``)."""
    archive = folder / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the git revision to compare with")
    parser.add_argument("--only", nargs="*", help="subcommands to run (all by default)")
    args = parser.parse_args(argv)
    runs = [vector for vector in RUNS if not args.only or vector[0] in args.only]
    differ = 0
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        unpack(args.revision, folder)
        work = folder / "work"
        work.mkdir()
        for vector in runs:
            old, new = run(folder / "tree", vector, work), run(ROOT, vector, work)
            same = old == new
            differ += not same
            print(f"{'same     ' if same else 'DIFFERENT'}  exit {new[0]}  {' '.join(vector)}")
            if not same:
                for name, a, b in zip(("status", "stdout", "stderr"), old, new, strict=True):
                    if a != b:
                        print(
                            f"    {name} differs:\n      old: {str(a)[-300:]!r}\n      new: {str(b)[-300:]!r}"
                        )
    print(f"{len(runs) - differ} of {len(runs)} runs identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
