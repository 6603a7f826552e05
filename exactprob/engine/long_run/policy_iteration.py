r"""The best long run of a model with choices, exactly: multichain policy iteration.

The mover picks an action :math:`a` in each state :math:`s`, earns :math:`r(s, a)` and
moves to :math:`t` with probability :math:`P(t \mid s, a)`; a stationary play :math:`d`
makes a chain with gain :math:`g_d` and bias :math:`h_d` (:mod:`.evaluation`). The best
gain :math:`g^*(s) = \max_d g_d(s)` is attained by a stationary play, and with a bias
:math:`h` it solves the *multichain optimality equations*

.. math::

    g(s) = \max_a \sum_t P(t \mid s, a)\, g(t), \qquad
    g(s) + h(s) = \max_{a \in B(s)} \Big( r(s, a) + \sum_t P(t \mid s, a)\, h(t) \Big),

:math:`B(s)` the actions attaining the first maximum. Policy iteration (Howard, 1960;
in the multichain form of Puterman, *Markov Decision Processes*, 1994, §9.2) starts from
the actions of largest immediate reward and repeats: evaluate :math:`g_d, h_d` exactly;
where an action raises :math:`\sum_t P g_d` above :math:`g_d(s)`, take the best (the first
in the model's order); if none does, where an action of :math:`B(s)` raises
:math:`r + \sum_t P h_d` above :math:`g_d(s) + h_d(s)`, take the best of those; otherwise
stop. A play
keeps its action where no action is strictly better, so each round raises :math:`(g, h)`
lexicographically and no play comes back: the iteration ends, at a play whose
:math:`(g_d, h_d)` solve the equations.

Any play that takes, in every state, an action attaining both maxima (the *ties*) has
the best gain: from :math:`P_e g = g` and :math:`g + h = r_e + P_e h`, multiplying by
the limiting matrix :math:`P_e^*` gives :math:`g_e = P_e^* r_e = P_e^* g = g`.

>>> from exactprob.engine.graph.exploring import explore
>>> from exactprob import Dist
>>> class Detour:  # stay, earning 1 a move, or go round a detour paying 3 then 0
...     initial = "home"
...     def outcome(self, s): return None
...     def actions(self, s): return ("stay", "detour") if s == "home" else ("back",)
...     def transition(self, s, a): return Dist({"away" if a == "detour" else "home": 1})
...     def reward(self, s, a): return {"stay": 1, "detour": 3, "back": 0}[a]
>>> best = best_play(explore(Detour()))
>>> best.evaluation.gain[0], best.choice, best.rounds
(mpq(3,2), [1, 0], 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import ModelError
from ...util.numbers import Exact
from ...util.progress import progress_bar
from .._internal.linear import Field, field_for
from ..graph.state_graph import StateGraph
from .evaluation import PlayEvaluation, choice_moves, evaluate_play

__all__ = ["BestPlay", "best_play"]


@dataclass(frozen=True, slots=True)
class BestPlay:
    """A best stationary play: ``choice[s]`` the index of the chosen action in
    ``graph.actions[s]`` (``-1`` when terminal) and ``moves[s]`` its moves, ``ties[s]``
    the indices of every action attaining both optimality equations, the play's exact
    ``evaluation`` for the rewards times ``sign`` (``-1`` when the mover minimises), and
    the ``rounds`` of policy iteration it took."""

    field: Field
    choice: list[int]
    moves: list[list[tuple[int, Exact]]]
    ties: list[tuple[int, ...]]
    evaluation: PlayEvaluation
    sign: int
    rounds: int


def best_play(G: StateGraph, *, sign: int = 1, progress: bool = False) -> BestPlay:
    """The best long run of ``G`` for a mover maximising ``sign`` times the rewards
    (see the module). A :class:`ModelError` when the numbers cannot be compared (the
    model has symbols) or the model has no rewards."""
    if G.rewards is None:
        s = next(s for s, actions in enumerate(G.actions) if len(actions) > 1)
        raise ModelError(
            f"state {G.states[s]!r} offers {len(G.actions[s])} actions; the best long run "
            "maximises an average reward, and the model has none: add reward(state, "
            "action), or give a policy (stationary(model, policy=...))"
        )
    field = field_for([*G.probabilities, *G.rewards])
    if field.symbolic:
        raise ModelError(
            f"the best long run compares exact numbers, and the model holds symbols "
            f"({', '.join(map(str, field.symbols))}): give them values, or a policy"
        )
    play = _Rounds(G, field, sign)
    with progress_bar(progress, "best long run", unit=" rounds") as bar:
        rounds = 1
        while play.improve():
            rounds += 1
            bar.update()
    return BestPlay(
        field, play.choice, play.played_moves(), play.ties(), play.evaluation, sign, rounds
    )


class _Rounds:
    r"""The play under improvement and its evaluation (one round per :meth:`improve`).

    Most comparisons are settled without exact sums. An action whose successors all
    have the gain of its state reaches that gain (:meth:`_mixed`). An action's
    :math:`r + \sum P h` is screened in floats: the floats of exact numbers are
    correctly rounded, so a sum of :math:`w` products is within
    :math:`(w + 3)\,u\,(\max|h| + \max|r|)` of the exact one (:math:`u = 2^{-53}`), and
    an action below the played one by more than four times :math:`(w + 2)\,u` times
    that scale is worse, exactly. Where a float sum overflows, nothing is screened.
    Every other comparison is exact."""

    def __init__(self, G: StateGraph, field: Field, sign: int) -> None:
        from scipy.sparse import csr_matrix

        assert G.rewards is not None
        self.reward = [field.convert(sign * r) for r in G.rewards]
        self.zero = field.convert(0)
        self.start = G.choice_start
        self.edges = choice_moves(G, field)  # (successor, probability) by choice
        self.field = field
        starts = np.frombuffer(self.start, np.int64)
        sizes = np.diff(starts)
        self.choosing = np.flatnonzero(sizes > 1)
        self.owner = np.repeat(np.arange(len(G)), sizes)  # the state of each choice
        edge_start = np.frombuffer(G.edge_start, np.int64)
        widths = np.diff(edge_start)
        self.targets = np.frombuffer(G.targets, np.int32)
        self.edge_owner = self.owner[np.repeat(np.arange(len(self.reward)), widths)]
        floats = np.array([float(p) for p in G.probabilities])
        self.float_moves = csr_matrix(
            (floats[np.frombuffer(G.prob_ids, np.int32)], self.targets, edge_start),
            shape=(len(self.reward), len(G)),
        )
        self.float_reward = _floats(self.reward)
        self.width = int(widths.max(initial=1))
        self.choice = [self._first_best(s, self.reward) for s in range(len(G))]
        self.evaluation = self._evaluate()

    def improve(self) -> bool:
        """One round: improve the gain where it can be, else the bias; then evaluate.
        False when neither can be improved (the play is best)."""
        gain, bias = self.evaluation.gain, self.evaluation.bias
        changed = False
        for s in self._mixed(gain):
            reach = self._expected(s, gain)
            k = self.choice[s]
            if reach[k] < max(reach):
                self.choice[s] = reach.index(max(reach))
                changed = True
        if not changed:
            for s, earn in self._contenders(gain, bias):
                best = max(earn.values())
                if earn[self.choice[s]] < best:
                    self.choice[s] = next(k for k, x in earn.items() if x == best)
                    changed = True
        if changed:
            self.evaluation = self._evaluate()
        return changed

    def ties(self) -> list[tuple[int, ...]]:
        """Each state's actions attaining both optimality equations."""
        gain, bias = self.evaluation.gain, self.evaluation.bias
        ties: list[tuple[int, ...]] = [() if k < 0 else (k,) for k in self.choice]
        for s, earn in self._contenders(gain, bias):
            ties[s] = tuple(k for k, x in earn.items() if x == gain[s] + bias[s])
        return ties

    def _mixed(self, gain: list[Exact]) -> list[int]:
        """The choosing states with an action reaching a gain other than their own."""
        label: dict[Exact, int] = {}
        labels = np.array([label.setdefault(g, len(label)) for g in gain])
        if len(label) == 1:
            return []
        differs = labels[self.targets] != labels[self.edge_owner]
        mixed: list[int] = np.unique(self.edge_owner[differs]).tolist()
        return mixed

    def _contenders(
        self, gain: list[Exact], bias: list[Exact]
    ) -> Iterator[tuple[int, dict[int, Exact]]]:
        r"""Each state where an action keeping the gain may earn as much as the played
        one, with :math:`r + \sum P h` of every such action, exactly, in the model's
        order (the played one among them)."""
        played = np.asarray(self.start[:-1], np.int64) + np.asarray(self.choice)
        near = self.choosing
        h = _floats(bias)
        if h is not None and self.float_reward is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                earn = self.float_reward + self.float_moves @ h
                scale = float(np.abs(h).max(initial=0) + np.abs(self.float_reward).max(initial=0))
                slack = 4 * (self.width + 2) * 2.0**-53 * (scale + 1)
                rivals = earn >= earn[played[self.owner]] - slack
            if np.isfinite(earn).all() and np.isfinite(slack):  # else every state is near
                near = np.flatnonzero(np.bincount(self.owner, rivals) > 1)
        mixed = set(self._mixed(gain))
        for s in near.tolist():
            reach = self._expected(s, gain) if s in mixed else None
            a = self.start[s]
            kept = [k for k in range(self.start[s + 1] - a) if reach is None or reach[k] == gain[s]]
            if len(kept) > 1:
                yield s, {k: self.reward[a + k] + self._dot(a + k, bias) for k in kept}

    def _first_best(self, s: int, value: Sequence[Exact]) -> int:
        a, b = self.start[s], self.start[s + 1]
        if a == b:
            return -1
        options = value[a:b]
        return list(options).index(max(options))

    def _expected(self, s: int, values: list[Exact]) -> list[Exact]:
        r""":math:`\sum_t P(t \mid s, a)\, v(t)` for each action of ``s``."""
        return [self._dot(c, values) for c in range(self.start[s], self.start[s + 1])]

    def _dot(self, c: int, values: list[Exact]) -> Exact:
        edges = self.edges[c]
        return self.field.dot((p for _, p in edges), (values[t] for t, _ in edges))

    def played_moves(self) -> list[list[tuple[int, Exact]]]:
        """Each state's moves under the play (``[]`` when terminal)."""
        start = self.start
        return [[] if k < 0 else self.edges[start[s] + k] for s, k in enumerate(self.choice)]

    def _evaluate(self) -> PlayEvaluation:
        start, zero = self.start, self.zero
        reward = [zero if k < 0 else self.reward[start[s] + k] for s, k in enumerate(self.choice)]
        return evaluate_play(self.field, self.played_moves(), reward)


def _floats(values: Sequence[Exact]) -> np.ndarray | None:
    """The nearest floats of exact rationals; ``None`` when one is out of float range."""
    try:
        floats = np.array([float(v) for v in values])
    except OverflowError:
        return None
    return floats if np.isfinite(floats).all() else None
