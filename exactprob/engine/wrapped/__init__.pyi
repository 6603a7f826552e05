from .horizon import WithinHorizon, check_horizon, within_horizon
from .payoffs import Paid, PaidArrays, check_payoffs, paid

__all__ = [
    "Paid",
    "PaidArrays",
    "WithinHorizon",
    "check_horizon",
    "check_payoffs",
    "paid",
    "within_horizon",
]
