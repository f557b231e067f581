"""One open file, whatever it holds: where it lives, its format and what it holds.

A GUI tab (a bridge board set or a cribbage game) and its save path work on a
:class:`Document`, so neither asks "is this a bridge tab?" to learn a file's
path or format.  The undo stack is the UI's (``ui/document/tab.py``); what is unsaved
outside it (a new set that has never been saved) is kept here, so "is there
something to save" has one answer, and so are the double-dummy tables solved
for display, which are not part of the content.  Qt-free: it sits on the app layer,
above the formats (a document knows its codec) and below the window and the command line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..formats.codec import AnyCodec, Content
from ..formats.errors import FormatError
from ..formats.registry import detect, get, read_file
from ..model.boardset import BoardSet, BoardSource, is_board_source
from ..model.ddtable import DDTable
from ..resources import resource

#: the two kinds of content a document holds (``Codec.kind`` names the same two)
BRIDGE = "bridge"
CRIBBAGE = "cribbage"


def bundled(path: str | None) -> bool:
    """Files shipped in resources/ (the sample boards) are never overwritten by Save."""
    if not path:
        return False
    return Path(path).resolve().parent == resource("sample.pbn").resolve().parent


def format_of(content: Content) -> str | None:
    """The format ``content`` was read from, as its reader recorded it (None for a new set)."""
    if not isinstance(content, BoardSource):  # a cribbage game (told apart without importing its model)
        return content.format
    return content.info.format  # a BoardSet or a lazy set over a file


def holds_work(content: Content) -> bool:
    """Whether content that has no file yet holds anything to lose: a board with cards (a generated or
    pasted set; File › New's one empty board is not work until something is typed into it)."""
    if not isinstance(content, BoardSource):  # a cribbage game
        return bool(content.deals)
    return any(board.deal.card_count for board in content)


@dataclass
class Document:
    """The content of one tab (a board set, eager or lazy, or a cribbage game) and the file it is."""

    content: Content
    path: str | None = None
    format_name: str | None = None
    #: the tab title while the document has no file (pasted boards, a new set)
    untitled_name: str = "Untitled"
    #: unsaved in a way that is not an undo step (a new set of boards, never saved): modified all the same
    changed_outside_undo: bool = field(default=False)
    #: double-dummy tables this app worked out, by deal (its hands): shown with the boards but not part of
    #: the content, so solving never makes a document modified; a save writes them only into a file it
    #: writes for another reason (or after the user added them to the boards, an undoable edit)
    solved: dict[tuple[int, int, int, int], DDTable] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.path is None and holds_work(self.content):
            self.changed_outside_undo = True  # generated or pasted boards are work until saved

    @classmethod
    def of(cls, content: Content, path: str | None = None) -> Document:
        """A document of ``content`` (read from ``path``, or new), in the format its reader recorded."""
        return cls(content, path, format_of(content))

    @classmethod
    def read(cls, path: str) -> Document:
        """Read ``path`` in the format its content shows; raises FormatError (or OSError) as the readers do."""
        path = os.path.abspath(path)
        codec = detect(path)
        return cls(read_file(path, codec.name), path, codec.name)

    @property
    def kind(self) -> str:
        """ "bridge" or "cribbage": which formats can hold it."""
        return BRIDGE if is_board_source(self.content) else CRIBBAGE  # (remembered by class: asked often)

    @property
    def codec(self) -> AnyCodec | None:
        """The codec of the document's own format, None when it has none (or an unknown one)."""
        if not self.format_name:
            return None
        try:
            return get(self.format_name)
        except FormatError:
            return None

    @property
    def format_title(self) -> str:
        codec = self.codec
        return codec.title if codec is not None else (self.format_name or "")

    @property
    def name(self) -> str:
        """The file's name, or the untitled name of a document without one."""
        return os.path.basename(self.path) if self.path else self.untitled_name

    @property
    def problems(self) -> list[tuple[int | None, int | None, str]]:
        """What the reader survived, as (board index or None, line or None, message)."""
        return self.content.problems if isinstance(self.content, BoardSet) else []  # a game's are its warnings

    @property
    def saves_in_place(self) -> bool:
        """Whether Save can write the document back to its own file in its own format (else Save As)."""
        codec = self.codec
        return codec is not None and codec.can_write and bool(self.path) and not bundled(self.path)

    @property
    def keeps_dd(self) -> bool:
        """Whether the document's own file can hold a solved DD table (so solving one is worth saving)."""
        codec = self.codec
        return codec is not None and codec.caps.dd and self.path is not None and not bundled(self.path)

    def saved_as(self, path: str, format_name: str) -> None:
        """After a save: the document is now the file ``path`` in ``format_name``, nothing unsaved."""
        self.path = path
        self.format_name = format_name
        self.changed_outside_undo = False


__all__ = ["BRIDGE", "CRIBBAGE", "Document", "bundled", "format_of", "holds_work"]
