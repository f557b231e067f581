"""Commentary at its step of the replay: a vugraph LIN's ``nt`` remarks under the diagram.

LIN files from BBO vugraph put each comment where it was made, in the auction or
after a card; the LIN reader keeps those places (``LinNoteAt``), and this label
shows the remarks made after the cards played so far (at the start: those made
during the auction).

In a file with commentary the label has a fixed place of :data:`LINES` lines,
empty at a step without a remark: lines that came and went made the diagram
above them jump at every card.  A file without commentary gives it no room.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from ...model.board import Board
from ...model.boardset import BoardSet
from ..document.board_model import some_board
from ..document.services import BoardView
from ..plaintext import plain_tooltip, set_plain_text
from .controls import ReplayController

#: lines of commentary shown under the replay bar (the tooltip has the rest)
MAX_LINES = 3
LINES = MAX_LINES


def file_has_commentary(boards: BoardSet) -> bool:
    """Whether boards of the set carry commentary with places in the play (a vugraph LIN)."""

    def placed(board: Board) -> bool:
        if not board.notes:
            return False
        from ...formats.lin.read import NOTE_AT_TAG  # LIN's reader: only for a board with notes

        return NOTE_AT_TAG in board.tags

    return some_board(boards, placed)


def notes_at_step(board: Board | None, step: int) -> list[str]:
    """The comments made right after card ``step`` (0: before the play) of a board whose notes have places."""
    if board is None or not board.notes:
        return []
    from ...formats.lin.read import NOTE_AT_TAG, note_places  # LIN's reader: only for a board with notes

    if NOTE_AT_TAG not in board.tags:
        return []
    return [note for (_calls, cards), note in zip(note_places(board), board.notes, strict=True) if cards == step]


class CommentaryLabel(QLabel):
    """The remarks of the replay's current step, hidden when there are none."""

    def __init__(self, document_view: BoardView, controller: ReplayController) -> None:
        super().__init__()
        self.view = document_view
        self.controller = controller
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # cut at the bottom, not both ends
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setObjectName("commentary")
        # one height whatever the step says, so the diagram above never changes size while stepping
        self.setFixedHeight(self.fontMetrics().lineSpacing() * LINES + 2 * self.margin() + 2)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # long lines wrap, never widen
        self.has_commentary = file_has_commentary(document_view.boards)
        self.setVisible(self.has_commentary)
        controller.positionChanged.connect(self.show_step)
        self.show_step(controller.position())

    def show_step(self, pos) -> None:
        notes = notes_at_step(self.view.current_board(), pos.step if pos is not None else 0)
        text = "\n".join(f"Comment: {n}" for n in notes)
        set_plain_text(self, text)  # file text: markup in a comment is shown, never rendered
        self.setToolTip(plain_tooltip(text))  # all of it, when more than LINES lines
        if notes and not self.has_commentary:  # a remark in a file that seemed to have none: give it its place
            self.has_commentary = True
            self.setVisible(True)
