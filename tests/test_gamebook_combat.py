"""Lone Wolf style combat against oracles written here from the rules.

Nothing below reuses the module's logic: the table is read again with ``tomllib`` into plain
lists, the column of a ratio comes from the band list of the spec written out by hand, and
the oracles are (1) hand-derived fights on tiny tables, (2) a brute-force walk over every
sequence of random numbers up to a depth, which must match exactly when every fight ends
within the depth and otherwise bound the error by the unresolved mass, (3) the engine's
generic solver on a model written here (it removes do-over rounds by its own
renormalisation), and (4) a vectorised numpy simulator, seeded, checked with
``agrees_with`` at z = 5.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from exactprob import Dist
from exactprob.engine.exact.solving import solve_model as solve
from exactprob.engine.simulation import agrees_with
from exactprob.errors import ModelError
from exactprob.games.gamebook.combat import (
    COLUMN_LABELS,
    KILL,
    column_index,
    column_label,
    evasion_round,
    example_crt,
    fight,
    fight_round,
    fight_sequence,
    load_crt,
    parse_crt,
    round_outcome,
)

EXAMPLE = (
    Path(__file__).parents[1] / "exactprob" / "games" / "gamebook" / "data" / "example_crt.toml"
)
LOST: tuple[Any, ...] = ("lost",)

# The spec's 13 bands, written out: (column, lowest ratio, highest ratio), None = unbounded.
BANDS = [
    (-6, None, -11), (-5, -10, -9), (-4, -8, -7), (-3, -6, -5), (-2, -4, -3), (-1, -2, -1),
    (0, 0, 0), (1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8), (5, 9, 10), (6, 11, None),
]  # fmt: skip
# One ratio inside each band, lowest band first.
A_RATIO_PER_COLUMN = [-13, -9, -8, -5, -4, -1, 0, 2, 3, 6, 7, 10, 14]

Column = list[tuple[Any, Any]]  # 10 cells (enemy loss, hero loss), "K" kept as is


def band_of(ratio: int) -> int:
    """The column whose band, as listed in BANDS, contains ``ratio``."""
    (column,) = [
        c
        for c, low, high in BANDS
        if (low is None or low <= ratio) and (high is None or ratio <= high)
    ]
    return column


def read_columns(path: Path) -> dict[int, Column]:
    """The example file read straight with tomllib: column index -> its 10 cells."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {i - 6: [tuple(cell) for cell in c["results"]] for i, c in enumerate(data["column"])}


def same_everywhere(cells: list[list[Any]]) -> dict[str, Any]:
    """A parsed-TOML document whose 13 columns all hold ``cells``."""
    return {"column": [{"ratio": label, "results": cells} for label in COLUMN_LABELS]}


COIN = [[1, 0]] * 5 + [[0, 1]] * 5  # each side loses 1 with probability 1/2
KILLER = [["K", 0]] + [[0, 1]] * 9  # 0 kills the enemy, anything else costs the hero 1
DO_OVER = [[0, 0]] * 8 + [[1, 0], [0, 1]]  # 8 rounds in 10 nothing happens
TRADE = [[1, 2]] * 10  # both lose every round


def crt_of(cells: list[list[Any]]) -> Any:
    return parse_crt(same_everywhere(cells), "test")


def as_column(cells: list[list[Any]]) -> Column:
    return [(e, h) for e, h in cells]


# ---------------------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------------------
def after(endurance: int, loss: Any) -> int:
    return 0 if loss == "K" else endurance - loss


def brute_force(
    column: Column, hero: int, enemy: int, depth: int, evade_after: int | None = None
) -> tuple[dict[tuple[Any, ...], Fraction], Fraction]:
    """Walk every sequence of random numbers of length <= depth (each 1/10 per round):
    the mass of each outcome reached, and the mass of the sequences still undecided."""
    found: Counter[tuple[Any, ...]] = Counter()
    undecided = 0
    scale = 10**depth if evade_after is None else 10 ** (evade_after + 1)

    def walk(h: int, e: int, rounds: int) -> None:
        nonlocal undecided
        weight = scale // 10 ** (rounds + 1)  # of each of the 10 branches of this round
        if rounds == evade_after:  # the evasion round: only the hero's losses count
            for _enemy_loss, hero_loss in column:
                h2 = after(h, hero_loss)
                found[("evaded", h2) if h2 > 0 else LOST] += weight
            return
        if rounds == depth:
            undecided += scale // 10**rounds
            return
        for enemy_loss, hero_loss in column:
            h2, e2 = after(h, hero_loss), after(e, enemy_loss)
            if h2 <= 0:
                found[LOST] += weight
            elif e2 <= 0:
                found[("won", h2)] += weight
            else:
                walk(h2, e2, rounds + 1)

    walk(hero, enemy, 0)
    return {o: Fraction(c, scale) for o, c in found.items()}, Fraction(undecided, scale)


