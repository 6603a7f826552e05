"""PRISM text to a small syntax tree: a model file (:func:`parse_model`) or a properties
file (:func:`parse_properties`), read on the grammar in ``grammar.lark`` by lark's LALR(1)
parser. A syntax error is one line naming the line, the column and what was expected.

>>> tree = parse_model('dtmc module M x : [0..2] init 0; [] x<2 -> 1/2:(x\\'=x+1) + 1/2:true; endmodule')
>>> tree.model_type, [v.name for v in tree.modules[0].variables]
('dtmc', ['x'])
>>> tree.modules[0].commands[0].updates[1]
Update(probability=Binary(op='/', left=Number(value=1), right=Number(value=2)), assignments=())
>>> parse_model("dtmc module M x : [0..2] init; endmodule")
Traceback (most recent call last):
...
exactprob.errors.ModelError: PRISM syntax, line 1, column 30: unexpected ';'; expected ...
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

import lark
from lark import Token, v_args

from ..errors import ModelError
from ..util.numbers import mpq

__all__ = [
    "Binary",
    "Boolean",
    "Call",
    "Command",
    "Expr",
    "Filter",
    "Ite",
    "LabelRef",
    "ModelSyntax",
    "Module",
    "Name",
    "Number",
    "Path",
    "ProbabilityOperator",
    "PropertiesSyntax",
    "Property",
    "RenamedModule",
    "RewardItem",
    "RewardOperator",
    "RewardStructure",
    "SteadyOperator",
    "Unary",
    "Unsupported",
    "Update",
    "Variable",
    "parse_model",
    "parse_properties",
]


# -- expressions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A literal: an ``int``, or a decimal read as the exact rational it writes
    (``0.091`` is 91/1000)."""

    value: Any


@dataclass(frozen=True)
class Boolean:
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True)
class Name:
    """A constant, formula or variable, by name."""

    name: str


@dataclass(frozen=True)
class LabelRef:
    """A label in a property: ``"name"`` (``"init"``, the initial states, is built in)."""

    name: str


@dataclass(frozen=True)
class Unary:
    """``-a`` or ``!a``."""

    op: str
    arg: Expr


