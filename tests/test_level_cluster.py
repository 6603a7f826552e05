"""The level sweep on Dask: the same answer as here, on a local cluster of two workers,
even when a worker dies mid-solve; a cluster too small or unreachable is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import exactprob as ep
from exactprob.errors import ModelError, ResourceError, SchedulerError, UsageError
from exactprob.games.yahtzee import YahtzeeLevels, YahtzeeRules
from exactprob.util import cluster as cluster_util

distributed = pytest.importorskip("distributed")

RULES = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"))


@pytest.fixture(scope="module")
def two_workers():
    with cluster_util.dask_client(None, 2, "tests") as made:
        yield made


@pytest.fixture
def client(two_workers):
    """The cluster, once its nannies have restarted any worker a test killed."""
    two_workers.wait_for_workers(2, timeout=120)
    return two_workers


class Dying(YahtzeeLevels):
    """Yahtzee whose steps of level 1 kill the worker process running them, ``deaths``
    times in all (each death claims a marker file first, atomically: two workers running
    level 1 at once do not both die for one marker)."""

    def __init__(self, rules, marker: str, deaths: int = 1):
        super().__init__(rules)
        self.marker, self.deaths = marker, deaths

    def step(self, level, states, values, exact):
        if level == 1 and self._claim_a_death():
            os._exit(1)
        return super().step(level, states, values, exact)

    def _claim_a_death(self) -> bool:
        for death in range(self.deaths):
            try:
                os.close(os.open(f"{self.marker}.{death}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                continue
            return True
        return False


def _died(marker, deaths) -> bool:
    return all(Path(f"{marker}.{death}").exists() for death in range(deaths))


class Broken(YahtzeeLevels):
    def step(self, level, states, values, exact):
        raise ModelError("a step that always fails")


def test_a_cluster_gives_the_local_enclosure_and_exact_value(client):
    model = YahtzeeLevels(RULES)
    model.batch_rows = 4  # many tasks per level
    here, there = ep.solve(model, "certified"), ep.solve(model, "certified", cluster=client)
    assert all(here.value(s) == there.value(s) for s in here.states)
    assert ep.solve(model, cluster=client).value() == ep.solve(model).value()


@pytest.mark.parametrize("deaths", [1, 2], ids=["one worker lost", "every worker lost"])
def test_a_worker_lost_mid_solve_does_not_change_the_answer(client, tmp_path, deaths):
    marker = tmp_path / "killed"
    model = Dying(RULES, str(marker), deaths)
    model.batch_rows = 2
    solved = ep.solve(model, "certified", cluster=client)
    assert _died(marker, deaths)
    same_batches = YahtzeeLevels(RULES)
    same_batches.batch_rows = 2
    assert solved.value() == ep.solve(same_batches, "certified").value()


def test_a_step_error_on_a_worker_is_the_models_error(client):
    with pytest.raises(ModelError, match="always fails"):
        ep.solve(Broken(RULES), "certified", cluster=client)


class TinyWorkers:
    """A stand-in client whose one worker may use 1 MB."""

    def submit(self, *args, **kwargs): ...

    def scatter(self, *args, **kwargs): ...

    def scheduler_info(self):
        return {"workers": {"w": {"memory_limit": 2**20}}}


def test_workers_too_small_are_refused_before_any_work():
    with pytest.raises(ResourceError, match="needs about .* on each Dask worker"):
        ep.solve(YahtzeeLevels(), "certified", cluster=TinyWorkers())


def test_bad_clusters_are_refused(monkeypatch):
    with pytest.raises(UsageError, match="not one"):
        ep.solve(_coin(), cluster="local")
    with pytest.raises(UsageError, match="a Dask client, a scheduler address or 'local'"):
        ep.solve(YahtzeeLevels(RULES), "certified", cluster=7)
    monkeypatch.setattr(cluster_util, "CONNECT_TIMEOUT", "0.2s")
    with pytest.raises(SchedulerError, match="cannot be reached"):
        ep.solve(YahtzeeLevels(RULES), "certified", cluster="tcp://127.0.0.1:1")


def _coin():
    class Coin:
        initial = "start"

        def outcome(self, s):
            return None if s == "start" else 1

        def actions(self, s):
            return ("flip",)

        def transition(self, s, a):
            return ep.Dist({"H": 1})

    return Coin()
