"""A property's answer: each PRISM operator turned into a question the engine solves
(:mod:`exactprob.prism.questions`), or into graph facts where the graph decides.

* ``P=? [F b]`` and ``[a U b]`` (``Pmax``/``Pmin`` in an MDP): the target ``b`` pays 1;
  the states that miss it surely pay 0 (reached by no path; under ``Pmin``, avoided by
  some choice), and those that reach it surely pay 1, before the engine solves the rest.
  ``G``, ``W`` and ``X`` are rewritten: :math:`P(G\\,a) = 1 - P(F\\,\\lnot a)` with the
  other optimum, :math:`P(a\\,W\\,b) = 1 - P(\\lnot b\\,U\\,(\\lnot a \\land \\lnot b))`.
* ``R{"r"}=? [F b]``: the reward gathered until ``b``, infinite from a state that may
  miss ``b`` (PRISM's rule); under ``Rmin`` only the moves that still reach ``b`` surely
  are played.
* Within ``k`` steps (``F<=k``, ``U<=k``, ``G<=k``, ``W<=k``, ``R [C<=k]``): the same
  question, less the states sure to reach the target, solved within the engine's horizon
  of ``k`` moves (a move past it ends play with 0).
* Bounded on a reward gathered (``F^{rew{"r"}<=B}``), or on the steps from below or in
  an interval (``F>=k``, ``F[a,b]``), for ``F``, ``U`` and ``G``: reachability in the
  product of the states with the reward gathered (:mod:`.reward_bound`).
* ``S=? [a]`` and ``R{"r"}=? [S]``: the long-run share of time in ``a`` and the long-run
  average reward, the best play's in an MDP (:func:`exactprob.stationary`).
* ``P>=p [...]`` and the other bounds: the value compared exactly, a truth value.
* ``filter(op, prop, states)``: ``op`` over the states reached that satisfy ``states``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine import Enclosure, enclose_graph, solve, solve_graph, stationary
from ..errors import ModelError, StateLimitError, UsageError
from ..util.numbers import is_symbolic, mpq, to_fraction
from ..util.progress import shows_progress
from .expressions import Scope, StateSet, compile_expression, constant_value, expand
from .questions import STEPS, LongRunModel, QuestionModel, RewardQuestionModel, question_graph
from .reward_bound import BoundedSpace, bounded_space
from .space import StateSpace
from .syntax import (
    Expr,
    Filter,
    Path,
    ProbabilityOperator,
    RewardOperator,
    SteadyOperator,
    Unsupported,
)

__all__ = ["FILTERS", "Answer", "answer", "probability_question", "reward_question"]

#: The operators ``filter`` takes.
FILTERS = ("min", "max", "sum", "avg", "count", "forall", "exists", "first", "state")
_METHODS = ("exact", "certified", "depth-first")
#: The methods that solve the question's graph as read off the space (depth-first mode
#: asks the question model for its moves, keeping no graph).
_BY_GRAPH: dict[str, Callable[..., Any]] = {"exact": solve_graph, "certified": enclose_graph}
_OPS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


@dataclass
class Answer:
    """A property's values: ``values[i]`` for the state at position ``i`` of the space
    (those asked for), and the engine's ``solution`` (``None`` where the graph alone
    decided)."""

    values: dict[int, Any]
    solution: Any = None


def _condition(space: StateSpace, expr: Expr, what: str) -> set[int]:
    """The states where the state formula ``expr`` holds (``what`` names it in errors)."""
    program = space.program
    deadlocks = StateSet(frozenset(space.states[i] for i in space.deadlocks))
    labels = {"deadlock": deadlocks, **program.label_exprs}
    scope = Scope(program.constants, program.scope.variables, labels)
    compiled = compile_expression(expand(expr, program.formulas), scope, what)
    if compiled.kind != "bool":
        raise ModelError(f"{what}: a state formula must be a boolean, got {compiled.kind}")
    try:
        return space.holds(compiled.function)
    except (ZeroDivisionError, TypeError) as error:
        raise ModelError(f"{what}: {error} (the state formula cannot be evaluated)") from None


def answer(
    space: StateSpace, expr: Expr, positions: list[int], method: str = "exact", **solve_options: Any
) -> Answer:
    """The value of the property ``expr`` at ``positions`` (states of ``space``)."""
    if method not in _METHODS:
        raise UsageError(f"method must be one of {', '.join(_METHODS)}, got {method!r}")
    if isinstance(expr, Unsupported):
        raise UsageError(f"{expr.what} are not answered")
    if isinstance(expr, Filter):
        return _filter(space, expr, positions, method, solve_options)
    if isinstance(expr, ProbabilityOperator):
        return _bounded(expr, _probability(space, expr, positions, method, solve_options))
    if isinstance(expr, RewardOperator):
        return _bounded(expr, _reward(space, expr, positions, method, solve_options))
    if isinstance(expr, SteadyOperator):
        return _bounded(expr, _steady(space, expr, positions, method))
    truth = _condition(space, expr, "the property")
    return Answer({i: i in truth for i in positions})


def _bounded(expr: Any, found: Answer) -> Answer:
    """``found`` compared with the operator's bound (``P>=1/2``), when it has one."""
    if expr.bound is None:
        return found
    relation, bound = expr.bound
    limit = Fraction(int(bound.numerator), int(bound.denominator))
    compare = getattr(operator, _OPS[relation])
    truth = {}
    for i, v in found.values.items():
        if is_symbolic(v):
            raise UsageError(
                f"a bound ({relation} {limit}) needs a number: with parameters, ask =?"
            )
        if isinstance(v, Enclosure):
            low, high = compare(v.low, limit), compare(v.high, limit)
            if low != high:
                raise UsageError(
                    f"the enclosure {v} does not decide {relation} {limit}: use method='exact'"
                )
            truth[i] = bool(low)
        else:
            truth[i] = bool(compare(v, limit))
    return Answer(truth, found.solution)


