"""A small dialog to change a board's number, dealer and vulnerability."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QSpinBox, QWidget

from ..model.cards import Seat
from ..model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board

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
