from .solution import SeatSolution
from .solving import TIE_RULES, TieRule, check_tie_rule, solve_seats

__all__ = ["TIE_RULES", "SeatSolution", "TieRule", "check_tie_rule", "solve_seats"]
