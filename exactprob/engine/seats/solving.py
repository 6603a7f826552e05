r"""A game of ``n`` seats solved exactly: each seat plays for itself.

A game of seats ends with a tuple of ``n`` exact payoffs, one per seat, and the mover of
each state, ``player(state)``, is the seat that chooses there, maximising its own entry.
The answer is a *subgame-perfect equilibrium in stationary strategies*: values
:math:`V(s) \in \mathbb{Q}^n` and one action per state such that

.. math::

   Q(s, a) = r(s, a) + \sum_t P(t \mid s, a)\, V(t), \qquad
   V(s) = Q(s, \pi(s)), \qquad
   Q(s, \pi(s))_{i(s)} = \max_a Q(s, a)_{i(s)},

with :math:`i(s)` the mover and :math:`r(s, a)` what the move pays each seat on the way
(the model's ``reward(state, action)``, a tuple of one reward per seat; zeros without
one): no seat gains by changing its action at any one state (for play that ends, the
one-shot deviation principle makes that an equilibrium of every subgame). Where play
cannot return to a state this is backward induction, component by component of the
state graph, ends first. Where it can (a seat that pigs out passes the turn with every
score unchanged), the component is settled by iterating best replies: a float value
iteration guesses the profile, then, exactly, the profile's values are solved (one
linear system with a column per seat) and each mover takes its best action; until no
mover changes. Play must end: an action that stays where it is with probability 1 is
never played, a guess under which play would never end (a loop that pays its seats on
every move can look best to floats) is first made to end, and a best reply under which
it would never end is not taken. Best replies of several seats need not settle, even
where an equilibrium exists, so after :data:`ROUNDS_PER_STATE` rounds per state of the
component the profiles of its choices are searched, each valued exactly (all of them
when there are at most :data:`SEARCHED_PROFILES`, else those of the states that keep
changing, the others taking best replies); where none is an equilibrium (pure
stationary equilibria need not exist in such games) the solve is refused, naming the
states that keep changing.

Where a mover's best actions tie exactly, the *tie rule* chooses among them, the same
everywhere (:data:`TIE_RULES`): ``"first"`` (the model's order, the default),
``"others-best"`` or ``"others-worst"`` (the tied action that gives the other seats the
most, or the least, in total; the first of those), or ``"uniform"`` (each tied action
with the same chance: a mixed action, whose payoffs are the tied actions' mean). A tie that changes another seat's
payoff is *consequential*: the answer lists them
(:meth:`~exactprob.engine.seats.solution.SeatSolution.consequential_ties`), since a
different rule there changes the other seats' values.

Three seats draw in turn, each draw winning with chance 1/3 and otherwise passing to
the next seat: seat :math:`i` wins with :math:`(1/3)(2/3)^i / (1 - (2/3)^3)`, that is
9/19, 6/19 and 4/19 (the state is the seat to draw, or the payoffs once won):

>>> import exactprob as ep
>>> class Draw:
...     initial = 0
...     def outcome(self, s): return s if isinstance(s, tuple) else None
...     def player(self, s): return s
...     def actions(self, s): return ("draw",)
...     def transition(self, s, a):
...         won = tuple(int(i == s) for i in range(3))
...         return ep.Dist({won: "1/3", (s + 1) % 3: "2/3"})
>>> ep.solve(Draw()).value()
(Fraction(9, 19), Fraction(6, 19), Fraction(4, 19))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import combinations, islice, product
from math import prod
from typing import Literal

from ...errors import NonTerminationError, UsageError
from ...util.numbers import Exact, mpq
from .._internal.cycle import terminating_choices
from .._internal.linear import RATIONAL, solve_linear
from .._internal.order import strong_components
from ..graph.state_graph import StateGraph
from .solution import SeatSolution, expected_payoffs, leaving_choices, seat_rewards

__all__ = [
    "ROUNDS_PER_STATE",
    "SEARCHED_PROFILES",
    "TIE_RULES",
    "TieRule",
    "check_tie_rule",
    "solve_seats",
]

TieRule = Literal["first", "others-best", "others-worst", "uniform"]
#: The rules that choose among a mover's exactly tied best actions.
TIE_RULES: tuple[TieRule, ...] = ("first", "others-best", "others-worst", "uniform")
#: Rounds of best replies a cyclic component may take, per state, before it is refused.
ROUNDS_PER_STATE = 4
#: Profiles of a cyclic component's choices that its search may try, at most: all of its
#: choices' profiles when there are no more, else those of the states that keep changing.
SEARCHED_PROFILES = 256
#: Sweeps of the float guide over a cyclic component, at most; it stops sooner once its
#: values settle, or its choices have not changed for :data:`STEADY_SWEEPS` sweeps (the
#: exact rounds correct a guess that is not yet best).
GUIDE_SWEEPS = 10_000
STEADY_SWEEPS = 8
#: Each move of the float guide pulls its values towards the floor by this factor, so
#: that a loop that never ends sinks below every ending instead of keeping the value it
#: started with.
DECAY = 1 - 1e-7

Payoffs = tuple[Exact, ...]


def check_tie_rule(rule: object) -> TieRule:
    """``rule`` if it is one of :data:`TIE_RULES`.

    >>> check_tie_rule("last")
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: tie_rule must be one of 'first', 'others-best', 'others-worst', 'uniform', got 'last'
    """
    if rule not in TIE_RULES:
        allowed = ", ".join(repr(r) for r in TIE_RULES)
        raise UsageError(f"tie_rule must be one of {allowed}, got {rule!r}")
    return rule


def best_reply(values: Sequence[Payoffs], mover: int, rule: TieRule) -> tuple[int, ...]:
    """The indices among an action's ``values`` that ``mover`` plays: one of those best
    for it, chosen by ``rule`` where several tie, or all of them for ``"uniform"`` (each
    played with the same chance).

    >>> best_reply([(1, 0, 0), (1, 1, 0), (0, 5, 5)], 0, "first")
    (0,)
    >>> best_reply([(1, 0, 0), (1, 1, 0), (0, 5, 5)], 0, "others-best")
    (1,)
    >>> best_reply([(1, 0, 0), (1, 1, 0), (0, 5, 5)], 0, "uniform")
    (0, 1)
    """
    best = max(q[mover] for q in values)
    tied = [k for k, q in enumerate(values) if q[mover] == best]
    if rule == "uniform":
        return tuple(tied)
    if rule == "first" or len(tied) == 1:
        return (tied[0],)
    others = [sum(values[k]) - values[k][mover] for k in tied]
    target = max(others) if rule == "others-best" else min(others)
    return (tied[others.index(target)],)


def mixed(values: Sequence[Payoffs]) -> Payoffs:
    """The payoffs of playing each of ``values``' actions with the same chance."""
    if len(values) == 1:
        return values[0]
    share = mpq(1, len(values))
    return tuple(share * sum(column) for column in zip(*values))


