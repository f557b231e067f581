"""Small screens: a board list that drops columns as it narrows, side panels that collapse and come back.

An 800x600 window holds the board list, the diagram (which scales down on
its own), the replay bar and the DD grid with the side tabs.  When the board
list is narrower than its columns it hides the HCP columns first, then the
result, then the dealer, so board, contract and vulnerability stay readable
without a horizontal scroll bar.  Either side panel can be collapsed (View
menu or dragging the splitter) and restored to its previous width.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QSplitter, QWidget

from .board_model import COL_DEALER, COL_HCP, COL_RESULT

#: columns hidden one group at a time as the board list narrows
DROP_ORDER: tuple[tuple[int, ...], ...] = (tuple(range(COL_HCP, COL_HCP + 4)), (COL_RESULT,), (COL_DEALER,))
#: the side panels, by splitter index
BOARD_LIST, SIDE_PANEL = 0, 2
#: the diagram column's natural width (as a new view lays itself out)
CENTRE_WIDTH = 620
#: below this width the diagram column takes room from the side panels (while the user has not set a layout)
COMFORT_WIDTH = 480
#: widths a restored panel gets when it had none to go back to
RESTORE_WIDTH = {BOARD_LIST: 240, SIDE_PANEL: 300}


def columns_to_hide(widths: dict[int, int], room: int) -> set[int]:
    """Which columns to hide so the others fit in ``room`` pixels (whole groups, in :data:`DROP_ORDER`)."""
    hidden: set[int] = set()
    total = sum(widths.values())
    for group in DROP_ORDER:
        if total <= room:
            break
        for col in group:
            if col in widths and col not in hidden:
                hidden.add(col)
                total -= widths[col]
    return hidden


def fit_board_list(view, width: int | None = None, height: int | None = None) -> set[int]:
    """Show as many board-list columns as the list's width holds; returns the hidden ones.

    ``width``/``height`` are the list's new size when called from its resize event (its
    viewport has not been resized yet then).
    """
    table = view.board_list
    header = table.horizontalHeader()
    natural = getattr(view, "_natural_widths", {})
    widths = {col: natural.get(col) or header.sectionSize(col) for col in range(view.model.columnCount())}
    view._natural_widths = widths  # hidden sections report 0; keep what they had
    width = table.width() if width is None else width
    height = table.height() if height is None else height
    room = width - 2 * table.frameWidth()
    rows_height = view.model.rowCount() * table.verticalHeader().defaultSectionSize()
    if rows_height > height - header.height() - 2 * table.frameWidth():
        room -= table.verticalScrollBar().sizeHint().width()
    hidden = columns_to_hide(widths, room)
    for col in range(view.model.columnCount()):
        want = col in hidden
        if table.isColumnHidden(col) != want:
            table.setColumnHidden(col, want)
            if not want:
                table.setColumnWidth(col, widths[col])
    return hidden


class _ListWatcher(QObject):
    """Refits the board list's columns whenever it changes width."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Resize:
            old, new = event.oldSize(), event.size()
            if old.width() != new.width() or old.height() != new.height():
                fit_board_list(self.view, new.width(), new.height())
        return False


def side_width(view) -> int:
    """The side panel's natural width: 300 pixels, or more so that every side tab (Details, Auction,
    Play, Traveller, Check) shows in the tab bar without its scroll arrows, whatever board is shown."""
    bar = view.side_tabs.tabBar()
    tabs = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
    traveller = getattr(view, "traveller", None)
    if traveller is not None and getattr(getattr(traveller, "marks", None), "positions", None):
        # its title counts the current board's results ("Traveller (12)"): room for two digits, so the tab
        # bar does not grow scroll arrows as the boards go by
        from .traveller_view import TITLE

        title = bar.tabText(view.side_tabs.indexOf(traveller))
        tabs += bar.fontMetrics().horizontalAdvance(f"{TITLE} (88)") - bar.fontMetrics().horizontalAdvance(title)
    margins = view.side_tabs.parentWidget().layout().contentsMargins()
    return max(RESTORE_WIDTH[SIDE_PANEL], tabs + margins.left() + margins.right() + 6)


def install_small_screen(view) -> None:
    """Make ``view`` usable on small screens (see the module docstring)."""
    splitter: QSplitter = view.splitter
    # the natural layout, now that every side tab is in: the side panel wide enough to show them all
    splitter.setSizes([natural_list_width(view), CENTRE_WIDTH, side_width(view)])
    splitter.setChildrenCollapsible(True)
    splitter.setCollapsible(1, False)
    side_bar = view.side_tabs.tabBar()
    side_bar.setUsesScrollButtons(True)
    view.board_list.setMinimumWidth(150)
    view.diagram.setMinimumSize(200, 180)
    view._panel_widths = {}
    watcher = _ListWatcher(view)
    view.board_list.installEventFilter(watcher)
    view._list_watcher = watcher
    view._default_splitter = splitter.saveState()
    view._first_show = _FirstShow(view)
    view.installEventFilter(view._first_show)


