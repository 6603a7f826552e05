r"""The battle as a Markov chain, and its full exact result.

A state is ``(attacker, defender)``, each a :data:`~.units.FleetState`. In a round both
fleets roll at once: the attacker scores :math:`X` hits and the defender :math:`Y`,
independent, with the distributions of :func:`~.hits.hit_distribution`. The defender
takes :math:`X` hits and the attacker :math:`Y`, each by its own order; with :math:`A_y`
and :math:`D_x` the fleets after :math:`y` and :math:`x` hits,

.. math::

    P\bigl((A, D) \to (A', D')\bigr) = \sum_{x, y:\ A_y = A',\ D_x = D'} P(X = x)\,P(Y = y).

A round with :math:`X = Y = 0` leads back to :math:`(A, D)`: a self-loop with
probability :math:`r = P(X = 0)\,P(Y = 0)`, which the solver removes by the do-over
renormalisation :math:`1/(1 - r)` (exact: the number of repeated rounds is geometric).
The battle ends when a fleet is empty; the value is 1 when only the attacker is left.

>>> from exactprob.games.fleet_battle.units import parse_fleet
>>> result = battle(parse_fleet("1 fighter"), parse_fleet("1 war-sun"))
>>> result.win, result.mutual
(Fraction(1, 385641), Fraction(124, 385641))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...engine import Dist, SolvedLaws, solve
from ...errors import ModelError
from ...util.display import JsonDisplay
from ...util.fields import ReportField, json_fields
from ...util.limits import DEFAULT_MAX_STATES
from ...util.numbers import exact_fields
from ...util.resources import check_memory
from .hits import Allocation, HitOrder, hit_distribution
from .units import CATALOGUE, Fleet, FleetState, describe_survivors

__all__ = [
    "SOURCE_TABLE",
    "BattleResult",
    "FleetBattle",
    "Survivors",
    "battle",
    "battle_states_bound",
    "battle_transitions_bound",
    "result_of",
    "source_percent",
    "source_table",
]

BattleState = tuple[FleetState, FleetState]
#: ``(unit name, hit points left, count)`` for every surviving kind of ship.
Survivors = tuple[tuple[str, int, int], ...]


class FleetBattle:
    """The battle between two fleets as a Markov chain (one action per state).

    Parameters
    ----------
    attacker, defender : Fleet
        The two fleets.
    attacker_order, defender_order : Allocation, optional
        How each side takes hits; the default :meth:`~.hits.HitOrder.default` order
        when omitted. At most one of them may be reactive.
    """

    def __init__(
        self,
        attacker: Fleet,
        defender: Fleet,
        attacker_order: Allocation | None = None,
        defender_order: Allocation | None = None,
    ) -> None:
        self.attacker, self.defender = attacker, defender
        self.orders: tuple[Allocation, Allocation] = (
            attacker_order or HitOrder.default(attacker),
            defender_order or HitOrder.default(defender),
        )
        if all(order.reactive for order in self.orders):
            raise ModelError("only one side may react to the other's losses of the same round")
        self.initial: BattleState = (attacker.initial_state, defender.initial_state)
        self._hits: tuple[dict[FleetState, Dist[int]], dict[FleetState, Dist[int]]] = ({}, {})

    def outcome(self, state: BattleState) -> int | None:
        """1 if only the attacker has ships left, 0 if only the defender or neither."""
        attacker_alive, defender_alive = any(state[0]), any(state[1])
        if attacker_alive and defender_alive:
            return None
        return int(attacker_alive)

    def actions(self, state: BattleState) -> tuple[str]:
        """One action: the next round."""
        return ("round",)

    def transition(self, state: BattleState, action: str) -> Dist[Any]:
        """Both fleets roll; each takes the other's hits."""
        a, d = state
        on_defender = self.hits_scored(0, a, self.defender.hit_points(d))
        on_attacker = self.hits_scored(1, d, self.attacker.hit_points(a))
        return on_defender.bind(lambda x: on_attacker.map(lambda y: self.after_round(a, d, x, y)))

    def hits_scored(self, side: int, fleet_state: FleetState, cap: int) -> Dist[int]:
        """Hits scored by ``side`` (0 attacker, 1 defender), merged above ``cap`` (the
        hit points of the other fleet: more hits change nothing)."""
        cache = self._hits[side]
        hits = cache.get(fleet_state)
        if hits is None:
            fleet = self.attacker if side == 0 else self.defender
            hits = cache[fleet_state] = hit_distribution(fleet, fleet_state)
        return hits.map(lambda h: min(h, cap)) if hits and max(hits) > cap else hits

    def after_round(self, a: FleetState, d: FleetState, x: int, y: int) -> Any:
        """The state after the attacker scored ``x`` hits and the defender ``y``."""
        attacker_order, defender_order = self.orders
        if attacker_order.reactive:
            d_after = defender_order.allocate(d, x, a)
            return (attacker_order.allocate(a, y, d_after), d_after)
        a_after = attacker_order.allocate(a, y, d)
        return (a_after, defender_order.allocate(d, x, a_after))


