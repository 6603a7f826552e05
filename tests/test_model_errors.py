"""A mistake in a model gets the project's own one-line error, naming what was wrong and
the fix, never Python's own error from deep inside the engine."""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import pytest
from typed_usage import Ruin

import exactprob as ep


class ListState(Ruin):
    def transition(self, s: int, a: str) -> Any:
        return ep.die(2).map(lambda x: [s + x] if s == 3 else s + 2 * x - 3)


class ShortSum(Ruin):
    def transition(self, s: int, a: str) -> ep.Dist[int]:
        return ep.Dist({s + 1: "2/5", s - 1: "2/5"})


class TwoArgumentOutcome(Ruin):
    def outcome(self, s: int, extra: int) -> None:  # type: ignore[override]
        return None


class OneArgumentTransition(Ruin):
    def transition(self, s: int) -> ep.Dist[int]:  # type: ignore[override]
        return ep.Dist({s + 1: 1})


class StateReward(Ruin):
    def reward(self, s: int) -> int:
        return 1


class NoLosingEnd(Ruin):
    def outcome(self, s: int) -> int | None:
        return 1 if s == 5 else None


class Round:
    """Three states in a ring for ever: a chain that never ends."""

    initial = 0

    def outcome(self, s: int) -> None:
        return None

    def actions(self, s: int) -> tuple[str, ...]:
        return ("go",)

    def transition(self, s: int, a: str) -> ep.Dist[int]:
        return ep.Dist({(s + 1) % 3: 1})


class PaidRound(Round):
    def reward(self, s: int, a: str) -> int:
        return 1


@pytest.mark.parametrize(
    ("model", "says"),
    [
        (Ruin, r"got the class Ruin, not a model; did you mean Ruin\(\)\?"),
        (
            TwoArgumentOutcome(),
            r"outcome takes \(s, extra\), but the engine calls it as outcome\(state\)",
        ),
        (OneArgumentTransition(), r"transition takes \(s\), .* transition\(state, action\)"),
        (StateReward(), r"reward takes \(s\), .* reward\(state, action\)"),
        (ListState(), r"transition\(3, 'bet'\): the outcome \[4\] is not hashable .* tuple"),
        (ShortSum(), r"transition\(2, 'bet'\): probabilities sum to 4/5, not 1"),
        (NoLosingEnd(), r"last states found were -\d+, -\d+, -\d+: .* missing one"),
        (Round(), r"terminal state.* ep\.stationary\(model\)"),
        (PaidRound(), r"earns 1 on a cycle .* ep\.stationary\(model\)"),
    ],
)
@pytest.mark.parametrize("method", ep.METHODS)
def test_a_model_mistake_is_one_line_naming_the_fix(model: Any, says: str, method: str) -> None:
    with pytest.raises(ep.ExactProbError, match=says) as caught:
        ep.solve(model, method, max_states=500)
    assert "\n" not in str(caught.value)


def test_a_counter_of_the_wrong_arity_is_one_line() -> None:
    solved = ep.solve(Ruin())
    with pytest.raises(
        ep.ModelError, match=r"counter takes \(s\), .* counter\(state, action, after\)"
    ):
        solved.counter_distribution(lambda s: 1)


def _passing_action(method: Any) -> Any:
    """A decorator that adds the action argument the engine passes (functools.wraps
    makes the signature read as the wrapped one's)."""

    @functools.wraps(method)
    def wrapper(self: Any, state: Any, action: Any) -> Any:
        return method(self, state)

    return wrapper


class Decorated(Ruin):
    @functools.singledispatchmethod
    def outcome(self, s: Any) -> Any:
        return 1 if s == 5 else 0 if s == 0 else None

    @_passing_action
    def transition(self, s: int) -> ep.Dist[int]:  # type: ignore[override]
        return ep.Dist({s + 1: "2/5", s - 1: "3/5"})


class Static:
    """A model of static methods: the class itself is a model."""

    initial = 2

    @staticmethod
    def outcome(s: int) -> int | None:
        return 1 if s == 5 else 0 if s == 0 else None

    @staticmethod
    def actions(s: int) -> tuple[str, ...]:
        return ("bet",)

    @staticmethod
    def transition(s: int, a: str) -> ep.Dist[int]:
        return ep.Dist({s + 1: "2/5", s - 1: "3/5"})


@pytest.mark.parametrize("model", [Decorated(), Static], ids=["decorated", "static"])
def test_valid_signatures_are_taken(model: Any) -> None:
    # the ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    assert ep.solve(model).value() == Fraction(40, 211)


class LeaveOrWalk:
    """A cycle play can leave (A may stop), earning on B's one action: a choice's
    problem, not a chain's."""

    initial = "A"

    def outcome(self, s: str) -> int | None:
        return 0 if s == "end" else None

    def actions(self, s: str) -> tuple[str, ...]:
        return ("again", "stop") if s == "A" else ("walk",)

    def transition(self, s: str, a: str) -> ep.Dist[str]:
        return ep.Dist({"B" if a == "again" else "end" if a == "stop" else "A": 1})

    def reward(self, s: str, a: str) -> int:
        return 1 if s == "B" else 0


def test_a_paying_cycle_with_a_way_out_names_the_player_not_the_long_run() -> None:
    with pytest.raises(ep.ModelError, match="where player 0 moves") as caught:
        ep.solve(LeaveOrWalk())
    assert "stationary" not in str(caught.value)
