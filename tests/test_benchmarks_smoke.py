"""The benchmark scripts run (quick sizes) and every exact answer equals its peer's."""

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def quick_report(script: str, tmp_path: Path, *options: str) -> str:
    """The report of ``benchmarks/SCRIPT --quick [OPTIONS]``, which exits 1 when answers
    differ."""
    report = tmp_path / "bench.md"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick", "--out", str(report), *options],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return report.read_text()


@pytest.mark.slow
def test_quick_benchmark_agrees_with_peers(tmp_path: Path) -> None:
    pytest.importorskip("icepool")
    pytest.importorskip("stormpy")
    assert "equal" in quick_report("bench_engine.py", tmp_path)


@pytest.mark.slow
def test_roguelike_benchmark_quick_runs(tmp_path: Path) -> None:
    pytest.importorskip("icepool")
    text = quick_report("bench_roguelike.py", tmp_path)
    assert "equal" in text and "DIFFERENT" not in text
    assert "Everything in the issue runs in seconds" in text and "hp: 3d6 against 1d20" in text
    assert "prd: certified distribution" in text and "softlock: locked forever" in text


@pytest.mark.slow
def test_gamebook_benchmark_quick_runs(tmp_path: Path) -> None:
    # the list solves' time cap is a benchmark's budget, not a check: generous here, so that
    # a busy machine still reaches the comparison (about 4 s on a quiet one)
    text = quick_report("bench_gamebook.py", tmp_path, "--cap", "300")
    # both list solvers (regrouped or not) on both quick books give exactprob's exact win
    # probability and state count; each "equal" is a Fraction == in the script
    assert text.count("| equal ") == 4 and "DIFFERENT" not in text
    assert "1,161" in text  # the generated 7-section book is the same on every run
    assert "Where exactprob's time goes" in text and "depth-first search" in text


def test_gamebook_benchmark_fights_round_by_round_equal_exactprob() -> None:
    """The benchmark's peer enumerates a fight round by round (regrouped or not); summed,
    both equal exactprob's fight (forward propagation by decreasing h + e) on every column
    of the example table."""
    sys.path.insert(0, str(BENCHMARKS))
    from bench_gamebook import ListBackend

    from exactprob.games.gamebook.combat import LOST, example_crt, fight

    crt = example_crt()
    regrouped, listed = ListBackend(crt, regroup=True), ListBackend(crt, regroup=False)
    for ratio in range(-12, 13, 2):
        for hero, enemy in [(1, 1), (3, 8), (12, 5), (9, 9)]:
            expected = {
                0 if o == LOST else o[1]: p for o, p in fight(crt, hero, enemy, ratio).items()
            }
            assert dict(regrouped.fight(hero, enemy, ratio)) == expected
            summed: dict[int, Fraction] = {}
            for left, p in listed.fight(hero, enemy, ratio):
                summed[left] = summed.get(left, Fraction(0)) + p
            assert summed == expected


@pytest.mark.slow
def test_jeopardy_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_jeopardy.py", tmp_path, "--cap", "600")  # a budget, not a check
    # the script exits 1 (DIFFERENT) when the numpy value-iteration peer, written from the
    # spec's equations, is more than 1e-9 from an exact value or outside a certified
    # enclosure, or when an enclosure misses an exact value
    assert "DIFFERENT" not in text and "NOT met" not in text
    assert text.count("| yes ") == 2  # both quick Fowl Play goals: every exact value enclosed
    assert "| Pig to 20 " in text and "| Red Light (24+4, to 8, komi 1) " in text
    last_cells = [line.split("|")[-2].strip() for line in text.splitlines() if line[:1] == "|"]
    ratios = [
        cell for cell in last_cells if cell.endswith("x") and cell[:-1].replace(".", "").isdigit()
    ]
    assert len(ratios) == 3  # an exactprob/peer time ratio for each of the three games


