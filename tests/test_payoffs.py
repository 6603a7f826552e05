r"""Endings that are categories (``ep.solve(model, payoffs=...)``), checked against oracles
that do not use them: the law of the labels of random chains against the absorbing
chain's fundamental matrix in sympy, :math:`(I - Q)^{-1} R` summed by label; optimal play
of random one- and two-player games with labelled endings against the Bellman oracle of
the same game with numbers; symbolic payoffs against the labels' law; a blackjack
dealer against published exact fractions and a dealer dealt by the rules; the d10
blackjack with labels against the same game with the dealer's law inside the outcome."""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import TableModel, check_optimal, cyclic_chains, cyclic_games, reachable, sympy_chain

import exactprob as ep
from exactprob import ModelError, UsageError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from dealer_endings import (
    ENDINGS,
    PUBLISHED_BUST,
    PUBLISHED_PERCENT,
    Dealer,
    deal,
    endings,
)
from dice_blackjack import DiceBlackjack, Showdown

LABELS = ("win", "lose", "draw")


def labelled(model, draw):
    """``model`` with each terminal's value replaced by a label drawn from
    :data:`LABELS` (two terminals may share one), and payoffs for the labels: the
    labelled model, the payoffs, and the same game with the payoffs as its numbers."""
    names = {t: draw(st.sampled_from(LABELS)) for t in model.terminals}
    payoffs = {label: draw(st.integers(-3, 3)) for label in LABELS}
    numbers = TableModel(model.initial, {t: payoffs[n] for t, n in names.items()}, model.nodes)
    return TableModel(model.initial, names, model.nodes), payoffs, numbers


@st.composite
def labelled_chains(draw):
    return labelled(draw(cyclic_chains()), draw)


@st.composite
def labelled_games(draw):
    return labelled(draw(cyclic_games(two_players=draw(st.booleans()))), draw)


def fundamental_law(model):
    """The law of the labels from the initial state of an absorbing chain:
    :math:`N R`, :math:`N = (I - Q)^{-1}`, its columns summed by the terminal's label."""
    states = reachable(model)
    inner, terms, Q, R = sympy_chain(model, states)
    if model.initial in terms:
        return {model.outcome(model.initial): F(1)}
    B = (sympy.eye(len(inner)) - Q).inv() * R
    row = inner.index(model.initial)
    law: dict = {}
    for j, t in enumerate(terms):
        if B[row, j] != 0:
            label = model.outcome(t)
            law[label] = law.get(label, F(0)) + F(str(B[row, j]))
    return law


@settings(max_examples=80, deadline=None)
@given(labelled_chains())
def test_the_law_of_a_chains_labels_is_the_fundamental_matrix_summed_by_label(case):
    model, payoffs, _ = case
    solution = ep.solve(model, payoffs=payoffs)
    law = solution.absorption().map(model.outcome)
    assert dict(law) == fundamental_law(model)
    assert solution.value() == sum((payoffs[e] * p for e, p in law.items()), F(0))


@settings(max_examples=80, deadline=None)
@given(labelled_games())
def test_best_play_with_payoffs_is_best_play_of_the_game_with_those_numbers(case):
    """The Bellman oracle of the numeric twin: values, exact ties, and the policy's own
    value, at every state."""
    model, payoffs, numbers = case
    check_optimal(numbers, ep.solve(model, payoffs=payoffs))


@settings(max_examples=40, deadline=None)
@given(labelled_chains())
def test_symbolic_payoffs_give_the_value_as_a_function_of_them(case):
    model, _, _ = case
    symbols = {label: sympy.Symbol(f"u_{label}") for label in LABELS}
    value = ep.solve(model, payoffs=symbols).value()
    law = fundamental_law(model)
    expected = sum(symbols[e] * sympy.Rational(p.numerator, p.denominator) for e, p in law.items())
    assert sympy.expand(sympy.sympify(value) - expected) == 0


@settings(max_examples=40, deadline=None)
@given(labelled_games(), st.integers(0, 3))
def test_every_method_horizon_and_evaluation_agree_with_the_numeric_twin(case, horizon):
    model, payoffs, numbers = case
    exact = ep.solve(model, payoffs=payoffs)
    assert ep.solve(model, "depth-first", payoffs=payoffs).value() == exact.value()
    assert ep.solve(model, "certified", payoffs=payoffs).value().contains(exact.value())
    within = ep.solve(model, payoffs=payoffs, horizon=horizon)
    assert within.value() == ep.solve(numbers, horizon=horizon).value()
    first = {s: next(iter(acts)) for s, (_, acts) in model.nodes.items()}
    evaluated = ep.evaluate(model, first, payoffs=payoffs)
    assert evaluated.value() == ep.evaluate(numbers, first).value()


