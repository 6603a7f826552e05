"""Closed forms checked against exact answers (exactprob.engine.symbolic.formulas): identities are
proved, and every counterexample is confirmed by solving the model at that point."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy
from models import GamblersRuin, TableModel
from test_parametric import At, PushYourLuck

import exactprob as ep

p = sympy.Symbol("p")


def ruin_formula(goal, start):
    """The textbook ruin formula, (r^i - 1)/(r^N - 1) with r = (1 - p)/p."""
    r = (1 - p) / p
    return (r**start - 1) / (r**goal - 1)


@pytest.mark.parametrize(("goal", "start"), [(3, 1), (5, 2), (8, 5)])
def test_the_ruin_formula_is_proved_and_a_wrong_one_refuted(goal, start):
    model = GamblersRuin(p, goal, start)
    solved = ep.solve(model)
    assert ep.check_formula(solved, ruin_formula(goal, start))
    wrong = ep.check_formula(solved, sympy.Rational(start, goal))  # the fair game's answer
    assert not wrong
    (t,) = wrong.point.values()
    exact = ep.solve(GamblersRuin(F(str(t)), goal, start)).value()
    assert wrong.exact_value == sympy.Rational(exact.numerator, exact.denominator)
    assert wrong.formula_value == sympy.Rational(start, goal) != wrong.exact_value


def test_a_rational_answer_against_a_number():
    solved = ep.solve(GamblersRuin(F(2, 5), 5, 2))
    assert ep.check_formula(solved, F(40, 211))  # (r^2 - 1)/(r^5 - 1), r = 3/2
    verdict = ep.check_formula(solved, F(2, 5))
    assert not verdict and verdict.point == {} and verdict.exact_value == sympy.Rational(40, 211)


def test_a_piecewise_answer_is_checked_piece_by_piece():
    """Push your luck to 3: the value is p below 1/2, 2p^2 up to 2/3, 3p^3 above; p is
    refuted at a point of the second piece, confirmed by solving there."""
    verdict = refuted_in(p, F(1, 2), F(2, 3))
    assert verdict.exact_value == 2 * verdict.point[p] ** 2


def refuted_in(formula, low, high):
    """The verdict on ``formula`` for push your luck to 3: refuted at a point strictly
    between ``low`` and ``high``, where solving the model at that point gives the
    verdict's exact value."""
    verdict = ep.check_formula(ep.solve(PushYourLuck(3)), formula)
    assert not verdict
    t = F(str(verdict.point[p]))
    assert low < t < high
    exact = ep.solve(At(PushYourLuck(3), t)).value()
    assert verdict.exact_value == sympy.Rational(exact.numerator, exact.denominator)
    return verdict


#: A chance that touches p at 1/sqrt(2) from below.
TOUCH = p - (p**2 - sympy.Rational(1, 2)) ** 2


def touching():
    """Two actions winning with p and with TOUCH, solved for 1/2 <= p <= 1: a tie at
    1/sqrt(2), the same play on both sides."""
    model = TableModel(
        "s",
        {"w": 1, "l": 0},
        {"s": (0, {"a": {"w": p, "l": 1 - p}, "b": {"w": TOUCH, "l": 1 - TOUCH}})},
    )
    return ep.solve(model, parameter_range=(F(1, 2), 1))


def test_a_formula_that_holds_on_every_piece_and_at_an_irrational_touch():
    """The value of the touching actions is p on every piece and at the point."""
    touch, solved = TOUCH, touching()
    assert [str(x.where) for x in solved.pieces] == [
        "1/2 < p < sqrt(2)/2",
        "p = sqrt(2)/2",
        "sqrt(2)/2 < p < 1",
    ]
    assert ep.check_formula(solved, p)
    assert not ep.check_formula(solved, touch)


