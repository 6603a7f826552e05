"""Dask clusters: a client of a running scheduler, or of a local cluster made for the work.

Two features run on Dask (extra ``cluster``): the Fowl Play redesign search and the
engine's level sweep on a cluster. Both get their client here: a scheduler address is
checked before any client is made (a malformed one left a half-made client behind, which
hung for 20 s when Python exited and then printed a traceback), and a local cluster has
no dashboard and single-threaded worker processes.

>>> check_address("tcp://127.0.0.1:8786") is None
True
>>> check_address("tcp://127.0.0.1:99999")
Traceback (most recent call last):
...
ValueError: port 99999 out of range in address 'tcp://127.0.0.1:99999'
>>> check_address("inproc://x")
Traceback (most recent call last):
...
ValueError: inproc:// is not a scheduler's network address (one of tcp://, tls://, ws://, wss://, ucx://, or this process's inproc://)
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from ..errors import SchedulerError
from .extras import import_extra

__all__ = ["CONNECT_TIMEOUT", "check_address", "dask_client", "distributed_module"]

#: The address schemes of a scheduler another process can reach (Dask's inproc:// is one
#: process's own: taken only when it names this process, as a client half made for
#: another hangs at exit).
NETWORK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")

CONNECT_TIMEOUT = "10s"
"""How long to try reaching a ``scheduler`` address before giving up."""


def distributed_module(purpose: str) -> ModuleType:
    """Dask's ``distributed``, from the extra ``cluster`` (``purpose`` names the feature in
    the message when it is missing)."""
    return import_extra("distributed", "cluster", purpose)


def check_address(scheduler: str) -> None:
    """Raise ``ValueError`` for a scheduler address that Dask cannot parse (no port, a
    port out of range), before any client is made."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(scheduler, strict=False)
    own = (
        scheme == "inproc"
        and location.count("/") == 2
        and location.split("/")[1] == str(os.getpid())
    )
    if scheme not in NETWORK_SCHEMES and not own:
        raise ValueError(
            f"{scheme}:// is not a scheduler's network address (one of "
            f"{', '.join(s + '://' for s in NETWORK_SCHEMES)}, or this process's inproc://)"
        )
    if scheme in ("tcp", "tls", "ws", "wss"):
        _, port = parse_host_port(location)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} out of range in address {scheduler!r}")


@contextmanager
def dask_client(scheduler: str | None, workers: int, purpose: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, or of a new local cluster of
    ``workers`` single-threaded worker processes (closed on exit)."""
    distributed = distributed_module(purpose)
    if scheduler is None:
        with _workers_ignore_interrupts():
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                silence_logs=logging.CRITICAL,  # Dask's own log lines are not the answer's
                dashboard_address=None,  # no dashboard; its HTTP server on a free port:
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            )
        with cluster, distributed.Client(cluster, set_as_default=False) as client:
            yield client
        return
    try:
        check_address(scheduler)
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SchedulerError(
            f"scheduler {scheduler!r} cannot be reached ({reason}); give a running Dask "
            "scheduler's address such as tcp://host:8786"
        ) from None
    with client:
        yield client


@contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """Ignore Ctrl-C while a local cluster starts its workers.

    A terminal sends Ctrl-C to every process of its group, and each worker printed a
    ``KeyboardInterrupt`` traceback. An ignored signal stays ignored in the processes
    started meanwhile (Python then installs no handler of its own), so only this
    process is interrupted later: it closes the cluster, which ends the workers. A
    Ctrl-C in the second the cluster takes to start is ignored, and a worker the cluster
    restarts later (after a crash) takes Ctrl-C again."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:  # None: a handler not set from Python, restored as the default
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)
