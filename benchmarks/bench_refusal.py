"""Refusing a model that grows without end: what each method pays before it says so.

The model walks up a line forever (from ``s`` to ``s + 1`` or ``s + 2``, a half each), so
no method can finish, and each must stop at ``max_states`` with the state-limit error.
Each method runs in a fresh process, its time and peak memory its own, after a small
solve by the same method has loaded the libraries it uses. Exact mode, which explores
breadth first into a compact graph, is the peer every ratio is taken against.
Depth-first mode holds every open state's transitions until its component closes, and
on this line none closes: the goal is that it refuses within exact mode's time and
memory. Run ``python benchmarks/bench_refusal.py`` (about a minute; ``--quick``: 200,000
states instead of 2,000,000).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench_engine import benchmark_parser, finish_report, fmt_ratio, fmt_time, report_header, table

#: The methods timed, the peer first.
METHODS = ("exact", "depth-first", "certified")

_WORKER = """
import json, sys, time
sys.path.insert(0, {here!r})
from bench_memory import peak_kib
import exactprob
from exactprob import Dist, StateLimitError

class Line:
    initial = 0
    def outcome(self, s): return 1 if s >= {end} else None
    def actions(self, s): return ("up",)
    def transition(self, s, a): return Dist({{s + 1: "1/2", s + 2: "1/2"}})

exactprob.solve(Line(), method={method!r})  # loads the method's libraries
Line.outcome = lambda self, s: None  # from now on the line never ends
before = peak_kib()
start = time.perf_counter()
try:
    exactprob.solve(Line(), method={method!r}, max_states={states})
    refused = False
except StateLimitError:
    refused = True
print(json.dumps({{"seconds": time.perf_counter() - start, "peak_kib": peak_kib(),
                  "before_kib": before, "refused": refused}}))
"""


def refuse(method: str, states: int) -> dict[str, float]:
    """Seconds and peak memory (KiB) of ``method`` refusing the endless line at
    ``states`` states, in a fresh interpreter."""
    code = _WORKER.format(here=str(Path(__file__).parent), method=method, states=states, end=20)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not result["refused"]:
        raise SystemExit(f"{method} did not refuse the endless line")
    return result


def main(argv: list[str] | None = None) -> int:
    args = benchmark_parser(__doc__, "200,000 states").parse_args(argv)
    states = 200_000 if args.quick else 2_000_000
    start = time.perf_counter()
    report = report_header("exactprob: refusing a model that never ends", args.quick)
    results = {method: refuse(method, states) for method in METHODS}
    peer = results["exact"]
    rows = [
        [
            method,
            fmt_time(r["seconds"]),
            f"{r['peak_kib'] / 1024:,.0f} MB",
            f"{(r['peak_kib'] - r['before_kib']) * 1024 / states:,.0f} B",
            fmt_ratio(r["seconds"], peer["seconds"]),
            fmt_ratio(r["peak_kib"], peer["peak_kib"]),
        ]
        for method, r in results.items()
    ]
    report += [f"## The endless line, refused at {states:,} states (fresh processes)", ""]
    report += table(["method", "time", "peak", "per state", "time / exact", "peak / exact"], rows)
    report += [
        "",
        "Every method refused the line with the state-limit error. 'per state' is the peak",
        "over the process's peak before the solve, divided by the states.",
        "",
    ]
    return finish_report(report, start, args.out)


if __name__ == "__main__":
    sys.exit(main())
