"""Pictures written whole or not at all, as every other file of the app is.

Qt's own ``QImage.save(path)`` writes into the file as it encodes: a full disk left a truncated PNG in place of
the old one (and libpng's "Write Error" on the terminal), and an SVG generator's file is written the same way.
Here the picture is encoded in memory first, then saved by :func:`~bridgeview.formats.atomic.save_atomically`
(a temporary file beside the target, flushed, renamed over it): on any failure the target is untouched, and the
error is a :class:`~bridgeview.formats.errors.FormatError` naming the file.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage, QPixmap

from ..formats.atomic import save_atomically
from ..formats.errors import FormatError


def png_bytes(picture: QImage | QPixmap) -> bytes:
    """``picture`` encoded as PNG."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    try:
        # (only a null picture fails: nothing here is written yet)
        if not picture.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stub says bytes; PySide6 takes a str
            raise ValueError("the picture could not be encoded as PNG")
    finally:
        buffer.close()
    return bytes(data.data())


def write_bytes(data: bytes, path: str | os.PathLike[str], force: bool = False) -> None:
    """``data`` saved as ``path`` whole or not at all (FormatError naming ``path`` when it cannot be); a
    write-protected file is replaced only with ``force``."""
    save_atomically(path, lambda f: f.write(data), force=force)


def write_png(picture: QImage | QPixmap, path: str | os.PathLike[str], force: bool = False) -> None:
    """``picture`` saved as a PNG file at ``path``, whole or not at all (FormatError naming ``path``); a
    write-protected file is replaced only with ``force``."""
    try:
        data = png_bytes(picture)
    except ValueError as e:
        raise FormatError(str(e), path=str(path)) from None
    write_bytes(data, path, force)
