"""Small things of the look: one spelling of the ten everywhere, coloured suit symbols in the board list.

- The ten is "10" in the diagram, the Play tab and menus (as in print);
  View › Write the Ten as T switches all of them to "T" (remembered).
- The board list's contract column draws ♥ and ♦ red (orange diamonds and
  green clubs in four-colour mode), as the diagram and the DD grid do.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from .board_model import COL_CONTRACT
from .diagram import set_ten_text
from .theme import GREEN, INK, ORANGE, RED

SETTING_TEN = "view/tenAsT"
_SUIT_COLOURS = {"♥": RED, "♦": RED, "♠": INK, "♣": INK}
_FOUR_COLOURS = {"♥": RED, "♦": ORANGE, "♠": INK, "♣": GREEN}


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

    #: the diagram whose suit colours the cells follow (four-colour mode), if any
    diagram = None

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
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
            four = self.diagram is not None and self.diagram.four_colour()
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


def install_contract_colours(view) -> SuitDelegate:
    """Coloured suit symbols in ``view``'s contract column."""
    delegate = SuitDelegate(view.board_list)
    delegate.diagram = view.diagram
    view.board_list.setItemDelegateForColumn(COL_CONTRACT, delegate)
    view.contract_delegate = delegate
    return delegate


def add_ten_action(window, menu: QMenu) -> QAction:
    """View › Write the Ten as T: a remembered switch for every diagram, Play tab and menu."""
    act = QAction("Write the &Ten as T", window)
    act.setCheckable(True)
    act.setStatusTip("Write the ten as T instead of 10 in the diagram, the Play tab and menus")
    on = bool(window.settings.value(SETTING_TEN, False, type=bool))
    set_ten_text("T" if on else "10")
    act.setChecked(on)

    def toggled(checked: bool) -> None:
        window.settings.setValue(SETTING_TEN, bool(checked))
        set_ten_text("T" if checked else "10")
        for view in window.views():
            diagram = getattr(view, "diagram", None)
            if diagram is not None:
                diagram.update()
            replay = getattr(view, "replay", None)
            table = getattr(replay, "trick_table", None)
            if replay is not None and table is not None:
                table.show_position(replay.position())

    act.toggled.connect(toggled)
    menu.addAction(act)
    window.act_ten_as_t = act
    return act


__all__ = ["SuitDelegate", "suit_runs", "install_contract_colours", "add_ten_action", "SETTING_TEN"]
