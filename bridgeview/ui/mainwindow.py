"""The main window: tabs of open files, menus, recent files, Save As, drag and drop."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QUndoGroup
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QMenuBar, QTabWidget, QWidget

from ..app.document import BRIDGE, CRIBBAGE, Document, bundled
from ..formats.atomic import is_special
from ..formats.codec import Codec
from ..formats.errors import FormatError
from ..formats.registry import all_codecs, get
from ..model.boardset import BoardSet
from ..model.text import plural
from ..resources import resource
from . import dialogs
from .boardset.panels import PanelActions
from .boardset.rooms import RoomMenu, next_visible
from .boardset.view import DocumentView
from .card_text import add_ten_action
from .desk.check_panel import SummaryLabel
from .desk.menu import Desk
from .document.services import Shortcut
from .document.tab import DocumentTab
from .editor.editor import Editor, add_par_tags
from .plaintext import plain_label, plain_tooltip
from .window.keyboard import StepKeys, focus_diagram
from .window.saving import (
    NOT_A_FILE,
    THREAD_THRESHOLD,
    codec_from_filter,
    filter_for,
    may_replace,
    open_filter,
    save_document,
    with_extension,
    writable_codecs,
)

#: why the window opens no device or pipe: it reads a file more than once, and a pipe gives its bytes only once
NOT_A_FILE_TO_OPEN = "not a file (a device or a pipe): save what it gives to a file, and open that"

MAX_RECENT = 10
APP_TITLE = "bridgeview"


def sample_path() -> Path:
    """The bundled sample board set shown when the app starts without files."""
    return resource("sample.pbn")


def same_file(a: str | None, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (a symlink and its target do)."""
    if not a:
        return False
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


#: the file name Save As suggests for a document that has none yet, by kind
NEW_FILE_NAME = {BRIDGE: "boards", CRIBBAGE: "game"}
#: the format Save As offers first for a document that has none yet: PBN holds everything a set can hold
NEW_FILE_FORMAT = {BRIDGE: "pbn", CRIBBAGE: "halscrib"}


def _codec_for(codecs: list[Codec], chosen: str, path: str, kind: str) -> Codec | None:
    """The codec picked in the dialog or named by ``path``'s extension; the only one there is when the
    document's kind has a single writable format (a game saves as HALSCRIB whatever its name)."""
    return codec_from_filter(chosen, path, kind) or (codecs[0] if len(codecs) == 1 else None)


def _wrong_kind(kind: str, codec: Codec, codecs: list[Codec]) -> str:
    """Why ``codec`` cannot hold a document of ``kind`` (``codecs`` are the formats that can)."""
    if kind == BRIDGE:
        return f"{codec.title} holds {codec.kind} games, not bridge boards: saving would lose every board."
    names = ", ".join(c.title for c in codecs)
    return (
        f"{codec.title} holds bridge boards: a cribbage game saved in it would lose every deal, score and "
        f"peg. Save it as {names}."
    )


