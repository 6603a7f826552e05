r"""The fast path: every state of a fight, solved by one backward sweep in exact rationals.

A state is (hero stamina :math:`h`, opponent stamina :math:`o`, luck :math:`l`, and under
the *Crypt* rule a flag :math:`f` = "the opponent won the last round"). After a round the
hero, knowing its outcome, tests luck or not (testing needs :math:`l \ge 1`; it succeeds
with :math:`t_l = P(2d6 \le l)`). With :math:`w, d, \ell` the chances of winning, drawing
and losing a round and :math:`g` the lucky hit (4, or 3 in the ``amplify3`` variant):

.. math::

    W(h, o, l) &= \max\bigl(V(h, o - 2, l),\ t_l V(h, o - g, l - 1) + (1 - t_l) V(h, o - 1, l - 1)\bigr), \\
    L(h, o, l) &= \max\bigl(V(h - 2, o, l),\ t_l V(h - 1, o, l - 1) + (1 - t_l) V(h - 3, o, l - 1)\bigr), \\
    V(h, o, l) &= \frac{w\,W(h, o, l) + \ell\,L(h, o, l)}{w + \ell},

with :math:`V = 0` once :math:`h \le 0` and :math:`V` = the objective's score (1 for a
plain win) once :math:`o \le 0`. Draws change nothing, so they are do-overs: the
division by :math:`w + \ell` (paper Eq. 20-24). Under *Crypt*, the lost round's successors
carry the flag, a round lost with the flag set kills the hero, and a draw clears it:
:math:`V(h, o, l, 1) = w\,W + d\,V(h, o, l, 0)`.

Every right-hand side has smaller :math:`h`, :math:`o` or :math:`l`, so one sweep in
increasing :math:`l, h, o` solves the whole grid, in ``gmpy2.mpq``. The maximum is taken
exactly; equal options are a *tie*, reported, and resolved to "no luck" (which keeps luck).
The generic engine gives the same values on every state (``tests/test_fighting_fantasy.py``).

>>> grid = solve_grid(Fight(0, 4, 4, 7))
>>> grid.value(4, 4, 0), grid.value(4, 4, 7)
(Fraction(1, 2), Fraction(9185, 13824))
>>> grid.strategy(4, 4, 7), STRATEGY_CODES[3]
(3, 'only after a won round')
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
from gmpy2 import mpq

from ...engine import paused_garbage_collection
from ...errors import ModelError
from ...util.display import exact_html, rows_html
from ...util.limits import DEFAULT_MAX_STATES, refuse_more_than
from ...util.numbers import to_fraction
from ...util.progress import Progress, progress_bar
from ...util.resources import check_memory
from .rules import luck_probability, round_counts
from .terms import Fight, LuckPolicy

__all__ = [
    "STRATEGY_CODES",
    "FightGrid",
    "GridRecord",
    "grid_bytes",
    "solve_grid",
    "value_bits",
]

#: The paper's strategy codes: when the hero tests luck in a state.
STRATEGY_CODES = {
    0: "never",
    1: "whatever the outcome",
    2: "only after a lost round",
    3: "only after a won round",
}

#: The strategy code of (tests luck after a won round, after a lost round).
_CODE_OF = {(True, True): 1, (False, True): 2, (True, False): 3, (False, False): 0}

_HERO_OFFSET = 2  # stamina -2..H is stored at index 0..H+2 (a lucky-less defence costs 3)
_OPPONENT_OFFSET = 3  # stamina -3..O at index 0..O+3 (a lucky hit deals up to 4)


class GridRecord(NamedTuple):
    """One state of a grid as :meth:`FightGrid.records` exports it: the exact value, the
    strategy code, and (no luck, luck or ``None``) after a won and after a lost round."""

    hero: int
    opponent: int
    luck: int
    value: mpq
    strategy: int
    after_won: tuple[mpq, mpq | None]
    after_lost: tuple[mpq, mpq | None]


def _mpq(value: Fraction) -> mpq:
    return mpq(value.numerator, value.denominator)


class FightGrid:
    """The exact value and luck decisions of every state of a :class:`~exactprob.games.fighting_fantasy.terms.Fight` up to
    its start (hero stamina ``1..hero_stamina``, opponent stamina ``1..opponent_stamina``,
    luck ``0..luck``; its ``bounds``), under optimal play or a fixed ``policy``."""

    def __init__(self, fight: Fight, policy: LuckPolicy | None, progress: bool = False) -> None:
        self.fight = fight
        self.bounds = (fight.hero_stamina, fight.opponent_stamina, fight.luck)
        self.policy = policy
        self.flags = (False, True) if fight.rule.two_in_a_row_kills else (False,)
        # per flag, per luck: rows by hero index, columns by opponent index
        self._values: dict[bool, list[list[list[mpq]]]] = {f: [] for f in self.flags}
        # options after a won / lost round: (no luck, luck or None); keyed (won, flag)
        self._options: dict[tuple[bool, bool], list[list[list[tuple[mpq, mpq | None]]]]] = {}
        self._uses: dict[tuple[bool, bool], np.ndarray] = {}
        rows = (fight.luck + 1) * fight.hero_stamina
        # every number made stays alive in the tables: no garbage collection meanwhile
        with (
            progress_bar(progress, "solving", total=rows, unit=" rows") as bar,
            paused_garbage_collection(),
        ):
            self._sweep(bar)

    # -- the sweep ------------------------------------------------------------------------
    def _terminal_layer(self, luck: int) -> list[list[mpq]]:
        H, O, _ = self.bounds
        zero = mpq(0)
        rows = [[zero] * (O + _OPPONENT_OFFSET + 1) for _ in range(H + _HERO_OFFSET + 1)]
        for h in range(1, H + 1):
            score = _mpq(self.fight.objective.score(h, luck))
            for o in range(_OPPONENT_OFFSET + 1):
                rows[h + _HERO_OFFSET][o] = score
        return rows

    def _sweep(self, bar: Progress) -> None:
        H, O, L = self.bounds
        win, draw, lose = (mpq(n) for n in round_counts(self.fight.delta))
        total = win + draw + lose
        p_win, p_lose = win / (win + lose), lose / (win + lose)  # draws are do-overs
        hit = self.fight.rule.lucky_hit
        crypt = self.fight.rule.two_in_a_row_kills
        policy = self.policy
        keys = ((True, False), (False, False), (True, True))
        uses: dict[tuple[bool, bool], list[list[list[bool]]]] = {key: [] for key in keys}
        for key in keys:
            self._options[key] = []
        for luck in range(L + 1):
            t = _mpq(luck_probability(luck))
            layers = {f: self._terminal_layer(luck) for f in self.flags}
            for f in self.flags:
                self._values[f].append(layers[f])
            base, after_loss = layers[False], layers[crypt]
            prev = self._values[False][luck - 1] if luck else None
            prev_loss = self._values[crypt][luck - 1] if luck else None
            options: dict[tuple[bool, bool], list[list[Any]]] = {
                key: [[None] * (O + 1) for _ in range(H + 1)] for key in keys
            }
            layer_uses = {key: [[False] * (O + 1) for _ in range(H + 1)] for key in keys}
            for h in range(1, H + 1):
                hi = h + _HERO_OFFSET
                bar.update(1)
                won_options, lost_options = options[(True, False)][h], options[(False, False)][h]
                streak_options = options[(True, True)][h]
                won_uses, lost_uses = layer_uses[(True, False)][h], layer_uses[(False, False)][h]
                streak_uses = layer_uses[(True, True)][h]
                for o in range(1, O + 1):
                    oi = o + _OPPONENT_OFFSET
                    won_no, lost_no = base[hi][oi - 2], after_loss[hi - 2][oi]
                    won_yes = lost_yes = None
                    use_won = use_lost = use_streak = False
                    if prev is not None and prev_loss is not None:
                        won_yes = prev[hi][oi - 1] + t * (prev[hi][oi - hit] - prev[hi][oi - 1])
                        lost_yes = prev_loss[hi - 3][oi] + t * (
                            prev_loss[hi - 1][oi] - prev_loss[hi - 3][oi]
                        )
                        if policy is None:  # exact comparisons; a tie keeps luck
                            use_won = use_streak = won_yes > won_no
                            use_lost = lost_yes > lost_no
                        else:
                            use_won = bool(policy(True, h, o, luck, False))
                            use_lost = bool(policy(False, h, o, luck, False))
                            use_streak = crypt and bool(policy(True, h, o, luck, True))
                    won_options[o] = streak_options[o] = (won_no, won_yes)
                    lost_options[o] = (lost_no, lost_yes)
                    won_uses[o], lost_uses[o], streak_uses[o] = use_won, use_lost, use_streak
                    won = won_yes if use_won else won_no
                    lost = lost_yes if use_lost else lost_no
                    base[hi][oi] = p_win * won + p_lose * lost
                    if crypt:
                        won_streak = won_yes if use_streak else won_no
                        layers[True][hi][oi] = (win * won_streak + draw * base[hi][oi]) / total
            for key in keys:
                self._options[key].append(options[key])
                uses[key].append(layer_uses[key])
        self._uses = {key: np.array(layers, dtype=bool) for key, layers in uses.items()}

    def _repr_html_(self) -> str:
        """Jupyter's view: the grid's size and, at its largest state, the exact value and
        when the hero tests luck."""
        H, O, L = self.bounds
        rows = [
            ("skill difference", str(self.fight.delta)),
            ("rule", html.escape(self.fight.rule.name)),
            ("states", f"hero 1..{H} × opponent 1..{O} × luck 0..{L}"),
            (f"value at ({H}, {O}, {L})", exact_html(self.value(H, O, L))),
            (f"luck at ({H}, {O}, {L})", STRATEGY_CODES[self.strategy(H, O, L)]),
        ]
        return rows_html("FightGrid", rows)

    # -- queries --------------------------------------------------------------------------
    def _check(self, hero: int, opponent: int, luck: int, streak: bool) -> None:
        H, O, L = self.bounds
        for name, value, high in (("hero", hero, H), ("opponent", opponent, O), ("luck", luck, L)):
            if not (isinstance(value, int) and (1 if name != "luck" else 0) <= value <= high):
                low = 0 if name == "luck" else 1
                raise ModelError(
                    f"{name} must be an integer in {low}..{high} for this grid, got {value!r}"
                )
        if streak and not self.fight.rule.two_in_a_row_kills:
            raise ModelError("streak=True exists only under the crypt rule")

    def value(self, hero: int, opponent: int, luck: int, streak: bool = False) -> Fraction:
        """The exact value of a state (the start of a round)."""
        self._check(hero, opponent, luck, streak)
        return to_fraction(
            self._values[streak][luck][hero + _HERO_OFFSET][opponent + _OPPONENT_OFFSET]
        )

    def options(
        self, won: bool, hero: int, opponent: int, luck: int, streak: bool = False
    ) -> tuple[Fraction, Fraction | None]:
        """The values of (no luck, luck) after a won or lost round; luck is ``None``
        without luck to test. After a lost round with the *Crypt* flag set there is no
        decision: the hero is dead."""
        self._check(hero, opponent, luck, streak)
        if not won and streak:
            raise ModelError("a round lost with the streak flag set kills the hero: no decision")
        no, yes = self._options[(won, streak)][luck][hero][opponent]
        return to_fraction(no), None if yes is None else to_fraction(yes)

    def uses_luck(
        self, won: bool, hero: int, opponent: int, luck: int, streak: bool = False
    ) -> bool:
        """Does the grid's policy test luck after this round?"""
        self._check(hero, opponent, luck, streak)
        return bool(self._uses[(won, streak)][luck, hero, opponent])

    def is_tie(self, won: bool, hero: int, opponent: int, luck: int, streak: bool = False) -> bool:
        """Are testing luck and not testing it exactly equally good here?"""
        no, yes = self.options(won, hero, opponent, luck, streak)
        return yes == no

    def strategy(self, hero: int, opponent: int, luck: int) -> int:
        """The paper's code (see :data:`STRATEGY_CODES`) of the state, flag clear."""
        won = self.uses_luck(True, hero, opponent, luck)
        lost = self.uses_luck(False, hero, opponent, luck)
        return _CODE_OF[won, lost]

    def states(self) -> Iterator[tuple[int, int, int]]:
        """Every (hero, opponent, luck) of the grid."""
        H, O, L = self.bounds
        for luck in range(L + 1):
            for h in range(1, H + 1):
                for o in range(1, O + 1):
                    yield h, o, luck

    def records(self) -> Iterator[GridRecord]:
        """Every state of :meth:`states` (flag clear), in that order, with its exact value,
        strategy code and both decisions' options, read straight from the sweep's tables
        (``mpq``, no per-state checks): the bulk export of the atlas.

        >>> first = next(solve_grid(Fight(0, 2, 2, 0)).records())
        >>> first.value, first.strategy, first.after_won
        (mpq(1,2), 0, (mpq(1,1), None))
        """
        H, O, L = self.bounds
        values = self._values[False]
        won_options, lost_options = self._options[(True, False)], self._options[(False, False)]
        won_uses = self._uses[(True, False)].tolist()
        lost_uses = self._uses[(False, False)].tolist()
        for luck in range(L + 1):
            for h in range(1, H + 1):
                row = values[luck][h + _HERO_OFFSET]
                for o in range(1, O + 1):
                    code = _CODE_OF[won_uses[luck][h][o], lost_uses[luck][h][o]]
                    yield GridRecord(
                        h,
                        o,
                        luck,
                        row[o + _OPPONENT_OFFSET],
                        code,
                        won_options[luck][h][o],
                        lost_options[luck][h][o],
                    )

    def policy_function(self) -> LuckPolicy:
        """The grid's decisions as a vectorised :data:`~.terms.LuckPolicy` (numpy lookups)."""
        uses = self._uses
        crypt = self.fight.rule.two_in_a_row_kills

        def policy(won: Any, hero: Any, opponent: Any, luck: Any, streak: Any) -> Any:
            after_win = uses[(True, True)] if crypt else uses[(True, False)]
            won_choice = np.where(
                streak, after_win[luck, hero, opponent], uses[(True, False)][luck, hero, opponent]
            )
            return np.where(won, won_choice, uses[(False, False)][luck, hero, opponent])

        return policy


