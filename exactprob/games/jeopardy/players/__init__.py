"""Players other than the optimal one, and how they fare against each other.

* :mod:`.matchup`: two fixed players valued exactly against each other;
* :mod:`.best_response`: the best response to a fixed player;
* :mod:`.learned`: players fitted to the optimal table (scikit-learn);
* :mod:`.roster`: the named players and a round robin between them.
"""

from .best_response import best_response, check_response_size
from .learned import LearnedPlayer, features, fit_network, fit_tree
from .matchup import Matchup, play_off
from .roster import (
    BEST_RESPONSE,
    NAMES,
    NeverEnds,
    Player,
    check_player_name,
    player_named,
    round_robin,
)

__all__ = [
    "BEST_RESPONSE",
    "NAMES",
    "LearnedPlayer",
    "Matchup",
    "NeverEnds",
    "Player",
    "best_response",
    "check_player_name",
    "check_response_size",
    "features",
    "fit_network",
    "fit_tree",
    "play_off",
    "player_named",
    "round_robin",
]
