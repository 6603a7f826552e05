"""Test configuration: the shared models module on the path, and hypothesis settings.

Hypothesis runs without a deadline (exact arithmetic and sympy have uneven timings) and
with a modest number of examples per property so the whole suite stays fast; set
``HYPOTHESIS_PROFILE=thorough`` for a longer search.
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # `import models` from any import mode

settings.register_profile(
    "exactprob",
    deadline=None,
    max_examples=50,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("thorough", parent=settings.get_profile("exactprob"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "exactprob"))
