"""The exact scalar: conversion in, conversion out, decimal formatting.

Hot loops compute with :class:`gmpy2.mpq` (an order of magnitude faster than
:class:`fractions.Fraction`); every public result is a ``Fraction`` or, in symbolic
mode, a sympy expression. No rounded float enters an exact path: a float is taken only
when the decimal Python prints for it is its exact value (``0.5``, ``0.375``, ``3.0``), so
the number typed is the number used; ``0.1`` is refused.

>>> exact("1/6") + exact(1) == exact(7) / 6
True
>>> to_fraction(exact("0.25"))
Fraction(1, 4)
>>> decimal_string(Fraction(1, 3), 5)
'0.33333'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from numbers import Integral, Rational
from operator import mul
from typing import TYPE_CHECKING, Any, TypeAlias

import gmpy2

from ..errors import ExactProbError, InexactError, ModelError, NumberTooLongError

if TYPE_CHECKING:  # sympy loads in about 0.3 s: only on use, never at start-up
    import sympy

__all__ = [
    "Exact",
    "common_denominator_dots",
    "decimal_exponent",
    "decimal_string",
    "digit_count",
    "exact",
    "exact_fields",
    "fraction_string",
    "integer_weights",
    "is_symbolic",
    "mpq",
    "parse_fraction",
    "parse_whole",
    "plain_integer",
    "probability_rows",
    "quoted",
    "rational_dot",
    "to_fraction",
    "to_public",
    "to_sympy",
    "whole_number",
]

mpq = gmpy2.mpq
_MPQ_ZERO = mpq(0)
_MPQ_TYPE = type(_MPQ_ZERO)
#: The most digits a number written as a decimal may have, its exponent counted (Python
#: itself reads at most 4,300 digits into an integer).
MAX_INPUT_DIGITS = 4000
_MPQ_TYPE = type(_MPQ_ZERO)
_MPZ_ONE = gmpy2.mpz(1)
#: An exact scalar as the engine handles it internally: a gmpy2 rational, or a sympy
#: expression for a symbolic probability or value. (Neither library ships type stubs, so
#: mypy reads both as ``Any``; the alias says to the reader what a value may be.)
Exact: TypeAlias = "gmpy2.mpq | sympy.Expr"


def is_symbolic(x: object) -> bool:
    """True when ``x`` is a sympy object (a symbolic probability or value).

    >>> is_symbolic(Fraction(1, 2)), is_symbolic(mpq(1, 2))
    (False, False)
    """
    module = type(x).__module__
    return module.startswith("sympy")


def exact(x: object) -> Exact:
    """Convert ``x`` to the engine's exact scalar.

    Accepts ``int``, ``Fraction`` (any :class:`numbers.Rational`), ``gmpy2.mpq``,
    strings ``"p/q"`` or decimals ``"0.125"``, sympy expressions (kept symbolic;
    sympy rationals become ``mpq``), and floats whose printed decimal is their exact
    binary value (a dyadic fraction short enough to print whole: ``0.5``, ``-0.75``).

    >>> exact("3/12"), exact(0.375)
    (mpq(1,4), mpq(3,8))
    >>> exact(0.1)
    Traceback (most recent call last):
    ...
    exactprob.errors.InexactError: float 0.1 is not the number it prints (in binary it is 3602879701896397/2**55); pass an exact value such as '1/10' (a float is taken only when it prints its exact value, as 0.5 does)
    """
    # the common kinds first, by exact type: a model gives one per edge
    if type(x) is _MPQ_TYPE:
        return x
    if type(x) is Fraction:
        return mpq(x.numerator, x.denominator)
    if type(x) is str:
        return _parse_string(x)
    if type(x) is int:
        return mpq(x)
    if isinstance(x, bool):
        raise InexactError(f"expected a number, got the boolean {x!r}")
    if isinstance(x, int):
        return mpq(x)
    if isinstance(x, Rational):
        return mpq(int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        return _parse_string(x)
    if isinstance(x, float):
        return _printed_float(x)
    if is_symbolic(x):
        import sympy

        expr = sympy.sympify(x)
        if expr.is_Rational:
            return mpq(int(expr.p), int(expr.q))
        if expr.is_Float:
            raise InexactError(f"sympy Float {expr} is not exact; use sympy.Rational")
        if expr.is_number:  # a constant that is not rational: sqrt(2), pi, nan, I, ...
            raise InexactError(
                f"{expr} is not a rational number; exact values are rationals or expressions "
                "in symbols"
            )
        return expr
    if hasattr(x, "numerator") and hasattr(x, "denominator"):  # flint.fmpq and friends
        return mpq(int(x.numerator), int(x.denominator))
    raise InexactError(f"cannot use {x!r} of type {type(x).__name__} as an exact number")


def _printed_float(x: float) -> Exact:
    """``x`` exactly, when the shortest decimal that reads back as ``x`` (its ``repr``)
    equals its binary value m/2^k; any other float would bring a rounding the caller did
    not write, and is refused naming an exact value to pass: the simplest fraction that
    rounds to ``x`` (``1/10`` for 0.1, ``1/3`` for 1/3), else ``x``'s own binary value.

    >>> _printed_float(-0.75), _printed_float(2.0)
    (mpq(-3,4), mpq(2,1))
    >>> _printed_float(2.0**-30)
    Traceback (most recent call last):
    ...
    exactprob.errors.InexactError: float 9.313225746154785e-10 is not the number it prints (in binary it is 1/2**30); pass an exact value such as '1/1073741824' (a float is taken only when it prints its exact value, as 0.5 does)
    """
    if not math.isfinite(x):
        raise InexactError(f"{x!r} is not a finite number")
    x = float(x)  # a numpy float prints as np.float64(...)
    value = Fraction(x)
    if Fraction(repr(x)) == value:
        return mpq(value)
    near = value.limit_denominator(10**6)
    suggestion = str(near if float(near) == x else value)
    binary = f"{value.numerator}/2**{value.denominator.bit_length() - 1}"
    if value.denominator == 1:
        binary = str(value.numerator)
    if len(binary) > 40:
        binary = f"a number of {len(binary):,} characters"
    raise InexactError(
        f"float {x!r} is not the number it prints (in binary it is {binary}); "
        f"pass an exact value such as {quoted(suggestion, 40)} "
        "(a float is taken only when it prints its exact value, as 0.5 does)"
    )


def plain_integer(value: Any) -> Any:
    """``value`` as a Python ``int`` when it is another kind of integer (a numpy one, as
    picked from an array), else as it is, for :func:`whole_number` to judge (a bool stays a
    bool, and is refused there).

    >>> import numpy as np
    >>> plain_integer(np.int64(3)), plain_integer(True), plain_integer(2.0)
    (3, True, 2.0)
    """
    if isinstance(value, Integral) and not isinstance(value, bool):
        return int(value)
    return value


def whole_number(
    name: str,
    value: Any,
    low: int = 0,
    high: int | None = None,
    error: type[ExactProbError] = ModelError,
) -> int:
    """``value`` if it is an ``int`` (not a bool) from ``low`` to ``high``; else ``error``
    with a message naming ``name`` and the allowed range.

    >>> whole_number("dice", 3, 1)
    3
    >>> whole_number("dice", 0, 1, 10)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: dice must be a whole number from 1 to 10, got 0
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        allowed = f"from {low} to {high}" if high is not None else f">= {low}"
        raise error(f"{name} must be a whole number {allowed}, got {value!r}")
    return value