def _pane(splitter: QSplitter, index: int) -> QWidget:
    """Pane ``index`` of a document view's splitter, which always holds its three."""
    widget = splitter.widget(index)
    if widget is None:
        raise LookupError(f"the splitter has no pane {index}")
    return widget


def _column_width(view, col: int) -> int:
    """A board-list column's own width, also while it is hidden."""
    return getattr(view, "_natural_widths", {}).get(col) or view.board_list.columnWidth(col)


def natural_list_width(view) -> int:
    """The board list's width with every column shown."""
    return sum(_column_width(view, c) for c in range(view.model.columnCount())) + 24


def small_window_sizes(view, total: int) -> list[int] | None:
    """Splitter sizes for a view ``total`` pixels wide whose diagram would be squeezed below
    :data:`COMFORT_WIDTH` by the natural widths: first the list narrows to its main columns, then the
    side panel goes down to its least; None when the natural widths leave the diagram enough room."""
    splitter: QSplitter = view.splitter
    table = view.board_list
    handles = splitter.handleWidth() * 2
    side = side_width(view)
    if total <= 0 or total - natural_list_width(view) - side - handles >= COMFORT_WIDTH:
        return None
    dropped = {c for group in DROP_ORDER[:2] for c in group}
    kept = sum(_column_width(view, c) for c in range(view.model.columnCount()) if c not in dropped)
    rows_height = view.model.rowCount() * table.verticalHeader().defaultSectionSize()
    scrolls = rows_height > table.height() - table.horizontalHeader().height() - 2 * table.frameWidth()
    frame = 2 * table.frameWidth() + (table.verticalScrollBar().sizeHint().width() if scrolls else 0) + 2
    lst = max(table.minimumWidth(), kept + frame)
    if total - lst - side - handles < COMFORT_WIDTH:
        side = max(_pane(splitter, SIDE_PANEL).minimumSizeHint().width(), 200)
    centre = total - lst - side - handles
    if centre < _pane(splitter, 1).minimumSizeHint().width():
        return None
    return [lst, centre, side]


