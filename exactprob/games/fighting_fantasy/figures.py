"""matplotlib figures of the Fighting Fantasy results: policy maps in the style of the
paper's atlas, the best heuristics, and the no-luck closed form against simulation.

matplotlib is imported inside each function, so importing this module never needs it.
Every function returns a :class:`matplotlib.figure.Figure` made through
:mod:`matplotlib.pyplot` (so Sphinx's ``.. plot::`` directive picks it up);
:func:`write_atlas_figures` closes the figures it saves.

The policy maps draw all their panels on one set of axes, and each digit as a
text-shaped marker (one scatter call per digit), which keeps a 25-panel map of 14,400
cells quick to render: the 20 figures of the full atlas take about 5 s at 80 dpi.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import ModelError
from ...util.files import write_all
from .closed_forms import no_luck_value
from .grid import STRATEGY_CODES, FightGrid
from .heuristics import HEURISTICS, BestHeuristic
from .rules import ends_either_way, round_odds
from .simulator import simulate_fight
from .terms import Fight

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .atlas import Atlas

__all__ = [
    "MAIN_DELTAS",
    "MAIN_LUCKS",
    "atlas_figure_jobs",
    "best_heuristic_map",
    "best_tau_histograms",
    "closed_form_vs_simulation",
    "policy_maps",
    "write_atlas_figures",
]

#: The skill differences and lucks of the paper's main figure (columns and rows).
MAIN_DELTAS = (-4, -2, 0, 2, 4)
MAIN_LUCKS = (0, 12, 9, 6, 3)

_TIE_COLOUR = "#e8175d"  # the dot that marks an exact tie
_CMAP = "viridis"
_DPI = 80  # write_atlas_figures: modest, so that the 20 files of the atlas are quick


def _grids(atlas_or_grids: Atlas | Mapping[int, FightGrid]) -> Mapping[int, FightGrid]:
    grids = getattr(atlas_or_grids, "grids", atlas_or_grids)
    if not isinstance(grids, Mapping) or not grids:
        raise ModelError("expected an Atlas or a non-empty mapping {delta: FightGrid}")
    return grids


def _panel(grid: FightGrid, luck: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Victory probability (float), strategy code and "a decision is an exact tie that
    does not merely end the fight either way" of every (hero, opponent) at ``luck``, as
    arrays indexed [hero - 1, opponent - 1]."""
    hero_max, opponent_max, luck_max = grid.bounds
    if not 0 <= luck <= luck_max:
        raise ModelError(f"luck must be in 0..{luck_max} for this grid, got {luck!r}")
    values = np.zeros((hero_max, opponent_max))
    codes = np.zeros((hero_max, opponent_max), dtype=int)
    ties = np.zeros((hero_max, opponent_max), dtype=bool)
    for h in range(1, hero_max + 1):
        for o in range(1, opponent_max + 1):
            values[h - 1, o - 1] = float(grid.value(h, o, luck))
            if luck == 0:
                continue
            codes[h - 1, o - 1] = grid.strategy(h, o, luck)
            ties[h - 1, o - 1] = any(
                not ends_either_way(won, h, o, luck, grid.fight.rule.lucky_hit)
                and grid.is_tie(won, h, o, luck)
                for won in (True, False)
            )
    return values, codes, ties


