r"""Pig and Fowl Play among three to six seats (``solve_seat_race`` and ``--seats``),
checked against oracles that share nothing with the race's component solver: the games
written from the rules as plain models for the generic engine (Pig in
``examples/pig_seats.py``, Fowl Play here) (every state's
values and tied actions), the one-shot deviation check at every state of those models,
the two-player race solver on two seats, the independent simulator playing the solved
hold table, and every head start solved again by the engine."""

from __future__ import annotations

import itertools
import json
import sys
from collections import deque
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from jeopardy_oracle import SMALL_FOWL_PLAY

import exactprob as ep
from exactprob.cli import main
from exactprob.errors import ModelError, NonTerminationError, StateLimitError
from exactprob.games.jeopardy import FowlPlay, Pig, seat_race_report, solve_seat_race
from exactprob.games.jeopardy.simulator import simulate_seat_race, table_player
from exactprob.games.jeopardy.solving.seats import rotated
from exactprob.games.jeopardy.solving.solver import solve_race

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from pig_seats import PigSeats  # Pig among seats from the rules, for the generic engine


class FowlSeats:
    """Fowl Play among ``seats``, from the rules: ``(scores, mover, turn total, wolves
    out, chickens out)``; the last wolf puts every card back; a mover at the goal holds."""

    def __init__(self, game: FowlPlay, seats: int, head: tuple = ()) -> None:
        self.goal, self.n, self.C, self.W = game.goal, seats, game.chickens, game.wolves
        self.initial = (tuple(head) or (0,) * seats, 0, 0, 0, 0)

    def outcome(self, s):
        return next((_won(i, self.n) for i, a in enumerate(s[0]) if a >= self.goal), None)

    def player(self, s):
        return s[1]

    def actions(self, s):
        scores, mover, k = s[:3]
        if k == 0:
            return ("draw",)
        return ("hold",) if scores[mover] + k >= self.goal else ("draw", "hold")

    def transition(self, s, action):
        scores, mover, k, w, c = s
        nxt = (mover + 1) % self.n
        if action == "hold":
            return ep.Dist({(_add(scores, mover, k), nxt, 0, w, c): 1})
        chickens, wolves = self.C - c, self.W - w
        out = {}
        if wolves:
            after = (w + 1, c) if wolves > 1 else (0, 0)
            out[(scores, nxt, 0, *after)] = F(wolves, chickens + wolves)
        if chickens:
            out[(scores, mover, k + 1, w, c + 1)] = F(chickens, chickens + wolves)
        return ep.Dist(out)


def _won(seat: int, n: int) -> tuple[int, ...]:
    return tuple(int(i == seat) for i in range(n))


def _add(scores: tuple, seat: int, points: int) -> tuple:
    return tuple(a + points * (i == seat) for i, a in enumerate(scores))


def model_of(game: Pig | FowlPlay, seats: int, head: tuple = ()) -> Any:
    if isinstance(game, Pig):
        return PigSeats(game.goal, seats, game.sides, head)
    return FowlSeats(game, seats, head)


def states_of(model: Any) -> list:
    """Every state reachable from the start."""
    seen, queue = {model.initial}, deque([model.initial])
    while queue:
        s = queue.popleft()
        if model.outcome(s) is None:
            for a in model.actions(s):
                for t in dict(model.transition(s, a).items()):
                    if t not in seen:
                        seen.add(t)
                        queue.append(t)
    return list(seen)


def race_view(game: Pig | FowlPlay, state: tuple) -> tuple:
    """A model state as the race sees it: scores from the mover, turn total, deck."""
    scores, mover, k = state[:3]
    deck = state[3:] if isinstance(game, FowlPlay) else 0
    return rotated(scores, mover), k, tuple(deck) if isinstance(game, FowlPlay) else deck


def race_value(race: Any, game: Pig | FowlPlay, state: tuple) -> tuple:
    """The race's value of a model state, by absolute seat."""
    scores, k, deck = race_view(game, state)
    return rotated(race.value(scores, k, deck), -state[1])


