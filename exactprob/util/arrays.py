"""Index arithmetic on numpy arrays, for graphs kept in flat columns.

>>> ranges(np.array([5, 0]), np.array([2, 3]))
array([5, 6, 0, 1, 2])
"""

from __future__ import annotations

import numpy as np

__all__ = ["ranges"]


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The concatenated integer ranges ``starts[i] .. starts[i] + counts[i] - 1``."""
    total = int(counts.sum())
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(total)
