"""Ctrl+C in the terminal that started the window does what the windows' close buttons do.

Python runs a signal's handler only between two of its own bytecodes, and while Qt's event loop waits no
Python runs at all: a press went unheard until Qt next called Python (the mouse over a widget painted in
Python, a key), and then came as a KeyboardInterrupt inside that call, a traceback on the terminal
("Error calling Python override ...") and the application quitting from its crash hook.

Here the handler only counts the press.  Python's wakeup descriptor (:func:`signal.set_wakeup_fd`) writes a
byte to a pipe (a socket on Windows) that the event loop watches, and the loop acts on the press between two
events:

- a press made while a dialog or menu is up answers it as Escape answers it (the unsaved-work question's
  Escape is Cancel: nothing is lost, and a second press cannot stack a second question on the first; a
  progress dialog's is its Cancel);
- a press made with none up closes every window as its close button closes it, which asks about unsaved
  work first; the application then ends, and the command with "interrupted", exit 130, as every command
  does on Ctrl+C.  A dialog that comes up before the press is acted on (one the window's start opens for a
  file it cannot read) is answered as Escape first, and work that runs a loop of its own with no dialog up
  yet (a save's first 300 ms) is let finish, or answered once its dialog shows.

Only Python's own Ctrl+C (a KeyboardInterrupt) is taken over: a process that ignores the press (a job a
shell started in the background) or chose something else for it keeps that.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QThread, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QWidget

if TYPE_CHECKING:
    import socket


class TerminalCtrlC(QObject):
    """Ctrl+C turned into the close buttons' intent for as long as the event loop runs (see the module);
    made by :meth:`install`, given back by :meth:`restore`."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        #: presses heard and not acted on yet: for each, whether a dialog or menu was up when it was made (it
        #: answers that one) or not (it closes the windows, answering any dialog that came up meanwhile first)
        self._presses: list[bool] = []
        #: a press is to close the windows once no dialog and no work of the window's own is in the way
        self._closing = False
        #: the windows were closed by a press (the command then ends as "interrupted", exit 130)
        self.interrupted = False
        #: a look again is due (work of the window's own was running): one at a time, however many presses
        self._looking_again = False
        self._reader, self._writer = _wakeup_pair()
        self._notifier = QSocketNotifier(self._reader, QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        self._previous_fd = signal.set_wakeup_fd(self._writer, warn_on_full_buffer=False)
        self._previous_handler = signal.signal(signal.SIGINT, self._pressed)

    @classmethod
    def install(cls, app: QApplication) -> TerminalCtrlC | None:
        """Take Ctrl+C over for ``app``'s event loop; None where it is not Python's own (ignored in a
        background job, or someone's handler), outside the main thread (which alone may set handlers),
        or where something else already watches the wakeup descriptor."""
        if threading.current_thread() is not threading.main_thread():
            return None
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return None
        taken = signal.set_wakeup_fd(-1)
        signal.set_wakeup_fd(taken)
        if taken != -1:
            return None
        return cls(app)

    def restore(self) -> None:
        """Give Ctrl+C and the wakeup descriptor back as they were, and let the pipe go."""
        signal.signal(signal.SIGINT, self._previous_handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._notifier.setEnabled(False)
        _close_pair(self._reader, self._writer)

    def _pressed(self, _signum: int, _frame: FrameType | None) -> None:
        # runs between two bytecodes of whatever Python runs: only noted here (the wakeup byte wakes the loop)
        self._presses.append(self._answering() is not None)

    def _answering(self) -> QWidget | None:
        """The menu or dialog a press answers, if one is up."""
        return self._app.activePopupWidget() or self._app.activeModalWidget()

    def _woken(self) -> None:
        _drain(self._reader)
        presses, self._presses = self._presses, []
        self._closing = self._closing or not all(presses)
        answering = self._answering()
        if answering is not None:
            # as Escape: a dialog's own way out, Cancel where there is one (a press made before the dialog came
            # up too, and the windows close once it has gone)
            if presses or self._closing:
                key = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)
                QApplication.postEvent(answering, key)
            if self._closing:
                self._look_again()
            return
        if not self._closing:  # (only presses for a dialog that has gone since)
            return
        if _in_work_of_its_own():
            self._look_again()
            return
        self._closing = False
        # (from a timer: closing asks about unsaved work in a dialog of its own, whose loop must not run
        # inside this notifier's call)
        QTimer.singleShot(0, self._close_windows)

    def _close_windows(self) -> None:
        if _in_work_of_its_own() or self._answering() is not None:  # (begun since the press was taken)
            self._closing = True
            self._look_again()
            return
        self._app.closeAllWindows()  # each as its close button would: unsaved work is asked about first
        kept = [w for w in self._app.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()]
        self.interrupted = self.interrupted or not kept

    def _look_again(self) -> None:
        if not self._looking_again:
            self._looking_again = True
            QTimer.singleShot(_LOOK_AGAIN_MS, self._looked_again)

    def _looked_again(self) -> None:
        self._looking_again = False
        self._woken()


#: how long (ms) a press waits while the window runs work of its own before it is looked at again
_LOOK_AGAIN_MS = 100


def _in_work_of_its_own() -> bool:
    """Whether the GUI thread runs an event loop of its own inside the window's, with no dialog up (yet): a save
    or a solve with a progress dialog that shows only after 300 ms.  Closing the windows from inside it would ask
    about unsaved work while that work is being saved, or end the application half way through; the press waits
    for the work to end, or for its dialog, which it then answers as Escape (a cancel)."""
    return QThread.currentThread().loopLevel() > 1


#: the sockets of the wakeup pair on Windows (where the wakeup descriptor must be a socket), by descriptor
_SOCKETS: dict[int, socket.socket] = {}


def _wakeup_pair() -> tuple[int, int]:
    """The (read, write) descriptors the wakeup byte goes through, neither blocking: a pipe (no socket module at
    the window's start: 2 ms before its first paint), a socket pair on Windows."""
    if sys.platform == "win32":
        import socket

        reader, writer = socket.socketpair()
        for end in (reader, writer):
            end.setblocking(False)
            _SOCKETS[end.fileno()] = end
        return reader.fileno(), writer.fileno()
    reader_fd, writer_fd = os.pipe()
    os.set_blocking(reader_fd, False)
    os.set_blocking(writer_fd, False)
    return reader_fd, writer_fd


def _drain(reader: int) -> None:
    """Read the wakeup bytes waiting (their values, the signals' numbers, are not needed: the handler counted)."""
    end = _SOCKETS.get(reader)
    try:
        while end.recv(512) if end is not None else os.read(reader, 512):
            pass
    except OSError:  # (BlockingIOError: nothing more to read)
        pass


def _close_pair(reader: int, writer: int) -> None:
    for fd in (reader, writer):
        end = _SOCKETS.pop(fd, None)
        if end is not None:
            end.close()
        else:
            os.close(fd)
