"""The level sweep (``ep.solve`` of a ``LevelModel``): random layered games solved level by
level equal the same games solved as plain models by the generic engine; certified
enclosures hold the exact values; bad models are refused with one clear message."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from gmpy2 import mpq
from hypothesis import given
from hypothesis import strategies as st

import exactprob as ep
from exactprob.errors import ModelError, StateLimitError, UsageError

U = 2.0**-53


class Layered(ep.LevelModel):
    """A random layered game: on level k, state (k, i) picks an action a, earns
    ``reward[k][a][i]`` and moves to (k + 1, j) with chance ``chance[k][a][i][j]``."""

    def __init__(self, widths, chances, rewards, final):
        self.widths, self.chances, self.rewards, self.final_values = widths, chances, rewards, final
        self.levels, self.initial = len(widths) - 1, (0, 0)
        self.sizes = (len(widths), max(widths))

    def states(self, level):
        return np.array([(level, i) for i in range(self.widths[level])])

    def final(self, states):
        return np.array([self.final_values[i] for i in states[:, 1]], dtype=object)

    def step(self, level, states, values, exact):
        after = values(self.states(level + 1))
        number = mpq if exact else float
        best = None
        for chance, reward in zip(self.chances[level], self.rewards[level], strict=True):
            matrix = np.array(
                [[number(p) for p in row] for row in chance], dtype=object if exact else float
            )
            here = states[:, 1]
            worth = matrix[here] @ after + np.array([number(reward[i]) for i in here])
            best = worth if best is None else np.maximum(best, worth)
        return best

    def rounding_error(self, level, magnitude):
        n = self.widths[level + 1] + 2  # the sum, the rounded chances, the reward
        reward = max(abs(float(r)) for action in self.rewards[level] for r in action)
        return 2 * n * U / (1 - n * U) * (magnitude + reward)


class Plain:
    """The same game as a plain model: states (level, i)."""

    def __init__(self, game: Layered):
        self.game, self.initial = game, (0, 0)

    def outcome(self, state):
        level, i = state
        return self.game.final_values[i] if level == self.game.levels else None

    def actions(self, state):
        return list(range(len(self.game.chances[state[0]])))

    def transition(self, state, action):
        level, i = state
        row = self.game.chances[level][action][i]
        return ep.Dist({(level + 1, j): p for j, p in enumerate(row) if p})

    def reward(self, state, action):
        level, i = state
        return self.game.rewards[level][action][i]


@st.composite
def layered_games(draw):
    widths = draw(st.lists(st.integers(1, 4), min_size=2, max_size=5))
    widths[0] = 1
    chances, rewards = [], []
    for k in range(len(widths) - 1):
        actions = draw(st.integers(1, 3))
        level_chances, level_rewards = [], []
        for _ in range(actions):
            rows = []
            for _ in range(widths[k]):
                weights = draw(
                    st.lists(st.integers(0, 5), min_size=widths[k + 1], max_size=widths[k + 1])
                )
                if not any(weights):
                    weights[0] = 1
                rows.append([Fraction(w, sum(weights)) for w in weights])
            level_chances.append(rows)
            level_rewards.append(
                [
                    Fraction(draw(st.integers(-9, 9)), draw(st.integers(1, 4)))
                    for _ in range(widths[k])
                ]
            )
        chances.append(level_chances)
        rewards.append(level_rewards)
    final = [Fraction(draw(st.integers(-20, 20)), 3) for _ in range(widths[-1])]
    return Layered(widths, chances, rewards, final)


@given(layered_games())
def test_a_layered_game_solves_as_its_plain_model_does(game):
    exact = ep.solve(game)
    plain = ep.solve(
        Plain(game),
        starts=[tuple(s) for level in range(game.levels + 1) for s in game.states(level).tolist()],
    )
    certified = ep.solve(game, method="certified")
    for state in exact.states:
        assert exact.value(state) == plain.value(tuple(state))
        assert certified.value(state).contains(plain.value(tuple(state)))


def test_values_of_every_level_and_the_states_it_knows():
    game = Layered(
        [1, 2],
        [[[[Fraction(1, 3), Fraction(2, 3)]]]],
        [[[Fraction(0)]]],
        [Fraction(3), Fraction(6)],
    )
    solved = ep.solve(game)
    assert solved.value() == 5 and solved.value((1, 1)) == 6  # (1, 1) lies on the end level
    assert list(solved.states) == [(0, 0), (1, 0), (1, 1)] and solved.states[-1] == (1, 1)
    assert (1, 1) in solved.states and (0, 1) not in solved.states and "x" not in solved.states
    assert isinstance(solved, ep.Solved) and not isinstance(solved, ep.SolvedPlay)
    with pytest.warns(ep.ExactProbDeprecationWarning, match="LevelSolution.values"):
        assert solved.policy() is None and solved.ties() == ()
    assert solved.to_json()["value"] == "5" and "policy" not in solved.to_json()
    assert (solved.method, solved.solver) == ("exact", "level sweep")
    assert "level by level" in solved._repr_html_()
    with pytest.raises(ModelError, match="not a state"):
        solved.value("x")


def _keep(**overrides):
    """The die game of the LevelModel docstring, with some members replaced."""

    class Keep(ep.LevelModel):
        levels, sizes, initial = 3, (4,), (0,)

        def states(self, level):
            return np.array([[level]])

        def final(self, states):
            return np.zeros(len(states), dtype=np.int64)

        def step(self, level, states, values, exact):
            stop = values(states + 1)
            faces = [mpq(f) if exact else float(f) for f in range(1, 7)]
            return sum(np.maximum(f, stop) for f in faces) / 6

        def rounding_error(self, level, magnitude):
            return 8 * U * (magnitude + 6)

    for name, member in overrides.items():
        setattr(Keep, name, member)
    return Keep()


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"levels": 0}, "levels must be a whole number >= 1"),
        ({"states": lambda self, level: np.array([[level], [level]])}, "listed twice"),
        ({"states": lambda self, level: np.zeros((1, 1), dtype=np.int64)}, "listed twice"),
        ({"states": lambda self, level: np.array([[0.5]])}, "whole numbers in rows of 1"),
        ({"states": lambda self, level: np.array([[4]])}, "outside 0 .. sizes - 1"),
        ({"step": lambda self, level, states, values, exact: values(states)}, "not on level"),
        ({"step": lambda self, level, states, values, exact: np.zeros(2)}, "gave (2,) values"),
        ({"rounding_error": lambda self, level, magnitude: float("nan")}, "finite number >= 0"),
        ({"final": lambda self, states: np.array([0.1])}, "exact numbers"),
        (
            {"step": lambda self, level, states, values, exact: values(states + 1) * np.nan},
            "not finite",
        ),
    ],
)
def test_a_bad_level_model_is_refused_with_one_clear_message(overrides, message):
    with pytest.raises(ModelError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ep.solve(_keep(**overrides), method="certified")


def test_a_float_from_an_exact_step_is_refused():
    floats = {"step": lambda self, level, states, values, exact: np.array([0.1])}
    with pytest.raises(ModelError, match="inexact value"):
        ep.solve(_keep(**floats))


def test_methods_and_limits():
    assert ep.solve(_keep()).value() == Fraction(14, 3)
    with pytest.raises(UsageError, match="method 'exact' or 'certified'"):
        ep.solve(_keep(), method="depth-first")
    with pytest.raises(StateLimitError, match="4 states"):
        ep.solve(_keep(), max_states=3)
    assert ep.solve(_keep(), starts=[(1,)]).value() == Fraction(17, 4)
    with pytest.raises(ModelError, match="not a state"):
        ep.solve(_keep(), starts=[(5,)])