def brute_force_sequence(
    columns: dict[int, Column], hero: int, enemies: list[tuple[int, int]], depth: int
) -> tuple[dict[tuple[Any, ...], Fraction], Fraction]:
    """Every sequence of random numbers over the whole series of fights, up to depth."""
    found: Counter[tuple[Any, ...]] = Counter()
    undecided = 0
    scale = 10**depth

    def walk(h: int, which: int, e: int, rounds: int) -> None:
        nonlocal undecided
        if rounds == depth:
            undecided += scale // 10**rounds
            return
        for enemy_loss, hero_loss in columns[band_of(enemies[which][1])]:
            h2, e2 = after(h, hero_loss), after(e, enemy_loss)
            weight = scale // 10 ** (rounds + 1)
            if h2 <= 0:
                found[LOST] += weight
            elif e2 > 0:
                walk(h2, which, e2, rounds + 1)
            elif which + 1 == len(enemies):
                found[("won", h2)] += weight
            else:
                walk(h2, which + 1, enemies[which + 1][0], rounds + 1)

    walk(hero, 0, enemies[0][0], 0)
    return {o: Fraction(c, scale) for o, c in found.items()}, Fraction(undecided, scale)


class FightModel:
    """The fight as an engine Markov chain, written from the rules: rounds where nobody
    loses anything are plain self-loops, left to the solver's own renormalisation."""

    def __init__(self, column: Column, hero: int, enemy: int) -> None:
        self.column = column
        self.initial = ("fighting", hero, enemy)

    def outcome(self, state: tuple[Any, ...]) -> int | None:
        return None if state[0] == "fighting" else 1

    def actions(self, state: tuple[Any, ...]) -> tuple[str]:
        return ("round",)

    def transition(self, state: tuple[Any, ...], action: str) -> Dist[Any]:
        _, h, e = state
        nexts = []
        for enemy_loss, hero_loss in self.column:
            h2, e2 = after(h, hero_loss), after(e, enemy_loss)
            nexts.append(LOST if h2 <= 0 else ("won", h2) if e2 <= 0 else ("fighting", h2, e2))
        return Dist.from_weights(Counter(nexts))


def simulate(
    column: Column, hero: int, enemy: int, n: int, seed: int, evade_after: int | None = None
) -> Counter[tuple[Any, ...]]:
    """n fights at once with numpy: each round draws one number 0-9 for every fight (n per
    round, decided fights included), applies both losses, then checks both sides."""
    rng = np.random.default_rng(seed)
    big = 10**6  # "K": more than any endurance
    enemy_loss = np.array([big if e == "K" else e for e, _ in column])
    hero_loss = np.array([big if h == "K" else h for _, h in column])
    h = np.full(n, hero)
    e = np.full(n, enemy)
    status = np.zeros(n, dtype=int)  # 0 fighting, 1 won, 2 lost, 3 evaded
    rounds = 0
    while (status == 0).any():
        numbers = rng.integers(0, 10, size=n)
        fighting = status == 0
        evading = rounds == evade_after
        h = np.where(fighting, h - hero_loss[numbers], h)
        if not evading:
            e = np.where(fighting, e - enemy_loss[numbers], e)
        status = np.where(fighting & (h <= 0), 2, status)
        status = np.where(fighting & (h > 0) & (e <= 0), 1, status)
        if evading:
            status = np.where(fighting & (h > 0), 3, status)
        rounds += 1
    names = {1: "won", 3: "evaded"}
    return Counter(LOST if s == 2 else (names[s], int(x)) for s, x in zip(status, h))


# ---------------------------------------------------------------------------------------
# The column of a ratio
# ---------------------------------------------------------------------------------------
def test_column_index_matches_the_band_list_for_every_ratio_from_minus_15_to_15() -> None:
    assert [column_index(r) for r in range(-15, 16)] == [band_of(r) for r in range(-15, 16)]


