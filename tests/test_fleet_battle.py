"""Fleet battles: the source's table, a brute-force dice oracle, the numpy simulator,
Storm, properties, hit orders, optimal assignment, and the ``battle`` subcommand.

Every expected number is derived here independently of the module under test: by
enumerating d10 faces, by hand (with the derivation in a comment), from the source's
printed table, from Storm, or from the independent simulator.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from fractions import Fraction as F
from functools import cache

import numpy as np
import pytest
from cli_runner import run
from hypothesis import given, settings
from hypothesis import strategies as st
from memory_probe import peak_added

from exactprob import explore
from exactprob.errors import ModelError
from exactprob.games.fleet_battle import (
    CATALOGUE,
    LOSE,
    MUTUAL,
    SOURCE_TABLE,
    WIN,
    Fleet,
    FleetBattle,
    HitOrder,
    OptimalAssignment,
    Unit,
    battle,
    battle_transitions_bound,
    hit_distribution,
    optimal_battle,
    parse_fleet,
    parse_order,
    parse_unit,
    simulate_battle,
    source_percent,
    source_table,
)

# ---------------------------------------------------------------------------------------
# The brute-force oracle: d10 faces enumerated, hits assigned ship by ship, explicit
# renormalisation of the rounds without hits. It knows the units only by their numbers.
# ---------------------------------------------------------------------------------------
# name -> (hp, combat value, dice), transcribed from the spec and the cited calculator
STATS = {
    "carrier": (1, 9, 1),
    "cruiser": (1, 7, 1),
    "destroyer": (1, 9, 1),
    "dreadnought": (2, 5, 1),
    "fighter": (1, 9, 1),
    "war-sun": (2, 3, 3),
    "laser": (3, 6, 2),  # a made-up 3-hp unit
}
Ships = tuple[tuple[str, int], ...]  # (name, hit points left) per ship, sorted


def ships_of(text: str) -> Ships:
    out = []
    for item in text.split(","):
        count, name = item.split()
        out += [(name, STATS[name][0])] * int(count)
    return tuple(sorted(out))


@cache
def oracle_hits(ships: Ships) -> dict[int, F]:
    """P(k hits): every combination of d10 faces (1..10, 0 read as 10) counted."""
    combats = [STATS[name][1] for name, _ in ships for _ in range(STATS[name][2])]
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 11), repeat=len(combats)):
        k = sum(face >= c for face, c in zip(faces, combats))
        counts[k] = counts.get(k, 0) + 1
    return {k: F(c, 10 ** len(combats)) for k, c in counts.items()}


def oracle_take(ships: Ships, hits: int, priority: Sequence[str]) -> Ships:
    """Hits one at a time to the first ship by the rules' order."""

    def key(ship: tuple[str, int]) -> tuple[object, ...]:
        name, left = ship
        for place, entry in enumerate(priority):
            wanted, _, level = entry.partition("/")
            if wanted == name and (not level or int(level) == left):
                return (0, place, left)
        _, combat, dice = STATS[name]
        return (1, left, combat * dice, name)

    fleet = list(ships)
    for _ in range(hits):
        if not fleet:
            break
        i = min(range(len(fleet)), key=lambda j: key(fleet[j]))
        name, left = fleet[i]
        if left == 1:
            del fleet[i]
        else:
            fleet[i] = (name, left - 1)
    return tuple(sorted(fleet))


@cache
def oracle(a: Ships, d: Ships, pa: tuple[str, ...] = (), pd: tuple[str, ...] = ()):
    """(distribution of the final (attacker, defender), expected rounds)."""
    if not a or not d:
        return {(a, d): F(1)}, F(0)
    on_d, on_a = oracle_hits(a), oracle_hits(d)
    repeat = on_d[0] * on_a[0]
    final: dict[tuple[Ships, Ships], F] = {}
    rounds = F(1)
    for (x, px), (y, py) in itertools.product(on_d.items(), on_a.items()):
        if x == y == 0:
            continue
        sub, sub_rounds = oracle(oracle_take(a, y, pa), oracle_take(d, x, pd), pa, pd)
        for end, q in sub.items():
            final[end] = final.get(end, F(0)) + px * py * q
        rounds += px * py * sub_rounds
    return {end: q / (1 - repeat) for end, q in final.items()}, rounds / (1 - repeat)


