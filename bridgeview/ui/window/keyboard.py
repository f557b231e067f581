"""Keyboard from the first second: the diagram takes the focus, and the step keys work from any pane.

Left/Right (previous/next card) and Space (the movie) step the play of the
current tab wherever the focus is - the tab bar, the board list, the side
tabs - except in text fields, where they edit text.  Up/Down keep moving
through the board list when it has the focus (and step tricks in the diagram).
(A click on a card in replay mode plays up to that card: ``replay.controls.install_card_clicks``.)
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from ..document.services import BoardView, WindowServices

#: key -> the replay action it triggers from any pane
STEP_KEYS = {
    Qt.Key.Key_Left: "prev_card",
    Qt.Key.Key_Right: "next_card",
    Qt.Key.Key_Space: "movie",
}


def is_text_field(widget: QWidget | None) -> bool:
    """Widgets where arrows and Space edit text, so they keep their keys."""
    if widget is None:
        return False
    if isinstance(widget, QLineEdit | QTextEdit | QPlainTextEdit | QAbstractSpinBox):
        return not (isinstance(widget, QTextEdit | QPlainTextEdit) and widget.isReadOnly())
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    # a cell editor of an item view is a QLineEdit child of the view's viewport: caught above
    return False


def focus_diagram(view: BoardView) -> None:
    """Give the keyboard to ``view``'s diagram (now and once the event loop has shown it)."""
    diagram = view.diagram
    diagram.setFocus(Qt.FocusReason.OtherFocusReason)

    def later() -> None:
        try:
            if diagram.isVisible() and not diagram.hasFocus():
                diagram.setFocus(Qt.FocusReason.OtherFocusReason)
        except RuntimeError:  # the tab was closed meanwhile
            pass

    QTimer.singleShot(0, later)


class StepKeys(QObject):
    """Sends the step keys of ``window``'s panes to the current replay.

    It filters the events of the widget with the focus only (not the whole application), so
    painting and scrolling elsewhere never pass through Python.
    """

    def __init__(self, window: WindowServices) -> None:
        super().__init__(window.window())  # the window's widget: the keys work inside it only
        self.window = window
        self._watched: QWidget | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, _old, new) -> None:
        if self._watched is not None:
            try:
                self._watched.removeEventFilter(self)
            except RuntimeError:  # the widget is gone
                pass
            self._watched = None
        try:
            if new is not None and new.window() is self.parent() and not is_text_field(new):
                new.installEventFilter(self)
                self._watched = new
        except RuntimeError:
            pass

    def eventFilter(self, obj, event) -> bool:
        if event.type() != QEvent.Type.KeyPress or not isinstance(obj, QWidget):
            return False
        name = STEP_KEYS.get(event.key())
        if name is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if obj is not QApplication.focusWidget() or is_text_field(obj):
            return False
        try:
            if obj.window() is not self.parent():
                return False
            view = self.window.current_view()
        except RuntimeError:  # the window is being destroyed
            return False
        if view is None or obj is view.diagram:
            return False  # the diagram has the replay shortcuts itself
        action = view.step_action(name)
        if action is None or not action.isEnabled():
            return False
        if name == "movie" and isinstance(obj, QComboBox | QAbstractButton):
            return False  # Space opens a combo box's list and presses a button
        action.trigger()
        return True


__all__ = ["StepKeys", "focus_diagram", "is_text_field", "STEP_KEYS"]
