"""PBN reading speed: our codec against endplay's parser on the same file.

Generates a file of legal random boards with auctions and full play (made
with our model, written with our codec), then times reading the whole file
with both readers in one run (CPU time, best of three, interleaved, because
the machine is shared) and prints the ratio.  It does so for three files: a
plain export file with auctions and play; the same boards with an alerted
opening call, its ``[Note]`` and a ``{}`` comment per board (annotated); and
a deals-only file (what a deal generator's boards become: the export roster,
each deal, no auction or play), where the fixed work per board counts most.
Then the annotated file as other programs write theirs (CRLF, ``%`` lines and
``;`` comments, lower-case calls, the roster after the deal), and the real files
of ``../shared/realdata`` (every PBN file endplay reads, together and each on its
own, repeated to the same number of boards; skipped when absent).

    python bench/bench_pbn.py [BOARDS]      # default 10000
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sized
from pathlib import Path

from bridgeview.formats.pbn.codec import PbnCodec, parse_pbn_text
from bridgeview.model.auction import DOUBLE, PASS, REDOUBLE, Call, auction_is_complete, final_contract
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import CARDS, Seat, suit_mask
from bridgeview.model.deal import Deal
from bridgeview.model.play import trick_winner

REALDATA = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata"


def random_deal(rng: random.Random) -> Deal:
    cards = list(range(52))
    rng.shuffle(cards)
    return Deal.from_owners([i // 13 for i in sorted(range(52), key=lambda c: cards[c])])


def random_auction(rng: random.Random, dealer: Seat) -> list[Call]:
    """A legal auction: rising bids, occasional doubles, ending in three passes."""
    calls: list[Call] = []
    rank = -1
    risk = 0
    last_bidder = None
    seat = int(dealer)
    while not auction_is_complete(calls):
        r = rng.random()
        if r < 0.35 and rank < 34 and len(calls) < 30:
            rank = rng.randint(rank + 1, min(34, rank + 4))
            calls.append(Call.bid(rank // 5 + 1, rank % 5))
            risk, last_bidder = 0, seat
        elif r < 0.40 and rank >= 0 and risk == 0 and last_bidder is not None and (last_bidder - seat) % 2:
            calls.append(DOUBLE)
            risk = 1
        elif r < 0.42 and risk == 1 and last_bidder is not None and (last_bidder - seat) % 2 == 0:
            calls.append(REDOUBLE)
            risk = 2
        else:
            calls.append(PASS)
        seat = (seat + 1) % 4
    return calls


def random_play(rng: random.Random, deal: Deal, declarer: Seat, trump) -> list:
    hands = list(deal.hands)
    leader = Seat((declarer + 1) % 4)
    play = []
    for _trick in range(13):
        trick: list[int] = []
        for j in range(4):
            seat = (leader + j) % 4
            hand = hands[seat]
            if trick and hand & suit_mask(trick[0] // 13):
                hand &= suit_mask(trick[0] // 13)
            choices = [c for c in range(52) if hand >> c & 1]
            card = rng.choice(choices)
            hands[seat] &= ~(1 << card)
            trick.append(card)
            play.append(CARDS[card])
        leader = trick_winner(trick, leader, trump)
    return play


def make_boards(n: int, seed: int = 1) -> BoardSet:
    rng = random.Random(seed)
    boards = []
    for i in range(n):
        b = Board.numbered(i + 1, random_deal(rng))
        b.auction = random_auction(rng, b.effective_dealer)
        fc = final_contract(b.auction, b.effective_dealer)
        if fc is not None and not fc[0].is_passed_out:
            b.contract, b.declarer = fc
            b.play = random_play(rng, b.deal, fc[1], fc[0].strain)
            b.result = rng.randint(0, 13)
        elif fc is not None:
            b.contract = fc[0]
        b.tags = {
            "Event": "Bench",
            "Site": "Here",
            "Date": "2026.11.22",
            "West": "w",
            "North": "n",
            "East": "e",
            "South": "s",
            "Scoring": "IMP",
        }
        boards.append(b)
    return BoardSet(boards, FileInfo(event="Bench"))


def write_file(n: int, path: Path, seed: int = 1, annotated: bool = False, deals_only: bool = False) -> None:
    """Write the bench file; ``annotated`` adds an alert with its note and a comment to every board,
    ``deals_only`` keeps only the numbered deals."""
    boards = make_boards(n, seed)
    if deals_only:
        boards = BoardSet([Board.numbered(b.number, b.deal) for b in boards], FileInfo())
    if annotated:
        for b in boards:
            if b.auction:
                b.auction[0] = b.auction[0].annotated(alert=True, explanation="could be short")
    buf = io.BytesIO()
    PbnCodec().write(boards, buf)
    data = buf.getvalue()
    if annotated:  # endplay cannot read a comment after the play section, so it goes before the auction
        data = data.replace(b"[Auction ", b"{The bidding was lively.}\n[Auction ")
    path.write_bytes(data)


def foreign_shape(data: bytes) -> bytes:
    """Our annotated file as other programs write theirs: CRLF line ends, ``%`` lines and ``;`` comments,
    lower-case calls, a ``{}`` comment over two lines, the roster after the deal (endplay reads all of it)."""
    text = data.decode("utf-8")
    text = re.sub(r"\bPass\b", "pass", text)
    text = re.sub(r"\b([1-7])NT\b", r"\1nt", text)
    text = text.replace("{The bidding was lively.}", "{The bidding\nwas lively.}")
    text = re.sub(r'(\[Board "\d+"\])\n', r"% scored by the club's program\n\1 ; board\n", text)
    text = re.sub(
        r'((?:\[(?:West|North|East|South) "[^"]*"\]\n)+)((?:\[(?:Board|Dealer|Vulnerable|Deal) [^\n]*\n)+)',
        r"\2\1",
        text,
    )
    return text.replace("\n", "\r\n").encode("utf-8")


def realdata_corpus(root: Path = REALDATA) -> tuple[list[tuple[str, str]], list[str]]:
    """Every PBN file under ``root`` as ``(name, text)`` (decoded as our reader decodes it), those endplay
    reads first; and the names of those it cannot read (they are timed for us alone)."""
    from endplay.parsers import pbn as endplay_pbn

    from bridgeview.formats.textcheck import decode_text

    readable, unreadable = [], []
    for path in sorted(root.rglob("*.pbn")):
        text = decode_text(path.read_bytes()).text
        try:
            endplay_pbn.load(io.StringIO(text))
        except Exception:  # endplay 0.5.12 stops on what some real files hold (an "NS 11" result, `!`)
            unreadable.append(path.name)
            continue
        readable.append((path.name, text))
    return readable, unreadable


def repeated(texts: list[str], boards: int) -> str:
    """The games of ``texts`` in turn, whole files again and again, to ``boards`` games (UTF-8, each file's
    line ends), after the first file's preamble."""
    from bridgeview.formats.pbn.lex import split_games

    layouts = [split_games(t) for t in texts]
    parts = [layouts[0].preamble]
    count = 0
    while count < boards:
        for layout in layouts:
            for game in layout.games:
                if count == boards:
                    break
                raw = game.raw
                parts.append(raw if raw.endswith(("\n\n", "\r\n\r\n")) else raw.rstrip("\r\n") + "\n\n")
                count += 1
    return "".join(parts)


