"""The print preview of hand records (File › Print Hand Records… › Print Preview…).

Its own module so that Qt's print support is imported only when a preview is opened."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QWidget

from .hand_records import HandRecordOptions, HandRecordPainter, PrintData, setup_layout


class HandRecordsPreview(QPrintPreviewDialog):
    """A print preview that owns the printer it paints on and the painter of the pages.

    The C++ dialog keeps only a pointer to its printer and paints on it whenever it redraws, so
    the printer must live exactly as long as the dialog: held by the dialog itself (a parented
    Python subclass keeps its attributes until Qt deletes it), never by a caller's local, which
    Python freed while the preview still painted on it (the crash of issue 25)."""

    def __init__(self, data: PrintData, options: HandRecordOptions, parent: QWidget) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        setup_layout(printer, options)
        super().__init__(printer, parent)
        self.page_printer = printer  # not ``printer``: the dialog has a method of that name
        self.painter = HandRecordPainter(data, options)
        self.paintRequested.connect(self.painter.paint)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setObjectName("print_preview_dialog")
