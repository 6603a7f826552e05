from .chain import LongRun, stationary

__all__ = ["LongRun", "stationary"]
