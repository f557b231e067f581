"""Start the GUI: fonts, settings names, the crash dialog, the main window.

:func:`application` is the widgets' QApplication (the window, ``render``);
:func:`painting_application` a QGuiApplication with the same names and fonts for
what paints without widgets (``print``'s PDF), which then loads no QtWidgets.
"""

from __future__ import annotations

import sys
import traceback
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtGui import QFont, QGuiApplication

from .theme import FONT_FAMILY, load_fonts

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

#: the application class :func:`_running` makes (widgets' or painting's)
App = TypeVar("App", bound=QGuiApplication)

ORGANISATION = "bridgeview"
APPLICATION = "bridgeview"


def application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created if needed) with our names, icon and fonts."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ..resources import resource

    app = _running(QApplication, argv, "widgets")
    app.setWindowIcon(QIcon(str(resource("icons", "bridgeview.svg"))))
    return app


def painting_application(argv: list[str] | None = None) -> QGuiApplication:
    """The running Qt application, else a QGuiApplication (no widgets: painting a PDF needs none), with our
    names and fonts; the same fonts as :func:`application`'s, so what it paints looks the same.  A process that
    has loaded QtWidgets (the window, a test) may make widgets later, which a QGuiApplication cannot hold: it
    gets the widgets' :func:`application`."""
    if "PySide6.QtWidgets" in sys.modules:
        return application(argv)
    return _running(QGuiApplication, argv, "a GUI")


def _running(kind: type[App], argv: list[str] | None, lacking: str) -> App:
    """The running application (made of ``kind`` if there is none), with our names and fonts."""
    app = kind.instance()
    if app is None:
        app = kind(argv if argv is not None else [sys.argv[0] if sys.argv else "bridgeview"])
    if not isinstance(app, kind):
        raise RuntimeError(f"a QCoreApplication without {lacking} is already running")
    _set_up(app)
    return app


def _set_up(app: QGuiApplication) -> None:
    """Names (settings, taskbars) and the bundled fonts."""
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("bridgeview")
    app.setDesktopFileName("bridgeview")  # Wayland/taskbars match windows to bridgeview.desktop
    load_fonts()
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(max(9.0, app.font().pointSizeF()))
    app.setFont(font)


def excepthook(exc_type, exc, tb) -> None:
    """Show an unexpected error in a dialog instead of letting the app die."""
    from PySide6.QtWidgets import QApplication

    if issubclass(exc_type, KeyboardInterrupt):  # (Ctrl+C where the window's own handling is not installed)
        QApplication.closeAllWindows()  # as the close buttons: unsaved work is asked about first
        return
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    sys.stderr.write(text)
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
    """Open ``files`` (or the bundled sample) in the main window and run the event loop; 130 when Ctrl+C in
    the terminal closed the windows (:mod:`.window.terminal`)."""
    from ..interrupts import held_ctrl_c

    with held_ctrl_c():  # (Qt setting the application up must not be cut in two; nothing is open yet)
        app = application()
        sys.excepthook = excepthook
        from .window.terminal import TerminalCtrlC
    # from here a press is only counted, never raised into Qt's calls, and acted on as the event loop runs: it
    # closes the window, or answers a dialog the start opened (a file that cannot be read) as Escape would
    ctrl_c = TerminalCtrlC.install(app)
    try:
        from .mainwindow import MainWindow, sample_path

        window = MainWindow()
        window.show()
        if files:
            window.open_files(files)
        elif sample_path().exists():
            window.open_file(str(sample_path()))
        code = int(app.exec())
    finally:
        if ctrl_c is not None:
            ctrl_c.restore()
    if ctrl_c is not None and ctrl_c.interrupted:
        print("bridgeview: interrupted", file=sys.stderr)
        return 130
    return code
