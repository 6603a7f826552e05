"""exactprob: exact probabilities for games of chance.

>>> import exactprob as ep
>>> (ep.die(6) + ep.die(6))[7]
Fraction(1, 6)
"""

from __future__ import annotations

from typing import Any

from .engine import (
    METHODS,
    TIE_RULES,
    ArrayModel,
    CertifiedSolution,
    DepthFirstSolution,
    Dist,
    Enclosure,
    FormulaCheck,
    LevelModel,
    LevelSolution,
    LongRun,
    Model,
    PiecewiseSolution,
    SeatSolution,
    Solution,
    Solved,
    SolvedLaws,
    SolvedPlay,
    agrees_with,
    bernoulli,
    binomial,
    check_formula,
    dice,
    die,
    draw,
    enclose_graph,
    evaluate,
    explore,
    hypergeometric,
    per_state,
    simulate,
    solve,
    solve_graph,
    stationary,
    uniform,
)
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

__version__ = "0.3.0.dev0"

__all__ = [
    "METHODS",
    "TIE_RULES",
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
    "SeatSolution",
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
