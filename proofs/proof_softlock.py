r"""Theorem (floating-eye softlock).

Let one eye's gaze succeed with probability :math:`g` and add 2 or 3 (each 1/2), so that
:math:`E[x^{J}] = w(x)^e` with :math:`w(x) = (1 - g) + \tfrac g2 (x^2 + x^3)` for :math:`e`
eyes, and let :math:`\rho` be the smallest root of :math:`w(x)^e = x` in :math:`[0, 1]`.

1. One eye: :math:`w(x) - x = (x - 1)\,(\tfrac g2 x^2 + g x - (1 - g))` identically in
   :math:`g`, and :math:`\rho = \sqrt{2/g - 1} - 1` lies in :math:`(0, 1)` exactly when
   :math:`2/5 < g < 1`; otherwise :math:`\rho = 1` (:math:`g \le 2/5`) or :math:`\rho = 0`
   (:math:`g = 1`).
2. Two eyes: :math:`w(x)^2 - x = (x - 1)\,Q_g(x)` with :math:`Q_g` of degree 5,
   :math:`Q_g(0) = -(1 - g)^2` and :math:`Q_g(1) = 5g - 1`. For every AC from 4 to 18
   :math:`Q_g` is irreducible over :math:`\mathbb Q` with Galois group :math:`S_5`, so
   :math:`\rho` (its only root in :math:`(0, 1)`) is not expressible in radicals.
3. The exact probability of staying locked for :math:`L` turns decreases in :math:`L` and
   stays above :math:`1 - \rho`, to which it converges.

Proof. (1) and the first part of (2) are polynomial identities, expanded by sympy; the
interval of :math:`g` is solved by sympy as an inequality. For (2), :math:`Q_g(0) < 0 < Q_g(1)`
gives a root in :math:`(0, 1)` when :math:`5g > 1`, and Sturm's theorem (sympy's
``count_roots``) shows it is the only one. The Galois group is found independently of sympy's
``galois_group`` by Dedekind's theorem: for a prime :math:`p` dividing neither the leading
coefficient nor the discriminant, the degrees of the irreducible factors of :math:`Q_g \bmod p`
are the cycle type of an element of the group. A prime where :math:`Q_g` stays irreducible
gives a 5-cycle (so :math:`Q_g` is irreducible over :math:`\mathbb Q`: the group is
transitive), a prime with factor degrees :math:`(2, 1, 1, 1)` a transposition, and a
transitive subgroup of :math:`S_5` with a transposition is :math:`S_5`, which is not solvable.
(3) is checked exactly: the DP values (exact rationals) are compared with the algebraic number
through an isolating interval with rational ends, for several AC and growing :math:`L`.
"""

from fractions import Fraction

import sympy

from exactprob.games.roguelike.softlock.walk import (
    drift_threshold,
    locked_forever,
    locked_within,
    return_probability,
)

g = sympy.Symbol("g", positive=True)
x = sympy.Symbol("x")
w = (1 - g) + g / 2 * (x**2 + x**3)


def gaze(ac: int) -> sympy.Rational:
    return sympy.Rational(min(20, ac + 1), 20)


def test_one_eye_factorisation_and_root() -> None:
    quadratic = g / 2 * x**2 + g * x - (1 - g)
    assert sympy.expand(w - x - (x - 1) * quadratic) == 0
    rho = sympy.sqrt(2 / g - 1) - 1
    assert sympy.simplify(quadratic.subs(x, rho)) == 0
    # the other root of the quadratic, -1 - sqrt(2/g - 1), is negative
    probabilities = sympy.Interval.Lopen(0, 1)
    inside = sympy.Intersection(
        sympy.solveset(rho > 0, g, probabilities), sympy.solveset(rho < 1, g, probabilities)
    )
    assert inside == sympy.Interval.open(sympy.Rational(2, 5), 1)
    assert drift_threshold(1) == 8  # g = 9/20 > 2/5 first at AC = 8


def test_module_matches_the_one_eye_closed_form() -> None:
    for ac in range(21):
        value = return_probability(ac).value
        if ac <= 7:
            expected = sympy.Integer(1)
        elif ac >= 19:
            expected = sympy.Integer(0)
        else:
            expected = sympy.sqrt(2 / gaze(ac) - 1) - 1
        assert sympy.simplify(value - expected) == 0, ac
        assert sympy.simplify(locked_forever(ac) - (1 - expected)) == 0, ac


