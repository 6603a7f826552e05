"""exactprob: exact probabilities for games of chance.

>>> import exactprob as ep
>>> (ep.die(6) + ep.die(6))[7]
Fraction(1, 6)
"""

from __future__ import annotations

from typing import Any

from .engine.array_model import ArrayModel, per_state
from .engine.depth_first import DepthFirstSolution
from .engine.dist import Dist, bernoulli, binomial, dice, die, draw, hypergeometric, uniform
from .engine.enclose import CertifiedSolution, enclose_graph
from .engine.enclosure import Enclosure
from .engine.formulas import FormulaCheck, check_formula
from .engine.graph import explore
from .engine.level_model import LevelModel
from .engine.level_sweep import LevelSolution
from .engine.long_run import LongRun, stationary
from .engine.methods import METHODS, solve
from .engine.model import Model
from .engine.parametric import PiecewiseSolution
from .engine.results import Solved, SolvedLaws, SolvedPlay
from .engine.simulate import agrees_with, simulate
from .engine.solve import Solution, evaluate, solve_graph
from .errors import (
    DistributionError,
    ExactProbDeprecationWarning,
    ExactProbError,
    InexactError,
    ModelError,
    NonTerminationError,
    NumberTooLongError,
    ResourceError,
    StateLimitError,
    UsageError,
)

__version__ = "0.2.0"

__all__ = [
    "METHODS",
    "ArrayModel",
    "CertifiedSolution",
    "DepthFirstSolution",
    "Dist",
    "DistributionError",
    "Enclosure",
    "ExactProbDeprecationWarning",
    "ExactProbError",
    "FormulaCheck",
    "InexactError",
    "LevelModel",
    "LevelSolution",
    "LongRun",
    "Model",
    "ModelError",
    "NonTerminationError",
    "NumberTooLongError",
    "PiecewiseSolution",
    "ResourceError",
    "Solution",
    "Solved",
    "SolvedLaws",
    "SolvedPlay",
    "StateLimitError",
    "UsageError",
    "__version__",
    "agrees_with",
    "bernoulli",
    "binomial",
    "check_formula",
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
    "stationary",
    "uniform",
]


def __getattr__(name: str) -> Any:
    """The names that left the face in 0.2.0, which warn when called
    (:mod:`exactprob.engine.deprecated`)."""
    from .engine import deprecated

    if name in deprecated.FACE_NAMES:
        return deprecated.face_name(name)
    raise AttributeError(f"module 'exactprob' has no attribute {name!r}")
