"""The command-line sessions shown in the docs are real output: each ``$ exactprob ...``
line of a ``console`` block that shows its output is run again and must print it, and so
is each ``$ python examples/NAME.py``. JSON
shown in part (``...``) is left out, and so are the runs of the full Yahtzee game (each
20 s or more, one of them minutes; the slow Yahtzee tests check their numbers) and the
Fowl Play redesign (a Dask cluster and many minutes)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import run

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
_PROMPT = re.compile(r"^(\s+)\$ exactprob (.*)$")
_EXAMPLE = re.compile(r"^(\s+)\$ python (examples/\w+\.py)$")


def console_sessions(prompt: re.Pattern[str] = _PROMPT) -> list[tuple[str, str, list[str]]]:
    """(where, command line, the output lines shown) of every command shown with output
    after ``prompt``."""
    sessions = []
    for page in sorted(DOCS.rglob("*.rst")):
        lines = page.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(lines):
            found = prompt.match(line)
            if found is None:
                continue
            indent, command = found.groups()
            shown = []
            for following in lines[number + 1 :]:
                if not following.startswith(indent) or prompt.match(following):
                    break
                shown.append(following[len(indent) :])
            if shown:
                where = page.relative_to(DOCS)
                sessions.append((f"{where}:{number + 1}", command, shown))
    return sessions


def _long_or_partial(command: str, shown: list[str]) -> bool:
    full_yahtzee = command.startswith("yahtzee") and "--categories" not in command
    return full_yahtzee or command.startswith("fowl-redesign") or "..." in "\n".join(shown)


CHECKED = [s for s in console_sessions() if not _long_or_partial(s[1], s[2])]


def test_the_docs_show_sessions_and_most_are_checked() -> None:
    assert len(console_sessions()) >= 8 and len(CHECKED) >= 4


@pytest.mark.parametrize("where, command, shown", CHECKED, ids=[s[0] for s in CHECKED])
def test_a_console_session_in_the_docs_prints_what_it_shows(
    capsys: pytest.CaptureFixture[str], where: str, command: str, shown: list[str]
) -> None:
    status, out, err = run(capsys, *shlex.split(command))
    assert (status, err) == (0, "")
    assert out.rstrip("\n").split("\n") == shown, f"{where}: rerun and paste the output"


EXAMPLES = console_sessions(_EXAMPLE)


@pytest.mark.parametrize("where, script, shown", EXAMPLES, ids=[s[0] for s in EXAMPLES])
def test_an_example_run_in_the_docs_prints_what_it_shows(
    where: str, script: str, shown: list[str]
) -> None:
    done = subprocess.run(
        [sys.executable, script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.rstrip("\n").split("\n") == shown, f"{where}: rerun and paste the output"
