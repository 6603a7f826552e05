"""One fleet battle answered in full, the game's single entry point for a question about a
battle: its size checked before any work, the exact outcome under fixed hit orders, or
with one side assigning its hits optimally (and what that gains over its fixed order).
It is one result (:class:`BattleReport`) with its JSON form and its text, which is all the
``exactprob battle`` command prints.

>>> from exactprob.games.fleet_battle import parse_fleet
>>> report = battle_report(parse_fleet("1 fighter"), parse_fleet("1 fighter"))
>>> report.to_json()["win"] == report.to_json()["lose"]  # the same ship on both sides
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import ModelError, StateLimitError
from ...util.display import Report
from ...util.fields import field_lines
from ...util.limits import DEFAULT_MAX_STATES, limit_name, raise_limit, refuse_more_than
from ...util.numbers import exact_fields
from ...util.resources import check_memory
from ...util.text import decimal_text, exact_text
from .battle import (
    BattleResult,
    battle,
    battle_bytes,
    battle_states_bound,
    battle_transitions_bound,
)
from .hits import HitOrder
from .optimal import OptimalResult, optimal_battle
from .units import Fleet

__all__ = ["TRANSITIONS_PER_STATE", "BattleReport", "battle_report"]

#: Transitions allowed per state of ``max_states``: 600 x 5,000 states is 3,000,000, about
#: half a minute of exact arithmetic for fighters (see :func:`.battle_transitions_bound`).
TRANSITIONS_PER_STATE = 600


@dataclass(frozen=True, eq=False)
class BattleReport(Report):
    """A solved battle, the hit orders it was fought with, and the optimal side's gain."""

    result: BattleResult = field(repr=False)
    attacker_order: HitOrder
    defender_order: HitOrder
    best: OptimalResult | None = field(default=None, repr=False)

    def _build(self) -> dict[str, Any]:
        """The JSON form, computed once."""
        payload = self.result.to_json()
        payload["attacker_order"] = self.attacker_order.labels()
        payload["defender_order"] = self.defender_order.labels()
        best = self.best
        if best is not None:
            payload["optimal"] = {
                "side": best.side,
                **exact_fields("fixed_order_win", best.fixed.win),
                "decision_states": best.decision_states,
                "tied_states": best.tied_states,
                "improved_states": best.improved_states,
            }
        return payload

    def text(self) -> str:
        """The report for people: a summary, then each side's survivor distribution."""
        result, best = self.result, self.best
        lines = [f"{result.attacker} attacking {result.defender} ({result.states:,} states)"]
        if best is not None:
            lines.append(
                f"the {best.side} assigns its hits optimally ({best.decision_states:,} "
                f"decision states, {best.improved_states:,} better than its fixed order, "
                f"{best.tied_states:,} with exact ties); with its fixed order P(attacker "
                f"wins) would be {exact_text(best.fixed.win)}"
            )
        lines += field_lines(result.fields())
        for side in ("attacker", "defender"):
            lines += ["", f"{side} survivors:"]
            rows = result.survivor_labels(side)
            width = max(len(label) for label, _ in rows)
            lines += [f"  {label:<{width}}  {decimal_text(p)}" for label, p in rows]
        return "\n".join(lines)


def battle_report(
    attacker: Fleet,
    defender: Fleet,
    *,
    attacker_order: HitOrder | None = None,
    defender_order: HitOrder | None = None,
    optimal: str | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> BattleReport:
    """Solve the battle of ``attacker`` against ``defender`` (each side's hit order by
    default :meth:`HitOrder.default <.hits.HitOrder.default>`); ``optimal`` ("attacker"
    or "defender") lets that side assign its hits optimally against the other's order.

    Refused before any work when the battle may have more than ``max_states`` states, or
    more than :data:`TRANSITIONS_PER_STATE` transitions for each of them."""
    if optimal not in (None, "attacker", "defender"):
        raise ModelError(f"optimal must be None, 'attacker' or 'defender', got {optimal!r}")
    if attacker_order is None:
        attacker_order = HitOrder.default(attacker)
    if defender_order is None:
        defender_order = HitOrder.default(defender)
    free_side = None if optimal is None else ("attacker", "defender").index(optimal)
    # checked first: an optimal side's choices are enumerated up front
    bound = battle_states_bound(attacker, defender, free_side)
    refuse_more_than(max_states, bound, "this battle", at_most=True)
    moves = battle_transitions_bound(attacker, defender, free_side)
    if moves > TRANSITIONS_PER_STATE * max_states:
        needed = -(-moves // TRANSITIONS_PER_STATE)
        raise StateLimitError(
            f"this battle has up to {moves:,} transitions, more than the "
            f"{TRANSITIONS_PER_STATE * max_states:,} allowed with {limit_name()} {max_states:,} "
            f"({TRANSITIONS_PER_STATE} per state; 40 fighters against 40 have 2,825,761 and "
            f"take about 20 s); {raise_limit(needed)} to go on"
        )
    check_memory(battle_bytes(attacker, defender, free_side), "this battle")
    orders = {"attacker_order": attacker_order, "defender_order": defender_order}
    if optimal is None:
        result = battle(attacker, defender, **orders, max_states=max_states)
        return BattleReport(result, attacker_order, defender_order)
    best = optimal_battle(attacker, defender, optimal, **orders, max_states=max_states)
    return BattleReport(best.result, attacker_order, defender_order, best)
