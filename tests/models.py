r"""Small example models shared by the tests, and independent exact oracles.

Nothing in this module calls exactprob's ``explore``, ``solve``, ``evaluate`` or
``linear``: the models only build ``Dist`` transitions (``Dist`` has its own tests), and
the oracles are written from scratch with ``fractions.Fraction`` and ``sympy.Matrix``:

* :func:`reachable` - breadth-first search over a model;
* :func:`acyclic_values` - memoised recursion (max for player 0, min for player 1);
  with ``self_loops=True`` an action's chance of staying put is removed by solving
  :math:`x = \sum_{t \ne s} p_t V(t) + p_s x` for :math:`x` (a do-over);
* :func:`gauss_solve` - Gauss-Jordan elimination in Fractions (checked against sympy);
* :func:`policy_values` - the exact value of every state under a fixed policy;
* :func:`all_policies` - every deterministic stationary policy;
* :func:`bellman_violations` - the states where given values break the Bellman
  optimality equation (an empty list certifies optimal values of a stopping game,
  whose Bellman operator has a unique fixed point).

and the hypothesis strategies of random models (acyclic, cyclic chains, cyclic MDPs and
two-player games, near ties) with the checks that compare a solution with the oracles
(:func:`check_against_recursion`, :func:`check_against_optimum`).
"""

from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction as F

import sympy
from hypothesis import strategies as st

from exactprob import Dist, die

# --------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------


class TableModel:
    """A model given by tables.

    ``terminals``: ``{state: value}``; ``nodes``: ``{state: (player, {action: {next: p}})}``.
    Actions are offered in the dict's order.
    """

    def __init__(self, initial, terminals, nodes):
        self.initial = initial
        self.terminals = dict(terminals)
        self.nodes = dict(nodes)

    def outcome(self, s):
        return self.terminals.get(s)

    def actions(self, s):
        return tuple(self.nodes[s][1])

    def transition(self, s, a):
        return Dist(self.nodes[s][1][a])

    def player(self, s):
        return self.nodes[s][0]

    def __repr__(self):  # shown by hypothesis on failure
        return f"TableModel({self.initial!r}, {self.terminals!r}, {self.nodes!r})"


class Chain:
    """``0 -> 1 -> ... -> n``, won at ``n``: one action, one move a state.
    ``expected_states``: what the model says exploring will reach (any value, for the
    engine to take or ignore)."""

    initial = 0

    def __init__(self, n, expected_states=None):
        self.n, self.expected_states = n, expected_states

    def outcome(self, s):
        return 1 if s == self.n else None

    def actions(self, s):
        return ("step",)

    def transition(self, s, a):
        return Dist({s + 1: 1})


class RewardTable(TableModel):
    """A :class:`TableModel` with ``rewards``: ``{(state, action): reward}`` (0 if absent)."""

    def __init__(self, initial, terminals, nodes, rewards):
        super().__init__(initial, terminals, nodes)
        self.rewards = dict(rewards)

    def reward(self, s, a):
        return self.rewards.get((s, a), 0)

    def __repr__(self):
        return (
            f"RewardTable({self.initial!r}, {self.terminals!r}, {self.nodes!r}, {self.rewards!r})"
        )


@st.composite
def near_tie_cycles(draw):
    """<= 9 states, each action moving to a few states (any, so cycles abound) and to a
    terminal with positive probability; some actions are copies of another with
    ``2**-k`` of probability moved between two of its targets."""
    n = draw(st.integers(2, 9))
    terminals = {("T", 0): draw(st.integers(-3, 3)), ("T", 1): draw(st.integers(-3, 3))}
    nodes = {}
    for i in range(n):
        actions: dict[str, dict] = {}
        for a in range(draw(st.integers(1, 3))):
            if actions and draw(st.booleans()):
                base = dict(actions[draw(st.sampled_from(sorted(actions)))])
                x, y = sorted(base)[:2]
                eps = F(1, 2 ** draw(st.integers(20, 120))) * draw(st.sampled_from([-1, 0, 1]))
                base[x] += eps * base[x]
                base[y] -= eps * base[x] / (1 + eps)
                total = sum(base.values())
                actions[f"a{a}"] = {t: p / total for t, p in base.items()}
                continue
            moves = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
            weights = {("S", j): F(draw(st.integers(1, 4))) for j in moves}
            weights[("T", draw(st.integers(0, 1)))] = F(draw(st.integers(1, 3)))
            total = sum(weights.values())
            actions[f"a{a}"] = {t: w / total for t, w in weights.items()}
        nodes[("S", i)] = (draw(st.integers(0, 1)), actions)
    return TableModel(("S", 0), terminals, nodes)


