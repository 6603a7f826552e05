"""Level models: a vectorised step solved a level at a time (:mod:`.model`), the sweep
from the last level to the first in batches (:mod:`.sweep`, :mod:`.batches`), on Dask
when asked (:mod:`.cluster`), and the law of the total reward (:mod:`.laws`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