class MainWindow(QMainWindow):
    """Open files in tabs; menus act on the current tab.

    The features it shows are its fields, each made once here: the desk's entries (``desk``), the editor
    (``editor``), the panel toggles, the room menu, the step keys.  They reach the window back through
    ``document.services.WindowServices`` (what they may use of it), and add their menu entries with
    :meth:`make_action`.
    """

    file_menu: QMenu
    edit_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu
    #: View › Board List and Analysis and Details Panel (F6, F7)
    panel_actions: PanelActions
    #: View › Write the Ten as T
    act_ten_as_t: QAction
    #: View › Rooms
    room_menu: RoomMenu
    #: File › Compare With…, Print and Export Hand Records…; Edit › Dealing Machine Settings (DUP)…
    desk: Desk
    #: File › New, Generate Random Deals, the Boards menu, the editing dock and the undo history
    editor: Editor
    #: Left, Right and Space step the current replay from any pane
    step_keys: StepKeys

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings()
        self.thread_threshold = THREAD_THRESHOLD
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.resize(self._first_size())
        self.undo_group = QUndoGroup(self)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setCentralWidget(self.tabs)
        self.status_format = plain_label(QLabel(""))
        self.status_board = plain_label(QLabel(""))
        # "16 boards, ready to deal" or "3 problems", from the Check tab; a click opens that tab
        self.status_check = SummaryLabel()
        self.status_check.clicked.connect(self.show_check_tab)
        self.statusBar().addPermanentWidget(self.status_check)
        self.statusBar().addPermanentWidget(self.status_board)
        self.statusBar().addPermanentWidget(self.status_format)
        self._build_menus()
        self.editor = Editor(self)
        self._restore_window()
        self.editor.finish_building(shown_only=True)  # a dock the saved layout opens is drawn at once
        #: whether the window has been painted: what it hides at start is built after that (issue 29)
        self._painted = False
        self._update_actions()
        self.step_keys = StepKeys(self)

    # -- menus --------------------------------------------------------------------
    def make_action(self, text: str, slot: Callable[[], object], shortcut: Shortcut = None, tip: str = "") -> QAction:
        """A window action running ``slot`` (with ``shortcut`` and a status-bar ``tip``): the menus' entries,
        and those its features add."""
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(lambda _checked=False: slot())
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = self._build_file_menu(bar)
        e = self._build_edit_menu(bar)
        v = self.view_menu = bar.addMenu("&View")
        self.act_four_colour = QAction("&Four-Colour Suits", self)
        self.act_four_colour.setCheckable(True)
        self.act_four_colour.setChecked(bool(self.settings.value("view/fourColour", False, type=bool)))
        self.act_four_colour.toggled.connect(self.set_four_colour)
        v.addAction(self.act_four_colour)
        v.addSeparator()
        self.panel_actions = PanelActions(self, v)
        self.act_ten_as_t = add_ten_action(self, self.settings, v, self._card_text_changed)
        self.room_menu = RoomMenu(self, v)

        # the current tab's solver actions (Solve all, Solve again, Cancel), refilled on tab change
        self.tools_menu = bar.addMenu("&Analysis")
        self._sync_tools_menu()

        g = bar.addMenu("&Go")
        self.act_goto = self.make_action("&Go to Board…", self.go_to_board, "Ctrl+G")
        self.act_next = self.make_action("&Next Board", lambda: self._step(1), "Ctrl+Down")
        self.act_prev = self.make_action("&Previous Board", lambda: self._step(-1), "Ctrl+Up")
        self.act_first = self.make_action("&First Board", lambda: self._jump(0), "Ctrl+Home")
        self.act_last = self.make_action("&Last Board", lambda: self._jump(-1), "Ctrl+End")
        for act in (self.act_goto, self.act_next, self.act_prev, self.act_first, self.act_last):
            g.addAction(act)

        self.desk = Desk(self, m, e, before=self.act_close)  # Compare With…, hand records, dealing machine

        h = self.help_menu = bar.addMenu("&Help")
        h.addAction(self.make_action("&About bridgeview", self.about))

    def _build_file_menu(self, bar: QMenuBar) -> QMenu:
        """File: open, recent files, the sample, save, export, close and quit (the desk adds its entries
        later, before Close)."""
        m = self.file_menu = bar.addMenu("&File")
        self.act_open = self.make_action("&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.act_sample = self.make_action("Open &Sample Boards", lambda: self.open_file(str(sample_path())))
        m.addAction(self.act_sample)
        m.addSeparator()
        self.act_save = self.make_action("&Save", self.save, QKeySequence.StandardKey.Save)
        self.act_save_as = self.make_action("Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        m.addSeparator()
        self.act_export_png = self.make_action("Export Diagram as &PNG…", lambda: self.export_diagram("png"))
        self.act_export_svg = self.make_action("Export Diagram as S&VG…", lambda: self.export_diagram("svg"))
        m.addAction(self.act_export_png)
        m.addAction(self.act_export_svg)
        self.act_export_analysis = QAction("Include Double Dummy and Par in Exports", self)
        self.act_export_analysis.setCheckable(True)
        self.act_export_analysis.setChecked(bool(self.settings.value("export/analysis", False, type=bool)))
        self.act_export_analysis.toggled.connect(lambda on: self.settings.setValue("export/analysis", bool(on)))
        m.addAction(self.act_export_analysis)
        m.addSeparator()
        self.act_close = self.make_action(
            "&Close", lambda: self.close_tab(self.tabs.currentIndex()), QKeySequence.StandardKey.Close
        )
        m.addAction(self.act_close)
        self.act_quit = self.make_action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        m.addAction(self.act_quit)
        return m

    def _build_edit_menu(self, bar: QMenuBar) -> QMenu:
        """Edit: undo and redo (the current tab's, through the undo group), copy and paste boards, and the
        board header."""
        e = self.edit_menu = bar.addMenu("&Edit")
        self.act_undo = self.undo_group.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.act_redo = self.undo_group.createRedoAction(self, "&Redo")
        self.act_redo.setShortcut(QKeySequence.StandardKey.Redo)
        for act, name in ((self.act_undo, "action_undo"), (self.act_redo, "action_redo")):
            act.setObjectName(name)
        self.act_save.setObjectName("action_save")
        self.act_save_as.setObjectName("action_save_as")
        e.addAction(self.act_undo)
        e.addAction(self.act_redo)
        e.addSeparator()
        self.act_copy_pbn = self.make_action(
            "&Copy Deal as PBN", self.copy_pbn, "Ctrl+Shift+C", "Copy the current board as PBN text"
        )
        e.addAction(self.act_copy_pbn)
        self.act_copy_link = self.make_action(
            "Copy as BBO Handviewer &Link",
            self.copy_link,
            "Ctrl+Alt+C",
            "Copy a bridgebase.com handviewer link showing the current board",
        )
        e.addAction(self.act_copy_link)
        self.act_paste = self.make_action(
            "&Paste Board (Link, LIN or PBN)",
            self.paste_boards,
            QKeySequence.StandardKey.Paste,
            "Open the handviewer link, LIN or PBN text on the clipboard in a new tab",
        )
        e.addAction(self.act_paste)
        e.addSeparator()
        self.act_edit_header = self.make_action(
            "Edit Board &Number, Dealer, Vulnerability…", self.edit_header, "Ctrl+E"
        )
        e.addAction(self.act_edit_header)
        return e

    def _update_actions(self) -> None:
        view = self.current_view()
        board = view.current_board() if view is not None else None
        has_board = board is not None
        for act in (self.act_save, self.act_save_as, self.act_close):
            act.setEnabled(self.tabs.count() > 0)
        for act in (
            self.act_export_png,
            self.act_export_svg,
            self.act_copy_pbn,
            self.act_copy_link,
            self.act_edit_header,
            self.act_goto,
            self.act_next,
            self.act_prev,
            self.act_first,
            self.act_last,
        ):
            act.setEnabled(has_board)
        if view is not None:  # nothing to solve on a board without cards (a ZDD file)
            view.solver.solve_again_action.setEnabled(board is not None and board.deal.card_count > 0)
        self.update_status()

    def update_status(self) -> None:
        """The status bar and the title for the current tab: its format and count, board, check summary."""
        view = self.current_view()
        tab = self.current_tab()
        if view is None:  # no tab, or a tab without boards (a cribbage game)
            self.status_format.setText(tab.document.core.format_title if tab is not None else "")
            self.status_board.setText("")
            self.status_check.setText("")
            self.setWindowTitle(f"{tab.title()} — {APP_TITLE}" if tab is not None else APP_TITLE)
            return
        n = len(view.boards)
        fmt = view.document.core.format_title
        count = plural(n, "board", ",")
        self.status_format.setText(f"{fmt} · {count}" if fmt else count)
        self.status_check.setText(view.check_panel.summary_text)
        i = view.current_index()
        board = view.current_board()
        if board is not None:
            num = f"board {board.number}" if board.number is not None else "unnumbered board"
            self.status_board.setText(f"{num} (record {i + 1:,} of {n:,})")
        else:
            self.status_board.setText("")
        self.setWindowTitle(f"{view.title()} — {APP_TITLE}")

    # -- documents ----------------------------------------------------------------
    def current_view(self) -> DocumentView | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, DocumentView) else None

    def current_tab(self) -> DocumentTab | None:
        """The current tab, whatever its document holds (a board set or a cribbage game)."""
        w = self.tabs.currentWidget()
        return w if isinstance(w, DocumentTab) else None

    def views(self) -> list[DocumentTab]:
        """Every tab, in order."""
        return [w for w in (self.tabs.widget(i) for i in range(self.tabs.count())) if isinstance(w, DocumentTab)]

    def open_files(self, paths: list[str]) -> int:
        """Open each of ``paths``; returns how many opened."""
        return sum(1 for p in paths if self.open_file(p))

    def open_file(self, path: str) -> bool:
        """Open ``path`` in a new tab (or show its tab); a file that cannot be read gets a dialog."""
        path = os.path.abspath(path)
        for w in self.views():
            if same_file(w.path, path):  # through a symlink too: one file, one tab
                self.tabs.setCurrentWidget(w)
                return True
        if is_special(path):  # (the reader's refusal told the command line's --from, which no window has)
            dialogs.message("error", self, "Cannot open file", f"Cannot open {path}:\n\n{NOT_A_FILE_TO_OPEN}")
            return False
        try:
            doc = Document.read(path)
        except FormatError as e:
            if e.path is None:
                e.path = path
            dialogs.message("error", self, "Cannot open file", f"Cannot open {os.path.basename(path)}:\n\n{e.full()}")
            return False
        except (OSError, ValueError, MemoryError) as e:
            dialogs.message("error", self, "Cannot open file", f"Cannot open {path}:\n\n{e}")
            return False
        widget = self.make_tab(doc)
        index = self.tabs.addTab(widget, widget.title())
        self.tabs.setTabToolTip(index, plain_tooltip(path))
        self.tabs.setCurrentIndex(index)
        widget.setFocus()  # the board list (or the cribbage movie): arrows work at once, not on the tab bar
        if path != str(sample_path()):
            self.add_recent(path)
        problems = doc.problems
        if len(problems) == 1:  # one problem (an empty file, say): say which
            self.statusBar().showMessage(f"{os.path.basename(path)}: {problems[0][2]}", 8000)
        elif problems:
            self.statusBar().showMessage(
                f"{os.path.basename(path)}: {plural(len(problems), 'problem')} found while reading (see Details)", 8000
            )
        return True

    def make_tab(self, doc: Document) -> DocumentTab:
        """The tab for ``doc``, wired to the window (not yet added): a board set's view, or a cribbage game's
        movie."""
        if doc.kind == BRIDGE:
            return self._make_view(doc, doc.path)
        from .cribbage.view import CribbageView  # imported when a game opens (start-up)

        tab = CribbageView(doc)
        self.undo_group.addStack(tab.undo_stack)
        tab.modifiedChanged.connect(lambda _m, t=tab: self._retitle(t))
        return tab

    def _make_view(self, doc: Document | BoardSet, path: str | None, untitled_name: str | None = None) -> DocumentView:
        """The view of a board set (or of a bridge :class:`Document`) read from ``path``, or new."""
        view = DocumentView(doc, path, self, settings=self.settings, untitled_name=untitled_name)
        view.diagram.set_four_colour(self.act_four_colour.isChecked())
        view.dd_grid.set_four_colour(self.act_four_colour.isChecked())
        state = self.settings.value("layout/documentSplitter")
        if isinstance(state, QByteArray | bytes):
            view.splitter.restoreState(QByteArray(state))
        self.undo_group.addStack(view.undo_stack)
        view.currentBoardChanged.connect(lambda _i: self._update_actions())
        view.modifiedChanged.connect(lambda _m, v=view: self._retitle(v))
        view.model.boardChanged.connect(lambda _i: self.update_status())
        view.check_panel.summaryChanged.connect(lambda _s: self.update_status())
        return view

    def open_boards(self, boards: BoardSet, untitled_name: str, tip: str) -> DocumentView:
        """A new tab showing ``boards`` that have no file yet (pasted, new, generated), titled
        ``untitled_name`` until saved (Save asks for a name); ``tip`` is the tab's tooltip."""
        view = self._make_view(boards, None, untitled_name)
        index = self.tabs.addTab(view, view.title())
        self.tabs.setTabToolTip(index, tip)
        self.tabs.setCurrentIndex(index)
        return view

    def _retitle(self, view: DocumentTab) -> None:
        i = self.tabs.indexOf(view)
        if i >= 0:
            self.tabs.setTabText(i, view.title())
        self.update_status()

    def _tab_changed(self, _index: int) -> None:
        tab = self.current_tab()
        stack = tab.undo_stack if tab is not None else None
        self.undo_group.setActiveStack(stack)  # type: ignore[arg-type]  # None clears it; the stub lacks None
        view = self.current_view()
        self._sync_tools_menu()
        self._update_actions()
        if view is not None:
            focus_diagram(view)
        self.panel_actions.sync()

    def show_check_tab(self) -> None:
        """The status bar's problem count was clicked: show the current set's Check tab."""
        view = self.current_view()
        if view is not None:
            view.show_check_tab()
            self.panel_actions.sync()

    def solver_actions(self) -> list[QAction]:
        """The current tab's double-dummy actions (what the Analysis menu shows)."""
        view = self.current_view()
        if view is None:
            return []
        solver = view.solver
        return [
            solver.solve_again_action,
            solver.solve_all_action,
            solver.cancel_action,
            solver.solve_cluster_action,
            solver.add_tables_action,
        ]

    def _sync_tools_menu(self) -> None:
        menu = self.tools_menu
        for act in menu.actions():
            menu.removeAction(act)  # the view owns its actions; a placeholder is deleted below
            if act.parent() is menu:
                act.deleteLater()
        actions = self.solver_actions()
        for act in actions:
            menu.addAction(act)
        if not actions:
            menu.addAction("(nothing to analyse in this tab)").setEnabled(False)

    def close_tab(self, index: int) -> bool:
        """Close tab ``index``, asking to save a modified file first; False when the user cancelled."""
        if index < 0:
            return False
        widget = self.tabs.widget(index)
        if isinstance(widget, DocumentTab):
            if not self._maybe_save(widget):
                return False
            if isinstance(widget, DocumentView):
                self.settings.setValue("layout/documentSplitter", widget.splitter.saveState())
            self.undo_group.removeStack(widget.undo_stack)
            widget.shutdown()
        self.tabs.removeTab(index)
        if widget is not None:
            widget.deleteLater()
        self._update_actions()
        return True

    def _maybe_save(self, view: DocumentTab) -> bool:
        if not view.is_modified():
            return True
        self.tabs.setCurrentWidget(view)
        core = view.document.core
        what = "has unsaved changes. Save them?" if core.path else "has never been saved. Save it?"
        answer = dialogs.message(
            "question",
            self,
            "Unsaved changes",
            f"{core.name} {what}",
            dialogs.Button.Save | dialogs.Button.Discard | dialogs.Button.Cancel,
            dialogs.Button.Cancel,  # Enter keeps both the file on disk and the edits in the window
        )
        if answer == dialogs.Button.Save:
            return self.save()
        return answer == dialogs.Button.Discard

    # -- open / recent -------------------------------------------------------------
    def open_dialog(self) -> None:
        start = self.settings.value("paths/lastOpenDir", str(Path.home()))
        paths = dialogs.get_open_files(self, "Open board files", str(start), open_filter())
        if paths:
            self.settings.setValue("paths/lastOpenDir", os.path.dirname(paths[0]))
            self.open_files(paths)

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value] if isinstance(value, list | tuple) else []

    def add_recent(self, path: str) -> None:
        files = [p for p in self.recent_files() if p != path]
        files.insert(0, path)
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for n, path in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{n % 10} {os.path.basename(path)}")
            act.setToolTip(plain_tooltip(path))  # a file name may look like HTML
            act.setStatusTip(path)
            act.setEnabled(os.path.exists(path))
            act.triggered.connect(lambda _=False, p=path: self.open_file(p))
        if files:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear Menu").triggered.connect(
                lambda: self.settings.setValue("recentFiles", [])
            )
        else:
            self.recent_menu.addAction("(none)").setEnabled(False)

    # -- drag and drop ----------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        mime = event.mimeData()
        urls: list[QUrl] = mime.urls()
        paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.open_files(paths)
        elif urls or mime.hasText():
            # a handviewer link dragged from a browser, or LIN/PBN text
            event.acceptProposedAction()
            self.paste_boards(mime.text() or urls[0].toString())

    # -- saving --------------------------------------------------------------------------
    def save(self) -> bool:
        """Save the current file in place, in its own format; Save As when there is no file yet, its format
        cannot be written, or it is a bundled sample."""
        tab = self.current_tab()
        if tab is None:
            return False
        doc = tab.document.core
        codec = doc.codec
        if not doc.saves_in_place or codec is None or doc.path is None:
            return self.save_as()
        return self.save_to(tab, doc.path, codec)

    def save_as(self, path: str | None = None, format_name: str | None = None) -> bool:
        """Save the current file under a new name, in any writable format that holds what it holds (a board
        set in a bridge format, a game in a cribbage one); without ``path``, ask where."""
        tab = self.current_tab()
        if tab is None:
            return False
        doc = tab.document.core
        codecs = writable_codecs(doc.kind)
        if not codecs:
            dialogs.message("error", self, "Save As", "No format can be written.")
            return False
        codec: Codec | None
        if path is None:
            chosen = self._ask_save_target(doc, codecs)
            if chosen is None:
                return False
            path, codec = chosen
        else:
            try:
                codec = get(format_name) if format_name else _codec_for(codecs, "", path, doc.kind)
            except FormatError as e:
                dialogs.message("error", self, "Save As", str(e))
                return False
            if codec is None:
                dialogs.message("error", self, "Save As", f"Cannot tell which format to use for {path}.")
                return False
        if codec.kind != doc.kind:
            dialogs.message("error", self, "Save As", f"{_wrong_kind(doc.kind, codec, codecs)}\n\nNothing was written.")
            return False
        return self.save_to(tab, path, codec)

    def _ask_save_target(self, doc: Document, codecs: list[Codec]) -> tuple[str, Codec] | None:
        """Ask where, and in which of ``codecs``, to save ``doc``; None when the user cancelled."""
        filters = ";;".join(filter_for(c) for c in codecs)
        # a set without a file yet (new, generated, pasted) is offered PBN: it holds everything
        own = doc.format_name if doc.path else NEW_FILE_FORMAT[doc.kind]
        current = next((c for c in codecs if c.name == own), None)
        base = os.path.splitext(os.path.basename(doc.path or NEW_FILE_NAME[doc.kind]))[0]
        title = "Save board set as" if doc.kind == BRIDGE else "Save game as"
        chosen_path, chosen = dialogs.get_save_file(
            self, title, os.path.join(self._save_folder(doc), base), filters, filter_for(current) if current else ""
        )
        if not chosen_path:
            return None
        codec = _codec_for(codecs, chosen, chosen_path, doc.kind)
        if codec is None:
            dialogs.message("error", self, "Save As", f"Cannot tell which format to use for {chosen_path}.")
            return None
        path = with_extension(chosen_path, codec)
        self.settings.setValue("paths/lastSaveDir", os.path.dirname(path))
        return path, codec

    def _save_folder(self, doc: Document) -> str:
        """Where Save As starts: the folder of the tab's file, else the last folder saved to, else home."""
        if doc.path and not bundled(doc.path) and os.path.isdir(os.path.dirname(doc.path)):
            return os.path.dirname(doc.path)
        last = str(self.settings.value("paths/lastSaveDir", "") or "")
        return last if last and os.path.isdir(last) else str(Path.home())

    def save_to(self, view: DocumentTab, path: str, codec: Codec) -> bool:
        """Write the tab's document to ``path`` as ``codec``: the one save path of Save and Save As, for board
        sets and games alike.  Asks about what the format cannot hold and about replacing a write-protected
        file, writes atomically, then shows the tab as saved; after a save that lost something, the file as
        it now is (see ui/window/lossy.py)."""
        if isinstance(view, DocumentView):
            if codec.caps.dd and (view.is_modified() or not same_file(view.path, path)):
                from .analysis.solved_tables import write_solved_tables  # imported when saving (start-up)

                write_solved_tables(view)  # a save made anyway keeps what the window showed (see solved_tables)
            add_par_tags(view, codec)
        losses: list[str] = []
        if not save_document(self, view.document.core.content, path, codec, self.thread_threshold, losses):
            return False
        path = os.path.abspath(path)
        if losses:  # the file holds less than the tab: show the file as it is (see ui/window/lossy.py)
            from .window.lossy import after_lossy_save  # imported when a save lost something (start-up)

            return after_lossy_save(self, view, path, codec, losses)
        view.mark_saved(path, codec.name)
        self._retitle(view)
        self.tabs.setTabToolTip(self.tabs.indexOf(view), plain_tooltip(path))
        self.add_recent(path)
        self.statusBar().showMessage(f"Saved {os.path.basename(path)} as {codec.title}", 5000)
        return True

    # -- board actions ----------------------------------------------------------------------
    def copy_pbn(self) -> str | None:
        """Put the current board on the clipboard as PBN text; returns the text."""
        view = self.current_view()
        board = view.current_board() if view is not None else None
        if board is None:
            return None
        from ..formats.pbn.codec import board_to_pbn_text

        text = board_to_pbn_text(board)
        QGuiApplication.clipboard().setText(text)
        self.statusBar().showMessage("Copied the deal as PBN", 3000)
        return text

    def copy_link(self) -> str | None:
        """Put a BBO handviewer link to the current board on the clipboard; returns the link."""
        view = self.current_view()
        board = view.current_board() if view is not None else None
        if board is None:
            return None
        from .editor.clipboard import link_for

        try:
            url = link_for(board)
        except (FormatError, ValueError) as e:
            dialogs.message("error", self, "Copy link", f"Cannot make a handviewer link for this board:\n\n{e}")
            return None
        QGuiApplication.clipboard().setText(url)
        self.statusBar().showMessage("Copied a BBO handviewer link to the board", 3000)
        return url

    def paste_boards(self, text: str | None = None) -> bool:
        """Open the boards of a handviewer link, LIN or PBN text (default: the clipboard's) in a new tab."""
        from .editor.clipboard import boards_from_text

        if text is None:
            text = QGuiApplication.clipboard().text()
        try:
            doc = boards_from_text(text)
        except FormatError as e:
            dialogs.message(
                "error", self, "Paste board", f"The clipboard holds no board to open:\n\n{e.full() if e.path else e}"
            )
            return False
        name = "Pasted board" if len(doc) == 1 else "Pasted boards"
        self.open_boards(doc, name, f"{plural(len(doc), 'board')} from the clipboard")
        return True

    def export_diagram(self, kind: str, path: str | None = None) -> bool:
        """Export the current diagram as PNG or SVG."""
        view = self.current_view()
        if view is None or view.current_board() is None:
            return False
        if path is None:
            board = view.current_board()
            start = self.settings.value("paths/lastExportDir", str(Path.home()))
            name = f"board-{board.number if board and board.number is not None else view.current_index() + 1}.{kind}"
            filt = "PNG image (*.png)" if kind == "png" else "SVG drawing (*.svg)"
            path, _ = dialogs.get_save_file(self, "Export diagram", os.path.join(str(start), name), filt)
            if not path:
                return False
            if not path.lower().endswith("." + kind):
                path += "." + kind
            self.settings.setValue("paths/lastExportDir", os.path.dirname(path))
        size = view.diagram.size()
        if size.width() < 200 or size.height() < 180:
            size = QSize(620, 560)
        analysis = None  # File › Include Double Dummy and Par in Exports
        if self.act_export_analysis.isChecked():
            analysis = (view.dd_grid.table(), view.dd_grid.par_text())
        from .diagram.export import save_png, save_svg  # QtSvg is loaded for an export, not at start-up

        try:
            if is_special(path):  # (a FIFO without a reader would hold the window for ever)
                raise FormatError(NOT_A_FILE, path=str(path))
            force = may_replace(self, path)  # (asked, as Save asks: the refusal named --force, which no window has)
            if force is None:
                return False
            (save_png if kind == "png" else save_svg)(view.diagram, path, size, analysis=analysis, force=force)
        except FormatError as e:
            dialogs.message("error", self, "Export", f"Cannot write the diagram:\n\n{e.full()}")
            return False
        self.statusBar().showMessage(f"Wrote {os.path.basename(path)}", 5000)
        return True

    def edit_header(self) -> bool:
        view = self.current_view()
        board = view.current_board() if view is not None else None
        if board is None:
            return False
        values = dialogs.edit_board_header(self, board.number, board.effective_dealer, board.effective_vulnerability)
        if values is None or view is None:
            return False
        view.set_board_header(*values)
        return True

    def go_to_board(self) -> bool:
        view = self.current_view()
        board = view.current_board() if view is not None else None
        if view is None:
            return False
        current = board.number if board is not None and board.number is not None else view.current_index() + 1
        number = dialogs.get_int(self, "Go to board", "Board number:", current, 0, 2_000_000_000)
        if number is None:
            return False
        if view.go_to_number(number):
            return True
        dialogs.message("info", self, "Go to board", f"There is no board {number} in this file.")
        return False

    def _step(self, delta: int) -> None:
        view = self.current_view()
        if view is not None:  # boards of a hidden room are skipped
            view.select_board(next_visible(view, view.current_index(), delta))

    def _jump(self, where: int) -> None:
        view = self.current_view()
        if view is not None and len(view.boards):
            view.select_board(where if where >= 0 else len(view.boards) - 1)

    def _card_text_changed(self) -> None:
        for tab in self.views():
            tab.card_text_changed()

    def set_four_colour(self, on: bool) -> None:
        self.settings.setValue("view/fourColour", bool(on))
        for w in self.views():
            if isinstance(w, DocumentView):
                w.diagram.set_four_colour(on)
                w.dd_grid.set_four_colour(on)

    def about(self) -> None:
        from .. import __version__

        dialogs.message(
            "info",
            self,
            "About bridgeview",
            f"bridgeview {__version__}\n\nView, check, replay, edit and convert bridge deal files.\n"
            f"Formats: {', '.join(sorted(c.name for c in all_codecs()))}\n\n"
            "Double-dummy analysis by DDS 2.9.0 (Bo Haglund, Soren Hein; Apache License 2.0) "
            f"through endplay (Dominic Price; MIT). Licence texts: {resource('licenses')}",
        )

    # -- window state -----------------------------------------------------------------------
    def _first_size(self) -> QSize:
        """1280x800, or less on a small screen (a netbook's 1024x600), so that the replay bar and the
        status bar are on screen; room is left for the window frame and a panel."""
        available = self.screen().availableGeometry()
        return QSize(min(1280, available.width() - 16), min(800, available.height() - 48))

    def _restore_window(self) -> None:
        geometry = self.settings.value("layout/geometry")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        state = self.settings.value("layout/windowState")
        if isinstance(state, QByteArray | bytes):
            self.restoreState(QByteArray(state))

    def save_layout(self) -> None:
        self.settings.setValue("layout/geometry", self.saveGeometry())
        self.settings.setValue("layout/windowState", self.saveState())
        view = self.current_view()
        if view is not None:
            self.settings.setValue("layout/documentSplitter", view.splitter.saveState())
        self.settings.sync()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            # after this paint has reached the screen: the window's children are painted in the same pass
            QTimer.singleShot(0, self, self._after_first_paint)  # (dropped if the window is gone by then)

    def findChild(self, *args, **kwargs):
        """Qt's ``findChild``; a widget of the editing dock's panel or the undo history, which are built after
        the first paint, is found all the same before then (they are built for it): the fields are a contract of
        end-to-end checks, which look them up as soon as the window is exposed."""
        found = super().findChild(*args, **kwargs)
        if found is None and not self.editor.built:
            self.editor.finish_building()
            found = super().findChild(*args, **kwargs)
        return found

    def findChildren(self, *args, **kwargs):
        """Qt's ``findChildren``, the parts built after the first paint included (see :meth:`findChild`)."""
        self.editor.finish_building()
        return super().findChildren(*args, **kwargs)

    def _after_first_paint(self) -> None:
        """Build what the window hid at start (the editing dock's panel, the undo history), so the first paint
        did not wait for it; anything that needed it sooner built it on first use."""
        self.editor.finish_building()

    def closeEvent(self, event) -> None:
        for w in self.views():
            if not self._maybe_save(w):
                event.ignore()
                return
        self.save_layout()
        for w in self.views():
            w.shutdown()
        event.accept()

    def keyPressEvent(self, event) -> None:
        # arrows and page keys reach the board list even when another pane has the focus
        view = self.current_view()
        keys = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End)
        if view is not None and event.key() in keys and not view.board_list.hasFocus():
            view.board_list.setFocus()
            QGuiApplication.sendEvent(view.board_list, event)
            return
        super().keyPressEvent(event)
