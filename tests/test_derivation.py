"""Derivations written from solved models (exactprob.engine.exact.derivation): the margins they
print are those of oracles that never call the engine, the values are closed forms
derived by hand, large models are summarised, and the Sphinx directive builds a page."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from models import (
    GamblersRuin,
    Pig,
    RedAndBlack,
    acyclic_models,
    acyclic_values,
    cyclic_games,
    player_of,
    probs,
    reward_of,
)
from test_parametric import Gamble, PushYourLuck

import exactprob as ep
from exactprob.engine.exact.derivation import derivation_of
from exactprob.games.fighting_fantasy import Fight
from exactprob.util.mathdoc import latex_number

ROOT = Path(__file__).parent.parent


class Bet:
    """Keep 1/2, or win with chance 2/3: bold is better by 2/3 - 1/2 = 1/6."""

    initial = "choose"

    def outcome(self, s):
        return {"kept": F(1, 2), "won": 1, "lost": 0}.get(s)

    def actions(self, s):
        return ("safe", "bold")

    def transition(self, s, a):
        return ep.Dist({"kept": 1}) if a == "safe" else ep.Dist({"won": "2/3", "lost": "1/3"})


def test_a_decision_and_its_margin_in_every_format():
    derivation = ep.solve(Bet()).derivation()
    equation = r"Q(\text{'choose'}, \text{bold}) &= \frac{2}{3} V(\text{'won'}) + \frac{1}{3} V(\text{'lost'}) = \frac{2}{3}"
    verdict = "plays bold, better than safe by "
    markdown, rst, latex = derivation.markdown(), derivation.rst(), derivation.latex()
    assert equation in markdown and equation in rst and equation in latex
    assert verdict + r"$\frac{1}{6}$." in markdown and verdict + r"$\frac{1}{6}$." in latex
    assert verdict + r":math:`\frac{1}{6}`." in rst
    assert derivation._repr_markdown_() == markdown and derivation._repr_latex_() == latex


@settings(max_examples=60, deadline=None)
@given(acyclic_models())
def test_printed_margins_and_values_are_the_recursions(model):
    """Every shown decision's margins, and every shown value, are those of the memoised
    recursion written from the rules (models.acyclic_values)."""
    solved = ep.solve(model)
    text = solved.derivation(limit=50).markdown()
    V, Q = acyclic_values(model)
    for s, q in Q.items():
        best = V[s]
        assert f"= {latex_number(best)}" in text
        for value in q.values():
            if value != best:
                margin = best - value if player_of(model, s) == 0 else value - best
                assert f"by ${latex_number(margin)}$" in text
    assert solved.action_values() == Q[model.initial]


def check_read_back(model, derivation):
    """Every printed equation, read back from its structured form: its moves are the
    model's own, and its value is its reward plus the printed values of the next states
    weighted by their probabilities (a terminal state's, the model's outcome), exactly."""
    values = {e.state: e.value for e in derivation.equations_shown} | derivation.values_used
    checked = 0
    for e in derivation.equations_shown + [e for es in derivation.decisions.values() for e in es]:
        if e.action is None:
            assert e.value == model.outcome(e.state)
            continue
        assert {t: q for q, t in e.terms} == probs(model, e.state, e.action)
        assert e.reward == reward_of(model, e.state, e.action)
        assert e.value == e.reward + sum(q * values[t] for q, t in e.terms)
        checked += 1
    assert checked
    for e in derivation.eliminations:  # each step holds with the printed values
        values[e.state] = e.value
    for e in derivation.eliminations:
        assert e.value == e.reward + sum(q * values[t] for q, t in e.terms)
    if derivation.eliminations:
        assert not derivation.eliminations[-1].terms  # the last step is a value
    for e in derivation.do_overs:  # the repeats summed: every other move divided by 1 - r
        moves = probs(model, e.state, e.action)
        keep = 1 - moves.pop(e.state)
        assert {t: q for q, t in e.terms} == {t: q / keep for t, q in moves.items()}
        assert e.reward == reward_of(model, e.state, e.action) / keep
        assert e.value == e.reward + sum(q * values[t] for q, t in e.terms)


@settings(max_examples=40, deadline=None)
@given(st.one_of(acyclic_models(), cyclic_games(True)))
def test_every_printed_equation_holds_with_the_printed_values(model):
    check_read_back(model, ep.solve(model).derivation(limit=100))


def test_red_and_black_bold_play_value_and_order():
    """Bold play from 2 of 5 at p = 2/5: V(2) = p V(4), V(4) = p + q V(3),
    V(3) = p + q V(1), V(1) = p V(2), so V(2) = p^2 (1 + q)/(1 - p^2 q^2) = 160/589."""
    model = RedAndBlack(5, F(2, 5), start=2)
    derivation = ep.solve(model).derivation()
    check_read_back(model, derivation)
    text = derivation.markdown()
    assert r"From the start, 2: $V(\text{2}) = \frac{160}{589}$." in text
    assert "1 cyclic component (4 states)" in text
    assert "better than 1 by" in text  # stake 2 (bold) beats stake 1 at fortune 2


def test_a_fighter_against_a_war_sun_is_a_do_over():
    """One fighter (hits with 1/5) against a war sun (three dice, each 4/5): a round with
    no hit at all, probability 4/5 * (1/5)^3 = 4/625, repeats the state, so the fighter's
    hit with every war-sun die missing, 1/625, comes first with chance (1/625)/(621/625)
    = 1/621, and the war sun's two hit points need it twice: 1/621^2."""
    from exactprob.games.fleet_battle import FleetBattle, parse_fleet

    model = FleetBattle(parse_fleet("1 fighter"), parse_fleet("1 war-sun"))
    derivation = ep.solve(model, generic=True).derivation()
    check_read_back(model, derivation)
    assert [e.value for e in derivation.do_overs] == [F(1, 621**2), F(1, 621)]
    assert F(1, 621) in [q for e in derivation.do_overs for q, _ in e.terms]
    assert "do-over renormalisation" in derivation.markdown()


