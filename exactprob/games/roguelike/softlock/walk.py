r"""Floating-eye softlock: how likely a gazing eye keeps the hero paralysed for good.

The rules (one eye; two eyes gaze independently, in order, each turn). A turn:

1. the eye gazes: a d20 roll of at least :math:`20 - \mathrm{AC}` succeeds, so
   :math:`g = \min(1, (1 + \mathrm{AC})/20)`; a success adds 2 or 3 (each 1/2) to the
   paralysis counter;
2. then, if the counter is positive, it drops by 1 (the hero loses the turn); if it is zero,
   the hero acts again and the episode ends.

Two readings of "zero" (``turn_order``), both computed:

* ``"game"`` (the default): "zero" is checked *after* the gazes of a turn, as in Rogue
  3.6.3, where the monsters move between two turns of the hero. A counter that drops to 0
  frees the hero only if the next turn's gazes all fail. This is what happens in the game,
  hence the default.
* ``"source"``: the roguelike essay's own function, line by line: per turn, the gazes add,
  a positive counter drops by 1, and a counter that is *now* 0 frees the hero, so a hero
  whose counter drops to 0 is free at once. It reproduces the essay's method (its table
  came from this function run on Rogue's generator).

Either way the counter starts at 0, and on the first turn the hero is free unless a gaze
succeeds.

The walk. Let :math:`Y_t` be the counter just after the gazes of turn :math:`t` and
:math:`J_t` what those gazes add (:math:`J \in \{0, 2, 3\}` for one eye). Then
:math:`Y_1 = J_1` and :math:`Y_{t+1} = Y_t - 1 + J_{t+1}`: a random walk started at
:math:`Y_0 = 1` with steps :math:`J - 1 \ge -1` (it never skips a level going down), and the
hero is free at the first :math:`t` with :math:`Y_t = 0`. The hero is *locked for* ``limit``
turns when :math:`Y_1, \dots, Y_{\text{limit}}` are all positive. Under the source's order
the counter after the drop is :math:`Y_t - 1`, and the hero is free once it is 0: locked
for ``limit`` turns when :math:`Y_1, \dots, Y_{\text{limit}}` are all at least 2.

The ruin equation. To go down one level the walk must make up each of the :math:`J` levels it
jumped, independently, so :math:`\rho = P(\text{reach } 0 \text{ from } 1)` is the smallest
root in :math:`[0, 1]` of

.. math::

   \rho = E[\rho^{J}] = w(\rho)^{e}, \qquad w(x) = (1 - g) + \tfrac{g}{2}(x^2 + x^3),

with :math:`e` eyes, and :math:`P(\text{locked forever}) = 1 - \rho`. For one eye
:math:`w(x) - x = (x - 1)\,(\tfrac{g}{2}x^2 + g x - (1 - g))`, so
:math:`\rho = \sqrt{2/g - 1} - 1` when :math:`g > 2/5` (``AC >= 8``, where the drift
:math:`E[J] - 1 = 5g/2 - 1` turns positive) and :math:`\rho = 1` otherwise. For two eyes the
drift :math:`5g - 1` turns positive at ``AC >= 4``, and :math:`(w(x)^2 - x)/(x - 1)` is a
quintic whose Galois group is :math:`S_5` (no radicals) for every AC that matters.

Under the source's order the walk must never come down to level 1 after the first turn:
the first gazes add :math:`J_1 \ge 2` (else the hero is free at once), and from level
:math:`J_1 - 1` the walk stays above 0 with probability :math:`1 - \rho^{J_1 - 1}`, so

.. math::

   P_{\text{source}}(\text{locked forever}) = E\bigl[(1 - \rho^{J - 1});\, J > 0\bigr]
   = P(J > 0) - \frac{E[\rho^J] - P(J = 0)}{\rho} = P(J = 0)\,\frac{1 - \rho}{\rho},

using :math:`E[\rho^J] = \rho`; for one eye, with :math:`1 - g = \tfrac g2 \rho(\rho + 2)`,
that is :math:`\tfrac g2 (1 - \rho)(2 + \rho)`, the chance that the first gaze succeeds
times the chance that the walk from its landing level never returns.

>>> locked_forever(10)
2 - sqrt(319)/11
>>> locked_forever(10, turn_order="source")  # 27.15%: the essay's function, ideal generator
(-7 + sqrt(319))/40
>>> locked_within(10, 3)  # 11/20 - (11/40) (9/20)^2: a 2, then two failed gazes
Fraction(7909, 16000)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ....engine import Dist, Enclosure, RandomSource, Runs
from ....errors import ModelError
from ....util.numbers import whole_number
from ....util.progress import progress_bar

__all__ = [
    "ENCLOSURE_BITS",
    "EXACT_LIMIT",
    "MAX_AC",
    "TURN_ORDERS",
    "ReturnProbability",
    "SimulatedLocks",
    "drift",
    "drift_threshold",
    "gaze_probability",
    "jump_distribution",
    "locked_enclosure",
    "locked_forever",
    "locked_within",
    "return_probability",
    "ruin_polynomial",
    "simulate_locked",
]

MAX_AC = 20
D20 = 20
#: Finite limits up to this are solved exactly by default (1 s for one eye, 3 s for two).
EXACT_LIMIT = 2000
#: Fixed-point bits of the certified enclosure (its width is about limit^2 / 2^bits).
ENCLOSURE_BITS = 128
#: Draws per block in the simulator (each block is one call to the random source).
SIMULATION_BLOCK = 1 << 20


#: When a counter at 0 frees the hero (module docstring): the game's order, the source's.
TURN_ORDERS = ("game", "source")


def _checked(ac: Any, eyes: Any, turn_order: Any = "game") -> None:
    """Refuse an AC outside 0..20, an eye count other than 1 or 2, or an unknown turn
    order (``ModelError``)."""
    whole_number("AC", ac, 0, MAX_AC)
    whole_number("eyes", eyes, 1, 2)
    if turn_order not in TURN_ORDERS:
        raise ModelError(f"turn order must be one of {', '.join(TURN_ORDERS)}, got {turn_order!r}")


def _floor(turn_order: str) -> int:
    """The lowest counter :math:`Y_t` (after the gazes) that keeps the hero paralysed."""
    return 1 if turn_order == "game" else 2


def gaze_probability(ac: int) -> Fraction:
    """:math:`g = \\min(1, (1 + AC)/20)`: a d20 roll of at least ``20 - AC``.

    >>> gaze_probability(0), gaze_probability(10), gaze_probability(19)
    (Fraction(1, 20), Fraction(11, 20), Fraction(1, 1))
    """
    _checked(ac, 1)
    return Fraction(min(D20, ac + 1), D20)


def jump_distribution(ac: int, eyes: int = 1) -> Dist[int]:
    """What the gazes of one turn add to the counter: 0, or 2 or 3 per successful eye.

    >>> jump_distribution(9)
    Dist({0: '1/2', 2: '1/4', 3: '1/4'})
    >>> jump_distribution(9, eyes=2)[5]
    Fraction(1, 8)
    """
    _checked(ac, eyes)
    g = gaze_probability(ac)
    one = Dist({0: 1 - g, 2: g / 2, 3: g / 2})
    return eyes @ one


def drift(ac: int, eyes: int = 1) -> Fraction:
    """The walk's mean step :math:`E[J] - 1 = 5 g e / 2 - 1` with :math:`e` eyes.

    >>> drift(7), drift(8), drift(3, eyes=2)
    (Fraction(0, 1), Fraction(1, 8), Fraction(0, 1))
    """
    result: Fraction = jump_distribution(ac, eyes).mean() - 1
    return result


def drift_threshold(eyes: int = 1) -> int:
    """The smallest AC with a positive drift, from which the hero may be locked forever.

    :math:`5g e/2 > 1` with :math:`g = (AC + 1)/20` means :math:`AC + 1 > 8/e`.

    >>> drift_threshold(1), drift_threshold(2)
    (8, 4)
    """
    return next(ac for ac in range(MAX_AC + 1) if drift(ac, eyes) > 0)


def ruin_polynomial(ac: int, eyes: int = 1) -> Any:
    """:math:`E[x^J] - x` as a sympy ``Poly`` in ``x`` with coprime integer coefficients.

    >>> ruin_polynomial(10)
    Poly(11*x**3 + 11*x**2 - 40*x + 18, x, domain='ZZ')
    """
    import sympy

    x = sympy.Symbol("x")
    generating = sum(
        sympy.Rational(p.numerator, p.denominator) * x**j
        for j, p in jump_distribution(ac, eyes).items()
    )
    return sympy.Poly(generating - x, x).clear_denoms(convert=True)[1].primitive()[1]


@dataclass(frozen=True)
class ReturnProbability:
    """:math:`\\rho`, the chance of ever being free, as an exact algebraic number.

    ``form`` is ``"rational"``, ``"radicals"`` or ``"root_of"`` (a ``CRootOf``; then
    ``galois_group`` names the Galois group of ``minimal_polynomial`` and ``solvable`` says
    whether radicals exist at all).
    """

    value: Any
    form: str
    minimal_polynomial: Any
    galois_group: str | None
    solvable: bool | None


def return_probability(ac: int, eyes: int = 1) -> ReturnProbability:
    """The smallest root of :math:`E[\\rho^J] = \\rho` in :math:`[0, 1]`.

    >>> return_probability(10).value
    -1 + sqrt(319)/11
    >>> r = return_probability(10, eyes=2)
    >>> r.form, r.galois_group, r.solvable
    ('root_of', 'S5', False)
    """
    import sympy
    from sympy.polys.numberfields.galoisgroups import galois_group

    _checked(ac, eyes)
    roots = ruin_polynomial(ac, eyes).real_roots(radicals=True)
    rho = next(r for r in roots if 0 <= r <= 1)  # real_roots sorts exactly, ascending
    x = sympy.Symbol("x")
    minimal = sympy.Poly(sympy.minimal_polynomial(rho, x), x)
    if rho.is_Rational:
        return ReturnProbability(rho, "rational", minimal, None, None)
    if not rho.has(sympy.CRootOf):
        return ReturnProbability(rho, "radicals", minimal, None, True)
    group, _ = galois_group(minimal, by_name=True)
    name = group.name.rsplit(".", 1)[-1]
    return ReturnProbability(rho, "root_of", minimal, name, group.get_perm_group().is_solvable)


def locked_forever(ac: int, eyes: int = 1, turn_order: str = "game") -> Any:
    """:math:`P(\\text{locked forever})`, simplified: :math:`1 - \\rho` in the game's order
    (for a ``root_of`` form, the ``CRootOf`` of its own minimal polynomial), and
    :math:`P(J = 0)(1 - \\rho)/\\rho` in the source's (module docstring).

    >>> locked_forever(7), locked_forever(19), locked_forever(19, turn_order="source")
    (0, 1, 1)
    >>> locked_forever(12)
    2 - 3*sqrt(39)/13
    """
    import sympy

    _checked(ac, eyes, turn_order)
    rho = return_probability(ac, eyes)
    if turn_order == "source":
        stay = jump_distribution(ac, eyes)[0]  # P(J = 0): the first turn frees the hero
        if stay == 0:  # every gaze succeeds: the walk only climbs
            return sympy.Integer(1)
        q0 = sympy.Rational(stay.numerator, stay.denominator)
        return sympy.radsimp(sympy.expand(q0 * (1 - rho.value) / rho.value))
    value = sympy.radsimp(1 - rho.value)
    if rho.form != "root_of":
        return value
    x = sympy.Symbol("x")
    minimal = sympy.Poly(rho.minimal_polynomial.as_expr().subs(x, 1 - x), x).primitive()[1]
    real = minimal.real_roots()
    # x -> 1 - x reverses the order of the real roots
    index = len(real) - 1 - rho.minimal_polynomial.real_roots().index(rho.value)
    return sympy.CRootOf(minimal, index)


def _eye_weights(ac: int) -> list[int]:
    """:math:`40\\,P(J = j)` for one eye, ``j = 0..3``: integers (d20 times the 2-or-3 coin)."""
    scale = 2 * D20
    one = jump_distribution(ac)
    return [int(one[j] * scale) for j in range(4)]


def _survival(
    ac: int, limit: int, eyes: int, fixed_bits: int | None, progress: bool, floor: int = 1
) -> tuple[int, int, int]:
    """The DP over the counter :math:`Y` as a polynomial :math:`\\sum_y n_y x^y` (FLINT),
    keeping the walks with :math:`Y_t \\ge` ``floor`` (1: the game's order, 2: the source's).

    One turn multiplies by :math:`W(x) = 40\\,w(x)` once per eye, drops the coefficients
    of :math:`x^0, \\dots, x^{\\text{floor}}` (those walks fall below the floor: free) and
    divides by :math:`x`. After turn ``t`` a counter of at least ``limit - t + floor`` stays
    above the floor to the end: its mass moves to ``sure``.
    Exact (``fixed_bits=None``): integers scaled by :math:`40^{e t}`; returns
    ``(numerator, denominator, 0)``. Fixed point: scaled by :math:`2^{\\text{bits}}` and
    rounded down after each turn; returns ``(lower numerator, 2^bits, roundings)`` where
    ``roundings`` counts the coefficients rounded (each lost less than one unit).
    """
    from flint import fmpz, fmpz_poly

    weights = fmpz_poly(_eye_weights(ac))
    base = (2 * D20) ** eyes
    one = fmpz(1) << fixed_bits if fixed_bits is not None else fmpz(1)
    counts = fmpz_poly([0, one])
    sure = fmpz(0)
    roundings = 0
    with progress_bar(progress, "softlock turns", total=limit) as bar:
        for turn in range(1, limit + 1):
            for _ in range(eyes):
                counts *= weights
            counts = counts.right_shift(floor + 1).left_shift(floor)
            if fixed_bits is None:
                sure *= base
            else:
                counts //= base
                roundings += counts.length()
            remaining = limit - turn
            sure += counts.right_shift(remaining + floor)(1)
            counts = counts.truncate(remaining + floor)
            bar.update(1)
    denominator = one if fixed_bits is not None else fmpz(base) ** limit
    return int(counts(1) + sure), int(denominator), roundings


def locked_within(
    ac: int, limit: int, eyes: int = 1, progress: bool = False, turn_order: str = "game"
) -> Fraction:
    """Exact :math:`P(Y_1, \\dots, Y_{\\text{limit}} > 0)`: locked for ``limit`` turns
    (in the source's order :math:`P(Y_1, \\dots, Y_{\\text{limit}} \\ge 2)`).

    Its denominator divides :math:`40^{e \\cdot \\text{limit}}`; the time grows about as
    :math:`\\text{limit}^3` (the counter's range times the turns times the digits).

    >>> locked_within(10, 1)  # the first gaze succeeds
    Fraction(11, 20)
    >>> locked_within(0, 1, eyes=2)  # one of two gazes succeeds: 1 - (19/20)^2
    Fraction(39, 400)
    >>> locked_within(10, 2, turn_order="source")  # a 3; or a 2, then a success
    Fraction(341, 800)
    """
    _checked(ac, eyes, turn_order)
    whole_number("limit", limit, 1)
    numerator, denominator, _ = _survival(ac, limit, eyes, None, progress, _floor(turn_order))
    return Fraction(numerator, denominator)


def locked_enclosure(
    ac: int,
    limit: int,
    eyes: int = 1,
    bits: int = ENCLOSURE_BITS,
    progress: bool = False,
    turn_order: str = "game",
) -> Enclosure:
    """:func:`locked_within` certified to about ``bits`` bits, in time about
    :math:`\\text{limit}^2`.

    The DP runs in fixed point, rounding each coefficient down after each turn. The map of a
    turn has nonnegative coefficients and loses mass (the freed walks), so the rounding
    errors only add up: the computed value is a lower bound, short of the truth by less than
    the number of roundings in units of :math:`2^{-\\text{bits}}`.

    >>> box = locked_enclosure(10, 50)
    >>> locked_within(10, 50) in box, box.width() < Fraction(1, 2**100)
    (True, True)
    """
    _checked(ac, eyes, turn_order)
    whole_number("limit", limit, 1)
    whole_number("bits", bits, 8, 4096)
    low, scale, roundings = _survival(ac, limit, eyes, bits, progress, _floor(turn_order))
    return Enclosure(Fraction(low, scale), min(Fraction(low + roundings, scale), Fraction(1)))


@dataclass(frozen=True, eq=False)
class SimulatedLocks(Runs):
    """Simulated episodes: whether each stayed locked for the whole limit (the
    :attr:`result`)."""

    locked: np.ndarray

    @property
    def result(self) -> np.ndarray:
        """Whether each episode stayed locked."""
        return self.locked

    @property
    def stayed_locked(self) -> int:
        """How many episodes stayed locked."""
        return self.successes


def simulate_locked(
    ac: int, limit: int, runs: int, source: RandomSource, eyes: int = 1, turn_order: str = "game"
) -> SimulatedLocks:
    """``runs`` simulated episodes, each followed for ``limit`` turns or until freed.

    Written from the rules, not from the walk's algebra: the counter is followed turn by
    turn, the gazes add, and then, in the game's order, a counter at 0 frees the hero and a
    positive one drops by 1; in the source's, a positive counter drops by 1 and a counter
    now at 0 frees the hero. Each run draws ``limit * eyes * 2``
    numbers by ``source.integers(20, ...)``, in row-major (run, turn, eye, draw) order as a C
    loop over runs would: the d20 roll (``u + 1 >= 20 - AC``), then a draw whose parity picks
    2 or 3. On Rogue's generator that parity is ``RN % 20 % 2 == RN % 2 == rnd(2)``, exactly
    the C code's ``rnd(2)``. Every draw is made even after the episode ended, so the stream
    position of a run does not depend on the runs before it.

    >>> from exactprob.engine import NumpyRandom
    >>> simulate_locked(19, 100, 50, NumpyRandom(1)).stayed_locked  # every gaze succeeds
    50
    """
    _checked(ac, eyes, turn_order)
    whole_number("limit", limit, 1)
    whole_number("runs", runs, 0)
    per_run = limit * eyes * 2
    block = max(1, SIMULATION_BLOCK // per_run)
    locked = [np.zeros(0, dtype=bool)]
    for start in range(0, runs, block):
        n = min(block, runs - start)
        draws = source.integers(D20, n * per_run).reshape(n, limit, eyes, 2)
        gazes = draws[..., 0] + 1 >= D20 - ac
        added = (gazes * (2 + draws[..., 1] % 2)).sum(axis=2)
        locked.append(_still_paralysed(added, turn_order))
    return SimulatedLocks(np.concatenate(locked))


def _still_paralysed(added: np.ndarray, turn_order: str) -> np.ndarray:
    """Per run (rows of ``added``, what the gazes add each turn), whether the hero is never
    freed. While paralysed, the counter after the gazes of turn :math:`s` is everything
    gazed so far less the :math:`s - 1` turns already lost: the game frees the hero when
    that is 0; the source drops it by one more first, and frees the hero when the result
    is 0 (or below, on a first turn whose gazes all fail: it never drops below 0)."""
    gazed = np.cumsum(added, axis=1, dtype=np.int64)
    lost = np.arange(added.shape[1], dtype=np.int64)  # s - 1 at turn s
    counter = gazed - lost if turn_order == "game" else gazed - lost - 1
    return counter.min(axis=1) > 0
