"""Deals to order in the window: the script part of Edit › Generate Random Deals.

The dialog keeps its plain random deals (an empty script).  With a dealer script
-- typed, opened from a file, or one of the examples -- OK makes the deals: the
script is checked as it is typed (a mistake is named with its line and column),
the work runs on a thread (and on worker processes for a long run), the dialog
counts the deals tried and produced as they come, and Stop ends the run, keeping
what was produced.  The set opens in a new tab, modified until it is saved.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from ...formats.errors import FormatError, describe
from ...generate.examples import EXAMPLES
from ...model.boardset import BoardSet
from ...model.text import duration, plural
from .. import dialogs, theme

if TYPE_CHECKING:
    import numpy as np

    from ...generate.engine import Summary

PROGRESS_EVERY = 0.1  # seconds between live counts


@dataclass
class Made:
    """A finished run: the set, and what the tab and the user are told about it."""

    boards: BoardSet
    tip: str
    asked: int
    generated: int
    stopped: bool


class GenerateJob(QThread):
    """Runs a script on its own thread; counts come as ``progressed``, the end as QThread's ``finished``."""

    progressed = Signal(int, int, float)  # deals tried, produced, seconds left (-1: not known yet)

    def __init__(self, script, produce: int, seed: int | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.script = script
        self.produce = produce
        self.seed = seed
        self._cancel = threading.Event()
        self._last = 0.0
        self.hands: np.ndarray | None = None  # (4, 4, k) holdings of the deals produced
        self.summary: Summary | None = None  # the engine's Summary once the run is over
        self.error: str | None = None

    def cancel(self) -> None:
        self._cancel.set()

    def _progress(self, progress) -> None:
        import time

        now = time.monotonic()
        if now - self._last >= PROGRESS_EVERY:
            self._last = now
            left = progress.seconds_left
            self.progressed.emit(progress.generated, progress.produced, -1.0 if left is None else left)

    def run(self) -> None:
        import numpy as np

        from ...generate import engine

        kept = []
        try:
            limits = engine.limits(self.script, self.produce)
            self.summary = engine.run(
                self.script,
                limits,
                lambda batch: kept.append(batch.hands),
                seed=self.seed,
                progress=self._progress,
                cancel=self._cancel,
            )
            self.hands = np.concatenate(kept, axis=2) if kept else np.zeros((4, 4, 0), dtype=np.uint16)
            self.progressed.emit(self.summary.generated, self.summary.produced, 0.0)
        except FormatError as e:
            self.error = str(e)
        except Exception as e:
            self.error = describe(e)


class ScriptSection(QObject):
    """The script rows of the generate dialog and the run they start."""

    def __init__(self, dialog: QDialog, form: QFormLayout, buttons: QDialogButtonBox, inputs: list[QWidget]) -> None:
        super().__init__(dialog)
        self.dialog = dialog
        self.buttons = buttons
        self.inputs = inputs  # the dialog's own fields, kept still during a run
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.job: GenerateJob | None = None
        self.made: Made | None = None
        self.name = "-"  # the script's file or example, for the set's event
        self.mistake: tuple[int | None, int | None] = (None, None)  # where the last check found one
        self._enabled: list[bool] = []  # the fields' states before a run
        self._first = 1

        self.examples = QComboBox(dialog)
        self.examples.setObjectName("generate_example")
        self.examples.addItem("Start from an example…")
        self.examples.addItems(list(EXAMPLES))
        self.examples.activated.connect(self._example)
        self.open_button = QPushButton("Open Script…", dialog)
        self.open_button.setObjectName("generate_open_script")
        self.open_button.clicked.connect(self._open)
        self.open_button.setAutoDefault(False)  # Enter in a field deals (OK), never opens a file
        row = QHBoxLayout()
        row.addWidget(self.examples, 1)
        row.addWidget(self.open_button)
        self.editor = QPlainTextEdit(dialog)
        self.editor.setObjectName("generate_script")
        self.editor.setPlaceholderText(
            "Empty: plain random deals.\nOr deals to order, in the dealer language, e.g.\n"
            "condition hcp(north) >= 15 && hcp(north) <= 17"
        )
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # a script's lines as written
        self.editor.setMinimumSize(460, 160)
        self.editor.textChanged.connect(self._edited)
        self.status = QLabel(dialog)
        self.status.setObjectName("generate_status")
        self.status.setWordWrap(True)
        self.stop_button = QPushButton("Stop", dialog)
        self.stop_button.setObjectName("generate_stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setAutoDefault(False)
        counts = QHBoxLayout()
        counts.addWidget(self.status, 1)
        counts.addWidget(self.stop_button)
        form.addRow("Script", row)
        form.addRow(self.editor)
        form.addRow(counts)
        self._check = QTimer(self)
        self._check.setSingleShot(True)
        self._check.setInterval(300)
        self._check.timeout.connect(self.check)
        dialog.rejected.connect(self._abandon)

    # -- the script ------------------------------------------------------------------------------
    def text(self) -> str:
        return self.editor.toPlainText()

    def wants_run(self) -> bool:
        """Whether OK must make deals from a script (not plain random deals, not open a stopped run's)."""
        return bool(self.text().strip()) and self.made is None

    def _example(self, index: int) -> None:
        if index <= 0:
            return
        title = self.examples.itemText(index)
        self.editor.setPlainText(EXAMPLES[title])
        self.name = title
        self.examples.setCurrentIndex(0)

    def _open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.dialog, "Open a dealer script", "", "All files (*)")
        if not path:
            return
        try:
            with open(path, "rb") as f:
                data = f.read(1 << 20)
        except OSError as e:
            dialogs.message("error", self.dialog, "Open script", f"{path}: {e.strerror or e}")
            return
        if b"\0" in data:
            dialogs.message("error", self.dialog, "Open script", f"{path}: not a text file (a dealer script is text)")
            return
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        self.editor.setPlainText(text)
        import os

        self.name = os.path.basename(path)

    def _edited(self) -> None:
        if self.made is not None:  # a stopped run's deals belong to the script as it was
            self.made = None
            self.ok.setText("OK")
            self.ok.setEnabled(True)
        self._check.start()

    def check(self):
        """Parse the script as it is now; show its first mistake (line and column).  The script, or None."""
        from ...generate.parser import parse

        if not self.text().strip():
            self._say("")
            return None
        try:
            script = parse(self.text(), self.name)
        except FormatError as e:
            self._say(str(e), problem=True)
            self.mistake = (e.line, getattr(e, "column", None))
            return None
        self._say("The script reads well: OK makes its deals.")
        return script

    def _show_mistake(self) -> None:
        """Put the cursor where the script's mistake is."""
        line, column = self.mistake
        if line is None:
            return
        block = self.editor.document().findBlockByNumber(line - 1)
        cursor = self.editor.textCursor()
        cursor.setPosition(block.position() + max(0, min((column or 1) - 1, block.length() - 1)))
        self.editor.setTextCursor(cursor)
        self.editor.setFocus()

    def _say(self, text: str, problem: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {theme.RED.name()}" if problem else "")

    # -- the run ---------------------------------------------------------------------------------
    def start(self, produce: int, first: int, seed: int | None) -> None:
        """Check the script and make ``produce`` deals on a thread; the dialog stays open, counting."""
        self._check.stop()
        script = self.check()
        if script is None:
            dialogs.message("error", self.dialog, "Generate", f"The script has a mistake:\n\n{self.status.text()}")
            self._show_mistake()
            return
        self._first = first
        self.job = GenerateJob(script, produce, seed, self)
        self.job.progressed.connect(self._count)
        self.job.finished.connect(self._finished)
        self._running(True)
        self._say("Dealing…")
        self.job.start()

    def _running(self, running: bool) -> None:
        """Keep the fields still during a run; afterwards each is as it was (the seed only with a seed)."""
        widgets = (self.editor, self.examples, self.open_button, self.ok, *self.inputs)
        if running:
            self._enabled = [w.isEnabled() for w in widgets]
        for widget, was in zip(widgets, self._enabled, strict=True):
            widget.setEnabled(False if running else was)
        self.stop_button.setEnabled(running)

    def _count(self, generated: int, produced: int, left: float) -> None:
        job = self.job
        asked = job.produce if job is not None else produced
        text = f"{plural(generated, 'deal', ',')} tried, {produced:,} of {asked:,} produced"
        if left >= 1:
            text += f", about {duration(left)} left"
        self._say(text)

    def stop(self) -> None:
        """End the run; the deals produced so far can still be opened."""
        if self.job is not None:
            self.job.cancel()

    def _abandon(self) -> None:
        """The dialog was closed during a run: stop it and wait (the thread must not outlive its objects)."""
        if self.job is not None:
            self.job.cancel()
            self.job.wait()

    def _finished(self) -> None:
        from ...generate.boards import board_set

        job = self.job
        self._running(False)
        if job is None or job.summary is None or job.hands is None:
            self.job = None
            self._say(job.error if job is not None and job.error else "The run failed.", problem=True)
            if job is not None and job.error:
                dialogs.message("error", self.dialog, "Generate", job.error)
            return
        self.job = None
        summary = job.summary
        if not summary.produced:
            self._say(f"No deal met the script's condition in {summary.generated:,} tries.", problem=True)
            return
        boards = board_set(job.hands, job.script, first=self._first, seed=job.seed)
        how = f"seed {job.seed}" if job.seed is not None else "fair shuffle"
        tip = f"{plural(summary.produced, 'deal', ',')} from {_title(self.name)} ({how}, {summary.generated:,} tried)"
        self.made = Made(boards, tip, job.produce, summary.generated, summary.stopped)
        if summary.stopped:
            self._say(f"Stopped after {summary.generated:,} tries: {plural(summary.produced, 'deal', ',')} produced.")
            self.ok.setText(f"Open {plural(summary.produced, 'Deal', ',')}")
            return
        self.dialog.accept()

    def open_in(self, editor) -> None:
        """Open the made set in a new tab, modified until saved; say when fewer deals than asked were found."""
        made = self.made
        if made is None:
            return
        view = editor.open_set(made.boards, "Deals to order", made.tip)
        view.document.mark_changed()
        if len(made.boards) < made.asked and not made.stopped:
            dialogs.message(
                "info",
                editor.window,
                "Generate",
                f"Only {plural(len(made.boards), 'deal', ',')} of {made.asked:,} met the script's condition in "
                f"{made.generated:,} tries (the script's generate limit).",
            )


def _title(name: str) -> str:
    return "a script" if name == "-" else name
