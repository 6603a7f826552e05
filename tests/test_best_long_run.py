"""The best long run of a model with choices (ep.stationary without a policy), against
oracles written here: every deterministic stationary policy of small random multichain
models evaluated by Gauss-Jordan on Puterman's three equations (which fix the gain and
the bias uniquely), the optimality equations checked from the model's own numbers,
Howard's taxicab problem and its published gains, float relative value iteration, a
simulation from the taxicab's rules, and Storm's exact LRA."""

from __future__ import annotations

import itertools
import random
import sys
import warnings
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from test_long_run import Ehrenfest

# Howard's data, and a taxi driven by it from the rules (examples/long_run.py)
sys.path.insert(0, str(Path(__file__).parent.parent / "examples"))
from long_run import TAXICAB, drive

import exactprob as ep
from exactprob import Dist, ModelError


class Table:
    """A model from ``{state: {action: (reward, {next: p})}}`` (``None``: terminal), every
    choice made by ``player``."""

    def __init__(self, moves, initial=0, player=0):
        self.moves, self.initial, self.mover = moves, initial, player

    def outcome(self, s):
        return 0 if self.moves[s] is None else None

    def player(self, s):
        return self.mover

    def actions(self, s):
        return tuple(self.moves[s])

    def transition(self, s, a):
        return Dist(self.moves[s][a][1])

    def reward(self, s, a):
        return self.moves[s][a][0]

    def __repr__(self):
        return f"Table({self.moves!r}, player={self.mover})"


def taxicab() -> Table:
    """Howard's taxicab problem (``examples/long_run.py``'s table of his data) with each
    choice's expected fare as its reward."""
    moves = {
        town: {
            a: (sum(p * r for p, r in zip(chances, fares)), dict(zip("ABC", chances)))
            for a, (chances, fares) in options.items()
        }
        for town, options in TAXICAB.items()
    }
    for options in moves.values():
        for _, law in options.values():
            for town in [t for t, p in law.items() if not p]:
                del law[town]
    return Table(moves, "A")


# -- the oracle: every stationary policy ------------------------------------------------
def solve_consistent(A, b):
    """One solution of the consistent system ``A x = b`` (Fractions) by Gauss-Jordan,
    free variables 0."""
    rows, cols = len(A), len(A[0])
    m = [list(A[i]) + [b[i]] for i in range(rows)]
    pivots, r = [], 0
    for c in range(cols):
        p = next((i for i in range(r, rows) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        m[r] = [x / m[r][c] for x in m[r]]
        for i in range(rows):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[r])]
        pivots.append(c)
        r += 1
    assert all(row[-1] == 0 for row in m[r:]), "inconsistent"
    x = [F(0)] * cols
    for i, c in enumerate(pivots):
        x[c] = m[i][-1]
    return x


def gain_and_bias(P, r):
    """The gain and bias of the chain ``P`` (rows ``{j: p}``) earning ``r``: the unique
    ``g, h`` of ``(I - P) g = 0``, ``g + (I - P) h = r``, ``h + (I - P) w = 0``
    (Puterman, Markov Decision Processes, 1994, Theorem 8.2.6)."""
    n = len(P)
    A, b = [], []
    for block in range(3):
        for i in range(n):
            row = [F(0)] * (3 * n)
            row[block * n + i] += 1
            for j, p in P[i].items():
                row[block * n + j] -= p
            if block:
                row[(block - 1) * n + i] += 1
            A.append(row)
            b.append(r[i] if block == 1 else F(0))
    x = solve_consistent(A, b)
    return x[:n], x[n : 2 * n]


def reachable(table):
    seen, frontier = [table.initial], [table.initial]
    while frontier:
        u = frontier.pop()
        for _, law in (table.moves[u] or {}).values():
            for v in law:
                if v not in seen:
                    seen.append(v)
                    frontier.append(v)
    return seen


