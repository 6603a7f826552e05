r"""Bulk exploration of an :class:`~exactprob.engine.array_model.ArrayModel` into a state graph.

States are numbered by their *code*, the mixed-radix number
:math:`c = \sum_i x_i \prod_{j > i} n_j` of the state :math:`(x_1, \dots, x_d)` with
:math:`0 \le x_i < n_i` (:class:`Box`). A table of one id per code (``-1`` while unseen)
replaces the dictionary of a plain exploration. Breadth-first levels are explored whole:
the level's states are decoded into one integer array, and the model's ``terminal``,
``outcome``, ``player``, ``enabled`` and ``transition`` are called once per level (once
per action), not once per state. The successors not seen before get the next ids, in
code order, and become the next level. The edges of a level are then sorted by
(state, action, successor), edges of one choice that reach the same successor are
merged exactly, every probability is written as an index into the graph's few distinct
probabilities, and every choice is checked to sum to exactly one (as integers over the
least common multiple of the denominators).

The result is a :class:`~exactprob.engine.graph.state_graph.StateGraph` like the one
:func:`~exactprob.engine.graph.exploring.explore` builds: ids in breadth-first order, the initial states
first (in the model's order), each later level in code order; ``states`` and ``index``
are views that decode and encode codes on demand (:class:`CodedStates`,
:class:`CodedIndex`) rather than a list of tuples and a dictionary.

>>> import numpy as np
>>> from exactprob.engine.array_model import ArrayModel
>>> class TwoRolls(ArrayModel):  # roll a d6 twice: state (rolls made, total)
...     sizes, initial, actions = (3, 13), (0, 0), ("roll",)
...     def terminal(self, states): return states[:, 0] == 2
...     def outcome(self, states): return states[:, 1]
...     def transition(self, states, action):
...         return [("1/6", states + [1, r]) for r in range(1, 7)]
>>> G = explore_arrays(TwoRolls())
>>> len(G), G.number_of_transitions(), G.states[0], G.states[7], G.index[(1, 6)]
(18, 42, (0, 0), (2, 2), 6)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import reduce
from math import lcm, prod
from typing import Any

import numpy as np
from gmpy2 import mpq

from ...errors import ModelError
from ...util.limits import DEFAULT_MAX_STATES, too_many_states
from ...util.progress import progress_bar
from ...util.resources import check_memory, check_resident
from ..array_model import (
    ArrayModel,
    branch_probability,
    exact_outcomes,
    initial_states,
)
from ..model import unpaid_labels
from .state_graph import StateGraph, paused_garbage_collection

__all__ = ["Box", "CodedIndex", "CodedStates", "explore_arrays"]


class Box:
    """The states with ``0 <= x[i] < sizes[i]``, numbered by their mixed-radix code.

    >>> box = Box((3, 4))
    >>> box.encode(np.array([[2, 1]])).tolist(), box.decode(np.array([9])).tolist()
    ([9], [[2, 1]])
    """

    def __init__(self, sizes: tuple[int, ...]) -> None:
        self.sizes = sizes
        self.size = prod(sizes)
        self.radix = np.array([prod(sizes[i + 1 :]) for i in range(len(sizes))], dtype=np.int64)
        self.bounds = np.array(sizes, dtype=np.int64)

    def outside(self, states: np.ndarray) -> np.ndarray:
        """The rows with some variable outside its range."""
        return np.flatnonzero(np.any((states < 0) | (states >= self.bounds), axis=1))

    def encode(self, states: np.ndarray) -> np.ndarray:
        """The code of each row (all inside the box)."""
        return states @ self.radix

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """The rows of these codes."""
        return (codes[:, None] // self.radix) % self.bounds


class CodedStates(Sequence[tuple[int, ...]]):
    """``states[s]``: the tuple of state id ``s``, decoded from its code."""

    def __init__(self, codes: np.ndarray, box: Box) -> None:
        self.codes, self.box = codes, box

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, s: Any) -> Any:
        if isinstance(s, slice):
            return [tuple(row) for row in self.box.decode(self.codes[s]).tolist()]
        return tuple(self.box.decode(self.codes[[s]])[0].tolist())

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for start in range(0, len(self.codes), 65536):
            yield from (
                tuple(row) for row in self.box.decode(self.codes[start : start + 65536]).tolist()
            )


class CodedIndex(Mapping[Hashable, int]):
    """``index[state]``: the id of a reached state (a tuple of whole numbers)."""

    def __init__(self, states: CodedStates) -> None:
        self.states, self.box = states, states.box
        self.order = np.argsort(states.codes, kind="stable")
        self.sorted_codes = states.codes[self.order]

    def __len__(self) -> int:
        return len(self.sorted_codes)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.states)

    def __getitem__(self, state: Hashable) -> int:
        sizes = self.box.sizes
        if (
            not isinstance(state, tuple)
            or len(state) != len(sizes)
            or not all(isinstance(x, int | np.integer) and 0 <= x < n for x, n in zip(state, sizes))
        ):
            raise KeyError(state)
        code = self.box.encode(np.array([state], dtype=np.int64))[0]
        at = int(np.searchsorted(self.sorted_codes, code))
        if at == len(self.sorted_codes) or self.sorted_codes[at] != code:
            raise KeyError(state)
        return int(self.order[at])


def explore_arrays(
    model: ArrayModel,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
    starts: Sequence[Hashable] | None = None,
) -> StateGraph:
    """Every state reachable from the model's initial state(s), or from ``starts``,
    explored a level at a time (see the module's text)."""
    box = _checked_box(model)
    check_memory(
        np.dtype(_id_type(max_states)).itemsize * box.size, "the id table of the model's state box"
    )
    with paused_garbage_collection():
        return _Explorer(model, box, max_states).run(progress, starts)


def _id_type(max_states: int) -> type:
    """The integer type of state ids: 32 bits unless more states are allowed."""
    return np.int32 if max_states < 2**31 else np.int64


def _checked_box(model: ArrayModel) -> Box:
    """The model's box, after checking its declared parts."""
    sizes = getattr(model, "sizes", None)
    if (
        not isinstance(sizes, tuple)
        or not sizes
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in sizes)
    ):
        raise ModelError(
            f"an ArrayModel's sizes must be a non-empty tuple of whole numbers >= 1, got {sizes!r}"
        )
    actions = getattr(model, "actions", None)
    if not isinstance(actions, tuple) or not actions or len(set(actions)) != len(actions):
        raise ModelError(
            f"an ArrayModel's actions must be a non-empty tuple of distinct actions, got {actions!r}"
        )
    if prod(sizes) >= 2**62:
        raise ModelError(f"the state box {sizes} has more than 2**62 states")
    return Box(sizes)


