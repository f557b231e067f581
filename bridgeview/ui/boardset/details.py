"""The "Details" tab: what the file says of itself and what we know of the current board."""

from __future__ import annotations

import html
import os
import re
import threading

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from ...app.describe import info_lines
from ...formats.checksum import pavlicek_checksum
from ...formats.codec import meaningful
from ...model.board import Board
from ...model.boardset import BoardSet
from ...model.text import plural
from ..theme import LABEL_GREY, RED

#: files up to this size get their checksum at once; bigger ones in a thread
SYNC_CHECKSUM_BYTES = 8 << 20


class _ChecksumDone(QObject):
    done = Signal(object)  # a 64-bit checksum overflows a Qt int


_SUIT_CODE = re.compile(r"[@!]([SHDCshdc])(?![a-z])")
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: tags that record where things stood for the codecs, not data a reader looks for
BOOKKEEPING_TAGS = frozenset({"LinNoteAt", "Auction:rest"})


def suit_symbols(text: str) -> str:
    """Commentary as a player reads it: BBO's ``@H5`` and PBN's ``\\H``/``!H`` suit codes as ♥5."""
    text = _SUIT_CODE.sub(lambda m: _SYMBOLS[m.group(1).upper()], text)
    return re.sub(r"\\([SHDC])", lambda m: _SYMBOLS[m.group(1)], text)


def board_rows(board: Board | None, index: int, boards: BoardSet) -> list[tuple[str, str]]:
    """(label, value) pairs describing board ``index``."""
    if board is None:
        return []
    rows: list[tuple[str, str]] = [("record", f"{index + 1} of {len(boards)}")]
    offset = boards.record_offset(index) if hasattr(boards, "record_offset") else None
    if offset is not None:
        rows.append(("record offset", f"{offset} (0x{offset:X})"))
    rows.append(("board", "—" if board.number is None else str(board.number)))
    implied = " (from the number)"
    rows.append(("dealer", board.effective_dealer.name.title() + ("" if board.dealer is not None else implied)))
    vul = board.effective_vulnerability.text
    rows.append(("vulnerable", vul + ("" if board.vulnerability is not None else implied)))
    rows.append(("cards", str(board.deal.card_count)))
    contract, declarer = board.contract_and_declarer()
    if contract is not None:
        by = f" by {declarer.letter}" if declarer is not None and not contract.is_passed_out else ""
        rows.append(("contract", contract.symbol_text() + by))
    if board.result is not None:
        rows.append(("result", plural(board.result, "trick")))
    if board.claim is not None:
        rows.append(("claim", plural(board.claim, "trick")))
    if board.play:
        rows.append(("cards played", str(len(board.play))))
    for key, value in board.tags.items():
        if key in BOOKKEEPING_TAGS or not meaningful(value):  # bookkeeping shown elsewhere; "?"/"#" say nothing
            continue
        rows.append((key, suit_symbols(value)))
    for note in board.notes:
        rows.append(("note", suit_symbols(note)))
    for problem in board.problems():
        rows.append(("problem", problem))
    return rows


class DetailsPanel(QWidget):
    """File information (format, header, DUP control, checksum) and board details."""

    def __init__(self, boards: BoardSet, path: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boards = boards
        self.path = path
        self._file_rows: list[tuple[str, str]] = []
        self._board_rows: list[tuple[str, str]] = []
        self._notify = _ChecksumDone(self)
        self._notify.done.connect(self._checksum_ready)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QTextBrowser(self)
        self.text.setOpenLinks(False)
        layout.addWidget(self.text)
        self._start_file_rows()

    # -- file part ---------------------------------------------------------------
    def _start_file_rows(self) -> None:
        info = getattr(self.boards, "info", None)
        if self.path is None or info is None or not os.path.exists(self.path):
            self._file_rows = [("file", self.path or "(new)")]
            return
        if info.checksum is None and os.path.getsize(self.path) > SYNC_CHECKSUM_BYTES:
            # a big file: show everything else now, the checksum when a thread has summed it
            self._file_rows = [r for r in self._rows_with_checksum(self.path, -1) if r[0] != "checksum"]
            self._file_rows.append(("checksum", "computing…"))
            self._file_rows += self._warnings()
            path = self.path
            notify = self._notify

            def work() -> None:
                try:
                    value = pavlicek_checksum(path)
                except OSError:
                    value = -1
                try:
                    notify.done.emit(value)
                except RuntimeError:  # the panel is gone
                    pass

            threading.Thread(target=work, name="checksum", daemon=True).start()
        else:
            self._file_rows = info_lines(self.path, self.boards) + self._warnings()

    def _warnings(self) -> list[tuple[str, str]]:
        """What the reader survived, as rows (the first 50)."""
        problems = getattr(self.boards, "problems", None)
        if not isinstance(problems, list):
            return []
        rows = []
        for index, line, message in problems[:50]:
            where = f"line {line}: " if line is not None else (f"record {index + 1}: " if index is not None else "")
            rows.append(("warning", where + message))
        if len(problems) > 50:
            rows.append(("warning", f"… and {len(problems) - 50} more"))
        return rows

    def _rows_with_checksum(self, path: str, value: int) -> list[tuple[str, str]]:
        info = self.boards.info
        saved = info.checksum
        info.checksum = value if value >= 0 else 0
        try:
            return info_lines(path, self.boards)
        finally:
            info.checksum = saved

    def _checksum_ready(self, value: int) -> None:
        if value >= 0 and self.path is not None:  # (a checksum is only summed for a file on disk)
            self.boards.info.checksum = value
            self._file_rows = info_lines(self.path, self.boards) + self._warnings()
        else:
            self._file_rows = [r if r[0] != "checksum" else ("checksum", "unreadable") for r in self._file_rows]
        self._render()

    # -- board part --------------------------------------------------------------
    def show_board(self, board: Board | None, index: int) -> None:
        self._board_rows = board_rows(board, index, self.boards)
        self._render()

    def file_rows(self) -> list[tuple[str, str]]:
        """The file part as shown: PBN's "?" placeholders for event, site and date are left out."""
        return [(k, v) for k, v in self._file_rows if k not in ("event", "site", "date") or meaningful(v)]

    def current_board_rows(self) -> list[tuple[str, str]]:
        return list(self._board_rows)

    def _render(self) -> None:
        def table(title: str, rows: list[tuple[str, str]]) -> str:
            body = "".join(
                f"<tr><td style='color:{LABEL_GREY.name()};padding-right:10px;white-space:nowrap'>{html.escape(k)}</td>"
                f"<td{' style=color:' + RED.name() if k in ('problem', 'warning') else ''}>{html.escape(v)}</td></tr>"
                for k, v in rows
            )
            return f"<h4 style='margin:6px 0 2px 0'>{title}</h4><table cellspacing=0>{body}</table>"

        self.text.setHtml(table("Board", self._board_rows) + table("File", self.file_rows()))
