"""The face's names that went in 0.2.0, kept for one minor version: each use warns with
its new spelling (:mod:`exactprob.util.deprecation`) and answers as it did.

* ``ep.enclose(model, ...)``: ``ep.solve(model, method="certified")``;
* ``ep.solve_depth_first(model, ...)``: ``ep.solve(model, method="depth-first")``.

Both ran the generic engine, and still do (``generic=True``), so their results keep their
types (:class:`~exactprob.engine.enclose.CertifiedSolution`,
:class:`~exactprob.engine.depth_first.DepthFirstSolution`).

>>> import warnings
>>> from exactprob.games.gamblers_ruin import GamblersRuin
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     solved = face_name("solve_depth_first")(GamblersRuin(goal=5, start=2, p="2/5"))
>>> solved.value(), caught[0].category.__name__
(Fraction(40, 211), 'ExactProbDeprecationWarning')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..util.deprecation import warn_deprecated
from ..util.limits import DEFAULT_MAX_STATES
from .methods import Method, solve
from .results import Solved

__all__ = ["FACE_NAMES", "face_name"]

#: Each name that left ``exactprob``'s face in 0.2.0: its method of ``ep.solve``.
FACE_NAMES: dict[str, Method] = {"enclose": "certified", "solve_depth_first": "depth-first"}


def face_name(name: str) -> Callable[..., Solved]:
    """The deprecated face name ``name`` as a function that warns once per call."""
    method = FACE_NAMES[name]

    def solver(
        model: Any,
        *,
        max_states: int = DEFAULT_MAX_STATES,
        progress: bool = False,
        starts: Sequence[Hashable] | None = None,
    ) -> Solved:
        warn_deprecated(f"ep.{name}(model)", f'ep.solve(model, method="{method}")', "0.2.0")
        answer: Solved = solve(
            model, method, generic=True, max_states=max_states, progress=progress, starts=starts
        )
        return answer

    solver.__name__ = solver.__qualname__ = name
    solver.__doc__ = f'Deprecated since 0.2.0: ``ep.solve(model, method="{method}")``.'
    return solver
