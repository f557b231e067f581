"""Start the GUI: fonts, settings names, the crash dialog, the main window."""

from __future__ import annotations

import sys
import traceback

from PySide6.QtGui import QFont, QIcon
from PySide6.QtWidgets import QApplication

from ..resources import resource
from .theme import FONT_FAMILY, load_fonts

ORGANISATION = "bridgeview"
APPLICATION = "bridgeview"


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created if needed) with our names and fonts."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else [sys.argv[0] if sys.argv else "bridgeview"])
    if not isinstance(app, QApplication):
        raise RuntimeError("a QCoreApplication without widgets is already running")
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("bridgeview")
    app.setDesktopFileName("bridgeview")  # Wayland/taskbars match windows to bridgeview.desktop
    app.setWindowIcon(QIcon(str(resource("icons", "bridgeview.svg"))))
    load_fonts()
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(max(9.0, app.font().pointSizeF()))
    app.setFont(font)
    return app


def excepthook(exc_type, exc, tb) -> None:
    """Show an unexpected error in a dialog instead of letting the app die."""
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(text)
    if issubclass(exc_type, KeyboardInterrupt):
        QApplication.quit()
        return
    from . import dialogs

    try:
        dialogs.message(
            "error",
            QApplication.activeWindow(),
            "Unexpected error",
            f"Something went wrong: {exc}\n\nThe program keeps running; please report this.",
            details=text,
        )
    except Exception:  # the dialog itself failed; stderr has the details
        pass


def run_gui(files: list[str]) -> int:
    """Open ``files`` (or the bundled sample) in the main window and run the event loop."""
    app = application()
    sys.excepthook = excepthook
    from .mainwindow import MainWindow, sample_path

    window = MainWindow()
    window.show()
    if files:
        window.open_files(files)
    elif sample_path().exists():
        window.open_file(str(sample_path()))
    return int(app.exec())
