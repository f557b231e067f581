"""PBN (Portable Bridge Notation 2.1): the codec, with byte-exact write-back.

Each board keeps its game's raw text in ``Board.source`` together with a
fingerprint of the model as read; a board whose model still matches its
fingerprint is written back verbatim (so a file opened and saved unchanged is
identical, commentary, ``%`` lines and unknown tags included), any other board
is generated from the model by :mod:`.write`.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from ...model.board import Board, board_key
from ...model.boardset import BoardSet, BoardSource, FileInfo
from ...model.text import plural
from ..codec import (
    Boards,
    BridgeCodec,
    Capabilities,
    ChunkedConversion,
    ReadOptions,
    SaveReport,
    WriteOptions,
    lazy_text,
    source_info,
)
from ..errors import FormatError
from ..lazytext import EditedBoards
from ..textcheck import UTF16_MESSAGE, decode_text, undecodable_problems, utf16_text
from . import lazy as pbn_lazy
from . import stream as pbn_stream
from .context import Context
from .lex import detect_newline, split_games
from .read import PbnSource, known_field, read_game
from .write import (
    board_text,
    encoding_name,
    ends_with_blank_line,
    header_edits,
    to_lf,
    unchanged_source,
    with_header,
)

DEFAULT_PREAMBLE = "% PBN 2.1\n% EXPORT\n"


def parse_pbn_text(text: str, *, encoding: str = "utf-8") -> BoardSet:
    """Boards from PBN text (any line ends); recoverable problems go to ``.problems``."""
    with paused_gc():
        return _parse_pbn_text(text, encoding)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection while reading: a read makes a dozen objects a board and frees none, and
    the collector would walk all of them again and again (a third of the reading time); nothing a read
    makes holds a cycle, so reference counting still frees what is dropped.

    Afterwards the new objects go straight to the oldest generation (``gc.freeze`` then ``gc.unfreeze``)
    instead of being walked once more by the first young collection (a tenth of the time of a deals-only
    read): they live as long as the document, and a full collection still visits them like any old object."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _parse_pbn_text(text: str, encoding: str) -> BoardSet:
    layout = split_games(text)
    ctx = Context()
    boards: list[Board] = []
    problems: list[tuple[int | None, int | None, str]] = []
    board_lines: dict[int, int] = {}
    new_source = tuple.__new__  # PbnSource(...) without the named tuple's Python-level __new__
    for i, game in enumerate(layout.games):
        board, probs, line = read_game(game, ctx)
        board.source = new_source(PbnSource, (game.raw, board_key(board), ctx.inherits))
        ctx.inherits = False
        boards.append(board)
        board_lines[i] = line
        if probs:
            problems.extend((i, ln if ln else line, msg) for ln, msg in probs)
    info = FileInfo(format="pbn")
    if boards:
        first = boards[0].tags
        info.event, info.site, info.date = (known_field(first.get(tag)) for tag in ("Event", "Site", "Date"))
    info.extra.update(
        header=(info.event, info.site, info.date),  # as read, to notice edits of the file info
        encoding=encoding,
        newline=detect_newline(text),
        preamble=layout.preamble,
        trailer=layout.trailer,
        board_lines=board_lines,
    )
    doc = BoardSet(boards, info)
    doc.problems = problems
    return doc


def board_to_pbn_text(board: Board, info: FileInfo | None = None) -> str:
    """One board as PBN text with LF line ends, e.g. for "Copy deal as PBN"."""
    src = unchanged_source(board)
    if src is not None and not board.source.inherits:  # a lone "#" would mean nothing on the clipboard
        return src.replace("\r\n", "\n").rstrip("\n") + "\n"
    return board_text(board, info, foreign=not isinstance(board.source, PbnSource) and not board.tags)


def document_text(doc: Boards, options: WriteOptions | None = None) -> tuple[str, str, str]:
    """The whole file as text, its encoding and its newline.

    Unchanged boards are written as read.  When some of them take or set
    ``#``/``##`` values, the text is read back: a board written as read that
    would now mean something else (an earlier board was edited, deleted or
    moved) is generated with its values written out instead, until every one
    holds; if a generated board picks up a ``##`` default it did not have,
    every board is generated.
    """
    force: set[int] = set()
    text, encoding, newline, expected, raw = _document_text(doc, options, force)
    rounds = 0
    while expected:
        again = parse_pbn_text(text)
        if len(again) != len(doc):
            bad = set(range(len(doc)))
        else:
            bad = {i for i, key in expected.items() if board_key(again[i]) != key}
        if not bad:
            break
        rounds += 1
        force |= bad if rounds < 4 and bad <= raw else set(range(len(doc)))
        text, encoding, newline, expected, raw = _document_text(doc, options, force)
    return text, encoding, newline


def _document_text(
    doc: Boards, options: WriteOptions | None, force: set[int]
) -> tuple[str, str, str, dict[int, tuple[object, ...]], set[int]]:
    """The file text; boards in ``force`` are generated even when unchanged.

    When some board written as read takes or sets ``#`` values, also returns what
    each board must read back as (``{index: model key}``: the key as read for those
    written as read, the key of the generated text on its own for the others) and
    the indices written as read; otherwise ``{}`` and an empty set."""
    options = options or WriteOptions()
    info = source_info(doc) or FileInfo()
    from_pbn = info.format == "pbn" and "preamble" in info.extra
    extra = info.extra if from_pbn else {}
    original = extra.get("newline") or "\n"
    newline = options.newline or original
    encoding = options.encoding or extra.get("encoding") or "utf-8"

    def own(text: str) -> str:  # raw text in the output's line ends
        return text if newline == original else to_lf(text).replace("\n", newline)

    def made(text: str) -> str:  # generated (LF) text in the output's line ends
        return text if newline == "\n" else text.replace("\n", newline)

    parts: list[str] = [own(extra["preamble"]) if from_pbn else made(DEFAULT_PREAMBLE)]
    foreign = not from_pbn
    renamed = header_edits(info) if from_pbn else {}
    expected: dict[int, tuple[object, ...]] = {}
    raw_keys: dict[int, tuple[object, ...]] = {}
    generated: dict[int, str] = {}
    inheriting = False
    for i, b in enumerate(doc):
        if renamed:
            b = with_header(b, renamed)
        raw = unchanged_source(b) if i not in force else None
        if raw is not None:
            raw_keys[i] = b.source.key
            inheriting = inheriting or b.source.inherits
            text = own(raw)
        else:
            body = board_text(b, info, foreign=foreign) + "\n"
            generated[i] = body
            text = made(body)
        if i and not ends_with_blank_line(to_lf(parts[-1])):
            parts.append(made("\n" if to_lf(parts[-1]).endswith("\n") else "\n\n"))
        parts.append(text)
    if from_pbn and extra.get("trailer"):
        parts.append(own(extra["trailer"]))
    if inheriting:
        expected.update(raw_keys)
        for i, body in generated.items():
            alone = parse_pbn_text(body)
            expected[i] = board_key(alone[0]) if len(alone) == 1 else ()
    return "".join(parts), encoding, newline, expected, set(raw_keys) if inheriting else set()


class PbnCodec(BridgeCodec):
    name = "pbn"
    title = "PBN (Portable Bridge Notation)"
    extensions = ("pbn",)
    binary = False
    caps = Capabilities(
        full_deals=True,
        partial_deals=True,
        board_numbers=True,
        dealer_vul=True,
        dd=True,
        auction=True,
        play=True,
        header=True,
        notes=True,
        deals_required=False,
    )

    def sniff(self, head: bytes, size: int | None = None) -> int:
        text = head.lstrip(b"\xef\xbb\xbf").lstrip()
        if text.startswith(b"% PBN") or text.startswith(b"%PBN"):
            return 100
        for line in text.splitlines()[:60]:
            line = line.strip()
            if line.startswith(b"[") and b'"' in line and line.endswith(b"]"):
                return 90
            if line and not line.startswith((b"%", b"{", b";")):
                return 0
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        if (options is None or not options.encoding) and os.path.getsize(path) >= pbn_lazy.LAZY_MIN_BYTES:
            return pbn_lazy.read_lazy(path)  # a big file: boards decoded on demand
        with open(path, "rb") as f:
            data = f.read()
        if utf16_text(data):
            raise FormatError(UTF16_MESSAGE)
        if b"\x00" in data[:4096]:
            at = data.index(b"\x00")
            raise FormatError(
                "a NUL byte: this is a binary file, not PBN text", offset=at, line=data.count(b"\n", 0, at) + 1
            )
        chosen = options.encoding if options is not None else None
        decoded = decode_text(data, chosen)
        doc = parse_pbn_text(decoded.text, encoding=decoded.encoding)
        if decoded.undecodable:  # bytes that are not characters: problems of the games (or preamble) they are in
            starts = {i: game.first_line + 1 for i, game in enumerate(split_games(decoded.text).games)}
            doc.problems.extend(undecodable_problems(data, decoded.undecodable, starts))
        doc.info.path = str(path)
        return doc

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        if pbn_lazy.is_lazy_pbn(doc):  # a big file read lazily: streamed game by game
            opts = options or WriteOptions()
            extra = doc.info.extra
            encoding = opts.encoding or extra.get("encoding") or "utf-8"
            if pbn_lazy.write_lazy(doc, out, encoding, opts.newline or extra.get("newline") or "\n"):
                return
        elif pbn_stream.is_lazy_foreign(doc):  # a big binary file read lazily: generated a chunk at a time
            opts = options or WriteOptions()
            if pbn_stream.write_streamed(doc, out, opts.encoding or "utf-8", opts.newline or "\n"):
                return
        text, encoding, _newline = document_text(doc, options)
        out.write(text.encode(encoding_name(encoding), errors="replace"))

    def chunked(self, doc: BoardSource, target: BridgeCodec, options: WriteOptions | None) -> ChunkedConversion | None:
        """A big PBN file read lazily, unedited and without ``#`` values, to ZRD or ZBD: :mod:`.bulk`."""
        from . import bulk  # regular expressions compiled for big files only

        return bulk.CONVERSION if bulk.applies(doc, target, options) else None

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        lazy_lin = lazy_text(boards) == "lin"  # LIN boards hold what PBN may lose: each is checked
        if (pbn_lazy.is_lazy_pbn(boards) or (pbn_stream.is_lazy_foreign(boards) and not lazy_lin)) and (
            options is None or not options.encoding
        ):
            # untouched games of a lazy set hold nothing PBN cannot (they are written as read, or come
            # from a deals-and-DD format): only the edited boards need checking
            boards = EditedBoards(boards)
        rep = super().check(boards, options)
        info = source_info(boards)
        encoding = (
            (options.encoding if options else None)
            or (info.extra.get("encoding") if info is not None and info.format == "pbn" else None)
            or "utf-8"
        )
        no_play = bare_alerts = 0
        for b in boards:
            if b.play and b.contract_and_declarer()[1] is None:
                no_play += 1
            if b.auction and any(c.alert and not c.explanation for c in b.auction):
                bare_alerts += 1
        if no_play:
            rep.losses.append(f"the play of {plural(no_play, 'board')} with no declarer")
        if bare_alerts:
            rep.losses.append(f"alerts without an explanation on {plural(bare_alerts, 'board')} (PBN has only notes)")
        if encoding_name(encoding) != "utf-8":
            try:
                document_text(boards, options)[0].encode(encoding_name(encoding))
            except UnicodeEncodeError:
                rep.losses.append(f"characters that {encoding} cannot hold (written as '?')")
        return rep


CODECS = (PbnCodec(),)
