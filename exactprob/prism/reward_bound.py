r"""Reward-bounded reachability, ``P=? [F^{rew{"r"}<=B} b]`` (Storm's syntax), and lower
and interval bounds on the steps (``F>=k``, ``F[a,b]``: a reward of 1 a move), as plain
reachability in a product space.

A path satisfies :math:`F^{\rho \in I}\, b` when it reaches a ``b``-state having gathered
on the moves before it an amount of the reward :math:`\rho` in the interval :math:`I`
(``<=B``: :math:`[0, B]`; ``>=A``: :math:`[A, \infty)`; both: :math:`[A, B]`; strict
ends likewise). Every reward is at least 0, so the reward gathered only grows, and the
product of the space with the reward gathered so far, with

* an upper end: a move that would pass :math:`B` going to one state, *passed*, from
  which the bound can no longer hold (the value there is 0);
* a lower end alone: the reward gathered kept at :math:`\min(g, A)`, since once it
  reaches :math:`A` only the space's state matters,

is finite (a state's gathered rewards are sums of the finitely many move rewards, at
most :math:`\max(A, B)`) and answers the question as unbounded reachability of the
states :math:`(s, g)` with :math:`s \in b` and :math:`g \in I`: the same graph analysis
and the same exact solve as ``P=? [F b]``. Model checkers call this unfolding the reward
into the state (Hahn and Hartmanns, "A comparison of time- and reward-bounded
probabilistic model checking techniques", SETTA 2016, compare it with Storm's epoch by
epoch unfolding, which keeps one epoch at a time).

A strict end is a non-strict one on the multiples of :math:`1/d` that the gathered
rewards are, :math:`d` the least common denominator of the move rewards: :math:`g < B`
when :math:`g \le (\lceil dB \rceil - 1)/d`. In a DTMC, commands of one state merged
into one move earn the mean of their transition rewards (as Storm counts them).

>>> from exactprob.prism import loads
>>> model = loads('''dtmc
...   module coin  x : [0..2] init 0;
...     [flip] x=0 -> 1/2:(x'=1) + 1/2:(x'=0);
...     [] x=1 -> true;
...   endmodule
...   rewards "flips" [flip] true : 1; endrewards''')
>>> model.check('P=? [F^{rew{"flips"}<=2} x=1]').value  # heads within two flips
Fraction(3, 4)
>>> model.check('P=? [F^{rew{"flips"}>2} x=1]').value  # after three flips or more
Fraction(1, 4)
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, NamedTuple

import gmpy2
import numpy as np

from ..errors import StateLimitError, UsageError
from ..util.arrays import ranges
from ..util.numbers import exact, is_symbolic, mpq
from .questions import STEPS
from .space import DEADLOCK, StateSpace

__all__ = ["PASSED", "BoundedSpace", "Window", "bounded_space"]

#: The product's state where an upper bound has been passed.
PASSED = ("reward bound passed",)
#: Levels of reward are counted in numpy's 64-bit integers: a bound and a move's reward
#: together stay below this many units.
LEVEL_LIMIT = 2**62


class BoundedSpace(StateSpace):
    """The product of a space with the reward gathered: its states are
    ``(state, gathered)`` pairs (and :data:`PASSED`); ``origin[i]`` is the space's
    position of product state ``i`` (``-1`` for :data:`PASSED`) and ``met[i]`` whether
    its reward gathered is within the bound; ``start[j]`` is the product's position of
    the space's position ``j`` with nothing gathered (for the positions it was built
    from)."""

    def __init__(self, space: StateSpace) -> None:
        super().__init__(space.program)
        self.max_states = space.max_states
        self.probabilities = list(space.probabilities)  # the same ids, and perhaps 1
        self.origin: list[int] = []
        self.met: list[bool] = []
        self.start: dict[int, int] = {}

    _index: dict[tuple[Any, ...], int]

    @property
    def index(self) -> dict[tuple[Any, ...], int]:
        """Each state's position, made on first use (the states are named once built):
        the exact and certified solves read the product's columns and never ask, and
        two million pairs take half a second."""
        if not self._index:
            self._index = {s: i for i, s in enumerate(self.states)}
        return self._index

    @index.setter
    def index(self, value: dict[tuple[Any, ...], int]) -> None:
        self._index = value


def bounded_space(
    space: StateSpace,
    structure: str | None,
    limits: Sequence[tuple[str, Any]],
    positions: Sequence[int],
) -> BoundedSpace:
    """The product of ``space`` with the reward of ``structure`` gathered (checked to be
    at least 0; :data:`~.questions.STEPS`: each move counts 1), for the ``limits``
    (relations with numbers, one or two), reached from the space's ``positions`` with
    nothing gathered.

    The rewards gathered are counted in whole units of :math:`1/d` (*levels*). Moves
    never lower the level, so the product's states are found a level at a time, in
    numpy: a level's states are closed under its moves that earn nothing, and its other
    moves seed the levels above; then every move is numbered at once."""
    rewards = _choice_rewards(space, structure)
    d = _common_denominator(rewards)
    levels = [int(r * d) for r in rewards]
    window = _window(limits, d)
    if window.top + max(levels, default=0) >= LEVEL_LIMIT:
        raise UsageError(
            f"the bound and the rewards, counted in units of 1/{d} (the rewards' common "
            f"denominator), pass 2**62: too many levels of reward to count"
        )
    steps = np.array(levels, dtype=np.int64)
    product = BoundedSpace(space)
    gathered = "the steps taken" if structure == STEPS else "the reward gathered"
    found, passed = _reached(space, steps, window, positions, product.max_states, gathered)
    count = sum(len(states) for _, states in found) + passed
    level = np.concatenate([np.full(len(states), k) for k, states in found] or [np.zeros(0)])
    state = np.concatenate([states for _, states in found] or [np.zeros(0)]).astype(np.int64)
    _number_moves(product, space, steps, window, level.astype(np.int64), state, passed)
    _name_states(product, space, found, d, window, passed)
    first = (
        {int(s): i for i, s in enumerate(found[0][1].tolist())}
        if found and found[0][0] == 0
        else {}
    )
    product.start = {j: first.get(j, count - 1) for j in positions}  # absent: passed at once
    product.initial = [product.start[j] for j in space.initial if j in product.start]
    return product


class Window(NamedTuple):
    """The levels of reward gathered that satisfy the bound: from ``low`` (0 without a
    lower bound) to ``high`` (``None`` without an upper one)."""

    low: int
    high: int | None

    def moved(self, levels: np.ndarray) -> np.ndarray:
        """The levels moves end on (after their rewards): with no upper bound, kept at
        ``low`` once it is met (then only the state matters); above ``high`` where an
        upper bound is passed."""
        return levels if self.high is not None else np.minimum(levels, self.low)

    @property
    def top(self) -> int:
        """The highest level a product state can have."""
        return self.low if self.high is None else self.high


def _reached(
    space: StateSpace,
    steps: np.ndarray,
    window: Window,
    positions: Sequence[int],
    max_states: int,
    gathered: str,
) -> tuple[list[tuple[int, np.ndarray]], bool]:
    """The product's states, level by level (each level's states of ``space``), and
    whether an upper bound is passed, from ``positions`` at level 0; more than
    ``max_states`` of them are refused."""
    columns = space.columns()
    cs = np.frombuffer(space.choice_start, dtype=np.int64)
    es, targets = columns.edge_start, columns.targets
    pending: dict[int, list[np.ndarray]] = {}
    passed = window.top < 0
    if not passed:
        pending[0] = [np.asarray(positions, dtype=np.int64)]
    seen = np.zeros(len(space), dtype=bool)
    found = []
    count = int(passed)
    while pending:
        level = min(pending)
        frontier = np.unique(np.concatenate(pending.pop(level)))
        seen[frontier] = True
        order = [frontier]
        while len(frontier):
            choices = ranges(cs[frontier], cs[frontier + 1] - cs[frontier])
            after = window.moved(level + steps[choices])
            counts = es[choices + 1] - es[choices]
            reached = targets[ranges(es[choices], counts)]
            at = np.repeat(after, counts)
            here = reached[(at == level) & ~seen[reached]]
            frontier = np.unique(here)
            seen[frontier] = True
            order.append(frontier)
            passed = passed or bool(np.any(at > window.top))
            for higher in np.unique(at[(at > level) & (at <= window.top)]).tolist():
                pending.setdefault(higher, []).append(reached[at == higher])
        states = np.concatenate(order)
        seen[states] = False
        found.append((level, states))
        count += len(states)
        if count + 1 > max_states:  # with room for the state of a passed bound
            raise _too_many(space, max_states, gathered)
    return found, passed


def _number_moves(
    product: BoundedSpace,
    space: StateSpace,
    steps: np.ndarray,
    window: Window,
    level: np.ndarray,
    state: np.ndarray,
    passed: bool,
) -> None:
    """The product's columns: every choice and edge of the product state
    ``(level[i], state[i])``, in order, each edge to the product's number of its
    target; a choice that passes an upper bound (every edge of a choice earns the same)
    is one edge to :data:`PASSED`, last, with its self-loop."""
    n, count = len(space), len(state) + passed
    columns = space.columns()
    cs = np.frombuffer(space.choice_start, dtype=np.int64)
    es = columns.edge_start
    # a product state's code: its level's rank among the levels found, times n, plus
    # its state (ranks, not levels: a level times n could pass 64 bits)
    distinct = np.unique(level)
    codes = np.searchsorted(distinct, level) * n + state
    sorter = np.argsort(codes)
    per_state = cs[state + 1] - cs[state]
    choices = ranges(cs[state], per_state)
    after = window.moved(np.repeat(level, per_state) + steps[choices])
    passing = after > window.top
    per_choice = np.where(passing, 1, es[choices + 1] - es[choices])
    edges = ranges(es[choices], per_choice)
    at = np.repeat(after, per_choice)
    wanted = np.searchsorted(distinct, at) * n + columns.targets[edges]
    found = sorter[np.minimum(np.searchsorted(codes[sorter], wanted), len(codes) - 1)]
    gone = np.repeat(passing, per_choice)
    target = np.where(gone, count - 1, found)
    probs = columns.prob_ids[edges]
    if passed:
        one = _one_id(product)
        probs[gone] = one
    choice_start = np.concatenate(([0], np.cumsum(per_state)))
    edge_start = np.concatenate(([0], np.cumsum(per_choice)))
    names = space.move_names
    product.move_names = [names[s] for s in state.tolist()]
    if passed:  # it stays
        choice_start = np.append(choice_start, choice_start[-1] + 1)
        edge_start = np.append(edge_start, edge_start[-1] + 1)
        target = np.append(target, count - 1)
        probs = np.append(probs, one)
        product.move_names.append((DEADLOCK,))
    product.choice_start = array("q", choice_start.astype(np.int64).tobytes())
    product.edge_start = array("q", edge_start.astype(np.int64).tobytes())
    product.targets = array("i", target.astype(np.int32).tobytes())
    product.prob_ids = array("i", probs.astype(np.int32).tobytes())


def _name_states(
    product: BoundedSpace,
    space: StateSpace,
    found: list[tuple[int, np.ndarray]],
    d: Any,
    window: Window,
    passed: bool,
) -> None:
    """The product's states as ``(state, reward gathered)`` (and :data:`PASSED`), with
    each one's origin and whether it meets the bound."""
    named = space.states
    for level, states in found:
        gathered = mpq(level, d)
        positions = states.tolist()
        product.states.extend([(named[s], gathered) for s in positions])
        product.origin.extend(positions)
        product.met.extend([level >= window.low] * len(positions))
    if passed:
        product.states.append(PASSED)
        product.origin.append(-1)
        product.met.append(False)


