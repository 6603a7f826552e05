"""A PRISM model loaded for checking: :func:`load` reads the file, :meth:`PrismModel.check`
answers a property, and :meth:`PrismModel.question` gives the engine model behind a
property, which ``ep.solve`` answers by any method.

>>> model = loads('''dtmc
...   module die  s : [0..3] init 0;  d : [0..2] init 0;
...     [] s=0 -> 1/2:(s'=1) + 1/2:(s'=2);
...     [] s=1 -> 1/2:(s'=0) + 1/2:(s'=3)&(d'=1);
...     [] s=2 -> 1/2:(s'=3)&(d'=2) + 1/2:(s'=3)&(d'=1);
...     [] s=3 -> true;
...   endmodule''')
>>> result = model.check('P=? [F d=1]')
>>> result.value
Fraction(2, 3)
>>> model.check('P>=0.6 [F d=1]').value, model.check('P>0.7 [F d=1]').value
(True, False)
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import ConstantError, UsageError
from ..util.limits import DEFAULT_MAX_STATES, check_max_states
from ..util.numbers import decimal_string, fraction_string, is_symbolic
from .check import Answer, answer, bounded_question, probability_question, reward_question
from .expressions import Scope, constant_value, expand
from .program import PrismProgram, read_constant
from .questions import QuestionModel
from .space import StateSpace, explore_space
from .syntax import (
    Expr,
    ProbabilityOperator,
    Property,
    RewardOperator,
    parse_model,
    parse_properties,
)

__all__ = ["PrismModel", "PropertyResult", "load", "loads"]


@dataclass
class PropertyResult:
    """One property's answer: ``values`` at each initial state (an exact ``Fraction``,
    ``math.inf`` for an unbounded reward, a truth value for a bound, or an
    :class:`~exactprob.engine.enclosure.Enclosure` in certified mode), the engine's
    ``solution`` (``None`` when the graph alone decided), and the time taken."""

    name: str | None
    text: str
    values: dict[tuple[Any, ...], Any]
    method: str
    states: int
    seconds: float
    solution: Any = None

    @property
    def value(self) -> Any:
        """The value at the initial states, when they all have the same (a filter's one
        value, or the value of the one initial state); else read ``values``."""
        distinct = set(self.values.values())
        if len(distinct) != 1:
            raise UsageError(
                f"the {len(self.values)} initial states have {len(distinct)} values: read values"
            )
        return distinct.pop()

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON: ``value`` ("p/q", or "inf", or true/false) with its
        ``value_decimal`` twin, or ``values`` per initial state."""
        fields: dict[str, Any] = {
            "property": self.text,
            "method": self.method,
            "states": self.states,
        }
        if self.name is not None:
            fields = {"name": self.name, **fields}
        shown = [_json_value(v) for v in self.values.values()]
        if len(shown) == 1:
            fields.update({f"value{k}": v for k, v in shown[0].items()})
        else:
            fields["values"] = [
                {"state": list(s), **{f"value{k}": x for k, x in v.items()}}
                for s, v in zip(self.values, shown, strict=True)
            ]
        fields["seconds"] = round(self.seconds, 3)
        return fields


def _json_value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"": value}
    if is_symbolic(value):
        return {"": str(value)}
    if value == float("inf"):
        return {"": "inf", "_decimal": "inf"}
    if hasattr(value, "low"):
        return {"_low": fraction_string(value.low), "_high": fraction_string(value.high)}
    return {"": fraction_string(value), "_decimal": decimal_string(value)}


