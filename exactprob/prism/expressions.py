"""PRISM expressions, typed and compiled: each expression becomes one Python function of
the state (a tuple of the variables' values) that computes it exactly.

Types follow the PRISM manual: ``int``, ``double`` and ``bool``; ``/`` always gives a
double; a double is an exact rational (:class:`gmpy2.mpq`), so ``0.1 + 0.2 = 0.3`` holds.
``log``, and ``pow`` to a fractional power, would leave the rationals: they are refused.

>>> scope = Scope(constants={"N": ("int", 3)}, variables={"x": (0, "int")})
>>> f = compile_expression(Binary("<", Name("x"), Name("N")), scope, "a guard")
>>> f.kind, f((2,)), f((3,))
('bool', True, False)
>>> compile_expression(Binary("/", Name("x"), Number(4)), scope, "a value")((2,))
mpq(1,2)
>>> compile_expression(Binary("&", Name("x"), Boolean(True)), scope, "a guard")
Traceback (most recent call last):
...
exactprob.errors.ModelError: a guard: '&' needs booleans, got int and bool
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import gmpy2

from ..errors import ModelError
from ..util.numbers import is_symbolic, mpq, to_sympy
from .syntax import (
    Binary,
    Boolean,
    Call,
    Expr,
    Filter,
    Ite,
    LabelRef,
    Name,
    Number,
    ProbabilityOperator,
    RewardOperator,
    SteadyOperator,
    Unary,
    Unsupported,
)

__all__ = [
    "EVALUATION_ERRORS",
    "Compiled",
    "MoveFunction",
    "RewardFunction",
    "Scope",
    "StateSet",
    "Updates",
    "compile_enabled",
    "compile_expression",
    "compile_move",
    "compile_negative_reward",
    "compile_rewards",
    "conjuncts",
    "constant_value",
    "expand",
    "names_in",
    "rename",
]

_ARITHMETIC = {"+", "-", "*"}
_ORDER = {"<", "<=", ">", ">="}
_LOGIC = {"&": "and", "|": "or"}


@dataclass(frozen=True)
class StateSet:
    """A label given by its states, not by an expression (PRISM's built-in
    ``"deadlock"``, known once the states are explored)."""

    states: frozenset[tuple[Any, ...]]


@dataclass
class Scope:
    """What names mean: constants (``name -> (kind, value)``), variables (``name ->
    (position in the state, kind)``) and labels (``name -> expression`` or a
    :class:`StateSet`, in properties)."""

    constants: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    variables: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    labels: Mapping[str, Expr | StateSet] = field(default_factory=dict)


class Compiled:
    """An expression as a function of the state (``function``, made from its Python
    ``source`` on first use: most expressions are only written into the functions of
    :func:`compile_enabled` and :func:`compile_move`), with its type (``kind``)."""

    __slots__ = ("_function", "constants", "kind", "namespace", "source")

    def __init__(self, kind: str, source: str, namespace: dict[str, Any]) -> None:
        self.kind = kind
        self.source = source
        self.namespace = namespace
        self.constants: list[Any] = namespace["_k"]
        self._function: Callable[[tuple[Any, ...]], Any] | None = None

    @property
    def function(self) -> Callable[[tuple[Any, ...]], Any]:
        """The expression as a Python function of the state."""
        if self._function is None:
            # the source is written from the syntax tree (:class:`_Writer`)
            self._function = eval(f"lambda s: {self.source}", self.namespace)
        return self._function

    def __call__(self, state: tuple[Any, ...]) -> Any:
        return self.function(state)


def _div(a: Any, b: Any) -> Any:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return mpq(a) / b


def _pow(a: Any, b: Any) -> Any:
    """``a`` to the power ``b``, exactly: a whole power, or a root that is rational
    (``pow(4, 0.5)`` is 2); an irrational power is refused."""
    if is_symbolic(a) or is_symbolic(b):
        if not getattr(to_sympy(b), "is_Integer", False):
            raise ModelError(f"pow({a}, {b}): a parameter may be raised to a whole power only")
        return to_sympy(a) ** int(b)
    if isinstance(b, int) or (isinstance(b, mpq) and b.denominator == 1):
        if isinstance(a, int) and isinstance(b, int) and b >= 0:
            return a**b
        if a == 0 and b < 0:
            raise ZeroDivisionError(f"pow({a}, {b}) divides by zero")
        return mpq(a) ** int(b)
    base, degree = mpq(a), int(b.denominator)
    if base >= 0:
        top, top_exact = gmpy2.iroot(gmpy2.mpz(base.numerator), degree)
        bottom, bottom_exact = gmpy2.iroot(gmpy2.mpz(base.denominator), degree)
        if top_exact and bottom_exact and (top or b > 0):
            return mpq(top, bottom) ** int(b.numerator)
    raise ModelError(f"pow({a}, {b}) is irrational; an exact answer cannot use it")


def _mod(a: int, b: int) -> int:
    if b <= 0:
        raise ModelError(f"mod({a}, {b}): the divisor must be positive (as in PRISM)")
    return a % b


def _round(x: Any) -> int:
    rounded: int = math.floor(x + mpq(1, 2))
    return rounded


_HELPERS = {
    "_div": _div,
    "_pow": _pow,
    "_mod": _mod,
    "_floor": math.floor,
    "_ceil": math.ceil,
    "_round": _round,
    "_min": min,
    "_max": max,
}


def _numeric(kind: str) -> bool:
    return kind in ("int", "double")


class _Writer:
    """Python source for one expression: variables are ``s[i]``, constants ``_k[j]``."""

    def __init__(self, scope: Scope, what: str) -> None:
        self.scope = scope
        self.what = what
        self.constants: list[Any] = []
        self._known: dict[tuple[type, Any], int] = {}  # a constant written before

    def fail(self, message: str) -> ModelError:
        return ModelError(f"{self.what}: {message}")

    def constant(self, value: Any) -> str:
        """The source of a constant: one entry of ``_k`` per distinct value (of one
        type), so that equal expressions are written alike."""
        key = (type(value), value)
        j = self._known.get(key)
        if j is None:
            j = self._known[key] = len(self.constants)
            self.constants.append(value)
        return f"_k[{j}]"

    def write(self, expr: Expr) -> tuple[str, str]:
        """``(source, kind)`` of ``expr``."""
        if isinstance(expr, Number):
            kind = "int" if isinstance(expr.value, int) else "double"
            return self.constant(expr.value), kind
        if isinstance(expr, Boolean):
            return repr(expr.value), "bool"
        if isinstance(expr, Name):
            return self.name(expr.name)
        if isinstance(expr, LabelRef):
            if expr.name not in self.scope.labels:
                raise self.fail(f'no label "{expr.name}" is defined')
            label = self.scope.labels[expr.name]
            if isinstance(label, StateSet):
                return f"(s in {self.constant(label.states)})", "bool"
            return self.write(label)
        if isinstance(expr, Unary):
            return self.unary(expr)
        if isinstance(expr, Binary):
            return self.binary(expr)
        if isinstance(expr, Ite):
            return self.ite(expr)
        if isinstance(expr, Call):
            return self.call(expr)
        if isinstance(expr, Unsupported):
            raise self.fail(f"{expr.what} are not answered")
        if isinstance(expr, ProbabilityOperator | RewardOperator | SteadyOperator | Filter):
            raise self.fail("a P, R, S or filter operator may only stand as a whole property")
        raise self.fail(f"cannot read {expr!r}")  # pragma: no cover - the grammar has no other

    def name(self, name: str) -> tuple[str, str]:
        if name in self.scope.variables:
            position, kind = self.scope.variables[name]
            return f"s[{position}]", kind
        if name in self.scope.constants:
            kind, value = self.scope.constants[name]
            return self.constant(value), kind
        raise self.fail(f"{name!r} is not a constant, formula or variable of the model")

    def unary(self, expr: Unary) -> tuple[str, str]:
        source, kind = self.write(expr.arg)
        if expr.op == "!":
            if kind != "bool":
                raise self.fail(f"'!' needs a boolean, got {kind}")
            return f"(not {source})", "bool"
        if not _numeric(kind):
            raise self.fail(f"'-' needs a number, got {kind}")
        return f"(-{source})", kind

    def binary(self, expr: Binary) -> tuple[str, str]:
        left, lk = self.write(expr.left)
        right, rk = self.write(expr.right)
        op = expr.op
        if op in _LOGIC or op in ("=>", "<=>"):
            if lk != "bool" or rk != "bool":
                raise self.fail(f"{op!r} needs booleans, got {lk} and {rk}")
            if op == "=>":
                return f"((not {left}) or {right})", "bool"
            if op == "<=>":
                return f"({left} == {right})", "bool"
            return f"({left} {_LOGIC[op]} {right})", "bool"
        if op in ("=", "!="):
            if (lk == "bool") != (rk == "bool"):
                raise self.fail(f"{op!r} compares a {lk} with a {rk}")
            return f"({left} {'==' if op == '=' else '!='} {right})", "bool"
        if not (_numeric(lk) and _numeric(rk)):
            raise self.fail(f"{op!r} needs numbers, got {lk} and {rk}")
        if op in _ORDER:
            return f"({left} {op} {right})", "bool"
        if op == "/":
            return f"_div({left}, {right})", "double"
        kind = "int" if lk == rk == "int" else "double"
        return f"({left} {op} {right})", kind

    def ite(self, expr: Ite) -> tuple[str, str]:
        condition, ck = self.write(expr.condition)
        then, tk = self.write(expr.then)
        other, ok = self.write(expr.other)
        if ck != "bool":
            raise self.fail(f"the condition of '? :' must be a boolean, got {ck}")
        if (tk == "bool") != (ok == "bool"):
            raise self.fail(f"the branches of '? :' are a {tk} and a {ok}")
        kind = tk if tk == ok else "double"
        return f"({then} if {condition} else {other})", kind

    def call(self, expr: Call) -> tuple[str, str]:
        name = expr.function
        parts = [self.write(a) for a in expr.args]
        kinds = [k for _, k in parts]
        args = ", ".join(s for s, _ in parts)
        if not all(_numeric(k) for k in kinds):
            raise self.fail(f"{name}() needs numbers, got {', '.join(kinds)}")
        arity = {"floor": 1, "ceil": 1, "round": 1, "pow": 2, "mod": 2}
        if name == "log":
            raise self.fail("log() is not a rational number; exact answers cannot use it")
        if name in arity and len(parts) != arity[name]:
            raise self.fail(f"{name}() takes {arity[name]} argument(s), got {len(parts)}")
        if name in ("min", "max"):
            if len(parts) < 2:
                raise self.fail(f"{name}() needs at least two arguments")
            return f"_{name}({args})", "int" if all(k == "int" for k in kinds) else "double"
        if name in ("floor", "ceil", "round"):
            return f"_{name}({args})", "int"
        if name == "mod":
            if kinds != ["int", "int"]:
                raise self.fail(f"mod() needs whole numbers, got {kinds[0]} and {kinds[1]}")
            return f"_mod({args})", "int"
        return f"_pow({args})", "int" if kinds == ["int", "int"] else "double"


def _symbolic_div(a: Any, b: Any) -> Any:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return to_sympy(a) / to_sympy(b)


def compile_expression(expr: Expr, scope: Scope, what: str) -> Compiled:
    """``expr`` as a function of the state; errors start with ``what`` (where it is).
    An expression that reads a parameter (a constant whose value is a sympy symbol)
    computes in sympy, every rational among its constants made a sympy ``Rational``
    (sympy would turn a gmpy2 rational into a float).

    >>> import sympy
    >>> p = sympy.Symbol("p")
    >>> compile_expression(Binary("-", Number(1), Name("p")), Scope({"p": ("double", p)}), "x")(())
    1 - p
    """
    writer = _Writer(scope, what)
    source, kind = writer.write(expr)
    namespace: dict[str, Any] = {"_k": writer.constants, **_HELPERS}
    if any(is_symbolic(c) for c in writer.constants):
        namespace["_k"] = [c if isinstance(c, bool) else to_sympy(c) for c in writer.constants]
        namespace["_div"] = _symbolic_div
    return Compiled(kind, source, namespace)


def compile_enabled(guards: list[Expr], scope: Scope) -> Callable[[tuple[Any, ...]], list[int]]:
    """One function of the state that lists the positions of the ``guards`` (boolean
    expressions, checked before) that hold, in order. The guards are written out in one
    body as a decision tree over their conjuncts: a conjunct that several guards share
    is tested once, with those guards inside (a guard such as ``phase=1 & n<N`` among
    many with ``phase=1``). A guard that cannot be evaluated raises; the caller then
    tests the guards one at a time, in order, to say which.

    >>> scope = Scope(variables={"x": (0, "int"), "y": (1, "int")})
    >>> x_is = [Binary("=", Name("x"), Number(v)) for v in (0, 1)]
    >>> guards = [Binary("&", x_is[0], Binary("<", Name("y"), Number(2))), x_is[0], x_is[1]]
    >>> enabled = compile_enabled(guards, scope)
    >>> enabled((0, 0)), enabled((0, 5)), enabled((1, 0))
    ([0, 1], [1], [2])
    """
    writer = _Writer(scope, "a guard")
    parts = [[writer.write(c)[0] for c in conjuncts(g)] for g in guards]
    namespace: dict[str, Any] = {"_k": writer.constants, **_HELPERS}
    if any(is_symbolic(c) for c in writer.constants):  # a guard may not read a parameter
        namespace["_k"] = [c if isinstance(c, bool) else to_sympy(c) for c in writer.constants]
    lines = ["def enabled(s):", "    e = []"]
    lines += _decisions(list(enumerate(parts)), 1)
    lines.append("    e.sort()" if len(guards) > 1 else "    pass")
    lines.append("    return e")
    exec("\n".join(lines), namespace)  # noqa: S102 - written from the trees
    enabled: Callable[[tuple[Any, ...]], list[int]] = namespace["enabled"]
    return enabled


#: The deepest nesting of tests in :func:`compile_enabled` (past it, the guards left are
#: tested flat: a generated function stays readable in a traceback).
_DEEPEST = 12


def _decisions(guards: list[tuple[int, list[str]]], depth: int) -> list[str]:
    """Lines that append each guard's number when all its conjuncts hold: the conjunct
    most guards share (the first met, on a tie) tested once around them, and so on."""
    pad = "    " * depth
    lines = []
    while guards:
        counts: dict[str, int] = {}
        for _, parts in guards:
            for part in dict.fromkeys(parts):
                counts[part] = counts.get(part, 0) + 1
        shared = max(counts, key=counts.__getitem__, default=None)
        if shared is None or counts[shared] < 2 or depth >= _DEEPEST:
            for j, parts in guards:
                test = f"if {' and '.join(parts)}: " if parts else ""
                lines.append(f"{pad}{test}e.append({j})")
            break
        inside = [(j, [p for p in parts if p != shared]) for j, parts in guards if shared in parts]
        guards = [(j, parts) for j, parts in guards if shared not in parts]
        lines.append(f"{pad}if {shared}:")
        lines += _decisions(inside, depth + 1)
    return lines


def conjuncts(expr: Expr) -> list[Expr]:
    """The parts of ``expr`` joined by ``&`` (``[expr]`` when it is no conjunction).

    >>> conjuncts(Binary("&", Binary("&", Name("a"), Name("b")), Name("c")))
    [Name(name='a'), Name(name='b'), Name(name='c')]
    """
    if isinstance(expr, Binary) and expr.op == "&":
        return conjuncts(expr.left) + conjuncts(expr.right)
    return [expr]


#: What evaluating an expression of a model can raise (a division by zero, a parameter
#: compared, an irrational power, a negative divisor of mod).
EVALUATION_ERRORS = (ArithmeticError, TypeError, ValueError, ModelError)


def _whole(value: Any) -> int | None:
    """``value`` as an ``int`` when it is a whole number (a gmpy2 integer, or a rational
    whose denominator is 1), else ``None``.

    >>> _whole(mpq(4, 2)), _whole(mpq(1, 2)), _whole(True)
    (2, None, None)
    """
    if isinstance(value, bool) or getattr(value, "denominator", None) != 1:
        return None
    return int(value)


def _merged(source: str, j: int) -> str:
    """A compiled expression's source with its constants renamed ``_k{j}``."""
    return source.replace("_k[", f"_k{j}[")


