"""Small edges of the API and the command line, each answered or refused in the project's
own one line: comparisons and quantiles of outcomes that cannot be ordered, a mover
given as a float, a first passage into a set with states never reached, a round robin
with a match-up that never ends (exact or certified), a whole number too long for a flag, a comparison of
dice too large to compute."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import exactprob as ep
from exactprob.cli import main
from exactprob.engine.array_model import per_state
from exactprob.errors import DistributionError, ModelError


@pytest.mark.parametrize("compare", ["lt", "le", "gt", "ge"])
def test_comparing_outcomes_that_cannot_be_ordered_is_one_line(compare):
    with pytest.raises(DistributionError, match="'a' cannot be ordered"):
        getattr(ep.Dist({"a": 1}), compare)(3)
    with pytest.raises(DistributionError, match="another distribution's outcomes"):
        getattr(ep.Dist({"a": 1}), compare)(ep.die(3))
    assert ep.Dist({"a": 1}).eq(3)[False] == 1  # equality needs no order


def test_a_quantile_of_outcomes_without_an_order_is_refused_as_cdf_is():
    mixed = ep.Dist({"a": Fraction(1, 2), 1: Fraction(1, 2)})
    with pytest.raises(DistributionError, match="cannot be compared"):
        mixed.cdf(1)
    with pytest.raises(DistributionError, match="cannot be ordered"):
        mixed.quantile(Fraction(1, 2))
    assert ep.Dist({"a": 1}).quantile(1) == "a"  # one outcome: nothing to order


class FloatMover(ep.ArrayModel):
    """A walk 0 -> 1 or 2 -> end, whose mover is the float 1.0."""

    sizes, initial, actions = (4,), (0,), ("one", "two")

    def terminal(self, states):
        return states[:, 0] >= 2

    def outcome(self, states):
        return states[:, 0]

    def player(self, states):
        return np.ones(len(states))

    def transition(self, states, action):
        return [(1, states + (1 if action == "one" else 2))]


@pytest.mark.parametrize("method", ["exact", "depth-first", "certified"])
def test_a_mover_given_as_a_float_is_refused_by_every_method(method):
    # depth-first read the array model state by state and took 1.0 as player 1
    with pytest.raises(ModelError, match="must (be|return) 0 or 1"):
        ep.solve(FloatMover(), method=method)
    with pytest.raises(ModelError, match="got 1.0"):
        ep.solve(per_state(FloatMover()), method=method)


class Ring:
    """0 -> 1 -> 2 -> 0, one move each."""

    initial = 0

    def outcome(self, state):
        return None

    def actions(self, state):
        return ("go",)

    def transition(self, state, action):
        return ep.Dist({(state + 1) % 3: 1})


def test_a_target_state_never_reached_is_never_entered():
    ring = ep.stationary(Ring())
    # from 0 the ring enters 2 after two moves, and 7 never: the same answer
    assert ring.mean_first_passage({2, 7}) == ring.mean_first_passage({2}) == 2
    assert ring.mean_return_time({0, 7}) == 3  # every third move
    with pytest.raises(ModelError, match="reaches none of the target states"):
        ring.mean_first_passage({7, "x"})


def test_a_match_up_that_never_ends_is_one_cell_and_the_others_are_answered(capsys):
    # Two chickens in the bag: hold-at-3 never banks, so against itself the game never
    # ends, and against any player that banks it never wins.
    argv = ["red-light", "--chickens", "2", "--wolves", "2", "--goal", "5"]
    assert main([*argv, "--players", "hold-at-3,optimal", "--json"]) == 0
    cells = {(m["first"], m["second"]): m for m in json.loads(capsys.readouterr().out)["matchups"]}
    assert "forever" in cells["hold-at-3", "hold-at-3"]["never_ends"]
    assert cells["hold-at-3", "optimal"]["first_player_win"] == "0"
    assert cells["optimal", "hold-at-3"]["first_player_win"] == "1"
    assert "first_player_win" in cells["optimal", "optimal"]
    assert main([*argv, "--players", "hold-at-3,optimal"]) == 0
    assert "never ends" in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["--exact", "--certified"])
def test_a_fowl_play_match_up_that_never_ends_is_found_by_both_modes(capsys, mode):
    # Eight chickens make at most 8 points in a turn: from 1 point or less against the
    # goal of 10, hold-at-60 busts every turn, so against itself the game never ends
    # there. The certified mode finds it by play_off's exact test, as the exact mode does.
    argv = ["fowl-play", "--chickens", "8", "--wolves", "2", "--goal", "10", mode]
    assert main([*argv, "--players", "hold-at-60,hold-at-3", "--json"]) == 0
    cells = {(m["first"], m["second"]): m for m in json.loads(capsys.readouterr().out)["matchups"]}
    assert "forever" in cells["hold-at-60", "hold-at-60"]["never_ends"]
    assert "first_player_win_decimal" in cells["hold-at-3", "hold-at-3"]
    assert "never_ends" not in cells["hold-at-60", "hold-at-3"]


def test_an_enclosure_leaves_the_starts_that_never_end_unsettled():
    """The second net under the up-front test: where play never ends the sweep cannot move
    the bounds off [0, 1], and the exact test finds the cycle among those starts."""
    from exactprob.errors import NonTerminationError
    from exactprob.games.jeopardy.players.matchup import check_ends, passing_scores
    from exactprob.games.jeopardy.policies import hold_at, policy_table
    from exactprob.games.jeopardy.rules import FowlPlay
    from exactprob.games.jeopardy.solving.certified import enclose_matchup

    game = FowlPlay(chickens=8, wolves=2, goal=10)
    never = policy_table(game, hold_at(60))
    unsettled = enclose_matchup(game, never, never).unsettled_starts()
    assert set(passing_scores(game, never, never)) <= set(unsettled)
    with pytest.raises(NonTerminationError, match="pass the turn back and forth"):
        check_ends(game, never, never, unsettled)
    once = policy_table(game, hold_at(1))
    check_ends(game, never, once, enclose_matchup(game, never, once).unsettled_starts())


def test_a_loop_of_busts_that_meets_a_player_away_from_the_fresh_deck_is_found():
    """With two wolves and both players busting, one side always starts on a fresh deck
    and the other never does: a player that banks only on a fresh deck, against one that
    never banks, loops forever through the other decks. The certified round robin finds
    it as the exact one does, naming the same scores."""
    from exactprob.games.jeopardy.players.roster import NeverEnds, Player, round_robin
    from exactprob.games.jeopardy.policies import hold_at, policy_table
    from exactprob.games.jeopardy.rules import FowlPlay

    game = FowlPlay(chickens=1, wolves=2, goal=2)
    fresh_only = policy_table(game, lambda a, b, k, w, c: (k >= 1) & (w == 0))
    players = [
        Player("fresh-only", fresh_only, 1),
        Player("never", policy_table(game, hold_at(60)), 1),
    ]
    exact, certified = (round_robin(game, players, mode) for mode in (True, False))
    assert isinstance(exact["fresh-only", "never"], NeverEnds)
    assert certified["fresh-only", "never"] == exact["fresh-only", "never"]


def test_goals_within_one_turn_of_chickens_have_no_passing_scores(capsys):
    # every score can reach the goal in one turn: nothing to test before enclosing
    argv = ["fowl-play", "--chickens", "6", "--wolves", "2", "--goal", "5", "--certified"]
    assert main([*argv, "--players", "hold-at-2,hold-at-3"]) == 0
    assert "never ends" not in capsys.readouterr().out


def test_a_flag_number_too_long_names_the_cap(capsys):
    with pytest.raises(SystemExit, match="2"):  # argparse's refusal
        main(["pig", "--goal", "10", "--max-states", "9" * 40])
    assert "at most 30 digits is allowed, got one of 40" in capsys.readouterr().err


def test_a_comparison_is_sized_by_its_difference_and_says_so(capsys):
    # each side alone (99,901 outcomes of about 300 digits) would be allowed
    assert main(["dice", "100d1000>100d1000"]) == 2
    assert "too large to compare exactly through the law of the difference" in (
        capsys.readouterr().err
    )
    assert main(["dice", "100d1000", "--json"]) == 0


@pytest.mark.parametrize(
    "extra, count",
    [([], "50,005,000"), (["--turns", "5"], "300,030,000")],  # 10000 * 10001 / 2, times 6
)
def test_pig_alone_counts_its_states_before_any_work(capsys, extra, count):
    assert main(["pig", "--solitaire", "--goal", "10000", *extra]) == 2
    err = capsys.readouterr().err
    assert f"has up to {count} states" in err and "--max-states" in err


def test_exploring_checks_its_memory_by_transitions_too(monkeypatch):
    # a few states with very many successors each: the check by states (every 65,536)
    # never comes, the check by transitions does
    from exactprob.engine.graph import exploring

    checked: list[str] = []
    monkeypatch.setattr(exploring, "MEMORY_CHECK_EDGES", 1000)
    monkeypatch.setattr(exploring, "check_resident", checked.append)

    class Fan:
        initial = 0

        def outcome(self, state):
            return state if state >= 1 else None

        def actions(self, state):
            return ("spread",)

        def transition(self, state, action):
            return ep.Dist({k: Fraction(1, 5000) for k in range(1, 5001)})

    ep.explore(Fan())
    assert checked == ["exploring the model (5,000 transitions so far)"]
