"""A fuzz of every ``exactprob`` subcommand: random argument vectors built from each
subcommand's own flags and a pool of awkward values (garbage, negatives, huge and Unicode
numbers, fractions, newlines, malformed expressions, device and missing paths).

Each vector runs in-process under a cap on its CPU time (not wall-clock time, so that a
busy machine cannot fail it) and must end with status 0 or 2 (bad
input: one line on stderr, nothing on stdout), never an exception or a traceback, and
leave no file behind in the working directory. ``tests/test_fuzz.py`` runs this module
as a script in a child process with a memory cap; run it by hand as

    python tests/fuzz_cli.py --examples 500

Hypothesis shrinks a failure to a short vector and prints it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactprob.cli import build_parser, main
from exactprob.commands import SUBCOMMANDS

#: CPU seconds one vector may use: a guard that works refuses at once, and the slowest valid
#: request the pool can draw (the default ``fowl-play``) takes about 20. The cap counts the
#: process's own CPU time (``ITIMER_PROF``), which other work on the machine does not inflate.
CASE_CPU_SECONDS = 120
#: Commands left out: fowl-redesign starts a Dask cluster (its bad input is tested in
#: tests/test_jeopardy_redesign.py); tour prints fixed results and takes no values.
SKIPPED = {"fowl-redesign", "tour"}

#: The example book, copied into each run's working directory as ``book.toml`` (so that
#: a vector that writes to it, ``--out book.toml``, harms only the copy).
SOURCE_BOOK = Path(__file__).resolve().parent.parent / "examples" / "books" / "the_salt_mine.toml"
BOOK = "book.toml"
#: A valid start for each subcommand, so that random flags also reach the work itself.
BASES = {
    "battle": ["--attacker", "2 fighter", "--defender", "1 fighter"],
    "cartwheel": ["--gold", "10", "--target", "20", "--max-stake", "5"],
    "dice": ["2d6"],
    "ff": ["--hero", "10", "10", "5", "--opponent", "8", "8"],
    "fowl-play": ["--chickens", "6", "--wolves", "2", "--goal", "8"],
    "gamebook": [BOOK],
    "hp": ["--dice", "1d10", "--levels", "3", "--base", "12"],
    "pig": ["--goal", "10"],
    "prd": ["--odds", "0.03,0.17,0.29"],
    "red-light": ["--chickens", "5", "--wolves", "2", "--goal", "8"],
    "risk": ["--attacker", "3", "--defender", "2"],
    "softlock": ["--ac", "5"],
    "yahtzee": ["--categories", "sixes,yahtzee"],
}
#: Commands whose vectors always begin with their start: yahtzee's default is the full
#: game, about a minute, and the fuzz is after bad input.
ALWAYS_BASED = {"yahtzee"}

VALUES = [
    "", " ", "0", "1", "2", "3", "6", "-1", "-5", "1/2", "-1/10", "0.5", "1e-5", "1e400",
    "1e-100000", "nan", "inf", "-inf", "9" * 40, "10000000000", "١٠٠", "1_000", "½", "3\n4",
    "2d6", "2d6-2d6+3", "d", "2x6", "0d6", "9000d9000", "1000d1000", "((", "a,b", "1,2,3",
    "0.03,0.17,0.29", "optimal", "hold-at-20", "heuristic:3:7", "standard", "crypt",
    "5 fighter", "1 war-sun", "fighter", "/dev/zero", "/proc/x", "/nonexistent/file.toml",
    "out.png", "out.csv", "figures/", BOOK, "--json", "-",
]  # fmt: skip


class TooSlow(Exception):
    """A vector used more than :data:`CASE_CPU_SECONDS` of CPU time."""


def _flags(command: str) -> list[tuple[str, int]]:
    """The options of a subcommand's parser as ``(flag, how many values it takes)``."""
    parser = build_parser(command).commands[command]
    flags = []
    for action in parser._actions:  # argparse has no public list of a parser's options
        if not action.option_strings or action.dest in ("help", "version"):
            continue
        nargs = action.nargs
        count = 0 if nargs == 0 else (nargs if isinstance(nargs, int) else 1)
        flags.append((action.option_strings[-1], count))
    return flags


@st.composite
def argument_vectors(draw: st.DrawFn) -> list[str]:
    """A subcommand, often with a valid start (:data:`BASES`), then a few of its flags (and
    sometimes an unknown one), each with values from :data:`VALUES`, and sometimes a
    positional value."""
    command = draw(st.sampled_from(sorted(set(SUBCOMMANDS) - SKIPPED)))
    argv = [command]
    if command in ALWAYS_BASED or draw(st.booleans()):
        argv += BASES.get(command, [])
    if draw(st.booleans()):
        argv.append(draw(st.sampled_from(VALUES)))
    for flag, count in draw(
        st.lists(st.sampled_from(_flags(command) + [("--bogus", 1)]), max_size=4)
    ):
        argv.append(flag)
        argv += [draw(st.sampled_from(VALUES)) for _ in range(count)]
    return argv


@contextlib.contextmanager
def _cpu_time_cap(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise TooSlow

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def check(argv: list[str]) -> None:
    """Run one vector in a fresh temporary working directory; raise AssertionError with
    the vector when it breaks a rule."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copyfile(SOURCE_BOOK, Path(folder) / BOOK)
        before = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    with _cpu_time_cap(CASE_CPU_SECONDS):
                        status = main(argv)
                except SystemExit as stop:  # argparse: --help, usage errors
                    status = int(stop.code or 0)
            left = sorted(p.name for p in Path(folder).iterdir() if p.name != BOOK)
        finally:
            os.chdir(before)
    message = err.getvalue()
    assert status in (0, 2), f"{argv!r}: exit status {status}\n{message}"
    assert "Traceback" not in message, f"{argv!r}: traceback\n{message}"
    if status == 2:
        assert out.getvalue() == "", f"{argv!r}: output despite the error"
        assert message.count("\n") == 1 or message.startswith("usage:"), f"{argv!r}: {message!r}"
        assert not left, f"{argv!r}: left {left} after an error"


def run(examples: int) -> None:
    """Check ``examples`` vectors (derandomized: the same ones on every run)."""

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(argument_vectors())
    def fuzz(argv: list[str]) -> None:
        check(argv)

    fuzz()


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--examples", type=int, default=200, help="vectors to try")
    run(options.parse_args().examples)
    sys.stdout.write("fuzz: every vector ended with status 0 or 2\n")
