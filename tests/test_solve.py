"""Double-dummy solving (bridgeview.solve): tables against other programs', par, endings, positions."""

from __future__ import annotations

import functools
import random
import re
import subprocess
import sys

import pytest
from conftest import REALDATA
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability
from bridgeview.solve import dds
from bridgeview.solve.boards import (
    difference_note,
    makeable_line,
    merged,
    needs_solving,
    par_line,
    par_tags,
)

TABLE_FILES = (
    "pbn/dealconvert_test_16boards.pbn",
    "pbn/endplay_sample_optimumresulttable.pbn",
    "pbn/pbnj_veugen_correct_21.pbn",
    "pbn/zdenecek_bridgecomposer_latin1.pbn",
)
ROW = re.compile(r"^\s*([NESW])\s+(NT|[SHDC])\s+(\d+)\s*$")


def pbn_games(path) -> list[dict]:
    """Deal, dealer, vulnerability, stored DD cells and OptimumScore of each game (a small test-only parser)."""
    games: list[dict] = []
    game: dict | None = None
    in_table = False
    for line in path.read_text(encoding="latin-1").splitlines():
        m = re.match(r'^\[(\w+) "(.*)"\]', line)
        if m:
            tag, value = m.groups()
            in_table = tag == "OptimumResultTable"
            if tag == "Event" or game is None:
                game = {"cells": {}}
                games.append(game)
            game[tag] = value
            continue
        if in_table and game is not None:
            r = ROW.match(line)
            if r:
                seat = Seat.from_letter(r.group(1))
                game["cells"][(seat, Strain.from_text(r.group(2)))] = int(r.group(3))
            else:
                in_table = False
    return [g for g in games if "Deal" in g]


def stored_table(game: dict) -> DDTable:
    rows = [[game["cells"].get((Seat(s), Strain(t))) for t in range(5)] for s in range(4)]
    return DDTable.from_rows(rows)


