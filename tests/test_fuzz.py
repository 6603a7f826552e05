"""The permanent fuzz of the command line (tests/fuzz_cli.py), run in a child process
under a memory cap of 4 GiB, so that a guard that fails shows up as a failure here
rather than as a machine out of memory."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_cli import PATH_FLAGS, SKIPPED, _flags, check, writer_base

from exactprob.commands import SUBCOMMANDS

FUZZ = Path(__file__).with_name("fuzz_cli.py")
#: A name too long for any file system (255 bytes), as a file and as a folder.
LONG_NAMES = ["a" * 300 + ".png", "a" * 300 + "/x.png", "new/" + "a" * 300 + "/x.png"]
MEMORY_CAP = 4 * 2**30


def _capped() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.mark.slow
def test_every_subcommand_survives_the_fuzz() -> None:
    done = subprocess.run(
        [sys.executable, str(FUZZ), "--examples", "300"],
        capture_output=True,
        text=True,
        timeout=1800,
        preexec_fn=_capped,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-5000:]
    assert "every vector ended with status 0 or 2" in done.stdout


def _writers() -> list[tuple[str, str]]:
    return [
        (command, flag)
        for command in sorted(set(SUBCOMMANDS) - SKIPPED)
        for flag, _ in _flags(command)
        if flag in PATH_FLAGS
    ]


def test_the_writers_are_found() -> None:
    assert {flag for _, flag in _writers()} == PATH_FLAGS - {"--cache"}  # fowl-redesign's


@pytest.mark.parametrize("command, flag", _writers())
@pytest.mark.parametrize("name", LONG_NAMES, ids=["file", "folder", "in-a-new-folder"])
def test_every_writer_refuses_a_name_too_long_in_one_line(command, flag, name) -> None:
    assert check([command, *writer_base(command), flag, name]) == 2
