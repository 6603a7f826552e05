"""Subcommands of the ``exactprob`` console script.

Each module has ``register(subparsers)``, which adds its parser and sets ``run`` (a
function of the parsed arguments) as the parser's default. A game adds its module here.
"""

from . import (
    battle,
    cartwheel,
    dice,
    ff,
    gamebook,
    hp,
    jeopardy,
    prd,
    redesign,
    risk,
    rogue_rng,
    rubber_band,
    softlock,
    tour,
    waffles,
)

COMMANDS = (
    tour,
    dice,
    battle,
    risk,
    ff,
    rogue_rng,
    hp,
    rubber_band,
    waffles,
    prd,
    softlock,
    gamebook,
    cartwheel,
    jeopardy,
    redesign,
)
