"""Answers as formulas: best play as a function of one parameter, in exact pieces
(:mod:`.piecewise`), closed forms checked against exact answers (:mod:`.formulas`), and
probability generating functions (:mod:`.generating`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