def test_a_fighting_fantasy_derivation_has_the_grid_solvers_options():
    """Stamina 8 against 7, luck 7, equal skills: the derivation's two decisions after the
    first round carry the options of the game's own grid solver (written separately)."""
    from exactprob.games.fighting_fantasy import FightModel, solve_grid

    model = FightModel(Fight(0, 8, 7, 7))
    derivation = ep.solve(model, generic=True).derivation(limit=3)
    check_read_back(model, derivation)
    grid = solve_grid(Fight(0, 8, 7, 7))
    for phase, won in (("won", True), ("lost", False)):
        equations = derivation.decisions[(phase, 8, 7, 7, False)]
        assert tuple(e.value for e in equations) == grid.options(won, 8, 7, 7)
    assert [e.value for e in derivation.do_overs] == [grid.value(8, 7, 7)]


def test_a_symbolic_ruin_is_eliminated_as_its_continued_fraction():
    """Gambler's ruin to 6 from 2, win a unit with chance p: V(1) = p V(2), and eliminating
    from that end, V(k) = c_k V(k + 1) with c_1 = p and c_k = p / (1 - (1 - p) c_{k-1})
    (substitute V(k - 1) = c_{k-1} V(k) into V(k) = p V(k + 1) + (1 - p) V(k - 1)); the
    last, V(5) = p / (1 - (1 - p) c_4) as V(6) = 1. Each step holds with the values."""
    p = sympy.Symbol("p")
    derivation = ep.solve(GamblersRuin(p, 6, 2)).derivation()
    steps = derivation.eliminations
    assert [e.state for e in steps] == [1, 2, 3, 4, 5]
    c = p
    for k, e in enumerate(steps[:-1], start=1):
        ((coefficient, state),) = e.terms
        assert state == k + 1 and e.reward == 0
        assert sympy.cancel(coefficient - c) == 0
        c = p / (1 - (1 - p) * c)
    assert sympy.cancel(steps[-1].value - c) == 0 and not steps[-1].terms
    values = {e.state: e.value for e in steps}
    for e in steps[:-1]:
        assert sympy.cancel(e.value - sum(q * values[t] for q, t in e.terms)) == 0
    assert "Solving a cycle by elimination" in derivation.markdown()


def test_a_large_model_is_summarised():
    text = ep.solve(Pig(12)).derivation().markdown()
    assert "The 12 nearest the start of" in text and "States by number" not in text[:200]
    assert len(text.splitlines()) < 250
    assert "cyclic component" in text


def test_a_piecewise_derivation_shows_breakpoints_and_margins():
    text = ep.solve(Gamble()).derivation().markdown()
    assert "the root of $3 p^{2} - 1 = 0$" in text
    # below the breakpoint the sure 1/3 beats p^2 by 1/3 - p^2, above the gamble by p^2 - 1/3
    assert (
        r"V(\text{'start'}) - Q(\text{'start'}, \text{gamble}) &= - \frac{3 p^{2} - 1}{3}" in text
    )
    assert r"V(\text{'start'}) - Q(\text{'start'}, \text{sure}) &= \frac{3 p^{2} - 1}{3}" in text


