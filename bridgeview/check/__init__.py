"""Checking a set before a machine deals it, and comparing two sets (Qt-free).

Imports only :mod:`bridgeview.model` and :mod:`bridgeview.formats`.
"""

from .compare import BoardDiff, compare_sets, deal_difference, rotation, tag_differences
from .ready import Issue, check_set, count_tables, problems_by_index, summary

__all__ = [
    "BoardDiff",
    "Issue",
    "check_set",
    "compare_sets",
    "count_tables",
    "deal_difference",
    "problems_by_index",
    "rotation",
    "summary",
    "tag_differences",
]
