"""The board list's table model: one row per board, decoded only when Qt asks for it.

``rowCount`` is ``len(boards)`` and nothing is computed per row in advance, so
a ten-million-deal lazy set costs no more to list than a small file; a small
cache keeps the rows on screen from being decoded once per column.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

from ...model.board import Board
from ...model.boardset import BoardSet, find_number
from ...model.cards import Seat
from ..plaintext import plain_tooltip
from ..theme import RED

COLUMNS = ("Board", "Dlr", "Vul", "Contract", "Result", "N", "E", "S", "W", "")
COL_BOARD, COL_DEALER, COL_VUL, COL_CONTRACT, COL_RESULT = range(5)
COL_HCP = 5
COL_PROBLEM = 9
TOOLTIPS = (
    "Board number",
    "Dealer",
    "Vulnerability",
    "Contract and declarer",
    "Declarer's tricks",
    "North's HCP",
    "East's HCP",
    "South's HCP",
    "West's HCP",
    "Problems with the board",
)
CACHE_ROWS = 512
ROOM_TAG = "Room"
ROOM_HEADER = "Room"
ROOM_TOOLTIP = "Open or closed room; click to show one room only (also View › Rooms)"
#: boards looked at to tell whether a file has rooms (lazy binary sets never have them)
ROOM_SCAN = 5000


def some_board(boards: BoardSet, test: Callable[[Board], bool], limit: int = ROOM_SCAN) -> bool:
    """Whether one of the first ``limit`` boards of an eagerly read set passes ``test`` (what a file
    holds, looked for once it opens; a lazily read set is never looked through)."""
    if getattr(boards, "is_lazy", False):
        return False
    for i, b in enumerate(boards):
        if i >= limit:
            return False
        if test(b):
            return True
    return False


def file_has_rooms(boards: BoardSet) -> bool:
    """True when boards of the set carry a Room tag (a vugraph or team-match file)."""
    return some_board(boards, lambda b: bool(b.tags.get(ROOM_TAG)))


#: the mime type of board rows dragged within a board list
ROWS_MIME = "application/x-bridgeview-board-rows"
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_ALIGN = Qt.ItemDataRole.TextAlignmentRole.value
_FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_LEFT = (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter).value
_CENTRE = Qt.AlignmentFlag.AlignCenter.value


class BoardSetModel(QAbstractTableModel):
    """A read/write view of a BoardSet (lazy or not) for a QTableView."""

    #: a board was replaced (its index)
    boardChanged = Signal(int)

    def __init__(self, boards: BoardSet, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.boards = boards
        self._cache: OrderedDict[int, tuple[Board, list[str]]] = OrderedDict()
        self._text_cache: OrderedDict[int, tuple[str, ...]] = OrderedDict()
        #: problems found by a whole-set check (the Check panel), by board index
        self.extra_problems: dict[int, list[str]] = {}
        #: the Room column's index when the file has rooms (a vugraph's open and closed tables), else None
        self.room_column: int | None = len(COLUMNS) if file_has_rooms(boards) else None
        #: the Room column's title: "Room", or the room shown alone ("Open ▾"; see ui/boardset/rooms.py)
        self.room_header = ROOM_HEADER
        #: optional ``(row, board column text) -> text`` (the traveller tab marks a board's results)
        self.board_label: Callable[[int, str], str] | None = None

    # -- Qt model API ----------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.boards)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS) + (self.room_column is not None)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if section == self.room_column:
                if role == Qt.ItemDataRole.DisplayRole:
                    return self.room_header
                if role == Qt.ItemDataRole.ToolTipRole:
                    return ROOM_TOOLTIP
                return None
            if role == Qt.ItemDataRole.DisplayRole:
                return COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return TOOLTIPS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        # a repaint calls this for every cell and role: plain int comparisons keep it cheap
        if not index.isValid():
            return None
        role = int(role.value) if hasattr(role, "value") else int(role)
        col = index.column()
        if role == _DISPLAY:
            return self._texts(index.row())[col]
        if role == _ALIGN:
            return _LEFT if col == COL_CONTRACT else _CENTRE
        if role == _FOREGROUND:
            if col == COL_PROBLEM:
                return RED if self._texts(index.row())[col] else None
            if col == COL_VUL:
                return RED if self._texts(index.row())[col] not in ("None", "") else None
            return None
        if role == _TOOLTIP and col == COL_PROBLEM:
            problems = self.row(index.row())[1]
            return plain_tooltip("\n".join(problems)) if problems else None
        return None

    @staticmethod
    def cell_text(board: Board, problems: list[str], col: int) -> str:
        if col == COL_BOARD:
            return "" if board.number is None else str(board.number)
        if col == COL_DEALER:
            return board.effective_dealer.letter
        if col == COL_VUL:
            return board.effective_vulnerability.text
        if col == COL_CONTRACT:
            contract, declarer = board.contract_and_declarer()
            if contract is None:
                return ""
            if contract.is_passed_out or declarer is None:
                return contract.symbol_text()
            return f"{contract.symbol_text()} {declarer.letter}"
        if col == COL_RESULT:
            return "" if board.result is None else str(board.result)
        if COL_HCP <= col < COL_HCP + 4:
            seat = Seat(col - COL_HCP)
            return str(board.deal.hcp(seat)) if board.deal.hands[seat] else ""
        if col == COL_PROBLEM:
            return "⚠" if problems else ""
        return ""

    # -- rows --------------------------------------------------------------------
    def row(self, i: int) -> tuple[Board, list[str]]:
        """Board ``i`` and its problems, decoded on first use and cached briefly."""
        hit = self._cache.get(i)
        if hit is not None:
            self._cache.move_to_end(i)
            return hit
        board = self.boards[i]
        own = board.problems()
        entry = (board, own + [m for m in self.extra_problems.get(i, ()) if m not in own])
        self._cache[i] = entry
        if len(self._cache) > CACHE_ROWS:
            self._cache.popitem(last=False)
        return entry

    def _texts(self, i: int) -> tuple[str, ...]:
        """All cell texts of row ``i``, computed once per cached row (a repaint asks for each cell)."""
        texts = self._text_cache.get(i)
        if texts is None:
            board, problems = self.row(i)
            texts = tuple(self.cell_text(board, problems, c) for c in range(len(COLUMNS)))
            if self.room_column is not None:
                texts += (board.tags.get(ROOM_TAG, ""),)
            if self.board_label is not None:
                texts = (self.board_label(i, texts[COL_BOARD]), *texts[1:])
            self._text_cache[i] = texts
            if len(self._text_cache) > CACHE_ROWS:
                self._text_cache.popitem(last=False)
        return texts

    def refresh_texts(self) -> None:
        """Recompute every row's texts (after ``board_label`` changed what it says)."""
        self._text_cache.clear()
        if len(self.boards):
            self.dataChanged.emit(self.index(0, COL_BOARD), self.index(len(self.boards) - 1, COL_BOARD))

    def board(self, i: int) -> Board:
        return self.row(i)[0]

    def set_board(self, i: int, board: Board) -> None:
        """Replace board ``i`` (callers pass ``Board.touched()`` copies) and refresh its row."""
        self.boards[i] = board
        self._cache.pop(i, None)
        self._text_cache.pop(i, None)
        self.dataChanged.emit(self.index(i, 0), self.index(i, self.columnCount() - 1))
        self.boardChanged.emit(i)

    def set_extra_problems(self, problems: dict[int, list[str]]) -> None:
        """Mark boards with the problems a whole-set check found (duplicates, gaps, ...) besides their own."""
        changed = set(self.extra_problems) | set(problems)
        self.extra_problems = {i: list(v) for i, v in problems.items()}
        for i in changed:
            self._cache.pop(i, None)
            self._text_cache.pop(i, None)
        last = len(self.boards) - 1
        if changed and last >= 0 and min(changed) <= last:
            self.dataChanged.emit(self.index(min(changed), 0), self.index(min(max(changed), last), len(COLUMNS) - 1))

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        """Rows can be dragged (to reorder the board list); the drop is handled by the board-list editor."""
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsDragEnabled if index.isValid() else base | Qt.ItemFlag.ItemIsDropEnabled

    def mimeTypes(self) -> list[str]:
        return [ROWS_MIME]

    def mimeData(self, indexes) -> QMimeData:
        """The dragged rows, as ``ROWS_MIME`` text ("3,4")."""
        mime = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid()})
        mime.setData(ROWS_MIME, ",".join(str(r) for r in rows).encode())
        return mime

    def supportedDropActions(self):
        return Qt.DropAction.MoveAction

    def replace_all(self, boards: list[Board]) -> None:
        """Replace every board at once (insert, delete, move, renumber): one model reset."""
        self.beginResetModel()
        self.boards.replace_all(boards)
        self._cache.clear()
        self._text_cache.clear()
        self.endResetModel()

    def find_number(self, number: int) -> int | None:
        """Index of the board numbered ``number`` (:func:`~bridgeview.model.boardset.find_number`, read through
        the rows' cache)."""
        return find_number(self.boards, number, self.board)