@dataclass(frozen=True)
class BattleResult(JsonDisplay):
    """The exact outcome of a battle.

    Attributes
    ----------
    attacker, defender : Fleet
        The fleets at the start.
    win, lose, mutual : Fraction
        P(only the attacker survives), P(only the defender survives), P(both are
        destroyed in the same round); they sum to 1.
    expected_rounds : Fraction
        Expected number of rounds, do-over rounds included.
    attacker_survivors, defender_survivors : Dist
        Distribution of each side's surviving ships, as :data:`Survivors`
        (``()`` when the side is destroyed).
    states : int
        Reachable states of the chain.
    """

    attacker: Fleet
    defender: Fleet
    win: Fraction
    lose: Fraction
    mutual: Fraction
    expected_rounds: Fraction
    attacker_survivors: Dist[Survivors]
    defender_survivors: Dist[Survivors]
    states: int

    @property
    def attacker_losses(self) -> Fraction:
        """Expected number of attacker ships destroyed."""
        return _expected_losses(self.attacker, self.attacker_survivors)

    @property
    def defender_losses(self) -> Fraction:
        """Expected number of defender ships destroyed."""
        return _expected_losses(self.defender, self.defender_survivors)

    def losses_by_unit(self, side: str) -> dict[str, Fraction]:
        """Expected ships destroyed per unit type of ``side`` (``"attacker"`` or
        ``"defender"``)."""
        fleet, survivors = self._side(side)
        out = {}
        for unit, count in zip(fleet.units, fleet.counts):
            left = survivors.map(_ships_named(unit.name))
            out[unit.name] = count - Fraction(left.mean())
        return out

    def _side(self, side: str) -> tuple[Fleet, Dist[Survivors]]:
        if side == "attacker":
            return self.attacker, self.attacker_survivors
        if side == "defender":
            return self.defender, self.defender_survivors
        raise ModelError(f"side must be 'attacker' or 'defender', got {side!r}")

    def survivor_labels(self, side: str) -> list[tuple[str, Fraction]]:
        """(text, probability) for each survivor outcome of ``side``, most ships first."""
        fleet, survivors = self._side(side)
        full = {u.name: u.hp for u in fleet.units}
        return [(describe_survivors(s, full), survivors[s]) for s in _by_size(survivors)]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: exact values as ``"p/q"`` with ``*_decimal`` twins."""
        payload: dict[str, Any] = {"attacker": str(self.attacker), "defender": str(self.defender)}
        payload |= json_fields(self.fields())
        for side in ("attacker", "defender"):
            payload[f"{side}_survivors"] = self._survivors_json(side)
        payload["states"] = self.states
        return payload

    def fields(self) -> list[ReportField]:
        """The battle's chances and means, for its JSON and its text."""
        return [
            ReportField("win", "attacker wins", self.win),
            ReportField("lose", "defender wins", self.lose),
            ReportField("mutual", "mutual destruction", self.mutual),
            ReportField("expected_rounds", "expected rounds", self.expected_rounds),
            ReportField(
                "attacker_expected_losses", "attacker ships lost (mean)", self.attacker_losses
            ),
            ReportField(
                "defender_expected_losses", "defender ships lost (mean)", self.defender_losses
            ),
        ]

    def _survivors_json(self, side: str) -> list[dict[str, Any]]:
        fleet, survivors = self._side(side)
        full = {u.name: u.hp for u in fleet.units}
        return [
            {
                "ships": [{"unit": n, "hp": r, "count": c} for n, r, c in s],
                "label": describe_survivors(s, full),
                **exact_fields("probability", survivors[s]),
            }
            for s in _by_size(survivors)
        ]


