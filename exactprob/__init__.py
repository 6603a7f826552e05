"""exactprob: exact probabilities for games of chance.

>>> import exactprob as ep
>>> (ep.die(6) + ep.die(6))[7]
Fraction(1, 6)
"""

from __future__ import annotations

from .array_model import ArrayModel, per_state
from .depth_first import DepthFirstSolution
from .dist import Dist, bernoulli, binomial, dice, die, draw, hypergeometric, uniform
from .enclose import CertifiedSolution, enclose_graph
from .enclosure import Enclosure
from .errors import (
    DistributionError,
    ExactProbError,
    InexactError,
    ModelError,
    NonTerminationError,
    ResourceError,
    StateLimitError,
    UsageError,
)
from .graph import explore
from .methods import METHODS, solve
from .model import Model
from .results import Solved, SolvedLaws
from .simulate import agrees_with, simulate
from .solve import Solution, evaluate, solve_graph

__version__ = "0.1.0"

__all__ = [
    "METHODS",
    "ArrayModel",
    "CertifiedSolution",
    "DepthFirstSolution",
    "Dist",
    "DistributionError",
    "Enclosure",
    "ExactProbError",
    "InexactError",
    "Model",
    "ModelError",
    "NonTerminationError",
    "ResourceError",
    "Solution",
    "Solved",
    "SolvedLaws",
    "StateLimitError",
    "UsageError",
    "__version__",
    "agrees_with",
    "bernoulli",
    "binomial",
    "dice",
    "die",
    "draw",
    "enclose_graph",
    "evaluate",
    "explore",
    "hypergeometric",
    "per_state",
    "simulate",
    "solve",
    "solve_graph",
    "uniform",
]