class TwoDice:
    """Roll a d6, then another; the outcome is ``sum - 7`` (so negative outcomes occur).

    By symmetry of 2d6 about 7 the value is 0; every play takes exactly 2 steps.
    States: ``("start",)``, ``("one", d1)``, ``("end", total)``.
    """

    initial = ("start",)

    def outcome(self, s):
        return s[1] - 7 if s[0] == "end" else None

    def actions(self, s):
        return ("roll",)

    def transition(self, s, a):
        if s[0] == "start":
            return die(6).map(lambda x: ("one", x))
        return die(6).map(lambda x: ("end", s[1] + x))


class DiceDuel:
    """Players alternate moving one token towards square ``target`` with a d4 or 2d2;
    landing on ``target`` or ``target + 1`` wins for the mover, beyond loses for the
    mover, and after ``turns`` moves player 1 wins. Both dice reach the same squares, so
    every state's actions share their successors, and many states (those that cannot
    win in time, say) have exactly tied actions."""

    def __init__(self, target, turns):
        self.target, self.turns = target, turns
        self.initial = (0, 0)

    def player(self, s):
        return s[0] % 2

    def outcome(self, s):
        t, pos = s
        if pos >= self.target:  # the previous mover landed here
            return int((pos <= self.target + 1) == ((t - 1) % 2 == 0))
        return 0 if t == self.turns else None

    def actions(self, s):
        return ("d4", "2d2")

    def transition(self, s, a):
        t, pos = s
        rolls = (
            {r: F(1, 4) for r in range(1, 5)} if a == "d4" else {2: F(1, 4), 3: F(1, 2), 4: F(1, 4)}
        )
        return Dist({(t + 1, pos + r): p for r, p in rolls.items()})


class GamblersRuin:
    """Fortune ``i`` in ``0..goal``; win 1 with probability ``p`` (may be a sympy Symbol),
    lose 1 otherwise. Outcome 1 at ``goal``, 0 at 0. ``lazy``: stay put with probability
    1/2 first (a self-loop)."""

    def __init__(self, p, goal, start, lazy=False):
        self.p, self.goal, self.initial, self.lazy = p, goal, start, lazy

    def outcome(self, s):
        return 1 if s == self.goal else (0 if s == 0 else None)

    def actions(self, s):
        return ("bet",)

    def transition(self, s, a):
        if self.lazy:
            return Dist({s + 1: self.p / 2, s - 1: (1 - self.p) / 2, s: F(1, 2)})
        return Dist({s + 1: self.p, s - 1: 1 - self.p})


class SideBySide:
    """A fair pick of one of several models, played on from its initial state ``(i, s)``
    being state ``s`` of model ``i``: their cyclic components are independent copies,
    and many share a level of the condensation."""

    initial = "start"

    def __init__(self, models):
        self.models = models

    def outcome(self, s):
        return None if s == "start" else self.models[s[0]].outcome(s[1])

    def player(self, s):
        if s == "start":
            return 0
        model = self.models[s[0]]
        return model.player(s[1]) if hasattr(model, "player") else 0

    def actions(self, s):
        return ("pick",) if s == "start" else self.models[s[0]].actions(s[1])

    def transition(self, s, a):
        if s == "start":
            return Dist({(i, m.initial): F(1, len(self.models)) for i, m in enumerate(self.models)})
        return self.models[s[0]].transition(s[1], a).map(lambda t: (s[0], t))


class Stall:
    """Player 0 in A and player 1 in B may pass the turn to each other forever
    ("stall") or move on ("go": 1/2 to the other state, 1/2 to the end, worth 1 from A
    and 0 from B)."""

    initial = "A"

    def player(self, s):
        return 0 if s == "A" else 1

    def outcome(self, s):
        return {"A-end": 1, "B-end": 0}.get(s)

    def actions(self, s):
        return ("go", "stall")

    def transition(self, s, a):
        other = "B" if s == "A" else "A"
        return Dist({other: 1}) if a == "stall" else Dist({other: "1/2", f"{s}-end": "1/2"})