def _optimum(space: StateSpace, expr: Any, what: str) -> str | None:
    """Which optimum an MDP's operator asks for: its ``max``/``min``, or for a bound
    without one, the bound over every choice (PRISM's rule: ``P>=p`` holds when the
    least probability is at least ``p``, ``P<=p`` when the largest is at most ``p``)."""
    if space.program.model_type != "mdp":
        return None
    if expr.optimum is not None:
        return str(expr.optimum)
    if expr.bound is not None:
        return "min" if expr.bound[0] in (">", ">=") else "max"
    raise UsageError(f"{what} of an MDP needs max or min (Pmax=?, Pmin=?, Rmax=?, Rmin=?)")


def _path_sets(space: StateSpace, path: Path) -> tuple[set[int] | None, set[int], bool]:
    """``(through, target, complement)`` for ``path``: the probability of reaching
    ``target`` through ``through`` (or one minus it, with the other optimum)."""
    every = set(range(len(space)))
    if path.kind == "F":
        return None, _condition(space, path.right, "F"), False
    if path.kind == "U":
        return _condition(space, path.left, "U"), _condition(space, path.right, "U"), False  # type: ignore[arg-type]
    if path.kind == "G":
        return None, every - _condition(space, path.right, "G"), True
    if path.kind == "W":
        left = _condition(space, path.left, "W")  # type: ignore[arg-type]
        right = _condition(space, path.right, "W")
        return every - right, (every - left) - right, True
    raise UsageError(
        f"{path.kind} path formulas are not answered (the paths are F, U, G, W and X; "
        'their bounds <=k, <k, >=k, >k, [a,b] and ^{rew{"r"}<=B})'
    )


def probability_question(
    space: StateSpace, expr: ProbabilityOperator
) -> tuple[QuestionModel, bool]:
    """The engine model of ``P [F b]`` or ``P [a U b]`` (``G`` and ``W`` through their
    complement: then the second item is true and the answer is one minus its value)."""
    if expr.path.reward_bound is not None:  # its model is over another space
        raise UsageError("a reward-bounded path is answered by bounded_question")
    optimum, through, target, complement = _reach_sets(space, expr)
    return _reach_model(space, optimum, through, target, expr.path.steps is not None), complement


def _reach_sets(
    space: StateSpace, expr: ProbabilityOperator
) -> tuple[str | None, set[int] | None, set[int], bool]:
    """The optimum ``expr`` asks for, and its path's sets (:func:`_path_sets`): for ``G``
    and ``W`` the other optimum, of the complement's reachability."""
    optimum = _optimum(space, expr, "a probability")
    through, target, complement = _path_sets(space, expr.path)
    if complement:
        optimum = {"max": "min", "min": "max", None: None}[optimum]
    return optimum, through, target, complement


