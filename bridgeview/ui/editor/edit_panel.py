"""The editing panel: type in a deal, the tags, the auction (bidding box) and the play of the current board.

One panel lives in a dock of the main window and follows the current tab, so
every widget has one stable objectName (``hand_N``, ``tag_Event``, ``call_1C``,
``play_entry`` ...) for automation and screen readers.  The rules (legal
calls and cards, typed hands) come from :mod:`bridgeview.model.editing`; each
change is one undo command on the current document's stack.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...model.auction import Call, CallKind, Contract
from ...model.board import Board
from ...model.boardset import DupControl
from ...model.cards import SEAT_LETTERS, Card, Seat, Strain, Suit, cards_of
from ...model.editing import (
    check_hands,
    hand_text,
    legal_calls,
    next_caller,
    play_state,
    rotate_deal,
    swap_hands,
    with_auction,
    with_deal,
    with_play,
)
from ...model.text import plural
from ..card_text import TEN, rank_label
from ..document.boardset_commands import FileInfoCommand, set_board
from ..plaintext import plain_label
from ..theme import PALE_RED as THEME_PALE_RED
from ..theme import RED as THEME_RED

SEAT_NAMES = ("North", "East", "South", "West")
#: tags typed as text: board tags first, then the ones the model keeps as values
TEXT_TAGS = ("Event", "Site", "Date", "Scoring", "Room", "West", "North", "East", "South")
VALUE_TAGS = ("Contract", "Declarer", "Result")
HEADER_FIELDS = ("event", "site", "date")
RED = THEME_RED.name()
#: the width the panel asks for: the bidding box and hand lines readable (narrower windows scroll it)
PANEL_WIDTH = 360
PALE_RED = THEME_PALE_RED.name()  # a red suit on a disabled call button


def card_name(card: int) -> str:
    return Suit(card // 13).symbol + rank_label(Card(card))


class NotesEdit(QPlainTextEdit):
    """Commentary text that reports ``editingFinished`` when it loses the focus, like a line edit."""

    editingFinished = Signal()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.editingFinished.emit()


class EditPanel(QWidget):
    """Deal entry, tags, bidding box and play entry for the current board of ``view``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = None
        self._shown: dict[str, object] = {}
        self._selected_card: int | None = None
        self._refreshing = False
        self._pressed_card: int | None = None
        #: the board the typed call, card and claim were typed for
        self._inputs_index = -1
        #: (seat, text) of a hand the panel completed: typing into it starts afresh instead of appending
        self._autofilled: tuple[int, str] | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        self.body = QVBoxLayout(body)
        self.body.setContentsMargins(6, 6, 6, 6)
        self._build_deal()
        self._build_auction()
        self._build_play()
        self._build_tags()
        self._build_file()
        self.body.addStretch(1)
        self.refresh()

    def sizeHint(self) -> QSize:
        return QSize(PANEL_WIDTH, 640)

    # -- building -----------------------------------------------------------------------
    def _line(self, name: str, accessible: str, placeholder: str = "") -> QLineEdit:
        e = QLineEdit(self)
        e.setObjectName(name)
        e.setAccessibleName(accessible)
        e.setPlaceholderText(placeholder)
        return e

    def _button(self, name: str, text: str, tip: str, slot) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.setAccessibleName(tip)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False: slot())
        return b

    def _build_deal(self) -> None:
        box = QGroupBox("Deal", self)
        grid = QGridLayout(box)
        self.hand_edits: list[QLineEdit] = []
        self.hand_counts: list[QLabel] = []
        for seat in range(4):
            letter = SEAT_LETTERS[seat]
            edit = self._line(f"hand_{letter}", f"{SEAT_NAMES[seat]}'s hand", "AKQ.J109.876.5432")
            edit.textChanged.connect(self._hands_typed)
            edit.returnPressed.connect(lambda s=seat: self._hand_entered(s))
            edit.installEventFilter(self)
            count = plain_label(QLabel("", self))
            count.setObjectName(f"hand_{letter}_count")
            count.setMinimumWidth(28)
            grid.addWidget(QLabel(SEAT_NAMES[seat], self), seat, 0)
            grid.addWidget(edit, seat, 1)
            grid.addWidget(count, seat, 2)
            self.hand_edits.append(edit)
            self.hand_counts.append(count)
        self.deal_status = plain_label(QLabel("", self))  # quotes what was typed
        self.deal_status.setObjectName("deal_status")
        self.deal_status.setWordWrap(True)
        grid.addWidget(self.deal_status, 4, 0, 1, 3)
        row = QHBoxLayout()
        self.deal_apply = self._button("deal_apply", "Apply", "Apply the typed deal to the board", self.apply_deal)
        row.addWidget(self.deal_apply)
        row.addWidget(
            self._button("deal_rotate", "Rotate ↻", "Turn the deal a quarter clockwise", lambda: self.rotate(1))
        )
        self.swap_a = QComboBox(self)
        self.swap_b = QComboBox(self)
        for combo, default in ((self.swap_a, 0), (self.swap_b, 2)):
            combo.addItems(SEAT_LETTERS)
            combo.setCurrentIndex(default)
        self.swap_a.setObjectName("swap_a")
        self.swap_b.setObjectName("swap_b")
        row.addWidget(self._button("deal_clear", "Clear", "Take every card off the board", self.clear_deal))
        grid.addLayout(row, 5, 0, 1, 3)
        row2 = QHBoxLayout()
        row2.addWidget(self._button("deal_swap", "Swap hands", "Swap the two hands chosen beside", self.swap))
        row2.addWidget(self.swap_a)
        row2.addWidget(QLabel("and", self))
        row2.addWidget(self.swap_b)
        row2.addStretch(1)
        grid.addLayout(row2, 6, 0, 1, 3)
        self.body.addWidget(box)

    def _build_auction(self) -> None:
        box = QGroupBox("Auction", self)
        v = QVBoxLayout(box)
        self.auction_label = plain_label(QLabel("", self))
        self.auction_label.setObjectName("auction_text")
        self.auction_label.setWordWrap(True)
        v.addWidget(self.auction_label)
        grid = QGridLayout()
        grid.setSpacing(2)
        self.call_buttons: dict[str, QPushButton] = {}
        for level in range(1, 8):
            for strain in range(5):
                st = Strain(strain)
                name = f"{level}{'N' if st == Strain.NOTRUMP else st.letter}"
                bid = Call.bid(level, strain)
                b = self._button(
                    f"call_{name}",
                    f"{level}{st.symbol}",
                    f"Bid {level} {st.name.lower()}",
                    lambda c=bid: self.make_call(c),
                )
                b.setMinimumWidth(30)
                if st in (Strain.HEARTS, Strain.DIAMONDS):
                    b.setStyleSheet(f"QPushButton {{ color: {RED}; }} QPushButton:disabled {{ color: {PALE_RED}; }}")
                grid.addWidget(b, level - 1, strain)
                self.call_buttons[name] = b
        for col, (name, text, call) in enumerate(
            (
                ("P", "Pass", Call(CallKind.PASS)),
                ("X", "X", Call(CallKind.DOUBLE)),
                ("XX", "XX", Call(CallKind.REDOUBLE)),
            )
        ):
            b = self._button(
                f"call_{name}",
                text,
                {"P": "Pass", "X": "Double", "XX": "Redouble"}[name],
                lambda c=call: self.make_call(c),
            )
            grid.addWidget(b, 7, col)
            self.call_buttons[name] = b
        undo = self._button("call_undo", "Undo call", "Take back the last call", self.undo_call)
        grid.addWidget(undo, 7, 3, 1, 2)
        for col in range(5):
            grid.setColumnStretch(col, 1)
        for b in [*self.call_buttons.values(), undo]:  # equal columns, whatever each label's width
            b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        v.addLayout(grid)
        self.call_entry = self._line("call_entry", "Call to make", "type a call (1H, 3NT, P, X, XX) and Enter")
        self.call_entry.returnPressed.connect(self.call_typed)
        v.addWidget(self.call_entry)
        row = QHBoxLayout()
        self.alert_flag = QCheckBox("Alert", self)
        self.alert_flag.setObjectName("call_alert_flag")
        self.call_alert = self._line("call_alert", "Alert explanation of the next call", "explanation (alerts)")
        row.addWidget(self.alert_flag)
        row.addWidget(self.call_alert, 1)
        v.addLayout(row)
        self.contract_label = plain_label(QLabel("", self))
        self.contract_label.setObjectName("auction_contract")
        v.addWidget(self.contract_label)
        self.body.addWidget(box)

    def _build_play(self) -> None:
        box = QGroupBox("Play", self)
        grid = QGridLayout(box)
        self.play_entry = self._line("play_entry", "Card to play", "card, e.g. SA or h10, then Enter")
        self.play_entry.returnPressed.connect(self.play_typed)
        grid.addWidget(self.play_entry, 0, 0, 1, 2)
        grid.addWidget(self._button("play_undo", "Undo card", "Take back the last card or claim", self.undo_card), 0, 2)
        self.click_plays = QCheckBox("Clicking a card plays it", self)
        self.click_plays.setObjectName("click_plays")
        self.click_plays.setChecked(True)
        self.click_plays.setToolTip(
            "On: a click on a card of the recorded play replays up to it, a click on a "
            "card of the player to play plays it.\nOff: a click picks the card up to "
            "move it to another hand."
        )
        self.click_plays.toggled.connect(self._click_mode_changed)
        grid.addWidget(self.click_plays, 1, 0, 1, 3)
        grid.addWidget(QLabel("Declarer takes", self), 2, 0)
        self.claim_tricks = QSpinBox(self)
        self.claim_tricks.setObjectName("claim_tricks")
        self.claim_tricks.setAccessibleName("Tricks declarer takes in all after the claim")
        self.claim_tricks.setRange(0, 13)
        grid.addWidget(self.claim_tricks, 2, 1)
        grid.addWidget(
            self._button("claim_apply", "Claim", "Declarer claims this many tricks in all", self.apply_claim), 2, 2
        )
        self.play_status = plain_label(QLabel("", self))  # a play problem quotes the file
        self.play_status.setObjectName("play_status")
        self.play_status.setWordWrap(True)
        grid.addWidget(self.play_status, 3, 0, 1, 3)
        self.body.addWidget(box)

    def _build_tags(self) -> None:
        box = QGroupBox("Board tags", self)
        form = QFormLayout(box)
        self.tag_edits: dict[str, QLineEdit] = {}
        for name in TEXT_TAGS + VALUE_TAGS:
            edit = self._line(f"tag_{name}", name)
            edit.editingFinished.connect(lambda n=name: self.apply_tag(n))
            form.addRow(name, edit)
            self.tag_edits[name] = edit
        self.notes = NotesEdit(self)
        self.notes.setObjectName("tag_Notes")
        self.notes.setAccessibleName("Notes and commentary")
        self.notes.setFixedHeight(64)
        self.notes.editingFinished.connect(self.apply_notes)
        form.addRow("Notes", self.notes)
        form.addRow(
            self._button(
                "tags_to_all",
                "Event, site, date to all boards",
                "Give every board this board's event, site and date",
                self.header_to_all,
            )
        )
        self.tag_status = plain_label(QLabel("", self))  # quotes the typed tag
        self.tag_status.setObjectName("tag_status")
        self.tag_status.setWordWrap(True)
        form.addRow(self.tag_status)
        self.body.addWidget(box)

    def _build_file(self) -> None:
        box = QGroupBox("File", self)
        form = QFormLayout(box)
        self.file_edits: dict[str, QLineEdit] = {}
        for name in HEADER_FIELDS:
            edit = self._line(f"file_{name.title()}", f"File {name}")
            edit.editingFinished.connect(lambda n=name: self.apply_file_field(n))
            form.addRow(f"File {name}", edit)
            self.file_edits[name] = edit
        self.dup_random = QCheckBox("Random", self)
        self.dup_backwards = QCheckBox("Backwards", self)
        self.dup_first = QSpinBox(self)
        self.dup_copies = QSpinBox(self)
        self.dup_last = QSpinBox(self)
        for spin, name, high in (
            (self.dup_first, "dup_first_board", 9999),
            (self.dup_copies, "dup_copies", 99),
            (self.dup_last, "dup_last_board", 9999),
        ):
            spin.setObjectName(name)
            spin.setRange(0, high)
            spin.setSpecialValueText("—")
            spin.editingFinished.connect(self.apply_dup)
        self.dup_random.setObjectName("dup_random")
        self.dup_backwards.setObjectName("dup_backwards")
        for tick in (self.dup_random, self.dup_backwards):
            tick.toggled.connect(lambda _on: self.apply_dup())
        checks = QHBoxLayout()
        checks.addWidget(self.dup_random)
        checks.addWidget(self.dup_backwards)
        form.addRow("Duplimate", checks)
        form.addRow("First board", self.dup_first)
        form.addRow("Copies", self.dup_copies)
        form.addRow("Last board", self.dup_last)
        self.body.addWidget(box)

    # -- the document followed --------------------------------------------------------------
    def set_view(self, view) -> None:
        """Follow ``view`` (a DocumentView, or None for no bridge tab)."""
        if view is self.view:
            return
        old = self.view
        if old is not None:
            try:
                old.currentBoardChanged.disconnect(self._board_changed)
                old.model.boardChanged.disconnect(self._board_edited)
                old.model.modelReset.disconnect(self.refresh)
                old.diagram.removeEventFilter(self)
            except (RuntimeError, TypeError, SystemError):  # the view's C++ side may be gone already
                pass
        self.view = view
        self._shown.clear()
        self._selected_card = None
        self.clear_inputs()
        if view is not None:
            view.currentBoardChanged.connect(self._board_changed)
            view.model.boardChanged.connect(self._board_edited)
            view.model.modelReset.connect(self.refresh)
            view.diagram.installEventFilter(self)
            view.diagram.click_plays = self.click_plays.isChecked()
        self.refresh()

    def _click_mode_changed(self, on: bool) -> None:
        """Off is the card-moving mode: the replay's click-plays-up-to-the-card (ui/window/keyboard.py) stops too."""
        if self.view is not None:
            self.view.diagram.click_plays = on

    def board(self) -> Board | None:
        return self.view.current_board() if self.view is not None else None

    def _board_changed(self, i: int) -> None:
        self._selected_card = None
        if i != self._inputs_index:  # another board (an edit re-shows the same one: what is typed stays)
            self.clear_inputs()
        self.refresh()

    def clear_inputs(self) -> None:
        """Forget what was typed for the board shown before (a call, its alert, a card, a claim): on another
        board or tab it would be applied to a board it was not meant for."""
        for edit in (self.call_entry, self.call_alert, self.play_entry):
            edit.clear()
        self.alert_flag.setChecked(False)
        board = self.board()
        self._inputs_index = self.view.current_index() if self.view is not None else -1
        if board is not None and board.claim is not None:
            self.claim_tricks.setValue(board.claim)
        else:  # the least declarer can claim: the tricks won so far
            self.claim_tricks.setValue(play_state(board or Board()).declarer_tricks)

    def _board_edited(self, i: int) -> None:
        if self.view is not None and i == self.view.current_index():
            self.refresh()

    def _set_if_changed(self, key: str, edit: QLineEdit, text: str) -> None:
        """Show ``text`` unless it is what this field already showed for this board (a typed, not yet
        applied value survives a background change such as a solved DD table)."""
        index = self.view.current_index() if self.view is not None else -1
        if self._shown.get(key) != (index, text):
            self._shown[key] = (index, text)
            edit.setText(text)

    def refresh(self) -> None:
        """Show the current board in every section."""
        board = self.board()
        self.setEnabled(board is not None)
        b = board or Board()
        self._refreshing = True  # showing a board is not typing: no fourth hand is filled in meanwhile
        self._autofilled = None
        try:
            for seat, edit in enumerate(self.hand_edits):
                hand = b.deal.hands[seat]
                self._set_if_changed(f"hand{seat}", edit, hand_text(hand, TEN["text"]) if hand else "")
        finally:
            self._refreshing = False
        self._hands_typed(fill=False)
        for name, edit in self.tag_edits.items():
            self._set_if_changed(f"tag{name}", edit, self._tag_value(b, name))
            if name.lower() in HEADER_FIELDS and self.view is not None:
                edit.setPlaceholderText(getattr(self.view.boards.info, name.lower()) or "")
        notes = "\n".join(b.notes)
        if self._shown.get("notes") != (self.view.current_index() if self.view else -1, notes):
            self._shown["notes"] = (self.view.current_index() if self.view else -1, notes)
            self.notes.setPlainText(notes)
        self.tag_status.setText("")
        info = getattr(self.view.boards, "info", None) if self.view is not None else None
        for name, edit in self.file_edits.items():
            self._set_if_changed(f"file{name}", edit, (getattr(info, name) or "") if info is not None else "")
        dup = info.dup if info is not None and info.dup is not None else DupControl()
        for tick, on in ((self.dup_random, dup.random), (self.dup_backwards, dup.backwards)):
            tick.blockSignals(True)
            tick.setChecked(bool(on))
            tick.blockSignals(False)
        for spin, number in (
            (self.dup_first, dup.first_board),
            (self.dup_copies, dup.copies),
            (self.dup_last, dup.last_board),
        ):
            spin.blockSignals(True)
            spin.setValue(number or 0)
            spin.blockSignals(False)
        self._refresh_auction(b)
        self._refresh_play(b)

    @staticmethod
    def _tag_value(b: Board, name: str) -> str:
        if name == "Contract":
            return str(b.contract) if b.contract is not None else b.tags.get("Contract", "")
        if name == "Declarer":
            return b.declarer.letter if b.declarer is not None else b.tags.get("Declarer", "")
        if name == "Result":
            return str(b.result) if b.result is not None else b.tags.get("Result", "")
        return b.tags.get(name, "")

    def _push(self, new: Board, text: str) -> None:
        if self.view is not None:
            set_board(self.view, new, text)

    # -- deal ---------------------------------------------------------------------------------
    def typed_hands(self):
        return check_hands([e.text() for e in self.hand_edits], fill=False)

    def _hands_typed(self, _text: str = "", fill: bool = True) -> None:
        check = self.typed_hands()
        for seat, label in enumerate(self.hand_counts):
            n = check.counts[seat]
            label.setText("?" if n is None else str(n))
            label.setStyleSheet(f"color: {RED}" if n is None or n > 13 else "")
        problems = check.problems(card_name)  # ♣K and 10, as the diagram writes them
        self.deal_status.setText("\n".join(problems) if problems else "")
        self.deal_status.setStyleSheet(f"color: {RED}" if problems else "")
        self.deal_apply.setEnabled(check.deal is not None)
        if not fill or self._refreshing:
            return
        # three complete hands typed: the fourth gets the rest of the pack
        full = check_hands([e.text() for e in self.hand_edits], fill=True)
        if full.filled is not None and not self.hand_edits[full.filled].hasFocus():
            edit = self.hand_edits[full.filled]
            edit.blockSignals(True)
            edit.setText(hand_text(full.masks[full.filled] or 0, TEN["text"]))
            edit.blockSignals(False)
            self._autofilled = (full.filled, edit.text())
            self._hands_typed(fill=False)

    def _hand_entered(self, seat: int) -> None:
        """Enter in a hand line: apply a complete deal, else go on to the next hand (one undo step a deal)."""
        deal = check_hands([e.text() for e in self.hand_edits], fill=True).deal
        if deal is not None and (deal.is_complete or seat == 3):
            self.apply_deal()
        else:
            self.hand_edits[(seat + 1) % 4].setFocus()

    def _push_deal(self, board: Board, deal, text: str) -> None:
        """A new deal for ``board`` (one undo step), saying what of the recorded play no longer fits it."""
        new = with_deal(board, deal)
        self._push(new, text)
        before, after = len(board.play or ()), len(new.play or ())
        if after < before:
            gone = [plural(before - after, "card")]
            if board.claim is not None:
                gone.append("the claim")
            if board.result is not None and new.result is None:
                gone.append("the result")
            what = " and ".join([", ".join(gone[:-1]), gone[-1]] if len(gone) > 1 else gone)
            self.deal_status.setText(
                f"The recorded play no longer fits this deal: {what} dropped (Undo brings them back)."
            )
            self.deal_status.setStyleSheet("")

    def apply_deal(self) -> bool:
        """Apply the four typed hands to the board (one undo step); False when they do not make a deal."""
        board = self.board()
        deal = check_hands([e.text() for e in self.hand_edits], fill=True).deal
        if board is None or deal is None:
            return False
        if deal != board.deal:
            self._push_deal(board, deal, f"Enter the deal of board {board.number or ''}".strip())
        return True

    def rotate(self, steps: int = 1) -> None:
        board = self.board()
        if board is not None and not board.deal.is_empty:
            self._push_deal(board, rotate_deal(board.deal, steps), "Rotate the deal")

    def swap(self, a: int | None = None, b: int | None = None) -> None:
        board = self.board()
        a = self.swap_a.currentIndex() if a is None else a
        b = self.swap_b.currentIndex() if b is None else b
        if board is not None and a != b:
            self._push_deal(board, swap_hands(board.deal, a, b), f"Swap {SEAT_NAMES[a]} and {SEAT_NAMES[b]}")

    def clear_deal(self) -> None:
        board = self.board()
        if board is not None and not board.deal.is_empty:
            from ...model.deal import Deal

            self._push_deal(board, Deal.empty(), "Clear the deal")

    def move_card(self, card: int, seat: int) -> None:
        board = self.board()
        if board is not None and board.deal.owner(card) != seat:
            self._push_deal(board, board.deal.with_card(card, seat), f"Move {card_name(card)} to {SEAT_NAMES[seat]}")

    # -- auction -----------------------------------------------------------------------------
    def _refresh_auction(self, b: Board) -> None:
        calls = list(b.auction or [])
        dealer = b.effective_dealer
        parts = []
        for i, c in enumerate(calls):
            seat = Seat((int(dealer) + i) % 4)
            parts.append(f"{seat.letter} {c.symbol_text()}{'!' if c.alert else ''}")
        legal = legal_calls(calls, dealer)
        legal_names = {self._call_name(c) for c in legal}
        for name, button in self.call_buttons.items():
            button.setEnabled(name in legal_names)
        self.call_buttons["P"].setEnabled(bool(legal))
        text = ", ".join(parts) if parts else "No calls yet."
        if legal:
            text += f"  — {SEAT_NAMES[next_caller(calls, dealer)]} to call."
        else:
            text += "  — the auction is over."
        self.auction_label.setText(text)
        contract, declarer = b.contract_and_declarer()
        if contract is None:
            self.contract_label.setText("Contract: (auction not finished)" if calls else "")
        elif contract.is_passed_out or declarer is None:
            self.contract_label.setText(f"Contract: {contract.symbol_text()}")
        else:
            self.contract_label.setText(f"Contract: {contract.symbol_text()} by {SEAT_NAMES[declarer]}")

    @staticmethod
    def _call_name(c: Call) -> str:
        """The bidding-box button of call ``c``: the call as written, notrump as ``N`` (``1N``, ``X``, ``P``)."""
        return str(c).replace("NT", "N")

    def make_call(self, call: Call) -> bool:
        """Add ``call`` to the auction (with the alert typed); False when it is not legal now."""
        board = self.board()
        if board is None:
            return False
        calls = list(board.auction or [])
        if not any(call.same_call(c) for c in legal_calls(calls, board.effective_dealer)):
            why = "the auction is over" if not legal_calls(calls, board.effective_dealer) else "not legal now"
            self.contract_label.setText(f"{call.symbol_text()} refused: {why}")
            return False
        explanation = self.call_alert.text().strip()
        if explanation or self.alert_flag.isChecked():
            call = call.annotated(alert=True, explanation=explanation or None)
        self._push(with_auction(board, [*calls, call]), f"Call {call.symbol_text()}")
        self.call_alert.clear()
        self.alert_flag.setChecked(False)
        return True

    def call_typed(self) -> bool:
        """The keyboard way to bid: the call typed in ``call_entry``."""
        text = self.call_entry.text().strip()
        try:
            call = Call.parse(text)
        except ValueError:
            self.contract_label.setText(f"{text!r} is not a call: type e.g. 1H, 3NT, P, X or XX")
            return False
        if self.make_call(call):
            self.call_entry.clear()
            return True
        return False

    def undo_call(self) -> None:
        board = self.board()
        if board is not None and board.auction:
            calls = list(board.auction)
            gone = calls.pop()
            self._push(with_auction(board, calls), f"Take back {gone.symbol_text()}")

    # -- play --------------------------------------------------------------------------------
    def _refresh_play(self, b: Board) -> None:
        st = play_state(b)
        contract, declarer = b.contract_and_declarer()
        if contract is None or declarer is None or contract.is_passed_out:
            text = "No contract yet: finish the auction (or type the contract and declarer)."
        elif st.problem:
            text = f"The play stops: {st.problem}."
        elif st.to_play is not None:
            text = f"{SEAT_NAMES[st.to_play]} to play. Declarer has {plural(st.declarer_tricks, 'trick')}."
        elif b.claim is not None:
            text = f"Declarer claimed {plural(b.claim, 'trick')}."
        elif not b.deal.card_count:
            text = "No cards to play: enter the deal first."
        else:
            text = "The play is over."
        if b.result is not None:
            text += f" Result: {plural(b.result, 'trick')}."
        self.play_status.setText(text)
        self.play_status.setStyleSheet("")
        playing = st.to_play is not None
        self.play_entry.setEnabled(playing)
        self.claim_tricks.setEnabled(
            declarer is not None and contract is not None and not contract.is_passed_out and bool(b.deal.card_count)
        )
        if b.claim is not None:
            self.claim_tricks.setValue(b.claim)

    def play_card(self, card: int) -> bool:
        """Play ``card`` for the player to play; False (with the reason shown) when it is not legal."""
        board = self.board()
        if board is None:
            return False
        st = play_state(board)
        if st.to_play is None:
            self._play_refused("no card can be played now")
            return False
        if not st.legal >> int(card) & 1:
            owner = board.deal.owner(card)
            if owner is not None and owner == st.to_play and st.legal:
                suit = Suit(cards_of(st.legal)[0] // 13)
                self._play_refused(f"{card_name(card)} refused: {SEAT_NAMES[st.to_play]} must follow {suit.symbol}")
            else:
                self._play_refused(
                    f"{card_name(card)} refused: {SEAT_NAMES[st.to_play]} is to play and does not hold it"
                )
            return False
        self._push(with_play(board, [*(board.play or []), Card(int(card))]), f"Play {card_name(card)}")
        self._to_end()
        return True

    def _to_end(self) -> None:
        if self.view is not None:
            self.view.replay.to_end()

    def _play_refused(self, text: str) -> None:
        self.play_status.setText(text)
        self.play_status.setStyleSheet(f"color: {RED}")

    def play_typed(self) -> bool:
        text = self.play_entry.text().strip()
        try:
            card = Card.parse(text)
        except ValueError:
            self._play_refused(f"{text!r} is not a card: type a suit and a rank, e.g. SA, H10 or d7")
            return False
        if self.play_card(card):
            self.play_entry.clear()
            return True
        return False

    def undo_card(self) -> None:
        board = self.board()
        if board is None:
            return
        if board.claim is not None:
            self._push(with_play(board, board.play, None), "Take back the claim")
        elif board.play:
            gone = board.play[-1]
            self._push(with_play(board, list(board.play[:-1])), f"Take back {card_name(gone)}")
        self._to_end()

    def apply_claim(self, tricks: int | None = None) -> bool:
        """Declarer claims ``tricks`` (default: the spin box) in all; refused when impossible after the play."""
        board = self.board()
        if board is None:
            return False
        n = self.claim_tricks.value() if tricks is None else tricks
        st = play_state(board)
        if st.declarer is None:
            self._play_refused("a claim needs a contract and a declarer")
            return False
        won, played = st.declarer_tricks, st.played
        left = 13 - played // 4
        if not won <= n <= won + left:
            self._play_refused(f"declarer cannot take {n} tricks: {won} won, {left} still to play")
            return False
        self._push(with_play(board, board.play, n), f"Claim {plural(n, 'trick')}")
        self._to_end()
        return True

    # -- tags ----------------------------------------------------------------------------------
    def apply_tag(self, name: str) -> bool:
        board = self.board()
        if board is None:
            return False
        text = self.tag_edits[name].text().strip()
        if text == self._tag_value(board, name):
            return True
        try:
            if name == "Contract":
                new = board.touched(contract=Contract.parse(text) if text else None)
                new.tags.pop("Contract", None)
            elif name == "Declarer":
                new = board.touched(declarer=Seat.from_letter(text) if text else None)
                new.tags.pop("Declarer", None)
            elif name == "Result":
                n = int(text) if text else None
                if n is not None and not 0 <= n <= 13:
                    raise ValueError(f"{n} tricks is impossible")
                new = board.touched(result=n)
                new.tags.pop("Result", None)
            else:
                tags = dict(board.tags)
                if text:
                    tags[name] = text
                else:
                    tags.pop(name, None)
                new = board.touched(tags=tags)
        except ValueError as e:
            self.tag_status.setText(f"{name}: {e}")
            self.tag_status.setStyleSheet(f"color: {RED}")
            return False
        self._push(new, f"Set {name}")
        return True

    def apply_notes(self) -> None:
        board = self.board()
        if board is None:
            return
        text = self.notes.toPlainText().strip()
        notes = [text] if text else []
        if notes != [n for n in board.notes if n.strip()] and "\n".join(board.notes).strip() != text:
            self._push(board.touched(notes=notes), "Set notes")

    def header_to_all(self) -> None:
        """Give every board, and the file's header, the event, site and date in the fields (one undo step);
        an empty field removes the board tag."""
        from ..document.boardset_commands import BoardListCommand

        board = self.board()
        if board is None or self.view is None:
            return
        values = {n: self.tag_edits[n].text().strip() or None for n in ("Event", "Site", "Date")}
        new = []
        for b in self.view.boards:
            tags = dict(b.tags)
            for k, v in values.items():
                if v:
                    tags[k] = v
                else:
                    tags.pop(k, None)
            new.append(b.touched(tags=tags))
        # the file's own header too, so formats that keep only a file-level event (LIN's vg) keep it
        stack = self.view.undo_stack
        stack.beginMacro("Event, site and date to all boards")
        stack.push(BoardListCommand(self.view, new, "Event, site and date to all boards", self.view.current_index()))
        stack.push(
            FileInfoCommand(self.view, "Event, site and date of the file", **{k.lower(): v for k, v in values.items()})
        )
        stack.endMacro()

    def apply_file_field(self, name: str) -> None:
        if self.view is None:
            return
        info = self.view.boards.info
        text = self.file_edits[name].text().strip() or None
        if text != getattr(info, name):
            self.view.undo_stack.push(FileInfoCommand(self.view, f"Set the file's {name}", **{name: text}))

    def apply_dup(self) -> None:
        if self.view is None:
            return
        info = self.view.boards.info
        dup = DupControl(
            self.dup_random.isChecked(),
            self.dup_backwards.isChecked(),
            self.dup_first.value() or 1,
            self.dup_copies.value() or None,
            self.dup_last.value() or None,
        )
        old = info.dup if info.dup is not None else DupControl()
        if dup != old:
            self.view.undo_stack.push(FileInfoCommand(self.view, "Set the dealing-machine fields", dup=dup))

    # -- clicks in the diagram ----------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj in self.hand_edits:
            self._typing_into_hand(obj, event)
            return False
        view = self.view
        if view is None or obj is not view.diagram or not self.isVisible():
            return False  # a closed editor leaves the diagram to the viewer: no unseen card pick-ups or plays
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            return self.diagram_clicked(QPointF(event.position()))
        if kind == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
            return self.diagram_released(QPointF(event.position()))
        return False

    def _typing_into_hand(self, edit: QLineEdit, event: QEvent) -> None:
        """A key typed into a hand the panel completed replaces that hand (the user types it themselves)."""
        filled = self._autofilled
        if (
            filled is None
            or not isinstance(event, QKeyEvent)
            or event.type() != QEvent.Type.KeyPress
            or not event.text().strip()
        ):
            return
        seat, text = filled
        self._autofilled = None
        if edit is self.hand_edits[seat] and edit.text() == text:
            edit.blockSignals(True)  # an empty line now would be completed again at once
            edit.clear()
            edit.blockSignals(False)

    def _seat_at(self, pos: QPointF) -> Seat | None:
        for seat in Seat:
            box = self.view.diagram.hand_box(seat) if self.view is not None else None
            if box is not None and box.contains(pos):
                return seat
        return None

    def diagram_clicked(self, pos: QPointF) -> bool:
        """A left press in the diagram: play a card, pick a card up, or drop the picked card on a hand."""
        view = self.view
        board = self.board()
        self._pressed_card = None
        if view is None or board is None:
            return False
        card = view.diagram.card_at(pos)
        if (
            card is not None
            and self._selected_card is None
            and view.diagram.click_plays
            and card in {int(c) for c in board.play or ()}
        ):
            return False  # a card of the recorded play: the diagram's own click replays up to it
        if card is not None and self.click_plays.isChecked() and play_state(board).to_play is not None:
            self.play_card(card)
            return True
        if card is not None and self._selected_card is None:
            self._selected_card = self._pressed_card = card
            self.deal_status.setText(f"{card_name(card)} picked up: click a hand (or drag it there) to move it.")
            self.deal_status.setStyleSheet("")
            return True
        if self._selected_card is not None:
            target = self._seat_at(pos)
            picked, self._selected_card = self._selected_card, None
            if target is not None:
                self.move_card(picked, int(target))
            else:
                self._hands_typed(fill=False)
            return True
        return False

    def diagram_released(self, pos: QPointF) -> bool:
        """The end of a drag: a card pressed in one hand and released over another moves there."""
        card, self._pressed_card = self._pressed_card, None
        board = self.board()
        if card is None or board is None:
            return False
        target = self._seat_at(pos)
        if target is None or target == board.deal.owner(card):
            return False  # a plain click: the card stays picked up for a click on a hand
        self._selected_card = None
        self.move_card(card, int(target))
        return True


__all__ = ["EditPanel", "TEXT_TAGS", "VALUE_TAGS"]
