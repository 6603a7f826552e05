from .cluster import cluster_client, cluster_runner, worker_need
from .laws import reward_law
from .model import LevelModel, LevelMoves, NextLevel, NextValues, summed_by
from .sweep import LevelSolution, solve_levels

__all__ = [
    "LevelModel",
    "LevelMoves",
    "LevelSolution",
    "NextLevel",
    "NextValues",
    "cluster_client",
    "cluster_runner",
    "reward_law",
    "solve_levels",
    "summed_by",
    "worker_need",
]