def _reach_model(
    space: StateSpace,
    optimum: str | None,
    through: set[int] | None,
    target: set[int],
    bounded: bool,
) -> QuestionModel:
    """The engine model of reaching ``target`` through ``through``, at its ``optimum``
    (within a bound on the steps when ``bounded``), with the states the graph decides
    made terminal."""
    minimise = optimum == "min"
    if minimise:
        zero = space.avoid_some(target, through)
        one = space.sure_every(target, through)
    else:
        zero = set(range(len(space))) - space.reach_some(target, through)
        one = space.sure_some(target, through) if optimum else space.sure_every(target, through)
    terminal = {i: mpq(0) for i in zero}
    # within a bound only the target is reached for sure: a sure state may need more steps
    terminal.update({i: mpq(1) for i in (target if bounded else one)})
    return QuestionModel(space, terminal, minimise=minimise, every_move=bounded)


def bounded_question(
    space: StateSpace, expr: ProbabilityOperator, positions: list[int]
) -> tuple[QuestionModel, BoundedSpace, bool]:
    """The engine model of ``P [F^{rew{"r"}<=B} b]`` (``U`` and ``G`` too, any
    relations; a lower or interval time bound is one on the steps) from the space's
    ``positions``: reachability in the product of the space with the reward gathered
    (:mod:`.reward_bound`), that product, and whether the answer is one minus the
    model's value (``G``, through :math:`F\\,\\lnot b` with the other optimum)."""
    path, bound = expr.path, expr.path.reward_bound
    assert bound is not None
    what = "a time bound" if bound.steps else "a reward bound"
    if path.kind not in ("F", "U", "G"):
        raise UsageError(f"{path.kind} with {what} is not answered (F, U and G are)")
    if bound.steps:
        structure: str | None = STEPS
    else:
        structure = _structure(space.program.rewards, bound.structure)
        _check_rewards(space, structure)
    limits = [
        (relation, _limit(space, value, what, bound.steps)) for relation, value in bound.limits
    ]
    optimum, through, target, complement = _reach_sets(space, expr)
    product = bounded_space(space, structure, limits, positions)
    origin, met = product.origin, product.met
    lifted = {i for i, s in enumerate(origin) if s in target and met[i]}
    within = None if through is None else {i for i, s in enumerate(origin) if s in through}
    return _reach_model(product, optimum, within, lifted, False), product, complement


def _limit(space: StateSpace, expr: Expr, what: str, steps: bool) -> Any:
    """The number of a bound's limit: a whole number of steps, at least 0, for a time
    bound."""
    kind, value = constant_value(expr, Scope(space.program.constants), what)
    if kind == "bool" or is_symbolic(value) or (steps and (kind != "int" or value < 0)):
        allowed = "a whole number of steps, at least 0" if steps else "a number"
        raise UsageError(f"{what} must be {allowed}; got {value} (a {kind})")
    return value


def _probability(
    space: StateSpace,
    expr: ProbabilityOperator,
    positions: list[int],
    method: str,
    options: dict[str, Any],
) -> Answer:
    if expr.path.kind == "X":
        return _next(space, expr.path, positions, _optimum(space, expr, "a probability"))
    if expr.path.reward_bound is not None:
        model, product, complement = bounded_question(space, expr, positions)
        starts = [product.start[i] for i in positions]
        found = _solve(model, starts, method, options)
        values = {i: found.values[product.start[i]] for i in positions}
        if complement:
            values = {i: _one_minus(v) for i, v in values.items()}
        return Answer(values, found.solution)
    model, complement = probability_question(space, expr)
    found = _solve(model, positions, method, options, _steps(space, expr.path))
    if complement:
        found.values = {i: _one_minus(v) for i, v in found.values.items()}
    return found


def _one_minus(value: Any) -> Any:
    """:math:`1 - v`, for an exact value or an enclosure."""
    if isinstance(value, Enclosure):
        return Enclosure(1 - value.high, 1 - value.low)
    return 1 - value


def _next(space: StateSpace, path: Path, positions: list[int], optimum: str | None) -> Answer:
    target = _condition(space, path.right, "X")
    choose: Callable[..., Any] = min if optimum == "min" else max
    values = {}
    for i in positions:
        options = [sum((p for t, p in dist if t in target), 0) for _, dist in space.moves[i]]
        if any(is_symbolic(o) for o in options):
            if len(options) > 1:
                raise UsageError("X with a parameter is answered in a DTMC only")
            values[i] = options[0]
        else:
            values[i] = to_fraction(choose(options))
    return Answer(values)


