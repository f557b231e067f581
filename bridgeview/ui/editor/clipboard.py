"""Boards from pasted or dropped text: a BBO handviewer link, LIN text or PBN text."""

from __future__ import annotations

import re

from ...formats.errors import FormatError
from ...formats.lin.handviewer import handviewer_boards, handviewer_url
from ...formats.lin.read import parse_text
from ...formats.pbn.codec import parse_pbn_text
from ...model.board import Board
from ...model.boardset import BoardSet, FileInfo

_PBN_TAG = re.compile(r'^\s*\[[A-Za-z][A-Za-z0-9_]*\s+"', re.MULTILINE)
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
#: a handviewer link pasted without its scheme (``www.bridgebase.com/tools/hv.html?s=…``)
_VIEWER = re.compile(r"^\S*\bh(?:andviewer|v)\.html\?\S", re.IGNORECASE)


def boards_from_text(text: str) -> BoardSet:
    """The boards ``text`` describes; FormatError with a one-line reason when it holds none.

    A link (handviewer, myhands) gives every board its ``lin=`` value holds; text
    with PBN tags is read as PBN; anything else as LIN (every board it holds).
    """
    raw = (text or "").strip()
    if not raw:
        raise FormatError("the clipboard holds no text")
    if _URL.match(raw) or re.search(r"[?&#]lin=", raw, re.IGNORECASE) or _VIEWER.search(raw):
        doc = handviewer_boards(raw if _URL.match(raw) or not _VIEWER.search(raw) else "https://" + raw)
        doc.info = doc.info or FileInfo()
        doc.info.format = "lin"
        return doc
    if _PBN_TAG.search(raw):
        doc = parse_pbn_text(raw)
        fmt = "pbn"
    else:
        if "|" not in raw:
            raise FormatError("the text is neither a handviewer link, LIN nor PBN")
        doc = parse_text(raw)
        fmt = "lin"
    if not len(doc):
        raise FormatError(f"no board in this {fmt.upper()} text")
    if doc.info is None:
        doc.info = FileInfo()
    doc.info.format = doc.info.format or fmt
    return doc


def link_for(board: Board) -> str:
    """The BBO handviewer link that shows ``board``."""
    return handviewer_url(board)
