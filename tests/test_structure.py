"""House rules that a reader would otherwise have to check by hand: every public
exception class is defined once, in :mod:`exactprob.errors`, under the one root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

import exactprob
from exactprob import errors


def _modules() -> list[ModuleType]:
    """Every module of the package, imported (the optional extras are installed for tests)."""
    names = [info.name for info in pkgutil.walk_packages(exactprob.__path__, "exactprob.")]
    return [importlib.import_module(name) for name in names]


def test_every_public_exception_is_defined_in_errors_under_the_root() -> None:
    elsewhere = [
        f"{module.__name__}.{name}"
        for module in _modules()
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ == module.__name__
        and not name.startswith("_")
        and module is not errors
    ]
    assert elsewhere == []
    defined = [
        value
        for value in vars(errors).values()
        if inspect.isclass(value) and issubclass(value, BaseException)
    ]
    assert all(issubclass(error, errors.ExactProbError) for error in defined)
    assert sorted(error.__name__ for error in defined) == sorted(errors.__all__)
