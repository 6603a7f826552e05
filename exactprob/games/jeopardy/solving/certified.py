r"""Certified enclosures of Fowl Play values by interval value iteration in numpy.

When exact rationals grow too large (Fowl Play to 50 has ten million states), the values
are enclosed instead: every turn-start value gets an interval :math:`[\ell, h]` that is
guaranteed to contain the exact value.

Components with the same score sum :math:`a + b = T` are independent (holding raises the
sum), so all of them are iterated together, from the highest sum down. Within a sum the
reset values :math:`X` start in :math:`[0, 1]`, which contains the exact values. One sweep
over the decks maps an enclosure of :math:`X` to a new one:

.. math::

    P_\ell(a, b, k, d) = \max\Bigl(\sum p_\ell\,v_\ell - \epsilon,\;
                                 1 - S_h(b, a + k, d) - \epsilon\Bigr),

where a value :math:`v` reached by a chicken is a lower bound :math:`P_\ell` and one reached
by a wolf is :math:`1 - P_h` of the other side (and the upper bound swaps the roles).
Every value is a monotone function of the values it uses, so the exact values stay
inside the intervals at every sweep; :math:`\epsilon` covers float rounding (each of the
few operations per state errs by at most :math:`2^{-53}` on numbers in :math:`[0, 1]`,
and the probabilities are rounded outward with ``nextafter``). Sweeps stop when the
intervals no longer shrink over two sweeps.

>>> from exactprob.games.jeopardy.rules import FowlPlay
>>> from exactprob.games.jeopardy.solving.solver import solve_race
>>> game = FowlPlay(chickens=4, wolves=2, goal=5)
>>> box = enclose_race(game).first_player_win()
>>> box.contains(solve_race(game).first_player_win()), box.width() < 1e-12
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....engine import Enclosure
from ....util.progress import progress_bar
from ....util.resources import check_memory
from ....util.rounding import UNIT_ROUNDOFF
from ..fairness import SolvedRace
from ..policies import PolicyTable, check_table, table_shape
from ..rules import FowlPlay

__all__ = [
    "MAX_CERTIFIED_STATES",
    "CertifiedMatchup",
    "CertifiedRace",
    "enclose_best_response",
    "enclose_matchup",
    "enclose_race",
    "working_bytes",
]

#: The most non-terminal states the commands solve certified by default (the full Fowl Play
#: has 10,487,700; :func:`enclose` itself takes any size the memory check allows).
MAX_CERTIFIED_STATES = 50_000_000
SLACK = 16 * UNIT_ROUNDOFF  # rounding allowance per state value (a few operations on [0, 1])
MAX_SWEEPS = 10_000


class CertifiedMatchup(SolvedRace[Enclosure]):
    """Enclosures of the first player's chance at every turn start ``(a, b, (w, c))`` where
    the first player moves, with ``a`` banked against ``b``, for two given players.

    ``low[a, b, w, c]`` and ``high[a, b, w, c]`` are numpy arrays of bounds.
    """

    def __init__(self, game: FowlPlay, low: np.ndarray, high: np.ndarray, sweeps: int) -> None:
        self.game, self.low, self.high, self.sweeps = game, low, high, sweeps

    def start_value(self, a: int, b: int, deck: tuple[int, int] = (0, 0)) -> Enclosure:
        w, c = deck
        return Enclosure(float(self.low[a, b, w, c]), float(self.high[a, b, w, c]))

    def unsettled_starts(self) -> list[tuple[int, int]]:
        """The scores ``(a, b)`` where some turn start of the first player, at any deck,
        is enclosed in all of :math:`[0, 1]`. A match-up that never ends shows there:
        where play can only pass the turn, the sweep never moves the bounds of the turn
        starts it passes through (the deck carries over, so a loop of busts may meet the
        first player at other decks than the fresh one). The converse need not hold, so
        such scores are a place to look, not a verdict."""
        stuck = ((self.low <= 0) & (self.high >= 1)).any(axis=(2, 3))
        return [(int(a), int(b)) for a, b in zip(*np.nonzero(stuck))]

    play = "two fixed players"


class CertifiedRace(CertifiedMatchup):
    """Enclosures of every turn-start value ``P(a, b, 0, (w, c))`` of a Fowl Play game under
    optimal play: the match-up of the optimal player against itself, where the first
    player's turn starts are every mover's."""

    play = "optimal play"

    def policy_table(self) -> PolicyTable:
        r"""Where the optimal mover holds, as a table ``holds[a, b, k, w, c]``, with the
        choices the enclosures cannot decide in ``undecided``.

        One backward pass over the decks encloses every state's draw and hold values
        from the turn-start enclosures, rounded outward (a maximum of enclosures encloses
        the maximum). A choice is certified when its interval lies strictly above the
        other's; otherwise it is undecided (an exact tie is always undecided) and the
        table holds where the midpoints say hold is at least as good.
        """
        return _policy_table(self.game, self.low, self.high)

    def state_bounds(self) -> tuple[PolicyTable, np.ndarray, np.ndarray]:
        """The policy table and the bounds of the mover's chance in every state, arrays
        ``low[a, b, k, w, c]`` and ``high[a, b, k, w, c]`` shaped like the table: the pass
        of :meth:`policy_table`, keeping each state's enclosure, the larger of its draw
        and hold enclosures (a state the mover has won is 1)."""
        low, high = np.empty(table_shape(self.game)), np.empty(table_shape(self.game))
        table = _policy_table(self.game, self.low, self.high, (low, high))
        return table, low, high


def _policy_table(
    game: FowlPlay,
    next_low: np.ndarray,
    next_high: np.ndarray,
    values: tuple[np.ndarray, np.ndarray] | None = None,
) -> PolicyTable:
    """The mover's choices (see :meth:`CertifiedRace.policy_table`) from the bounds
    ``[a, b, w, c]`` of the turn starts that follow the mover's turn: its own in self-play,
    the fixed opponent's for a best response; each state's bounds go into ``values`` when
    given (:meth:`CertifiedRace.state_bounds`)."""
    holds = np.zeros(table_shape(game), dtype=bool)
    undecided = np.zeros_like(holds)
    goal, totals = game.goal, holds.shape[2]
    a, b, k = np.ogrid[:goal, :goal, :totals]
    banked = (a + k).clip(max=goal - 1)
    wins = a + k >= goal
    chicken_low, chicken_high, wolf_low, wolf_high = _probabilities(game)
    won = np.ones((goal, goal, 1))
    above = (won, won)  # the values at deck (w, c + 1); none at c = chickens
    for w in range(game.wolves - 1, -1, -1):
        for c in range(game.chickens, -1, -1):
            after = (w + 1, c) if w + 1 < game.wolves else (0, 0)  # the last wolf reshuffles
            draw_low = wolf_low[w, c] * (1 - next_high[:, :, *after].T[..., None])
            draw_high = wolf_high[w, c] * (1 - next_low[:, :, *after].T[..., None])
            if c < game.chickens:
                draw_low = draw_low + chicken_low[w, c] * above[0][:, :, 1:]
                draw_high = draw_high + chicken_high[w, c] * above[1][:, :, 1:]
            draw_low, draw_high = draw_low - SLACK, draw_high + SLACK
            hold_low = 1 - next_high[b, banked, w, c] - SLACK
            hold_high = 1 - next_low[b, banked, w, c] + SLACK
            choice = (k >= 1) & (k <= c) & ~wins
            certain = (hold_low > draw_high) | (draw_low > hold_high)
            hold_better = hold_low + hold_high >= draw_low + draw_high
            holds[..., w, c] = wins | (choice & hold_better)
            undecided[..., w, c] = choice & ~certain
            value_low = np.where(k >= 1, np.maximum(draw_low, hold_low), draw_low)
            value_high = np.where(k >= 1, np.maximum(draw_high, hold_high), draw_high)
            state_low = np.where(wins, 1.0, value_low.clip(0, 1))
            state_high = np.where(wins, 1.0, value_high.clip(0, 1))
            if values is not None:
                values[0][..., w, c], values[1][..., w, c] = state_low, state_high
            # one more turn total than the table, always won
            above = (np.concatenate([state_low, won], 2), np.concatenate([state_high, won], 2))
    return PolicyTable(holds, undecided)


def _probabilities(game: FowlPlay) -> tuple[np.ndarray, ...]:
    """Chicken and wolf probabilities by ``(w, c)``, rounded down and up."""
    w = np.arange(game.wolves)[:, None]
    c = np.arange(game.chickens + 1)[None, :]
    chickens, wolves = game.chickens - c, game.wolves - w
    left = (chickens + wolves).astype(float)
    chicken, wolf = chickens / left, wolves / left
    return (
        np.nextafter(chicken, -np.inf).clip(0),
        np.nextafter(chicken, np.inf),
        np.nextafter(wolf, -np.inf).clip(0),
        np.nextafter(wolf, np.inf),
    )


def enclose_race(game: FowlPlay, progress: bool = False) -> CertifiedRace:
    """Enclose every turn-start value of ``game`` under optimal play."""
    low, high, sweeps = _enclose(game, None, f"{game.name} to {game.goal}, certified", progress)
    return CertifiedRace(game, low[0], high[0], sweeps)


def enclose_matchup(
    game: FowlPlay, first: PolicyTable, second: PolicyTable, progress: bool = False
) -> CertifiedMatchup:
    """Enclose the first player's chance to win when ``first`` plays ``second``, at every
    turn start where ``first`` moves.

    With both choices fixed, each state's value is the chosen one of draw and hold, still
    monotone in the values it uses, so the enclosure argument above holds unchanged.
    """
    desc = f"{game.name} to {game.goal}, two players, certified"
    low, high, sweeps = _enclose(
        game, (check_table(game, first), check_table(game, second)), desc, progress
    )
    return CertifiedMatchup(game, low[0], high[0], sweeps)


def enclose_best_response(
    game: FowlPlay, opponent: PolicyTable, progress: bool = False
) -> PolicyTable:
    """The best response to ``opponent`` as a policy table: the interval sweep with the
    responder's choice the better of draw and hold (a maximum of enclosures encloses the
    maximum, so the argument above holds) and the opponent's fixed, then the responder's
    choices read from the bounds of the opponent's turn starts that follow its turns;
    those the enclosures cannot separate are ``undecided``."""
    desc = f"{game.name} to {game.goal}, best response, certified"
    low, high, _ = _enclose(game, (None, check_table(game, opponent)), desc, progress)
    return _policy_table(game, low[1], high[1])


def _enclose(
    game: FowlPlay, players: tuple[PolicyTable | None, ...] | None, desc: str, progress: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Bounds ``[player, a, b, w, c]`` of every turn start where ``player`` moves: one
    player against itself under optimal play (``players`` is None), else the two tables,
    each facing the other."""
    goal, wolves, chickens = game.goal, game.wolves, game.chickens
    shape = (1 if players is None else len(players), goal, goal, wolves, chickens + 1)
    check_memory(working_bytes(game, shape[0]), f"enclosing {game.name} to {goal}")
    low, high = np.zeros(shape), np.ones(shape)
    probabilities = _probabilities(game)
    with progress_bar(progress, desc, total=2 * goal - 1) as bar:
        sweeps = 0
        for total in range(2 * goal - 2, -1, -1):
            sweeps += _enclose_sum(game, total, low, high, probabilities, players)
            bar.update()
    return low, high, sweeps