#: A command's updates: each one's probability (``None`` for 1) and its ``(position,
#: value)`` assignments.
Updates = list[tuple[Compiled | None, list[tuple[int, Compiled]]]]
#: A compiled move: the state to its ``(probability, next state)`` pairs (``None`` where
#: a check fails).
MoveFunction = Callable[[tuple[Any, ...]], tuple[tuple[Any, tuple[Any, ...]], ...] | None]


def compile_move(
    commands: list[Updates], bounds: list[tuple[Any, Any] | None]
) -> MoveFunction | None:
    """One function of the state that gives the move of the ``commands`` taken
    together (one, or several that synchronise) as ``(probability, next state)``
    pairs, one per way of picking an update of each, every expression written out in
    one body. ``bounds[i]``: the range of an int variable (``None`` for a bool).
    ``None`` when two of the commands may write one variable. The function gives
    ``None`` when a probability is outside [0, 1], a command's probabilities do not sum
    to 1, an int is given a value that is not a whole number of its range, or an
    expression cannot be evaluated: the caller then goes one assignment at a time and
    says what failed.

    >>> scope = Scope(variables={"x": (0, "int"), "y": (1, "int")})
    >>> up = compile_expression(Binary("+", Name("x"), Number(1)), scope, "")
    >>> half = compile_expression(Number(mpq(1, 2)), scope, "")
    >>> step = compile_move([[(half, [(0, up)]), (half, [])]], [(0, 2), (0, 2)])
    >>> step((1, 0))
    ((mpq(1,2), (2, 0)), (mpq(1,2), (1, 0)))
    >>> step((2, 0)) is None
    True
    >>> other = compile_expression(Number(2), scope, "")
    >>> both = compile_move([[(half, [(0, up)]), (half, [])], [(None, [(1, other)])]], [(0, 2), (0, 2)])
    >>> both((0, 0))
    ((mpq(1,2), (1, 2)), (mpq(1,2), (0, 2)))
    """
    writes = [{i for _, assignments in updates for i, _ in assignments} for updates in commands]
    if sum(map(len, writes)) != len(set().union(*writes)):
        return None
    if any(len({i for i, _ in a}) < len(a) for updates in commands for _, a in updates):
        return None  # an update that writes a variable twice
    namespace: dict[str, Any] = {
        **_HELPERS,
        "_one": mpq(1),
        "_Failed": EVALUATION_ERRORS,
        "_whole": _whole,
    }
    lines = ["def move(s):", "  try:"]
    count = 0

    def written(expr: Compiled) -> str:
        nonlocal count
        namespace[f"_k{count}"] = expr.constants
        count += 1
        return _merged(expr.source, count - 1)

    for j, updates in enumerate(commands):
        for u, (probability, assignments) in enumerate(updates):
            if probability is None:
                lines.append(f"    p{j}_{u} = _one")
            else:
                lines.append(f"    p{j}_{u} = {written(probability)}")
                lines.append(f"    if not 0 <= p{j}_{u} <= 1: return None")
            for position, value in assignments:
                name = f"a{j}_{u}_{position}"
                lines.append(f"    {name} = {written(value)}")
                limits = bounds[position]
                if limits is not None:  # an int: floor() and x*2/2 give other whole types
                    lines.append(f"    if type({name}) is not int: {name} = _whole({name})")
                    lines.append(
                        f"    if {name} is None or not {limits[0]} <= {name} <= {limits[1]}: "
                        "return None"
                    )
        if any(probability is not None for probability, _ in updates):
            total = " + ".join(f"p{j}_{u}" for u in range(len(updates)))
            lines.append(f"    if {total} != 1: return None")
    pairs = []
    for picked in itertools.product(*(range(len(updates)) for updates in commands)):
        after = [f"s[{i}]" for i in range(len(bounds))]
        for j, u in enumerate(picked):
            for position, _ in commands[j][u][1]:
                after[position] = f"a{j}_{u}_{position}"
        product = " * ".join(f"p{j}_{u}" for j, u in enumerate(picked))
        pairs.append(f"({product}, ({''.join(f'{a}, ' for a in after)}))")
    lines.append(f"    return ({', '.join(pairs)},)")
    lines.append("  except _Failed:")
    lines.append("    return None")
    exec("\n".join(lines), namespace)  # noqa: S102 - written from the trees
    function: MoveFunction = namespace["move"]
    return function


