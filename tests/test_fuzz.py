"""The permanent fuzz of the command line (tests/fuzz_cli.py), run in a child process
under a memory cap of 4 GiB, so that a guard that fails shows up as a failure here
rather than as a machine out of memory."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).with_name("fuzz_cli.py")
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
