"""How a user's code reads the answers, checked by mypy in CI (``mypy exactprob
tests/typed_usage.py``): each call below type-checks, and
``tests/test_public_surface.py`` checks that the calls a result does not answer are
refused by mypy."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import exactprob as ep


class Ruin:
    """Bet 1 until 0 or 5, winning each bet with chance 2/5."""

    initial = 2

    def outcome(self, s: int) -> int | None:
        return 1 if s == 5 else 0 if s == 0 else None

    def actions(self, s: int) -> tuple[str, ...]:
        return ("bet",)

    def transition(self, s: int, a: str) -> ep.Dist[int]:
        return ep.Dist({s + 1: "2/5", s - 1: "3/5"})


class Coins(ep.LevelModel):
    """Two levels of one state each, worth 1 at the end."""

    levels, sizes, initial = 2, (1,), (0,)

    def states(self, level: int) -> np.ndarray:
        return np.array([(level,)])

    def final(self, states: np.ndarray) -> np.ndarray:
        return np.ones(len(states), dtype=np.int64)


def exact_laws() -> Fraction:
    solved: ep.SolvedLaws = ep.solve(Ruin(), starts=[1, 2], max_states=100, progress=None)
    solved.absorption()
    solved.action_values(2)
    return Fraction(solved.value())


def typed_states() -> tuple[ep.Dist[int], str | None]:
    """A model's annotations carry into its answer: Ruin's states are ``int``, its
    actions ``str``."""
    solved = ep.solve(Ruin())
    return solved.absorption(2), solved.policy(2)


def within_a_horizon() -> tuple[str | None, Fraction]:
    """Within a horizon the states are ``(state, steps left)``: the policy by steps left."""
    solved = ep.solve(Ruin(), horizon=4, counter=lambda s, a, t: 1)
    return solved.policy((2, 3)), Fraction(solved.value((2, 0)))


def paid_endings() -> tuple[object, Fraction, str | None]:
    """Endings paid by a table: the answer's states and actions are still the model's."""
    solved = ep.solve(Ruin(), payoffs={0: -1, 1: 5})
    evaluated = ep.evaluate(Ruin(), lambda s: "bet", payoffs={0: -1, 1: 5})
    law = solved.absorption().map(Ruin().outcome)
    return law, Fraction(solved.value(2)) + Fraction(evaluated.value()), solved.policy(2)


class Flips:
    """Two seats flip a coin in turn; heads wins for the flipper (payoffs per seat)."""

    initial: int | tuple[int, int] = 0

    def outcome(self, s: int | tuple[int, int]) -> tuple[int, int] | None:
        return s if isinstance(s, tuple) else None

    def player(self, s: int | tuple[int, int]) -> int:
        return s if isinstance(s, int) else 0

    def actions(self, s: int | tuple[int, int]) -> tuple[str, ...]:
        return ("flip",)

    def transition(self, s: int | tuple[int, int], a: str) -> ep.Dist[int | tuple[int, int]]:
        won = (1, 0) if s == 0 else (0, 1)
        return ep.Dist({won: "1/2", 1 - s if isinstance(s, int) else s: "1/2"})


def seat_payoffs() -> tuple[tuple[Fraction, ...], object]:
    """A game of seats: the value is a tuple, one payoff per seat."""
    solved = ep.solve(Flips(), tie_rule="uniform")
    assert isinstance(solved, ep.SeatSolution)
    return solved.value(1), solved.consequential_ties()


def certified_play() -> object:
    boxed: ep.SolvedPlay = ep.solve(Ruin(), method="certified")
    return boxed.ties(2), boxed.policy(2), boxed.action_values(2)


def level_values() -> object:
    solved: ep.LevelSolution = ep.solve(Coins())
    return solved.value(), solved.values(0, np.array([(0,)]))


def piecewise_pieces() -> object:
    solved: ep.PiecewiseSolution = ep.solve(Ruin(), parameter_range=(0, 1))
    at_third: ep.SolvedLaws = solved.at(Fraction(1, 3))
    return [piece.policy(2) for piece in solved.pieces], at_third.value(2)
