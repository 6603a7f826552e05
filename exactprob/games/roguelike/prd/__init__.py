"""Pseudo-random distribution (PRD) tables, exactly: a chance that grows with each miss and
resets on a hit.

* :mod:`.table`: the table itself, its exact rate and the distribution of the gap between
  hits;
* :mod:`.trials`: hits in :math:`N` trials exactly, their moments, the longest miss run;
* :mod:`.bounds`: certified bounds on the hits distribution where exact numbers grow too
  long;
* :mod:`.inverse`: the inverse problem, the constant of a linear table for a target rate;
* :mod:`.simulator`: an independent simulator from the rules, on either generator;
* :mod:`.figures`: the gap and hits figures (loaded on use: they need matplotlib);
* :mod:`.report`: a table, or the inverse problem, answered in full in one call.

>>> PRDTable.from_odds(["1/4", "1"]).rate()
Fraction(4, 7)
"""

from __future__ import annotations

from .bounds import HitsEnclosure, hits_enclosure
from .inverse import PRDConstant, certified_root, linear_constant, linear_table
from .report import (
    ConstantReport,
    PRDReport,
    Simulated,
    check_work,
    constant_report,
    distribution_is_exact,
    prd_report,
)
from .simulator import SimulatedHits, simulate_hits
from .table import MAX_TABLE_SIZE, THRESHOLD_SCALE, PRDTable, threshold_probability
from .trials import hit_moments, hits_distribution, hits_range, longest_miss_run

__all__ = [
    "MAX_TABLE_SIZE",
    "THRESHOLD_SCALE",
    "ConstantReport",
    "HitsEnclosure",
    "PRDConstant",
    "PRDReport",
    "PRDTable",
    "Simulated",
    "SimulatedHits",
    "certified_root",
    "check_work",
    "constant_report",
    "distribution_is_exact",
    "hit_moments",
    "hits_distribution",
    "hits_enclosure",
    "hits_range",
    "linear_constant",
    "linear_table",
    "longest_miss_run",
    "prd_report",
    "simulate_hits",
    "threshold_probability",
]