def _enclose_sum(
    game: FowlPlay,
    total: int,
    low: np.ndarray,
    high: np.ndarray,
    probabilities: tuple[np.ndarray, ...],
    players: tuple[PolicyTable | None, ...] | None,
) -> int:
    """Iterate the components with score sum ``total`` until their bounds stop shrinking;
    writes their turn-start bounds into ``low``/``high``. Returns the number of sweeps.

    A *side* is a player to move with scores ``(a, b)``; a bust hands the turn to the
    side of the opponent (the player itself in self-play) with the scores swapped."""
    goal, chickens = game.goal, game.chickens
    movers = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
    n, count = len(movers), low.shape[0]
    player = np.repeat(np.arange(count), n)
    opponent = count - 1 - player
    mover, other = np.tile(movers, count), np.tile(total - movers, count)
    swap = opponent * n + np.tile(np.arange(n)[::-1], count)  # the side of (b, a)
    k = np.arange(chickens + 2)
    banked = mover[:, None] + k[None, :]
    wins = banked >= goal  # a mover at the goal holds and wins
    target = (opponent[:, None], other[:, None], banked.clip(max=goal - 1))
    held = wins[:, :, None, None]
    hold = np.empty((2, *held.shape[:2], *low.shape[3:]))  # [end, side, k, w, c]
    hold[0] = np.where(held, 1.0, 1 - high[target] - SLACK)
    hold[1] = np.where(held, 1.0, 1 - low[target] + SLACK)
    hold[:, :, 0] = -np.inf  # a turn total of 0 must draw
    choose = _best if players is None else _following(players, player, mover, other, k.size)
    reset = [np.zeros(len(swap)), np.ones(len(swap))]
    widths = [np.inf, np.inf]  # the widest reset interval, two sweeps ago and one
    for sweep in range(1, MAX_SWEEPS + 1):
        bounds = _sweep(game, reset, hold, wins, swap, probabilities, choose)
        new_reset = [bounds[0][0, 0, :, 0], bounds[1][0, 0, :, 0]]
        new_reset = [np.maximum(reset[0], new_reset[0]), np.minimum(reset[1], new_reset[1])]
        new_width = float(np.max(new_reset[1] - new_reset[0]))
        reset = new_reset
        # Two sweeps, not one: when every bust reshuffles (one wolf), each side's reset
        # reads only the other's, and a side that cannot win alone shrinks every other sweep.
        if new_width >= widths[0] * 0.999 or new_width == 0:
            break
        widths = [widths[1], new_width]
    lo, hi = bounds
    low[player, mover, other] = lo[..., 0].transpose(2, 0, 1)
    high[player, mover, other] = hi[..., 0].transpose(2, 0, 1)
    return sweep


