"""Files that hold a board more than once, built the way other programs write them (issue 26).

* :func:`two_room_lin`: a BBO vugraph of a team match (``vg``, ``rs``, eight players in ``pn``,
  ``qx|o1``/``qx|c1``, auctions and play), each board in the open and the closed room;
* :func:`two_room_pbn`: the same match as PBN with ``[Room "Open"]``/``[Room "Closed"]``;
* :func:`traveller_pbn`: a scoring program's export, one game a table (number and deal repeated);
* :func:`renumbered`: a copy of a set numbered from another board, its hands turned;
* :func:`lesson_lin`: a teacher's lesson file (``pn|st|md|ah|sv|nt`` text, auctions, play) with bad records.

Every builder can spoil one record (two cards swapped) so tests can ask whether a tool notices.
"""

from __future__ import annotations

import random
from pathlib import Path

from bridgeview.formats.lin.write import md_text
from bridgeview.model.auction import Contract
from bridgeview.model.board import Board
from bridgeview.model.cards import Seat, Strain
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import dealer_for_board, vulnerability_for_board

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")  # LIN order: S W N E open, S W N E closed
VUL = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
PBN_SEATS = "NESW"


def deals(count: int, seed: int = 26) -> list[Deal]:
    rng = random.Random(seed)
    return [Deal.shuffled(rng) for _ in range(count)]


def swapped(deal: Deal, a: Seat = Seat.NORTH, b: Seat = Seat.EAST) -> Deal:
    """``deal`` with the lowest card of ``a`` and the highest of ``b`` changing hands (two cards swapped)."""
    ha, hb = deal.hands[a], deal.hands[b]
    low = ha & -ha
    high = 1 << (hb.bit_length() - 1)
    hands = list(deal.hands)
    hands[a] = ha & ~low | high
    hands[b] = hb & ~high | low
    return Deal.from_masks(hands)


def turned(deal: Deal, k: int = 1) -> Deal:
    """``deal`` with every hand moved ``k`` seats clockwise (North's hand to East for k = 1)."""
    return Deal.from_masks(deal.hands[(s - k) % 4] for s in range(4))