class DoOver:
    """One round: win (1) with probability ``a``, lose (0) with probability ``b``,
    otherwise the round repeats (a self-loop with probability ``1 - a - b``)."""

    initial = "round"

    def __init__(self, a, b):
        self.a, self.b = a, b

    def outcome(self, s):
        return {"round": None, "win": 1, "lose": 0}[s]

    def actions(self, s):
        return ("play",)

    def transition(self, s, act):
        return Dist({"win": self.a, "lose": self.b, "round": 1 - self.a - self.b})


class RedAndBlack:
    """Red and black (Dubins-Savage): fortune ``i`` in ``1..goal-1``, bet any whole
    ``b <= min(i, goal - i)``; win ``b`` with probability ``p``, else lose it.
    Outcome 1 at ``goal``, 0 at 0. A cyclic MDP in which every policy terminates."""

    def __init__(self, goal, p, start=None):
        self.goal, self.p = goal, p
        self.initial = goal // 2 if start is None else start

    def outcome(self, s):
        return 1 if s == self.goal else (0 if s == 0 else None)

    def actions(self, s):
        return tuple(range(1, min(s, self.goal - s) + 1))

    def transition(self, s, b):
        return Dist({s + b: self.p, s - b: 1 - self.p})


class Pig:
    """Two-player Pig with a ``sides``-sided die to ``goal`` points.

    State ``(score0, score1, turn_total, mover)``. Rolling a 1 loses the turn total and
    passes the turn; rolling ``r > 1`` adds ``r`` to the turn total, and the mover wins at
    once when ``score + turn_total`` reaches ``goal``. With a positive turn total the
    mover may hold (bank it and pass the turn); with turn total 0 the mover must roll
    (so every pair of strategies ends with probability 1). Outcome 1 if player 0 wins.

    ``opponent_hold=h``: player 1 has no choice: it holds as soon as its turn total is at
    least ``h`` (the game becomes an MDP for player 0).
    """

    def __init__(self, goal, sides=6, opponent_hold=None):
        self.goal, self.sides, self.opponent_hold = goal, sides, opponent_hold
        self.initial = (0, 0, 0, 0)

    def outcome(self, s):
        a, b = s[0], s[1]
        if a >= self.goal:
            return 1
        if b >= self.goal:
            return 0
        return None

    def player(self, s):
        return s[3]

    def actions(self, s):
        k, p = s[2], s[3]
        if k == 0:
            return ("roll",)
        if p == 1 and self.opponent_hold is not None:
            return ("hold",) if k >= self.opponent_hold else ("roll",)
        return ("roll", "hold")

    def transition(self, s, act):
        return Dist(pig_step(s, act, self.goal, self.sides))


def pig_step(s, act, goal, sides):
    """Next-state probabilities of Pig as a plain dict of Fractions."""
    a, b, k, p = s
    scores = [a, b]
    me = scores[p]

    def state(my_score, turn_total, switch):
        sc = list(scores)
        sc[p] = my_score
        return (sc[0], sc[1], turn_total, 1 - p if switch else p)

    if act == "hold":
        return {state(me + k, 0, True): F(1)}
    out = {}
    for r in range(1, sides + 1):
        if r == 1:
            t = state(me, 0, True)
        elif me + k + r >= goal:
            t = state(me + k + r, 0, False)
        else:
            t = state(me, k + r, False)
        out[t] = out.get(t, 0) + F(1, sides)
    return out


# --------------------------------------------------------------------------------------
# Oracles
# --------------------------------------------------------------------------------------


def probs(model, s, a):
    """``{next: Fraction}`` of one transition (read through the Mapping interface)."""
    d = model.transition(s, a)
    return {t: d[t] for t in d}


def reward_of(model, s, a):
    """The reward of taking ``a`` in ``s`` (0 for a model without rewards)."""
    f = getattr(model, "reward", None)
    return F(0) if f is None else F(f(s, a))


def player_of(model, s):
    f = getattr(model, "player", None)
    return 0 if f is None else f(s)


def reachable(model, policy=None):
    """All states reachable from ``model.initial`` (under ``policy`` if given)."""
    seen = {model.initial}
    queue = deque([model.initial])
    while queue:
        s = queue.popleft()
        if model.outcome(s) is not None:
            continue
        acts = model.actions(s) if policy is None else (policy[s],)
        for a in acts:
            for t in probs(model, s, a):
                if t not in seen:
                    seen.add(t)
                    queue.append(t)
    return seen


