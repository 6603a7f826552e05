r"""Ship types, the base game's catalogue, fleets and their canonical states.

A unit type has hit points :math:`h`, a combat value :math:`a` and a number of dice
:math:`n`. A die is a d10 whose 0 face counts as 10, and it hits on :math:`a` or more,
so one die hits with probability

.. math::

    P(\text{hit}) = \frac{11 - a}{10}, \qquad a \in \{1, \dots, 10\}.

A fleet's state is a tuple of counts, one per *slot* (unit type, hit points left), in a
fixed order: unit types sorted by name, and within a type from undamaged to the last
hit point. Ships of one type with the same damage are interchangeable, so this tuple
is all the battle needs to know.

>>> fleet = parse_fleet("2 war-sun, 3 fighter")
>>> fleet.describe(fleet.initial_state)
'3 fighter, 2 war-sun'
>>> CATALOGUE["war-sun"].hit_probability
Fraction(4, 5)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import ModelError
from ...util.numbers import parse_whole, whole_number

__all__ = [
    "CATALOGUE",
    "MAX_SHIPS",
    "Fleet",
    "FleetState",
    "Unit",
    "describe_survivors",
    "lookup",
    "parse_fleet",
    "parse_unit",
]

#: Counts per slot (unit type, hit points left), in the fleet's slot order.
FleetState = tuple[int, ...]

#: Largest number of ships a fleet may hold (a guard against inputs that cannot finish).
MAX_SHIPS = 1000
MAX_HP = 10
MAX_DICE = 20
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


@dataclass(frozen=True, slots=True)
class Unit:
    """A ship type.

    Parameters
    ----------
    name : str
        A letter, then letters, digits, ``-`` or ``_`` (``"war-sun"``).
    hp : int
        Hit points, 1 to 10 (2 for a ship that sustains damage).
    combat : int
        Combat value 1 to 10: a d10 hits on ``combat`` or more (the 0 face is 10).
    dice : int
        Dice rolled each round, 1 to 20; damaged ships roll them all.
    """

    name: str
    hp: int
    combat: int
    dice: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ModelError(
                f"unit name must start with a letter and hold only letters, digits, '-' "
                f"and '_', got {self.name!r}"
            )
        whole_number(f"hp of {self.name}", self.hp, 1, MAX_HP)
        whole_number(f"combat value of {self.name}", self.combat, 1, 10)
        whole_number(f"dice of {self.name}", self.dice, 1, MAX_DICE)

    @property
    def hit_probability(self) -> Fraction:
        """The chance that one die hits, :math:`(11 - a)/10`."""
        return Fraction(11 - self.combat, 10)

    @property
    def strength(self) -> int:
        """:math:`a \\cdot n`, the second key of the default hit-assignment order."""
        return self.combat * self.dice


#: The base game's ship types, as the 3rd edition's rules and public calculators give
#: them: hit points (2 for "sustain damage"), combat value, dice per round.
#:
#: Source of every number: the TI3 battle calculator by Tomasz Muras,
#: https://github.com/dilborg/twilight-imperium-battle-calc (deployed at
#: ti-battle-calc.appspot.com), file ``src/net/zabuchy/tibattlecalc/Fleet.java``:
#: ``shipHitProb = {0.2, 0.2, 0.2, 0.4, 0.6, 0.8}`` for fighter, carrier, destroyer,
#: cruiser, dreadnought, war sun (a hit probability :math:`(11 - a)/10` of 0.2, 0.4,
#: 0.6, 0.8 is a combat value of 9, 7, 5, 3), ``shipShots = {1, 1, 1, 1, 1, 3}`` and
#: ``shipHP = {1, 1, 1, 1, 2, 2}``. The same values are the spec's
#: (``specs/fleet-battles.md``: fighter hits on 9 with one die, war sun on 3 with three
#: dice and 2 hp), and the 4th edition keeps them for war suns and fighters.
CATALOGUE: Mapping[str, Unit] = {
    unit.name: unit
    for unit in (
        Unit("carrier", hp=1, combat=9, dice=1),
        Unit("cruiser", hp=1, combat=7, dice=1),
        Unit("destroyer", hp=1, combat=9, dice=1),
        Unit("dreadnought", hp=2, combat=5, dice=1),
        Unit("fighter", hp=1, combat=9, dice=1),
        Unit("war-sun", hp=2, combat=3, dice=3),
    )
}


@dataclass(frozen=True, slots=True)
class Fleet:
    """Ships of several types, all undamaged at the start.

    Parameters
    ----------
    units : tuple of Unit
        Distinct unit types; stored sorted by name.
    counts : tuple of int
        How many ships of each type (positive), in the order of ``units``.

    Notes
    -----
    ``slots`` lists (unit index, hit points left) in the canonical order of a
    :data:`FleetState`: units by name, hit points from ``hp`` down to 1.
    """

    units: tuple[Unit, ...]
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.units or len(self.units) != len(self.counts):
            raise ModelError("a fleet needs at least one unit type and one count per type")
        names = [u.name for u in self.units]
        if len(set(names)) != len(names):
            raise ModelError(f"a fleet lists a unit type twice: {names}")
        for unit, count in zip(self.units, self.counts):
            whole_number(f"count of {unit.name}", count, 1, MAX_SHIPS)
        if sum(self.counts) > MAX_SHIPS:
            raise ModelError(f"a fleet may hold at most {MAX_SHIPS} ships, got {sum(self.counts)}")
        order = sorted(range(len(names)), key=names.__getitem__)
        object.__setattr__(self, "units", tuple(self.units[i] for i in order))
        object.__setattr__(self, "counts", tuple(self.counts[i] for i in order))

    @classmethod
    def of(cls, counts: Mapping[Any, int], catalogue: Mapping[str, Unit] = CATALOGUE) -> Fleet:
        """A fleet from ``{unit or name: count}``; names are looked up in ``catalogue``.

        >>> Fleet.of({"fighter": 8}).ships(Fleet.of({"fighter": 8}).initial_state)
        8
        """
        merged: dict[str, tuple[Unit, int]] = {}
        for key, count in counts.items():
            unit = key if isinstance(key, Unit) else lookup(key, catalogue)
            if unit.name in merged:
                raise ModelError(f"unit {unit.name!r} is given twice")
            merged[unit.name] = (unit, count)
        return cls(tuple(u for u, _ in merged.values()), tuple(c for _, c in merged.values()))

    @property
    def slots(self) -> tuple[tuple[int, int], ...]:
        """(unit index, hit points left) for every position of a :data:`FleetState`."""
        return tuple((i, r) for i, u in enumerate(self.units) for r in range(u.hp, 0, -1))

    @property
    def initial_state(self) -> FleetState:
        """Every ship undamaged."""
        return tuple(
            count if r == unit.hp else 0
            for unit, count in zip(self.units, self.counts)
            for r in range(unit.hp, 0, -1)
        )

    def ships(self, state: FleetState) -> int:
        """Number of ships left in ``state``."""
        return sum(state)

    def hit_points(self, state: FleetState) -> int:
        """Hit points left in ``state``: the most hits the fleet can still absorb."""
        return sum(c * r for c, (_, r) in zip(state, self.slots))

    def ships_by_unit(self, state: FleetState) -> dict[str, int]:
        """``{unit name: ships left}`` for every unit type of the fleet."""
        out = {u.name: 0 for u in self.units}
        for c, (i, _) in zip(state, self.slots):
            out[self.units[i].name] += c
        return out

    def survivors(self, state: FleetState) -> tuple[tuple[str, int, int], ...]:
        """``(unit name, hit points left, count)`` for every non-empty slot."""
        return tuple((self.units[i].name, r, c) for c, (i, r) in zip(state, self.slots) if c)

    def describe(self, state: FleetState | None = None) -> str:
        """``"3 fighter, 1 war-sun (1 damaged)"``; ``"none"`` for an empty fleet.

        ``state`` defaults to the initial state.
        """
        state = self.initial_state if state is None else state
        return describe_survivors(self.survivors(state), {u.name: u.hp for u in self.units})

    def __str__(self) -> str:
        return ", ".join(f"{c} {u.name}" for u, c in zip(self.units, self.counts))


def describe_survivors(
    survivors: Iterable[tuple[str, int, int]], full_hp: Mapping[str, int]
) -> str:
    """Text for ``(name, hp left, count)`` triples: damaged ships are counted apart.

    >>> describe_survivors([("war-sun", 2, 1), ("war-sun", 1, 1)], {"war-sun": 2})
    '2 war-sun (1 damaged)'
    """
    total: dict[str, int] = {}
    damaged: dict[str, dict[int, int]] = {}
    for name, r, c in survivors:
        total[name] = total.get(name, 0) + c
        if r < full_hp[name]:
            damaged.setdefault(name, {})[r] = c
    parts = []
    for name, count in total.items():
        notes = [
            f"{c} damaged" if full_hp[name] == 2 else f"{c} at {r} hp"
            for r, c in sorted(damaged.get(name, {}).items(), reverse=True)
        ]
        parts.append(f"{count} {name}" + (f" ({', '.join(notes)})" if notes else ""))
    return ", ".join(parts) if parts else "none"


def lookup(name: str, catalogue: Mapping[str, Unit] = CATALOGUE) -> Unit:
    """The unit called ``name``, with an error that lists the known names."""
    unit = catalogue.get(name)
    if unit is None:
        raise ModelError(f"unknown unit {name!r}; known units: {', '.join(sorted(catalogue))}")
    return unit


_ITEM = re.compile(r"\s*(\S+)\s+(\S+)\s*\Z")


def parse_fleet(text: str, catalogue: Mapping[str, Unit] = CATALOGUE) -> Fleet:
    """A fleet from comma-separated ``"COUNT UNIT"`` items, e.g. ``"2 war-sun, 3 fighter"``.

    Repeated unit names are added up.

    >>> str(parse_fleet("1 fighter, 2 cruiser, 2 fighter"))
    '2 cruiser, 3 fighter'
    """
    if not text.strip():
        raise ModelError("empty fleet; write COUNT UNIT items such as '2 war-sun, 3 fighter'")
    counts: dict[str, int] = {}
    for item in text.split(","):
        match = _ITEM.match(item)
        if match is None:
            raise ModelError(
                f"cannot read fleet item {item.strip()!r}; write COUNT UNIT, e.g. '3 fighter'"
            )
        count_text, name = match.groups()
        count = parse_whole(f"the count in {item.strip()!r}", count_text, 1)
        lookup(name, catalogue)
        counts[name] = counts.get(name, 0) + count
    return Fleet.of(counts, catalogue)


def parse_unit(text: str) -> Unit:
    """A unit from ``"NAME:HP:COMBAT:DICE"``, e.g. ``"flagship:2:5:2"``.

    >>> parse_unit("flagship:2:5:2").hit_probability
    Fraction(3, 5)
    """
    fields = text.split(":")
    if len(fields) != 4:
        raise ModelError(f"a unit is NAME:HP:COMBAT:DICE (four fields), got {text!r}")
    name, *numbers = (f.strip() for f in fields)
    labels = ("HP", "COMBAT", "DICE")
    hp, combat, dice = (
        parse_whole(f"{label} in unit {text!r}", value) for label, value in zip(labels, numbers)
    )
    return Unit(name, hp, combat, dice)
