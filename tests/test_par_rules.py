"""Par worked out without DDS (bridgeview.solve.par_rules) against DDS's own dealer par, and what users see of it.

DDS's ``DealerPar`` text is the reference: its binary form (``DealerParBin``, which bridgeview called
before) reads a sacrifice by one player in the primacy side's own strain as a made contract ("W 6D" for
W 6DX-3), or as "+48" overtricks when another contract comes first.  The text is parsed here.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.model.cards import Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.vulnerability import Vulnerability
from bridgeview.solve import dds
from bridgeview.solve.par_rules import contract_score, dealer_par, doubled_penalty

_DDS_VUL = {Vulnerability.NONE: 0, Vulnerability.ALL: 1, Vulnerability.NS: 2, Vulnerability.EW: 3}
_BIN_ORDER = "NSHDC"
_TEXT = re.compile(r"([1-7])([CDHSN])(\*?)-([NESW]{1,2})(?:([+-])(\d))?")


def _dds_par(rows: list[list[int]], vul: Vulnerability, dealer: Seat) -> tuple[int, list[tuple]]:
    """DDS's DealerPar for the table: (NS score, [(level, strain, seats, doubled, overtricks)]) sorted as
    DealerParBin sorts them (NT S H D C, stable)."""
    pytest.importorskip("endplay")
    dds.load_dds_only()
    from endplay import _dds as binding

    table = binding.ddTableResults()
    for seat in range(4):
        for strain in range(5):
            table.resTable[4 if strain == 4 else 3 - strain][seat] = rows[seat][strain]
    result = binding.parResultsDealer()
    binding.DealerPar(table, result, int(dealer), _DDS_VUL[vul])
    texts = [bytes(result.contracts[i]).split(b"\0")[0].decode() for i in range(result.number)]
    if texts == ["pass"]:
        return 0, []
    out = []
    for text in texts:
        m = _TEXT.fullmatch(text)
        assert m, text
        level, letter, star, seats, sign, count = m.groups()
        down = bool(star) or sign == "-"  # DDS writes a one-player sacrifice in the same strain without its *
        over = (-int(count) if down else int(count)) if count else 0
        out.append((int(level), "CDHSN".index(letter), seats, down, over))
    out.sort(key=lambda c: _BIN_ORDER.index("CDHSN"[c[1]]))
    return result.score, out


def _ours(rows: list[list[int]], vul: Vulnerability, dealer: Seat) -> tuple[int, list[tuple]]:
    score, contracts = dealer_par(rows, vul, dealer)
    return score, [(c.level, int(c.strain), c.seats, c.doubled, c.overtricks) for c in contracts]


def _table_like(rng: random.Random) -> list[list[int]]:
    """Rows as real deals make them: partners close, the other side near 13 minus."""
    rows = [[0] * 5 for _ in range(4)]
    for strain in range(5):
        ns = rng.randint(0, 13)
        ew = max(0, min(13, 13 - ns + rng.choice((0, 0, -1, 1))))
        rows[0][strain], rows[1][strain] = ns, ew
        rows[2][strain] = max(0, min(13, ns + rng.choice((0, 0, 0, -1, 1))))
        rows[3][strain] = max(0, min(13, ew + rng.choice((0, 0, 0, -1, 1))))
    return rows


def test_par_agrees_with_dds_on_twenty_thousand_tables():
    rng = random.Random(29)
    for i in range(20_000):
        rows = _table_like(rng) if i % 3 else [[rng.randint(0, 13) for _ in range(5)] for _ in range(4)]
        vul, dealer = Vulnerability(rng.randint(0, 3)), Seat(rng.randint(0, 3))
        assert _ours(rows, vul, dealer) == _dds_par(rows, vul, dealer), (rows, vul, dealer)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 13), min_size=5, max_size=5), min_size=4, max_size=4),
    st.sampled_from(list(Vulnerability)),
    st.sampled_from(list(Seat)),
)
def test_par_agrees_with_dds_on_any_table(rows, vul, dealer):
    assert _ours(rows, vul, dealer) == _dds_par(rows, vul, dealer)


def test_a_sacrifice_by_one_player_in_the_same_strain_is_shown_doubled_and_down():
    """DDS's binary par said "W 6D" (a made slam?) for W 6DX-3, and "S 6S+48" for S 6SX-1."""
    table = DDTable.from_rows([[9, 12, 0, 6, 11], [9, 5, 8, 4, 8], [3, 0, 4, 0, 1], [1, 9, 8, 0, 3]])
    assert dds.par(table, Vulnerability.ALL, Seat.SOUTH) == (800, ["W 6DX-3"])
    assert dds.par_text(table, Vulnerability.ALL, Seat.SOUTH) == "Par NS 800: W 6DX-3"
    two = DDTable.from_rows([[5, 0, 12, 3, 0], [11, 7, 0, 1, 8], [11, 3, 5, 11, 7], [11, 9, 4, 12, 5]])
    assert dds.par(two, Vulnerability.NONE, Seat.EAST) == (-100, ["S 6SX-1", "N 7HX-1"])