def acyclic_values(model, self_loops=False):
    r"""Optimal values and action values of an acyclic model by memoised recursion.

    Returns ``(V, Q)`` with ``V[s]`` a Fraction and ``Q[s][a]`` the action values. With
    ``self_loops``, a state may also move to itself: an action's value solves
    :math:`x = \sum_{t \ne s} p_t V(t) + p_s x`, and an action with :math:`p_s = 1`,
    which never ends, is left out.
    """
    V, Q = {}, {}

    def value(s):
        if s in V:
            return V[s]
        o = model.outcome(s)
        if o is not None:
            V[s] = F(o)
            return V[s]
        q = {}
        for a in model.actions(s):
            moves = probs(model, s, a)
            stay = moves.pop(s, F(0)) if self_loops else F(0)
            if stay != 1:
                total = reward_of(model, s, a) + sum((p * value(t) for t, p in moves.items()), F(0))
                q[a] = total / (1 - stay)
        Q[s] = q
        V[s] = max(q.values()) if player_of(model, s) == 0 else min(q.values())
        return V[s]

    value(model.initial)
    return V, Q


def check_against_recursion(model, solution, self_loops=False):
    """Assert that a solution of an acyclic model has the reachable states, values, ties
    and policy (the first tied action) of memoised exact recursion."""
    V, Q = acyclic_values(model, self_loops)
    assert set(solution.states) == reachable(model) == set(V)
    for s in V:
        assert solution.value(s) == V[s]
        if s in Q:
            expected_ties = tuple(a for a in Q[s] if Q[s][a] == V[s])
            assert solution.ties(s) == expected_ties
            assert solution.policy(s) == expected_ties[0]
        else:
            assert solution.ties(s) == () and solution.policy(s) is None