class PrismModel:
    """A PRISM model file read, with its constants: ``model_type`` (``"dtmc"`` or
    ``"mdp"``), ``program`` (variables, labels, rewards) and, built on first use,
    ``space`` (the reachable states). ``parameters`` names undefined ``double``
    constants kept as symbols: a DTMC's values are then rational functions of them
    (exact for every value that keeps each probability of the model positive)."""

    def __init__(
        self,
        text: str,
        constants: Mapping[str, Any] | None = None,
        *,
        parameters: Sequence[str] = (),
        source: str = "",
        max_states: int = DEFAULT_MAX_STATES,
        progress: bool | None = None,
    ) -> None:
        self.source = source
        self.given = dict(constants or {})
        self.program = PrismProgram(parse_model(text, source), self.given, parameters)
        #: the constants given that neither the model nor a properties file read so far
        #: declares (:meth:`check_constants_used` refuses them)
        self.unused = set(self.given) - set(self.program.constants)
        self._model_constants = set(self.program.constants)
        if len(parameters) > 1 and self.program.model_type == "mdp":
            raise UsageError(
                "an MDP takes one parameter: its best play is found piece by piece in it"
            )
        self.max_states = check_max_states(max_states)
        self.progress = progress
        self._space: StateSpace | None = None

    @property
    def model_type(self) -> str:
        return self.program.model_type

    @property
    def space(self) -> StateSpace:
        """The reachable states and their moves (explored once)."""
        if self._space is None:
            self._space = explore_space(
                self.program, max_states=self.max_states, progress=self.progress
            )
        return self._space

    @property
    def initial_states(self) -> list[tuple[Any, ...]]:
        return [self.space.states[i] for i in self.space.initial]

    def properties(self, text: str, *, source: str = "") -> list[Property]:
        """The properties of a properties file's ``text``; its constants take their
        values from the file or from the constants this model was given, and its
        labels join the model's."""
        tree = parse_properties(text, source)
        program = self.program
        self.unused -= {name for _, name, _ in tree.constants}
        for kind, name, expr in tree.constants:
            if name in self._model_constants:
                raise UsageError(
                    f"the constant {name} is defined in both the model and the properties"
                )
            if expr is None:
                if name not in self.given:
                    raise ConstantError(name)
                program.constants[name] = (kind, read_constant(name, kind, self.given[name]))
            else:
                program.constants[name] = constant_value(
                    expr, Scope(program.constants), f"const {name}"
                )
        program.label_exprs.update(
            {name: expand(expr, program.formulas) for name, expr in tree.labels.items()}
        )
        return tree.properties

    def check_constants_used(self) -> None:
        """Refuse a constant given that neither the model nor its properties declare."""
        if self.unused:
            declared = ", ".join(self.program.constants) or "none"
            raise UsageError(
                f"neither the model nor its properties have a constant {min(self.unused)} "
                f"(they have: {declared})"
            )

    def check(
        self, prop: str | Property, *, method: str = "exact", **solve_options: Any
    ) -> PropertyResult:
        """The answer to ``prop`` (a property's text, or one of :meth:`properties`) at
        the initial states, exact unless ``method`` says otherwise."""
        prop, expr = self._one(prop)
        started = time.perf_counter()
        space = self.space
        result: Answer = answer(space, expr, space.initial, method, **solve_options)
        values = {space.states[i]: _public(result.values[i]) for i in space.initial}
        return PropertyResult(
            prop.name,
            prop.text,
            values,
            method,
            len(space),
            time.perf_counter() - started,
            result.solution,
        )

    def values(self, prop: str | Property, *, method: str = "exact") -> dict[tuple[Any, ...], Any]:
        """``prop``'s value at every reachable state (what model checkers compute)."""
        _, expr = self._one(prop)
        space = self.space
        found = answer(space, expr, list(range(len(space))), method)
        return {space.states[i]: _public(v) for i, v in found.values.items()}

    def question(self, prop: str | Property) -> QuestionModel:
        """The model the engine solves for ``P [F b]``, ``P [a U b]`` or ``R [F b]``
        (with max or min in an MDP): the reachable states, the states the graph decides
        made terminal, the mover maximising or minimising (with a reward bound,
        ``F^{rew{"r"}<=B}``, or a lower or interval step bound, its states are
        ``(state, reward gathered)`` pairs). ``ep.solve`` answers it by any method, with
        its derivation, laws and policy; its value at a state is the property's, where
        :meth:`check` finds it finite.

        >>> import exactprob as ep
        >>> model = loads("mdp module m x : [0..2] init 0; [go] x=0 -> 0.3:(x'=1) + 0.7:(x'=2);"
        ...               " [wait] x=0 -> true; [] x>0 -> true; endmodule")
        >>> ep.solve(model.question("Pmax=? [F x=1]")).value()
        Fraction(3, 10)
        """
        _, expr = self._one(prop)
        if isinstance(expr, ProbabilityOperator | RewardOperator) and expr.path.steps is not None:
            raise UsageError(
                "a question model is made for unbounded properties; check() answers a bound"
            )
        if isinstance(expr, ProbabilityOperator) and expr.path.reward_bound is not None:
            model, _, complement = bounded_question(self.space, expr, self.space.initial)
            if complement:
                raise UsageError("a question model is made for F and U: ask G as 1 - P [F !b]")
            return model
        if isinstance(expr, ProbabilityOperator) and expr.path.kind in ("F", "U"):
            return probability_question(self.space, expr)[0]
        if isinstance(expr, RewardOperator):
            return reward_question(self.space, expr)[0]
        raise UsageError(
            "a question model is made for P=? [F b], P=? [a U b] and R=? [F b] (with max or min)"
        )

    def _one(self, prop: str | Property) -> tuple[Property, Expr]:
        """``prop`` read (a text holds one property), with its expression; a property
        the grammar could not read is refused with its error."""
        if isinstance(prop, str):
            found = self.properties(prop)
            if len(found) != 1:
                raise UsageError(f"give one property, got {len(found)}")
            prop = found[0]
        if prop.error is not None:
            raise UsageError(
                "the property cannot be read: " + re.sub(r", line \d+, column \d+", "", prop.error)
            )
        assert prop.expr is not None  # read without an error
        return prop, prop.expr


def _public(value: Any) -> Any:
    if isinstance(value, bool) or is_symbolic(value) or hasattr(value, "low"):
        return value
    if value == float("inf"):
        return value
    return Fraction(value)


def loads(text: str, constants: Mapping[str, Any] | None = None, **options: Any) -> PrismModel:
    """A model from PRISM text (``constants``: name -> value for those the text leaves
    undefined)."""
    return PrismModel(text, constants, **options)


def load(
    path: str | Path, constants: Mapping[str, Any] | None = None, **options: Any
) -> PrismModel:
    """A model from a PRISM file."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise UsageError(f"cannot read the PRISM file {path}: {error.strerror or error}") from None
    return PrismModel(text, constants, source=path.name, **options)
