"""Pytest's options for the whole repository (tests, proofs and doctests): the checks
marked ``slow`` are left out unless ``--slow`` is given (``.ci/run`` gives it), a ``-m``
expression chooses for itself, or a test is named (``file.py::test``)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        help="also run the tests marked slow: the docs build, the CLI fuzz, the full games",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    named = any("::" in arg for arg in config.args)  # a test asked for by name runs
    if config.getoption("--slow") or config.getoption("markexpr") or named:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