def read_ours(path: Path) -> Sized:
    return PbnCodec().read(path)


def read_endplay(path: Path) -> Sized:
    from endplay.parsers import pbn as endplay_pbn

    with open(path, encoding="utf-8") as f:
        return endplay_pbn.load(f)


def race(path: Path, ours: Callable[[Path], Sized], theirs: Callable[[Path], Sized], repeat: int) -> dict:
    """Both readers on one file: CPU time, best of ``repeat``, taking turns because the machine is shared;
    the times, per board, their ratio and the boards each read (shared with bench_lin.py)."""
    best = [float("inf"), float("inf")]
    counts = [0, 0]
    for _ in range(repeat):
        for k, read in enumerate((ours, theirs)):
            t = time.process_time()
            counts[k] = len(read(path))
            best[k] = min(best[k], time.process_time() - t)
    n = counts[0] or 1
    return {
        "bytes": path.stat().st_size,
        "ours_s": best[0],
        "endplay_s": best[1],
        "ours_ms_per_board": 1000 * best[0] / n,
        "endplay_ms_per_board": 1000 * best[1] / n,
        "ratio": best[1] / best[0] if best[0] else float("inf"),
        "counts": tuple(counts),
    }


def _time_file(path: Path, repeat: int) -> dict:
    """Both readers on one file, and what the file holds."""
    check = parse_pbn_text(path.read_bytes().decode("utf-8"))
    fast, by_position, by_shape = _fast_games(path)
    return {
        **race(path, read_ours, read_endplay, repeat),
        "fast_path": fast,
        "by_position": by_position,
        "by_shape": by_shape,
        "problems": len(check.problems),
        "notes": sum(1 for b in check for c in b.auction or [] if c.explanation),
        "comments": sum(len(b.notes) for b in check),
    }


