"""The law of a level model's total reward (``LevelSolution.reward_distribution``) against
a brute-force recursion over random games, certified against exact, and its refusals."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from gmpy2 import mpq
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import exactprob as ep
from exactprob.engine.certified.law import CertifiedLaw
from exactprob.engine.levels.model import LevelModel, LevelMoves
from exactprob.errors import ExactProbError, ModelError, UsageError

# A game: states per level; for each level and state, its actions, each a list of
# (next state, reward, weight); the end level's final values.
Game = tuple[list[int], list[list[list[list[tuple[int, int, int]]]]], list[int]]


@st.composite
def games(draw: st.DrawFn) -> Game:
    widths = draw(st.lists(st.integers(1, 3), min_size=2, max_size=4))
    actions = []
    for level in range(len(widths) - 1):
        move = st.tuples(
            st.integers(0, widths[level + 1] - 1), st.integers(0, 3), st.integers(1, 4)
        )
        action = st.lists(move, min_size=1, max_size=3)
        actions.append(
            [draw(st.lists(action, min_size=1, max_size=2)) for _ in range(widths[level])]
        )
    finals = draw(st.lists(st.integers(0, 2), min_size=widths[-1], max_size=widths[-1]))
    return widths, actions, finals


def chances(action: list[tuple[int, int, int]]) -> list[tuple[int, int, Fraction]]:
    total = sum(weight for _, _, weight in action)
    return [(to, reward, Fraction(weight, total)) for to, reward, weight in action]


class RandomLevels(LevelModel):
    """A random game as a level model: a state is (level, index); the step takes the
    best action, the moves follow the first best."""

    def __init__(self, game: Game) -> None:
        self.widths, self.actions, self.finals = game
        self.levels = len(self.widths) - 1
        self.sizes = (len(self.widths), max(self.widths))
        self.initial = (0, 0)

    def states(self, level: int) -> np.ndarray:
        return np.array([(level, i) for i in range(self.widths[level])])

    def final(self, states: np.ndarray) -> np.ndarray:
        return np.array([self.finals[i] for i in states[:, 1]])

    def _worths(self, level: int, states: np.ndarray, values, exact: bool) -> list[list]:
        below = values(np.array([(level + 1, j) for j in range(self.widths[level + 1])]))
        number = (lambda f: mpq(f.numerator, f.denominator)) if exact else float
        return [
            [
                sum(number(p) * (reward + below[to]) for to, reward, p in chances(action))
                for action in self.actions[level][i]
            ]
            for i in states[:, 1]
        ]

    def step(self, level, states, values, exact):
        return np.array(
            [max(w) for w in self._worths(level, states, values, exact)],
            dtype=object if exact else float,
        )

    def moves(self, level, states, values, exact):
        """The first best action's moves; in floats, the first action within the margin
        of the best (counted as undecided when it is not the only one)."""
        rows, undecided = [], 0
        for row, (i, worth) in enumerate(
            zip(states[:, 1], self._worths(level, states, values, exact), strict=True)
        ):
            cut = max(worth) - values.margin  # an exact 0 when exact: no float meets mpq
            near = [a for a, w in enumerate(worth) if w >= cut]
            undecided += len(near) > 1
            best = self.actions[level][i][near[0]]
            rows += [(row, to, reward, p) for to, reward, p in chances(best)]
        probability = [mpq(p.numerator, p.denominator) if exact else float(p) for *_, p in rows]
        return LevelMoves(
            np.array([r[0] for r in rows]),
            np.array([(level + 1, r[1]) for r in rows]),
            np.array([r[2] for r in rows]),
            np.array(probability, dtype=object if exact else float),
            0 if exact else undecided,
        )

    def rounding_error(self, level: int, magnitude: float) -> float:
        return 40 * 2.0**-52 * (magnitude + 3)

    def move_rounding(self, level: int) -> float:
        return 2.0**-52  # float(Fraction) is correctly rounded


def brute_force(game: Game, level: int = 0, i: int = 0) -> tuple[Fraction, dict[int, Fraction]]:
    """The value and the law of the total from (level, i), following the first best
    action, by recursion over every path."""
    widths, actions, finals = game
    if level == len(widths) - 1:
        return Fraction(finals[i]), {finals[i]: Fraction(1)}
    found = []
    for action in actions[level][i]:
        value, law = Fraction(0), {}
        for to, reward, p in chances(action):
            below, below_law = brute_force(game, level + 1, to)
            value += p * (reward + below)
            for total, q in below_law.items():
                law[total + reward] = law.get(total + reward, Fraction(0)) + p * q
        found.append((value, law))
    best = max(value for value, _ in found)
    return next((value, law) for value, law in found if value == best)


def margins(game: Game) -> list[Fraction]:
    """How far each state's best action is above its others (no float can misjudge a
    wide margin)."""
    widths, actions, _ = game
    found = []
    for level in range(len(widths) - 1):
        for i in range(widths[level]):
            worth = sorted(
                sum(
                    p * (reward + brute_force(game, level + 1, to)[0])
                    for to, reward, p in chances(a)
                )
                for a in actions[level][i]
            )
            found += [worth[-1] - w for w in worth[:-1]]
    return found


@settings(max_examples=60, deadline=None)
@given(games())
def test_the_exact_law_is_the_brute_force_law(game):
    value, law = brute_force(game)
    solved = ep.solve(RandomLevels(game))
    found = solved.reward_distribution()
    assert dict(found.items()) == {x: p for x, p in law.items() if p}
    assert found.mean() == value == solved.value()


@settings(max_examples=60, deadline=None)
@given(games())
def test_the_certified_law_holds_the_exact_one(game):
    # an exact tie counts: the first action within the margin is the first best
    assume(all(m == 0 or m > Fraction(1, 10**6) for m in margins(game)))
    _, law = brute_force(game)
    found = ep.solve(RandomLevels(game), method="certified").reward_distribution()
    assert isinstance(found, CertifiedLaw)
    assert all(found.probability(x).contains(p) for x, p in law.items())
    assert found.mean().contains(sum(x * p for x, p in law.items()))
    mean = sum(x * p for x, p in law.items())
    assert found.variance().contains(sum((x - mean) ** 2 * p for x, p in law.items()))
    assert all(found.cdf(x).contains(sum(p for y, p in law.items() if y <= x)) for x in range(12))


def test_a_tie_the_floats_cannot_break_goes_to_the_first_and_is_counted():
    # A sure 1 or a fair coin for 0 or 2: tied at 1, with variances 0 and 1.
    game = ([1, 1], [[[[(0, 1, 1)], [(0, 0, 1), (0, 2, 1)]]]], [0])
    assert margins(game) == [0]
    exact = ep.solve(RandomLevels(game)).reward_distribution()
    assert dict(exact.items()) == brute_force(game)[1] == {1: 1}  # the first best
    found = ep.solve(RandomLevels(game), method="certified").reward_distribution()
    assert found.undecided == 1 and found.to_json()["undecided_choices"] == 1
    assert found.probability(1).contains(1) and found.variance().contains(0)


def test_the_law_starts_from_any_state():
    game: Game = ([1, 2, 1], [[[[(0, 1, 1), (1, 2, 1)]]], [[[(0, 0, 1)]], [[(0, 3, 1)]]]], [0])
    solved = ep.solve(RandomLevels(game))
    assert dict(solved.reward_distribution((1, 1)).items()) == {3: 1}
    assert dict(solved.reward_distribution().items()) == {1: Fraction(1, 2), 5: Fraction(1, 2)}


class Broken(RandomLevels):
    """Moves that break the contract in the way named by ``fault``."""

    def __init__(self, fault: str) -> None:
        super().__init__(([1, 1], [[[[(0, 1, 1)]]]], [0]))
        self.fault = fault

    def moves(self, level, states, values, exact):
        good = super().moves(level, states, values, exact)
        if self.fault == "chances":
            return LevelMoves(good.source, good.target, good.reward, good.probability / 2)
        if self.fault == "reward":
            return LevelMoves(good.source, good.target, -good.reward, good.probability)
        if self.fault == "source":
            return LevelMoves(good.source * 1.0, good.target, good.reward, good.probability)
        if self.fault == "outside":
            return LevelMoves(good.source, good.target + (0, 1), good.reward, good.probability)
        if self.fault == "target":
            return LevelMoves(good.source, good.target * 0, good.reward, good.probability)
        if self.fault == "undecided":
            return LevelMoves(good.source, good.target, good.reward, good.probability, -1)
        # 0.1 in binary is not 1/10: refused as inexact before any sum is checked
        tenth = np.full(len(good.probability), 0.1)
        return LevelMoves(good.source, good.target, good.reward, tenth)


@pytest.mark.parametrize(
    "fault, message",
    [
        ("chances", "summing to 1"),
        ("reward", "whole numbers >= 0"),
        ("outside", "outside 0 .. sizes - 1"),
        ("source", "each source must be a whole number"),
        ("target", "not on level 1"),
        ("float", "inexact"),
        ("undecided", "undecided choices must be a whole number >= 0"),
    ],
)
def test_moves_that_break_the_contract_are_refused(fault, message):
    with pytest.raises(ModelError, match=message):
        ep.solve(Broken(fault)).reward_distribution()


def test_a_model_without_moves_is_refused_in_one_line():
    class NoMoves(LevelModel):
        levels, sizes, initial = 1, (2,), (0,)

        def states(self, level):
            return np.array([[level]])

        def final(self, states):
            return np.zeros(len(states), dtype=np.int64)

        def step(self, level, states, values, exact):
            return values(states + 1)

        def rounding_error(self, level, magnitude):
            return 0.0

    with pytest.raises(UsageError, match="gives no moves"):
        ep.solve(NoMoves()).reward_distribution()


def test_a_certified_law_needs_a_rounding_bound_that_is_a_number():
    class NoBound(RandomLevels):
        move_rounding = LevelModel.move_rounding

    class BadBound(RandomLevels):
        def move_rounding(self, level):
            return None

    game: Game = ([1, 1], [[[[(0, 1, 1)]]]], [0])
    assert dict(ep.solve(NoBound(game)).reward_distribution().items()) == {1: 1}
    with pytest.raises(UsageError, match="gives no move_rounding"):
        ep.solve(NoBound(game), method="certified").reward_distribution()
    with pytest.raises(ModelError, match="must be a number"):
        ep.solve(BadBound(game), method="certified").reward_distribution()


def test_a_state_that_is_not_one_is_refused_in_one_line():
    solved = ep.solve(RandomLevels(([1, 1], [[[[(0, 1, 1)]]]], [0])))
    for state in (5, (7, 7), "x"):
        with pytest.raises(ModelError, match="not a state|on no level"):
            solved.reward_distribution(state)


@pytest.mark.parametrize(
    "outcomes, floats, message",
    [
        ([1, 0], [0.5, 0.5], "increasing"),
        ([0, 1], [0.5], "one float probability per outcome"),
        ([], [], "one float probability per outcome"),
        ([0, 1], [0.5, float("nan")], "finite numbers >= 0"),
    ],
)
def test_a_certified_law_checks_what_it_is_given(outcomes, floats, message):
    with pytest.raises(UsageError, match=message):
        CertifiedLaw(np.array(outcomes), np.array(floats), Fraction(1), Fraction(1))


def test_a_quantile_level_is_exact_and_in_range():
    law = CertifiedLaw(np.array([0, 1]), np.array([0.5, 0.5]), Fraction(1), Fraction(1))
    assert law.quantile("1/2") == (0, 0) and law.quantile(1) == (1, 1)
    assert law.quantile(0.5) == (0, 0)  # a float exactly 1/2
    for bad in (0.1, "x", 2, 0):
        with pytest.raises(ExactProbError):
            law.quantile(bad)
