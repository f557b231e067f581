"""Saving an unchanged binary file byte for byte.

Binary readers normalise what they read (DUP control fields, BRI padding, ZRJ
spare bits): writing the model back could change bytes the user never touched.
``read_file`` remembers where a binary set came from and what it held; saving
that set, unchanged, to the same format copies the file as it was instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from ..model.boardset import CUT_WHILE_READ, BoardSource, FileChangedError, is_board_source

if TYPE_CHECKING:
    from .codec import AnyCodec, Boards, WriteOptions

#: ``FileInfo.extra`` key of the :class:`Original` a binary set was read from
KEY = "verbatim"
#: sets of more boards than this that are not lazily read are not fingerprinted (too slow to be worth it)
MAX_FINGERPRINTED = 50_000  # about 6 µs a board: at most a third of a second when opening


@dataclass(frozen=True)
class Original:
    """The file a set was read from, as it was then, and what the set said then."""

    path: str
    size: int
    mtime_ns: int
    codec: str
    key: tuple[object, ...]


def _key(doc: BoardSource) -> tuple[object, ...] | None:
    """What the set says: its file info, its length, and each board unless it is read lazily
    (a lazy set knows itself whether it was edited).  None when too big to fingerprint."""
    info = doc.info
    head = (info.event, info.site, info.date, repr(info.dup), len(doc))
    if doc.kind.lazy:
        return head
    if len(doc) > MAX_FINGERPRINTED:
        return None
    from ..model.board import board_key  # (a lazy set, a record copy's, makes no board: the model stays unimported)

    return head + (hash(tuple(board_key(b) for b in doc)),)


def remember(doc: BoardSource, codec: AnyCodec, path: str | os.PathLike[str]) -> None:
    """Note where a just-read binary bridge set came from (called by ``read_file``)."""
    info = doc.info
    if not codec.binary or codec.kind != "bridge":
        return
    key = _key(doc)
    if key is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return
    info.extra[KEY] = Original(str(path), st.st_size, st.st_mtime_ns, codec.name, key)


def original_writer(doc: Boards, codec: AnyCodec, options: WriteOptions | None) -> Callable[[IO[bytes]], None] | None:
    """A ``write(fileobj)`` that copies the original file when ``doc`` is unchanged since it was
    read and goes back to the same format with default options; else None."""
    if not is_board_source(doc):  # boards that are no set read from a file
        return None
    info = doc.info
    original = info.extra.get(KEY) if info.extra else None
    if not isinstance(original, Original) or original.codec != codec.name:
        return None
    if options is not None and (options.start_board, options.encoding, options.newline) != (None, None, None):
        return None
    if doc.edited:  # a lazy set with edits, or boards inserted or deleted
        return None
    if info.extra.get("broken_tail"):  # a truncated copy is saved whole, without its broken end
        return None
    try:
        st = os.stat(original.path)
    except OSError:
        return None
    if (st.st_size, st.st_mtime_ns) != (original.size, original.mtime_ns) or _key(doc) != original.key:
        return None

    def write(out: IO[bytes]) -> None:
        # exactly the bytes read: a file cut short on disk since (saved in place by another program) was copied
        # short, mid-record, exit 0
        with open(original.path, "rb") as f:
            left = original.size
            while left:
                piece = f.read(min(left, 1 << 20))
                if not piece:
                    raise FileChangedError(None, CUT_WHILE_READ, original.path)
                out.write(piece)
                left -= len(piece)

    return write
