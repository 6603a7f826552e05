from .array_model import ArrayModel, Branch, per_state
from .certified import CertifiedLaw, CertifiedSolution, enclose_graph
from .choice_tree import (
    BookModel,
    Leaf,
    SolutionNode,
    Tree,
    reachable_nodes,
    situations,
    solve_choices,
    walkthrough,
)
from .dist import Dist, bernoulli, binomial, dice, die, draw, hypergeometric, uniform
from .enclosure import Enclosure
from .exact import DepthFirstSolution, Solution, derivation_of, fixed_policy, solve_graph
from .fast_path import ExactFastPath, FastPathResult
from .graph import StateGraph, explore, paused_garbage_collection
from .levels import (
    LevelModel,
    LevelMoves,
    LevelSolution,
    NextLevel,
    NextValues,
    cluster_client,
    summed_by,
)
from .long_run import LongRun, stationary
from .methods import METHODS, Method, evaluate, register, register_evaluator, solve
from .model import Model
from .results import Solved, SolvedLaws, SolvedPlay, value_fields
from .seats import TIE_RULES, SeatSolution
from .simulation import NumpyRandom, RandomSource, Runs, agrees_with, simulate
from .symbolic import FormulaCheck, PiecewiseSolution, check_formula

__all__ = [
    "METHODS",
    "TIE_RULES",
    "ArrayModel",
    "BookModel",
    "Branch",
    "CertifiedLaw",
    "CertifiedSolution",
    "DepthFirstSolution",
    "Dist",
    "Enclosure",
    "ExactFastPath",
    "FastPathResult",
    "FormulaCheck",
    "Leaf",
    "LevelModel",
    "LevelMoves",
    "LevelSolution",
    "LongRun",
    "Method",
    "Model",
    "NextLevel",
    "NextValues",
    "NumpyRandom",
    "PiecewiseSolution",
    "RandomSource",
    "Runs",
    "SeatSolution",
    "Solution",
    "SolutionNode",
    "Solved",
    "SolvedLaws",
    "SolvedPlay",
    "StateGraph",
    "Tree",
    "agrees_with",
    "bernoulli",
    "binomial",
    "check_formula",
    "cluster_client",
    "derivation_of",
    "dice",
    "die",
    "draw",
    "enclose_graph",
    "evaluate",
    "explore",
    "fixed_policy",
    "hypergeometric",
    "paused_garbage_collection",
    "per_state",
    "reachable_nodes",
    "register",
    "register_evaluator",
    "simulate",
    "situations",
    "solve",
    "solve_choices",
    "solve_graph",
    "stationary",
    "summed_by",
    "uniform",
    "value_fields",
    "walkthrough",
]