def _ships_named(name: str) -> Callable[[Survivors], int]:
    return lambda survivors: sum(c for n, _, c in survivors if n == name)


def _by_size(survivors: Dist[Survivors]) -> list[Survivors]:
    def size(s: Survivors) -> tuple[int, int]:
        return (-sum(c for _, _, c in s), -sum(r * c for _, r, c in s))

    return sorted(survivors, key=size)


def _expected_losses(fleet: Fleet, survivors: Dist[Survivors]) -> Fraction:
    left = survivors.map(lambda s: sum(c for _, _, c in s))
    return sum(fleet.counts) - Fraction(left.mean())


def result_of(model: FleetBattle, solution: SolvedLaws) -> BattleResult:
    """The :class:`BattleResult` of a solved battle: everything comes from the solver's
    absorption distribution over terminal states and its expected number of steps."""
    end: Dist[BattleState] = solution.absorption()
    kinds = end.map(lambda s: (bool(any(s[0])), bool(any(s[1]))))
    return BattleResult(
        attacker=model.attacker,
        defender=model.defender,
        win=kinds[(True, False)],
        lose=kinds[(False, True)],
        mutual=kinds[(False, False)],
        expected_rounds=solution.expected_steps(),
        attacker_survivors=end.map(lambda s: model.attacker.survivors(s[0])),
        defender_survivors=end.map(lambda s: model.defender.survivors(s[1])),
        states=len(solution.states),
    )


def battle_states_bound(attacker: Fleet, defender: Fleet, free_side: int | None = None) -> int:
    """An upper bound on the battle states (pairs of fleets).

    A fixed order makes a fleet a function of the hits it has taken: at most
    ``hit points + 1`` fleets. A side that assigns its hits freely (``free_side`` 0 for
    the attacker, 1 for the defender) can reach any spread of each type's :math:`c`
    ships over its :math:`h + 1` damage levels (destroyed included):
    :math:`\\prod \\binom{c + h}{h}` fleets.

    >>> from exactprob.games.fleet_battle.units import parse_fleet
    >>> ws, f = parse_fleet("3 war-sun"), parse_fleet("1 fighter")
    >>> battle_states_bound(ws, f), battle_states_bound(ws, f, free_side=0)
    (14, 20)
    """
    return _fleets_bound(attacker, free_side == 0) * _fleets_bound(defender, free_side == 1)


def battle_transitions_bound(attacker: Fleet, defender: Fleet, free_side: int | None = None) -> int:
    """An upper bound on the battle's transitions: every state moves to at most
    ``(attacker's dice + 1) x (defender's dice + 1)`` pairs of hit counts, each side's dice
    counted at full strength. The exact solve's time grows with it (and with the length
    of the numbers): 30 fighters against 30 have at most 923,521 and take about 4 s, 40
    against 40 at most 2,825,761, about 20 s.

    >>> from exactprob.games.fleet_battle.units import parse_fleet
    >>> battle_transitions_bound(parse_fleet("30 fighter"), parse_fleet("30 fighter"))
    923521
    """
    return (
        battle_states_bound(attacker, defender, free_side)
        * (_dice(attacker) + 1)
        * (_dice(defender) + 1)
    )


