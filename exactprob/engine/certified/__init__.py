"""Certified mode: every state's optimal value enclosed with exact rational ends
(:class:`~exactprob.engine.enclosure.Enclosure`), computed in floats (:mod:`.solving`),
and certified laws of a whole-number total (:mod:`.law`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
