"""One-parameter models with choices, solved piecewise (exactprob.engine.symbolic.piecewise).

Every piece is checked at rational points inside it (the simplest one and random ones)
against oracles that never call the engine: the Bellman equations of the model with the
parameter substituted (a stopping game or a model where every policy ends has only one
solution of them, so values that satisfy them are the optimal values), and the exact
ties read from those equations. Breakpoints are checked by continuity: the values of
both neighbouring pieces agree there, exactly. Closed forms: red and black (Dubins and
Savage: bold play below 1/2, timid play above) and a gamble whose breakpoint is 1/sqrt(3).
"""

from __future__ import annotations

import itertools
import random
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    RedAndBlack,
    RewardTable,
    TableModel,
    bellman_violations,
    cyclic_games,
    player_of,
    q_values,
    reachable,
    reward_of,
    small_values,
    stopping_move,
)

import exactprob as ep
from exactprob.engine._internal.algebraic import RealRoot, compare, to_sympy_point
from exactprob.engine.symbolic.piecewise import PiecewiseSolution, Range, sample_between

sys.path.insert(0, str(Path(__file__).parent.parent / "examples"))
from derivations import PushYourLuck as ExamplePush
from lucky_fight import LuckyFight

from exactprob.games.fighting_fantasy import Fight

p = sympy.Symbol("p")


class At:
    """``model`` with ``p = t`` substituted: rationals, moves of probability 0 dropped."""

    def __init__(self, model, t):
        self.model, self.t = model, t
        self.initial = model.initial

    def _at(self, x):
        return F(
            str(sympy.sympify(x).subs(p, sympy.Rational(self.t.numerator, self.t.denominator)))
        )

    def outcome(self, s):
        o = self.model.outcome(s)
        return None if o is None else self._at(o)

    def actions(self, s):
        return self.model.actions(s)

    def player(self, s):
        return player_of(self.model, s)

    def reward(self, s, a):
        return self._at(reward_of(self.model, s, a))

    def transition(self, s, a):
        moves = {t: self._at(q) for t, q in self.model.transition(s, a).items()}
        return ep.Dist({t: q for t, q in moves.items() if q != 0})


def rational_inside(piece, rng):
    """A random rational strictly inside an open piece with finite ends."""
    low, high = piece.where.low, piece.where.high
    for x in (low, high):
        if isinstance(x, RealRoot):
            x.approx(12)
    a = low.high if isinstance(low, RealRoot) else low
    b = high.low if isinstance(high, RealRoot) else high
    return a + (b - a) * F(rng.randint(1, 999), 1000)


def check_at(model, solved: PiecewiseSolution, t: F) -> None:
    """At ``p = t``: the piece's values satisfy the Bellman equations of the substituted
    model, its ties are the actions attaining them, and its policy is among them; and
    ``ep.solve`` of the substituted model gives the same values."""
    piece, at_t = solved.piece_at(t), solved.at(t)
    model_t = At(model, t)
    states = reachable(model_t)
    values = {}
    for s in states:
        v = piece.value(s)
        values[s] = F(str(sympy.sympify(v).subs(p, sympy.Rational(t.numerator, t.denominator))))
    assert not bellman_violations(model_t, values), t
    engine = ep.solve(model_t)
    for s in states:
        assert engine.value(s) == values[s] == at_t.value(s)
        if model_t.outcome(s) is not None:
            continue
        q = q_values(model_t, s, values)
        assert at_t.action_values(s) == q
        best = tuple(a for a in model.actions(s) if q[a] == values[s])
        tied = piece.ties(s)
        assert at_t.ties(s) == best
        if piece.where.point:  # ties at a point are exact; inside an interval, all of them
            assert tied == best, (t, s)
        else:
            assert set(tied) <= set(best) and piece.policy(s) in best


def check_continuity(point, left, right) -> None:
    """At an irrational breakpoint (a root of the irreducible f), the values of the two
    neighbouring pieces are equal: f divides the numerator of their difference; and the
    breakpoint's own value is theirs there (to 40 digits)."""
    f = sympy.Poly(list(point.where.low.coefficients), p)
    alpha = to_sympy_point(point.where.low)
    for s in point.states:
        a, b = left.value(s), right.value(s)
        numerator, _ = sympy.fraction(sympy.together(a - b))
        assert sympy.Poly(numerator, p).rem(f).is_zero
        assert abs(sympy.N(a.subs(p, alpha) - point.value(s), 50)) < 1e-40