def test_jeopardy_players_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_jeopardy_players.py", tmp_path, "--cap", "600")
    # the script exits 1 (DIFFERENT) when the numpy simulator, written from the rules, is more
    # than 5 standard errors from an exact value or an enclosure, or when a match-up breaks the
    # optimal player's guarantee (>= v* moving first, <= v* moving second, v* from the solver)
    assert "DIFFERENT" not in text
    assert text.count("| yes (") == 4  # every match-up agrees with its 10^5 simulated games
    assert text.count("v*: yes") == 4  # and the guarantee is proved for each (exactly)
    assert "| Pig to 30: hold at 20 vs optimal " in text
    assert "| Fowl Play (42+6, to 10): optimal vs risk-balancing " in text
    assert "| 0 of 106,200 " in text  # no undecided choice in the optimal Fowl Play table
    last_cells = [line.split("|")[-2].strip() for line in text.splitlines() if line[:1] == "|"]
    ratios = [
        cell for cell in last_cells if cell.endswith("x") and cell[:-1].replace(".", "").isdigit()
    ]
    assert len(ratios) == 4  # an exactprob/simulator time ratio for each match-up


def test_front_door_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_front_door.py", tmp_path)
    # the script exits 1 when an answer through ep.solve differs from the solver's own or
    # the generic engine's (an enclosure must contain the game's exact value)
    assert text.count("| equal ") == 3 and "DIFFERENT" not in text
    assert "| Pig to 20, exact " in text and "| fight (0, 8, 8, 5), exact " in text


@pytest.mark.slow
def test_startup_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_startup.py", tmp_path)
    assert "import exactprob" in text and "exactprob dice 2d6" in text
    assert "Python alone (peer)" in text


def test_rewards_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_rewards.py", tmp_path)
    # exits 1 when Storm's exact value, or the zero-reward run's, differs from exactprob's
    assert text.count("| equal") == 4 and "DIFFERENT" not in text


@pytest.mark.slow
def test_long_answers_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_long_answers.py", tmp_path)
    assert text.count("contains it") == 2  # both quick boards: the exact value enclosed
    assert "DIFFERENT" not in text  # a peer that answers (in time) gives the same value


def test_refusal_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_refusal.py", tmp_path)
    # exits with a message when a method solves the endless line instead of refusing it
    assert "refused at 200,000 states" in text
    assert all(f"| {method} " in text for method in ("exact", "depth-first", "certified"))


def test_best_response_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_best_response.py", tmp_path)
    # exits 1 when the race's cycles and the engine give different tables
    assert text.count("| yes |") == 2 and "DIFFERENT" not in text


def test_parameters_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_parameters.py", tmp_path)
    # exits 1 when a point solve's value differs from the piecewise value there; three
    # piecewise models, and two chains whose rational functions equal Storm's
    assert text.count("| equal") == 3 + 2 and "DIFFERENT" not in text


@pytest.mark.slow
def test_level_models_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_levels.py", tmp_path)
    assert "equal" in text and "DIFFERENT" not in text
    assert "| quick:dask" in text and "| contains" in text


@pytest.mark.slow
def test_long_run_benchmark_quick_runs(tmp_path: Path) -> None:
    pytest.importorskip("stormpy")
    text = quick_report("bench_long_run.py", tmp_path)
    # exits 1 when Storm's exact gain differs from exactprob's
    assert text.count("| yes |") == 2


@pytest.mark.slow
def test_within_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_within.py", tmp_path)
    # exits 1 when a chance of the one solve differs from the hand model's solve for that N
    assert "Every chance equal to the hand model's: yes" in text
    assert "| exactprob, horizon=5 (the whole table) | 1 | 23,728 |" in text


@pytest.mark.slow
def test_seats_benchmark_quick_runs(tmp_path: Path) -> None:
    text = quick_report("bench_seats.py", tmp_path)
    # exits 1 when the game of seats and the two-player engine give different chances
    assert "The first seat's chance equal both ways: yes" in text
    assert "| Piglet, 3 seats to 4 | 528 |" in text


@pytest.mark.slow
def test_prism_benchmark_quick_agrees_with_storm(tmp_path: Path) -> None:
    pytest.importorskip("stormpy")
    text = quick_report("bench_prism.py", tmp_path)
    assert text.count("| yes |") == 3 and "DIFFERENT" not in text
