"""The state graph: exploring a model's reachable states into flat columns
(:mod:`.exploring`, :mod:`.state_graph`), and pushing probability forward along a fixed
policy (:mod:`.forward`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
