"""``explore``: the reachable states of a model as a compact
:class:`~exactprob.engine.graph.state_graph.StateGraph`.

States are interned to integer ids in breadth-first order (the initial state is ``0``).
Each state owns a run of *choices*, one per action in the model's order, and each choice
a run of *edges* (successor id, probability id) in flat :mod:`array` columns; the
distinct exact probabilities are stored once (a game's dice give a handful). The
networkx view of the same graph, for plotting, exporting or any graph algorithm, is
:meth:`~exactprob.engine.graph.state_graph.StateGraph.to_networkx`: it is the interface, not the hot path.

>>> from exactprob import die
>>> class TwoRolls:  # roll a die twice; the outcome is the total
...     initial = (0, 0)
...     def outcome(self, s): return s[1] if s[0] == 2 else None
...     def actions(self, s): return ("roll",)
...     def transition(self, s, a): return die(6).map(lambda x: (s[0] + 1, s[1] + x))
>>> G = explore(TwoRolls())
>>> len(G), G.number_of_transitions(), G.initial, G.probabilities
(18, 42, (0, 0), [mpq(1,6)])
>>> G.to_networkx().number_of_nodes()
18
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from numbers import Number
from typing import Any, TypeVar

from ...errors import DistributionError, InexactError, ModelError, StateLimitError
from ...util.callables import check_call, takes_arguments
from ...util.limits import DEFAULT_MAX_STATES, check_max_states, too_many_states
from ...util.numbers import Exact, exact
from ...util.progress import progress_bar, shows_progress
from ...util.resources import check_resident
from ...util.text import short_repr
from ..array_model import ArrayModel, Explorable
from ..dist import Dist
from ..model import (
    MAX_SEATS,
    is_label,
    movers_allowed,
    player_function,
    seat_payoffs,
    seats_refused,
    unpaid_labels,
)
from .state_graph import StateGraph, paused_garbage_collection

__all__ = [
    "check_model",
    "components_reached",
    "explore",
    "start_states",
]

H = TypeVar("H", bound=Hashable)

#: Exploration checks its memory once every ``MEMORY_CHECK_MASK + 1`` states (65,536).
MEMORY_CHECK_MASK = 0xFFFF
#: ... and once every this many transitions, for states with very many (a battle of a
#: thousand ships has a million successors a state).
MEMORY_CHECK_EDGES = 1 << 20

#: The exploring bar moves every PROGRESS_MASK + 1 states (a call per state costs a tenth
#: of a simple model's exploring).
PROGRESS_MASK = 0xFF


def explore(
    model: Explorable,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool | None = None,
    starts: Sequence[Hashable] | None = None,
) -> StateGraph:
    """Breadth-first exploration of every state reachable from ``model.initial`` (or from
    each of ``starts``: then the model needs no ``initial``).

    An :class:`~exactprob.engine.array_model.ArrayModel` is explored in bulk, a level at a time
    (:func:`~exactprob.engine.graph.bulk.explore_arrays`).

    Parameters
    ----------
    model : Model or ArrayModel
        The game.
    max_states : int
        The most states to hold (:mod:`exactprob.util.limits`).
    progress : bool, optional
        Show a bar on stderr; by default, when stderr is a terminal.
    starts : sequence, optional
        Explore from each of these instead of ``model.initial``; the first is the
        graph's initial state (id 0), and one solve of the graph answers for every start.

    Returns
    -------
    StateGraph
        Every reachable state, its actions and their exact transition probabilities.

    Raises
    ------
    StateLimitError
        As soon as more than ``max_states`` states are found, before the graph grows.
    ModelError
        For a model that breaks the protocol (:mod:`exactprob.engine.model`).

    See Also
    --------
    exactprob.solve : Explores a model and solves it.
    exactprob.engine.graph.state_graph.StateGraph : The graph it returns.

    Examples
    --------
    >>> from exactprob.games.gamblers_ruin import GamblersRuin
    >>> ruin = GamblersRuin(goal=5, start=2, p="2/5")  # ruin formula: (r^2 - 1)/(r^5 - 1), r = 3/2
    >>> len(explore(ruin))  # fortunes 0 to 5
    6
    """
    check_max_states(max_states)
    progress = shows_progress(progress)
    if isinstance(model, ArrayModel):
        from .bulk import explore_arrays

        return explore_arrays(model, max_states=max_states, progress=progress, starts=starts)
    check_model(model, needs_initial=starts is None)
    with paused_garbage_collection():
        return _explore(model, max_states, progress, start_states(model, starts))


def start_states(model: Any, starts: Sequence[Hashable] | None) -> list[Hashable]:
    """``starts`` (each once, hashable, at least one), or ``[model.initial]``.

    >>> start_states(object(), [(1, 2), (0, 0), (1, 2)])
    [(1, 2), (0, 0)]
    """
    if starts is None:
        return [model.initial]
    if isinstance(starts, str | bytes) or not isinstance(starts, Iterable):
        raise ModelError(f"starts must be a sequence of states, got {starts!r}")
    roots = list(starts)
    if not roots:
        raise ModelError("starts is empty; give at least one state to start from")
    for state in roots:
        if not _hashable(state):
            raise ModelError(
                f"the start state {state!r} is not hashable (a {type(state).__name__}); "
                "use a tuple instead of a list"
            )
    return list(dict.fromkeys(roots))


def check_model(model: Any, *, needs_initial: bool = True) -> None:
    """Refuse an object that does not have a model's parts: a hashable ``initial`` state
    (unless ``needs_initial`` is false: play starts from given states) and the methods
    ``outcome``, ``actions`` and ``transition``.

    >>> check_model(object())
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: the model has no initial state; a model needs initial, outcome(), actions() and transition() (or solve it from starts=)
    """
    parts = "a model needs initial, outcome(), actions() and transition()"
    transition = getattr(model, "transition", None)
    if isinstance(model, type) and callable(transition) and not takes_arguments(transition, 2):
        name = model.__name__  # its methods want an instance (static ones would not)
        raise ModelError(f"got the class {name}, not a model; did you mean {name}()?")
    if needs_initial and not hasattr(model, "initial"):
        raise ModelError(f"the model has no initial state; {parts} (or solve it from starts=)")
    for name in ("outcome", "actions", "transition"):
        if not callable(getattr(model, name, None)):
            raise ModelError(f"the model has no {name}() method; {parts}")
    for name, parameters in _SIGNATURES.items():
        method = getattr(model, name, None)
        if callable(method):
            call = f"{name}({', '.join(parameters)})"
            check_call(method, f"the model's {name}", call, len(parameters))
    if needs_initial and not _hashable(model.initial):
        raise ModelError(
            f"the initial state {model.initial!r} is not hashable (a "
            f"{type(model.initial).__name__}); use a tuple instead of a list"
        )


def _explore(model: Any, max_states: int, progress: bool, roots: list[Hashable]) -> StateGraph:
    player = player_function(model, MAX_SEATS)  # seats past 1 checked at the end
    outcome, actions_of, transition = model.outcome, model.actions, model.transition
    G = StateGraph()
    states: list[Hashable] = []
    index: dict[Hashable, int] = {}
    G.states, G.index = states, index
    outcomes, players, actions_list = G.outcomes, G.players, G.actions
    choice_start, edge_start, targets, prob_ids = (
        G.choice_start,
        G.edge_start,
        G.targets,
        G.prob_ids,
    )
    probabilities = G.probabilities
    reward: Any = getattr(model, "reward", None)
    rewards: list[Exact] | None = None if reward is None else []
    G.rewards = rewards
    prob_index: dict[Exact, int] = {}
    shared_actions: dict[Any, tuple[Any, ...]] = {}  # each tuple of actions checked once
    if len(roots) > max_states:
        raise too_many_states("the model", max_states)
    states.extend(roots)
    index.update((state, s) for s, state in enumerate(roots))
    with progress_bar(progress, "exploring", total=_expected(model), unit=" states") as bar:
        symbolic = False
        endings = Endings()  # labels, refused together at the end, and seats' payoffs
        s = 0
        next_check = MEMORY_CHECK_EDGES  # transitions stored when memory is next checked
        while s < len(states):
            state = states[s]
            s += 1
            if len(targets) >= next_check:
                check_resident(f"exploring the model ({len(targets):,} transitions so far)")
                next_check = len(targets) + MEMORY_CHECK_EDGES
            if not s & PROGRESS_MASK:
                bar.update(PROGRESS_MASK + 1)
                if not s & MEMORY_CHECK_MASK:
                    check_resident(f"exploring the model ({s:,} states so far)")
            value = outcome(state)
            if value is not None:
                outcomes.append(terminal_value(state, value, endings))
                players.append(0)
                actions_list.append(())
                choice_start.append(len(edge_start) - 1)
                continue
            actions = shared_actions_of(state, actions_of(state), shared_actions)
            outcomes.append(None)
            players.append(player(state))
            actions_list.append(actions)
            for action in actions:
                dist = checked_transition(state, action, transition)
                symbolic = symbolic or dist.symbolic
                for nxt, p in dist.exact_items():
                    t = index.get(nxt)
                    if t is None:
                        t = len(states)
                        if t >= max_states:
                            raise still_growing(states, max_states)
                        index[nxt] = t
                        states.append(nxt)
                    pid = prob_index.get(p)
                    if pid is None:
                        pid = prob_index[p] = len(probabilities)
                        probabilities.append(p)
                    targets.append(t)
                    prob_ids.append(pid)
                edge_start.append(len(targets))
                if rewards is not None:
                    rewards.append(reward_value(state, action, reward(state, action), endings))
            choice_start.append(len(edge_start) - 1)
        bar.update(s & PROGRESS_MASK)
    G.symbolic = symbolic
    endings.check(G)
    return G


def _expected(model: Any) -> int | None:
    """The model's ``expected_states`` (how many states exploring should reach, the
    exploring bar's total), when it gives a whole number >= 1."""
    expected = getattr(model, "expected_states", None)
    if isinstance(expected, int) and not isinstance(expected, bool) and expected >= 1:
        return expected
    return None


