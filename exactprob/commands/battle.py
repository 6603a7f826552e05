"""``exactprob battle``: the exact outcome of a fleet battle (Twilight Imperium style).

Fleets are comma-separated ``COUNT UNIT`` items (``"2 war-sun, 3 fighter"``) over the
base game's catalogue and any ``--unit NAME:HP:COMBAT:DICE`` definitions.

>>> catalogue_with(["flagship:2:5:2"])["flagship"].hit_probability
Fraction(3, 5)
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..games.fleet_battle import (
    CATALOGUE,
    BattleResult,
    Fleet,
    HitOrder,
    OptimalResult,
    Unit,
    battle,
    battle_states_bound,
    battle_transitions_bound,
    optimal_battle,
    parse_fleet,
    parse_order,
    parse_unit,
)
from ..limits import check_max_states, refuse_more_than
from ..numbers import decimal_string, exact_fields
from ..text import exact_text, table_lines
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit

#: Transitions allowed per state of --max-states: 600 x the default 5,000 is 3,000,000,
#: about half a minute of exact arithmetic for fighters (see battle_transitions_bound).
TRANSITIONS_PER_STATE = 600

__all__ = ["BattleOptions", "catalogue_with", "options_from", "register", "run"]

#: This command's --max-states by default, tighter than the engine's (an answer in seconds).
COMMAND_MAX_STATES = 5_000


@dataclass(frozen=True)
class BattleOptions:
    """The checked command line: fleets, orders, who optimises, the state limit."""

    attacker: Fleet
    defender: Fleet
    attacker_order: HitOrder
    defender_order: HitOrder
    optimal: str | None
    max_states: int


def catalogue_with(definitions: Sequence[str]) -> dict[str, Unit]:
    """The built-in catalogue plus ``--unit`` definitions (which may replace a unit)."""
    catalogue = dict(CATALOGUE)
    for text in definitions:
        unit = parse_unit(text)
        catalogue[unit.name] = unit
    return catalogue


def _order(text: str | None, fleet: Fleet) -> HitOrder:
    return HitOrder.default(fleet) if text is None else parse_order(text, fleet)


def options_from(args: argparse.Namespace) -> BattleOptions:
    """Check every argument; errors name the bad value."""
    check_max_states(args.max_states, "--max-states")
    catalogue = catalogue_with(args.unit or [])
    attacker = parse_fleet(args.attacker, catalogue)
    defender = parse_fleet(args.defender, catalogue)
    return BattleOptions(
        attacker,
        defender,
        _order(args.attacker_order, attacker),
        _order(args.defender_order, defender),
        args.optimal,
        args.max_states,
    )


def solve_options(options: BattleOptions) -> tuple[BattleResult, OptimalResult | None]:
    """The battle's result (under the optimal policy when one side optimises)."""
    free_side = None if options.optimal is None else ("attacker", "defender").index(options.optimal)
    bound = battle_states_bound(options.attacker, options.defender, free_side)
    # checked first: --optimal enumerates choices up front
    refuse_more_than(options.max_states, bound, "this battle", at_most=True)
    moves = battle_transitions_bound(options.attacker, options.defender, free_side)
    if moves > TRANSITIONS_PER_STATE * options.max_states:
        raise UsageError(
            f"this battle has up to {moves:,} transitions, more than the "
            f"{TRANSITIONS_PER_STATE * options.max_states:,} allowed with --max-states "
            f"{options.max_states:,} ({TRANSITIONS_PER_STATE} per state; 40 fighters against "
            f"40 have 2,825,761 and take about 20 s); pass --max-states "
            f"{-(-moves // TRANSITIONS_PER_STATE)} to solve it anyway"
        )
    if options.optimal is None:
        result = battle(
            options.attacker,
            options.defender,
            attacker_order=options.attacker_order,
            defender_order=options.defender_order,
            max_states=options.max_states,
        )
        return result, None
    best = optimal_battle(
        options.attacker,
        options.defender,
        options.optimal,
        attacker_order=options.attacker_order,
        defender_order=options.defender_order,
        max_states=options.max_states,
    )
    return best.result, best


def payload_of(
    options: BattleOptions, result: BattleResult, best: OptimalResult | None
) -> dict[str, Any]:
    """The JSON document."""
    payload = result.to_json()
    payload["attacker_order"] = options.attacker_order.labels()
    payload["defender_order"] = options.defender_order.labels()
    if best is not None:
        fixed = best.fixed
        payload["optimal"] = {
            "side": best.side,
            **exact_fields("fixed_order_win", fixed.win),
            "decision_states": best.decision_states,
            "tied_states": best.tied_states,
            "improved_states": best.improved_states,
        }
    return payload


def text_of(options: BattleOptions, result: BattleResult, best: OptimalResult | None) -> str:
    """The readable report: a summary, then each side's survivor distribution."""
    lines = [f"{result.attacker} attacking {result.defender} ({result.states:,} states)"]
    if best is not None:
        lines.append(
            f"the {best.side} assigns its hits optimally ({best.decision_states:,} decision "
            f"states, {best.improved_states:,} better than its fixed order, "
            f"{best.tied_states:,} with exact ties); with its fixed order P(attacker wins) "
            f"would be {exact_text(best.fixed.win)}"
        )
    lines += table_lines(
        [
            ("attacker wins", result.win),
            ("defender wins", result.lose),
            ("mutual destruction", result.mutual),
            ("expected rounds", result.expected_rounds),
            ("attacker ships lost (mean)", result.attacker_losses),
            ("defender ships lost (mean)", result.defender_losses),
        ]
    )
    for side in ("attacker", "defender"):
        lines += ["", f"{side} survivors:"]
        rows = result.survivor_labels(side)
        width = max(len(label) for label, _ in rows)
        lines += [f"  {label:<{width}}  {decimal_string(p, 10)}" for label, p in rows]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    options = options_from(args)
    result, best = solve_options(options)
    emit(payload_of(options, result, best), text_of(options, result, best), args.json)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    known = ", ".join(sorted(CATALOGUE))
    parser.add_argument("--attacker", required=True, help='fleet, e.g. "2 war-sun, 3 fighter"')
    parser.add_argument("--defender", required=True, help='fleet, e.g. "1 war-sun"')
    parser.add_argument(
        "--unit",
        action="append",
        metavar="NAME:HP:COMBAT:DICE",
        help=f"define a unit (repeatable; replaces a built-in one of the same name: {known})",
    )
    for side in ("attacker", "defender"):
        parser.add_argument(
            f"--{side}-order",
            metavar="ORDER",
            help=f'the {side}\'s hit-assignment priority, e.g. "war-sun/2, fighter" '
            "(NAME or NAME/HP-LEFT; the rest follows the default order)",
        )
    parser.add_argument(
        "--optimal",
        choices=("attacker", "defender"),
        help="let this side assign its hits optimally against the other's fixed order",
    )
    add_max_states_flag(parser, COMMAND_MAX_STATES)
    add_json_flag(parser)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "battle",
        help=help_of("battle"),
        description=(
            "Exact win, loss and mutual-destruction probabilities of a fleet battle, the "
            "survivors' distribution, expected rounds and losses. Units: "
            + ", ".join(
                f"{u.name} ({u.hp} hp, hits on {u.combat}, {u.dice} dice)"
                for u in CATALOGUE.values()
            )
        ),
    )
    _add_arguments(parser)
    parser.set_defaults(run=run)
