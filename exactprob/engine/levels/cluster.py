"""The level sweep on a Dask cluster: each level's batches run as tasks on the workers.

For each level, the level below (its sorted keys, values and radius: 16 bytes a state)
is scattered to every worker once, and each batch of the level's states is one task
running the model's step (:func:`~exactprob.engine.levels.batches.step_batch`); the model
itself is scattered once for the whole sweep. The batches are the local sweep's, each
computed by the same code, so the values, and the certified radius summed from them, are
the local run's (on workers with the same numpy and BLAS: another BLAS may sum in another
order, within the same bound). Tasks whose worker is lost are run again by Dask on
another (the inputs are on every worker); when every worker is lost at once, the inputs
are scattered again to the workers that come back and the lost batches rerun. Either way
the answer does not change. Before any work, the memory a
worker needs (two levels and one batch) is compared with every worker's limit.

>>> import exactprob as ep
>>> from exactprob.games.yahtzee import YahtzeeLevels, YahtzeeRules
>>> rules = YahtzeeRules(categories=("Sixes", "Yahtzee"))
>>> ep.solve(YahtzeeLevels(rules), cluster="local").value() == ep.solve(YahtzeeLevels(rules)).value()
True
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Any

import numpy as np

from ...errors import ResourceError, SchedulerError, UsageError
from ...util.cluster import dask_client, distributed_module
from ...util.resources import format_bytes
from .batches import BYTES_PER_STATE, BatchRunner, Level, batch_bytes, step_batch
from .model import LevelModel

__all__ = ["PURPOSE", "cluster_client", "cluster_runner", "worker_need"]

#: What the cluster is for, in messages.
PURPOSE = "solving a level model on a cluster (Dask)"

#: How many times a level's batches are run again after their inputs were lost.
RERUNS = 3

#: How long to wait for a worker after every worker was lost.
WORKER_WAIT_SECONDS = 60


@contextmanager
def cluster_runner(cluster: Any, model: LevelModel, largest_level: int) -> Iterator[BatchRunner]:
    """A runner of the sweep's batches on ``cluster`` (:func:`cluster_client`)."""
    with cluster_client(cluster) as client:
        yield _runner(client, model, largest_level)


@contextmanager
def cluster_client(cluster: Any) -> Iterator[Any]:
    """A Dask client for ``cluster``: a ``distributed.Client`` (kept open), a scheduler's
    address, or ``"local"`` (a cluster of one single-threaded worker process per core,
    closed afterwards). Several solves inside one share it."""
    if hasattr(cluster, "submit") and hasattr(cluster, "scatter"):
        yield cluster
        return
    if not isinstance(cluster, str) or not cluster:
        raise UsageError(
            f"cluster must be a Dask client, a scheduler address or 'local', got {cluster!r}"
        )
    scheduler = None if cluster == "local" else cluster
    with dask_client(scheduler, os.cpu_count() or 1, PURPOSE) as client:
        yield client


def worker_need(model: LevelModel, largest_level: int) -> int:
    """The bytes a worker holds at most: two levels' keys and values (the one scattered to
    it and the one it may be receiving) and one batch's working memory."""
    return 2 * BYTES_PER_STATE * largest_level + batch_bytes(model)


def _runner(client: Any, model: LevelModel, largest_level: int) -> BatchRunner:
    """Check every worker's memory, and run batches as tasks (:class:`_ClusterRun`)."""
    _check_workers(client, worker_need(model, largest_level))
    return _ClusterRun(client, model)


class _ClusterRun:
    """Run one level's batches as tasks; the model is scattered once for the sweep.

    Data scattered to the workers has no recipe: when every worker holding it is lost at
    once, Dask cancels the tasks that read it. Those batches are run again (up to
    :data:`RERUNS` times) after a worker is back, with the inputs scattered anew."""

    def __init__(self, client: Any, model: LevelModel) -> None:
        self.client, self.model = client, model
        self.as_completed = distributed_module(PURPOSE).as_completed
        self.shared_model = self._scatter(model)

    def __call__(
        self, level: int, batches: list[np.ndarray], below: Level, exact: bool
    ) -> Iterator[tuple[int, np.ndarray]]:
        waiting = dict(enumerate(batches))
        for rerun in range(RERUNS + 1):
            self._wait_for_a_worker(level)  # at once when one is up; all may die between levels
            if rerun:
                self.shared_model = self._scatter(self.model)
            shared_below = self._scatter(below)
            futures = {
                self.client.submit(
                    step_batch, self.shared_model, level, batch, shared_below, exact, pure=False
                ): index
                for index, batch in waiting.items()
            }
            for future, found in self.as_completed(
                futures, with_results=True, loop=self.client.loop
            ):
                if not isinstance(found, CancelledError):  # else lost with its inputs
                    del waiting[futures[future]]
                    yield futures[future], found
            if not waiting:
                return
        raise SchedulerError(
            f"the Dask cluster lost the inputs of level {level} {RERUNS + 1} times "
            "(every worker holding them was lost); give it workers that stay up"
        )

    def _scatter(self, data: Any) -> Any:
        # hash=False: a key of its own, not the data's hash; equal data scattered by an
        # earlier solve on the same client is released with that solve's futures, and a
        # shared key was then cancelled under this one (FutureCancelledError)
        return self.client.scatter(data, broadcast=True, hash=False)

    def _wait_for_a_worker(self, level: int) -> None:
        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
        except (TimeoutError, OSError):
            raise SchedulerError(
                f"the Dask cluster lost every worker while solving level {level}, and none "
                f"came back within {WORKER_WAIT_SECONDS} s; start workers and solve again"
            ) from None


def _check_workers(client: Any, need: int) -> None:
    """Refuse, before any work, a cluster with no worker or a worker whose memory limit is
    below ``need`` bytes."""
    workers = client.scheduler_info().get("workers", {})
    if not workers:
        raise ResourceError("the Dask cluster has no workers; start at least one")
    limits = [info.get("memory_limit") or 0 for info in workers.values()]
    smallest = min((limit for limit in limits if limit > 0), default=0)  # 0: no limit
    if 0 < smallest < need:
        raise ResourceError(
            f"a level of this model needs about {format_bytes(need)} on each Dask worker, "
            f"more than the {format_bytes(smallest)} a worker may use; give the workers "
            "more memory or use fewer, larger workers"
        )
