"""The state graph: a model's reachable states explored into flat columns
(:mod:`.exploring`, :mod:`.state_graph`; an :class:`~exactprob.engine.array_model.ArrayModel`
a level at a time, :mod:`.bulk`), and every action's value from the values of the states
it reaches (:mod:`.action_values`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
