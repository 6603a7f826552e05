"""The engine: models, distributions, exploration, the front door (:mod:`.methods`), the
result protocol (:mod:`.results`), the generic solving methods and simulation. Its
internals are in :mod:`._internal`; ``exactprob/__init__.py`` is its public face."""
