"""What ``exactprob prism`` prints: the model's size and each property's exact answer.

>>> from exactprob.prism import loads
>>> model = loads("dtmc module m x : [0..1] init 0; [] x=0 -> 1/3:(x'=1) + 2/3:true; [] x=1 -> true; endmodule")
>>> report = prism_report(model, model.properties('"hit": P=? [F x=1]; R=? [F x=1]'), "m.prism")
>>> print(report.text())  # doctest: +ELLIPSIS
PRISM dtmc m.prism: 2 states, 1 initial state
  hit: P=? [F x=1] = 1
  R=? [F x=1]: the model has no reward structure (it has: none)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ModelError, UsageError
from ..util.text import count_text, exact_text
from .model import PrismModel, PropertyResult
from .syntax import Property

__all__ = ["PrismReport", "prism_report"]


@dataclass
class PrismReport:
    """The model's facts and, per property, its result or the one line that refused it."""

    source: str
    model_type: str
    states: int
    initial: int
    deadlocks: int
    answers: list[tuple[Property, PropertyResult | str]]

    def to_json(self) -> dict[str, Any]:
        properties = []
        for prop, found in self.answers:
            if isinstance(found, str):
                properties.append({"name": prop.name, "property": prop.text, "error": found})
            else:
                properties.append(found.to_json())
        return {
            "model": self.source,
            "model_type": self.model_type,
            "states": self.states,
            "initial_states": self.initial,
            "deadlock_states": self.deadlocks,
            "properties": properties,
        }

    def text(self) -> str:
        size = f"{count_text(self.states, 'state')}, {count_text(self.initial, 'initial state')}"
        lines = [f"PRISM {self.model_type} {self.source}: {size}"]
        for prop, found in self.answers:
            named = f"{prop.name}: " if prop.name else ""
            if isinstance(found, str):
                lines.append(f"  {named}{prop.text}: {found}")
                continue
            values = list(found.values.values())
            shown = ", ".join(_shown(v) for v in values)
            lines.append(f"  {named}{prop.text} = {shown}")
        return "\n".join(lines)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if value == float("inf"):
        return "infinity"
    return exact_text(value)


def prism_report(
    model: PrismModel, properties: Sequence[Property], source: str, *, method: str = "exact"
) -> PrismReport:
    """Each property checked on ``model``; a property the reader refuses (an operator
    out of scope, a missing reward structure, a name it does not know) gets its one
    line, and the others are still answered."""
    space = model.space  # a model that cannot be built is refused once, for all
    answers: list[tuple[Property, PropertyResult | str]] = []
    for prop in properties:
        try:
            answers.append((prop, model.check(prop, method=method)))
        except (UsageError, ModelError) as refused:
            answers.append((prop, str(refused)))
    return PrismReport(
        source, model.model_type, len(space), len(space.initial), len(space.deadlocks), answers
    )