def check_sign_change(model, solved, point, right) -> None:
    """Where play changes at a breakpoint x, the right piece's play is optimal just right
    of x, and some action is strictly better than it just left of x: the margin
    d(p) = V_right(s) - Q(s, a) (signed for the mover, Q written from the model's own
    moves) is > 0 at the right end of x's isolating interval (refined to width 1e-12, or
    x +- 1e-12 for a rational x) for every action not tied on the right piece, and < 0
    at the left end for at least one."""
    x = point.where.low
    if isinstance(x, RealRoot):
        x.approx(12)
        low, high = x.low, x.high
    else:
        low, high = x - F(1, 10**12), x + F(1, 10**12)
    ends = [sympy.Rational(y.numerator, y.denominator) for y in (low, high)]
    changes = 0
    values = {state: right.value(state) for state in solved.states}
    for state in solved.states:
        if model.outcome(state) is not None:
            continue
        tied = right.ties(state)
        sign = 1 if player_of(model, state) == 0 else -1
        for a, q in q_values(model, state, values).items():
            if a in tied:
                continue
            before, after = ((sign * (values[state] - q)).subs(p, end) for end in ends)
            assert after > 0, (x, state, a)
            changes += bool(before < 0)
    assert changes, x


def check_solution(model, solved: PiecewiseSolution, rng) -> None:
    """Every piece at its simplest inner point and four random ones; every breakpoint by
    continuity of the values of its two neighbours, and where play changes by the sign
    change of a margin; the pieces tile the range."""
    pieces = solved.pieces
    for before, after in itertools.pairwise(pieces):
        assert before.where.point != after.where.point  # intervals and points alternate
    for i, piece in enumerate(pieces):
        where = piece.where
        if where.point and isinstance(where.low, F):
            check_at(model, solved, where.low)
        elif where.point:  # an irrational breakpoint: both neighbours' values meet there
            check_continuity(piece, pieces[i - 1], pieces[i + 1])
        else:
            check_at(model, solved, sample_between(where.low, where.high))
            if where.low is not None and where.high is not None:
                for _ in range(4):
                    check_at(model, solved, rational_inside(piece, rng))
    for left, point, right in zip(pieces, pieces[1:], pieces[2:]):
        if point.where.point and any(left.policy(s) != right.policy(s) for s in solved.states):
            check_sign_change(model, solved, point, right)


# -- closed forms ------------------------------------------------------------------------


class Gamble:
    """Take 1/3 for sure, or win two rounds each with chance p: gamble iff p^2 > 1/3."""

    initial = "start"

    def outcome(self, s):
        return {"won": 1, "lost": 0, "kept": F(1, 3)}.get(s)

    def actions(self, s):
        return ("sure", "gamble") if s == "start" else ("play",)

    def transition(self, s, a):
        if a == "sure":
            return ep.Dist({"kept": 1})
        return ep.Dist({"one won" if s == "start" else "won": p, "lost": 1 - p})


def test_the_gamble_switches_at_one_over_root_three():

    solved = ep.solve(Gamble())
    assert solved.breakpoints == [1 / sympy.sqrt(3)]
    assert [piece.policy() for piece in solved.pieces] == ["sure", "sure", "gamble"]
    assert [piece.ties() for piece in solved.pieces][1] == ("sure", "gamble")
    check_solution(Gamble(), solved, random.Random(1))


def bold_play_values(goal, q):
    """Bold play in red and black from the rules: stake everything, or just what
    reaches the goal; V(i) = q V(2i) below goal/2, q + (1-q) V(2i - goal) above. Solved
    as a linear system in sympy (bold play may cycle)."""
    V = sympy.symbols(f"v0:{goal + 1}")
    equations = [sympy.Eq(V[0], 0), sympy.Eq(V[goal], 1)]
    for i in range(1, goal):
        stake = min(i, goal - i)
        equations.append(sympy.Eq(V[i], q * V[i + stake] + (1 - q) * V[i - stake]))
    solution = sympy.solve(equations, V)
    return [sympy.factor(solution[v]) for v in V]


