"""Random PRISM programs, checked state by state against Storm's exact engine (stormpy):
a reader written here from the PRISM manual and a model checker written elsewhere must
give the same exact value in every reachable state.

The programs have one to three modules reading each other's variables (the last
perhaps a renamed copy of the first, whose formula then reads the copy's variables),
synchronising on shared action labels, with guards that overlap (a DTMC's overlapping commands are
taken with equal probability, an MDP's are choices), updates with exact probabilities,
state and transition rewards, and deadlocks; the properties are reachability (F, U),
its optima, and rewards until a target.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactprob import prism

stormpy = pytest.importorskip("stormpy")


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """``(model type, PRISM text, properties)``."""
    kind = draw(st.sampled_from(["dtmc", "mdp"]))
    modules = draw(st.integers(1, 3))
    # the last module may be a renamed copy of the first (then a formula over the first
    # module's variables reads the copy's own in the copy)
    copied = modules >= 2 and draw(st.booleans())
    variables: list[tuple[str, int | None]] = []  # name, top (None: a bool)
    owned: list[list[tuple[str, int | None]]] = []
    for m in range(modules):
        if copied and m == modules - 1:
            mine = [(f"{name[0]}{m}", top) for name, top in owned[0]]
        else:
            mine = [(f"x{m}", draw(st.integers(1, 3)))]
            if draw(st.booleans()):
                mine.append((f"b{m}", None))
        owned.append(mine)
        variables.extend(mine)

    def condition() -> str:
        parts = [atom_of(variables, draw) for _ in range(draw(st.integers(1, 2)))]
        return f" {draw(st.sampled_from(['&', '|']))} ".join(parts)

    def assignment(name: str, top: int | None) -> str:
        if top is None:
            return f"({name}'={draw(st.sampled_from(['true', 'false', f'!{name}']))})"
        value = draw(
            st.sampled_from(
                [str(draw(st.integers(0, top))), f"min({top},{name}+1)", f"max(0,{name}-1)"]
            )
        )
        return f"({name}'={value})"

    lines = [kind, f"formula own = {atom_of(owned[0], draw)};"]
    used: set[str] = {""}
    for m, mine in enumerate(owned):
        if copied and m == modules - 1:
            renames = ", ".join(f"{a}={b}" for (a, _), (b, _) in zip(owned[0], mine, strict=True))
            lines.append(f"module m{m} = m0 [{renames}] endmodule")
            continue
        lines.append(f"module m{m}")
        for name, top in mine:
            lines.append(
                f"  {name} : bool init false;" if top is None else f"  {name} : [0..{top}] init 0;"
            )
        for _ in range(draw(st.integers(1, 3))):
            action = draw(st.sampled_from(["", "", "a", "b"]))
            used.add(action)
            weights = [draw(st.integers(1, 4)) for _ in range(draw(st.integers(1, 3)))]
            updates = []
            for w in weights:
                chosen = draw(
                    st.lists(st.sampled_from(mine), min_size=0, max_size=len(mine), unique=True)
                )
                writes = "&".join(assignment(n, t) for n, t in chosen) or "true"
                updates.append(f"{w}/{sum(weights)}:{writes}")
            guard = f"own & ({condition()})" if m == 0 and draw(st.booleans()) else condition()
            lines.append(f"  [{action}] {guard} -> {' + '.join(updates)};")
        lines.append("endmodule")
    lines.append('rewards "r"')
    lines.append(f"  {condition()} : {draw(st.sampled_from(['1', '2', '1/2']))};")
    lines.append(f"  [{draw(st.sampled_from(sorted(used)))}] {condition()} : 3;")
    lines.append("endrewards")
    # Storm's full build keeps labels, not the expressions of a property: name them
    lines.append(f'label "target" = {condition()};')
    lines.append(f'label "left" = {condition()};')
    optima = ["max", "min"] if kind == "mdp" else [""]
    properties = []
    for optimum in optima:
        properties.append(f'P{optimum}=? [F "target"]')
        properties.append(f'P{optimum}=? ["left" U "target"]')
        properties.append(f'R{{"r"}}{optimum}=? [F "target"]')
    return kind, "\n".join(lines), properties


def atom_of(variables: list[tuple[str, int | None]], draw: st.DrawFn) -> str:
    """A comparison of one of ``variables`` with a value in its range."""
    name, top = draw(st.sampled_from(variables))
    if top is None:
        return name if draw(st.booleans()) else f"!{name}"
    return f"{name}{draw(st.sampled_from(['=', '<', '>=', '!=']))}{draw(st.integers(0, top))}"


def storm_values(path: str, prop: str) -> dict[tuple[Any, ...], Fraction | float]:
    """Storm's exact value of ``prop`` in every reachable state, keyed by the state's
    ``(variable, value)`` pairs in name order (Storm leaves out a variable that no
    command writes: it is constant)."""
    program = stormpy.parse_prism_program(path)
    model = stormpy.build_model[stormpy.Rational](
        program, options=stormpy.BuilderOptions(build_full=True)
    )
    formula = stormpy.parse_properties(prop, program)[0]
    result = stormpy.model_checking(
        model, formula, only_initial_states=False, environment=stormpy.environments.exact()
    )
    found = {}
    for s in range(model.nr_states):
        valuation = json.loads(str(model.state_valuations.to_json(s))) or {}
        text = str(result.get_value(s))
        value = float("inf") if text in ("inf", "Infinity") else Fraction(text)
        found[tuple(sorted(valuation.items()))] = value
    return found


def check_against_storm(tmp_path_factory: Any, case: Any) -> None:
    """Every property of the random program ``case``, in every state, ours and Storm's."""
    _, text, properties = case
    path = tmp_path_factory.mktemp("prism") / "random.prism"
    path.write_text(text)
    model = prism.load(path)
    names = model.program.names
    for prop in properties:
        ours = model.values(prop)
        theirs = storm_values(str(path), prop)
        shown = {name for key in theirs for name, _ in key}
        keyed = {
            tuple(sorted((n, x) for n, x in zip(names, state, strict=True) if n in shown)): v
            for state, v in ours.items()
        }
        assert keyed and keyed.keys() == theirs.keys(), (text, prop)
        for state, value in keyed.items():
            assert value == theirs[state], (text, prop, state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_random_programs_agree_with_storm_in_every_state(tmp_path_factory: Any, case: Any) -> None:
    check_against_storm(tmp_path_factory, case)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_many_more_random_programs_agree_with_storm(tmp_path_factory: Any, case: Any) -> None:
    check_against_storm(tmp_path_factory, case)


PARAMETRIC = """dtmc
const double p;
const double q = 1 - p;
module walk  x : [0..4] init 1;
  [step] x>0 & x<4 -> q:(x'=x-1) + p:(x'=min(4, x+2));
endmodule
module coin  c : bool init false;
  [step] true -> p/2:(c'=!c) + 1-p/2:true;
endmodule
rewards "r"  x=1 : 2;  [step] c : p; endrewards
label "won" = x=4;
"""


@pytest.mark.parametrize("prop", ['P=? [F "won"]', 'P=? [!c U "won"]', 'R{"r"}=? [F x=0 | x=4]'])
def test_a_parametric_chain_gives_storms_rational_function(tmp_path: Any, prop: str) -> None:
    import sympy

    path = tmp_path / "walk.prism"
    path.write_text(PARAMETRIC)
    ours = prism.load(path, parameters=["p"]).check(prop).value
    program = stormpy.parse_prism_program(str(path))
    formula = stormpy.parse_properties(prop, program)
    model = stormpy.build_model[stormpy.RationalFunction](program, formula)
    result = stormpy.model_checking(model, formula[0], only_initial_states=True)
    theirs = sympy.sympify(str(result.get_value(model.initial_states[0])).replace("^", "**"))
    assert sympy.cancel(ours - theirs.subs("p", sympy.Symbol("p"))) == 0
    assert sympy.Symbol("p") in ours.free_symbols
