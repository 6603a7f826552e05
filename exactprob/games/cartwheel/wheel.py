r"""Tavern wheel games: gamble gold on a wheel of numbers until the purse reaches a target.

The rules (exactprob's own): a wheel has :math:`n` equally likely slots. The hero holds
:math:`g` gold and needs :math:`T` (a passage to buy). Before each spin the hero either walks
away, and has lost (no passage), or stakes :math:`s` gold, :math:`1 \le s \le \min(g, S)`
(:math:`S` the table's maximum stake), on one kind of bet. A bet kind :math:`(k, m)` covers
:math:`k` slots and pays :math:`m` to 1: the hero gains :math:`ms` when the wheel stops on a
covered slot, probability :math:`k/n`, and loses the stake otherwise. The hero has won on
reaching :math:`T` gold or more and lost at 0. The default, ours, is the *cartwheel*: ten
slots, one number paying 8 to 1, an expected :math:`(9 - 10)/10 = -1/10` gold per gold staked.

With every amount :math:`\ge T` one winning state, the best chance :math:`V(g)` of reaching
the target is

.. math::

    V(0) = 0, \quad V(T) = 1, \quad
    V(g) = \max\Bigl(0,\; \max_{(k, m),\ 1 \le s \le \min(g, S)}
        \tfrac{k}{n}\, V(\min(g + ms, T)) + \bigl(1 - \tfrac{k}{n}\bigr)\, V(g - s)\Bigr),

the 0 being walking away. Every stationary policy ends with probability one (:math:`g` lost
spins in a row ruin the hero, and :math:`k < n`), so the values of each policy solve one
nonsingular linear system, and the gamebook solver (the engine's exact policy iteration on the
cyclic part) gives :math:`V` and every exactly tied stake.

A hand-checked loop: three slots, one covered, paying 1 to 1 (:math:`p = 1/3`), target 3.
From 2 gold, staking 2 wins with :math:`1/3`; staking 1 means :math:`V(1) = V(2)/3` and
:math:`V(2) = 1/3 + (2/3) V(1)`, so :math:`V(2) = 3/7 > 1/3` and :math:`V(1) = 1/7`
(gambler's ruin with ratio 2: :math:`(2 - 1)/(2^3 - 1)`).

>>> wheel = Wheel(target=3, numbers=3, bets=(Bet(1, 1),))
>>> best = solve_wheel(wheel)
>>> best.values
{1: Fraction(1, 7), 2: Fraction(3, 7)}
>>> [str(stake) for stake in best.stakes[2]]
['1 on 1:1']
>>> policy_values(wheel, lambda gold: Stake(gold, Bet(1, 1)))  # all in: 1/3 from 2 gold
{1: Fraction(1, 9), 2: Fraction(1, 3)}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ...engine import (
    Dist,
    RandomSource,
    Runs,
    SolutionNode,
    Tree,
    reachable_nodes,
    solve_choices,
    uniform,
)
from ...errors import ModelError
from ...util.numbers import whole_number

__all__ = [
    "CARTWHEEL",
    "CARTWHEEL_NUMBERS",
    "MAX_CHOICES",
    "MAX_TARGET",
    "WALKED_AWAY",
    "WALK_AWAY",
    "Bet",
    "Stake",
    "Wheel",
    "WheelSample",
    "WheelSolution",
    "bold_play",
    "policy_values",
    "simulate_wheel",
    "solve_wheel",
    "stake_choices",
    "timid_play",
]

#: The action of leaving the table (the hero has lost) and the state it leads to.
WALK_AWAY = "walk away"
WALKED_AWAY = "walked away"
#: A state before any spin whose one choice sits the hero down with every amount
#: ``1 .. T-1`` at once, so that one solve reaches (and values) every amount.
_EVERY_PURSE = "every purse"
#: Refuse wheels with more (gold, stake) choices than this, or a larger target: a target of
#: 200 with any stake (19,900 choices) solves in about 3 s, a target of 1,000 with stakes up
#: to 20 (19,790 choices) in about 7 s; the fractions grow with the target.
MAX_CHOICES = 20_000
MAX_TARGET = 1_000
#: Draws per block of runs in :func:`simulate_wheel`.
SIMULATION_BLOCK = 1 << 21


@dataclass(frozen=True, slots=True, order=True)
class Bet:
    """A bet kind covering ``covers`` slots and paying ``pays`` to 1; written ``"k:m"``."""

    covers: int
    pays: int

    def __str__(self) -> str:
        return f"{self.covers}:{self.pays}"


#: Our default bet: one number of ten, paying 8 to 1.
CARTWHEEL = Bet(covers=1, pays=8)
CARTWHEEL_NUMBERS = 10


class Stake(NamedTuple):
    """An action: ``amount`` gold staked on ``bet``."""

    amount: int
    bet: Bet

    def __str__(self) -> str:
        return f"{self.amount} on {self.bet}"


Action = Stake | str
Policy = Callable[[int], Action]


def stake_choices(target: int, max_stake: int | None, kinds: int) -> int:
    """The number of (gold, stake) choices over the amounts ``1 .. target - 1``:
    :math:`K \\sum_{g=1}^{T-1} \\min(g, S) = K\\,(S(S+1)/2 + (T-1-S)\\,S)` for :math:`S < T`.

    >>> stake_choices(5, None, 1), 1 + 2 + 3 + 4
    (10, 10)
    >>> stake_choices(5, 2, 2), 2 * (1 + 2 + 2 + 2)
    (14, 14)
    """
    top = target - 1 if max_stake is None else min(max_stake, target - 1)
    return kinds * (top * (top + 1) // 2 + (target - 1 - top) * top)


@dataclass(frozen=True)
class Wheel:
    """The rules of one table: ``target`` gold to reach, ``numbers`` slots, the ``bets``
    offered and the table's ``max_stake`` (``None``: up to the whole purse).

    States are the gold held, ``0 .. target`` (every amount from the target on is the
    winning state ``target``), and :data:`WALKED_AWAY`. :meth:`choices` and :meth:`score` are
    the gamebook form of the rules (:func:`exactprob.engine.choice_tree.solve_choices`).

    >>> wheel = Wheel(target=20)
    >>> wheel.chance(CARTWHEEL), wheel.edge(CARTWHEEL)
    (Fraction(1, 10), Fraction(-1, 10))
    >>> wheel.spin(15, Stake(1, CARTWHEEL))  # 15 + 8 = 23 is past the target
    Dist({14: '9/10', 20: '1/10'})
    """

    target: int
    numbers: int = CARTWHEEL_NUMBERS
    bets: tuple[Bet, ...] = (CARTWHEEL,)
    max_stake: int | None = None
    max_choices: int = MAX_CHOICES

    def __post_init__(self) -> None:
        whole_number("target", self.target, 2, MAX_TARGET)
        whole_number("numbers", self.numbers, 2)
        if self.max_stake is not None:
            whole_number("max_stake", self.max_stake, 1)
        if not self.bets:
            raise ModelError("bets must list at least one bet kind")
        if len(set(self.bets)) != len(self.bets):
            raise ModelError(f"bets must not repeat a bet kind, got {list(map(str, self.bets))}")
        for bet in self.bets:
            whole_number(f"covered slots of bet {bet}", bet.covers, 1, self.numbers - 1)
            whole_number(f"payout of bet {bet}", bet.pays, 1)
        count = stake_choices(self.target, self.max_stake, len(self.bets))
        if count > self.max_choices:
            raise ModelError(
                f"the wheel has {count:,} (gold, stake) choices, more than {self.max_choices:,}: "
                "lower the target, the maximum stake or the number of bets"
            )

    def chance(self, bet: Bet) -> Fraction:
        """The chance :math:`k/n` that ``bet`` wins a spin."""
        return Fraction(bet.covers, self.numbers)

    def edge(self, bet: Bet) -> Fraction:
        """Expected gain per gold staked: :math:`(k(m + 1) - n)/n` (0 for a fair bet)."""
        return Fraction(bet.covers * (bet.pays + 1) - self.numbers, self.numbers)

    def largest_stake(self, gold: int) -> int:
        """The most the hero may stake with ``gold`` in hand: :math:`\\min(g, S)`."""
        return gold if self.max_stake is None else min(gold, self.max_stake)

    def stakes(self, gold: int) -> tuple[Stake, ...]:
        """Every stake allowed with ``gold`` in hand, bet by bet, smallest first."""
        top = self.largest_stake(gold)
        return tuple(Stake(amount, bet) for bet in self.bets for amount in range(1, top + 1))

    def spin(self, gold: int, stake: Stake) -> Dist[int]:
        """The gold after one spin: :math:`\\min(g + ms, T)` with :math:`k/n`, else
        :math:`g - s`."""
        top = self.largest_stake(gold)
        if stake.bet not in self.bets or not 1 <= stake.amount <= top:
            raise ModelError(
                f"{stake} is not allowed with {gold} gold: stake 1 to {top} on one of "
                f"{', '.join(map(str, self.bets))}"
            )
        win = self.chance(stake.bet)
        return Dist(
            [
                (min(gold + stake.bet.pays * stake.amount, self.target), win),
                (gold - stake.amount, 1 - win),
            ]
        )

    def outcomes(self, gold: int, action: Action) -> Dist[Any]:
        """The state after ``action``: a :class:`Stake`'s spin, or :data:`WALKED_AWAY`."""
        if action == WALK_AWAY:
            return Dist({WALKED_AWAY: 1})
        if not isinstance(action, Stake):
            raise ModelError(f"{action!r} at {gold} gold is neither a Stake nor {WALK_AWAY!r}")
        return self.spin(gold, action)

    def choices(self, gold: int) -> list[tuple[Action, Dist[Any]]]:
        """Every stake with its spin, then walking away."""
        actions: list[Action] = [*self.stakes(gold), WALK_AWAY]
        return [(a, self.outcomes(gold, a)) for a in actions]

    def score(self, state: Any) -> int | None:
        """1 at the target, 0 when broke or gone, ``None`` while the hero still plays."""
        if state == self.target:
            return 1
        return 0 if state in (0, WALKED_AWAY) else None

    def check_gold(self, gold: int) -> int:
        """``gold`` if the hero can sit down with it (``1 .. target - 1``)."""
        return whole_number("gold", gold, 1, self.target - 1)