def test_formulas_that_cannot_be_proved_are_refused():
    solved = ep.solve(GamblersRuin(p, 3, 1))
    with pytest.raises(ep.UsageError, match="float"):
        ep.check_formula(solved, 0.5 * p)
    with pytest.raises(ep.UsageError, match="not a rational function"):
        ep.check_formula(solved, sympy.sqrt(p))
    with pytest.raises(ep.UsageError, match="certified enclosure"):
        ep.check_formula(ep.solve(GamblersRuin(F(1, 3), 3, 1), "certified"), F(1, 7))


# -- formulas with pieces ---------------------------------------------------------------
HALF, TWO_THIRDS = sympy.Rational(1, 2), sympy.Rational(2, 3)


def best_target(cap):
    """Push your luck from the rules: V(0) = p max(1, p max(2, ... p cap)), which is the
    best of the targets, max_j j p^j (j = 1 .. cap)."""
    return sympy.Max(*(j * p**j for j in range(1, cap + 1)))


@pytest.mark.parametrize(
    "formula",
    [
        best_target(3),
        sympy.Piecewise((p, p < HALF), (2 * p**2, p < TWO_THIRDS), (3 * p**3, True)),
        sympy.Piecewise((p, p <= HALF), (2 * p**2, p <= TWO_THIRDS), (3 * p**3, True)),
    ],
    ids=["max", "piecewise", "closed-at-the-breakpoints"],
)
def test_a_formula_with_pieces_is_proved_branch_by_branch(formula):
    assert ep.check_formula(ep.solve(PushYourLuck(3)), formula)


def test_a_wrong_breakpoint_is_refuted_between_the_two_and_confirmed_by_solving():
    """Switching to 3p^3 at 3/5 instead of 2/3: refuted at a point of (3/5, 2/3), where
    solving the model at that point gives 2p^2."""
    wrong = sympy.Piecewise((p, p < HALF), (2 * p**2, p < sympy.Rational(3, 5)), (3 * p**3, True))
    verdict = refuted_in(wrong, F(3, 5), F(2, 3))
    assert verdict.formula_value == 3 * verdict.point[p] ** 3


@pytest.mark.parametrize(
    ("at", "exact"),
    [(HALF, HALF), (sympy.Rational(1, 4), sympy.Rational(1, 4))],
    ids=["the-answer's-breakpoint", "inside-a-piece"],
)
def test_a_formula_wrong_at_one_point_is_refuted_there(at, exact):
    wrong = sympy.Piecewise((7, sympy.Eq(p, at)), (best_target(3), True))
    verdict = ep.check_formula(ep.solve(PushYourLuck(3)), wrong)
    assert not verdict
    assert verdict.point == {p: at}
    assert (verdict.formula_value, verdict.exact_value) == (7, exact)


def test_a_max_holds_through_an_irrational_touch_and_a_min_does_not():
    """The value p is the Max of the touching chances on every piece and at the touch;
    their Min is the other one, wrong off the touch."""
    touch, solved = TOUCH, touching()
    assert ep.check_formula(solved, sympy.Max(p, touch))
    verdict = ep.check_formula(solved, sympy.Min(p, touch))
    assert not verdict and verdict.exact_value == verdict.point[p]


def test_formulas_with_pieces_that_cannot_be_checked_are_refused():
    with pytest.raises(ep.UsageError, match="has pieces; it is checked against a piecewise"):
        ep.check_formula(ep.solve(GamblersRuin(p, 3, 1)), sympy.Max(p, HALF))
    with pytest.raises(ep.UsageError, match=r"no value for p in Interval.open\(1/2, 2/3\)"):
        ep.check_formula(ep.solve(PushYourLuck(3)), sympy.Piecewise((p, p <= HALF)))
    with pytest.raises(ep.UsageError, match=r"no value for p in \{1/2\}"):
        ep.check_formula(ep.solve(PushYourLuck(3)), sympy.Piecewise((p, p < HALF), (p, p > HALF)))
    with pytest.raises(ep.UsageError, match="symbols other than the answer's parameter p"):
        ep.check_formula(ep.solve(PushYourLuck(3)), sympy.Max(p, sympy.Symbol("q")))