def reward_question(
    space: StateSpace, expr: RewardOperator
) -> tuple[RewardQuestionModel, set[int]]:
    """The engine model of ``R [F b]``, and the states where the reward is finite (the
    target is reached surely: under every choice for ``Rmax``, under some for ``Rmin``,
    whose model then plays only the moves that keep it sure)."""
    if expr.path.kind not in ("F", "C"):
        raise UsageError(
            f"R[{expr.path.kind}] reward properties are not answered "
            "(R[F ...], R[C<=k] and R[S] only)"
        )
    structure, optimum = _reward_structure(space, expr)
    if expr.path.kind == "C":  # every state plays on: the reward of its first k moves
        every = set(range(len(space)))
        return RewardQuestionModel(
            space, {}, structure, minimise=optimum == "min", every_move=True
        ), every
    target = _condition(space, expr.path.right, "F")
    sure = space.sure_some(target) if optimum == "min" else space.sure_every(target)
    model = RewardQuestionModel(
        space,
        {i: mpq(0) for i in target},
        structure,
        minimise=optimum == "min",
        allowed=sure if optimum == "min" else None,
    )
    return model, sure


def _reward_structure(space: StateSpace, expr: RewardOperator) -> tuple[str | None, str | None]:
    """The reward structure ``expr`` asks for (checked to give no negative reward) and
    its optimum in an MDP."""
    structure = STEPS if expr.steps else _structure(space.program.rewards, expr.structure)
    if structure != STEPS:
        _check_rewards(space, structure)
    return structure, _optimum(space, expr, "a reward")


def _structure(rewards: dict[str | None, Any], asked: str | None) -> str | None:
    """The reward structure a property names (unnamed: the first)."""
    if asked in rewards:
        return asked
    if asked is None and rewards:
        return next(iter(rewards))
    names = ", ".join(f'"{n}"' if n else "an unnamed one" for n in rewards) or "none"
    named = "" if asked is None else f' "{asked}"'
    raise UsageError(f"the model has no reward structure{named} (it has: {names})")


def _reward(
    space: StateSpace,
    expr: RewardOperator,
    positions: list[int],
    method: str,
    options: dict[str, Any],
) -> Answer:
    if expr.path.kind == "S":  # the long-run average reward per move
        structure, optimum = _reward_structure(space, expr)
        rewarded = RewardQuestionModel(space, {}, structure)
        return _long_run(space, positions, method, optimum, rewarded.reward)
    model, sure = reward_question(space, expr)
    steps = _steps(space, expr.path)
    found = _solve(model, [i for i in positions if i in sure], method, options, steps)
    found.values.update({i: math.inf for i in positions if i not in sure})
    return found


def _check_rewards(space: StateSpace, structure: str | None) -> None:
    """Refuse a negative reward (one that depends on a parameter is taken as >= 0, as
    its probabilities are taken as positive)."""
    program = space.program
    for state in space.states:
        value = program.negative_reward(structure, state)
        if value is not None:
            raise ModelError(
                f"the reward structure gives {value} in state "
                f"{program.state_text(state)}: rewards must be >= 0"
            )


def _steady(space: StateSpace, expr: SteadyOperator, positions: list[int], method: str) -> Answer:
    """``S=? [b]``: the long-run share of time in ``b``, the best one in an MDP."""
    shown = {space.states[i] for i in _condition(space, expr.state, "S")}
    optimum = _optimum(space, expr, "the long run (S)")
    return _long_run(space, positions, method, optimum, lambda s, _: 1 if s in shown else 0)


def _long_run(
    space: StateSpace,
    positions: list[int],
    method: str,
    optimum: str | None,
    earned: Callable[[tuple[Any, ...], str], Any],
) -> Answer:
    """The long-run average of ``earned(state, move)`` per move from ``positions``; in an
    MDP the most (or least) any play gives, by the engine's exact multichain policy
    iteration (:func:`exactprob.stationary`)."""
    if method != "exact":
        raise UsageError("the long run (S) is answered exactly only: method='exact'")
    model = LongRunModel(space, earned, minimise=optimum == "min")
    run = stationary(model, starts=[space.states[i] for i in positions])
    return Answer({i: run.long_run_average(None, space.states[i]) for i in positions})