class _FirstShow(QObject):
    """While the user has not dragged the splitter (and kept no layout of their own), a window too small
    for every pane's natural width gives the diagram the room: the list narrows, the side panel takes its
    least; a wider window brings the natural widths back."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.auto: bool | None = None  # decided at the first showing
        self.small = False
        view.splitter.splitterMoved.connect(self._moved)

    def _moved(self, *_args) -> None:
        self.auto = False

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt naming)
        if obj is not self.view:
            return False
        kind = event.type()
        if kind == QEvent.Type.Show and self.auto is None:
            self.auto = self.view.splitter.saveState() == self.view._default_splitter
            if not self.auto:  # a layout kept from another tab: its side panel may be too narrow for these tabs
                QTimer.singleShot(0, self._widen_side)
        if kind in (QEvent.Type.Show, QEvent.Type.Resize) and self.auto:
            QTimer.singleShot(0, self._fit)
        return False

    def _widen_side(self) -> None:
        """Once, as a view with a remembered layout first shows: a side panel narrower than its tabs (the
        layout was another file's, without a Traveller tab that counts results) takes the few pixels it
        needs from the diagram, while the diagram keeps :data:`COMFORT_WIDTH`."""
        try:
            splitter = self.view.splitter
            sizes = splitter.sizes()
            need = side_width(self.view)
        except RuntimeError:  # the view is gone
            return
        if not panel_shown(self.view, SIDE_PANEL) or sizes[SIDE_PANEL] >= need:
            return
        extra = min(need - sizes[SIDE_PANEL], sizes[1] - COMFORT_WIDTH)
        if extra > 0:
            sizes[1] -= extra
            sizes[SIDE_PANEL] += extra
            splitter.setSizes(sizes)

    def _fit(self) -> None:
        try:
            splitter = self.view.splitter
            total = splitter.width()
        except RuntimeError:  # the view is gone
            return
        if not self.auto or total <= 0:
            return
        sizes = small_window_sizes(self.view, total)
        if sizes is not None:
            if sizes != splitter.sizes():
                splitter.setSizes(sizes)
            self.small = True
        elif self.small:
            lst = natural_list_width(self.view)
            side = side_width(self.view)
            splitter.setSizes([lst, max(0, total - lst - side), side])
            self.small = False


#: the least diagram width worth editing on: narrower, opening the editor collapses the side panels
EDITOR_DIAGRAM = 400
#: the side panel's least useful width (the DD grid and the tab bar)
SIDE_LEAST = 200


def compact_list_width(view) -> int:
    """The board list narrowed to its main columns (board, vulnerability, contract, problem marker)."""
    table = view.board_list
    dropped = {c for group in DROP_ORDER for c in group}
    kept = sum(_column_width(view, c) for c in range(view.model.columnCount()) if c not in dropped)
    return max(table.minimumWidth(), kept + 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width())


def make_room_for_editor(view, room: int) -> list[str]:
    """The editor takes part of the window: when the ``room`` left to ``view`` cannot hold the board list,
    a diagram of :data:`EDITOR_DIAGRAM` pixels and the side panel, collapse the side panel, then the board
    list (F7 and F6 bring them back); returns what was collapsed, for the status bar."""
    handles = view.splitter.handleWidth() * 2 + 8
    need_list = compact_list_width(view) if panel_shown(view, BOARD_LIST) else 0
    need_side = SIDE_LEAST if panel_shown(view, SIDE_PANEL) else 0
    hidden: list[str] = []
    if need_side and room - handles - need_list - need_side < EDITOR_DIAGRAM:
        show_panel(view, SIDE_PANEL, False)
        hidden.append("analysis panel")
        need_side = 0
    if need_list and room - handles - need_list - need_side < EDITOR_DIAGRAM:
        show_panel(view, BOARD_LIST, False)
        hidden.insert(0, "board list")
    return hidden


def panel_shown(view, which: int) -> bool:
    return view.splitter.sizes()[which] > 0 and not _pane(view.splitter, which).isHidden()


def show_panel(view, which: int, on: bool) -> None:
    """Collapse (``on`` False) or restore the board list (:data:`BOARD_LIST`) or side panel (:data:`SIDE_PANEL`)."""
    splitter: QSplitter = view.splitter
    sizes = splitter.sizes()
    if (sizes[which] > 0) == on:
        return
    first_show = getattr(view, "_first_show", None)
    if first_show is not None:
        first_show.auto = False  # the user's layout now: a resize must not bring a collapsed panel back
    pane = _pane(splitter, which)
    if on:
        width = view._panel_widths.get(which) or (side_width(view) if which == SIDE_PANEL else RESTORE_WIDTH[which])
        sizes[1] = max(_pane(splitter, 1).minimumWidth(), sizes[1] - width)
        sizes[which] = width
        pane.show()
    else:
        view._panel_widths[which] = sizes[which]
        sizes[1] += sizes[which]
        sizes[which] = 0
        # hidden, not just collapsed: a collapsed pane still counts its least width in the window's, which
        # left the editor no room to open beside the diagram on an 800-pixel screen
        pane.hide()
    splitter.setSizes(sizes)


PANEL_ACTIONS = (
    (BOARD_LIST, "&Board List", "F6", "Show or hide the list of boards"),
    (
        SIDE_PANEL,
        "&Analysis and Details Panel",
        "F7",
        "Show or hide the double-dummy grid with the Details, Auction and Play tabs",
    ),
)


def add_panel_actions(window, menu: QMenu) -> dict[int, QAction]:
    """View-menu toggles for the current tab's side panels; kept in step with the splitter when the menu opens."""
    actions: dict[int, QAction] = {}
    for which, text, key, tip in PANEL_ACTIONS:
        act = QAction(text, window)
        act.setCheckable(True)
        act.setChecked(True)
        act.setShortcut(QKeySequence(key))
        act.setStatusTip(tip)

        def toggle(_checked=False, which=which) -> None:
            view = window.current_view()
            if view is not None and hasattr(view, "_panel_widths"):
                show_panel(view, which, not panel_shown(view, which))
            sync_panel_actions(window)

        act.triggered.connect(toggle)
        menu.addAction(act)
        actions[which] = act
    window.panel_actions = actions
    menu.aboutToShow.connect(lambda: sync_panel_actions(window))
    return actions


def sync_panel_actions(window) -> None:
    """Tick the panel toggles as the current tab shows its panels."""
    view = window.current_view()
    for which, act in getattr(window, "panel_actions", {}).items():
        act.setEnabled(view is not None)
        act.blockSignals(True)
        act.setChecked(view is not None and panel_shown(view, which))
        act.blockSignals(False)


__all__ = [
    "add_panel_actions",
    "sync_panel_actions",
    "install_small_screen",
    "fit_board_list",
    "columns_to_hide",
    "show_panel",
    "panel_shown",
    "make_room_for_editor",
    "side_width",
    "compact_list_width",
    "BOARD_LIST",
    "SIDE_PANEL",
    "DROP_ORDER",
]
