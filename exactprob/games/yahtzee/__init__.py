r"""Solitaire Yahtzee, solved through the engine a level at a time.

One player, 13 turns, each of up to three rolls of five dice and one category filled
(:mod:`~exactprob.games.yahtzee.rules`). The optimal player maximises the expected final score; the engine solves
the game's 536,448 turn-start states (:mod:`~exactprob.games.yahtzee.model`, a
:class:`~exactprob.engine.levels.model.LevelModel`) from the last turn to the first, each
turn's rolls and keeps vectorised over batches of states.

* :mod:`~exactprob.games.yahtzee.rules`: the rules as one value (:class:`~exactprob.games.yahtzee.rules.YahtzeeRules`; variants play some
  categories, with or without the bonuses) and the score of a roll;
* :mod:`~exactprob.games.yahtzee.dice`: the 252 rolls, 462 keeps and the chances between them;
* :mod:`~exactprob.games.yahtzee.model`: the level model (:class:`~exactprob.games.yahtzee.model.YahtzeeLevels`) and its rounding bound;
* :mod:`~exactprob.games.yahtzee.advice`: the best keep or category in a situation, from a solved game;
* :mod:`~exactprob.games.yahtzee.strategies`: the value of simple strategies (greedy
  keeps, greedy categories, or both), through the engine;
* :mod:`~exactprob.games.yahtzee.simulator`: games played from the rules by the optimal or a greedy player;
* :mod:`~exactprob.games.yahtzee.report`: what ``exactprob yahtzee`` prints (:func:`~exactprob.games.yahtzee.report.yahtzee_report`).

>>> import exactprob as ep
>>> rules = YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False)
>>> ep.solve(YahtzeeLevels(rules)).value() / 50  # the chance of a Yahtzee in one turn
Fraction(347897, 7558272)
"""

from __future__ import annotations

from .advice import Advice, Situation, advise
from .figures import score_law_figure
from .model import YahtzeeLevels
from .report import EXACT_STATES, YahtzeeReport, yahtzee_report
from .rules import CATEGORIES, JOKERS, YahtzeeRules, parse_categories, score
from .simulator import GreedyPlayer, ModelPlayer, OptimalPlayer, YahtzeeRuns, simulate_games
from .strategies import STRATEGIES, GreedyFills, GreedyKeeps, GreedyLevels

__all__ = [
    "CATEGORIES",
    "EXACT_STATES",
    "JOKERS",
    "STRATEGIES",
    "Advice",
    "GreedyFills",
    "GreedyKeeps",
    "GreedyLevels",
    "GreedyPlayer",
    "ModelPlayer",
    "OptimalPlayer",
    "Situation",
    "YahtzeeLevels",
    "YahtzeeReport",
    "YahtzeeRules",
    "YahtzeeRuns",
    "advise",
    "parse_categories",
    "score",
    "score_law_figure",
    "simulate_games",
    "yahtzee_report",
]