def random_deal(rng: random.Random) -> Deal:
    cards = list(range(52))
    rng.shuffle(cards)
    return Deal.from_owners([cards.index(c) // 13 for c in range(52)])


# -- tables against other programs' ------------------------------------------------
@pytest.fixture(scope="module")
def real_games():
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not present")
    picked = []
    for name, count in zip(TABLE_FILES, (4, 2, 2, 2), strict=True):
        games = [g for g in pbn_games(REALDATA / name) if g["cells"]]
        picked.extend(games[:count])
    deals = [Deal.from_pbn(g["Deal"]) for g in picked]
    tables = dds.solve_tables(deals)
    return picked, tables


@pytest.mark.slow
def test_tables_match_other_programs(real_games):
    games, tables = real_games
    assert len(games) >= 8
    cells = 0
    for game, table in zip(games, tables, strict=True):
        assert table is not None and table.is_complete
        for (seat, strain), value in game["cells"].items():
            assert table.get(seat, strain) == value, (game.get("Board"), seat, strain)
            cells += 1
    assert cells >= 150


def test_par_matches_optimum_score():
    """Par from the stored tables equals the OptimumScore the other programs wrote."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not present")
    checked = 0
    for name in TABLE_FILES:
        for g in pbn_games(REALDATA / name):
            table = stored_table(g)
            m = re.match(r"^NS\s*([+-]?\d+)$", g.get("OptimumScore", ""))
            if not table.is_complete or not m:
                continue
            got = dds.par(table, Vulnerability.from_text(g["Vulnerable"]), Seat.from_letter(g["Dealer"]))
            assert got is not None
            assert got[0] == int(m.group(1)), (name, g.get("Board"))
            checked += 1
    assert checked >= 10


def test_par_of_a_known_deal():
    deal = Deal.from_pbn("N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4")
    table = DDTable.from_rows([[6, 5, 4, 3, 6], [6, 8, 9, 10, 7], [6, 5, 4, 3, 6], [6, 8, 9, 10, 7]])
    assert dds.par(table, Vulnerability.NONE, Seat.NORTH) == (-420, ["EW 4S"])
    assert dds.par_text(table, Vulnerability.NONE, Seat.NORTH) == "Par EW 420: EW 4S"
    vul = dds.par(table, Vulnerability.EW, Seat.NORTH)
    assert vul is not None and vul[0] == -620
    # a sacrifice: NS cold for 6S, EW save in 7C doubled (not vulnerable against vulnerable)
    sac = DDTable.from_rows([[2, 2, 7, 12, 9], [10, 9, 6, 1, 4], [2, 2, 7, 12, 9], [10, 9, 6, 1, 4]])
    assert dds.par(sac, Vulnerability.NS, Seat.NORTH) == (500, ["EW 7CX-3"])
    assert dds.par(DDTable.unknown(), Vulnerability.NONE, Seat.NORTH) is None
    board_like = Deal.from_pbn("N:AKQ... ...AKQ .AKQ.. ..AKQ.")
    assert dds.par(board_like, Vulnerability.NONE, Seat.NORTH) is None  # an ending has no par
    assert deal.is_complete


# -- endings, batching, cancel ---------------------------------------------------------
def test_three_card_ending():
    ending = Deal.from_pbn("N:AKQ... ...AKQ .AKQ.. ..AKQ.")
    table = dds.solve_table(ending)
    assert table is not None
    assert table.get(Seat.NORTH, Strain.SPADES) == 3
    assert table.get(Seat.NORTH, Strain.HEARTS) == 3  # partner's trumps
    assert table.get(Seat.NORTH, Strain.NOTRUMP) == 0  # East leads clubs
    assert table.get(Seat.EAST, Strain.NOTRUMP) == 0  # South leads hearts
    assert table.get(Seat.WEST, Strain.CLUBS) == 3
    assert max(v for row in table.tricks for v in row) <= 3


def test_unsolvable_deals_give_none():
    uneven = Deal.from_pbn("N:AKQ... ...AK .AKQ.. ..AKQ.")
    assert dds.unsolvable_reason(uneven) == "the hands hold different numbers of cards"
    assert dds.unsolvable_reason(Deal.empty()) == "the deal has no cards"
    one = Deal.from_pbn("N:A... .A.. ..A. ...A")
    got = dds.solve_tables([uneven, one, Deal.empty()])
    assert got[0] is None and got[2] is None
    assert got[1] is not None and got[1].get(Seat.NORTH, Strain.SPADES) == 1


def brute_ns_tricks(hands: tuple[int, ...], strain: int, leader: int) -> int:
    """NS tricks with best play, by exhaustive search (a reference for small endings)."""
    trump = strain if strain < 4 else -1

    @functools.cache
    def go(hands: tuple[int, ...], leader: int, trick: tuple[int, ...]) -> int:
        seat = (leader + len(trick)) % 4
        if not any(hands):
            return 0
        cards = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            follow = [c for c in cards if c // 13 == trick[0] // 13]
            cards = follow or cards
        results = []
        for c in cards:
            rest = list(hands)
            rest[seat] &= ~(1 << c)
            t = trick + (c,)
            if len(t) == 4:
                suit = trump if any(x // 13 == trump for x in t) else t[0] // 13
                winner = (leader + max((x, i) for i, x in enumerate(t) if x // 13 == suit)[1]) % 4
                results.append((winner % 2 == 0) + go(tuple(rest), winner, ()))
            else:
                results.append(go(tuple(rest), leader, t))
        return max(results) if seat % 2 == 0 else min(results)

    return go(tuple(hands), leader, ())


def endings(n: int, count: int, seed: int = 5) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(range(52), 4 * n)
        out.append(Deal(tuple(sum(1 << c for c in cards[s * n : (s + 1) * n]) for s in range(4))))  # type: ignore[arg-type]
    return out


def expected_table(deal: Deal) -> list[list[int]]:
    n = deal.hands[0].bit_count()
    rows = []
    for declarer in range(4):
        row = []
        for strain in range(5):
            ns = brute_ns_tricks(deal.hands, strain, (declarer + 1) % 4)
            row.append(ns if declarer % 2 == 0 else n - ns)
        rows.append(row)
    return rows


@pytest.mark.parametrize("n", [1, 2, 3])
def test_small_endings_match_exhaustive_search(n):
    """DDS 2.9 is wrong on one-card endings; we work those out ourselves."""
    deals = endings(n, 12 if n < 3 else 6, seed=n)
    for deal, table in zip(deals, dds.solve_tables(deals), strict=True):
        assert [list(r) for r in table.tricks] == expected_table(deal), deal


def test_batches_hold_at_most_forty_deals(monkeypatch):
    sizes: list[int] = []
    real = dds._solve_batch

    def spy(deals):
        sizes.append(len(deals))
        return real(deals)

    monkeypatch.setattr(dds, "_solve_batch", spy)
    deals = endings(2, 95)
    seen: list[int] = []
    progress: list[tuple[int, int]] = []
    tables = dds.solve_tables(
        deals, on_table=lambda i, t: seen.append(i), progress=lambda d, t: progress.append((d, t))
    )
    assert sizes == [40, 40, 15]
    assert sorted(seen) == list(range(95))
    assert progress[-1] == (95, 95)
    for deal, table in list(zip(deals, tables, strict=True))[::10]:
        assert [list(r) for r in table.tricks] == expected_table(deal)


def test_cancel_between_batches():
    deals = endings(2, 100)
    seen: list[int] = []
    with pytest.raises(dds.SolveCancelled):
        dds.solve_tables(deals, progress=lambda d, t: d < 40, on_table=lambda i, t: seen.append(i), batch=20)
    assert sorted(seen) == list(range(40))
    calls = iter([False, True])
    with pytest.raises(dds.SolveCancelled):
        dds.solve_tables(deals, cancel=lambda: next(calls), batch=30, on_table=lambda i, t: seen.append(i))


# -- positions during play --------------------------------------------------------------
DEAL = Deal.from_pbn("N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4")


def test_opening_leads_agree_with_the_table():
    """Defenders' best lead leaves declarer the table's tricks; leads that cost show more."""
    values = dds.solve_position(DEAL, [], Seat.EAST, Strain.NOTRUMP, Seat.NORTH)
    assert set(values) == set(DEAL.cards(Seat.EAST))
    assert min(values.values()) == 6  # N NT from the table
    costly = dds.costly_cards(values, Seat.EAST, Seat.NORTH)
    assert costly == {c for c, v in values.items() if v > 6}
    assert {str(c) for c in costly} == {"D8", "D9"}


def test_position_mid_trick_counts_tricks_won():
    sa = Card.parse("SA")
    remaining = DEAL.without([sa])
    values = dds.solve_position(remaining, [sa], Seat.EAST, Strain.NOTRUMP, Seat.NORTH, won=2)
    # South must follow in spades; the values are declarer's side's totals: already won + from here on
    assert {str(c) for c in values} == {"ST", "S9", "SJ"}
    assert all(2 <= v <= 15 for v in values.values())
    base = dds.solve_position(remaining, [sa], Seat.EAST, Strain.NOTRUMP, Seat.NORTH)
    assert {c: v + 2 for c, v in base.items()} == values
    with pytest.raises(ValueError):
        dds.solve_position(DEAL, [sa], Seat.EAST, Strain.NOTRUMP, Seat.NORTH)  # SA still in a hand


def test_last_trick_is_forced():
    ending = Deal.from_pbn("N:A... K... ..A. ...2")
    assert dds.solve_position(ending, [], Seat.WEST, Strain.CLUBS, Seat.NORTH, won=9) == {Card.parse("C2"): 9}
    c2 = Card.parse("C2")
    got = dds.solve_position(ending.without([c2]), [c2], Seat.WEST, Strain.NOTRUMP, Seat.NORTH, won=9)
    assert got == {Card.parse("SA"): 9}  # a club was led: West's two wins
    spades = Deal.from_pbn("N:A... K... ..A. 2...")
    assert dds.solve_position(spades, [], Seat.WEST, Strain.NOTRUMP, Seat.NORTH, won=9) == {Card.parse("S2"): 10}


def test_position_in_an_ending_declarer_to_play():
    ending = Deal.from_pbn("N:AK... QJ... ..AK. ..QJ.")
    values = dds.solve_position(ending, [], Seat.NORTH, Strain.NOTRUMP, Seat.SOUTH, won=11)
    assert values == {Card.parse("SA"): 13, Card.parse("SK"): 13}


# -- conversions and board helpers -------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_endplay_round_trip(rng):
    deal = random_deal(rng)
    keep = rng.randrange(0, 2**52)
    partial = Deal(tuple(h & keep for h in deal.hands))  # type: ignore[arg-type]
    for d in (deal, partial):
        assert dds.from_endplay(dds.to_endplay(d)) == d
    assert dds.to_endplay(deal).to_pbn() == deal.to_pbn()


def test_board_helpers():
    from bridgeview.model.board import Board

    table = DDTable.from_rows([[6, 5, 4, 3, 6], [6, 8, 9, 10, 7], [6, 5, 4, 3, 6], [6, 8, 9, 10, 7]])
    board = Board.numbered(1, DEAL, dd=table)
    assert not needs_solving(board)
    assert needs_solving(Board.numbered(1, DEAL))
    assert par_line(board) == "Par EW 420: EW 4S"
    assert par_tags(board) == {"OptimumScore": "NS -420", "ParContract": "EW 4S"}
    assert makeable_line(table) == "Makes: EW 1NT 4S 3H 2D"
    partial = table.with_value(0, 4, None)
    assert merged(partial, table) == table
    assert merged(table.with_value(0, 4, 9), partial) == table.with_value(0, 4, 9)
    note, cells = difference_note(table.with_value(0, 4, 9).with_value(1, 0, 1), table)
    assert note == "stored table differs from DDS in 2 cells"
    assert cells == {(0, 4), (1, 0)}
    assert difference_note(table, table) == ("", set())


def test_importing_does_not_load_endplay():
    code = (
        "import sys\n"
        "import bridgeview.cli.main, bridgeview.ui.mainwindow, bridgeview.solve, bridgeview.solve.boards\n"
        "import bridgeview.cli.solve, bridgeview.ui.analysis.solver\n"
        "bridgeview.cli.main.build_parser()\n"
        "print('endplay' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    try:
        import bridgeview.ui.mainwindow  # noqa: F401
    except ImportError:
        code = code.replace(" bridgeview.ui.mainwindow,", "")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def test_licences_are_shipped():
    from bridgeview.resources import resource

    dds_text = open(resource("licenses", "DDS-Apache-2.0.txt"), encoding="utf-8").read()
    assert "Apache License" in dds_text and "Version 2.0" in dds_text and "Haglund" in dds_text
    # DDS's own LICENSE file (endplay's wheel lacks it): its filled-in notice, not the template's
    assert "Copyright 2014 by Bo Haglund / Soren Hein as of version 2.8.0." in dds_text
    assert "[yyyy]" not in dds_text and "END OF TERMS AND CONDITIONS" in dds_text
    endplay_text = open(resource("licenses", "endplay-MIT.txt"), encoding="utf-8").read()
    assert "Permission is hereby granted" in endplay_text and "Dominic Price" in endplay_text