def as_survivors(ships: Ships) -> tuple[tuple[str, int, int], ...]:
    counted: dict[tuple[str, int], int] = {}
    for ship in ships:
        counted[ship] = counted.get(ship, 0) + 1
    return tuple(
        (n, r, c) for (n, r), c in sorted(counted.items(), key=lambda k: (k[0][0], -k[0][1]))
    )


CUSTOM = {**CATALOGUE, "laser": Unit("laser", 3, 6, 2)}
ORACLE_CASES = [
    ("2 fighter", "1 war-sun", (), ()),
    ("1 dreadnought, 1 cruiser", "1 war-sun", (), ()),
    ("1 cruiser, 1 fighter, 1 destroyer", "2 dreadnought", (), ()),
    ("1 war-sun", "1 war-sun", (), ()),
    ("1 dreadnought, 2 fighter", "1 war-sun", ("dreadnought/2",), ()),
    ("1 carrier, 1 dreadnought", "1 cruiser, 1 dreadnought", ("carrier",), ("dreadnought",)),
    ("1 laser", "3 fighter", (), ()),
]


@pytest.mark.parametrize("a, d, pa, pd", ORACLE_CASES)
def test_engine_equals_brute_force_oracle(
    a: str, d: str, pa: tuple[str, ...], pd: tuple[str, ...]
) -> None:
    A, D = parse_fleet(a, CUSTOM), parse_fleet(d, CUSTOM)
    result = battle(
        A,
        D,
        attacker_order=HitOrder.from_priority(A, pa),
        defender_order=HitOrder.from_priority(D, pd),
    )
    final, rounds = oracle(ships_of(a), ships_of(d), pa, pd)
    assert result.win == sum(q for (x, y), q in final.items() if x and not y)
    assert result.lose == sum(q for (x, y), q in final.items() if y and not x)
    assert result.mutual == sum(q for (x, y), q in final.items() if not x and not y)
    assert result.expected_rounds == rounds
    for side, index in (("attacker", 0), ("defender", 1)):
        expected: dict[object, F] = {}
        for end, q in final.items():
            key = as_survivors(end[index])
            expected[key] = expected.get(key, F(0)) + q
        got = result.attacker_survivors if side == "attacker" else result.defender_survivors
        assert dict(got.items()) == expected


@pytest.mark.parametrize("text", ["3 fighter", "1 war-sun, 1 cruiser", "2 dreadnought, 1 laser"])
def test_hit_distribution_equals_face_enumeration(text: str) -> None:
    fleet = parse_fleet(text, CUSTOM)
    assert dict(hit_distribution(fleet, fleet.initial_state).items()) == oracle_hits(ships_of(text))


# ---------------------------------------------------------------------------------------
# The source's table
# ---------------------------------------------------------------------------------------
def test_source_table_rows_1_to_5_digit_for_digit() -> None:
    rows = source_table(range(1, 6))
    assert [(x, ours) for x, _, ours, _ in rows] == [(x, SOURCE_TABLE[x]) for x in range(1, 6)]
    # the source as printed: 0.00026%, 0.43%, 5.36%, 20.20%, 34.96%
    assert [theirs for *_, theirs in rows] == ["0.00026", "0.43", "5.36", "20.20", "34.96"]


def test_one_fighter_against_a_war_sun_by_hand() -> None:
    # A round: the fighter hits w.p. 1/5, the war sun misses with all three dice w.p.
    # (1/5)^3. The fighter wins only by two rounds "fighter hits, war sun misses"
    # (probability 1/625 each) before any war sun hit; rounds without hits (4/5 * 1/125
    # = 4/625) repeat, so each such event has probability (1/625) / (1 - 4/625) = 1/621.
    result = battle(Fleet.of({"fighter": 1}), Fleet.of({"war-sun": 1}))
    assert result.win == F(1, 621) ** 2 == F(1, 385641)
    # mutual destruction: a "fighter hits, war sun misses" round (1/621), then a round in
    # which both hit: (1/5)(124/125) / (1 - 4/625) = 124/621
    assert result.mutual == F(1, 621) * F(124, 621)


