"""exactprob.simulate: seeded Monte-Carlo play and the z-score agreement check.

Exact values come from closed forms derived in the comments (not from the solver), so a
disagreement points at the simulator or at the check. All runs are seeded, hence
deterministic; z = 5 makes a false alarm practically impossible.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction as F

import numpy as np
import pytest
from models import DoOver, GamblersRuin, Pig, RedAndBlack, TwoDice

from exactprob import (
    ExactProbError,
    InexactError,
    ModelError,
    UsageError,
    agrees_with,
    simulate,
    solve,
)
from exactprob.engine.simulation import Runs, Simulation
from exactprob.games.gamblers_ruin import closed_form, simulate_ruin


def ruin(i, p, n):
    # h(i) = (r^i - 1)/(r^n - 1), r = q/p (gambler's ruin, derived in test_solve.py)
    r = (1 - p) / p
    return (r**i - 1) / (r**n - 1)


def test_two_dice_mean_and_distribution():
    sim = simulate(TwoDice(), n=4000, seed=1)
    assert sim.n == 4000 and sum(sim.outcomes.values()) == 4000
    assert sim.steps == 2 * 4000  # every play takes exactly two rolls
    assert set(sim.outcomes) <= set(range(-5, 6))
    assert sim.agrees_with(0)  # E[2d6 - 7] = 0, sample std about sqrt(35/6)
    # P(total = 7) = 6/36
    assert agrees_with(F(1, 6), sim.outcomes[0], sim.n)
    assert not sim.agrees_with(1)


def test_gamblers_ruin_agrees():
    p, n = F(2, 5), 5
    sim = simulate(GamblersRuin(p, n, 2), n=5000, seed=7)
    exact = ruin(2, p, n)
    assert exact == F(40, 211)
    assert agrees_with(exact, sim.outcomes[1], sim.n)
    assert sim.agrees_with(exact)
    assert not agrees_with(F(1, 2), sim.outcomes[1], sim.n)  # clearly wrong


def test_do_over_agrees_and_counts_steps():
    # win 1/6, lose 1/3, else repeat: P(win) = (1/6)/(1/2) = 1/3; steps ~ geometric, mean 2
    sim = simulate(DoOver(F(1, 6), F(1, 3)), n=6000, seed=3)
    assert agrees_with(F(1, 3), sim.outcomes[1], sim.n)
    mean_steps = sim.steps / sim.n
    # geometric(1/2): variance (1 - 1/2)/(1/4) = 2, so the standard error is sqrt(2/6000)
    assert abs(mean_steps - 2) <= 5 * math.sqrt(2 / 6000)


@pytest.mark.parametrize("policy_kind", ["solution", "mapping", "callable"])
def test_red_and_black_with_a_policy(policy_kind):
    # bold play, goal 5, from 2, p = 2/5: value 160/589 (derived in test_solve.py)
    model = RedAndBlack(5, F(2, 5), start=2)
    bold = {1: 1, 2: 2, 3: 2, 4: 1}
    policy = {"solution": solve(model), "mapping": bold, "callable": bold.__getitem__}[policy_kind]
    sim = simulate(model, policy, n=5000, seed=11)
    assert agrees_with(F(160, 589), sim.outcomes[1], sim.n)
    assert not agrees_with(ruin(2, F(2, 5), 5), sim.outcomes[1], sim.n)  # timid play's 40/211


def test_pig_two_players_agree():
    # Pig to 3, everybody rolls: 36/43 (hand derivation in test_solve.py)
    sim = simulate(Pig(3), lambda s: "roll", n=4000, seed=5)
    assert agrees_with(F(36, 43), sim.outcomes[1], sim.n)


def test_seeded_runs_are_deterministic():
    a = simulate(GamblersRuin(F(1, 3), 6, 3), n=500, seed=42)
    b = simulate(GamblersRuin(F(1, 3), 6, 3), n=500, seed=42)
    assert a == b
    c = simulate(GamblersRuin(F(1, 3), 6, 3), n=500, seed=43)
    assert (c.outcomes, c.steps) != (a.outcomes, a.steps)


def test_simulation_statistics():
    sim = Simulation(n=4, outcomes=Counter({0: 1, 1: 3}), steps=10)
    assert sim.mean == 0.75
    assert math.isclose(sim.std, math.sqrt(0.75 * 0.25))  # population std of 0,1,1,1
    # constant samples: zero spread demands (numerical) equality
    const = Simulation(n=10, outcomes=Counter({F(1, 2): 10}), steps=10)
    assert const.agrees_with("1/2") and not const.agrees_with("1/3")
    assert const.agrees_with(0.5)
    with pytest.raises(InexactError):
        const.agrees_with(0.1)


def test_agrees_with_z_bound():
    # p = 1/2, n = 10000: standard error 0.005, so 5 sigma = 0.025, i.e. 250 hits
    assert agrees_with(F(1, 2), 5240, 10000)
    assert agrees_with(F(1, 2), 4760, 10000)
    assert not agrees_with(F(1, 2), 5260, 10000)
    assert not agrees_with(F(1, 2), 4740, 10000)
    assert agrees_with(F(1, 2), 5260, 10000, z=6)  # 5.2 sigma
    assert not agrees_with(F(1, 2), 5100, 10000, z=1)  # 2 sigma


def test_agrees_with_certain_events():
    assert agrees_with(0, 0, 100) and not agrees_with(0, 1, 100)
    assert agrees_with(1, 100, 100) and not agrees_with(1, 99, 100)


@pytest.mark.parametrize(
    "args",
    [
        (F(1, 2), 5, 0),  # n < 1
        (F(1, 2), 11, 10),  # hits > n
        (F(1, 2), -1, 10),  # hits < 0
        (F(3, 2), 1, 10),  # not a probability
        (F(-1, 2), 1, 10),
    ],
)
def test_agrees_with_errors(args):
    with pytest.raises(ExactProbError):
        agrees_with(*args)


def test_agrees_with_refuses_floats():
    with pytest.raises(InexactError):
        agrees_with(0.1, 5, 10)


@pytest.mark.parametrize("n", [0, -3])
def test_simulate_bad_n(n):
    with pytest.raises(ExactProbError):
        simulate(TwoDice(), n=n, seed=1)


def test_simulate_needs_a_policy_for_choices():
    with pytest.raises(ModelError, match="policy"):
        simulate(RedAndBlack(6, F(1, 2)), n=10, seed=1)
    with pytest.raises(ModelError):
        simulate(RedAndBlack(6, F(1, 2)), policy=3, n=10, seed=1)


def test_simulate_max_steps():
    # from 2, reaching 0 or 4 takes at least 2 steps
    with pytest.raises(ExactProbError, match="did not end"):
        simulate(GamblersRuin(F(1, 2), 4, 2), n=5, seed=1, max_steps=1)


def test_simulate_requires_a_seed():
    with pytest.raises(TypeError):
        simulate(TwoDice(), n=10)  # randomness only through an explicit seed


@dataclass(frozen=True, eq=False)
class Hits(Runs):
    """A minimal simulator's answer: one per-run quantity, its result."""

    hit: np.ndarray

    @property
    def result(self) -> np.ndarray:
        return self.hit


