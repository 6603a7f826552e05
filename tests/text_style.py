"""The one text style of every subcommand (``exactprob.util.text``), as a check of printed
text: decimals with 10 places (10 significant digits in scientific notation; a bound on
an error, two), every fraction after its decimal and ``=``, long fractions summarised,
no Python reprs. The
first line of a report restates the question, in the user's own numbers, and is not
checked; nor are the floats of a simulation, on lines that say "simulated" or give an
estimate's error ("+-", a z-score)."""

from __future__ import annotations

import re

_DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(e-?\d+)?(?![\w.])")
_FRACTION = re.compile(r"(?<![\w./])-?\d+/\d+(?![\w/])")
_AFTER_ITS_DECIMAL = re.compile(r"-?\d+\.\d{10}(e-?\d+)? = $|-?\d\.\d{9}e-?\d+ = $")
_REPR = re.compile(r"Fraction\(|mpq\(|\{'|\['|np\.|array\(|Enclosure\(")
_ESTIMATE = re.compile(r"simulated|\+-|z = ")
#: A bound (how far a certified value may be off): two significant digits, rounded up.
_BOUND = re.compile(r"(?<![\w.])\d\.\de-?\d+(?![\w.])")


def style_faults(text: str) -> list[str]:
    """The lines of ``text`` (its first aside) that break the style, each with why.

    >>> style_faults("Q\\n  win  0.2500000000 = 1/4\\n  rounds  3\\n  p  1/4")
    ['  p  1/4: fraction 1/4 not after its decimal']
    """
    faults = []
    for line in text.splitlines()[1:]:
        if _ESTIMATE.search(line):
            continue
        bare = _BOUND.sub("bound", line)
        faults += [
            f"{line}: decimal {m.group()} has not 10 places (or 10 significant digits)"
            for m in _DECIMAL.finditer(bare)
            if not re.fullmatch(r"-?\d+\.\d{10}|-?\d\.\d{9}e-?\d+", m.group())
        ]
        faults += [
            f"{line}: fraction {m.group()} not after its decimal"
            for m in _FRACTION.finditer(bare)
            if not _AFTER_ITS_DECIMAL.search(bare[: m.start()])
        ]
        if _REPR.search(line):
            faults.append(f"{line}: a Python repr")
        if len(line) > 200:
            faults.append(f"{line[:60]}...: {len(line)} characters")
    return faults
