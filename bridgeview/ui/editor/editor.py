"""The editor's place in the main window: File › New, Generate Random Deals, the Boards menu,
the editing dock and the undo history.

:class:`Editor` is made once by the main window; everything here acts on the
current tab, so the main window only needs that one hook.  The dock's panel and
the undo history's list start hidden, so they are built after the window's
first paint (:meth:`Editor.finish_building`), or as soon as something needs
them (:attr:`Editor.panel`, :attr:`Editor.undo_view`, a restored layout that
shows the dock).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QUndoView,
    QWidget,
)

from ...formats.codec import Codec
from ...formats.errors import FormatError
from ...model.board import Board
from ...model.boardset import BoardSet, FileInfo
from ...model.editing import auctions_in, new_seed, random_deals
from ...model.text import plural
from .. import dialogs
from ..document.services import BoardView, WindowServices
from . import board_ops

if TYPE_CHECKING:
    from .edit_panel import EditPanel

#: how many boards Generate offers at most (a session of the dealing machine, not a simulation)
MAX_GENERATE = 10_000


class GenerateDialog(QDialog):
    """How many deals, the first board number, and fair shuffle or a seed that can be typed again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Generate random deals")
        form = QFormLayout(self)
        self.count = QSpinBox(self)
        self.count.setRange(1, MAX_GENERATE)
        self.count.setValue(32)
        self.first = QSpinBox(self)
        self.first.setRange(1, 999_999)
        self.first.setValue(1)
        self.fair = QRadioButton("Fair shuffle (system randomness, cannot be repeated)", self)
        self.seeded = QRadioButton("From seed (the same seed deals the same boards again)", self)
        self.fair.setChecked(True)
        self.seed = QLineEdit(str(new_seed()), self)
        self.seed.setObjectName("generate_seed")
        self.seed.setEnabled(False)
        self.seeded.toggled.connect(self.seed.setEnabled)
        form.addRow("Boards", self.count)
        form.addRow("First board", self.first)
        form.addRow(self.fair)
        form.addRow(self.seeded)
        form.addRow("Seed", self.seed)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setDefault(True)  # Enter in any field deals
        self.setObjectName("generate_dialog")
        inputs = [self.count, self.first, self.fair, self.seeded, self.seed]
        from .generate_dialog import ScriptSection  # the dialog's own module: not imported at start-up

        self.script = ScriptSection(self, form, buttons, inputs)  # deals to order (issue 28)
        form.addRow(buttons)

    def accept(self) -> None:
        """With a script, OK first makes its deals (the dialog counts them, and Stop ends the run)."""
        if self.script.wants_run():
            try:
                count, first, seed = self.values()
            except ValueError:
                dialogs.message("error", self, "Generate", f"The seed {self.seed.text()!r} is not a whole number.")
                return
            self.script.start(count, first, seed)
            return
        super().accept()

    def values(self) -> tuple[int, int, int | None]:
        """(count, first board, seed or None for a fair shuffle); ValueError for a seed that is not a number."""
        seed = None
        if self.seeded.isChecked():
            seed = int(self.seed.text().strip())
        return self.count.value(), self.first.value(), seed