def test_runs_check_a_yes_no_result_by_the_exact_binomial_bound():
    # 5,240 hits in 10,000: 4.8 standard errors of p = 1/2, 5,260 are 5.2 (as above)
    for hits, agrees in ((5240, True), (5260, False)):
        runs = Hits(np.arange(10_000) < hits)
        assert runs.n == 10_000 and runs.steps == 0
        assert runs.agrees_with(F(1, 2)) is agrees
        assert runs.agrees_with(F(1, 2), z=6)


def test_runs_check_any_other_quantity_by_its_sample_mean():
    # values 0 and 2, half each: mean 1, sample std 1, standard error 1/sqrt(400) = 1/20
    runs = Hits(np.arange(400) % 2 == 0)
    doubled = 2 * runs.hit.astype(int)
    assert runs.sample(doubled) == Simulation(400, Counter({0: 200, 2: 200}), 0)
    assert runs.agrees_with(1, values=doubled)
    assert runs.agrees_with(F(5, 4), values=doubled)  # 5 standard errors off
    assert not runs.agrees_with(F(26, 20), values=doubled)  # 6
    assert runs.sample() == Simulation(400, Counter({True: 200, False: 200}), 0)


@pytest.mark.parametrize(("goal", "start", "p"), [(5, 2, "2/5"), (10, 3, "18/37"), (4, 2, "1/2")])
def test_the_ruin_simulator_agrees_with_the_closed_form(goal, start, p):
    # the closed form is proved in proofs/proof_gamblers_ruin.py
    plays = simulate_ruin(goal, start, float(F(p)), 20_000, seed=goal)
    assert set(np.unique(plays.fortune)) <= {0, goal}
    assert plays.agrees_with(closed_form(goal, start, p))
    assert not plays.agrees_with(closed_form(goal, start + 1, p))


def test_runs_check_any_zero_one_quantity_by_the_binomial_bound_whatever_its_dtype():
    # no hit in 1,000 runs is 1 standard error of p = 1/1000 below its mean: it agrees; a
    # sample standard deviation of 0 would have demanded the mean exactly
    runs = Hits(np.zeros(1000, dtype=bool))
    for values in (runs.hit, runs.hit.astype(int), runs.hit.astype(float)):
        assert runs.agrees_with(F(1, 1000), values=values)
        assert not runs.agrees_with(F(1, 20), values=values)  # 50 expected, 7.3 errors off
    assert runs.successes == 0


def test_runs_refuse_values_of_another_length_and_an_empty_simulation():
    runs = Hits(np.arange(100) % 2 == 0)
    with pytest.raises(UsageError, match=r"one entry per run \(100\), got shape \(50,\)"):
        runs.agrees_with(F(1, 2), values=np.ones(50, dtype=bool))
    with pytest.raises(UsageError, match="one entry per run"):
        runs.sample(np.ones(101))
    empty = Hits(np.zeros(0, dtype=bool))
    for values in (None, np.zeros(0, dtype=float)):
        with pytest.raises(UsageError, match="no runs to check"):
            empty.agrees_with(F(1, 2), values=values)
