"""``exactprob softlock``: the chance that floating eyes keep the hero paralysed.

Without ``--limit``: the limit as the turns go to infinity, an algebraic number given as a
sympy expression (radicals, or a ``CRootOf`` when no radicals exist). With ``--limit N``: the
exact rational for up to ``EXACT_LIMIT`` turns (or any ``N`` with ``--exact``), else a
certified enclosure with exact rational ends, marked ``"exact": false``. ``--turn-order``
picks the game's order (the default) or the source's function; the JSON has the limit
under both.

>>> from exactprob.cli import main
>>> main(["softlock", "--ac", "10", "--json"])  # doctest: +ELLIPSIS
{
  "ac": 10,
  "eyes": 1,
  "limit": null,
  "turn_order": "game",
  "gaze": "11/20",
...
  "locked": "2 - sqrt(319)/11",
  "locked_decimal": "0.37631171822802257324...",
  "exact": true
}
0
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from ..enclosure import Enclosure
from ..errors import UsageError
from ..games.roguelike.softlock import (
    ENCLOSURE_BITS,
    EXACT_LIMIT,
    MAX_AC,
    TURN_ORDERS,
    drift,
    drift_threshold,
    gaze_probability,
    locked_enclosure,
    locked_forever,
    locked_within,
    return_probability,
)
from ..numbers import (
    decimal_string,
    digit_count,
    exact_fields,
    fraction_string,
    parse_whole,
    whole_number,
)
from ..text import exact_text
from . import help_of
from ._options import add_json_flag, integer
from ._output import emit, show_progress

__all__ = ["register", "run"]

#: Decimal places of the algebraic numbers.
CLOSED_FORM_DIGITS = 40
#: Runs with at least this many turns show a progress bar on stderr.
LONG_RUN_TURNS = 4000
MAX_LIMIT = 100_000
"""The certified enclosure grows as the square of the turns: 3.7 s at 10,000, minutes here."""
MAX_EXACT_LIMIT = 10_000


def certified_decimal(box: Enclosure, max_places: int = CLOSED_FORM_DIGITS) -> str:
    """The value inside ``box`` rounded to as many places as both ends agree on: both ends
    round (half to even) to the same decimal, so the value in between does too.

    >>> certified_decimal(Enclosure(Fraction(1234, 10**4), Fraction(1239, 10**4)))
    '0.12'
    >>> certified_decimal(Enclosure(1 - Fraction(1, 10**40), Fraction(1)))
    '1.000000000000000000000000000000000000000'
    """
    places = 0
    while places < max_places and decimal_string(box.low, places + 1) == decimal_string(
        box.high, places + 1
    ):
        places += 1
    return decimal_string(box.low, places)


def closed_form_payload(ac: int, eyes: int) -> dict[str, Any]:
    """The walk and the locked-forever value (without ``--limit``)."""
    rho = return_probability(ac, eyes)
    return {
        **exact_fields("gaze", gaze_probability(ac)),
        **exact_fields("drift", drift(ac, eyes)),
        "drift_threshold_ac": drift_threshold(eyes),
        "rho": str(rho.value),
        "rho_decimal": decimal_string(rho.value, CLOSED_FORM_DIGITS),
        "form": rho.form,
        "minimal_polynomial": str(rho.minimal_polynomial.as_expr()),
        "galois_group": rho.galois_group,
        "solvable": rho.solvable,
    }


def limit_payload(value: Fraction | Enclosure, bits: int) -> dict[str, Any]:
    """The JSON fields of the locked probability for ``--limit`` turns."""
    if isinstance(value, Fraction):
        return {
            **exact_fields("locked", value),
            "exact": True,
            "locked_digits": {
                "numerator": digit_count(value.numerator),
                "denominator": digit_count(value.denominator),
            },
        }
    return {
        "locked": f"Interval({fraction_string(value.low)}, {fraction_string(value.high)})",
        "locked_decimal": certified_decimal(value),
        "exact": False,
        "locked_low": fraction_string(value.low),
        "locked_high": fraction_string(value.high),
        "locked_width_decimal": f"{float(value.width()):.3e}",
        "certificate": (
            f"fixed-point DP with {bits} bits, rounded down; the truth lies above the low end "
            "by less than the width (pass --exact for the exact rational)"
        ),
    }


def text_of(payload: dict[str, Any], value: Fraction | Enclosure | None) -> str:
    """The readable report (``value``: the result for ``--limit`` turns, if asked)."""
    eyes = "1 eye" if payload["eyes"] == 1 else f"{payload['eyes']} eyes"
    threshold = payload["drift_threshold_ac"]
    other = next(o for o in payload["locked_forever_by_turn_order"] if o != payload["turn_order"])
    lines = [
        (
            f"Floating-eye softlock: AC {payload['ac']}, {eyes}, gaze {payload['gaze']} "
            f"per eye, {payload['turn_order']}'s turn order"
        ),
        f"  drift E[J] - 1        {payload['drift']} (positive from AC {threshold})",
        f"  rho = P(free, ever)   {payload['rho']}",
        f"                        = {payload['rho_decimal']} ({payload['form']})",
        f"  locked forever        {payload['locked_forever']}",
        f"                        = {payload['locked_forever_decimal']}",
        (
            f"  ({other}'s turn order: "
            f"{payload['locked_forever_by_turn_order'][other]['decimal'][:14]}...)"
        ),
    ]
    if payload["galois_group"] is not None:
        solvable = "solvable" if payload["solvable"] else "not solvable: no radicals exist"
        lines.append(f"  Galois group          {payload['galois_group']} ({solvable})")
    label = f"  locked {payload['limit']} turns"
    if isinstance(value, Fraction):
        lines.append(f"{label:<24}{exact_text(value)}")
    elif value is not None:
        lines.append(
            f"{label:<24}{payload['locked_decimal']}... (certified enclosure, width "
            f"{payload['locked_width_decimal']}; not exact: pass --exact)"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    ac = parse_whole("--ac", args.ac, 0, MAX_AC, UsageError)
    eyes = parse_whole("--eyes", args.eyes, 1, 2, UsageError)
    limit = (
        None if args.limit is None else parse_whole("--limit", args.limit, 1, MAX_LIMIT, UsageError)
    )
    if args.exact and limit is not None and limit > MAX_EXACT_LIMIT:
        raise UsageError(
            f"--exact is allowed up to --limit {MAX_EXACT_LIMIT:,} (about 200 s there: the "
            f"numbers have 14,500 digits); above, the certified enclosure is given"
        )
    bits = whole_number("--bits", args.bits, 8, 4096, UsageError)
    order = args.turn_order
    payload: dict[str, Any] = {"ac": ac, "eyes": eyes, "limit": limit, "turn_order": order}
    payload.update(closed_form_payload(ac, eyes))
    both = {o: locked_forever(ac, eyes, turn_order=o) for o in TURN_ORDERS}
    payload["locked_forever"] = str(both[order])
    payload["locked_forever_decimal"] = decimal_string(both[order], CLOSED_FORM_DIGITS)
    payload["locked_forever_by_turn_order"] = {
        o: {"value": str(v), "decimal": decimal_string(v, CLOSED_FORM_DIGITS)}
        for o, v in both.items()
    }
    value: Fraction | Enclosure | None = None
    if limit is None:
        payload["locked"] = payload["locked_forever"]
        payload["locked_decimal"] = payload["locked_forever_decimal"]
        payload["exact"] = True
    else:
        progress = show_progress(limit >= LONG_RUN_TURNS)
        if args.exact or limit <= EXACT_LIMIT:
            value = locked_within(ac, limit, eyes, progress=progress, turn_order=order)
        else:
            value = locked_enclosure(ac, limit, eyes, bits, progress=progress, turn_order=order)
        payload.update(limit_payload(value, bits))
    emit(payload, text_of(payload, value), args.json)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "softlock",
        help=help_of("softlock"),
        description=(
            "Each turn each eye's gaze succeeds with probability min(1, (1+AC)/20) and adds 2 "
            "or 3 to a paralysis counter; then a positive counter drops by 1, and a zero one "
            "frees the hero. Prints the chance of staying paralysed for --limit turns "
            "(exact rational, or a certified enclosure beyond "
            f"{EXACT_LIMIT} turns unless --exact), or forever (an algebraic number)."
        ),
    )
    parser.add_argument("--ac", required=True, help=f"armour class, 0 to {MAX_AC}")
    parser.add_argument(
        "--limit", metavar="N", help=f"turns (1 to {MAX_LIMIT:,}); omit for the limit N -> oo"
    )
    parser.add_argument("--eyes", default="1", help="gazing eyes, 1 or 2 (default 1)")
    parser.add_argument(
        "--turn-order",
        choices=TURN_ORDERS,
        default="game",
        help=(
            "game (default): as in Rogue, the eye gazes again before a freed hero acts; "
            "source: the essay's function, freed as soon as the counter drops to 0"
        ),
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help=f"exact rational beyond {EXACT_LIMIT} turns, up to {MAX_EXACT_LIMIT:,} (slow: N^3)",
    )
    parser.add_argument(
        "--bits",
        type=integer,
        default=ENCLOSURE_BITS,
        help=f"fixed-point bits of the certified enclosure (default {ENCLOSURE_BITS})",
    )
    add_json_flag(parser)
    parser.set_defaults(run=run)
