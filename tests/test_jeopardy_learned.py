"""Learned approximate players: forced moves, exact agreement, parameter counts, play.

Agreements are checked against a count written here from the rules (state by state, in
Python loops), parameter counts against the fitted scikit-learn objects and hand formulas,
and the table of a tree that copies the optimal player against the exact optimal win
probability through the independent simulator.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from exactprob.errors import ModelError
from exactprob.games.jeopardy.players.learned import LearnedPlayer, fit_network, fit_tree
from exactprob.games.jeopardy.policies import PolicyTable, optimal_policy_table
from exactprob.games.jeopardy.rules import FowlPlay, Pig
from exactprob.games.jeopardy.simulator import simulate_race
from exactprob.games.jeopardy.solving.solver import solve_race

# Pig with a d3 (1 busts, 2 or 3 add): about a third of its choices are holds (with a d6,
# optimal Pig never holds below the goal 40). Fowl Play to 8 has both actions too.
GAMES: dict[str, FowlPlay | Pig] = {
    "fowl": FowlPlay(chickens=8, wolves=2, goal=8),
    "pig": Pig(goal=20, sides=3),
}


@pytest.fixture(scope="module")
def solved() -> dict:
    """Each game's exact solution and optimal table."""
    result = {}
    for key, game in GAMES.items():
        solution = solve_race(game)
        result[key] = (game, solution, optimal_policy_table(solution))
    return result


@pytest.fixture(scope="module")
def players(solved: dict) -> dict:
    """The default network and tree for each game."""
    return {
        (key, kind): fit(game, optimal)
        for key, (game, _, optimal) in solved.items()
        for kind, fit in (("network", fit_network), ("tree", fit_tree))
    }


def rule_choice_states(game: FowlPlay | Pig) -> list[tuple[int, int, int, int, int]]:
    """Every state with a real choice, from the rules: a turn total k >= 1 that has not
    reached the goal, and in Fowl Play k chickens among the c dealt since the shuffle."""
    goal = game.goal
    if isinstance(game, Pig):
        return [
            (a, b, k, 0, 0) for a, b in product(range(goal), repeat=2) for k in range(1, goal - a)
        ]
    return [
        (a, b, k, w, c)
        for a, b, w, c in product(
            range(goal), range(goal), range(game.wolves), range(game.chickens + 1)
        )
        for k in range(1, min(c, goal - 1 - a) + 1)
    ]


def direct_agreement(game: FowlPlay | Pig, optimal: PolicyTable, table: PolicyTable) -> Fraction:
    states = rule_choice_states(game)
    same = sum(bool(optimal.holds[s] == table.holds[s]) for s in states)
    return Fraction(same, len(states))


@pytest.mark.parametrize("kind", ["network", "tree"])
@pytest.mark.parametrize("key", ["fowl", "pig"])
def test_agreement_is_the_direct_count(solved: dict, players: dict, key: str, kind: str) -> None:
    game, _, optimal = solved[key]
    player = players[key, kind]
    assert player.agreement == direct_agreement(game, optimal, player.table)
    assert 0 < player.agreement < 1  # both actions occur, and the small models err somewhere
    assert player.training_states == len(rule_choice_states(game))  # fewer than 50,000: all


@pytest.mark.parametrize("kind", ["network", "tree"])
@pytest.mark.parametrize("key", ["fowl", "pig"])
def test_tables_obey_the_forced_moves(solved: dict, players: dict, key: str, kind: str) -> None:
    game, _, _ = solved[key]
    holds = players[key, kind].table.holds
    assert not holds[:, :, 0].any()  # a turn total of 0 draws
    for a, k in product(range(game.goal), range(holds.shape[2])):
        if a + k >= game.goal:
            assert holds[a, :, k].all(), (a, k)  # at the goal: hold


@pytest.mark.parametrize("key", ["fowl", "pig"])
def test_the_rule_is_the_table(solved: dict, players: dict, key: str) -> None:
    """The vectorised rule, asked with flat arrays as the simulator asks, gives the table."""
    game = solved[key][0]
    states = np.array(rule_choice_states(game)).T
    for kind in ("network", "tree"):
        player = players[key, kind]
        assert np.array_equal(player.holds(*states), player.table.holds[tuple(states)])


