"""The dealing desk's menu entries: Compare With…, Print Hand Records…, Export Hand Records…
(PDF or a web page), and the dealing machine (DUP) settings: :class:`Desk`, made once by the main window."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QMenu,
    QProgressDialog,
    QPushButton,
    QWidget,
)

from ...formats.errors import FormatError
from ...formats.registry import read_file
from ...model.boardset import BoardSet
from ...model.text import plural
from .. import dialogs
from ..card_text import TEN
from ..document.services import BoardView, WindowServices
from ..window.saving import open_filter

if TYPE_CHECKING:  # the hand-record painter (PDF pages, DDS for print) is imported when the dialog opens
    from ..printing.hand_records import HandRecordOptions
    from .compare_view import CompareDialog
    from .dup_settings import DupSettingsDialog

PDF_FILTER = "PDF document (*.pdf)"
HTML_FILTER = "Web page (*.html *.htm)"
#: what each kind of sheet is saved as: the file dialog's filter and the extension added when none is typed
SHEET_FILES = {"pdf": (PDF_FILTER, ".pdf", (".pdf",)), "html": (HTML_FILTER, ".html", (".html", ".htm"))}
#: Sets larger than this are compared with ``bridgeview diff``, not in a window of two tables.
COMPARE_LIMIT = 100_000
#: Hand records for more boards than this are not printed (as ``bridgeview print``).
PRINT_LIMIT = 5_000


class _Stopped(Exception):
    """The dialog was asked to stop (:meth:`HandRecordsDialog.reject`) while its tables were being worked out."""


class HandRecordsDialog(QDialog):
    """The title line (from the file, editable), boards a page, DD, paper; then a PDF, a web page or the printer."""

    def __init__(self, window: WindowServices, view: BoardView, parent: QWidget | None = None) -> None:
        from ..printing.hand_records import PAGE_SIZES, PER_PAGE, default_title

        super().__init__(parent or window.window())
        self.window_ = window
        self.view = view
        self.setWindowTitle("Hand records")
        form = QFormLayout(self)
        self.title = QLineEdit(default_title(view.boards, view.path or view.untitled_name), self)
        self.title.setPlaceholderText("Event · site · date")
        form.addRow("&Title", self.title)
        self.per_page = QComboBox(self)
        self.per_page.addItems([str(n) for n in PER_PAGE])
        self.per_page.setCurrentText("4")
        form.addRow("Boards a &page", self.per_page)
        self.dd = QCheckBox("Makeable contracts and par (solving boards without them)", self)
        self.dd.setChecked(True)
        form.addRow("&Double dummy", self.dd)
        self.paper = QComboBox(self)
        self.paper.addItems(list(PAGE_SIZES))
        form.addRow("Pa&per", self.paper)
        self.landscape = QCheckBox("Landscape", self)
        form.addRow("", self.landscape)
        self.four_colour = QCheckBox("Four-colour suits", self)
        self.four_colour.setChecked(window.act_four_colour.isChecked())
        form.addRow("", self.four_colour)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.pdf_button = QPushButton("Save &PDF…", self)
        self.pdf_button.setObjectName("save_pdf")
        self.html_button = QPushButton("Save as &Web Page…", self)
        self.html_button.setObjectName("save_html")
        self.html_button.setToolTip("One HTML file to post on a web site: readable on a phone, printable, no scripts")
        self.print_button = QPushButton("P&rint Preview…", self)
        self.print_button.setObjectName("print_preview")
        buttons.addButton(self.pdf_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.html_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.print_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.pdf_button.clicked.connect(lambda: self.save_pdf())
        self.html_button.clicked.connect(lambda: self.save_html())
        self.print_button.clicked.connect(lambda: self.preview())
        form.addRow(buttons)
        #: an export or a preview is working its tables out (``_prepare``); a stop asked meanwhile (:meth:`reject`)
        self._preparing = False
        self._stop_asked = False

    def reject(self) -> None:
        """Escape, Close and the title bar's close button (and Ctrl+C in the terminal, which answers a dialog as
        Escape): while an export or a preview works its tables out, they stop that work, as the progress dialog's
        own button would stop its solving, and nothing is written; the dialog stays.  Before, the dialog closed
        and the export ran on and wrote its file (the progress dialog, whose Escape skips the solving, shows only
        after half a second)."""
        if self._preparing:
            self._stop_asked = True
            return
        super().reject()

    def options(self) -> HandRecordOptions:
        from ..printing.hand_records import HandRecordOptions

        return HandRecordOptions(
            title=self.title.text().strip(),
            per_page=int(self.per_page.currentText()),
            dd=self.dd.isChecked(),
            page_size=self.paper.currentText(),
            landscape=self.landscape.isChecked(),
            four_colour=self.four_colour.isChecked(),
            ten=TEN["text"],
        )

    def _prepare(self, options: HandRecordOptions):
        """The boards and their tables, solving with a cancellable progress dialog."""
        from ..printing.hand_records import prepare

        progress = QProgressDialog("Solving double dummy for the hand records…", "Skip", 0, 0, self)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(500)
        progress.setValue(0)  # (arms the 500 ms: else it shows only at the first report, or after Qt's default 4 s)

        def tick(done: int, total: int) -> bool:
            progress.setMaximum(total)
            progress.setValue(done)
            QApplication.processEvents()
            if self._stop_asked:
                raise _Stopped
            return not progress.wasCanceled()

        view = self.view
        # the boards as the window shows them: tables solved in the window are printed, not solved again
        boards = [view.shown_board(view.model.board(i)) for i in range(len(view.boards))]
        self._preparing, self._stop_asked = True, False
        try:
            return prepare(boards, options, progress=tick)
        finally:
            self._preparing = False
            progress.close()

    def save_pdf(self, path: str | None = None) -> bool:
        """Write the hand records to a PDF (asking where when ``path`` is None)."""
        return self.save("pdf", path)

    def save_html(self, path: str | None = None) -> bool:
        """Write the hand records as one web page (asking where when ``path`` is None)."""
        return self.save("html", path)

    def save(self, sheet: str, path: str | None = None) -> bool:
        """Write the hand records as ``sheet`` ("pdf" or "html"), asking where when ``path`` is None."""
        settings = self.window_.settings
        file_filter, extension, extensions = SHEET_FILES[sheet]
        if path is None:
            start = settings.value("paths/lastExportDir", str(Path.home()))
            base = os.path.splitext(os.path.basename(self.view.path or "boards"))[0] + "-hand-records" + extension
            path, _ = dialogs.get_save_file(self, "Export hand records", os.path.join(str(start), base), file_filter)
            if not path:
                return False
            if not path.lower().endswith(extensions):
                path += extension
            settings.setValue("paths/lastExportDir", os.path.dirname(path))
        from ...handrecords.html import write_html
        from ..printing.hand_records import write_pdf

        options = self.options()
        try:
            data = self._prepare(options)
            pages = (write_html if sheet == "html" else write_pdf)(data, path, options)
        except _Stopped:
            self.window_.statusBar().showMessage(f"Stopped: {os.path.basename(path)} was not written", 5000)
            return False
        except (FormatError, OSError) as e:
            text = e.full() if isinstance(e, FormatError) else f"{path}: {e}"
            dialogs.message("error", self, "Hand records", f"Cannot write the hand records:\n\n{text}")
            return False
        said = "".join(f"; {notice}" for notice in data.notices)  # each board once, boards without cards left out
        self.window_.statusBar().showMessage(
            f"Wrote {os.path.basename(path)}: {plural(len(data.boards), 'board')} on {plural(pages, 'page')}{said}",
            5000,
        )
        return True

    def preview(self) -> bool:
        """The print preview dialog; printing goes from there."""
        from ..printing.print_preview import HandRecordsPreview

        options = self.options()
        try:
            data = self._prepare(options)
        except _Stopped:
            return False
        self.preview_dialog = HandRecordsPreview(data, options, self)
        self.preview_dialog.open()
        return True


class Desk(QObject):
    """The desk's entries in the File and Edit menus, acting on the current tab, and the dialogs they open
    (kept here while they are open: a dialog without a Python reference would be deleted)."""

    def __init__(self, window: WindowServices, file_menu: QMenu, edit_menu: QMenu, before: QAction) -> None:
        """Add the entries to ``file_menu`` (before its ``before``, the Close entry) and ``edit_menu``."""
        super().__init__(window.window())
        self.window = window
        self.compare_dialog: CompareDialog | None = None
        self.hand_records_dialog: HandRecordsDialog | None = None
        self.dup_dialog: DupSettingsDialog | None = None
        self.act_compare = window.make_action(
            "Co&mpare With…", self.compare_with, None, "Compare this set with another file, board by board"
        )
        self.act_compare.setObjectName("action_compare")
        self.act_print = window.make_action(
            "&Print Hand Records…",
            self.hand_records,
            QKeySequence.StandardKey.Print,
            "Print hand records of this set",
        )
        self.act_print.setObjectName("action_print")
        self.act_export_records = window.make_action(
            "Export Hand &Records…",
            lambda: self.hand_records(True),
            None,
            "Write hand records of this set to a PDF or a web page",
        )
        self.act_dup_settings = window.make_action(
            "Dealing &Machine Settings (DUP)…",
            self.dup_settings,
            None,
            "Random, backwards, first board and copies for a DUP file",
        )
        for act in (self.act_compare, self.act_print, self.act_export_records):
            file_menu.insertAction(before, act)
        file_menu.insertSeparator(before)
        edit_menu.addSeparator()
        edit_menu.addAction(self.act_dup_settings)
        self.actions = [self.act_compare, self.act_print, self.act_export_records, self.act_dup_settings]
        window.tabs.currentChanged.connect(lambda _index: self.sync_actions())
        self.sync_actions()

    def sync_actions(self) -> None:
        """The entries work on a tab of boards."""
        on = self.window.current_view() is not None
        for act in self.actions:
            act.setEnabled(on)

    def compare_with(self, path: str | None = None) -> CompareDialog | None:
        """Compare the current set with another file; returns the window showing it (or None)."""
        from .compare_view import CompareDialog

        window = self.window
        parent = window.window()
        view = window.current_view()
        if view is None:
            return None
        if path is None:
            start = window.settings.value("paths/lastOpenDir", os.path.dirname(view.path or str(Path.home())))
            path = dialogs.get_open_file(parent, "Compare with", str(start), open_filter())
            if not path:
                return None
        try:
            other = read_file(path)
        except (FormatError, OSError, ValueError) as e:
            text = e.full() if isinstance(e, FormatError) else str(e)
            dialogs.message("error", parent, "Compare", f"Cannot open {os.path.basename(path)}:\n\n{text}")
            return None
        if not isinstance(other, BoardSet):
            dialogs.message("error", parent, "Compare", f"{os.path.basename(path)} holds a cribbage game, not boards.")
            return None
        if max(len(view.boards), len(other)) > COMPARE_LIMIT:
            dialogs.message(
                "info",
                parent,
                "Compare",
                f"These sets are too big to compare side by side (more than {COMPARE_LIMIT:,} boards).\n\n"
                f"Use the command line instead: bridgeview diff A B",
            )
            return None
        dialog = CompareDialog(view.boards, other, view.path or view.untitled_name, path, parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.compare_dialog = dialog
        dialog.show()
        return dialog

    def hand_records(self, pdf: bool = False) -> HandRecordsDialog | None:
        """The hand records dialog for the current set (``pdf``: exporting, Save PDF… the default button)."""
        window = self.window
        view = window.current_view()
        if view is None or not len(view.boards):
            return None
        if len(view.boards) > PRINT_LIMIT:
            dialogs.message(
                "info",
                window.window(),
                "Hand records",
                f"{len(view.boards):,} boards are too many to print (at most {PRINT_LIMIT:,}).",
            )
            return None
        dialog = HandRecordsDialog(window, view)
        self.hand_records_dialog = dialog
        if pdf:
            dialog.pdf_button.setDefault(True)
        else:
            dialog.print_button.setDefault(True)
        dialog.open()
        return dialog

    def dup_settings(self) -> DupSettingsDialog | None:
        """The dealing machine settings of the current set; OK applies them as one undoable step."""
        from ...model.tables import set_tables
        from .dup_settings import DupSettingsCommand, DupSettingsDialog, current_dup, needs_renumbering

        window = self.window
        view = window.current_view()
        if view is None:
            return None
        # boards, not tables
        dialog = DupSettingsDialog(window.window(), current_dup(view.boards), len(set_tables(view.boards)))

        def apply() -> None:
            new = dialog.values()
            boards = [view.model.board(i) for i in range(len(view.boards))]
            if new != view.boards.info.dup or needs_renumbering(boards, new.first_board):
                view.undo_stack.push(DupSettingsCommand(view, new))
                window.update_status()

        dialog.accepted.connect(apply)
        self.dup_dialog = dialog
        dialog.open()
        return dialog