#: Bytes a battle's exact solve holds per transition of :func:`battle_transitions_bound`
#: (about 40 measured from 20 to 50 fighters a side: the edges, their probabilities and
#: the explorer's tables), with room to spare, and the memory it starts from.
BYTES_PER_TRANSITION = 64
BATTLE_BASE_BYTES = 32 * 2**20


def battle_bytes(attacker: Fleet, defender: Fleet, free_side: int | None = None) -> int:
    """An estimate of the memory an exact solve of the battle holds, checked before it
    starts (a test holds it against the measured peak): :data:`BATTLE_BASE_BYTES` and
    :data:`BYTES_PER_TRANSITION` per transition of the bound.

    >>> from exactprob.games.fleet_battle.units import parse_fleet
    >>> battle_bytes(parse_fleet("1000 fighter"), parse_fleet("1000 fighter")) > 10**13
    True
    """
    transitions = battle_transitions_bound(attacker, defender, free_side)
    return BATTLE_BASE_BYTES + BYTES_PER_TRANSITION * transitions


def _dice(fleet: Fleet) -> int:
    return sum(count * unit.dice for unit, count in zip(fleet.units, fleet.counts, strict=True))


def _fleets_bound(fleet: Fleet, free: bool) -> int:
    if not free:
        return fleet.hit_points(fleet.initial_state) + 1
    bound = 1
    for i, unit in enumerate(fleet.units):
        ships = sum(n for n, (j, _) in zip(fleet.initial_state, fleet.slots) if j == i)
        bound *= math.comb(ships + unit.hp, unit.hp)
    return bound


def battle(
    attacker: Fleet,
    defender: Fleet,
    *,
    attacker_order: Allocation | None = None,
    defender_order: Allocation | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> BattleResult:
    """Solve a battle exactly and return its full result.

    Raises :class:`~exactprob.errors.StateLimitError` when the battle has more than
    ``max_states`` states, and :class:`~exactprob.errors.ResourceError` before any work
    when its :func:`battle_bytes` would not fit in memory.
    """
    check_memory(battle_bytes(attacker, defender), "this battle")
    model = FleetBattle(attacker, defender, attacker_order, defender_order)
    return result_of(model, solve(model, max_states=max_states, progress=False))


# -- the source's table -------------------------------------------------------------------
#: The source's table as printed ("TI3 dice battles", scienceofboardgames.com, 2008):
#: P(X fighters beat one war sun) in percent. Only rows 1-5 survive in our copy.
SOURCE_TABLE: Mapping[int, str] = {1: "0.00026", 2: "0.43", 3: "5.36", 4: "20.20", 5: "34.96"}


def source_percent(p: Fraction) -> str:
    """``100 p`` rounded as the source prints it: two decimals, or two significant
    digits when that shows more (values below 0.1%), rounded half up.

    >>> source_percent(Fraction(1, 385641)), source_percent(Fraction(101, 500))
    ('0.00026', '20.20')
    """
    percent = 100 * Fraction(p)
    if percent <= 0:
        return "0.00"
    exponent = _floor_log10(percent)
    places = max(2, 1 - exponent)
    scaled = math.floor(percent * 10**places + Fraction(1, 2))
    digits = str(scaled).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}"


def _floor_log10(x: Fraction) -> int:
    """The integer :math:`k` with :math:`10^k \\le x < 10^{k+1}`, exactly."""
    k = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** k > x:
        k -= 1
    while Fraction(10) ** (k + 1) <= x:
        k += 1
    return k


def source_table(
    rows: range = range(1, 10), solver: Callable[[Fleet, Fleet], BattleResult] = battle
) -> list[tuple[int, BattleResult, str, str | None]]:
    """(fighters, result, our percentage, the source's percentage or ``None``) for
    X fighters attacking one war sun, X in ``rows``."""
    war_sun = Fleet.of({"war-sun": 1})
    out = []
    for x in rows:
        result = solver(Fleet.of({CATALOGUE["fighter"]: x}), war_sun)
        out.append((x, result, source_percent(result.win), SOURCE_TABLE.get(x)))
    return out