def quintic(ac: int) -> sympy.Poly:
    p = sympy.Poly(sympy.expand((w**2 - x).subs(g, gaze(ac))), x)
    q, r = sympy.div(p, sympy.Poly(x - 1, x))
    assert r.is_zero
    return sympy.Poly(q.clear_denoms(convert=True)[1], x).primitive()[1]


def test_two_eye_quintic_identity() -> None:
    p = sympy.Poly(sympy.expand(w**2 - x), x)
    q, r = sympy.div(p, sympy.Poly(x - 1, x))
    assert r.is_zero and q.degree() == 5
    assert sympy.simplify(q.LC() - g**2 / 4) == 0
    assert sympy.simplify(q.eval(0) + (1 - g) ** 2) == 0
    assert sympy.simplify(q.eval(1) - (5 * g - 1)) == 0
    assert drift_threshold(2) == 4  # 5g > 1 first at g = 1/4, AC = 4


def has_cycle_types(poly: sympy.Poly, wanted: set[tuple[int, ...]], primes: int = 500) -> bool:
    """Whether each factor-degree pattern in ``wanted`` occurs for ``poly`` mod some good
    prime (Dedekind: then the Galois group has elements of those cycle types)."""
    discriminant = sympy.discriminant(poly)
    missing = set(wanted)
    for p in sympy.primerange(3, sympy.prime(primes)):
        if poly.LC() % p == 0 or discriminant % p == 0:
            continue
        factors = sympy.Poly(poly.as_expr(), x, modulus=p).factor_list()[1]
        missing.discard(tuple(sorted((f.degree() for f, _ in factors), reverse=True)))
        if not missing:
            return True
    return False


def test_two_eye_galois_group_is_s5() -> None:
    for ac in range(4, 19):
        q = quintic(ac)
        assert q.count_roots(0, 1) == 1, ac  # Sturm: one root in [0, 1]
        assert has_cycle_types(q, {(5,), (2, 1, 1, 1)}), ac
        rho = return_probability(ac, eyes=2)
        assert rho.form == "root_of" and rho.galois_group == "S5" and rho.solvable is False
        assert rho.minimal_polynomial.degree() == 5
        assert sympy.Poly(rho.minimal_polynomial.as_expr(), x).primitive()[1] == q
        assert rho.value.index == 0  # the smallest real root of Q_g, the one in (0, 1)


def test_critical_and_trivial_two_eye_cases() -> None:
    # AC = 3 (g = 1/5): drift 0 and x = 1 is a double root; AC >= 19: every gaze succeeds
    assert quintic(3).eval(1) == 0 and return_probability(3, eyes=2).value == 1
    for ac in (0, 1, 2):
        assert quintic(ac).count_roots(0, 1) == 0 and return_probability(ac, eyes=2).value == 1
    assert return_probability(19, eyes=2).value == 0 == return_probability(20, eyes=2).value


def exceeds(value: Fraction, algebraic: sympy.Expr) -> bool:
    """Whether the rational ``value`` is at least the real algebraic number, decided exactly:
    an isolating interval of ``algebraic`` with rational ends is refined until ``value``
    falls outside it (it must: an irrational root is no rational)."""
    if algebraic.is_Rational:
        return value >= Fraction(str(algebraic))
    poly = sympy.Poly(sympy.minimal_polynomial(algebraic, x), x)
    numeric = sympy.N(algebraic, 50)
    eps = sympy.Rational(1, 10**40)
    ((a, b),) = [iv for iv, _ in poly.intervals(eps=eps) if iv[0] <= numeric <= iv[1]]
    target = sympy.Rational(value.numerator, value.denominator)
    while a <= target <= b:
        eps = eps**2
        a, b = poly.refine_root(a, b, eps=eps)
    return bool(target > b)


def test_finite_limits_decrease_to_the_closed_form() -> None:
    cases = [(1, 6), (1, 7), (1, 8), (1, 10), (1, 12), (1, 19), (2, 3), (2, 6), (2, 10)]
    for eyes, ac in cases:
        forever = locked_forever(ac, eyes)
        previous = Fraction(1)
        for limit in (10, 40, 160, 640):
            value = locked_within(ac, limit, eyes)
            assert value <= previous, (eyes, ac, limit)  # decreasing in the limit
            assert exceeds(value, forever), (eyes, ac, limit)  # above the limit, exactly
            previous = value
        if ac != {1: 7, 2: 3}[eyes]:  # off the critical AC the gap shrinks geometrically
            assert not exceeds(previous - Fraction(1, 1000), forever), (eyes, ac)
    # at the critical AC the walk is null-recurrent: the gap decays like L^(-1/2) only
    assert Fraction(1, 100) < locked_within(7, 640) < Fraction(1, 10)
