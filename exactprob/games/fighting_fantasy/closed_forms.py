r"""The paper's closed forms (Eq. 5-17) as sympy expressions.

**No luck.** Draws are do-overs, so only decisive rounds matter: the hero wins one with
:math:`p = w / (w + \ell)` and loses one with :math:`q = 1 - p`. The hero can take
:math:`\sigma_h = \lceil s_h / 2 \rceil` hits and the opponent :math:`\sigma_o`. The hero wins
iff the :math:`\sigma_o`-th won round comes before the :math:`\sigma_h`-th lost one; counting
the histories with :math:`j` lost rounds before the last, winning, round,

.. math::

    P_v = \sum_{j=0}^{\sigma_h - 1} \binom{\sigma_o - 1 + j}{j} p^{\sigma_o} q^j
        = I_p(\sigma_o, \sigma_h),

a regularised incomplete beta function.

**Constant luck, offensive.** Luck is tested after every won round, succeeding with a fixed
:math:`\lambda` and never running out; a success (S) takes :math:`g` stamina (4 by the
rules), a failure (U) 1, and a lost round costs the hero 2. Before the final blow the
opponent has lost :math:`n = s_o - r` stamina to a string of :math:`k` S and
:math:`n - g k` U, which can be arranged in :math:`\binom{n - (g - 1)k}{k}` ways; the
:math:`j < \sigma_h` lost rounds interleave with its :math:`n - (g-1)k` won rounds; and the
final blow is S from any :math:`r \in \{1, \dots, g\}` or U from :math:`r = 1`:

.. math::

    P_v = \sum_{j=0}^{\sigma_h - 1} q^j \sum_{r} \sum_{k}
          \binom{n - (g-1)k}{k}\binom{n - (g-1)k + j}{j}
          (p\lambda)^k \bigl(p(1 - \lambda)\bigr)^{n - gk}\, f_r,
    \qquad f_r = p\lambda + [r = 1]\, p (1 - \lambda).

**Thresholds.** A won round deals 2 without luck and :math:`g\lambda + (1 - \lambda)` in
expectation with it; a lost round costs 2 without luck and :math:`\lambda + 3(1 - \lambda)`
with it. Offensive use gains iff :math:`1 + 3\lambda > 2`, i.e. :math:`\lambda > 1/3`
(luck :math:`\ge 6`, since :math:`P(2d6 \le 6) = 5/12`); defensive use iff
:math:`3 - 2\lambda < 2`, i.e. :math:`\lambda > 1/2` (luck :math:`\ge 7`, :math:`P = 7/12`).

>>> import sympy
>>> p = sympy.Symbol("p")
>>> no_luck_win(4, 4, p)  # two hits each: win 2 of the first 3 decisive rounds
-p**2*(2*p - 3)
>>> thresholds()["offensive"]
Threshold(probability=1/3, luck=6)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...util.numbers import whole_number
from .rules import luck_probability

__all__ = [
    "Threshold",
    "constant_luck_win",
    "hits_to_kill",
    "no_luck_value",
    "no_luck_win",
    "thresholds",
]


def hits_to_kill(stamina: int) -> int:
    """:math:`\\sigma = \\lceil s / 2 \\rceil`, the 2-point hits a stamina can take.

    >>> hits_to_kill(7), hits_to_kill(8)
    (4, 4)
    """
    whole_number("stamina", stamina, 1)
    return -(-stamina // 2)


def no_luck_win(hero_stamina: int, opponent_stamina: int, p: Any) -> Any:
    """:math:`P_v` without luck as a polynomial in ``p``, the chance of winning a
    decisive round (a sympy symbol or an exact number)."""
    import sympy  # loaded when a closed form is asked for, not with the game

    sigma_h, sigma_o = hits_to_kill(hero_stamina), hits_to_kill(opponent_stamina)
    q = 1 - p
    total = sum(sympy.binomial(sigma_o - 1 + j, j) * p**sigma_o * q**j for j in range(sigma_h))
    return sympy.factor(total) if isinstance(p, sympy.Basic) else total


def no_luck_value(
    win: Fraction, lose: Fraction, hero_stamina: int, opponent_stamina: int
) -> Fraction:
    """:func:`no_luck_win` at :math:`p = w / (w + \\ell)`, as a ``Fraction``.

    >>> no_luck_value(Fraction(575, 1296), Fraction(575, 1296), 20, 20)
    Fraction(1, 2)
    """
    return Fraction(no_luck_win(hero_stamina, opponent_stamina, win / (win + lose)))


def constant_luck_win(
    hero_stamina: int, opponent_stamina: int, p: Any, lam: Any, lucky_hit: int = 4
) -> Any:
    """:math:`P_v` when every won round tests luck with constant success ``lam``
    (see the module docstring); ``p`` is the chance of winning a decisive round.

    >>> import sympy
    >>> p, lam = sympy.symbols("p lambda")
    >>> sympy.expand(constant_luck_win(1, 2, p, lam))
    -lambda*p**2 + lambda*p + p**2
    """
    import sympy

    whole_number("lucky hit", lucky_hit, 2)
    sigma_h = hits_to_kill(hero_stamina)
    q, success, failure = 1 - p, p * lam, p * (1 - lam)
    total = 0
    for j in range(sigma_h):
        for r in range(1, min(lucky_hit, opponent_stamina) + 1):
            n = opponent_stamina - r
            final = success + (failure if r == 1 else 0)
            for k in range(n // lucky_hit + 1):
                won_before = n - (lucky_hit - 1) * k
                arrangements = sympy.binomial(won_before, k) * sympy.binomial(won_before + j, j)
                total += arrangements * q**j * success**k * failure ** (n - lucky_hit * k) * final
    return total


@dataclass(frozen=True)
class Threshold:
    """Luck pays when its success probability exceeds ``probability``, i.e. from
    ``luck`` up."""

    probability: Any
    luck: int


def thresholds(lucky_hit: int = 4) -> dict[str, Threshold]:
    """Solve the two one-round inequalities in sympy and find the smallest luck that
    meets each (see the module docstring)."""
    import sympy

    lam = sympy.Symbol("lambda", positive=True)
    gains = {
        "offensive": lucky_hit * lam + (1 - lam) > 2,
        "defensive": lam + 3 * (1 - lam) < 2,
    }
    result = {}
    for name, inequality in gains.items():
        solution = sympy.solve_univariate_inequality(inequality, lam, relational=False)
        low = solution.inf
        luck = next(l for l in range(13) if luck_probability(l) > Fraction(int(low.p), int(low.q)))
        result[name] = Threshold(low, luck)
    return result
