from .depth_first import DepthFirstSolution, solve_depth_first
from .derivation import (
    Derivation,
    Equation,
    ExactSolution,
    Pieces,
    derivation_of,
    derive,
    derive_piecewise,
)
from .policies import Policy, evaluate, fixed_policy
from .solution import Solution
from .solving import solve_graph, solve_model

__all__ = [
    "DepthFirstSolution",
    "Derivation",
    "Equation",
    "ExactSolution",
    "Pieces",
    "Policy",
    "Solution",
    "derivation_of",
    "derive",
    "derive_piecewise",
    "evaluate",
    "fixed_policy",
    "solve_depth_first",
    "solve_graph",
    "solve_model",
]
