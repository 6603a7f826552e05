"""Subcommands of the ``exactprob`` console script.

Each module has ``register(subparsers)``, which adds its parsers and sets ``run`` (a
function of the parsed arguments) as each parser's default. :data:`SUBCOMMANDS` names
every subcommand, the module that registers it and its one-line help, so that the console
script imports only the module of the subcommand it runs (a game's libraries can take a
second to load) and ``--help`` or ``--version`` imports none. A game adds its lines here.

>>> module_of("dice").__name__, help_of("pig")
('exactprob.commands.dice', 'Pig: exact optimal win chance, fairest komi')
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__all__ = ["SUBCOMMANDS", "help_of", "module_of"]

#: ``name: (module, one-line help)`` in the order ``exactprob --help`` lists them.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "tour": ("tour", "print the headline exact results of every game available"),
    "dice": (
        "dice",
        "exact distribution of a dice expression (2d6-2d6, d20), or of a comparison (3d6>d20)",
    ),
    "battle": ("battle", "exact outcome of a fleet battle (Twilight Imperium style)"),
    "risk": (
        "risk",
        "exact outcome of a Risk dice battle (attacker up to 3 dice, defender up to 2)",
    ),
    "ff": (
        "ff",
        "Fighting Fantasy combat: exact chance of victory with optimal luck; the atlas",
    ),
    "rogue-rng": (
        "rogue_rng",
        "Rogue 3.6.3's random number generator analysed exactly over its whole cycle",
    ),
    "hp": ("hp", "hit points from dice per level (Rogue: 12 + 8d10), exact, with a comparison"),
    "rubber-band": (
        "rubber_band",
        "rubber-band odds: exact count of resources and longest dry run over the levels",
    ),
    "staircakes": (
        "rubber_band",
        "rare rubber-band items: expected staircakes per game and the chance of none",
    ),
    "waffles": ("waffles", "exact chance that a hero fed by rubber-band waffles starves"),
    "prd": ("prd", "pseudo-random distribution tables: exact rate, hits in N trials, inverse"),
    "softlock": (
        "softlock",
        "chance that floating eyes keep the hero paralysed (exact, or as turns -> oo)",
    ),
    "gamebook": ("gamebook", "solve a gamebook file exactly: win probability, report, walkthrough"),
    "cartwheel": (
        "cartwheel",
        "a tavern wheel: best chance to gamble gold up to a target, optimal stakes, ties",
    ),
    "pig": ("jeopardy", "Pig: exact optimal win chance, fairest komi"),
    "fowl-play": ("jeopardy", "Fowl Play: optimal win chance, fairest komi"),
    "red-light": ("jeopardy", "Red Light: optimal win chance, fairest komi"),
    "fowl-redesign": ("redesign", "Fowl Play redesign: the fairest decks and komi (Dask, cached)"),
    "prism": ("prism", "a PRISM model (dtmc, mdp): its properties answered exactly"),
    "yahtzee": (
        "yahtzee",
        "solitaire Yahtzee: certified optimal score, best keep, law of the score, strategies",
    ),
}


def help_of(name: str) -> str:
    """The one-line help of subcommand ``name``."""
    return SUBCOMMANDS[name][1]


def module_of(name: str) -> ModuleType:
    """The module that registers subcommand ``name``, imported now."""
    return import_module(f"{__name__}.{SUBCOMMANDS[name][0]}")
