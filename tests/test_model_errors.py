"""A mistake in a model gets the project's own one-line error, naming what was wrong and
the fix, never Python's own error from deep inside the engine."""

from __future__ import annotations

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
