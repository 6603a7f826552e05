"""The documentation builds without a warning, and every example in it runs.

Both builds write only to a temporary directory (doctrees included), never to docs/.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _sphinx(builder: str, out: Path) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-E",
        "-b",
        builder,
        "-d",
        str(out / "doctrees"),
        str(DOCS),
        str(out / builder),
    ]
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, check=False, timeout=900
    )


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    return (
        f"exit status {proc.returncode}\n"
        f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    )


@pytest.mark.slow
def test_html_builds_without_warnings(tmp_path: Path) -> None:
    proc = _sphinx("html", tmp_path)
    assert proc.returncode == 0, _report(proc)


@pytest.mark.slow
def test_doctest_examples_pass(tmp_path: Path) -> None:
    proc = _sphinx("doctest", tmp_path)
    assert proc.returncode == 0, _report(proc)
