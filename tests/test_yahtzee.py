"""Solitaire Yahtzee: the level model against a per-state model written from the rules,
certified against exact, the simulator against both, the published optimum, the CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from yahtzee_oracle import GreedyOracle, OracleYahtzee, first_best_law

import exactprob as ep
from exactprob.cli import main
from exactprob.engine.levels import cluster as level_cluster
from exactprob.errors import UsageError
from exactprob.games.yahtzee import (
    CATEGORIES,
    STRATEGIES,
    GreedyFills,
    GreedyKeeps,
    GreedyLevels,
    GreedyPlayer,
    ModelPlayer,
    OptimalPlayer,
    Situation,
    YahtzeeLevels,
    YahtzeeRules,
    advise,
    simulate_games,
    yahtzee_report,
)

# Each variant makes one rule matter: extra Yahtzees and both joker readings (the forced
# one sends a sixes Yahtzee to Sixes while Full House is open; the free one scores Full
# House 25 only once Sixes is filled), a joker's straight (free: once Aces is filled),
# the forced reading's last resort (no lower box open: an upper box for 0), the upper
# bonus (three upper boxes reach 63).
VARIANTS = [
    (("Sixes", "Full House", "Yahtzee"), True, True, "free"),
    (("Sixes", "Full House", "Yahtzee"), True, True, "forced"),
    (("Aces", "Small Straight", "Yahtzee"), False, True, "free"),
    (("Aces", "Sixes", "Yahtzee"), True, True, "forced"),
    (("Fours", "Fives", "Sixes"), True, False, "free"),
]


@pytest.mark.slow
@pytest.mark.parametrize("categories, upper_bonus, extra, joker", VARIANTS)
def test_the_level_model_equals_brute_force_exactly(categories, upper_bonus, extra, joker):
    rules = YahtzeeRules(categories, upper_bonus, extra, joker)
    oracle = ep.solve(OracleYahtzee(categories, upper_bonus, extra, joker)).value()
    assert ep.solve(YahtzeeLevels(rules)).value() == oracle


@pytest.mark.slow
@pytest.mark.parametrize("categories, upper_bonus, extra, joker", [VARIANTS[1], VARIANTS[4]])
def test_the_law_of_the_final_score_equals_brute_force(categories, upper_bonus, extra, joker):
    rules = YahtzeeRules(categories, upper_bonus, extra, joker)
    law = ep.solve(YahtzeeLevels(rules)).reward_distribution()
    assert dict(law.items()) == first_best_law(rules)


def test_the_laws_mean_is_the_value_and_the_certified_law_holds_it():
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"))
    for model in (YahtzeeLevels(rules), GreedyLevels(rules)):
        exact = ep.solve(model)
        law = exact.reward_distribution()
        assert law.mean() == exact.value()
        certified = ep.solve(model, method="certified").reward_distribution()
        assert all(certified.probability(x).contains(p) for x, p in law.items())
        assert certified.standard_deviation().contains(law.variance() ** 0.5)


@pytest.mark.parametrize(
    "categories",
    [("Chance", "Three of a Kind"), ("Three of a Kind", "Four of a Kind"), ("Yahtzee", "Aces")],
)
def test_the_certified_law_follows_the_exact_tie_rule_where_keeps_tie(categories):
    # Each game has keeps exactly tied (the last turn's, or a Yahtzee's faces), with
    # different laws: exact mode takes the first; the floats cannot tell an exact tie,
    # so certified mode takes the first within the margin, counted as undecided.
    rules = YahtzeeRules(categories=categories)
    exact = ep.solve(YahtzeeLevels(rules)).reward_distribution()
    assert dict(exact.items()) == first_best_law(rules)  # the oracle, from the rules
    found = ep.solve(YahtzeeLevels(rules), method="certified").reward_distribution()
    assert found.undecided > 0
    assert all(found.probability(x).contains(p) for x, p in exact.items())
    assert found.mean().contains(exact.mean())
    assert found.variance().contains(exact.variance())


class KeepAll(YahtzeeLevels):
    """A player of one's own: keeps all five dice (never rerolls), fills the best."""

    def keep_pick(self, keep_values):
        from exactprob.games.yahtzee.dice import DICE

        return np.broadcast_to(DICE.roll_as_keep, (len(keep_values), len(DICE.rolls)))

    def keep_choice(self, keep_values):
        from exactprob.games.yahtzee.dice import DICE

        return keep_values[:, DICE.roll_as_keep]


