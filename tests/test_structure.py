"""House rules that a reader would otherwise have to check by hand: every public
exception class is defined once, in :mod:`exactprob.errors`, under the one root; the
package root holds its layers and the import contracts name them; no import circle
anywhere; every game has a complete face; every game's simulator returns one result type;
the engine's public functions document their parameters, returns and examples
(numpydoc)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import get_type_hints

import pytest
from numpydoc.validate import validate

import exactprob
import exactprob.commands
import exactprob.games
from exactprob import errors
from exactprob.engine.simulation import Runs


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
    assert all(
        issubclass(error, errors.ExactProbError)
        or issubclass(error, errors.ExactProbDeprecationWarning)
        for error in defined
    )
    assert sorted(error.__name__ for error in defined) == sorted(errors.__all__)


def test_every_games_simulator_returns_runs_with_one_agrees_with() -> None:
    """Each ``simulate_*`` function of a game, written from its rules, answers with a
    :class:`~exactprob.engine.simulation.Runs` (per-run arrays, one ``agrees_with``)."""
    simulators = {
        f"{module.__name__}.{name}": value
        for module in _modules()
        if module.__name__.startswith("exactprob.games.")
        for name, value in vars(module).items()
        if name.startswith("simulate_") and inspect.isfunction(value)
        if value.__module__ == module.__name__
    }
    assert (
        len(simulators) == 13
    )  # FF, fleet, Risk, ruin, races (two seats and more), band, waffles, HP, PRD, ...
    returns = {name: get_type_hints(function)["return"] for name, function in simulators.items()}
    assert {name: kind for name, kind in returns.items() if not issubclass(kind, Runs)} == {}
    assert all(kind.result is not Runs.result for kind in returns.values())


def test_the_package_root_is_its_layers() -> None:
    """At the root: the face, the console script, the errors, the Sphinx extension, and one
    package per layer (the engine, its utilities, the outside checks, the games and the
    PRISM reader beside them, the subcommands); the
    import contracts name these packages, so a module added anywhere is covered."""
    root = {info.name for info in pkgutil.iter_modules(exactprob.__path__)}
    assert root == {
        "cli",
        "commands",
        "engine",
        "errors",
        "games",
        "prism",
        "sphinxext",
        "util",
        "verify",
    }
    config = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    below = next(c for c in contracts if c["type"] == "forbidden")["source_modules"]
    assert sorted(below) == [f"exactprob.{name}" for name in ("engine", "errors", "util", "verify")]


@pytest.mark.parametrize(
    ("package", "skip"),
    [(exactprob.commands, "_"), (exactprob.games, "\0")],
    ids=["commands", "games"],
)
def test_the_independence_contracts_name_every_subcommand_and_game(
    package: ModuleType, skip: str
) -> None:
    """No subcommand imports another, and no game another: the independence contracts list
    them (a subcommand's shared ``_``-modules excepted), so a new one must be added there."""
    config = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    listed = {tuple(sorted(c["modules"])) for c in contracts if c["type"] == "independence"}
    members = tuple(
        sorted(
            f"{package.__name__}.{info.name}"
            for info in pkgutil.iter_modules(package.__path__)
            if not info.name.startswith(skip)
        )
    )
    assert members in listed


def test_no_module_imports_one_that_imports_it() -> None:
    """The package's import graph (every import, lazy and type-only ones included, as
    import-linter's grimp reads them) has no cycle: a module can be read, and moved, after
    the modules it uses."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph("exactprob")
    imports = nx.DiGraph(
        (module, used)
        for module in graph.modules
        for used in graph.find_modules_directly_imported_by(module)
    )
    circles = [sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1]
    assert circles == []


def test_the_subcommands_import_only_the_games_faces() -> None:
    """A subcommand reaches a game through a face: a package's ``__init__`` (the game's, or
    one of its mechanics', such as ``roguelike.prd``) or a game that is one module, never a
    module inside a package; a game may rearrange its modules without touching the command
    line. (Read from the source: grimp takes ``from game import battle`` for the module
    ``game.battle`` when a function and a module share the name.)"""
    import ast

    source = Path(exactprob.commands.__file__).parent
    package_root = source.parents[1]
    past_faces = []
    for path in sorted(source.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.module):
                continue
            module = node.module if node.level == 0 else f"exactprob.{node.module}"
            if node.level in (0, 2) and module.startswith("exactprob.games."):
                target = package_root / module.replace(".", "/")
                if not (target.is_dir() or target.parent.name == "games"):
                    past_faces.append(f"{path.stem} -> {module}")
    assert past_faces == []


def _engine_imports_outside_it() -> list[str]:
    """Every ``from exactprob.engine... import`` outside the engine, as ``module -> target``."""
    import ast

    source = Path(exactprob.__file__).parent
    found = []
    for path in sorted(source.rglob("*.py")):
        if "engine" in path.relative_to(source).parts:
            continue
        package = ".".join(("exactprob", *path.relative_to(source).parent.parts))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = node.module if node.level == 0 else f"{base}.{node.module}"
                if module.startswith("exactprob.engine"):
                    found.append(f"{path.relative_to(source)} -> {module}")
    return found


def test_outside_the_engine_every_import_of_it_goes_through_its_face() -> None:
    """The games, the subcommands, the outside checks and the face import the engine as
    ``exactprob.engine`` only (its ``__init__``): the engine may move a module between its
    rooms without touching a game. (The face's deprecated names are the engine's own.)"""
    imports = _engine_imports_outside_it()
    assert imports, "the reading of imports found none"
    past_face = [i for i in imports if not i.endswith(("-> exactprob.engine", ".deprecated"))]
    assert past_face == []


def test_the_engine_top_holds_its_rooms_and_at_most_twelve_modules() -> None:
    """The engine's top level: the face, the model kinds, the front door and the protocol,
    and simulation; the rest is in rooms (sub-packages), one job each."""
    engine = Path(exactprob.__file__).parent / "engine"
    modules = sorted(p.stem for p in engine.glob("*.py"))
    rooms = sorted(p.parent.name for p in engine.glob("*/__init__.py"))
    assert len(modules) <= 12, modules
    assert rooms == [
        "_internal",
        "certified",
        "exact",
        "graph",
        "levels",
        "long_run",
        "seats",
        "symbolic",
        "wrapped",
    ]


def _engine_packages() -> list[ModuleType]:
    import exactprob.engine

    names = [exactprob.engine.__name__] + [
        info.name
        for info in pkgutil.walk_packages(exactprob.engine.__path__, "exactprob.engine.")
        if info.ispkg
    ]
    return [importlib.import_module(name) for name in names]


@pytest.mark.parametrize("package", _engine_packages(), ids=lambda p: p.__name__)
def test_no_name_of_an_engine_face_is_also_one_of_its_modules(package: ModuleType) -> None:
    """A face's name and a module beside it never share a spelling: ``exactprob.engine.x``
    means one thing, whether read as an attribute or imported as a module."""
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    assert modules & set(getattr(package, "__all__", ())) == set()


@pytest.mark.parametrize(
    "package",
    [p for p in _engine_packages() if Path(p.__file__).with_suffix(".pyi").exists()],
    ids=lambda p: p.__name__,
)
def test_every_name_of_a_lazy_face_loads_and_its_stub_lists_it(package: ModuleType) -> None:
    """A face loaded on first use (its names in the stub ``__init__.pyi``, which mypy reads)
    gives every name it lists, and lists every name its stub imports."""
    import ast

    stub = ast.parse(Path(package.__file__).with_suffix(".pyi").read_text())
    imported = {
        alias.asname or alias.name
        for node in stub.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert set(package.__all__) == imported
    for name in package.__all__:
        assert getattr(package, name) is not None


OPTIONAL = ("matplotlib", "sklearn", "dask", "distributed")


@pytest.mark.parametrize(
    "game", [info.name for info in pkgutil.iter_modules(exactprob.games.__path__)]
)
def test_every_game_has_a_complete_face_that_loads_no_optional_library(game: str) -> None:
    """``exactprob.games.<game>`` lists its public names in ``__all__``, each importable
    from it; figures, learned players and the Dask search load their libraries on use."""
    probe = (
        "import sys, importlib\n"
        f"face = importlib.import_module('exactprob.games.{game}')\n"
        "missing = [n for n in face.__all__ if not hasattr(face, n)]\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:]))\n"
        "print(len(face.__all__), missing, loaded)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *OPTIONAL], capture_output=True, text=True, check=True
    )
    count, missing, loaded = done.stdout.split(" ", 2)
    assert int(count) > 0 and missing == "[]" and loaded.strip() == "[]"


#: numpydoc's checks the engine's public functions must pass: a docstring, every
#: parameter documented and described (none unknown, in order), a described Returns
#: section, a See Also section, and Examples.
NUMPYDOC_CHECKS = {"GL08", "PR01", "PR02", "PR03", "PR07", "RT01", "RT03", "SA01", "EX01"}


@pytest.mark.parametrize(
    "name", [n for n in exactprob.__all__ if inspect.isfunction(getattr(exactprob, n))]
)
def test_the_engines_public_functions_have_numpydoc_sections(name: str) -> None:
    function = getattr(exactprob, name)
    found = validate(f"{function.__module__}.{function.__qualname__}")["errors"]
    assert [(code, text) for code, text in found if code in NUMPYDOC_CHECKS] == []
