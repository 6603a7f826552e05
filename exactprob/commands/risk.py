"""``exactprob risk``: the exact outcome of a Risk dice battle.

>>> from exactprob.cli import main
>>> main(["risk", "--attacker", "2", "--defender", "1", "--json"])  # doctest: +ELLIPSIS
{
  "attacker": 2,
  "defender": 1,
  "win": "5/12",
...
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..games.risk import MAX_ARMIES, RiskResult, risk_battle
from ..util.limits import check_max_states, refuse_more_than
from ..util.numbers import parse_whole
from ..util.text import decimal_text, table_lines
from . import help_of
from ._options import add_json_flag, add_max_states_flag
from ._output import emit

__all__ = ["register", "run"]

#: This command's --max-states by default, tighter than the engine's (an answer in seconds).
COMMAND_MAX_STATES = 100_000


def text_of(result: RiskResult) -> str:
    """The readable report."""
    lines = [f"Risk: {result.attackers} attacking armies against {result.defenders} defending"]
    lines += table_lines(
        [
            ("attacker conquers", result.win),
            ("attack fails", result.lose),
            ("expected rolls", result.expected_rolls),
        ]
    )
    lines += ["", "attacker's armies left (1 after a failed attack):"]
    lines += [f"  {k:>5}  {decimal_text(p)}" for k, p in result.attacker_remaining.items()]
    lines += ["", "defender's armies left (0 after a conquest):"]
    lines += [f"  {k:>5}  {decimal_text(p)}" for k, p in result.defender_remaining.items()]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    attackers = parse_whole("--attacker", args.attacker, 2, MAX_ARMIES, UsageError)
    defenders = parse_whole("--defender", args.defender, 1, MAX_ARMIES, UsageError)
    check_max_states(args.max_states, "--max-states")
    states = attackers * (defenders + 1)
    refuse_more_than(args.max_states, states, f"{attackers} against {defenders}", at_most=True)
    result = risk_battle(attackers, defenders, max_states=args.max_states)
    emit(result.to_json(), text_of(result), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "risk",
        help=help_of("risk"),
        description=(
            "The attacker rolls min(3, A-1) dice, the defender min(2, D); sorted dice are "
            "compared in pairs, ties to the defender. Prints the exact chance of conquest "
            "and the distribution of the armies left."
        ),
    )
    parser.add_argument("--attacker", required=True, metavar="A", help="attacking armies (>= 2)")
    parser.add_argument("--defender", required=True, metavar="D", help="defending armies (>= 1)")
    add_max_states_flag(parser, COMMAND_MAX_STATES)
    add_json_flag(parser)
    parser.set_defaults(run=run)
