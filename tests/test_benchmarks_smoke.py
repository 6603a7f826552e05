"""The benchmark script runs (quick sizes) and every exact answer equals its peer's."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_engine.py"


@pytest.mark.slow
def test_quick_benchmark_agrees_with_peers(tmp_path: Path) -> None:
    pytest.importorskip("icepool")
    pytest.importorskip("stormpy")
    report = tmp_path / "bench.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--out", str(report)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # exit 1 when answers differ
    assert "equal" in report.read_text()
