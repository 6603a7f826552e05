"""Run the console script in-process and capture what it prints."""

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
