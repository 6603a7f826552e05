"""The public surface is a contract: every name of the previous release's face still
imports, and a name that went warns with its new spelling and still answers."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import exactprob as ep
from exactprob.errors import ExactProbDeprecationWarning
from exactprob.games.gamblers_ruin import GamblersRuin

#: ``exactprob.__all__`` of release 0.1.0 (every name the face listed before 0.2.0).
FACE_0_1_0 = [
    line
    for line in (Path(__file__).parent / "face_0.1.0.txt").read_text().splitlines()
    if line and not line.startswith("#")
]

#: The engine's public modules of 0.2.0, each with its ``__all__``.
MODULES_0_2_0 = {
    module: names.split()
    for module, _, names in (
        line.partition(":")
        for line in (Path(__file__).parent / "engine_modules_0.2.0.txt").read_text().splitlines()
        if line and not line.startswith("#")
    )
}

#: The names deprecated in 0.2.0, and the spelling their warning names.
DEPRECATED_0_2_0 = {
    "enclose": 'ep.solve(model, method="certified")',
    "solve_depth_first": 'ep.solve(model, method="depth-first")',
}


@pytest.mark.parametrize("name", FACE_0_1_0)
def test_every_name_of_the_previous_release_still_imports(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # getting a name warns of nothing; calling may
        getattr(ep, name)  # what ``from exactprob import name`` does


def test_the_face_lists_every_name_it_keeps() -> None:
    kept = set(FACE_0_1_0) - set(DEPRECATED_0_2_0)
    assert kept <= set(ep.__all__)
    assert not set(DEPRECATED_0_2_0) & set(ep.__all__)


@pytest.mark.parametrize(("name", "spelling"), DEPRECATED_0_2_0.items())
def test_a_name_that_went_warns_with_its_new_spelling_and_answers(name: str, spelling: str) -> None:
    ruin = GamblersRuin(goal=5, start=2, p="2/5")
    with pytest.warns(ExactProbDeprecationWarning) as caught:
        solved = getattr(ep, name)(ruin, starts=[2, 3])
    assert spelling in str(caught[0].message) and "0.3.0" in str(caught[0].message)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    # the ruin formula (r^k - 1)/(r^n - 1), r = q/p = 3/2, independent of the engine
    for start in (2, 3):
        expected = (Fraction(3, 2) ** start - 1) / (Fraction(3, 2) ** 5 - 1)
        value = solved.value(start)
        assert value.contains(expected) if name == "enclose" else value == expected


@pytest.fixture
def forget_module() -> Iterator[Callable[[str], None]]:
    """Forget a module path now and again after the test, so that importing it runs the
    import afresh (and warns) here, and in whatever test imports it next."""
    forgotten: list[str] = []

    def forget(module: str) -> None:
        forgotten.append(module)
        sys.modules.pop(module, None)

    yield forget
    for module in forgotten:
        sys.modules.pop(module, None)


@pytest.mark.parametrize(("module", "names"), MODULES_0_2_0.items())
def test_every_module_path_of_the_previous_release_still_imports_with_its_names(
    module: str, names: list[str], forget_module: Callable[[str], None]
) -> None:
    """A module that moved into a room warns with its new path (and points at the
    importing line); one that stayed imports silently. Either way every name is there."""
    from exactprob.engine.deprecated import MOVED_MODULES

    if module in MOVED_MODULES:
        forget_module(module)  # a path of its own only in 0.2.0: import it afresh
    if module in MOVED_MODULES:
        with pytest.warns(ExactProbDeprecationWarning, match=MOVED_MODULES[module]) as caught:
            imported = importlib.import_module(module)
        assert imported is importlib.import_module(MOVED_MODULES[module])
        assert "0.4.0" in str(caught[0].message)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            imported = importlib.import_module(module)
    assert [name for name in names if not hasattr(imported, name)] == []


def test_an_answer_pickled_by_the_previous_release_finds_its_classes(
    forget_module: Callable[[str], None],
) -> None:
    """A pickle names each class by its module: the private modules that 0.2.0's answers
    pickled from (the acyclic sweep's values, the level batches, bulk exploration) load
    from their new rooms."""
    from exactprob.engine.deprecated import MOVED_MODULES

    private = {old: new for old, new in MOVED_MODULES.items() if "._internal." in old}
    assert len(private) == 3
    for old, new in private.items():
        forget_module(old)
        with pytest.warns(ExactProbDeprecationWarning):
            assert importlib.import_module(old) is importlib.import_module(new)


def test_a_moved_path_never_hides_a_name_of_the_engines_face(
    forget_module: Callable[[str], None],
) -> None:
    """Importing ``exactprob.engine.solve`` (a module in 0.2.0) leaves the face's
    ``exactprob.engine.solve`` the function it is."""
    import exactprob.engine

    forget_module("exactprob.engine.solve")
    with pytest.warns(ExactProbDeprecationWarning) as caught:
        from exactprob.engine.solve import evaluate  # the 0.2.0 spelling
    assert caught[0].filename == __file__
    assert exactprob.engine.solve is ep.solve
    # the 0.2.0 path's evaluate is the generic engine's, as it was then
    assert evaluate is exactprob.engine.exact.evaluate


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'enclse'"):
        ep.enclse  # noqa: B018


def test_the_version_is_semantic_and_in_the_changelog() -> None:
    """A release ``MAJOR.MINOR.PATCH``, or the next one in the making (``0.3.0.dev0``,
    the changelog's "Unreleased")."""
    from packaging.version import Version

    version = Version(ep.__version__)
    assert version.release >= (0, 2, 0) and len(version.release) == 3
    changelog = (Path(__file__).parents[1] / "CHANGELOG.md").read_text()
    heading = "## [Unreleased]" if version.is_devrelease else f"## [{version}]"
    assert heading in changelog


def test_mypy_refuses_what_a_result_does_not_answer(tmp_path: Path) -> None:
    """The overloads of ``ep.solve`` type each answer: a level model's has no laws or
    play, a certified answer no laws; an answer takes and gives the model's own state
    and action types; the typed example's right calls pass."""
    from mypy import api

    wrong = tmp_path / "wrong_calls.py"
    wrong.write_text(
        "import exactprob as ep\n"
        "from typed_usage import Coins, Ruin\n"
        "ep.solve(Coins()).absorption()\n"
        'ep.solve(Ruin(), method="certified").absorption()\n'
        "ep.solve(Ruin(), parameter_range=(0, 1)).action_values()\n"
        'ep.solve(Ruin()).value("two")\n'  # Ruin's states are whole numbers
        'moved: int = ep.solve(Ruin(), method="certified").policy(2)\n'  # str | None
    )
    here = Path(__file__).parent
    out, _, status = api.run(
        [str(wrong), str(here / "typed_usage.py"), "--cache-dir", str(tmp_path / "cache")]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and all(line.startswith(str(wrong)) for line in errors), out
    assert [line.split(":")[1] for line in errors] == ["3", "4", "5", "6", "7"], out


def _yahtzee(**method: Any) -> Any:
    from exactprob.games.yahtzee import YahtzeeRules, yahtzee_report

    return yahtzee_report(YahtzeeRules(categories=("Yahtzee",), extra_yahtzees=False), **method)


def _softlock(**method: Any) -> Any:
    from exactprob.games.roguelike.softlock import softlock_report

    return softlock_report(14, 1, 3, **method)


def _race(**method: Any) -> Any:
    from exactprob.games.jeopardy import FowlPlay, race_report

    return race_report(FowlPlay(goal=3), **method)


REPORTS = {"yahtzee_report": _yahtzee, "softlock_report": _softlock, "race_report": _race}


@pytest.mark.parametrize("report", REPORTS.values(), ids=REPORTS.keys())
def test_a_report_takes_the_engines_method_and_exact_is_its_deprecated_spelling(
    report: Callable[..., Any],
) -> None:
    """``method="exact"`` answers as ``exact=True`` did, which warns with the new
    spelling at the caller's line; both at once, or another method, is one clear error."""
    answer = report(method="exact").to_json()
    with pytest.warns(ExactProbDeprecationWarning, match='use method="exact"') as caught:
        assert report(exact=True).to_json() == answer
    assert caught[0].filename == __file__
    assert report(method="certified").to_json() != answer  # enclosures, not rationals
    with pytest.raises(ep.UsageError, match="exact= is deprecated"):
        report(method="exact", exact=True)
    with pytest.raises(ep.UsageError, match="method must be 'exact' or 'certified'"):
        report(method="depth-first")