@dataclass(frozen=True)
class WheelSolution:
    """Optimal play at every amount ``1 .. target - 1``: the best chance ``values[g]`` and
    every stake that attains it exactly, ``stakes[g]`` (in the order of
    :meth:`Wheel.stakes`; walking away, worth 0, is never optimal since :math:`V(g) > 0`)."""

    wheel: Wheel
    values: dict[int, Fraction]
    stakes: dict[int, tuple[Stake, ...]]

    def policy(self) -> dict[int, Stake]:
        """An optimal policy: the first optimal stake at every amount."""
        return {gold: tied[0] for gold, tied in self.stakes.items()}


def _every_purse(wheel: Wheel, choices: Callable[[int], list[Any]]) -> Tree:
    """Solve ``choices`` (the wheel's, or a fixed policy's) from every amount at once."""
    purses = uniform(range(1, wheel.target))

    def listed(state: Any) -> list[Any]:
        return [("sit down", purses)] if state == _EVERY_PURSE else choices(state)

    def score(state: Any) -> int | None:
        return None if state == _EVERY_PURSE else wheel.score(state)

    return solve_choices(listed, score, _EVERY_PURSE, max_states=wheel.target + 3)


def _playing(tree: Tree) -> dict[int, SolutionNode]:
    return {
        node.state: node
        for node in reachable_nodes(tree)
        if isinstance(node, SolutionNode) and node.state != _EVERY_PURSE
    }