Choose = Callable[[int, int, np.ndarray, np.ndarray], np.ndarray]
"""``choose(w, c, draw, hold)``: the value of each state ``[end, side, k]`` at deck
``(w, c)`` (end 0 the low bound, 1 the high)."""


def _best(w: int, c: int, draw: np.ndarray, hold: np.ndarray) -> np.ndarray:
    return np.maximum(draw, hold)


def _following(
    players: tuple[PolicyTable | None, ...],
    player: np.ndarray,
    mover: np.ndarray,
    other: np.ndarray,
    totals: int,
) -> Choose:
    """A ``choose`` that takes hold where the side's player holds: ``holds[side, k, w, c]``
    read from the tables (turn totals past a table's end can only win or not occur; a
    turn total of 0 draws whatever a table says), and the better of the two for the sides
    of a player given as ``None`` (a best response)."""
    fixed = next(table for table in players if table is not None)
    holds = np.ones((len(player), totals, *fixed.holds.shape[3:]), dtype=bool)
    best = np.zeros(len(player), dtype=bool)
    for index, table in enumerate(players):
        mine = player == index
        if table is None:
            best |= mine
            continue
        rows = table.holds[mover, other]  # [side, k, w, c]
        holds[mine, : rows.shape[1]] = rows[mine]
    holds[:, 0] = False  # a turn total of 0 draws

    def choose(w: int, c: int, draw: np.ndarray, hold: np.ndarray) -> np.ndarray:
        following = np.where(holds[:, : draw.shape[-1], w, c], hold, draw)
        return np.where(best[:, None], np.maximum(draw, hold), following)

    return choose


