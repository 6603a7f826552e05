"""Games of ``n`` seats, each playing for itself: the exact subgame-perfect equilibrium in
stationary strategies (:mod:`.solving`) and its answer, with the ties that matter to
another seat (:mod:`.solution`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
