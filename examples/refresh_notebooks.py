"""Run every notebook in this folder top to bottom in a fresh kernel and save it with its
outputs, so that the notebooks show what they compute (``tests/test_notebooks.py`` runs
them again and requires the same outputs). Needs ``pip install -e '.[test]'``.

    python examples/refresh_notebooks.py
"""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

HERE = Path(__file__).resolve().parent


def executed(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, run in a fresh kernel from this folder."""
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    )
    client.execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)  # timings: they would differ on every run
    return notebook


def main() -> None:
    for path in sorted(HERE.glob("*.ipynb")):
        nbformat.write(executed(path), path)
        print(f"refreshed {path.name}")


if __name__ == "__main__":
    main()
