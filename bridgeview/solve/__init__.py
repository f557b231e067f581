"""Double-dummy analysis: DD tables, par and per-card trick counts (DDS via endplay; par of a table without it).

Importing this package does not import endplay (it is slow to import); the
solving functions import it on first use.
"""

from __future__ import annotations

from .dds import (
    MAX_TABLES,
    SolveCancelled,
    costly_cards,
    from_endplay,
    par,
    par_contracts,
    par_text,
    solve_position,
    solve_table,
    solve_tables,
    to_endplay,
    unsolvable_reason,
)
from .par_rules import ParContract, dealer_par

__all__ = [
    "MAX_TABLES",
    "ParContract",
    "SolveCancelled",
    "costly_cards",
    "dealer_par",
    "from_endplay",
    "par",
    "par_contracts",
    "par_text",
    "solve_position",
    "solve_table",
    "solve_tables",
    "to_endplay",
    "unsolvable_reason",
]
