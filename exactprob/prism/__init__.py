"""Models in the PRISM language, checked exactly: DTMCs and MDPs read as the PRISM manual
defines them, their properties answered by the engine.

>>> import exactprob.prism as prism
>>> model = prism.loads('''mdp
...   module m  x : [0..2] init 0;
...     [safe] x=0 -> 1/2:(x'=1) + 1/2:(x'=2);
...     [bold] x=0 -> 3/4:(x'=1) + 1/4:(x'=2);
...     [] x>0 -> true;
...   endmodule''')
>>> model.check('Pmax=? [F x=1]').value, model.check('Pmin=? [F x=1]').value
(Fraction(3, 4), Fraction(1, 2))
"""

from .model import PrismModel, PropertyResult, load, loads
from .report import PrismReport, prism_report
from .syntax import Property

__all__ = [
    "PrismModel",
    "PrismReport",
    "Property",
    "PropertyResult",
    "load",
    "loads",
    "prism_report",
]
