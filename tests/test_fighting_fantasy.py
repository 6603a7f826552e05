"""Fighting Fantasy: the fast sweep against the generic engine, closed forms, outcomes, CLI.

The independent numpy simulator is tested in ``test_ff_simulator.py``, the Fraction
recursion oracle in ``test_ff_oracle.py`` and the formulas are proved in ``proofs/``.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import run
from memory_probe import peak_added

from exactprob.engine.exact.policies import evaluate
from exactprob.engine.exact.solving import solve_model as solve  # the generic engine, not the grid
from exactprob.errors import ModelError, ResourceError, StateLimitError
from exactprob.games.fighting_fantasy import (
    LUCK,
    NO_LUCK,
    Fight,
    FightModel,
    Objective,
    atlas,
    atlas_states,
    best_heuristics,
    engine_policy,
    fight_outcomes,
    fight_report,
    fight_solution,
    fold_increases,
    heuristic,
    luck_probability,
    no_luck_value,
    rolls,
    round_counts,
    round_odds,
    simulate_fight,
    solve_grid,
)
from exactprob.games.fighting_fantasy.atlas import atlas_bytes, atlas_csv_bytes
from exactprob.games.fighting_fantasy.fight_arrays import FightArrays, round_start
from exactprob.games.fighting_fantasy.grid import grid_bytes
from exactprob.util import resources

SMALL = (6, 5, 4)  # hero stamina, opponent stamina, luck of the equality grids


def _two_dice_enumerated(delta: int) -> tuple[int, int, int]:
    """Win / draw / lose counts by listing the 6**4 rolls."""
    counts = [0, 0, 0]
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        y = (c + d) - (a + b)
        counts[0 if y < delta else 1 if y == delta else 2] += 1
    return counts[0], counts[1], counts[2]


@pytest.mark.parametrize("delta", range(-12, 13))
def test_round_counts_equal_enumeration(delta: int) -> None:
    assert round_counts(delta) == _two_dice_enumerated(delta)


def test_spec_row_and_luck_probabilities() -> None:
    assert round_odds(0).win == round_odds(0).lose == Fraction(575, 1296)
    assert round_odds(0).draw == Fraction(146, 1296)
    assert [luck_probability(l) * 36 for l in range(14)] == [
        0,
        0,
        1,
        3,
        6,
        10,
        15,
        21,
        26,
        30,
        33,
        35,
        36,
        36,
    ]


def _engine_values(delta: int, rule: str, objective: Objective | None = None, policy=None) -> dict:
    """Every round-start state's value from the generic engine, from each grid state."""
    values: dict = {}
    H, O, L = SMALL
    for h, o, l in itertools.product(range(1, H + 1), range(1, O + 1), range(L + 1)):
        for streak in (False, True) if rule == "crypt" else (False,):
            state = ("round", h, o, l, streak)
            if state in values:
                continue
            model = FightModel(Fight(delta, h, o, l, rule=rule, objective=objective))
            model.initial = state
            solution = solve(model) if policy is None else evaluate(model, engine_policy(policy))
            for s in solution.states:
                if s[0] == "round" and s[1] > 0 and s[2] > 0:
                    values[s] = solution.value(s)
    return values


@pytest.mark.parametrize("rule", ["standard", "amplify3", "crypt"])
@pytest.mark.parametrize("delta", [-3, 0, 2])
def test_grid_equals_generic_engine_on_every_state(rule: str, delta: int) -> None:
    grid = solve_grid(Fight(delta, *SMALL, rule=rule))
    values = _engine_values(delta, rule)
    assert len(values) == SMALL[0] * SMALL[1] * (SMALL[2] + 1) * (2 if rule == "crypt" else 1)
    for (_, h, o, l, streak), value in values.items():
        assert grid.value(h, o, l, streak) == value, (h, o, l, streak)


