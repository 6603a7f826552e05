"""``exactprob dice EXPR``: the exact distribution of a dice expression, or the chance of
a comparison of two.

The grammar is a sum of terms ``NdS``, ``dS`` or whole numbers, joined by ``+`` and ``-``
(no spaces needed; ``D`` as well as ``d``): ``2d6-2d6``, ``12+8D10``, ``d20``. Two sums
joined by ``<``, ``<=``, ``>``, ``>=``, ``==`` (or ``=``) or ``!=`` ask for the chance that
the comparison holds, the two sides rolled independently:
:math:`P(X > Y) = P(X - Y > 0)`.

>>> parse_dice("2d6-2d6")[0]
Fraction(73, 648)
>>> comparison_chance("3d6>d20")
Fraction(19, 40)
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..engine import Dist, dice
from ..errors import UsageError
from ..util.numbers import exact_fields, parse_whole, probability_rows, quoted
from ..util.text import exact_text, table_lines
from . import help_of
from ._options import add_json_flag
from ._output import emit

_TERM = re.compile(r"([+-]?)(?:([0-9]*)[dD]([0-9]+)|([0-9]+))")
_COMPARISON = re.compile(r"<=|>=|==|!=|<|>|=")
#: Each comparison as a test of the difference of its two sides.
COMPARISONS: dict[str, Callable[[int], bool]] = {
    "<": lambda d: d < 0,
    "<=": lambda d: d <= 0,
    ">": lambda d: d > 0,
    ">=": lambda d: d >= 0,
    "==": lambda d: d == 0,
    "=": lambda d: d == 0,
    "!=": lambda d: d != 0,
}
_INNER_SPACE = re.compile(r"[0-9dD]\s+[0-9dD]")
MAX_DICE = 10_000
MAX_SIDES = 10_000
MAX_OUTCOMES = 1_000_000
#: Outcomes times the digits of each probability's denominator (n log10 s): the size of
#: the exact answer, which is what costs time and memory.
MAX_DIGITS = 50_000_000


def parse_dice(text: str) -> Dist[int]:
    """The distribution of a dice expression such as ``"12+8d10"``; its size (outcomes,
    and digits of the exact answer) is checked for the whole expression before any sum
    is computed."""
    terms = _terms(text)
    _check_size(text, terms, "to write out exactly")
    return _sum_of(terms)


def _check_size(text: str, terms: list[tuple[str, int, int]], purpose: str) -> None:
    """Refuse ``terms`` whose distribution would pass :data:`MAX_OUTCOMES` outcomes or
    :data:`MAX_DIGITS` digits in all (too large for ``purpose``)."""
    dice_terms = [(n, s) for _, n, s in terms if s]
    outcomes = sum(n * (s - 1) for n, s in dice_terms) + 1
    digits = sum(n * math.log10(s) for n, s in dice_terms)
    if outcomes > MAX_OUTCOMES:
        raise UsageError(
            f"{quoted(text)} has {outcomes:,} outcomes; at most {MAX_OUTCOMES:,} are allowed"
        )
    if outcomes * digits > MAX_DIGITS:
        raise UsageError(
            f"{quoted(text)} is too large {purpose} ({outcomes:,} probabilities "
            f"of about {digits:,.0f} digits each); at most {MAX_DIGITS:,} digits in all are "
            "allowed"
        )


def _sum_of(terms: list[tuple[str, int, int]]) -> Dist[int]:
    """The distribution of the sum of ``terms``. Equal dice are summed together
    (``n @ die``, by repeated squaring): a long expression of many small terms costs a
    few convolutions, not one per term."""
    counts: Counter[tuple[str, int]] = Counter()
    constant = 0
    for sign, n, sides in terms:
        if sides:
            counts[sign or "+", sides] += n
        else:
            constant += -n if sign == "-" else n
    total: Dist[int] = Dist({constant: 1})
    for (sign, sides), n in counts.items():
        total = total - dice(n, sides) if sign == "-" else total + dice(n, sides)
    return total


def comparison_chance(text: str) -> Any:
    """The exact chance that the comparison ``text`` (two dice expressions joined by one
    of :data:`COMPARISONS`) holds, or ``None`` when ``text`` compares nothing. The
    difference of the two sides is computed, so its size is what is checked.

    >>> comparison_chance("1000d1000>1000d1000")
    Traceback (most recent call last):
    ...
    exactprob.errors.UsageError: '1000d1000>1000d1000' has 1,998,001 outcomes; at most 1,000,000 are allowed
    """
    found = list(_COMPARISON.finditer(text))
    if not found:
        return None
    if len(found) > 1:
        raise UsageError(f"{quoted(text)} has {len(found)} comparisons; compare two sums once")
    left, right = text[: found[0].start()], text[found[0].end() :]
    if not left.strip() or not right.strip():
        raise UsageError(f"{quoted(text)}: a comparison needs a dice expression on each side")
    holds = COMPARISONS[found[0].group()]
    flipped = {"-": "+", "+": "-", "": "-"}
    terms = _terms(left) + [(flipped[sign], n, s) for sign, n, s in _terms(right)]
    _check_size(text, terms, "to compare exactly through the law of the difference")
    difference = _sum_of(terms)
    return sum((p for d, p in difference.items() if holds(d)), Fraction(0))


def _terms(text: str) -> list[tuple[str, int, int]]:
    """The terms of a dice expression as ``(sign, count, sides)``; a constant ``N`` is
    ``(sign, N, 0)``."""
    if _INNER_SPACE.search(text):
        raise UsageError(
            f"cannot read {text!r}: spaces are allowed only around + and -, e.g. '2d6 + 3'"
        )
    expression = "".join(text.split())
    if not expression:
        raise UsageError("empty dice expression; write something like 2d6+3")
    terms = []
    position = 0
    while position < len(expression):
        match = _TERM.match(expression, position)
        if match is None or match.end() == position or (position and not match.group(1)):
            raise UsageError(
                f"cannot read {text!r} at {expression[position:]!r}; "
                "allowed: terms NdS, dS or N joined by + and -, e.g. 2d6-2d6 or 12+8d10, "
                "and one comparison of two such sums, e.g. 3d6>d20"
            )
        sign, count, sides, constant = match.groups()
        if constant is not None:
            terms.append((sign, parse_whole("a constant", constant, 0, 10**12, UsageError), 0))
        else:
            n = parse_whole("the number of dice", count or "1", 1, MAX_DICE, UsageError)
            s = parse_whole("the number of sides", sides, 1, MAX_SIDES, UsageError)
            terms.append((sign, n, s))
        position = match.end()
    return terms


def run(args: argparse.Namespace) -> None:
    chance = comparison_chance(args.expression)
    if chance is not None:
        shown = " ".join(_COMPARISON.sub(lambda m: f" {m.group()} ", args.expression).split())
        answer = {"expression": args.expression, **exact_fields("probability", chance)}
        emit(answer, "\n".join([shown, *table_lines([("probability", chance)])]), args.json)
        return
    distribution = parse_dice(args.expression)
    mean, variance = distribution.mean(), distribution.variance()
    payload: dict[str, Any] = {"expression": args.expression}
    payload.update(exact_fields("mean", mean))
    payload.update(exact_fields("variance", variance))
    payload["distribution"] = probability_rows(distribution, "outcome")
    lines = [args.expression, *table_lines([("mean", mean), ("variance", variance)])]
    width = max(len("outcome"), *(len(str(k)) for k in distribution))
    lines += ["", f"  {'outcome':>{width}}  probability"]
    lines += [f"  {k:>{width}}  {exact_text(p)}" for k, p in distribution.items()]
    emit(payload, "\n".join(lines), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "dice",
        help=help_of("dice"),
        description=(
            "Print the exact distribution, mean and variance of a dice expression, or the "
            "exact chance that a comparison of two holds (3d6>d20)."
        ),
    )
    parser.add_argument(
        "expression",
        help="terms NdS, dS or N joined by + and - (2d6-2d6, 12+8D10); or two such sums "
        "joined by <, <=, >, >=, == or != (3d6>d20)",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
