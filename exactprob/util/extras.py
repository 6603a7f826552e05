"""Optional libraries: imported when a feature needs them, with one line saying which
extra installs them when they are missing.

``pip install exactprob`` brings the engine and every game; two features need more:
the Fowl Play redesign search runs on Dask (extra ``cluster``), the learned players on
scikit-learn (extra ``learn``). ``exactprob[test]`` includes both.

>>> import_extra("math", "learn", "the learned players").__name__
'math'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import MissingExtraError

__all__ = ["import_extra"]


def import_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """``module``, imported; if it is not installed, a :class:`MissingExtraError` naming
    ``purpose`` and the command that installs ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{purpose}: {module.split('.')[0]} is not installed; "
            f"run pip install 'exactprob[{extra}]'"
        ) from None
