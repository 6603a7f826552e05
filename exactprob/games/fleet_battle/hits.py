r"""Hits: the exact per-round hit distribution of a fleet, and hit-assignment orders.

**Hits scored.** Every die of every surviving ship (damaged ones included) hits
independently, with the probability :math:`p_a = (11 - a)/10` of its ship's combat value.
With :math:`N_a` dice of combat value :math:`a` in the fleet, the number of hits is the
sum of independent binomials, a convolution computed exactly by
:class:`~exactprob.engine.dist.Dist`:

.. math::

    H = \sum_{a} \operatorname{Bin}(N_a, p_a), \qquad
    P(H = k) = \sum_{k_1 + k_2 + \dots = k} \prod_a \binom{N_a}{k_a} p_a^{k_a} (1 - p_a)^{N_a - k_a}.

Dice with the same combat value are pooled first: a sum of binomials with one
:math:`p` is again a binomial.

**Hits taken.** The fleet that is hit assigns the hits one at a time, each to the ship
first in its order. The default order (the spec's) puts the ships with the fewest hit
points left first, then the lowest :math:`a \cdot n` (combat value times dice), then
the unit's name. A 1-hp ship is destroyed; a ship with more hit points loses one and
takes its place again in the order with the hit points it has left. Hits beyond what
the fleet can absorb are wasted.

>>> from exactprob.games.fleet_battle.units import parse_fleet
>>> fleet = parse_fleet("1 war-sun, 2 fighter")
>>> hit_distribution(fleet, fleet.initial_state)[5]
Fraction(64, 3125)
>>> order = HitOrder.default(fleet)
>>> order.labels()
['fighter', 'war-sun/1', 'war-sun/2']
>>> fleet.describe(order.apply(fleet.initial_state, 3))
'1 war-sun (1 damaged)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from ...engine import Dist, binomial
from ...errors import ModelError
from ...util.numbers import parse_whole
from .units import Fleet, FleetState

__all__ = ["Allocation", "HitOrder", "hit_distribution", "parse_order", "take_hit"]


def hit_distribution(fleet: Fleet, state: FleetState) -> Dist[int]:
    """The exact distribution of the number of hits ``fleet`` scores in one round.

    Parameters
    ----------
    fleet : Fleet
        The fleet's unit types.
    state : FleetState
        Ships left per slot; damaged ships roll all their dice.

    Returns
    -------
    Dist
        ``{hits: probability}``, the convolution of one binomial per combat value.
    """
    dice: dict[Any, int] = {}  # hit probability -> dice (in slot order; sympy-safe)
    for count, (i, _) in zip(state, fleet.slots):
        unit = fleet.units[i]
        p = unit.hit_probability
        dice[p] = dice.get(p, 0) + count * unit.dice
    total: Dist[int] = Dist({0: 1})
    for p, n in dice.items():
        total = total + binomial(n, p)
    return total


class Allocation(Protocol):
    """How a side turns the hits it takes into its fleet after the round.

    ``reactive`` allocations may look at the opponent's fleet after the same round
    (the optimal policy of :mod:`~exactprob.games.fleet_battle.optimal` does); fixed
    orders do not.
    """

    @property
    def reactive(self) -> bool:
        """Whether the allocation depends on the opponent's fleet after the round."""

    def allocate(self, own: FleetState, hits: int, opponent_after: FleetState) -> FleetState:
        """The fleet after taking ``hits`` (at most its hit points)."""