def test_rounding_rule_of_the_source() -> None:
    # two decimals, except that the tiny first entry shows two significant digits
    assert source_percent(F(1, 385641)) == "0.00026" and f"{100 / 385641:.2f}" == "0.00"
    assert source_percent(F(202, 1000)) == "20.20"
    assert source_percent(F(5, 100000)) == "0.0050"
    assert source_percent(F(1, 8)) == "12.50"
    assert source_percent(F(4999, 1000000)) == "0.50"


def test_spec_claim_over_14_percent_mutual_destruction_for_five_fighters() -> None:
    assert battle(Fleet.of({"fighter": 5}), Fleet.of({"war-sun": 1})).mutual > F(14, 100)


# ---------------------------------------------------------------------------------------
# The independent simulator
# ---------------------------------------------------------------------------------------
SIMULATED = [
    ("5 fighter", "1 war-sun", (), ()),
    ("2 war-sun, 3 fighter", "3 dreadnought, 4 cruiser", (), ()),
    (
        "1 war-sun, 3 fighter",
        "2 dreadnought, 2 cruiser",
        ("war-sun/2",),
        ("dreadnought/2", "cruiser"),
    ),
]


@pytest.mark.parametrize("a, d, pa, pd", SIMULATED)
def test_simulator_agrees_within_five_standard_errors(
    a: str, d: str, pa: tuple[str, ...], pd: tuple[str, ...]
) -> None:
    A, D = parse_fleet(a), parse_fleet(d)
    result = battle(
        A,
        D,
        attacker_order=HitOrder.from_priority(A, pa),
        defender_order=HitOrder.from_priority(D, pd),
    )
    sims = simulate_battle(A, D, 20_000, seed=2024, attacker_priority=pa, defender_priority=pd)
    for code, exact in ((WIN, result.win), (LOSE, result.lose), (MUTUAL, result.mutual)):
        assert sims.sample((sims.outcome == code).astype(int)).agrees_with(exact)
    assert sims.sample(sims.rounds).agrees_with(result.expected_rounds)
    assert sims.sample(sum(A.counts) - sims.ships_left("attacker")).agrees_with(
        result.attacker_losses
    )
    assert sims.sample(sum(D.counts) - sims.ships_left("defender")).agrees_with(
        result.defender_losses
    )
    left = result.attacker_survivors.map(lambda s: sum(c for *_, c in s))
    for k, p in left.items():
        assert sims.sample((sims.ships_left("attacker") == k).astype(int)).agrees_with(p)


def test_simulator_detects_a_wrong_value() -> None:
    sims = simulate_battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun"), 20_000, seed=5)
    wins = sims.sample((sims.outcome == WIN).astype(int))
    assert wins.agrees_with(battle(parse_fleet("5 fighter"), parse_fleet("1 war-sun")).win)
    assert not wins.agrees_with(battle(parse_fleet("6 fighter"), parse_fleet("1 war-sun")).win)


# ---------------------------------------------------------------------------------------
# Storm
# ---------------------------------------------------------------------------------------
def test_storm_agrees_on_chain_and_mdp() -> None:
    pytest.importorskip("stormpy")
    from exactprob.verify.storm import storm_expected_steps, storm_value

    A, D = parse_fleet("1 war-sun, 2 fighter"), parse_fleet("2 dreadnought, 1 cruiser")
    G = explore(FleetBattle(A, D))
    result = battle(A, D)
    assert storm_value(G) == result.win
    assert storm_expected_steps(G) == result.expected_rounds
    for side in ("attacker", "defender"):
        best = optimal_battle(A, D, side)
        assert storm_value(explore(OptimalAssignment(A, D, side))) == best.value


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------
small_fleets = st.dictionaries(
    st.sampled_from(sorted(CATALOGUE)), st.integers(1, 2), min_size=1, max_size=2
).map(Fleet.of)


@settings(max_examples=20)
@given(small_fleets, small_fleets)
def test_swapping_sides_swaps_win_and_lose(a: Fleet, d: Fleet) -> None:
    forward, backward = battle(a, d), battle(d, a)
    assert forward.win + forward.lose + forward.mutual == 1
    assert (forward.win, forward.lose, forward.mutual) == (
        backward.lose,
        backward.win,
        backward.mutual,
    )
    assert forward.expected_rounds == backward.expected_rounds
    assert forward.attacker_survivors == backward.defender_survivors
    assert forward.attacker_survivors[()] == forward.lose + forward.mutual


