"""A PRISM model file made ready to run: constants fixed, formulas written out, renamed
modules copied, every expression compiled, and the moves of a state as the PRISM manual
defines them.

The moves of a state: every enabled unlabelled command is a move of its own; for an
action label ``a``, every module that has ``a``-labelled commands must have one enabled,
and each way of picking one per module is a move whose updates are the product of the
picked commands' updates (their probabilities multiplied, their assignments together).
In an MDP each move is a choice; in a DTMC the moves enabled together are taken with
equal probability (PRISM's rule). A state with no move stays where it is (PRISM's
deadlock fix; :attr:`~exactprob.prism.space.StateSpace.deadlocks` lists them).

>>> from exactprob.prism.syntax import parse_model
>>> program = PrismProgram(parse_model('''dtmc
...   module coin  x : [0..2] init 0;
...     [] x=0 -> 1/2:(x'=1) + 1/2:(x'=2);
...   endmodule'''))
>>> program.initial_states(), program.moves((0,))
([(0,)], [('step', {(1,): mpq(1,2), (2,): mpq(1,2)})])
>>> program.state_text((1,))
'(x=1)'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import ConstantError, ModelError, UsageError
from ..util.numbers import is_symbolic, mpq, parse_fraction, to_sympy
from .expressions import (
    EVALUATION_ERRORS,
    Compiled,
    MoveFunction,
    RewardFunction,
    Scope,
    compile_enabled,
    compile_expression,
    compile_move,
    compile_negative_reward,
    compile_rewards,
    constant_value,
    expand,
    names_in,
    rename,
)
from .syntax import (
    Binary,
    Boolean,
    Command,
    Expr,
    ModelSyntax,
    Module,
    Name,
    RenamedModule,
    RewardStructure,
    Update,
    Variable,
)

__all__ = ["MODEL_TYPES", "PrismProgram", "read_constant"]

#: The model types read, by every name PRISM accepts for them.
MODEL_TYPES = {"dtmc": "dtmc", "probabilistic": "dtmc", "mdp": "mdp", "nondeterministic": "mdp"}

_ONE = mpq(1)
F = TypeVar("F")  # a function compiled from a reward structure


def read_constant(name: str, kind: str, text: Any) -> Any:
    """A constant's value from the user (``"3"``, ``"0.25"``, ``"1/3"``, ``"true"``, or a
    number), checked against its type.

    >>> read_constant("p", "double", "0.091"), read_constant("N", "int", "4")
    (mpq(91,1000), 4)
    """
    if kind == "bool":
        if isinstance(text, bool) or str(text).lower() in ("true", "false"):
            return text if isinstance(text, bool) else str(text).lower() == "true"
        raise UsageError(f"the constant {name} is a bool: give true or false, not {text!r}")
    value = parse_fraction(f"the constant {name}", str(text), error=UsageError)
    value = mpq(value.numerator, value.denominator)
    if kind == "int":
        if value.denominator != 1:
            raise UsageError(f"the constant {name} is an int: give a whole number, not {text!r}")
        return int(value)
    return value


@dataclass(frozen=True)
class _Update:
    probability: Compiled | None
    assignments: tuple[tuple[int, Compiled], ...]


@dataclass(frozen=True)
class _Command:
    module: str
    line: int
    action: str | None
    guard: Compiled
    updates: tuple[_Update, ...]
    guard_expr: Expr

    @property
    def where(self) -> str:
        return f"module {self.module}, line {self.line}"


@dataclass(frozen=True)
class _Reward:
    transition: bool
    action: str | None
    guard: Compiled
    value: Compiled


#: A move is compiled into one function once it has been taken this many times.
COMPILE_AFTER = 16


class PrismProgram:
    """A model file with its constants given (``constants``: name -> value, as
    :func:`read_constant` reads them): its variables, initial states, labels, reward
    structures and moves."""

    def __init__(
        self,
        syntax: ModelSyntax,
        constants: Mapping[str, Any] | None = None,
        parameters: Iterable[str] = (),
    ) -> None:
        if syntax.unsupported:
            raise ModelError(
                f"PRISM '{syntax.unsupported[0]}' blocks are not read (dtmc and mdp models only)"
            )
        kind = syntax.model_type or "mdp"
        if kind not in MODEL_TYPES:
            raise ModelError(f"PRISM {kind} models are not read: dtmc and mdp models only")
        self.model_type = MODEL_TYPES[kind]
        self.parameters = tuple(parameters)
        # probabilities in sympy where a parameter may enter them, gmpy2 rationals else
        self._one = to_sympy(1) if self.parameters else _ONE
        self._zero = self._one - self._one
        self.constants = _constants(syntax, dict(constants or {}), self.parameters)
        formulas = _formulas(syntax.formulas)
        modules = _modules(syntax.modules, formulas)
        declared = [*syntax.globals, *(v for m in modules for v in m.variables)]
        self.variables: list[tuple[str, str, Any, Any]] = []  # name, kind, low, high
        scope = Scope(self.constants)
        initial: list[Any] = []
        for variable in declared:
            name, low, high, init = _variable(variable, scope)
            if name in {v[0] for v in self.variables}:
                raise ModelError(f"line {variable.line}: the variable {name} is declared twice")
            self.variables.append((name, variable.kind, low, high))
            initial.append(init)
        self.names = [v[0] for v in self.variables]
        self.scope = Scope(self.constants, {v[0]: (i, v[1]) for i, v in enumerate(self.variables)})
        self.formulas = formulas
        owner = {v.name: m.name for m in modules for v in m.variables}
        self.commands = [
            _command(c, m.name, owner, self, formulas) for m in modules for c in m.commands
        ]
        # the labels written out, each compiled once here so that a bad one is refused
        self.label_exprs = {name: expand(e, formulas) for name, e in syntax.labels.items()}
        for name, label in self.label_exprs.items():
            self.compile(label, f'label "{name}"')
        self.label_exprs.setdefault("init", _initial_expression(syntax.init, declared, formulas))
        self.rewards = {s.name: self._rewards(s, formulas) for s in syntax.rewards}
        self._initial = tuple(initial)
        if syntax.init is not None and any(v.init is not None for v in declared):
            first = next(v for v in declared if v.init is not None)
            raise ModelError(
                f"line {first.line}: the variable {first.name} has an init and the model has "
                "init ... endinit; give the initial states one way (as PRISM requires)"
            )
        self._init = (
            None
            if syntax.init is None
            else self.compile(expand(syntax.init, formulas), "init ... endinit")
        )
        self._alphabet = _alphabets(self.commands)
        self._enabled = compile_enabled([c.guard_expr for c in self.commands], self.scope)
        self._picked: dict[tuple[int, ...], list[tuple[str, list[_Command]]]] = {}
        # each move's updates in one function, made once the move has been taken
        # COMPILE_AFTER times (numbers only: a parameter's sympy expressions go one at a
        # time, each checked)
        self._bounds = [
            None if kind == "bool" else (low, high) for _, kind, low, high in self.variables
        ]
        # each move's function once made (None: it has none), else how often it was taken
        self._moves: dict[tuple[int, ...], MoveFunction | int | None] = {}
        self._reward_sums: dict[str | None, RewardFunction] = {}
        self._negative_rewards: dict[str | None, Callable[[tuple[Any, ...]], Any]] = {}

    def compile(self, expr: Expr, what: str) -> Compiled:
        """``expr`` compiled over this program's variables."""
        return compile_expression(expr, self.scope, what)

    def state_text(self, state: tuple[Any, ...]) -> str:
        """``(x=1, b=true)``: a state by its variables' names."""
        shown = (str(v).lower() if isinstance(v, bool) else str(v) for v in state)
        return "(" + ", ".join(f"{n}={v}" for n, v in zip(self.names, shown, strict=True)) + ")"

    def initial_states(self) -> list[tuple[Any, ...]]:
        """The initial states: each variable's ``init``, or every state that satisfies
        ``init ... endinit`` (in the order of the variables' ranges)."""
        if self._init is None:
            return [self._initial]
        ranges = [
            (False, True) if kind == "bool" else range(low, high + 1)
            for _, kind, low, high in self.variables
        ]
        chosen = [s for s in itertools.product(*ranges) if self._init(s)]
        if not chosen:
            raise ModelError("no state satisfies init ... endinit")
        return chosen

    def moves(self, state: tuple[Any, ...]) -> list[tuple[str, dict[tuple[Any, ...], Any]]]:
        """The moves of ``state``: ``(name, {next state: probability})``; in a DTMC one
        move, ``"step"``, the enabled moves merged; ``[]`` in a deadlock."""
        result = [(name, self._product(commands, state)) for name, commands in self._picks(state)]
        if self.model_type == "dtmc" and result:
            if len(result) == 1:
                return [("step", result[0][1])]
            share = self._one / len(result)
            merged: dict[tuple[Any, ...], Any] = {}
            for _, dist in result:
                for target, p in dist.items():
                    merged[target] = merged.get(target, 0) + share * p
            return [("step", merged)]
        return result

    def _picks(self, state: tuple[Any, ...]) -> list[tuple[str, list[_Command]]]:
        """The moves of ``state``, each by its name (:func:`_move_names`) with the
        commands it takes; worked out once for each set of enabled commands."""
        enabled = self._enabled_commands(state)
        key = tuple(map(id, enabled))
        picks = self._picked.get(key)
        if picks is None:
            moves = self._picks_of(enabled)
            picks = self._picked[key] = [
                (name, commands)
                for name, (_, commands) in zip(_move_names(moves), moves, strict=True)
            ]
        return picks

    def _picks_of(self, enabled: list[_Command]) -> list[tuple[str, list[_Command]]]:
        """The moves that the ``enabled`` commands make, as the commands each takes:
        every enabled unlabelled command alone, and for each action every way of
        picking one enabled command of each module that synchronises on it (``""``
        labels an unlabelled move)."""
        moves: list[tuple[str, list[_Command]]] = []
        synchronising: dict[str, dict[str, list[_Command]]] = {}
        for c in enabled:
            if c.action is None:
                moves.append(("", [c]))
            else:
                synchronising.setdefault(c.action, {}).setdefault(c.module, []).append(c)
        for action, modules in self._alphabet.items():
            by_module = synchronising.get(action)
            if by_module is not None and len(by_module) == len(modules):
                per_module = [by_module[m] for m in modules]
                moves.extend((action, list(pick)) for pick in itertools.product(*per_module))
        return moves

    def move_rewards(self, structure: str | None, state: tuple[Any, ...], move: str) -> Any:
        """The reward of taking ``move`` in ``state``: the state rewards plus the move's
        transition rewards (in a DTMC, the mean over the moves merged)."""
        total, earned_by = self._summed_rewards(structure, state)
        if not earned_by:
            return total
        if self.model_type == "dtmc":  # the mean over the moves merged into one
            actions = [commands[0].action or "" for _, commands in self._picks(state)]
            earned = sum((earned_by.get(a, self._zero) for a in actions), self._zero)
            return total + earned / len(actions) if actions else total
        return total + earned_by.get(move.split("(")[0], self._zero)

    def _summed_rewards(
        self, structure: str | None, state: tuple[Any, ...]
    ) -> tuple[Any, dict[str, Any]]:
        """The structure's state rewards summed in ``state``, and its transition rewards
        summed by action (the actions with an item whose guard holds): by its compiled
        function (made on first use), else, with a parameter or where an item fails,
        each item alone (:meth:`reward_value` names the state of one that fails)."""
        if not self.parameters:
            summed = self._reward_function(self._reward_sums, compile_rewards, structure)
            try:
                return summed(state)
            except EVALUATION_ERRORS:
                pass
        total: Any = self._zero
        earned_by: dict[str, Any] = {}
        for item in self.rewards[structure]:
            if item.guard(state):
                value = self.reward_value(item, state)
                if not item.transition:
                    total = total + value
                else:
                    action = item.action or ""
                    earned_by[action] = earned_by.get(action, self._zero) + value
        return total, earned_by

    def negative_reward(self, structure: str | None, state: tuple[Any, ...]) -> Any:
        """The value of the structure's first item whose guard holds in ``state`` and
        whose value is negative (``None`` if none is; a value that depends on a parameter
        is taken as positive)."""
        if not self.parameters:
            negative = self._reward_function(
                self._negative_rewards, compile_negative_reward, structure
            )
            try:
                return negative(state)
            except EVALUATION_ERRORS:
                pass  # each item alone, to name the one that fails
        for item in self.rewards[structure]:
            if item.guard(state):
                value = self.reward_value(item, state)
                if not is_symbolic(value) and value < 0:
                    return value
        return None

    def _reward_function(
        self,
        made: dict[str | None, F],
        make: Callable[[list[tuple[str | None, Compiled, Compiled]]], F],
        structure: str | None,
    ) -> F:
        """``make`` (:func:`compile_rewards` or :func:`compile_negative_reward`) of the
        structure's items, made on first use and kept in ``made``."""
        function = made.get(structure)
        if function is None:
            items = [
                (r.action if r.transition else None, r.guard, r.value)
                for r in self.rewards[structure]
            ]
            function = made[structure] = make(items)
        return function

    def reward_value(self, item: _Reward, state: tuple[Any, ...]) -> Any:
        """One reward item's value in ``state``, an error naming the state if it fails; in
        sympy where a parameter may enter the sums (a gmpy2 rational added to a sympy
        number would become a float)."""
        try:
            value = item.value(state)
        except (ZeroDivisionError, TypeError, ModelError) as error:
            raise ModelError(f"a reward: {error}, in state {self.state_text(state)}") from None
        return to_sympy(value) if self.parameters else value

    def _enabled_commands(self, state: tuple[Any, ...]) -> list[_Command]:
        """The commands whose guards hold in ``state``: all guards in one call, or one
        at a time to name the command whose guard fails."""
        commands = self.commands
        try:
            return [commands[i] for i in self._enabled(state)]
        except (ZeroDivisionError, ModelError, TypeError):
            return [c for c in commands if self._holds(c.guard, state, c.where)]

    def _holds(self, guard: Compiled, state: tuple[Any, ...], where: str) -> bool:
        try:
            return bool(guard(state))
        except (ZeroDivisionError, ModelError) as error:
            raise ModelError(
                f"{where}: {error} in the guard, in state {self.state_text(state)}"
            ) from None
        except TypeError:  # sympy cannot order a parameter
            raise ModelError(
                f"{where}: the guard depends on a parameter ({', '.join(self.parameters)}); "
                "a parameter may set probabilities and rewards only"
            ) from None

    def _product(
        self, commands: list[_Command], state: tuple[Any, ...]
    ) -> dict[tuple[Any, ...], Any]:
        """The distribution of the commands' updates taken together: by the move's
        compiled function (:func:`~exactprob.prism.expressions.compile_move`) where it
        has one and its checks pass, else one assignment at a time, which names what
        failed."""
        compiled = self._compiled(commands, state)
        if compiled is not None:
            dist: dict[tuple[Any, ...], Any] = {}
            for p, target in compiled:
                if p:
                    dist[target] = dist.get(target, 0) + p
            return dist
        branches = [self._branches(c, state) for c in commands]
        dist = {}
        for combination in itertools.product(*branches):
            p = self._one
            after = list(state)
            written: set[int] = set()
            for command, (q, assignments) in zip(commands, combination, strict=True):
                p = p * q
                for position, value in assignments:
                    if position in written:
                        raise ModelError(
                            f"{command.where}: {self.names[position]} is written by two "
                            f"synchronising commands, in state {self.state_text(state)}"
                        )
                    written.add(position)
                    after[position] = value
            if p:
                target = tuple(after)
                dist[target] = dist.get(target, 0) + p
        return dist

    def _compiled(
        self, commands: list[_Command], state: tuple[Any, ...]
    ) -> tuple[tuple[Any, tuple[Any, ...]], ...] | None:
        """The move of ``commands`` in ``state`` by its compiled function, made once the
        move has been taken :data:`COMPILE_AFTER` times (writing one out costs about as
        much as taking it that many times the slow way: herman's products are each
        taken twice); ``None`` before, with a parameter, where two commands may write
        one variable, or where a check fails."""
        if self.parameters:
            return None
        key = tuple(map(id, commands))
        known = self._moves.get(key, 0)
        if isinstance(known, int):
            if known < COMPILE_AFTER:
                self._moves[key] = known + 1
                return None
            updates = [[(u.probability, list(u.assignments)) for u in c.updates] for c in commands]
            known = self._moves[key] = compile_move(updates, self._bounds)
        return None if known is None else known(state)

    def _branches(
        self, command: _Command, state: tuple[Any, ...]
    ) -> list[tuple[Any, list[tuple[int, Any]]]]:
        """The command's updates in ``state``: ``(probability, [(position, value)])``,
        checked (probabilities in [0, 1] summing to 1, values within range)."""
        branches = []
        total = self._zero
        try:
            for update in command.updates:
                p = self._one if update.probability is None else update.probability(state)
                if self.parameters:  # sympy turns a gmpy2 rational into a float
                    p = to_sympy(p)
                if not is_symbolic(p) and not 0 <= p <= 1:
                    raise ModelError(f"the probability {p} is not within [0, 1]")
                total = total + p
                branches.append(
                    (p, [(i, self._value(i, f(state), command)) for i, f in update.assignments])
                )
        except (ZeroDivisionError, TypeError) as error:
            raise ModelError(
                f"{command.where}: {error}, in state {self.state_text(state)} (a parameter "
                "may set probabilities and rewards only)"
                if isinstance(error, TypeError)
                else f"{command.where}: {error}, in state {self.state_text(state)}"
            ) from None
        except ModelError as error:
            raise ModelError(
                f"{command.where}: {error}, in state {self.state_text(state)}"
            ) from None
        if (sympy_simplified(total) if is_symbolic(total) else total) != 1:
            raise ModelError(
                f"{command.where}: the probabilities of the updates sum to {total}, not 1, in "
                f"state {self.state_text(state)}"
            )
        return branches

    def _value(self, position: int, value: Any, command: _Command) -> Any:
        name, kind, low, high = self.variables[position]
        if kind == "bool":
            return value
        if not isinstance(value, int):
            if value.denominator != 1:
                raise ModelError(f"the update sets the int {name} to {value}")
            value = int(value)
        if not low <= value <= high:
            raise ModelError(
                f"the update sets {name} to {value}, outside its range [{low}..{high}]"
            )
        return value

    def _rewards(self, structure: RewardStructure, formulas: Mapping[str, Expr]) -> list[_Reward]:
        what = f'rewards "{structure.name}"' if structure.name else "rewards"
        items = []
        for item in structure.items:
            guard = self.compile(expand(item.guard, formulas), what)
            value = self.compile(expand(item.value, formulas), what)
            if guard.kind != "bool" or value.kind == "bool":
                raise ModelError(f"{what}: a reward is 'guard : number;'")
            items.append(_Reward(item.transition, item.action, guard, value))
        return items


