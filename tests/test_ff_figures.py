"""Smoke tests of the Fighting Fantasy figures: each returns a Figure with the expected
panels, on small grids, and write_atlas_figures writes its files."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # no display needed; before pyplot is imported

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from exactprob.errors import ModelError
from exactprob.games.fighting_fantasy import Fight, atlas, best_heuristics, solve_grid
from exactprob.games.fighting_fantasy.figures import (
    _panel,
    best_heuristic_map,
    best_tau_histograms,
    closed_form_vs_simulation,
    policy_maps,
    write_atlas_figures,
)
from exactprob.games.fighting_fantasy.rules import ends_either_way


@pytest.fixture(autouse=True)
def _close_figures() -> object:
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def small() -> object:
    return atlas(deltas=[-1, 0, 1], max_stamina=6, max_luck=3)


def panels(fig: Figure) -> list[object]:
    """The axes that hold an image (heuristic maps), colour bars excluded."""
    return [ax for ax in fig.axes if ax.images]


def map_titles(fig: Figure) -> list[str]:
    """The panel titles of a policy map (all panels share one set of axes)."""
    return [t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid() == "panel"]


def test_policy_maps_one_panel_per_delta_and_luck(small: object) -> None:
    fig = policy_maps(small, [-1, 0, 1], [0, 3, 2])
    assert isinstance(fig, Figure)
    titles = map_titles(fig)
    assert len(titles) == 9
    assert titles[:4] == ["Δ = -1, luck 0", "Δ = 0, luck 0", "Δ = 1, luck 0", "Δ = -1, luck 3"]
    ax, _colour_bar = fig.axes  # one set of axes for the panels, one shared colour bar
    assert len(ax.images) == 9


def test_policy_maps_accepts_a_mapping_of_grids_and_wraps_one_delta() -> None:
    grids = {2: solve_grid(Fight(2, 5, 7, 4))}
    fig = policy_maps(grids, [2], range(5))
    assert len(map_titles(fig)) == 5
    image = fig.axes[0].images[0].get_array()
    assert image.shape == (5, 7)  # hero rows, opponent columns


def test_the_main_figure_has_the_papers_panels() -> None:
    grids = {d: solve_grid(Fight(d, 3, 3, 12)) for d in (-4, -2, 0, 2, 4)}
    assert len(map_titles(policy_maps(grids))) == 25


def test_policy_map_cells_are_the_grid() -> None:
    grid = solve_grid(Fight(0, 6, 6, 12))
    values, codes, ties = _panel(grid, 12)
    assert values[5, 5] == pytest.approx(float(grid.value(6, 6, 12)))
    assert codes[3, 2] == grid.strategy(4, 3, 12)
    assert not _panel(grid, 0)[1].any()  # no luck, no strategy
    # luck 1: a test cannot succeed, so against an odd stamina a hit of 1 and a hit of 2
    # leave the opponent needing the same number of hits: an exact tie after a won round
    assert _panel(grid, 1)[2][3, 4]  # hero 4, opponent 5
    assert ties.dtype == bool


def test_ties_that_end_the_fight_either_way_are_not_marked() -> None:
    assert ends_either_way(True, 5, 1, 6)
    assert ends_either_way(True, 5, 2, 12)  # a lucky hit cannot fail at luck 12
    assert not ends_either_way(True, 5, 2, 11)
    assert ends_either_way(False, 2, 5, 1)  # the test cannot succeed at luck 1
    assert not ends_either_way(False, 2, 5, 2)
    # a lucky hit that dealt only 1 would leave an opponent at 2 standing
    assert not ends_either_way(True, 5, 2, 12, lucky_hit=1)


def test_policy_maps_rejects_what_is_not_solved(small: object) -> None:
    with pytest.raises(ModelError, match="delta 5"):
        policy_maps(small, [5], [0])
    with pytest.raises(ModelError, match="luck"):
        policy_maps(small, [0], [4])


def test_write_atlas_figures(small: object, tmp_path: Path) -> None:
    paths = write_atlas_figures(small, tmp_path / "figures")
    names = [p.name for p in paths]
    assert names == [
        "atlas_main.png",
        "atlas_delta_-1.png",
        "atlas_delta_0.png",
        "atlas_delta_1.png",
    ]
    for path in paths:
        assert path.stat().st_size > 1000
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not plt.get_fignums()  # every figure it made is closed


def test_best_heuristic_map_and_histograms() -> None:
    best, histograms = best_heuristics(Fight(0, 4, 5, 3))
    fig = best_heuristic_map(best, (4, 5, 3), 3)
    assert isinstance(fig, Figure)
    assert len(panels(fig)) == 1
    assert panels(fig)[0].images[0].get_array().shape == (4, 5)
    assert len(panels(best_heuristic_map(best, (4, 5, 3), [1, 2, 3]))) == 3
    with pytest.raises(ModelError):
        best_heuristic_map(best, (4, 5, 3), 4)
    fig = best_tau_histograms(histograms)
    assert isinstance(fig, Figure)
    bars = [ax for ax in fig.axes if ax.patches]
    assert len(bars) == 8
    assert all(len(ax.patches) == 12 for ax in bars)


def test_closed_form_vs_simulation() -> None:
    fig = closed_form_vs_simulation(1, (2, 6), n=200, seed=3, opponents=range(1, 7))
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert len(ax.get_lines()) >= 2  # one closed-form line per hero stamina
    exact = ax.get_lines()[0].get_ydata()
    assert len(exact) == 6 and 0 < min(exact) <= max(exact) < 1
