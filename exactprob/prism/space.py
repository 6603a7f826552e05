"""The reachable states of a PRISM program, and the graph questions a reachability
property asks first (which states reach the target with probability 0 or 1, under some
or every choice), answered exactly from the graph alone as model checkers do
(Baier and Katoen, *Principles of Model Checking*, 2008, algorithms 45-47).

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..util.limits import DEFAULT_MAX_STATES, too_many_states
from ..util.progress import progress_bar, shows_progress
from .program import PrismProgram

__all__ = ["DEADLOCK", "StateSpace", "explore_space"]

#: The name of the move PRISM adds to a state with none: it stays.
DEADLOCK = "(deadlock)"


class StateSpace:
    """The reachable states (``states``, by position ``index``), the initial ones
    (``initial``, positions) and each state's moves: ``moves[i]`` a list of ``(name,
    [(target position, probability)])``."""

    def __init__(self, program: PrismProgram) -> None:
        self.program = program
        self.states: list[tuple[Any, ...]] = []
        self.index: dict[tuple[Any, ...], int] = {}
        self.moves: list[list[tuple[str, list[tuple[int, Any]]]]] = []
        self.initial: list[int] = []
        self.deadlocks: list[int] = []
        self._before: list[list[int]] | None = None

    def __len__(self) -> int:
        return len(self.states)

    def holds(self, condition: Callable[[tuple[Any, ...]], Any]) -> set[int]:
        """The states where ``condition`` is true."""
        return {i for i, s in enumerate(self.states) if condition(s)}

    def predecessors(self) -> list[list[int]]:
        """Each state's predecessors (by any move), found once."""
        if self._before is None:
            before: list[list[int]] = [[] for _ in self.states]
            for s, moves in enumerate(self.moves):
                for _, dist in moves:
                    for t, _ in dist:
                        before[t].append(s)
            self._before = before
        return self._before

    def _backward(self, seeds: Iterable[int], joins: Callable[[int], bool]) -> set[int]:
        """The states that reach ``seeds`` backward through states for which ``joins``."""
        before = self.predecessors()
        found = set(seeds)
        stack = list(found)
        while stack:
            t = stack.pop()
            for s in before[t]:
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
        ``through``) at 0: the least probability is 0. A state leaves the set when every
        move may leave it; its predecessors are then looked at again."""
        before = self.predecessors()
        stay = set(range(len(self.states))) - target

        def escapes(s: int) -> bool:
            return not any(all(t in stay for t, _ in dist) for _, dist in self.moves[s])

        waiting = [s for s in stay if (through is None or s in through) and escapes(s)]
        while waiting:
            s = waiting.pop()
            if s not in stay:
                continue
            stay.discard(s)
            waiting.extend(
                r
                for r in before[s]
                if r in stay and (through is None or r in through) and escapes(r)
            )
        return stay

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
        the set and comes nearer the target. The candidates shrink until the states that
        reach the target by such moves are all of them; a move that once leaves the
        candidates leaves them for good, so it is dropped."""
        before = self.predecessors()
        keep = set(range(len(self.states)))
        live = [[{t for t, _ in dist} for _, dist in moves] for moves in self.moves]
        while True:
            reached = set(target) & keep
            stack = list(reached)
            while stack:
                t = stack.pop()
                for s in before[t]:
                    if s in reached or s not in keep or (through is not None and s not in through):
                        continue
                    if any(t in successors for successors in live[s]):
                        reached.add(s)
                        stack.append(s)
            if reached == keep:
                return reached
            dropped = keep - reached
            keep = reached
            for s in {s for r in dropped for s in before[r] if s in keep}:
                live[s] = [m for m in live[s] if m.isdisjoint(dropped)]


def explore_space(
    program: PrismProgram, *, max_states: int = DEFAULT_MAX_STATES, progress: bool | None = None
) -> StateSpace:
    """Every state reachable from the initial states, with its moves (a state with none
    gets PRISM's self-loop, :data:`DEADLOCK`)."""
    space = StateSpace(program)
    index = space.index

    def position(state: tuple[Any, ...]) -> int:
        i = index.get(state)
        if i is None:
            i = index[state] = len(space.states)
            if i >= max_states:
                raise too_many_states("the PRISM model", max_states)
            space.states.append(state)
        return i

    space.initial = [position(s) for s in program.initial_states()]
    with progress_bar(shows_progress(progress), "building", unit=" states") as bar:
        done = 0
        while done < len(space.states):
            state = space.states[done]
            moves = program.moves(state)
            if not moves:
                space.deadlocks.append(done)
                moves = [(DEADLOCK, {state: 1})]
            space.moves.append(
                [(name, [(position(t), p) for t, p in dist.items()]) for name, dist in moves]
            )
            done += 1
            bar.update()
    return space