def parse_whole(
    name: str,
    text: str,
    low: int = 0,
    high: int | None = None,
    error: type[ExactProbError] = ModelError,
) -> int:
    """A whole number written in ASCII digits (at most 18 of them), checked by
    :func:`whole_number`; anything else raises ``error`` naming ``name``.

    >>> parse_whole("--attacker", " 12 ", 2, 100)
    12
    >>> parse_whole("--attacker", "²", 2)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: --attacker must be a whole number >= 2, got '²'
    """
    digits = text.strip()
    readable = digits.isascii() and digits.isdigit() and len(digits) <= 18
    # unreadable text goes to whole_number as it is, which refuses it with the one message
    return whole_number(name, int(digits) if readable else text, low, high, error)


def parse_fraction(
    name: str,
    text: str,
    low: Fraction | int | None = None,
    high: Fraction | int | None = None,
    error: type[ExactProbError] = ModelError,
) -> Fraction:
    """An exact number written as a decimal (``0.03``) or a ratio (``3/100``), from ``low``
    to ``high`` when given; anything else raises ``error`` naming ``name``. A float's
    decimal is read as the number it shows, never as a binary double.

    >>> parse_fraction("--odds", "0.03", 0, 1)
    Fraction(3, 100)
    >>> parse_fraction("--odds", "1.5", 0, 1)
    Traceback (most recent call last):
    ...
    exactprob.errors.ModelError: --odds must be a decimal or p/q from 0 to 1, got '1.5'
    """
    if low is not None and high is not None:
        allowed = f"from {low} to {high}"
    elif low is not None:
        allowed = f">= {low}"
    else:
        allowed = f"<= {high}" if high is not None else ""
    message = f"{name} must be a decimal or p/q {allowed}".rstrip() + f", got {quoted(text)}"
    try:
        value = to_fraction(_parse_string(text))
    except NumberTooLongError as too_long:
        raise error(f"{name}: {too_long}") from None
    except InexactError:
        raise error(message) from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise error(message)
    return value