@settings(max_examples=10)
@given(small_fleets, small_fleets)
def test_optimal_assignment_bounds_the_fixed_order(a: Fleet, d: Fleet) -> None:
    attacker, defender = optimal_battle(a, d, "attacker"), optimal_battle(a, d, "defender")
    assert attacker.value == attacker.result.win >= attacker.fixed.win
    assert defender.value == defender.result.win <= defender.fixed.win


# ---------------------------------------------------------------------------------------
# Hit orders, units, fleets, results
# ---------------------------------------------------------------------------------------
def test_default_order_is_the_spec_s() -> None:
    # fewest hp left first, then lowest a*n: dreadnought 5, cruiser 7, fighter 9,
    # war sun 3*3 = 9 (a tie with the fighter, broken by name)
    fleet = parse_fleet("1 war-sun, 1 dreadnought, 1 cruiser, 1 fighter")
    order = HitOrder.default(fleet)
    assert order.labels() == [
        "dreadnought/1",
        "cruiser",
        "fighter",
        "war-sun/1",
        "dreadnought/2",
        "war-sun/2",
    ]
    steps = [fleet.describe(s) for s in order.after_each_hit(fleet.initial_state)]
    assert steps == [
        "1 cruiser, 1 dreadnought, 1 fighter, 1 war-sun",
        "1 dreadnought, 1 fighter, 1 war-sun",
        "1 dreadnought, 1 war-sun",
        "1 dreadnought (1 damaged), 1 war-sun",  # the damaged dreadnought takes its place again
        "1 war-sun",
        "1 war-sun (1 damaged)",
        "none",
    ]
    assert order.apply(fleet.initial_state, 99) == (0,) * len(fleet.slots)


def test_user_order_sustains_damage_first() -> None:
    fleet = parse_fleet("2 war-sun, 1 fighter")
    order = parse_order("war-sun/2, fighter", fleet)
    steps = [fleet.describe(s) for s in order.after_each_hit(fleet.initial_state)]
    assert steps[:4] == [
        "1 fighter, 2 war-sun",
        "1 fighter, 2 war-sun (1 damaged)",
        "1 fighter, 2 war-sun (2 damaged)",
        "2 war-sun (2 damaged)",
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("war-sun, war-sun/2", "names 'war-sun/2' twice"),
        ("war-sun/3", "from 1 to 2"),
        ("cruiser", "not in the fleet"),
        ("fighter,", "cannot read hit order"),
    ],
)
def test_bad_orders(text: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        parse_order(text, parse_fleet("1 war-sun, 1 fighter"))


def test_catalogue_matches_the_cited_calculator() -> None:
    # Fleet.java: shipHitProb {0.2, 0.2, 0.2, 0.4, 0.6, 0.8}, shipShots {1,1,1,1,1,3},
    # shipHP {1,1,1,1,2,2} for fighter, carrier, destroyer, cruiser, dreadnought, war sun
    names = ["fighter", "carrier", "destroyer", "cruiser", "dreadnought", "war-sun"]
    assert [CATALOGUE[n].hit_probability for n in names] == [F(x, 10) for x in (2, 2, 2, 4, 6, 8)]
    assert [CATALOGUE[n].dice for n in names] == [1, 1, 1, 1, 1, 3]
    assert [CATALOGUE[n].hp for n in names] == [1, 1, 1, 1, 2, 2]


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: parse_fleet("2 fightr"),
            "known units: carrier, cruiser, destroyer, dreadnought, fighter, war-sun",
        ),
        (lambda: parse_fleet("0 fighter"), "must be a whole number >= 1"),
        (lambda: parse_fleet("-1 fighter"), "must be a whole number >= 1"),
        (lambda: parse_fleet("fighter"), "COUNT UNIT"),
        (lambda: parse_fleet(" "), "empty fleet"),
        (lambda: parse_fleet("1001 fighter"), "from 1 to 1000"),
        (lambda: parse_unit("x:1:0:1"), "combat value of x must be a whole number from 1 to 10"),
        (lambda: parse_unit("x:1:9"), "four fields"),
        (lambda: parse_unit("x:one:9:1"), "HP in unit"),
        (lambda: parse_unit("9x:1:9:1"), "must start with a letter"),
        (lambda: Unit("x", 0, 9, 1), "hp of x"),
        (lambda: Fleet.of({"fighter": True}), "count of fighter"),
    ],
)
def test_bad_units_and_fleets(make: object, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        make()  # type: ignore[operator]


def test_result_accounting() -> None:
    A, D = parse_fleet("1 war-sun, 2 fighter"), parse_fleet("2 dreadnought, 1 cruiser")
    result = battle(A, D)
    assert sum(result.losses_by_unit("attacker").values()) == result.attacker_losses
    assert sum(result.losses_by_unit("defender").values()) == result.defender_losses
    assert result.defender_survivors[()] == result.win + result.mutual
    assert sum(p for _, p in result.survivor_labels("attacker")) == 1
    payload = result.to_json()
    assert F(payload["win"]) + F(payload["lose"]) + F(payload["mutual"]) == 1
    assert payload["win_decimal"].startswith("0.")
    assert sum(F(row["probability"]) for row in payload["defender_survivors"]) == 1


def test_optimal_assignment_sustains_damage_first() -> None:
    # With one war sun and one fighter taking one hit, damaging the war sun keeps every
    # die; losing the fighter (the spec's default) throws one away.
    A, D = parse_fleet("1 war-sun, 1 fighter"), parse_fleet("2 cruiser")
    best = optimal_battle(A, D)
    assert best.value > best.fixed.win and best.improved_states > 0
    sustain = HitOrder.from_priority(A, ["war-sun/2"]).apply(A.initial_state, 1)
    chosen = [
        c
        for (own, hits, d), c in best.policy.items()
        if own == A.initial_state and hits == 1 and any(d)
    ]
    assert chosen and all(c == sustain for c in chosen)  # (a destroyed defender makes both tie)
    # no fixed order of the attacker does better than the optimal policy
    for labels in itertools.permutations(HitOrder.default(A).labels()):
        order = HitOrder.from_priority(A, list(labels))
        assert battle(A, D, attacker_order=order).win <= best.value


# ---------------------------------------------------------------------------------------
# The battle subcommand
# ---------------------------------------------------------------------------------------


def test_cli_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "battle", "--attacker", "8 fighter", "--defender", "1 war-sun", "--json"
    )
    assert status == 0
    payload = json.loads(out)
    exact = battle(Fleet.of({"fighter": 8}), Fleet.of({"war-sun": 1}))
    assert (F(payload["win"]), F(payload["lose"]), F(payload["mutual"])) == (
        exact.win,
        exact.lose,
        exact.mutual,
    )
    assert payload["win_decimal"] == "0.843107875096"
    assert {"win", "lose", "mutual", "win_decimal", "lose_decimal", "mutual_decimal"} <= set(
        payload
    )
    assert payload["attacker_survivors"][0]["label"] == "8 fighter"


