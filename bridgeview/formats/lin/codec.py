"""BBO LIN as the registry sees it: sniffing, reading (lazily for big hand records), writing and the check.

A file opened and saved unchanged is written back byte for byte (:class:`LinSource`); a big file
read lazily (:mod:`.lazy`) is saved board by board, its untouched boards copied; any other set is
written a line at a time (:mod:`.stream`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import IO

from ...model.board import Board, board_key
from ...model.boardset import BoardSet, BoardSource, Numbered, is_board_source
from ...model.text import plural
from ..codec import (
    Boards,
    BridgeCodec,
    Capabilities,
    ChunkedConversion,
    ReadOptions,
    SaveReport,
    WriteOptions,
    board_tags,
    meaningful,
    source_info,
    uncounted,
)
from ..errors import FormatError
from ..lazytext import EditedBoards
from ..textcheck import UTF16_MESSAGE, decode_text, is_utf8, undecodable_problems, unencodable_loss_in, utf16_text
from . import lazy as lin_lazy
from . import stream as lin_stream
from .read import (
    OWN_TAGS,
    needs_rs,
    parse_text,
)
from .write import document_lines, unreadable_deal


@dataclass(frozen=True, slots=True)
class LinSource:
    """``Board.source`` of a LIN board: its place in the file and the model it was read as,
    so a file saved with nothing changed is written back byte for byte."""

    index: int
    key: tuple[object, ...]


def _file_key(doc: BoardSource) -> tuple[object, ...]:
    """What a LIN file says outside its boards, to notice edits of the file info."""
    info = doc.info
    extra = info.extra
    return (
        info.event,
        info.site,
        info.date,
        repr(extra.get("lin_vg")),
        repr(extra.get("lin_header")),
        repr(extra.get("lin_comments")),
        bool(extra.get("lin_rs")),
        len(doc),
    )


def _unchanged_original(doc: Boards, options: WriteOptions) -> bytes | None:
    """The file's bytes as read when nothing in ``doc`` changed since, else None."""
    if not is_board_source(doc):
        return None
    info = doc.info
    original = info.extra.get("lin_original")
    if original is None or info.format not in (None, "lin"):
        return None
    data: bytes
    data, key = original
    if key != _file_key(doc):
        return None
    if options.newline not in (None, info.extra.get("newline")) or options.encoding not in (
        None,
        info.extra.get("encoding"),
    ):
        return None
    for i, b in enumerate(doc):
        src = b.source
        if not isinstance(src, LinSource) or src.index != i or src.key != board_key(b):
            return None
    return data


