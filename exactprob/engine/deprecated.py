"""Names and module paths that moved, kept for one minor version: each use warns with
its new spelling (:mod:`exactprob.util.deprecation`) and answers as it did.

The face's names that went in 0.2.0:

* ``ep.enclose(model, ...)``: ``ep.solve(model, method="certified")``;
* ``ep.solve_depth_first(model, ...)``: ``ep.solve(model, method="depth-first")``.

Both ran the generic engine, and still do (``generic=True``), so their results keep their
types (:class:`~exactprob.engine.certified.solving.CertifiedSolution`,
:class:`~exactprob.engine.exact.depth_first.DepthFirstSolution`).

>>> import warnings
>>> from exactprob.games.gamblers_ruin import GamblersRuin
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     solved = face_name("solve_depth_first")(GamblersRuin(goal=5, start=2, p="2/5"))
>>> solved.value(), caught[0].category.__name__
(Fraction(40, 211), 'ExactProbDeprecationWarning')

The engine's modules that moved into rooms in 0.3.0 (:data:`MOVED_MODULES`): importing
one by its old path warns and gives the module at its new path, the same object.

>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from exactprob.engine.level_sweep import LevelSolution
>>> LevelSolution.__module__, str(caught[0].message).split(":")[1]
('exactprob.engine.levels.sweep', ' use import exactprob.engine.levels.sweep')
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..util.deprecation import warn_deprecated
from ..util.limits import DEFAULT_MAX_STATES
from .methods import Method, solve
from .results import Solved

__all__ = ["FACE_NAMES", "MOVED_MODULES", "face_name", "keep_moved_modules"]

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


_ENGINE = "exactprob.engine"

#: Each module path of 0.2.0 that moved in 0.3.0, and its new path.
MOVED_MODULES: dict[str, str] = {
    f"{_ENGINE}.solve": f"{_ENGINE}.exact",
    f"{_ENGINE}.depth_first": f"{_ENGINE}.exact.depth_first",
    f"{_ENGINE}.derivation": f"{_ENGINE}.exact.derivation",
    f"{_ENGINE}.derivation_directive": "exactprob.sphinxext",
    f"{_ENGINE}.enclose": f"{_ENGINE}.certified.solving",
    f"{_ENGINE}.certified_law": f"{_ENGINE}.certified.law",
    f"{_ENGINE}.parametric": f"{_ENGINE}.symbolic.piecewise",
    f"{_ENGINE}.formulas": f"{_ENGINE}.symbolic.formulas",
    f"{_ENGINE}.level_model": f"{_ENGINE}.levels.model",
    f"{_ENGINE}.level_sweep": f"{_ENGINE}.levels.sweep",
    f"{_ENGINE}.level_laws": f"{_ENGINE}.levels.laws",
    f"{_ENGINE}.level_cluster": f"{_ENGINE}.levels.cluster",
    f"{_ENGINE}.state_graph": f"{_ENGINE}.graph.state_graph",
    f"{_ENGINE}.forward": f"{_ENGINE}.exact.forward",
    f"{_ENGINE}.action_values": f"{_ENGINE}.graph.action_values",
    f"{_ENGINE}.simulate": f"{_ENGINE}.simulation",
    # private, but named in the pickles of 0.2.0's answers (their classes' modules)
    f"{_ENGINE}._internal.levels": f"{_ENGINE}._internal.acyclic",
    f"{_ENGINE}._internal.level_batches": f"{_ENGINE}.levels.batches",
    f"{_ENGINE}._internal.bulk": f"{_ENGINE}.graph.bulk",
}


class _MovedModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a moved module by its old path; loading it warns and puts the module at its
    new path in the old path's place, so the import gives that very module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder, replaced by the moved module in exec_module

    def exec_module(self, module: types.ModuleType) -> None:
        new = MOVED_MODULES[module.__name__]
        # the frames between here and the importing line are the import system's, which
        # ``warnings`` skips: stacklevel 3 is the line that imports the old path
        warn_deprecated(f"import {module.__name__}", f"import {new}", "0.3.0", stacklevel=3)
        sys.modules[module.__name__] = importlib.import_module(new)


class _FaceKeepsItsNames(types.ModuleType):
    """A package face whose names a submodule import cannot replace: importing the old path
    ``exactprob.engine.solve`` sets the attribute ``solve`` of ``exactprob.engine`` to the
    moved module, which would hide the face's function ``solve``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in getattr(self, "__all__", ()):
            return
        super().__setattr__(name, value)


def keep_moved_modules(face: types.ModuleType) -> None:
    """Let the old paths of :data:`MOVED_MODULES` import (with a warning), without hiding a
    name of ``face``, the engine's package face."""
    face.__class__ = _FaceKeepsItsNames
    # one finder: a package imported afresh (its modules removed from sys.modules, as
    # some test suites do) replaces the one its earlier import left
    sys.meta_path[:] = [
        finder
        for finder in sys.meta_path
        if (type(finder).__module__, type(finder).__qualname__) != (__name__, "_MovedModule")
    ]
    sys.meta_path.append(_MovedModule())