def test_cli_custom_unit_order_and_optimal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "battle",
        "--attacker",
        "1 laser, 1 fighter",
        "--defender",
        "2 war-sun",
        "--unit",
        "laser:3:6:2",
        "--attacker-order",
        "laser/3",
        "--optimal",
        "attacker",
        "--json",
    )
    assert status == 0
    payload = json.loads(out)
    A, D = parse_fleet("1 laser, 1 fighter", CUSTOM), parse_fleet("2 war-sun")
    best = optimal_battle(A, D, attacker_order=parse_order("laser/3", A))
    assert F(payload["win"]) == best.value
    assert F(payload["optimal"]["fixed_order_win"]) == best.fixed.win
    assert payload["attacker_order"][0] == "laser/3"


def test_cli_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "battle", "--attacker", "5 fighter", "--defender", "1 war-sun")
    assert status == 0
    assert "attacker wins" in out and "0.3496284661" in out and "1 war-sun (1 damaged)" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--attacker", "8 fightr", "--defender", "1 war-sun"], "known units: carrier, cruiser"),
        (["--attacker", "0 fighter", "--defender", "1 war-sun"], "must be a whole number >= 1"),
        (["--attacker", "2.5 fighter", "--defender", "1 war-sun"], "must be a whole number >= 1"),
        (
            ["--attacker", "1 x", "--defender", "1 war-sun", "--unit", "x:1:11:1"],
            "from 1 to 10, got 11",
        ),
        (
            ["--attacker", "1 x", "--defender", "1 war-sun", "--unit", "x:1:1"],
            "NAME:HP:COMBAT:DICE",
        ),
        (
            ["--attacker", "1000 fighter", "--defender", "1000 fighter"],
            "up to 1,002,001 states, more than the limit of 5,000; pass --max-states 1002001 to",
        ),
        (
            [
                "--attacker",
                "9 war-sun",
                "--defender",
                "9 war-sun",
                "--optimal",
                "attacker",
                "--max-states",
                "50",
            ],
            "more than the limit of 50",
        ),
        (["--attacker", "1 fighter"], "required"),
        (
            ["--attacker", "\u00b2 fighter", "--defender", "1 war-sun"],
            "must be a whole number >= 1",
        ),
        (["--attacker", "1 x", "--defender", "1 war-sun", "--unit", "x:\u00b2:5:1"], "HP in unit"),
        (
            [
                "--attacker",
                "1 war-sun",
                "--defender",
                "1 fighter",
                "--attacker-order",
                "war-sun/\u00b2",
            ],
            "hit points left",
        ),
    ],
)
def test_cli_bad_input_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status, out, err = run(capsys, "battle", *argv)
    assert status == 2 and out == ""
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow
def test_fleet_benchmark_quick_runs(tmp_path: object) -> None:
    pytest.importorskip("icepool")
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "benchmarks" / "bench_fleet.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "equal" in done.stdout and "DIFFERENT" not in done.stdout