class Endings:
    """What an exploration met among the endings that are not plain numbers: the labels
    (refused together once it is done, :func:`~exactprob.engine.model.unpaid_labels`)
    and the seats' payoffs (:func:`~exactprob.engine.model.seat_payoffs`), by length,
    of the endings and of the rewards."""

    __slots__ = ("labels", "reward_seats", "seats")

    def __init__(self) -> None:
        self.labels: list[Any] = []
        self.seats: dict[int, Hashable] = {}  # a length of seat payoffs: a state with it
        self.reward_seats: dict[int, str] = {}  # a length of seat rewards: the call

    def check(self, G: StateGraph) -> None:
        """Refuse the labels met; set ``G.seats`` when every ending gave one payoff per
        seat, the same number of seats; check every mover is a seat of the game (0 or
        1 in a game of two zero-sum players)."""
        outcomes = G.outcomes
        if self.labels:
            ended = (o for o in outcomes if o is not None and not is_label(o))
            raise unpaid_labels(self.labels, ended)
        if self.seats:
            (n, first), *others = self.seats.items()
            if others:
                where = others[0][1]
                raise ModelError(
                    f"outcome({first!r}) gives {n} payoffs and outcome({where!r}) "
                    f"{others[0][0]}; every ending pays each seat once"
                )
            numbers = next(
                (t for t, o in enumerate(outcomes) if type(o) is not tuple and o is not None), None
            )
            if numbers is not None:
                raise ModelError(
                    f"outcome({G.states[numbers]!r}) is one number where outcome({first!r}) "
                    f"pays {n} seats; every ending of a game of seats is a tuple of {n} payoffs "
                    "(a game of seats takes no horizon= yet: there, play that runs out of "
                    "steps ends with 0)"
                )
            G.seats = n
        _check_seat_rewards(G, self.reward_seats)
        _check_movers(G)


