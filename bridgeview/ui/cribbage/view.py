"""The cribbage "movie": a HALSCRIB game replayed step by step on a painted table.

:class:`CribbageView` shows the header, the table (hands, crib, starter, the
pegging), a cribbage board with pegs, the step controls and the scoring
breakdown.  The steps themselves (what is shown and counted) come Qt-free
from :meth:`bridgeview.model.cribbage.CribbageRecord.movie`.
:func:`render_cribbage` draws a step offscreen to PNG for ``bridgeview render``.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStyle,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...app.document import Document
from ...formats.errors import FormatError
from ...model.cribbage import GAME_POINTS, SUIT_SYMBOLS, CribbageRecord, CribCard, MovieStep
from ...model.text import plural
from ..document.tab import DocumentTab
from ..imagefile import write_png
from ..replay.controls import DEFAULT_INTERVAL_MS, SPEEDS
from ..theme import (
    CRIB_BACK,
    CRIB_BACK_EDGE,
    CRIB_BLACK,
    CRIB_BOARD_TEXT,
    CRIB_CARD_EDGE,
    CRIB_CARD_FACE,
    CRIB_DEALER_BG,
    CRIB_DEALER_FG,
    CRIB_FELT,
    CRIB_HIGHLIGHT,
    CRIB_HOLE,
    CRIB_PLAYERS,
    CRIB_POINTS_FG,
    CRIB_PROBLEM,
    CRIB_SKUNK,
    CRIB_STEP_GREY,
    CRIB_WARNING_BG,
    CRIB_WARNING_FG,
    CRIB_WOOD,
    CRIB_WOOD_EDGE,
    FONT_FAMILY,
    RED,
    WHITE,
    load_fonts,
    shadow,
    veil,
    with_alpha,
)

PLAYER_COLOURS = CRIB_PLAYERS
BLACK = CRIB_BLACK
HIGHLIGHT = CRIB_HIGHLIGHT
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def cards_html(cards: Sequence[CribCard]) -> str:
    """Cards as rich text, hearts and diamonds in red."""
    return " ".join(
        f"<span style='color:{(RED if c.is_red else BLACK).name()}'>{html.escape(c.symbol_text())}</span>"
        for c in cards
    )


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont(FONT_FAMILY)
    f.setPixelSize(max(6, int(px)))
    f.setBold(bold)
    return f


class CribbageTable(QWidget):
    """The painted table and cribbage board for one :class:`MovieStep`."""

    def __init__(self, record: CribbageRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.step: MovieStep | None = None
        self.setMinimumSize(320, 220)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def sizeHint(self) -> QSize:
        return QSize(760, 560)

    def set_step(self, step: MovieStep | None) -> None:
        self.step = step
        self.update()

    # -- painting ---------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            self.paint(p, float(self.width()), float(self.height()))
        finally:
            p.end()

    def paint(self, p: QPainter, w: float, h: float) -> None:
        table = QRectF(0, 0, w, h)
        grad = QRadialGradient(table.center(), max(w, h) * 0.7)
        grad.setColorAt(0, CRIB_FELT[0])
        grad.setColorAt(1, CRIB_FELT[1])
        p.fillRect(QRectF(0, 0, w, h), QBrush(grad))
        s = self.step
        if s is None:
            return
        self._paint_table(p, table, s)

    def _card_size(self, table: QRectF) -> tuple[float, float]:
        ch = min(table.height() * 0.2, table.width() * 0.115)
        return ch * 0.7, ch

    def _paint_table(self, p: QPainter, table: QRectF, s: MovieStep) -> None:
        cw, ch = self._card_size(table)
        margin = ch * 0.18
        name_w = max(110.0, table.width() * 0.16)
        gap = cw * 0.14
        left = table.left() + margin + name_w
        rows = {1: table.top() + margin, 0: table.bottom() - margin - ch - ch * 0.28}
        for player in (0, 1):
            y = rows[player]
            self._paint_name(p, QRectF(table.left() + margin * 0.6, y, name_w - margin, ch), player, s)
            for k, c in enumerate(s.hands[player]):
                self._paint_card(p, QRectF(left + k * (cw + gap), y, cw, ch), c, highlight=c in s.highlight)
        # the crib beside the dealer's hand, the deck and starter on the right
        right = table.right() - margin - cw
        crib_y = rows[s.dealer]
        if s.crib:
            for k, c in enumerate(s.crib):
                r = QRectF(
                    right - 3 * cw * (0.3 if s.crib_shown else 0.06) + k * cw * (0.3 if s.crib_shown else 0.06),
                    crib_y - k * (0 if s.crib_shown else 1.5),
                    cw,
                    ch,
                )
                if s.crib_shown:
                    self._paint_card(p, r, c, highlight=c in s.highlight)
                else:
                    self._paint_back(p, r)
            self._label(p, QRectF(right - cw * 1.2, crib_y + ch + 2, cw * 2.2, ch * 0.22), "crib", ch * 0.12)
        mid_y = table.center().y() - ch / 2
        deck = QRectF(right, mid_y, cw, ch)
        for k in range(3):
            self._paint_back(p, deck.translated(-k * 1.5, -k * 1.5))
        if s.starter is not None:
            self._paint_card(p, deck.translated(-cw * 0.35, cw * 0.12), s.starter, highlight=s.starter in s.highlight)
            self._label(p, QRectF(right - cw * 0.9, mid_y + ch + cw * 0.14, cw * 2.2, ch * 0.22), "starter", ch * 0.12)
        # the pegging: earlier series turned over, the current series overlapping, the count
        turned = len(s.played) - len(s.pile)
        x = left
        if turned > 0:
            for k in range(turned):
                self._paint_back(p, QRectF(x + k * 2, mid_y - k * 2, cw * 0.8, ch * 0.8).translated(0, ch * 0.1))
            top = mid_y + ch * 0.1 - 2 * turned - ch * 0.2  # above the stack, clear of a warning below it
            self._label(p, QRectF(x - cw * 0.3, top, cw * 1.4, ch * 0.2), f"{turned} played", ch * 0.1)
            x += cw * 1.25
        for k, play in enumerate(s.pile):
            dy = -ch * 0.1 if play.player == 1 else ch * 0.1
            r = QRectF(x + k * cw * 0.55, mid_y + dy, cw, ch)
            self._paint_card(p, r, play.card, highlight=play.card in s.highlight, edge=PLAYER_COLOURS[play.player])
        if s.count is not None:
            cx = x + max(len(s.pile) - 1, 0) * cw * 0.55 + cw * 1.65
            rad = ch * 0.24
            p.setPen(QPen(veil(200), 2))
            p.setBrush(shadow(90))
            p.drawEllipse(QPointF(cx, mid_y + ch / 2), rad, rad)
            p.setFont(_font(rad * 0.95, True))
            p.setPen(WHITE)
            p.drawText(
                QRectF(cx - rad, mid_y + ch / 2 - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, str(s.count)
            )
        self._paint_caption(p, table, s, rows[0] - ch * 0.02, ch)

    def _paint_name(self, p: QPainter, r: QRectF, player: int, s: MovieStep) -> None:
        ch = r.height()
        colour = PLAYER_COLOURS[player]
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        p.drawEllipse(QRectF(r.left(), r.top() + ch * 0.08, ch * 0.14, ch * 0.14))
        p.setFont(_font(ch * 0.15, True))
        p.setPen(WHITE)
        p.drawText(
            QRectF(r.left() + ch * 0.2, r.top(), r.width(), ch * 0.3),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.record.player_name(player),
        )
        p.setFont(_font(ch * 0.3, True))
        p.drawText(
            QRectF(r.left(), r.top() + ch * 0.3, r.width(), ch * 0.38),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            str(s.scores[player]),
        )
        if s.dealer == player:
            badge = QRectF(r.left(), r.top() + ch * 0.74, ch * 0.62, ch * 0.2)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(CRIB_DEALER_BG)
            p.drawRoundedRect(badge, 4, 4)
            p.setPen(CRIB_DEALER_FG)
            p.setFont(_font(ch * 0.11, True))
            p.drawText(badge, Qt.AlignmentFlag.AlignCenter, "dealer")
        if s.scorer == player and s.points:
            bubble = QRectF(r.left() + ch * 0.68, r.top() + ch * 0.36, ch * 0.46, ch * 0.26)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(HIGHLIGHT)
            p.drawRoundedRect(bubble, bubble.height() / 2, bubble.height() / 2)
            p.setPen(CRIB_POINTS_FG)
            p.setFont(_font(ch * 0.15, True))
            p.drawText(bubble, Qt.AlignmentFlag.AlignCenter, f"+{s.points}")
        if s.winner == player:
            p.setPen(HIGHLIGHT)
            p.setFont(_font(ch * 0.13, True))
            p.drawText(
                QRectF(r.left() + ch * 0.68, r.top() + ch * 0.72, r.width(), ch * 0.24),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                "wins",
            )

    def _paint_caption(self, p: QPainter, table: QRectF, s: MovieStep, bottom: float, ch: float) -> None:
        text = s.caption
        p.setFont(_font(ch * 0.16, True))
        metrics = p.fontMetrics()
        y = bottom - ch * 0.36
        r = QRectF(table.left() + 12, y, table.width() - 24, ch * 0.26)
        p.setPen(WHITE)
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(r.width()))
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, elided)
        if s.problem:
            p.setFont(_font(ch * 0.115, True))
            warn = "\u26a0 " + s.problem
            m = p.fontMetrics()
            tw = min(m.horizontalAdvance(warn) + 20, table.width() - 24)
            box = QRectF(table.center().x() - tw / 2, y - ch * 0.27, tw, ch * 0.22)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(CRIB_WARNING_BG)
            p.drawRoundedRect(box, 6, 6)
            p.setPen(CRIB_WARNING_FG)
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, m.elidedText(warn, Qt.TextElideMode.ElideRight, int(tw - 12)))

    def _label(self, p: QPainter, r: QRectF, text: str, px: float) -> None:
        p.setFont(_font(px))
        p.setPen(veil(190))
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_card(
        self, p: QPainter, r: QRectF, c: CribCard, highlight: bool = False, edge: QColor | None = None
    ) -> None:
        radius = r.width() * 0.08
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(shadow(70))
        p.drawRoundedRect(r.translated(2, 3), radius, radius)
        if highlight:
            p.setBrush(HIGHLIGHT)
            p.drawRoundedRect(r.adjusted(-4, -4, 4, 4), radius + 3, radius + 3)
        p.setBrush(CRIB_CARD_FACE)
        p.setPen(QPen(edge if edge is not None else CRIB_CARD_EDGE, 2 if edge is not None else 1))
        p.drawRoundedRect(r, radius, radius)
        colour = RED if c.is_red else BLACK
        p.setPen(colour)
        small = r.height() * 0.2
        p.setFont(_font(small, True))
        corner = QRectF(r.left() + r.width() * 0.07, r.top() + r.height() * 0.03, r.width() * 0.5, small * 1.25)
        p.drawText(corner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, c.rank_text)
        p.setFont(_font(small * 0.85))
        p.drawText(
            corner.translated(0, small * 1.05),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            SUIT_SYMBOLS[c.suit],
        )
        p.setFont(_font(r.height() * 0.42))
        p.drawText(r.adjusted(0, r.height() * 0.18, 0, 0), Qt.AlignmentFlag.AlignCenter, SUIT_SYMBOLS[c.suit])

    def _paint_back(self, p: QPainter, r: QRectF) -> None:
        radius = r.width() * 0.08
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(shadow(60))
        p.drawRoundedRect(r.translated(2, 3), radius, radius)
        p.setPen(QPen(CRIB_BACK_EDGE, 1.5))
        grad = QLinearGradient(r.topLeft(), r.bottomRight())
        grad.setColorAt(0, CRIB_BACK[0])
        grad.setColorAt(1, CRIB_BACK[1])
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(r, radius, radius)
        inner = r.adjusted(r.width() * 0.12, r.width() * 0.12, -r.width() * 0.12, -r.width() * 0.12)
        p.setPen(QPen(veil(90), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(inner, radius * 0.6, radius * 0.6)
        p.drawLine(inner.topLeft(), inner.bottomRight())
        p.drawLine(inner.topRight(), inner.bottomLeft())


class CribbageBoard(QWidget):
    """A two-track cribbage board: each player's track runs out (1-60) and back
    (61-120) to the game hole; a front peg at the score and a back peg at the last one."""

    def __init__(self, record: CribbageRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.step: MovieStep | None = None
        self.setFixedHeight(130)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(900, 140)

    def set_step(self, step: MovieStep | None) -> None:
        self.step = step
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            self.paint(p, QRectF(2, 2, self.width() - 4, self.height() - 4))
        finally:
            p.end()

    def geometry_for(self, board: QRectF) -> tuple[float, float, float, dict[tuple[int, str], float]]:
        """Left edge of the holes, hole pitch, hole radius and each row's y ((player, "out"/"back"))."""
        left = board.left() + board.width() * 0.14
        right = board.right() - board.height() * 0.12
        units = 1.4 + 59 + 0.8 * 11 + 0.6
        unit = (right - left) / units
        step = board.height() / 5
        rows = {
            (1, "out"): board.top() + step * 0.95,
            (1, "back"): board.top() + step * 1.95,
            (0, "back"): board.top() + step * 3.05,
            (0, "out"): board.top() + step * 4.05,
        }
        radius = max(1.5, min(unit * 0.3, step * 0.16))
        return left, unit, radius, rows

    def hole(self, board: QRectF, player: int, k: int) -> QPointF:
        """Centre of hole ``k`` (0 = start, 121 = the game hole) of ``player``'s track."""
        left, unit, _r, rows = self.geometry_for(board)
        if k <= 0:
            return QPointF(left, rows[(player, "out")])
        if k >= GAME_POINTS:
            return QPointF(left - unit * 0.2, (rows[(1, "back")] + rows[(0, "back")]) / 2)
        j = k - 1 if k <= 60 else 120 - k
        x = left + unit * (1.4 + j + 0.8 * (j // 5))
        return QPointF(x, rows[(player, "out" if k <= 60 else "back")])

    def paint(self, p: QPainter, board: QRectF) -> None:
        s = self.step
        grad = QLinearGradient(board.topLeft(), board.bottomLeft())
        grad.setColorAt(0, CRIB_WOOD[0])
        grad.setColorAt(1, CRIB_WOOD[1])
        p.setPen(QPen(CRIB_WOOD_EDGE, 2))
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(board, board.height() * 0.16, board.height() * 0.16)
        left, unit, radius, rows = self.geometry_for(board)
        # the tracks: a groove for each player, the holes, the skunk line
        for player in (0, 1):
            top = min(rows[(player, "out")], rows[(player, "back")]) - radius * 2.6
            bottom = max(rows[(player, "out")], rows[(player, "back")]) + radius * 2.6
            groove = QRectF(left - unit * 0.8, top, self.hole(board, player, 60).x() - left + unit * 1.6, bottom - top)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(with_alpha(PLAYER_COLOURS[player], 40))
            p.drawRoundedRect(groove, radius * 2, radius * 2)
            p.setBrush(CRIB_HOLE)
            for k in range(GAME_POINTS):
                p.drawEllipse(self.hole(board, player, k), radius, radius)
        p.drawEllipse(self.hole(board, 0, GAME_POINTS), radius * 1.8, radius * 1.8)
        p.setPen(QPen(CRIB_SKUNK, 1.5, Qt.PenStyle.DashLine))
        sx = (self.hole(board, 0, 90).x() + self.hole(board, 0, 91).x()) / 2
        p.drawLine(QPointF(sx, rows[(1, "back")] - radius * 2), QPointF(sx, rows[(0, "back")] + radius * 2))
        p.setFont(_font(max(8.0, board.height() * 0.08), True))
        p.setPen(CRIB_BOARD_TEXT)
        p.drawText(
            QRectF(sx - 12, (rows[(1, "back")] + rows[(0, "back")]) / 2 - 8, 24, 16), Qt.AlignmentFlag.AlignCenter, "S"
        )
        for k in (30, 60, 90):
            c = self.hole(board, 0, k)
            p.setFont(_font(max(7.0, board.height() * 0.07)))
            y = (rows[(1, "back")] + rows[(0, "back")]) / 2 if k == 90 else board.bottom() - board.height() * 0.06
            if k == 90:
                continue
            p.drawText(QRectF(c.x() - 14, y - 8, 28, 12), Qt.AlignmentFlag.AlignCenter, str(k))
        # names and scores on the left, then the pegs
        for player in (0, 1):
            y = (rows[(player, "out")] + rows[(player, "back")]) / 2
            r = QRectF(
                board.left() + board.height() * 0.1,
                y - board.height() * 0.16,
                left - board.left() - board.height() * 0.1 - unit * 2,
                board.height() * 0.32,
            )
            p.setPen(PLAYER_COLOURS[player].darker(160))
            p.setFont(_font(min(board.height() * 0.12, r.width() / 6), True))
            name = self.record.player_name(player)
            score = s.scores[player] if s is not None else 0
            p.drawText(
                r,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                p.fontMetrics().elidedText(f"{name} {score}", Qt.TextElideMode.ElideMiddle, int(r.width())),
            )
        if s is None:
            return
        for player in (0, 1):
            colour = PLAYER_COLOURS[player]
            peg = radius * 2.0
            back, front = s.back[player], s.scores[player]
            if back != front:
                p.setPen(QPen(colour.darker(150), 1.5))
                p.setBrush(colour.lighter(140))
                p.drawEllipse(self.hole(board, player, back), peg * 0.8, peg * 0.8)
            p.setPen(QPen(WHITE, 1.5))
            p.setBrush(colour)
            p.drawEllipse(self.hole(board, player, front), peg, peg)


class CribbageView(DocumentTab):
    """A HALSCRIB game (a record, or a :class:`Document` holding one): header, table, board, step controls
    and breakdown."""

    #: the global step index after every move
    stepChanged = Signal(int)
    #: the step shown
    pos: int  # type: ignore[assignment]  # shadows QWidget.pos(), which this view never calls

    def __init__(self, source: CribbageRecord | Document, parent: QWidget | None = None) -> None:
        super().__init__(source, source.path, parent)
        load_fonts()
        record = self.document.core.content
        assert isinstance(record, CribbageRecord)  # a cribbage view is made for a game
        self.record = record
        self.steps = record.movie()
        self.starts = record.deal_starts(self.steps)
        self.pos = 0
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

        self.header = QLabel(self._header_html())
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        fl = QVBoxLayout(frame)
        fl.setContentsMargins(8, 4, 8, 4)
        fl.addWidget(self.header)

        self.table = CribbageTable(record)
        self.board = CribbageBoard(record)
        self.breakdown = QTextBrowser()
        self.breakdown.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.breakdown.setFixedWidth(260)

        middle = QHBoxLayout()
        middle.addWidget(self.table, 1)
        middle.addWidget(self.breakdown)

        controls = self._make_controls(record)

        layout = QVBoxLayout(self)
        layout.addWidget(frame)
        layout.addLayout(middle, 1)
        layout.addWidget(self.board)
        layout.addLayout(controls)
        self.table.mousePressEvent = self._table_clicked  # type: ignore[method-assign]  # clicks on the table step
        self.setFocusProxy(self.table)  # keys pressed on the table reach keyPressEvent here
        self._show()

    def _make_controls(self, record: CribbageRecord) -> QHBoxLayout:
        """The step bar under the board: buttons, the movie and its speed, the slider, the deal list and
        where the movie stands."""
        self.buttons: dict[str, QToolButton] = {}
        controls = QHBoxLayout()
        icons = QStyle.StandardPixmap
        # the bridge replay's bar: the same icons, keys and movie speeds; a step here is a card or a count
        for name, text, icon, tip, slot in (
            ("start", "\u23ee", icons.SP_MediaSkipBackward, "Start of the record (Home)", self.to_start),
            ("prev_deal", "\u25c0\u25c0", icons.SP_MediaSeekBackward, "Previous deal (Up, Page Up)", self.prev_deal),
            ("prev", "\u25c0", icons.SP_ArrowLeft, "Previous step (Left, right click on the table)", self.prev_step),
            ("next", "\u25b6", icons.SP_ArrowRight, "Next step (Right, click on the table)", self.next_step),
            ("next_deal", "\u25b6\u25b6", icons.SP_MediaSeekForward, "Next deal (Down, Page Down)", self.next_deal),
            ("end", "\u23ed", icons.SP_MediaSkipForward, "End of the record (End)", self.to_end),
        ):
            b = QToolButton()
            b.setText(text)
            b.setIcon(self.style().standardIcon(icon))
            b.setToolTip(tip)
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(slot)
            controls.addWidget(b)
            self.buttons[name] = b
        self.movie_button = QToolButton()
        self.movie_button.setText("\u23ef")
        self.movie_button.setIcon(self.style().standardIcon(icons.SP_MediaPlay))
        self.movie_button.setToolTip("Play the movie step by step (Space)")
        self.movie_button.setCheckable(True)
        self.movie_button.setAutoRaise(True)
        self.movie_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.movie_button.toggled.connect(self.set_playing)
        controls.addWidget(self.movie_button)
        self.speed = QComboBox()
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.speed.setToolTip("Time between steps in the movie")
        for label, ms in SPEEDS:
            self.speed.addItem(label, ms)
        self.speed.setCurrentIndex(next(i for i, (_, ms) in enumerate(SPEEDS) if ms == DEFAULT_INTERVAL_MS))
        self.timer.setInterval(DEFAULT_INTERVAL_MS)
        self.speed.currentIndexChanged.connect(lambda i: self.timer.setInterval(int(self.speed.itemData(i))))
        controls.addWidget(self.speed)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.setToolTip("Steps of the whole record")
        self.slider.setRange(0, max(0, len(self.steps) - 1))
        self.slider.valueChanged.connect(self.go)
        controls.addWidget(self.slider, 1)
        self.deal_box = QComboBox()
        self.deal_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.deal_box.setToolTip("Jump to a deal")
        for i, d in enumerate(record.deals):
            game = self.steps[self.starts[i]].game if i < len(self.starts) else 1
            self.deal_box.addItem(f"Game {game} \u00b7 deal {i + 1} ({record.player_name(d.dealer)} deals)")
        self.deal_box.activated.connect(self.go_deal)
        controls.addWidget(self.deal_box)
        self.position_label = QLabel()
        controls.addWidget(self.position_label)
        return controls

    def showEvent(self, event) -> None:
        """Take the keyboard when shown (a new tab), so the arrow keys step the movie."""
        super().showEvent(event)
        focus = QApplication.focusWidget()
        if focus is None or not self.isAncestorOf(focus):
            self.table.setFocus()

    def resizeEvent(self, event) -> None:
        """Keep the board and the breakdown in proportion to the window."""
        w, h = event.size().width(), event.size().height()
        self.board.setFixedHeight(int(max(80, min(170, h * 0.2))))
        self.breakdown.setFixedWidth(int(max(160, min(320, w * 0.26))))
        super().resizeEvent(event)

    # -- header -----------------------------------------------------------------
    def _header_html(self) -> str:
        h = self.record.header
        e = html.escape
        p0, p1 = (e(self.record.player_name(p)) for p in (0, 1))
        c0, c1 = (PLAYER_COLOURS[p].name() for p in (0, 1))
        month = MONTHS[h.month - 1] if 1 <= h.month <= 12 else f"month {h.month}"
        date = f"{h.day} {month} {h.year}, {h.hour:02d}:{h.minute:02d}:{h.second:02d}"
        parts = [
            f"<span style='font-size:13pt'><b style='color:{c0}'>{p0}</b> v <b style='color:{c1}'>{p1}</b></span>",
            e(date),
        ]
        if h.program or h.author:
            parts.append(e(" ".join(x for x in (h.program, f"({h.author})" if h.author else "") if x)))
        if h.comments:
            parts.append(f"\u201c{e(h.comments)}\u201d")
        n = len(self.record.deals)
        parts.append(f"{plural(h.games, 'game')}, {plural(n, 'deal')}")
        return " &nbsp;\u00b7&nbsp; ".join(parts)

    # -- moving -----------------------------------------------------------------
    @property
    def current(self) -> MovieStep | None:
        return self.steps[self.pos] if self.steps else None

    def go(self, n: int) -> None:
        if not self.steps:
            return
        n = max(0, min(int(n), len(self.steps) - 1))
        if n != self.pos:
            self.pos = n
            self._show()
            self.stepChanged.emit(n)

    def go_deal(self, deal: int, step: int = 0) -> None:
        """Step ``step`` of deal ``deal`` (0-based both)."""
        if 0 <= deal < len(self.starts):
            end = self.starts[deal + 1] if deal + 1 < len(self.starts) else len(self.steps)
            self.go(min(self.starts[deal] + max(0, step), end - 1))

    def next_step(self) -> None:
        self.go(self.pos + 1)

    def prev_step(self) -> None:
        self.go(self.pos - 1)

    def next_deal(self) -> None:
        cur = self.current
        if cur is not None and cur.deal + 1 < len(self.starts):
            self.go(self.starts[cur.deal + 1])
        else:
            self.to_end()

    def prev_deal(self) -> None:
        cur = self.current
        if cur is None:
            return
        if cur.index > 0:
            self.go(self.starts[cur.deal])
        elif cur.deal > 0:
            self.go(self.starts[cur.deal - 1])

    def to_start(self) -> None:
        self.go(0)

    def to_end(self) -> None:
        self.go(len(self.steps) - 1)

    # -- the movie ----------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def set_playing(self, on: bool) -> None:
        if on and not self.timer.isActive() and self.steps:
            if self.pos >= len(self.steps) - 1:
                self.go(0)
            self.timer.start()
        elif not on:
            self.timer.stop()
        self.movie_button.blockSignals(True)
        self.movie_button.setChecked(self.timer.isActive())
        icon = QStyle.StandardPixmap.SP_MediaPause if self.timer.isActive() else QStyle.StandardPixmap.SP_MediaPlay
        self.movie_button.setIcon(self.style().standardIcon(icon))
        self.movie_button.blockSignals(False)

    def shutdown(self) -> None:
        """The tab is closing: stop the movie."""
        self.timer.stop()

    def _tick(self) -> None:
        self.next_step()
        if self.pos >= len(self.steps) - 1:
            self.set_playing(False)

    # -- events -------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:
        keys = {
            Qt.Key.Key_Right: self.next_step,
            Qt.Key.Key_Left: self.prev_step,
            Qt.Key.Key_Down: self.next_deal,
            Qt.Key.Key_PageDown: self.next_deal,
            Qt.Key.Key_Up: self.prev_deal,
            Qt.Key.Key_PageUp: self.prev_deal,
            Qt.Key.Key_Home: self.to_start,
            Qt.Key.Key_End: self.to_end,
            Qt.Key.Key_Space: lambda: self.set_playing(not self.playing),
        }
        action = keys.get(Qt.Key(event.key()))
        if action is None:
            super().keyPressEvent(event)
            return
        action()
        event.accept()

    def _table_clicked(self, event) -> None:
        self.table.setFocus()
        if event.button() == Qt.MouseButton.RightButton:
            self.prev_step()
        else:
            self.next_step()

    # -- showing ------------------------------------------------------------------
    def _show(self) -> None:
        s = self.current
        self.table.set_step(s)
        self.board.set_step(s)
        self.slider.blockSignals(True)
        self.slider.setValue(self.pos)
        self.slider.blockSignals(False)
        if s is None:
            self.breakdown.setHtml("<p>This record holds no deals.</p>")
            self.position_label.setText("")
            return
        self.deal_box.setCurrentIndex(s.deal)
        n = self._deal_len(s.deal)
        self.position_label.setText(f"step {s.index + 1}/{n}")
        self.breakdown.setHtml(self._breakdown_html(s))

    def _deal_len(self, deal: int) -> int:
        end = self.starts[deal + 1] if deal + 1 < len(self.starts) else len(self.steps)
        return end - self.starts[deal]

    def _breakdown_html(self, s: MovieStep) -> str:
        e = html.escape
        rows = [
            f"<p style='color:{CRIB_STEP_GREY.name()}'>Game {s.game}, deal {s.deal + 1}</p>",
            f"<h3>{e(s.caption)}</h3>",
        ]
        if s.kind == "show":  # the count as a table: what scores, with which cards, for how much
            rows.append(f"<p><b>{e(s.details[0])}</b></p>")
            if s.items:
                rows.append(
                    "<table cellspacing='0' cellpadding='1'>"
                    + "".join(
                        f"<tr><td>{e(item.kind)}&nbsp;</td><td>{cards_html(item.cards)}&nbsp;</td>"
                        f"<td align='right'>{item.points}</td></tr>"
                        for item in s.items
                    )
                    + "</table>"
                )
            rows.append(f"<p>{e(s.details[-1])}</p>")
        elif s.details:
            rows.append(
                "<ul style='margin-left:0; -qt-list-indent:1'>"
                + "".join(f"<li>{e(d)}</li>" for d in s.details)
                + "</ul>"
            )
        if s.problem:
            rows.append(f"<p style='color:{CRIB_PROBLEM.name()}'><b>\u26a0 {e(s.problem)}</b></p>")
        names = [e(self.record.player_name(p)) for p in (0, 1)]
        rows.append(
            f"<p><b style='color:{PLAYER_COLOURS[0].name()}'>{names[0]}</b> {s.scores[0]} &nbsp; "
            f"<b style='color:{PLAYER_COLOURS[1].name()}'>{names[1]}</b> {s.scores[1]}</p>"
        )
        return "".join(rows)

    def breakdown_text(self) -> str:
        return self.breakdown.toPlainText()

    def view_model(self) -> dict[str, object]:
        """What is shown, as plain data (for tests)."""
        s = self.current
        h = self.record.header
        base: dict[str, object] = {
            "players": [self.record.player_name(0), self.record.player_name(1)],
            "date": h.date_text,
            "comments": h.comments,
            "steps": len(self.steps),
            "position": self.pos,
        }
        if s is None:
            return base
        base.update(
            {
                "deal": s.deal + 1,
                "game": s.game,
                "step": s.index,
                "kind": s.kind,
                "caption": s.caption,
                "details": list(s.details),
                "dealer": s.dealer,
                "hands": [[str(c) for c in s.hands[p]] for p in (0, 1)],
                "crib": [str(c) for c in s.crib],
                "crib_shown": s.crib_shown,
                "starter": str(s.starter) if s.starter is not None else None,
                "pile": [str(pl.card) for pl in s.pile],
                "count": s.count,
                "scores": list(s.scores),
                "back": list(s.back),
                "problem": s.problem,
                "winner": s.winner,
                "playing": self.playing,
            }
        )
        return base


def render_cribbage(
    record: CribbageRecord,
    deal_index: int,
    step: int | None,
    out_path: str | os.PathLike,
    width: int = 1000,
    height: int = 700,
    force: bool = False,
) -> None:
    """Draw step ``step`` (0 = the cards dealt) of deal ``deal_index`` (0-based) to a PNG (replacing a
    write-protected one only with ``force``)."""
    if not 0 <= deal_index < len(record.deals):
        has = plural(len(record.deals), "deal")
        raise FormatError(f"deal {deal_index + 1} is not in this game record (it has {has})", path=record.path)
    if QApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        render_cribbage.app = QApplication([])  # type: ignore[attr-defined]  # lives as long as the module
    view = CribbageView(record)
    count = view._deal_len(deal_index)
    k = step or 0
    if not 0 <= k < count:
        raise FormatError(f"deal {deal_index + 1} has steps 0 to {count - 1}, not {k}", path=record.path)
    view.go_deal(deal_index, k)
    view.resize(width, height)
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    view.show()
    for _ in range(2):  # the first layout pass resizes the board and breakdown; let the second settle
        QApplication.sendPostedEvents()
        if (layout := view.layout()) is not None:
            layout.activate()
    pix = view.grab()
    view.hide()
    if (pix.width(), pix.height()) != (width, height):  # smaller than the view can lay itself out
        pix = pix.scaled(
            width, height, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    write_png(pix, out_path, force)