def test_without_payoffs_a_labelled_model_is_refused_naming_every_ending():
    with pytest.raises(ModelError) as refusal:
        ep.solve(Dealer())
    assert str(refusal.value) == (
        "outcome() gave labels, not numbers: 'blackjack', 'bust'; solve or evaluate with "
        "payoffs={ending: value, ...} for every ending: 'blackjack', 'bust', 17, 18, 19, "
        "20, 21"
    )


def test_depth_first_refuses_the_first_label_it_meets():
    with pytest.raises(
        ModelError, match="gave labels, not numbers: 'blackjack'; .* numbers included"
    ):
        ep.solve(Dealer(), "depth-first")


def test_a_refusal_lists_a_dozen_endings_and_counts_the_rest():
    chain = TableModel(0, {("T", i): f"end {i}" for i in range(20)}, {})
    chain.nodes[0] = (0, {"go": {("T", i): F(1, 20) for i in range(20)}})
    with pytest.raises(ModelError, match=r"'end 11' and 8 more; solve or"):
        ep.solve(chain)


def test_an_ending_the_payoffs_do_not_pay_is_refused_naming_it():
    with pytest.raises(ModelError, match=r"outcome\(\(22, False, 3\)\) is 'bust', which payoffs"):
        ep.solve(Dealer(), payoffs={e: 0 for e in ENDINGS if e != "bust"})
    with pytest.raises(ModelError, match="is 17, which payoffs does not pay; it pays 'bust'"):
        ep.solve(Dealer(), payoffs={"bust": 1})  # numbers are endings too: never their own value


class Unhashable(TableModel):
    def outcome(self, s):
        return ["end"] if s == "T" else None


@pytest.mark.parametrize(
    ("payoffs", "refusal"),
    [
        ([1, 0], "payoffs must be a mapping from each ending to its value"),
        ({}, "payoffs must be a mapping"),
        ({"bust": 0.1}, r"payoffs\['bust'\] must be an exact number: float 0.1"),
        ({"bust": True}, r"payoffs\['bust'\] must be an exact number: expected a number"),
    ],
)
def test_bad_payoffs_are_refused_in_one_line(payoffs, refusal):
    with pytest.raises(UsageError, match=refusal):
        ep.solve(Dealer(), payoffs=payoffs)


def test_an_unhashable_outcome_is_not_a_label():
    model = Unhashable(0, {}, {0: (0, {"go": {"T": F(1)}})})
    with pytest.raises(ModelError, match=r"outcome\('T'\) is not an exact number"):
        ep.solve(model)
    with pytest.raises(ModelError, match=r"outcome\('T'\) is \['end'\], which payoffs does not"):
        ep.solve(model, payoffs={"end": 1})


def test_a_level_model_takes_no_payoffs():
    from exactprob.engine.levels.model import LevelModel

    class Levels(LevelModel):
        pass

    with pytest.raises(UsageError, match="payoffs= is for a Model or an ArrayModel"):
        ep.solve(Levels(), payoffs={"win": 1})


class Coin(ep.ArrayModel):
    """Flip until the first head, at most three flips: ends "heads" after 1-3 flips, or
    "tails" after three tails; ``codes`` gives the endings as integers instead."""

    sizes, initial, actions = (5,), (0,), ("flip",)

    def __init__(self, codes=False):
        self.codes = codes

    def terminal(self, states):
        return states[:, 0] >= 3

    def outcome(self, states):
        heads = states[:, 0] == 4
        if self.codes:
            return heads.astype(int)
        return np.where(heads, "heads", "tails")

    def transition(self, states, action):
        flips = states[:, 0]
        return [("1/2", np.stack([np.full_like(flips, 4)], axis=1)), ("1/2", states + 1)]


def test_an_array_model_with_labels_or_integer_codes_is_paid_in_bulk_and_one_at_a_time():
    law = {"heads": F(7, 8), "tails": F(1, 8)}  # three tails in a row: 1/8
    for model, payoffs in ((Coin(), {"heads": 1, "tails": -7}), (Coin(True), {1: 1, 0: -7})):
        for method in ("exact", "depth-first"):
            assert (
                ep.solve(model, method, payoffs=payoffs).value() == law["heads"] - 7 * law["tails"]
            )
    with pytest.raises(ModelError, match="gave labels, not numbers: 'heads', 'tails'"):
        ep.solve(Coin())


def test_the_dealer_reproduces_published_exact_bust_chances():
    """NicoAcosta/blackhack, oddsB.swift: infinite deck, standing on soft 17."""
    assert PUBLISHED_BUST[None] == F(6560574127830, 23298085122481)  # as printed there
    for upcard, bust in PUBLISHED_BUST.items():
        assert endings(upcard)["bust"] == bust


