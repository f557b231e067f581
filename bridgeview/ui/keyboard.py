"""Keyboard from the first second: the diagram takes the focus, and the step keys work from any pane.

Left/Right (previous/next card) and Space (the movie) step the play of the
current tab wherever the focus is - the tab bar, the board list, the side
tabs - except in text fields, where they edit text.  Up/Down keep moving
through the board list when it has the focus (and step tricks in the diagram).
A click on a card in replay mode plays up to that card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from .mainwindow import MainWindow

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


def focus_diagram(view) -> None:
    """Give the keyboard to ``view``'s diagram (now and once the event loop has shown it)."""
    diagram = getattr(view, "diagram", None)
    if diagram is None:
        return
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

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
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
            if new is not None and new.window() is self.window and not is_text_field(new):
                new.installEventFilter(self)
                self._watched = new
        except RuntimeError:
            pass

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt naming)
        if event.type() != QEvent.Type.KeyPress or not isinstance(obj, QWidget):
            return False
        name = STEP_KEYS.get(event.key())
        if name is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if obj is not QApplication.focusWidget() or is_text_field(obj):
            return False
        try:
            window = self.window
            if obj.window() is not window:
                return False
            view = window.current_view()
        except RuntimeError:  # the window is being destroyed
            return False
        diagram = getattr(view, "diagram", None)
        if view is None or diagram is None or obj is diagram:
            return False  # the diagram has the replay shortcuts itself
        bar = getattr(getattr(view, "replay", None), "bar", None)
        action = getattr(bar, "actions_by_name", {}).get(name)
        if action is None or not action.isEnabled():
            return False
        if name == "movie" and isinstance(obj, QComboBox | QAbstractButton):
            return False  # Space opens a combo box's list and presses a button
        action.trigger()
        return True


def play_to_card(controller, card: int) -> bool:
    """Move the replay to just after ``card`` is played; False when the recorded play never plays it."""
    state = getattr(controller, "state", None)
    if state is None or not state.has_play:
        return False
    order = [int(c) for trick in state.tricks for c in trick.cards]
    if int(card) not in order:
        return False
    controller.stop()
    controller.go(order.index(int(card)) + 1)
    return True


def install_card_clicks(diagram, controller) -> None:
    """A click on a card plays up to it - in replay mode (``diagram.click_plays``; an edit mode turns it off)."""
    if not hasattr(diagram, "click_plays"):
        diagram.click_plays = True

    def clicked(card: int) -> None:
        if getattr(diagram, "click_plays", True):
            play_to_card(controller, card)

    diagram.cardClicked.connect(clicked)


__all__ = ["StepKeys", "focus_diagram", "is_text_field", "play_to_card", "install_card_clicks", "STEP_KEYS"]
