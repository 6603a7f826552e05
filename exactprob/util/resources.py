r"""Memory checked before and during heavy work: a request whose estimate (each game's own,
from its array shapes or the growth of its exact numbers) is more than the machine can
give is refused in one line, up front (:func:`check_memory`); work whose memory grows
past it anyway is stopped (:func:`check_resident`); rather than ending in a
``MemoryError`` or in GMP aborting the process.

>>> format_bytes(3 * 2**30)
'3.0 GiB'
>>> check_memory(10**6, "a small table")
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import ResourceError

__all__ = [
    "check_memory",
    "check_resident",
    "format_bytes",
    "memory_limit",
    "physical_memory",
    "resident_memory",
]

#: Where the cgroups live: v2's unified tree, and v1's memory controller.
CGROUP_ROOTS = {"v2": Path("/sys/fs/cgroup"), "v1": Path("/sys/fs/cgroup/memory")}
#: The file of a cgroup directory that holds its memory limit, by version.
CGROUP_LIMIT_FILES = {"v2": "memory.max", "v1": "memory.limit_in_bytes"}

#: The share of physical memory one computation may plan to use (the rest: the system,
#: Python itself, and what an estimate leaves out).
USABLE_SHARE = 0.75


def physical_memory() -> int:
    """The machine's physical memory in bytes (16 GiB where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not a POSIX system
        return 16 * 2**30


def memory_limit() -> tuple[int, str]:
    """The most memory this process may have, and what sets it: the machine's physical
    memory, the process's address-space limit (``ulimit -v``, ``RLIMIT_AS``) or its
    cgroup's limit, whichever is least."""
    limits = [(physical_memory(), "the machine's")]
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY and soft > 0:
            limits.append((soft, "the process's address-space limit of"))
    except (ImportError, OSError, ValueError, AttributeError):  # not a POSIX system
        pass
    limits += [(limit, "the cgroup's limit of") for limit in cgroup_limits()]
    return min(limits)


def cgroup_limits(membership: str = "/proc/self/cgroup") -> list[int]:
    """The memory limits of this process's cgroups and of every cgroup above them (a
    container's, a systemd unit's), read from the lines of ``membership``: ``0::/path``
    (v2) and ``N:memory:/path`` (v1)."""
    try:
        with open(membership) as lines:
            entries = [line.strip().split(":", 2) for line in lines]
    except OSError:
        return []
    found = []
    for entry in entries:
        if len(entry) != 3:
            continue
        version = (
            "v2"
            if entry[0] == "0" and not entry[1]
            else "v1"
            if "memory" in entry[1].split(",")
            else None
        )
        if version is None:
            continue
        here = CGROUP_ROOTS[version] / entry[2].lstrip("/")
        for folder in (here, *here.parents):
            found += _limit_in(folder / CGROUP_LIMIT_FILES[version])
            if folder == CGROUP_ROOTS[version]:
                break
    return found


def _limit_in(path: Path) -> list[int]:
    """The limit a cgroup file holds, if any (``max`` and v1's huge default are none)."""
    try:
        text = path.read_text().strip()
    except OSError:
        return []
    return [int(text)] if text.isdigit() and 0 < int(text) < 2**62 else []


def format_bytes(n: float) -> str:
    """``n`` bytes in the largest binary unit below it, to one decimal."""
    if n < 1024:
        return f"{int(n)} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024
        if n < 1024:
            return f"{n:.1f} {unit}"
    return f"{n / 1024:.1f} PiB"


def check_memory(need: int, what: str) -> None:
    """Refuse ``what`` when its estimated ``need`` in bytes is more than
    :data:`USABLE_SHARE` of the memory this process may have (:func:`memory_limit`; one
    line naming both)."""
    have, source = memory_limit()
    usable = int(have * USABLE_SHARE)
    if need > usable:
        raise ResourceError(
            f"{what} needs about {format_bytes(need)} of memory, more than the "
            f"{format_bytes(usable)} this process can give it (3/4 of {source} "
            f"{format_bytes(have)}); try a smaller problem"
        )


def resident_memory() -> int:
    """The process's resident memory now, in bytes (Linux's ``/proc/self/statm``; where
    there is none, the peak so far from ``getrusage``)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def check_resident(what: str) -> None:
    """Stop work in progress whose memory has grown past :data:`USABLE_SHARE` of what
    this process may have (:func:`memory_limit`): for growth no estimate up front can see
    (a model whose states grow longer as it goes), a one-line
    :class:`~exactprob.errors.ResourceError` before the machine runs out."""
    (have, _), used = memory_limit(), resident_memory()
    if used > have * USABLE_SHARE:
        raise ResourceError(
            f"{what} has used {format_bytes(used)} of memory, more than the "
            f"{format_bytes(have * USABLE_SHARE)} this process can give it; try a smaller "
            "problem"
        )