def _choice_rewards(space: StateSpace, structure: str | None) -> list[Any]:
    """The reward of every choice of ``space`` (0 on PRISM's added self-loop; 1 for
    every choice with :data:`~.questions.STEPS`), each a number: a bound on a reward
    that depends on a parameter is refused."""
    program, cs = space.program, space.choice_start
    if structure == STEPS:
        return [mpq(1)] * cs[len(space)]
    rewards = []
    for s, names in enumerate(space.move_names):
        state = space.states[s]
        for c in range(cs[s], cs[s + 1]):
            name = names[c - cs[s]]
            value = (
                mpq(0) if name == DEADLOCK else exact(program.move_rewards(structure, state, name))
            )
            if is_symbolic(value):
                raise UsageError(
                    "a reward bound needs rewards that are numbers; in state "
                    f"{program.state_text(state)} a move earns {value}"
                )
            rewards.append(value)
    return rewards


def _common_denominator(rewards: Sequence[Any]) -> Any:
    """The least common denominator :math:`d` of the ``rewards``: every reward gathered
    is a whole number of :math:`1/d`.

    >>> _common_denominator([mpq(1, 2), mpq(2, 3), mpq(4)])
    mpz(6)
    """
    d = gmpy2.mpz(1)
    for r in rewards:
        d = gmpy2.lcm(d, r.denominator)
    return d


