r"""Reward-bounded reachability, ``P=? [F^{rew{"r"}<=B} b]`` (Storm's syntax), as plain
reachability in a product space.

A path satisfies :math:`F^{\rho \le B}\, b` when it reaches a ``b``-state having gathered
at most :math:`B` of the reward :math:`\rho` on the moves before it (:math:`\ge B`: at
least :math:`B`; the strict bounds likewise). Every reward is at least 0, so the reward
gathered only grows, and the product of the space with the reward gathered so far, with

* an upper bound: a move that would pass :math:`B` going to one state, *passed*, from
  which the bound can no longer hold (the value there is 0);
* a lower bound: the reward gathered kept at :math:`\min(g, B)`, since once it reaches
  :math:`B` only the space's state matters,

is finite (a state's gathered rewards are sums of the finitely many move rewards, at
most :math:`B`) and answers the question as unbounded reachability of the states
:math:`(s, g)` with :math:`s \in b` and :math:`g` within the bound: the same graph
analysis and the same exact solve as ``P=? [F b]`` (Andova, Hermanns and Katoen,
"Discrete-time rewards model-checked", FORMATS 2003, reduce reward bounds to reachability
in such a product).

A strict bound is a non-strict one on the multiples of :math:`1/d` that the gathered
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

from collections.abc import Sequence
from typing import Any

import gmpy2

from ..errors import StateLimitError, UsageError
from ..util.numbers import exact, is_symbolic, mpq
from .space import DEADLOCK, StateSpace
from .syntax import RewardBound

__all__ = ["PASSED", "BoundedSpace", "bounded_space"]

#: The product's state where an upper bound has been passed.
PASSED = ("reward bound passed",)


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


def bounded_space(
    space: StateSpace,
    bound: RewardBound,
    structure: str | None,
    limit: Any,
    positions: Sequence[int],
) -> BoundedSpace:
    """The product of ``space`` with the reward of ``structure`` gathered (checked to be
    at least 0), for ``bound``'s relation with the number ``limit``, reached from the
    space's ``positions`` with nothing gathered."""
    rewards = _choice_rewards(space, structure)
    upper = bound.relation in ("<=", "<")
    edge = _inclusive(bound.relation, mpq(limit), rewards)
    product = BoundedSpace(space)
    states, index = product.states, product.index
    origin, met = product.origin, product.met
    cs, es = space.choice_start, space.edge_start
    targets, prob_ids = space.targets, space.prob_ids

    def position(s: int, gathered: Any) -> int:
        if upper and gathered > edge:
            key: tuple[Any, ...] = PASSED
        else:
            key = (space.states[s], gathered if upper else min(gathered, edge))
        i = index.get(key)
        if i is None:
            i = index[key] = len(states)
            if i >= product.max_states:
                raise _too_many(space, product.max_states)
            states.append(key)
            origin.append(-1 if key is PASSED else s)
            met.append(key is not PASSED and (upper or key[1] == edge))
        return i

    zero = mpq(0)
    product.start = {j: position(j, zero) for j in positions}
    product.initial = [product.start[j] for j in space.initial if j in product.start]
    done = 0
    while done < len(states):
        s = origin[done]
        if s < 0:  # passed: it stays
            product.move_names.append((DEADLOCK,))
            product.targets.append(done)
            product.prob_ids.append(_one_id(product))
            product.edge_start.append(len(product.targets))
        else:
            gathered = states[done][1]
            product.move_names.append(space.move_names[s])
            for c in range(cs[s], cs[s + 1]):
                after = gathered + rewards[c]
                for e in range(es[c], es[c + 1]):
                    product.targets.append(position(targets[e], after))
                    product.prob_ids.append(prob_ids[e])
                product.edge_start.append(len(product.targets))
        product.choice_start.append(len(product.edge_start) - 1)
        done += 1
    return product


def _choice_rewards(space: StateSpace, structure: str | None) -> list[Any]:
    """The reward of every choice of ``space`` (0 on PRISM's added self-loop), each a
    number: a bound on a reward that depends on a parameter is refused."""
    program, cs = space.program, space.choice_start
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
                    f"a reward bound needs rewards that are numbers; the move {name} in state "
                    f"{program.state_text(state)} earns {value}"
                )
            rewards.append(value)
    return rewards


def _inclusive(relation: str, limit: Any, rewards: Sequence[Any]) -> Any:
    """The non-strict limit equivalent to ``relation limit`` for sums of ``rewards``
    (all multiples of :math:`1/d`, :math:`d` their least common denominator).

    >>> _inclusive("<", mpq(3), [mpq(1, 2)]), _inclusive(">", mpq(3), [mpq(1, 2)])
    (mpq(5,2), mpq(7,2))
    >>> _inclusive("<=", mpq(5, 2), [mpq(1)])
    mpq(5,2)
    """
    if relation in ("<=", ">="):
        return limit
    d = gmpy2.mpz(1)
    for r in rewards:
        d = gmpy2.lcm(d, r.denominator)
    scaled = limit * d
    below = scaled.numerator // scaled.denominator  # the floor, in integers
    if relation == "<":
        return mpq(below - 1 if scaled.denominator == 1 else below, d)
    return mpq(below + 1, d)


def _one_id(product: BoundedSpace) -> int:
    """The id of the probability 1 in the product's list (added once when missing)."""
    one = mpq(1)
    probabilities = product.probabilities
    for i, p in enumerate(probabilities):
        if not is_symbolic(p) and p == one:
            return i
    probabilities.append(one)
    return len(probabilities) - 1


def _too_many(space: StateSpace, limit: int) -> StateLimitError:
    """The state limit passed while pairing states with the reward gathered."""
    return StateLimitError(
        f"the reward bound pairs each of the {len(space):,} states with the reward gathered "
        f"so far: more than the limit of {limit:,} states; pass max_states=N "
        "(--max-states N) with a larger N to go on"
    )
