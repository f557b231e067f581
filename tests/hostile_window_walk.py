"""Driver for tests/test_hostile_windows.py: every view and dialog of the app on files full of markup.

Run as ``python tests/hostile_window_walk.py OUT.json PROGRESS.txt FILE...`` (offscreen Qt).  The
first file is a board set opened in the window and compared (File › Compare With…, the
``action_compare`` action, the other file given to a patched ``QFileDialog.getOpenFileName``)
with the second; the rest are opened as more tabs.  Every view is visited -- each board, the end
of each play, every side tab, the Editor with markup typed into its fields, Compare with each
of its boards, the hand-records dialog and its print preview, the dealing-machine settings --
and after each visit every window is painted (a label rendering ``<img src='/dev/zero'>`` never
comes back from that) and walked: labels, text edits, tooltips of widgets, actions and tab bars,
and the tooltips of every item view.  OUT.json gets ``{"violations": [...], "seen": "..."}``:
a violation is a text holding a file's markup that Qt would show as rich text.  PROGRESS.txt
names the step being taken, so a walk killed for hanging says where it hung.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

if TYPE_CHECKING:
    from bridgeview.ui.mainwindow import MainWindow

#: every text a hostile file holds carries this, so a text "made from the file" is easy to tell
MARK = "<b>hostile-"
OBJECT = "\ufffc"  # what QTextDocument puts where it rendered an image

OUT, PROGRESS, *FILES = sys.argv[1:]
violations: dict[str, None] = {}  # in the order found, each once
seen: set[str] = set()


def step(name: str) -> None:
    """Say where the walk is, on disk at once (a hang kills the process before anything else)."""
    with open(PROGRESS, "a", encoding="utf-8") as f:
        f.write(name + "\n")


def from_file(text: str) -> bool:
    """``text`` holds a file's markup as it is (escaped markup is text, and fine)."""
    return MARK in text or "<img src='/dev/zero'>" in text


def rich(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> bool:
    return fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text))


def judge(where: str, text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> None:
    """Record ``text`` as the user reads it, or a violation when it is file markup Qt would render."""
    if not text:
        return
    if rich(text, fmt):
        if from_file(text):
            violations.setdefault(f"{where}: {text[:160]!r}")
            return
        doc = QTextDocument()
        doc.setHtml(text)
        text = doc.toPlainText()
    seen.add(text)


def name_of(widget: QWidget) -> str:
    parts = []
    w: QWidget | None = widget
    while w is not None and len(parts) < 4:
        parts.append(f"{type(w).__name__}({w.objectName()})" if w.objectName() else type(w).__name__)
        w = w.parentWidget()
    return " < ".join(parts)


def walk_models(where: str, view: QAbstractItemView) -> None:
    model = view.model()
    if model is None:
        return
    try:
        columns = model.columnCount(QModelIndex())
    except TypeError:  # a list model keeps columnCount private: one column
        columns = 1
    for r in range(min(model.rowCount(QModelIndex()), 60)):
        for c in range(columns):
            index = model.index(r, c)
            shown = model.data(index, Qt.ItemDataRole.DisplayRole)
            if isinstance(shown, str):  # item views draw their cells as plain text
                seen.add(shown)
            tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str):
                judge(f"{where} row {r} column {c} tooltip", tip)


def walk() -> None:
    """Paint every window (rich text is laid out and loads its images then), then judge every text."""
    app = QApplication.instance()
    for top in QApplication.topLevelWidgets():
        if top.isVisible():
            top.grab()
    app.processEvents()
    for top in QApplication.topLevelWidgets():
        widgets = [top, *top.findChildren(QWidget)]
        for w in widgets:
            where = name_of(w)
            if w.toolTip():
                judge(f"{where} tooltip", w.toolTip())
            if isinstance(w, QLabel):
                judge(where, w.text(), w.textFormat())
            elif isinstance(w, QTextEdit):
                text = w.toPlainText()
                if OBJECT in text:
                    violations.setdefault(f"{where}: an image was rendered from the file")
                seen.add(text)
            elif isinstance(w, QLineEdit):
                seen.add(w.text())
                seen.add(w.placeholderText())
            elif isinstance(w, QAbstractItemView):
                walk_models(where, w)
            elif isinstance(w, QTabBar):
                for i in range(w.count()):
                    seen.add(w.tabText(i))
                    judge(f"{where} tab {i} tooltip", w.tabToolTip(i))
            if isinstance(w, QWidget) and w.isWindow():
                seen.add(w.windowTitle())
        for action in top.findChildren(QAction):
            judge(f"action {action.objectName() or action.text()} tooltip", action.toolTip())
            seen.add(action.statusTip())