def test_negative_ratios_round_away_from_zero_not_towards_it() -> None:
    # The bands -2/-1, -4/-3: truncating r/2 towards zero would give 0 and -1.
    assert (column_index(-1), column_index(-3), column_index(-11)) == (-1, -2, -6)
    assert [column_index(r) for r in (-1, -3, -5)] != [int(r / 2) for r in (-1, -3, -5)]
    assert column_label(column_index(-1)) == "-2/-1"


@pytest.mark.parametrize("bad", [1.0, True, Fraction(1), "1", None])
def test_a_ratio_must_be_an_int(bad: Any) -> None:
    with pytest.raises(ModelError, match="combat ratio must be a whole number"):
        column_index(bad)


# ---------------------------------------------------------------------------------------
# The shipped table
# ---------------------------------------------------------------------------------------
def test_example_table_says_it_is_original_and_loads_as_written() -> None:
    assert "ORIGINAL" in EXAMPLE.read_text().splitlines()[0]
    crt = example_crt()
    columns = read_columns(EXAMPLE)
    for ratio in range(-15, 16):
        assert list(crt.cells(ratio)) == columns[band_of(ratio)]


def test_example_table_favours_the_stronger_side() -> None:
    """Losses grow with the ratio (and the number) for the enemy, shrink for the hero."""
    columns = read_columns(EXAMPLE)

    def size(loss: Any) -> int:
        return 10**6 if loss == "K" else loss

    for c in range(-6, 6):
        for n in range(10):
            (e1, h1), (e2, h2) = columns[c][n], columns[c + 1][n]
            assert size(e1) <= size(e2) and size(h1) >= size(h2), (c, n)
    for c in range(-6, 7):
        enemy = [size(e) for e, _ in columns[c]]
        hero = [size(h) for _, h in columns[c]]
        assert enemy == sorted(enemy) and hero == sorted(hero, reverse=True), c
        assert (0, 0) not in columns[c]


# ---------------------------------------------------------------------------------------
# One round and hand-derived fights
# ---------------------------------------------------------------------------------------
def test_round_outcome_counts_cells_over_ten() -> None:
    assert round_outcome(crt_of(KILLER), 5) == Dist({(KILL, 0): "1/10", (0, 1): "9/10"})
    column = read_columns(EXAMPLE)[-2]
    assert round_outcome(example_crt(), -3) == Dist.from_weights(Counter(column))


def test_hand_derived_fights() -> None:
    coin = crt_of(COIN)
    # hero 2, enemy 1: enemy hit at once (1/2); else hero at 1, then 1/2 each way.
    assert fight(coin, 2, 1, 0) == Dist({("won", 2): "1/2", ("won", 1): "1/4", LOST: "1/4"})
    # enemy killed by a 0 in the first two rounds, else two hero hits: 1/10, 9/100, 81/100.
    killer = fight(crt_of(KILLER), 2, 100, -20)
    assert killer == Dist({("won", 2): "1/10", ("won", 1): "9/100", LOST: "81/100"})
    # both reach 0 in the same round: the hero has lost.
    assert fight(crt_of(TRADE), 2, 1, 0) == Dist({LOST: 1})
    assert fight(crt_of([["K", "K"]] * 10), 9, 9, 0) == Dist({LOST: 1})
    assert fight(crt_of(TRADE), 3, 1, 0) == Dist({("won", 1): 1})
    # do-overs: given that something happens, it is the coin table again.
    assert fight(crt_of(DO_OVER), 2, 1, 0) == fight(coin, 2, 1, 0)


def test_hand_derived_evasion() -> None:
    trade = crt_of(TRADE)
    # evading at once: the enemy's loss (which would kill him) is ignored.
    assert fight(trade, 5, 1, 0, evade_after=0) == Dist({("evaded", 3): 1})
    assert fight(trade, 5, 1, 0, evade_after=1) == Dist({("won", 3): 1})
    assert fight(trade, 2, 1, 0, evade_after=0) == Dist({LOST: 1})
    # coin, 3 v 3, one round then evasion: hero at 3 or 2 (1/2 each), then -1 w.p. 1/2.
    expected = Dist({("evaded", 3): "1/4", ("evaded", 2): "1/2", ("evaded", 1): "1/4"})
    assert fight(crt_of(COIN), 3, 3, 0, evade_after=1) == expected
    # a round where nothing happens still counts: 8/10 reach the evasion round at (1, 1).
    expected = Dist({("won", 1): "1/10", LOST: "18/100", ("evaded", 1): "72/100"})
    assert fight(crt_of(DO_OVER), 1, 1, 0, evade_after=1) == expected


