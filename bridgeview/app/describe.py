"""What ``bridgeview info`` and the GUI's Details panel say about an open file (Qt-free).

One function, shared by the command line and the window, so both describe a file alike.
"""

from __future__ import annotations

import os

from ..formats.errors import FormatError
from ..formats.registry import get, readable_path
from ..model.boardset import BoardSource


def info_lines(path: str, doc: BoardSource) -> list[tuple[str, str]]:
    """(label, value) pairs; the GUI's details panel shows the same."""
    codec = get(doc.info.format) if doc.info.format else None
    rows: list[tuple[str, str]] = [("file", path)]
    if codec is not None:
        rows.append(("format", f"{codec.name} ({codec.title})"))
    path = readable_path(doc, path)  # (a pipe's copy: the pipe itself has no size, and cannot be read again)
    size = os.path.getsize(path)
    rows.append(("size", f"{size} bytes"))
    n = len(doc)
    rows.append(("boards", str(n) if n or size else "0 (the file is empty)"))
    if n and not doc.kind.lazy:  # (a big file read lazily is not read whole for this)
        from ..model.tables import set_tables

        tables = set_tables(doc)
        if tables.repeated:  # a team match's rooms, a traveller's tables: the records are fewer boards
            rows.append(("tables", tables.summary()))
    info = doc.info
    if info.record_size:
        rows.append(("record size", f"{info.record_size} bytes"))
    if info.checksum is not None:
        checksum = info.checksum
    else:
        from ..formats.checksum import pavlicek_checksum  # numpy: not needed to build the command line

        checksum = pavlicek_checksum(path)
    rows.append(("checksum", f"{checksum:X}"))
    rows.extend((key.lower(), value) for key, value in info.header().items() if value)
    if info.dup is not None:
        d = info.dup
        rows.append(("dup random", "yes" if d.random else "no"))
        rows.append(("dup backwards", "yes" if d.backwards else "no"))
        rows.append(("dup first board", str(d.first_board)))
        rows.append(("dup copies", "-" if d.copies is None else str(d.copies)))
        rows.append(("dup last board", "-" if d.last_board is None else str(d.last_board)))
    if n:
        try:  # decoding the two ends of a lazily read file can meet a bad record: info still shows the rest
            first, last = doc[0].number, doc[n - 1].number
        except FormatError as e:
            rows.append(("problem", f"{e} (see bridgeview validate)"))
        else:
            if first is not None and last is not None:
                rows.append(("board numbers", f"{first}-{last}"))
    return rows