def _move_names(moves: list[tuple[str, list[_Command]]]) -> list[str]:
    """Each move by its action label, with the commands' lines where one label names
    several moves (``a(M:3,N:7)``); an unlabelled move by its module and line, numbered
    (``(M:3)#2``) where several commands share a line."""
    labels = [a for a, _ in moves]
    names = []
    for action, commands in moves:
        if action and labels.count(action) == 1:
            names.append(action)
        else:
            where = ",".join(f"{c.module}:{c.line}" for c in commands)
            names.append(f"{action}({where})")
    for name in set(names):  # commands on one line: numbered in their order
        if names.count(name) > 1:
            places = [i for i, n in enumerate(names) if n == name]
            for k, i in enumerate(places, 1):
                names[i] = f"{name}#{k}"
    return names


def _alphabets(commands: list[_Command]) -> dict[str, list[str]]:
    """Each action label with the modules that synchronise on it, in order."""
    alphabet: dict[str, list[str]] = {}
    for c in commands:
        if c.action is not None and c.module not in alphabet.setdefault(c.action, []):
            alphabet[c.action].append(c.module)
    return alphabet


def _constants(
    syntax: ModelSyntax, given: dict[str, Any], parameters: tuple[str, ...] = ()
) -> dict[str, tuple[str, Any]]:
    """Every constant's ``(kind, value)``: from the file, else from ``given`` (which may
    also hold the constants of a properties file); a ``parameter`` (an undefined double)
    is a sympy symbol."""
    declared = {name: (kind, expr) for kind, name, expr in syntax.constants}
    if len(declared) < len(syntax.constants):
        names = [name for _, name, _ in syntax.constants]
        twice = next(name for name in names if names.count(name) > 1)
        raise ModelError(f"the constant {twice} is declared twice")
    for name in parameters:
        if name not in declared or declared[name][1] is not None or declared[name][0] != "double":
            raise UsageError(
                f"a parameter must be a double constant the model leaves undefined; {name} is not"
            )
        if name in given:
            raise UsageError(f"{name} is given a value and made a parameter: choose one")
    import sympy

    symbols = {name: sympy.Symbol(name) for name in parameters}
    given = {
        name: value for name, value in given.items() if name in declared
    }  # the rest: properties'
    values: dict[str, tuple[str, Any]] = {}
    busy: set[str] = set()

    def resolve(name: str) -> None:
        kind, expr = declared[name]
        if name in values:
            return
        if name in symbols:
            values[name] = ("double", symbols[name])
            return
        if name in given:
            if expr is not None:
                raise UsageError(f"the constant {name} is defined in the model; it cannot be given")
            values[name] = (kind, read_constant(name, kind, given[name]))
            return
        if expr is None:
            raise ConstantError(name)
        if name in busy:
            raise ModelError(f"the constant {name} is defined in terms of itself")
        busy.add(name)
        for needed in names_in(expr):
            if needed in declared:
                resolve(needed)
        got, value = constant_value(expr, Scope(values), f"const {name}")
        if kind == "int" and got != "int" or (kind == "bool") != (got == "bool"):
            raise ModelError(f"the constant {name} is declared {kind} but its value is a {got}")
        rational = kind == "double" and not is_symbolic(value)
        values[name] = (kind, mpq(value) if rational else value)

    for name in declared:
        resolve(name)
    return values