def test_hand_derived_sequence() -> None:
    # first fight from 2: won 2 (1/2), won 1 (1/4), lost (1/4); the second from 2 the same,
    # from 1: won 1 (1/2). won 2: 1/4; won 1: 1/8 + 1/8; lost: 1/4 + 1/8 + 1/8.
    expected = Dist({("won", 2): "1/4", ("won", 1): "1/4", LOST: "1/2"})
    assert fight_sequence(crt_of(COIN), 2, [(1, 0), (1, 0)]) == expected
    assert fight_sequence(crt_of(COIN), 4, []) == Dist({("won", 4): 1})


def test_a_column_where_nobody_can_lose_is_refused_but_evasion_still_ends() -> None:
    data = same_everywhere(COIN)
    data["column"][6] = {"ratio": "0", "results": [[0, 0]] * 10}
    crt = parse_crt(data, "dead.toml")
    with pytest.raises(ModelError, match=re.escape("combat ratio 0 (column 0): no random")):
        fight(crt, 3, 3, 0)
    assert fight(crt, 3, 3, 0, evade_after=2) == Dist({("evaded", 3): 1})
    assert fight(crt, 2, 1, 1) == fight(crt_of(COIN), 2, 1, 0)


# ---------------------------------------------------------------------------------------
# Brute force over random-number sequences
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("ratio", A_RATIO_PER_COLUMN)
def test_small_fights_equal_the_enumeration_of_all_number_sequences(ratio: int) -> None:
    column = read_columns(EXAMPLE)[band_of(ratio)]
    crt = example_crt()
    for hero, enemy in [(1, 1), (3, 2), (2, 4), (4, 4)]:
        found, undecided = brute_force(column, hero, enemy, depth=4)
        assert undecided == 0, "every such fight ends within 4 rounds"
        assert fight(crt, hero, enemy, ratio) == Dist(found)


@pytest.mark.parametrize(
    ("cells", "hero", "enemy", "ratio", "depth"),
    [(None, 20, 14, -2, 2), (None, 25, 35, 5, 3), (DO_OVER, 2, 2, 0, 5), (COIN, 4, 3, 0, 4)],
)
def test_long_fights_lie_within_the_unresolved_mass_of_the_enumeration(
    cells: list[list[Any]] | None, hero: int, enemy: int, ratio: int, depth: int
) -> None:
    column = read_columns(EXAMPLE)[band_of(ratio)] if cells is None else as_column(cells)
    crt = example_crt() if cells is None else crt_of(cells)
    found, undecided = brute_force(column, hero, enemy, depth)
    exact = fight(crt, hero, enemy, ratio)
    assert 0 < undecided < 1 and sum(found.values()) + undecided == 1
    for outcome in set(exact) | set(found):
        assert 0 <= exact[outcome] - found.get(outcome, 0) <= undecided, outcome


@pytest.mark.parametrize("evade_after", [0, 1, 2, 3])
def test_evasion_equals_the_enumeration(evade_after: int) -> None:
    columns = read_columns(EXAMPLE)
    for ratio, hero, enemy in [(0, 10, 12), (-7, 9, 6), (11, 3, 30)]:
        found, undecided = brute_force(columns[band_of(ratio)], hero, enemy, 9, evade_after)
        assert undecided == 0
        assert fight(example_crt(), hero, enemy, ratio, evade_after=evade_after) == Dist(found)
    found, _ = brute_force(as_column(DO_OVER), 2, 2, 9, evade_after)
    assert fight(crt_of(DO_OVER), 2, 2, 0, evade_after=evade_after) == Dist(found)


