"""Hand records: the sheets a club pins on the wall and hands out after a session.

One layout, painted with QPainter, serves ``bridgeview print`` (a QPdfWriter,
offscreen), File › Export Hand Records (the same) and File › Print… (a QPrinter
through the print preview dialog).  What goes on the sheets (the boards, their
tables, the title and every line's wording) is Qt-free, in ``handrecords.content``,
shared with the HTML page of ``handrecords.html``.  Everything is drawn as text in the
bundled DejaVu font, so the PDF stays selectable and searchable with the font
embedded.  Each board is laid out on a fixed 260 x 330 point cell and scaled
to the cells of the chosen grid (1, 2, 4, 6 or 9 boards a page).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from ...handrecords.content import (
    DD_SEATS,
    DD_STRAINS,
    GRIDS,
    MARGIN_MM,
    PER_PAGE,
    SEAT_NAMES,
    HandRecordOptions,
    PrintData,
    board_heading,
    default_title,
    holdings,
    makeable,
    page_count,
    par_text,
    prepare,
)
from ...model.board import Board
from ...model.cards import Seat, Strain, Suit
from ..theme import FONT_FAMILY, PRINT_GREY, PRINT_INK, load_fonts, suit_colour

__all__ = ["PER_PAGE", "HandRecordOptions", "PrintData", "default_title", "page_count", "prepare", "write_pdf"]
PAGE_SIZES = {"A4": QPageSize.PageSizeId.A4, "Letter": QPageSize.PageSizeId.Letter}
CELL_W, CELL_H = 260.0, 330.0
CELL_H_NO_DD = 212.0  # the hands alone: boards print larger without the DD table
#: a wide cell (one board on a landscape page, two on a portrait one): the DD table beside the hands
#: rather than under them, so the board fills the page's width instead of under half of it
WIDE_W, WIDE_H = 430.0, 212.0
WIDE_DD_LEFT, WIDE_DD_TOP, WIDE_DD_WIDTH = 268.0, 40.0, 160.0
TITLE_H, FOOTER_H = 26.0, 18.0
INK = PRINT_INK
GREY = PRINT_GREY


def _font(size: float, bold: bool = False) -> QFont:
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


class HandRecordPainter:
    """Paints pages of hand records on any QPagedPaintDevice (QPdfWriter, QPrinter)."""

    def __init__(self, data: PrintData, options: HandRecordOptions) -> None:
        self.data = data
        self.options = options
        self._scale = 1.0  # device pixels a point

    def font(self, size: float, bold: bool = False) -> QFont:
        """A font ``size`` points high on the page: Qt sizes fonts by the device's DPI, and the
        painter is already scaled to points, so the size is divided by that scale."""
        return _font(size / self._scale, bold)

    def text_width(self, p: QPainter, font: QFont, text: str) -> float:
        """Width of ``text`` in points: the font is sized for the device, and the painter's
        units are points, so the device metrics are already in painter units."""
        return QFontMetricsF(font, p.device()).horizontalAdvance(text)

    @property
    def pages(self) -> int:
        return page_count(len(self.data.boards), self.options.per_page)

    def suit_colour(self, suit: Suit) -> QColor:
        return suit_colour(suit, self.options.four_colour, INK)

    def paint(self, device, *, new_page=None, between_pages: Callable[[], None] | None = None) -> int:
        """Paint every page on ``device``; ``new_page()`` starts the next one (default: device.newPage);
        ``between_pages()`` is called before each page (a place to stop: it may raise, and the painter is
        ended all the same).  Returns the number of pages."""
        painter = QPainter()
        try:
            if not painter.begin(device):
                raise OSError("cannot start painting the hand records")
            scale = device.logicalDpiX() / 72.0  # work in points whatever the resolution
            self._scale = scale
            rect = device.pageLayout().paintRectPixels(device.logicalDpiX())
            width, height = rect.width() / scale, rect.height() / scale
            per = self.options.per_page
            for page in range(self.pages):
                if between_pages is not None:
                    between_pages()
                if page:
                    (new_page or device.newPage)()
                painter.save()
                painter.scale(scale, scale)
                self._page(painter, page, width, height, self.data.boards[page * per : (page + 1) * per], page * per)
                painter.restore()
        finally:
            if painter.isActive():  # (also when stopped right after begin(): a device destroyed while painted
                painter.end()  # on crashed the process)
        return self.pages

    # -- a page -------------------------------------------------------------------------
    def _page(self, p: QPainter, page: int, width: float, height: float, boards: Sequence[Board], first: int) -> None:
        p.setPen(INK)
        title = self.options.title or "Hand records"
        p.setFont(self.font(13, bold=True))
        p.drawText(QRectF(0, 0, width, TITLE_H), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, title)
        p.setPen(QPen(GREY, 0.6))
        p.drawLine(QPointF(0, TITLE_H - 6), QPointF(width, TITLE_H - 6))
        p.setPen(INK)
        p.setFont(self.font(8))
        p.drawText(
            QRectF(0, height - FOOTER_H + 4, width, FOOTER_H - 4),
            Qt.AlignmentFlag.AlignHCenter,
            f"Page {page + 1} of {self.pages}",
        )
        cols, rows = GRIDS[self.options.per_page]
        if self.options.landscape and cols < rows:
            cols, rows = rows, cols
        area_h = height - TITLE_H - FOOTER_H
        cw, ch = width / cols, area_h / rows
        cell_w, cell_h, wide = cell_layout(cw, ch, self.options.dd)
        fit = min(cw / cell_w, ch / cell_h)
        for k, board in enumerate(boards):
            col, row = k % cols, k // cols
            x = col * cw + (cw - cell_w * fit) / 2
            y = TITLE_H + row * ch + (ch - cell_h * fit) / 2
            p.save()
            p.translate(x, y)
            p.scale(fit, fit)
            self._board(p, board, first + k, wide)
            p.restore()
            if rows > 1 and row < rows - 1 and k + cols < len(boards):
                p.setPen(QPen(GREY, 0.4, Qt.PenStyle.DashLine))
                p.drawLine(
                    QPointF(col * cw + 8, TITLE_H + (row + 1) * ch),
                    QPointF((col + 1) * cw - 8, TITLE_H + (row + 1) * ch),
                )
                p.setPen(INK)

    # -- a board ------------------------------------------------------------------------
    def _board(self, p: QPainter, board: Board, index: int, wide: bool = False) -> None:
        number = board_heading(board, index)
        p.setPen(INK)
        p.setFont(self.font(14, bold=True))
        p.drawText(QPointF(4, 16), number)
        p.setFont(self.font(8.5))
        vul = board.effective_vulnerability.text
        p.drawText(QRectF(120, 2, 136, 12), Qt.AlignmentFlag.AlignRight, f"Dealer {SEAT_NAMES[board.effective_dealer]}")
        p.drawText(QRectF(120, 13, 136, 12), Qt.AlignmentFlag.AlignRight, f"Vul {vul}")
        deal = board.deal
        spots = {Seat.NORTH: (92, 32), Seat.WEST: (4, 96), Seat.EAST: (178, 96), Seat.SOUTH: (92, 160)}
        for seat, (x, y) in spots.items():
            self._hand(p, deal, seat, x, y, 80 if seat != Seat.NORTH and seat != Seat.SOUTH else 100)
        # the centre box: each hand's high-card points
        box = QRectF(100, 92, 64, 58)
        p.setPen(QPen(GREY, 0.8))
        p.drawRect(box)
        p.setPen(INK)
        p.setFont(self.font(8))
        for seat, r in (
            (Seat.NORTH, QRectF(100, 93, 64, 12)),
            (Seat.SOUTH, QRectF(100, 137, 64, 12)),
            (Seat.WEST, QRectF(102, 115, 30, 12)),
            (Seat.EAST, QRectF(132, 115, 30, 12)),
        ):
            align = {Seat.WEST: Qt.AlignmentFlag.AlignLeft, Seat.EAST: Qt.AlignmentFlag.AlignRight}.get(
                seat, Qt.AlignmentFlag.AlignHCenter
            )
            if deal.hands[seat]:
                p.drawText(r, align, str(deal.hcp(seat)))
        p.setFont(self.font(6.5))
        p.setPen(GREY)
        p.drawText(QRectF(100, 108, 64, 8), Qt.AlignmentFlag.AlignHCenter, "HCP")
        p.setPen(INK)
        if self.options.dd and wide:
            self._dd(p, board, index, WIDE_DD_LEFT - 4, WIDE_DD_TOP, WIDE_DD_WIDTH)
        elif self.options.dd:
            self._dd(p, board, index)

    def _hand(self, p: QPainter, deal, seat: Seat, x: float, y: float, width: float) -> None:
        size = 10.0
        lines = holdings(deal, seat, self.options.ten)
        widest = max(self.text_width(p, self.font(size), text) for _, text in lines) + 14
        if widest > width:  # a long suit: a smaller font rather than text over the next hand
            size = max(6.0, size * width / widest)
        p.setFont(self.font(7, bold=True))
        p.setPen(GREY)
        p.drawText(QPointF(x, y - 3), SEAT_NAMES[seat])
        line_h = 13.0
        for k, (suit, text) in enumerate(lines):
            base = y + 10 + k * line_h
            p.setFont(self.font(size))
            p.setPen(self.suit_colour(suit))
            p.drawText(QPointF(x, base), suit.symbol)
            p.setPen(INK)
            p.drawText(QPointF(x + 13, base), text)

    def _dd(self, p: QPainter, board: Board, index: int, left: float = 0.0, top: float = 222.0, width=252.0) -> None:
        """The makeable contracts and par, ``left`` points right of the board's own left edge, from ``top``
        down, the text wrapped at ``width``."""
        p.save()
        p.translate(left, 0)
        try:
            self._dd_table(p, board, index, top, width)
        finally:
            p.restore()

    def _dd_table(self, p: QPainter, board: Board, index: int, top: float, width: float) -> None:
        table = self.data.tables.get(index)
        if table is None:
            note = self.data.notes.get(index)
            if note:
                p.setFont(self.font(7.5))
                p.setPen(GREY)
                p.drawText(QRectF(4, top, width, 60), Qt.TextFlag.TextWordWrap, note.capitalize() + ".")
                p.setPen(INK)
            return
        p.setFont(self.font(7, bold=True))
        p.setPen(GREY)
        p.drawText(QPointF(4, top - 4), "Makeable contracts")
        col_w, row_h, x0 = 26.0, 11.5, 30.0
        for k, st in enumerate(DD_STRAINS):
            p.setFont(self.font(8.5))
            p.setPen(self.suit_colour(Suit(st)) if st != Strain.NOTRUMP else INK)
            p.drawText(QRectF(x0 + k * col_w, top, col_w, row_h), Qt.AlignmentFlag.AlignCenter, st.symbol)
        p.setPen(INK)
        for r, seat in enumerate(DD_SEATS):
            y = top + (r + 1) * row_h
            p.setFont(self.font(8, bold=True))
            p.drawText(QRectF(4, y, 24, row_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, seat.letter)
            p.setFont(self.font(8))
            for k, st in enumerate(DD_STRAINS):
                p.drawText(
                    QRectF(x0 + k * col_w, y, col_w, row_h), Qt.AlignmentFlag.AlignCenter, makeable(table, seat, st)
                )
        p.setPen(QPen(GREY, 0.5))
        p.drawLine(QPointF(4, top + row_h), QPointF(x0 + 5 * col_w, top + row_h))
        p.setPen(INK)
        par = par_text(board, table)
        if par:
            p.setFont(self.font(8))
            p.drawText(QRectF(4, top + 5 * row_h + 4, width, 48), Qt.TextFlag.TextWordWrap, par)


def cell_layout(cell_w: float, cell_h: float, dd: bool) -> tuple[float, float, bool]:
    """(width, height, wide) of the board drawing that fills a ``cell_w`` x ``cell_h`` cell best: the DD
    table under the hands, or beside them when that prints the board larger (a wide cell)."""
    tall = (CELL_W, CELL_H if dd else CELL_H_NO_DD)
    if not dd:
        return tall[0], tall[1], False
    tall_fit = min(cell_w / tall[0], cell_h / tall[1])
    wide_fit = min(cell_w / WIDE_W, cell_h / WIDE_H)
    return (WIDE_W, WIDE_H, True) if wide_fit > tall_fit else (tall[0], tall[1], False)


def setup_layout(device, options: HandRecordOptions) -> None:
    """Page size, orientation and margins on a QPdfWriter or QPrinter."""
    layout = QPageLayout(
        QPageSize(PAGE_SIZES[options.page_size]),
        QPageLayout.Orientation.Landscape if options.landscape else QPageLayout.Orientation.Portrait,
        QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
        QPageLayout.Unit.Millimeter,
    )
    device.setPageLayout(layout)


def pdf_bytes(
    data: PrintData, options: HandRecordOptions, between_pages: Callable[[], None] | None = None
) -> tuple[bytes, int]:
    """The hand records as PDF bytes, and the page count (``between_pages``: see :meth:`HandRecordPainter.paint`)."""
    from PySide6.QtCore import QBuffer, QIODevice

    load_fonts()
    buffer = QBuffer()  # holds its own bytes: nothing outside it must outlive the writer
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = None
    try:
        writer = QPdfWriter(buffer)
        writer.setResolution(300)
        writer.setCreator("bridgeview")
        writer.setTitle(options.title or "Hand records")
        setup_layout(writer, options)
        # the PDF is complete when painting ends
        pages = HandRecordPainter(data, options).paint(writer, between_pages=between_pages)
    finally:
        del writer  # the writer writes into the buffer: it goes first
        buffer.close()
    return bytes(buffer.data().data()), pages


def write_pdf(data: PrintData, path: str | os.PathLike[str], options: HandRecordOptions) -> int:
    """Write the hand records to ``path`` atomically (temp file + rename); returns the page count."""
    from ...formats.atomic import save_atomically

    content, pages = pdf_bytes(data, options)
    save_atomically(path, lambda f: f.write(content))
    return pages
