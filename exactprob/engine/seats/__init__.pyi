from .coalition import against_the_rest, coalition_graph
from .solution import SeatSolution
from .solving import TIE_RULES, TieRule, check_tie_rule, solve_seats

__all__ = [
    "TIE_RULES",
    "SeatSolution",
    "TieRule",
    "against_the_rest",
    "check_tie_rule",
    "coalition_graph",
    "solve_seats",
]
