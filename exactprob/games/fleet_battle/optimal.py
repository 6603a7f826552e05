r"""Optimal hit assignment for one side, against a fixed order of the other: an MDP.

After each roll the deciding side sees both hit counts and chooses which of its ships
take its :math:`y` hits: any fleet obtained by removing exactly :math:`\min(y, H)` hit
points (:math:`H` its hit points left), one hit at a time. The other side applies its
fixed order. The decision gets its own state, ``("assign", own fleet, hits, opponent
after the round)``, whose actions are the possible fleets after the hits (the fixed
order's choice first, so that it is reported when it ties). The attacker maximises
:math:`P(\text{win})`; a deciding defender minimises it (so it does not distinguish its
own win from mutual destruction).

Both sides at once would be a different game. In a round both fleets assign their hits
at the same time, each without seeing the other's choice: a *simultaneous-move*
stochastic game, whose value may need mixed (randomised) strategies. The engine solves
turn-based games, where one player moves at a time and sees the state; making one side
choose first would hand the other side information it does not have at the table, and
change the game. So exactprob optimises one side at a time and does not claim a value
for both.

>>> from exactprob.games.fleet_battle.units import parse_fleet
>>> best = optimal_battle(parse_fleet("1 war-sun, 1 fighter"), parse_fleet("2 cruiser"))
>>> best.fixed.win < best.value == best.result.win
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...engine import Dist, solve
from ...errors import ModelError
from ...util.limits import DEFAULT_MAX_STATES
from .battle import BattleResult, FleetBattle, battle, result_of
from .hits import HitOrder, take_hit
from .units import Fleet, FleetState

__all__ = ["OptimalAssignment", "OptimalResult", "PolicyAllocation", "optimal_battle"]

SIDES = ("attacker", "defender")
#: ``(own fleet, hits taken, opponent's fleet after the round)`` -> own fleet after.
Choice = Mapping[tuple[FleetState, int, FleetState], FleetState]


def side_index(side: str) -> int:
    """0 for ``"attacker"``, 1 for ``"defender"``."""
    if side not in SIDES:
        raise ModelError(f"side must be 'attacker' or 'defender', got {side!r}")
    return SIDES.index(side)


class OptimalAssignment(FleetBattle):
    """The battle with ``side``'s hit assignment as a decision (an MDP).

    Parameters
    ----------
    attacker, defender : Fleet
        The fleets.
    side : {"attacker", "defender"}
        Who decides; the other side uses its order.
    attacker_order, defender_order : HitOrder, optional
        Fixed orders (default: the spec's). The deciding side's order only ranks its
        choices (its allocation comes first among the actions).
    """

    def __init__(
        self,
        attacker: Fleet,
        defender: Fleet,
        side: str = "attacker",
        attacker_order: HitOrder | None = None,
        defender_order: HitOrder | None = None,
    ) -> None:
        super().__init__(attacker, defender, attacker_order, defender_order)
        if any(order.reactive for order in self.orders):
            raise ModelError("the orders of an OptimalAssignment must be fixed HitOrders")
        self.side = side_index(side)
        self._choices: dict[tuple[FleetState, int], tuple[FleetState, ...]] = {}

    def outcome(self, state: Any) -> int | None:
        """Terminal value of a round state; decision states are never terminal."""
        return None if state[0] == "assign" else super().outcome(state)

    def player(self, state: Any) -> int:
        """1 (minimising) for a deciding defender's decision states, else 0."""
        return int(state[0] == "assign" and self.side == 1)

    def actions(self, state: Any) -> tuple[Any, ...]:
        """The possible fleets after the hits, in a decision state; else one round."""
        if state[0] == "assign":
            return self.choices(state[1], state[2])
        return ("round",)

    def transition(self, state: Any, action: Any) -> Dist[Any]:
        """A round (as in :class:`FleetBattle`), or the chosen fleet."""
        if state[0] != "assign":
            return super().transition(state, action)
        _, _, _, opponent = state
        return Dist({(action, opponent) if self.side == 0 else (opponent, action): 1})

    def after_round(self, a: FleetState, d: FleetState, x: int, y: int) -> Any:
        """The next round's state, or a decision state when the decider has a choice."""
        if self.side == 0:
            own, hits, opponent = a, y, self.orders[1].allocate(d, x, a)
        else:
            own, hits, opponent = d, x, self.orders[0].allocate(a, y, d)
        options = self.choices(own, hits)
        if len(options) > 1:
            return ("assign", own, hits, opponent)
        return (options[0], opponent) if self.side == 0 else (opponent, options[0])

    def choices(self, own: FleetState, hits: int) -> tuple[FleetState, ...]:
        """Every fleet the decider can be left with after ``hits`` hits (the fixed
        order's first, the rest sorted)."""
        key = (own, hits)
        if key not in self._choices:
            self._choices[key] = self._enumerate(own, hits)
        return self._choices[key]

    def _enumerate(self, own: FleetState, hits: int) -> tuple[FleetState, ...]:
        fleet = self.attacker if self.side == 0 else self.defender
        frontier = {own}
        for _ in range(min(hits, fleet.hit_points(own))):
            frontier = {_hit(fleet, f, s) for f in frontier for s, c in enumerate(f) if c}
        first = self.orders[self.side].allocate(own, hits, own)
        return (first, *sorted(frontier - {first}))


def _hit(fleet: Fleet, state: FleetState, slot: int) -> FleetState:
    counts = list(state)
    take_hit(fleet, counts, slot)
    return tuple(counts)


@dataclass(frozen=True)
class PolicyAllocation:
    """A side that takes hits as a solved policy says (a reactive allocation).

    ``choice`` maps ``(own, hits, opponent after)`` to the fleet after the hits; where it
    has no entry the side had no choice, and ``order`` gives the only option.
    """

    order: HitOrder
    choice: Choice = field(repr=False)
    reactive: ClassVar[bool] = True

    def allocate(self, own: FleetState, hits: int, opponent_after: FleetState) -> FleetState:
        """The policy's fleet after ``hits`` hits."""
        chosen = self.choice.get((own, hits, opponent_after))
        return self.order.apply(own, hits) if chosen is None else chosen


@dataclass(frozen=True)
class OptimalResult:
    """Optimal hit assignment for one side.

    Attributes
    ----------
    side : str
        ``"attacker"`` or ``"defender"``.
    value : Fraction
        P(attacker wins) with ``side`` assigning hits optimally.
    result : BattleResult
        The full result of the battle played with the optimal policy.
    fixed : BattleResult
        The same battle with ``side``'s fixed order, for comparison.
    decision_states, tied_states, improved_states : int
        Decision states (a real choice); those where several allocations are exactly
        optimal; those where the fixed order's allocation is strictly worse.
    policy : mapping
        ``(own fleet, hits, opponent after)`` -> the chosen fleet after the hits.
    """

    side: str
    value: Any
    result: BattleResult
    fixed: BattleResult
    decision_states: int
    tied_states: int
    improved_states: int
    policy: Choice = field(repr=False)


def optimal_battle(
    attacker: Fleet,
    defender: Fleet,
    side: str = "attacker",
    *,
    attacker_order: HitOrder | None = None,
    defender_order: HitOrder | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> OptimalResult:
    """Solve the MDP in which ``side`` assigns its hits optimally, and play it out."""
    mdp = OptimalAssignment(attacker, defender, side, attacker_order, defender_order)
    solution = solve(mdp, max_states=max_states, progress=False)
    decisions = [s for s in solution.states if s[0] == "assign"]
    policy = {  # a decision state is never terminal: each has an action
        (s[1], s[2], s[3]): action for s in decisions if (action := solution.policy(s)) is not None
    }
    orders: list[Any] = list(mdp.orders)
    fixed_order = orders[mdp.side]
    orders[mdp.side] = PolicyAllocation(fixed_order, policy)
    chain = FleetBattle(attacker, defender, *orders)
    fixed = battle(
        attacker,
        defender,
        attacker_order=mdp.orders[0],
        defender_order=mdp.orders[1],
        max_states=max_states,
    )
    return OptimalResult(
        side=side,
        value=solution.value(),
        result=result_of(chain, solve(chain, max_states=max_states, progress=False)),
        fixed=fixed,
        decision_states=len(decisions),
        tied_states=sum(len(solution.ties(s)) > 1 for s in decisions),
        improved_states=sum(mdp.actions(s)[0] not in solution.ties(s) for s in decisions),
        policy=policy,
    )
