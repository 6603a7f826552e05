"""A fuzz of every ``exactprob`` subcommand: random argument vectors built from each
subcommand's own flags and a pool of awkward values (garbage, negatives, huge and Unicode
numbers, fractions, newlines, malformed expressions, device and missing paths).

Each vector runs in-process under a cap on its CPU time (not wall-clock time, so that a
busy machine cannot fail it) and must end with status 0 or 2 (bad
input: one line on stderr, in the command line's words (``--max-states N``, never the
API's ``max_states=N``), nothing on stdout), never an exception or a traceback, and
leave no file behind in the working directory. Half the vectors ask for ``--json``; an
answer is then checked (:func:`check_answer`): every exact value's ``_decimal`` twin is
that value rounded, every probability lies in [0, 1], a distribution sums to 1 exactly,
win, draw, loss and mutual destruction sum to 1, and the law of ``NdS`` equals the count of
its :math:`S^N` rolls. The pool holds hostile values too: a file name of 300 bytes (in
a directory of 300 bytes), numbers of 5,000 digits, a FIFO and a symbolic link, dice
comparisons too large to compute, a round robin with a match-up that never ends. ``tests/test_fuzz.py`` runs this module
as a script in a child process with a memory cap; run it by hand as

    python tests/fuzz_cli.py --examples 500

Hypothesis shrinks a failure to a short vector and prints it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import re
import shutil
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gmpy2 import mpq
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
#: Where a command's start differs for its files: ``ff`` writes them in its atlas mode.
WRITER_BASES = {
    "ff": ["atlas", "--out", "a.csv", "--max-stamina", "2", "--max-luck", "1"],
}
#: Commands whose vectors always begin with their start: yahtzee's default is the full
#: game, about a minute, and the fuzz is after bad input.
ALWAYS_BASED = {"yahtzee"}

#: The flags that name a file or a folder to write, and the places they draw from: names
#: over 255 bytes (a file, a folder), a FIFO and a symbolic link put in each run's folder,
#: devices, missing folders, and plain names.
PATH_FLAGS = {"--plot", "--out", "--figures", "--cache"}
PATHS = [
    "a" * 300 + ".png", "a" * 300 + "/x.png", "new/" + "a" * 300 + "/x.png", "fifo", "link.png", "/dev/zero",
    "/nonexistent/x.csv", "out.png", "figures/",
]  # fmt: skip
VALUES = [
    "", " ", "0", "1", "2", "3", "6", "-1", "-5", "1/2", "-1/10", "0.5", "1e-5", "1e400",
    "1e-100000", "nan", "inf", "-inf", "9" * 40, "10000000000", "١٠٠", "1_000", "½", "3\n4",
    "2d6", "2d6-2d6+3", "d", "2x6", "0d6", "9000d9000", "1000d1000", "((", "a,b", "1,2,3",
    "0.03,0.17,0.29", "optimal", "hold-at-20", "heuristic:3:7", "standard", "crypt",
    "5 fighter", "1 war-sun", "fighter", "/dev/zero", "/proc/x", "/nonexistent/file.toml",
    "out.png", "out.csv", "figures/", BOOK, "--json", "-",
    "9" * 5000, "1/" + "7" * 5000, "/proc/x", "out.csv", *PATHS,
    "100d1000>100d1000", "1000d1000>1000d1000", "hold-at-3,optimal", "hold-at-3",
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
    sometimes an unknown one), each with values from :data:`VALUES` (:data:`PATHS` for a
    flag that names a place to write), and sometimes a positional value. A third of the
    vectors are one flag on a valid start (for a command that writes files, half of them
    a place to write), so that a hostile value reaches the check it is meant for rather
    than an earlier refusal of another value."""
    command = draw(st.sampled_from(sorted(set(SUBCOMMANDS) - SKIPPED)))
    focused = draw(st.integers(0, 2)) == 0
    argv = [command]
    own = _flags(command)  # builds the command's parser: once a vector
    options = [*own, ("--bogus", 1)]
    writers = [option for option in options if option[0] in PATH_FLAGS]
    writing = focused and bool(writers) and draw(st.booleans())
    if writing:
        options = writers  # half the focused vectors of a writer: one place to write
    if focused or command in ALWAYS_BASED or draw(st.booleans()):
        argv += writer_base(command) if writing else BASES.get(command, [])
    if not focused and draw(st.booleans()):
        argv.append(draw(st.sampled_from(VALUES)))
    flags = st.sampled_from(options)
    for flag, count in draw(st.lists(flags, min_size=focused, max_size=1 if focused else 4)):
        argv.append(flag)
        pool = PATHS if flag in PATH_FLAGS else VALUES
        argv += [draw(st.sampled_from(pool)) for _ in range(count)]
    if ("--json", 0) in own and draw(st.booleans()):
        argv.append("--json")
    return argv


