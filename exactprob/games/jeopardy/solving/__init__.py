"""Solving a race: the exact component solver, the certified interval sweep, and both as
:func:`exactprob.solve`'s methods for the race's models.

* :mod:`.components`: one score component as affine forms in its unknowns;
* :mod:`.iteration`: exact policy iteration on one cycle of turn starts;
* :mod:`.solver`: exact optimal play, one turn-start cycle at a time, at every komi;
* :mod:`.response`: the exact best response to a fixed player, the same way;
* :mod:`.seats`: the same among three to six seats, each playing for itself;
* :mod:`.certified`: certified enclosures by interval value iteration (Fowl Play);
* :mod:`.fast_paths`: the two registered as the engine's methods.
"""

from .certified import (
    MAX_CERTIFIED_STATES,
    CertifiedMatchup,
    CertifiedRace,
    enclose_best_response,
    enclose_matchup,
    enclose_race,
    working_bytes,
)
from .fast_paths import CertifiedRaceSolution, RaceSolution, solved_race
from .seats import MAX_SEATS, SeatRace, solve_seat_race
from .solver import Component, JeopardySolution, solve_race

__all__ = [
    "MAX_CERTIFIED_STATES",
    "MAX_SEATS",
    "CertifiedMatchup",
    "CertifiedRace",
    "CertifiedRaceSolution",
    "Component",
    "JeopardySolution",
    "RaceSolution",
    "SeatRace",
    "enclose_best_response",
    "enclose_matchup",
    "enclose_race",
    "solve_race",
    "solve_seat_race",
    "solved_race",
    "working_bytes",
]
