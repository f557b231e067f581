"""Repeated board numbers and deals, and the tables of a board, are found from compact columns, not a dict
entry a board.

``validate`` notes each record's hands, number, dealer and vulnerability in :class:`model.tables.BoardColumns`
and sorts them at the end; :func:`model.tables.set_tables` groups the tables of each board the same way.
These tests hold both to the plain definition (a dict of the first record of each number and each deal, as
validate used to keep), and hold the board-by-board pass over a big lazily read PBN file to flat memory and to
giving back the mapped pages it has read.
"""

from __future__ import annotations

import mmap
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memorykit import traced_peak

from bridgeview.check.validate import validate
from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.pbn.codec import document_text
from bridgeview.formats.registry import read_file
from bridgeview.model import boardset
from bridgeview.model import tables as tables_module
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal
from bridgeview.model.tables import DEAL, DEALER, VULNERABILITY, BoardColumns, Conflict, board_columns
from bridgeview.model.vulnerability import Vulnerability

DEALS = [Deal.shuffled(random.Random(k)) for k in range(4)] + [Deal.empty()]
NUMBERS = [None, 1, 2, 3, -4, 2**63 - 1, 2**63, 2**80]
DEALERS = [None, Seat.NORTH, Seat.EAST]
VULS = [None, Vulnerability.NONE, Vulnerability.ALL]


def reference(entries: list[Board | None]) -> tuple[set, set, dict]:
    """The repeats by their definition: each record that differs from the first record of its number (in the
    deal, else a stated dealer, else a stated vulnerability), each record whose hands an earlier one had, and
    the first record of each record's board (the same number and cards)."""
    first_number: dict[int, int] = {}
    first_deal: dict[tuple, int] = {}
    first_board: dict[tuple, int] = {}
    conflicts, deals, boards = set(), set(), {}
    for i, b in enumerate(entries):
        if b is None:
            continue
        if b.number is not None:
            j = first_number.setdefault(b.number, i)
            f = entries[j]
            assert f is not None
            if f.deal.hands != b.deal.hands:
                conflicts.add(Conflict(i, j, DEAL))
            elif None not in (f.dealer, b.dealer) and f.dealer != b.dealer:
                conflicts.add(Conflict(i, j, DEALER))
            elif None not in (f.vulnerability, b.vulnerability) and f.vulnerability != b.vulnerability:
                conflicts.add(Conflict(i, j, VULNERABILITY))
            if b.deal.card_count and -(2**63) <= b.number < 2**63:
                boards[i] = first_board.setdefault((b.number, b.deal.hands), i)
        if b.deal.card_count:
            j = first_deal.setdefault(b.deal.hands, i)
            if j != i:
                deals.add((i, j))
    return conflicts, deals, boards


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.tuples(
                st.sampled_from(NUMBERS),
                st.sampled_from(range(len(DEALS))),
                st.sampled_from(DEALERS),
                st.sampled_from(VULS),
            ),
        ),
        max_size=24,
    ),
    st.sampled_from([1, 2, 3, 1 << 20]),
    st.sampled_from([-1, 1 << 20]),
)
@pytest.mark.slow
def test_repeats_and_tables_are_what_a_dict_of_first_records_finds(picks: list, slice_rows: int, small: int) -> None:
    """Every record whose number an earlier record used with other hands, dealer or vulnerability (in any room
    or table), every deal an earlier record had, and the tables of every board: whatever the slice the groups
    are compared in, in sorted columns (a big set) or with dicts (a small one, without numpy)."""
    entries = [
        None if p is None else Board(number=p[0], deal=DEALS[p[1]], dealer=p[2], vulnerability=p[3]) for p in picks
    ]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tables_module, "_SLICE", slice_rows)
        mp.setattr(tables_module, "SMALL_SET", small)
        found = BoardColumns()
        for b in entries:
            found.add(b)
        got = set(found.conflicts()), set(found.deals_dealt_again())
        tables = found.tables()
    conflicts, deals, boards = reference(entries)
    assert got == (conflicts, deals)
    assert [found.number(i) for i in range(len(entries))] == [b.number if b else None for b in entries]
    assert {i: tables.first_of(i) for i in boards} == boards
    assert all(tables.first_of(i) == i for i in range(len(entries)) if i not in boards)
    assert len(tables) == len(entries) - sum(1 for i, f in boards.items() if f != i)
    for i in range(len(entries)):
        assert tables.tables_of(i) == sorted(k for k in range(len(entries)) if tables.first_of(k) == tables.first_of(i))
    assert set(tables.conflicts) == conflicts
    assert board_columns(entries).tables().places() == tables.places()


def deals_file(path: Path, count: int) -> Path:
    """``count`` numbered boards with their own random deals, as PBN."""
    rng = random.Random(count)
    boards = BoardSet([Board.numbered(n, Deal.shuffled(rng)) for n in range(1, count + 1)])
    path.write_text(document_text(boards)[0], encoding="utf-8")
    return path


def _validate_peak(path: Path) -> tuple[int, list]:
    doc = read_file(path)
    assert doc.is_lazy
    doc[0]  # the modules a decode imports are not the pass's memory
    return traced_peak(lambda: validate(doc))


@pytest.mark.slow
def test_validating_a_big_lazy_pbn_keeps_no_object_a_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Validating a lazily read PBN four times bigger costs no more than the columns of its boards and the
    sort over them (about 45 + 40 bytes a board): no dict entry, tuple or board a board (the pass used to
    keep two dicts, some 400 bytes a board: 4 GB for 10.5 million boards)."""
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    _validate_peak(deals_file(tmp_path / "warm.pbn", 3_000))  # the reader's caches of suits and values fill up
    small, problems = _validate_peak(deals_file(tmp_path / "small.pbn", 2_000))
    big, big_problems = _validate_peak(deals_file(tmp_path / "big.pbn", 8_000))
    assert problems == [] and big_problems == []
    assert (big - small) / 6_000 < 150, (small, big)


def test_a_board_by_board_pass_gives_back_the_pages_it_has_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages of the games validated are given back as the pass goes, and a board asked for again (the
    first of a repeated deal) reads the same."""
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    monkeypatch.setattr(boardset, "RELEASE_BYTES", mmap.PAGESIZE)
    path = deals_file(tmp_path / "deals.pbn", 3_000)
    text = path.read_text(encoding="utf-8")
    first_deal = text[text.index('[Deal "') : text.index("\n", text.index('[Deal "'))]
    last = text.rindex('[Deal "')
    path.write_text(text[:last] + first_deal + text[text.index("\n", last) :], encoding="utf-8")
    doc = read_file(path)
    assert doc.is_lazy
    problems = validate(doc)
    assert doc._released > len(path.read_bytes()) // 2
    assert [str(p) for p in problems] == ["line 47990, board 3000: same deal as board 1"]
    assert doc[0].deal == doc[2999].deal
