"""Memory guards compare with the least of what the process may have: physical memory, its
address-space limit and its cgroups' limits."""

from __future__ import annotations

import resource
from pathlib import Path

import pytest

from exactprob.errors import ResourceError
from exactprob.util import resources

GIB = 2**30


def test_an_address_space_limit_is_the_memory_a_request_is_checked_against(monkeypatch):
    monkeypatch.setattr(resources, "physical_memory", lambda: 64 * GIB)
    monkeypatch.setattr(resources, "cgroup_limits", list)
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (GIB, resource.RLIM_INFINITY))
    assert resources.memory_limit() == (GIB, "the process's address-space limit of")
    resources.check_memory(GIB // 2, "a half")
    with pytest.raises(ResourceError, match="3/4 of the process's address-space limit of 1.0 GiB"):
        resources.check_memory(GIB, "a whole table")


def test_the_limits_of_the_process_cgroup_and_those_above_it_count(monkeypatch, tmp_path: Path):
    v2, v1 = tmp_path / "unified", tmp_path / "memory"
    monkeypatch.setattr(resources, "CGROUP_ROOTS", {"v2": v2, "v1": v1})
    (v2 / "system.slice" / "job.service").mkdir(parents=True)
    (v2 / "system.slice" / "job.service" / "memory.max").write_text("max\n")
    (v2 / "system.slice" / "memory.max").write_text(f"{3 * GIB}\n")
    (v1 / "box").mkdir(parents=True)
    (v1 / "box" / "memory.limit_in_bytes").write_text(f"{2 * GIB}\n")
    (v1 / "memory.limit_in_bytes").write_text("9223372036854771712\n")  # v1's "none"
    membership = tmp_path / "cgroup"
    membership.write_text("0::/system.slice/job.service\n4:memory:/box\n3:cpuset:/\n")
    assert sorted(resources.cgroup_limits(str(membership))) == [2 * GIB, 3 * GIB]
    membership.write_text("0::/\n")
    assert resources.cgroup_limits(str(membership)) == []
    monkeypatch.setattr(resources, "physical_memory", lambda: 64 * GIB)
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (resource.RLIM_INFINITY,) * 2)
    monkeypatch.setattr(resources, "cgroup_limits", lambda: [2 * GIB])
    assert resources.memory_limit() == (2 * GIB, "the cgroup's limit of")