def _check_seat_rewards(G: StateGraph, lengths: dict[int, str]) -> None:
    """In a game of ``G.seats`` seats every reward is a tuple of one reward per seat,
    and only there: refuse a reward of another shape, naming the call that gave it
    (``lengths``: a length of seat rewards met, with the first call that gave it)."""
    if not lengths and not G.seats or G.rewards is None:
        return
    if not G.seats:
        n, where = next(iter(lengths.items()))
        if all(o is None for o in G.outcomes):
            raise ModelError(f"{where} pays {n} seats, but play reaches no ending")
        raise ModelError(
            f"{where} pays {n} seats, but no ending does: in a game of seats every "
            "outcome is a tuple of one payoff per seat (zeros where it pays nothing)"
        )
    n = G.seats
    for length, where in lengths.items():
        if length != n:
            raise ModelError(f"{where} pays {length} seats where the endings pay {n}")
    c = next((c for c, r in enumerate(G.rewards) if type(r) is not tuple), None)
    if c is not None:
        s = bisect_right(G.choice_start, c) - 1
        action = G.actions[s][c - G.choice_start[s]]
        raise ModelError(
            f"reward({G.states[s]!r}, {action!r}) is one number in a game of {n} seats: "
            f"return a tuple of {n} rewards, one per seat"
        )


