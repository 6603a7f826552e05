r"""Games given as choice trees: choices and chance, solved exactly by the engine (the
generic solver of the "solving a gamebook" series; :mod:`exactprob.games.gamebook` reads
books into it).

A game (a book) is two functions. ``choices(state)`` lists the choices of a state whose outcome is
not yet known, each a ``(description, outcomes)`` pair, the outcomes a distribution of next
states; ``score(state)`` is the value of a *known* state (1 for the winning section, 0 for a
death, any rational in between) or ``None`` while the adventure goes on. The value of a state
is its score if known, else that of its best choice:

.. math::

    V(s) = \operatorname{score}(s) \text{ if known}, \qquad
    V(s) = \max_{c \in \operatorname{choices}(s)} \sum_{t} P_c(t)\, V(t) \text{ otherwise}.

The book becomes an engine model, :class:`BookModel` (actions are the indices of the
choices, the transition of action :math:`i` is its distribution), solved by the engine's
depth-first mode one strongly connected component at a time without storing its graph
(:mod:`exactprob.engine.exact.depth_first`). States may repeat: a cyclic part of the book is solved
exactly by the engine's policy iteration, and a loop that can never reach a known state is
rejected with its states named.

>>> def choices(s):
...     return [("flee", [("safe", 1)]), ("fight", [("won", "2/3"), ("dead", "1/3")])]
>>> def score(s):
...     return {"safe": "1/2", "won": 1, "dead": 0}.get(s)
>>> tree = solve_choices(choices, score, "start")
>>> tree.description, tree.score
('fight', Fraction(2, 3))
>>> [(child.state, p) for child, p in tree.outcomes]
[('dead', Fraction(1, 3)), ('won', Fraction(2, 3))]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeAlias

from ..errors import ExactProbError, ModelError, NonTerminationError
from ..util.limits import DEFAULT_MAX_STATES
from ..util.numbers import exact, is_symbolic, to_fraction
from .dist import Dist
from .exact.solving import solve_model
from .methods import solve
from .results import SolvedLaws

__all__ = [
    "BookModel",
    "Leaf",
    "SolutionNode",
    "reachable_nodes",
    "situations",
    "solve_choices",
    "walkthrough",
]

#: A choice's outcomes: a ``Dist`` of next states or ``(next_state, probability)`` pairs.
Outcomes: TypeAlias = Dist[Any] | Iterable[tuple[Any, Any]]
Choices: TypeAlias = Callable[[Any], Sequence[tuple[Any, Outcomes]]]
Score: TypeAlias = Callable[[Any], Any]


class Leaf:
    """A known state: its ``state`` and its exact ``score``."""

    __slots__ = ("score", "state")

    def __init__(self, state: Any, score: Fraction) -> None:
        self.state = state
        self.score = score

    def __repr__(self) -> str:
        return f"Leaf(state={self.state!r}, score={self.score!r})"


class SolutionNode:
    """A state where the reader chooses.

    ``description`` is the chosen choice, ``ties`` every choice whose value equals the best
    exactly (the chosen one first), ``score`` the exact value, ``outcomes`` the pairs
    ``(subtree, probability)`` of the chosen choice. Subtrees are shared: one node per state,
    so a book with loops gives a graph, and ``repr`` stays shallow.
    """

    __slots__ = ("description", "outcomes", "score", "state", "ties")

    def __init__(
        self, state: Any, description: Any, score: Fraction, ties: tuple[Any, ...]
    ) -> None:
        self.state = state
        self.description = description
        self.score = score
        self.ties = ties
        self.outcomes: tuple[tuple[SolutionNode | Leaf, Fraction], ...] = ()

    def __repr__(self) -> str:
        return (
            f"SolutionNode(state={self.state!r}, description={self.description!r}, "
            f"score={self.score!r}, outcomes={len(self.outcomes)})"
        )


Tree: TypeAlias = SolutionNode | Leaf


class BookModel:
    """The engine model of a book: actions are choice indices. The engine asks for a
    state's actions and then for each transition in a row, so the validated choices of
    the last state asked are kept (one state: the engine keeps what it needs, and the
    tree asks again for the states met along optimal play).
    :func:`exactprob.solve` on it gives the value and the choices of *every*
    reachable state, not only those met along optimal play.

    >>> from exactprob.engine.exact.solving import solve_model
    >>> model = BookModel(lambda s: [("go", [("end", 1)])], lambda s: 1 if s == "end" else None, 0)
    >>> solve_model(model).value(0), model.choices_of(0)[0][0]
    (Fraction(1, 1), 'go')
    """

    def __init__(self, choices: Choices, score: Score, initial: Any) -> None:
        self._choices = choices
        self._score = score
        self.initial = initial
        self._last: tuple[Any, tuple[tuple[Any, Dist[Any]], ...]] | None = None

    def outcome(self, state: Any) -> Fraction | None:
        value = self._score(state)
        if value is None:
            return None
        try:
            q = exact(value)
        except ExactProbError as error:
            raise ModelError(f"score({state!r}) is not an exact rational: {error}") from None
        if is_symbolic(q):
            raise ModelError(f"score({state!r}) must be a rational, got {value!r}")
        return to_fraction(q)

    def actions(self, state: Any) -> range:
        return range(len(self.choices_of(state)))

    def transition(self, state: Any, action: int) -> Dist[Any]:
        return self.choices_of(state)[action][1]

    def choices_of(self, state: Any) -> tuple[tuple[Any, Dist[Any]], ...]:
        """The validated choices of ``state`` (kept until another state is asked)."""
        last = self._last
        if last is not None and (last[0] is state or last[0] == state):
            return last[1]
        listed = tuple(self._choices(state))
        if not listed:
            raise ModelError(
                f"choices({state!r}) is empty; a state whose score is unknown "
                "needs at least one choice"
            )
        found = tuple(_choice(state, c) for c in listed)
        self._last = (state, found)
        return found


def _choice(state: Any, choice: Any) -> tuple[Any, Dist[Any]]:
    """``(description, Dist)`` from a listed choice, errors naming the state and choice."""
    try:
        description, outcomes = choice
    except (TypeError, ValueError):
        raise ModelError(
            f"choices({state!r}) lists {choice!r}, not a (description, outcomes) pair"
        ) from None
    where = f"choice {description!r} of state {state!r}"
    if isinstance(outcomes, Dist):
        dist = outcomes
    else:
        shape = f"{where}: outcomes must be a Dist or (next_state, probability) pairs"
        try:
            pairs = list(outcomes.items() if isinstance(outcomes, Mapping) else outcomes)
        except TypeError:
            raise ModelError(f"{shape}, got {outcomes!r}") from None
        odd = next((p for p in pairs if not (isinstance(p, tuple) and len(p) == 2)), None)
        if odd is not None:
            raise ModelError(f"{shape}, got the entry {odd!r}")
        try:
            dist = Dist(pairs)
        except ExactProbError as error:
            raise type(error)(f"{where}: {error}") from None
    if dist.symbolic:
        raise ModelError(f"{where}: probabilities must be rationals, not symbols")
    return description, dist


def solve_choices(
    choices: Choices,
    score: Score,
    state: Any,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Tree:
    """Solve the book from ``state``; returns its solution tree (a :class:`Leaf` if
    ``state`` is known).

    Each state is solved once and has one node; the tree holds the states reachable under
    the chosen choices. The chosen choice is the first optimal one in the listed order,
    except inside a loop, where it is the engine's (terminating) policy-iteration choice.
    Raises :class:`~exactprob.errors.ModelError` for a bad choice list or a loop that can
    never reach a known state, :class:`~exactprob.errors.DistributionError` for
    probabilities that do not sum to exactly one, and
    :class:`~exactprob.errors.StateLimitError` past ``max_states`` states; ``progress``
    shows a progress bar on stderr. Every reachable
    state needs a value, so a dead loop is rejected even where the best play avoids it.

    Below, :math:`V(s) = s/4` for :math:`s \\ge 2`, :math:`V(1) = (2/4 + 3/4)/2 = 5/8` and
    :math:`V(0) = (5/8 + 2/4)/2 = 9/16`:

    >>> solve_choices(lambda s: [("roll", [(s + 1, "1/2"), (s + 2, "1/2")])],
    ...       lambda s: Fraction(s, 4) if s >= 2 else None, 0).score
    Fraction(9, 16)
    """
    book = BookModel(choices, score, state)
    try:
        solution = solve(book, "depth-first", max_states=max_states, progress=progress)
    except NonTerminationError as error:
        raise ModelError(
            f"no solution is well defined: a loop never reaches a known state ({error})"
        ) from None
    return _tree(book, solution)


def _tree(book: BookModel, solution: SolvedLaws) -> Tree:
    """One node per state reachable under the solution's choices; outcomes filled last,
    so that loops refer to the shared nodes."""
    nodes: dict[Hashable, Tree] = {}
    chosen: list[tuple[SolutionNode, Dist[Any]]] = []
    queue: deque[Hashable] = deque([book.initial])
    while queue:
        s = queue.popleft()
        if s in nodes:
            continue
        action = solution.policy(s)
        if action is None:
            nodes[s] = Leaf(s, solution.value(s))
            continue
        listed = book.choices_of(s)
        ties = (action, *(a for a in solution.ties(s) if a != action))
        node = nodes[s] = SolutionNode(
            s, listed[action][0], solution.value(s), tuple(listed[a][0] for a in ties)
        )
        chosen.append((node, listed[action][1]))
        queue.extend(listed[action][1])
    for node, dist in chosen:
        node.outcomes = tuple((nodes[t], p) for t, p in dist.items())
    return nodes[book.initial]


def reachable_nodes(tree: Tree) -> Iterator[Tree]:
    """Every node of the tree, breadth-first, each state once."""
    seen = {id(tree)}
    queue: deque[Tree] = deque([tree])
    while queue:
        node = queue.popleft()
        yield node
        if isinstance(node, SolutionNode):
            for child, _ in node.outcomes:
                if id(child) not in seen:
                    seen.add(id(child))
                    queue.append(child)


def walkthrough(tree: Tree) -> list[tuple[Any, Any, Fraction]]:
    """``(state, chosen description, score)`` of every state where the reader chooses,
    breadth-first in the order first reached along optimal play (known states, which
    offer no choice, are left out).

    >>> tree = solve_choices(lambda s: [("wait", [("end", 1)]), ("hurry", [("end", 1)])],
    ...              lambda s: 1 if s == "end" else None, "start")
    >>> walkthrough(tree), tree.ties
    ([('start', 'wait', Fraction(1, 1))], ('wait', 'hurry'))
    """
    return [
        (node.state, node.description, node.score)
        for node in reachable_nodes(tree)
        if isinstance(node, SolutionNode)
    ]


class _StopAt:
    """The Markov chain of optimal play, stopped at the states chosen by ``where`` and at
    known states (an engine model with one action)."""

    def __init__(self, tree: Tree, where: Callable[[Any], bool]) -> None:
        self.initial = tree.state
        self._nodes = {node.state: node for node in reachable_nodes(tree)}
        self._where = where

    def __len__(self) -> int:
        return len(self._nodes)

    def outcome(self, state: Any) -> int | None:
        node = self._nodes[state]
        return 0 if isinstance(node, Leaf) or self._where(state) else None

    def actions(self, state: Any) -> tuple[str]:
        return ("play",)

    def transition(self, state: Any, action: str) -> Dist[Any]:
        node = self._nodes[state]
        assert isinstance(node, SolutionNode)
        return Dist((child.state, p) for child, p in node.outcomes)


def situations(tree: Tree, where: Callable[[Any], bool]) -> list[tuple[Any, Fraction]]:
    r"""The most likely situations: for each state ``s`` with ``where(s)`` true, the exact
    probability that ``s`` is the *first* such state reached along optimal play, sorted by
    decreasing probability (ties by ``repr``); states of probability zero are left out.

    Play is stopped at the first state selected by ``where`` (or at a known state), and the
    report is the absorption distribution of that stopped chain, restricted to the selected
    states:

    .. math::

        \pi(s) = \Pr[\text{the first selected state reached is } s], \qquad
        \sum_s \pi(s) = \Pr[\text{a selected state is ever reached}] \le 1.

    In a book without loops this is the plain probability of reaching ``s``; in a book with
    loops it is a first-arrival probability (not an expected number of visits), computed
    exactly by the engine's absorption solver.

    >>> book = lambda s: [("go", [(s + 1, "1/2"), ("dead", "1/2")])]
    >>> tree = solve_choices(book, lambda s: 1 if s == 3 else 0 if s == "dead" else None, 0)
    >>> situations(tree, lambda s: s != 0)
    [('dead', Fraction(1, 2)), (1, Fraction(1, 2))]
    """
    chain = _StopAt(tree, where)
    absorbed = solve_model(chain, max_states=len(chain)).absorption()
    report = [(s, p) for s, p in absorbed.items() if where(s)]
    report.sort(key=lambda item: repr(item[0]))
    report.sort(key=lambda item: item[1], reverse=True)
    return report