@pytest.mark.parametrize("limit", [3, 12, 20])
@pytest.mark.parametrize("p", [F(1, 2), sympy.Symbol("p")], ids=["rational", "piecewise"])
def test_every_numbered_state_is_in_the_legend(p, limit):
    """States with long names are written V(s_i); the legend names every one used."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "examples"))
    from lucky_fight import LuckyFight

    text = ep.solve(LuckyFight(4, 4, 3, p)).derivation(limit=limit).markdown()
    used = set(re.findall(r"s_\{(\d+)\}", text))
    assert used and all(f"{i}: (" in text for i in used)


class RewardedDuel:
    """Two players with rewards in p: player 0 at 'a' (x: 1 and on to 'b' with chance p;
    y: p and stop), player 1 at 'b' (x: 2p and back to 'a' half the time; y: 1/3)."""

    initial = "a"
    P = sympy.Symbol("p")

    def outcome(self, s):
        return 0 if s == "end" else None

    def player(self, s):
        return 1 if s == "b" else 0

    def actions(self, s):
        return ("x", "y")

    def transition(self, s, a):
        if a == "y":
            return ep.Dist({"end": 1})
        if s == "a":
            return ep.Dist({"b": self.P, "end": 1 - self.P})
        return ep.Dist({"a": F(1, 2), "end": F(1, 2)})

    def reward(self, s, a):
        return {("a", "x"): 1, ("a", "y"): self.P, ("b", "x"): 2 * self.P}.get((s, a), F(1, 3))


def test_piecewise_margins_are_sympys_simplified_differences():
    """Each margin shown, worked out in FLINT rational functions, is what sympy's simplify
    makes of V(s) - Q(s, a) written from the transitions and rewards (the mover's sign)."""
    solution = ep.solve(RewardedDuel())
    text = solution.derivation().markdown()
    model, checked = RewardedDuel(), 0
    for piece in solution.pieces:
        for s in ("a", "b"):
            for a in model.actions(s):
                if a in piece.ties(s):
                    continue
                q = sympy.sympify(model.reward(s, a)) + sum(
                    sympy.sympify(prob) * piece.value(t)
                    for t, prob in model.transition(s, a).items()
                )
                sign = 1 if model.player(s) == 0 else -1
                margin = sympy.factor(sympy.simplify(sign * (piece.value(s) - q)))
                assert f"Q(\\text{{'{s}'}}, \\text{{{a}}}) &= {sympy.latex(margin)}" in text
                checked += 1
    assert checked == 2  # one margin a state on the one piece


def test_push_your_luck_margins_are_the_one_step_gains():
    """At k points rolling once more gains p(k + 1) - k; with the best play after it the
    margin of holding over rolling below p = 1/2, at k = 1, is 1 - 2p."""
    text = ep.solve(PushYourLuck(3)).derivation().markdown()
    assert r"V(\text{1}) - Q(\text{1}, \text{roll}) &= 1 - 2 p" in text


def test_only_generic_exact_results_have_a_derivation():
    from exactprob.games.jeopardy import JeopardyModel
    from exactprob.games.jeopardy import Pig as PigRules

    solved = ep.solve(JeopardyModel(PigRules(goal=3)))
    with pytest.raises(ep.UsageError, match="generic=True"):
        derivation_of(solved)


@pytest.mark.slow
def test_the_sphinx_directive_builds_a_page(tmp_path: Path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        'extensions = ["sphinx.ext.mathjax", "exactprob.sphinxext"]\n'
    )
    (source / "index.rst").write_text(
        "Push your luck\n==============\n\n"
        ".. exactprob-derivation:: examples.derivations:push_your_luck\n   :limit: 4\n\n"
        "The taxicab\n-----------\n\n"
        ".. exactprob-derivation:: examples.long_run:Taxicab\n   :long-run:\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "-q",
            "-b",
            "html",
            str(source),
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out" / "index.html").read_text()
    assert (
        "Derivation" not in page.split("<h1>")[0] and r"\frac{1}{2} &lt; p &lt; \frac{2}{3}" in page
    )
    assert r"V(\text{1}) - Q(\text{1}, \text{roll}) &amp;= 1 - 2 p" in page
    assert r"\frac{8}{119} \cdot \frac{11}{4} + \frac{6}{7} \cdot 15" in page  # Howard's gain


def test_rewards_are_printed_and_read_back():
    from test_parametric import At, PushForPoints

    model = At(PushForPoints(4), F(2, 3))
    derivation = ep.solve(model).derivation()
    check_read_back(model, derivation)
    assert any(e.reward != 0 for es in derivation.decisions.values() for e in es)


def test_the_states_asked_for_are_written():
    model = RedAndBlack(6, F(2, 5), start=3)
    derivation = ep.solve(model).derivation(states=[2, 4, 6])  # 6 ends play: no equation
    assert set(derivation.decisions) == {2, 4}
    assert {e.state for e in derivation.equations_shown if e.action is not None} == {2, 4}
    assert "Written for the states asked for: 2 of 5." in derivation.markdown()
    check_read_back(model, derivation)


class OddNames:
    """Actions and states whose names hold every character LaTeX treats specially."""

    initial = "start #1"
    names = ("x^2", "a~b", "back\\slash", "50% {off}", "a_b & $")

    def outcome(self, s):
        return None if s == "start #1" else self.names.index(s)

    def actions(self, s):
        return self.names

    def transition(self, s, a):
        return ep.Dist({a: 1})


def _lucky_fight(p: object) -> object:
    sys.path.insert(0, str(ROOT / "examples"))
    from lucky_fight import LuckyFight

    return LuckyFight(4, 4, 3, p)


def _derivation(model: object) -> object:
    return ep.solve(model).derivation()


def _long_run_derivation(model: str, *args: int) -> object:
    """The long-run derivation of ``examples/long_run.py``'s ``model(*args)``."""
    sys.path.insert(0, str(ROOT / "examples"))
    import long_run

    return ep.stationary(getattr(long_run, model)(*args)).derivation()


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        lambda: _derivation(Bet()),  # a decision
        lambda: _derivation(Pig(12)),  # a cyclic component, eliminated
        lambda: _derivation(Gamble()),  # pieces and an irrational breakpoint
        lambda: _derivation(PushYourLuck(3)),  # rational breakpoints with ties
        lambda: _derivation(_lucky_fight(F(1, 2))),  # long state names and their legend
        lambda: _derivation(_lucky_fight(sympy.Symbol("p"))),  # the same in pieces
        lambda: _derivation(OddNames()),  # LaTeX's special characters in names
        lambda: _long_run_derivation("Taxicab"),  # the best long run: law, gain, bias, decisions
        lambda: _long_run_derivation("Upkeep", 2, 1),  # tuple states, some left for good
    ],
    ids=[
        "decision",
        "cycle",
        "irrational-breakpoint",
        "ties",
        "legend",
        "legend-pieces",
        "odd",
        "long-run",
        "long-run-transient",
    ],
)
def test_a_standalone_derivation_compiles_with_pdflatex(make, tmp_path: Path) -> None:
    """``latex(standalone=True)`` is a whole document a real TeX engine typesets without
    an error (Debian's texlive-latex-base; CI installs it and sets EXACTPROB_REQUIRE_TEX)."""
    import os
    import shutil

    if shutil.which("pdflatex") is None:
        if os.environ.get("EXACTPROB_REQUIRE_TEX"):
            pytest.fail("pdflatex is not installed (apt-get install texlive-latex-base)")
        pytest.skip("pdflatex is not installed")
    (tmp_path / "derivation.tex").write_text(make().latex(standalone=True))
    done = subprocess.run(
        ["pdflatex", "-halt-on-error", "-interaction=nonstopmode", "derivation.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert (tmp_path / "derivation.pdf").stat().st_size > 1000
    assert "Missing character" not in (tmp_path / "derivation.log").read_text()


def test_each_piece_writes_every_state_equation_and_it_holds():
    """On each open piece of push your luck, every shown state's equation under the
    piece's play is printed, and it holds as rational functions: V(s) equals the chosen
    action's expected value, from the model's own moves."""
    model = PushYourLuck(3)
    solved = ep.solve(model)
    text = solved.derivation().latex()
    for piece in solved.pieces:
        if piece.where.point:
            continue
        assert f"\\subsection*{{${piece.where.latex()}$}}" in text
        for s in solved.states:
            if model.outcome(s) is not None:
                continue
            moves = model.transition(s, piece.policy(s))
            expected = sum(sympy.sympify(str(q)) * piece.value(t) for t, q in moves.items())
            assert sympy.simplify(piece.value(s) - expected) == 0, (piece, s)
            assert f"= {sympy.latex(piece.value(s))}" in text
