"""Every message box and simple input dialog goes through here, so tests can patch one place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QMessageBox,
    QSpinBox,
    QWidget,
)

from ..model.cards import Seat
from ..model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board

Button = QMessageBox.StandardButton


def message(
    kind: str,
    parent: QWidget | None,
    title: str,
    text: str,
    buttons: Button = Button.Ok,
    default: Button = Button.NoButton,
    details: str | None = None,
) -> Button:
    """Show a message box of ``kind`` ("info", "warning", "error", "question"); return the button pressed.

    Without a ``default``, a box that offers Cancel (or No) makes it the default button: Enter pressed
    by habit must never overwrite or lose anything."""
    icon = {
        "info": QMessageBox.Icon.Information,
        "warning": QMessageBox.Icon.Warning,
        "error": QMessageBox.Icon.Critical,
        "question": QMessageBox.Icon.Question,
    }[kind]
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # messages quote files; a quoted <img> must not render
    if default == Button.NoButton:  # unless told otherwise, Enter is the answer that changes nothing
        default = next((b for b in (Button.Cancel, Button.No) if buttons.value & b.value), Button.NoButton)
    if default != Button.NoButton:
        box.setDefaultButton(default)
    if details:
        box.setDetailedText(details)
    return Button(box.exec())


def get_int(parent: QWidget | None, title: str, label: str, value: int, low: int, high: int) -> int | None:
    """Ask for a whole number; None when cancelled."""
    number, ok = QInputDialog.getInt(parent, title, label, value, low, high)
    return int(number) if ok else None


def get_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    """Ask for a line of text; None when cancelled."""
    value, ok = QInputDialog.getText(parent, title, label, text=text)
    return str(value).strip() if ok else None


def get_open_files(parent: QWidget | None, title: str, directory: str, filters: str) -> list[str]:
    """Ask for files to open; an empty list when cancelled."""
    from PySide6.QtWidgets import QFileDialog

    paths, _ = QFileDialog.getOpenFileNames(parent, title, directory, filters)
    return list(paths)


def get_open_file(parent: QWidget | None, title: str, directory: str, filters: str) -> str:
    """Ask for one file to open; "" when cancelled."""
    from PySide6.QtWidgets import QFileDialog

    path, _ = QFileDialog.getOpenFileName(parent, title, directory, filters)
    return str(path)


def get_save_file(
    parent: QWidget | None, title: str, directory: str, filters: str, selected: str = ""
) -> tuple[str, str]:
    """Ask where to save: (path, chosen filter), or ("", "") when cancelled."""
    from PySide6.QtWidgets import QFileDialog

    path, chosen = QFileDialog.getSaveFileName(parent, title, directory, filters, selected)
    return path, chosen


def edit_board_header(
    parent: QWidget | None, number: int | None, dealer: int, vulnerability: int
) -> tuple[int, Seat, Vulnerability] | None:
    """Ask for a board's number, dealer and vulnerability; None when cancelled."""
    dlg = BoardHeaderDialog(parent, number, dealer, vulnerability)
    if dlg.exec() != BoardHeaderDialog.DialogCode.Accepted:
        return None
    return dlg.values()


SEAT_NAMES = ("North", "East", "South", "West")
VUL_NAMES = ("None", "N-S", "E-W", "All")


class BoardHeaderDialog(QDialog):
    """Number, dealer and vulnerability; "follow the number" fills the standard cycle in."""

    def __init__(self, parent: QWidget | None, number: int | None, dealer: int, vulnerability: int) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit board")
        form = QFormLayout(self)
        self.number = QSpinBox(self)
        self.number.setRange(1, 2_000_000_000)
        self.number.setValue(number or 1)
        form.addRow("Board &number", self.number)
        self.dealer = QComboBox(self)
        self.dealer.addItems(SEAT_NAMES)
        self.dealer.setCurrentIndex(int(dealer))
        form.addRow("&Dealer", self.dealer)
        self.vul = QComboBox(self)
        self.vul.addItems(VUL_NAMES)
        self.vul.setCurrentIndex(int(vulnerability))
        form.addRow("&Vulnerable", self.vul)
        self.follow = QCheckBox("Dealer and vulnerability follow the board number", self)
        self.follow.toggled.connect(self._follow)
        self.number.valueChanged.connect(lambda _v: self._follow(self.follow.isChecked()))
        form.addRow(self.follow)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _follow(self, on: bool) -> None:
        self.dealer.setEnabled(not on)
        self.vul.setEnabled(not on)
        if on:
            n = self.number.value()
            self.dealer.setCurrentIndex(int(dealer_for_board(n)))
            self.vul.setCurrentIndex(int(vulnerability_for_board(n)))

    def values(self) -> tuple[int, Seat, Vulnerability]:
        return self.number.value(), Seat(self.dealer.currentIndex()), Vulnerability(self.vul.currentIndex())