def _formulas(formulas: Mapping[str, Expr]) -> dict[str, Expr]:
    """Every formula written out in terms of constants and variables only."""
    done: dict[str, Expr] = {}

    def written(name: str, path: tuple[str, ...]) -> Expr:
        if name in path:
            raise ModelError(f"the formula {name} is defined in terms of itself")
        if name not in done:
            inner = {
                n: written(n, (*path, name)) for n in names_in(formulas[name]) if n in formulas
            }
            done[name] = expand(formulas[name], inner)
        return done[name]

    for name in formulas:
        written(name, ())
    return done


def _modules(declared: list[Module | RenamedModule], formulas: Mapping[str, Expr]) -> list[Module]:
    """The modules, each renamed one copied from its base with the formulas written out
    and then its names replaced (PRISM's order: a formula in the copy reads the renamed
    variables)."""
    by_name: dict[str, Module] = {}
    for module in declared:
        if isinstance(module, RenamedModule):
            base = by_name.get(module.base)
            if base is None:
                raise ModelError(
                    f"line {module.line}: module {module.name} renames {module.base}, which is not defined before it"
                )
            module = _renamed(base, module, formulas)
        if module.name in by_name:
            raise ModelError(f"the module {module.name} is defined twice")
        by_name[module.name] = module
    return list(by_name.values())


