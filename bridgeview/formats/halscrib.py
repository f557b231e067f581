"""HALSCRIB "Open Base64 Implementation of a Cribbage Game" (spec 004).

The record is one bit stream (fields in the spec's order, each as wide as its
"bits" column, most significant bit first), padded with zero bits to whole
bytes and Base64-encoded.  See ``docs/formats.md`` (HALSCRIB).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from typing import IO

from ..model.cribbage import (
    GAME_POINTS,
    NO_PLAY,
    CribbageRecord,
    CribCard,
    CribDeal,
    CribHeader,
    CribSource,
    PegPlay,
)
from ..model.text import plural
from .codec import Capabilities, CribbageCodec, ReadOptions, WriteOptions
from .errors import FormatError

TEXT_FIELDS = (("author", 16), ("program", 16), ("player 0's name", 8), ("player 1's name", 8), ("comments", 18))
DATE_FIELDS = (("year", 12), ("month", 4), ("day", 5), ("hour", 6), ("minute", 6), ("second", 6))
HEADER_BITS = 8 * sum(n for _, n in TEXT_FIELDS) + sum(n for _, n in DATE_FIELDS) + 8 + 8  # 583
DEAL_BITS = 150
MAX_DEALS = 256
LINE_WIDTH = 76
B64_CHARS = re.compile(rb"[A-Za-z0-9+/=]")
WHITESPACE = b" \t\r\n\f\v"


class BitReader:
    """Most-significant-bit-first fields out of a byte string."""

    def __init__(self, data: bytes) -> None:
        self.value = int.from_bytes(data, "big")
        self.size = len(data) * 8
        self.pos = 0

    def left(self) -> int:
        return self.size - self.pos

    def take(self, width: int) -> int:
        if self.pos + width > self.size:
            raise EOFError
        self.pos += width
        return (self.value >> (self.size - self.pos)) & ((1 << width) - 1)


class BitWriter:
    """The inverse of :class:`BitReader`; zero-padded to whole bytes."""

    def __init__(self) -> None:
        self.value = 0
        self.size = 0

    def put(self, value: int, width: int, what: str) -> None:
        if not 0 <= value < (1 << width):
            raise FormatError(f"{what} {value} does not fit in {width} bits")
        self.value = (self.value << width) | value
        self.size += width

    def to_bytes(self) -> bytes:
        pad = -self.size % 8
        return (self.value << pad).to_bytes((self.size + pad) // 8, "big")


# -- decoding ----------------------------------------------------------------
def where_in_record(char_index: int, n_deals: int | None = None) -> str:
    """The field a Base64 character carries bits of: ``'the header'``, ``'deal 3'``
    or, when the header's deal count ``n_deals`` is known, ``'the text after the last deal'``."""
    bit = 6 * char_index
    if bit < HEADER_BITS:
        return "the header"
    deal = (bit - HEADER_BITS) // DEAL_BITS + 1
    return "the text after the last deal" if n_deals is not None and deal > n_deals else f"deal {deal}"


def _deals_in_header(compact: bytes, upto: int) -> int | None:
    """The header's deal count when the Base64 before character ``upto`` holds the whole header."""
    chars = upto - upto % 4
    if 6 * chars < HEADER_BITS:
        return None
    try:
        head = base64.b64decode(compact[:chars], validate=True)
    except (binascii.Error, ValueError):
        return None
    r = BitReader(head)
    r.take(HEADER_BITS - 8)
    return r.take(8) + 1


def _char_text(b: int) -> str:
    return f"character {chr(b)!r}" if 32 <= b < 127 else f"byte {b:#04x}"


def decode_base64(text: bytes) -> bytes:
    """Standard Base64, whitespace and line breaks ignored; a clear error naming the deal otherwise."""
    offsets = [i for i, b in enumerate(text) if b not in WHITESPACE]
    compact = bytes(text[i] for i in offsets)

    def fail(k: int, what: str) -> FormatError:
        off = offsets[k]
        line = text.count(b"\n", 0, off) + 1 if b"\n" in text else text.count(b"\r", 0, off) + 1
        where = where_in_record(k, _deals_in_header(compact, k))
        return FormatError(f"bad Base64 in {where}: {what}", line=line, offset=off)

    for k, b in enumerate(compact):
        if not B64_CHARS.match(compact, k):
            raise fail(k, f"{_char_text(b)} is not in the Base64 alphabet")
    if not compact:
        raise FormatError("the file holds no Base64 text")
    first_pad = compact.find(b"=")
    if first_pad >= 0:
        stray = next((k for k in range(first_pad, len(compact)) if compact[k] != ord("=")), None)
        if stray is not None:
            raise fail(first_pad, "'=' padding before the end of the text")
        if len(compact) - first_pad > 2 or len(compact) % 4:
            raise fail(first_pad, "the '=' padding does not fill out the last group of four characters")
    elif len(compact) % 4:  # a file cut short: decode what is there; the record reports it truncated
        compact = (
            compact[: len(compact) - len(compact) % 4]
            if len(compact) % 4 == 1
            else compact + b"=" * (-len(compact) % 4)
        )
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as e:  # pragma: no cover - the checks above catch what validate refuses
        raise FormatError(f"bad Base64: {e}") from None


