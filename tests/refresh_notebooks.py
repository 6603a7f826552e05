"""Run every notebook in examples/ top to bottom in a fresh kernel and save it with its
outputs, so that the notebooks show what they compute (``tests/test_notebooks.py`` runs
them the same way and requires the same outputs). Needs ``pip install -e '.[test]'``.

    python tests/refresh_notebooks.py
"""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def executed(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, run in a fresh kernel from examples/, without the cells'
    timings (they would differ on every run)."""
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(EXAMPLES)}},
    )
    client.execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    return notebook


def main() -> None:
    for path in sorted(EXAMPLES.glob("*.ipynb")):
        nbformat.write(executed(path), path)
        print(f"refreshed {path.name}")


if __name__ == "__main__":
    main()