def _check_movers(G: StateGraph) -> None:
    """Every mover of ``G`` is one of its seats: 0 or 1 in a game of two zero-sum players."""
    seats = G.seats or 2
    if max(G.players, default=0) < seats:
        return
    s = next(s for s, p in enumerate(G.players) if p >= seats)
    allowed = movers_allowed(seats)
    hint = " (in a game of 3 or more seats every outcome is a tuple of one payoff per seat)"
    raise ModelError(
        f"player({G.states[s]!r}) must be {allowed}, got {G.players[s]}"
        + (hint if not G.seats else "")
    )


def terminal_value(state: Hashable, value: Any, endings: Endings | None = None) -> Any:
    """The model's ``outcome(state)``, ``value``, as an exact number, or a tuple of them
    (one payoff per seat, :func:`~exactprob.engine.model.seat_payoffs`), else a
    ModelError (:func:`~exactprob.engine.model.unpaid_labels` for a label,
    :func:`~exactprob.engine.model.is_label`); given ``endings``, a label is kept as it
    is and the seats' payoffs noted there, for the explorer to check once it is done.

    >>> found = Endings()
    >>> terminal_value("s", "1/2"), terminal_value("t", "bust", found), found.labels
    (mpq(1,2), 'bust', ['bust'])
    >>> terminal_value("u", (1, 0, 0), found), found.seats
    ((mpq(1,1), mpq(0,1), mpq(0,1)), {3: 'u'})
    """
    try:
        return exact(value)
    except InexactError as error:
        payoffs = seat_payoffs(value)
        if payoffs is not None:
            if endings is not None:
                endings.seats.setdefault(len(payoffs), state)
            return payoffs
        if _numbers(value):
            raise ModelError(
                f"outcome({state!r}) is {value!r}: a game of seats pays each seat an exact "
                "rational, a tuple of at least two"
            ) from None
        if not is_label(value):
            raise ModelError(f"outcome({state!r}) is not an exact number: {error}") from None
        if endings is None:
            raise unpaid_labels([value]) from None
        endings.labels.append(value)
        return value


def _numbers(value: Any) -> bool:
    """Whether ``value`` is a tuple of numbers (or ``None``s): meant as one per seat.

    >>> _numbers((0.1, 0, 0)), _numbers(0.1), _numbers(("win", 1))
    (True, False, False)
    """
    return type(value) is tuple and all(isinstance(x, Number) or x is None for x in value)


def reward_value(state: Hashable, action: Any, value: Any, endings: Endings | None = None) -> Any:
    """The model's ``reward(state, action)``, ``value``, as an exact number (else a
    ModelError); given ``endings``, also a tuple of one exact reward per seat
    (:func:`~exactprob.engine.model.seat_payoffs`), its length noted there for the
    explorer to check once it is done.

    >>> reward_value("s", "roll", "1/2")
    mpq(1,2)
    >>> found = Endings()
    >>> reward_value("s", "roll", (-1, 0, 0), found), found.reward_seats
    ((mpq(-1,1), mpq(0,1), mpq(0,1)), {3: "reward('s', 'roll')"})
    """
    try:
        return exact(value)
    except InexactError as error:
        where = f"reward({state!r}, {action!r})"
        payoffs = seat_payoffs(value)
        if payoffs is None:
            if _numbers(value):
                raise ModelError(
                    f"{where} is {value!r}: a game of seats pays each seat an exact rational, "
                    "a tuple of at least two"
                ) from None
            raise ModelError(f"{where} is not an exact number: {error}") from None
        if endings is None:
            raise seats_refused(f"{where} gives one reward per seat, but this method") from None
        endings.reward_seats.setdefault(len(payoffs), where)
        return payoffs


def checked_actions(state: Hashable, listed: Iterable[Any]) -> tuple[Any, ...]:
    """The model's ``actions(state)`` as a tuple: non-empty, no action twice."""
    if type(listed) is not tuple and (
        isinstance(listed, str | bytes) or not isinstance(listed, Iterable)
    ):
        raise ModelError(
            f"actions({state!r}) returned {listed!r}, not a sequence of actions; "
            "return a tuple such as ('roll',)"
        )
    actions = tuple(listed)
    if not actions:
        raise ModelError(f"actions({state!r}) is empty; a non-terminal state needs an action")
    if not _hashable(actions):  # actions are keys of policies and of shared tuples
        bad = next(a for a in actions if not _hashable(a))
        raise ModelError(
            f"actions({state!r}) returned the action {bad!r}, which is not hashable (a "
            f"{type(bad).__name__}); actions must be hashable: use a string or a tuple"
        )
    if len(actions) > 1 and len(set(actions)) != len(actions):
        raise ModelError(f"actions({state!r}) repeats an action: {actions!r}")
    return actions