@pytest.mark.parametrize("rule", ["standard", "amplify3", "crypt"])
@pytest.mark.parametrize("delta", [-3, 0, 2, 11])
def test_the_fight_explored_in_bulk_equals_the_grid(rule: str, delta: int) -> None:
    """FightArrays (an ArrayModel of every start of the grid at once) through the generic
    engine: every value, the luck decisions and their exact ties equal the grid's."""
    objective = Objective(keep_stamina=2, luck_weight=Fraction(1, 10)) if delta == 2 else None
    grid = solve_grid(Fight(delta, *SMALL, rule=rule, objective=objective))
    solution = solve(FightArrays(Fight(delta, *SMALL, rule=rule, objective=objective)))
    H, O, L = SMALL
    for h, o, l in itertools.product(range(1, H + 1), range(1, O + 1), range(L + 1)):
        assert solution.value(round_start(h, o, l)) == grid.value(h, o, l)
        for won, chance in zip((True, False), round_counts(delta)[::2]):
            if l >= 1 and rule != "crypt" and chance:  # at Δ = 11 no round is ever lost
                after = (1 if won else 2, h + 2, o + 3, l, 0)
                tie = grid.is_tie(won, h, o, l)
                assert tie == (solution.ties(after) == (NO_LUCK, LUCK))
                if not tie:
                    assert (solution.policy(after) == LUCK) == grid.uses_luck(won, h, o, l)


@pytest.mark.parametrize("pair", [(1, 3), (3, 6), (5, 2), (8, 7)])
@pytest.mark.parametrize("rule", ["standard", "crypt"])
def test_heuristic_values_equal_engine_evaluation(pair: tuple[int, int], rule: str) -> None:
    policy = heuristic(*pair)
    grid = solve_grid(Fight(1, *SMALL, rule=rule), policy=policy)
    for (_, h, o, l, streak), value in _engine_values(1, rule, policy=policy).items():
        assert grid.value(h, o, l, streak) == value


def test_retention_objective_equals_engine() -> None:
    objective = Objective(keep_stamina=3, luck_weight=Fraction(1, 7))
    grid = solve_grid(Fight(0, *SMALL, objective=objective))
    for (_, h, o, l, _), value in _engine_values(0, "standard", objective).items():
        assert grid.value(h, o, l) == value


def test_engine_decisions_and_ties_agree_with_grid() -> None:
    grid = solve_grid(Fight(0, *SMALL))
    solution = solve(FightModel(Fight(0, *SMALL)))
    for s in solution.states:
        phase, h, o, l, _streak = s
        if phase in ("won", "lost") and h > 0 and o > 0 and l >= 1:
            won = phase == "won"
            tie = grid.is_tie(won, h, o, l)
            assert tie == (solution.ties(s) == (NO_LUCK, LUCK))
            if not tie:
                assert (solution.policy(s) == LUCK) == grid.uses_luck(won, h, o, l)


@pytest.mark.parametrize("delta", range(-9, 10))
def test_no_luck_closed_form_equals_grid(delta: int) -> None:
    grid = solve_grid(Fight(delta, 24, 24, 0))
    odds = round_odds(delta)
    for h, o, _ in grid.states():
        assert grid.value(h, o, 0) == no_luck_value(odds.win, odds.lose, h, o)


def test_hand_derived_values() -> None:
    # one hit each, no luck: the first decisive round decides, p = w / (w + l)
    w, _, l = round_counts(-3)
    assert solve_grid(Fight(-3, 2, 2, 0)).value(2, 2, 0) == Fraction(w, w + l)
    # luck 12 always succeeds: against 4 stamina a won round with luck kills outright,
    # and a lost round costs 1; hero with 1 stamina: only the first decisive round counts
    w, _, l = round_counts(0)
    assert solve_grid(Fight(0, 1, 4, 12)).value(1, 4, 12) == Fraction(w, w + l)
    # crypt: hero 3 stamina (two losses kill anyway), opponent 2 stamina, no luck
    w, d, l = (Fraction(n, 1296) for n in round_counts(0))
    first = w / (w + l)  # the first decisive round
    # after a loss the streak flag is set: win w, draw d (flag cleared, then 1/2), loss kills
    after_loss = w + d * Fraction(1, 2)
    assert (
        solve_grid(Fight(0, 3, 2, 0, rule="crypt")).value(3, 2, 0)
        == first + (1 - first) * after_loss
    )


