"""Jupyter display (exactprob.util.display): every number shown is the object's own exact
number, read back from the HTML or LaTeX and compared exactly; decimals are correctly
rounded (checked against the exact value, not against a float)."""

from __future__ import annotations

import re
from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

import exactprob as ep
from exactprob import Dist, dice, die
from exactprob.engine.enclosure import Enclosure
from exactprob.games.fighting_fantasy import STRATEGY_CODES, Fight, solve_grid
from exactprob.games.risk import risk_battle
from exactprob.util.display import ROWS, dist_html, dist_latex
from exactprob.util.numbers import readable_decimal

_CELLS = re.compile(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>")
_FRAC = re.compile(r"\\frac\{(\d+)\}\{(\d+)\}")


def _rows(html: str) -> list[tuple[str, Fraction, int | None]]:
    """(outcome text, exact probability, bar width %) of each listed outcome."""
    rows = []
    for outcome, probability, bar in _CELLS.findall(html):
        if "more outcomes" in outcome:
            continue
        width = re.search(r"width:(\d+)%", bar)
        exact = Fraction(probability.split(" <small>")[0])
        rows.append((outcome, exact, int(width.group(1)) if width else None))
    return rows


def test_a_distribution_s_table_shows_its_exact_probabilities_and_bars() -> None:
    two = dice(2, 6)
    rows = _rows(two._repr_html_())
    assert [int(x) for x, _, _ in rows] == list(range(2, 13))
    assert [p for _, p, _ in rows] == [two[x] for x in range(2, 13)]
    # bars: 100 * p / max p, rounded; counted by hand, 7 has 6 ways and 2 has 1
    assert [w for _, _, w in rows] == [
        round(Fraction(100 * min(x - 1, 13 - x), 6)) for x in range(2, 13)
    ]
    assert "mean 7" in two._repr_html_()


def test_a_long_distribution_lists_its_ends_and_counts_the_rest() -> None:
    many = 20 @ die(6)  # outcomes 20..120
    html = many._repr_html_()
    rows = _rows(html)
    assert len(rows) == ROWS
    assert [int(x) for x, _, _ in rows] == [
        *range(20, 20 + ROWS // 2),
        *range(121 - ROWS // 2, 121),
    ]
    assert f"… {101 - ROWS} more outcomes …" in html
    assert all(p == many[int(x)] for x, p, _ in rows)
    assert rows[0][1] == Fraction(1, 6**20)
    latex = dist_latex(many)
    assert f"\\vdots & \\text{{{101 - ROWS} more}}" in latex
    assert len(_FRAC.findall(latex)) == ROWS


def test_outcomes_and_probabilities_are_escaped() -> None:
    d = Dist({"<b>&": "1/3", ("x", 1): "2/3"})
    html = dist_html(d)
    assert "<b>&" not in html and "&lt;b&gt;&amp;" in html
    latex = dist_latex(d)
    assert r"\text{'<b>\&'}" in latex
    assert [Fraction(int(a), int(b)) for a, b in _FRAC.findall(latex)] == [d[x] for x in d]


def test_a_symbolic_distribution_shows_expressions_without_bars() -> None:
    p = sympy.Symbol("p")
    d = Dist({"H": p, "T": 1 - p})
    rows = _CELLS.findall(d._repr_html_())
    assert [(x, q, bar) for x, q, bar in rows] == [
        ("&#x27;H&#x27;", r"\(p\)", ""),
        ("&#x27;T&#x27;", r"\(1 - p\)", ""),
    ]
    assert r"& p \\" in d._repr_latex_() and "1 - p" in d._repr_latex_()


@given(
    st.fractions(min_value=Fraction(-(10**20)), max_value=Fraction(10**20), max_denominator=10**30),
    st.sampled_from([1, 6, 10]),
)
def test_readable_decimal_is_correctly_rounded(x: Fraction, places: int) -> None:
    """The decimal shown is within half a unit in its last place of the exact value."""
    text = readable_decimal(x, places)
    mantissa, _, exponent = text.partition("e")
    scale = Fraction(10) ** int(exponent or 0)
    shown = Fraction(mantissa) * scale
    shown_places = len(mantissa.partition(".")[2])
    assert abs(shown - x) <= Fraction(1, 2 * 10**shown_places) * scale
    if exponent:  # scientific: a mantissa in [1, 10) for a value below 1/1000
        assert (abs(x) < Fraction(1, 1000) or abs(x) >= 10**12) and 1 <= abs(
            Fraction(mantissa)
        ) < 10
        assert len(mantissa.partition(".")[2]) == places - 1
    else:
        assert len(mantissa.partition(".")[2]) == places


class Bet:
    """One die for a six, or two dice for a seven: both 1/6, an exact tie."""

    initial = "choose"

    def outcome(self, s: object) -> object:
        return None if s == "choose" else s

    def actions(self, s: object) -> tuple[str, ...]:
        return ("one die", "two dice")

    def transition(self, s: object, a: str) -> Dist[int]:
        if a == "one die":
            return die(6).map(lambda x: int(x == 6))
        return dice(2, 6).map(lambda x: int(x == 7))


def test_a_solution_shows_its_value_action_and_ties() -> None:
    html = ep.solve(Bet())._repr_html_()
    assert "<th>value at the start</th><td>1/6 <small>≈ 0.166667</small>" in html
    assert "<th>best action at the start</th><td>&#x27;one die&#x27;" in html
    assert "&#x27;one die&#x27;, &#x27;two dice&#x27;" in html


def test_a_solution_that_starts_finished_says_so() -> None:
    class Done:
        initial = 0

        def outcome(self, s: int) -> int:
            return 1

        def actions(self, s: int) -> tuple[str, ...]:
            return ()

        def transition(self, s: int, a: str) -> Dist[int]:
            raise AssertionError("never called")

    html = ep.solve(Done())._repr_html_()
    assert "<th>the start</th><td>is terminal</td>" in html and "<td>1</td>" in html


def test_results_show_their_json_with_exact_cells() -> None:
    result = risk_battle(3, 2)
    html = result._repr_html_()
    payload = result.to_json()
    fractions = [v for v in payload.values() if isinstance(v, str) and "/" in v]
    assert fractions
    for value in fractions:
        assert f"<td>{value}" in html


def test_an_enclosure_shows_both_exact_ends() -> None:
    box = Enclosure(Fraction(1, 3), Fraction(1, 2))
    html = box._repr_html_()
    assert "<th>low</th><td>1/3" in html and "<th>high</th><td>1/2</td>" in html
    assert "<th>width</th><td>1/6" in html


def test_a_fight_grid_shows_its_largest_state() -> None:
    grid = solve_grid(Fight(2, 6, 5, 3))
    html = grid._repr_html_()
    assert f"<th>value at (6, 5, 3)</th><td>{grid.value(6, 5, 3)} <small>" in html
    assert f"<th>luck at (6, 5, 3)</th><td>{STRATEGY_CODES[grid.strategy(6, 5, 3)]}</td>" in html


def test_a_solved_race_shows_its_chance_and_fairest_komi() -> None:
    """Pig to 10: 7776/10961 for the first player (Storm gives the same in
    docs/verification.rst); a certified Fowl Play shows the enclosure's certain digits."""
    from exactprob.games.jeopardy.fairness import fairest_komi, komi_wins
    from exactprob.games.jeopardy.rules import FowlPlay, Pig
    from exactprob.games.jeopardy.solving.certified import enclose_race
    from exactprob.games.jeopardy.solving.solver import solve_race

    pig = solve_race(Pig(10))
    html = pig._repr_html_()
    assert "<th>first player wins, komi 0</th><td>7776/10961 <small>" in html
    wins = komi_wins(pig)
    for komi in fairest_komi(wins):
        assert f"{komi}: {wins[komi]} <small>" in html
    box = enclose_race(FowlPlay(8, 2, 8))
    assert f"≈ {box.first_player_win().decimal()} <small>(certified" in box._repr_html_()


def test_a_game_result_shows_tables_not_python_reprs() -> None:
    """A Risk battle's HTML: the survivors as a table of their own, each chance once (the
    decimal beside its fraction, not a second ``_decimal`` row), no quoted Python lists."""
    from exactprob.games.risk import risk_battle

    shown = risk_battle(5, 3)._repr_html_()
    assert "&#x27;" not in shown and "[{" not in shown
    assert "_decimal" not in shown
    assert shown.count("<table") == 3  # the result, and each side's survivors
    assert "402241935565/626913312768 <small>≈ 0.641623</small>" in shown  # P(win)


def test_a_long_fraction_is_summarised_not_refused() -> None:
    """Python's int() stops at 4,300 digits; a report's 12,000-digit mean still shows."""
    from exactprob.util.display import json_html

    shown = json_html("R", {"mean": "1/" + "3" * 5000, "rows": [{"p": "2/" + "3" * 5000}]})
    assert shown.count("(exact: a 1-digit over a 5000-digit integer; see --json)") == 2


def test_a_symbolic_value_keeps_its_decimal_row() -> None:
    from exactprob.util.display import json_html

    shown = json_html("R", {"rho": "-1 + sqrt(319)/11", "rho_decimal": "0.62", "p": "1/3"})
    assert "<th>rho_decimal</th>" in shown and "p_decimal" not in shown
