"""Pig, Fowl Play and Red Light: exact optimal play, komi, redesign and approximate players.

* :mod:`.rules`: the games (:class:`Pig`, :class:`FowlPlay`, Red Light) and their engine
  model; :mod:`.fowl_arrays` the same in bulk. A komi (the second player's head start) is
  part of the question, ``first_player_win(komi)``, not of the game;
* :mod:`.solver`: the game's own exact solver (one turn-start cycle at a time), and
  :mod:`.certified` its certified enclosures, both at every komi (:mod:`.fairness`);
  :mod:`~exactprob.games.jeopardy.fast_paths` makes them :func:`exactprob.solve`'s methods
  for the race's models;
* :mod:`.players`, :mod:`.matchup`, :mod:`.best_response`, :mod:`.roster`: fixed players as
  policy tables, two players valued against each other, best responses, round robins;
  :mod:`.learned` players fitted to the optimal table (scikit-learn);
* :mod:`.simulator`: an independent simulator from the rules; :mod:`.figures` the policy
  maps (matplotlib); :mod:`.redesign` the search for the fairest decks (Dask);
* :mod:`.solitaire`: the game played alone, the fewest expected turns;
* :mod:`.report` and :mod:`.redesign_report`: a race, or a redesign search, answered in
  full in one call (what the commands print).

Pig to 2 points: any roll but a 1 wins at once, so :math:`P = 5/6 + (1/6)^2 P = 6/7`.

>>> import exactprob as ep
>>> ep.solve(JeopardyModel(Pig(goal=2))).first_player_win()
Fraction(6, 7)
"""

from .best_response import best_response
from .certified import enclose_matchup
from .fairness import Win, fairest_komi, komi_wins
from .fast_paths import CertifiedRaceSolution, RaceSolution, solved_race
from .fowl_arrays import FowlPlayArrays
from .matchup import Matchup, play_off
from .players import PolicyTable, hold_at, keep_pace, optimal_policy_table, policy_table
from .redesign_report import RedesignReport, redesign_report
from .report import RaceReport, race_report
from .roster import NAMES, Player, round_robin
from .rules import FOWL_PLAY, RED_LIGHT, RED_LIGHT_KOMI, FowlPlay, JeopardyModel, Pig
from .simulator import SimulatedRaces, simulate_race
from .solitaire import SolitaireModel, SolitaireReport, solitaire_report
from .solver import JeopardySolution

__all__ = [
    "FOWL_PLAY",
    "NAMES",
    "RED_LIGHT",
    "RED_LIGHT_KOMI",
    "CertifiedRaceSolution",
    "FowlPlay",
    "FowlPlayArrays",
    "JeopardyModel",
    "JeopardySolution",
    "Matchup",
    "Pig",
    "Player",
    "PolicyTable",
    "RaceReport",
    "RaceSolution",
    "RedesignReport",
    "SimulatedRaces",
    "SolitaireModel",
    "SolitaireReport",
    "Win",
    "best_response",
    "enclose_matchup",
    "fairest_komi",
    "hold_at",
    "keep_pace",
    "komi_wins",
    "optimal_policy_table",
    "play_off",
    "policy_table",
    "race_report",
    "redesign_report",
    "round_robin",
    "simulate_race",
    "solitaire_report",
    "solved_race",
]
