r"""Lone Wolf style combat, exact: a combat results table as data, one round, whole fights.

Each round the hero picks a random number :math:`n \in \{0, \dots, 9\}`, all equally likely.
The *combat ratio* :math:`r` (the hero's combat skill plus modifiers minus the enemy's)
selects one of 13 columns of the Combat Results Table (CRT),

.. math::

    \operatorname{column}(r) = \operatorname{clamp}_{[-6, 6]}\bigl(
        \operatorname{sign}(r) \lceil |r| / 2 \rceil \bigr),

that is ``<=-11, -10/-9, -8/-7, -6/-5, -4/-3, -2/-1, 0, +1/+2, ..., >=+11``; the cell in
row :math:`n` gives the endurance lost by the enemy and by the hero in that round, or ``"K"``
(killed outright). Both sides are checked after the round; the side at 0 has lost, and when
both reach 0 in the same round the hero has lost.

*Modifiers* (weapons, disciplines, an enemy immune to a discipline) are nothing but changes
to the ratio: add the hero's bonuses to his combat skill, or leave out a bonus the enemy is
immune to, before taking the difference. This module never sees them.

The table is data: :func:`load_crt` reads a TOML file (see
``exactprob/games/gamebook/data/example_crt.toml``, an original table shipped as an
example, loaded by :func:`example_crt`).

>>> crt = example_crt()
>>> column_index(-1), column_label(column_index(-1))
(-1, '-2/-1')
>>> result = fight(crt, 20, 12, 3)
>>> sum(result.values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, reduce
from importlib import resources
from math import lcm
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

import numpy as np

from ...engine import Dist, uniform
from ...errors import DistributionError, ModelError
from ...util.numbers import Exact, mpq, whole_number
from .toml_file import read_toml

__all__ = [
    "COLUMN_LABELS",
    "KILL",
    "LOST",
    "CombatResultsTable",
    "column_index",
    "column_label",
    "evasion_round",
    "example_crt",
    "fight",
    "fight_round",
    "fight_sequence",
    "load_crt",
    "parse_crt",
    "round_outcome",
]

#: The mark of a cell that kills outright.
KILL: Final = "K"

#: The column labels from the lowest combat ratio to the highest (column indices -6 .. 6).
COLUMN_LABELS: Final = (
    "<=-11", "-10/-9", "-8/-7", "-6/-5", "-4/-3", "-2/-1", "0",
    "+1/+2", "+3/+4", "+5/+6", "+7/+8", "+9/+10", ">=+11",
)  # fmt: skip

_ROWS: Final = 10  # random numbers 0 .. 9
_MAX_COLUMN: Final = 6

Loss: TypeAlias = int | Literal["K"]
#: A cell: (endurance lost by the enemy, endurance lost by the hero).
Cell: TypeAlias = tuple[Loss, Loss]
#: ``("won", hero endurance left)``, ``("evaded", hero endurance left)`` or ``("lost",)``.
Outcome: TypeAlias = tuple[Any, ...]

#: The outcome of a fight the hero lost.
LOST: Final[Outcome] = ("lost",)


@dataclass(frozen=True)
class CombatResultsTable:
    """A validated CRT: ``columns[i][n]`` is the cell of column index ``i - 6`` and random
    number ``n``. Build it with :func:`load_crt` or :func:`parse_crt`, which check it."""

    columns: tuple[tuple[Cell, ...], ...]
    name: str = ""

    def cells(self, ratio: int) -> tuple[Cell, ...]:
        """The 10 cells (random numbers 0 .. 9) of the column that ``ratio`` selects."""
        return self.columns[column_index(ratio) + _MAX_COLUMN]


def column_index(ratio: int) -> int:
    r"""The CRT column of a combat ratio: :math:`\operatorname{sign}(r)\lceil |r|/2\rceil`
    clamped to :math:`[-6, 6]`, in integer arithmetic (:math:`\lceil m/2 \rceil =
    \lfloor (m+1)/2 \rfloor`). Negative ratios round away from zero like positive ones.

    >>> [column_index(r) for r in (-12, -11, -10, -3, -2, -1, 0, 1, 2, 3, 11, 12)]
    [-6, -6, -5, -2, -1, -1, 0, 1, 1, 2, 6, 6]
    """
    if isinstance(ratio, bool) or not isinstance(ratio, int):
        raise ModelError(f"combat ratio must be a whole number (an int), got {ratio!r}")
    magnitude = min((abs(ratio) + 1) // 2, _MAX_COLUMN)
    return magnitude if ratio >= 0 else -magnitude


def column_label(index: int) -> str:
    """The label of column ``index`` (-6 .. 6), as written in a CRT file.

    >>> column_label(-6), column_label(1)
    ('<=-11', '+1/+2')
    """
    whole_number("column index", index, -_MAX_COLUMN, _MAX_COLUMN)
    return COLUMN_LABELS[index + _MAX_COLUMN]


# -- the table as data ----------------------------------------------------------------------
def load_crt(path: str | Path) -> CombatResultsTable:
    """Read and check a CRT from a TOML file (the layout is described in the shipped
    ``example_crt.toml``). Every mistake raises :class:`~exactprob.errors.ModelError`
    naming the file, and the column, row and field where it applies."""
    path = Path(path)
    return parse_crt(read_toml(path, "the combat results table"), str(path))


@cache
def example_crt() -> CombatResultsTable:
    """The original example table shipped with exactprob (``data/example_crt.toml``),
    read once."""
    resource = resources.files("exactprob.games.gamebook").joinpath("data", "example_crt.toml")
    with resources.as_file(resource) as path:
        return load_crt(path)


def parse_crt(data: Mapping[str, Any], source: str = "<table>") -> CombatResultsTable:
    """Check a parsed CRT document: an optional ``name`` and exactly 13 ``column`` tables, in
    the order of :data:`COLUMN_LABELS`, each with its ``ratio`` label and 10 ``results``
    cells ``[enemy loss, hero loss]``, a loss being a whole number >= 0 or ``"K"``.

    >>> coin = [[1, 0]] * 5 + [[0, 1]] * 5
    >>> crt = parse_crt({"column": [{"ratio": x, "results": coin} for x in COLUMN_LABELS]})
    >>> crt.cells(0)[:2]
    ((1, 0), (1, 0))
    >>> parse_crt({"column": []}, "my.toml")
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: my.toml: 'column' must list 13 tables (one per ratio band \
<=-11 .. >=+11), got 0
    """
    _known_keys(data, {"name", "column"}, source)
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ModelError(f"{source}: 'name' must be a string, got {name!r}")
    columns = data.get("column")
    if not isinstance(columns, list) or len(columns) != len(COLUMN_LABELS):
        got = len(columns) if isinstance(columns, list) else repr(columns)
        raise ModelError(
            f"{source}: 'column' must list {len(COLUMN_LABELS)} tables (one per ratio band "
            f"{COLUMN_LABELS[0]} .. {COLUMN_LABELS[-1]}), got {got}"
        )
    parsed = tuple(
        _parse_column(column, position, source) for position, column in enumerate(columns, 1)
    )
    return CombatResultsTable(parsed, name)


def _known_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ModelError(f"{where}: unknown key {unknown[0]!r} (allowed: {sorted(allowed)})")


def _parse_column(column: Any, position: int, source: str) -> tuple[Cell, ...]:
    label = COLUMN_LABELS[position - 1]
    where = f"{source}: column {position}"
    if not isinstance(column, dict):
        raise ModelError(f"{where}: must be a table with 'ratio' and 'results', got {column!r}")
    _known_keys(column, {"ratio", "results"}, where)
    if column.get("ratio") != label:
        raise ModelError(
            f"{where}: ratio must be {label!r} (columns go from {COLUMN_LABELS[0]!r} to "
            f"{COLUMN_LABELS[-1]!r} in order), got {column.get('ratio')!r}"
        )
    where = f"{where} ({label})"
    results = column.get("results")
    if not isinstance(results, list) or len(results) != _ROWS:
        got = len(results) if isinstance(results, list) else repr(results)
        raise ModelError(
            f"{where}: results must list {_ROWS} cells (random numbers 0 to 9), got {got}"
        )
    return tuple(_parse_cell(cell, f"{where}, row {n}") for n, cell in enumerate(results))


def _parse_cell(cell: Any, where: str) -> Cell:
    if not isinstance(cell, list) or len(cell) != 2:
        raise ModelError(f"{where}: a cell must be [enemy loss, hero loss], got {cell!r}")
    enemy, hero = (_parse_loss(x, f"{where}, {side}") for x, side in zip(cell, _SIDES))
    return enemy, hero


_SIDES: Final = ("enemy loss", "hero loss")


def _parse_loss(value: Any, where: str) -> Loss:
    if value == KILL:
        return KILL
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ModelError(f'{where}: must be a whole number >= 0 or "K", got {value!r}')
    return value


# -- one round --------------------------------------------------------------------------------
def round_outcome(crt: CombatResultsTable, ratio: int) -> Dist[Cell]:
    """The distribution of one round's ``(enemy loss, hero loss)`` at ``ratio``: each of
    the 10 random numbers has probability 1/10, equal cells regrouped.

    >>> round_outcome(example_crt(), 0)[(2, 7)]
    Fraction(1, 10)
    """
    return uniform(crt.cells(ratio))


def _after(endurance: int, loss: Loss) -> int:
    """Endurance left after a loss (never below 0; ``"K"`` leaves 0)."""
    return 0 if loss == KILL else max(0, endurance - loss)


def _settled(hero: int, enemy: int) -> Outcome | None:
    """The outcome once both sides are checked after a round, or None if the fight goes
    on (both at 0: the hero has lost)."""
    if hero == 0:
        return LOST
    return ("won", hero) if enemy == 0 else None


def _add(table: dict[Any, Exact], key: Any, weight: Exact) -> None:
    table[key] = table.get(key, 0) + weight


# -- whole fights -----------------------------------------------------------------------------
def fight(
    crt: CombatResultsTable,
    hero_endurance: int,
    enemy_endurance: int,
    ratio: int,
    *,
    evade_after: int | None = None,
) -> Dist[Outcome]:
    r"""The exact distribution of a fight's outcome: ``("won", h)``, ``("lost",)`` or,
    with evasion, ``("evaded", h)``, ``h`` the hero's endurance left.

    Without evasion the outcome distribution :math:`P_{h,e}` of a fight from endurances
    :math:`(h, e)` satisfies, over the cells :math:`c = (\ell_e, \ell_h)` of the column,

    .. math::

        P_{h,e} = \sum_{c \ne (0,0)} \frac{P(c)}{1 - P(0,0)}\,
            P_{h - \ell_h,\, e - \ell_e},

    where :math:`P_{h',e'}` is sure ``("lost",)`` when :math:`h' \le 0` and sure
    ``("won", h')`` when :math:`h' > 0 \ge e'` (``"K"`` counts as the whole endurance),
    since a round where nobody loses anything leaves the state as it was (a do-over,
    removed by renormalising). Every other round lowers :math:`h + e`, so the fight ends
    surely; the states are processed forward in decreasing :math:`h + e`. A column where
    no random number costs anybody anything is refused (the fight would never end).

    With ``evade_after = k`` the hero fights at most :math:`k` rounds (rounds where nobody
    loses count too); if both still stand he evades: one more round in which only his own
    losses count, then he escapes if alive. This is the policy "evade at the first chance";
    whether to evade at all is a choice for the book's solver.

    >>> coin = [[1, 0]] * 5 + [[0, 1]] * 5
    >>> crt = parse_crt({"column": [{"ratio": x, "results": coin} for x in COLUMN_LABELS]})
    >>> fight(crt, 2, 1, 0)
    Dist({('lost',): '1/4', ('won', 1): '1/4', ('won', 2): '1/2'})
    >>> fight(crt, 3, 3, 0, evade_after=1)
    Dist({('evaded', 1): '1/4', ('evaded', 2): '1/2', ('evaded', 3): '1/4'})
    """
    hero = whole_number("hero endurance", hero_endurance, 1)
    enemy = whole_number("enemy endurance", enemy_endurance, 1)
    cells = round_outcome(crt, ratio)
    if evade_after is None:
        return _fight_to_the_end(_without_do_overs(cells, ratio), hero, enemy)
    rounds = list(cells.exact_items())
    return _fight_then_evade(rounds, hero, enemy, whole_number("evade_after", evade_after, 0))


def _without_do_overs(cells: Dist[Cell], ratio: int) -> list[tuple[Cell, Exact]]:
    """The round distribution given that somebody loses something (renormalised)."""
    try:
        return list(cells.condition(lambda cell: cell != (0, 0)).exact_items())
    except DistributionError:
        label = column_label(column_index(ratio))
        raise ModelError(
            f"combat ratio {ratio} (column {label}): no random number makes either side lose "
            "endurance, so the fight never ends"
        ) from None


State: TypeAlias = tuple[int, int]


def _play_round(
    state: State,
    p: Exact,
    rounds: list[tuple[Cell, Exact]],
    outcomes: dict[Outcome, Exact],
) -> list[tuple[State, Exact]]:
    """Spread the mass ``p`` of ``state`` (h, e) over one round: settled fights go into
    ``outcomes``; the states still fighting are returned with their mass."""
    h, e = state
    standing = []
    for (enemy_loss, hero_loss), q in rounds:
        h2, e2 = _after(h, hero_loss), _after(e, enemy_loss)
        end = _settled(h2, e2)
        if end is not None:
            _add(outcomes, end, p * q)
        else:
            standing.append(((h2, e2), p * q))
    return standing


def _fight_to_the_end(rounds: list[tuple[Cell, Exact]], hero: int, enemy: int) -> Dist[Outcome]:
    """Forward propagation of the probability mass over states (h, e) by decreasing
    h + e, a whole diagonal h + e = t at a time (:class:`_OverPowers`, indexed by h):
    every round in ``rounds`` lowers h + e, so a diagonal is complete when reached, and a
    round that leaves both standing moves the diagonal's states by the same (-l_h, -l_e),
    each to a state of its own. With the rounds' chances written ``a / W`` over their
    common denominator, every mass is an integer over a power of ``W``: no fraction is
    reduced until the end."""
    W = int(reduce(lcm, (int(q.denominator) for _, q in rounds), 1))
    weights = [(cell, int(q * W)) for cell, q in rounds]
    diagonals: dict[int, _OverPowers] = {hero + enemy: _OverPowers(hero + 1, W)}
    diagonals[hero + enemy].add(np.array([hero]), np.array([1], dtype=object), 0)
    won, lost = _OverPowers(hero + 1, W), _OverPowers(1, W)
    nowhere = np.zeros(1, dtype=np.int64)
    for total in range(hero + enemy, 1, -1):
        mass = diagonals.pop(total, None)
        if mass is None:
            continue
        h = np.flatnonzero(mass.numerators)
        numerators, e, power = mass.numerators[h], total - h, mass.power + 1
        for (enemy_loss, hero_loss), a in weights:
            h2 = np.zeros_like(h) if hero_loss == KILL else np.maximum(h - hero_loss, 0)
            e2 = np.zeros_like(e) if enemy_loss == KILL else np.maximum(e - enemy_loss, 0)
            spread = numerators * a
            dead, wins = h2 == 0, (h2 > 0) & (e2 == 0)
            if dead.any():
                lost.add(nowhere, np.array([spread[dead].sum()], dtype=object), power)
            won.add(h2[wins], spread[wins], power)
            going = ~(dead | wins)  # both lost exactly their losses: one diagonal
            if going.any():
                later = total - int(hero_loss) - int(enemy_loss)
                if later not in diagonals:
                    diagonals[later] = _OverPowers(hero + 1, W)
                diagonals[later].add(h2[going], spread[going], power)
    outcomes: dict[Outcome, Exact] = {
        ("won", int(x)): won.value(int(x)) for x in np.flatnonzero(won.numerators)
    }
    if lost.numerators[0]:
        outcomes[LOST] = lost.value(0)
    return Dist(outcomes)


class _OverPowers:
    """Masses as integers over one power of ``W``: ``numerators[i] / W**power``."""

    def __init__(self, size: int, W: int) -> None:
        self.numerators, self.power, self.W = np.zeros(size, dtype=object), 0, W

    def add(self, at: np.ndarray, numerators: np.ndarray, power: int) -> None:
        """Add ``numerators / W**power`` at the indices ``at`` (distinct)."""
        if not len(at):
            return
        if power > self.power:
            self.numerators *= self.W ** (power - self.power)
            self.power = power
        elif power < self.power:
            numerators = numerators * self.W ** (self.power - power)
        self.numerators[at] += numerators

    def value(self, i: int) -> Exact:
        return mpq(self.numerators[i], self.W**self.power)


def _fight_then_evade(
    rounds: list[tuple[Cell, Exact]], hero: int, enemy: int, evade_after: int
) -> Dist[Outcome]:
    """Round by round for ``evade_after`` rounds, then the evasion round (the hero's
    losses only) for every fight still undecided."""
    standing: dict[State, Exact] = {(hero, enemy): mpq(1)}
    outcomes: dict[Outcome, Exact] = {}
    for _ in range(evade_after):
        after: dict[State, Exact] = {}
        for state, p in standing.items():
            for next_state, q in _play_round(state, p, rounds, outcomes):
                _add(after, next_state, q)
        standing = after
    for (h, _e), p in standing.items():
        for h2, q in _evasion(rounds, h):
            _add(outcomes, ("evaded", h2) if h2 > 0 else LOST, p * q)
    return Dist(outcomes)


def _evasion(rounds: list[tuple[Cell, Exact]], hero: int) -> Iterator[tuple[int, Exact]]:
    """The hero's endurance after an evasion round (only his own losses count)."""
    for (_enemy_loss, hero_loss), q in rounds:
        yield _after(hero, hero_loss), q


def fight_round(
    crt: CombatResultsTable, hero_endurance: int, enemy_endurance: int, ratio: int
) -> Dist[tuple[int, int]]:
    r"""The endurances ``(hero, enemy)`` after one round, each of the 10 random numbers
    with probability 1/10: :math:`(h - \ell_h, e - \ell_e)` floored at 0, ``"K"`` taking
    all. A round where nobody loses gives back ``(h, e)``; the caller decides who lost
    (the hero at 0 has lost, even if the enemy is at 0 too). For fights played round by
    round, where the hero may choose to evade (:func:`evasion_round`).

    >>> coin = [[1, 0]] * 5 + [[0, 1]] * 5
    >>> crt = parse_crt({"column": [{"ratio": x, "results": coin} for x in COLUMN_LABELS]})
    >>> fight_round(crt, 2, 1, 0)
    Dist({(1, 1): '1/2', (2, 0): '1/2'})
    """
    hero = whole_number("hero endurance", hero_endurance, 1)
    enemy = whole_number("enemy endurance", enemy_endurance, 1)
    cells = round_outcome(crt, ratio)
    _without_do_overs(cells, ratio)  # refuses a fight that never ends
    return cells.map(lambda cell: (_after(hero, cell[1]), _after(enemy, cell[0])))


def evasion_round(crt: CombatResultsTable, hero_endurance: int, ratio: int) -> Dist[int]:
    """The hero's endurance after evading: one more round in which only his own losses
    count (0 means he died evading).

    >>> coin = [[1, 0]] * 5 + [[0, 1]] * 5
    >>> crt = parse_crt({"column": [{"ratio": x, "results": coin} for x in COLUMN_LABELS]})
    >>> evasion_round(crt, 1, 0)
    Dist({0: '1/2', 1: '1/2'})
    """
    hero = whole_number("hero endurance", hero_endurance, 1)
    return Dist(_evasion(list(round_outcome(crt, ratio).exact_items()), hero))


def fight_sequence(
    crt: CombatResultsTable, hero_endurance: int, enemies: Iterable[Sequence[int]]
) -> Dist[Outcome]:
    r"""Fight ``enemies`` one after another, each an ``(endurance, ratio)`` pair, the hero
    keeping the endurance left from one fight to the next (no evasion): ``("won", h)``
    after the last enemy, or ``("lost",)``.

    .. math::

        P(\text{won}, h) = \sum_{h'} P_{\text{first } k-1}(\text{won}, h')\,
            P_{\text{fight } k \text{ from } h'}(\text{won}, h)

    >>> coin = [[1, 0]] * 5 + [[0, 1]] * 5
    >>> crt = parse_crt({"column": [{"ratio": x, "results": coin} for x in COLUMN_LABELS]})
    >>> fight_sequence(crt, 2, [(1, 0), (1, 0)])
    Dist({('lost',): '1/2', ('won', 1): '1/4', ('won', 2): '1/4'})
    """
    alive: dict[int, Exact] = {whole_number("hero endurance", hero_endurance, 1): mpq(1)}
    lost: Exact = mpq(0)
    for endurance, ratio in [_enemy(position, pair) for position, pair in enumerate(enemies, 1)]:
        survived: dict[int, Exact] = {}
        for hero, p in alive.items():
            for outcome, q in _fight_to_the_last(crt, hero, endurance, ratio):
                if outcome == LOST:
                    lost += p * q
                else:
                    _add(survived, outcome[1], p * q)
        alive = survived
    outcomes: dict[Outcome, Exact] = {("won", hero): p for hero, p in alive.items()}
    outcomes[LOST] = lost
    return Dist(outcomes)


@lru_cache(maxsize=4096)
def _fight_to_the_last(
    crt: CombatResultsTable, hero: int, enemy: int, ratio: int
) -> tuple[tuple[Outcome, Exact], ...]:
    """:func:`fight` without evasion, each once: enemies alike (forty hounds of the same
    strength) meet the hero at the same few endurances, and a long fight costs a tenth
    of a second and more."""
    return tuple(fight(crt, hero, enemy, ratio).exact_items())


def _enemy(position: int, pair: Sequence[int]) -> tuple[int, int]:
    """A checked ``(endurance, ratio)`` pair for the enemy at ``position`` (from 1)."""
    if not isinstance(pair, Sequence) or len(pair) != 2:
        raise ModelError(f"enemy {position} must be an (endurance, ratio) pair, got {pair!r}")
    endurance, ratio = pair
    column_index(ratio)  # checks the ratio
    return whole_number(f"enemy {position} endurance", endurance, 1), ratio
