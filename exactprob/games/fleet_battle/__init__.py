r"""Fleet battles (Twilight Imperium 3rd edition style), exact.

Two fleets fight in rounds. In each round every die of every ship rolls at once; a die
of a ship with combat value :math:`a` hits with probability :math:`(11 - a)/10`, so a
fleet's hits are a sum of binomials, one per combat value. Each fleet takes the other's
hits one at a time by its hit-assignment order. A round in which neither fleet hits
repeats; the battle is a Markov chain whose only cycles are those do-over rounds, and
the solver removes each by renormalising with

.. math::

    \frac{1}{1 - P(X = 0)\,P(Y = 0)}

(:math:`X`, :math:`Y` the two fleets' hits), exactly. The battle ends when a fleet is
empty: a win (only the attacker is left), a loss, or a mutual destruction.

* :mod:`.units`: unit types, the base game's :data:`~.units.CATALOGUE`, fleets;
* :mod:`.hits`: the per-round hit distribution and hit-assignment orders;
* :mod:`.battle`: the chain, :func:`~.battle.battle` and its :class:`~.battle.BattleResult`,
  the source's table;
* :mod:`.optimal`: the best hit assignment for one side (an MDP);
* :mod:`.simulator`: an independent numpy simulator;
* :mod:`.report`: one battle answered in full (:func:`~.report.battle_report`), what
  ``exactprob battle`` prints; :mod:`.figures` its survivor chart (matplotlib).

>>> from fractions import Fraction
>>> result = battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun"))
>>> result.win > result.mutual > Fraction(14, 100)
True
>>> source_percent(result.win)
'34.96'
"""

from __future__ import annotations

from .battle import (
    SOURCE_TABLE,
    BattleResult,
    FleetBattle,
    Survivors,
    battle,
    battle_bytes,
    battle_states_bound,
    battle_transitions_bound,
    result_of,
    source_percent,
    source_table,
)
from .hits import Allocation, HitOrder, hit_distribution, parse_order
from .optimal import OptimalAssignment, OptimalResult, PolicyAllocation, optimal_battle
from .report import BattleReport, battle_report
from .simulator import LOSE, MUTUAL, WIN, SimulatedBattles, simulate_battle
from .units import CATALOGUE, Fleet, FleetState, Unit, parse_fleet, parse_unit

__all__ = [
    "CATALOGUE",
    "LOSE",
    "MUTUAL",
    "SOURCE_TABLE",
    "WIN",
    "Allocation",
    "BattleReport",
    "BattleResult",
    "Fleet",
    "FleetBattle",
    "FleetState",
    "HitOrder",
    "OptimalAssignment",
    "OptimalResult",
    "PolicyAllocation",
    "SimulatedBattles",
    "Survivors",
    "Unit",
    "battle",
    "battle_bytes",
    "battle_report",
    "battle_states_bound",
    "battle_transitions_bound",
    "hit_distribution",
    "optimal_battle",
    "parse_fleet",
    "parse_order",
    "parse_unit",
    "result_of",
    "simulate_battle",
    "source_percent",
    "source_table",
]
