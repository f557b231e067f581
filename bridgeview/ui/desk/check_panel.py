"""The Check tab: is the open set fit to deal?  Every problem, a click away from its board.

It runs :func:`bridgeview.check.check_set` (the code behind ``bridgeview
check``, which includes every ``validate`` problem) when the file opens and
again shortly after each edit, marks the boards in the board list with their
problems (the ⚠ column and its tooltip) and tells the main window a one-line
summary for the status bar ("16 boards, ready to deal" or "3 problems").
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from ...check import Issue, check_set, count_tables, problems_by_index, summary
from ...formats.errors import FormatError
from ...model.text import plural
from ..document.services import BoardView
from ..plaintext import plain_label
from ..theme import MUTED, RED

#: Sets up to this many boards are checked on opening and after every edit; bigger ones on request.
AUTO_CHECK_LIMIT = 5_000
#: Milliseconds after an edit before the set is checked again (a burst of edits costs one check).
RECHECK_DELAY = 250
_INDEX = Qt.ItemDataRole.UserRole


class CheckPanel(QWidget):
    """A list of the set's problems with a summary line; clicking one selects its board."""

    #: the one-line summary changed (for the status bar)
    summaryChanged = Signal(str)

    def __init__(self, view: BoardView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.issues: list[Issue] = []
        self.summary_text = ""
        self.summary = plain_label(QLabel(self))
        self.summary.setWordWrap(True)
        self.summary.setObjectName("checkSummary")
        self.list = QListWidget(self)
        self.list.setObjectName("checkList")
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.itemActivated.connect(self._go)
        self.list.itemClicked.connect(self._go)
        self.button = QPushButton("Check Again", self)
        self.button.setToolTip("Check the whole set again (done by itself after every edit of a small set)")
        self.button.clicked.connect(self.run_check)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignRight)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RECHECK_DELAY)
        self._timer.timeout.connect(self.run_check)
        view.model.boardChanged.connect(lambda _i: self.schedule())
        view.model.rowsInserted.connect(lambda *_a: self.schedule())
        view.model.rowsRemoved.connect(lambda *_a: self.schedule())
        view.model.modelReset.connect(self.schedule)
        if len(view.boards) <= AUTO_CHECK_LIMIT:
            self.run_check()
        else:
            self._set_summary(f"{len(view.boards):,} boards: press Check Again to check them all")

    def schedule(self) -> None:
        """Check again soon (small sets only; a big one waits for the button)."""
        if len(self.view.boards) <= AUTO_CHECK_LIMIT:
            self._timer.start()

    def run_check(self) -> list[Issue]:
        """Check the whole set now; fill the list, the board markers and the summary."""
        self._timer.stop()
        boards = self.view.boards
        try:
            self.issues = check_set(boards)
        except FormatError as e:  # a record that cannot even be listed: say so, keep the app alive
            self.issues = [Issue(e.message, e.board, None, "validate")]
        self.list.clear()
        for issue in self.issues:
            item = QListWidgetItem(str(issue))
            item.setData(_INDEX, issue.index if issue.index is not None else -1)
            item.setForeground(RED if issue.is_error else MUTED)  # a warning does not stop the set being dealt
            if issue.index is not None:
                item.setToolTip("Click to show this board")
            self.list.addItem(item)
        self.view.model.set_extra_problems(problems_by_index(self.issues))
        text = summary(self.issues, len(boards), count_tables(boards))  # boards and tables, as `check` says
        errors = sum(1 for issue in self.issues if issue.is_error)
        if errors:
            self._set_summary(plural(errors, "problem"), f"{text}: not ready to deal")
        else:
            self._set_summary(text)
        return self.issues

    def _set_summary(self, short: str, long: str | None = None) -> None:
        self.summary_text = short
        self.summary.setText(long or short)
        self.summaryChanged.emit(short)

    def _go(self, item: QListWidgetItem) -> None:
        index = item.data(_INDEX)
        if isinstance(index, int) and index >= 0:
            self.view.select_board(index)


class SummaryLabel(QLabel):
    """The status bar's "16 boards, ready to deal" / "3 problems": a click opens the Check tab."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("status_check")
        plain_label(self)  # "16 boards, ready to deal": counts, but file text is never rich text
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Show the problems in the Check tab")

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            event.accept()  # a press taken here, so that the release comes here too (a real click)
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()
        super().mouseReleaseEvent(event)


__all__ = ["AUTO_CHECK_LIMIT", "CheckPanel", "SummaryLabel"]