def _card(code: int, deal: int, where: str) -> CribCard:
    try:
        return CribCard.from_code(code)
    except ValueError:
        raise FormatError(f"deal {deal}: bad card code {code:#04x} in {where}") from None


def decode_record(data: bytes) -> CribbageRecord:
    """The record held by the decoded bytes ``data``."""
    r = BitReader(data)
    need_header = (HEADER_BITS + 7) // 8
    if r.size < HEADER_BITS:
        raise FormatError(f"truncated: the header needs {need_header} bytes, the record holds {len(data)}")
    texts = []
    for _what, n in TEXT_FIELDS:
        raw = bytes(r.take(8) for _ in range(n))
        texts.append(raw.decode("latin-1").rstrip(" \x00"))
    year, month, day, hour, minute, second = (r.take(w) for _, w in DATE_FIELDS)
    games = r.take(8)
    n_deals = r.take(8) + 1
    header = CribHeader(
        texts[0], texts[1], (texts[2], texts[3]), texts[4], year, month, day, hour, minute, second, games=games
    )
    record = CribbageRecord(header)
    need = (HEADER_BITS + DEAL_BITS * n_deals + 7) // 8
    for k in range(1, n_deals + 1):
        if r.left() < DEAL_BITS:
            raise FormatError(
                f"truncated: deal {k} of {n_deals} is cut short (the record holds {len(data)} bytes, "
                f"{n_deals} deals need {need})"
            )
        record.deals.append(_decode_deal(r, k))
    extra = len(data) - need
    if extra > 0:
        record.warnings.append(f"{plural(extra, 'byte')} after the last deal ignored")
    if (
        not 1 <= header.month <= 12
        or not 1 <= header.day <= 31
        or header.hour > 23
        or header.minute > 59
        or header.second > 59
    ):
        record.warnings.append(f"the date {header.date_text} is not a real date")
    return record


def _decode_deal(r: BitReader, k: int) -> CribDeal:
    hand0, hand1 = (tuple(_card(r.take(6), k, f"player {p}'s hand") for _ in range(4)) for p in (0, 1))
    discard0, discard1 = (tuple(_card(r.take(6), k, f"player {p}'s discards") for _ in range(2)) for p in (0, 1))
    starter = _card(r.take(6), k, "the starter")
    plays: list[PegPlay] = []
    unplayed = 0
    for n in range(8):
        code = r.take(7)
        if code == NO_PLAY:
            unplayed += 1
            continue
        if unplayed:
            raise FormatError(f"deal {k}: pegging play {n + 1} follows an empty (127) play")
        plays.append(PegPlay(code >> 6, _card(code & 63, k, f"pegging play {n + 1}")))
    scores = (r.take(7), r.take(7))
    dealer = r.take(1)
    last = bool(r.take(1))
    for p in (0, 1):
        if scores[p] > GAME_POINTS:
            raise FormatError(f"deal {k}: player {p}'s score {scores[p]} is over {GAME_POINTS}")
    deal = CribDeal((hand0, hand1), (discard0, discard1), starter, plays, scores, dealer, last, unplayed)
    dup = deal.duplicate_card()
    if dup is not None:
        card, first, second = dup
        raise FormatError(f"deal {k}: duplicate card {card.symbol_text()} ({first} and {second})")
    seen = set()
    for n, play in enumerate(plays, 1):
        if play.card in seen:
            raise FormatError(f"deal {k}: pegging play {n} repeats {play.card.symbol_text()}")
        seen.add(play.card)
    return deal


