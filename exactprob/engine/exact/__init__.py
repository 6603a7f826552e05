"""Exact mode: optimal values, policies with exact ties and the laws of play from the
explored graph (:mod:`.solving`), depth-first without a stored graph
(:mod:`.depth_first`), and the derivation written out (:mod:`.derivation`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