@dataclass(frozen=True)
class Binary:
    """``a op b`` for the arithmetic, comparison and logical operators."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Ite:
    """``c ? a : b``."""

    condition: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Call:
    """``min``, ``max``, ``floor``, ``ceil``, ``round``, ``pow``, ``mod``, ``log``."""

    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Path:
    """A path formula: ``kind`` is ``"F"``, ``"U"`` (``left U right``), ``"G"``, ``"W"``,
    ``"X"``, ``"C"`` (a reward's cumulative ``C<=k``), or a kind the reader names when it
    refuses it (a bound of another form, bounds on several rewards, ``C`` alone, ``I``,
    ``S``). ``steps``: the most steps it may take, for ``F<=k`` (``k``) or ``F<k``
    (``k - 1``), an expression of constants; ``None`` when unbounded. ``reward_bound``:
    a bound on the reward gathered (``F^{rew{"r"}<=B}``) or a lower or interval one on
    the steps (:class:`RewardBound`)."""

    kind: str
    left: Expr | None
    right: Expr
    steps: Expr | None = None
    reward_bound: RewardBound | None = None


@dataclass(frozen=True)
class RewardBound:
    """The bound of ``F^{rew{"r"}<=B}`` (Storm's syntax; ``^{rew{"r"}>=A,rew{"r"}<=B}``
    for an interval), or of a lower or interval time bound (``F>=k``, ``F[a,b]``:
    ``steps``, every move counts 1): the reward ``structure`` (``None``: the first) and
    its ``limits``, each a relation (``<=``, ``<``, ``>=``, ``>``) with a number or a
    constant."""

    structure: str | None
    limits: tuple[tuple[str, Expr], ...]
    steps: bool = False


@dataclass(frozen=True)
class ProbabilityOperator:
    """``P=? [path]``, ``Pmax=?``, ``Pmin=?``, or ``P>=b [path]`` (a bound: a truth value)."""

    optimum: str | None
    bound: tuple[str, Any] | None
    path: Path


@dataclass(frozen=True)
class RewardOperator:
    """``R{"name"}=? [F target]`` and its ``max``/``min``; ``path`` names a refused kind
    (``C``, ``I``, ``S``) when not ``F``. ``steps``: Storm's ``T=?``, the expected
    number of steps (a reward of 1 per step)."""

    structure: str | None
    optimum: str | None
    bound: tuple[str, Any] | None
    path: Path
    steps: bool = False


@dataclass(frozen=True)
class SteadyOperator:
    """``S=? [phi]``: the long-run share of time in ``phi``."""

    optimum: str | None
    bound: tuple[str, Any] | None
    state: Expr


@dataclass(frozen=True)
class Filter:
    """``filter(op, property, states)``; ``states`` defaults to every state."""

    op: str
    prop: Expr
    states: Expr | None


@dataclass(frozen=True)
class Unsupported:
    """A query the reader parses only to refuse it by name (``multi(...)``)."""

    what: str


Expr = (
    Number
    | Boolean
    | Name
    | LabelRef
    | Unary
    | Binary
    | Ite
    | Call
    | ProbabilityOperator
    | RewardOperator
    | SteadyOperator
    | Filter
    | Unsupported
)


# -- a model file ------------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    """``name : [low..high] init e;`` (``low``/``high`` ``None`` for a bool; ``init``
    ``None``: the low end, or false); ``kind`` ``"int"``, ``"bool"`` or an unbounded
    type the reader refuses."""

    name: str
    kind: str
    low: Expr | None
    high: Expr | None
    init: Expr | None
    line: int


@dataclass(frozen=True)
class Update:
    """One branch of a command: its probability (``None``: 1) and its assignments
    ``(variable, expression)``, all read in the state before the move."""

    probability: Expr | None
    assignments: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True)
class Command:
    """``[action] guard -> updates;`` (``action`` ``None`` when unlabelled)."""

    action: str | None
    guard: Expr
    updates: tuple[Update, ...]
    line: int


@dataclass(frozen=True)
class Module:
    """A module: its local variables and commands."""

    name: str
    variables: tuple[Variable, ...]
    commands: tuple[Command, ...]


@dataclass(frozen=True)
class RenamedModule:
    """``module name = base [old=new, ...] endmodule``."""

    name: str
    base: str
    renames: tuple[tuple[str, str], ...]
    line: int


@dataclass(frozen=True)
class RewardItem:
    """A state reward (``action`` is ``None``, ``transition`` false) or a transition
    reward of the commands labelled ``action`` (``""``: the unlabelled ones)."""

    transition: bool
    action: str | None
    guard: Expr
    value: Expr


@dataclass(frozen=True)
class RewardStructure:
    """``rewards "name" ... endrewards`` (``name`` ``None`` when unnamed)."""

    name: str | None
    items: tuple[RewardItem, ...]


@dataclass
class ModelSyntax:
    """A model file as written."""

    model_type: str | None = None
    constants: list[tuple[str, str, Expr | None]] = field(default_factory=list)
    formulas: dict[str, Expr] = field(default_factory=dict)
    labels: dict[str, Expr] = field(default_factory=dict)
    globals: list[Variable] = field(default_factory=list)
    modules: list[Module | RenamedModule] = field(default_factory=list)
    init: Expr | None = None
    rewards: list[RewardStructure] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Property:
    """One property of a properties file (``name`` ``None`` when unnamed); ``error`` is
    the one line that refuses a property the grammar cannot read (then ``expr`` is
    ``None``), so that the file's other properties are still answered."""

    name: str | None
    expr: Expr | None
    text: str
    error: str | None = None


@dataclass
class PropertiesSyntax:
    """A properties file: its constants, labels and properties, in order."""

    constants: list[tuple[str, str, Expr | None]] = field(default_factory=list)
    labels: dict[str, Expr] = field(default_factory=dict)
    properties: list[Property] = field(default_factory=list)


# -- the reading -------------------------------------------------------------------------


def _number(text: str) -> Any:
    """A literal's exact value: an ``int`` when it has no point or exponent."""
    if all(c.isdigit() for c in text):
        return int(text)
    mantissa, _, exponent = text.lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = int((whole or "0") + fraction)
    return mpq(digits, 10 ** len(fraction)) * mpq(10) ** int(exponent or 0)


def _unquote(token: Token) -> str:
    return str(token)[1:-1]


def _bound(token: Token) -> tuple[str | None, tuple[str, Any] | None]:
    """``max=?`` -> ("max", None); ``>=0.5`` -> (None, (">=", 1/2))."""
    text = "".join(str(token).split())
    optimum = next((o for o in ("max", "min") if text.startswith(o)), None)
    text = text[len(optimum or "") :]
    if text == "=?":
        return optimum, None
    relation = text[:2] if text[:2] in ("<=", ">=") else text[:1]
    return optimum, (relation, _number(text[len(relation) :]))


def _bounded(kind: str, left: Expr | None, parts: tuple[Any, ...]) -> Path:
    """A path of ``kind`` with its bound, if any: ``<=k`` and ``<k`` give its ``steps``;
    ``>=k``, ``>k``, ``=k`` and ``[a,b]`` a :class:`RewardBound` on the steps;
    ``^{rew{"r"}<=B}`` (one structure, one or two limits) a :class:`RewardBound` on a
    reward. A bound of another form marks the kind (``F^{time<=3}``), which the reader
    refuses by that name, and so do reward bounds on several structures."""
    if len(parts) == 1:
        return Path(kind, left, parts[0])
    bound = "".join(str(parts[0]).split())
    if bound.startswith("<"):
        inclusive = bound.startswith("<=")
        limit = _bound_value(bound[2 if inclusive else 1 :])
        steps = limit if inclusive else Binary("-", limit, Number(1))
        return Path(kind, left, parts[-1], steps)
    if bound.startswith("^"):
        read = _reward_bound(bound[2:-1] if bound.endswith("}") else "")
        if read is None:
            return Path(f"{kind}{bound}", left, parts[-1])
        if isinstance(read, str):
            return Path(f"{kind} bounded on several rewards ({read})", left, parts[-1])
        return Path(kind, left, parts[-1], reward_bound=read)
    limits: tuple[tuple[str, Expr], ...]
    if bound.startswith("["):
        low, _, high = bound[1:-1].partition(",")
        limits = ((">=", _limit(low)), ("<=", _limit(high)))
    else:
        relation = bound[:2] if bound[:2] == ">=" else bound[:1]
        limit = _limit(bound[len(relation) :])
        limits = ((">=", limit), ("<=", limit)) if relation == "=" else ((relation, limit),)
    return Path(kind, left, parts[-1], reward_bound=RewardBound(None, limits, steps=True))


def _reward_bound(inner: str) -> RewardBound | str | None:
    """The bound ``rew{"r"}<=B`` (or several, comma-separated) inside ``^{...}``, white
    space removed: a :class:`RewardBound` on one structure, the structures' names when
    there are several, ``None`` when a part is not of that form."""
    names, limits = set(), []
    for part in inner.split(","):
        found = _REWARD_LIMIT.fullmatch(part)
        if found is None:
            return None
        name, relation, limit = found.groups()
        names.add(name)
        limits.append((relation, _limit(limit)))
    if len(names) > 1:
        return ", ".join(sorted(f'"{n}"' if n else "the first" for n in names))
    return RewardBound(names.pop(), tuple(limits))


def _limit(text: str) -> Expr:
    """A bound's number (``2.5`` too) or constant."""
    return Number(_number(text)) if _DECIMAL.fullmatch(text) else _bound_value(text)


#: A bound's number: whole, or with a decimal point (``2.5``).
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
#: One reward bound of ``^{...}``, white space removed: ``rew``, the structure's name
#: (optional), the relation and the limit (a number or a constant's name).
_REWARD_LIMIT = re.compile(
    r'rew(?:\{"([^"]*)"\})?(<=|<|>=|>)(' + _DECIMAL.pattern + r"|[A-Za-z_]\w*)"
)


def _bound_value(text: str) -> Expr:
    """A time bound's number or constant (``10``, ``K``)."""
    if text.isdigit():
        return Number(int(text))
    if not text.isidentifier():
        raise ModelError(f"a time bound must be a whole number or a constant, not {text!r}")
    return Name(text)


@v_args(inline=True)
class _Tree(lark.Transformer[Token, Any]):
    """The parse tree as the dataclasses above."""

    def number(self, token: Token) -> Number:
        return Number(_number(str(token)))

    def true(self) -> Boolean:
        return Boolean(True)

    def false(self) -> Boolean:
        return Boolean(False)

    def name(self, token: Token) -> Name:
        return Name(str(token))

    def label_ref(self, token: Token) -> LabelRef:
        return LabelRef(_unquote(token))

    def negative(self, arg: Expr) -> Unary:
        return Unary("-", arg)

    def not_(self, arg: Expr) -> Unary:
        return Unary("!", arg)

    def arithmetic(self, left: Expr, op: Token, right: Expr) -> Binary:
        return Binary(str(op), left, right)

    compare = arithmetic

    def and_(self, left: Expr, right: Expr) -> Binary:
        return Binary("&", left, right)

    def or_(self, left: Expr, right: Expr) -> Binary:
        return Binary("|", left, right)

    def iff(self, left: Expr, right: Expr) -> Binary:
        return Binary("<=>", left, right)

    def implies(self, left: Expr, right: Expr) -> Binary:
        return Binary("=>", left, right)

    def ite(self, condition: Expr, then: Expr, other: Expr) -> Ite:
        return Ite(condition, then, other)

    def call(self, function: Token, *args: Expr) -> Call:
        return Call(str(function), args)

    # properties
    def eventually(self, *parts: Any) -> Path:
        return _bounded("F", None, parts)

    def globally(self, *parts: Any) -> Path:
        return _bounded("G", None, parts)

    def next_(self, target: Expr) -> Path:
        return Path("X", None, target)

    def until(self, left: Expr, *parts: Any) -> Path:
        return _bounded("U", left, parts)

    def weak_until(self, left: Expr, *parts: Any) -> Path:
        return _bounded("W", left, parts)

    def state_path(self, target: Expr) -> Path:
        return Path("state formula", None, target)

    def reward_reach(self, target: Expr) -> Path:
        return Path("F", None, target)

    def cumulative(self, *bound: Any) -> Path:
        if not bound:
            return Path("total (C without a bound)", None, Boolean(True))
        path = _bounded("C", None, (*bound, Boolean(True)))
        return path if path.steps is not None else Path("C with that bound", None, Boolean(True))

    def instantaneous(self, bound: Any) -> Path:
        return Path("I", None, Boolean(True))

    def long_run_reward(self) -> Path:
        return Path("S", None, Boolean(True))

    def bound(self, token: Token) -> str:
        return str(token)

    def reward_name(self, token: Token) -> str:
        return _unquote(token)

    def prob_operator(self, _op: Token, bound: Token, path: Path) -> ProbabilityOperator:
        return ProbabilityOperator(*_bound(bound), path)

    def reward_operator(self, op: Token, *parts: Any) -> RewardOperator:
        structure = parts[0] if len(parts) == 3 else None
        return RewardOperator(structure, *_bound(parts[-2]), parts[-1], steps=str(op) == "T")

    def steady_operator(self, _op: Token, bound: Token, state: Expr) -> SteadyOperator:
        return SteadyOperator(*_bound(bound), state)

    def filter_(self, op: Token, prop: Expr, states: Expr | None = None) -> Filter:
        return Filter(str(op), prop, states)

    def multi_objective(self, *objectives: Expr) -> Unsupported:
        return Unsupported("multi-objective queries (multi(...))")

    # model declarations
    def model_type(self, token: Token) -> tuple[str, str]:
        return ("model_type", str(token))

    def unsupported(self, token: Token) -> tuple[str, str]:
        return ("unsupported", str(token).split()[0])

    def const_decl(self, *parts: Any) -> tuple[str, tuple[str, str, Expr | None]]:
        kind = "int"
        if isinstance(parts[0], Token) and parts[0].type == "CONST_TYPE":
            kind = {"rate": "double", "prob": "double"}.get(str(parts[0]), str(parts[0]))
            parts = parts[1:]
        value = parts[1] if len(parts) > 1 else None
        return ("constant", (kind, str(parts[0]), value))

    def formula(self, name: Token, expr: Expr) -> tuple[str, tuple[str, Expr]]:
        return ("formula", (str(name), expr))

    def label(self, name: Token, expr: Expr) -> tuple[str, tuple[str, Expr]]:
        return ("label", (_unquote(name), expr))

    def global_variable(self, variable: Variable) -> tuple[str, Variable]:
        return ("global", variable)

    def init(self, expr: Expr) -> tuple[str, Expr]:
        return ("init", expr)

    def range_variable(
        self, name: Token, low: Expr, high: Expr, init: Expr | None = None
    ) -> Variable:
        return Variable(str(name), "int", low, high, init, _line(name))

    def bool_variable(self, name: Token, init: Expr | None = None) -> Variable:
        return Variable(str(name), "bool", None, None, init, _line(name))

    def unbounded_variable(self, name: Token, kind: Token, init: Expr | None = None) -> Variable:
        return Variable(str(name), f"unbounded {kind}", None, None, init, _line(name))

    def assignment(self, name: Token, expr: Expr) -> tuple[str, Expr]:
        return (str(name), expr)

    def assignments(self, *pairs: tuple[str, Expr]) -> tuple[tuple[str, Expr], ...]:
        return pairs

    def no_change(self) -> tuple[tuple[str, Expr], ...]:
        return ()

    def weighted_update(
        self, probability: Expr, assignments: tuple[tuple[str, Expr], ...]
    ) -> Update:
        return Update(probability, assignments)

    def certain_update(self, assignments: tuple[tuple[str, Expr], ...]) -> Update:
        return Update(None, assignments)

    def updates(self, *updates: Update) -> tuple[Update, ...]:
        return updates

    def command(self, opening: Token, *parts: Any) -> Command:
        action = str(parts[0]) if len(parts) == 3 else None
        return Command(action, parts[-2], parts[-1], _line(opening))

    def module(self, name: Token, *body: Variable | Command) -> tuple[str, Module]:
        variables = tuple(b for b in body if isinstance(b, Variable))
        commands = tuple(b for b in body if isinstance(b, Command))
        return ("module", Module(str(name), variables, commands))

    def rename(self, old: Token, new: Token) -> tuple[str, str]:
        return (str(old), str(new))

    def renames(self, *pairs: tuple[str, str]) -> tuple[tuple[str, str], ...]:
        return pairs

    def renamed_module(self, name: Token, base: Token, renames: Any) -> tuple[str, RenamedModule]:
        return ("module", RenamedModule(str(name), str(base), renames, _line(name)))

    def state_reward(self, guard: Expr, value: Expr) -> RewardItem:
        return RewardItem(False, None, guard, value)

    def transition_reward(self, *parts: Any) -> RewardItem:
        action = str(parts[0]) if len(parts) == 3 else ""
        return RewardItem(True, action, parts[-2], parts[-1])

    def rewards(self, *parts: Any) -> tuple[str, RewardStructure]:
        name = _unquote(parts[0]) if parts and isinstance(parts[0], Token) else None
        items = tuple(p for p in parts if isinstance(p, RewardItem))
        return ("rewards", RewardStructure(name, items))

    def model(self, *declarations: tuple[str, Any]) -> ModelSyntax:
        tree = ModelSyntax()
        for kind, item in declarations:
            if kind == "model_type":
                tree.model_type = item
            elif kind == "constant":
                tree.constants.append(item)
            elif kind == "formula":
                tree.formulas[item[0]] = item[1]
            elif kind == "label":
                tree.labels[item[0]] = item[1]
            elif kind == "global":
                tree.globals.append(item)
            elif kind == "module":
                tree.modules.append(item)
            elif kind == "init":
                tree.init = item
            elif kind == "rewards":
                tree.rewards.append(item)
            else:
                tree.unsupported.append(item)
        return tree


@v_args(inline=True)
class _PropertiesTree(_Tree):
    """The tree of a properties file: each property keeps where it stands in the text
    (its ``meta``), to be shown as written."""

    @v_args(inline=True, meta=True)
    def property(self, meta: Any, expr: Expr) -> tuple[str, tuple[None, Expr, Any]]:
        return ("property", (None, expr, meta))

    @v_args(inline=True, meta=True)
    def named_property(
        self, meta: Any, name: Token, expr: Expr
    ) -> tuple[str, tuple[str, Expr, Any]]:
        return ("property", (_unquote(name), expr, meta))

    def properties(self, *items: Any) -> list[Any]:
        return list(items)


def _line(token: Token) -> int:
    """The line a token starts on."""
    return int(token.line or 0)


_TOKEN_TEXT = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a "string"',
    "$END": "the end of the text",
}