def solve_seats(G: StateGraph, *, tie_rule: TieRule = "first") -> SeatSolution:
    """The exact equilibrium of the game of seats ``G`` (the module docstring has the
    rule), its ties chosen by ``tie_rule``."""
    return _SeatSolver(G, check_tie_rule(tie_rule)).run()


class _SeatSolver:
    """One solve: the values and choices, component by component."""

    def __init__(self, G: StateGraph, rule: TieRule) -> None:
        self.G = G
        self.rule = rule
        self.values: list[Payoffs | None] = [None] * len(G)
        self.plays: list[tuple[int, ...]] = [()] * len(G)  # the choices played, by state

    def run(self) -> SeatSolution:
        G = self.G
        for component in strong_components(G):
            s = component[0]
            if len(component) == 1 and not G.has_self_loop(s):
                outcome = G.outcomes[s]
                if outcome is not None:
                    self.values[s] = outcome
                else:
                    self._choose(s)
            else:
                self._settle(component)
        return SeatSolution(G, self.values, self.plays, self.rule)

    def _reply(self, s: int) -> tuple[tuple[int, ...], Payoffs]:
        """The mover's best reply at ``s`` to the values known, and its payoffs."""
        first = self.G.choice_start[s]
        leaving = leaving_choices(self.G, s)
        q = [expected_payoffs(self.G, first + k, self.values) for k in leaving]
        ks = best_reply(q, self.G.players[s], self.rule)
        return tuple(leaving[k] for k in ks), mixed([q[k] for k in ks])

    def _choose(self, s: int) -> None:
        """Play the mover's best reply at ``s``, where play cannot return."""
        self.plays[s], self.values[s] = self._reply(s)

    def _settle(self, component: list[int]) -> None:
        """Best replies iterated on a cyclic component until no mover changes; where
        they do not settle, a search (:meth:`_search`) over the profiles of the
        component's choices, all of them when there are at most
        :data:`SEARCHED_PROFILES`, else those of the states that keep changing; else a
        refusal naming those states."""
        self._guess(component)
        self._start(component)
        changes: Counter[int] = Counter()
        unsettled, stuck = self._best_replies(component, component, changes)
        if not unsettled:
            return
        contested = [s for s in component if changes[s] > 1] or unsettled
        plays_open = {s: self._plays_open(s) for s in component}
        deciding = {s: plays for s, plays in plays_open.items() if len(plays) > 1}
        whole = prod(map(len, deciding.values())) <= SEARCHED_PROFILES
        tried = self._search(
            component, deciding if whole else {s: plays_open[s] for s in contested}
        )
        if not tried:
            return
        where = self._names(contested) + (
            f" and {len(contested) - 5} more states" if len(contested) > 5 else ""
        )
        searched = (
            f", and none of the {tried:,} profiles of "
            + ("the cycle's choices" if whole else "their actions")
            + " is an equilibrium"
            if tried > 0
            else ""
        )
        if stuck:
            raise NonTerminationError(
                f"play never ends once a seat takes its best reply at {where}{searched}: "
                "this game has no equilibrium of one fixed action per state, with play that "
                "ends, that the solve finds"
            )
        raise NonTerminationError(
            f"the seats' best replies keep changing at {where}{searched}: this game has no "
            "equilibrium of one fixed action per state that the solve finds (try another "
            "tie_rule)"
        )

    def _best_replies(
        self, component: list[int], movers: Sequence[int], changes: Counter[int]
    ) -> tuple[list[int], bool]:
        """Rounds of best replies at the states ``movers`` of ``component`` (counted in
        ``changes``): each round values the profile exactly, then the movers take their
        best replies to those values (all at once, or where that makes play never end,
        one at a time). The states still changing after the last round (``[]`` once
        settled), and whether play would never end with any of their replies."""
        for _ in range(ROUNDS_PER_STATE * len(component) + 2):
            changed = {}
            for s in movers:
                reply = self._reply(s)[0]
                if reply != self.plays[s]:
                    changed[s] = reply
            if not changed:
                return [], False
            changes.update(changed.keys())
            if not self._switch(component, changed):
                return list(changed), True
        return list(changed), False

    def _search(self, component: list[int], options: dict[int, list[tuple[int, ...]]]) -> int:
        """Try each profile of the plays ``options`` gives its states (the contested ones,
        :meth:`_plays_open`), at most :data:`SEARCHED_PROFILES`, the other states of
        ``component`` taking best replies around it, and keep the first in which the
        contested states' plays are best replies too. 0 when one is kept, else how many
        were tried (-1 when there were too many to try)."""
        plays = self.plays
        if prod(map(len, options.values())) > SEARCHED_PROFILES:
            return -1
        contested = list(options)
        others = [s for s in component if s not in options]
        tried = 0
        for profile in product(*options.values()):
            tried += 1
            for s, play in zip(contested, profile):
                plays[s] = play
            try:
                self._evaluate(component)
            except NonTerminationError:
                continue
            unsettled, _ = self._best_replies(component, others, Counter())
            if not unsettled and all(self._reply(s)[0] == plays[s] for s in contested):
                return 0
        return tried

    def _plays_open(self, s: int) -> list[tuple[int, ...]]:
        """What the mover at ``s`` may play under the tie rule: each action that may
        leave ``s``, or under ``"uniform"`` every set of them (each as likely)."""
        leaving = leaving_choices(self.G, s)
        if self.rule != "uniform":
            return [(k,) for k in leaving]
        return [c for n in range(1, len(leaving) + 1) for c in combinations(leaving, n)]

    def _names(self, states: Iterable[int]) -> str:
        """The first five of ``states`` as the model's states, for a refusal."""
        return ", ".join(repr(self.G.states[s]) for s in islice(states, 5))

    def _switch(self, component: list[int], replies: dict[int, tuple[int, ...]]) -> bool:
        """Play the new ``replies`` and value the profile: all of them, or, where play
        would then never end, the first one alone under which it still ends; whether any
        was taken (else the profile is as it was)."""
        before = {s: self.plays[s] for s in replies}
        for batch in [list(replies), *([s] for s in replies)]:
            for s in batch:
                self.plays[s] = replies[s]
            try:
                self._evaluate(component)
                return True
            except NonTerminationError:
                for s in batch:
                    self.plays[s] = before[s]
        return False

    def _start(self, component: list[int]) -> None:
        """Value the guessed profile, or where its play would never end (a loop that
        pays its seats on every move can look best to the float guide), the profile
        nearest it whose play ends
        (:func:`~exactprob.engine._internal.cycle.terminating_choices`)."""
        try:
            self._evaluate(component)
            return
        except NonTerminationError:
            pass
        G, plays = self.G, self.plays
        guessed = {s: plays[s][0] for s in component}
        inside = set(component)
        ending = terminating_choices(
            component,
            inside,
            lambda s: G.choice_start[s + 1] - G.choice_start[s],
            lambda s, k: (t for t, _ in G.choice_edges(G.choice_start[s] + k)),
            guessed,
        )
        if len(ending) < len(component):
            stuck = self._names(s for s in component if s not in ending)
            raise NonTerminationError(
                f"play never ends from {stuck} whatever the seats play: no action there "
                "leads out of its cycle"
            )
        for s, k in ending.items():
            plays[s] = (k,)
        self._evaluate(component)

    def _guess(self, component: list[int]) -> None:
        """A first profile of the component from a float value iteration (Gauss-Seidel,
        each mover's best reply at every sweep, the first of float ties), started below
        every payoff and each move pulled towards there (:data:`DECAY`), so that a
        profile whose play never ends is not guessed; it stops once its choices hold for
        :data:`STEADY_SWEEPS` sweeps."""
        G = self.G
        seats = range(G.seats)
        floor = self.floor  # below every payoff: a loop that never ends looks worst
        guide: dict[int, list[float]] = {s: [floor] * G.seats for s in component}
        for t in {t for s in component for t in G.successors(s)} - guide.keys():
            guide[t] = [float(v) for v in self.values[t]]  # type: ignore[union-attr]
        options = [
            (
                s,
                G.players[s],
                [
                    (
                        k,
                        [float(r) for r in seat_rewards(G, c)],
                        [(float(p), guide[t]) for t, p in G.choice_edges(c)],
                    )
                    for k in leaving_choices(G, s)
                    for c in [G.choice_start[s] + k]
                ],
            )
            for s in component
        ]
        steady = 0  # sweeps in a row that changed no choice
        for _ in range(GUIDE_SWEEPS):
            change, switched = 0.0, False
            for s, mover, choices in options:
                best: list[float] = []
                for k, paid, moves in choices:
                    q = [
                        floor
                        + DECAY * (paid[i] + sum(p * (after[i] - floor) for p, after in moves))
                        for i in seats
                    ]
                    if not best or q[mover] > best[mover] + 1e-12:
                        best, chosen = q, k
                switched = switched or (chosen,) != self.plays[s]
                self.plays[s] = (chosen,)
                old = guide[s]
                change = max(change, max(abs(a - b) for a, b in zip(best, old)))
                old[:] = best  # in place: the moves hold this list
            steady = 0 if switched else steady + 1
            if change < 1e-12 or steady >= STEADY_SWEEPS:
                break

    @cached_property
    def floor(self) -> float:
        """A float below every payoff of every ending (the float guide's start)."""
        lows = [float(min(o)) for o in self.G.outcomes if o is not None]
        return min(lows, default=0.0) - 1.0

    def _evaluate(self, component: list[int]) -> None:
        """The exact values of the component under its current choices: :math:`(I -
        P)\\,V = B`, one column per seat, :math:`B` the moves out of it."""
        G = self.G
        local = {s: i for i, s in enumerate(component)}
        rows: list[dict[int, Exact]] = []
        rhs: list[list[Exact]] = []
        for s in component:
            row = {local[s]: mpq(1)}
            share = mpq(1, len(self.plays[s]))
            out = list(mixed([seat_rewards(G, G.choice_start[s] + k) for k in self.plays[s]]))
            moves = [
                (t, share * p)
                for k in self.plays[s]
                for t, p in G.choice_edges(G.choice_start[s] + k)
            ]
            for t, p in moves:
                j = local.get(t)
                if j is None:
                    for i, v in enumerate(self.values[t]):  # type: ignore[arg-type]
                        out[i] += p * v
                else:
                    row[j] = row.get(j, mpq(0)) - p
            rows.append(row)
            rhs.append(out)
        try:
            solved = solve_linear(RATIONAL, rows, rhs)
        except NonTerminationError:
            raise NonTerminationError(
                f"play never ends from {self._names(component)} when each seat plays its "
                "best reply there; the game needs an end that some profile of best replies "
                "reaches"
            ) from None
        for s, row_values in zip(component, solved):
            self.values[s] = tuple(row_values)
