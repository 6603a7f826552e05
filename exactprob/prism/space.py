"""The reachable states of a PRISM program, and the graph questions a reachability
property asks first (which states reach the target with probability 0 or 1, under some
or every choice), answered exactly from the graph alone as model checkers do
(Baier and Katoen, *Principles of Model Checking*, 2008, algorithms 45-47).

The moves are kept in flat columns, as the engine's state graph keeps them: state ``s``
owns the choices ``choice_start[s] .. choice_start[s + 1] - 1``, choice ``c`` the edges
``edge_start[c] .. edge_start[c + 1] - 1``, edge ``e`` goes to ``targets[e]`` with
probability ``probabilities[prob_ids[e]]``. Each graph question is one pass over the
edges backward, with a counter per choice where the question is "every choice".

>>> from exactprob.prism.syntax import parse_model
>>> from exactprob.prism.program import PrismProgram
>>> program = PrismProgram(parse_model('''mdp
...   module m  x : [0..3] init 0;
...     [go] x=0 -> 1/2:(x'=1) + 1/2:(x'=2);
...     [stay] x=0 -> true;
...     [] x>0 -> true;
...   endmodule'''))
>>> space = explore_space(program)
>>> [program.state_text(s) for s in space.states]
['(x=0)', '(x=1)', '(x=2)']
>>> target = {1}
>>> sorted(space.reach_some(target)), sorted(space.avoid_some(target))
([0, 1], [0, 2])
>>> sorted(space.sure_some(target)), sorted(space.sure_every(target))
([1], [1])
>>> space.moves[0]
[('go', [(1, mpq(1,2)), (2, mpq(1,2))]), ('stay', [(0, mpq(1,1))])]
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..util.limits import DEFAULT_MAX_STATES, too_many_states
from ..util.numbers import exact
from ..util.progress import progress_bar, shows_progress
from .program import PrismProgram

__all__ = ["DEADLOCK", "Columns", "StateSpace", "explore_space"]

#: The name of the move PRISM adds to a state with none: it stays.
DEADLOCK = "(deadlock)"


@dataclass(frozen=True)
class Columns:
    """A space's moves as numpy arrays: ``edge_start``, ``targets`` and ``prob_ids`` as
    in :class:`StateSpace`, ``owner[c]`` the state of choice ``c`` and
    ``edge_choice[e]`` the choice of edge ``e``."""

    edge_start: np.ndarray
    targets: np.ndarray
    prob_ids: np.ndarray
    owner: np.ndarray
    edge_choice: np.ndarray


class StateSpace:
    """The reachable states (``states``, by position ``index``), the initial ones
    (``initial``, positions), each state's move names (``move_names[s]``, a tuple) and
    the moves in flat columns (see the module's text); ``moves[s]`` gives them as a list
    of ``(name, [(target position, probability)])``."""

    def __init__(self, program: PrismProgram) -> None:
        self.program = program
        self.states: list[tuple[Any, ...]] = []
        self.index: dict[tuple[Any, ...], int] = {}
        self.initial: list[int] = []
        self.deadlocks: list[int] = []
        self.move_names: list[tuple[str, ...]] = []
        self.choice_start = array("q", [0])
        self.edge_start = array("q", [0])
        self.targets = array("i")
        self.prob_ids = array("i")
        self.probabilities: list[Any] = []
        self._before: tuple[list[int], list[int], list[int]] | None = None
        self._moves: list[list[tuple[str, list[tuple[int, Any]]]]] | None = None
        self._columns: Columns | None = None
        #: the most states a question may explore (the limit the space was built under)
        self.max_states = DEFAULT_MAX_STATES

    def __len__(self) -> int:
        return len(self.states)

    @property
    def moves(self) -> list[list[tuple[str, list[tuple[int, Any]]]]]:
        """Each state's moves, ``(name, [(target position, probability)])``."""
        if self._moves is None:
            cs = self.choice_start
            self._moves = [
                [
                    (name, list(self.choice_edges(c)))
                    for name, c in zip(names, range(cs[s], cs[s + 1]), strict=True)
                ]
                for s, names in enumerate(self.move_names)
            ]
        return self._moves

    def choice_edges(self, c: int) -> Iterator[tuple[int, Any]]:
        """``(target position, probability)`` of every edge of choice ``c``."""
        probabilities, targets, ids = self.probabilities, self.targets, self.prob_ids
        for e in range(self.edge_start[c], self.edge_start[c + 1]):
            yield targets[e], probabilities[ids[e]]

    def columns(self) -> Columns:
        """The columns as numpy arrays (made once), with each choice's state and each
        edge's choice."""
        if self._columns is None:
            cs = np.frombuffer(self.choice_start, dtype=np.int64)
            es = np.frombuffer(self.edge_start, dtype=np.int64)
            self._columns = Columns(
                edge_start=es,
                targets=np.frombuffer(self.targets, dtype=np.int32).astype(np.int64),
                prob_ids=np.frombuffer(self.prob_ids, dtype=np.int32),
                owner=np.repeat(np.arange(len(self.states)), np.diff(cs)),
                edge_choice=np.repeat(np.arange(len(es) - 1), np.diff(es)),
            )
        return self._columns

    def holds(self, condition: Callable[[tuple[Any, ...]], Any]) -> set[int]:
        """The states where ``condition`` is true."""
        return {i for i, s in enumerate(self.states) if condition(s)}

    def _edges_into(self) -> tuple[list[int], list[int], list[int]]:
        """The edges backward, found once: ``(start, choice, owner)``, where the edges
        into state ``t`` are ``start[t] .. start[t + 1] - 1``, each giving the choice it
        belongs to and that choice's state."""
        if self._before is None:
            columns = self.columns()
            by_target = np.argsort(columns.targets, kind="stable")
            into = np.bincount(columns.targets, minlength=len(self.states))
            start = np.concatenate(([0], np.cumsum(into)))
            choice = columns.edge_choice[by_target]
            self._before = (start.tolist(), choice.tolist(), columns.owner.tolist())
        return self._before

    def _backward(self, seeds: set[int], joins: Callable[[int], bool]) -> set[int]:
        """The states that reach ``seeds`` backward through states for which ``joins``."""
        start, choice, owner = self._edges_into()
        found = set(seeds)
        stack = list(found)
        while stack:
            t = stack.pop()
            for e in range(start[t], start[t + 1]):
                s = owner[choice[e]]
                if s not in found and joins(s):
                    found.add(s)
                    stack.append(s)
        return found

    def reach_some(self, target: set[int], through: set[int] | None = None) -> set[int]:
        """States from which some path reaches ``target`` through ``through`` (default:
        every state): where the largest probability of reaching it is positive."""
        return self._backward(target, lambda s: through is None or s in through)

    def avoid_some(self, target: set[int], through: set[int] | None = None) -> set[int]:
        """States where some choice keeps the probability of reaching ``target`` (through
        ``through``) at 0: the least probability is 0. Its complement is found backward
        from the target: a state joins when every one of its choices has an edge into
        the states found (a counter per state of the choices not yet hit)."""
        start, choice, owner = self._edges_into()
        cs = self.choice_start
        open_choices = [cs[s + 1] - cs[s] for s in range(len(self.states))]
        hit = bytearray(len(self.edge_start) - 1)
        forced = set(target)
        stack = list(forced)
        while stack:
            t = stack.pop()
            for e in range(start[t], start[t + 1]):
                c = choice[e]
                if hit[c]:
                    continue
                hit[c] = 1
                s = owner[c]
                if s in forced or (through is not None and s not in through):
                    continue
                open_choices[s] -= 1
                if not open_choices[s]:
                    forced.add(s)
                    stack.append(s)
        return set(range(len(self.states))) - forced

    def sure_every(self, target: set[int], through: set[int] | None = None) -> set[int]:
        """States from which every choice reaches ``target`` with probability 1 (the
        least probability is 1)."""
        zero = self.avoid_some(target, through)
        risky = self._backward(
            zero, lambda s: s not in target and (through is None or s in through)
        )
        return set(range(len(self.states))) - risky

    def sure_some(self, target: set[int], through: set[int] | None = None) -> set[int]:
        """States from which some choice reaches ``target`` with probability 1 (the
        largest probability is 1): the greatest set from which some move stays within
        the set and comes nearer the target. Each round keeps the states that reach the
        target by moves within the candidates; the others leave, and with them every
        move into them, and every state (off the target) left without a move, until no
        more leave."""
        start, choice, owner = self._edges_into()
        n, cs = len(self.states), self.choice_start
        keep = bytearray(b"\x01") * n
        live = bytearray(b"\x01") * (len(self.edge_start) - 1)
        moves = [cs[s + 1] - cs[s] for s in range(n)]
        goal = bytearray(n)
        for t in target:
            goal[t] = 1
        while True:
            reached = bytearray(n)
            stack = [t for t in target if keep[t]]
            for t in stack:
                reached[t] = 1
            while stack:
                t = stack.pop()
                for e in range(start[t], start[t + 1]):
                    c = choice[e]
                    s = owner[c]
                    if reached[s] or not live[c] or not keep[s]:
                        continue
                    if through is not None and s not in through:
                        continue
                    reached[s] = 1
                    stack.append(s)
            leaving = [d for d in range(n) if keep[d] and not reached[d]]
            if not leaving:
                return {s for s in range(n) if keep[s]}
            for d in leaving:
                keep[d] = 0
            while leaving:
                d = leaving.pop()
                for e in range(start[d], start[d + 1]):
                    c = choice[e]
                    if not live[c]:
                        continue
                    live[c] = 0
                    s = owner[c]
                    moves[s] -= 1
                    if not moves[s] and keep[s] and not goal[s]:
                        keep[s] = 0
                        leaving.append(s)


def explore_space(
    program: PrismProgram, *, max_states: int = DEFAULT_MAX_STATES, progress: bool | None = None
) -> StateSpace:
    """Every state reachable from the initial states, with its moves (a state with none
    gets PRISM's self-loop, :data:`DEADLOCK`); each distinct probability is stored once,
    as the engine's exact number (a parameter's expression stays a sympy one)."""
    space = StateSpace(program)
    space.max_states = max_states
    index, states = space.index, space.states
    targets, prob_ids, probabilities = space.targets, space.prob_ids, space.probabilities
    prob_index: dict[Any, int] = {}
    shared_names: dict[tuple[str, ...], tuple[str, ...]] = {}

    def position(state: tuple[Any, ...]) -> int:
        i = index.get(state)
        if i is None:
            i = index[state] = len(states)
            if i >= max_states:
                raise too_many_states("the PRISM model", max_states)
            states.append(state)
        return i

    space.initial = [position(s) for s in program.initial_states()]
    with progress_bar(shows_progress(progress), "building", unit=" states") as bar:
        done = 0
        while done < len(states):
            state = states[done]
            moves = program.moves(state)
            if not moves:
                space.deadlocks.append(done)
                moves = [(DEADLOCK, {state: 1})]
            names = tuple(name for name, _ in moves)
            space.move_names.append(shared_names.setdefault(names, names))
            for _, dist in moves:
                for t, p in dist.items():
                    pid = prob_index.get(p)
                    if pid is None:
                        pid = prob_index[p] = len(probabilities)
                        probabilities.append(exact(p))
                    targets.append(position(t))
                    prob_ids.append(pid)
                space.edge_start.append(len(targets))
            space.choice_start.append(len(space.edge_start) - 1)
            done += 1
            bar.update()
    return space
