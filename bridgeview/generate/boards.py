"""The produced deals as a board set, to save in any format or open in a tab.

Boards are numbered from the first board asked for; dealer and vulnerability
follow each board's number unless the script sets them (``dealer west``,
``vulnerable EW``: then every board has them).  The event says where the deals
came from, with the seed when there is one, so the same set can be made again.
A big set (more than :data:`LAZY_FROM` boards) stays as 32 bytes a deal and makes
its boards on demand, with numpy chunks for the fixed-record writers.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..formats.bulk import BulkChunk, masks_to_owners
from ..model.board import Board
from ..model.boardset import BoardSet, FileInfo, LazyBoardSet
from ..model.cards import Seat
from ..model.deal import Deal
from ..model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board
from .dealing import to_card_masks
from .script import Script

if TYPE_CHECKING:
    import numpy as np

LAZY_FROM = 10_000
BULK_CHUNK = 1 << 16


def set_info(script: Script, seed: int | None) -> FileInfo:
    """Event (the script and the seed) and today's date for the produced set."""
    name = script.name if script.name != "-" else "a script"
    seeded = f", seed {seed}" if seed is not None else ""
    return FileInfo(event=f"Deals from {name}{seeded}", date=datetime.date.today().strftime("%Y.%m.%d"))


def board_set(hands: np.ndarray, script: Script, *, first: int = 1, seed: int | None = None) -> BoardSet:
    """The boards of the produced deals (``(4, 4, k)`` holdings), numbered from ``first``."""
    masks = to_card_masks(hands)
    info = set_info(script, seed)
    dealer = Seat(script.dealer) if script.dealer is not None else None
    vulnerability = Vulnerability(script.vulnerable) if script.vulnerable is not None else None

    def board(index: int) -> Board:
        number = first + index
        north, east, south, west = (int(m) for m in masks[index])
        return Board(
            number=number,
            dealer=dealer if dealer is not None else dealer_for_board(number),
            vulnerability=vulnerability if vulnerability is not None else vulnerability_for_board(number),
            deal=Deal((north, east, south, west)),
        )

    count = int(masks.shape[0])
    if count <= LAZY_FROM:
        return BoardSet([board(i) for i in range(count)], info)

    def chunks() -> Iterator[BulkChunk]:
        import numpy as np

        for start in range(0, count, BULK_CHUNK):
            part = masks[start : start + BULK_CHUNK]
            numbers = np.arange(first + start, first + start + len(part), dtype=np.int64)
            yield BulkChunk(owners=masks_to_owners(part), numbers=numbers, masks=part)

    return LazyBoardSet(count, board, info, bulk=chunks, first_number=first)
