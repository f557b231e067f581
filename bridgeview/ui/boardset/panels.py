"""Small screens: a board list that drops columns as it narrows, side panels that collapse and come back.

An 800x600 window holds the board list, the diagram (which scales down on
its own), the replay bar and the DD grid with the side tabs.  When the board
list is narrower than its columns it hides the HCP columns first, then the
result, then the dealer, so board, contract and vulnerability stay readable
without a horizontal scroll bar.  Either side panel can be collapsed (View
menu or dragging the splitter) and restored to its previous width.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QSplitter, QWidget

from ..document.board_model import COL_DEALER, COL_HCP, COL_RESULT
from ..document.services import WindowServices
from .traveller_view import TITLE

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


class PanelLayout(QObject):
    """The panes of one document view on small screens (see the module docstring): its own state (the
    columns' widths, the widths collapsed panels go back to, whether the layout is still the automatic
    one) and the watchers that keep the board list's columns and the panes fitted."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        #: each board-list column's own width (hidden sections report 0; this keeps what they had)
        self.natural_widths: dict[int, int] = {}
        #: the width each collapsed panel goes back to
        self.panel_widths: dict[int, int] = {}
        splitter: QSplitter = view.splitter
        # the natural layout, now that every side tab is in: the side panel wide enough to show them all
        splitter.setSizes([self.natural_list_width(), CENTRE_WIDTH, self.side_width()])
        splitter.setChildrenCollapsible(True)
        splitter.setCollapsible(1, False)
        side_bar = view.side_tabs.tabBar()
        side_bar.setUsesScrollButtons(True)
        view.board_list.setMinimumWidth(150)
        view.diagram.setMinimumSize(200, 180)
        self.list_watcher = _ListWatcher(self)
        view.board_list.installEventFilter(self.list_watcher)
        self.first_show = _FirstShow(self, splitter.saveState())
        view.installEventFilter(self.first_show)

    def fit_board_list(self, width: int | None = None, height: int | None = None) -> set[int]:
        """Show as many board-list columns as the list's width holds; returns the hidden ones.

        ``width``/``height`` are the list's new size when called from its resize event (its
        viewport has not been resized yet then).
        """
        view = self.view
        table = view.board_list
        header = table.horizontalHeader()
        natural = self.natural_widths
        widths = {col: natural.get(col) or header.sectionSize(col) for col in range(view.model.columnCount())}
        self.natural_widths = widths
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

    def side_width(self) -> int:
        """The side panel's natural width: 300 pixels, or more so that every side tab (Details, Auction,
        Play, Traveller, Check) shows in the tab bar without its scroll arrows, whatever board is shown."""
        view = self.view
        bar = view.side_tabs.tabBar()
        tabs = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        traveller = view.traveller
        if traveller.marks.positions:
            # its title counts the current board's results ("Traveller (12)"): room for two digits, so the
            # tab bar does not grow scroll arrows as the boards go by
            title = bar.tabText(view.side_tabs.indexOf(traveller))
            tabs += bar.fontMetrics().horizontalAdvance(f"{TITLE} (88)") - bar.fontMetrics().horizontalAdvance(title)
        margins = view.side_tabs.parentWidget().layout().contentsMargins()
        return max(RESTORE_WIDTH[SIDE_PANEL], tabs + margins.left() + margins.right() + 6)

    def column_width(self, col: int) -> int:
        """A board-list column's own width, also while it is hidden."""
        return self.natural_widths.get(col) or self.view.board_list.columnWidth(col)

    def natural_list_width(self) -> int:
        """The board list's width with every column shown."""
        return sum(self.column_width(c) for c in range(self.view.model.columnCount())) + 24

    def small_window_sizes(self, total: int) -> list[int] | None:
        """Splitter sizes for a view ``total`` pixels wide whose diagram would be squeezed below
        :data:`COMFORT_WIDTH` by the natural widths: first the list narrows to its main columns, then the
        side panel goes down to its least; None when the natural widths leave the diagram enough room."""
        view = self.view
        splitter: QSplitter = view.splitter
        table = view.board_list
        handles = splitter.handleWidth() * 2
        side = self.side_width()
        if total <= 0 or total - self.natural_list_width() - side - handles >= COMFORT_WIDTH:
            return None
        dropped = {c for group in DROP_ORDER[:2] for c in group}
        kept = sum(self.column_width(c) for c in range(view.model.columnCount()) if c not in dropped)
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

    def compact_list_width(self) -> int:
        """The board list narrowed to its main columns (board, vulnerability, contract, problem marker)."""
        table = self.view.board_list
        dropped = {c for group in DROP_ORDER for c in group}
        kept = sum(self.column_width(c) for c in range(self.view.model.columnCount()) if c not in dropped)
        return max(table.minimumWidth(), kept + 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width())

    def make_room_for_editor(self, room: int) -> list[str]:
        """The editor takes part of the window: when the ``room`` left to the view cannot hold the board list,
        a diagram of :data:`EDITOR_DIAGRAM` pixels and the side panel, collapse the side panel, then the board
        list (F7 and F6 bring them back); returns what was collapsed, for the status bar."""
        handles = self.view.splitter.handleWidth() * 2 + 8
        need_list = self.compact_list_width() if self.panel_shown(BOARD_LIST) else 0
        need_side = SIDE_LEAST if self.panel_shown(SIDE_PANEL) else 0
        hidden: list[str] = []
        if need_side and room - handles - need_list - need_side < EDITOR_DIAGRAM:
            self.show_panel(SIDE_PANEL, False)
            hidden.append("analysis panel")
            need_side = 0
        if need_list and room - handles - need_list - need_side < EDITOR_DIAGRAM:
            self.show_panel(BOARD_LIST, False)
            hidden.insert(0, "board list")
        return hidden

    def panel_shown(self, which: int) -> bool:
        splitter = self.view.splitter
        return splitter.sizes()[which] > 0 and not _pane(splitter, which).isHidden()

    def show_panel(self, which: int, on: bool) -> None:
        """Collapse (``on`` False) or restore the board list (:data:`BOARD_LIST`) or side panel
        (:data:`SIDE_PANEL`)."""
        splitter: QSplitter = self.view.splitter
        sizes = splitter.sizes()
        if (sizes[which] > 0) == on:
            return
        self.first_show.auto = False  # the user's layout now: a resize must not bring a collapsed panel back
        pane = _pane(splitter, which)
        if on:
            width = self.panel_widths.get(which) or (self.side_width() if which == SIDE_PANEL else RESTORE_WIDTH[which])
            sizes[1] = max(_pane(splitter, 1).minimumWidth(), sizes[1] - width)
            sizes[which] = width
            pane.show()
        else:
            self.panel_widths[which] = sizes[which]
            sizes[1] += sizes[which]
            sizes[which] = 0
            # hidden, not just collapsed: a collapsed pane still counts its least width in the window's, which
            # left the editor no room to open beside the diagram on an 800-pixel screen
            pane.hide()
        splitter.setSizes(sizes)


