"""Gamebooks: the generic choices-and-chance solver of the "solving a gamebook" series.

>>> from exactprob.gamebook import solve
>>> solve(lambda s: [("open the door", [("win", "1/3"), ("lose", "2/3")])],
...       lambda s: {"win": 1, "lose": 0}.get(s), "hall").score
Fraction(1, 3)
"""

from __future__ import annotations

from .solver import Leaf, SolutionNode, situations, solve, walkthrough

__all__ = ["Leaf", "SolutionNode", "situations", "solve", "walkthrough"]