#: A compiled reward structure: the state to its state rewards' sum and each action's
#: transition rewards' sum (the actions with an item whose guard holds).
RewardFunction = Callable[[tuple[Any, ...]], tuple[Any, dict[str, Any]]]


def compile_rewards(items: list[tuple[str | None, Compiled, Compiled]]) -> RewardFunction:
    """One function of the state that sums a reward structure's ``items``: each is
    ``(action, guard, value)``, ``action`` ``None`` for a state reward and the label
    (``""`` for none) for a transition reward.

    >>> scope = Scope(variables={"x": (0, "int")})
    >>> x = compile_expression(Name("x"), scope, "")
    >>> low = compile_expression(Binary("<", Name("x"), Number(2)), scope, "")
    >>> rewards = compile_rewards([(None, low, x), (None, low, x), ("go", low, x)])
    >>> rewards((1,)), rewards((3,))
    ((mpq(2,1), {'go': mpq(1,1)}), (mpq(0,1), {}))
    """
    namespace: dict[str, Any] = {**_HELPERS, "_zero": mpq(0)}
    lines = ["def rewards(s):", "    t = _zero", "    d = {}"]
    for action, test, amount in _reward_items(items, namespace):
        if action is None:
            lines.append(f"    if {test}: t = t + {amount}")
        else:
            lines.append(f"    if {test}: d[{action!r}] = d.get({action!r}, _zero) + {amount}")
    lines.append("    return t, d")
    exec("\n".join(lines), namespace)  # noqa: S102 - written from the trees
    function: RewardFunction = namespace["rewards"]
    return function


