"""Replaying the play: a controller, a toolbar with a slider and a movie mode, and the wiring.

:class:`ReplayController` owns the step (0 = full deal, k = after k cards) of
the current board and announces every move; :class:`ReplayBar` drives it with
buttons, a slider, keyboard shortcuts and a timer; :func:`install_replay` puts
both, plus the auction tab, into a document view.  The step arithmetic itself
is Qt-free in :mod:`bridgeview.model.replay_state`.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSlider,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.board import Board
from ...model.cards import Card, Suit
from ...model.replay_state import ReplayPosition, ReplayState
from ..card_text import rank_label
from ..diagram.hand_diagram import HandDiagram
from ..document.services import BoardView
from ..plaintext import plain_label
from .auction_view import COLUMN_SEATS, RED, AuctionView, column_of

SETTING_GREY = "replay/grey_played"
SETTING_INTERVAL = "replay/interval_ms"
SETTING_DEALER_FIRST = "auction/dealer_first"
DEFAULT_INTERVAL_MS = 1000
#: the replay slider never shrinks below this (a narrow window cuts the position text instead)
SLIDER_MIN_WIDTH = 90
#: movie speeds offered: (label, milliseconds a card)
SPEEDS = (("0.25 s", 250), ("0.5 s", 500), ("1 s", 1000), ("1.5 s", 1500), ("2 s", 2000), ("3 s", 3000))


def default_settings() -> QSettings:
    """The app's settings (its own names when the application set none)."""
    if QCoreApplication.organizationName() or QCoreApplication.applicationName():
        return QSettings()
    return QSettings("bridgeview", "bridgeview")