def test_a_player_with_its_own_keeps_keeps_them_in_the_certified_law():
    # the margin's tie rule is for the values' best keeps; an overriding player's keeps
    # stand (the certified law followed the best keeps, and excluded the exact mean)
    rules = YahtzeeRules(categories=("Chance", "Yahtzee"))
    exact = ep.solve(KeepAll(rules)).reward_distribution()
    assert exact.mean() == ep.solve(KeepAll(rules)).value()
    found = ep.solve(KeepAll(rules), method="certified").reward_distribution()
    assert found.mean().contains(exact.mean())
    assert all(found.probability(x).contains(p) for x, p in exact.items())


@given(st.lists(st.integers(0, 3), min_size=462, max_size=462))
def test_a_near_tie_goes_to_the_first_keep_within_the_margin(values):
    from exactprob.games.yahtzee.dice import DICE

    model = YahtzeeLevels(YahtzeeRules(categories=("Chance",)))
    keep_values = np.array([values], dtype=float) / 2  # steps of 1/2: margin 0.6 spans one
    best = DICE.best_keep(keep_values)
    picked, undecided = model._keeps_within(keep_values, best, 0.6)
    within = DICE.keeps_within(np.arange(len(DICE.rolls)))
    open_rolls = 0
    for r in range(len(DICE.rolls)):
        near = [k for k in np.flatnonzero(within[r]) if keep_values[0, k] >= best[0, r] - 0.6]
        assert picked[0, r] == near[0]  # keeps are listed in the order of the tie rule
        open_rolls += len(near) > 1
    assert undecided == open_rolls
    assert (
        model._keeps_within(keep_values, best, 0.0)[0] == DICE.best_keep_index(keep_values)
    ).all()


def test_one_turn_of_yahtzee_is_the_known_chance():
    # P(Yahtzee within three rolls, keeping the most common face) = 2,783,176 / 6^10
    # (the classic count, e.g. Verhoeff's Yahtzee pages)
    rules = YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False)
    assert ep.solve(YahtzeeLevels(rules)).value() == 50 * Fraction(2_783_176, 6**10)


@given(
    st.lists(st.sampled_from(CATEGORIES), min_size=1, max_size=2, unique=True),
    st.booleans(),
    st.sampled_from(["free", "forced"]),
)
def test_the_certified_enclosure_holds_the_exact_value(categories, extra, joker):
    model = YahtzeeLevels(YahtzeeRules(tuple(categories), True, extra, joker))
    exact = ep.solve(model).value()
    box = ep.solve(model, method="certified").value()
    assert box.contains(exact) and 0 < box.width() < Fraction(1, 10**9)


def test_two_symmetric_keeps_tie_exactly_and_the_tie_is_reported():
    # With Sixes, Full House and Yahtzee, a 2 and a 3 play the same part: keeping either
    # beside three sixes is worth exactly the same.
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"))
    solved = ep.solve(YahtzeeLevels(rules))
    advice = advise(solved, Situation(rules, rules.categories, (6, 6, 6, 2, 3), rolls=2))
    options = dict(advice.options)
    assert options["keep 2 6 6 6"] == options["keep 3 6 6 6"]
    assert advice.best == "keep 6 6 6" and advice.ties == ("keep 6 6 6",)
    certified = ep.solve(YahtzeeLevels(rules), method="certified")
    boxes = dict(advise(certified, Situation(rules, rules.categories, (6, 6, 6, 2, 3), 2)).options)
    assert all(boxes[name].contains(value) for name, value in options.items())


def test_the_advice_ties_are_the_brute_force_ties():
    # One Yahtzee turn, 1 2 3 4 5 after the first roll: the per-state model's exact ties
    # among its keeps are the advice's.
    rules = YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False)
    oracle_model = OracleYahtzee(rules.categories, True, False)
    oracle = ep.solve(
        oracle_model, starts=[(frozenset(rules.categories), 0, False, (1, 2, 3, 4, 5), 2)]
    )
    expected = {" ".join(map(str, kept)) for _, kept in oracle.ties()}
    advice = advise(
        ep.solve(YahtzeeLevels(rules)), Situation(rules, rules.categories, (1, 2, 3, 4, 5), 1)
    )
    found = {name.removeprefix("keep ").replace("reroll all", "") for name in advice.ties}
    assert found == expected and len(found) > 1


def test_after_the_last_roll_the_advice_fills_a_category():
    rules = YahtzeeRules(categories=("Chance", "Yahtzee"), extra_yahtzees=False)
    solved = ep.solve(YahtzeeLevels(rules))
    advice = advise(solved, Situation(rules, rules.categories, (5, 5, 5, 5, 5), rolls=3))
    # 50 now plus Chance's 70/3 to come, against 25 now plus a Yahtzee turn to come
    options = dict(advice.options)
    assert options["fill Yahtzee"] == 50 + Fraction(70, 3)
    assert advice.best == "fill Yahtzee"