def compile_negative_reward(
    items: list[tuple[str | None, Compiled, Compiled]],
) -> Callable[[tuple[Any, ...]], Any]:
    """One function of the state that gives the value of the first of the reward
    ``items`` (as :func:`compile_rewards` takes them) whose guard holds and whose value
    is negative, ``None`` if there is none.

    >>> scope = Scope(variables={"x": (0, "int")})
    >>> x = compile_expression(Name("x"), scope, "")
    >>> minus = compile_expression(Unary("-", Name("x")), scope, "")
    >>> low = compile_expression(Binary("<", Name("x"), Number(2)), scope, "")
    >>> negative = compile_negative_reward([(None, low, x), ("go", low, minus)])
    >>> negative((1,)), negative((0,)), negative((3,))
    (-1, None, None)
    """
    namespace: dict[str, Any] = dict(_HELPERS)
    lines = ["def negative(s):"]
    for _, test, amount in _reward_items(items, namespace):
        lines.append(f"    if {test}:")
        lines.append(f"        v = {amount}")
        lines.append("        if v < 0: return v")
    lines.append("    return None")
    exec("\n".join(lines), namespace)  # noqa: S102 - written from the trees
    function: Callable[[tuple[Any, ...]], Any] = namespace["negative"]
    return function


def _reward_items(
    items: list[tuple[str | None, Compiled, Compiled]], namespace: dict[str, Any]
) -> list[tuple[str | None, str, str]]:
    """Each reward item's action, guard source and value source, their constants
    entered in ``namespace``."""
    written = []
    for j, (action, guard, value) in enumerate(items):
        namespace[f"_g{j}"], namespace[f"_v{j}"] = guard.constants, value.constants
        test = guard.source.replace("_k[", f"_g{j}[")
        written.append((action, test, value.source.replace("_k[", f"_v{j}[")))
    return written


