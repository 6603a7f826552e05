"""The PRISM reader, feature by feature, on small models whose values are derived here by
hand from the PRISM manual's rules; and its refusals, each one line."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from prism_programs import ONE_PARAMETRIC_MOVE

import exactprob as ep
from exactprob import prism
from exactprob.cli import main
from exactprob.errors import ConstantError, ModelError, StateLimitError, UsageError
from exactprob.prism.expressions import Scope, compile_expression, compile_move
from exactprob.prism.syntax import Binary, Call, Name, Number

SYNC = """dtmc
module A  a : [0..2] init 0;
  [go] a=0 -> 1/3:(a'=1) + 2/3:(a'=2);
endmodule
module B  b : [0..2] init 0;
  [go] b=0 -> 1/4:(b'=1) + 3/4:(b'=2);
endmodule
"""


def test_synchronised_commands_move_together_with_multiplied_probabilities() -> None:
    model = prism.loads(SYNC)
    assert model.check("P=? [F a=1 & b=1]").value == Fraction(1, 3) * Fraction(1, 4)
    assert len(model.space) == 5  # the start and the 2 x 2 joint outcomes


def test_a_renamed_module_copies_its_base_with_formulas_written_out_first() -> None:
    # f is written out inside A before B is copied, so in B it reads b (PRISM's rule)
    model = prism.loads("""mdp
