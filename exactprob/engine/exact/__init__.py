"""Exact mode: optimal values and policies with exact ties from the explored graph
(:mod:`.solving`, in the field of :mod:`.system`), the answer and its laws of play
(:mod:`.solution`, pushed forward by :mod:`.forward`), fixed policies (:mod:`.policies`),
depth-first without a stored graph (:mod:`.depth_first`), and the derivation written out
(:mod:`.derivation`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
