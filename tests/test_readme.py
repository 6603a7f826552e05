"""The README's example runs as printed, and its commented answers are counted by brute
force (the dice) or are the gambler's ruin formulas (not the engine's output copied):
the chance of reaching N from k,
(r^k - 1)/(r^N - 1), and the expected number of bets,
k/(q - p) - N/(q - p) (1 - r^k)/(1 - r^N), with r = q/p."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_the_readme_example_runs_and_its_answers_are_the_ruin_formulas() -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), str(README), "exec"), namespace)  # noqa: S102
    p, q, goal = Fraction(2, 5), Fraction(3, 5), 5
    r = q / p

    def reach(k: int) -> Fraction:
        return (r**k - 1) / (r**goal - 1)

    def bets(k: int) -> Fraction:
        return k / (q - p) - goal / (q - p) * (1 - r**k) / (1 - r**goal)

    sol, durations = namespace["sol"], namespace["durations"]
    assert (sol.value(), sol.expected_steps()) == (reach(2), bets(2))  # type: ignore[attr-defined]
    assert [durations.value(k) for k in (1, 2, 3, 4)] == [bets(k) for k in (1, 2, 3, 4)]  # type: ignore[attr-defined]
    shown = re.findall(r"Fraction\((\d+), (\d+)\)", block.group(1))
    faces = range(1, 7)
    seven = sum(a + b == 7 for a, b in itertools.product(faces, faces))
    level = sum(a + b == c + d for a, b, c, d in itertools.product(faces, repeat=4))
    assert [Fraction(int(a), int(b)) for a, b in shown] == [
        Fraction(seven, 6**2),
        Fraction(level, 6**4),
        reach(2),
        bets(2),
        bets(1),
        bets(2),
    ]