class LinCodec(BridgeCodec):
    """BBO LIN files: hand records, tournament downloads and vugraph archives."""

    name = "lin"
    title = "BBO LIN"
    extensions = ("lin",)
    binary = False
    caps = Capabilities(
        full_deals=True,
        partial_deals=True,
        board_numbers=True,
        dealer_vul=True,
        auction=True,
        play=True,
        header=True,
        notes=True,
    )

    def sniff(self, head: bytes, size: int | None = None) -> int:
        text = head.decode("latin-1")
        body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
        start = body.lstrip()
        if re.match(r"(qx|vg|pn|md|st|ah|rs)\|", start, re.IGNORECASE):
            return 90
        if re.search(r"(^|\|)md\|\d?[SHDC]", body, re.IGNORECASE):
            return 60
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        options = options or ReadOptions()
        if not options.encoding and (options.lazy or os.path.getsize(path) >= lin_lazy.LAZY_MIN_BYTES):
            lazy = lin_lazy.read_lazy(path, options.start_board)  # big hand records: decoded on demand
            if lazy is not None:
                return lazy
        with open(path, "rb") as f:
            data = f.read()
        if not options.encoding and utf16_text(data):
            raise FormatError(UTF16_MESSAGE)
        decoded = decode_text(data, options.encoding)
        text, encoding = decoded.text, decoded.encoding
        try:
            doc = parse_text(text, options)
        except FormatError as e:
            e.path = e.path or str(path)
            raise
        if decoded.undecodable:  # bytes that are not characters: problems of the boards (or header) they are in
            doc.problems.extend(undecodable_problems(data, decoded.undecodable, doc.info.extra.get("board_lines")))
        doc.info.extra["encoding"] = encoding
        doc.info.extra["newline"] = "\r\n" if "\r\n" in text else "\n"
        for i, b in enumerate(doc):
            b.source = LinSource(i, board_key(b))
        doc.info.extra["lin_original"] = (data, _file_key(doc))
        return doc

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        options = options or WriteOptions()
        if lin_lazy.is_lazy_lin(doc):  # a big file read lazily: untouched boards copied, edited ones written
            extra = doc.info.extra
            newline = options.newline or extra.get("newline") or "\n"
            if lin_lazy.write_lazy(doc, out, options.encoding or extra.get("encoding") or "utf-8", newline):
                return
        original = _unchanged_original(doc, options)
        if original is not None:  # nothing changed: the file as it was (token and card order, nt places)
            out.write(original)
            return
        info = source_info(doc)
        extra = info.extra if info is not None else {}
        newline = options.newline or extra.get("newline") or "\n"
        encoding = options.encoding or extra.get("encoding") or "utf-8"
        lin_stream.write(doc, out, encoding, newline)  # line by line: a big set is never one text

    def chunked(self, doc: BoardSource, target: BridgeCodec, options: WriteOptions | None) -> ChunkedConversion | None:
        """Big hand records read lazily, unedited, to ZRD or ZBD: :mod:`.bulk`."""
        from . import bulk  # regular expressions compiled for big files only

        return bulk.CONVERSION if bulk.applies(doc, target, options) else None

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        if lin_lazy.is_lazy_lin(boards) and (options is None or not options.encoding):
            # a lazy set's untouched boards are written as read: only the edited ones can lose anything; one
            # that cannot be read is refused all the same, as it is in the file read whole
            boards = EditedBoards(boards, lin_lazy.unreadable_boards(boards.uncounted))
        elif (lazy := lin_stream.fast(boards)) is not None and not lazy.edited:
            return lin_stream.fast_check(self, lazy)  # a big binary set: counted from its chunks
        rep = super().check(boards, options)
        marks = results = tags = 0
        other_tags: set[str] = set()
        info = source_info(boards)
        for i, b in enumerate(uncounted(boards)):  # the generic check's pass moved the progress bar
            if not b.unreadable and not b.deal.is_complete:  # (an unreadable one is refused already)
                why = unreadable_deal(b, _where(boards, i, b))
                if why is not None:
                    rep.errors.append(why)
            if b.play_marks or any(c.mark or c.note is not None for c in b.auction or ()):
                marks += 1
            if (b.result is not None or b.declarer is not None) and b.contract is None and needs_rs(b):
                results += 1
            extra_tags = set(board_tags(b, info)) - OWN_TAGS  # the header has its own line below
            if extra_tags:
                tags += 1
                other_tags |= extra_tags
        if marks:
            rep.losses.append(f"call and card punctuation of {plural(marks, 'board')}")
        if results:
            rep.losses.append(f"declarers and results without a contract on {plural(results, 'board')}")
        if tags:
            names = ", ".join(sorted(other_tags)[:6]) + ("…" if len(other_tags) > 6 else "")
            rep.losses.append(f"tags LIN has no place for ({names}) on {plural(tags, 'board')}")
        if info is not None and (meaningful(info.site) or meaningful(info.date)):
            rep.losses.append("the site and date (LIN keeps only the event)")
        encoding = (
            (options.encoding if options else None)
            or (info.extra.get("encoding") if info is not None else None)
            or "utf-8"
        )
        if not is_utf8(encoding):  # UTF-8 holds every character
            loss = unencodable_loss_in(document_lines(uncounted(boards)), encoding)
            if loss:
                rep.losses.append(loss)
        return rep


def _where(boards: Boards, index: int, board: Board) -> str:
    """How a save error names board ``index``: its number, else its record in the file (an edited board of a
    lazily read file is counted among the edited ones: the set knows its record)."""
    if board.number is not None:
        return f"board {board.number}"
    record = boards.record_number(index) if isinstance(boards, Numbered) else None
    return f"record {record or index + 1}"


CODECS = (LinCodec(),)
