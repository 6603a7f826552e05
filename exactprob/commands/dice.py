"""``exactprob dice EXPR``: the exact distribution of a dice expression.

The grammar is a sum of terms ``NdS``, ``dS`` or whole numbers, joined by ``+`` and ``-``
(no spaces needed): ``2d6-2d6``, ``12+8d10``, ``d20``.

>>> parse_dice("2d6-2d6")[0]
Fraction(73, 648)
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Any

from ..cli import UsageError, add_json_flag, emit
from ..dist import Dist, dice
from ..numbers import decimal_string, exact_fields, fraction_string, parse_whole
from . import help_of

_TERM = re.compile(r"([+-]?)(?:([0-9]*)d([0-9]+)|([0-9]+))")
_INNER_SPACE = re.compile(r"[0-9d]\s+[0-9d]")
MAX_DICE = 10_000
MAX_SIDES = 10_000
MAX_OUTCOMES = 1_000_000
#: Outcomes times the digits of each probability's denominator (n log10 s): the size of
#: the exact answer, which is what costs time and memory.
MAX_DIGITS = 50_000_000


def parse_dice(text: str) -> Dist[int]:
    """The distribution of a dice expression such as ``"12+8d10"``."""
    if _INNER_SPACE.search(text):
        raise UsageError(
            f"cannot read {text!r}: spaces are allowed only around + and -, e.g. '2d6 + 3'"
        )
    expression = "".join(text.split())
    if not expression:
        raise UsageError("empty dice expression; write something like 2d6+3")
    total: Dist[int] = Dist({0: 1})
    position = 0
    while position < len(expression):
        match = _TERM.match(expression, position)
        if match is None or match.end() == position or (position and not match.group(1)):
            raise UsageError(
                f"cannot read {text!r} at {expression[position:]!r}; "
                "allowed: terms NdS, dS or N joined by + and -, e.g. 2d6-2d6 or 12+8d10"
            )
        sign, count, sides, constant = match.groups()
        if constant is not None:
            term: Any = parse_whole("a constant", constant, 0, 10**12, UsageError)
        else:
            n = parse_whole("the number of dice", count or "1", 1, MAX_DICE, UsageError)
            s = parse_whole("the number of sides", sides, 1, MAX_SIDES, UsageError)
            outcomes = n * (s - 1) + 1
            if outcomes > MAX_OUTCOMES:
                raise UsageError(
                    f"{n}d{s} has {outcomes:,} outcomes; at most {MAX_OUTCOMES:,} are allowed"
                )
            if outcomes * n * math.log10(s) > MAX_DIGITS:
                raise UsageError(
                    f"{n}d{s} is too large to write out exactly ({outcomes:,} probabilities of "
                    f"about {n * math.log10(s):,.0f} digits each); at most {MAX_DIGITS:,} digits "
                    "in all are allowed"
                )
            term = dice(n, s)
        total = total - term if sign == "-" else total + term
        position = match.end()
    return total


def run(args: argparse.Namespace) -> None:
    distribution = parse_dice(args.expression)
    mean, variance = distribution.mean(), distribution.variance()
    payload: dict[str, Any] = {"expression": args.expression}
    payload.update(exact_fields("mean", mean))
    payload.update(exact_fields("variance", variance))
    payload["distribution"] = [
        {"outcome": k, **exact_fields("probability", p)} for k, p in distribution.items()
    ]
    summary = (
        f"{args.expression}: mean {fraction_string(mean)} ({decimal_string(mean, 6)}), "
        f"variance {fraction_string(variance)} ({decimal_string(variance, 6)})"
    )
    lines = [summary]
    lines += [
        f"{k:>8}  {fraction_string(p):>24}  {decimal_string(p, 8)}" for k, p in distribution.items()
    ]
    emit(payload, "\n".join(lines), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "dice",
        help=help_of("dice"),
        description="Print the exact distribution, mean and variance of a dice expression.",
    )
    parser.add_argument("expression", help="terms NdS, dS or N joined by + and -")
    add_json_flag(parser)
    parser.set_defaults(run=run)