#: Bits that one decisive round and one luck test add, at most, to a value's numerator
#: and denominator together: a round's chances have denominator :math:`w + \ell \le 1296`
#: (about 10.3 bits), a luck test's 36 (5.2 bits).
_BITS_PER_ROUND, _BITS_PER_TEST = 10.3, 5.2
#: Bytes per state besides the digits: the value and four options as mpq objects in lists.
_STATE_BYTES = 600


def value_bits(hero_stamina: int, opponent_stamina: int, luck: int) -> float:
    r"""The bits a value of the grid up to ``(hero_stamina, opponent_stamina, luck)`` takes
    in its numerator and denominator together, averaged over the grid, at most:
    :math:`10.3\,(H + O)/2 + 5.2\,L/2` (a value's digits grow with the rounds and luck
    tests that can come before the fight ends, at most :math:`h + o` and :math:`l`).

    >>> round(value_bits(24, 24, 12), 1)
    278.4
    """
    return _BITS_PER_ROUND * (hero_stamina + opponent_stamina) / 2 + _BITS_PER_TEST * luck / 2


def grid_bytes(fight: Fight) -> int:
    r"""An estimate of the memory of ``fight``'s grid, checked before it is solved: each
    of its states (:attr:`~exactprob.games.fighting_fantasy.terms.Fight.states`) keeps its
    value and four options, exact rationals of :func:`value_bits` bits each; a long fight
    (500,000 stamina) needs terabytes, and was refused here rather than left to GMP to
    abort the process.

    >>> grid_bytes(Fight(0, 500_000, 2, 0)) > 10**12
    True
    """
    bits = value_bits(fight.hero_stamina, fight.opponent_stamina, fight.luck)
    return int(fight.states * (_STATE_BYTES + 5 * bits / 8))


def solve_grid(
    fight: Fight,
    *,
    policy: LuckPolicy | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> FightGrid:
    """Solve every state of ``fight`` up to its start (see the module docstring);
    ``policy=None`` is optimal play. The size is checked before anything is allocated;
    ``progress`` shows a bar on stderr.

    >>> solve_grid(Fight(0, 1, 1, 0)).value(1, 1, 0)
    Fraction(1, 2)
    """
    if not isinstance(fight, Fight):
        raise ModelError(f"solve_grid takes a Fight, got {type(fight).__name__}")
    counted = "hero stamina x opponent stamina x (luck + 1)" + (
        " x 2" if fight.rule.two_in_a_row_kills else ""
    )
    refuse_more_than(max_states, fight.states, f"the fight ({counted})")
    check_memory(grid_bytes(fight), "the fight's grid")
    return FightGrid(fight, policy, progress)
