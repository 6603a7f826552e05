"""The benchmark scripts run (quick sizes) and every exact answer equals its peer's."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def quick_report(script: str, tmp_path: Path) -> str:
    """The report of ``benchmarks/SCRIPT --quick``, which exits 1 when answers differ."""
    report = tmp_path / "bench.md"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--quick", "--out", str(report)],
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