def _lin_play(deal: Deal, leader: Seat, tricks: int = 2) -> list[str]:
    """Some legal cards in no trumps: each player follows with their lowest card of the suit led, else
    discards their lowest card; the highest card of the suit led wins the trick."""
    hands = list(deal.hands)
    out = []
    for _t in range(tricks):
        led: int | None = None
        best = (-1, leader)
        for j in range(4):
            seat = (leader + j) % 4
            h = hands[seat]
            suit_cards = h & (0x1FFF << 13 * led) if led is not None else 0
            pick = suit_cards or h
            card = (pick & -pick).bit_length() - 1
            led = card // 13 if led is None else led
            if card // 13 == led and card > best[0]:
                best = (card, seat)
            hands[seat] &= ~(1 << card)
            out.append("CDHS"[card // 13] + "23456789TJQKA"[card % 13])
        leader = Seat(best[1])
    return out


def two_room_lin(
    path: Path, count: int = 15, *, spoil: int | None = None, seed: int = 26, first: int = 1, rs: bool = True
) -> Path:
    """A vugraph of ``count`` boards, each in the open and the closed room; ``spoil``: board whose closed
    room holds two cards swapped."""
    lines = [
        f"vg|Club teams,Segment 1,I,{first},{first + count - 1},Home,0,Away,0|",
    ]
    if rs:
        lines.append("rs|" + ",".join(r for k in range(count) for r in _lin_results(first + k)) + "|")
    lines.append("pn|" + ",".join(PLAYERS) + "|pg||")
    for k, deal in enumerate(deals(count, seed)):
        n = first + k
        for room in "oc":
            d = swapped(deal) if room == "c" and spoil == n else deal
            board = Board.numbered(n, d)
            vul = VUL[vulnerability_for_board(n).text]
            calls = "mb|1S|mb|p|mb|4S|mb|p|mb|p|mb|p|pg||"
            play = "".join(f"pc|{c}|" for c in _lin_play(d, Seat((dealer_for_board(n) + 1) % 4)))
            lines.append(f"qx|{room}{n}|st||md|{md_text(board)}|sv|{vul}|{calls}{play}pg||")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lin_results(n: int) -> tuple[str, str]:
    """The open and closed rooms' ``rs`` entries: 4S by the dealer (who opens 1S), made and one down."""
    dealer = dealer_for_board(n).letter
    return f"4S{dealer}=", f"4S{dealer}-1"


def _pbn_game(n: int, deal: Deal, extra: str = "", *, dealer: Seat | None = None) -> str:
    dealer = dealer if dealer is not None else dealer_for_board(n)
    return (
        f'[Event "Club teams"]\n[Board "{n}"]\n[Dealer "{dealer.letter}"]\n'
        f'[Vulnerable "{vulnerability_for_board(n).text}"]\n[Deal "{deal.to_pbn()}"]\n{extra}'
    )


def two_room_pbn(path: Path, count: int = 15, *, spoil: int | None = None, seed: int = 26, first: int = 1) -> Path:
    """A team match as PBN, each board in the open and the closed room."""
    games = []
    for k, deal in enumerate(deals(count, seed)):
        n = first + k
        for room, (decl, contract, result) in (("Open", ("N", "4S", "10")), ("Closed", ("S", "3NT", "9"))):
            d = swapped(deal) if room == "Closed" and spoil == n else deal
            extra = f'[Room "{room}"]\n[Declarer "{decl}"]\n[Contract "{contract}"]\n[Result "{result}"]\n'
            games.append(_pbn_game(n, d, extra))
    path.write_text("\n".join(games), encoding="utf-8")
    return path


TABLE_RESULTS = (("N", "4S", "10"), ("S", "3NT", "9"), ("E", "5DX", "8"), ("W", "2H", "8"), ("N", "4H", "11"))


def traveller_pbn(
    path: Path, count: int = 27, tables: int = 3, *, spoil: tuple[int, int] | None = None, seed: int = 26
) -> Path:
    """A scoring program's export: every board once a table, with that table's contract and result;
    ``spoil`` = (board, table) whose record holds two cards swapped."""
    games = []
    for k, deal in enumerate(deals(count, seed)):
        n = k + 1
        for t in range(1, tables + 1):
            decl, contract, result = TABLE_RESULTS[(t - 1) % len(TABLE_RESULTS)]
            d = swapped(deal) if spoil == (n, t) else deal
            extra = f'[Declarer "{decl}"]\n[Contract "{contract}"]\n[Result "{result}"]\n'
            games.append(_pbn_game(n, d, extra))
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def plain_pbn(path: Path, count: int = 16, *, seed: int = 26, first: int = 1, turn: int = 0) -> Path:
    """Hand records: ``count`` boards numbered from ``first``, their hands turned ``turn`` seats clockwise."""
    games = [_pbn_game(first + k, turned(d, turn) if turn else d) for k, d in enumerate(deals(count, seed))]
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def renumbered(path: Path, count: int = 16, *, seed: int = 26, first: int = 17, turn: int = 1) -> Path:
    """The same deals as ``plain_pbn(seed=seed)``, numbered from ``first`` and turned a quarter."""
    return plain_pbn(path, count, seed=seed, first=first, turn=turn)


LESSON_TEXT = "Count your tricks first. Café au lait à la carte"


def lesson_lin(path: Path, count: int = 56, *, bad: dict[int, str] | None = None, seed: int = 26) -> Path:
    """A teacher's lesson file: ``count`` deals, each with commentary, an auction and the opening lead; ``bad``
    maps a board number to what spoils it: ``"pc"`` (``pc|NT2|``, as endplay writes a ten), ``"md"`` (a
    malformed deal), ``"partial"`` (an ending: only North and South hold cards)."""
    bad = bad or {}
    parts = []
    for k, deal in enumerate(deals(count, seed)):
        n = k + 1
        board = Board.numbered(n, deal)
        md = md_text(board)
        if bad.get(n) == "md":
            md = md[:1] + "SAKQXJ" + md[7:]
        elif bad.get(n) == "partial":
            ending = Deal.from_masks((deal.hands[0] & 0x1FFF, 0, deal.hands[2] & 0x1FFF, 0))
            md = md_text(Board.numbered(n, ending))
        lead = "NT2" if bad.get(n) == "pc" else _lin_play(deal, Seat((dealer_for_board(n) + 1) % 4), 1)[0]
        play = "" if bad.get(n) == "partial" else f"pc|{lead}|pg||"
        vul = VUL[vulnerability_for_board(n).text]
        parts.append(
            f"pn|South,West,North,East|st||md|{md}|rh||ah|Board {n}|sv|{vul}|"
            f"nt|{LESSON_TEXT} (deal {n})|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pg||{play}\n"
        )
    path.write_text("".join(parts), encoding="utf-8")
    return path


def contract_of(board: Board) -> Contract | None:
    return board.contract_and_declarer()[0]


__all__ = [
    "LESSON_TEXT",
    "PLAYERS",
    "Strain",
    "contract_of",
    "deals",
    "lesson_lin",
    "plain_pbn",
    "renumbered",
    "swapped",
    "traveller_pbn",
    "turned",
    "two_room_lin",
    "two_room_pbn",
]