def constant_value(expr: Expr, scope: Scope, what: str) -> tuple[str, Any]:
    """``(kind, value)`` of an expression of constants only.

    >>> constant_value(Binary("*", Number(2), Number(mpq(1, 4))), Scope(), "x")
    ('double', mpq(1,2))
    """
    compiled = compile_expression(expr, Scope(scope.constants, {}, scope.labels), what)
    try:
        return compiled.kind, compiled(())
    except ZeroDivisionError as error:
        raise ModelError(f"{what}: {error}") from None


def _map(expr: Expr, leaf: Callable[[Expr], Expr | None]) -> Expr:
    """``expr`` rebuilt bottom-up, each node first offered to ``leaf`` (a replacement,
    or ``None`` to keep the node and go on into its parts)."""
    replaced = leaf(expr)
    if replaced is not None:
        return replaced
    if isinstance(expr, Unary):
        return Unary(expr.op, _map(expr.arg, leaf))
    if isinstance(expr, Binary):
        return Binary(expr.op, _map(expr.left, leaf), _map(expr.right, leaf))
    if isinstance(expr, Ite):
        return Ite(_map(expr.condition, leaf), _map(expr.then, leaf), _map(expr.other, leaf))
    if isinstance(expr, Call):
        return Call(expr.function, tuple(_map(a, leaf) for a in expr.args))
    return expr


def expand(expr: Expr, formulas: Mapping[str, Expr]) -> Expr:
    """``expr`` with every formula written out (formulas already expanded themselves).

    >>> expand(Binary("+", Name("f"), Number(1)), {"f": Name("x")})
    Binary(op='+', left=Name(name='x'), right=Number(value=1))
    """
    return _map(
        expr, lambda e: formulas[e.name] if isinstance(e, Name) and e.name in formulas else None
    )


def rename(expr: Expr, names: Mapping[str, str]) -> Expr:
    """``expr`` with names replaced as a module renaming says."""
    return _map(
        expr, lambda e: Name(names[e.name]) if isinstance(e, Name) and e.name in names else None
    )


def names_in(expr: Expr) -> set[str]:
    """The names ``expr`` reads.

    >>> sorted(names_in(Binary("+", Name("x"), Call("max", (Name("N"), Number(1))))))
    ['N', 'x']
    """
    found: set[str] = set()

    def visit(e: Expr) -> None:
        if isinstance(e, Name):
            found.add(e.name)

    _map(expr, lambda e: visit(e))
    return found
