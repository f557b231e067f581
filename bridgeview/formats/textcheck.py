"""Checks on the bytes of a text format before decoding: what the file is when it is not our text."""

from __future__ import annotations

import codecs
from collections.abc import Iterable

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


def unencodable_loss(text: str, encoding: str) -> str | None:
    """The save-report loss for characters of ``text`` that ``encoding`` cannot hold (they are written as '?'),
    naming the first few so the user can find them; None when every character fits."""
    return unencodable_loss_in((text,), encoding)


def unencodable_loss_in(texts: Iterable[str], encoding: str) -> str | None:
    """:func:`unencodable_loss` of the pieces of a text given one at a time (a big file's lines): it stops
    looking once more characters are found than the message names."""
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
