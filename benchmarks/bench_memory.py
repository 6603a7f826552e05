"""Peak memory of a benchmark's process, on its own so that a measuring worker can read
it without loading the peers that ``bench_engine`` imports (icepool, stormpy)."""

from __future__ import annotations

import resource


def peak_kib() -> int:
    """This process image's peak resident memory in KiB: ``VmHWM`` from
    ``/proc/self/status``, else ``ru_maxrss``. On Linux ``ru_maxrss`` survives ``exec``:
    a fresh child (``subprocess``, or ``multiprocessing`` "spawn") of a larger parent
    reports the parent's peak, while ``VmHWM`` belongs to the new process image."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
