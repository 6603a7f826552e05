"""The component solver against the generic engine, on every reachable state.

The generic solver (exactprob.solve) explores the whole game as one graph and solves
its cyclic components by exact two-player policy iteration; it shares no code with the
component solver beyond the rules' ``draws``.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from exactprob import ModelError, NonTerminationError, enclose_graph, explore
from exactprob.engine.exact.solving import solve_model as generic_solve
from exactprob.games.jeopardy import (
    FowlPlay,
    FowlPlayArrays,
    JeopardyModel,
    Pig,
    enclose_matchup,
    hold_at,
    play_off,
    policy_table,
    race_report,
)
from exactprob.games.jeopardy.solving.certified import enclose_race
from exactprob.games.jeopardy.solving.solver import solve_race
from tests.jeopardy_oracle import SMALL_FOWL_PLAY

GAMES = [
    (Pig(goal=2), 0),
    (Pig(goal=8), 0),
    (Pig(goal=12, sides=3), 0),
    (Pig(goal=9, sides=4), 3),
    *SMALL_FOWL_PLAY,  # the exact ties of (5, 2, 5) must match the generic engine's ties
]


@pytest.mark.parametrize(("game", "komi"), GAMES, ids=repr)
def test_equals_generic_solver_on_every_state(game, komi):
    model = JeopardyModel(game, komi)
    reference = generic_solve(model)
    mine = solve_race(game)
    checked = 0
    for state in reference.states:
        if model.outcome(state) is not None:
            continue
        s0, s1, k, deck, mover = state
        a, b = (s0, s1) if mover == 0 else (s1, s0)
        mover_value = reference.value(state) if mover == 0 else 1 - reference.value(state)
        assert mine.value(a, b, k, deck) == mover_value, state
        best = set(reference.ties(state))
        assert set(mine.actions(a, b, k, deck)) == best, state
        checked += 1
    assert checked == len([s for s in reference.states if model.outcome(s) is None])
    assert mine.first_player_win(komi) == reference.value()


def test_pig_to_10_matches_the_hand_checked_value():
    # 7776/10961: tests/test_solve.py derives it with the generic engine and an
    # independent all-strategy-pairs check on smaller goals; quickstart prints it.
    assert solve_race(Pig(goal=10)).first_player_win() == F(7776, 10961)


@pytest.mark.parametrize(("game", "komi"), [*SMALL_FOWL_PLAY, (FowlPlay(goal=6), 0)], ids=repr)
def test_fowl_play_as_an_array_model_is_the_same_graph(game, komi):
    """FowlPlayArrays, explored in bulk, against JeopardyModel, explored one state at a
    time: the same states (deck (w, c) spelled out), outcomes, movers, actions and every
    exact transition probability; and the same solution."""

    def as_dict(G, name):
        out = {}
        for s in range(len(G)):
            choices = {}
            for k, action in enumerate(G.actions[s]):
                choices[action] = {
                    name(G.states[t]): F(int(p.numerator), int(p.denominator))
                    for t, p in G.choice_edges(G.choice_start[s] + k)
                }
            out[name(G.states[s])] = (G.outcomes[s], G.players[s], choices)
        return out

    def spelled(state):
        s0, s1, k, (w, c), mover = state
        return (s0, s1, k, w, c, mover)

    bulk = explore(FowlPlayArrays(game, komi))
    plain = explore(JeopardyModel(game, komi))
    assert as_dict(bulk, lambda s: s) == as_dict(plain, spelled)
    exact = generic_solve(JeopardyModel(game, komi)).value()
    assert generic_solve(FowlPlayArrays(game, komi)).value() == exact
    boxes = []
    for G in (bulk, plain):
        try:
            boxes.append(enclose_graph(G).value())
        except NonTerminationError:  # some small decks let a strategy pair loop forever
            boxes.append(None)
    assert (boxes[0] is None) == (boxes[1] is None)
    # the float work runs in another order (ids differ), so the ends may differ slightly
    assert all(box is None or box.contains(exact) for box in boxes)


PIG, FOWL = Pig(goal=4), FowlPlay(chickens=3, wolves=1, goal=4)
ONCE = policy_table(FOWL, hold_at(1))
QUESTIONS = {
    "exact solution": lambda komi: solve_race(PIG).first_player_win(komi),
    "certified solution": lambda komi: enclose_race(FOWL).first_player_win(komi),
    "match-up": lambda komi: play_off(FOWL, ONCE, ONCE).first_player_win(komi),
    "certified match-up": lambda komi: enclose_matchup(FOWL, ONCE, ONCE).first_player_win(komi),
    "engine model": lambda komi: JeopardyModel(PIG, komi),
    "bulk model": lambda komi: FowlPlayArrays(FOWL, komi),
    "report": lambda komi: race_report(PIG, komi),
}
"""Every way to ask about a komi (the games are to 4: komi 0 to 3)."""


@pytest.mark.parametrize("ask", QUESTIONS.values(), ids=QUESTIONS)
@pytest.mark.parametrize("komi", [-1, 4, True, 1.0, "1"])
def test_a_komi_outside_0_to_goal_minus_1_is_refused_by_every_question(ask, komi):
    with pytest.raises(ModelError, match=r"^komi must be a whole number from 0 to 3, got "):
        ask(komi)


@pytest.mark.parametrize("ask", QUESTIONS.values(), ids=QUESTIONS)
def test_every_question_takes_every_komi_below_the_goal(ask):
    for komi in range(4):
        ask(komi)
    ask(np.int64(3))  # as picked from an array