def test_the_dealers_law_reproduces_a_published_table_and_sums_to_one():
    """capelski/blackjack-stats, output/dealer-finals.md, to two decimals."""
    law = endings()
    assert sum(law.values()) == 1 and set(law) == set(ENDINGS)
    for ending, percent in PUBLISHED_PERCENT.items():
        assert abs(100 * law[ending] - F(percent)) <= F(1, 200), ending
    assert law["blackjack"] == 2 * F(1, 13) * F(4, 13)  # an ace and a ten-valued card


@pytest.mark.parametrize("hit_soft_17", [False, True])
def test_the_dealers_law_agrees_with_hands_dealt_by_the_rules(hit_soft_17):
    n = 20_000
    law = endings(hit_soft_17=hit_soft_17)
    dealt = deal(n, seed=11, hit_soft_17=hit_soft_17)
    for ending in ENDINGS:
        assert ep.agrees_with(law[ending], dealt[ending], n), ending


def test_the_labelled_d10_blackjack_is_the_game_with_the_dealers_law_in_its_outcome():
    half = ep.solve(Showdown(), payoffs={"win": 1, "push": F(1, 2), "lose": 0})
    reference = ep.solve(DiceBlackjack())
    for total in range(22):
        state = ("draw", total)
        assert half.value(state) == reference.value(state)
        if total and total <= 21:
            assert half.ties(state) == reference.ties(state)


def test_a_push_worth_nothing_changes_the_best_play():
    """Win outright: drawing at 17 beats stopping, exactly, where half a push does not."""
    outright = ep.solve(Showdown(), payoffs={"win": 1, "push": 0, "lose": 0})
    values = outright.action_values(("draw", 17))
    assert values["draw"] > values["stop"] and outright.policy(("draw", 18)) == "stop"


def test_a_simulation_counts_labelled_endings_and_refuses_their_mean():
    law = endings()
    plays = ep.simulate(Dealer(), n=4000, seed=5)
    for ending in ENDINGS:
        assert ep.agrees_with(law[ending], plays.outcomes[ending], plays.n), ending
    with pytest.raises(UsageError, match="the endings include the label '.*', which has no mean"):
        plays.agrees_with("1/2")


class Overshoot(ep.ArrayModel):
    """Steps of 1 or 2 from 0 until 4 or more: ends on 4 or 5 as numbers in a string
    array, or "over" from 6 (only from starts beyond 4)."""

    sizes, initial, actions = (9,), (0,), ("step",)

    def terminal(self, states):
        return states[:, 0] >= 4

    def outcome(self, states):
        return np.where(states[:, 0] >= 6, "over", states[:, 0])

    def transition(self, states, action):
        return [("1/2", states + 1), ("1/2", states + 2)]


def test_an_array_models_string_endings_that_read_as_numbers_are_numbers():
    """``np.where`` makes 4 and 5 the strings '4' and '5': numbers, paid by the keys 4 and
    5 as a plain model's endings are; the law read one state at a time keeps labels."""
    model = Overshoot()
    assert ep.solve(model).value() == F(4 * 11 + 5 * 5, 16)  # P(4) = 11/16: no 3 -> 5 jump
    solution = ep.solve(model, payoffs={4: 1, 5: 0, "over": 7}, starts=[(0,), (6,)])
    assert solution.value() == F(11, 16) and solution.value((6,)) == 7
    assert dict(solution.absorption((6,)).map(ep.per_state(model).outcome)) == {"over": 1}
    with pytest.raises(ModelError, match="gave labels, not numbers: 'over'; .* 'over', 4, 5"):
        ep.solve(model, starts=[(0,), (6,)])
    plays = ep.simulate(model, n=400, seed=2, policy=None)
    assert set(plays.outcomes) == {4, 5}


def test_an_ending_that_reads_as_a_number_is_paid_by_that_numbers_key():
    class Mixed(TableModel):
        def outcome(self, s):
            return {"a": "1/2", "b": sympy.Rational(1, 3), "c": "bust"}.get(s)

    model = Mixed(0, {}, {0: (0, {"go": {"a": F(1, 3), "b": F(1, 3), "c": F(1, 3)}})})
    with pytest.raises(ModelError, match="'bust'; .* every ending: 'bust', 1/3, 1/2"):
        ep.solve(model)
    assert ep.solve(model, payoffs={F(1, 2): 3, F(1, 3): 6, "bust": 0}).value() == 3


def test_payoffs_check_the_users_model_first():
    with pytest.raises(
        ModelError, match=r"got the class Dealer, not a model; did you mean Dealer\(\)"
    ):
        ep.solve(Dealer, payoffs={"bust": 1})
    with pytest.raises(ModelError, match=r"got the class Coin, not a model; did you mean Coin\(\)"):
        ep.solve(Coin, payoffs={"heads": 1})

    class NoOutcome:
        initial = 0

        def actions(self, s):
            return ("go",)

        def transition(self, s, a):
            return ep.Dist({1: 1})

    with pytest.raises(ModelError, match=r"the model has no outcome\(\) method"):
        ep.solve(NoOutcome(), payoffs={1: 1})