def show_every_tab(window: QWidget) -> None:
    for tabs in window.findChildren(QTabWidget):
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            walk()


def walk_tabs(w: MainWindow) -> None:
    """Every board of every tab, replayed to its end, every side tab shown; then text typed into the editor."""
    for t in range(w.tabs.count()):
        step(f"tab {t}")
        w.tabs.setCurrentIndex(t)
        view = w.current_view()
        if view is None:
            walk()
            continue
        for i in range(len(view.boards)):
            step(f"tab {t} board {i}")
            view.select_board(i)
            walk()
            view.replay.to_end()
            walk()
            show_every_tab(w)
        step(f"tab {t} editor")
        w.editor.show_panel()
        panel = w.editor.panel
        walk()
        for name, edit in panel.tag_edits.items():  # text pasted from a file into every field
            edit.setText(f"<img src='/dev/zero'>{MARK}typed-{name}</b>")
            panel.apply_tag(name)
            walk()
        panel.call_entry.setText(f"{MARK}call</b>")
        panel.call_typed()
        panel.play_entry.setText(f"{MARK}card</b>")
        panel.play_typed()
        panel.hand_edits[0].setText(f"{MARK}hand</b>")
        walk()
        w.undo_group.activeStack().setIndex(0)


def walk_compare(w: MainWindow, asked: list[str], boxes: list[str]) -> None:
    """File › Compare With…, asked through getOpenFileName, and every row of both sides."""
    step("compare")
    action = w.findChild(QAction, "action_compare")
    if action is None:
        violations.setdefault("no QAction named action_compare")
    else:
        action.trigger()
        if asked != ["Compare with"]:
            violations.setdefault(f"Compare With… asked through getOpenFileName {asked}")
        dialog = w.desk.compare_dialog
        if dialog is None:
            violations.setdefault(f"Compare With… showed no window ({boxes})")
        else:
            walk()
            for row in range(dialog.left.rowCount()):
                step(f"compare row {row}")
                dialog.left.setCurrentCell(row, 0)
                walk()
            for row in range(dialog.right.rowCount()):
                dialog.right.setCurrentCell(row, 0)
                walk()
            dialog.close()


def walk_desk(w: MainWindow) -> None:
    """The hand-records dialog and its preview, and the DUP settings."""
    step("hand records")
    records = w.desk.hand_records()
    if records is not None:
        records.dd.setChecked(False)  # the preview, not DDS, is what is looked at
        walk()
        records.preview()
        records.preview_dialog.show()
        walk()
        records.preview_dialog.close()
        records.close()
    step("dup settings")
    dup = w.desk.dup_settings()
    if dup is not None:
        walk()
        dup.reject()


def main() -> int:
    from bridgeview.ui import dialogs
    from bridgeview.ui.app import load_fonts
    from bridgeview.ui.mainwindow import MainWindow

    app = QApplication.instance() or QApplication([])
    load_fonts()
    boxes: list[str] = []

    def box_exec(box: QMessageBox) -> int:  # message boxes are judged, never waited for
        judge(f"message box {box.windowTitle()!r}", box.text(), box.textFormat())
        boxes.append(box.text())
        return int(QMessageBox.StandardButton.Discard)

    QMessageBox.exec = box_exec  # type: ignore[method-assign]
    first, other, *more = FILES
    asked: list[str] = []

    def get_open_file_name(parent, caption="", directory="", filters="", *rest, **kw):
        asked.append(caption)
        return other, ""

    QFileDialog.getOpenFileName = staticmethod(get_open_file_name)  # type: ignore[method-assign]
    w = MainWindow()
    w.resize(1280, 800)
    w.show()
    step("open")
    for path in (first, *more):
        if not w.open_file(path):
            violations.setdefault(f"could not open {path}")
    walk_tabs(w)
    w.tabs.setCurrentIndex(0)
    walk_compare(w, asked, boxes)
    walk_desk(w)
    step("done")
    for view in w.views():
        view.undo_stack.setClean()
    dialogs.message = lambda *a, **k: dialogs.Button.Discard  # closing asks nothing more
    w.close()
    app.processEvents()
    report = {"violations": list(violations), "seen": "\n".join(sorted(seen))}
    Path(OUT).write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