def test_the_simulated_optimal_player_scores_the_exact_value_and_beats_greedy():
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"))
    solved = ep.solve(YahtzeeLevels(rules), method="certified")
    optimal = simulate_games(rules, OptimalPlayer(solved), 20_000, seed=7)
    greedy = simulate_games(rules, GreedyPlayer(rules), 20_000, seed=7)
    assert optimal.agrees_with(solved.value().midpoint())
    assert not greedy.agrees_with(solved.value().midpoint())


@pytest.mark.parametrize("model, player", [(YahtzeeLevels, "optimal"), (GreedyLevels, "greedy")])
def test_simulated_scores_follow_the_exact_law(model, player):
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"))
    solved = ep.solve(model(rules))
    law = solved.reward_distribution()
    chosen = OptimalPlayer(solved) if player == "optimal" else GreedyPlayer(rules)
    scores = simulate_games(rules, chosen, 20_000, seed=5).score
    assert set(scores.tolist()) <= set(law)
    # chi-square over the scores, neighbours pooled until each bin expects >= 20 games
    outcomes = sorted(law)
    edges, expected, pooled = [outcomes[0]], [], 0.0
    for i, x in enumerate(outcomes):
        pooled += float(law[x]) * len(scores)
        if pooled >= 20:
            expected.append(pooled)
            edges.append(outcomes[i + 1] if i + 1 < len(outcomes) else x + 1)
            pooled = 0.0
    expected[-1] += pooled
    edges[-1] = outcomes[-1] + 1
    observed = np.histogram(scores, bins=edges)[0]
    assert (
        scipy.stats.chisquare(observed, np.array(expected) * len(scores) / sum(expected)).pvalue
        > 1e-3
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "keeps, fills", [("greedy", "best"), ("best", "greedy"), ("greedy", "greedy")]
)
def test_each_strategy_is_the_brute_force_game_with_its_choices_forced(keeps, fills):
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"), joker="forced")
    strategy = (
        {"best": GreedyKeeps, "greedy": GreedyLevels}[fills] if keeps == "greedy" else GreedyFills
    )
    assert ep.solve(strategy(rules)).value() == ep.solve(GreedyOracle(rules, keeps, fills)).value()


def test_each_strategy_loses_to_optimal_play_and_scores_its_value_in_play():
    rules = YahtzeeRules(categories=("Aces", "Full House", "Yahtzee"))
    optimal = ep.solve(YahtzeeLevels(rules)).value()
    values = {name: ep.solve(strategy(rules)).value() for name, strategy in STRATEGIES.items()}
    both = values["greedy keeps and categories"]
    assert all(both <= value < optimal for value in values.values())
    for strategy in (GreedyKeeps, GreedyFills):
        solved = ep.solve(strategy(rules))
        played = simulate_games(rules, ModelPlayer(solved), 4_000, seed=3)
        assert played.agrees_with(solved.value())
    with pytest.raises(UsageError, match="optimal player needs"):
        OptimalPlayer(ep.solve(GreedyFills(rules)))


@pytest.mark.parametrize("joker", ["free", "forced"])
def test_the_greedy_players_value_is_what_it_scores_in_play(joker):
    rules = YahtzeeRules(categories=("Sixes", "Full House", "Yahtzee"), joker=joker)
    value = ep.solve(GreedyLevels(rules)).value()
    played = simulate_games(rules, GreedyPlayer(rules), 20_000, seed=11)
    assert played.agrees_with(value) and value < ep.solve(YahtzeeLevels(rules)).value()


def test_a_player_breaking_the_forced_joker_rule_is_refused():
    rules = YahtzeeRules(categories=("Sixes", "Yahtzee", "Chance"), joker="forced")

    class Stubborn(GreedyPlayer):  # Yahtzee first, then Chance before Sixes, whatever the dice
        def fill(self, sheet, dice):
            return np.select([~sheet.filled[:, 1], ~sheet.filled[:, 2]], [1, 2], 0)

    # A sixes Yahtzee in turn 2 (about 1 game in 130) must fill Sixes; Stubborn fills Chance.
    with pytest.raises(UsageError, match="rules do not allow"):
        simulate_games(rules, Stubborn(rules), 2000, seed=1)
    free = YahtzeeRules(categories=("Sixes", "Yahtzee", "Chance"))
    assert simulate_games(free, Stubborn(free), 2000, seed=1).n == 2000


@pytest.mark.slow
def test_the_full_game_contains_the_published_optimum():
    # Verhoeff (1999), Glenn (2006): 254.5896 under optimal play with every rule.
    # The published figure has 4 places: the exact value is within 0.00005 of it.
    box = ep.solve(YahtzeeLevels(), method="certified").value()
    assert box.low > Fraction("254.58955") and box.high < Fraction("254.58965")
    assert box.width() <= Fraction(1, 10**6)