def writer_base(command: str) -> list[str]:
    """The start from which ``command`` writes its files (:data:`WRITER_BASES`)."""
    return WRITER_BASES.get(command, BASES.get(command, []))


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


def check(argv: list[str]) -> int:
    """Run one vector in a fresh temporary working directory; raise AssertionError with
    the vector when it breaks a rule; its exit status."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copyfile(SOURCE_BOOK, Path(folder) / BOOK)
        os.mkfifo(Path(folder) / "fifo")  # a writer that opened it would block: refused
        os.symlink("/dev/null", Path(folder) / "link.png")
        before = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    with _cpu_time_cap(CASE_CPU_SECONDS):
                        status = main(argv)
                except SystemExit as stop:  # argparse: --help, usage errors
                    status = int(stop.code or 0)
            left = sorted(p.name for p in Path(folder).iterdir() if p.name not in PLACED)
        finally:
            os.chdir(before)
    message = err.getvalue()
    assert status in (0, 2), f"{argv!r}: exit status {status}\n{message}"
    assert "Traceback" not in message, f"{argv!r}: traceback\n{message}"
    if status == 2:
        assert out.getvalue() == "", f"{argv!r}: output despite the error"
        assert message.count("\n") == 1 or message.startswith("usage:"), f"{argv!r}: {message!r}"
        assert "max_states=" not in message, f"{argv!r}: the API's words: {message!r}"
        assert not left, f"{argv!r}: left {left} after an error"
    elif "--json" in argv and "--help" not in argv and "-h" not in argv:
        check_answer(argv, json.loads(out.getvalue()))
    return status


#: What each run's working directory holds before the vector runs.
PLACED = {BOOK, "fifo", "link.png"}
#: An exact value as the JSON writes it: an integer or ``p/q``.
EXACT = re.compile(r"-?\d+(/\d+)?")


def check_answer(argv: list[str], payload: Any) -> None:
    """The rules every JSON answer keeps (see the module docstring), and the dice's law
    against the count of every roll (``mpq`` reads exact values of any length)."""
    for where, node in _dicts(payload):
        for key, value in node.items():
            twin = node.get(f"{key}_decimal")
            if isinstance(value, str) and EXACT.fullmatch(value) and isinstance(twin, str):
                exact, shown = mpq(value), mpq(twin)
                places = len(twin.partition(".")[2])
                assert abs(exact - shown) <= mpq(1, 2 * 10**places), (argv, where, key)
        if isinstance(node.get("probability"), str) and EXACT.fullmatch(node["probability"]):
            assert 0 <= mpq(node["probability"]) <= 1, (argv, where)
        law = node.get("distribution")
        if isinstance(law, list) and law:
            assert sum(mpq(row["probability"]) for row in law) == 1, (argv, where)
        if isinstance(law, dict) and law:
            assert sum(mpq(p) for p in law.values()) == 1, (argv, where)
        ends = [node.get(key) for key in ("win", "draw", "lose", "mutual") if key in node]
        if len(ends) >= 2 and all(isinstance(p, str) and EXACT.fullmatch(p) for p in ends):
            assert sum(mpq(p) for p in ends) == 1, (argv, where)
    dice = re.fullmatch(r"(\d+)d(\d+)", str(payload.get("expression", "")))
    if argv[0] == "dice" and dice and int(dice[2]) ** int(dice[1]) <= 10**5:
        count, sides = int(dice[1]), int(dice[2])
        rolls = Counter(sum(roll) for roll in itertools.product(range(1, sides + 1), repeat=count))
        law = {row["outcome"]: mpq(row["probability"]) for row in payload["distribution"]}
        assert law == {total: mpq(n, sides**count) for total, n in rolls.items()}, argv


def _dicts(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every JSON object in ``node``, with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _dicts(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _dicts(value, f"{where}[{index}]")


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
        check(argv)  # the rules are its assertions

    fuzz()


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--examples", type=int, default=200, help="vectors to try")
    run(options.parse_args().examples)
    sys.stdout.write("fuzz: every vector ended with status 0 or 2\n")