def test_par_contracts_lowered_sacrifices_and_pass_outs():
    # NS make 4S (10 tricks) and EW nothing: 4S just making, by both
    rows = [[6, 6, 6, 10, 6], [3, 3, 3, 3, 3], [6, 6, 6, 10, 6], [3, 3, 3, 3, 3]]
    assert _ours(rows, Vulnerability.NONE, Seat.NORTH) == (420, [(4, int(Strain.SPADES), "NS", False, 0)])
    # only North takes 12 tricks in NT: 6NT by N; vulnerable 1440
    rows = [[6, 6, 6, 6, 12], [1, 1, 1, 1, 1], [6, 6, 6, 6, 11], [1, 1, 1, 1, 1]]
    assert _ours(rows, Vulnerability.NS, Seat.EAST) == (1440, [(6, int(Strain.NOTRUMP), "N", False, 0)])
    # a part score the other side cannot outbid cheaply: 2H making 9 tricks is bid as 2H+1
    rows = [[5, 5, 9, 5, 5], [6, 6, 4, 6, 6], [5, 5, 9, 5, 5], [6, 6, 4, 6, 6]]
    assert _ours(rows, Vulnerability.NONE, Seat.NORTH) == _dds_par(rows, Vulnerability.NONE, Seat.NORTH)
    score, contracts = dealer_par(rows, Vulnerability.NONE, Seat.NORTH)
    assert score > 0 and contracts and all(c.strain == Strain.HEARTS for c in contracts)
    # nobody makes seven tricks: passed out
    rows = [[6] * 5, [6] * 5, [6] * 5, [6] * 5]
    assert dealer_par(rows, Vulnerability.ALL, Seat.WEST) == (0, [])
    assert dds.par_text(DDTable.from_rows(rows), Vulnerability.ALL, Seat.WEST) == "Par NS 0: passed out"


def test_both_sides_make_the_same_contract_it_goes_to_who_speaks_first():
    rows = [[7, 3, 3, 3, 3], [7, 3, 3, 3, 3], [3, 3, 3, 3, 3], [3, 3, 3, 3, 3]]  # N and E make 1C
    assert dealer_par(rows, Vulnerability.NONE, Seat.NORTH)[0] > 0  # North speaks first
    assert dealer_par(rows, Vulnerability.NONE, Seat.EAST)[0] < 0  # East does
    for dealer in Seat:
        assert _ours(rows, Vulnerability.NONE, dealer) == _dds_par(rows, Vulnerability.NONE, dealer)


def test_scores():
    assert [contract_score(n, False) for n in (1, 8, 10, 15, 19, 21, 26, 35)] == [
        70,
        110,
        120,
        400,
        420,
        400,
        920,
        1520,
    ]
    assert [contract_score(n, True) for n in (15, 19, 29, 35)] == [600, 620, 1430, 2220]
    assert [doubled_penalty(d, False) for d in range(6)] == [0, 100, 300, 500, 800, 1100]
    assert [doubled_penalty(d, True) for d in range(6)] == [0, 200, 500, 800, 1100, 1400]


def test_a_score_without_a_contract_is_said_without_one(monkeypatch):
    """DDS's rules can name no contract with a score (a lower candidate drawing a dearer sacrifice than the
    first): the line says the score alone, not "passed out", and no ParContract tag claims a pass."""
    from bridgeview.model.board import Board
    from bridgeview.model.deal import Deal
    from bridgeview.solve import boards

    monkeypatch.setattr(dds, "par_contracts", lambda *a: (300, []))
    table = DDTable.from_rows([[7] * 5] * 4)
    assert dds.par_text(table, Vulnerability.NONE, Seat.NORTH) == "Par NS 300"
    board = Board.numbered(1, Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"))
    assert boards.par_tags(board, table) == {"OptimumScore": "NS 300"}