def _renamed(base: Module, renaming: RenamedModule, formulas: Mapping[str, Expr]) -> Module:
    names = dict(renaming.renames)

    def copy(expr: Expr) -> Expr:
        return rename(expand(expr, formulas), names)

    variables = tuple(
        Variable(
            names.get(v.name, v.name),
            v.kind,
            None if v.low is None else copy(v.low),
            None if v.high is None else copy(v.high),
            None if v.init is None else copy(v.init),
            v.line,
        )
        for v in base.variables
    )
    commands = tuple(
        Command(
            None if c.action is None else names.get(c.action, c.action),
            copy(c.guard),
            tuple(
                Update(
                    None if u.probability is None else copy(u.probability),
                    tuple((names.get(v, v), copy(e)) for v, e in u.assignments),
                )
                for u in c.updates
            ),
            c.line,
        )
        for c in base.commands
    )
    return Module(renaming.name, variables, commands)


def _variable(variable: Variable, scope: Scope) -> tuple[str, Any, Any, Any]:
    """``(name, low, high, initial value)`` of a declared variable."""
    where = f"line {variable.line}, variable {variable.name}"
    if variable.kind == "bool":
        init = False
        if variable.init is not None:
            kind, init = constant_value(variable.init, scope, where)
            if kind != "bool":
                raise ModelError(f"{where}: a bool starts true or false, not a {kind}")
        return variable.name, None, None, init
    if variable.kind != "int" or variable.low is None or variable.high is None:
        raise ModelError(
            f"{where}: an unbounded variable ({variable.kind}) has no finite state space; give it a range [low..high]"
        )
    bounds = [constant_value(e, scope, where) for e in (variable.low, variable.high)]
    if any(kind != "int" for kind, _ in bounds):
        raise ModelError(f"{where}: a range's ends must be whole numbers")
    low, high = bounds[0][1], bounds[1][1]
    if low > high:
        raise ModelError(f"{where}: the range [{low}..{high}] is empty")
    init = low
    if variable.init is not None:
        kind, init = constant_value(variable.init, scope, where)
        if kind != "int" or not low <= init <= high:
            raise ModelError(
                f"{where}: the initial value {init} is not a whole number in [{low}..{high}]"
            )
    return variable.name, low, high, init