class RenumberDialog(QDialog):
    """The first number, and whether dealer and vulnerability follow the new numbers (the default); when
    boards have an auction, whether they keep their dealer (the default: the auction was bid from there)."""

    def __init__(self, first: int, parent: QWidget | None = None, auctions: int = 0) -> None:
        super().__init__(parent)
        self.setWindowTitle("Renumber boards")
        form = QFormLayout(self)
        self.first = QSpinBox(self)
        self.first.setRange(1, 999_999)
        self.first.setValue(first)
        self.keep = QCheckBox("Keep each board's dealer and vulnerability", self)
        self.keep.setObjectName("renumber_keep")
        form.addRow("First board", self.first)
        form.addRow(self.keep)
        which = "the board" if auctions == 1 else f"the {plural(auctions, 'board')}"
        self.keep_auction_dealers = QCheckBox(f"Keep the dealer of {which} with an auction", self)
        self.keep_auction_dealers.setObjectName("renumber_keep_auction_dealers")
        self.auction_note = QLabel(
            f"{plural(auctions, 'board')} {'has' if auctions == 1 else 'have'} an auction. A dealer that follows "
            "the new number would start the auction with another player, so the calls would move to other "
            "seats.",
            self,
        )
        self.auction_note.setObjectName("renumber_auction_note")
        self.auction_note.setWordWrap(True)
        self.keep_auction_dealers.setChecked(True)
        if auctions:
            form.addRow(self.auction_note)
            form.addRow(self.keep_auction_dealers)
        else:
            self.auction_note.hide()
            self.keep_auction_dealers.hide()
        self.keep.toggled.connect(lambda on: self.keep_auction_dealers.setEnabled(not on))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[int, bool, bool]:
        """(first number, re-derive dealer and vulnerability, keep the dealer of boards with an auction)."""
        rederive = not self.keep.isChecked()
        return self.first.value(), rederive, rederive and self.keep_auction_dealers.isChecked()


def generated_set(count: int, first: int, seed: int | None) -> BoardSet:
    """``count`` random boards numbered from ``first``; the seed (if any) is kept in the event for re-dealing."""
    boards = [Board.numbered(first + k, deal) for k, deal in enumerate(random_deals(count, seed))]
    info = FileInfo()
    if seed is not None:
        info.event = f"Random deals, seed {seed}"
    return BoardSet(boards, info)


