"""The compass-rose hand diagram: four hands around a board tray, painted with QPainter.

Everything is laid out on a virtual 100 x 90 canvas and scaled to the widget,
with font pixel sizes computed from the scale, so the picture stays crisp at
any size and the same painting serves the screen, PNG and SVG export.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolTip, QWidget

from ...model.board import Board
from ...model.cards import CARDS, DISPLAY_SUITS, Card, Seat, Suit, hcp_of, ranks_text
from ...model.deal import Deal
from ...model.play import Trick
from ...model.replay_state import ReplayPosition
from ...model.text import plural
from ...model.vulnerability import Vulnerability
from ..card_text import rank_label
from ..theme import (
    BADGE_BG,
    BLUE,
    CARD_EDGE,
    FELT,
    FELT_TEXT,
    FONT_FAMILY,
    GREY,
    HILITE,
    INK,
    MOVED_BG,
    MUTED,
    NONVUL,
    PANEL,
    PANEL_RULE,
    RED,
    TRAY_EDGE,
    TRAY_OUTLINE,
    TRAY_SIDE,
    VUL_RED,
    WHITE,
    shadow,
    suit_colour,
    with_alpha,
)

CANVAS_W, CANVAS_H = 100.0, 90.0

#: canvas units between a card and its trick-count badge, and inside the badge around its figure
BADGE_GAP, BADGE_PAD = 0.25, 0.45

# Hand panels (x, y, w, h) on the virtual canvas.
HAND_BOXES: dict[Seat, tuple[float, float, float, float]] = {
    Seat.NORTH: (36.0, 1.0, 34.0, 22.0),
    Seat.WEST: (1.0, 34.0, 31.0, 22.0),
    Seat.EAST: (68.0, 34.0, 31.0, 22.0),
    Seat.SOUTH: (36.0, 67.0, 34.0, 22.0),
}
CENTRE = QPointF(52.0, 45.0)
TRAY = 16.0  # side of the board tray
LINE_H = 4.2  # a suit line of a hand, in diagram units
CARD_W, CARD_H = 7.4, 10.0
TRICK_OFFSET = {  # centre of each seat's card on the table, relative to CENTRE
    Seat.NORTH: (0.0, -13.4),
    Seat.SOUTH: (0.0, 13.4),
    Seat.WEST: (-12.6, 0.0),
    Seat.EAST: (12.6, 0.0),
}
SEAT_NAMES = ("North", "East", "South", "West")
#: tag values that stand for "no name" (PBN's "?" and "-", empty quotes)
PLACEHOLDER_NAMES = frozenset({"", "?", "-", "??", "Unknown", "unknown"})


@dataclass
class _Hit:
    rect: QRectF
    card: int


class HandDiagram(QWidget):
    """Four hands, the board tray (number, dealer, vulnerability) and the trick on the table."""

    cardClicked = Signal(int)
    #: (card, seat) – the user asked to move a card to another hand from the context menu
    cardMoveRequested = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 216)
        self.setMouseTracking(True)
        self._board: Board | None = None
        self._remaining: Deal | None = None
        self._trick: Trick | None = None
        self._ns = 0
        self._ew = 0
        self._show_tricks = False
        self._to_play: Seat | None = None
        self._played: frozenset[int] = frozenset()
        self._grey_played = False
        self._claim_text: str | None = None
        self._stop_text: str | None = None
        self._annotations: dict[int, tuple[str, bool]] = {}
        self._badges: dict[int, QRectF] = {}  # the trick-count badges as last painted on screen
        self._headers: dict[Seat, dict] = {}  # each hand's header as last painted on screen
        #: a click on a card plays the recorded play up to it (replay mode); an edit mode turns it off
        self.click_plays = True
        self._marked = 0  # cards drawn on a highlight (the Compare window's differing cards)
        self._four_colour = False
        self._editable = False
        self._hits: list[_Hit] = []
        self._hit_sink: list[_Hit] = []
        self._boxes: dict[Seat, QRectF] = {}  # the hand panels as last painted on screen
        self._box_sink: dict[Seat, QRectF] = {}

    # -- API ----------------------------------------------------------------
    def sizeHint(self) -> QSize:
        return QSize(620, 560)

    def set_board(self, board: Board | None) -> None:
        """Show ``board`` (its full deal); any play state and annotations are cleared."""
        self._board = board
        self._remaining = None
        self._trick = None
        self._ns = self._ew = 0
        self._show_tricks = False
        self._to_play = None
        self._played = frozenset()
        self._grey_played = False
        self._claim_text = None
        self._stop_text = None
        self._annotations = {}
        self.update()

    def board(self) -> Board | None:
        return self._board

    def set_play_state(
        self,
        remaining: Deal | None,
        trick: Trick | None,
        ns_tricks: int,
        ew_tricks: int,
        to_play: Seat | None,
        played: frozenset[int] = frozenset(),
        grey_played: bool = False,
        claim_text: str | None = None,
        stop_text: str | None = None,
    ) -> None:
        """Show a position in the play; ``remaining=None`` shows the full deal."""
        self._remaining = remaining
        self._trick = trick
        self._ns = ns_tricks
        self._ew = ew_tricks
        self._show_tricks = remaining is not None or trick is not None or bool(ns_tricks or ew_tricks)
        self._to_play = to_play
        self._played = frozenset(int(c) for c in played)
        self._grey_played = grey_played
        self._claim_text = claim_text
        self._stop_text = stop_text
        self.update()

    def show_position(self, pos: ReplayPosition, grey_played: bool = False) -> None:
        """Show the position a replay reached (``grey_played``: the cards played stay, greyed)."""
        self.set_play_state(
            pos.remaining,
            pos.trick,
            pos.ns_tricks,
            pos.ew_tricks,
            pos.to_play,
            played=pos.played,
            grey_played=grey_played,
            claim_text=pos.claim_text,
            stop_text=pos.stop_text,
        )

    def set_card_annotations(self, ann: dict[int, tuple[str, bool]]) -> None:
        """Small labels under cards of the hand to play; ``True`` marks a card that costs a trick."""
        self._annotations = {int(k): (str(v[0]), bool(v[1])) for k, v in ann.items()}
        self.update()

    def set_marked_cards(self, mask: int) -> None:
        """Draw the cards of ``mask`` (52 bits) on a highlight, in whichever hand holds them: the Compare
        window marks the cards that sit in another hand in the other file."""
        self._marked = int(mask)
        self.update()

    def set_four_colour(self, on: bool) -> None:
        self._four_colour = bool(on)
        self.update()

    def four_colour(self) -> bool:
        return self._four_colour

    def set_editable(self, on: bool) -> None:
        """Allow moving cards between hands from the context menu."""
        self._editable = bool(on)

    # -- what is shown --------------------------------------------------------
    def _full_deal(self) -> Deal:
        return self._board.deal if self._board is not None else Deal.empty()

    def _shown_hands(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(cards shown normally, cards shown greyed) per seat as masks."""
        full = self._full_deal()
        if self._remaining is None:
            if self._grey_played and self._played:
                gone = sum(1 << c for c in self._played)
                return tuple(h & ~gone for h in full.hands), tuple(h & gone for h in full.hands)
            return full.hands, (0, 0, 0, 0)
        if not self._grey_played:
            return self._remaining.hands, (0, 0, 0, 0)
        grey = tuple(full.hands[s] & ~self._remaining.hands[s] for s in range(4))
        return self._remaining.hands, grey

    def empty_note(self) -> str | None:
        """What the diagram says instead of four empty hands when the board holds no cards."""
        b = self._board
        if b is None or b.deal.card_count:
            return None
        if b.dd is not None and not b.dd.is_empty:
            return "No cards for this board: the file holds only its double-dummy results."
        return "No cards for this board."

    def suit_colour(self, suit: int) -> QColor:
        return suit_colour(suit, self._four_colour)

    def view_model(self) -> dict:
        """A plain description of what is drawn, for tests and accessibility.

        ``trick`` lists the cards on the table in play order ("SA"), with
        ``trick_leader``/``trick_winner`` seat letters; ``greyed`` lists played
        cards still drawn in grey.
        """
        b = self._board
        shown, grey = self._shown_hands()
        full = self._full_deal()
        hands = {Seat(s).letter: {Suit(su).letter: ranks_text(shown[s], su) for su in DISPLAY_SUITS} for s in range(4)}
        return {
            "board": b.number if b is not None else None,
            "dealer": b.effective_dealer.letter if b is not None else None,
            "vulnerable": b.effective_vulnerability.text if b is not None else None,
            "contract": self._contract_text(plain=True),
            "result": self._result_text(),
            "marked": [str(CARDS[c]) for c in _cards_desc(self._marked)],
            "hands": hands,
            "greyed": [str(CARDS[c]) for s in range(4) for c in _cards_desc(grey[s])],
            "hcp": {Seat(s).letter: hcp_of(full.hands[s]) for s in range(4)},
            "trick": [str(Card(c)) for c in self._trick.cards] if self._trick else [],
            "trick_leader": self._trick.leader.letter if self._trick else None,
            "trick_winner": self._trick.winner.letter if self._trick and self._trick.winner is not None else None,
            "tricks": {"NS": self._ns, "EW": self._ew},
            "to_play": self._to_play.letter if self._to_play is not None else None,
            "annotations": {str(Card(c)): v for c, v in self._annotations.items()},
            "claim": self._claim_text,
            "stop": self._stop_text,
            "four_colour": self._four_colour,
            "note": self.empty_note(),
            "players": {Seat(s).letter: self.player_name(Seat(s)) for s in range(4)},
            # each hand's header as last painted on screen: the player's name as it fitted, the "to play"
            # pill, and the HCP text
            "headers": {Seat(s).letter: v for s, v in self._headers.items()},
        }

    def player_name(self, seat: Seat) -> str:
        """The name of the player at ``seat`` from the board's tags ("" when unknown or a placeholder)."""
        b = self._board
        if b is None:
            return ""
        name = (b.tags.get(SEAT_NAMES[seat]) or "").strip()
        return "" if name in PLACEHOLDER_NAMES else name

    def _contract_text(self, plain: bool = False) -> str | None:
        b = self._board
        if b is None:
            return None
        contract, declarer = b.contract_and_declarer()
        if contract is None:
            return None
        text = str(contract) if plain else contract.symbol_text()
        if contract.is_passed_out or declarer is None:
            return text
        return f"{text} {declarer.letter}" if plain else f"{text} by {declarer.letter}"

    def _result_text(self) -> str | None:
        """``made +2 (11 tricks)``, ``down 1 (8 tricks)``; None without a result or a contract to score it."""
        b = self._board
        if b is None or b.result is None:
            return None
        c = b.contract_and_declarer()[0]
        if c is None or c.is_passed_out:
            return None
        diff = b.result - (c.level + 6)
        verdict = "made" if diff == 0 else (f"made +{diff}" if diff > 0 else f"down {-diff}")
        return f"{verdict} ({plural(b.result, 'trick')})"

    # -- events ------------------------------------------------------------------
    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(QPointF(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, pos: QPointF) -> str:
        """What a card's trick-count badge (or the card) under ``pos`` means, in words ("" elsewhere)."""
        card = next((c for c, r in self.badge_rects().items() if r.contains(pos)), None)
        if card is None:
            card = self.card_at(pos)
        ann = self._annotations.get(card) if card is not None else None
        if card is None or ann is None:
            return ""
        name = Suit(card // 13).symbol + rank_label(card)
        text = f"{name} played now: declarer's side takes {plural(int(ann[0]), 'trick')} in all"
        return text + " (it costs a trick)" if ann[1] else text

    def hand_box(self, seat: Seat) -> QRectF | None:
        """Where ``seat``'s hand panel was last painted on screen (None before the first paint)."""
        return self._boxes.get(seat)

    def badge_rects(self) -> dict[int, QRectF]:
        """Each trick-count badge's rectangle as last painted on screen, by card."""
        return dict(self._badges)

    def card_rects(self) -> dict[int, QRectF]:
        """Each clickable card's rectangle as last painted on screen."""
        return {hit.card: hit.rect for hit in self._hits}

    def card_at(self, pos: QPointF) -> int | None:
        for hit in self._hits:
            if hit.rect.contains(pos):
                return hit.card
        return None

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            card = self.card_at(event.position())
            if card is not None:
                self.cardClicked.emit(card)
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        over = self.card_at(event.position()) is not None
        self.setCursor(Qt.CursorShape.PointingHandCursor if over else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)

    def contextMenuEvent(self, event) -> None:
        card = self.card_at(QPointF(event.pos()))
        if card is None or not self._editable or self._board is None:
            super().contextMenuEvent(event)
            return
        menu = self.card_menu(card)
        menu.exec(event.globalPos())
        menu.deleteLater()  # a child of the diagram: without this every right-click would leave one behind

    def card_menu(self, card: int) -> QMenu:
        """The "move this card to ..." menu for ``card``."""
        menu = QMenu(self)
        owner = self._full_deal().owner(card)
        name = Suit(card // 13).symbol + rank_label(card)
        for seat in Seat:
            act = menu.addAction(f"Move {name} to {SEAT_NAMES[seat]}")
            act.setEnabled(seat != owner)
            act.triggered.connect(lambda _=False, s=int(seat): self.cardMoveRequested.emit(card, s))
        return menu

    # -- painting ---------------------------------------------------------------
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        try:
            self.paint(painter, QRectF(self.rect()), record_hits=True)
        finally:
            painter.end()

    def paint(self, painter: QPainter, area: QRectF, record_hits: bool = False) -> None:
        """Draw the whole diagram into ``area`` (used for the screen, PNG and SVG);
        ``record_hits`` keeps the card positions for mouse clicks (screen painting only)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.fillRect(area, FELT)
        scale = min(area.width() / CANVAS_W, area.height() / CANVAS_H)
        ox = area.x() + (area.width() - CANVAS_W * scale) / 2
        oy = area.y() + (area.height() - CANVAS_H * scale) / 2
        g = _Geometry(scale, ox, oy)
        # spare room around the canvas spreads the hands outwards (up to a limit) instead of
        # leaving empty felt at the edges
        g.spread_y = min(12.0, max(0.0, (area.height() / scale - CANVAS_H) / 2 - 1.0))
        g.spread_x = min(10.0, max(0.0, (area.width() / scale - CANVAS_W) / 2 - 1.0))
        hits: list[_Hit] = []
        self._hit_sink = hits
        badges: list[tuple[int, QRectF]] = []
        self._badge_sink = badges
        self._box_sink = {}
        self._header_sink: dict[Seat, dict] = {}
        self._paint_info(painter, g)
        self._paint_tray(painter, g)
        shown, grey = self._shown_hands()
        note = self.empty_note()
        if note is None:
            for seat in Seat:
                self._paint_hand(painter, g, seat, shown[seat], grey[seat])
        else:
            painter.setPen(FELT_TEXT)
            painter.setFont(self._font(g, 2.8))
            painter.drawText(
                g.rect(15, CENTRE.y() + TRAY / 2 + 4, 70, 14),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                note,
            )
        if self._trick is not None and self._trick.cards:
            self._paint_trick(painter, g, self._trick)
        if record_hits:
            self._hits = hits
            self._badges = dict(badges)
            self._boxes = dict(self._box_sink)
            self._headers = dict(self._header_sink)

    def _font(self, g: _Geometry, units: float, bold: bool = False) -> QFont:
        f = QFont(FONT_FAMILY)
        f.setPixelSize(max(6, round(units * g.s)))
        f.setBold(bold)
        f.setStyleStrategy(QFont.StyleStrategy.PreferAntialias)
        return f

    def _paint_info(self, p: QPainter, g: _Geometry) -> None:
        b = self._board
        p.setPen(FELT_TEXT)
        if b is None:
            p.setFont(self._font(g, 3.2, True))
            p.drawText(g.rect(0, 40, 100, 10), Qt.AlignmentFlag.AlignCenter, "No board")
            return
        lines: list[tuple[str, bool]] = []
        lines.append((f"Board {b.number}" if b.number is not None else "Board —", True))
        lines.append((f"Dealer {SEAT_NAMES[b.effective_dealer]}", False))
        vul = b.effective_vulnerability
        lines.append(({"None": "Nobody vul", "NS": "N-S vul", "EW": "E-W vul", "All": "All vul"}[vul.text], False))
        y = 2.0
        for text, bold in lines:
            p.setFont(self._font(g, 3.0 if bold else 2.5, bold))
            p.drawText(
                g.rect(2 - g.spread_x, y - g.spread_y, 33, 4),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            y += 4.0 if bold else 3.4
        right: list[tuple[str, bool]] = []
        contract = self._contract_text()
        if contract:
            right.append((contract, True))
        result = self._result_text() if contract else None
        if result:
            right.append((result, False))
        if self._show_tricks:
            right.append((f"N-S {self._ns}   E-W {self._ew}", False))
        y = 2.0
        for text, bold in right:
            p.setFont(self._font(g, 3.0 if bold else 2.5, bold))
            p.drawText(
                g.rect(65 + g.spread_x, y - g.spread_y, 33, 4),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            y += 4.0 if bold else 3.4
        notes = [t for t in (self._claim_text, self._stop_text) if t]
        if notes:
            p.setFont(self._font(g, 2.3))
            y = 66.0
            for text in notes:
                p.setPen(HILITE if text == self._stop_text else FELT_TEXT)
                r = g.rect(2 - g.spread_x, y + g.spread_y, 32, 11)
                p.drawText(r, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap, text)
                y += 11.5

    def _paint_tray(self, p: QPainter, g: _Geometry) -> None:
        """The board tray: vulnerable sides red, the dealer's letter in a dark disc, the number in the middle."""
        b = self._board
        half = TRAY / 2
        x0, y0 = CENTRE.x() - half, CENTRE.y() - half
        band = 3.6
        outer = g.rect(x0, y0, TRAY, TRAY)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(shadow(60))
        p.drawRoundedRect(outer.translated(0.35 * g.s, 0.45 * g.s), 1.2 * g.s, 1.2 * g.s)
        p.setBrush(NONVUL)
        p.drawRoundedRect(outer, 1.2 * g.s, 1.2 * g.s)
        vul = b.effective_vulnerability if b is not None else Vulnerability.NONE
        dealer = b.effective_dealer if b is not None else None
        # the four edge bands as trapezoids
        corners = {
            Seat.NORTH: [(x0, y0), (x0 + TRAY, y0), (x0 + TRAY - band, y0 + band), (x0 + band, y0 + band)],
            Seat.EAST: [
                (x0 + TRAY, y0),
                (x0 + TRAY, y0 + TRAY),
                (x0 + TRAY - band, y0 + TRAY - band),
                (x0 + TRAY - band, y0 + band),
            ],
            Seat.SOUTH: [
                (x0, y0 + TRAY),
                (x0 + TRAY, y0 + TRAY),
                (x0 + TRAY - band, y0 + TRAY - band),
                (x0 + band, y0 + TRAY - band),
            ],
            Seat.WEST: [(x0, y0), (x0, y0 + TRAY), (x0 + band, y0 + TRAY - band), (x0 + band, y0 + band)],
        }
        clip = QPainterPath()
        clip.addRoundedRect(outer, 1.2 * g.s, 1.2 * g.s)
        p.save()
        p.setClipPath(clip)
        for seat, pts in corners.items():
            path = QPainterPath()
            path.moveTo(g.pt(*pts[0]))
            for pt in pts[1:]:
                path.lineTo(g.pt(*pt))
            path.closeSubpath()
            p.setBrush(VUL_RED if vul.is_vulnerable(seat) else TRAY_SIDE)
            p.setPen(QPen(TRAY_EDGE, max(0.6, 0.12 * g.s)))
            p.drawPath(path)
        p.restore()
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(TRAY_OUTLINE, max(0.8, 0.18 * g.s)))
        p.drawRoundedRect(outer, 1.2 * g.s, 1.2 * g.s)
        centres = {
            Seat.NORTH: (CENTRE.x(), y0 + band / 2),
            Seat.SOUTH: (CENTRE.x(), y0 + TRAY - band / 2),
            Seat.WEST: (x0 + band / 2, CENTRE.y()),
            Seat.EAST: (x0 + TRAY - band / 2, CENTRE.y()),
        }
        for seat, (cx, cy) in centres.items():
            is_vul = vul.is_vulnerable(seat)
            if seat == dealer:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(INK)
                p.drawEllipse(g.pt(cx, cy), 1.55 * g.s, 1.55 * g.s)
                p.setPen(WHITE)
            else:
                p.setPen(WHITE if is_vul else INK)
            p.setFont(self._font(g, 2.3, True))
            p.drawText(g.rect(cx - 2, cy - 2, 4, 4), Qt.AlignmentFlag.AlignCenter, seat.letter)
        if b is not None and b.number is not None:
            p.setPen(INK)
            text = str(b.number)
            font = self._font(g, 4.2, True)
            room = (TRAY - 2 * band - 0.8) * g.s
            width = QFontMetricsF(font).horizontalAdvance(text)
            if width > room:
                font.setPixelSize(max(5, int(font.pixelSize() * room / width)))
            p.setFont(font)
            p.drawText(
                g.rect(x0 + band, y0 + band, TRAY - 2 * band, TRAY - 2 * band), Qt.AlignmentFlag.AlignCenter, text
            )

    def _paint_hand(self, p: QPainter, g: _Geometry, seat: Seat, mask: int, grey: int) -> None:
        x, y, w, h = HAND_BOXES[seat]
        x += {Seat.WEST: -g.spread_x, Seat.EAST: g.spread_x}.get(seat, 0.0)
        y += {Seat.NORTH: -g.spread_y, Seat.SOUTH: g.spread_y}.get(seat, 0.0)
        box = g.rect(x, y, w, h)
        self._box_sink[seat] = box
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(shadow(55))
        p.drawRoundedRect(box.translated(0.35 * g.s, 0.45 * g.s), 1.4 * g.s, 1.4 * g.s)
        p.setBrush(PANEL)
        to_play = seat == self._to_play
        p.setPen(QPen(HILITE, 0.45 * g.s) if to_play else Qt.PenStyle.NoPen)
        p.drawRoundedRect(box, 1.4 * g.s, 1.4 * g.s)
        self._paint_hand_header(p, g, seat, to_play, (x, y, w))
        p.setPen(QPen(PANEL_RULE, max(0.5, 0.12 * g.s)))
        p.drawLine(g.pt(x + 1.4, y + 4.6), g.pt(x + w - 1.4, y + 4.6))
        for row, suit in enumerate(DISPLAY_SUITS):
            self._paint_suit_row(p, g, suit, (x, y + 5.2 + row * LINE_H, w), mask, grey, to_play)

    def _paint_hand_header(
        self, p: QPainter, g: _Geometry, seat: Seat, to_play: bool, place: tuple[float, float, float]
    ) -> None:
        """The hand's header line: the seat (red when vulnerable), the player's name, HCP, and the "to play"
        pill on the panel's top edge."""
        x, y, w = place
        b = self._board
        vul = b is not None and b.effective_vulnerability.is_vulnerable(seat)
        p.setFont(self._font(g, 2.6, True))
        p.setPen(VUL_RED if vul else INK)
        head = g.rect(x + 1.6, y + 0.6, w - 3.2, 3.8)
        name = SEAT_NAMES[seat]
        p.drawText(head, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)
        full = self._full_deal().hands[seat]
        hcp_font = self._font(g, 2.3)
        pill_font = self._font(g, 1.7, True)
        name_w = QFontMetricsF(p.font()).horizontalAdvance(name) / g.s
        player = self.player_name(seat)
        shown_player = ""
        pill_text_w = QFontMetricsF(pill_font).horizontalAdvance("to play") / g.s
        if player:
            # the player's name after the seat, as BBO's handviewer shows it, cut short before "12 HCP"
            # (the "to play" pill sits on the panel's edge, so the header is the same whoever is to play)
            player_font = self._font(g, 2.4)
            pfm = QFontMetricsF(player_font)
            hcp = hcp_of(full) if full else None
            whole = QFontMetricsF(hcp_font).horizontalAdvance(f"{hcp} HCP") / g.s + 1.0 if hcp is not None else 0.0
            room = (w - 3.2) - name_w - 0.9 - whole
            text = pfm.elidedText(player, Qt.TextElideMode.ElideRight, max(0.0, room) * g.s)
            if text and text != "…":
                shown_player = text
                p.setFont(player_font)
                p.setPen(INK)
                p.drawText(
                    g.rect(x + 1.6 + name_w + 0.9, y + 0.6, room, 3.8),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                    text,
                )
                name_w += 0.9 + pfm.horizontalAdvance(text) / g.s
        layout = header_layout(
            name_w,
            QFontMetricsF(hcp_font).horizontalAdvance,
            pill_text_w,
            hcp_of(full) if full else None,
            False,  # the pill is not in the header line: it never takes the HCP label's room
            (w - 3.2) * g.s,
            g.s,
        )
        self._header_sink[seat] = {"player": shown_player, "pill": to_play, "hcp": layout.hcp_text}
        if to_play:
            # a "to play" tab on the panel's top edge, over the HCP: the header line stays as it is
            pw = pill_text_w + 1.6
            pill = g.rect(x + w - 1.6 - pw, y - 1.15, pw, 2.2)
            p.setPen(QPen(PANEL, max(0.5, 0.15 * g.s)))
            p.setBrush(HILITE)
            p.drawRoundedRect(pill, 1.1 * g.s, 1.1 * g.s)
            p.setFont(pill_font)
            p.setPen(INK)
            p.drawText(pill, Qt.AlignmentFlag.AlignCenter, "to play")
        if layout.hcp_text:
            p.setFont(hcp_font)
            p.setPen(MUTED)
            p.drawText(head, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, layout.hcp_text)

    def _paint_suit_row(
        self,
        p: QPainter,
        g: _Geometry,
        suit: Suit,
        place: tuple[float, float, float],
        mask: int,
        grey: int,
        to_play: bool,
    ) -> None:
        """One suit of a hand: its symbol and cards (grey for cards played), each card's trick badge when the
        hand is to play, and the hit areas a click picks a card by."""
        x, ly, w = place
        line_h = LINE_H
        rank_font = self._font(g, 3.1, True)
        sym_font = self._font(g, 3.3)
        gap = 0.9 * g.s
        colour = self.suit_colour(suit)
        p.setFont(sym_font)
        p.setPen(colour)
        p.drawText(
            g.rect(x + 1.5, ly, 4, line_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, suit.symbol
        )
        cards = [c for c in range(13 * suit + 12, 13 * suit - 1, -1) if (mask | grey) >> c & 1]
        if not cards:
            p.setFont(rank_font)
            p.setPen(MUTED)
            p.drawText(g.rect(x + 5.6, ly, 8, line_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, "—")
            return
        all_anns = [self._annotations.get(c) if to_play and not grey >> c & 1 else None for c in cards]
        avail = (w - 7.0) * g.s
        row_rank, ann_font, anns, rank_ws, widths = self._fit_suit_row(g, cards, all_anns, avail)
        total = sum(widths) + gap * (len(cards) - 1)
        squeeze = gap if total <= avail else max(0.0, (avail - sum(widths)) / max(1, len(cards) - 1))
        cx = g.x(x + 5.6)
        for c, rw, cw, ann in zip(cards, rank_ws, widths, anns, strict=True):
            is_grey = bool(grey >> c & 1)
            r = QRectF(cx, g.y(ly), cw, line_h * g.s)
            if self._marked >> c & 1:  # held by another hand in the set compared with
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(MOVED_BG)
                p.drawRoundedRect(r.adjusted(-0.4 * g.s, 0.2 * g.s, 0.4 * g.s, -0.2 * g.s), 0.6 * g.s, 0.6 * g.s)
            costly = self._annotations.get(c) if to_play and not is_grey else None
            if costly is not None and costly[1]:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(with_alpha(RED, 36))
                p.drawRoundedRect(r.adjusted(-0.3 * g.s, 0.35 * g.s, 0.3 * g.s, -0.35 * g.s), 0.5 * g.s, 0.5 * g.s)
            p.setPen(GREY if is_grey else colour)
            p.setFont(row_rank)
            p.drawText(QRectF(cx, r.y(), rw, r.height()), Qt.AlignmentFlag.AlignCenter, rank_label(c))
            if ann is not None:
                p.setFont(ann_font)
                bh = min(QFontMetricsF(ann_font).height() * 1.05, r.height() * 0.5)
                badge = QRectF(cx + rw + BADGE_GAP * g.s, r.bottom() - bh - 0.25 * g.s, cw - rw - BADGE_GAP * g.s, bh)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(RED if ann[1] else BADGE_BG)
                p.drawRoundedRect(badge, bh / 2, bh / 2)
                p.setPen(WHITE if ann[1] else INK)
                p.drawText(badge, Qt.AlignmentFlag.AlignCenter, ann[0])
                self._badge_sink.append((c, badge))
            if not is_grey:
                self._hit_sink.append(_Hit(r.adjusted(-squeeze / 2, 0, squeeze / 2, 0), c))
            cx += cw + squeeze

    def _fit_suit_row(
        self, g: _Geometry, cards: list[int], all_anns: list[tuple[str, bool] | None], avail: float
    ) -> tuple[QFont, QFont, list[tuple[str, bool] | None], list[float], list[float]]:
        """The fonts, badges and widths that fit a suit's cards in ``avail`` pixels: a long annotated suit
        first writes a run of equal figures once ("J109₁₁"), then shrinks, rather than overflow its hand."""
        row_rank = self._font(g, 3.1, True)
        ann_font = self._font(g, 1.8, True)
        attempts = [(1.0, False)] + [(f, True) for f in (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)]
        for factor, grouped in attempts:
            anns = grouped_annotations(all_anns) if grouped else all_anns
            if factor < 1.0:
                row_rank = self._font(g, 3.1 * factor, True)
                ann_font = self._font(g, 1.8 * factor, True)
            fm = QFontMetricsF(row_rank)
            ann_fm = QFontMetricsF(ann_font)
            rank_ws = [fm.horizontalAdvance(rank_label(c)) for c in cards]
            # an annotation is a small badge low beside its card (a pill with the trick count), so it
            # reads apart from the ranks ("A 10" and its "10") and lines keep their height
            pad = BADGE_PAD * factor * g.s
            widths = [
                rw + (BADGE_GAP * g.s + ann_fm.horizontalAdvance(a[0]) + 2 * pad if a else 0.0)
                for rw, a in zip(rank_ws, anns, strict=True)
            ]
            if sum(widths) + 0.5 * g.s * (len(cards) - 1) <= avail:
                break
        return row_rank, ann_font, anns, rank_ws, widths

    def _paint_trick(self, p: QPainter, g: _Geometry, trick: Trick) -> None:
        for i, card in enumerate(trick.cards):
            seat = trick.seat_of(i)
            dx, dy = TRICK_OFFSET[seat]
            cx, cy = CENTRE.x() + dx, CENTRE.y() + dy
            r = g.rect(cx - CARD_W / 2, cy - CARD_H / 2, CARD_W, CARD_H)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(shadow(70))
            p.drawRoundedRect(r.translated(0.3 * g.s, 0.4 * g.s), 0.8 * g.s, 0.8 * g.s)
            winner = trick.winner is not None and seat == trick.winner
            p.setBrush(WHITE)
            p.setPen(QPen(HILITE, 0.5 * g.s) if winner else QPen(CARD_EDGE, max(0.6, 0.12 * g.s)))
            p.drawRoundedRect(r, 0.8 * g.s, 0.8 * g.s)
            colour = self.suit_colour(card // 13)
            p.setPen(colour)
            p.setFont(self._font(g, 3.3, True))
            p.drawText(
                g.rect(cx - CARD_W / 2, cy - CARD_H / 2 + 0.6, CARD_W, 4.2),
                Qt.AlignmentFlag.AlignCenter,
                rank_label(card),
            )
            p.setFont(self._font(g, 3.8))
            p.drawText(
                g.rect(cx - CARD_W / 2, cy - 0.4, CARD_W, 4.6), Qt.AlignmentFlag.AlignCenter, Suit(card // 13).symbol
            )
            if i == 0:
                # the lead: a small dot in the card's corner
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(BLUE)
                p.drawEllipse(g.pt(cx - CARD_W / 2 + 1.1, cy - CARD_H / 2 + 1.1), 0.55 * g.s, 0.55 * g.s)


def grouped_annotations(anns: list[tuple[str, bool] | None]) -> list[tuple[str, bool] | None]:
    """Each run of neighbouring cards with the same figure keeps it only on its last card."""
    out: list[tuple[str, bool] | None] = []
    for i, ann in enumerate(anns):
        nxt = anns[i + 1] if i + 1 < len(anns) else None
        out.append(None if ann is not None and ann == nxt else ann)
    return out


@dataclass
class HeaderLayout:
    """Where a hand's header puts the "to play" pill (x, width in canvas units) and what HCP text it shows."""

    pill: tuple[float, float] | None
    pill_text: bool
    hcp_text: str


def header_layout(
    name_w: float, text_px, pill_text_w: float, hcp: int | None, to_play: bool, room_px: float, scale: float
) -> HeaderLayout:
    """Fit name, "to play" pill and HCP on one line without overlap.

    Widths are in canvas units except ``room_px``; ``text_px(str)`` measures the
    HCP font in pixels.  When space runs out "12 HCP" becomes "12", then the
    pill loses its words and stays as a yellow dot, then goes (the hand's yellow
    frame still marks it): the HCP stays as long as it fits beside the name.
    """
    room = room_px / scale
    gap = 1.0
    choices = [f"{hcp} HCP", str(hcp)] if hcp is not None else [""]
    pill_w = pill_text_w + 1.6
    pill_x = name_w + 1.2
    if not to_play:
        return HeaderLayout(None, False, choices[0])
    for text in choices:
        hcp_w = text_px(text) / scale if text else 0.0
        if pill_x + pill_w + (gap + hcp_w if text else 0.0) <= room:
            return HeaderLayout((pill_x, pill_w), True, text)
    dot = 2.4
    text = choices[-1]
    hcp_w = text_px(text) / scale if text else 0.0
    if pill_x + dot + (gap + hcp_w if text else 0.0) <= room:
        return HeaderLayout((pill_x, dot), False, text)
    # the HCP is worth more than the pill: the hand's yellow frame already says who is to play
    return HeaderLayout(None, False, text if name_w + gap + hcp_w <= room else "")


class _Geometry:
    """Virtual-canvas units to pixels."""

    def __init__(self, s: float, ox: float, oy: float) -> None:
        self.s, self.ox, self.oy = s, ox, oy
        self.spread_x = 0.0  # how far W/E move outwards, in canvas units
        self.spread_y = 0.0  # how far N/S move outwards

    def x(self, u: float) -> float:
        return self.ox + u * self.s

    def y(self, u: float) -> float:
        return self.oy + u * self.s

    def pt(self, x: float, y: float) -> QPointF:
        return QPointF(self.x(x), self.y(y))

    def rect(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(self.x(x), self.y(y), w * self.s, h * self.s)


def _cards_desc(mask: int) -> list[int]:
    return [c for c in range(51, -1, -1) if mask >> c & 1]
