"""A fuzz of the Python API with broken models: every solver either solves a random model
or raises an ExactProbError subclass, never a RecursionError, KeyError, TypeError or a
hang.

A random model is a small table of states, each with some actions and moves; one fault
from :data:`FAULTS` is planted in one state (or none). The solvers are run with a small
state limit, so a model that grows without end is stopped by it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactprob as ep
from exactprob.errors import ExactProbError

#: What a faulty state does instead of answering properly.
FAULTS = [
    "none",
    "probabilities not summing to one",
    "a float probability",
    "an unhashable successor",
    "no actions",
    "actions is None",
    "actions is a string",
    "a repeated action",
    "an unhashable action",
    "a dict, not a Dist",
    "a float outcome",
    "player 2",
    "an endless counter",
    "a state that differs from itself",
    "a negative probability",
]


class _NotItself:
    """A state that is not equal to itself (like a NaN)."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 7


class RandomModel:
    """States ``0 .. n-1`` (the last terminal); ``moves[s]`` lists, per action, the
    successors with integer weights. ``fault`` happens in state ``where``."""

    def __init__(self, moves: list[list[list[tuple[int, int]]]], fault: str, where: int) -> None:
        self.moves, self.fault, self.where = moves, fault, where
        self.initial: Any = 0

    def _faulty(self, s: Any) -> bool:
        return s == self.where

    def outcome(self, s: Any) -> Any:
        if isinstance(s, tuple | _NotItself):
            return None
        if s == len(self.moves):
            return 0.25 if self.fault == "a float outcome" else 1
        return None

    def player(self, s: Any) -> int:
        return 2 if self.fault == "player 2" and self._faulty(s) else 0

    def actions(self, s: Any) -> Any:
        if isinstance(s, tuple | _NotItself):
            return ("on",)
        if self._faulty(s):
            special = {
                "no actions": (),
                "actions is None": None,
                "actions is a string": "ab",
                "a repeated action": (0, 0),
                "an unhashable action": (0, [1]),
            }
            if self.fault in special:
                return special[self.fault]
        return tuple(range(len(self.moves[s])))

    def transition(self, s: Any, a: Any) -> Any:
        if isinstance(s, tuple):  # the endless counter
            return ep.Dist({(s[0] + 1,): 1})
        if isinstance(s, _NotItself):
            return ep.Dist({_NotItself(): 1})
        weights = dict(self.moves[s][a % len(self.moves[s])])
        total = sum(weights.values())
        dist = {t: Fraction(w, total) for t, w in weights.items()}
        if self._faulty(s):
            fault = self.fault
            if fault == "probabilities not summing to one":
                dist = {t: p / 2 for t, p in dist.items()}
            elif fault == "a float probability":
                dist = {t: float(p) for t, p in dist.items()}
            elif fault == "an unhashable successor":
                return ep.Dist([([s], 1)])
            elif fault == "a dict, not a Dist":
                return dist
            elif fault == "an endless counter":
                return ep.Dist({(0,): 1})
            elif fault == "a state that differs from itself":
                return ep.Dist({_NotItself(): 1})
            elif fault == "a negative probability":
                first = next(iter(dist))
                dist = {first: -1, **{t: p for t, p in dist.items() if t != first}}
        return ep.Dist(dist)


@st.composite
def random_models(draw: st.DrawFn) -> RandomModel:
    n = draw(st.integers(1, 6))  # states 0..n-1, terminal n
    successor = st.tuples(st.integers(0, n), st.integers(1, 3))
    action = st.lists(successor, min_size=1, max_size=3)
    moves = [draw(st.lists(action, min_size=1, max_size=3)) for _ in range(n)]
    return RandomModel(moves, draw(st.sampled_from(FAULTS)), draw(st.integers(0, n - 1)))


SOLVERS = {
    "solve": lambda m: ep.solve(m, max_states=200),
    "solve_depth_first": lambda m: ep.solve(m, method="depth-first", max_states=200),
    "enclose": lambda m: ep.solve(m, method="certified", max_states=200),
}


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(model=random_models())
def test_a_broken_model_raises_an_exactprob_error_or_solves(
    solver: str, model: RandomModel
) -> None:
    try:
        SOLVERS[solver](model)
    except ExactProbError:
        pass