def _layout(
    count: int,
    ncols: int,
    panel: tuple[float, float],
    colourbar: bool = True,
    right: float = 1.05,
    hgap: float = 0.32,
    wgap: float = 0.12,
    autoscale: bool = False,
) -> tuple[Figure, list[Axes], Axes | None]:
    """A figure of ``count`` panels of ``panel`` inches in rows of ``ncols`` (the last
    row may be short), with room for a colour bar on the right.

    A fixed layout (not ``layout="constrained"``) keeps large figures quick to draw."""
    import matplotlib.pyplot as plt

    nrows = -(-count // ncols)
    width, height = panel
    left, bottom, top = 0.6, 0.5, 0.55
    right = right if colourbar else 0.2
    fig_w = left + right + ncols * width + (ncols - 1) * wgap
    fig_h = bottom + top + nrows * height + (nrows - 1) * hgap
    fig = plt.figure(figsize=(fig_w, fig_h))
    spec = fig.add_gridspec(
        nrows,
        ncols,
        left=left / fig_w,
        right=(fig_w - right) / fig_w,
        bottom=bottom / fig_h,
        top=(fig_h - top) / fig_h,
        wspace=wgap / width,
        hspace=hgap / height,
    )
    axes = [fig.add_subplot(spec[index // ncols, index % ncols]) for index in range(count)]
    for ax in axes:
        # unless asked, the caller sets the limits once: autoscaling is slow
        ax.set_autoscale_on(autoscale)
        ax.tick_params(labelsize="x-small", length=2)
    cax = None
    if colourbar:
        cax = fig.add_axes(
            (
                (fig_w - right + 0.15) / fig_w,
                bottom / fig_h,
                0.14 / fig_w,
                (fig_h - top - bottom) / fig_h,
            )
        )
    return fig, axes, cax


def _cell_points(panel_width: float, columns: int) -> float:
    """The width of one cell in points (for the digits' marker size)."""
    return max(2.0, 72.0 * panel_width / max(columns, 1))


@cache
def _digit_path(digit: int) -> Any:
    """The outline of a digit, centred on the origin, as a marker path."""
    from matplotlib.path import Path as MplPath
    from matplotlib.textpath import TextPath

    outline = TextPath((0, 0), str(digit), size=1)
    vertices = outline.vertices
    centre = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
    return MplPath(vertices - centre, outline.codes)


def _digits(
    ax: Axes,
    digits: np.ndarray,
    white: np.ndarray | None,
    size: float,
    skip: int | None = 0,
) -> None:
    """Draw ``digits[h - 1, o - 1]`` in each cell (``skip``: a digit left blank), in
    white where ``white`` is True and in black elsewhere, one scatter per digit."""
    cells: np.ndarray = np.indices(digits.shape)
    hero, opponent = cells[0], cells[1]
    light = np.zeros(digits.shape, dtype=bool) if white is None else white
    rgba = np.where(light[..., None], (1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0))
    for digit in np.unique(digits):
        if skip is not None and digit == skip:
            continue
        where = digits == digit
        ax.scatter(
            opponent[where] + 1,
            hero[where] + 1,
            marker=_digit_path(int(digit)),
            s=size,
            c=rgba[where],
            linewidths=0,
        )


def _stamina_axes(axes: Sequence[Axes], ncols: int, hero_max: int, opponent_max: int) -> None:
    """Limits of every panel; integer stamina ticks on the outer panels only."""
    ticks = [1, *range(6, max(hero_max, opponent_max) + 1, 6)]
    for index, ax in enumerate(axes):
        ax.set_xlim(0.5, opponent_max + 0.5)
        ax.set_ylim(0.5, hero_max + 0.5)
        bottom, left = index + ncols >= len(axes), index % ncols == 0
        ax.set_xticks([t for t in ticks if t <= opponent_max] if bottom else [])
        ax.set_yticks([t for t in ticks if t <= hero_max] if left else [])


def _axis_labels(fig: Figure, x: str, y: str) -> None:
    fig.supxlabel(x, fontsize="small", y=0.01, va="bottom")
    fig.supylabel(y, fontsize="small", x=0.01, ha="left")


def _ticks(bound: int) -> list[int]:
    """Stamina ticks: 1, the multiples of 6 (of 12 from 24 up) and the bound."""
    step = 12 if bound >= 24 else 6 if bound >= 12 else max(bound - 1, 1)
    return sorted({1, *range(step, bound + 1, step), bound} if bound > 1 else {1})


def policy_maps(
    atlas_or_grids: Atlas | Mapping[int, FightGrid],
    deltas: Sequence[int] = MAIN_DELTAS,
    lucks: Sequence[int] = MAIN_LUCKS,
    *,
    ncols: int | None = None,
) -> Figure:
    """Policy maps in the paper's style: one panel per (luck, delta), rows by luck and
    columns by delta (with one delta, the lucks wrap into rows of ``ncols``, 5 by
    default). x is the opponent's stamina, y the hero's; the colour is the optimal chance
    of victory (one colour bar for all panels); the digit is the strategy code (1 luck
    after any round, 2 only after a lost one, 3 only after a won one; blank: never); a
    red dot marks a state where testing luck and not testing it are exactly equally good
    after a won or a lost round (the grid then keeps its luck), unless the fight ends
    after that round either way. The grids may have any bounds (all the same).

    All panels are drawn on one set of axes (each panel's title is a text with gid
    ``"panel"``): a figure of many panels then draws several times faster than with
    one :class:`~matplotlib.axes.Axes` per panel.
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    grids = _grids(atlas_or_grids)
    deltas, lucks = list(deltas), list(lucks)
    if not deltas or not lucks:
        raise ModelError("policy_maps needs at least one delta and one luck")
    missing = [d for d in deltas if d not in grids]
    if missing:
        raise ModelError(f"delta {missing[0]} is not solved; available: {sorted(grids)}")
    hero_max, opponent_max, _ = grids[deltas[0]].bounds
    if any(grids[d].bounds[:2] != (hero_max, opponent_max) for d in deltas):
        raise ModelError("the grids of one figure must have the same staminas")
    panels = [(delta, luck) for luck in lucks for delta in deltas]
    if ncols is None:
        ncols = len(deltas) if len(deltas) > 1 else min(5, len(lucks))
    nrows = -(-len(panels) // ncols)

    # sizes in inches, then in cells (the data unit: one cell is 1 x 1)
    biggest = max(hero_max, opponent_max)
    cell = 1.9 * min(1.0, biggest / 24) ** 0.5 / biggest
    across, down = 0.14 / cell, 0.3 / cell  # gaps between panels, titles in ``down``
    width = ncols * opponent_max + (ncols - 1) * across
    height = nrows * hero_max + nrows * down
    left, right, bottom, top = 0.62, 1.05, 0.55, 0.3
    fig_w, fig_h = left + width * cell + right, bottom + height * cell + top
    fig = plt.figure(figsize=(fig_w, fig_h))
    ax = fig.add_axes((left / fig_w, bottom / fig_h, width * cell / fig_w, height * cell / fig_h))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    cell_points = 72 * cell
    lowest = {index % ncols: index for index in range(len(panels))}  # per column
    segments, image = [], None
    digits: dict[int, tuple[list[Any], list[Any], list[Any]]] = {
        code: ([], [], []) for code in (1, 2, 3)
    }  # per code: x, y, white text?
    tie_x: list[np.ndarray] = []
    tie_y: list[np.ndarray] = []
    tick = 2.0 / cell_points  # tick marks 2 points long
    for index, (delta, luck) in enumerate(panels):
        row, column = divmod(index, ncols)
        x0 = column * (opponent_max + across)
        y0 = (nrows - 1 - row) * (hero_max + down)
        values, codes, ties = _panel(grids[delta], luck)
        image = ax.imshow(
            values,
            origin="lower",
            extent=(x0, x0 + opponent_max, y0, y0 + hero_max),
            vmin=0.0,
            vmax=1.0,
            cmap=_CMAP,
            interpolation="none",
        )
        hero, opponent = np.nonzero(codes)
        for code, (xs, ys, white) in digits.items():
            chosen = codes[hero, opponent] == code
            xs.append(x0 + opponent[chosen] + 0.5)
            ys.append(y0 + hero[chosen] + 0.5)
            white.append(values[hero[chosen], opponent[chosen]] <= 0.55)
        hero, opponent = np.nonzero(ties)
        tie_x.append(x0 + opponent + 0.84)
        tie_y.append(y0 + hero + 0.84)
        ax.text(
            x0 + opponent_max / 2,
            y0 + hero_max + 0.12 * down,
            f"Δ = {delta}, luck {luck}",
            ha="center",
            va="bottom",
            fontsize=6.5,
            gid="panel",
        )
        segments += [
            [(x0, y0), (x0 + opponent_max, y0)],
            [(x0, y0 + hero_max), (x0 + opponent_max, y0 + hero_max)],
        ]
        segments += [
            [(x0, y0), (x0, y0 + hero_max)],
            [(x0 + opponent_max, y0), (x0 + opponent_max, y0 + hero_max)],
        ]
        if column == 0:
            for h in _ticks(hero_max):
                segments.append([(x0 - tick, y0 + h - 0.5), (x0, y0 + h - 0.5)])
                ax.text(x0 - 1.6 * tick, y0 + h - 0.5, str(h), ha="right", va="center", fontsize=6)
        if lowest[column] == index:
            for o in _ticks(opponent_max):
                segments.append([(x0 + o - 0.5, y0 - tick), (x0 + o - 0.5, y0)])
                ax.text(x0 + o - 0.5, y0 - 1.6 * tick, str(o), ha="center", va="top", fontsize=6)
    ax.add_collection(LineCollection(segments, colors="black", linewidths=0.5))
    rgba = np.array([(0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0, 1.0)])
    for code, (xs, ys, white) in digits.items():
        if sum(len(x) for x in xs):
            ax.scatter(
                np.concatenate(xs),
                np.concatenate(ys),
                marker=_digit_path(code),
                s=(0.8 * cell_points) ** 2,
                c=rgba[np.concatenate(white).astype(int)],
                linewidths=0,
                rasterized=True,  # thousands of glyphs: an image in vector formats
            )
    if sum(len(x) for x in tie_x):
        ax.scatter(
            np.concatenate(tie_x),
            np.concatenate(tie_y),
            s=(0.3 * cell_points) ** 2,
            c=_TIE_COLOUR,
            linewidths=0,
            rasterized=True,
        )
    assert image is not None
    cax = fig.add_axes(
        ((fig_w - right + 0.2) / fig_w, bottom / fig_h, 0.14 / fig_w, height * cell / fig_h)
    )
    fig.colorbar(image, cax=cax, label="P(victory), optimal luck")
    codes_text = "; ".join(f"{code}: {STRATEGY_CODES[code]}" for code in (1, 2, 3))
    fig.suptitle(
        f"Test luck {codes_text}; blank: never; dot: exact tie",
        fontsize="small",
        y=1 - 0.05 / fig_h,
        va="top",
    )
    fig.text(
        (left + width * cell / 2) / fig_w,
        0.06 / fig_h,
        "opponent stamina",
        ha="center",
        va="bottom",
        fontsize="small",
    )
    fig.text(
        0.06 / fig_w,
        (bottom + height * cell / 2) / fig_h,
        "hero stamina",
        rotation=90,
        ha="left",
        va="center",
        fontsize="small",
    )
    return fig


def write_atlas_figures(
    atlas: Atlas | Mapping[int, FightGrid], directory: str | Path
) -> list[Path]:
    """Write the main figure (:data:`MAIN_DELTAS` x :data:`MAIN_LUCKS`, restricted to
    what the atlas holds) as ``atlas_main.png`` and one figure per delta, a panel per
    luck, as ``atlas_delta_<delta>.png`` into ``directory`` (created if needed), all or
    none (:func:`~exactprob.util.files.write_all`); return the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    jobs = atlas_figure_jobs(atlas, out)
    write_all(jobs)
    return [path for path, _ in jobs]


def atlas_figure_jobs(
    atlas: Atlas | Mapping[int, FightGrid], directory: Path
) -> list[tuple[Path, Callable[[Path], None]]]:
    """The atlas's figures as ``(path, write)`` pairs for
    :func:`~exactprob.util.files.write_all`: ``write(temporary)`` draws one figure into a PNG
    file (see :func:`write_atlas_figures` for what they show)."""
    grids = _grids(atlas)
    max_luck = min(grid.bounds[2] for grid in grids.values())
    deltas = [d for d in MAIN_DELTAS if d in grids] or sorted(grids)
    lucks = [luck for luck in MAIN_LUCKS if luck <= max_luck]
    jobs: list[tuple[str, Sequence[int], Sequence[int]]] = [("atlas_main.png", deltas, lucks)]
    jobs += [(f"atlas_delta_{d}.png", [d], range(max_luck + 1)) for d in sorted(grids)]

    def drawer(job_deltas: Sequence[int], job_lucks: Sequence[int]) -> Callable[[Path], None]:
        def draw(temporary: Path) -> None:
            import matplotlib.pyplot as plt

            fig = policy_maps(grids, job_deltas, job_lucks)
            try:
                fig.savefig(temporary, dpi=_DPI, format="png")
            finally:
                plt.close(fig)

        return draw

    return [(directory / name, drawer(d, l)) for name, d, l in jobs]


#: One colour per heuristic 0-8 (0, never, in grey).
_HEURISTIC_COLOURS = (
    "#d9d9d9",
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
)


def best_heuristic_map(
    best: Mapping[tuple[int, int, int], BestHeuristic],
    bounds: tuple[int, int, int],
    luck: int | Iterable[int],
) -> Figure:
    """The best heuristic (0-8, :data:`~.heuristics.HEURISTICS`) of every (hero,
    opponent) at one luck (or a panel per luck) as a colour and a digit, from
    :func:`~.heuristics.best_heuristics` of one delta; ``bounds`` is its (hero stamina,
    opponent stamina, luck). A black dot marks the states where that heuristic is
    exactly optimal (gap 0); where heuristics tie, the first in
    :data:`~.heuristics.PAIRS` order is shown.
    """
    from matplotlib.colors import BoundaryNorm, ListedColormap

    hero_max, opponent_max, luck_max = bounds
    lucks = [luck] if isinstance(luck, int) else list(luck)
    if not lucks:
        raise ModelError("best_heuristic_map needs at least one luck")
    for each in lucks:
        if not 0 <= each <= luck_max:
            raise ModelError(f"luck must be in 0..{luck_max}, got {each!r}")
    colours = ListedColormap(list(_HEURISTIC_COLOURS))
    norm = BoundaryNorm(np.arange(-0.5, 9.5), colours.N)
    side = 2.6 * min(1.0, max(hero_max, opponent_max) / 24) ** 0.5
    width = side * opponent_max / max(hero_max, opponent_max)
    ncols = min(3, len(lucks))
    fig, axes, cax = _layout(len(lucks), ncols, (width, side), right=3.4)
    cell = _cell_points(width, opponent_max)
    image = None
    for ax, each in zip(axes, lucks, strict=True):
        numbers = np.zeros((hero_max, opponent_max), dtype=int)
        exact = np.zeros((hero_max, opponent_max), dtype=bool)
        for h in range(1, hero_max + 1):
            for o in range(1, opponent_max + 1):
                try:
                    entry = best[(h, o, each)]
                except KeyError:
                    raise ModelError(f"no best heuristic for state {(h, o, each)}") from None
                numbers[h - 1, o - 1] = entry.number
                exact[h - 1, o - 1] = entry.gap == 0
        image = ax.imshow(
            numbers,
            origin="lower",
            extent=(0.5, opponent_max + 0.5, 0.5, hero_max + 0.5),
            cmap=colours,
            norm=norm,
            interpolation="none",
            aspect="auto",
        )
        _digits(ax, numbers, None, (0.6 * cell) ** 2, skip=None)
        hero, opponent = np.nonzero(exact)
        if hero.size:
            ax.scatter(opponent + 1.36, hero + 1.36, s=(0.2 * cell) ** 2, c="black", linewidths=0)
        ax.set_title(f"luck {each}", fontsize="x-small", pad=2, y=1.0)
    _stamina_axes(axes, ncols, hero_max, opponent_max)
    assert image is not None and cax is not None
    bar = fig.colorbar(image, cax=cax, ticks=range(9))
    bar.ax.set_yticklabels([f"{n}: {HEURISTICS[n][0]}" for n in range(9)], fontsize="x-small")
    fig.suptitle("Best heuristic (dot: exactly optimal)", fontsize="small")
    _axis_labels(fig, "opponent stamina", "hero stamina")
    return fig


def best_tau_histograms(histograms: Mapping[int, Mapping[int, int]]) -> Figure:
    """One bar chart per heuristic (the histograms of
    :func:`~.heuristics.best_heuristics`, heuristics 1-8): for how many states each
    threshold :math:`\\tau` is the best for that heuristic."""
    numbers = sorted(histograms)
    if not numbers:
        raise ModelError("no histograms to draw")
    ncols = min(4, len(numbers))
    fig, axes, _ = _layout(
        len(numbers), ncols, (2.1, 1.2), colourbar=False, hgap=0.45, wgap=0.45, autoscale=True
    )
    for ax, number in zip(axes, numbers, strict=True):
        counts = histograms[number]
        taus = sorted(counts)
        ax.bar(taus, [counts[t] for t in taus], color=_HEURISTIC_COLOURS[number % 9])
        description = HEURISTICS[number][0] if number in HEURISTICS else ""
        title = textwrap.shorten(f"{number}: {description}", 60, placeholder="...")
        ax.set_title(textwrap.fill(title, 42), fontsize=6.5, pad=3, y=1.0)
        ax.set_xticks(range(1, 13, 2))
    _axis_labels(fig, "best threshold τ", "states")
    return fig


def closed_form_vs_simulation(
    delta: int = 0,
    staminas: Sequence[int] = (4, 10, 16, 22),
    n: int = 2_000,
    seed: int = 0,
    *,
    opponents: Sequence[int] = tuple(range(1, 25)),
) -> Figure:
    """The no-luck closed form :func:`~.closed_forms.no_luck_value` as a line over the
    opponent's stamina, one per hero stamina in ``staminas``, with the win rate of ``n``
    simulated fights (:func:`~.simulator.simulate_fight`, seeded ``seed``, ``seed + 1``,
    ...) at each point, with bars of two standard errors."""
    import matplotlib.pyplot as plt

    odds = round_odds(delta)
    fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
    colours = plt.get_cmap("tab10")
    opponents = list(opponents)
    for index, hero in enumerate(staminas):
        colour = colours(index % 10)
        exact = [float(no_luck_value(odds.win, odds.lose, hero, o)) for o in opponents]
        ax.plot(opponents, exact, color=colour, linewidth=1.2, label=f"hero stamina {hero}")
        rates, errors = [], []
        for k, o in enumerate(opponents):
            sim = simulate_fight(
                Fight(delta, hero, o, 0), n=n, seed=seed + index * len(opponents) + k
            )
            rates.append(sim.win_rate)
            errors.append(2 * sim.standard_error)
        ax.errorbar(
            opponents, rates, yerr=errors, fmt="o", markersize=2.5, color=colour, elinewidth=0.8
        )
    ax.set_xlabel("opponent stamina")
    ax.set_ylabel("P(victory), no luck")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(
        f"Δ = {delta}: closed form (lines) and {n:,} simulated fights per point (± 2 s.e.)",
        fontsize="small",
    )
    ax.legend(fontsize="x-small")
    return fig
