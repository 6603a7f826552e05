r"""An independent, vectorised numpy simulator of fleet battles, written from the rules.

It shares nothing with the exact model but the unit definitions: every ship is a column
of hit points, every die is drawn as a d10 face (1 to 10, the 0 face read as 10), rounds
without hits are simply played again (no renormalisation), and the ship that takes a hit
is found by ranking every (ship, hit points left) pair by the rules' order. Battles run
side by side until one fleet is empty.

>>> from exactprob.games.fleet_battle.units import parse_fleet
>>> sims = simulate_battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun"), 2000, seed=1)
>>> sims.n, int((sims.outcome == WIN).sum() + (sims.outcome == LOSE).sum()
...             + (sims.outcome == MUTUAL).sum())
(2000, 2000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...engine import Runs
from ...errors import ModelError
from .units import Fleet, Unit

__all__ = ["LOSE", "MUTUAL", "WIN", "SimulatedBattles", "simulate_battle"]

#: Outcome codes: the attacker alone survives, the defender alone, neither.
WIN, LOSE, MUTUAL = 1, 2, 0


class _Side:
    """One fleet as arrays, one entry per ship."""

    def __init__(self, fleet: Fleet, priority: Sequence[str]) -> None:
        ships = [(u, k) for u, c in zip(fleet.units, fleet.counts) for k in range(c)]
        self.names = [u.name for u, _ in ships]
        self.hp = np.array([u.hp for u, _ in ships])
        self.combat = np.array([u.combat for u, _ in ships])
        self.dice = np.array([u.dice for u, _ in ships])
        self.rank = _rank_table(ships, priority)

    def roll(self, hp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Hits scored by each battle's fleet (rows of ``hp``)."""
        faces = rng.integers(1, 11, size=(hp.shape[0], hp.shape[1], int(self.dice.max())))
        counts = np.arange(faces.shape[2]) < self.dice[:, None]
        hit = (faces >= self.combat[:, None]) & counts[None, :, :] & (hp > 0)[:, :, None]
        return hit.sum(axis=(1, 2))

    def take(self, hp: np.ndarray, hits: np.ndarray) -> np.ndarray:
        """``hp`` after each row takes its number of hits, one at a time."""
        hp = hp.copy()
        rows = np.arange(hp.shape[0])
        for j in range(int(hits.max(initial=0))):
            alive = hp > 0
            left = (hits > j) & alive.any(axis=1)
            key = np.where(alive, self.rank[np.arange(hp.shape[1]), hp], np.iinfo(np.int64).max)
            target = key.argmin(axis=1)
            hp[rows[left], target[left]] -= 1
        return hp


def _rank_table(ships: list[tuple[Unit, int]], priority: Sequence[str]) -> np.ndarray:
    """``rank[ship, r]``: the place in the hit order of that ship with ``r`` hit points
    left (lower takes hits first). The rules: the priority entries first, in their order
    (``NAME`` for every ship of the type, fewest hit points left first, ``NAME/R`` for
    those with R left); then the default: fewest hit points left, then lowest combat
    value times dice, then the name."""
    entries = [p.strip().partition("/")[::2] for p in priority]
    names = {u.name for u, _ in ships}
    for name, _ in entries:
        if name not in names:
            raise ModelError(f"the hit order names {name!r}, which is not in the fleet")

    def key(unit: Unit, r: int) -> tuple[int, int, int, str]:
        for place, (name, level) in enumerate(entries):
            if name == unit.name and (not level or int(level) == r):
                return (0, place, r, "")
        return (1, r, unit.combat * unit.dice, unit.name)

    pairs = [(key(u, r), i, r) for i, (u, _) in enumerate(ships) for r in range(1, u.hp + 1)]
    places = {k: p for p, k in enumerate(sorted({k for k, _, _ in pairs}))}
    rank = np.zeros((len(ships), max(u.hp for u, _ in ships) + 1), dtype=np.int64)
    for k, i, r in pairs:
        rank[i, r] = places[k]
    return rank


@dataclass(frozen=True, eq=False)
class SimulatedBattles(Runs):
    """``n`` simulated battles: outcome codes (:data:`WIN`, :data:`LOSE`,
    :data:`MUTUAL`), rounds played, and every ship's hit points left at the end; the
    :attr:`result` is whether the attacker won."""

    outcome: np.ndarray
    rounds: np.ndarray
    attacker_hp: np.ndarray
    defender_hp: np.ndarray
    attacker_names: tuple[str, ...]
    defender_names: tuple[str, ...]

    @property
    def result(self) -> np.ndarray:
        """Whether the attacker won each battle (its last ship standing alone)."""
        return self.outcome == WIN

    @property
    def steps(self) -> int:
        """Rounds played over all battles."""
        return int(self.rounds.sum())

    def ships_left(self, side: str) -> np.ndarray:
        """Surviving ships of ``side`` in each battle."""
        hp = self.attacker_hp if side == "attacker" else self.defender_hp
        return (hp > 0).sum(axis=1)


def simulate_battle(
    attacker: Fleet,
    defender: Fleet,
    n: int,
    *,
    seed: int,
    attacker_priority: Sequence[str] = (),
    defender_priority: Sequence[str] = (),
    max_rounds: int = 100_000,
) -> SimulatedBattles:
    """Play ``n`` battles with ``numpy.random.default_rng(seed)``.

    ``*_priority`` are hit orders as in
    :meth:`~exactprob.games.fleet_battle.hits.HitOrder.from_priority` (entries
    ``"NAME"`` or ``"NAME/R"``), re-implemented here from the rules.
    """
    rng = np.random.default_rng(seed)
    sides = (_Side(attacker, attacker_priority), _Side(defender, defender_priority))
    hp = [np.tile(side.hp, (n, 1)) for side in sides]
    rounds = np.zeros(n, dtype=np.int64)
    active: np.ndarray = np.ones(n, dtype=bool)
    while active.any():
        if rounds.max() >= max_rounds:
            raise ModelError(f"a simulated battle lasted more than {max_rounds} rounds")
        idx = np.flatnonzero(active)
        scored = [side.roll(h[idx], rng) for side, h in zip(sides, hp)]
        for k, side in enumerate(sides):
            hp[k][idx] = side.take(hp[k][idx], scored[1 - k])
        rounds[idx] += 1
        active = np.asarray((hp[0] > 0).any(axis=1) & (hp[1] > 0).any(axis=1))
    attacker_alive, defender_alive = (hp[0] > 0).any(axis=1), (hp[1] > 0).any(axis=1)
    outcome = np.where(attacker_alive, WIN, np.where(defender_alive, LOSE, MUTUAL))
    return SimulatedBattles(
        outcome, rounds, hp[0], hp[1], tuple(sides[0].names), tuple(sides[1].names)
    )