def timid_play_values(goal, q):
    """Stake 1 each time: the gambler's ruin, (1 - r^i) / (1 - r^goal), r = (1 - q)/q."""
    r = (1 - q) / q
    return [sympy.factor((1 - r**i) / (1 - r**goal)) for i in range(goal + 1)]


@pytest.mark.parametrize("goal", [4, 5, 6, 7])
def test_red_and_black_bold_below_one_half_timid_above(goal):
    """Dubins and Savage (1965): in red and black, bold play is optimal when the game is
    unfavourable (p < 1/2), timid play when favourable (Ross 1974, for p > 1/2), and at
    p = 1/2 every stake ties, each fortune i worth i/goal."""
    model = RedAndBlack(goal, p)
    solved = ep.solve(model, starts=list(range(1, goal)))
    half = F(1, 2)
    bold, timid = bold_play_values(goal, p), timid_play_values(goal, p)
    for piece in solved.pieces:
        where = piece.where
        for i in range(1, goal):
            if where.point:
                assert where.low == half  # the only breakpoint
                assert piece.value(i) == sympy.Rational(i, goal)
                assert piece.ties(i) == model.actions(i)
            elif compare(where.high, half) <= 0:
                assert sympy.simplify(piece.value(i) - bold[i]) == 0
            else:
                assert compare(where.low, half) >= 0
                assert sympy.simplify(piece.value(i) - timid[i]) == 0
    assert solved.breakpoints == [sympy.Rational(1, 2)]
    check_solution(model, solved, random.Random(goal))


def test_the_answer_at_a_value_of_the_parameter_is_read_by_state():
    """Red and black to 7 solved from 1..6 (state 2 is not id 2): at p = 1/3 each
    fortune's value is bold play's, read by the state itself, through at() and
    piece_at() alike."""
    solved = ep.solve(RedAndBlack(7, p), starts=[3, 1, 2, 4, 5, 6])
    bold = bold_play_values(7, p)
    third = F(1, 3)
    at, piece = solved.at(third), solved.piece_at(third)
    assert isinstance(at, ep.SolvedLaws) and (at.method, at.solver) == ("exact", "generic")
    for i in range(7 + 1):
        expected = F(str(bold[i].subs(p, sympy.Rational(1, 3))))
        assert at.value(i) == expected
        assert piece.value(i).subs(p, sympy.Rational(1, 3)) == expected
    assert at.policy(2) == piece.policy(2) == 2  # bold: stake everything
    with pytest.warns(ep.ExactProbDeprecationWarning, match=r"use Piece\.value\(state\)"):
        assert piece.value_expr(0) == piece.value(3)  # the old accessor read ids


# -- random models against the oracles -----------------------------------------------------


def parametric_move(draw, n):
    """Two random stopping moves mixed with weights 1 - p^k and p^k (k = 1 or 2), or one
    alone: positive probability of ending play for every p in (0, 1)."""
    x, y = stopping_move(draw, n), stopping_move(draw, n)
    w = p ** draw(st.integers(1, 2)) if draw(st.booleans()) else sympy.Integer(0)
    mixed = {t: sympy.expand((1 - w) * x.get(t, 0) + w * y.get(t, 0)) for t in set(x) | set(y)}
    return {t: q for t, q in mixed.items() if q != 0}


@st.composite
def parametric_games(draw, two_players):
    """Stopping games (:func:`models.cyclic_games`) whose moves are :func:`parametric_move`,
    so every strategy ends play for every p in (0, 1); a quarter of the actions pay a
    reward of either sign."""
    game = draw(cyclic_games(two_players, move=parametric_move))
    rewards = {
        (s, a): draw(small_values)
        for s, (_, acts) in game.nodes.items()
        for a in acts
        if draw(st.integers(0, 3)) == 0
    }
    if rewards:
        return RewardTable(game.initial, game.terminals, game.nodes, rewards)
    return game


