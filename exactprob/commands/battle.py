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

from ..games.fleet_battle import (
    CATALOGUE,
    Fleet,
    HitOrder,
    Unit,
    battle_report,
    parse_fleet,
    parse_order,
    parse_unit,
)
from ..util.limits import check_max_states
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit

__all__ = ["BattleOptions", "catalogue_with", "options_from", "register", "run"]

#: This command's --max-states by default, tighter than the engine's (an answer in seconds).
COMMAND_MAX_STATES = 5_000


@dataclass(frozen=True)
class BattleOptions:
    """The checked command line: fleets, orders, who optimises, the state limit."""

    attacker: Fleet
    defender: Fleet
    attacker_order: HitOrder | None
    defender_order: HitOrder | None
    optimal: str | None
    max_states: int


def catalogue_with(definitions: Sequence[str]) -> dict[str, Unit]:
    """The built-in catalogue plus ``--unit`` definitions (which may replace a unit)."""
    catalogue = dict(CATALOGUE)
    for text in definitions:
        unit = parse_unit(text)
        catalogue[unit.name] = unit
    return catalogue


def _order(text: str | None, fleet: Fleet) -> HitOrder | None:
    """The side's ``--*-order`` (``None``: the game's default order)."""
    return None if text is None else parse_order(text, fleet)


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


def run(args: argparse.Namespace) -> None:
    options = options_from(args)
    report = battle_report(
        options.attacker,
        options.defender,
        attacker_order=options.attacker_order,
        defender_order=options.defender_order,
        optimal=options.optimal,
        max_states=options.max_states,
    )
    emit(report.to_json(), report.text(), args.json)


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
