"""The bytes of a text format: what the file is when it is not our text, and how text is decoded.

One decoding policy serves every text format (PBN, LIN, DLM, BRE, the BHG header): UTF-8 when the bytes are
valid UTF-8 (a byte-order mark noted as ``utf-8-sig``); otherwise the 8-bit text that Windows programs write,
Windows-1252 (``cp1252``: Latin-1's letters at the same bytes, and € „ Š … at 0x80-0x9F, where Latin-1 has
control codes no text holds).  The encoding a file was read with is the one it is saved with.  The five bytes
Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are not characters: they read as "�" and each is
a warning of the board (or the header) whose text holds it, at its line (:func:`undecodable_problems`).
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..model.problem import Problem, warning
from .errors import FormatError

_BOMS = (b"\xff\xfe", b"\xfe\xff")


def utf16_text(data: bytes) -> bool:
    """True for UTF-16 text: a UTF-16 byte-order mark (UTF-32's is left to the NUL check), or
    no mark and mostly NUL bytes at every other position, as Latin text in UTF-16 has."""
    if data.startswith(_BOMS) and not data.startswith(b"\xff\xfe\x00\x00"):
        return True
    head = data[:4096]
    pairs = len(head) // 2
    if pairs < 4:
        return False
    even_nul = head[0 : 2 * pairs : 2].count(0)
    odd_nul = head[1 : 2 * pairs : 2].count(0)
    return max(even_nul, odd_nul) >= 0.9 * pairs and min(even_nul, odd_nul) <= 0.1 * pairs


UTF16_MESSAGE = "UTF-16 text: not supported; save the file as UTF-8"


def unencodable_loss_in(texts: Iterable[str], encoding: str) -> str | None:
    """The save-report loss for characters that ``encoding`` cannot hold (they are written as '?') in a text
    given a piece at a time (a big file's lines), naming the first few so the user can find them; None when
    every character fits.  It stops looking once more characters are found than the message names."""
    try:
        codecs.lookup(encoding)
    except LookupError:
        return f"text in the unknown encoding {encoding}"
    bad: dict[str, None] = {}
    for text in texts:
        try:
            text.encode(encoding)
            continue
        except UnicodeEncodeError:
            pass
        for ch in dict.fromkeys(text):
            if ch in bad:
                continue
            try:
                ch.encode(encoding)
            except UnicodeEncodeError:
                bad[ch] = None
        if len(bad) > _NAMED:
            break
    if not bad:
        return None
    shown = " ".join(list(bad)[:_NAMED]) + (" …" if len(bad) > _NAMED else "")
    return f"characters that {encoding} cannot hold ({shown}; written as '?')"


#: characters a loss names
_NAMED = 6


#: the bytes Windows-1252 does not define
_UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")


@dataclass
class Decoded:
    """Text decoded by the one policy: the text, the encoding it was read with (and is saved with), and the
    byte offsets of the bytes that are not characters in it (read as "�")."""

    text: str
    encoding: str
    undecodable: list[int] = field(default_factory=list)


#: the encoding of text that is not UTF-8
EIGHT_BIT = "cp1252"


def decode_errors(encoding: str) -> str:
    """How the bytes of a file read as ``encoding`` decode: 8-bit text's undefined bytes as "�" (each a
    problem of the board that holds it), UTF-8 strictly (text that is not valid UTF-8 is read as 8-bit)."""
    return "replace" if encoding == EIGHT_BIT else "strict"


def is_utf8(encoding: str) -> bool:
    """True for any spelling of UTF-8 (``utf-8``, ``UTF8``, ``utf_8``), not ``utf-8-sig``."""
    return encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def undecodable_offsets(data: bytes, encoding: str) -> list[int]:
    """Where ``data`` holds a byte that ``encoding`` (as the policy names it) does not define."""
    return [m.start() for m in _UNDEFINED.finditer(data)] if encoding == "cp1252" else []


def decode_text(data: bytes, encoding: str | None = None) -> Decoded:
    """``data`` as text by the policy above; ``encoding`` (the user's choice) is used as it is, strictly
    (FormatError with Python's reason when the bytes are not that)."""
    if encoding:
        try:
            return Decoded(data.decode(encoding), encoding)
        except (UnicodeDecodeError, LookupError) as e:
            raise FormatError(f"cannot decode as {encoding}: {e}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return Decoded(data[3:].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError:
            pass  # a mark on text that is not UTF-8: all of it is 8-bit text
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    return Decoded(data.decode(EIGHT_BIT, errors="replace"), EIGHT_BIT, undecodable_offsets(data, EIGHT_BIT))


def undecodable_message(byte: int) -> str:
    """The problem of one byte Windows-1252 does not define: a warning (the text around it reads on; the
    deals are not touched)."""
    return warning(
        "text.undecodable-byte",
        f"byte 0x{byte:02X} is not a character in Windows-1252 (the file's 8-bit text); read as \ufffd",
    )


def undecodable_problems(
    data: bytes, offsets: list[int], starts: Mapping[int, int] | None, *, base: int = 0, first_line: int = 1
) -> list[Problem]:
    """Reader problems ``(board index or None, line, message)`` for the bytes at ``offsets`` of ``data``:
    each on the board whose text holds it (``starts`` maps board index -> the line its text starts on),
    or on the file's header before the first board (index None).  ``base``: the offset of ``data[0]`` in
    the file, ``first_line``: its line."""
    order = sorted((line, i) for i, line in (starts or {}).items())
    lines = [line for line, _i in order]
    out: list[Problem] = []
    for at in offsets:
        line = first_line + data.count(b"\n", 0, at - base)
        k = bisect.bisect_right(lines, line) - 1
        out.append(Problem(order[k][1] if k >= 0 else None, line, undecodable_message(data[at - base])))
    return out