def sklearn_sizes(player: LearnedPlayer) -> int:
    model = player.model
    return sum(m.size for m in model.coefs_) + sum(m.size for m in model.intercepts_)


def test_network_parameters(players: dict) -> None:
    # 7 inputs, 13 hidden units: 7 * 13 weights + 13 biases + 13 output weights + 1 bias.
    fowl = players["fowl", "network"]
    assert fowl.parameters == sklearn_sizes(fowl) == 7 * 13 + 13 + 13 + 1 == 118
    # Pig has 3 inputs (i, j, k): 3 * 13 + 13 + 13 + 1.
    pig = players["pig", "network"]
    assert pig.parameters == sklearn_sizes(pig) == 66


@pytest.mark.parametrize("key", ["fowl", "pig"])
def test_tree_parameters(players: dict, key: str) -> None:
    """A feature and a threshold per internal node, an action per leaf."""
    player = players[key, "tree"]
    children = player.model.tree_.children_left
    leaves = int(np.count_nonzero(children == -1))
    internal = int(np.count_nonzero(children != -1))
    assert leaves == internal + 1 <= 40
    assert player.parameters == 2 * internal + leaves


def test_same_seed_same_player(solved: dict) -> None:
    game, _, optimal = solved["fowl"]
    for fit in (fit_network, fit_tree):
        first, second = (
            fit(game, optimal, seed=1, samples=1000),
            fit(game, optimal, seed=1, samples=1000),
        )
        assert first.training_states == second.training_states == 1000
        assert np.array_equal(first.table.holds, second.table.holds)
        assert first.agreement == second.agreement


@pytest.mark.parametrize("key", ["fowl", "pig"])
def test_large_models_learn_the_optimal_table(solved: dict, key: str) -> None:
    """A tree with a leaf per choice state copies the table (the inputs tell the states
    apart); a wider network comes within 2% of it."""
    game, _, optimal = solved[key]
    states = rule_choice_states(game)
    holds = sum(bool(optimal.holds[s]) for s in states)
    assert max(holds, len(states) - holds) < 0.9 * len(states)  # no constant player is close
    assert fit_tree(game, optimal, leaves=len(states)).agreement == 1
    assert fit_network(game, optimal, hidden=32, iterations=500).agreement >= Fraction(98, 100)


def test_learned_tables_play(solved: dict, players: dict) -> None:
    """The copied optimal table wins, against itself, as often as the exact solution says;
    the network's rule and its table play the very same games."""
    game, solution, optimal = solved["fowl"]
    copy = fit_tree(game, optimal, leaves=len(rule_choice_states(game)))
    rules = {"chickens": game.chickens, "wolves": game.wolves}
    races = simulate_race("fowl-play", game.goal, copy.table, copy.table, 20_000, 5, **rules)
    assert races.agrees_with(solution.first_player_win())
    network = players["fowl", "network"]
    by_rule = simulate_race("fowl-play", game.goal, network.holds, optimal, 2000, 6, **rules)
    by_table = simulate_race("fowl-play", game.goal, network.table, optimal, 2000, 6, **rules)
    assert np.array_equal(by_rule.winner, by_table.winner)


def test_bad_input(solved: dict) -> None:
    game, _, optimal = solved["fowl"]
    for call, field in [
        (lambda: fit_network(game, optimal, hidden=0), "hidden"),
        (lambda: fit_network(game, optimal, iterations=0), "iterations"),
        (lambda: fit_tree(game, optimal, leaves=1), "leaves"),
        (lambda: fit_tree(game, optimal, samples=0), "samples"),
        (lambda: fit_tree(game, optimal, seed=-1), "seed"),
        (lambda: fit_tree(FowlPlay(chickens=8, wolves=2, goal=9), optimal), "shape"),
        (lambda: fit_tree(Pig(goal=1), PolicyTable(np.zeros((1, 1, 1, 1, 1), bool))), "goal"),
    ]:
        with pytest.raises(ModelError, match=field):
            call()