formula f = a > 0;
module A  a : [0..1] init 0;
  [] !f -> 1/2:(a'=1) + 1/2:true;
endmodule
module B = A [a=b] endmodule
""")
    # each module flips until it is 1; the two can always be moved apart: both end at 1
    assert model.check("Pmin=? [F a=1 & b=1]").value == 1
    assert model.check("Pmax=? [X b=1]").value == Fraction(1, 2)


def test_overlapping_commands_of_a_dtmc_are_taken_with_equal_probability() -> None:
    model = prism.loads(
        "dtmc module m x : [0..2] init 0; [] x=0 -> (x'=1); [] x=0 -> (x'=2); endmodule"
    )
    assert model.check("P=? [F x=1]").value == Fraction(1, 2)


def test_doubles_are_the_exact_decimals_written() -> None:
    model = prism.loads("""dtmc
const double p = 0.1;
const double q = 0.2;
module m  x : [0..2] init 0;
  [] x=0 & p+q=0.3 -> p+q:(x'=1) + 0.7:(x'=2);
endmodule""")
    assert model.check("P=? [F x=1]").value == Fraction(3, 10)


def test_several_initial_states_each_get_their_value() -> None:
    model = prism.loads("""dtmc
module m  x : [0..3];
  [] x<3 -> 1/2:(x'=x+1) + 1/2:(x'=0);
endmodule
init x<2 endinit""")
    values = model.check("P=? [X x=0]").values
    assert values == {(0,): Fraction(1, 2), (1,): Fraction(1, 2)}
    assert model.check('filter(count, x>0, "init")').value == 1


def test_g_w_and_u_on_a_random_walk_derived_by_hand() -> None:
    # a walk on 0..3 from 1, up or down with probability 1/2, stopped at 0 and 3:
    # P(reach 3) = 1/3 from 1 (gambler's ruin), and reaching 3 means avoiding 0 forever
    model = prism.loads("""dtmc
module walk  x : [0..3] init 1;
  [] x>0 & x<3 -> 1/2:(x'=x-1) + 1/2:(x'=x+1);
endmodule""")
    assert model.check("P=? [F x=3]").value == Fraction(1, 3)
    assert model.check("P=? [G x>0]").value == Fraction(1, 3)
    assert model.check("P=? [x<2 U x=0]").value == Fraction(1, 2)
    assert model.check("P=? [x>0 W x=3]").value == Fraction(1, 3)
    assert model.check("T=? [F x=0 | x=3]").value == 2  # (1)(3-1) steps, gambler's ruin


def test_rewards_gathered_until_the_target_and_infinite_where_it_may_be_missed() -> None:
    model = prism.loads("""dtmc
module walk  x : [0..3] init 1;
  [step] x>0 & x<3 -> 1/2:(x'=x-1) + 1/2:(x'=x+1);
endmodule
rewards "cost"
  x=1 : 2;
  [step] true : 1;
endrewards""")
    # from 1: 3 per visit of 1, 1 per visit of 2; visits of 1 and 2 before absorption
    # are 4/3 and 2/3 from 1 (the walk's Green function), so 3 * 4/3 + 2/3 = 14/3
    assert model.check('R{"cost"}=? [F x=0 | x=3]').value == Fraction(14, 3)
    assert model.check('R{"cost"}=? [F x=3]').value == math.inf


def test_the_long_run_share_of_a_two_state_chain() -> None:
    model = prism.loads(
        "dtmc module m x : [0..1] init 0; [] x=0 -> 0.2:(x'=1) + 0.8:true;"
        " [] x=1 -> 0.3:(x'=0) + 0.7:true; endmodule"
    )
    assert model.check("S=? [x=1]").value == Fraction(2, 5)  # a / (a + b)


def test_an_mdp_answers_its_optima_and_the_engine_solves_its_question() -> None:
    model = prism.loads("""mdp
module m  x : [0..2] init 0;
  [safe] x=0 -> 1/2:(x'=1) + 1/2:(x'=2);
  [bold] x=0 -> 3/4:(x'=1) + 1/4:(x'=2);
  [wait] x=0 -> true;
endmodule""")
    assert model.check("Pmax=? [F x=1]").value == Fraction(3, 4)
    assert model.check("Pmin=? [F x=1]").value == 0  # waiting forever avoids it
    # a bound holds for every choice: P>=p asks the least probability, P<=p the largest
    assert model.check("P>=0.75 [F x=1]").value is False
    assert model.check("P<=0.75 [F x=1]").value is True
    solution = ep.solve(model.question("Pmax=? [F x=1]"))
    assert solution.policy((0,)) == "bold"
    certified = ep.solve(model.question("Pmax=? [F x=1]"), "certified").value()
    assert certified.low <= Fraction(3, 4) <= certified.high
    assert ep.solve(model.question("Pmax=? [F x=1]"), "depth-first").value() == Fraction(3, 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dtmc module m x : [0..1] init; endmodule", "line 1, column 30: unexpected ';'"),
        ("ctmc module m x : [0..1]; endmodule", "PRISM ctmc models are not read"),
        (
            "dtmc module m x : [0..1] init 0; [] true -> (x'=x+1); endmodule",
            "module m, line 1: the update sets x to 2, outside its range [0..1], in state (x=1)",
        ),
        (
            "dtmc module m x : [0..1] init 0; [] true -> 0.5:(x'=1); endmodule",
            "the probabilities of the updates sum to 1/2, not 1, in state (x=0)",
        ),
        (
            "dtmc module m x : [0..1] init 0; [] true -> 3/2:(x'=1) + -1/2:(x'=0); endmodule",
            "module m, line 1: the probability 3/2 is not within [0, 1], in state (x=0)",
        ),
        (
            "dtmc module m x : [0..3] init 0; [] true -> (x'=(x+1)/2); endmodule",
            "module m, line 1: the update sets the int x to 1/2, in state (x=0)",
        ),
        (
            (
                "dtmc global g : [0..1] init 0; module m x : [0..1] init 0; [a] x=0 -> (g'=1); "
                "endmodule module n y : [0..1] init 0; [a] y=0 -> (g'=0); endmodule"
            ),
            "g is written by two synchronising commands, in state (g=0, x=0, y=0)",
        ),
        (
            "dtmc\nmodule m\n  x : [0..1] init 0;\n  [] true -> (x'=x+1);\nendmodule",
            "module m, line 4: the update sets x to 2, outside its range [0..1], in state (x=1)",
        ),
        (
            "dtmc\nmodule m\n  x : [0..1] init 2;\nendmodule",
            "line 3, variable x: the initial value 2 is not a whole number in [0..1]",
        ),
        ("dtmc module m x : int init 0; endmodule", "an unbounded variable"),
        (
            "dtmc module m x : [0..1] init 0; [] x -> true; endmodule",
            "the guard is a int, not a boolean",
        ),
    ],
)
def test_bad_models_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ModelError) as refused:
        prism.loads(text).check("P=? [F x=1]")
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_whole_number_from_a_division_is_an_int_value() -> None:
    # (x+2)/2 is a rational in PRISM's arithmetic; where it is whole it sets the int x
    model = prism.loads(
        "dtmc module m x : [0..4] init 1; [] x=1 -> 1/2:(x'=(x+3)/2) + 1/2:(x'=0); "
        "[] x!=1 -> true; endmodule"
    )
    assert model.check("P=? [F x=2]").value == Fraction(1, 2)
    assert model.space.states == [(1,), (2,), (0,)]
    assert all(type(x) is int for (x,) in model.space.states)


def test_an_undefined_constant_names_itself_in_the_callers_words(
    tmp_path: Path, capsys: Any
) -> None:
    text = "dtmc const int N; module m x : [0..N] init 0; [] x<N -> (x'=x+1); endmodule"
    with pytest.raises(ConstantError, match="constants=") as missing:
        prism.loads(text)
    assert missing.value.name == "N"
    path = tmp_path / "m.prism"
    path.write_text(text)
    assert main(["prism", str(path), "--property", "P=? [F x=2]"]) == 2
    assert "give it with --constant N=VALUE" in capsys.readouterr().err
    assert main(["prism", str(path), "--property", "P=? [F x=2]", "--constant", "N=2"]) == 0


def test_a_property_out_of_scope_gets_its_line_and_the_others_their_values(
    tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "walk.prism"
    path.write_text("dtmc module m x : [0..2] init 0; [] x<2 -> (x'=x+1); endmodule")
    argv = [
        "prism",
        str(path),
        "--property",
        "P=? [x=0 W>=3 x=2]",
        "--property",
        "P=? [F x=2]",
        "--json",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert "W with a time bound is not answered" in out["properties"][0]["error"]
    assert out["properties"][1]["value"] == "1"


def test_a_deadlock_stays_put_and_the_command_line_says_so(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "stop.prism"
    path.write_text("dtmc module m x : [0..1] init 0; [] x=0 -> 1/2:(x'=1) + 1/2:true; endmodule")
    assert main(["prism", str(path), "--property", "P=? [G x<=1]"]) == 0
    captured = capsys.readouterr()
    assert "note: 1 state without an enabled command: each stays" in captured.err
    assert "= 1" in captured.out


def test_mdp_properties_need_an_optimum() -> None:
    with pytest.raises(UsageError, match="needs max or min"):
        prism.loads("mdp module m x : [0..1] init 0; [] x=0 -> (x'=1); endmodule").check(
            "P=? [F x=1]"
        )


def test_paths_within_a_number_of_steps_by_hand() -> None:
    # a coin that leaves 0 with 1/2 each step: within k steps it has left with 1 - 1/2^k,
    # and stayed with 1/2^k; the unbounded G gives 0. K is a properties file's constant.
    model = prism.loads(
        "dtmc module m x : [0..1] init 0; [] x=0 -> 1/2:true + 1/2:(x'=1); endmodule"
    )
    assert model.check("P=? [G<=1 x=0]").value == Fraction(1, 2)
    assert model.check("P=? [G<=3 x=0]").value == Fraction(1, 8)
    assert model.check("P=? [F<=3 x=1]").value == Fraction(7, 8)
    assert model.check("P=? [F<3 x=1]").value == Fraction(3, 4)
    assert model.check("P=? [F<=0 x=1]").value == 0
    assert model.check("P=? [x=0 W<=2 x=1]").value == 1
    assert model.check("P=? [G x=0]").value == 0
    found = model.properties("const int K = 2; P=? [F<=K x=1];")
    assert model.check(found[0]).value == Fraction(3, 4)


def test_rewards_within_a_number_of_steps_by_hand() -> None:
    # C<=k: the first k moves' rewards. From 0 the chain earns 1 a step until it leaves
    # (with 1/2 a step), so 1 + 1/2 + 1/4 within 3; a state without a command earns
    # nothing (as Storm counts it), whatever its state reward
    model = prism.loads(
        "dtmc module m x : [0..2] init 0; [] x=0 -> 1/2:true + 1/2:(x'=1); [] x=1 -> (x'=2);"
        ' endmodule rewards "r" x=0 : 1; x=2 : 5; endrewards'
    )
    assert model.check('R{"r"}=? [C<=3]').value == Fraction(7, 4)
    assert model.check('R{"r"}=? [C<=0]').value == 0
    assert model.values('R{"r"}=? [C<=3]')[(2,)] == 0


def test_other_bounds_are_refused_never_answered_as_unbounded() -> None:
    model = prism.loads(
        "dtmc module m x : [0..1] init 0; [] x=0 -> 1/2:true + 1/2:(x'=1); endmodule"
    )
    for text, kind in [
        ("P=? [x=0 W>=1 x=1]", "W with a time bound is not answered"),
        ("P=? [F^{time<=3} x=1]", r"F\^\{time<=3\} path formulas are not answered"),
        ('P=? [F^{rew{"a"}<=3,rew{"b"}>=1} x=1]', 'F bounded on several rewards \\("a", "b"\\)'),
        ("R=? [I=3]", r"R\[I\] reward properties are not answered"),
        ("R=? [C]", r"R\[total \(C without a bound\)\] reward properties are not answered"),
        ("P=? [F<=K x=1]", "a time bound: 'K' is not a constant"),
    ]:
        with pytest.raises((UsageError, ModelError), match=kind):
            model.check(text)


def test_a_properties_file_answers_what_it_can_and_its_own_constants_take_values(
    tmp_path: Path, capsys: Any
) -> None:
    (tmp_path / "m.prism").write_text(
        "dtmc module m x : [0..3] init 0; [] x<3 -> 1/2:(x'=x+1) + 1/2:(x'=0); endmodule"
    )
    (tmp_path / "m.props").write_text(
        'const int B;\n"reach": P=? [F x=B];\n"odd": P=? [F{nonsense} x=1];\n"steps": T=? [F x=B];\n'
    )
    argv = ["prism", str(tmp_path / "m.prism"), str(tmp_path / "m.props"), "--json"]
    assert main([*argv, "--constant", "B=2"]) == 0
    out = {p["name"]: p for p in json.loads(capsys.readouterr().out)["properties"]}
    # from 0 each step goes up or back to 0 with 1/2: reaching 2 takes 2^3 - 2 = 6 steps
    assert out["reach"]["value"] == "1" and out["steps"]["value"] == "6"
    assert out["odd"]["error"].startswith("the property cannot be read: PRISM syntax")
    assert main([*argv, "--constant", "B=2,C=1"]) == 2
    assert "neither the model nor its properties have a constant C" in capsys.readouterr().err


def test_a_power_is_exact_when_its_root_is_rational_and_refused_when_not() -> None:
    text = "dtmc module m x : [0..1] init 0; [] x=0 -> pow({}, 0.5):(x'=1) + 1-pow({}, 0.5):true; endmodule"
    assert prism.loads(text.format("0.25", "0.25")).check("P=? [X x=1]").value == Fraction(1, 2)
    with pytest.raises(ModelError, match=r"pow\(1/2, 1/2\) is irrational"):
        prism.loads(text.format("0.5", "0.5")).check("P=? [X x=1]")


def test_commands_on_one_line_are_distinct_choices() -> None:
    model = prism.loads(
        "mdp\nmodule m x:[0..2] init 0; [] x=0 -> 1/3:(x'=1)+2/3:(x'=2);"
        " [] x=0 -> 1/2:(x'=1)+1/2:(x'=2); [] x>0 -> true; endmodule"
    )
    assert model.check("Pmax=? [F x=1]").value == Fraction(1, 2)
    assert model.check("Pmin=? [F x=1]").value == Fraction(1, 3)


def test_implication_reads_as_in_prism() -> None:
    # x=1 => false holds exactly where x is not 1: the walk stops at 1
    model = prism.loads(
        "dtmc module m x:[0..2] init 0; [] x=1 => false -> 1/2:(x'=x+1) + 1/2:(x'=1); endmodule"
    )
    assert model.check("P=? [F x=2]").value == 0
    assert model.check("filter(forall, x=2 => x>1)").value is True


def test_properties_that_cannot_be_evaluated_get_their_line(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "z.prism"
    path.write_text(
        "dtmc\nmodule m x:[0..2] init 0; [] x<2 -> (x'=x+1); [] x=2 -> true; endmodule\n"
        'rewards "r" true : 1/x; endrewards\nformula two = 2;\n'
    )
    argv = ["prism", str(path), "--json", "--property"]
    assert (
        main(
            [
                *argv,
                "P=? [F 1/x>0]",
                "--property",
                'R{"r"}=? [F x=2]',
                "--property",
                "P=? [F x=two]",
                "--property",
                "P=? [F nosuch=1]",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)["properties"]
    assert "division by zero" in out[0]["error"] and "in state (x=0)" in out[1]["error"]
    assert out[2]["value"] == "1" and "'nosuch' is not a constant" in out[3]["error"]


def test_a_filter_of_enclosures_encloses_the_exact_filter() -> None:
    model = prism.loads(
        "mdp\nmodule m x:[0..3] init 0; [a] x=0 -> 1/3:(x'=1)+2/3:(x'=2);"
        " [b] x=0 -> 1/2:(x'=1)+1/2:(x'=3); [] x>0 -> true; endmodule"
    )
    for op in ("min", "max", "avg", "sum"):
        prop = f"filter({op}, Pmax=? [F x=1], x<=1)"
        exact = model.check(prop).value
        enclosure = model.check(prop, method="certified").value
        assert enclosure.low <= exact <= enclosure.high


def test_several_initial_states_in_json_and_property_constants_twice(
    capsys: Any, tmp_path: Path
) -> None:
    path = tmp_path / "j.prism"
    path.write_text(
        "dtmc\nmodule m x:[0..2]; [] x<2 -> 1/2:(x'=x+1)+1/2:(x'=0); endmodule\ninit x<2 endinit\n"
    )
    assert main(["prism", str(path), "--property", "P=? [X x=2]", "--json"]) == 0
    values = json.loads(capsys.readouterr().out)["properties"][0]["values"]
    assert values == [
        {"state": [0], "value": "0", "value_decimal": "0.000000000000"},
        {"state": [1], "value": "1/2", "value_decimal": "0.500000000000"},
    ]
    model = prism.load(path)
    assert model.check("const int K = 2; P=? [F x=K]").value == 1
    assert model.check("const int K = 2; P=? [F x=K]").value == 1  # asked again
    labelled = prism.loads(
        "dtmc formula two = 2; module m x:[0..2] init 0; [] x<2 -> (x'=x+1); endmodule"
    )
    assert labelled.check('label "top" = x=two; P=? [F "top"]').value == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "dtmc module m x:[0..1] init 0; [] true -> true; endmodule system m endsystem",
            "PRISM 'system' blocks are not read",
        ),
        (
            "dtmc const int a = 1; const int a = 2; module m x:[0..1] init 0; endmodule",
            "the constant a is declared twice",
        ),
        (
            "dtmc module m x:[0..1] init 0; endmodule init x=0 endinit",
            "give the initial states one way",
        ),
        (
            "dtmc module m x:[0..7] init 7; [] x>0 -> (x'=mod(x,-3)); endmodule",
            "the divisor must be positive",
        ),
    ],
)
def test_what_prism_refuses_is_refused(text: str, message: str) -> None:
    with pytest.raises(ModelError, match=re.escape(message)):
        prism.loads(text).check("P=? [F x=0]")


def test_parameters_stay_exact_symbols_with_no_float() -> None:
    import sympy

    model = prism.loads(
        """dtmc
const double p;
module walk  x : [0..3] init 1;
  [] x>0 & x<3 -> 1-p:(x'=x-1) + p:(x'=x+1);
  [] x>0 & x<3 -> 0.5:(x'=x-1) + 0.5:(x'=x+1);
endmodule""",
        parameters=["p"],
    )
    # the two commands are merged with 1/2 each: up with p/2 + 1/4
    step = model.check("P=? [X x=2]").value
    assert sympy.simplify(step - (sympy.Symbol("p") / 2 + sympy.Rational(1, 4))) == 0
    assert not step.atoms(sympy.Float)
    assert not model.check("P=? [F x=3]").value.atoms(sympy.Float)


def test_a_merged_transition_reward_with_a_parameter_stays_exact() -> None:
    import sympy

    model = prism.loads(
        """dtmc
const double p;
module walk x : [0..3] init 1;
  [a] x>0 & x<3 -> 1-p:(x'=x-1) + p:(x'=x+1);
  [b] x>0 & x<3 -> 0.5:(x'=x-1) + 0.5:(x'=x+1);
endmodule
rewards x=1 : p/3; [a] true : p; endrewards""",
        parameters=["p"],
    )
    # in x=1: the state reward p/3, and [a]'s p taken in half of the merged moves
    earned = model.program.move_rewards(None, (1,), "step")
    assert not earned.atoms(sympy.Float)
    assert sympy.simplify(earned - sympy.Rational(5, 6) * sympy.Symbol("p")) == 0


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("x=1 : -2;", "the reward structure gives -2 in state (x=1): rewards must be >= 0"),
        ("x=1 : -1; x=1 : -7;", "the reward structure gives -1 in state (x=1)"),  # the first
        (
            "[go] x=1 : 1 - x*2;",
            "the reward structure gives -1 in state (x=1): rewards must be >= 0",
        ),
        ("true : 1/(1-x);", "a reward: division by zero, in state (x=1)"),
    ],
)
def test_a_negative_or_undefined_reward_is_refused_with_its_state(item: str, message: str) -> None:
    model = prism.loads(
        "mdp module m x : [0..2] init 0; [go] x<2 -> (x'=x+1); [] x=2 -> true; endmodule "
        f'rewards "r" true : 1; {item} endrewards'
    )
    with pytest.raises(ModelError) as refused:
        model.check("Rmax=? [F x=2]")
    assert message in str(refused.value)


def test_rewards_sum_their_items_and_a_chains_merged_moves_average_theirs() -> None:
    # by hand: Rmax from x=0 is 1 + 3 (state) + 2 (the go move from x=0); 1 + 3 from x=1
    mdp = prism.loads(
        "mdp module m x : [0..2] init 0; [go] x<2 -> (x'=x+1); [] x=2 -> true; endmodule "
        'rewards "r" true : 1; x<2 : 3; [go] x=0 : 2; [] x=0 : 100; endrewards'
    )
    assert mdp.check('R{"r"}max=? [F x=2]').value == 4 + 2 + 4
    # a chain whose two commands are merged: the transition rewards' mean, 1/2 of 6
    chain = prism.loads(
        "dtmc module m x : [0..1] init 0; [a] x=0 -> (x'=1); [b] x=0 -> (x'=1); endmodule "
        'rewards "r" [a] true : 6; endrewards'
    )
    assert chain.check('R{"r"}=? [F x=1]').value == 3


def test_the_built_in_label_deadlock_holds_where_no_command_is_enabled() -> None:
    # x=2 has no command (it stays, by PRISM's fix); x=1 loops by its own command
    model = prism.loads(
        "dtmc module m x : [0..2] init 0; [] x=0 -> 1/4:(x'=1) + 3/4:(x'=2); [] x=1 -> true; "
        "endmodule"
    )
    assert model.check('P=? [F "deadlock"]').value == Fraction(3, 4)
    assert model.check('filter(count, "deadlock")').value == 1
    assert model.check('P=? [G !"deadlock"]').value == Fraction(1, 4)


@pytest.mark.parametrize(
    "prop", ["Pmax=? [F G x=1]", 'Pmin=? [G F "up"]', "Pmax=? [(F x=1) & (G x<2)]"]
)
def test_ltl_path_formulas_are_refused_by_name(prop: str) -> None:
    model = prism.loads(
        "mdp module m x : [0..2] init 0; [a] x<2 -> 1/2:(x'=x+1) + 1/2:(x'=0); [] x=2 -> true; "
        'endmodule label "up" = x=2;'
    )
    with pytest.raises(UsageError, match=r"^LTL path formulas \(several temporal operators"):
        model.check(prop)


def test_an_mdp_with_a_parameter_answers_piece_by_piece(tmp_path: Path, capsys: Any) -> None:
    # by hand: bold wins with p, timid with 1/2; the best of the two switches at p = 1/2
    path = tmp_path / "pick.prism"
    path.write_text(
        "mdp const double p; module m x : [0..2] init 0; [bold] x=0 -> p:(x'=1) + 1-p:(x'=2);"
        " [timid] x=0 -> 1/2:(x'=1) + 1/2:(x'=2); [] x>0 -> true; endmodule"
    )
    assert (
        main(["prism", str(path), "--parameter", "p", "--property", "Pmax=? [F x=1]", "--json"])
        == 0
    )
    value = json.loads(capsys.readouterr().out)["properties"][0]["value"]
    assert (
        value
        == "Piecewise((1/2, (p > 0) & (p < 1/2)), (1/2, Eq(p, 1/2)), (p, (p > 1/2) & (p < 1)))"
    )
    with pytest.raises(UsageError, match="an MDP takes one parameter"):
        prism.loads(
            "mdp const double p; const double q; module m x : [0..1] init 0; endmodule",
            parameters=["p", "q"],
        )


def test_a_question_that_meets_no_parameter_is_solved_in_rationals() -> None:
    # the graph of P=? [F x=1] never reaches x=1's parametric move: its numbers are
    # rational, and so is the answer (1/2 + 1/6 of it again, and 1/3 of the rest never)
    model = prism.loads(ONE_PARAMETRIC_MOVE, parameters=["p"])
    assert model.check("P=? [F x=1]").value == Fraction(3, 5)
    certified = model.check("P=? [F x=1]", method="certified").value
    assert certified.low <= Fraction(3, 5) <= certified.high


def test_a_move_is_compiled_with_whole_numbers_of_any_type_and_not_with_a_double_write() -> None:
    scope = Scope(variables={"x": (0, "int")})
    x = Name("x")
    floor_up = compile_expression(
        Call("floor", (Binary("/", Binary("+", x, Number(3)), Number(2)),)), scope, ""
    )
    move = compile_move([[(None, [(0, floor_up)])]], [(0, 5)])
    assert move is not None and move((1,)) == ((1, (2,)),)
    assert type(move((1,))[0][1][0]) is int
    twice = compile_move([[(None, [(0, floor_up), (0, floor_up)])]], [(0, 5)])
    assert twice is None  # the step-by-step way refuses it by name
    with pytest.raises(ModelError, match="line 1: an update gives x two values"):
        prism.loads("dtmc module m x : [0..3] init 0; [] x=0 -> (x'=1)&(x'=2); endmodule").check(
            "P=? [F x=1]"
        )


@pytest.mark.filterwarnings("error")
def test_a_float_guess_that_never_ends_warns_nothing() -> None:
    # the first action walks forever among 201 states (a float solve of that policy is
    # singular); leaving ends each step with 1/2, so the least expected steps are 2
    model = prism.loads(
        "mdp module m x : [0..201] init 0;"
        " [walk] x<200 -> 1/2:(x'=x+1) + 1/2:(x'=max(0,x-1));"
        " [walk] x=200 -> 1/2:(x'=199) + 1/2:(x'=200);"
        " [leave] x<=200 -> 1/2:(x'=201) + 1/2:(x'=x);"
        " endmodule rewards true : 1; endrewards"
    )
    assert model.check("Rmin=? [F x=201]").value == 2


def test_a_bound_over_the_state_limit_says_what_is_counted() -> None:
    model = prism.loads(
        "dtmc module m x : [0..9] init 0; [] x<9 -> 1/2:(x'=x+1) + 1/2:(x'=0); endmodule",
        max_states=50,
    )
    assert model.check("P=? [F<=3 x=9]").value == 0  # 10 states times 4 step counts
    with pytest.raises(
        StateLimitError, match=r"^within 30 steps each of the 10 states .* max_states=310"
    ):
        model.check("P=? [F<=30 x=9]")
