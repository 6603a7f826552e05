"""Every notebook in examples/ runs top to bottom in a fresh kernel without an error,
shows the outputs it is committed with (``tests/refresh_notebooks.py`` saves them),
and its tables show the exact numbers the same objects give outside a notebook."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))


def _run(path: Path) -> object:
    from refresh_notebooks import executed

    return executed(path)


def _outputs(notebook: object) -> list[list[tuple[str, object]]]:
    """Each code cell's outputs: kind and data (or text), without counts or metadata."""
    return [
        [(o["output_type"], o.get("data", o.get("text"))) for o in cell.outputs]
        for cell in notebook.cells  # type: ignore[attr-defined]
        if cell.cell_type == "code"
    ]


def _html(notebook: object) -> list[str]:
    """The text/html output of each code cell ('' for a cell without one)."""
    out = []
    for cell in notebook.cells:  # type: ignore[attr-defined]
        if cell.cell_type == "code":
            htmls = [
                o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})
            ]
            out.append("".join(htmls))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_and_shows_what_it_is_committed_with(path: Path) -> None:
    notebook = _run(path)
    for cell in notebook.cells:  # type: ignore[attr-defined]
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", "".join(output.get("traceback", []))
    committed = nbformat.read(path, as_version=4)
    assert all(cell.get("outputs") for cell in committed.cells if cell.cell_type == "code")
    assert _outputs(notebook) == _outputs(committed), "run tests/refresh_notebooks.py"


def test_the_example_notebook_shows_exact_tables() -> None:
    from exactprob.games.risk import risk_battle

    dice_table, bet, long, risk, symbolic = _html(_run(ROOT / "examples" / "notebook.ipynb"))
    assert "1/6 <small>≈ 0.166667</small>" in dice_table  # P(2d6 = 7): 6 of 36
    assert "<th>value at the start</th><td>1/6" in bet and "&#x27;two dice&#x27;" in bet
    assert f"<td>{Fraction(1, 6**20)} <small>" in long and "more outcomes" in long
    for value in risk_battle(5, 3).to_json().values():
        if isinstance(value, str) and "/" in value:
            assert f"<td>{value}" in risk
    assert r"<td>\(p^{2}\)</td>" in symbolic and r"<td>\(\left(1 - p\right)^{2}\)</td>" in symbolic
