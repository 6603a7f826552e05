r"""Solving a book depth first, one strongly connected component at a time, without
storing its graph.

The engine's :func:`~exactprob.solve.solve` explores every reachable state into a graph and
then solves it. A book is mostly acyclic, and then only one value per state needs to be
kept: :func:`~exactprob.graph.components_reached` (Tarjan's algorithm, lazily) hands over
each strongly connected component as soon as every component it can reach is solved.

* A state alone in its component, without a loop to itself: its value is computed on the
  spot, :math:`V(s) = \max_c \sum_t P_c(t) V(t)`, every :math:`V(t)` already known; the
  chosen choice is the first optimal one, and every exactly equal one is a tie.
* A component with a loop (a corridor, an evasion that leads back, a do-over round): its
  states, with the values of its exits as known outcomes, are solved by the engine (exact
  policy iteration), which also refuses a loop that can never be left.

The choices of a state are kept only until its component is solved; the solution tree asks
the book again for the states met along optimal play.

Below, from rungs 0 and 1 a step goes up (1/2), back to 0 (1/4) or falls (1/4):
:math:`V(1) = 1/2 + V(0)/4` and :math:`V(0) = V(1)/2 + V(0)/4`, so :math:`V(1) = 3/5` and
:math:`V(0) = 2/5`.

>>> from exactprob.gamebook.solver import BookModel
>>> book = BookModel(lambda s: [("step", [(s + 1, "1/2"), (0, "1/4"), ("fall", "1/4")])],
...                  lambda s: {2: 1, "fall": 0}.get(s), 0)
>>> values = solve_depth_first(book)
>>> values.value(0), values.value(1), values.policy(2)
(Fraction(2, 5), Fraction(3, 5), None)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import StateLimitError
from ..graph import components_reached, paused_garbage_collection, progress_bar
from ..numbers import Exact, mpq, to_fraction
from ..solve import solve as solve_model

if TYPE_CHECKING:
    from .solver import BookModel

__all__ = ["BookValues", "solve_depth_first"]


class BookValues:
    """The exact value, chosen choice and tied choices of every reachable state (the part
    of :class:`~exactprob.solve.Solution` the solution tree needs)."""

    __slots__ = ("_choice", "_ties", "_values")

    def __init__(self) -> None:
        self._values: dict[Hashable, Exact] = {}
        self._choice: dict[Hashable, int] = {}
        self._ties: dict[Hashable, tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self._values)

    def value(self, state: Hashable) -> Fraction:
        """The exact value of ``state``."""
        return to_fraction(self._values[state])

    def policy(self, state: Hashable) -> int | None:
        """The index of the chosen choice (``None`` for a known state)."""
        return self._choice.get(state)

    def ties(self, state: Hashable) -> tuple[int, ...]:
        """The indices of every choice exactly as good as the best."""
        return self._ties.get(state, ())


def solve_depth_first(
    book: BookModel, *, max_states: int | None = None, progress: bool = False
) -> BookValues:
    """Every state reachable from ``book.initial``, solved component by component.

    Raises :class:`~exactprob.errors.StateLimitError` past ``max_states`` states and the
    engine's :class:`~exactprob.errors.NonTerminationError` for a loop that never ends.
    """
    solved = BookValues()
    bar = progress_bar(progress, "solving", unit=" states")
    reached = 0

    def successors(state: Hashable) -> Iterable[Hashable]:
        nonlocal reached
        reached += 1
        if max_states is not None and reached > max_states:
            raise StateLimitError(
                f"the book has more than {max_states:,} reachable states; "
                "pass max_states=N with a larger N to go on"
            )
        known = book.outcome(state)
        if known is not None:
            solved._values[state] = mpq(known)
            return ()
        return {t for _, dist in book.choices_of(state) for t in dist}

    with paused_garbage_collection():
        for component in components_reached([book.initial], successors):
            if len(component) == 1:
                _solve_alone(book, component[0], solved)
            else:
                _solve_loop(book, component, solved)
            for s in component:
                book.known.pop(s, None)
            if bar is not None:
                bar.update(len(component))
    if bar is not None:
        bar.close()
    return solved


def _solve_alone(book: BookModel, s: Hashable, solved: BookValues) -> None:
    """A component of one state: known (valued when reached), valued on the spot, or
    (with a loop to itself) handed to the engine."""
    values = solved._values
    if s in values:
        return
    listed = book.choices_of(s)
    if any(s in dist for _, dist in listed):
        _solve_loop(book, [s], solved)
        return
    q = [sum((p * values[t] for t, p in dist.exact_items()), mpq(0)) for _, dist in listed]
    best = max(q)
    ties = tuple(i for i, v in enumerate(q) if v == best)
    values[s] = best
    solved._choice[s] = ties[0]
    solved._ties[s] = ties


def _solve_loop(book: BookModel, component: list[Hashable], solved: BookValues) -> None:
    """A component with a loop, solved by the engine with its exits as known outcomes."""
    inside = set(component)
    exits = _Exits(book, inside, solved._values)
    solution = solve_model(exits, max_states=len(inside) + len(exits.successors()))
    for s in component:
        solved._values[s] = mpq(solution.value(s))
        solved._choice[s] = solution.policy(s)
        solved._ties[s] = solution.ties(s)


class _Exits:
    """The engine model of one component: its states as the book has them, every state
    outside it known, with its value already solved."""

    def __init__(self, book: BookModel, inside: set[Hashable], values: dict[Hashable, Exact]):
        self.book = book
        self.inside = inside
        self.values = values
        self.initial = next(iter(inside))

    def successors(self) -> set[Hashable]:
        return {
            t for s in self.inside for _, dist in self.book.choices_of(s) for t in dist
        } - self.inside

    def outcome(self, state: Hashable) -> Any:
        return None if state in self.inside else self.values[state]

    def actions(self, state: Hashable) -> range:
        return self.book.actions(state)

    def transition(self, state: Hashable, action: int) -> Any:
        return self.book.transition(state, action)
