"""The UI side of an open document, and the base of every tab that shows one.

:class:`OpenDocument` is a :class:`~bridgeview.app.document.Document` with
its undo stack and a ``modifiedChanged`` signal.  :class:`DocumentTab` is what
the main window's tabs hold (the bridge :class:`DocumentView`, the
:class:`CribbageView`): the window opens, titles, saves and closes any of them
the same way, through ``tab.document``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from ...app.document import Document
from ...model.boardset import BoardSet

if TYPE_CHECKING:  # the game's model comes with its codec (not imported to open a bridge file)
    from ...model.cribbage import CribbageRecord

#: what a tab is made of: a document, or the content to make one of (boards, a cribbage game)
TabSource: TypeAlias = "Document | BoardSet | CribbageRecord"


class OpenDocument(QObject):
    """A document in a tab: the Qt-free core, its undo stack, and whether it holds unsaved changes."""

    modifiedChanged = Signal(bool)

    def __init__(self, core: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)  # a slot of ours: never called once we are gone

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean() or self.core.changed_outside_undo

    def _clean_changed(self, _clean: bool) -> None:
        self.modifiedChanged.emit(self.is_modified())

    def mark_changed(self) -> None:
        """Something unsaved that is not an undo step (a set that was never saved): the document needs saving."""
        if not self.core.changed_outside_undo:
            self.core.changed_outside_undo = True
            self.modifiedChanged.emit(True)

    def mark_saved(self, path: str, format_name: str) -> None:
        """After a save: the document now lives at ``path`` in ``format_name``."""
        self.core.saved_as(path, format_name)
        self.undo_stack.setClean()
        self.modifiedChanged.emit(False)

    def title(self) -> str:
        """The tab title: the file name, with `` *`` while there is something to save."""
        return self.core.name + (" *" if self.is_modified() else "")


class DocumentTab(QWidget):
    """A tab of the main window showing one document (bridge board set or cribbage game)."""

    #: the document gained or lost unsaved changes
    modifiedChanged = Signal(bool)

    def __init__(
        self,
        source: TabSource,
        path: str | None = None,
        parent: QWidget | None = None,
        *,
        untitled_name: str | None = None,
    ) -> None:
        """``untitled_name`` is the title while the document has no file ("Pasted boards")."""
        super().__init__(parent)
        core = source if isinstance(source, Document) else Document.of(source, path)
        if untitled_name is not None:
            core.untitled_name = untitled_name
        self.document = OpenDocument(core, self)
        self.document.modifiedChanged.connect(self.modifiedChanged.emit)

    # the document's facts, under the names the rest of the UI (and its tests) use
    @property
    def path(self) -> str | None:
        return self.document.core.path

    @property
    def format_name(self) -> str | None:
        return self.document.core.format_name

    @property
    def untitled_name(self) -> str:
        return self.document.core.untitled_name

    @property
    def undo_stack(self) -> QUndoStack:
        return self.document.undo_stack

    def is_modified(self) -> bool:
        return self.document.is_modified()

    def title(self) -> str:
        return self.document.title()

    def mark_saved(self, path: str, format_name: str) -> None:
        """After a save: the document now lives at ``path`` in ``format_name``."""
        self.document.mark_saved(path, format_name)

    def shutdown(self) -> None:
        """Stop background work (threads, timers) before the tab goes; a tab with none has nothing to do."""

    def card_text_changed(self) -> None:
        """The ten is written another way (View › Write the Ten as T): redraw what shows cards that way."""


__all__ = ["DocumentTab", "OpenDocument", "TabSource"]
