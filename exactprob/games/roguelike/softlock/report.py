r"""The floating eye's softlock answered in full, one call: the walk's drift and return
probability, the chance of being locked forever under both turn orders (algebraic
numbers), and for a number of turns the exact rational or a certified enclosure
(:func:`softlock_report`). One result (:class:`SoftlockReport`) with its JSON form and its
text, which is all the ``exactprob softlock`` command prints.

AC 10, one eye: the gaze succeeds with :math:`g = 11/20`, and the walk returns with
:math:`\rho = \sqrt{2/g - 1} - 1` (proved in ``proofs/proof_softlock.py``), so
:math:`1 - \rho = 2 - \sqrt{319}/11`:

>>> softlock_report(10).to_json()["locked"]
'2 - sqrt(319)/11'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....engine import Enclosure
from ....errors import ModelError
from ....util.deprecation import ReportMethod, method_of_exact
from ....util.display import Report
from ....util.numbers import (
    decimal_string,
    digit_count,
    exact_fields,
    exact_map_fields,
    whole_number,
)
from ....util.text import agreed_decimal, table_lines
from .walk import (
    ENCLOSURE_BITS,
    EXACT_LIMIT,
    TURN_ORDERS,
    drift,
    drift_threshold,
    gaze_probability,
    locked_enclosure,
    locked_forever,
    locked_within,
    return_probability,
)

__all__ = [
    "CLOSED_FORM_DIGITS",
    "LONG_RUN_TURNS",
    "SoftlockReport",
    "softlock_report",
]

#: Decimal places of the algebraic numbers.
CLOSED_FORM_DIGITS = 40
#: Runs with at least this many turns show a progress bar (when bars are asked for).
LONG_RUN_TURNS = 4000


def closed_form_payload(ac: int, eyes: int) -> dict[str, Any]:
    """The walk and the locked-forever value (without a number of turns)."""
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
    """The JSON fields of the locked probability for a number of turns."""
    if isinstance(value, Fraction):
        return {
            **exact_fields("locked", value),
            "exact": True,
            "locked_digits": {
                "numerator": digit_count(value.numerator),
                "denominator": digit_count(value.denominator),
            },
        }
    return {  # no exact value: its enclosure's ends, each with its decimal twin
        "locked_decimal": agreed_decimal(value.low, value.high, CLOSED_FORM_DIGITS),
        "exact": False,
        **exact_fields("locked_low", value.low, CLOSED_FORM_DIGITS),
        **exact_fields("locked_high", value.high, CLOSED_FORM_DIGITS),
        "locked_width_decimal": f"{float(value.width()):.3e}",
        "certificate": (
            f"fixed-point DP with {bits} bits, rounded down; the truth lies above the low end "
            "by less than the width (pass --exact for the exact rational)"
        ),
    }


#: How rho is written, in words.
_FORMS = {
    "rational": "rational",
    "radicals": "written in radicals",
    "root_of": "a root of its minimal polynomial",
}


def text_of(
    payload: dict[str, Any], rho: Any, forever: dict[str, Any], value: Fraction | Enclosure | None
) -> str:
    """The readable report: ``rho`` the return probability, ``forever`` the chance of being
    locked forever by turn order (algebraic numbers), ``value`` the result for a number of
    turns, if asked."""
    eyes = "1 eye" if payload["eyes"] == 1 else f"{payload['eyes']} eyes"
    order = payload["turn_order"]
    (other,) = (o for o in forever if o != order)
    rows: list[tuple[str, Any]] = [
        ("drift E[J] - 1", payload["drift_value"]),
        ("rho = P(free, ever)", rho),
        ("locked forever", forever[order]),
        (f"  in the {other}'s turn order", forever[other]),
    ]
    if value is not None:
        rows.append((f"locked {payload['limit']:,} turns", value))
    head = (
        f"Floating-eye softlock: AC {payload['ac']}, {eyes}, gaze {payload['gaze']} per eye, "
        f"{order}'s turn order"
    )
    threshold, form = payload["drift_threshold_ac"], _FORMS[payload["form"]]
    lines = [
        head,
        *table_lines(rows),
        f"  the drift is positive from AC {threshold}; rho is {form}",
    ]
    if payload["galois_group"] is not None:
        solvable = "solvable" if payload["solvable"] else "not solvable: no radicals exist"
        lines.append(f"  Galois group of rho  {payload['galois_group']} ({solvable})")
    if isinstance(value, Enclosure):
        lines.append("  (certified: pass --exact for the exact rational)")
    return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class SoftlockReport(Report):
    """The closed forms for ``ac`` and ``eyes`` (``rho``, and ``forever`` by turn order),
    and the value for ``limit`` turns."""

    payload: dict[str, Any]
    rho: Any
    forever: dict[str, Any]
    value: Fraction | Enclosure | None = None

    def _build(self) -> dict[str, Any]:
        return {k: v for k, v in self.payload.items() if k != "drift_value"}

    def text(self) -> str:
        """The report for people."""
        return text_of(self.payload, self.rho, self.forever, self.value)


def softlock_report(
    ac: int,
    eyes: int = 1,
    limit: int | None = None,
    *,
    turn_order: str = "game",
    method: ReportMethod | None = None,
    exact: bool | None = None,
    bits: int = ENCLOSURE_BITS,
    progress: bool = False,
) -> SoftlockReport:
    """The softlock of a hero of armour class ``ac`` facing ``eyes`` floating eyes:
    locked forever, and within ``limit`` turns when given, by ``method``: ``"exact"``,
    ``"certified"`` (with ``bits`` bits), or by default exact up to
    :data:`~.softlock.EXACT_LIMIT` turns and certified beyond (``exact=True`` is the
    deprecated spelling of ``method="exact"``); ``progress`` shows a bar on long runs (:data:`LONG_RUN_TURNS`)."""
    method = method_of_exact(exact, method, if_false=None)
    if turn_order not in TURN_ORDERS:
        raise ModelError(f"turn_order must be one of {', '.join(TURN_ORDERS)}, got {turn_order!r}")
    if limit is not None:
        whole_number("limit", limit, 1)
    payload: dict[str, Any] = {"ac": ac, "eyes": eyes, "limit": limit, "turn_order": turn_order}
    payload.update(closed_form_payload(ac, eyes))
    both = {o: locked_forever(ac, eyes, turn_order=o) for o in TURN_ORDERS}
    payload |= exact_map_fields("locked_forever_by_turn_order", both, CLOSED_FORM_DIGITS)
    rho = return_probability(ac, eyes).value
    payload["drift_value"] = drift(ac, eyes)
    if limit is None:
        payload["locked"] = str(both[turn_order])  # the answer: locked forever
        payload["locked_decimal"] = decimal_string(both[turn_order], CLOSED_FORM_DIGITS)
        payload["exact"] = True
        return SoftlockReport(payload, rho, both)
    progress = progress and limit >= LONG_RUN_TURNS
    value: Fraction | Enclosure
    if method == "exact" or (method is None and limit <= EXACT_LIMIT):
        value = locked_within(ac, limit, eyes, progress=progress, turn_order=turn_order)
    else:
        value = locked_enclosure(ac, limit, eyes, bits, progress=progress, turn_order=turn_order)
    payload.update(limit_payload(value, bits))
    return SoftlockReport(payload, rho, both, value)