def _window(limits: Sequence[tuple[str, Any]], d: Any) -> Window:
    """The levels (units of :math:`1/d`) within every one of the ``limits``.

    >>> _window([(">=", mpq(1)), ("<=", mpq(5, 2))], 2), _window([(">", mpq(0))], 1)
    (Window(low=2, high=5), Window(low=1, high=None))
    """
    thresholds = [(relation, _threshold(relation, mpq(value) * d)) for relation, value in limits]
    highs = [t for relation, t in thresholds if relation in ("<=", "<")]
    return Window(
        max([t for relation, t in thresholds if relation in (">=", ">")], default=0),
        min(highs) if highs else None,
    )


def _threshold(relation: str, scaled: Any) -> int:
    """The level that decides ``relation`` with the bound ``scaled`` (in levels, a
    rational): the highest level within an upper bound (``-1``: none is), the lowest
    level that meets a lower bound (at least 0).

    >>> [_threshold(r, mpq(5, 2)) for r in ("<=", "<", ">=", ">")]
    [2, 2, 3, 3]
    >>> [_threshold(r, mpq(3)) for r in ("<=", "<", ">=", ">")]
    [3, 2, 3, 4]
    >>> _threshold("<", mpq(0)), _threshold(">=", mpq(-2))
    (-1, 0)
    """
    below = int(scaled.numerator // scaled.denominator)  # the floor
    whole = scaled.denominator == 1
    if relation == "<=":
        return below
    if relation == "<":
        return below - 1 if whole else below
    if relation == ">=":
        return max(below if whole else below + 1, 0)
    return max(below + 1, 0)


def _one_id(product: BoundedSpace) -> int:
    """The id of the probability 1 in the product's list (added once when missing)."""
    one = mpq(1)
    probabilities = product.probabilities
    for i, p in enumerate(probabilities):
        if not is_symbolic(p) and p == one:
            return i
    probabilities.append(one)
    return len(probabilities) - 1


def _too_many(space: StateSpace, limit: int, gathered: str) -> StateLimitError:
    """The state limit passed while pairing states with what is ``gathered`` (the
    reward, or the steps taken)."""
    return StateLimitError(
        f"the bound pairs each of the {len(space):,} states with {gathered} so far: more "
        f"than the limit of {limit:,} states; pass max_states=N (--max-states N) with a "
        "larger N to go on"
    )