def policy_run(table, states, policy):
    """Gain and bias of ``policy`` (``{state: action}``), each ``{state: value}``."""
    index = {s: i for i, s in enumerate(states)}
    P, r = [], []
    for s in states:
        if table.moves[s] is None:
            P.append({index[s]: F(1)})
            r.append(F(0))
        else:
            reward, law = table.moves[s][policy[s]]
            P.append({index[t]: F(p) for t, p in law.items()})
            r.append(F(reward))
    g, h = gain_and_bias(P, r)
    return dict(zip(states, g)), dict(zip(states, h))


def every_policy(table, states):
    choosing = [s for s in states if table.moves[s] is not None]
    for picks in itertools.product(*(list(table.moves[s]) for s in choosing)):
        yield dict(zip(choosing, picks))


@st.composite
def random_models(draw):
    """<= 5 states, each terminal or with 1-3 actions moving to 1-3 states with integer
    weights and an integer reward; at most 48 stationary policies; one mover."""
    n = draw(st.integers(1, 5))
    moves = {}
    for s in range(n):
        if s and draw(st.integers(0, 5)) == 0:
            moves[s] = None
            continue
        options = {}
        for a in range(draw(st.integers(1, 3))):
            targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
            weights = draw(
                st.lists(st.integers(1, 3), min_size=len(targets), max_size=len(targets))
            )
            law = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
            options[f"a{a}"] = (F(draw(st.integers(-3, 3))), law)
        moves[s] = options
    table = Table(moves, 0, draw(st.sampled_from([0, 1])))
    sizes = [len(moves[s]) for s in reachable(table) if moves[s] is not None]
    if sizes and max(sizes) == 1:
        moves[0]["stay"] = (F(draw(st.integers(-3, 3))), {0: F(1)})  # a choice somewhere
    policies = 1
    for s in reachable(table):
        policies *= len(moves[s] or {0: 0})
    if policies > 48:
        return draw(st.nothing())
    return table


@settings(max_examples=80, deadline=None)
@given(random_models())
def test_the_best_gain_is_the_best_of_every_stationary_policy(table):
    """Per state, the gain is the best over every deterministic stationary policy; the
    reported play attains it everywhere, with the bias of Puterman's equations; and every
    tie, swapped in alone, keeps the best gain everywhere."""
    run = ep.stationary(table)
    states = reachable(table)
    best = min if table.mover else max
    runs = {
        tuple(sorted(d.items())): policy_run(table, states, d) for d in every_policy(table, states)
    }
    optimum = {s: best(g[s] for g, _ in runs.values()) for s in states}
    assert {s: run.long_run_average(state=s) for s in states} == optimum
    played = {s: run.policy(s) for s in states if table.moves[s] is not None}
    gain, bias = runs[tuple(sorted(played.items()))]
    assert gain == optimum
    assert {s: run.bias(s) for s in states} == bias
    for s, a in played.items():
        assert a in run.ties(s)
        for tie in run.ties(s):
            assert runs[tuple(sorted({**played, s: tie}.items()))][0] == optimum


def assert_optimality_equations(table, run):
    """From the model's own numbers: g(s) = best_a sum P g; g(s) + h(s) = best over the
    actions keeping g of r + sum P h; the ties are exactly the actions attaining both."""
    best = min if table.mover else max
    for s in run.states:
        if table.moves[s] is None:
            assert run.long_run_average(state=s) == 0 and run.ties(s) == ()
            continue
        g, h = run.long_run_average(state=s), run.bias(s)

        def expected(values, law):
            return sum(p * values(t) for t, p in law.items())

        options = table.moves[s]
        reach = {
            a: expected(lambda t: run.long_run_average(state=t), law)
            for a, (_, law) in options.items()
        }
        assert best(reach.values()) == g
        earn = {a: r + expected(run.bias, law) for a, (r, law) in options.items() if reach[a] == g}
        assert best(earn.values()) == g + h
        assert set(run.ties(s)) == {a for a, x in earn.items() if x == g + h}
        assert run.policy(s) in run.ties(s)


