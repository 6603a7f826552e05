"""Models made from a model: played within a horizon of counted steps (:mod:`.horizon`),
and with endings that are labels paid by a table of payoffs (:mod:`.payoffs`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