@dataclass(frozen=True)
class HitOrder:
    """A fixed hit-assignment order: the slots of ``fleet`` in the order they take hits.

    Build one with :meth:`default` or :meth:`from_priority`; ``sequence`` holds slot
    indices (positions in a :data:`~exactprob.games.fleet_battle.units.FleetState`).
    """

    fleet: Fleet
    sequence: tuple[int, ...]
    reactive: ClassVar[bool] = False
    _steps: dict[FleetState, tuple[FleetState, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if sorted(self.sequence) != list(range(len(self.fleet.slots))):
            raise ModelError("a hit order must list every slot of the fleet exactly once")

    @classmethod
    def default(cls, fleet: Fleet) -> HitOrder:
        """Fewest hit points left first, then lowest :math:`a \\cdot n`, then name."""
        return cls(fleet, tuple(_default_ranking(fleet)))

    @classmethod
    def from_priority(cls, fleet: Fleet, entries: Sequence[str]) -> HitOrder:
        """The slots named in ``entries`` first, the rest in the default order.

        An entry is ``"NAME"`` (every ship of the type, the most damaged first: a hit
        ship takes its place again) or ``"NAME/R"`` (ships of the type with ``R`` hit
        points left). ``["war-sun/2", "fighter"]`` makes undamaged war suns absorb the
        first hits, then fighters, then damaged war suns.

        >>> from exactprob.games.fleet_battle.units import parse_fleet
        >>> HitOrder.from_priority(parse_fleet("1 war-sun, 2 fighter"), ["war-sun/2"]).labels()
        ['war-sun/2', 'fighter', 'war-sun/1']
        """
        chosen: list[int] = []
        for entry in entries:
            for s in _slots_of_entry(fleet, entry):
                if s in chosen:
                    raise ModelError(f"the hit order names {_label(fleet, s)!r} twice")
                chosen.append(s)
        rest = [s for s in _default_ranking(fleet) if s not in chosen]
        return cls(fleet, tuple(chosen + rest))

    def labels(self) -> list[str]:
        """The order as ``"NAME/R"`` labels (``"NAME"`` for 1-hp types)."""
        return [_label(self.fleet, s) for s in self.sequence]

    def after_each_hit(self, state: FleetState) -> tuple[FleetState, ...]:
        """The fleet after 0, 1, 2, ... hits, up to its hit points (then it is empty)."""
        cached = self._steps.get(state)
        if cached is None:
            cached = self._steps[state] = self._walk(state)
        return cached

    def _walk(self, state: FleetState) -> tuple[FleetState, ...]:
        counts = list(state)
        out = [state]
        while True:
            target = next((s for s in self.sequence if counts[s]), None)
            if target is None:
                return tuple(out)
            take_hit(self.fleet, counts, target)
            out.append(tuple(counts))

    def apply(self, state: FleetState, hits: int) -> FleetState:
        """The fleet after ``hits`` hits (wasted beyond its hit points)."""
        steps = self.after_each_hit(state)
        return steps[min(hits, len(steps) - 1)]

    def allocate(self, own: FleetState, hits: int, opponent_after: FleetState) -> FleetState:
        """:meth:`apply`; a fixed order ignores the opponent."""
        return self.apply(own, hits)


def take_hit(fleet: Fleet, counts: list[int], slot: int) -> None:
    """One hit on a ship of ``slot`` (``counts`` changes in place): a ship with one hit
    point left is destroyed, any other moves to the next slot of its unit, one hit
    point lower."""
    counts[slot] -= 1
    if fleet.slots[slot][1] > 1:
        counts[slot + 1] += 1


def _default_ranking(fleet: Fleet) -> list[int]:
    def key(s: int) -> tuple[Any, ...]:
        i, r = fleet.slots[s]
        unit = fleet.units[i]
        return (r, unit.strength, unit.name)

    return sorted(range(len(fleet.slots)), key=key)


def _label(fleet: Fleet, s: int) -> str:
    i, r = fleet.slots[s]
    unit = fleet.units[i]
    return unit.name if unit.hp == 1 else f"{unit.name}/{r}"


def _slots_of_entry(fleet: Fleet, entry: str) -> list[int]:
    name, _, level = entry.strip().partition("/")
    names = [u.name for u in fleet.units]
    if name not in names:
        raise ModelError(
            f"the hit order names {name!r}, which is not in the fleet; its units: {', '.join(names)}"
        )
    unit = fleet.units[names.index(name)]
    slots = [s for s, (i, _) in enumerate(fleet.slots) if fleet.units[i] is unit]
    if not level:
        return slots[::-1]  # fewest hit points left first
    left = parse_whole(
        f"the hit points left in hit order entry {entry.strip()!r}", level, 1, unit.hp
    )
    return [s for s in slots if fleet.slots[s][1] == left]


def parse_order(text: str, fleet: Fleet) -> HitOrder:
    """A :class:`HitOrder` from comma-separated entries, e.g. ``"war-sun/2, fighter"``.

    >>> from exactprob.games.fleet_battle.units import parse_fleet
    >>> parse_order("fighter", parse_fleet("1 dreadnought, 1 fighter")).labels()
    ['fighter', 'dreadnought/1', 'dreadnought/2']
    """
    entries = [e.strip() for e in text.split(",")]
    if not all(entries):
        raise ModelError(
            f"cannot read hit order {text!r}; write entries such as 'war-sun/2, fighter'"
        )
    return HitOrder.from_priority(fleet, entries)