@pytest.mark.parametrize("ratio", A_RATIO_PER_COLUMN)
def test_one_round_and_the_evasion_round_count_the_file_cells(ratio: int) -> None:
    """Each of the 10 cells read from the file with tomllib adds 1/10 (losses floored at 0,
    "K" takes everything); a round where nobody loses gives the state back."""
    column = read_columns(EXAMPLE)[band_of(ratio)]
    for hero, enemy in [(1, 1), (5, 3), (30, 30)]:
        rounds: Counter[tuple[int, int]] = Counter()
        evasions: Counter[int] = Counter()
        for enemy_loss, hero_loss in column:
            h = max(0, after(hero, hero_loss))
            rounds[(h, max(0, after(enemy, enemy_loss)))] += 1
            evasions[h] += 1
        tenths = {k: Fraction(v, 10) for k, v in rounds.items()}
        assert fight_round(example_crt(), hero, enemy, ratio) == Dist(tenths)
        assert evasion_round(example_crt(), hero, ratio) == Dist(
            {k: Fraction(v, 10) for k, v in evasions.items()}
        )
    assert fight_round(crt_of(DO_OVER), 2, 2, 0)[(2, 2)] == Fraction(4, 5)


def test_a_round_of_a_fight_that_never_ends_is_refused() -> None:
    data = same_everywhere(COIN)
    data["column"][6] = {"ratio": "0", "results": [[0, 0]] * 10}
    with pytest.raises(ModelError, match="never ends"):
        fight_round(parse_crt(data, "dead.toml"), 3, 3, 0)
    with pytest.raises(ModelError, match="hero endurance"):
        evasion_round(example_crt(), 0, 0)


def test_sequences_equal_the_enumeration() -> None:
    columns = read_columns(EXAMPLE)
    for hero, enemies in [(4, [(2, 0), (3, -4)]), (6, [(1, -12), (2, 3), (2, -1)])]:
        found, undecided = brute_force_sequence(columns, hero, enemies, depth=5)
        assert undecided == 0
        assert fight_sequence(example_crt(), hero, enemies) == Dist(found)


# ---------------------------------------------------------------------------------------
# The engine's generic solver and the simulator
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cells", "hero", "enemy", "ratio"),
    [(DO_OVER, 4, 5, 0), (None, 22, 18, -1), (None, 12, 30, 8)],
)
def test_fights_equal_the_engine_solver(
    cells: list[list[Any]] | None, hero: int, enemy: int, ratio: int
) -> None:
    column = read_columns(EXAMPLE)[band_of(ratio)] if cells is None else as_column(cells)
    crt = example_crt() if cells is None else crt_of(cells)
    assert fight(crt, hero, enemy, ratio) == solve(FightModel(column, hero, enemy)).absorption()


@pytest.mark.parametrize(
    ("cells", "hero", "enemy", "ratio", "evade_after", "seed"),
    [
        (None, 25, 22, -3, None, 1),
        (None, 18, 30, 4, 2, 2),
        (None, 30, 35, 12, None, 3),
        (DO_OVER, 3, 3, 0, None, 4),
        (DO_OVER, 3, 3, 0, 4, 5),
    ],
)
def test_fights_agree_with_the_simulator(
    cells: list[list[Any]] | None,
    hero: int,
    enemy: int,
    ratio: int,
    evade_after: int | None,
    seed: int,
) -> None:
    n = 20_000
    column = read_columns(EXAMPLE)[band_of(ratio)] if cells is None else as_column(cells)
    crt = example_crt() if cells is None else crt_of(cells)
    exact = fight(crt, hero, enemy, ratio, evade_after=evade_after)
    hits = simulate(column, hero, enemy, n, seed, evade_after)
    assert sum(exact.values()) == 1
    for outcome in set(exact) | set(hits):
        assert agrees_with(exact[outcome], hits[outcome], n), outcome


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------
def toml_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value).lower() if isinstance(value, bool) else str(value)