def test_outcomes_match_engine_absorption() -> None:
    for rule in ("standard", "crypt"):
        grid = solve_grid(Fight(1, 7, 8, 5, rule=rule))
        result = fight_outcomes(grid, 7, 8, 5)
        absorbed: dict = {}
        for (_, h, o, l, _), p in (
            solve(FightModel(Fight(1, 7, 8, 5, rule=rule))).absorption().items()
        ):
            key = (o <= 0, max(h, 0), l)
            absorbed[key] = absorbed.get(key, 0) + p
        assert dict(result.final) == absorbed
        assert result.win == grid.value(7, 8, 5)
        assert sum(result.luck_spent.values()) == 1
        assert max(result.decisive_rounds) <= 7 + 8


def test_expected_rounds_without_luck_hand_derived() -> None:
    # one hit each: a single decisive round, preceded by geometric draws
    w, _d, l = round_counts(0)
    assert fight_outcomes(solve_grid(Fight(0, 2, 2, 0)), 2, 2, 0).expected_rounds == Fraction(
        1296, w + l
    )


def test_heuristics_never_beat_the_optimum() -> None:
    best, histograms = best_heuristics(Fight(0, 6, 6, 12))
    optimum = solve_grid(Fight(0, 6, 6, 12))
    for state, choice in best.items():
        assert choice.gap == optimum.value(*state) - choice.value >= 0
    assert all(sum(h.values()) <= 6 * 6 * 13 for h in histograms.values())


def test_fold_increase_is_optimum_over_no_luck() -> None:
    grids = {d: solve_grid(Fight(d, 8, 8, 12)) for d in (-2, 0)}
    folds = fold_increases(grids)
    top = folds["overall"]
    grid = grids[top.delta]
    assert top.fold == grid.value(*top.state) / grid.value(top.state[0], top.state[1], 0)
    assert all(f.fold <= top.fold for f in folds.values())


def test_certain_outcomes_beyond_the_dice() -> None:
    assert solve_grid(Fight(10, 5, 30, 12)).value(5, 30, 12) == 1
    assert solve_grid(Fight(-10, 30, 1, 12)).value(30, 1, 12) == 0


def test_bad_grid_input() -> None:
    with pytest.raises(ModelError, match="hero stamina"):
        solve_grid(Fight(0, 0, 4, 0))
    with pytest.raises(ModelError, match="unknown rule"):
        solve_grid(Fight(0, 4, 4, 0, rule="house"))
    with pytest.raises(StateLimitError, match="1,000,000"):
        solve_grid(Fight(0, 1000, 1000, 0), max_states=999_999)
    with pytest.raises(ModelError, match="luck must be an integer in 0..2"):
        solve_grid(Fight(0, 4, 4, 2)).value(4, 4, 3)


def test_atlas_summary_counts_every_state(tmp_path: Path) -> None:
    small = atlas(deltas=[-1, 0], max_stamina=5, max_luck=3)
    summary = small.summary()
    assert summary["states"] == 2 * 5 * 5 * 4 == sum(summary["strategies"].values())
    out = tmp_path / "atlas.csv"
    small.write_csv(out)
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + summary["states"]


# -- CLI -----------------------------------------------------------------------------------
def test_cli_fight_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ff", "--hero", "10", "6", "7", "--opponent", "9", "5", "--json")
    assert code == 0
    payload = json.loads(out)
    grid = solve_grid(Fight(1, 6, 5, 7))
    assert Fraction(payload["win"]) == grid.value(6, 5, 7)
    assert payload["strategy"] == grid.strategy(6, 5, 7)
    w, _, l = round_counts(1)
    assert Fraction(payload["no_luck_win"]) == no_luck_value(Fraction(w), Fraction(l), 6, 5)
    assert sum(Fraction(p) for p in payload["luck_spent"].values()) == 1


