"""``bridgeview dump FILE``: the file as JSON on stdout."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ..formats.codec import ReadOptions
from ..formats.registry import read_file
from ..model.board import Board
from ..model.boardset import BoardSet
from .common import board_number, say_ignored_options

NAME = "dump"
ORDER = 40
HELP = "print a file's boards (or cribbage game) as JSON"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def board_to_json(b: Board) -> dict[str, object]:
    contract, declarer = b.contract_and_declarer()
    out: dict[str, object] = {
        "board": b.number,
        "dealer": b.dealer.letter if b.dealer is not None else None,
        "vulnerable": b.vulnerability.text if b.vulnerability is not None else None,
        "deal": b.deal.to_pbn(),
        "dd": b.dd.to_json() if b.dd is not None and not b.dd.is_empty else None,
        "auction": [str(c) for c in b.auction] if b.auction is not None else [],
        "play": [str(c) for c in b.play] if b.play is not None else [],
        "contract": str(contract) if contract is not None else None,
        "declarer": declarer.letter if declarer is not None else None,
        "result": b.result,
    }
    if b.unreadable:  # a record that could not be decoded stands in as an empty board: say why
        out["unreadable"] = b.unreadable
    unread = b.tags.get("Auction:rest")
    if unread:  # the auction stopped at a token that is not a call (see validate)
        out["auction_unread"] = unread
    return out


def run(args: argparse.Namespace) -> int:
    doc = read_file(args.file, args.from_fmt, ReadOptions(start_board=args.start_board))
    say_ignored_options(doc)
    encoding = (sys.stdout.encoding or "utf-8").lower().replace("-", "").replace("_", "")
    # JSON's own \u escapes where stdout is not UTF-8, so the output stays valid JSON and loses nothing
    ascii_only = not encoding.startswith("utf")
    if not isinstance(doc, BoardSet):
        json.dump(doc.to_json(), sys.stdout, ensure_ascii=ascii_only, indent=1)
        sys.stdout.write("\n")
        return 0
    write_boards_json(doc, sys.stdout, ascii_only)
    return 0


#: boards put together before each write to standard output
_BOARDS_A_WRITE = 256


def write_boards_json(doc: BoardSet, out: TextIO, ascii_only: bool) -> None:
    """The set as one JSON object, ``json.dump(..., indent=1)`` of ``{"format", "boards", "event", "site",
    "date"}`` byte for byte, written a few hundred boards at a time: ``dump`` of millions of boards held them
    all as dicts, and the whole text, before its first byte (``dump big | head`` waited for all of it).

    A lazily read file cut short on disk once opened (``LazyBoardSet.cut_short``) stops it with that error:
    before the first byte when the first boards already show it, else with the JSON left open, so that no
    reader takes what came before for the whole file."""
    info = doc.info
    head: dict[str, object] = {"format": info.format}
    tail = {key: value for key, value in (("event", info.event), ("site", info.site), ("date", info.date)) if value}

    def dumps(value: object) -> str:
        return json.dumps(value, ensure_ascii=ascii_only, indent=1)

    count = len(doc)
    opening = dumps(head)[:-2] + ',\n "boards": ['  # ('{\n "format": "pbn"' + ...)
    if not count:
        out.write(dumps({**head, "boards": [], **tail}) + "\n")
        return
    written = False
    for start in range(0, count, _BOARDS_A_WRITE):
        parts = []
        for i in range(start, min(count, start + _BOARDS_A_WRITE)):
            text = dumps(board_to_json(doc[i]))
            parts.append("\n  " + text.replace("\n", "\n  "))
        cut_short = getattr(doc, "cut_short", None)  # (a lazily read file cut short on disk: say so, stop)
        if cut_short is not None:
            if written:
                out.flush()
            raise cut_short
        out.write(("," if written else opening) + ",".join(parts))
        written = True
    ending = "".join(f",\n {dumps(key)}: {dumps(value)}" for key, value in tail.items())
    out.write("\n ]" + ending + "\n}\n")
