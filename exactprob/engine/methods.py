r"""The front door: :func:`solve` answers every model through one registry of methods.

A *method* is how a model is solved: ``"exact"`` (rationals, optimal play with exact ties),
``"certified"`` (float enclosures proved to contain the exact values) or ``"depth-first"``
(exact, each strongly connected component solved as the search completes it, its
transitions dropped). The generic engine answers every model by every method. A game whose
own solver is faster registers it for its model class (:func:`register`); :func:`solve` then
takes that *fast path* for instances of that very class, unless ``generic=True``. A subclass
is solved by the generic engine unless it registers a path of its own: it may change the
rules the fast path assumes. A fast
path may decline a model it does not cover (it returns ``None``), and the generic engine
answers instead. Every fast path answers the same queries as the engine and is tested
equal to it on random instances.

>>> import exactprob as ep
>>> from fractions import Fraction
>>> from exactprob.games.gamblers_ruin import GamblersRuin
>>> ruin = GamblersRuin(goal=5, start=2, p="2/5")
>>> ep.solve(ruin).value(), ep.solve(ruin, method="depth-first").value()
(Fraction(40, 211), Fraction(40, 211))
>>> ep.solve(ruin, method="certified").value().contains(Fraction(40, 211))
True
>>> ep.solve(ruin, method="bogus")
Traceback (most recent call last):
...
exactprob.errors.UsageError: method must be one of 'exact', 'certified', 'depth-first', got 'bogus'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    NoReturn,
    Protocol,
    TypedDict,
    TypeVar,
    Unpack,
    overload,
)

from ..errors import UsageError
from ..util.deprecation import NOT_GIVEN
from ..util.limits import DEFAULT_MAX_STATES, check_max_states
from ..util.progress import shows_progress
from .levels.model import LevelModel, is_level_model
from .model import Action, Model, State
from .results import METHODS, Counter, Method, Solved, SolvedLaws, SolvedPlay

if TYPE_CHECKING:
    from .exact.solution import Solution
    from .levels.sweep import LevelSolution
    from .seats.solving import TieRule
    from .symbolic.piecewise import PiecewiseSolution

__all__ = [
    "METHODS",
    "Method",
    "PolicyEvaluator",
    "Solver",
    "SolvingMethod",
    "evaluate",
    "fast_path",
    "register",
    "register_evaluator",
    "route",
    "solve",
]


class SolvingMethod(Protocol):
    """A solver as the registry holds it: the model, the state limit and whether to show
    progress, to a result (``None``: a fast path declines, the generic engine answers)."""

    def __call__(self, model: Any, *, max_states: int, progress: bool) -> Solved | None: ...


class Solver(Protocol):
    """A solver as :func:`route` chooses it: the model, the state limit, whether to show
    progress and the start states, to an answer (a generic method, or a fast path with
    the generic engine behind it)."""

    def __call__(
        self, model: Any, *, max_states: int, progress: bool, starts: Sequence[Hashable] | None
    ) -> Solved: ...


class PolicyEvaluator(Protocol):
    """A fixed policy's evaluation as the registry holds it: the model and the policy (a
    function of the state, or a mapping), the state limit and whether to show progress,
    to an exact answer (``None``: it declines, the generic engine answers)."""

    def __call__(
        self, model: Any, policy: Any, *, max_states: int, progress: bool
    ) -> SolvedLaws | None: ...


F = TypeVar("F", bound=SolvingMethod)
E = TypeVar("E", bound=PolicyEvaluator)
_REGISTRY: dict[tuple[type, str], SolvingMethod] = {}
_EVALUATORS: dict[type, PolicyEvaluator] = {}
_GENERIC: dict[str, Solver] = {}


def register(model_class: type, method: Method = "exact") -> Callable[[F], F]:
    """Register the decorated function as ``method`` for instances of ``model_class``
    (not its subclasses): ``function(model, *, max_states, progress)`` returns a
    :class:`~exactprob.engine.results.Solved`, or ``None`` to leave the model to the generic
    engine."""
    _check_method(method)

    def add(function: F) -> F:
        _REGISTRY[model_class, method] = function
        return function

    return add


def register_evaluator(model_class: type) -> Callable[[E], E]:
    """Register the decorated function as the evaluation of a fixed policy for instances
    of ``model_class`` (not its subclasses), which :func:`evaluate` takes:
    ``function(model, policy, *, max_states, progress)`` returns an exact answer
    (:class:`~exactprob.engine.results.SolvedLaws`) under ``policy``, or ``None`` to leave
    it to the generic engine."""

    def add(function: E) -> E:
        _EVALUATORS[model_class] = function
        return function

    return add


def fast_path(model: Any, method: Method = "exact") -> SolvingMethod | None:
    """The solver registered for ``method`` for the model's own class, or ``None`` when only
    the generic engine is.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> fast_path(GamblersRuin(goal=3, start=1, p="1/2")) is None
    True
    """
    cls = type(model)
    return _REGISTRY.get((cls, method))


class _Common(TypedDict, total=False):
    """The options of :func:`solve` and :func:`evaluate` that every overload of either
    takes alike."""

    max_states: int
    progress: bool | None
    starts: Sequence[Hashable] | None
    payoffs: Mapping[Hashable, Any] | None


class _Options(_Common, total=False):
    """The options of :func:`solve` that every overload takes alike."""

    generic: bool
    tie_rule: TieRule | None


@overload
def solve(
    model: Any,
    method: Literal["exact"] = ...,
    *,
    horizon: int,
    counter: Counter | None = ...,
    parameter_range: tuple[Any, Any],
    **options: Unpack[_Options],
) -> PiecewiseSolution: ...


@overload
def solve(
    model: Model[State, Action],
    method: Literal["exact", "depth-first"] = ...,
    *,
    horizon: int,
    counter: Counter | None = ...,
    **options: Unpack[_Options],
) -> SolvedLaws[tuple[State, int | None], Action]: ...


@overload
def solve(
    model: Model[State, Action],
    method: Literal["certified"],
    *,
    horizon: int,
    counter: Counter | None = ...,
    **options: Unpack[_Options],
) -> SolvedPlay[tuple[State, int | None], Action]: ...


@overload
def solve(
    model: Any,
    method: Literal["exact", "depth-first"] = ...,
    *,
    horizon: int,
    counter: Counter | None = ...,
    **options: Unpack[_Options],
) -> SolvedLaws: ...


@overload
def solve(
    model: Any,
    method: Literal["certified"],
    *,
    horizon: int,
    counter: Counter | None = ...,
    **options: Unpack[_Options],
) -> SolvedPlay: ...


@overload
def solve(
    model: LevelModel,
    method: Literal["depth-first"],
    *,
    parameter_range: None = ...,
    cluster: Any = ...,
    **options: Unpack[_Options],
) -> NoReturn: ...


@overload
def solve(
    model: LevelModel,
    method: Literal["exact", "certified"] = ...,
    *,
    parameter_range: None = ...,
    cluster: Any = ...,
    **options: Unpack[_Options],
) -> LevelSolution: ...


@overload
def solve(
    model: Any,
    method: Literal["exact"] = ...,
    *,
    parameter_range: tuple[Any, Any],
    cluster: None = ...,
    **options: Unpack[_Options],
) -> PiecewiseSolution: ...


@overload
def solve(
    model: Model[State, Action],
    method: Literal["certified"],
    *,
    parameter_range: None = ...,
    cluster: None = ...,
    **options: Unpack[_Options],
) -> SolvedPlay[State, Action]: ...


@overload
def solve(
    model: Model[State, Action],
    method: Literal["exact", "depth-first"] = ...,
    *,
    parameter_range: None = ...,
    cluster: None = ...,
    **options: Unpack[_Options],
) -> SolvedLaws[State, Action]: ...


@overload
def solve(
    model: Any,
    method: Literal["certified"],
    *,
    parameter_range: None = ...,
    cluster: None = ...,
    **options: Unpack[_Options],
) -> SolvedPlay: ...


@overload
def solve(
    model: Any,
    method: Literal["exact", "depth-first"] = ...,
    *,
    parameter_range: None = ...,
    cluster: None = ...,
    **options: Unpack[_Options],
) -> SolvedLaws: ...


def solve(
    model: Any,
    method: Method = "exact",
    *,
    generic: bool = False,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    starts: Sequence[Hashable] | None = None,
    parameter_range: tuple[Any, Any] | None = None,
    cluster: Any = None,
    horizon: int | None = None,
    counter: Counter | None = None,
    payoffs: Mapping[Hashable, Any] | None = None,
    tie_rule: TieRule | None = None,
) -> Solved:
    """Solve ``model`` under optimal play by ``method``: the fast path registered for the
    model's class, or the generic engine.

    Player 0 maximises the expected terminal value (plus the total reward, for a model
    with rewards), player 1 minimises it.

    Parameters
    ----------
    model : Model, ArrayModel or LevelModel
        The game (a :class:`~exactprob.engine.levels.model.LevelModel` is solved a level
        at a time, exactly or certified).
    method : {"exact", "certified", "depth-first"}
        Exact rationals (the default); enclosures proved to contain them; or exact by a
        depth-first search that keeps no state graph.
    generic : bool
        Use the generic engine even where a game registered a faster path.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool, optional
        Show a bar on stderr; by default, when stderr is a terminal.
    starts : sequence, optional
        Solve from each of these at once (one exploration and one solve) instead of the
        model's initial state; the first is the state ``None`` stands for. A fast path
        is used when its result starts there and knows every start (list the model's
        initial state first to keep it).
    parameter_range : (low, high), optional
        For a model with choices whose probabilities hold one sympy symbol, which is
        solved piece by piece in it (:mod:`exactprob.engine.symbolic.piecewise`): the open range
        of the symbol (exact rationals, ``None`` for no bound). By default, the one
        interval where every probability lies in [0, 1].
    cluster : distributed.Client or str, optional
        For a :class:`~exactprob.engine.levels.model.LevelModel`: run its steps on Dask
        (:mod:`exactprob.engine.levels.cluster`), a client, a scheduler's address
        (``"tcp://host:8786"``) or ``"local"`` (one worker process per core). The
        answer is the one solved here.
    horizon : int, optional
        Play within this many counted steps (:mod:`exactprob.engine.wrapped.horizon`): the
        states become ``(state, steps left)``, a move that would go over ends play with
        outcome 0, and one solve answers from every number of steps left up to ``horizon`` (the
        value of ``(state, n)`` is the best within ``n``; its policy is the best action
        with ``n`` steps left). The initial state is ``(initial, horizon)``.
    counter : callable, optional
        With ``horizon``: ``counter(state, action, next_state)``, the steps a move uses
        (a whole number, 0 or more: a counter as the laws of play take it); every move
        is one step by default. Count turns with 1 on the first move of a turn and 0 on
        the others.
    payoffs : mapping, optional
        The value of each ending, for a model whose ``outcome`` names how play ended
        (``"bust"``, the seat that won; :mod:`exactprob.engine.wrapped.payoffs`): every
        outcome the model reaches must be a key, numbers included. The answer's states
        are the model's; the law of the endings is
        ``solution.absorption().map(model.outcome)``.
    tie_rule : {"first", "others-best", "others-worst"}, optional
        For a game of seats (outcomes that are tuples, one payoff per seat;
        :mod:`exactprob.engine.seats`): which of a mover's exactly tied best actions it
        plays: the first in the model's order (the default), or the one best or worst
        for the other seats in total.

    Returns
    -------
    Solved
        Every state's value, exact or an :class:`~exactprob.engine.enclosure.Enclosure`
        (:mod:`exactprob.engine.results`), with ``method`` and the ``solver`` that
        answered (:func:`route`). A model with choices gives a ``SolvedPlay`` (its
        optimal action, the actions tied with it, every action's value); an exact one a
        ``SolvedLaws`` (also the laws of play: absorption, counters, expected steps). A
        :class:`~exactprob.engine.levels.model.LevelModel` gives a
        :class:`~exactprob.engine.levels.sweep.LevelSolution` (values only); a model with
        choices and one symbol a :class:`~exactprob.engine.symbolic.piecewise.PiecewiseSolution`
        (values as ``sympy.Piecewise``, the pieces read by state). The types follow the
        model's class and the options; only the explored graph shows a symbol, so pass
        ``parameter_range`` for a piecewise answer to be typed as one.

    Raises
    ------
    UsageError
        For an unknown method, or an option that does not apply to the model.
    StateLimitError
        When the game has more than ``max_states`` states.
    NonTerminationError
        When some state's best play never ends.
    ModelError
        For a reward that play can collect again and again before it ends, in favour
        of a player who moves there (the best total may be unbounded); for outcomes
        that are labels without ``payoffs`` (all of them named), or an ending that
        ``payoffs`` does not pay.

    See Also
    --------
    exactprob.evaluate : The exact value of a fixed policy.
    exactprob.explore : The state graph alone.

    References
    ----------
    - R. A. Howard, *Dynamic Programming and Markov Processes*, MIT Press, 1960
      (policy iteration, which values the cyclic components).
    - A. J. Hoffman and R. M. Karp, "On nonterminating stochastic games", *Management
      Science* 12(5), 1966 (strategy iteration, for two players).

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> solve(ruin).value()
    Fraction(40, 211)
    """
    check_max_states(max_states)
    model = _paid(model, payoffs)
    model, starts = _within(model, horizon, counter, starts, max_states)
    answer = route(model, method, generic=generic, parameter_range=parameter_range, cluster=cluster)
    if tie_rule is not None:
        answer = _with_tie_rule(answer, method, tie_rule)
    progress = shows_progress(progress)
    return answer(model, max_states=max_states, progress=progress, starts=starts)


def _with_tie_rule(answer: Solver, method: Method, tie_rule: object) -> Solver:
    """The generic exact method with ``tie_rule`` for a game of seats (checked here);
    refused for another method, or a fast path or level sweep."""
    from .seats.solving import check_tie_rule
    from .symbolic.piecewise import solve_exact

    rule = check_tie_rule(tie_rule)
    if method != "exact" or answer is not _GENERIC["exact"]:
        raise UsageError(
            "tie_rule= is for a game of seats, solved by the generic engine's method "
            f"'exact'; got method {method!r}"
            + ("" if method != "exact" else " with a fast path, a level model or parameter_range")
        )
    return partial(solve_exact, tie_rule=rule)


def _paid(model: Any, payoffs: Mapping[Hashable, Any] | None) -> Any:
    """The model with its endings paid by ``payoffs`` (:mod:`.wrapped.payoffs`), or the
    model as it is without them; a level model with payoffs is refused."""
    if payoffs is None:
        return model
    if is_level_model(model):
        raise UsageError(
            "payoffs= is for a Model or an ArrayModel; a level model's values are its own"
        )
    from .array_model import ArrayModel
    from .graph.exploring import check_model
    from .wrapped.payoffs import paid

    if isinstance(model, type) or not isinstance(model, ArrayModel):
        check_model(model, needs_initial=False)  # the wrapper's methods are always whole
    return paid(model, payoffs)


def _within(
    model: Any,
    horizon: int | None,
    counter: Counter | None,
    starts: Sequence[Hashable] | None,
    max_states: int,
) -> tuple[Any, Sequence[Hashable] | None]:
    """The model played within ``horizon`` and its starts (:mod:`.wrapped.horizon`), or the model
    and starts as they are without one; a counter without a horizon, and a level model
    with one (its steps are its own), are refused."""
    if horizon is None:
        if counter is not None:
            raise UsageError("counter= counts steps towards a horizon; give horizon= too")
        return model, starts
    if is_level_model(model):
        raise UsageError(
            "horizon= is for a Model or an ArrayModel; a level model's steps are its own"
        )
    from .wrapped.horizon import within_horizon

    return within_horizon(model, horizon, counter, starts, max_states)


@overload
def evaluate(
    model: Model[State, Action],
    policy: Any,
    *,
    horizon: int,
    counter: Counter | None = ...,
    generic: bool = ...,
    **options: Unpack[_Common],
) -> SolvedLaws[tuple[State, int | None], Action]: ...


@overload
def evaluate(
    model: Any,
    policy: Any,
    *,
    horizon: int,
    counter: Counter | None = ...,
    generic: bool = ...,
    **options: Unpack[_Common],
) -> SolvedLaws: ...


@overload
def evaluate(
    model: Any,
    policy: Any,
    *,
    generic: Literal[True],
    start: Any = ...,
    **options: Unpack[_Common],
) -> Solution: ...


@overload
def evaluate(
    model: Model[State, Action],
    policy: Any,
    *,
    generic: bool = ...,
    start: Any = ...,
    **options: Unpack[_Common],
) -> SolvedLaws[State, Action]: ...


@overload
def evaluate(
    model: Any,
    policy: Any,
    *,
    generic: bool = ...,
    start: Any = ...,
    **options: Unpack[_Common],
) -> SolvedLaws: ...


def evaluate(
    model: Any,
    policy: Any,
    *,
    generic: bool = False,
    starts: Sequence[Hashable] | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    start: Any = NOT_GIVEN,
    horizon: int | None = None,
    counter: Counter | None = None,
    payoffs: Mapping[Hashable, Any] | None = None,
) -> SolvedLaws:
    """The exact values of a fixed ``policy`` and the laws of play under it: the
    evaluation registered for the model's class (:func:`register_evaluator`), or the
    generic engine's (:func:`~exactprob.engine.exact.policies.evaluate`), which explores
    only the states the policy reaches.

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    policy : callable or mapping
        The action in each state: ``policy(state)`` or ``policy[state]``.
    generic : bool
        Use the generic engine even where a game registered a faster evaluation (its
        answer is a :class:`~exactprob.engine.exact.solution.Solution`, with a
        derivation and the state graph).
    starts : sequence, optional
        Evaluate from each of these at once instead of the model's initial state (the
        generic engine); the first is the state ``None`` stands for.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool, optional
        Show a bar on stderr; by default, when stderr is a terminal.
    start : state, optional
        Deprecated since 0.2.0: ``starts=[start]``.
    horizon : int, optional
        Play within this many counted steps, as :func:`solve` takes it (the generic
        engine): ``policy`` is still a policy of the model's own states, the same play
        whatever the steps left, and the answer's states are ``(state, steps left)``.
    counter : callable, optional
        With ``horizon``: the steps a move uses, as :func:`solve` takes it.
    payoffs : mapping, optional
        The value of each ending of a model whose ``outcome`` names how play ended, as
        :func:`solve` takes it (the generic engine).

    Returns
    -------
    SolvedLaws
        Every reachable state's value under the policy, its play and its laws.

    Raises
    ------
    ModelError
        When the policy picks an action the state does not offer.
    NonTerminationError
        When play under the policy never ends from some state.

    See Also
    --------
    solve : The values under optimal play.

    References
    ----------
    - J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960
      (absorbing chains: the values under a fixed policy solve one linear system).

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> evaluate(ruin, lambda fortune: "bet", starts=[3]).value()  # (r^3 - 1)/(r^5 - 1)
    Fraction(76, 211)
    """
    from .exact.policies import evaluate as evaluate_generic
    from .exact.policies import starts_given

    check_max_states(max_states)  # here, as solve does: before any evaluation asks it
    starts = starts_given(starts, start)
    model = _paid(model, payoffs)
    model, starts = _within(model, horizon, counter, starts, max_states)
    if horizon is not None:
        policy = _of_the_model_state(policy)
    registered = None if generic or starts is not None else _EVALUATORS.get(type(model))
    if registered is not None:
        shown = shows_progress(progress)
        answer = registered(model, policy, max_states=max_states, progress=shown)
        if answer is not None:
            return answer
    return evaluate_generic(model, policy, starts=starts, max_states=max_states, progress=progress)


def _of_the_model_state(policy: Any) -> Any:
    """A policy of the model's own states (a function or a mapping) as a policy of the
    states ``(state, steps left)`` of a horizon; anything else is left for the
    evaluation to refuse."""
    if isinstance(policy, Mapping):
        return lambda state: policy[state[0]]
    if callable(policy):
        return lambda state: policy(state[0])
    return policy


def route(
    model: Any,
    method: Method = "exact",
    *,
    generic: bool = False,
    parameter_range: tuple[Any, Any] | None = None,
    cluster: Any = None,
) -> Solver:
    """The solver that answers :func:`solve` for ``model`` with these options, chosen here
    and nowhere else; an option that does not apply to the model is refused in one line.

    ============================  ==============================================
    the model and options         the solver
    ============================  ==============================================
    ``parameter_range=(a, b)``    the piecewise solve in one symbol (exact only)
    a ``LevelModel``              the level sweep, here or on Dask (``cluster=``)
    a registered class            its fast path (unless ``generic=True``); the
                                  generic engine when it declines or does not
                                  know every start
    any other model               the generic engine's ``method``
    ============================  ==============================================

    The generic exact method solves a model with choices and one symbol piecewise
    (:func:`~exactprob.engine.symbolic.piecewise.solve_exact`), since only the explored graph
    shows the symbol.

    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> route(GamblersRuin(goal=5, start=2, p="2/5"), "depth-first").__name__
    'solve_depth_first'
    >>> route(GamblersRuin(goal=5, start=2, p="2/5"), cluster="local")
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: cluster= runs a LevelModel's sweep on Dask; this model is not one
    """
    _check_method(method)
    _load_generic()
    level = is_level_model(model)
    if parameter_range is not None:
        if method != "exact" or level or cluster is not None:
            raise UsageError(
                f"parameter_range is for a model with one symbolic parameter, solved by "
                f"method 'exact', got method {method!r}"
                + (" and a level model" if level else "")
                + (" and cluster=" if cluster is not None else "")
            )
        from .symbolic.piecewise import solve_exact

        return partial(solve_exact, parameter_range=parameter_range)
    if level:
        from .levels.sweep import solve_levels

        return partial(solve_levels, method=method, cluster=cluster)
    if cluster is not None:
        raise UsageError("cluster= runs a LevelModel's sweep on Dask; this model is not one")
    path = None if generic else fast_path(model, method)
    if path is None:
        return _GENERIC[method]
    return _with_fallback(path, _GENERIC[method])


def _with_fallback(path: SolvingMethod, generic: Solver) -> Solver:
    """A fast path, and the generic engine where it declines the model or does not know
    every start."""

    def answer(
        model: Any, *, max_states: int, progress: bool, starts: Sequence[Hashable] | None
    ) -> Solved:
        solved = path(model, max_states=max_states, progress=progress)
        if solved is not None and (starts is None or _knows(solved, starts)):
            return solved
        return generic(model, max_states=max_states, progress=progress, starts=starts)

    return answer


def _knows(solved: Solved, starts: Sequence[Hashable]) -> bool:
    """Whether a result starts at the first of ``starts`` and knows every one."""
    if not starts or solved.initial != starts[0]:
        return False
    known = set(solved.states)
    return all(state in known for state in starts)


def _check_method(method: object) -> None:
    if method not in METHODS:
        allowed = ", ".join(repr(m) for m in METHODS)
        raise UsageError(f"method must be one of {allowed}, got {method!r}")


def _load_generic() -> None:
    """Load the generic engine's three methods (on first use: the
    certified and depth-first engines load only when a model is solved)."""
    if _GENERIC:
        return
    from .certified.solving import enclose
    from .exact.depth_first import solve_depth_first
    from .symbolic.piecewise import solve_exact

    _GENERIC.update({"exact": solve_exact, "certified": enclose, "depth-first": solve_depth_first})
