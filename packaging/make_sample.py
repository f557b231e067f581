"""Build ``resources/sample.pbn``: 16 realistic boards for the app to open when started without files.

Fixed seed, random full deals, DD tables from endplay, a natural-looking
auction to a contract the DD table supports (sometimes doubled), and for most
boards a double-dummy-best play: full for some, a claim part-way for others.
The PBN text is written here directly, in PBN 2.1 syntax, so the sample does
not depend on our own PBN writer.  Run:  python packaging/make_sample.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgeview.model.auction import Call, Contract, auction_problems, final_contract  # noqa: E402
from bridgeview.model.board import Board  # noqa: E402
from bridgeview.model.cards import DISPLAY_STRAINS, Card, Seat, Strain, ranks_text  # noqa: E402
from bridgeview.model.ddtable import DDTable  # noqa: E402
from bridgeview.model.deal import Deal  # noqa: E402
from bridgeview.model.play import replay  # noqa: E402
from bridgeview.model.vulnerability import dealer_for_board, vulnerability_for_board  # noqa: E402

SEED = 20240607
OUT = ROOT / "resources" / "sample.pbn"
PLAYERS = {Seat.WEST: "Wendy", Seat.NORTH: "Nora", Seat.EAST: "Ed", Seat.SOUTH: "Sam"}
#: which boards get a full play record, and which a claim after some tricks
FULL_PLAY = {1, 2, 4, 7, 10, 13}
CLAIM_AFTER = {3: 6, 5: 9, 8: 4, 11: 7, 14: 10, 16: 8}


random_deal = Deal.shuffled


def suit_length(deal: Deal, seat: int, suit: int) -> int:
    return len(ranks_text(deal.hands[seat], suit))


def dd_tables(deals: list[Deal]) -> list[DDTable]:
    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    tables = calc_all_tables([EDeal(d.to_pbn()) for d in deals])
    denom = {Strain.CLUBS: Denom.clubs, Strain.DIAMONDS: Denom.diamonds, Strain.HEARTS: Denom.hearts,
             Strain.SPADES: Denom.spades, Strain.NOTRUMP: Denom.nt}
    out = []
    for t in tables:
        rows = [[t[denom[Strain(st)], Player(seat)] for st in range(5)] for seat in range(4)]
        out.append(DDTable.from_rows(rows))
    return out


def choose_contract(deal: Deal, dd: DDTable, rng: random.Random) -> tuple[Contract, Seat | None, int | None]:
    """A contract the stronger side would plausibly reach: its best strain, at the level DD supports
    (games and slams where they make, else a part-score), doubled now and then when it fails."""
    ns = deal.hcp(Seat.NORTH) + deal.hcp(Seat.SOUTH)
    side = (Seat.NORTH, Seat.SOUTH) if ns >= 20 else (Seat.EAST, Seat.WEST)
    if max(deal.hcp(s) for s in side) < 10 and 18 <= ns <= 22:
        return Contract.passed_out(), None, None
    best = None
    for st in DISPLAY_STRAINS:
        for seat in side:
            t = dd.get(seat, st)
            # prefer majors and notrump at equal tricks, as players do
            bonus = {Strain.NOTRUMP: 0.3, Strain.SPADES: 0.2, Strain.HEARTS: 0.2}.get(st, 0.0)
            # the side's stronger or longer hand declares: the opener in a natural auction
            suit_len = suit_length(deal, seat, st) if st != Strain.NOTRUMP else 0
            key = (t + bonus, suit_len, deal.hcp(seat))
            if best is None or key > best[0]:
                best = (key, seat, st, t)
    _, declarer, strain, tricks = best
    game = 3 if strain == Strain.NOTRUMP else (4 if strain in (Strain.SPADES, Strain.HEARTS) else 5)
    if tricks >= 12:
        level = tricks - 6
    elif tricks - 6 >= game:
        level = game
    else:
        level = max(1, min(tricks - 6, game - 1))
        if rng.random() < 0.5:
            level = min(game, level + 1)  # an overbid, so some contracts go down
    risk = 1 if level + 6 - tricks >= 2 else 0
    return Contract(level, strain, risk), declarer, tricks


def build_auction(dealer: Seat, contract: Contract, declarer: Seat | None) -> list[Call]:
    calls: list[Call] = []
    if declarer is None:
        return [Call.parse("P")] * 4
    seat = dealer
    while seat != declarer:
        calls.append(Call.parse("P"))
        seat = seat.next
    strain = contract.strain
    calls.append(Call.bid(1, strain))  # declarer opens the strain ...
    if 1 < contract.level <= 3:
        calls += [Call.parse("P"), Call.bid(contract.level, strain)]  # ... partner raises
    elif contract.level > 3:
        calls += [Call.parse("P"), Call.bid(3, strain), Call.parse("P"), Call.bid(contract.level, strain)]
    if contract.risk:
        calls.append(Call.parse("X"))
    calls += [Call.parse("P")] * 3
    return calls


def endplay_card_to_ours(card) -> Card:
    suit = 3 - int(card.suit)  # endplay: spades 0 .. clubs 3
    rank = int(card.rank).bit_length() - 1
    return Card.of(suit, rank)


def best_play(deal: Deal, declarer: Seat, strain: Strain, cards: int) -> list[Card]:
    """``cards`` cards of double-dummy-best play (endplay), ties broken towards the lowest card."""
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    d = EDeal(deal.to_pbn())
    d.trump = {Strain.CLUBS: Denom.clubs, Strain.DIAMONDS: Denom.diamonds, Strain.HEARTS: Denom.hearts,
               Strain.SPADES: Denom.spades, Strain.NOTRUMP: Denom.nt}[strain]
    d.first = Player((int(declarer) + 1) % 4)
    out: list[Card] = []
    for _ in range(cards):
        options = list(solve_board(d))
        top = max(t for _, t in options)
        card = min((c for c, t in options if t == top), key=lambda c: int(endplay_card_to_ours(c)) % 13)
        out.append(endplay_card_to_ours(card))
        d.play(card)
    return out


def remaining_dd_tricks(deal: Deal, play: list[Card], declarer: Seat, strain: Strain) -> int:
    """Declarer's side's tricks from here on with best play (for the claim)."""
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    d = EDeal(deal.to_pbn())
    d.trump = {Strain.CLUBS: Denom.clubs, Strain.DIAMONDS: Denom.diamonds, Strain.HEARTS: Denom.hearts,
               Strain.SPADES: Denom.spades, Strain.NOTRUMP: Denom.nt}[strain]
    d.first = Player((int(declarer) + 1) % 4)
    rp = replay(deal, play, declarer, strain)
    for c in play:
        suit_map = {3: Denom.spades, 2: Denom.hearts, 1: Denom.diamonds, 0: Denom.clubs}
        ours = Card(c)
        from endplay.types import Card as ECard
        from endplay.types import Rank

        d.play(ECard(suit=suit_map[ours.suit], rank=Rank(1 << ours.rank)))
    to_play = Player(int(d.curplayer)) if hasattr(d, "curplayer") else None
    top = max(t for _, t in solve_board(d))
    on_lead_is_declarer_side = to_play is not None and Seat(int(to_play)).is_ns == declarer.is_ns
    total_left = 13 - len(rp.tricks)
    return top if on_lead_is_declarer_side else total_left - top


def pbn_call(call: Call) -> str:
    s = str(call)
    return "Pass" if s == "P" else s


def pbn_board(b: Board, event: str, date: str) -> str:
    contract, declarer = b.contract, b.declarer
    lines = [
        f'[Event "{event}"]',
        '[Site "bridgeview sample"]',
        f'[Date "{date}"]',
        '[Round "1"]',
        f'[Board "{b.number}"]',
        f'[West "{PLAYERS[Seat.WEST]}"]',
        f'[North "{PLAYERS[Seat.NORTH]}"]',
        f'[East "{PLAYERS[Seat.EAST]}"]',
        f'[South "{PLAYERS[Seat.SOUTH]}"]',
        f'[Dealer "{b.dealer.letter}"]',
        f'[Vulnerable "{b.vulnerability.text}"]',
        f'[Deal "{b.deal.to_pbn(b.dealer)}"]',
        '[Scoring "MP"]',
        f'[Declarer "{declarer.letter if declarer is not None else ""}"]',
        f'[Contract "{pbn_contract(contract)}"]',
        f'[Result "{b.result if b.result is not None else ""}"]',
        f'[Auction "{b.dealer.letter}"]',
    ]
    calls = [pbn_call(c) for c in b.auction or []]
    for i in range(0, len(calls), 4):
        lines.append(" ".join(calls[i:i + 4]))
    if b.play and declarer is not None:
        leader = declarer.next
        lines.append(f'[Play "{leader.letter}"]')
        rp = replay(b.deal, b.play, declarer, contract.strain)
        for trick in rp.tricks:
            row = ["-"] * 4
            for i, c in enumerate(trick.cards):
                seat = trick.seat_of(i)
                row[(int(seat) - int(leader)) % 4] = str(Card(c))
            lines.append(" ".join(row))
        if len(b.play) < 52:
            lines.append("*")
    lines.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
    for seat in (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST):
        for st in DISPLAY_STRAINS:
            lines.append(f"{seat.letter} {st.letter:>2} {b.dd.get(seat, st)}")
    return "\n".join(lines) + "\n"


def pbn_contract(c: Contract | None) -> str:
    if c is None:
        return ""
    if c.is_passed_out:
        return "Pass"
    return f"{c.level}{c.strain.letter}{'X' * c.risk}"


def build_boards() -> list[Board]:
    rng = random.Random(SEED)
    deals = [random_deal(rng) for _ in range(16)]
    tables = dd_tables(deals)
    boards: list[Board] = []
    for n, (deal, dd) in enumerate(zip(deals, tables, strict=True), start=1):
        dealer = dealer_for_board(n)
        contract, declarer, tricks = choose_contract(deal, dd, rng)
        auction = build_auction(dealer, contract, declarer)
        problems = auction_problems(auction, dealer)
        fc = final_contract(auction, dealer)
        assert not problems, (n, problems, auction)
        assert fc is not None and str(fc[0]) == str(contract) and fc[1] == declarer, (n, fc, contract, declarer)
        board = Board(number=n, dealer=dealer, vulnerability=vulnerability_for_board(n), deal=deal, dd=dd,
                      auction=auction, contract=contract, declarer=declarer)
        if declarer is not None:
            if n in FULL_PLAY:
                board.play = best_play(deal, declarer, contract.strain, 52)
                rp = replay(deal, board.play, declarer, contract.strain)
                board.result = rp.ns_tricks if declarer.is_ns else rp.ew_tricks
            elif n in CLAIM_AFTER:
                board.play = best_play(deal, declarer, contract.strain, 4 * CLAIM_AFTER[n])
                rp = replay(deal, board.play, declarer, contract.strain)
                won = rp.ns_tricks if declarer.is_ns else rp.ew_tricks
                board.result = won + remaining_dd_tricks(deal, board.play, declarer, contract.strain)
                board.claim = board.result
            else:
                board.result = tricks
        assert not board.problems(), (n, board.problems())
        boards.append(board)
    return boards


def main() -> int:
    boards = build_boards()
    event = "bridgeview sample boards"
    date = "2024.06.07"
    header = f"% PBN 2.1\n% EXPORT\n% Sample boards made by packaging/make_sample.py (seed {SEED})\n"
    text = header + "\n".join(pbn_board(b, event, date) for b in boards)
    OUT.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {OUT} ({len(boards)} boards)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
