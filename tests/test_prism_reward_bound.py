"""Reward-bounded reachability, ``P=? [F^{rew{"r"}<=B} b]``, against closed forms
derived by hand (the random programs against Storm are in tests/test_prism_storm.py and
the benchmark set's firewire and eajs in tests/test_prism_qvbs.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
import sympy

from exactprob import prism
from exactprob.cli import main
from exactprob.errors import ModelError, StateLimitError, UsageError

#: Flip until heads (x=1), paying 1 a flip: heads comes at flip j with probability 2^-j.
COIN = """dtmc
const double p = 1/2;
module coin  x : [0..1] init 0;
  [flip] x=0 -> p:(x'=1) + 1-p:(x'=0);
endmodule
rewards "flips" [flip] true : 1; endrewards
"""


@pytest.mark.parametrize("k", range(6))
def test_heads_within_and_after_k_flips(k: int) -> None:
    # reaching heads at flip j gathers j: within k flips 1 - 2^-k; at flip k or later
    # (the first k - 1 tails) 2^-(k-1); after flip k 2^-k
    coin = prism.loads(COIN)
    half = Fraction(1, 2)
    assert coin.check(f'P=? [F^{{rew{{"flips"}}<={k}}} x=1]').value == 1 - half**k
    assert coin.check(f'P=? [F^{{rew{{"flips"}}>{k}}} x=1]').value == half**k
    assert coin.check(f'P=? [F^{{rew{{"flips"}}>={k}}} x=1]').value == min(1, half ** (k - 1))
    if k:
        assert coin.check(f'P=? [F^{{rew{{"flips"}}<{k}}} x=1]').value == 1 - half ** (k - 1)


def test_a_parameter_gives_the_rational_function() -> None:
    coin = prism.loads(COIN.replace(" = 1/2", ""), parameters=["p"])
    p = sympy.Symbol("p")
    value = coin.check('P=? [F^{rew{"flips"}<=3} x=1]').value
    assert sympy.cancel(value - (1 - (1 - p) ** 3)) == 0


#: On the target while b is false; each step b turns true with probability 1/3, for
#: good; every step pays ``STEP``.
STAY = """dtmc
module m  b : bool init false;
  [] !b -> 2/3:true + 1/3:(b'=true);
  [] b -> true;
endmodule
rewards "r" true : STEP; endrewards
"""


@pytest.mark.parametrize(
    ("step", "bound", "steps"), [("1", "1", 1), ("1", "2", 2), ("1/2", "1", 2), ("1/2", "1.5", 3)]
)
def test_a_lower_bound_is_met_on_the_target_later(step: str, bound: str, steps: int) -> None:
    # the target is not absorbing: the path must still be on it when it has gathered the
    # bound, after ceil(bound / step) steps, each kept with probability 2/3
    chain = prism.loads(STAY.replace("STEP", step))
    assert chain.check(f'P=? [F^{{rew{{"r"}}>={bound}}} !b]').value == Fraction(2, 3) ** steps


def test_an_until_fails_at_once_outside_its_left_side() -> None:
    walk = prism.loads("""dtmc
      module m  x : [0..3] init 0;
        [] x=0 -> 1/2:(x'=1) + 1/2:(x'=2);
        [] x=1 | x=2 -> (x'=3);
      endmodule
      rewards "r" true : 1; endrewards""")
    assert walk.check('P=? [x!=0 U^{rew{"r"}<=7} x=3]').value == 0
    assert walk.check('P=? [x!=1 U^{rew{"r"}<=7} x=3]').value == Fraction(1, 2)
    assert walk.check('P=? [x!=1 U^{rew{"r"}<=1} x=3]').value == 0  # two steps: 2 gathered


#: ``fast`` reaches x=4 at once with probability 1/2 (else x=5); ``slow`` surely, in four
#: steps; every step pays 1 (the ends, without a command, earn nothing).
RACE = """mdp
module m  x : [0..5] init 0;
  [fast] x=0 -> 1/2:(x'=4) + 1/2:(x'=5);
  [slow] x=0 -> (x'=1);
  [step] x>=1 & x<=3 -> (x'=x+1);
endmodule
rewards "t" true : 1; endrewards
"""


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ('Pmax=? [F^{rew{"t"}<=3} x=4]', Fraction(1, 2)),  # slow gathers 4
        ('Pmax=? [F^{rew{"t"}<=4} x=4]', Fraction(1)),
        ('Pmin=? [F^{rew{"t"}<=4} x=4]', Fraction(1, 2)),
        ('Pmax=? [F^{rew{"t"}>=2} x=4]', Fraction(1)),  # only slow gathers 2
        ('Pmin=? [F^{rew{"t"}>=2} x=4]', Fraction(0)),
        ('Pmax=? [x<2 U^{rew{"t"}<=9} x=4]', Fraction(1, 2)),  # slow leaves x<2
    ],
)
def test_the_best_play_depends_on_the_bound(prop: str, value: Fraction) -> None:
    race = prism.loads(RACE)
    assert race.check(prop).value == value
    enclosed = race.check(prop, method="certified").value  # exact where the graph decides
    low, high = (enclosed.low, enclosed.high) if hasattr(enclosed, "low") else (enclosed,) * 2
    assert low <= value <= high


def test_a_bound_no_reward_meets_gives_zero_even_on_the_target() -> None:
    coin = prism.loads(COIN)
    assert coin.check('P=? [F^{rew{"flips"}<0} x=0]').value == 0
    assert coin.check('P=? [F^{rew{"flips"}<=0} x=0]').value == 1


def test_the_command_line_prints_a_reward_bound_as_json(tmp_path: Any, capsys: Any) -> None:
    (tmp_path / "coin.prism").write_text(COIN)
    prop = 'P=? [F^{rew{"flips"}<=2} x=1]'
    status = main(["prism", str(tmp_path / "coin.prism"), "--property", prop, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert out["properties"][0]["value"] == "3/4"


@pytest.mark.parametrize(
    ("prop", "error", "message"),
    [
        ('P=? [x=0 W^{rew{"flips"}<=2} x=1]', UsageError, "W with a reward bound"),
        ("P=? [F>=2.5 x=1]", UsageError, "a time bound must be a whole number of steps"),
        ('P=? [F^{rew{"time"}<=2} x=1]', UsageError, 'no reward structure "time"'),
        ('P=? [F^{rew{"flips"}<=K} x=1]', ModelError, "'K' is not a constant"),
    ],
)
def test_what_is_refused(prop: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        prism.loads(COIN).check(prop)


def test_a_reward_of_a_parameter_cannot_bound() -> None:
    coin = prism.loads(COIN.replace(" = 1/2", "").replace(": 1;", ": p;"), parameters=["p"])
    with pytest.raises(UsageError, match="a reward bound needs rewards that are numbers"):
        coin.check('P=? [F^{rew{"flips"}<=2} x=1]')


def test_the_product_counts_against_the_state_limit() -> None:
    coin = prism.loads(COIN, max_states=5)
    with pytest.raises(StateLimitError, match="pairs each of the 2 states with the reward"):
        coin.check('P=? [F^{rew{"flips"}<=9} x=1]')


def test_its_question_is_the_product_that_the_engine_solves() -> None:
    import exactprob as ep

    question = prism.loads(RACE).question('Pmax=? [F^{rew{"t"}<=3} x=4]')
    solution = ep.solve(question)
    start = ((0,), Fraction(0))
    assert solution.value(start) == Fraction(1, 2)
    assert solution.policy(start) == "fast"


def test_every_state_has_its_value_and_rew_alone_names_the_first_structure() -> None:
    coin = prism.loads(COIN)
    assert coin.values("P=? [F^{rew<=3} x=1]") == {(0,): Fraction(7, 8), (1,): Fraction(1)}


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ("P=? [F>=2 !b]", Fraction(4, 9)),  # still on the target at step 2
        ("P=? [F>2 !b]", Fraction(8, 27)),
        ("P=? [F=2 !b]", Fraction(4, 9)),
        ("P=? [F[2,3] !b]", Fraction(4, 9)),  # off it for good once off
        ("P=? [F[3,2] !b]", Fraction(0)),  # no step
        ("P=? [G[1,2] !b]", Fraction(4, 9)),
        ("P=? [G>=1 !b]", Fraction(0)),  # it leaves for good
        ("P=? [b U>=1 !b]", Fraction(0)),  # b is false at the start
        ('P=? [F^{rew{"r"}>=1,rew{"r"}<=2} !b]', Fraction(2, 3)),  # an interval of reward
        ('P=? [G^{rew{"r"}<=1} !b]', Fraction(2, 3)),  # steps 0 and 1
    ],
)
def test_lower_and_interval_bounds_on_the_steps_and_on_a_reward(prop: str, value: Fraction) -> None:
    # the target holds while b is false; each step keeps it with probability 2/3 and
    # pays 1, so it holds at step k (with k gathered) with probability (2/3)^k
    assert prism.loads(STAY.replace("STEP", "1")).check(prop).value == value


def test_an_until_with_a_lower_time_bound_is_the_first_heads_after_it() -> None:
    # x=0 until x=1 from step 2 on: the first heads comes at flip 2 or later
    assert prism.loads(COIN).check("P=? [x=0 U>=2 x=1]").value == Fraction(1, 2)
    assert prism.loads(COIN).check("P=? [F[1,3] x=1]").value == Fraction(7, 8)


#: Two ways to flip for heads (x=1, then x=2): ``go`` pays 1 a flip, ``go2`` 2.
TWO_PRICES = """mdp
module m x : [0..2] init 0;
  [go]  x=0 -> 1/2:(x'=1) + 1/2:(x'=0);
  [go2] x=0 -> 1/2:(x'=1) + 1/2:(x'=0);
  [] x=1 -> (x'=2);
endmodule
rewards "r" [go] true : 1; [go2] true : 2; endrewards
"""


@pytest.mark.parametrize("method", ["exact", "depth-first"])
def test_a_move_past_the_bound_is_one_move_to_its_end(method: str) -> None:
    # each flip of go2 passes the bound with both its outcomes: they are one move (a
    # model of the question whose move kept two ways to one state did not add up)
    import exactprob as ep

    model = prism.loads(TWO_PRICES)
    prop = 'Pmax=? [F^{rew{"r"}<=3} x=2]'
    assert model.check(prop, method=method).value == Fraction(7, 8)  # go: j <= 3 flips
    assert ep.solve(model.question(prop), method).value() == Fraction(7, 8)


def test_a_bound_given_by_a_parameter_is_refused() -> None:
    coin = prism.loads(COIN.replace(" = 1/2", ""), parameters=["p"])
    with pytest.raises(UsageError, match="a reward bound must be a number; got p"):
        coin.check('P=? [F^{rew{"flips"}<=p} x=1]')


@pytest.mark.parametrize(
    "prop",
    [
        'P=? [F^{ rew {"flips"} <= 2 } x=1]',  # spaces in the bound
        'P=? [F^{rew{"flips"}<=2}x=1]',  # none before the target
        'P=? [F^{rew{"flips"}<=2}(x=1)]',
    ],
)
def test_the_bound_is_read_with_or_without_spaces(prop: str) -> None:
    assert prism.loads(COIN).check(prop).value == Fraction(3, 4)


@pytest.mark.parametrize(
    ("reward", "prop"),
    [
        ("3000000000000000000", 'P=? [F^{rew{"flips"}>=9000000000000000000} x=1]'),
        ("10000000000000000000", 'P=? [F^{rew{"flips"}<=30000000000000000000} x=1]'),
        ("1", "P=? [F>=9223372036854775808 x=1]"),
    ],
)
def test_levels_past_64_bits_are_refused_never_wrapped(reward: str, prop: str) -> None:
    # counted in numpy's 64-bit integers, such levels would wrap round to wrong values
    coin = prism.loads(COIN.replace("true : 1;", f"true : {reward};"))
    with pytest.raises(UsageError, match=r"pass 2\*\*62: too many levels of reward"):
        coin.check(prop)


@pytest.mark.parametrize(
    ("prop", "message"),
    [
        ("P=? [F[1,2,3] x=1]", "a time bound must be a whole number or a constant, not '2,3'"),
        ("P=? [F>=1.0 x=1]", r"whole number of steps, at least 0; got 1 \(a double\)"),
    ],
)
def test_a_step_bound_that_is_not_a_whole_number_is_named(prop: str, message: str) -> None:
    with pytest.raises((UsageError, ModelError), match=message):
        prism.loads(COIN).check(prop)


def test_a_step_bound_over_the_state_limit_says_steps() -> None:
    with pytest.raises(StateLimitError, match="with the steps taken so far"):
        prism.loads(STAY.replace("STEP", "1"), max_states=5).check("P=? [F>=9 !b]")


def test_few_levels_far_apart_are_counted_exactly() -> None:
    # a step of 10^18 a move: levels 0, 10^18, ..., 3 * 10^18, near the 64-bit counts'
    # limit (a level times the 4 states passes it: the product is numbered by rank)
    chain = prism.loads("""dtmc
      module m  x : [0..3] init 0;
        [] x<3 -> 1/2:(x'=x+1) + 1/2:true;
      endmodule
      rewards "r" x<3 : 1000000000000000000; endrewards""")
    bound = 'P=? [F^{rew{"r"}<=3000000000000000000} x=3]'
    assert chain.check(bound).value == Fraction(1, 8)  # three steps, each up
    assert chain.check(bound.replace("<=", ">=")).value == 1  # three steps at least


def test_fractional_rewards_with_a_parameter_stay_exact() -> None:
    # each flip earns 1/2 + 0.25 = 3/4 (a gmpy2 rational added to sympy's zero was a float)
    import sympy

    coin = prism.loads(
        COIN.replace(" = 1/2", "").replace("true : 1;", "true : 1/2; x=0 : 0.25;"),
        parameters=["p"],
    )
    p = sympy.Symbol("p")
    assert sympy.cancel(coin.check('R{"flips"}=? [F x=1]').value - 3 / (4 * p)) == 0
    two_flips = coin.check('P=? [F^{rew{"flips"}<=1.5} x=1]').value
    assert sympy.cancel(two_flips - (1 - (1 - p) ** 2)) == 0