def _expected(parser: lark.Lark, names: set[str]) -> str:
    shown = []
    for name in sorted(names):
        if name in _TOKEN_TEXT:
            shown.append(_TOKEN_TEXT[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            shown.append(name.lower())
            continue
        shown.append(
            repr(pattern.value) if pattern.type == "str" else name.lower().replace("_", " ")
        )
    return " or ".join(sorted(set(shown))[:8])


@functools.cache
def _parser(start: str) -> lark.Lark:
    """The LALR(1) parser from ``start``: a model's applies its tree's rules as it reads
    (no parse tree is built); a properties file's keeps positions, for each property's
    text, and is turned into its tree after."""
    grammar = (files("exactprob.prism") / "grammar.lark").read_text()
    if start == "model":
        return lark.Lark(grammar, start=start, parser="lalr", transformer=_Tree())
    return lark.Lark(grammar, start=start, parser="lalr", propagate_positions=True)


def _parse(text: str, start: str, source: str) -> Any:
    parser = _parser(start)
    try:
        tree = parser.parse(text)
        return tree if start == "model" else _PropertiesTree().transform(tree)
    except lark.exceptions.UnexpectedInput as error:
        where = f"PRISM syntax{source}, line {error.line}, column {error.column}"
        if isinstance(error, lark.exceptions.UnexpectedToken):
            found = "the end of the text" if error.token.type == "$END" else repr(str(error.token))
            raise ModelError(
                f"{where}: unexpected {found}; expected {_expected(parser, error.expected)}"
            ) from None
        if isinstance(error, lark.exceptions.UnexpectedCharacters):
            raise ModelError(f"{where}: unexpected character {error.char!r}") from None
        raise ModelError(f"{where}: the text ends too soon") from None
    except lark.exceptions.VisitError as error:
        raise ModelError(f"PRISM syntax{source}: {error.orig_exc}") from None


def parse_model(text: str, source: str = "") -> ModelSyntax:
    """The model file ``text`` (``source``, a file name, shown in errors) as a tree."""
    return _parse(text, "model", f" in {source}" if source else "")  # type: ignore[no-any-return]


def parse_properties(text: str, source: str = "") -> PropertiesSyntax:
    """A properties file (or one property) as a tree; each property keeps its text.

    >>> [p.expr.optimum for p in parse_properties('"a": Pmax=? [F x=2]; Pmin=? [F x=1]').properties]
    ['max', 'min']
    """
    where = f" in {source}" if source else ""
    try:
        items = _parse(text, "properties", where)
    except ModelError:
        return _statement_by_statement(text, where)
    return _properties_tree(text, items)


def _properties_tree(text: str, items: list[tuple[str, Any]]) -> PropertiesSyntax:
    tree = PropertiesSyntax()
    for kind, item in items:
        if kind == "constant":
            tree.constants.append(item)
        elif kind == "label":
            tree.labels[item[0]] = item[1]
        else:
            name, expr, meta = item
            tree.properties.append(Property(name, expr, _source_text(text, meta, name)))
    return tree


def _statement_by_statement(text: str, where: str) -> PropertiesSyntax:
    """A properties file read one ``;``-ended statement at a time: a statement the
    grammar cannot read becomes a property refused with its error, and the others are
    read as usual.

    >>> tree = parse_properties('"a": P=? [F x=1]; "b": P=? [F{oops} x=1]; const int B = 2;')
    >>> [(p.name, p.error is None) for p in tree.properties], tree.constants[0][1]
    ([('a', True), ('b', False)], 'B')
    """
    tree = PropertiesSyntax()
    for statement in _statements(text):
        try:
            part = _properties_tree(statement, _parse(statement, "properties", where))
        except ModelError as error:
            written = " ".join(line.split("//")[0] for line in statement.splitlines()).strip()
            named = re.match(r'\s*"([^"]*)"\s*:', written)
            name = named.group(1) if named else None
            shown = written[named.end() :].strip() if named else written
            if _nests_temporal_operators(shown):
                ltl = Unsupported("LTL path formulas (several temporal operators, as in F G a)")
                tree.properties.append(Property(name, ltl, shown.rstrip(";")))
            else:
                tree.properties.append(Property(name, None, shown.rstrip(";"), str(error)))
            continue
        tree.constants += part.constants
        tree.labels.update(part.labels)
        tree.properties += part.properties
    return tree


#: The temporal operators of a path formula; PRISM reserves these names.
_TEMPORAL = re.compile(r'(?<![\w"])[FGXUW](?![\w"])')


def _nests_temporal_operators(written: str) -> bool:
    """Whether a property the grammar cannot read has two temporal operators within one
    operator's brackets: an LTL path formula, as ``P=? [F G a]`` or ``P=? [(F a) & (G b)]``
    (labels in quotes are left out).

    >>> _nests_temporal_operators('Pmax=? [ G F "up" ]'), _nests_temporal_operators("P=? [F x=1 )")
    (True, False)
    """
    inside = re.sub(r'"[^"]*"', "", written[written.find("[") + 1 : written.rfind("]")])
    return len(_TEMPORAL.findall(inside)) >= 2


def _statements(text: str) -> list[str]:
    """The ``;``-ended statements of ``text`` (a ``;`` in a comment or string ignored),
    those with anything but comments in them."""
    statements, current, quoted = [], [], False
    for line in text.splitlines(keepends=True):
        code, sep, comment = line.partition("//") if not quoted else (line, "", "")
        for char in code:
            current.append(char)
            if char == '"':
                quoted = not quoted
            elif char == ";" and not quoted:
                statements.append("".join(current))
                current = []
        current.append(sep + comment)
    statements.append("".join(current))
    return [s for s in statements if "".join(x.split("//")[0] for x in s.splitlines()).strip()]


def _source_text(text: str, meta: Any, name: str | None) -> str:
    """The property as written, on one line, without its name."""
    written = text[meta.start_pos : meta.end_pos]
    if name is not None:
        written = written.split(":", 1)[1]
    return " ".join(written.split()).rstrip(";").strip()