@pytest.mark.slow
def test_the_other_readings_give_their_published_values():
    # The forced joker: 254.5877 (the yahtzee-engine crate); no extra Yahtzees and no
    # joker: 245.87 (Glenn 2006), 245.8708 to four places.
    forced = ep.solve(YahtzeeLevels(YahtzeeRules(joker="forced")), method="certified").value()
    assert Fraction("254.58765") < forced.low and forced.high < Fraction("254.58775")
    plain = ep.solve(YahtzeeLevels(YahtzeeRules(extra_yahtzees=False)), method="certified").value()
    assert Fraction("245.87075") < plain.low and plain.high < Fraction("245.87085")


def test_the_cli_json_has_the_enclosure_ends(capsys):
    assert main(["yahtzee", "--categories", "sixes,yahtzee", "--json", "--dice", "66612"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert Fraction(payload["value_lower"]) <= Fraction(payload["value_upper"])
    assert payload["best"] == "keep 6 6 6" and payload["method"] == "certified"


def test_the_cli_law_is_exact_or_certified_in_json(capsys):
    # no two keeps or categories within the certified margin: the certified law stands
    argv = ["yahtzee", "--categories", "sixes,chance", "--law", "--json"]
    assert main([*argv, "--exact"]) == 0
    exact = json.loads(capsys.readouterr().out)
    chances = {int(x): Fraction(p) for x, p in exact["law"]["probabilities"].items()}
    assert sum(chances.values()) == 1
    assert exact["law"]["mean"] == exact["value"] == str(sum(x * p for x, p in chances.items()))
    assert main(argv) == 0
    law = json.loads(capsys.readouterr().out)["law"]
    assert Fraction(law["mean_lower"]) <= Fraction(exact["value"]) <= Fraction(law["mean_upper"])
    assert set(law["percentiles"]) == {"1", "10", "25", "50", "75", "90", "99"}
    assert law["percentiles"] == exact["law"]["percentiles"]
    assert law["tie_rule"] == exact["law"]["tie_rule"] and law["undecided_choices"] == 0


def test_a_small_game_whose_certified_law_meets_ties_is_given_its_exact_law(capsys):
    # Two exactly tied keeps on the last turn give variances 87.13 and 86.85: the
    # certified command gives exact mode's law, not a float's pick among them.
    argv = ["yahtzee", "--categories", "chance,three of a kind", "--law", "--json"]
    assert main([*argv, "--exact"]) == 0
    exact = json.loads(capsys.readouterr().out)["law"]
    assert main(argv) == 0
    law = json.loads(capsys.readouterr().out)["law"]
    assert law["solved_again_exactly"] and law["method"] == "exact"
    assert law["variance"] == exact["variance"] and law["probabilities"] == exact["probabilities"]


def test_one_local_cluster_serves_every_solve_of_a_report(monkeypatch):
    made = []
    real = level_cluster.dask_client

    def counted(*args, **kwargs):
        made.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(level_cluster, "dask_client", counted)
    rules = YahtzeeRules(categories=("Chance",))
    report = yahtzee_report(rules, strategies=True, simulate=(200, 1), cluster="local")
    assert len(made) == 1 and len(report.strategies) == 3
    assert report.solution.value() == ep.solve(YahtzeeLevels(rules), method="certified").value()


def test_the_cli_draws_the_law(tmp_path, capsys):
    out = tmp_path / "law.png"
    assert main(["yahtzee", "--categories", "chance", "--plot", str(out), "--simulate", "200"]) == 0
    assert out.stat().st_size > 1000
    assert "the final score under optimal play (certified; ties to the first keep" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--plot", "law.txt"], "--plot: the file name must end in"),
        (["--dice", "6662"], "--dice must be five faces"),
        (["--categories", "bogus"], "unknown category 'bogus'"),
        (["--roll", "2"], "give --dice too"),
        (["--exact"], "solving this game exactly has"),
        (["--categories", "aces", "--dice", "11111", "--left", "twos"], "categories left"),
        (
            [
                "--categories",
                "aces,yahtzee",
                "--dice",
                "11111",
                "--left",
                "yahtzee",
                "--upper",
                "12",
            ],
            "cannot total 12; they can make 0, 1, 2, 3, 4, 5",
        ),
        (
            ["--categories", "aces,yahtzee", "--dice", "11111", "--yahtzee-50"],
            "only when it is filled",
        ),
        (["--categories", "aces", "--dice", "11111", "--yahtzee-50"], "only with extra Yahtzees"),
        (
            ["--categories", "yahtzee", "--dice", "11111", "--upper", "3"],
            "only with the upper bonus",
        ),
        (
            ["--categories", "sixes,yahtzee", "--dice", "11111", "--left", "sixes,sixes"],
            "one twice",
        ),
        (["--upper", "106", "--dice", "11111"], "from 0 to 105"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    assert main(["yahtzee", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