class Editor(QObject):
    """The editing actions and dock of one main window.

    The dock's panel (deal, auction, play and tags: some 60 widgets) and the undo history's list are
    hidden at start, so the window's first paint does not wait for them (issue 29): they are built by
    :meth:`finish_building`, which the main window calls after its first paint, or on first use of
    :attr:`panel` or :attr:`undo_view`.  Their objectNames (``hand_N``, ``call_1C``, ``undo_view`` ...)
    are found at any time: the main window's ``findChild`` builds them first when they are not built yet.
    """

    def __init__(self, window: WindowServices) -> None:
        super().__init__(window.window())
        self.window = window
        w = window
        #: the Generate or Renumber dialog open now (for automation), or the last one
        self.dialog: QDialog | None = None
        self.act_new = self._action(
            "action_new",
            "&New",
            self.new_document,
            QKeySequence.StandardKey.New,
            "A new board set with one empty board",
        )
        self.act_generate = self._action(
            "action_generate", "&Generate Random Deals…", self.generate_dialog, None, "A new board set of random deals"
        )
        file_menu = w.file_menu
        file_menu.insertAction(file_menu.actions()[0], self.act_new)  # File › New comes first
        w.edit_menu.addSeparator()
        w.edit_menu.addAction(self.act_generate)
        v = self._view_ops
        self.act_add = self._action(
            "action_add_board",
            "&Insert Board",
            v(board_ops.add_board),
            "Ctrl+Shift+N",
            "Insert an empty board after this one",
        )
        self.act_delete = self._action(
            "action_delete_board",
            "&Delete Boards",
            v(board_ops.delete_boards),
            "Ctrl+Del",
            "Delete the selected boards",
        )
        self.act_duplicate = self._action(
            "action_duplicate_board",
            "D&uplicate Board",
            v(board_ops.duplicate_board),
            "Ctrl+D",
            "Insert a copy of this board",
        )
        self.act_move_up = self._action(
            "action_move_up", "Move Board &Up", v(lambda view: board_ops.move_board(view, -1)), "Ctrl+Shift+Up"
        )
        self.act_move_down = self._action(
            "action_move_down", "Move Board Do&wn", v(lambda view: board_ops.move_board(view, 1)), "Ctrl+Shift+Down"
        )
        self.act_renumber = self._action("action_renumber", "&Renumber Boards…", self.renumber_dialog)
        self.act_sort = self._action("action_sort", "&Sort by Number", v(board_ops.sort_boards))
        self.act_cut = self._action("action_cut_boards", "Cu&t Boards", v(board_ops.cut_boards), "Ctrl+Shift+X")
        self.act_copy = self._action("action_copy_boards", "&Copy Boards", v(board_ops.copy_boards))
        self.act_paste_into = self._action(
            "action_paste_boards",
            "&Paste Boards Here",
            self.paste_into,
            "Ctrl+Shift+V",
            "Insert the boards on the clipboard after this one",
        )
        self.act_rotate = self._action(
            "action_rotate", "R&otate Deal", lambda: self.panel.rotate(1), "Ctrl+R", "Turn the deal a quarter clockwise"
        )
        boards = w.menuBar().addMenu("&Boards")
        for act in (
            self.act_add,
            self.act_duplicate,
            self.act_delete,
            None,
            self.act_move_up,
            self.act_move_down,
            self.act_sort,
            self.act_renumber,
            None,
            self.act_cut,
            self.act_copy,
            self.act_paste_into,
            None,
            self.act_rotate,
        ):
            if act is None:
                boards.addSeparator()
            else:
                boards.addAction(act)
        # the Boards menu sits before Help
        w.menuBar().insertMenu(w.help_menu.menuAction(), boards)

        self._panel: EditPanel | None = None
        self._undo_view: QUndoView | None = None
        main = w.window()
        # the docks themselves are made now: the window's saved layout (restoreState) names them
        self.dock = QDockWidget("Editor", main)
        self.dock.setObjectName("editor_dock")
        w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.history = QDockWidget("Undo History", main)
        self.history.setObjectName("undo_history_dock")
        # below the editor, not tabified with it: a dock tab bar would force ~50 px onto the window's least width
        w.splitDockWidget(self.dock, self.history, Qt.Orientation.Vertical)
        # both start closed, so a file opens as the viewer (the window stays usable at 800x600 and the diagram
        # keeps its room); File > New, Generate and View > Editor (F8) open the editor, the window remembers it
        self.dock.hide()
        self.history.hide()
        self.dock.visibilityChanged.connect(self._dock_shown)
        self.history.visibilityChanged.connect(self._history_shown)
        self.act_editor = self.dock.toggleViewAction()
        self.act_editor.setObjectName("action_editor")
        self.act_editor.setShortcut(QKeySequence("F8"))
        self.act_editor.setStatusTip("Show or hide the editing panel: deal, auction, play and tags")
        w.view_menu.addSeparator()
        w.view_menu.addAction(self.act_editor)
        w.view_menu.addAction(self.history.toggleViewAction())
        w.tabs.currentChanged.connect(lambda _i: self.sync())
        self.sync()

    # -- the parts built after the first paint ----------------------------------------------
    @property
    def panel(self) -> EditPanel:
        """The editing panel in the dock, built on first use (or by :meth:`finish_building`)."""
        return self._panel if self._panel is not None else self._build_panel()

    @property
    def undo_view(self) -> QUndoView:
        """The undo history's list of the current tab's steps, built on first use."""
        return self._undo_view if self._undo_view is not None else self._build_undo_view()

    def _build_panel(self) -> EditPanel:
        from .edit_panel import EditPanel  # its module too waits for the first paint

        self._panel = EditPanel()
        self.dock.setWidget(self._panel)
        self.sync()  # the panel, row dragging and the Delete key take the current tab
        return self._panel

    def _build_undo_view(self) -> QUndoView:
        self._undo_view = QUndoView(self.window.undo_group)
        self._undo_view.setObjectName("undo_view")
        self._undo_view.setEmptyLabel("(opened)")
        self.history.setWidget(self._undo_view)
        return self._undo_view

    @property
    def built(self) -> bool:
        """True once the panel and the undo history's list are built."""
        return self._panel is not None and self._undo_view is not None

    def finish_building(self, shown_only: bool = False) -> None:
        """Build the dock's panel and the undo history's list if they are not yet built; with ``shown_only``,
        only those whose dock is to be shown (a layout restored with the editor open)."""
        if self._panel is None and not (shown_only and self.dock.isHidden()):
            self._build_panel()
        if self._undo_view is None and not (shown_only and self.history.isHidden()):
            self._build_undo_view()

    def _history_shown(self, visible: bool) -> None:
        if visible and self._undo_view is None:
            self._build_undo_view()

    # -- helpers ---------------------------------------------------------------------------
    def _action(self, name: str, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = self.window.make_action(text, slot, shortcut, tip)
        act.setObjectName(name)
        if tip:
            act.setToolTip(tip)
        self.window.window().addAction(act)
        return act

    def _view_ops(self, fn):
        """A slot running ``fn(view)`` on the current tab; a too-big file gets a dialog, not a traceback."""

        def run() -> None:
            view = self.window.current_view()
            if view is None:
                return
            try:
                fn(view)
            except board_ops.ListTooBig as e:
                dialogs.message("error", self.window.window(), "Boards", str(e))

        return run

    def eventFilter(self, obj, event) -> bool:
        """Delete (or Backspace) in a board list deletes its selected boards; Ctrl+Del works anywhere."""
        if (
            event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            view = self.window.current_view()
            if view is not None and obj is view.board_list:
                self._view_ops(board_ops.delete_boards)()
                return True
        return False

    def sync(self) -> None:
        """Follow the current tab: the panel edits its board, board actions work on a bridge tab only.  The
        editing of the board list (dragging rows, the Delete key) comes with the panel, after the first paint."""
        view = self.window.current_view()
        if self._panel is not None:  # else the tab is taken when the panel is built
            if view is not None and board_ops.RowDrops.existing(view) is None:
                board_ops.RowDrops.instance(view)  # the boards move by dragging their rows
                view.board_list.installEventFilter(self)  # the Delete key deletes the selected boards
            self._panel.set_view(view)
        for act in (
            self.act_add,
            self.act_delete,
            self.act_duplicate,
            self.act_move_up,
            self.act_move_down,
            self.act_renumber,
            self.act_sort,
            self.act_cut,
            self.act_copy,
            self.act_paste_into,
            self.act_rotate,
        ):
            act.setEnabled(view is not None)

    # -- documents -----------------------------------------------------------------------------
    def open_set(self, doc: BoardSet, name: str, tip: str) -> BoardView:
        """A new tab showing ``doc`` (no file yet): Save asks for a name."""
        view = self.window.open_boards(doc, name, tip)
        self.sync()
        self.show_panel()
        return view

    def show_panel(self) -> None:
        """Open the editing dock (a new or generated set is there to be edited)."""
        if self._panel is None:  # the dock opens with its panel, not empty
            self._build_panel()
        if not self.dock.isVisible():
            self.dock.show()
        self.dock.raise_()

    def _dock_shown(self, visible: bool) -> None:
        """The editor opened (F8, New, Generate): it gets the width its fields need, and on a window too
        narrow for it, the board list and a usable diagram, the side panels collapse (said in the status
        bar) rather than leaving every pane too small to use."""
        if not visible:
            return
        from .edit_panel import PANEL_WIDTH

        if self._panel is None:  # the dock opened before the panel was built
            self._build_panel()
        if self.dock.isFloating():
            return
        w = self.window
        width = min(PANEL_WIDTH, max(200, w.width() - 400))
        view = w.current_view()
        if view is not None:
            hidden = view.panels.make_room_for_editor(w.width() - width)
            if hidden:
                # short: the status bar's own fields leave some 200 pixels for it at 800x600
                one = {"board list": "Board list hidden (F6)", "analysis panel": "Analysis panel hidden (F7)"}
                text = one[hidden[0]] if len(hidden) == 1 else "Panels hidden (F6, F7)"
                w.statusBar().showMessage(text, 10000)
        # once the dock is laid out and the collapsed panels have given their least widths back
        QTimer.singleShot(0, lambda: self._widen_dock(width))

    def _widen_dock(self, width: int) -> None:
        if self.dock.isVisible() and not self.dock.isFloating() and self.dock.width() < width:
            # the panes' new least widths climb the widget tree one layout request a level: let them
            # reach the window before the dock area is resized against them
            for _level in range(8):
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
            self.window.resizeDocks([self.dock], [width], Qt.Orientation.Horizontal)

    def new_document(self) -> BoardView:
        """File › New: one empty board numbered 1 (dealer and vulnerability from the number)."""
        return self.open_set(BoardSet([Board.numbered(1)], FileInfo()), "Untitled", "A new board set")

    def generate(self, count: int, first: int = 1, seed: int | None = None) -> BoardView:
        """A new tab of ``count`` random deals numbered from ``first`` (fair shuffle unless seeded)."""
        doc = generated_set(count, first, seed)
        how = f"seed {seed}" if seed is not None else "fair shuffle"
        return self.open_set(doc, "Random deals", f"{count} random deals ({how})")

    def generate_dialog(self) -> None:
        dlg = GenerateDialog(self.window.window())
        self.dialog = dlg
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        if dlg.script.made is not None:  # deals to order, already made while the dialog counted
            dlg.script.open_in(self)
            return
        try:
            count, first, seed = dlg.values()
        except ValueError:
            text = f"The seed {dlg.seed.text()!r} is not a whole number."
            dialogs.message("error", self.window.window(), "Generate", text)
            return
        self.generate(count, first, seed)

    def renumber_dialog(self) -> None:
        view = self.window.current_view()
        if view is None or not len(view.boards):
            return
        auctions = auctions_in(view.boards) if len(view.boards) <= board_ops.MAX_LIST_EDIT else 0
        dlg = RenumberDialog(view.boards[0].number or 1, self.window.window(), auctions)
        self.dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            first, rederive, keep_dealers = dlg.values()
            self._view_ops(
                lambda v: board_ops.renumber(v, first, rederive=rederive, keep_auction_dealers=keep_dealers)
            )()

    def paste_into(self, text: str | None = None) -> bool:
        view = self.window.current_view()
        if view is None:
            return False
        try:
            board_ops.paste_into(view, text)
        except FormatError as e:
            text = f"The clipboard holds no board to paste:\n\n{e}"
            dialogs.message("error", self.window.window(), "Paste boards", text)
            return False
        except board_ops.ListTooBig as e:
            dialogs.message("error", self.window.window(), "Paste boards", str(e))
            return False
        return True


def add_par_tags(view: BoardView, codec: Codec | None = None) -> int:
    """Before a PBN save: par (``OptimumScore``, ``ParContract``) into boards with a solved table; how many.

    Only boards already rewritten (no byte-identical source) get it, so unchanged PBN boards keep their
    bytes; other formats have no par tags (they would only be reported as lost).
    """
    boards = view.boards
    if codec is not None and codec.name != "pbn":
        return 0
    if getattr(boards, "is_lazy", False) or len(boards) > board_ops.MAX_LIST_EDIT:
        return 0
    from ...solve.boards import par_tags

    done = 0
    for i, b in enumerate(boards):
        if b.source is not None or b.dd is None or not b.dd.is_complete or not b.deal.is_complete:
            continue
        if "OptimumScore" in b.tags and "ParContract" in b.tags:
            continue
        try:
            tags = par_tags(b)
        except Exception:
            continue
        if tags:
            view.model.set_board(i, b.copy(tags={**b.tags, **tags}))
            done += 1
    return done


__all__ = ["Editor", "GenerateDialog", "add_par_tags", "generated_set"]