class ReplayController(QObject):
    """The replay position of one board, moved by steps, tricks or a timer."""

    #: a :class:`ReplayPosition` after every move and board change
    positionChanged = Signal(object)
    #: the movie timer started (True) or stopped (False)
    playingChanged = Signal(bool)
    #: the board (and so the number of steps) changed
    boardChanged = Signal()

    # the panes that show it, set by :func:`install_replay`
    auction_view: AuctionView
    bar: ReplayBar
    trick_table: TrickTable

    def __init__(self, parent: QObject | None = None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else default_settings()
        self.state: ReplayState | None = None
        self.step = 0
        self.grey_played = bool(self.settings.value(SETTING_GREY, False, type=bool))
        self.timer = QTimer(self)
        interval = self.settings.value(SETTING_INTERVAL, DEFAULT_INTERVAL_MS, type=int)
        self.timer.setInterval(interval if isinstance(interval, int) else DEFAULT_INTERVAL_MS)
        self.timer.timeout.connect(self._tick)

    # -- board ----------------------------------------------------------------
    def set_board(self, board: Board | None, fmt: str | None = None, step: int = 0, keep_playing: bool = False) -> None:
        """Replay ``board`` from ``step`` (0, the full deal, by default); None clears.

        ``keep_playing`` lets a running movie go on (the same board re-shown after an edit).
        """
        playing = keep_playing and self.playing
        if not playing:
            self.stop()
        self.state = ReplayState(board, fmt) if board is not None else None
        self.step = self.state.clamp(step) if self.state is not None else 0
        self.boardChanged.emit()
        self.positionChanged.emit(self.position())
        if playing and self.step >= self.steps:
            self.stop()

    @property
    def steps(self) -> int:
        return self.state.steps if self.state is not None else 0

    def position(self) -> ReplayPosition | None:
        return self.state.position(self.step) if self.state is not None else None

    # -- moves ----------------------------------------------------------------
    def go(self, step: int) -> None:
        if self.state is None:
            return
        step = self.state.clamp(step)
        if step != self.step:
            self.step = step
            self.positionChanged.emit(self.position())

    def next_card(self) -> None:
        if self.state is not None:
            self.go(self.state.next_card(self.step))

    def prev_card(self) -> None:
        if self.state is not None:
            self.go(self.state.prev_card(self.step))

    def next_trick(self) -> None:
        if self.state is not None:
            self.go(self.state.next_trick(self.step))

    def prev_trick(self) -> None:
        if self.state is not None:
            self.go(self.state.prev_trick(self.step))

    def to_start(self) -> None:
        self.go(0)

    def to_end(self) -> None:
        self.go(self.steps)

    # -- movie ----------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def play(self) -> None:
        """Start the movie (from the start when already at the end)."""
        if self.state is None or not self.steps or self.playing:
            return
        if self.step >= self.steps:
            self.go(0)
        self.timer.start()
        self.playingChanged.emit(True)

    def stop(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.playingChanged.emit(False)

    def set_playing(self, on: bool) -> None:
        """Start or stop the movie; a start that cannot happen (no play) is announced as stopped."""
        if on:
            self.play()
            if not self.playing:
                self.playingChanged.emit(False)
        else:
            self.stop()

    def set_interval(self, ms: int) -> None:
        """Milliseconds between cards in the movie; remembered."""
        self.timer.setInterval(int(ms))
        self.settings.setValue(SETTING_INTERVAL, int(ms))

    def _tick(self) -> None:
        self.next_card()
        if self.step >= self.steps:
            self.stop()

    # -- options --------------------------------------------------------------
    def set_grey_played(self, on: bool) -> None:
        """Show played cards greyed instead of removing them; remembered."""
        on = bool(on)
        self.settings.setValue(SETTING_GREY, on)
        if on != self.grey_played:
            self.grey_played = on
            self.positionChanged.emit(self.position())


class ReplayBar(QWidget):
    """⏮ ◀◀ ◀ ▶ ▶▶ ⏭, a slider, a movie toggle with its speed, and where the play stands."""

    def __init__(self, controller: ReplayController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        c = controller
        self.actions_by_name: dict[str, QAction] = {}
        icons = QStyle.StandardPixmap
        spec = (
            ("start", "⏮", icons.SP_MediaSkipBackward, "Start of the play (Home)", Qt.Key.Key_Home, c.to_start),
            ("prev_trick", "◀◀", icons.SP_MediaSeekBackward, "Previous trick (Up)", Qt.Key.Key_Up, c.prev_trick),
            ("prev_card", "◀", icons.SP_ArrowLeft, "Previous card (Left)", Qt.Key.Key_Left, c.prev_card),
            ("next_card", "▶", icons.SP_ArrowRight, "Next card (Right)", Qt.Key.Key_Right, c.next_card),
            ("next_trick", "▶▶", icons.SP_MediaSeekForward, "Next trick (Down)", Qt.Key.Key_Down, c.next_trick),
            ("end", "⏭", icons.SP_MediaSkipForward, "End of the play (End)", Qt.Key.Key_End, c.to_end),
        )
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        # the glyphs name the actions; icons draw them, since few fonts have ⏮ ⏭ ⏯
        for name, text, icon, tip, key, slot in spec:
            action = self._action(name, text, tip, QKeySequence(key))
            action.setIcon(self.style().standardIcon(icon))
            action.triggered.connect(slot)
            row.addWidget(self._button(action))
        movie_tip = "Play the cards one by one (Space)"
        self.movie_action = self._action("movie", "⏯", movie_tip, QKeySequence(Qt.Key.Key_Space))
        self.movie_action.setIcon(self.style().standardIcon(icons.SP_MediaPlay))
        self.movie_action.setCheckable(True)
        self.movie_action.toggled.connect(c.set_playing)
        c.playingChanged.connect(self._playing_changed)
        row.addWidget(self._button(self.movie_action))
        self.speed = QComboBox()
        self.speed.setToolTip("Time between cards in the movie")
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for label, ms in SPEEDS:
            self.speed.addItem(label, ms)
        self._select_speed(c.timer.interval())
        self.speed.currentIndexChanged.connect(lambda i: c.set_interval(self.speed.itemData(i)))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.setToolTip("Cards played")
        self.slider.setMinimumWidth(SLIDER_MIN_WIDTH)
        self.slider.valueChanged.connect(c.go)
        row.addWidget(self.slider, 1)
        self.grey = QCheckBox("Grey played cards")
        self.grey.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.grey.setToolTip("Show cards already played greyed instead of taking them out of the hands")
        self.grey.setChecked(c.grey_played)
        self.grey.toggled.connect(c.set_grey_played)
        self.label = plain_label(QLabel())
        # the position text may be cut on a narrow window rather than make the window wider
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.info = plain_label(QLabel())  # claim and stop notes quote the file
        self.info.setWordWrap(True)
        # buttons and slider on one line, where the play stands and the options on the next, so the bar
        # fits beside a small diagram (an 800-pixel window) with a usable slider
        second = QHBoxLayout()
        second.setContentsMargins(0, 0, 0, 0)
        second.addWidget(self.label, 1)
        second.addWidget(self.speed)
        second.addWidget(self.grey)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addLayout(second)
        layout.addWidget(self.info)
        c.boardChanged.connect(self._board_changed)
        c.positionChanged.connect(self._position_changed)
        self._board_changed()
        self._position_changed(c.position())

    def _action(self, name: str, text: str, tip: str, key: QKeySequence) -> QAction:
        action = QAction(text, self)
        action.setToolTip(tip)
        action.setShortcut(key)
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(action)
        self.actions_by_name[name] = action
        return action

    @staticmethod
    def _button(action: QAction) -> QToolButton:
        button = QToolButton()
        button.setDefaultAction(action)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setAutoRaise(True)
        return button

    def replay_actions(self) -> list[QAction]:
        """The keyboard-driven actions, to add to other widgets (the diagram)."""
        return list(self.actions_by_name.values())

    def _select_speed(self, ms: int) -> None:
        best = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i][1] - ms))
        self.speed.setCurrentIndex(best)

    def _board_changed(self) -> None:
        steps = self.controller.steps
        self.slider.blockSignals(True)
        self.slider.setRange(0, steps)
        self.slider.setValue(self.controller.step)
        self.slider.blockSignals(False)
        for action in self.actions_by_name.values():
            action.setEnabled(steps > 0)
        self.slider.setEnabled(steps > 0)

    def _playing_changed(self, on: bool) -> None:
        self.movie_action.blockSignals(True)
        self.movie_action.setChecked(on)
        self.movie_action.blockSignals(False)
        icon = QStyle.StandardPixmap.SP_MediaPause if on else QStyle.StandardPixmap.SP_MediaPlay
        self.movie_action.setIcon(self.style().standardIcon(icon))

    def _position_changed(self, pos: ReplayPosition | None) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(pos.step if pos is not None else 0)
        self.slider.blockSignals(False)
        state = self.controller.state
        if pos is None or state is None:
            self.label.setText("")
            self.info.setText("")
            return
        if not state.has_play:
            self.label.setText("No play recorded")
        else:
            self.label.setText(f"{pos.label()}  ({pos.step}/{state.steps})")
        notes = [t for t in (state.claim_text, state.stop_text) if t]
        self.info.setText(" · ".join(notes))
        self.info.setVisible(bool(notes))

    def label_text(self) -> str:
        return self.label.text()


