"""The long run: of a chain (:mod:`.chain`: closed classes, stationary laws, periods,
settling, averages and passage times), of a play's gain and bias (:mod:`.evaluation`),
and of the best play of a model with choices (:mod:`.policy_iteration`)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