def solve_wheel(wheel: Wheel) -> WheelSolution:
    """The exact best chance and every optimal stake at each amount (one solve).

    The cartwheel to 3 gold never loops: :math:`V(1) = 1/10` (one win needed) and
    :math:`V(2) = 1/10 + (9/10) V(1) = 19/100` staking 1, against :math:`1/10` staking 2.

    >>> best = solve_wheel(Wheel(target=3))
    >>> best.values, best.policy()[2].amount
    ({1: Fraction(1, 10), 2: Fraction(19, 100)}, 1)
    """
    nodes = _playing(_every_purse(wheel, wheel.choices))
    order = {stake: i for i, stake in enumerate(wheel.stakes(wheel.target - 1))}
    stakes = {
        gold: tuple(
            sorted((a for a in nodes[gold].ties if isinstance(a, Stake)), key=order.__getitem__)
        )
        for gold in sorted(nodes)
    }  # walking away (worth 0 < V(g)) never ties
    return WheelSolution(wheel, {gold: nodes[gold].score for gold in sorted(nodes)}, stakes)


def policy_values(wheel: Wheel, policy: Policy) -> dict[int, Fraction]:
    """The exact chance of reaching the target from every amount ``1 .. T-1`` when the hero
    follows ``policy`` (gold -> a :class:`Stake` or :data:`WALK_AWAY`): the gamebook solver
    with one choice per state, i.e. one exact linear solve.

    >>> wheel = Wheel(target=3)
    >>> policy_values(wheel, bold_play(wheel))  # 1 gold stakes 1, 2 gold stake 1 too
    {1: Fraction(1, 10), 2: Fraction(19, 100)}
    """

    def chosen(gold: int) -> list[tuple[Action, Dist[Any]]]:
        action = policy(gold)
        return [(action, wheel.outcomes(gold, action))]

    nodes = _playing(_every_purse(wheel, chosen))
    return {gold: nodes[gold].score for gold in sorted(nodes)}


