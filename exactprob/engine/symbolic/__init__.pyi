from .formulas import FormulaCheck, check_formula
from .generating import coefficients, dist_from_pgf, pgf
from .piecewise import Piece, PieceTable, PiecewiseSolution, Range, solve_exact, solve_piecewise

__all__ = [
    "FormulaCheck",
    "Piece",
    "PieceTable",
    "PiecewiseSolution",
    "Range",
    "check_formula",
    "coefficients",
    "dist_from_pgf",
    "pgf",
    "solve_exact",
    "solve_piecewise",
]
