"""A measurement in a fresh process: the benchmark script runs itself as
``SCRIPT --worker ARGS``, and the child prints one result as JSON. Light on purpose (no
exactprob, no peers), so that a worker loads only what it measures."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable


def in_fresh_process(
    script: str, *args: object, timeout: float | None = None
) -> dict[str, object] | None:
    """``script --worker ARGS`` run in a fresh process: the result it printed, or
    ``None`` when it ran over ``timeout`` seconds."""
    command = [sys.executable, script, "--worker", *map(str, args)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    # the result is the last line: a peer may print its own warnings first (Storm does)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measured(script: str, *args: object) -> dict[str, object]:
    """:func:`in_fresh_process` with no time limit: the result the worker printed."""
    result = in_fresh_process(script, *args)
    assert result is not None  # no timeout was given
    return result


def run_benchmark(main: Callable[[], int], worker: Callable[..., dict[str, object]]) -> None:
    """A benchmark script's entry: with ``--worker ARGS``, one measurement in this
    process, ``worker(*ARGS)`` printed as JSON; otherwise ``main()``, exiting with its
    status."""
    if sys.argv[1:2] == ["--worker"]:
        print(json.dumps(worker(*sys.argv[2:])))
    else:
        sys.exit(main())