@settings(max_examples=80, deadline=None)
@given(random_models())
def test_the_answer_solves_the_optimality_equations_and_its_ties_are_all_that_do(table):
    assert_optimality_equations(table, ep.stationary(table))


def blocks(n, seed, mover=0):
    """``n`` states in blocks of 30 that moves seldom leave (so several closed classes,
    and transient states between them), 1-3 actions each, rewards 0..5."""
    rng = random.Random(seed)
    moves = {}
    for s in range(n):
        block = s - s % 30
        options = {}
        for a in range(rng.randint(1, 3)):
            near = [block + rng.randrange(min(30, n - block)) for _ in range(rng.randint(1, 3))]
            far = [rng.randrange(n)] if rng.random() < 0.05 else []
            targets = sorted(set(near + far))
            weights = [rng.randint(1, 4) for _ in targets]
            law = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
            options[a] = (F(rng.randint(0, 5)), law)
        moves[s] = options
    return Table(moves, 0, mover)


@pytest.mark.parametrize(("seed", "mover"), [(1, 0), (2, 1), (3, 0)])
def test_a_hundred_states_in_blocks_match_storm_and_the_equations(seed, mover):
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_long_run_average

    table = blocks(120, seed, mover)
    run = ep.stationary(table)
    assert_optimality_equations(table, run)
    assert storm_long_run_average(run.graph.to_networkx()) == run.long_run_average()


@settings(max_examples=40, deadline=None)
@given(random_models())
def test_the_best_long_run_matches_storm(table):
    """Storm takes rewards of one sign: each reward raised by 3 (a new model, not a
    shift of the answer: terminal states still earn 0)."""
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_long_run_average

    moves = {
        s: None if options is None else {a: (r + 3, law) for a, (r, law) in options.items()}
        for s, options in table.moves.items()
    }
    run = ep.stationary(Table(moves, table.initial, table.mover))
    assert storm_long_run_average(run.graph.to_networkx()) == run.long_run_average()


# -- the taxicab problem ----------------------------------------------------------------
def test_howards_taxicab_gains_are_the_published_ones():
    """Howard's first policy (the largest expected fare in each town) earns 9.2 a trip;
    the best (the cab stand in every town) 13.34, as published."""
    first = ep.stationary(taxicab(), policy=lambda town: "cruise")
    assert first.long_run_average() == F(46, 5)
    best = ep.stationary(taxicab())
    assert best.policy_map() == {"A": "cab stand", "B": "cab stand", "C": "cab stand"}
    assert round(float(best.long_run_average()), 2) == 13.34
    assert all(best.ties(town) == ("cab stand",) for town in "ABC")


def test_float_relative_value_iteration_finds_the_same_gain_and_play():
    """Relative value iteration in floats (the taxicab chain is unichain and aperiodic
    under every policy) converges to the exact gain and picks the same actions."""
    table = taxicab()
    h = {s: 0.0 for s in "ABC"}
    for _ in range(2000):
        value = {
            s: max(
                float(r) + sum(float(p) * h[t] for t, p in law.items())
                for r, law in table.moves[s].values()
            )
            for s in "ABC"
        }
        gain, h = value["A"], {s: v - value["A"] for s, v in value.items()}
    run = ep.stationary(table)
    assert gain == pytest.approx(float(run.long_run_average()), abs=1e-9)
    for s in "ABC":
        options = table.moves[s]
        chosen = max(
            options,
            key=lambda a: (
                float(options[a][0]) + sum(float(p) * h[t] for t, p in options[a][1].items())
            ),
        )
        assert chosen == run.policy(s)


def test_a_taxi_driven_from_the_rules_earns_the_best_gain():
    """300,000 trips drawn from Howard's tables under the solved policy average the
    exact gain within five standard errors (batch means of 1,000 trips)."""
    run = ep.stationary(taxicab())
    mean, error = drive(run.policy_map(), 300_000)
    assert abs(mean - float(run.long_run_average())) < 5 * error