def bold_play(wheel: Wheel, bet: Bet | None = None) -> Policy:
    """Stake what one win needs, :math:`\\lceil (T - g)/m \\rceil`, capped by the purse and
    the table: :math:`\\min(g, S, \\lceil (T - g)/m \\rceil)`, on ``bet`` (the first listed
    bet by default).

    >>> [bold_play(Wheel(target=20))(g).amount for g in (1, 11, 12, 19)]
    [1, 2, 1, 1]
    """
    chosen = wheel.bets[0] if bet is None else bet

    def stake(gold: int) -> Stake:
        needed = -(-(wheel.target - gold) // chosen.pays)
        return Stake(min(wheel.largest_stake(gold), needed), chosen)

    return stake


def timid_play(wheel: Wheel, bet: Bet | None = None) -> Policy:
    """Stake 1 gold on ``bet`` (the first listed bet by default) at every spin.

    >>> timid_play(Wheel(target=20))(7)
    Stake(amount=1, bet=Bet(covers=1, pays=8))
    """
    chosen = wheel.bets[0] if bet is None else bet
    return lambda gold: Stake(1, chosen)


@dataclass(frozen=True, eq=False)
class WheelSample(Runs):
    """Simulated sittings: the purse at the end of each (at least ``target``: won; 0:
    broke or walked away; between: still at the table after the spins drawn); the
    :attr:`result` is reaching the target."""

    purse: np.ndarray
    target: int

    @property
    def result(self) -> np.ndarray:
        """Whether each sitting reached the target."""
        return self.purse >= self.target

    @property
    def wins(self) -> int:
        """Sittings that reached the target."""
        return self.successes

    @property
    def losses(self) -> int:
        """Sittings that went broke or walked away."""
        return int(np.count_nonzero(self.purse <= 0))

    @property
    def unfinished(self) -> int:
        """Sittings still at the table after the spins drawn."""
        return self.n - self.wins - self.losses


def simulate_wheel(
    wheel: Wheel,
    gold: int,
    policy: Mapping[int, Action],
    runs: int,
    source: RandomSource,
    spins: int = 1000,
) -> WheelSample:
    """Play ``runs`` sittings from ``gold`` under ``policy`` (a table gold -> action for
    every amount ``1 .. T-1``), straight from the rules in integer arithmetic.

    Each run draws ``spins`` slots with ``source.integers(numbers, ...)``, in row-major
    (run, spin) order as a C loop over runs would, whether or not the run has ended, so a
    run's position in the stream does not depend on the runs before it. A stake on a bet
    covering :math:`k` slots wins when the slot drawn is below :math:`k` (slots
    ``0 .. k-1`` are the covered ones). A run still playing after ``spins`` spins counts as
    unfinished.

    >>> from exactprob.engine import NumpyRandom
    >>> wheel = Wheel(target=3, numbers=2, bets=(Bet(1, 1),))
    >>> sample = simulate_wheel(wheel, 2, {1: WALK_AWAY, 2: Stake(1, Bet(1, 1))}, 8, NumpyRandom(1))
    >>> sample.wins + sample.losses + sample.unfinished, sample.unfinished
    (8, 0)
    """
    wheel.check_gold(gold)
    whole_number("runs", runs, 1)
    whole_number("spins", spins, 1)
    table = np.zeros((4, wheel.target), dtype=np.int64)  # covers, pays, amount, walks
    for amount in range(1, wheel.target):
        action = policy[amount]
        wheel.outcomes(amount, action)  # refuses an action the rules do not allow
        if isinstance(action, Stake):
            table[:, amount] = (action.bet.covers, action.bet.pays, action.amount, 0)
        else:
            table[3, amount] = 1
    covers, pays, stake, walks = table
    purses = []
    block = max(1, SIMULATION_BLOCK // spins)
    for start in range(0, runs, block):
        n = min(block, runs - start)
        slots = source.integers(wheel.numbers, n * spins).reshape(n, spins)
        purse = np.full(n, gold, dtype=np.int64)
        for spin in range(spins):
            playing = np.flatnonzero((purse > 0) & (purse < wheel.target))
            if playing.size == 0:
                break
            g = purse[playing]
            hit = slots[playing, spin] < covers[g]
            after = np.where(hit, g + pays[g] * stake[g], g - stake[g])
            purse[playing] = np.where(walks[g] == 1, 0, after)
        purses.append(purse)
    return WheelSample(np.concatenate(purses), wheel.target)
