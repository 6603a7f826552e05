"""Memory guards compare with the least of what the process may have: physical memory, its
address-space limit and its cgroup's limit."""

from __future__ import annotations

import resource
from pathlib import Path

import pytest

from exactprob.errors import ResourceError
from exactprob.util import resources

GIB = 2**30


def test_an_address_space_limit_is_the_memory_a_request_is_checked_against(monkeypatch):
    monkeypatch.setattr(resources, "physical_memory", lambda: 64 * GIB)
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (GIB, resource.RLIM_INFINITY))
    assert resources.memory_limit() == (GIB, "the process's address-space limit of")
    resources.check_memory(GIB // 2, "a half")
    with pytest.raises(ResourceError, match="3/4 of the process's address-space limit of 1.0 GiB"):
        resources.check_memory(GIB, "a whole table")


def test_a_cgroup_limit_counts_and_max_means_none(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(resources, "physical_memory", lambda: 64 * GIB)
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (resource.RLIM_INFINITY,) * 2)
    limit = tmp_path / "memory.max"
    monkeypatch.setattr(resources, "CGROUP_LIMITS", (str(limit),))
    limit.write_text("max\n")
    assert resources.memory_limit() == (64 * GIB, "the machine's")
    limit.write_text(f"{2 * GIB}\n")
    assert resources.memory_limit() == (2 * GIB, "the cgroup's limit of")