def _command(
    command: Command,
    module: str,
    owner: Mapping[str, str],
    program: PrismProgram,
    formulas: Mapping[str, Expr],
) -> _Command:
    where = f"module {module}, line {command.line}"
    guard_expr = expand(command.guard, formulas)
    guard = program.compile(guard_expr, where)
    if guard.kind != "bool":
        raise ModelError(f"{where}: the guard is a {guard.kind}, not a boolean")
    updates = []
    for update in command.updates:
        probability = None
        if update.probability is not None:
            probability = program.compile(expand(update.probability, formulas), where)
            if probability.kind == "bool":
                raise ModelError(f"{where}: a probability must be a number")
        assignments: list[tuple[int, Compiled]] = []
        for name, expr in update.assignments:
            if name not in program.scope.variables:
                raise ModelError(f"{where}: {name} is not a variable")
            if owner.get(name, module) != module:
                raise ModelError(
                    f"{where}: module {module} cannot write {name}, a variable of module {owner[name]}"
                )
            position, kind = program.scope.variables[name]
            if any(position == written for written, _ in assignments):
                raise ModelError(f"{where}: an update gives {name} two values")
            value = program.compile(expand(expr, formulas), where)
            if (kind == "bool") != (value.kind == "bool"):
                raise ModelError(f"{where}: {name} is a {kind} but is given a {value.kind}")
            assignments.append((position, value))
        updates.append(_Update(probability, tuple(assignments)))
    return _Command(module, command.line, command.action, guard, tuple(updates), guard_expr)


def _initial_expression(
    init: Expr | None, declared: list[Variable], formulas: Mapping[str, Expr]
) -> Expr:
    """The built-in label ``"init"``: ``init ... endinit``, or each variable at its
    initial value (the low end, or false, unless given)."""
    if init is not None:
        return expand(init, formulas)
    parts: list[Expr] = []
    for v in declared:
        start = v.init if v.init is not None else (Boolean(False) if v.kind == "bool" else v.low)
        if start is not None:
            parts.append(Binary("=", Name(v.name), start))
    whole: Expr = Boolean(True)
    for part in parts:
        whole = Binary("&", whole, part)
    return whole


def sympy_simplified(x: Any) -> Any:
    """A sympy expression in lowest terms (a sum of probabilities, checked to be 1)."""
    import sympy

    return sympy.cancel(x)