CASES = [
    (Pig(goal=2), 3, ()),
    (Pig(goal=6), 3, (0, 2, 1)),
    (Pig(goal=8, sides=4), 3, ()),
    (Pig(goal=6), 4, (0, 1, 0, 3)),
    (Pig(goal=5), 5, ()),
    (Pig(goal=3, sides=3), 6, ()),
    (FowlPlay(chickens=3, wolves=1, goal=3), 3, ()),
    (FowlPlay(chickens=4, wolves=2, goal=4), 3, (0, 1, 2)),
    (FowlPlay(chickens=3, wolves=2, goal=4), 4, ()),
    (FowlPlay(chickens=5, wolves=2, goal=5), 3, ()),
    (FowlPlay(chickens=5, wolves=2, goal=5), 2, ()),  # three exact ties: the mover draws
    (FowlPlay(chickens=1, wolves=1, goal=4), 2, ()),  # a start that never banks never ends
    (Pig(goal=9, sides=2), 3, ()),  # 16 exact ties (each the same to every seat)
]


@pytest.mark.parametrize(("game", "seats", "head"), CASES)
def test_every_state_equals_the_generic_engine_on_the_game_written_from_the_rules(
    game, seats, head
):
    race = solve_seat_race(game, seats)
    model = model_of(game, seats, head)
    solved = ep.solve(model)
    assert race.seat_wins(head or None) == solved.value()
    for state in states_of(model):
        if model.outcome(state) is None:
            assert race_value(race, game, state) == solved.value(state), state
            scores, k, deck = race_view(game, state)
            if k:
                assert set(race.actions(scores, k, deck)) == set(solved.ties(state)), state


@pytest.mark.parametrize(("game", "seats", "head"), CASES[:4] + CASES[6:8] + CASES[10:])
def test_no_mover_gains_by_changing_one_choice_anywhere(game, seats, head):
    """The one-shot deviation check on the rules' own transitions, with the race's values
    at the successors; the mover's chosen action draws on a tie."""
    race = solve_seat_race(game, seats)
    model = model_of(game, seats, head)
    for state in states_of(model):
        if model.outcome(state) is not None:
            continue
        mover, value = state[1], race_value(race, game, state)
        worth = {
            action: tuple(
                sum(
                    p * F((model.outcome(t) or race_value(race, game, t))[i])
                    for t, p in model.transition(state, action).items()
                )
                for i in range(seats)
            )
            for action in model.actions(state)
        }
        best = max(w[mover] for w in worth.values())
        chosen = next(w for w in worth.values() if w[mover] == best)  # the first: draw
        assert value == chosen, state


@pytest.mark.parametrize(
    "game", [Pig(goal=12), Pig(goal=25, sides=4)] + [game for game, _ in SMALL_FOWL_PLAY]
)
def test_two_seats_are_the_two_player_race_at_every_komi(game):
    seats, pair = solve_seat_race(game, 2), solve_race(game)
    for komi in range(game.goal):
        first, second = seats.seat_wins((0, komi))
        assert first == pair.first_player_win(komi)
        assert first + second == 1


@pytest.mark.parametrize(
    ("game", "seats", "head"),
    [(Pig(goal=15), 3, ()), (Pig(goal=8), 4, (0, 2, 4, 6)), (FowlPlay(8, 2, 8), 3, (0, 1, 2))],
)
def test_the_rules_simulator_playing_the_solved_table_agrees_with_each_seat(game, seats, head):
    race = solve_seat_race(game, seats)
    player = table_player(race.hold_table())
    kind = "pig" if isinstance(game, Pig) else "fowl-play"
    deck = (
        {"sides": game.sides}
        if isinstance(game, Pig)
        else {"chickens": game.chickens, "wolves": game.wolves}
    )
    games = simulate_seat_race(
        kind, game.goal, [player] * seats, 40_000, seed=seats, head_starts=head or None, **deck
    )
    for seat, win in enumerate(race.seat_wins(head or None)):
        assert games.for_seat(seat).agrees_with(win), seat


def test_the_fairest_head_starts_are_those_of_every_head_start_solved_again():
    game, seats = Pig(goal=4), 3
    third = F(1, seats)
    spreads = {
        (0, *rest): max(abs(p - third) for p in ep.solve(PigSeats(4, 3, head=(0, *rest))).value())
        for rest in itertools.product(range(game.goal), repeat=seats - 1)
    }
    least = min(spreads.values())
    assert solve_seat_race(game, seats).fairest_head_starts() == tuple(
        head for head, spread in spreads.items() if spread == least
    )