def _steps(space: StateSpace, path: Path) -> int | None:
    """The most steps a bounded path may take (``k`` of ``F<=k``), ``None`` unbounded."""
    if path.steps is None:
        return None
    program = space.program
    kind, steps = constant_value(path.steps, Scope(program.constants), "a time bound")
    if kind != "int" or steps < 0:
        raise UsageError(f"a time bound must be a whole number of steps, at least 0; got {steps}")
    return int(steps)


def _solve(
    model: QuestionModel,
    positions: list[int],
    method: str,
    options: dict[str, Any],
    steps: int | None = None,
) -> Answer:
    """The model's values at ``positions``: terminal ones read off, the rest solved in
    one run of the engine from all of them (within ``steps`` moves, when given: the
    engine's horizon, where a move past it ends play with 0)."""
    space, terminal = model.space, model.terminal
    values: dict[int, Any] = {i: to_fraction(terminal[i]) for i in positions if i in terminal}
    starts = [i for i in positions if i not in terminal]
    if not starts:
        return Answer(values)
    solution: Any
    piecewise = space.program.parameters and space.program.model_type == "mdp"
    by_graph = method in _BY_GRAPH and not options.keys() - {"progress"}
    if by_graph and not piecewise and steps is None:
        # the graph read off the space: the question model's moves are not asked again
        graph = question_graph(model, starts)
        solution = _BY_GRAPH[method](graph, progress=shows_progress(options.get("progress")))
    else:
        first = [space.states[i] for i in starts]
        if steps is None:
            solution = solve(model, method, starts=first, **options)  # type: ignore[call-overload]
        else:
            solution = _solve_within(model, method, first, options, steps)
    for i in positions:
        if i not in terminal:
            state = space.states[i]
            values[i] = solution.value(state if steps is None else (state, steps))
    return Answer(values, solution)


def _solve_within(
    model: QuestionModel, method: str, starts: list[Any], options: dict[str, Any], steps: int
) -> Any:
    """The engine's solve of ``model`` within ``steps`` moves, under the space's state
    limit: each state is paired with the steps left, up to ``steps + 1`` of it."""
    limit = options.get("max_states", model.space.max_states)
    try:
        return solve(  # type: ignore[call-overload]
            model, method, starts=starts, **{**options, "horizon": steps, "max_states": limit}
        )
    except StateLimitError:
        most = len(model.space) * (steps + 1)
        raise StateLimitError(
            f"within {steps} steps each of the {len(model.space):,} states is paired with "
            f"the steps left: more than the limit of {limit:,} states; pass max_states={most} "
            f"(--max-states {most}) to go on"
        ) from None


def _filter(
    space: StateSpace, expr: Filter, positions: list[int], method: str, options: dict[str, Any]
) -> Answer:
    if expr.op not in FILTERS:
        raise UsageError(
            f"filter({expr.op}, ...) is not answered; the filters are {', '.join(FILTERS)}"
        )
    chosen = sorted(
        _condition(space, expr.states, "filter") if expr.states is not None else range(len(space))
    )
    if not chosen:
        raise UsageError("the filter's states formula holds in no reachable state")
    inner = answer(space, expr.prop, chosen, method, **options)
    if expr.op == "state" and len(chosen) != 1:
        raise UsageError(f"filter(state, ...) needs exactly one state, got {len(chosen)}")
    result = _combine(expr.op, [inner.values[i] for i in chosen])
    return Answer(dict.fromkeys(positions, result), inner.solution)


def _combine(op: str, values: list[Any]) -> Any:
    """A filter's ``op`` over ``values`` (enclosures combined end by end: each op is
    monotone in every value)."""
    if op in ("first", "state"):
        return values[0]
    if op in ("forall", "exists", "count"):
        if not all(isinstance(v, bool) for v in values):
            raise UsageError(f"filter({op}, ...) needs a true/false property")
        if op == "count":
            return sum(values)
        return all(values) if op == "forall" else any(values)
    if any(is_symbolic(v) or isinstance(v, bool) for v in values):
        raise UsageError(f"filter({op}, ...) needs numbers: its property gives formulas or truths")
    if any(isinstance(v, Enclosure) for v in values):
        lows = [v.low if isinstance(v, Enclosure) else v for v in values]
        highs = [v.high if isinstance(v, Enclosure) else v for v in values]
        return Enclosure(_combine(op, lows), _combine(op, highs))
    if op == "min":
        return min(values)
    if op == "max":
        return max(values)
    total = sum(values, Fraction(0))
    return total if op == "sum" else total / len(values)
