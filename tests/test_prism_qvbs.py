"""The QVBS models (tests/qvbs, CC-BY 4.0): every property's exact value equals the one
the benchmark set publishes from Storm's exact engine, and the command line prints it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from exactprob import prism
from exactprob.cli import main

HERE = Path(__file__).parent / "qvbs"
INSTANCES = json.loads((HERE / "instances.json").read_text())
CASES = [(i, p) for i in INSTANCES for p in i["properties"]]


def _published(text: str) -> Fraction | bool:
    """A published value: a fraction, or a truth (``true``, a qualitative property's)."""
    return text == "true" if text in ("true", "false") else Fraction(text)


def _filter_kind(text: str) -> str | None:
    return text.split("(")[1].split(",")[0].strip() if text.startswith("filter(") else None


@pytest.mark.parametrize(
    ("instance", "prop"), CASES, ids=[f"{i['benchmark']}-{p['name']}" for i, p in CASES]
)
def test_each_property_equals_the_published_exact_value(instance: Any, prop: Any) -> None:
    model = prism.load(HERE / instance["model_file"], instance["constants"])
    properties = model.properties((HERE / instance["properties_file"]).read_text())
    chosen = next(p for p in properties if p.name == prop["name"])
    result = model.check(chosen)
    values = list(result.values.values())
    assert len(values) == 1 or _filter_kind(chosen.text) is not None
    published = _published(prop["exact_value"])
    assert all(v == published and type(v) is type(published) for v in values)
    assert result.states == instance["states"]


def test_the_command_line_prints_the_published_values_as_json(capsys: Any) -> None:
    instance = next(i for i in INSTANCES if i["benchmark"] == "csma")
    constants = ",".join(f"{k}={v}" for k, v in instance["constants"].items())
    argv = ["prism", str(HERE / instance["model_file"]), str(HERE / instance["properties_file"])]
    status = main([*argv, *(["--constant", constants] if constants else []), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    published = {p["name"]: p["exact_value"] for p in instance["properties"]}
    got = {p["name"]: p["value"] for p in out["properties"] if p["name"] in published}
    assert {k: Fraction(v) for k, v in got.items()} == {
        k: Fraction(v) for k, v in published.items()
    }
