"""Pig, Fowl Play and Red Light: exact optimal play, komi, redesign and approximate players."""

from .fowl_arrays import FowlPlayArrays
from .rules import FOWL_PLAY, RED_LIGHT, FowlPlay, JeopardyModel, Pig

__all__ = ["FOWL_PLAY", "RED_LIGHT", "FowlPlay", "FowlPlayArrays", "JeopardyModel", "Pig"]
