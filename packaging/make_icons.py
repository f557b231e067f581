"""Render ``resources/icons/bridgeview.svg`` to the PNG sizes desktops and installers want.

Qt's own SVG renderer (QtSvg, part of PySide6-Essentials) draws them, so no
other tool is needed and the PNGs match what the running app shows.  Run:
python packaging/make_icons.py   (writes resources/icons/bridgeview-<N>.png)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "bridgeview.svg"
SIZES = (16, 32, 48, 64, 128, 256)


def png_path(size: int, folder: Path = ICONS) -> Path:
    """Where the ``size`` px render lives (one file per size, named by size)."""
    return folder / f"bridgeview-{size}.png"


def render(svg: Path, size: int):
    """The SVG drawn into a transparent ``size`` x ``size`` QImage (a QGuiApplication must exist)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not a valid SVG for QtSvg")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def make_icons(svg: Path = SVG, folder: Path = ICONS, sizes: tuple[int, ...] = SIZES) -> list[Path]:
    """Write one PNG per size into ``folder``; return their paths."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        make_icons.app = QGuiApplication([sys.argv[0] if sys.argv else "make_icons"])  # kept alive
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        out = png_path(size, folder)
        if not render(svg, size).save(str(out), "PNG"):
            raise OSError(f"could not write {out}")
        written.append(out)
    return written


if __name__ == "__main__":
    for path in make_icons():
        print(path.relative_to(ROOT))