# -- who chooses, and what the answer needs ---------------------------------------------
def test_a_minimising_mover_gets_the_smallest_cost():
    costs = taxicab()
    costs.mover = 1
    run = ep.stationary(costs)
    states = list("ABC")
    cheapest = min(policy_run(costs, states, d)[0]["A"] for d in every_policy(costs, states))
    assert run.long_run_average() == cheapest
    assert run.long_run_average() < F(46, 5)


class Game(Table):
    def player(self, s):
        return 0 if s == "A" else 1


def test_refusals_name_what_is_missing():
    with pytest.raises(
        ModelError, match=r"both players choose \(player 0 in 'A', player 1 in 'B'\)"
    ):
        ep.stationary(Game(taxicab().moves, "A"))
    p = sympy.Symbol("p")
    symbolic = Table({0: {"stay": (1, {0: 1}), "go": (0, {0: p, 1: 1 - p})}, 1: None})
    with pytest.raises(ModelError, match=r"holds symbols \(p\)"):
        ep.stationary(symbolic)


def test_a_chain_has_its_one_action_and_a_bias():
    """A chain's play is its only action; its bias solves g + h = r + P h with the
    stationary law's weighted bias 0 (the two-state chain of the evaluation's doctest)."""
    chain = Table({0: {"go": (3, {1: 1})}, 1: {"go": (0, {0: F(1, 2), 1: F(1, 2)})}})
    run = ep.stationary(chain)
    assert run.policy(0) == "go" and run.ties(1) == ("go",)
    assert (run.bias(0), run.bias(1)) == (F(4, 3), F(-2, 3))
    assert run.bias(0, reward=lambda s: 1) == 0


# -- what floats cannot tell apart ------------------------------------------------------
TINY = F(1, 10**30)


@pytest.mark.parametrize(
    ("extra", "ties"),
    [(TINY, ("b",)), (0, ("a", "b")), (-TINY, ("a",))],
)
def test_rewards_floats_cannot_separate_are_compared_exactly(extra, ties):
    """Two loops earning 1 and 1 + extra: the best gain, and the ties, exactly."""
    loops = Table({0: {"a": (1, {0: 1}), "b": (1 + extra, {0: 1})}})
    run = ep.stationary(loops)
    assert run.long_run_average() == 1 + max(extra, 0)
    assert run.ties(0) == ties


@pytest.mark.parametrize(
    ("extra", "ties"),
    [(TINY, ("b",)), (0, ("a", "b")), (-TINY, ("a",))],
)
def test_biases_floats_cannot_separate_are_compared_exactly(extra, ties):
    """From a start that never returns, two ways into one loop with equal gain: the
    way paying 2 + extra against 2 on the way in wins on bias alone, exactly."""
    ways = Table(
        {
            "start": {"a": (2, {"loop": 1}), "b": (2 + extra, {"loop": 1})},
            "loop": {"go": (5, {"loop": 1})},
        },
        "start",
    )
    run = ep.stationary(ways)
    assert run.long_run_average() == 5
    assert run.ties("start") == ties
    assert run.bias("start") == -3 + max(extra, 0)


def test_a_tie_whose_float_sums_differ_is_still_a_tie():
    """1/50 + 1/20 = 1/100 + 3/50 exactly, though their float sums differ: a tie."""
    paths = Table(
        {
            "s": {"a": (F(1, 50), {"u": 1}), "b": (F(1, 100), {"v": 1})},
            "u": {"go": (F(1, 20), {"z": 1})},
            "v": {"go": (F(3, 50), {"z": 1})},
            "z": {"stay": (0, {"z": 1})},
        },
        "s",
    )
    assert ep.stationary(paths).ties("s") == ("a", "b")