@pytest.mark.parametrize("two_players", [False, True])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_random_stopping_games_piece_by_piece(two_players, data):
    model = data.draw(parametric_games(two_players))
    try:
        solved = ep.solve(model, parameter_range=(0, 1))
    except ep.UsageError as error:  # no choice or no symbol left in the reachable moves
        assert "parameter_range is for a model with choices" in str(error)
        return
    if not isinstance(solved, PiecewiseSolution):
        return  # a chain: solved symbolically as before
    check_solution(model, solved, random.Random(0))
    rng = random.Random(1)
    for _ in range(3):  # random points anywhere in the range
        check_at(model, solved, F(rng.randint(1, 9999), 10000))


# -- the range and refusals ----------------------------------------------------------------


def two_coins(q):
    return TableModel(
        "s",
        {"w": 1, "l": 0},
        {"s": (0, {"a": {"w": q, "l": 1 - q}, "b": {"w": F(1, 2), "l": F(1, 2)}})},
    )


def test_the_default_range_is_where_every_probability_is_one():
    solved = ep.solve(two_coins(p))
    assert (solved.pieces[0].where.low, solved.pieces[-1].where.high) == (0, 1)
    solved = ep.solve(two_coins(p / 2), parameter_range=(0, F(3, 2)))
    assert [str(x.where) for x in solved.pieces] == ["0 < p < 1", "p = 1", "1 < p < 3/2"]


def test_a_range_where_a_probability_is_negative_is_refused():
    with pytest.raises(ep.ModelError, match="negative or undefined for 1 < p < 2"):
        ep.solve(two_coins(p), parameter_range=(0, 2))


def test_several_valid_ranges_are_refused_by_name():
    with pytest.raises(ep.ModelError, match="valid on 3 ranges of p"):
        ep.solve(two_coins(p * (p - 1) * (p - 2) * (p - 3)))


def test_two_parameters_are_refused():
    r = sympy.Symbol("r")
    model = TableModel(
        "s", {"w": 1, "l": 0}, {"s": (0, {"a": {"w": p, "l": 1 - p}, "b": {"w": r, "l": 1 - r}})}
    )
    with pytest.raises(ep.ModelError, match="one parameter, not 2"):
        ep.solve(model)


def test_parameter_range_is_for_exact_solves_only():
    with pytest.raises(ep.UsageError, match="method 'exact'"):
        ep.solve(two_coins(p), "certified", parameter_range=(0, 1))


def test_a_moves_change_at_an_irrational_point_is_refused():
    q = (p**2 - F(1, 2)) ** 2
    with pytest.raises(ep.ModelError, match="irrational point"):
        ep.solve(two_coins(q), parameter_range=(0, 1))


class PushYourLuck(ExamplePush):
    """Push your luck (examples/derivations.py) to ``cap`` points, in the symbol p."""

    def __init__(self, cap):
        super().__init__(cap, p)


@pytest.mark.parametrize("cap", [1, 4, 9])
def test_push_your_luck_holds_at_the_one_step_look_ahead(cap):
    """A monotone stopping problem, so the one-stage look-ahead rule is optimal (Ross,
    Introduction to Stochastic Dynamic Programming, 1983, ch. III): roll at k while one
    more roll gains, p(k + 1) > k, i.e. k < p/(1 - p). From 0 the player holds at
    K = min(cap, ceil(p/(1 - p))) points, worth K p^K; the play changes where p/(1 - p)
    is a whole number, p = k/(k + 1), and there rolling and holding at k tie."""
    solved = ep.solve(PushYourLuck(cap))
    assert solved.breakpoints == [sympy.Rational(k, k + 1) for k in range(1, cap)]
    for k in range(1, cap + 1):
        low = F(k - 1, k)
        high = F(k, k + 1) if k < cap else F(1)
        piece = solved.piece_at((low + high) / 2)
        assert str(piece.where) == str(Range(p, low, high))
        assert sympy.simplify(piece.value() - k * p**k) == 0
        if k < cap:
            point = solved.piece_at(high)
            assert point.ties(k) == ("hold", "roll")  # hold and roll tie at k
            assert solved.at(high).ties(k) == ("hold", "roll")
    check_solution(PushYourLuck(cap), solved, random.Random(cap))