def gauss_solve(A, b):
    """Solve ``A x = b`` (lists of Fractions; ``b`` a list of vectors' rows) by
    Gauss-Jordan elimination with row swaps. Returns None when singular."""
    n = len(A)
    m = [list(map(F, A[i])) + list(map(F, b[i])) for i in range(n)]
    for c in range(n):
        r = next((r for r in range(c, n) if m[r][c] != 0), None)
        if r is None:
            return None
        m[c], m[r] = m[r], m[c]
        piv = m[c][c]
        m[c] = [x / piv for x in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [row[n:] for row in m]


def policy_values(model, policy, states):
    """Exact value of every state in ``states`` under ``policy`` (``{state: action}``).

    ``states`` must be closed under the policy's transitions. Solves
    ``V(s) = sum_t P(t | s, policy[s]) V(t)`` with terminal values fixed, by
    :func:`gauss_solve`.
    """
    inner = [s for s in states if model.outcome(s) is None]
    pos = {s: i for i, s in enumerate(inner)}
    n = len(inner)
    A = [[F(0)] * n for _ in range(n)]
    b = [[F(0)] for _ in range(n)]
    for s in inner:
        i = pos[s]
        A[i][i] += 1
        b[i][0] += reward_of(model, s, policy[s])
        for t, p in probs(model, s, policy[s]).items():
            if t in pos:
                A[i][pos[t]] -= p
            else:
                b[i][0] += p * F(model.outcome(t))
    x = gauss_solve(A, b)
    assert x is not None, "the policy does not terminate"
    values = {s: F(model.outcome(s)) for s in states if model.outcome(s) is not None}
    values.update({s: x[pos[s]][0] for s in inner})
    return values


def decision_states(model, states, player=None):
    return [
        s
        for s in sorted(states, key=repr)
        if model.outcome(s) is None
        and len(model.actions(s)) > 1
        and (player is None or player_of(model, s) == player)
    ]


def all_policies(model, states, player=None):
    """Every deterministic stationary policy on ``states`` (``{state: action}``; states
    with one action get it). With ``player``, only that player's choices vary and the
    other states are left out of the yielded dict."""
    choice = decision_states(model, states, player)
    fixed = {
        s: model.actions(s)[0]
        for s in states
        if model.outcome(s) is None and len(model.actions(s)) == 1 and player is None
    }
    for combo in itertools.product(*(model.actions(s) for s in choice)):
        yield {**fixed, **dict(zip(choice, combo))}


def single_action_part(model, states):
    return {
        s: model.actions(s)[0]
        for s in states
        if model.outcome(s) is None and len(model.actions(s)) == 1
    }


def q_values(model, s, values):
    return {
        a: reward_of(model, s, a)
        + sum((p * values[t] for t, p in probs(model, s, a).items()), F(0))
        for a in model.actions(s)
    }


def bellman_violations(model, values):
    """States whose value is not ``max``/``min`` over actions of the expected next value."""
    bad = []
    for s, v in values.items():
        o = model.outcome(s)
        if o is not None:
            if v != o:
                bad.append(s)
            continue
        q = q_values(model, s, values)
        best = max(q.values()) if player_of(model, s) == 0 else min(q.values())
        if v != best:
            bad.append(s)
    return bad


def sympy_chain(model, states):
    """For a Markov chain (one action per state): ``(inner, terms, Q, R)`` as sympy
    matrices, ``Q`` transient-to-transient, ``R`` transient-to-terminal."""
    inner = sorted((s for s in states if model.outcome(s) is None), key=repr)
    terms = sorted((s for s in states if model.outcome(s) is not None), key=repr)
    pi = {s: i for i, s in enumerate(inner)}
    pt = {s: i for i, s in enumerate(terms)}
    Q = sympy.zeros(len(inner), len(inner))
    R = sympy.zeros(len(inner), len(terms))
    for s in inner:
        (a,) = model.actions(s)
        for t, p in probs(model, s, a).items():
            p = sympy.sympify(p)
            if t in pi:
                Q[pi[s], pi[t]] += p
            else:
                R[pi[s], pt[t]] += p
    return inner, terms, Q, R


# --------------------------------------------------------------------------------------
# Random models (hypothesis strategies) and optimality checks
# --------------------------------------------------------------------------------------

small_values = st.one_of(st.integers(-2, 2), st.builds(F, st.integers(-4, 4), st.integers(1, 3)))


@st.composite
def acyclic_models(draw, self_loops=False):
    """Layered states, 1-3 actions each (sometimes an exact copy of another action, to
    produce ties), random rational transitions to later layers or terminals, players 0/1.
    ``self_loops``: an action may also stay where it is, and a state may have an action
    that stays with probability one (besides one that leaves)."""
    n_terms = draw(st.integers(1, 3))
    terminals = {("T", i): draw(small_values) for i in range(n_terms)}
    widths = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4))
    layers = [[("S", l, j) for j in range(w)] for l, w in enumerate(widths)]
    nodes = {}
    for l, layer in enumerate(layers):
        later = [s for lay in layers[l + 1 :] for s in lay] + list(terminals)
        for s in layer:
            acts = {}
            for a in range(draw(st.integers(1, 3))):
                if acts and draw(st.integers(0, 3)) == 0:
                    acts[f"a{a}"] = dict(acts[draw(st.sampled_from(sorted(acts)))])  # a tie
                    continue
                targets = draw(
                    st.lists(st.sampled_from(later), min_size=1, max_size=4, unique=True)
                )
                if self_loops and draw(st.booleans()):
                    targets.append(s)
                weights = draw(
                    st.lists(st.integers(1, 6), min_size=len(targets), max_size=len(targets))
                )
                acts[f"a{a}"] = {t: F(w, sum(weights)) for t, w in zip(targets, weights)}
            if self_loops and draw(st.integers(0, 4)) == 0:
                wait = {"wait": {s: F(1)}}  # never ends: never chosen, wherever it stands
                acts = {**wait, **acts} if draw(st.booleans()) else {**acts, **wait}
            nodes[s] = (draw(st.integers(0, 1)), acts)
    return TableModel(layers[0][0], terminals, nodes)


@st.composite
def cyclic_chains(draw):
    """n <= 6 transient states with random transitions among them (self-loops included);
    every state has positive probability of moving straight to a terminal state."""
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 3))
    terminals = {("T", i): draw(small_values) for i in range(m)}
    nodes = {}
    for i in range(n):
        w_inner = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        w_term = draw(st.lists(st.integers(0, 3), min_size=m, max_size=m))
        if sum(w_term) == 0:
            w_term[draw(st.integers(0, m - 1))] = 1
        total = sum(w_inner) + sum(w_term)
        out = {("S", j): F(w, total) for j, w in enumerate(w_inner) if w}
        out.update({("T", j): F(w, total) for j, w in enumerate(w_term) if w})
        nodes[("S", i)] = (0, {"go": out})
    return TableModel(("S", 0), terminals, nodes)


