"""``bridgeview info FILE``: format, size, checksum and file-level fields."""

from __future__ import annotations

import os

from ..formats.errors import FormatError
from ..formats.registry import ReadOptions, get, read_file
from .common import Progress

NAME = "info"
ORDER = 20
HELP = "show a file's format, number of boards, checksum and header"


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")


def info_lines(path: str, doc) -> list[tuple[str, str]]:
    """(label, value) pairs; the GUI's details panel shows the same."""
    codec = get(doc.info.format) if getattr(doc, "info", None) and doc.info.format else None
    rows: list[tuple[str, str]] = [("file", path)]
    if codec is not None:
        rows.append(("format", f"{codec.name} ({codec.title})"))
    size = os.path.getsize(path)
    rows.append(("size", f"{size} bytes"))
    n = len(doc)
    rows.append(("boards", str(n) if n or size else "0 (the file is empty)"))
    info = doc.info
    if info.record_size:
        rows.append(("record size", f"{info.record_size} bytes"))
    if info.checksum is not None:
        checksum = info.checksum
    else:
        from ..formats.checksum import pavlicek_checksum  # numpy: not needed to build the command line

        checksum = pavlicek_checksum(path)
    rows.append(("checksum", f"{checksum:X}"))
    for key in ("event", "site", "date"):
        if getattr(info, key):
            rows.append((key, getattr(info, key)))
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


def run(args) -> int:
    progress = Progress("reading")  # shows activity on a terminal while a big file is scanned
    try:
        doc = read_file(args.file, args.from_fmt, ReadOptions())
        if hasattr(doc, "info_lines"):
            rows = doc.info_lines()
        else:
            rows = info_lines(args.file, doc)
            # what the reader survived (a truncated copy's tail, a DLM checksum), as the GUI's details show it
            problems = getattr(doc, "problems", None)
            if isinstance(problems, list):
                rows += [("warning", message) for _index, _line, message in problems[:5]]
                if len(problems) > 5:
                    rows.append(("warning", f"… and {len(problems) - 5} more (see bridgeview validate)"))
    finally:
        progress.close()
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k + ':':<{width + 1}} {v}")
    return 0