def quoted(text: str, most: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``most`` characters.

    >>> quoted("2d6"), quoted("9" * 100, 5)
    ("'2d6'", "'99999'... (100 characters)")
    """
    text = text.strip()
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text):,} characters)"


def _parse_string(text: str) -> Exact:
    """``text`` read as an exact number; short texts (a model's ``"1/6"``, given again at
    every state) are read once."""
    return _parse_short(text) if len(text) <= 40 else _read_string(text)


def _read_string(text: str) -> Exact:
    s = text.strip()
    if not s.isascii() or "_" in s:  # int() and Decimal() also read '１' and '1_0'
        raise InexactError(
            f"cannot read {text!r} as an exact number; write 'p/q' or a decimal such as '0.125'"
        )
    try:
        if "/" in s:
            parts = s.split("/")
            if any(len(part) > MAX_INPUT_DIGITS for part in parts):
                raise NumberTooLongError(
                    f"{quoted(text)} is too long: at most {MAX_INPUT_DIGITS:,} digits above "
                    "and below the line"
                )
            num, den = (int(part) for part in parts)
        else:
            d = Decimal(s)
            if not d.is_finite():
                raise InexactError(f"{quoted(text)} is not a finite number")
            _, digits, exponent = d.as_tuple()
            if len(digits) + abs(exponent) > MAX_INPUT_DIGITS:  # type: ignore[arg-type]
                raise NumberTooLongError(
                    f"{quoted(text)} is too long: at most {MAX_INPUT_DIGITS:,} digits, "
                    "exponent included"
                )
            num, den = d.as_integer_ratio()
    except (ValueError, InvalidOperation) as error:
        if isinstance(error, InexactError):
            raise
        raise InexactError(
            f"cannot read {text!r} as an exact number; write 'p/q' or a decimal such as '0.125'"
        ) from None
    if den == 0:
        raise InexactError(f"{text!r} divides by zero")
    return mpq(num, den)


_parse_short = functools.lru_cache(maxsize=4096)(_read_string)


def _coprime_fraction_maker() -> Callable[[int, int], Fraction]:
    """A constructor of ``Fraction(p, q)`` for ``p/q`` already in lowest terms.

    ``Fraction(p, q)`` reduces with ``math.gcd``, quadratic in the digits (a second for
    200,000 digits), although an mpq is always reduced; Python 3.12 has
    ``Fraction._from_coprime_ints`` and 3.11 ``Fraction(p, q, _normalize=False)`` to skip
    that. Both are private, so this falls back to the reducing constructor."""
    maker: Callable[[int, int], Fraction] | None = getattr(Fraction, "_from_coprime_ints", None)
    if maker is not None:
        return maker
    try:
        Fraction(1, 1, _normalize=False)  # type: ignore[call-overload]
    except TypeError:
        return Fraction
    return lambda p, q: Fraction(p, q, _normalize=False)  # type: ignore[call-overload]


_coprime_fraction = _coprime_fraction_maker()


def rational_dot(weights: Iterable[Any], values: Iterable[Any]) -> Any:
    r""":math:`\sum_i w_i v_i` for ``mpq`` weights and values, over one common
    denominator: each term's numerator is scaled to the least common multiple
    :math:`D` of the terms' denominators and the integer sum reduced once, where adding
    ``mpq`` one term at a time reduces (a gcd of long numbers) after every term. When
    the denominators share most of their factors, as a dice game's values do, :math:`D`
    stays about as long as one of them and the sum takes about 40% less time (a dice
    race's action values: 1.0 s instead of 1.7 s). When they share few factors,
    :math:`D` is long, but so is the sum's own denominator, whichever way it is added.

    >>> rational_dot([mpq(1, 6), mpq(5, 6)], [mpq(1, 4), mpq(3, 8)])
    mpq(17,48)
    """
    terms = list(zip(weights, values))
    if len(terms) < 2:
        return terms[0][0] * terms[0][1] if terms else _MPQ_ZERO
    numerators = [w.numerator * v.numerator for w, v in terms]
    denominators = [w.denominator * v.denominator for w, v in terms]
    common = denominators[0]
    for d in denominators[1:]:
        common = gmpy2.lcm(common, d)
    return mpq(sum(n * (common // d) for n, d in zip(numerators, denominators)), common)


def integer_weights(fractions: Sequence[Any]) -> tuple[list[Any], Any]:
    """The ``mpq`` ``fractions`` as integers over their least common denominator :math:`W`,
    and :math:`W`: the weights :func:`common_denominator_dots` takes.

    >>> integer_weights([mpq(1, 6), mpq(2, 9)])
    ([mpz(3), mpz(4)], mpz(18))
    """
    common = _MPZ_ONE
    for p in fractions:
        common = gmpy2.lcm(common, p.denominator)
    return [p.numerator * (common // p.denominator) for p in fractions], common


def common_denominator_dots(
    rows: Iterable[tuple[Iterable[Any], Sequence[int]]], values: Sequence[Any]
) -> tuple[list[Any], Any]:
    r"""Numerators :math:`N_k` and one denominator :math:`D > 0` with
    :math:`\sum_i a_{ki}\, v_{t_{ki}} = N_k / D` for every row :math:`k` of integer
    weights :math:`a_{ki}` and indices :math:`t_{ki}` into the ``mpq`` ``values``.

    :math:`D` is the least common multiple of the indexed values' denominators, and each
    value is scaled to it once however many rows read it. Comparing the integers
    :math:`N_k` compares the sums exactly, and only a sum that is kept needs reducing
    (one gcd): the actions of a state that share their successors, as a choice between
    dice does, are valued together for about the price of one.

    >>> common_denominator_dots([([1, 1], [0, 1]), ([2], [1])], [mpq(1, 3), mpq(2, 3)])
    ([mpz(3), mpz(4)], mpz(3))
    """
    rows = list(rows)
    scaled: dict[int, Any] = {}
    denominator = _MPZ_ONE
    lcm = gmpy2.lcm
    for _, targets in rows:
        for t in targets:
            if t not in scaled:
                scaled[t] = None
                denominator = lcm(denominator, values[t].denominator)
    for t in scaled:
        v = values[t]
        scaled[t] = v.numerator * (denominator // v.denominator)
    scaled_value = scaled.__getitem__
    numerators = [sum(map(mul, weights, map(scaled_value, targets))) for weights, targets in rows]
    return numerators, denominator


def to_fraction(x: Exact) -> Fraction:
    """Convert an exact rational scalar to :class:`fractions.Fraction`.

    >>> to_fraction(mpq(2, 6))
    Fraction(1, 3)
    """
    if isinstance(x, Fraction):
        return x
    q = x if isinstance(x, type(mpq())) else mpq(int(x.numerator), int(x.denominator))
    return _coprime_fraction(int(q.numerator), int(q.denominator))


def to_public(x: Exact) -> Any:
    """The public form of an internal scalar: ``Fraction`` for rationals, sympy otherwise.

    >>> to_public(mpq(3, 4))
    Fraction(3, 4)
    """
    if is_symbolic(x):
        return x
    return to_fraction(exact(x))


def to_sympy(x: Any) -> Any:
    """Convert an exact scalar (or a sympy expression) to a sympy object.

    >>> to_sympy(Fraction(1, 3))
    1/3
    """
    import sympy

    if is_symbolic(x):
        return x
    q = exact(x)
    return sympy.Rational(int(q.numerator), int(q.denominator))


def decimal_string(x: Any, digits: int = 12) -> str:
    """Decimal expansion of an exact value, correctly rounded (half-even) to ``digits``
    places after the point; computed with integer arithmetic, never through a float.

    >>> decimal_string(Fraction(2, 3), 4)
    '0.6667'
    >>> decimal_string(Fraction(-1, 8), 2)
    '-0.12'
    """
    if type(digits) is not int or digits < 0:  # the checks cost more than a short value
        whole_number("digits", digits, 0, error=InexactError)
    if type(x) is not _MPQ_TYPE:
        if is_symbolic(x):
            import sympy

            rough = sympy.N(x, 15)
            if not rough.is_real:
                raise InexactError(f"{x} has no real decimal value")
            whole = len(str(int(abs(rough)))) if abs(rough) >= 1 else 0  # digits before the point
            value = sympy.N(x, digits + whole + 10)
            x = Fraction(str(value)) if value.is_Rational else Fraction(Decimal(str(value)))
        x = exact(x)
    denominator = x.denominator  # x * 10**digits, left unreduced: rounding needs no gcd
    n, twice_rest = divmod(x.numerator * 10**digits, denominator)
    twice_rest *= 2  # round half to even, in integers (gmpy2: fast for huge values)
    if twice_rest > denominator or (twice_rest == denominator and n % 2):
        n += 1
    sign = "-" if n < 0 else ""
    n = abs(n)
    if digits == 0:
        return f"{sign}{gmpy2.mpz(n)}"
    whole, frac = divmod(n, 10**digits)
    # gmpy2 prints integers of any length (Python's str() stops at 4300 digits)
    return f"{sign}{gmpy2.mpz(whole)}.{str(gmpy2.mpz(frac)).zfill(digits)}"


def readable_decimal(x: Any, places: int) -> str:
    """``x`` to ``places`` places after the point; a nonzero value below :math:`10^{-3}`
    in size, or one of :math:`10^{12}` or more, in scientific notation with ``places``
    significant digits instead, so a small chance keeps its digits and a large count
    stays short. Rounded from the exact value, half to even.

    >>> readable_decimal(Fraction(2, 3), 6), readable_decimal(Fraction(-1, 3656158440062976), 6)
    ('0.666667', '-2.73511e-16')
    >>> readable_decimal(6**40, 6), readable_decimal(10**12 - Fraction(1, 10**9), 6)
    ('1.33675e31', '1.00000e12')
    >>> import sympy
    >>> readable_decimal(sympy.sqrt(2) / 10**20, 6), readable_decimal(sympy.sqrt(2) * 10**15, 6)
    ('1.41421e-20', '1.41421e15')
    """
    if is_symbolic(x):
        import sympy

        rough = sympy.N(sympy.Abs(x), 30)
        size = Fraction(Decimal(str(rough))) if rough.is_real else Fraction(1)
        value: Any = x
        ten: Any = sympy.Integer(10)
    else:
        value = to_fraction(exact(x))
        size, ten = abs(value), Fraction(10)
    if size == 0 or Fraction(1, 1000) <= size < 10**12:
        text = decimal_string(x, places)
        if len(text.lstrip("-").split(".")[0]) <= 12:  # else rounded up to 10**12
            return text
    exponent = decimal_exponent(size)
    mantissa = decimal_string(value / ten**exponent, places - 1)
    if mantissa.lstrip("-").startswith("10"):  # rounded up to the next power of ten
        exponent += 1
        mantissa = decimal_string(value / ten**exponent, places - 1)
    return f"{mantissa}e{exponent}"


def decimal_exponent(size: Fraction) -> int:
    """The ``e`` with :math:`10^e \\le` ``size`` :math:`< 10^{e+1}`, for ``size > 0``,
    from digit counts (no float: ``size`` may be far outside a float's range).

    >>> decimal_exponent(Fraction(1, 3)), decimal_exponent(Fraction(10**400))
    (-1, 400)
    """
    exponent = digit_count(size.numerator) - digit_count(size.denominator)  # 10^e <= 10 size
    return exponent - 1 if size < Fraction(10) ** exponent else exponent


def digit_count(n: int) -> int:
    """Decimal digits of the whole number ``n`` (its sign aside), counted by gmpy2, which
    has no length limit (``len(str(n))`` refuses more than 4300 digits).

    >>> digit_count(7776), digit_count(-10), digit_count(10**5000)
    (4, 2, 5001)
    """
    return len(gmpy2.mpz(abs(n)).digits())


def fraction_string(x: Any) -> str:
    """The exact value as a ``"p/q"`` string (``"p"`` for integers), or sympy's text.

    Written by gmpy2, so it has no length limit (Python refuses to print integers of
    more than 4300 digits, and exact results of long games have tens of thousands).

    >>> fraction_string(Fraction(7776, 10961)), fraction_string(mpq(2))
    ('7776/10961', '2')
    >>> len(fraction_string(Fraction(1, 3**9000)))
    4297
    """
    if type(x) is _MPQ_TYPE or is_symbolic(x):
        return str(x)
    return str(exact(x))


def exact_fields(key: str, value: Any, digits: int = 12) -> dict[str, str]:
    """``{key: "p/q", key_decimal: "0.…"}``: an exact value as JSON fields.

    >>> exact_fields("win", Fraction(1, 8), 3)
    {'win': '1/8', 'win_decimal': '0.125'}
    """
    return {key: fraction_string(value), f"{key}_decimal": decimal_string(value, digits)}


def exact_map_fields(key: str, values: Mapping[Any, Any], digits: int = 12) -> dict[str, Any]:
    """``{key: {k: "p/q"}, key_decimal: {k: "0.…"}}``: exact values by name (a law, say)
    as JSON fields, each with its decimal twin.

    >>> exact_map_fields("luck", {0: Fraction(1, 4), 1: Fraction(3, 4)}, 2)
    {'luck': {'0': '1/4', '1': '3/4'}, 'luck_decimal': {'0': '0.25', '1': '0.75'}}
    """
    return {
        key: {str(k): fraction_string(v) for k, v in values.items()},
        f"{key}_decimal": {str(k): decimal_string(v, digits) for k, v in values.items()},
    }


def exact_list_fields(key: str, values: Iterable[Any], digits: int = 12) -> dict[str, Any]:
    """``{key: ["p/q", ...], key_decimal: ["0.…", ...]}``: exact values in order as JSON
    fields, each with its decimal twin.

    >>> exact_list_fields("odds", [Fraction(1, 4), 1], 2)
    {'odds': ['1/4', '1'], 'odds_decimal': ['0.25', '1.00']}
    """
    found = list(values)
    return {
        key: [fraction_string(v) for v in found],
        f"{key}_decimal": [decimal_string(v, digits) for v in found],
    }


def probability_rows(probabilities: Mapping[Any, Any], key: str) -> list[dict[str, Any]]:
    """A distribution as JSON rows, ``[{key: outcome, "probability": "p/q",
    "probability_decimal": "0.…"}, ...]`` in its order.

    >>> probability_rows({2: Fraction(1, 4)}, "armies")
    [{'armies': 2, 'probability': '1/4', 'probability_decimal': '0.250000000000'}]
    """
    return [{key: k, **exact_fields("probability", p)} for k, p in probabilities.items()]
