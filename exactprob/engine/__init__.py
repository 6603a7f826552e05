"""The engine's face: the names the games and ``exactprob``'s own face import, each
loaded from its room on first use (the stub ``__init__.pyi`` lists them).

The rooms: the model kinds (:mod:`.model`, :mod:`.array_model`, :mod:`.choice_tree`),
models made from a model (:mod:`.wrapped`: within a horizon, endings paid by label),
distributions (:mod:`.dist`) and enclosures (:mod:`.enclosure`); the state graph
(:mod:`.graph`); the front door (:mod:`.methods`) and the result protocol
(:mod:`.results`, :mod:`.fast_path`); the methods (:mod:`.exact`, :mod:`.certified`,
:mod:`.symbolic`, :mod:`.levels`); the long run of chains (:mod:`.long_run`);
simulation (:mod:`.simulation`); the names kept for one version (:mod:`.deprecated`).
What only the engine uses is in :mod:`._internal`.

>>> from exactprob.engine import die, solve
>>> (die(6) + die(6))[7]
Fraction(1, 6)
"""

import sys

import lazy_loader

from .deprecated import keep_moved_modules

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
keep_moved_modules(sys.modules[__name__])