class TrickTable(QTableWidget):
    """The tricks played so far, one a row (W N E S): the lead is underlined, the winner bold.

    Only cards up to the current step are listed, so the table never gives the
    rest of the play away; clicking a trick goes to its end.
    """

    HEADERS = ("#", *(s.letter for s in COLUMN_SEATS), "Won")

    def __init__(self, controller: ReplayController, parent: QWidget | None = None) -> None:
        super().__init__(0, len(self.HEADERS), parent)
        self.controller = controller
        self.setHorizontalHeaderLabels(list(self.HEADERS))
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.cellClicked.connect(self._clicked)
        controller.positionChanged.connect(self.show_position)
        self.show_position(controller.position())

    def show_position(self, pos: ReplayPosition | None) -> None:
        state = self.controller.state
        self.setRowCount(0)
        if pos is None or state is None or not pos.step:
            return
        left = pos.step
        for number, trick in enumerate(state.tricks, start=1):
            if left <= 0:
                break
            cards = trick.cards[: min(left, len(trick.cards))]
            left -= len(cards)
            row = self.rowCount()
            self.insertRow(row)
            self.setItem(row, 0, self._item(str(number)))
            winner = trick.winner if len(cards) == 4 else None
            for index, card in enumerate(cards):
                seat = trick.seat_of(index)
                item = self._item(Card(card).suit.symbol + rank_label(card))
                if Card(card).suit in (Suit.HEARTS, Suit.DIAMONDS):
                    item.setForeground(RED)
                font = item.font()
                font.setUnderline(index == 0)
                font.setBold(seat == winner)
                item.setFont(font)
                item.setToolTip(
                    ("led by " if index == 0 else "played by ")
                    + seat.letter
                    + (", wins the trick" if seat == winner else "")
                )
                self.setItem(row, 1 + column_of(seat), item)
            self.setItem(row, 5, self._item(winner.letter if winner is not None else ""))
        self.selectRow(self.rowCount() - 1)

    @staticmethod
    def _item(text: str) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        return item

    def _clicked(self, row: int, _column: int) -> None:
        state = self.controller.state
        if state is not None:
            self.controller.go(sum(len(t.cards) for t in state.tricks[: row + 1]))

    def rows(self) -> list[list[str]]:
        """The table as strings (for tests): number, W, N, E, S, winner."""
        return [
            [item.text() if (item := self.item(r, c)) else "" for c in range(self.columnCount())]
            for r in range(self.rowCount())
        ]