def _fast_games(path: Path) -> tuple[int, int, int]:
    """How many games of the file the reader's fast path takes (the rest go to the careful reader), how many
    of those it reads by position, laid out like a game before them, and how many by the skeleton of a game
    shaped like them (its values and varying sections by position, no tag pattern)."""
    from bridgeview.formats.pbn import fast as pbn_fast
    from bridgeview.formats.pbn.lex import split_games
    from bridgeview.formats.pbn.read import Context

    ctx = Context()
    fast = by_position = by_shape = 0
    for g in split_games(path.read_bytes().decode("utf-8")).games:
        parts = g.raw.split('"')
        layouts = [ctx.fast_layout] if ctx.fast_layout is not None else []
        layouts += ctx.fast_layouts.get(len(parts), [])  # (the shapes learned before, tried when it fails)
        if '"#' not in g.raw and any(
            pbn_fast._read_like(g.raw, parts, g.first_line, Context(), layout) is not None for layout in layouts
        ):
            by_position += 1
        else:
            shapes = ctx.fast_skeletons.get(g.raw.count('"') + 1)
            by_shape += shapes is not None and pbn_fast._read_shaped(g.raw, shapes) is not None
        fast += pbn_fast.read_fast(g.raw, g.first_line, ctx) is not None
    return fast, by_position, by_shape


def run(n: int = 10_000, *, echo: bool = True, repeat: int = 3, real: bool = True) -> dict:
    """Write an ``n``-board file, read it with both readers (CPU time, best of
    ``repeat``), return the timings; ``result["annotated"]``, ``result["deals"]`` and
    ``result["foreign"]`` hold the same for the annotated, the deals-only file and the annotated file as other
    programs write it; ``result["real"]`` for the real files (``../shared/realdata``, every PBN file endplay
    reads, repeated to ``n`` boards), all together (``"all"``) and one by one (by name), unless ``real`` is
    False or they are absent."""
    with tempfile.TemporaryDirectory() as tmp:
        plain, rich, deals = Path(tmp) / "bench.pbn", Path(tmp) / "annotated.pbn", Path(tmp) / "deals.pbn"
        foreign = Path(tmp) / "foreign.pbn"
        write_file(n, plain)
        write_file(n, rich, annotated=True)
        write_file(n, deals, deals_only=True)
        foreign.write_bytes(foreign_shape(rich.read_bytes()))
        result = {"boards": n, **_time_file(plain, repeat)}
        result["annotated"] = {"boards": n, **_time_file(rich, repeat)}
        result["deals"] = {"boards": n, **_time_file(deals, repeat)}
        result["foreign"] = {"boards": n, **_time_file(foreign, repeat)}
        shapes = [("plain export", result), ("annotated", result["annotated"]), ("deals only", result["deals"])]
        shapes.append(("other programs' shape", result["foreign"]))
        if real and REALDATA.is_dir():
            readable, unreadable = realdata_corpus()
            result["real"] = real_results = {"unreadable by endplay": unreadable}
            for name, texts in [("all", [t for _n, t in readable])] + [(nm, [t]) for nm, t in readable]:
                path = Path(tmp) / "real.pbn"
                path.write_text(repeated(texts, n), encoding="utf-8", newline="")
                real_results[name] = {"boards": n, **_time_file(path, repeat)}
                shapes.append((f"real: {name}", real_results[name]))
    if echo:
        print(f"load average {os.getloadavg()[0]:.1f}")
        for label, r in shapes:
            print(
                f"{label}: {n} boards, {r['bytes'] / 1e6:.1f} MB, {r['fast_path']} games by the fast path"
                f" ({r['by_position']} of them by position, {r['by_shape']} by their skeleton)"
            )
            print(f"  bridgeview: {r['ours_s']:.2f} s ({r['ours_ms_per_board']:.3f} ms/board)")
            print(f"  endplay:    {r['endplay_s']:.2f} s ({r['endplay_ms_per_board']:.3f} ms/board)")
            print(f"  ratio: {r['ratio']:.1f}x faster")
        if "real" in result:
            print("real files endplay cannot read (not timed):", ", ".join(result["real"]["unreadable by endplay"]))
    return result


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