def test_cli_rounds_law(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("ff", "--hero", "10", "6", "3", "--opponent", "9", "5", "--rounds", "4")
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    rounds = json.loads(out)["rounds"]
    law = fight_solution(solve_grid(Fight(1, 6, 5, 3)), 6, 5, 3).counter_distribution(rolls, cap=4)
    assert rounds == {("4+" if k == 4 else str(k)): str(p) for k, p in law.items()}
    assert sum(Fraction(p) for p in rounds.values()) == 1
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "4+ rounds" in out and "3 rounds" in out


def test_cli_text_and_certain_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ff", "--hero", "20", "10", "3", "--opponent", "10", "10")
    assert code == 0 and "cannot lose" in out and "= 1" in out


def test_cli_heuristic_and_rule(capsys: pytest.CaptureFixture[str]) -> None:
    argv = (
        "ff",
        "--hero",
        "9",
        "8",
        "9",
        "--opponent",
        "9",
        "8",
        "--rule",
        "crypt",
        "--policy",
        "heuristic:2:7",
        "--json",
    )
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert Fraction(json.loads(out)["win"]) == solve_grid(
        Fight(0, 8, 8, 9, rule="crypt"), policy=heuristic(2, 7)
    ).value(8, 8, 9)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--hero", "12", "24", "--opponent", "10", "10"), "--hero takes 3 numbers"),
        (("--hero", "12", "24", "12", "1", "--opponent", "10", "10"), "got 4"),
        (
            ("--hero", "12", "-3", "12", "--opponent", "10", "10"),
            "--hero STAMINA must be a whole number",
        ),
        (("--hero", "12", "24", "x", "--opponent", "10", "10"), "--hero LUCK"),
        (("--hero", "12", "24", "12", "--opponent", "10.5", "10"), "--opponent SKILL"),
        (("--hero", "12", "24", "12"), "--opponent SKILL STAMINA is required"),
        (
            ("--hero", "12", "24", "12", "--opponent", "1", "1", "--policy", "lucky"),
            "--policy must be",
        ),
        (("--hero", "12", "24", "12", "--opponent", "1", "1", "--policy", "heuristic:2:0"), "TAU"),
        (("--hero", "12", "400", "12", "--opponent", "10", "400"), "2,080,000 states"),
        (
            ("--hero", "12", "24", "12", "--opponent", "1", "1", "--rounds", "0"),
            "--rounds must be a whole number from 1 to 1000, got 0",
        ),
        (("atlas",), "needs --out"),
        (("atlas", "--out", "/nonexistent-dir/a.csv"), "does not exist"),
    ],
)
def test_cli_bad_input(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "ff", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("rule", ["standard", "crypt"])
def test_outcome_expectations_agree_with_simulation(rule: str) -> None:
    """Mean rounds (draws included), mean luck spent and mean stamina left on victory
    from the forward pass, against the independent simulator (5 standard errors)."""
    grid = solve_grid(Fight(-1, 12, 10, 9, rule=rule))
    exact = fight_outcomes(grid, 12, 10, 9)
    simulated = simulate_fight(
        Fight(-1, 12, 10, 9, rule=rule), policy=grid.policy_function(), n=40_000, seed=7
    )
    assert simulated.agrees_with(exact.win)
    assert simulated.sample(simulated.rounds).agrees_with(exact.expected_rounds)
    assert simulated.sample(simulated.luck_spent).agrees_with(exact.luck_spent.mean())
    kept = simulated.hero_stamina * simulated.won
    assert simulated.sample(kept).agrees_with(exact.final.map(lambda end: end[1] * end[0]).mean())


@pytest.mark.parametrize("rule", ["standard", "crypt"])
def test_round_count_law_agrees_with_simulation(rule: str) -> None:
    """The exact law of the number of rounds, draws included (a counter on the engine's
    solution, capped: draws can repeat any number of times), against the simulator's
    round counts, one probability at a time (5 standard errors)."""
    grid = solve_grid(Fight(0, 6, 6, 3, rule=rule))
    cap = 12
    law = fight_solution(grid, 6, 6, 3).counter_distribution(rolls, cap=cap)
    assert sum(law.values()) == 1
    simulated = simulate_fight(
        Fight(0, 6, 6, 3, rule=rule), policy=grid.policy_function(), n=40_000, seed=11
    )
    rounds = simulated.rounds
    for k in range(1, cap):
        assert simulated.sample(rounds == k).agrees_with(law[k])
    assert simulated.sample(rounds >= cap).agrees_with(law[cap])


def test_cli_atlas_writes_data_and_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, figures = tmp_path / "atlas.csv", tmp_path / "figures"
    argv = (
        "ff",
        "atlas",
        "--out",
        str(out),
        "--figures",
        str(figures),
        "--max-stamina",
        "3",
        "--max-luck",
        "1",
        "--json",
    )
    code, printed, _ = run(capsys, *argv)
    assert code == 0
    summary = json.loads(printed)
    assert summary["states"] == 19 * 3 * 3 * 2 == len(out.read_text().splitlines()) - 1
    assert sorted(p.name for p in figures.iterdir()) == sorted(
        Path(p).name for p in summary["figures"]
    )
    assert not list(tmp_path.glob(".atlas.csv.*"))  # no temporary left behind


@pytest.mark.parametrize("grid", [(2, 300, 100, 6), (-3, 120, 120, 24)])
def test_the_grid_memory_estimate_bounds_the_measured_peak(grid: tuple[int, ...]) -> None:
    """grid_bytes, checked before a grid is solved, against the peak resident memory a
    fresh process adds solving it: at least the measured peak, at most three times it."""
    delta, hero, opponent, luck = grid
    measured = peak_added(
        "from exactprob.games.fighting_fantasy import Fight, solve_grid",
        f"solve_grid(Fight({delta}, {hero}, {opponent}, {luck}))",
    )
    estimate = grid_bytes(Fight(delta, hero, opponent, luck))
    assert measured <= estimate <= 3 * measured


def test_a_grid_beyond_memory_is_refused_before_any_work() -> None:
    with pytest.raises(ResourceError, match="the fight's grid needs about .* TiB of memory"):
        solve_grid(Fight(0, 500_000, 2, 0))


def test_the_atlas_is_refused_up_front_past_its_state_limit() -> None:
    # one delta, staminas 1..3, luck 0..1: 3 * 3 * 2 = 18 states
    assert atlas_states(3, 1, [0]) == 18
    assert len(atlas([0], max_stamina=3, max_luck=1, max_states=18).grids) == 1
    with pytest.raises(StateLimitError, match="the atlas has 18 states, more than the limit of 17"):
        atlas([0], max_stamina=3, max_luck=1, max_states=17)


@pytest.mark.parametrize("size", [(24, 12), (60, 0), (40, 3)])
def test_the_atlas_file_estimate_is_about_the_written_size(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """atlas_csv_bytes, checked before an atlas is solved, against the file written: at
    least its size, at most a quarter more."""
    stamina, luck = size
    out = tmp_path / "atlas.csv"
    atlas(max_stamina=stamina, max_luck=luck).write_csv(out)
    written = out.stat().st_size
    assert written <= atlas_csv_bytes(stamina, luck) <= 1.25 * written


def test_an_atlas_file_past_a_gigabyte_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Staminas to 324 without luck pass the state limit (1,994,544 states), but the file
    would hold about 2.1 GB of exact values (it took minutes): refused at once."""
    out = tmp_path / "atlas.csv"
    argv = ["ff", "atlas", "--max-stamina", "324", "--max-luck", "0", "--out", str(out)]
    status, printed, err = run(capsys, *argv)
    assert (status, printed) == (2, "")
    assert "data file would be about 2.1 GB" in err and "lower --max-stamina" in err
    assert err.count("\n") == 1 and not out.exists()


def test_an_atlas_beyond_memory_is_refused_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every grid of an atlas is kept: their memory adds up, and is checked at once."""
    one_grid = grid_bytes(Fight(0, 100, 100, 0))
    assert atlas_bytes(Fight(delta, 100, 100, 0) for delta in range(3)) == 3 * one_grid
    monkeypatch.setattr(resources, "memory_limit", lambda: (2 * one_grid, "a test limit of"))
    with pytest.raises(ResourceError, match=r"the atlas \(every grid kept\) needs about"):
        atlas(range(3), max_stamina=100, max_luck=0)


@pytest.mark.parametrize("rule", ["standard", "crypt"])
def test_the_chance_without_luck_is_the_chance_of_victory_whatever_the_objective(
    rule: str,
) -> None:
    """The report's "without any luck" is P(victory) with luck 0: an objective (keep 4
    stamina) changes what the luck policy aims at, not that chance (under Crypt it is a
    luck-0 grid, which once took the objective along)."""
    plain = fight_report((9, 12, 6), (9, 12), rule=rule)
    aimed = fight_report((9, 12, 6), (9, 12), rule=rule, objective=Objective(keep_stamina=4))
    assert (
        aimed.no_luck_win
        == plain.no_luck_win
        == solve_grid(Fight(0, 12, 12, 0, rule)).value(12, 12, 0)
    )