class _ListWatcher(QObject):
    """Refits the board list's columns whenever it changes width."""

    def __init__(self, panels: PanelLayout) -> None:
        super().__init__(panels)
        self.panels = panels

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            old, new = event.oldSize(), event.size()
            if old.width() != new.width() or old.height() != new.height():
                self.panels.fit_board_list(new.width(), new.height())
        return False


def _pane(splitter: QSplitter, index: int) -> QWidget:
    """Pane ``index`` of a document view's splitter, which always holds its three."""
    widget = splitter.widget(index)
    if widget is None:
        raise LookupError(f"the splitter has no pane {index}")
    return widget


class _FirstShow(QObject):
    """While the user has not dragged the splitter (and kept no layout of their own), a window too small
    for every pane's natural width gives the diagram the room: the list narrows, the side panel takes its
    least; a wider window brings the natural widths back."""

    def __init__(self, panels: PanelLayout, default_state: QByteArray) -> None:
        super().__init__(panels)
        self.panels = panels
        self.view = panels.view
        self.default_state = default_state  # the splitter as the view laid it out, before any saved layout
        self.auto: bool | None = None  # decided at the first showing
        self.small = False
        self.view.splitter.splitterMoved.connect(self._moved)

    def _moved(self, *_args) -> None:
        self.auto = False

    def eventFilter(self, obj, event) -> bool:
        if obj is not self.view:
            return False
        kind = event.type()
        if kind == QEvent.Type.Show and self.auto is None:
            self.auto = self.view.splitter.saveState() == self.default_state
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
            need = self.panels.side_width()
        except RuntimeError:  # the view is gone
            return
        if not self.panels.panel_shown(SIDE_PANEL) or sizes[SIDE_PANEL] >= need:
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
        sizes = self.panels.small_window_sizes(total)
        if sizes is not None:
            if sizes != splitter.sizes():
                splitter.setSizes(sizes)
            self.small = True
        elif self.small:
            lst = self.panels.natural_list_width()
            side = self.panels.side_width()
            splitter.setSizes([lst, max(0, total - lst - side), side])
            self.small = False


#: the least diagram width worth editing on: narrower, opening the editor collapses the side panels
EDITOR_DIAGRAM = 400
#: the side panel's least useful width (the DD grid and the tab bar)
SIDE_LEAST = 200


PANEL_ACTIONS = (
    (BOARD_LIST, "&Board List", "F6", "Show or hide the list of boards"),
    (
        SIDE_PANEL,
        "&Analysis and Details Panel",
        "F7",
        "Show or hide the double-dummy grid with the Details, Auction and Play tabs",
    ),
)


class PanelActions(QObject):
    """View › Board List (F6) and Analysis and Details Panel (F7): the current tab's panes shown or hidden,
    ticked as the current tab shows them when the menu opens or the tab changes."""

    def __init__(self, window: WindowServices, menu: QMenu) -> None:
        super().__init__(window.window())
        self.window = window
        #: the toggles, by pane (:data:`BOARD_LIST`, :data:`SIDE_PANEL`)
        self.actions: dict[int, QAction] = {}
        for which, text, key, tip in PANEL_ACTIONS:
            act = QAction(text, self)
            act.setCheckable(True)
            act.setChecked(True)
            act.setShortcut(QKeySequence(key))
            act.setStatusTip(tip)
            act.triggered.connect(lambda _checked=False, which=which: self.toggle(which))
            menu.addAction(act)
            self.actions[which] = act
        menu.aboutToShow.connect(self.sync)

    def toggle(self, which: int) -> None:
        view = self.window.current_view()
        if view is not None:
            view.panels.show_panel(which, not view.panels.panel_shown(which))
        self.sync()

    def sync(self) -> None:
        """Tick the panel toggles as the current tab shows its panels."""
        view = self.window.current_view()
        panels = view.panels if view is not None else None
        for which, act in self.actions.items():
            act.setEnabled(panels is not None)
            act.blockSignals(True)
            act.setChecked(panels is not None and panels.panel_shown(which))
            act.blockSignals(False)


__all__ = [
    "PanelActions",
    "PanelLayout",
    "columns_to_hide",
    "BOARD_LIST",
    "SIDE_PANEL",
    "DROP_ORDER",
]