def test_a_fight_in_the_chance_of_a_round_matches_the_grid_solver():
    """examples/lucky_fight.py (a Fighting Fantasy fight, the hero winning a decisive
    round with chance p): every piece at five points and every breakpoint against the
    substituted model, and at p = w/(w + l) of equal skills and of one point more the
    value of the game's own grid solver (a separate implementation of the same rules)."""
    from exactprob.games.fighting_fantasy import round_odds, solve_grid

    solved = ep.solve(LuckyFight(4, 4, 3))
    assert len(solved.pieces) == 9
    check_solution(LuckyFight(4, 4, 3), solved, random.Random(4))
    for delta in (0, 1, -2):
        odds = round_odds(delta)
        t = F(odds.win / (odds.win + odds.lose))
        value = solved.piece_at(t).value().subs(p, sympy.Rational(t.numerator, t.denominator))
        assert F(str(value)) == solved.at(t).value()
        assert F(str(value)) == solve_grid(Fight(delta, 4, 4, 3)).value(4, 4, 3)


def test_a_piecewise_solution_is_a_solved_result_with_json_and_html():
    solved = ep.solve(two_coins(p))
    assert isinstance(solved, ep.Solved) and not isinstance(solved, ep.SolvedPlay)
    assert (solved.method, solved.solver) == ("exact", "piecewise")
    assert solved.to_json()["solver"] == "piecewise"
    assert solved.to_json()["pieces"][1] == {
        "where": "p = 1/2",
        "value": "1/2",
        "policy": "'a'",
        "ties": ["'a'", "'b'"],
    }
    page = solved._repr_html_()
    assert "0 &lt; p &lt; 1/2" in page and "&#x27;b&#x27;" in page
    assert solved._repr_latex_().startswith("$\\displaystyle \\begin{cases}")
    assert all(piece.policy("w") is None and piece.ties("w") == () for piece in solved.pieces)
    with pytest.warns(ep.ExactProbDeprecationWarning, match=r"piece\.policy\(state\)"):
        assert [action for _, action in solved.policy()] == ["b", "a", "a"]
    with pytest.warns(ep.ExactProbDeprecationWarning, match=r"piece\.ties\(state\)"):
        assert [ties for _, ties in solved.ties()] == [("a", "b")]
    with pytest.raises(ep.ModelError, match="outside the range solved, 0 < p < 1"):
        solved.at(2)


class PushForPoints(PushYourLuck):
    """The same game with the points as a reward for holding (and outcome 0)."""

    def outcome(self, s):
        return 0 if isinstance(s, tuple) else None

    def reward(self, s, a):
        return s if a == "hold" else 0


def test_rewards_give_the_same_pieces_as_outcomes():
    with_outcomes, with_rewards = ep.solve(PushYourLuck(4)), ep.solve(PushForPoints(4))
    assert with_rewards.breakpoints == with_outcomes.breakpoints
    for mine, theirs in zip(with_rewards.pieces, with_outcomes.pieces):
        assert str(mine.where) == str(theirs.where)
        assert all(mine.ties(s) == theirs.ties(s) for s in theirs.states)
        assert sympy.simplify(mine.value() - theirs.value()) == 0
    check_solution(PushForPoints(4), with_rewards, random.Random(4))


class WaitOrBet:
    """Keep 1/3, bet on p, or wait (a sure self-loop, which never ends play)."""

    initial = "s"

    def outcome(self, s):
        return {"won": 1, "lost": 0, "kept": F(1, 3)}.get(s)

    def actions(self, s):
        return ("keep", "wait", "bet")

    def transition(self, s, a):
        if a == "keep":
            return ep.Dist({"kept": 1})
        if a == "wait":
            return ep.Dist({"s": 1})
        return ep.Dist({"won": p, "lost": 1 - p})


def test_an_action_that_surely_comes_back_is_no_tie_on_any_piece():
    """As in Solution.ties: waiting ties the value (V = Q) but never ends play."""
    solved = ep.solve(WaitOrBet())
    assert [piece.ties() for piece in solved.pieces] == [("keep",), ("keep", "bet"), ("bet",)]
    for t in (F(1, 5), F(1, 3), F(1, 2)):
        assert solved.piece_at(t).ties() == solved.at(t).ties()
