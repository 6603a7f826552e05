"""``exactprob cartwheel``: what it prints, checked against hand derivations and the rules'
equations (Fraction Gauss-Jordan and the Bellman equation, written in the wheel tests)."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from tests.cli_runner import run
from tests.test_cartwheel import bellman_certificate, rule_policy_values


def cartwheel_json(capsys, *argv):
    status, out, err = run(capsys, "cartwheel", *argv, "--json")
    assert status == 0 and err == ""
    return json.loads(out)


def test_text_report_of_a_hand_solved_wheel(capsys):
    """p = 1/3 at even money to 3 gold: V(1) = V(2)/3, V(2) = 1/3 + (2/3) V(1), so
    V(2) = 3/7 and V(1) = 1/7; from 2, staking 2 would give only 1/3, so 1 is the one
    optimal stake; bold play needs only 1 gold from 2, so bold = timid = optimal."""
    status, out, err = run(
        capsys, "cartwheel", "--gold", "2", "--target", "3", "--numbers", "3", "--bet", "1:1"
    )
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert "wins with chance 0.3333333333 = 1/3, the player's edge -0.3333333333 = -1/3" in lines[1]
    assert lines[2].split()[-1] == "3/7"
    assert lines[3].startswith("  bold play") and lines[3].endswith("= 3/7")
    assert lines[4].startswith("  timid play") and lines[4].endswith("= 3/7")
    assert lines[-2].split() == ["1", "0.1428571429", "1"]  # 1/7
    assert lines[-1].split() == ["2", "0.4285714286", "1"]


@pytest.mark.parametrize("gold,target,max_stake", [(3, 8, None), (1, 5, "2"), (6, 9, "4")])
def test_fair_even_money_reports_gold_over_target_and_every_tie(capsys, gold, target, max_stake):
    """Optional stopping (see the wheel tests): V(g) = g/T, and the optimal stakes are
    the s <= min(g, S) that cannot overshoot, s <= T - g."""
    extra = () if max_stake is None else ("--max-stake", max_stake)
    report = cartwheel_json(
        capsys,
        "--gold",
        str(gold),
        "--target",
        str(target),
        "--numbers",
        "2",
        "--bet",
        "1:1",
        *extra,
    )
    assert report["win"] == str(F(gold, target))
    top = target if max_stake is None else int(max_stake)
    for row in report["by_gold"]:
        g = row["gold"]
        assert row["win"] == str(F(g, target))
        assert [s["amount"] for s in row["stakes"]] == list(range(1, min(g, top, target - g) + 1))
    for strategy in report["strategies"]:
        assert strategy["win_by_gold"] == [str(F(g, target)) for g in range(1, target)]


def test_cartwheel_report_against_the_rules_equations(capsys):
    """The reported values solve the Bellman equation with exactly the reported ties, and
    bold and timid play's values solve their linear systems (Gauss-Jordan)."""
    report = cartwheel_json(capsys, "--gold", "10", "--target", "20", "--max-stake", "5")
    assert report["bets"] == [
        {
            "bet": "1:8",
            "covers": 1,
            "pays": 8,
            "chance": "1/10",
            "chance_decimal": "0.100000000000",
            "edge": "-1/10",
            "edge_decimal": "-0.100000000000",
        }
    ]
    values = {row["gold"]: F(row["win"]) for row in report["by_gold"]}
    tied = bellman_certificate(10, [(1, 8)], 20, 5, values)
    assert tied is not None
    for row in report["by_gold"]:
        assert {(s["amount"], s["bet"]) for s in row["stakes"]} == {
            (s.amount, str(s.bet)) for s in tied[row["gold"]]
        }
    assert F(report["win"]) == values[10]
    bold = {g: (min(g, 5, -(-(20 - g) // 8)), 1, 8) for g in range(1, 20)}
    timid = {g: (1, 1, 8) for g in range(1, 20)}
    expected = {
        "bold": rule_policy_values(10, 20, bold),
        "timid": rule_policy_values(10, 20, timid),
    }
    for strategy in report["strategies"]:
        by_rules = expected[strategy["strategy"]]
        assert [F(v) for v in strategy["win_by_gold"]] == [by_rules[g] for g in range(1, 20)]
        assert F(strategy["win"]) == by_rules[10] < values[10]


def test_several_bets_are_named_in_the_ties(capsys):
    """Four slots: 2:1 and 1:3 are both fair, so from 3 gold to 6 the value is 1/2 and every
    stake that cannot overshoot ties: 1-3 on 2:1 (3 + s <= 6) and 1 on 1:3 (3 + 3 <= 6)."""
    argv = ("--gold", "3", "--target", "6", "--numbers", "4", "--bet", "2:1", "1:3")
    status, out, _ = run(capsys, "cartwheel", *argv)
    assert status == 0
    assert out.splitlines()[-3].split() == [
        "3",
        "0.5000000000",
        "1-3",
        "on",
        "2:1;",
        "1",
        "on",
        "1:3",
    ]
    report = cartwheel_json(capsys, *argv)
    assert [(s["strategy"], s["bet"]) for s in report["strategies"]] == [
        ("bold", "2:1"),
        ("timid", "2:1"),
        ("bold", "1:3"),
        ("timid", "1:3"),
    ]


def test_plot_is_written(capsys, tmp_path):
    path = tmp_path / "wheel.png"
    status, out, err = run(capsys, "cartwheel", "--gold", "4", "--target", "9", "--plot", str(path))
    assert status == 0 and err == ""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.splitlines()[-1] == f"plot written to {path}"
    assert [p.name for p in tmp_path.iterdir()] == ["wheel.png"]


@pytest.mark.parametrize(
    "argv,message",
    [
        (("--gold", "0", "--target", "5"), "--gold must be a whole number >= 1, got 0"),
        (("--gold", "5", "--target", "5"), "--target must be greater than --gold (5), got 5"),
        (
            ("--gold", "2", "--target", "x"),
            "--target must be a whole number from 2 to 1000, got 'x'",
        ),
        (("--gold", "1", "--target", "1001", "--max-stake", "1"), "from 2 to 1000, got 1001"),
        (("--gold", "1", "--target", "5", "--max-stake", "0"), "--max-stake must be a whole"),
        (("--gold", "1", "--target", "5", "--numbers", "1"), "--numbers must be a whole number"),
        (
            ("--gold", "1", "--target", "5", "--bet", "10:1"),
            "--bet 10:1: covered slots must be a whole number from 1 to 9, got 10",
        ),
        (("--gold", "1", "--target", "5", "--bet", "1:0"), "--bet 1:0: payout must be"),
        (("--gold", "1", "--target", "5", "--bet", "18"), "--bet must be K:M"),
        (("--gold", "1", "--target", "5", "--bet", "1:8", "1:8"), "--bet lists 1:8 more than once"),
        (("--gold", "1", "--target", "500"), "124,750 (gold, stake) choices, more than 20,000"),
        (("--gold", "1", "--target", "5", "--plot", "wheel.txt"), "--plot: the file name"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, "cartwheel", *argv)
    assert status == 2 and out == ""
    assert err.startswith("exactprob cartwheel: error: ") and message in err
    assert err.count("\n") == 1