@pytest.mark.parametrize(
    ("game", "seats", "head"),
    [
        (FowlPlay(chickens=4, wolves=2, goal=6), 3, (0, 0, 0)),
        (FowlPlay(chickens=4, wolves=2, goal=6), 3, (0, 2, 3)),
        (Pig(goal=5, sides=2), 2, (0, 0)),  # every roll adds 2: a total of 1 never comes
    ],
)
def test_the_first_holds_are_the_engines_first_holds_on_totals_a_turn_can_reach(game, seats, head):
    race, model = solve_seat_race(game, seats), model_of(game, seats, head)
    solved = ep.solve(model)

    def first_hold(seat):
        """Along the seat's first turn from the start scores: the least total it can
        reach (rolling on from every total it does not bank) and banks there."""
        state = (head, seat, 0, 0, 0) if isinstance(game, FowlPlay) else (head, seat, 0)
        reached, queue = set(), [state]
        while queue:
            s = queue.pop()
            if (
                s in reached
                or model.outcome(s) is not None
                or s[1] != seat
                or s[2] == 0
                and s != state
            ):
                continue
            reached.add(s)
            if solved.policy(s) != "hold":
                queue.extend(
                    t
                    for t in dict(
                        model.transition(s, "roll" if isinstance(game, Pig) else "draw").items()
                    )
                )
        banked = [
            s[2]
            for s in reached
            if s[2] and len(model.actions(s)) == 2 and solved.policy(s) == "hold"
        ]
        return min(banked, default=None)  # holding on reaching the goal is no choice

    expected = tuple(first_hold(seat) for seat in range(seats))
    assert race.first_holds(head) == expected
    assert any(k is not None for k in expected)  # the case has holds to find


def test_a_race_with_no_settled_replies_is_refused_in_one_line_as_the_engine_refuses_it():
    """Three seats of Pig to 14 with a d3: best replies cycle at the start (no threshold
    profile there is an equilibrium); the generic engine refuses the same game."""
    with pytest.raises(NonTerminationError, match=r"keep changing at the scores \(0, 0, 0\)"):
        solve_seat_race(Pig(goal=14, sides=3), 3)
    with pytest.raises(NonTerminationError):
        ep.solve(PigSeats(14, 3, sides=3))


def test_seats_that_see_the_same_scores_are_one_state_and_choose_alike():
    """Four seats of Fowl Play to 4 (7 chickens, 3 wolves): at scores 0, 0, 0, 0 every
    seat sees the same race, so a profile whose seats choose differently there is not
    one of the race's states; there is no such profile that settles (once the solver
    kept a mixed-up profile and answered with numbers that broke the rules' own
    equations)."""
    game = FowlPlay(chickens=7, wolves=3, goal=4)
    with pytest.raises(NonTerminationError, match=r"scores \(0, 0, 0, 0\)"):
        solve_seat_race(game, 4)


@pytest.mark.slow
def test_the_generic_engine_finds_the_equilibrium_where_seats_seeing_the_same_scores_differ():
    """The same game as a model of absolute scores, whose states tell the seats apart:
    the generic engine's search finds an equilibrium in which two seats play one
    situation differently, and it holds by the rules: every value is its action's
    expectation over the model's own moves, no mover has a better action, and play
    ends from every state."""
    model = FowlSeats(FowlPlay(chickens=7, wolves=3, goal=4), 4)
    solution = ep.solve(model)
    values = {s: solution.value(s) for s in solution.states}
    played: dict = {}
    for s, value in values.items():
        if model.outcome(s) is not None:
            assert value == tuple(map(F, model.outcome(s)))
            continue
        mover = model.player(s)
        q = {
            a: tuple(
                sum(F(p) * values[t][i] for t, p in model.transition(s, a).items())
                for i in range(4)
            )
            for a in model.actions(s)
        }
        assert q[solution.policy(s)] == value
        assert value[mover] == max(v[mover] for v in q.values())
        played[s] = dict(model.transition(s, solution.policy(s)).items())
    ended = {s for s in values if s not in played}
    while len(ended) < len(values):
        grown = {s for s, moves in played.items() if s not in ended and ended & moves.keys()}
        assert grown, "play never ends from some state"
        ended |= grown
    by_situation: dict = {}
    for state in played:
        scores, mover, *rest = state
        relative = (scores[mover:] + scores[:mover], *rest)
        by_situation.setdefault(relative, set()).add(solution.policy(state))
    assert any(len(actions) > 1 for actions in by_situation.values())