def test_float_sums_that_overflow_are_decided_exactly():
    """Rewards near the largest double: the float sums overflow, so every comparison is
    exact; looping back through s1 (91 a move) beats settling at z (90 a move)."""
    e = 10**306
    loop = Table(
        {
            "s0": {"a": (100 * e, {"s2": 1}), "b": (91 * e, {"s1": 1})},
            "s1": {"go": (91 * e, {"s0": 1})},
            "s2": {"go": (175 * e, {"z": 1})},
            "z": {"stay": (90 * e, {"z": 1})},
        },
        "s0",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run = ep.stationary(loop)
    assert (run.policy("s0"), run.ties("s0"), run.long_run_average()) == ("b", ("b",), 91 * e)


# -- the derivation ---------------------------------------------------------------------
def test_the_taxicab_derivation_writes_the_law_gain_bias_and_margins_found_here():
    """Each number the derivation prints, from this file's own solves: the stationary
    law (pi P = pi, sum 1, by Gauss-Jordan), the bias of the best play (Puterman's
    equations) and each decision's margin (r + P h of the two best actions)."""
    from exactprob.util.mathdoc import latex_number

    table = taxicab()
    best = dict.fromkeys("ABC", "cab stand")
    towns = list("ABC")
    P = [{towns.index(t): p for t, p in table.moves[s][best[s]][1].items()} for s in towns]
    law = solve_consistent(
        [[(1 if i == j else 0) - P[i].get(j, 0) for i in range(3)] for j in range(3)] + [[1, 1, 1]],
        [0, 0, 0, 1],
    )
    _, bias = policy_run(table, towns, best)
    text = ep.stationary(table).derivation().markdown()
    for town, pi in zip(towns, law):
        assert f"\\pi(\\text{{'{town}'}}) &= {latex_number(pi)}" in text
        assert f"\\implies h(\\text{{'{town}'}}) = {latex_number(bias[town])}" in text
    for town in towns:
        earn = {
            a: r + sum(p * bias[t] for t, p in law_.items())
            for a, (r, law_) in table.moves[town].items()
        }
        runner = max((a for a in earn if a != "cab stand"), key=earn.get)
        margin = latex_number(earn["cab stand"] - earn[runner])
        assert f"In '{town}' the play is cab stand, better than {runner} by ${margin}$." in text


def test_the_derivation_words_ends_ties_and_a_minimiser():
    """A terminal state is named in words; a tie names the other actions; a minimiser
    takes the least."""
    costs = Table(
        {
            0: {"a": (1, {1: 1}), "b": (0, {0: 1}), "c": (0, {0: 1})},
            1: {"back": (0, {0: 1})},
            2: None,
        },
        0,
        player=1,
    )
    text = ep.stationary(costs).derivation().markdown()
    assert "the play takes the least" in text
    assert "In 0 the play is b, tied exactly with c." in text
    ends = Table(
        {"start": {"stop": (1, {"end": 1}), "wait": (0, {"start": 1})}, "end": None}, "start"
    )
    assert "'end' ends play: it earns nothing more." in ep.stationary(ends).derivation().markdown()


def test_a_derivation_names_every_state_of_a_class_it_writes():
    """limit=3 shows states 0-2; the ring 1 -> 3 -> 5 -> 1 is written from its first
    state, and 5 (no successor of a shown state) is named too."""
    ring = Table(
        {
            0: {"go": (0, {1: F(1, 2), 2: F(1, 2)})},
            1: {"go": (1, {3: 1})},
            2: {"go": (0, {4: 1})},
            3: {"go": (2, {5: 1})},
            4: {"go": (0, {4: 1})},
            5: {"go": (3, {1: 1})},
        }
    )
    text = ep.stationary(ring).derivation(limit=3).markdown()
    assert "\\pi(\\text{5}) &= \\frac{1}{3}" in text


def test_a_derivation_needs_rewards():
    with pytest.raises(ModelError, match="the model has no rewards"):
        ep.stationary(Ehrenfest(2)).derivation()
