r"""Fighting Fantasy combat, solved exactly (I. G. Johnston, arXiv:2002.10172, 2020).

The hero (skill, stamina, luck) fights an opponent (skill, stamina) in rounds of 2d6 +
skill each; after a won or lost round the hero may *test luck* to amplify the blow or
soften it. Only the skill difference :math:`\Delta` matters.

* :mod:`.rules`: one round's chances from the sextinomial generating function, the luck
  test, the rule variants (standard, lucky hit of 3, *Crypt of the Sorcerer*), and when a
  round ends the fight whatever the hero decides;
* :mod:`.terms`: a fight as one value checked once (:class:`~exactprob.games.fighting_fantasy.terms.Fight`: skill
  difference, staminas, luck, the rule by name, what a victory is worth, an
  :class:`~.terms.Objective`), taken by every solver and the simulator; a luck policy's
  signature;
* :mod:`.grid`: the fast path, every state of a fight in one exact backward sweep, under
  optimal play or a fixed policy, for any :class:`~.terms.Objective`;
* :mod:`.model`: the same fight as a :class:`~exactprob.engine.model.Model`;
  :mod:`~exactprob.games.fighting_fantasy.fast_paths` makes the grid
  :func:`exactprob.solve`'s exact method for it;
* :mod:`.fight_arrays`: every start of a grid at once as an
  :class:`~exactprob.engine.array_model.ArrayModel`, explored by the engine in bulk;
* :mod:`.closed_forms`: the paper's formulas as sympy expressions;
* :mod:`.heuristics`: the nine heuristics, their exact values, and the fold increase;
* :mod:`.outcomes`: rounds, stamina left and luck spent;
* :mod:`.atlas`: every state for :math:`\Delta \in -9..9`, and the exact ties in it;
* :mod:`.simulator`: an independent numpy simulator written from the rules;
* :mod:`.report`: one fight answered in full (:func:`~.report.fight_report`), what
  ``exactprob ff`` prints;
* :mod:`.figures`: the atlas's figures (matplotlib is loaded when one is drawn).

>>> grid = solve_grid(Fight(0, 24, 24, 12))  # skill difference, staminas, luck
>>> grid.value(24, 24, 0)  # equal skills, no luck: a fair fight
Fraction(1, 2)
>>> grid.value(24, 24, 12) > grid.value(24, 24, 0)
True
"""

from .atlas import (
    ATLAS_DELTAS,
    TOLERANCE,
    Atlas,
    Decision,
    atlas,
    atlas_bytes,
    atlas_csv_bytes,
    atlas_states,
)
from .closed_forms import (
    Threshold,
    constant_luck_win,
    hits_to_kill,
    no_luck_value,
    no_luck_win,
    thresholds,
)
from .fast_paths import FightPolicySolution, FightSolution
from .fight_arrays import FightArrays, round_start
from .figures import atlas_figure_jobs
from .grid import STRATEGY_CODES, FightGrid, GridRecord, solve_grid
from .heuristics import (
    HEURISTICS,
    MAX_TAU,
    PAIRS,
    BestHeuristic,
    Fold,
    best_heuristics,
    fold_increases,
    heuristic,
)
from .model import LUCK, NO_LUCK, FightModel, engine_policy
from .outcomes import FightOutcomes, decisive, fight_outcomes, fight_solution, outcomes_of, rolls
from .report import FightReport, fight_report
from .rules import (
    RULES,
    RoundOdds,
    Rule,
    luck_probability,
    round_counts,
    round_odds,
    sextinomial_row,
)
from .simulator import FightSimulation, simulate_fight
from .terms import MAX_STAT, Fight, LuckPolicy, Objective, resolve_rule

__all__ = [
    "ATLAS_DELTAS",
    "HEURISTICS",
    "LUCK",
    "MAX_STAT",
    "MAX_TAU",
    "NO_LUCK",
    "PAIRS",
    "RULES",
    "STRATEGY_CODES",
    "TOLERANCE",
    "Atlas",
    "BestHeuristic",
    "Decision",
    "Fight",
    "FightArrays",
    "FightGrid",
    "FightModel",
    "FightOutcomes",
    "FightPolicySolution",
    "FightReport",
    "FightSimulation",
    "FightSolution",
    "Fold",
    "GridRecord",
    "LuckPolicy",
    "Objective",
    "RoundOdds",
    "Rule",
    "Threshold",
    "atlas",
    "atlas_bytes",
    "atlas_csv_bytes",
    "atlas_figure_jobs",
    "atlas_states",
    "best_heuristics",
    "constant_luck_win",
    "decisive",
    "engine_policy",
    "fight_outcomes",
    "fight_report",
    "fight_solution",
    "fold_increases",
    "heuristic",
    "hits_to_kill",
    "luck_probability",
    "no_luck_value",
    "no_luck_win",
    "outcomes_of",
    "resolve_rule",
    "rolls",
    "round_counts",
    "round_odds",
    "round_start",
    "sextinomial_row",
    "simulate_fight",
    "solve_grid",
    "thresholds",
]