# -- encoding ----------------------------------------------------------------
def encode_record(record: CribbageRecord) -> bytes:
    """The bytes of ``record`` (before Base64)."""
    w = BitWriter()
    h = record.header
    values = (h.author, h.program, h.players[0], h.players[1], h.comments)
    for (what, n), text in zip(TEXT_FIELDS, values, strict=True):
        try:
            raw = text.encode("latin-1")
        except UnicodeEncodeError:
            raise FormatError(f"the {what} {text!r} has characters HALSCRIB cannot store") from None
        if len(raw) > n:
            raise FormatError(f"the {what} {text!r} is longer than {n} characters")
        for b in raw.ljust(n, b" "):
            w.put(b, 8, what)
    for (what, width), v in zip(DATE_FIELDS, (h.year, h.month, h.day, h.hour, h.minute, h.second), strict=True):
        w.put(v, width, f"the {what}")
    w.put(h.games, 8, "the number of games")
    if not 1 <= len(record.deals) <= MAX_DEALS:
        raise FormatError(f"a HALSCRIB record holds 1 to {MAX_DEALS} deals, not {len(record.deals)}")
    w.put(len(record.deals) - 1, 8, "the number of deals")
    for k, d in enumerate(record.deals, 1):
        _encode_deal(w, d, k)
    return w.to_bytes()


def _encode_deal(w: BitWriter, d: CribDeal, k: int) -> None:
    def card(c: CribCard, what: str) -> None:
        if not (0 <= c.suit <= 3 and 1 <= c.rank <= 13):
            raise FormatError(f"deal {k}: {what} is not a card")
        w.put(c.code, 6, f"deal {k}: {what}")

    for p in (0, 1):
        if len(d.hands[p]) != 4 or len(d.discards[p]) != 2:
            raise FormatError(f"deal {k}: player {p} needs four cards in hand and two discards")
    for p in (0, 1):
        for c in d.hands[p]:
            card(c, f"a card of player {p}'s hand")
    for p in (0, 1):
        for c in d.discards[p]:
            card(c, f"a discard of player {p}")
    card(d.starter, "the starter")
    if len(d.pegging) > 8:
        raise FormatError(f"deal {k}: more than eight pegging plays")
    for play in d.pegging:
        w.put(play.player, 1, f"deal {k}: the pegging player")
        card(play.card, "a pegging card")
    for _ in range(8 - len(d.pegging)):
        w.put(NO_PLAY, 7, "an empty play")
    for p in (0, 1):
        if d.scores[p] > GAME_POINTS:
            raise FormatError(f"deal {k}: player {p}'s score {d.scores[p]} is over {GAME_POINTS}")
        w.put(d.scores[p], 7, f"deal {k}: player {p}'s score")
    w.put(d.dealer, 1, f"deal {k}: the dealer")
    w.put(int(d.last), 1, f"deal {k}: the last-deal flag")


def wrap_base64(data: bytes, width: int = LINE_WIDTH, newline: str = "\n", final_newline: bool = True) -> bytes:
    """Base64 text in lines of ``width`` characters (0 = one line)."""
    text = base64.b64encode(data)
    nl = newline.encode("ascii")
    lines = [text[i : i + width] for i in range(0, len(text), width)] if width else [text]
    return nl.join(lines) + (nl if final_newline else b"")


def _layout(text: bytes) -> tuple[str, int, bool]:
    """Newline, line width and final newline of the Base64 text as read."""
    newline = "\r\n" if b"\r\n" in text else "\r" if b"\r" in text and b"\n" not in text else "\n"
    lines = [ln.strip() for ln in re.split(rb"\r\n|\r|\n", text.strip())]
    width = len(lines[0]) if len(lines) > 1 else 0
    final = text.endswith((b"\n", b"\r"))
    return newline, width, final


class HalscribCodec(CribbageCodec):
    name = "halscrib"
    title = "HALSCRIB Base64 cribbage game"
    extensions = ("crib", "hal", "cb64")
    kind = "cribbage"
    binary = False
    caps = Capabilities(full_deals=False, deals_required=False, max_records=MAX_DEALS)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        compact = bytes(b for b in head if b not in WHITESPACE)
        if len(compact) < 100 or B64_CHARS.sub(b"", compact):
            return 0
        try:
            data = base64.b64decode(compact[:100], validate=True)
        except (binascii.Error, ValueError):
            return 0
        names = data[:66]
        if all(32 <= b < 127 for b in names):
            return 90
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> CribbageRecord:
        with open(path, "rb") as f:
            text = f.read()
        record = decode_record(decode_base64(text))
        newline, width, final = _layout(text)
        record.source = CribSource(text, encode_record(record), newline, width, final)
        record.path = str(path)
        return record

    def write(self, doc: CribbageRecord, out: IO[bytes], options: WriteOptions | None = None) -> None:
        opts = options or WriteOptions()
        data = encode_record(doc)
        src = doc.source
        if src is not None and data == src.fingerprint and opts.newline in (None, src.newline):
            out.write(src.text)
            return
        newline = opts.newline or (src.newline if src else "\n")
        width = src.width if src else LINE_WIDTH
        final = src.final_newline if src else True
        out.write(wrap_base64(data, width, newline, final))


CODECS = (HalscribCodec(),)