def test_a_state_outside_the_race_is_refused_in_one_line():
    race = solve_seat_race(FowlPlay(chickens=3, wolves=1, goal=3), 3)
    for call, message in [
        (lambda: race.value((0, 0, 0), 1), r"turn_total must be a whole number from 0 to 0"),
        (lambda: race.value((0, 0, 0), -1), "turn_total must be a whole number"),
        (lambda: race.value((0, 3, 0)), r"scores must be whole numbers from 0 to 2, got 3"),
        (lambda: race.value((True, 1, 1), 2, (0, 2)), "scores must be whole numbers"),
        (lambda: race.actions((0, 0, 0), 1, (5, 5)), r"deck must be a deck state of the game"),
        (lambda: race.seat_wins(5), "head_starts must be a sequence of one score per seat"),
        (lambda: race.seat_wins((0, 1)), r"head_starts must give one score per seat \(3\)"),
    ]:
        with pytest.raises(ModelError, match=message):
            call()
    games = simulate_seat_race("pig", 2, [lambda scores, k, w, c: k > 0] * 3, games=10, seed=1)
    with pytest.raises(ModelError, match="seat must be a whole number from 0 to 2, got 3"):
        games.for_seat(3)


def test_bad_seats_and_head_starts_are_refused_before_any_work():
    with pytest.raises(ModelError, match="seats must be a whole number from 2 to 6, got 7"):
        solve_seat_race(Pig(goal=5), 7)
    with pytest.raises(ModelError, match="one score per seat"):
        seat_race_report(Pig(goal=5), 3, (0, 1))
    with pytest.raises(ModelError, match="head_starts must be whole numbers from 0 to 4, got 5"):
        seat_race_report(Pig(goal=5), 3, (0, 1, 5))
    with pytest.raises(StateLimitError, match="524,385,000 non-terminal states"):
        seat_race_report(FowlPlay(), 3)


def test_cli_prints_each_seat_and_its_json_lists_them(capsys):
    assert main(["pig", "--seats", "3", "--goal", "6", "--komi", "2,1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = ep.solve(PigSeats(6, 3, head=(0, 2, 1))).value()
    assert payload["seat_wins"] == [str(p) for p in expected]
    assert len(payload["seat_wins_decimal"]) == 3
    assert payload["head_starts"] == [0, 2, 1]
    assert payload["nonterminal_states"] == 6 * 6 * 6 * 7 // 2
    assert (
        main(["fowl-play", "--seats", "3", "--goal", "4", "--chickens", "4", "--wolves", "2"]) == 0
    )
    text = capsys.readouterr().out
    assert "seat 3 wins" in text and "fairest head starts" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pig", "--seats", "1"], "--seats must be a whole number from 2 to 6, got 1"),
        (["pig", "--seats", "x"], "--seats must be a whole number"),
        (["pig", "--seats", "3", "--komi", "1"], "2 comma-separated numbers, got '1'"),
        (
            ["pig", "--seats", "3", "--goal", "5", "--komi", "1,5"],
            "--komi must be below --goal (5)",
        ),
        (["pig", "--seats", "3", "--players", "hold-at-20"], "not --players"),
        (["red-light", "--seats", "3", "--certified"], "not --certified"),
        (["red-light", "--seats", "3"], "--max-states 139500000"),
        (["pig", "--seats", "3", "--solitaire"], "not --seats"),
        (["pig", "--seats", "3", "--goal", "5", "--turns", "3"], "not --turns"),
        (["pig", "--seats", "3", "--goal", "5", "--plot", ""], "not --plot"),
    ],
)
def test_cli_refuses_bad_seats_in_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
