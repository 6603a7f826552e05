r"""A small cyclic system solved the way one would by hand, every step kept for print.

The values of a cyclic component satisfy :math:`V_s = c_s + \sum_t a_{st} V_t` (the sum
over the component, :math:`c_s` the reward and the exits' known values). Eliminating a
state :math:`s` divides its own term out and writes it from the others,

.. math::

    V_s = \frac{c_s + \sum_{t \ne s} a_{st} V_t}{1 - a_{ss}},

which is then substituted into every remaining equation. The state eliminated next is the
one with the fewest links to the states still left (ties: the earliest given), so a chain
is taken from one end and each step has one term: the continued fraction of the
gambler's ruin. The last step has no terms left: it is that state's value. Numbers stay
exact: ``Fraction``, or sympy expressions put over one denominator and factored.

>>> from fractions import Fraction as F
>>> steps = eliminate({0: ({1: F(1, 2)}, F(1, 2)), 1: ({0: F(1, 2)}, F(0))})
>>> [(s.state, s.constant, s.terms) for s in steps]
[(0, Fraction(1, 2), ((Fraction(1, 2), 1),)), (1, Fraction(1, 3), ())]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...util.numbers import is_symbolic, to_sympy

__all__ = ["Step", "eliminate"]


@dataclass(frozen=True)
class Step:
    """One elimination: :math:`V_{state} = constant + \\sum_i a_i V_{t_i}` with ``terms``
    the pairs :math:`(a_i, t_i)` over the states not yet eliminated."""

    state: int
    constant: Any
    terms: tuple[tuple[Any, int], ...]


def eliminate(rows: Mapping[int, tuple[Mapping[int, Any], Any]]) -> list[Step]:
    """The steps of solving ``V_s = c_s + sum_t a_st V_t`` for the states ``s`` of ``rows``
    (``rows[s] = ({t: a_st}, c_s)``), fewest links first. A ``t`` outside ``rows`` stays a
    term of every step (a do-over: one state's row, its own term divided out).

    >>> from fractions import Fraction as F
    >>> [(s.constant, s.terms) for s in eliminate({0: ({0: F(1, 2), 9: F(1, 4)}, F(1, 4))})]
    [(Fraction(1, 2), ((Fraction(1, 2), 9),))]
    """
    left = {s: (dict(a), c) for s, (a, c) in rows.items()}
    position = {s: i for i, s in enumerate(rows)}
    steps: list[Step] = []
    while left:
        s = min(left, key=lambda u: (sum(t != u for t in left[u][0]), position[u]))
        a, c = left.pop(s)
        keep = 1 - a.pop(s, 0)
        a = {t: _simplified(x / keep) for t, x in a.items()}
        c = _simplified(c / keep)
        steps.append(Step(s, c, tuple((x, t) for t, x in sorted(a.items(), key=_given(position)))))
        for u, (b, d) in left.items():
            x = b.pop(s, 0)
            if x == 0:
                continue
            for t, y in a.items():
                b[t] = _simplified(b.get(t, 0) + x * y)
            left[u] = (b, _simplified(d + x * c))
    return steps


def _given(position: Mapping[int, int]) -> Any:
    """Terms in the order their states were given; states outside the system (a
    one-state system's moves out) after them, in their own order."""
    return lambda item: position.get(item[0], len(position))


def _simplified(x: Any) -> Any:
    """A rational as is; a sympy expression over one denominator, factored."""
    if not is_symbolic(x):
        return x
    import sympy

    return sympy.factor(sympy.cancel(to_sympy(x)))
