"""``bridgeview dump FILE``: the file as JSON on stdout."""

from __future__ import annotations

import argparse
import json
import sys

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
    data: dict[str, object]
    if not isinstance(doc, BoardSet):
        data = doc.to_json()
    else:
        info = doc.info
        data = {"format": info.format, "boards": []}
        data.update(
            (key, value) for key, value in (("event", info.event), ("site", info.site), ("date", info.date)) if value
        )
        data["boards"] = [board_to_json(b) for b in doc]
        cut_short = getattr(doc, "cut_short", None)  # (a lazily read file cut short on disk: say so, print nothing)
        if cut_short is not None:
            raise cut_short
    encoding = (sys.stdout.encoding or "utf-8").lower().replace("-", "").replace("_", "")
    # JSON's own \u escapes where stdout is not UTF-8, so the output stays valid JSON and loses nothing
    json.dump(data, sys.stdout, ensure_ascii=not encoding.startswith("utf"), indent=1)
    sys.stdout.write("\n")
    return 0