class _Level:
    """The edges found from one breadth-first level, before sorting."""

    def __init__(self) -> None:
        self.sources: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.prob_ids: list[np.ndarray] = []

    def add(
        self, sources: np.ndarray, action: int, targets: np.ndarray, prob_ids: np.ndarray
    ) -> None:
        self.sources.append(sources)
        self.actions.append(np.full(len(sources), action, dtype=np.int64))
        self.targets.append(targets)
        self.prob_ids.append(prob_ids)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The edges as columns, sorted by (source, action, target)."""
        columns = [
            np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
            for parts in (self.sources, self.actions, self.targets, self.prob_ids)
        ]
        order = np.lexsort((columns[2], columns[1], columns[0]))
        return tuple(column[order] for column in columns)


class _Explorer:
    """One bulk exploration: the id table, the levels, and the graph's columns."""

    def __init__(self, model: ArrayModel, box: Box, max_states: int) -> None:
        self.model = model
        self.box = box
        self.max_states = max_states
        self.ids: np.ndarray = np.full(box.size, -1, dtype=_id_type(max_states))
        self.codes: list[np.ndarray] = []
        self.n = 0
        # the graph's columns, a level at a time
        self.outcomes: list[Any] = []
        self.labels: list[Any] = []  # the endings that are labels, refused at the end
        self.players: list[np.ndarray] = []
        self.action_masks: list[np.ndarray] = []
        self.choice_counts: list[np.ndarray] = []
        self.edge_counts: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.prob_ids: list[np.ndarray] = []
        self.probabilities: list[Any] = []
        self.prob_index: dict[tuple[int, int], int] = {}
        self.rewards: list[Any] | None = [] if hasattr(model, "reward") else None

    def run(self, progress: bool, starts: Sequence[Hashable] | None) -> StateGraph:
        initial = self._initial(initial_states(self.model) if starts is None else list(starts))
        frontier = self._discover(initial)
        with progress_bar(progress, "exploring", unit=" states") as bar:
            while len(frontier):
                bar.update(len(frontier))
                check_resident(f"exploring the model ({self.n:,} states so far)")
                frontier = self._level(frontier)
        if self.labels:
            ended = (o for level in self.outcomes for o in level.tolist() if o is not None)
            raise unpaid_labels(self.labels, ended)
        return self._graph()

    def _initial(self, states: list[Any]) -> np.ndarray:
        """The codes of the initial ``states``, in their order, without repeats."""
        whole = bool(states) and all(
            isinstance(x, int | np.integer) for state in states for x in state
        )
        try:
            rows = np.array(states, dtype=np.int64).reshape(len(states), -1)
        except (TypeError, ValueError, OverflowError):
            whole = False
        if not whole:
            raise ModelError(f"initial states must be tuples of whole numbers, got {states!r}")
        if rows.shape[1] != len(self.box.sizes) or len(self.box.outside(rows)):
            raise ModelError(
                f"initial state {states[0]!r} is not inside sizes {self.box.sizes} "
                "(one whole number 0 .. size - 1 per variable)"
            )
        codes = self.box.encode(rows)
        _, first = np.unique(codes, return_index=True)
        return codes[np.sort(first)]

    def _discover(self, codes: np.ndarray) -> np.ndarray:
        """Give ids to these codes (not seen before), in order."""
        if self.n + len(codes) > self.max_states:
            raise too_many_states("the model", self.max_states)
        self.ids[codes] = np.arange(self.n, self.n + len(codes))
        self.n += len(codes)
        self.codes.append(codes)
        return codes

    def _level(self, frontier: np.ndarray) -> np.ndarray:
        """Explore one level; the codes of the new states found."""
        model, box = self.model, self.box
        states = box.decode(frontier)
        first_id = int(self.ids[frontier[0]])
        terminal = _mask(model.terminal(states), len(states), "terminal()")
        ended = np.flatnonzero(terminal)
        going = np.flatnonzero(~terminal)
        outcomes = np.full(len(states), None, dtype=object)
        if len(ended):
            outcomes[ended] = exact_outcomes(
                model.outcome(states[ended]), states[ended], labels=self.labels
            )
        self.outcomes.append(outcomes)
        players = np.zeros(len(states), dtype=np.uint8)
        live = states[going]
        if len(going):
            players[going] = _players(model.player(live), len(going))
        self.players.append(players)
        edges = _Level()
        rewards: list[tuple[np.ndarray, int, list[Any]]] = []  # (rows, action, rewards)
        # the enabled actions of each state as bits (Python integers past 62 actions)
        masks = np.zeros(len(states), dtype=np.int64 if len(model.actions) < 63 else object)
        enabled = np.zeros(len(states), dtype=np.int64)  # how many actions each state has
        for a, action in enumerate(model.actions if len(going) else ()):
            rows = np.flatnonzero(
                _mask(model.enabled(live, action), len(live), f"enabled(..., {action!r})")
            )
            if not len(rows):
                continue
            masks[going[rows]] |= 1 << a
            enabled[going[rows]] += 1
            sources = going[rows] + first_id
            if self.rewards is not None:
                earned = model.reward(live[rows], action)
                call = f"reward({{}}, {action!r})"
                earned = exact_outcomes(earned, live[rows], "reward()", call)
                rewards.append((going[rows], a, earned))
            for b, branch in enumerate(model.transition(live[rows], action)):
                where = f"transition(..., {action!r}) branch {b}"
                p, successors = _branch(branch, len(rows), where)
                successors = np.asarray(successors)
                if (
                    successors.shape != (len(rows), len(box.sizes))
                    or successors.dtype.kind not in "iu"
                ):
                    raise ModelError(
                        f"{where}: next states must be a whole-number array of shape "
                        f"({len(rows)}, {len(box.sizes)}), got {successors.dtype} {successors.shape}"
                    )
                successors = successors.astype(np.int64)
                outside = box.outside(successors[p[0] > 0])
                if len(outside):
                    row = np.flatnonzero(p[0] > 0)[outside[0]]
                    raise ModelError(
                        f"{where} moves {tuple(live[rows][row].tolist())!r} to "
                        f"{tuple(successors[row].tolist())!r}, outside sizes {box.sizes}"
                    )
                keep = np.flatnonzero(p[0] > 0)
                edges.add(
                    sources[keep],
                    a,
                    box.encode(successors[keep]),
                    self._probability_ids(p[0][keep], p[1][keep]),
                )
        stuck = going[masks[going] == 0]
        if len(stuck):
            raise ModelError(
                f"no action is enabled in the non-terminal state {tuple(states[stuck[0]].tolist())!r}"
            )
        self.action_masks.append(masks)
        if self.rewards is not None:
            self.rewards.extend(_by_choice(rewards))
        sources, actions, targets, prob_ids = edges.arrays()
        fresh = np.unique(targets[self.ids[targets] < 0])
        self._discover(fresh)
        self._columns(first_id, len(states), sources, actions, self.ids[targets], prob_ids)
        self._check_moves(states, enabled, masks, sources - first_id, actions)
        return fresh

    def _check_moves(
        self,
        states: np.ndarray,
        enabled: np.ndarray,
        masks: np.ndarray,
        rows: np.ndarray,
        actions: np.ndarray,
    ) -> None:
        """Every enabled action of a level's states has a move of positive probability
        (else it is a choice of total probability 0: a ModelError naming the first)."""
        short = np.flatnonzero(self.choice_counts[-1] != enabled)
        if not len(short):
            return
        row = int(short[0])
        moving = set(actions[rows == row].tolist())
        action = next(
            a
            for k, a in enumerate(self.model.actions)
            if int(masks[row]) >> k & 1 and k not in moving
        )
        raise ModelError(
            f"transition({tuple(states[row].tolist())!r}, {action!r}) has probabilities "
            "summing to 0, not 1"
        )

    def _columns(
        self,
        first_id: int,
        n_states: int,
        sources: np.ndarray,
        actions: np.ndarray,
        targets: np.ndarray,
        ids: np.ndarray,
    ) -> None:
        """A level's choices and edges: repeated edges merged, every choice checked to
        sum to one."""
        repeat = np.zeros(len(sources), dtype=bool)
        repeat[1:] = (
            (sources[1:] == sources[:-1])
            & (actions[1:] == actions[:-1])
            & (targets[1:] == targets[:-1])
        )
        if repeat.any():
            sources, actions, targets, ids = self._merge(repeat, sources, actions, targets, ids)
        new_choice = np.ones(len(sources), dtype=bool)
        new_choice[1:] = (sources[1:] != sources[:-1]) | (actions[1:] != actions[:-1])
        choice_heads = np.flatnonzero(new_choice)
        self.edge_counts.append(np.diff(np.append(choice_heads, len(sources))))
        self.choice_counts.append(np.bincount(sources[choice_heads] - first_id, minlength=n_states))
        self.targets.append(targets)
        self.prob_ids.append(ids)
        self._check_sums(ids, choice_heads, sources, actions)

    def _probability_ids(self, numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
        """Each edge's (reduced) probability as an index into the graph's distinct
        probabilities. A branch's chance is usually one number for every row, or one of
        a few: the pairs are packed into one integer each when they fit."""
        if not len(numerators):
            return np.zeros(0, dtype=np.int64)
        if numerators.min() == numerators.max() and denominators.min() == denominators.max():
            return np.full(len(numerators), self._pid(int(numerators[0]), int(denominators[0])))
        if denominators.max() < 2**31:
            keys, inverse = np.unique(numerators << 31 | denominators, return_inverse=True)
            pairs = [(key >> 31, key & (2**31 - 1)) for key in keys.tolist()]
        else:
            rows, inverse = np.unique(
                np.stack([numerators, denominators], axis=1), axis=0, return_inverse=True
            )
            pairs = [tuple(row) for row in rows.tolist()]
        table = np.array([self._pid(num, den) for num, den in pairs], dtype=np.int64)
        return table[inverse.reshape(-1)]

    def _pid(self, numerator: int, denominator: int) -> int:
        """The id of the probability ``numerator / denominator`` (reduced)."""
        pid = self.prob_index.get((numerator, denominator))
        if pid is None:
            pid = self.prob_index[numerator, denominator] = len(self.probabilities)
            self.probabilities.append(mpq(numerator, denominator))
        return pid

    def _merge(self, repeat: np.ndarray, *columns: np.ndarray) -> tuple[np.ndarray, ...]:
        """Edges of one choice to one successor added into one (exactly, in Python:
        rare)."""
        sources, actions, targets, ids = columns
        keep = np.flatnonzero(~repeat)
        group = np.cumsum(~repeat) - 1
        total = [mpq(0)] * len(keep)
        for g, pid in zip(group.tolist(), ids.tolist()):
            total[g] += self.probabilities[pid]
        merged = np.array([self._pid(int(p.numerator), int(p.denominator)) for p in total])
        return sources[keep], actions[keep], targets[keep], merged

    def _check_sums(
        self, ids: np.ndarray, heads: np.ndarray, sources: np.ndarray, actions: np.ndarray
    ) -> None:
        """Every choice's probabilities sum to exactly one: as integers over the lcm
        ``W`` of the denominators (in 64 bits when ``W`` times the longest choice fits,
        else in Python integers)."""
        if not len(ids):
            return
        W = reduce(lcm, (int(p.denominator) for p in self.probabilities), 1)
        weights = [int(p.numerator) * (W // int(p.denominator)) for p in self.probabilities]
        longest = int(np.diff(np.append(heads, len(ids))).max())
        dtype: Any = np.int64 if W * longest < 2**63 else object
        sums = np.add.reduceat(np.array(weights, dtype=dtype)[ids], heads)
        wrong = np.flatnonzero(sums != W)
        if len(wrong):
            c = int(heads[wrong[0]])
            state = self.box.decode(np.concatenate(self.codes)[sources[c : c + 1]])[0]
            raise ModelError(
                f"transition({tuple(state.tolist())!r}, {self.model.actions[int(actions[c])]!r}) "
                f"has probabilities summing to {Fraction(int(sums[wrong[0]]), W)}, not 1"
            )

    def _graph(self) -> StateGraph:
        """The state graph from the levels' columns, each let go once it is joined."""
        G = StateGraph()
        G.states = states = CodedStates(_joined(self.codes), self.box)
        G.index = CodedIndex(states)
        G.outcomes = _joined(self.outcomes).tolist()
        G.players = bytearray(_joined(self.players).tobytes())
        unique_masks, inverse = np.unique(_joined(self.action_masks), return_inverse=True)
        offered = np.empty(len(unique_masks), dtype=object)
        offered[:] = [
            tuple(a for k, a in enumerate(self.model.actions) if m >> k & 1)
            for m in unique_masks.tolist()
        ]
        G.actions = offered[inverse.reshape(-1)].tolist()
        del inverse
        G.choice_start = _starts("q", _joined(self.choice_counts))
        G.edge_start = _starts("q", _joined(self.edge_counts))
        G.targets = _column("i", _joined(self.targets))
        G.prob_ids = _column("i", _joined(self.prob_ids))
        G.probabilities = self.probabilities
        G.rewards = self.rewards
        self.ids = np.zeros(0, dtype=np.int32)  # the table is no longer needed
        return G


def _by_choice(rewards: list[tuple[np.ndarray, int, list[Any]]]) -> list[Any]:
    """A level's rewards, given per action for the rows that enable it, in the order of
    its choices: by row, then action.

    >>> _by_choice([(np.array([0, 1]), 0, ["a", "b"]), (np.array([0]), 1, ["c"])])
    ['a', 'c', 'b']
    """
    if not rewards:
        return []
    rows = np.concatenate([r for r, _, _ in rewards])
    actions = np.concatenate([np.full(len(r), a) for r, a, _ in rewards])
    values = [v for _, _, vs in rewards for v in vs]
    return [values[i] for i in np.lexsort((actions, rows)).tolist()]


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The levels' parts of a column as one array; the parts are let go."""
    whole = np.concatenate(parts)
    parts.clear()
    return whole


def _starts(typecode: str, counts: np.ndarray) -> Any:
    """The run starts ``0, c0, c0 + c1, ...`` as an :mod:`array` column."""
    return _column(typecode, np.concatenate([[0], np.cumsum(counts)]))


def _column(typecode: str, values: np.ndarray) -> Any:
    """``values`` as an :mod:`array` column (one copy)."""
    from array import array

    column = array(typecode)
    flat = np.ascontiguousarray(values, dtype=np.int64 if typecode == "q" else np.int32)
    column.frombytes(flat.data.cast("B"))
    return column


def _mask(values: Any, n: int, name: str) -> np.ndarray:
    """A model's per-row booleans, checked."""
    mask = np.asarray(values)
    if mask.shape != (n,) or mask.dtype != bool:
        raise ModelError(
            f"{name} must return one boolean per row ({n}), got {mask.dtype} {mask.shape}"
        )
    return mask


def _players(values: Any, n: int) -> np.ndarray:
    """A model's movers, checked to be 0 or 1."""
    players = np.asarray(values)
    if (
        players.shape != (n,)
        or players.dtype.kind not in "iub"
        or np.any((players != 0) & (players != 1))
    ):
        raise ModelError(f"player() must return 0 or 1 per row ({n}), got {players!r}")
    return players.astype(np.uint8)


def _branch(branch: Any, n: int, where: str) -> tuple[tuple[np.ndarray, np.ndarray], Any]:
    """A branch's probability (reduced) and its next states."""
    if not isinstance(branch, tuple) or len(branch) != 2:
        raise ModelError(f"{where}: a branch is a pair (probability, next_states), got {branch!r}")
    return branch_probability(branch[0], n, where), branch[1]
