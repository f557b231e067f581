"""Export the diagram as PNG or SVG, drawn by the same painting code as the screen.

With ``analysis`` (a DD table and the par lines) the picture gets a band
under the diagram with the double-dummy table and par, as the window shows them.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator

from ...model.cards import DISPLAY_STRAINS, Strain
from ...model.ddtable import DDTable
from ..imagefile import write_bytes, write_png
from ..theme import EXPORT_RULE, FONT_FAMILY, INK, MAKE_BG, MAKE_FG, MUTED, PANEL
from .ddgrid import CONTRACT, ROW_SEATS, SUIT_FG
from .hand_diagram import HandDiagram

#: height of the DD table and par band under an exported diagram, in logical pixels
ANALYSIS_HEIGHT = 170

Analysis = tuple[DDTable | None, str]


def export_size(size: QSize, analysis: Analysis | None) -> QSize:
    """The whole picture's size: the diagram, plus the analysis band when there is one."""
    return QSize(size.width(), size.height() + (ANALYSIS_HEIGHT if analysis is not None else 0))


def paint_analysis(painter: QPainter, area: QRectF, table: DDTable | None, par: str) -> None:
    """The DD table (tricks for N S E W in NT S H D C, makes shaded) and the par lines, in ``area``."""
    painter.fillRect(area, PANEL)
    font = QFont(FONT_FAMILY)
    font.setPixelSize(13)
    bold = QFont(font)
    bold.setBold(True)
    cell_w, cell_h = 38.0, 22.0
    x0, y0 = area.x() + 12, area.y() + 10
    painter.setPen(INK)
    painter.setFont(bold)
    painter.drawText(
        QRectF(x0, y0, 200, 18), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, "Double dummy"
    )
    top = y0 + 22
    for col, strain in enumerate(DISPLAY_STRAINS):
        painter.setPen(SUIT_FG[strain])
        painter.drawText(
            QRectF(x0 + 22 + col * cell_w, top, cell_w, cell_h),
            Qt.AlignmentFlag.AlignCenter,
            strain.symbol if strain != Strain.NOTRUMP else "NT",
        )
    for row, seat in enumerate(ROW_SEATS):
        y = top + cell_h * (row + 1)
        painter.setPen(INK)
        painter.setFont(bold)
        painter.drawText(QRectF(x0, y, 20, cell_h), Qt.AlignmentFlag.AlignCenter, seat.letter)
        for col, strain in enumerate(DISPLAY_STRAINS):
            value = table.get(seat, strain) if table is not None else None
            cell = QRectF(x0 + 22 + col * cell_w, y, cell_w, cell_h)
            if value is not None and value >= 7:
                painter.fillRect(cell.adjusted(1, 1, -1, -1), MAKE_BG)
            painter.setPen(QPen(EXPORT_RULE, 1))
            painter.drawRect(cell)
            painter.setFont(bold if value is not None and value >= 7 else font)
            painter.setPen(MAKE_FG if value is not None and value >= 7 else (INK if value is not None else MUTED))
            painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, "—" if value is None else str(value))
    painter.setFont(font)
    painter.setPen(INK)
    text_x = x0 + 22 + 5 * cell_w + 18
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    lines = [
        CONTRACT.sub(lambda m: m.group(1) + symbols[m.group(2)], line) for line in par.splitlines() if line.strip()
    ] or ["Par: not known"]
    painter.drawText(
        QRectF(text_x, top, area.right() - text_x - 10, area.bottom() - top - 8),
        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
        "\n".join(lines),
    )


def _paint_all(painter: QPainter, diagram: HandDiagram, size: QSize, analysis: Analysis | None) -> None:
    diagram.paint(painter, QRectF(0, 0, size.width(), size.height()))
    if analysis is not None:
        paint_analysis(painter, QRectF(0, size.height(), size.width(), ANALYSIS_HEIGHT), *analysis)


def diagram_image(
    diagram: HandDiagram, size: QSize | None = None, device_scale: float = 2.0, analysis: Analysis | None = None
) -> QImage:
    """The diagram painted at ``size`` logical pixels (default: its current size), sharp on HiDPI;
    with ``analysis`` (DD table, par text) the table and par go in a band underneath."""
    size = size or diagram.size()
    whole = export_size(size, analysis)
    image = QImage(int(whole.width() * device_scale), int(whole.height() * device_scale), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(device_scale)
    painter = QPainter(image)
    try:
        _paint_all(painter, diagram, size, analysis)
    finally:
        painter.end()
    return image


def save_png(
    diagram: HandDiagram,
    path: str,
    size: QSize | None = None,
    device_scale: float = 2.0,
    analysis: Analysis | None = None,
    force: bool = False,
) -> None:
    """Write the diagram as a PNG, whole or not at all (FormatError naming ``path`` when it cannot be; a
    write-protected file is replaced only with ``force``)."""
    write_png(diagram_image(diagram, size, device_scale, analysis), path, force)


def save_svg(
    diagram: HandDiagram,
    path: str,
    size: QSize | None = None,
    title: str = "Bridge deal",
    analysis: Analysis | None = None,
    force: bool = False,
) -> None:
    """Write a scalable SVG of the diagram (and the analysis band when given), whole or not at all (FormatError
    naming ``path`` when it cannot be): drawn in memory, then saved."""
    size = size or diagram.size()
    whole = export_size(size, analysis)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buffer)
    gen.setSize(whole)
    gen.setViewBox(QRectF(0, 0, whole.width(), whole.height()))
    gen.setTitle(title)
    gen.setDescription("Drawn by bridgeview")
    painter = QPainter(gen)
    try:
        _paint_all(painter, diagram, size, analysis)
    finally:
        painter.end()
    buffer.close()
    write_bytes(bytes(data.data()), path, force)
