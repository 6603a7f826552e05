"""Pig, Fowl Play and Red Light: exact optimal play, komi, redesign and approximate players.

The package is in layers, each importing only those below it:

* the games and what every layer shares: :mod:`.rules` (:class:`Pig`, :class:`FowlPlay`,
  Red Light, and their engine model), :mod:`.fowl_arrays` (the same in bulk), komi and
  fairness (:mod:`.fairness`; a komi, the second player's head start, is part of the
  question, ``first_player_win(komi)``, not of the game), fixed players as policy tables
  (:mod:`.policies`), an independent simulator from the rules (:mod:`.simulator`), and
  the policy maps (:mod:`.figures`, matplotlib);
* :mod:`.solving`: the game's own exact solver (one turn-start cycle at a time) and
  certified enclosures, both at every komi, registered as :func:`exactprob.solve`'s
  methods for the race's models;
* :mod:`.players` (two players valued against each other, best responses, learned
  players, round robins) and :mod:`.redesign` (the search for the fairest decks, Dask);
* :mod:`.report`: a race answered in full in one call (what the commands print),
  :mod:`.seat_report`, the same among three to six seats (:mod:`.solving.seats`), and
  :mod:`.solitaire`, the game played alone for the fewest expected turns, and
  :mod:`.solitaire_turns`, alone for the best chance within N turns.

Pig to 2 points: any roll but a 1 wins at once, so :math:`P = 5/6 + (1/6)^2 P = 6/7`.

>>> import exactprob as ep
>>> ep.solve(JeopardyModel(Pig(goal=2))).first_player_win()
Fraction(6, 7)
"""

from .fairness import Win, fairest_komi, komi_wins
from .fowl_arrays import FowlPlayArrays
from .players import NAMES, Matchup, Player, best_response, check_player_name, play_off, round_robin
from .policies import PolicyTable, hold_at, keep_pace, optimal_policy_table, policy_table
from .redesign import RedesignReport, redesign_report
from .report import EXACT_LIMIT, MAX_EXACT_STATES, RaceReport, race_report
from .rules import (
    FOWL_PLAY,
    MAX_CARDS,
    MAX_GOAL,
    MAX_SIDES,
    RED_LIGHT,
    RED_LIGHT_KOMI,
    FowlPlay,
    JeopardyModel,
    Pig,
)
from .seat_report import MAX_SEAT_STATES, SeatRaceReport, seat_race_report
from .simulator import SimulatedRaces, simulate_race, simulate_seat_race
from .solitaire import SolitaireModel, SolitaireReport, solitaire_report
from .solitaire_turns import MAX_TURNS, ReachAlone, SolitaireTurnsReport, solitaire_turns_report
from .solving import (
    MAX_CERTIFIED_STATES,
    MAX_SEATS,
    CertifiedRaceSolution,
    JeopardySolution,
    RaceSolution,
    SeatRace,
    enclose_matchup,
    solve_seat_race,
    solved_race,
)

__all__ = [
    "EXACT_LIMIT",
    "FOWL_PLAY",
    "MAX_CARDS",
    "MAX_CERTIFIED_STATES",
    "MAX_EXACT_STATES",
    "MAX_GOAL",
    "MAX_SEATS",
    "MAX_SEAT_STATES",
    "MAX_SIDES",
    "MAX_TURNS",
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
    "ReachAlone",
    "RedesignReport",
    "SeatRace",
    "SeatRaceReport",
    "SimulatedRaces",
    "SolitaireModel",
    "SolitaireReport",
    "SolitaireTurnsReport",
    "Win",
    "best_response",
    "check_player_name",
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
    "seat_race_report",
    "simulate_race",
    "simulate_seat_race",
    "solitaire_report",
    "solitaire_turns_report",
    "solve_seat_race",
    "solved_race",
]