def shared_actions_of(
    state: Hashable, listed: Iterable[Any], shared: dict[Any, tuple[Any, ...]]
) -> tuple[Any, ...]:
    """:func:`checked_actions`, each distinct tuple checked once and then shared through
    ``shared`` (a model that returns the same tuple for most states gets one object).

    >>> shared = {}
    >>> first = shared_actions_of("s", ("roll", "hold"), shared)
    >>> shared_actions_of("t", ("roll", "hold"), shared) is first
    True
    """
    try:
        actions = shared.get(listed) if type(listed) is tuple else None
    except TypeError:  # an unhashable action: checked_actions says so
        actions = None
    if actions is None:
        actions = checked_actions(state, listed)
        actions = shared.setdefault(actions, actions)
    return actions


#: The parameters of a model's methods, the optional ones too.
_SIGNATURES = {
    "outcome": ("state",),
    "actions": ("state",),
    "transition": ("state", "action"),
    "reward": ("state", "action"),
    "player": ("state",),
}


def _hashable(x: Any) -> bool:
    """Whether ``x`` can be a key (a state, an action); a list cannot."""
    try:
        hash(x)
    except TypeError:
        return False
    return True


def still_growing(states: Sequence[Hashable], max_states: int) -> StateLimitError:
    """The state limit passed while exploring, with the last states found: a model whose
    states keep growing (a walk without its losing end) shows it there.

    >>> print(still_growing(list(range(10)), 9))
    the model has more than 9 reachable states; pass max_states=N with a larger N to go on; the last states found were 7, 8, 9: a model that never reaches an end is often missing one
    """
    last = ", ".join(short_repr(state) for state in states[-3:])
    return StateLimitError(
        f"{too_many_states('the model', max_states)}; the last states found were {last}: "
        "a model that never reaches an end is often missing one"
    )


def checked_transition(
    state: Hashable, action: Any, transition: Callable[[Any, Any], Any]
) -> Dist[Any]:
    """The model's ``transition(state, action)``, checked to be a :class:`Dist`; a
    distribution the model could not build names the state and action."""
    try:
        dist = transition(state, action)
    except DistributionError as error:
        raise DistributionError(f"transition({state!r}, {action!r}): {error}") from error
    if not isinstance(dist, Dist):
        raise ModelError(
            f"transition({state!r}, {action!r}) returned {type(dist).__name__}, not a Dist"
        )
    return dist


def components_reached(
    roots: Iterable[H],
    successors: Callable[[H], Iterable[H]],
    solved: Callable[[H], object] | None = None,
) -> Iterator[list[H]]:
    """The strongly connected components of the states reached from ``roots``, each after
    every component it can reach, for a graph given by its ``successors`` function.

    Tarjan's algorithm emits components in exactly this order; it runs iteratively here
    (no recursion limit). It is lazy: ``successors(v)`` is called once, when ``v`` is
    first reached, and a component is yielded as soon as it is complete, so a consumer
    can solve it before the search goes on, and the graph need never be stored. Only the
    states of open components are held (their discovery index and low link); a state
    whose component was yielded is recognised by ``solved(state)`` (any truthy result),
    by default by a set of every such state. A consumer that keeps its own record passes
    ``solved`` (true for every state of a yielded component once the search resumes), and
    the search then keeps nothing about the solved states.

    >>> [sorted(c) for c in components_reached([0], lambda v: {0: [1], 1: [0, 2]}.get(v, []))]
    [[2], [0, 1]]
    """
    finished: set[H] = set()  # the default record of solved states
    is_solved = finished.__contains__ if solved is None else solved
    order: dict[H, int] = {}  # discovery index and low link of the open states
    low: dict[H, int] = {}
    discovered = 0
    stack: list[H] = []
    for root in roots:
        if is_solved(root):
            continue
        order[root] = low[root] = discovered
        discovered += 1
        stack.append(root)
        work = [(root, iter(successors(root)))]
        while work:
            v, following = work[-1]
            for w in following:
                if is_solved(w):
                    continue
                if w not in order:
                    order[w] = low[w] = discovered
                    discovered += 1
                    stack.append(w)
                    work.append((w, iter(successors(w))))
                    break
                low[v] = min(low[v], order[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == order[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        del order[w], low[w]
                        component.append(w)
                        if w == v:
                            break
                    if solved is None:
                        finished.update(component)
                    yield component