def show_position(diagram: HandDiagram, controller: ReplayController, pos: ReplayPosition | None) -> None:
    """Put ``pos`` on ``diagram`` (a :class:`HandDiagram`); the full deal when there is no play."""
    state = controller.state
    if pos is None or state is None:
        return
    if not state.has_play and state.stop_text is None and state.claim_text is None:
        diagram.set_play_state(None, None, 0, 0, None)
        return
    diagram.show_position(pos, grey_played=controller.grey_played)


def play_to_card(controller: ReplayController, card: int) -> bool:
    """Move the replay to just after ``card`` is played; False when the recorded play never plays it."""
    state = controller.state
    if state is None or not state.has_play:
        return False
    order = [int(c) for trick in state.tricks for c in trick.cards]
    if int(card) not in order:
        return False
    controller.stop()
    controller.go(order.index(int(card)) + 1)
    return True


def install_card_clicks(diagram: HandDiagram, controller: ReplayController) -> None:
    """A click on a card plays up to it - in replay mode (``diagram.click_plays``; an edit mode turns it off)."""

    def clicked(card: int) -> None:
        if diagram.click_plays:
            play_to_card(controller, card)

    diagram.cardClicked.connect(clicked)


def install_replay(document_view: BoardView, settings: QSettings | None = None) -> ReplayController:
    """Add the auction tab and the replay bar to ``document_view`` and keep them on its current board.

    The options are kept in ``settings`` (the main window's: ``render --window``'s scratch settings and a
    test's own file are honoured), else in the app's.
    """
    controller = ReplayController(document_view, settings)
    auction = AuctionView(dealer_first=bool(controller.settings.value(SETTING_DEALER_FIRST, True, type=bool)))
    auction.dealer_first_action.toggled.connect(lambda on: controller.settings.setValue(SETTING_DEALER_FIRST, bool(on)))
    document_view.side_tabs.addTab(auction, "Auction")
    tricks = TrickTable(controller)
    document_view.side_tabs.addTab(tricks, "Play")
    bar = ReplayBar(controller)
    document_view.diagram_column.addWidget(bar)
    diagram = document_view.diagram
    if diagram.focusPolicy() == Qt.FocusPolicy.NoFocus:
        diagram.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    for action in bar.replay_actions():
        diagram.addAction(action)
    install_card_clicks(diagram, controller)
    controller.auction_view = auction
    controller.bar = bar
    controller.trick_table = tricks

    shown: dict[str, int | None] = {"index": None}

    def board_changed(*_args) -> None:
        """A new board starts at the full deal; the same board re-shown (an edit) keeps its step and movie."""
        index = document_view.current_index()
        same = index == shown["index"]
        shown["index"] = index
        board = document_view.current_board()
        controller.set_board(board, document_view.format_name, controller.step if same else 0, keep_playing=same)
        auction.set_board(board, controller.state)

    controller.positionChanged.connect(lambda pos: show_position(diagram, controller, pos))
    document_view.currentBoardChanged.connect(board_changed)
    board_changed()
    return controller
