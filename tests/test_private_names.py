"""No module imports another module's private name (one that starts with ``_``): what a
module shares, it names publicly, so that its private names can change freely."""

from __future__ import annotations

import ast
from pathlib import Path

ROOTS = [Path(__file__).parent.parent / "exactprob"]


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    return [
        f"{path.name}:{node.lineno} imports {alias.name} from {node.module}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module != "__future__"
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_private_name_is_imported_across_modules() -> None:
    found = [
        line for root in ROOTS for path in root.rglob("*.py") for line in _private_imports(path)
    ]
    assert found == []


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from __future__ import annotations\nfrom .solve import _hidden, shown\n")
    assert _private_imports(module) == ["m.py:2 imports _hidden from solve"]
