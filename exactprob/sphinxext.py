"""A Sphinx directive that writes the derivation of a model when the docs are built.

In ``conf.py``: ``extensions = [..., "exactprob.sphinxext"]``; in a page::

    .. exactprob-derivation:: mypackage.models:Gamble
       :limit: 8

The argument names a callable (a model class, or a function) that returns the model
when called with no argument. ``:limit:`` is how many states nearest the start are
written in full (12); ``:states:``, a Python list such as ``[19, 20, 21]``, names them
instead. The model is solved by :func:`exactprob.solve` (its generic engine) and its
derivation (:mod:`exactprob.engine.exact.derivation`) is inserted, its headings as rubrics.
With the flag ``:long-run:``, the model's long run (:func:`exactprob.stationary`, played
best when it has choices) is written instead (:mod:`exactprob.engine.long_run.derivation`).
"""

from __future__ import annotations

import ast
import importlib
from typing import Any, ClassVar

__all__ = ["setup"]


def setup(app: Any) -> dict[str, Any]:
    """Register the ``exactprob-derivation`` directive with Sphinx."""
    from docutils.parsers.rst import directives
    from sphinx.util.docutils import SphinxDirective

    from .engine import derivation_of, solve, stationary

    class DerivationDirective(SphinxDirective):
        """``.. exactprob-derivation:: module:callable`` (options ``:limit:``,
        ``:states:``, ``:long-run:``)."""

        required_arguments = 1
        option_spec: ClassVar[dict[str, Any]] = {
            "limit": directives.positive_int,
            "states": ast.literal_eval,
            "long-run": directives.flag,
        }

        def run(self) -> list[Any]:
            module, _, name = self.arguments[0].partition(":")
            try:
                factory = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError, ValueError) as error:
                raise self.error(f"cannot import the model {self.arguments[0]!r}: {error}")
            limit = self.options.get("limit", 12)
            if "long-run" in self.options:
                if "states" in self.options:
                    raise self.error(":states: does not apply to a long run; give :limit:")
                derivation = stationary(factory(), progress=False).derivation(limit=limit)
            else:
                derivation = derivation_of(
                    solve(factory(), generic=True, progress=False),
                    limit=limit,
                    states=self.options.get("states"),
                )
            return self.parse_text_to_nodes(derivation.rst(rubrics=True))

    app.add_directive("exactprob-derivation", DerivationDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
