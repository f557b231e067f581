"""The Qt-free model of bridge deals and boards (and cribbage games)."""

from .auction import DOUBLE, PASS, REDOUBLE, Call, CallKind, Contract, auction_problems, final_contract
from .board import Board
from .boardset import BoardSet, DupControl, FileInfo, LazyBoardSet
from .cards import CARDS, DISPLAY_STRAINS, DISPLAY_SUITS, Card, Seat, Strain, Suit
from .ddtable import DDTable
from .deal import Deal
from .vulnerability import Vulnerability, board_for, dealer_for_board, vulnerability_for_board

__all__ = [
    "Board",
    "BoardSet",
    "CARDS",
    "Call",
    "CallKind",
    "Card",
    "Contract",
    "DDTable",
    "DISPLAY_STRAINS",
    "DISPLAY_SUITS",
    "DOUBLE",
    "Deal",
    "DupControl",
    "FileInfo",
    "LazyBoardSet",
    "PASS",
    "REDOUBLE",
    "Seat",
    "Strain",
    "Suit",
    "Vulnerability",
    "auction_problems",
    "board_for",
    "dealer_for_board",
    "final_contract",
    "vulnerability_for_board",
]
