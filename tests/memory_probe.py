"""Peak memory of a piece of work, measured in a fresh Python process, for the tests
that check the up-front memory estimates (exactprob.util.resources).

The peak is Linux's ``VmHWM`` (the high-water mark of resident memory) from
``/proc/self/status``: it starts afresh with the new program, where ``ru_maxrss`` would
carry over the peak of the (large) pytest process that started it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

_PEAK = (
    "def peak():\n"
    "    with open('/proc/self/status') as status:\n"
    "        line = next(l for l in status if l.startswith('VmHWM:'))\n"
    "    return int(line.split()[1]) * 1024\n"
)


def peak_added(setup: str, work: str) -> int:
    """Bytes by which running ``work`` raises the peak resident memory of a fresh process
    that has run ``setup`` (imports) first."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs Linux's /proc/self/status")
    code = f"{_PEAK}{setup}\nbefore = peak()\n{work}\nprint(peak() - before)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(done.stdout)