def optimal_by_enumeration(model, states):
    """Componentwise max over all policies (one policy attains it at every state)."""
    best = None
    for pol in all_policies(model, states):
        vals = policy_values(model, pol, states)
        best = vals if best is None else {s: max(best[s], vals[s]) for s in states}
    return best


def check_optimal(model, S):
    """Exact values satisfy the Bellman equations, ties are exactly the optimal actions,
    and the reported policy terminates with these values."""
    states = reachable(model)
    values = {s: S.value(s) for s in states}
    assert not bellman_violations(model, values)
    for s in states:
        if model.outcome(s) is None:
            q = q_values(model, s, values)
            assert S.ties(s) == tuple(a for a in model.actions(s) if q[a] == values[s])
    assert policy_values(model, S.policy_map(), list(states)) == values


def check_against_optimum(model, S, V):
    assert set(S.states) == set(V)
    assert not bellman_violations(model, V)
    for s, v in V.items():
        assert S.value(s) == v
        if model.outcome(s) is None:
            q = q_values(model, s, V)
            ties = tuple(a for a in model.actions(s) if q[a] == v)
            assert S.ties(s) == ties and S.policy(s) in ties
    # the reported policy as a whole terminates and attains the optimum (oracle solve)
    assert policy_values(model, S.policy_map(), list(V)) == V


@st.composite
def cyclic_games(draw, two_players, move=None):
    """<= 4 states, <= 3 actions; every action has positive probability of moving straight
    to a terminal state, so every strategy profile terminates (a stopping game).
    ``move(draw, n)`` draws an action's law (:func:`stopping_move` by default)."""
    n = draw(st.integers(1, 4))
    terminals = {("T", i): draw(small_values) for i in range(2)}
    nodes = {}
    for i in range(n):
        acts = {}
        for a in range(draw(st.integers(1, 3))):
            if acts and draw(st.integers(0, 4)) == 0:
                acts[f"a{a}"] = dict(acts[draw(st.sampled_from(sorted(acts)))])  # a tie
                continue
            acts[f"a{a}"] = (move or stopping_move)(draw, n)
        nodes[("S", i)] = (draw(st.integers(0, 1)) if two_players else 0, acts)
    return TableModel(("S", 0), terminals, nodes)


@st.composite
def pass_through_games(draw):
    """<= 8 states, two players; about half are pass-through states (one action, one
    move, to another state or a terminal: runs of them, and loops that never end), the
    others as in :func:`cyclic_games` (every action may end at once)."""
    n = draw(st.integers(1, 8))
    terminals = {("T", i): draw(small_values) for i in range(2)}
    places = [("S", j) for j in range(n)] + list(terminals)
    nodes = {}
    for i in range(n):
        if draw(st.booleans()):
            to = draw(st.sampled_from([p for p in places if p != ("S", i)]))
            acts = {"go": {to: F(1)}}
        else:
            acts = {f"a{a}": stopping_move(draw, n) for a in range(draw(st.integers(1, 2)))}
        nodes[("S", i)] = (draw(st.integers(0, 1)), acts)
    return TableModel(("S", 0), terminals, nodes)


def stopping_move(draw, n):
    """A random move from one of ``n`` states ``("S", j)``: weights 0-3 to each of them
    and to the terminals ``("T", 0)``, ``("T", 1)``, positive towards a terminal."""
    w_inner = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    w_term = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2))
    if sum(w_term) == 0:
        w_term[draw(st.integers(0, 1))] = 1
    total = sum(w_inner) + sum(w_term)
    out = {("S", j): F(w, total) for j, w in enumerate(w_inner) if w}
    out.update({("T", j): F(w, total) for j, w in enumerate(w_term) if w})
    return out


def game_values(model, states):
    """Per state: max over player-0 strategies of min over player-1 strategies, and
    min over player-1 strategies of max over player-0 strategies (both stationary)."""
    base = single_action_part(model, states)
    p0 = list(all_policies(model, states, player=0))
    p1 = list(all_policies(model, states, player=1))
    table = {
        (i, j): policy_values(model, {**base, **a, **b}, states)
        for (i, a), (j, b) in itertools.product(enumerate(p0), enumerate(p1))
    }
    maxmin = {
        s: max(min(table[i, j][s] for j in range(len(p1))) for i in range(len(p0))) for s in states
    }
    minmax = {
        s: min(max(table[i, j][s] for i in range(len(p0))) for j in range(len(p1))) for s in states
    }
    return maxmin, minmax
