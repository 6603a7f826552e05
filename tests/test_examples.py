"""Every script in examples/ runs and its built-in simulation check passes."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(script.parent.parent)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "agrees within 5 standard errors: True" in done.stdout
