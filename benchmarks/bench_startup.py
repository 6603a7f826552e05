"""Start-up: how long ``import exactprob`` and short commands take, in fresh processes.

Every case runs in a new interpreter, as a user types it (the ``exactprob`` console
script next to this Python), and the best and median wall times of the repeats are
reported, against the interpreter starting alone (the peer, measured in the same run)
and against the goals of the fidelity issue: ``import exactprob`` at most 0.15 s,
``--help`` and ``--version`` at most 0.3 s, ``exactprob dice 2d6`` at most 0.5 s. A
second pass lists the heavy libraries each case loads (none for ``--help``: the console
script imports only the module of the subcommand it runs, and the engine loads scipy and
sympy when a solve first needs them). Run ``python benchmarks/bench_startup.py`` (about
20 s; ``--quick``: 3 repeats).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_engine import benchmark_parser, fmt_ratio, fmt_time, report_header, table

#: Libraries that take a tenth of a second or more to import.
HEAVY = ("dask", "matplotlib", "networkx", "scipy", "sklearn", "sympy")

SCRIPT = Path(sys.executable).with_name("exactprob")
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "exactprob.cli"]

#: A small model without cycles, solved once: a race of three rolls, each of a coin or a
#: die, where heads and sixes count (a first solve should cost milliseconds, not the 0.2 s
#: of loading scipy).
FIRST_SOLVE = """
import exactprob as ep

class Race:
    initial = (0, 0)
    def outcome(self, s): return s[1] if s[0] == 3 else None
    def actions(self, s): return ("coin", "die")
    def transition(self, s, a):
        n = ep.Dist({0: "1/2", 1: "1/2"}) if a == "coin" else ep.die(6).map(lambda x: x // 6)
        return n.map(lambda x: (s[0] + 1, s[1] + x))

ep.solve(Race())
"""

#: A small model with cycles, solved once: Pig to 4 for two players (32 states; a roll of
#: 1 passes the turn back with the scores as they were).
FIRST_CYCLIC_SOLVE = """
import exactprob as ep

class Pig:
    initial = (0, 0, 0, 0)
    def outcome(self, s): return (1 if s[1] == 0 else 0) if s[0] == 2 else None
    def player(self, s): return s[0]
    def actions(self, s): return ("roll",) if s[3] == 0 else ("roll", "hold")
    def transition(self, s, a):
        m, x, y, k = s
        if a == "hold":
            return ep.Dist({(1, x + k, y, 0) if m == 0 else (0, x, y + k, 0): 1})
        mine = x if m == 0 else y
        def roll(r):
            if r == 1:
                return (1 - m, x, y, 0)
            return (2, m, 0, 0) if mine + k + r >= 4 else (m, x, y, k + r)
        return ep.die(6).map(roll)

ep.solve(Pig())
"""

#: (what a user runs, command line, goal in seconds or None).
CASES: list[tuple[str, list[str], float | None]] = [
    ("Python alone (peer)", [sys.executable, "-c", "pass"], None),
    ("import numpy (peer)", [sys.executable, "-c", "import numpy"], None),
    ("import exactprob", [sys.executable, "-c", "import exactprob"], 0.15),
    (
        "import exactprob and a first solve (24 states)",
        [sys.executable, "-c", f"exec({FIRST_SOLVE!r})"],
        None,
    ),
    (
        "import exactprob and a first solve with cycles (32 states)",
        [sys.executable, "-c", f"exec({FIRST_CYCLIC_SOLVE!r})"],
        None,
    ),
    ("exactprob --version", [*CLI, "--version"], 0.3),
    ("exactprob --help", [*CLI, "--help"], 0.3),
    ("exactprob dice 2d6", [*CLI, "dice", "2d6"], 0.5),
    (
        "exactprob risk --attacker 5 --defender 5",
        [*CLI, "risk", "--attacker", "5", "--defender", "5"],
        None,
    ),
]

_PROBE = """
import runpy, sys
sys.argv = {argv!r}
try:
    {action}
except SystemExit:
    pass
print(",".join(sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))), file=sys.stderr)
"""


def wall_times(command: list[str], repeat: int) -> list[float]:
    """Wall-clock seconds of ``repeat`` runs of ``command`` (output discarded; a failing
    run stops the benchmark)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def heavy_loaded(command: list[str]) -> str:
    """The heavy libraries the case has imported when it ends, from a probe run in a fresh
    interpreter (the console script's work done through ``exactprob.cli.main``)."""
    if command[0] == sys.executable:
        action, argv = command[-1], [command[0]]
    else:
        action = 'runpy.run_module("exactprob.cli", run_name="__main__")'
        argv = ["exactprob", *command[len(CLI) :]]
    probe = _PROBE.format(argv=argv, action=action, heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


def main(argv: list[str] | None = None) -> int:
    args = benchmark_parser(__doc__, "3 repeats").parse_args(argv)
    repeat = 3 if args.quick else 15
    start = time.perf_counter()
    report = report_header("exactprob start-up benchmark", args.quick)
    rows = []
    peer = None
    missed = []
    for label, command, goal in CASES:
        times = wall_times(command, repeat)
        best = min(times)
        peer = best if peer is None else peer
        verdict = "" if goal is None else ("met" if best <= goal else "NOT MET")
        if verdict == "NOT MET":
            missed.append(label)
        rows.append(
            [
                label,
                fmt_time(best),
                fmt_time(statistics.median(times)),
                fmt_ratio(best, peer),
                "" if goal is None else f"{goal:g} s: {verdict}",
                heavy_loaded(command) or "none",
            ]
        )
    report += ["## Start-up, fresh processes", ""]
    report += table(
        [
            "case",
            "best",
            "median",
            "/ Python alone",
            "goal",
            f"heavy libraries loaded ({', '.join(HEAVY)})",
        ],
        rows,
    )
    report += [
        "",
        (
            f"Best and median of {repeat} runs each. The ratio is to the interpreter "
            "starting with nothing to import, measured in the same run."
        ),
        "",
        "Every goal met." if not missed else f"Goals not met: {', '.join(missed)}.",
        "",
        f"Benchmark wall time: {time.perf_counter() - start:.1f} s",
    ]
    text = "\n".join(report) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