def test_numpy_is_seeded() -> None:
    first = simulate_battle(parse_fleet("3 fighter"), parse_fleet("1 dreadnought"), 500, seed=9)
    again = simulate_battle(parse_fleet("3 fighter"), parse_fleet("1 dreadnought"), 500, seed=9)
    assert np.array_equal(first.outcome, again.outcome) and np.array_equal(
        first.rounds, again.rounds
    )


def test_tour_headline_matches_the_source(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tour", "--json")
    payload = json.loads(out)
    assert status == 0
    assert source_percent(F(payload["fighters_beat_war_sun"])) == "34.96"  # the source's row 5
    assert F(payload["fighters_war_sun_mutual"]) > F(14, 100)


@pytest.mark.parametrize(
    "attacker, defender",
    [
        ("3 fighter", "2 fighter"),
        ("2 dreadnought, 1 fighter", "1 war-sun"),
        ("4 fighter", "1 carrier"),
    ],
)
def test_the_transition_bound_holds(attacker: str, defender: str) -> None:
    """battle_transitions_bound, which the command checks before any work, is at least
    the number of transitions the engine finds."""
    a, d = parse_fleet(attacker), parse_fleet(defender)
    found = explore(FleetBattle(a, d)).number_of_transitions()
    assert found <= battle_transitions_bound(a, d)


def test_a_battle_with_too_many_transitions_is_refused_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """60 fighters against 60: 3,721 states but 13,845,841 transitions bound (it ran for
    minutes); refused in one line naming --max-states."""
    status, out, err = run(capsys, "battle", "--attacker", "60 fighter", "--defender", "60 fighter")
    assert (status, out) == (2, "")
    assert (
        "up to 13,845,841 transitions" in err
        and "allowed with --max-states 5,000" in err
        and "pass --max-states 23077 to go on" in err
    )


def test_the_memory_estimate_bounds_the_measured_peak() -> None:
    """battle_bytes, checked before a battle is solved, against the peak resident memory
    that solving 20 fighters against 20 adds in a fresh process: at least it, at most 3x."""
    from exactprob.games.fleet_battle import battle_bytes, parse_fleet

    setup = "from exactprob.games.fleet_battle import battle, parse_fleet"
    work = 'battle(parse_fleet("20 fighter"), parse_fleet("20 fighter"))'
    measured = peak_added(setup, work)
    estimate = battle_bytes(parse_fleet("20 fighter"), parse_fleet("20 fighter"))
    assert measured <= estimate <= 3 * measured


def test_a_battle_allowed_its_states_but_not_its_memory_is_refused_at_once(capsys) -> None:
    # --max-states lets the thousand fighters a side through the state checks; their
    # million successors a state would not fit (it ran out at 3.7 GB before)
    argv = ["battle", "--attacker", "1000 fighter", "--defender", "1000 fighter"]
    status, out, err = run(capsys, *argv, "--max-states", "10000000000")
    assert (status, out) == (2, "")
    assert "this battle needs about" in err and err.count("\n") == 1