def write_table(path: Path, columns: list[dict[str, Any]]) -> Path:
    lines = []
    for column in columns:
        lines.append("[[column]]")
        lines += [f"{key} = {toml_value(value)}" for key, value in column.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def good_columns() -> list[dict[str, Any]]:
    return [dict(c) for c in same_everywhere(COIN)["column"]]


def test_a_written_table_loads(tmp_path: Path) -> None:
    crt = load_crt(write_table(tmp_path / "ok.toml", good_columns()))
    assert fight(crt, 2, 1, 0) == fight(crt_of(COIN), 2, 1, 0)


def with_cell(column: int, row: int, cell: Any) -> list[dict[str, Any]]:
    columns = good_columns()
    results = list(columns[column - 1]["results"])
    results[row] = cell
    columns[column - 1]["results"] = results
    return columns


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        (good_columns()[:12], "'column' must list 13 tables (one per ratio band <=-11 .. "),
        (good_columns()[:12], "got 12"),
        (
            good_columns()[:2] + [{"ratio": "-8/-7", "results": COIN[:9]}] + good_columns()[3:],
            "column 3 (-8/-7): results must list 10 cells (random numbers 0 to 9), got 9",
        ),
        (with_cell(7, 4, [2.5, 0]), "column 7 (0), row 4, enemy loss: must be a whole number"),
        (with_cell(13, 9, [1, -1]), "column 13 (>=+11), row 9, hero loss: must be a whole number"),
        (with_cell(1, 0, [0, "X"]), "column 1 (<=-11), row 0, hero loss: must be a whole number"),
        (with_cell(2, 5, [True, 0]), "column 2 (-10/-9), row 5, enemy loss: "),
        (with_cell(8, 1, [1]), "column 8 (+1/+2), row 1: a cell must be [enemy loss, hero loss]"),
        (with_cell(8, 1, [1, 2, 3]), "column 8 (+1/+2), row 1: a cell must be"),
        (with_cell(8, 1, 3), "column 8 (+1/+2), row 1: a cell must be"),
        (
            good_columns()[1:2] + good_columns()[1:],
            (
                "column 1: ratio must be '<=-11' (columns go from '<=-11' to '>=+11' in order), "
                "got '-10/-9'"
            ),
        ),
        (
            good_columns()[:4] + [{**good_columns()[4], "note": "x"}] + good_columns()[5:],
            "column 5: unknown key 'note'",
        ),
    ],
)
def test_broken_tables_name_file_column_row_and_field(
    tmp_path: Path, columns: list[dict[str, Any]], message: str
) -> None:
    path = write_table(tmp_path / "broken.toml", columns)
    with pytest.raises(ModelError, match=re.escape(f"{path}: ")) as caught:
        load_crt(path)
    assert message in str(caught.value)


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[column]\nratio = ")
    with pytest.raises(ModelError, match=re.escape(f"{bad}: not valid TOML")):
        load_crt(bad)
    with pytest.raises(ModelError, match="cannot read the combat results table"):
        load_crt(tmp_path / "missing.toml")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('title = "x"\n')
    with pytest.raises(ModelError, match=re.escape(f"{unknown}: unknown key 'title'")):
        load_crt(unknown)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda crt: fight(crt, 0, 3, 0), "hero endurance must be a whole number >= 1, got 0"),
        (
            lambda crt: fight(crt, 3, 3, 0.5),  # type: ignore[arg-type]
            "combat ratio must be a whole number",
        ),
        (lambda crt: fight(crt, 3, 3, 0, evade_after=-1), "evade_after must be a whole number"),
        (lambda crt: fight_sequence(crt, 5, [(3,)]), "enemy 1 must be an (endurance, ratio)"),
        (
            lambda crt: fight_sequence(crt, 1, [(9, 0), (0, 0)]),
            "enemy 2 endurance must be a whole number >= 1, got 0",
        ),
    ],
)
def test_bad_arguments(call: Any, message: str) -> None:
    with pytest.raises(ModelError, match=re.escape(message)):
        call(crt_of(COIN))


def test_a_row_of_like_enemies_fights_each_starting_endurance_once():
    # Forty enemies of 1000 endurance took minutes, one fight per enemy and per
    # endurance the hero could have; each fight is now computed once, and the law of
    # the forty is the law of twenty followed by twenty more from every endurance left.
    from exactprob.games.gamebook.combat import _fight_to_the_last

    crt = example_crt()
    _fight_to_the_last.cache_clear()
    forty = fight_sequence(crt, 16, [(1000, 3)] * 40)
    assert _fight_to_the_last.cache_info().misses <= 16  # a hero at 1 .. 16 endurance
    twenty = fight_sequence(crt, 16, [(1000, 3)] * 20)
    composed: dict[Any, Fraction] = {("lost",): twenty[("lost",)]}
    for outcome, p in twenty.items():
        if outcome != ("lost",):
            for after, q in fight_sequence(crt, outcome[1], [(1000, 3)] * 20).items():
                composed[after] = composed.get(after, Fraction(0)) + p * q
    assert dict(forty.items()) == {x: p for x, p in composed.items() if p}