def _sweep(
    game: FowlPlay,
    reset: list[np.ndarray],
    hold: np.ndarray,
    wins: np.ndarray,
    swap: np.ndarray,
    probabilities: tuple[np.ndarray, ...],
    choose: Choose,
) -> tuple[np.ndarray, np.ndarray]:
    r"""One pass over the decks, from the last to the first: bounds ``[w, c, side, k]``
    from the values of holding, ``hold[end, side, k, w, c]``.

    Both ends move together, as one array ``[w, c, end, side, k]`` (end 0 the low bound,
    1 the high): a deck's cell is a handful of numpy calls on small arrays, so halving
    the calls halves the sweep of a deep deck (10,000 wolves: 20,000 cells a sweep). A
    bust hands the other side its turn, so each end reads the other end of the next deck:
    :math:`1 - \text{high}` bounds the low end, :math:`1 - \text{low}` the high one."""
    wolves, chickens = game.wolves, game.chickens
    sides, width = len(swap), chickens + 1
    chicken_low, chicken_high, wolf_low, wolf_high = probabilities
    chicken = np.stack([chicken_low, chicken_high], axis=-1)  # [w, c, end]
    wolf = np.stack([wolf_low, wolf_high], axis=-1)
    slack = np.array([-SLACK, SLACK])[:, None, None]
    # the last wolf reshuffles: the other side's reset, whatever the chickens drawn
    reshuffle = 1 - np.stack([reset[1][swap], reset[0][swap]])  # [end, side]
    busts = np.broadcast_to(reshuffle, (chickens + 1, 2, sides))  # [c, end, side]
    ends = np.zeros((wolves, chickens + 1, 2, sides, chickens + 2))
    ends[..., width] = 1.0  # a turn total past the last chicken: the mover has won
    won = wins[:, :width]
    draw = np.empty((2, sides, width))
    for w in range(wolves - 1, -1, -1):
        if w + 1 < wolves:  # after a wolf the other side's turn starts at (w + 1, c)
            busts = 1 - ends[w + 1, :, ::-1, :, 0][:, :, swap]
        for c in range(chickens, -1, -1):
            np.multiply(wolf[w, c][:, None, None], busts[c][:, :, None], out=draw)
            if c < chickens:
                draw += chicken[w, c][:, None, None] * ends[w, c + 1, :, :, 1:]
            cell = choose(w, c, draw + slack, hold[:, :, :width, w, c])
            ends[w, c, :, :, :width] = np.where(won, 1.0, cell.clip(0, 1))
    return ends[:, :, 0], ends[:, :, 1]


def working_bytes(game: FowlPlay, players: int = 1) -> int:
    r"""An estimate of the memory :func:`enclose` needs for ``game``, checked before it
    starts: two float bounds per turn start, :math:`2 \cdot 8\, g^2 W (C + 1)` bytes, and
    for the score sum with the most sides (:math:`g`) about six float arrays of
    :math:`W (C + 1)(C + 2) g` cells (the sweep's bounds, the hold values and their
    temporaries). Measured peaks agree with it within a few percent
    (``tests/test_jeopardy_certified.py``). Two ``players`` (a match-up) double both.

    >>> working_bytes(FowlPlay())  # the full game: 38 MB
    37564800
    """
    goal, wolves, chickens = game.goal, game.wolves, game.chickens
    starts = 2 * 8 * goal * goal * wolves * (chickens + 1)
    sweep = 6 * 8 * wolves * (chickens + 1) * (chickens + 2) * goal
    return players * (starts + sweep)
