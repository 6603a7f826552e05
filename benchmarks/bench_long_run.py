#!/usr/bin/env python
"""The best long run against Storm's exact engine, measured in one run on one machine.

Usage::

    pip install -e .[bench]          # stormpy, the peer
    python benchmarks/bench_long_run.py [--quick] [--sizes 10,30,100] [--storm-timeout S]

The model is ``examples/long_run.py``'s ``Upkeep(k, k)``: a machine with wear 0..k and a
shelf of 0..k spare parts, :math:`(k + 1)^2` states, 2 or 3 actions each. exactprob
explores it and plays it best (``ep.stationary``: exact multichain policy iteration);
Storm builds the same explored graph from DRN with rational numbers and checks
``R{"value"}max=? [LRA]`` in its exact environment. Each side runs in a fresh process:
exactprob's time is the exploration and the solve, Storm's the build and the check (not
the DRN writing, which is exactprob's Python). A Storm run over ``--storm-timeout``
seconds (600) is stopped and shown as such. The two exact gains must be equal. Both
sides load their libraries before the clock starts.

``--quick`` runs k = 10 and 30 (a few seconds); the default adds 50, 100 and 316
(10^5 states; Storm is stopped there). ``--out FILE`` also writes the report (the
machine, then the table) to FILE. The script exits with status 1 when the two gains
differ.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

from bench_memory import peak_kib
from bench_worker import in_fresh_process, run_benchmark

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def ours(k: int) -> dict[str, object]:
    """Explore and play ``Upkeep(k, k)`` best, in this process."""
    import exactprob as ep
    from examples.long_run import Upkeep

    ep.stationary(Upkeep(1, 1), progress=False)  # the imports a first solve loads
    start = time.perf_counter()
    run = ep.stationary(Upkeep(k, k), progress=False)
    gain = run.long_run_average()
    seconds = time.perf_counter() - start
    peak_mb = peak_kib() / 1024
    return {"states": len(run.states), "seconds": seconds, "gain": str(gain), "peak_mb": peak_mb}


def storm(k: int) -> dict[str, object]:
    """Storm's exact LRA on the explored graph of ``Upkeep(k, k)``, in this process."""
    import stormpy  # noqa: F401  (loaded before the clock starts, as exactprob's imports)

    import exactprob as ep
    from exactprob.verify.storm import storm_timed_long_run_average
    from examples.long_run import Upkeep

    graph = ep.explore(Upkeep(k, k), progress=False).to_networkx()
    gain, timings = storm_timed_long_run_average(graph)
    return {"seconds": timings["build"] + timings["check"], "gain": str(gain)}


def measure(side: str, k: int, timeout: float | None) -> dict[str, object] | None:
    """Run one side in a fresh process; ``None`` when it ran over ``timeout``."""
    return in_fresh_process(__file__, side, k, timeout=timeout)


def worker(side: str, k: str) -> dict[str, object]:
    """The worker's arguments, as the command line gives them."""
    return (ours if side == "ours" else storm)(int(k))


def main() -> int:
    # the report's helpers load the other benchmarks' peers: here, never in a worker
    from bench_engine import benchmark_parser, finish_report, log, report_header

    parser = benchmark_parser(__doc__, "k = 10 and 30 only")
    parser.add_argument("--sizes", help="comma-separated k (overrides --quick)")
    parser.add_argument("--storm-timeout", type=float, default=600.0, metavar="S")
    args = parser.parse_args()
    sizes = [10, 30] if args.quick else [10, 30, 50, 100, 316]
    if args.sizes:
        sizes = [int(k) for k in args.sizes.split(",")]
    start = time.perf_counter()
    report = report_header("The best long run against Storm's exact LRA", args.quick)
    report += [
        "| k | states | exactprob s | exactprob MB | Storm exact s | ratio | gains equal |",
        "|---|---|---|---|---|---|---|",
    ]
    for k in sizes:
        log(f"k = {k}")
        mine = measure("ours", k, None)
        assert mine is not None
        peer = measure("storm", k, args.storm_timeout)
        if peer is None:
            peer_text, ratio, equal = (
                f"over {args.storm_timeout:.0f}",
                "< " + _ratio(float(mine["seconds"]), args.storm_timeout),
                "-",
            )
        else:
            peer_text = f"{float(peer['seconds']):.2f}"
            ratio = _ratio(float(mine["seconds"]), float(peer["seconds"]))
            same = Fraction(str(mine["gain"])) == Fraction(str(peer["gain"]))
            equal = "yes" if same else "DIFFERENT"
        report.append(
            f"| {k} | {mine['states']:,} | {float(mine['seconds']):.2f} | "
            f"{float(mine['peak_mb']):.0f} | {peer_text} | {ratio} | {equal} |"
        )
    return finish_report(report, start, args.out)


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}x"


if __name__ == "__main__":
    run_benchmark(main, worker)
