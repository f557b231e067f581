"""How the window writes cards: one spelling of the ten everywhere, coloured suit symbols in the board list.

- The ten is "10" in the diagram, the Play tab, menus and undo steps (as in print);
  View › Write the Ten as T switches all of them to "T" (remembered).
- The board list's contract column draws ♥ and ♦ red (orange diamonds and
  green clubs in four-colour mode), as the diagram and the DD grid do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QStyledItemDelegate, QWidget

from ..model.cards import RANK_CHARS
from .theme import GREEN, INK, ORANGE, RED

if TYPE_CHECKING:  # the delegate's and the menu's Qt classes are loaded when they are used: ``render`` and
    # ``print`` draw cards without them (PySide6 makes a class's enums when it is first touched: QStyle's, 5 ms)
    from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSettings
    from PySide6.QtGui import QAction, QColor, QPainter
    from PySide6.QtWidgets import QMenu, QStyleOptionViewItem

SETTING_TEN = "view/tenAsT"
#: how the ten is written everywhere cards are shown (View › Write the Ten as T switches to "T")
TEN = {"text": "10"}
_SUIT_COLOURS = {"♥": RED, "♦": RED, "♠": INK, "♣": INK}
_FOUR_COLOURS = {"♥": RED, "♦": ORANGE, "♠": INK, "♣": GREEN}


def set_ten_text(text: str) -> None:
    """Write the ten as ``"10"`` (the default, as in print) or ``"T"``."""
    TEN["text"] = "T" if text == "T" else "10"


def rank_label(card: int) -> str:
    """How a rank is printed in the diagram, the Play tab and menus ("10" by default, or "T")."""
    ch = RANK_CHARS[card % 13]
    return TEN["text"] if ch == "T" else ch


def suit_runs(text: str, four_colour: bool = False) -> list[tuple[str, QColor | None]]:
    """``text`` cut into runs: suit symbols with their colour, the rest with None (the cell's own colour)."""
    colours = _FOUR_COLOURS if four_colour else _SUIT_COLOURS
    runs: list[tuple[str, QColor | None]] = []
    for ch in text:
        colour = colours.get(ch)
        if colour is not None or not runs or runs[-1][1] is not None:
            runs.append((ch, colour))
        else:
            runs[-1] = (runs[-1][0] + ch, None)
    return runs


class SuitDelegate(QStyledItemDelegate):
    """Paints a cell's text with coloured suit symbols (white on a selected row, for contrast)."""

    def __init__(self, parent: QWidget, four_colour: Callable[[], bool] | None = None) -> None:
        super().__init__(parent)
        #: whether the cells draw four colours (the diagram's own setting), if anything says so
        self.four_colour = four_colour

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        from PySide6.QtGui import QPalette
        from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        base = opt.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        painter.save()
        try:
            painter.setFont(opt.font)
            fm = painter.fontMetrics()
            x = float(rect.x()) + 3
            four = self.four_colour is not None and self.four_colour()
            for run, colour in suit_runs(text, four):
                painter.setPen(base if selected or colour is None else colour)
                width = fm.horizontalAdvance(run)
                painter.drawText(
                    QRectF(x, rect.y(), width + 1, rect.height()),
                    int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                    run,
                )
                x += width
        finally:
            painter.restore()


def add_ten_action(parent: QObject, settings: QSettings, menu: QMenu, changed: Callable[[], object]) -> QAction:
    """View › Write the Ten as T: a switch remembered in ``settings`` for every diagram, Play tab and menu;
    ``changed`` redraws what shows cards."""
    from PySide6.QtGui import QAction

    act = QAction("Write the &Ten as T", parent)
    act.setCheckable(True)
    act.setStatusTip("Write the ten as T instead of 10 in the diagram, the Play tab and menus")
    on = bool(settings.value(SETTING_TEN, False, type=bool))
    set_ten_text("T" if on else "10")
    act.setChecked(on)

    def toggled(checked: bool) -> None:
        settings.setValue(SETTING_TEN, bool(checked))
        set_ten_text("T" if checked else "10")
        changed()

    act.toggled.connect(toggled)
    menu.addAction(act)
    return act


__all__ = ["SuitDelegate", "TEN", "add_ten_action", "rank_label", "set_ten_text", "suit_runs", "SETTING_TEN"]
