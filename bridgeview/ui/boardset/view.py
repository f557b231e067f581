"""One open bridge file: board list | diagram | DD grid and side tabs."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...model.board import Board
from ...model.boardset import BoardSet
from ...model.cards import Seat
from ...model.vulnerability import Vulnerability
from ...solve.boards import merged
from ..analysis.solver import DocumentSolver
from ..card_text import SuitDelegate
from ..desk.check_panel import CheckPanel
from ..diagram.ddgrid import DDGrid
from ..diagram.hand_diagram import HandDiagram
from ..document.board_commands import header_command, move_card_command
from ..document.board_model import COL_CONTRACT, COLUMNS, BoardSetModel
from ..document.services import BoardView
from ..document.tab import TabSource
from ..replay.commentary import CommentaryLabel
from ..replay.controls import ReplayController, install_replay
from .details import DetailsPanel
from .panels import SIDE_PANEL, PanelLayout
from .rooms import RoomFilter
from .traveller_view import TravellerView, install_traveller

COLUMN_WIDTHS = (56, 34, 42, 70, 48, 30, 30, 30, 30, 24)
ROW_HEIGHT = 22


class DocumentView(BoardView):
    """The view of one bridge board set (a :class:`Document` or a set read from ``path``), with its undo stack.

    Its panes and the features it is built with are the fields below, each made once in the constructor,
    in this order (a feature may use those made before it); a feature added from outside later (the
    editor's row dragging) keeps its own object (``services.ViewPlugin``).
    """

    model: BoardSetModel
    board_list: QTableView
    diagram: HandDiagram
    #: the diagram, the replay bar and the commentary, one above the other
    diagram_column: QVBoxLayout
    dd_grid: DDGrid
    side_tabs: QTabWidget
    details: DetailsPanel
    splitter: QSplitter
    #: the replay of the current board's play (the Auction and Play tabs, the bar under the diagram)
    replay: ReplayController
    #: double-dummy solving: the DD grid, par, the Analysis menu's actions, the cards' trick counts
    solver: DocumentSolver
    #: the Traveller tab (every table's result of the current board)
    traveller: TravellerView
    #: the Check tab (is the set fit to deal?), whose summary the status bar shows
    check_panel: CheckPanel
    #: which vugraph room the board list shows
    rooms: RoomFilter
    #: the panes on small screens: columns that drop, panels that collapse and come back
    panels: PanelLayout
    #: the contract column's coloured suit symbols
    contract_delegate: SuitDelegate
    #: a vugraph's remarks at the replay's step, under the replay bar
    commentary: CommentaryLabel

    def __init__(
        self,
        source: TabSource,
        path: str | None = None,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
        untitled_name: str | None = None,
    ) -> None:
        """``settings`` keep the replay's options (the window's; the app's by default); ``untitled_name`` is
        the title of boards that have no file yet ("Pasted boards")."""
        super().__init__(source, path, parent, untitled_name=untitled_name)
        boards = self.boards
        path = self.path
        self.model = BoardSetModel(boards, self)
        self.model.boardChanged.connect(self._board_edited)
        self._current = -1

        self.board_list = self._make_board_list()

        self.diagram = HandDiagram(self)
        self.diagram.set_editable(True)
        self.diagram.cardMoveRequested.connect(self.move_card)
        centre = QWidget(self)
        self.diagram_column = QVBoxLayout(centre)
        self.diagram_column.setContentsMargins(0, 0, 0, 0)
        self.diagram_column.setSpacing(4)
        self.diagram_column.addWidget(self.diagram, 1)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 0, 0, 0)
        self.dd_grid = DDGrid(right)
        right_layout.addWidget(self.dd_grid)
        self.side_tabs = QTabWidget(right)
        self.details = DetailsPanel(boards, path, self.side_tabs)
        self.side_tabs.addTab(self.details, "Details")
        right_layout.addWidget(self.side_tabs, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("documentSplitter")
        self.splitter.addWidget(self.board_list)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 0)
        self.splitter.setCollapsible(1, False)
        list_width = sum(COLUMN_WIDTHS[1:]) + self.board_list.columnWidth(0) + 24
        self.splitter.setSizes([list_width, 620, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)
        self.setFocusProxy(self.board_list)
        if len(boards):
            self.select_board(0)
        else:
            self._show(-1)
        self.replay = install_replay(self, settings)
        self.solver = DocumentSolver(self)
        self.traveller = install_traveller(self)
        self.check_panel = CheckPanel(self, self.side_tabs)
        self.side_tabs.addTab(self.check_panel, "Check")
        self.rooms = RoomFilter(self)
        self.panels = PanelLayout(self)
        self.contract_delegate = SuitDelegate(self.board_list, self.diagram.four_colour)
        self.board_list.setItemDelegateForColumn(COL_CONTRACT, self.contract_delegate)
        self.commentary = CommentaryLabel(self, self.replay)
        self.diagram_column.addWidget(self.commentary)

    def _make_board_list(self) -> QTableView:
        """The board list (objectName ``board_list``): whole rows selected, fixed row height and column
        widths, nothing edited in place; moving its current row shows that board."""
        board_list = QTableView(self)
        board_list.setObjectName("board_list")
        board_list.setAccessibleName("Boards")
        board_list.setModel(self.model)
        board_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        board_list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        board_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        board_list.setAlternatingRowColors(True)
        board_list.setWordWrap(False)
        board_list.setShowGrid(False)
        board_list.setTabKeyNavigation(False)
        vh = board_list.verticalHeader()
        vh.setVisible(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(ROW_HEIGHT)
        hh = board_list.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh.setStretchLastSection(False)
        hh.setHighlightSections(False)
        for col, width in enumerate(COLUMN_WIDTHS):
            board_list.setColumnWidth(col, width)
        board_list.setColumnWidth(0, self._board_column_width(board_list))
        board_list.setMinimumWidth(160)
        board_list.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._on_row(cur.row()))
        return board_list

    # -- API ----------------------------------------------------------------------
    def current_index(self) -> int:
        return self._current

    def current_board(self) -> Board | None:
        return self.model.board(self._current) if 0 <= self._current < len(self.boards) else None

    def select_board(self, i: int) -> None:
        """Make board ``i`` current: select its row, scroll to it and show it."""
        if not 0 <= i < len(self.boards):
            return
        index = self.model.index(i, 0)
        self.board_list.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.board_list.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
        if self._current != i:
            self._on_row(i)

    def go_to_number(self, number: int) -> bool:
        """Select the board numbered ``number``; False when there is none."""
        i = self.model.find_number(number)
        if i is None:
            return False
        self.select_board(i)
        return True

    @property
    def boards(self) -> BoardSet:
        """The board set shown (a BoardSet, or a lazy set over a big file)."""
        content = self.document.core.content
        assert isinstance(content, BoardSet), "a board-set view holds a board set"  # made only for one
        return content

    def shown_board(self, board: Board) -> Board:
        """``board`` as the window shows it: its stored DD table with the gaps filled from the table this
        app solved for its deal (a display cache, not part of the document; see ui/analysis/solver.py)."""
        solved = self.document.core.solved.get(board.deal.hands)
        if solved is None:
            return board
        table = merged(board.dd, solved)
        return board if table == board.dd else board.copy(dd=table)

    # -- edits (undoable) ----------------------------------------------------------
    def move_card(self, card: int, seat: int) -> None:
        """Move ``card`` of the current board to ``seat``'s hand (undoable)."""
        if self.current_board() is None:
            return
        self.undo_stack.push(move_card_command(self.model, self._current, card, seat))

    def set_board_header(self, number: int | None, dealer: Seat, vulnerability: Vulnerability) -> None:
        """Change the current board's number, dealer and vulnerability (undoable)."""
        if self.current_board() is None:
            return
        self.undo_stack.push(header_command(self.model, self._current, number, dealer, vulnerability))

    def selected_rows(self) -> list[int]:
        """Rows selected in the board list (at least the current one), in order."""
        rows = sorted({i.row() for i in self.board_list.selectionModel().selectedRows()})
        if not rows and 0 <= self._current < len(self.boards):
            rows = [self._current]
        return rows

    def reload(self, select: int) -> None:
        """Show board ``select`` after the board list was replaced as a whole (undoable list edits)."""
        self._current = -1
        n = len(self.boards)
        if n:
            self.select_board(max(0, min(select, n - 1)))
        else:
            self._show(-1)

    def shutdown(self) -> None:
        """Stop background work attached to this view (solver threads, replay timers) before it goes."""
        self.solver.shutdown()
        self.replay.stop()

    def step_action(self, name: str) -> QAction | None:
        """The replay's action ``name`` ("prev_card", "next_card", "movie" …), for the window's step keys."""
        return self.replay.bar.actions_by_name.get(name)

    def card_text_changed(self) -> None:
        """The ten is written another way (View › Write the Ten as T): the diagram and the Play tab again."""
        self.diagram.update()
        self.replay.trick_table.show_position(self.replay.position())

    def show_check_tab(self) -> None:
        """Bring the Check tab forward, opening the side panel if it was collapsed (F7)."""
        if not self.panels.panel_shown(SIDE_PANEL):
            self.panels.show_panel(SIDE_PANEL, True)
        self.side_tabs.setCurrentWidget(self.check_panel)

    def file_info_changed(self) -> None:
        """The file's own fields changed (the dealing machine's): Details shows them, the set is checked again."""
        self.check_panel.schedule()
        self.details.show_board(self.current_board(), self.current_index())

    def mark_saved(self, path: str, format_name: str) -> None:
        """After a save: the document now lives at ``path`` in ``format_name``; Details names the new file."""
        super().mark_saved(path, format_name)
        self.details.path = path

    # -- internals ---------------------------------------------------------------
    def _board_column_width(self, board_list: QTableView) -> int:
        """Wide enough for the file's biggest board number (10,000,000 in a big ZRD), never elided."""
        n = len(self.boards)
        biggest = n
        if n:
            for i in {0, n - 1}:  # two decodes, whatever the size of the file
                number = self.model.board(i).number
                biggest = max(biggest, number or 0)
        digits = len(str(biggest))
        fm = board_list.fontMetrics()
        return max(COLUMN_WIDTHS[0], fm.horizontalAdvance("8" * digits) + 18)

    def _on_row(self, i: int) -> None:
        if i < 0 or i == self._current:
            return
        self._show(i)

    def _show(self, i: int) -> None:
        self._current = i
        board = self.current_board()
        self.diagram.set_board(board)
        self.dd_grid.set_table(self.shown_board(board).dd if board is not None else None)
        self.dd_grid.set_par("")
        self.details.show_board(board, i)
        if i >= 0:
            self.currentBoardChanged.emit(i)

    def _board_edited(self, i: int) -> None:
        if i == self._current:
            self._show(i)


__all__ = ["DocumentView", "COLUMNS"]
