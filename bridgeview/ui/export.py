"""Export the diagram as PNG or SVG, drawn by the same painting code as the screen."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from .diagram import HandDiagram


def diagram_image(diagram: HandDiagram, size: QSize | None = None, device_scale: float = 2.0) -> QImage:
    """The diagram painted at ``size`` logical pixels (default: its current size), sharp on HiDPI."""
    size = size or diagram.size()
    image = QImage(int(size.width() * device_scale), int(size.height() * device_scale), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(device_scale)
    painter = QPainter(image)
    try:
        diagram.paint(painter, QRectF(0, 0, size.width(), size.height()))
    finally:
        painter.end()
    return image


def save_png(diagram: HandDiagram, path: str, size: QSize | None = None, device_scale: float = 2.0) -> bool:
    return diagram_image(diagram, size, device_scale).save(path, "PNG")


def save_svg(diagram: HandDiagram, path: str, size: QSize | None = None, title: str = "Bridge deal") -> None:
    """Write a scalable SVG of the diagram."""
    size = size or diagram.size()
    gen = QSvgGenerator()
    gen.setFileName(path)
    gen.setSize(size)
    gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    gen.setDescription("Drawn by bridgeview")
    painter = QPainter(gen)
    try:
        diagram.paint(painter, QRectF(0, 0, size.width(), size.height()))
    finally:
        painter.end()
