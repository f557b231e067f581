"""The Qt-free model of bridge deals and boards (and cribbage games).

The names below are the model's usual ones, each imported from its module on first use (PEP 562): importing
one module of the model (``bridgeview.model.deal``, say) imports this package first, and a command that reads
a file of deals needs no auctions or play.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .auction import DOUBLE, PASS, REDOUBLE, Call, CallKind, Contract, auction_problems, final_contract
    from .board import Board
    from .boardset import BoardSet, DupControl, FileInfo, LazyBoardSet
    from .cards import CARDS, DISPLAY_STRAINS, DISPLAY_SUITS, Card, Seat, Strain, Suit
    from .ddtable import DDTable
    from .deal import Deal
    from .vulnerability import Vulnerability, board_for, dealer_for_board, vulnerability_for_board

#: each name's module
_MODULE_OF = {
    "DOUBLE": "auction",
    "PASS": "auction",
    "REDOUBLE": "auction",
    "Call": "auction",
    "CallKind": "auction",
    "Contract": "auction",
    "auction_problems": "auction",
    "final_contract": "auction",
    "Board": "board",
    "BoardSet": "boardset",
    "DupControl": "boardset",
    "FileInfo": "boardset",
    "LazyBoardSet": "boardset",
    "CARDS": "cards",
    "DISPLAY_STRAINS": "cards",
    "DISPLAY_SUITS": "cards",
    "Card": "cards",
    "Seat": "cards",
    "Strain": "cards",
    "Suit": "cards",
    "DDTable": "ddtable",
    "Deal": "deal",
    "Vulnerability": "vulnerability",
    "board_for": "vulnerability",
    "dealer_for_board": "vulnerability",
    "vulnerability_for_board": "vulnerability",
}

__all__ = [
    "auction_problems",
    "Board",
    "board_for",
    "BoardSet",
    "Call",
    "CallKind",
    "Card",
    "CARDS",
    "Contract",
    "DDTable",
    "Deal",
    "dealer_for_board",
    "DISPLAY_STRAINS",
    "DISPLAY_SUITS",
    "DOUBLE",
    "DupControl",
    "FileInfo",
    "final_contract",
    "LazyBoardSet",
    "PASS",
    "REDOUBLE",
    "Seat",
    "Strain",
    "Suit",
    "Vulnerability",
    "vulnerability_for_board",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # found once
    return value
