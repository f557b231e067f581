"""Pavlicek's ZBS, ZBD, ZDD, ZRD and 16-byte ZRJ: byte vectors, round trips, bulk, bad input."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.formats.bulk import ABSENT, DD_UNKNOWN, BulkChunk
from bridgeview.formats.codec import ReadOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pavlicek import zbd as P
from bridgeview.formats.registry import detect, get, read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.cards import Seat
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal

SUITS_DEAL = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# N spades, E hearts, S diamonds, W clubs; fields 0-12 N(1), 13-25 E(2), 26-38 S(3), 39-51 W(0)
SUITS_ZBD = bytes.fromhex("555555a9aaaafaffff3f000000")

full_owners = st.permutations(range(52)).map(lambda p: [p.index(c) // 13 for c in range(52)])
partial_owners = st.lists(st.integers(0, 4), min_size=52, max_size=52).filter(lambda o: any(s < 4 for s in o))
trick_value = st.one_of(st.integers(0, 13), st.none())
dd_tables = st.lists(st.lists(trick_value, min_size=5, max_size=5), min_size=4, max_size=4).map(DDTable.from_rows)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("pavlicek")


def roundtrip(boards, path, fmt: str):
    write_file(boards, path, fmt)
    doc = read_file(path, fmt)
    assert_no_internal_error(reported_texts(doc), path.name)
    return list(doc)


def random_chunk(n: int, seed: int = 7, dd: bool = True) -> BulkChunk:
    rng = np.random.default_rng(seed)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    table = rng.integers(0, 16, (n, 4, 5)).astype(np.uint8)
    table[table == 14] = 15
    table[:, 0, 4] = rng.integers(1, 14, n)  # never all-zero notrump
    return BulkChunk(owners, table if dd else None)


# -- hand-computed byte vectors -----------------------------------------------------
def test_zbd_all_south_is_all_ff(tmp):
    path = tmp / "south.zbd"
    path.write_bytes(b"\xff" * 13)
    deal = read_file(path)[0].deal
    assert deal.hands[Seat.SOUTH] == (1 << 52) - 1 and deal.card_count == 52


def test_zbd_suit_per_hand_vector(tmp):
    path = tmp / "suits.zbd"
    write_file([Board.numbered(1, SUITS_DEAL)], path)
    assert path.read_bytes() == SUITS_ZBD
    assert read_file(path)[0].deal == SUITS_DEAL


def test_zbd_spade_ace_is_first_field():
    raw = bytearray(b"\xff" * 13)
    raw[0] = 0xFC | 1  # spade ace to North (01), the rest South
    owners = P.zbd_decode(np.frombuffer(bytes(raw), np.uint8)[None])[0]
    assert owners[51] == Seat.NORTH and (owners[:51] == Seat.SOUTH).all()


def test_zdd_vector(tmp):
    raw = bytes([0x21, 0x43]) + b"\xff" * 8  # NT by W=1 N=2 E=3 S=4, the rest unknown
    path = tmp / "one.zdd"
    path.write_bytes(raw)
    board = read_file(path)[0]
    assert board.deal.is_empty and board.number == 1
    assert [board.dd.get(s, 4) for s in (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)] == [1, 2, 3, 4]
    assert board.dd.get(Seat.NORTH, 3) is None
    write_file([board], path, "zdd")
    assert path.read_bytes() == raw


def test_zdd_strain_order():
    dd = P.unknown_dd(1)
    dd[0, Seat.WEST, 3] = 5  # spades by West: nibble 4 = byte 2 low
    dd[0, Seat.SOUTH, 0] = 9  # clubs by South: nibble 19 = byte 9 high
    raw = P.zdd_encode(dd)[0]
    assert raw[2] == 0xF5 and raw[9] == 0x9F
    assert (P.zdd_decode(raw[None]) == dd).all()


def test_zrj16_vector(tmp):
    table = DDTable.unknown().with_value(Seat.EAST, 4, 7).with_value(Seat.EAST, 3, 8).with_value(Seat.EAST, 0, 2)
    path = tmp / "one.zrj"
    write_file([Board.numbered(1, SUITS_DEAL, dd=table)], path, "zrj16")
    data = path.read_bytes()
    assert data[:13] == SUITS_ZBD
    assert data[13] == 0x72 and data[14] == 0xF8 and data[15] == 0x2F  # East=2, NT 7; S 8, H ?; D ?, C 2
    assert detect(path).name == "zrj16"
    assert read_file(path)[0].dd == table


def test_zbs_vectors(tmp):
    path = tmp / "v.zbs"
    top = (5**13 - 1) << 1  # every spade to South
    path.write_bytes((4).to_bytes(4, "little") + top.to_bytes(4, "little"))
    doc = read_file(path)
    assert len(doc) == 2
    assert doc[0].deal == Deal.from_pbn("N:A... - - -")
    assert doc[1].deal == Deal.from_pbn("S:AKQJT98765432... - - -")
    assert doc[1].number == 2


def test_zbs_writes_suits_down_to_the_last_used(tmp):
    path = tmp / "w.zbs"
    spades = Deal.from_pbn("N:A... - - -")
    hearts = Deal.from_pbn("N:.A.. - - -")
    write_file([Board.numbered(1, spades), Board.numbered(2, hearts), Board.numbered(3, SUITS_DEAL)], path)
    words = np.frombuffer(path.read_bytes(), "<u4").tolist()
    assert words[:3] == [4, 1, 4] and len(words) == 3 + 4
    assert [w & 1 for w in words[3:]] == [1, 1, 1, 0]
    assert [b.deal for b in read_file(path)] == [spades, hearts, SUITS_DEAL]


# -- round trips -----------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.lists(full_owners, min_size=1, max_size=4))
def test_zbd_roundtrip(tmp, owners):
    boards = [Board.numbered(i + 1, Deal.from_owners(o)) for i, o in enumerate(owners)]
    back = roundtrip(boards, tmp / "r.zbd", "zbd")
    assert [b.deal for b in back] == [b.deal for b in boards]
    assert [b.number for b in back] == list(range(1, len(boards) + 1))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(full_owners, dd_tables), min_size=1, max_size=3))
def test_zrd_roundtrip(tmp, items):
    boards = [Board.numbered(i + 1, Deal.from_owners(o), dd=t) for i, (o, t) in enumerate(items)]
    back = roundtrip(boards, tmp / "r.zrd", "zrd")
    assert [b.deal for b in back] == [b.deal for b in boards]
    assert [b.dd or DDTable.unknown() for b in back] == [t for _, t in items]


@settings(max_examples=25, deadline=None)
@given(st.lists(dd_tables.filter(lambda t: any(t.tricks[s][4] != 0 for s in range(4))), min_size=1, max_size=4))
def test_zdd_roundtrip(tmp, tables):
    boards = [Board.numbered(i + 1, dd=t) for i, t in enumerate(tables)]
    back = roundtrip(boards, tmp / "r.zdd", "zdd")
    assert [b.dd or DDTable.unknown() for b in back] == tables
    assert all(b.deal.is_empty for b in back)


@settings(max_examples=25, deadline=None)
@given(full_owners, st.sampled_from(list(Seat)), st.lists(trick_value, min_size=5, max_size=5))
def test_zrj16_roundtrip(tmp, owners, target, row):
    table = DDTable.from_rows([row if s == target else [None] * 5 for s in range(4)])
    board = Board.numbered(1, Deal.from_owners(owners), dd=table)
    back = roundtrip([board], tmp / "r.zrj", "zrj16")[0]
    assert back.deal == board.deal
    assert back.dd == (None if table.is_empty else table)


@settings(max_examples=25, deadline=None)
@given(st.lists(partial_owners, min_size=1, max_size=4))
def test_zbs_roundtrip_partial_deals(tmp, owners):
    boards = [Board.numbered(i + 1, Deal.from_owners(o)) for i, o in enumerate(owners)]
    back = roundtrip(boards, tmp / "r.zbs", "zbs")
    assert [b.deal for b in back] == [b.deal for b in boards]


def test_zrj16_target_is_declarer_then_first_full_row(tmp):
    full = DDTable.from_rows([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [None] * 5, [3, 3, 3, 3, 3]])
    codec = get("zrj16")
    plain = Board.numbered(1, SUITS_DEAL, dd=full)
    assert "target hand of 1 board" in codec.check([plain]).losses[0]
    out = io.BytesIO()
    codec.write([plain, plain.copy(declarer=Seat.WEST)], out)
    data = out.getvalue()
    assert data[13] & 3 == 1 and data[13] >> 4 == 5  # North: the first fully known row
    assert data[29] & 3 == 0 and data[29] >> 4 == 3  # West: the declarer


# -- bulk -----------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["zbd", "zrd", "zdd", "zrj16"])
def test_bulk_and_per_board_agree(tmp, fmt):
    codec = get(fmt)
    chunk = random_chunk(300)
    path = tmp / f"bulk.{fmt}"
    with open(path, "wb") as f:
        assert codec.write_bulk([chunk], f) == 300
    doc = read_file(path, fmt)
    assert len(doc) == 300 and doc.info.record_size == codec.record_size
    chunks = list(codec.read_bulk(path, chunk=128))
    assert [len(c) for c in chunks] == [128, 128, 44]
    owners = np.concatenate([c.owners for c in chunks])
    for i in (0, 1, 150, 299):
        board = doc[i]
        assert board.deal.owners() == owners[i].tolist()
        if fmt in ("zrd", "zdd"):
            assert [[DD_UNKNOWN if v is None else v for v in r] for r in board.dd.tricks] == chunk.dd[i].tolist()
        if fmt == "zdd":
            assert (owners == ABSENT).all()
        else:
            assert (owners == chunk.owners).all()
    out = io.BytesIO()
    codec.write(doc, out)  # the per-board writer gives the same bytes
    assert out.getvalue() == path.read_bytes()
    assert list(doc.bulk())[0].owners.shape == (300, 52)


def test_zrd_to_zbd_bulk_conversion(tmp):
    from bridgeview.formats.convert import convert_file

    src, dst = tmp / "c.zrd", tmp / "c.zbd"
    with open(src, "wb") as f:
        get("zrd").write_bulk([random_chunk(50)], f)
    result = convert_file(src, dst)
    assert result.records == 50 and result.losses == ["double-dummy results of 50 boards"]
    assert dst.read_bytes() == b"".join(src.read_bytes()[i * 23 : i * 23 + 13] for i in range(50))
    assert convert_file(src, tmp / "c.zdd").losses == ["deals of 50 boards"]
    assert convert_file(tmp / "c.zdd", tmp / "d.zdd").losses == []
    with pytest.raises(FormatError, match="board 1 is not a complete deal"):
        convert_file(tmp / "c.zdd", tmp / "d.zbd")


# -- the end-of-list record ---------------------------------------------------------
def test_terminator_stops_reading(tmp):
    path = tmp / "t.zbd"
    path.write_bytes(SUITS_ZBD * 2 + b"\0" * 13 + b"garbage")
    doc = read_file(path)
    assert len(doc) == 2 and "ignored" in doc.problems[0][2]
    path.write_bytes(SUITS_ZBD * 3 + b"\0\0\0\0")  # a bare 32-bit marker
    assert len(read_file(path)) == 3 and not read_file(path).problems


def test_zdd_terminator_needs_32_null_bits(tmp):
    path = tmp / "t.zdd"
    rec = bytes([0, 0, 0x21]) + b"\xff" * 7  # NT all 0 but spades known: data, not the end marker
    path.write_bytes(b"\xff" * 10 + rec + b"\0" * 10 + b"\xff" * 10)
    doc = read_file(path)
    assert len(doc) == 2 and doc[1].dd.get(Seat.WEST, 4) == 0
    with pytest.raises(FormatError, match="0 tricks in notrump"):
        write_file([doc[1]], tmp / "u.zdd")
    assert not (tmp / "u.zdd").exists()


def test_zbs_terminator(tmp):
    path = tmp / "t.zbs"
    path.write_bytes((4).to_bytes(4, "little") + b"\0\0\0\0" + b"\x01\x02")
    doc = read_file(path)
    assert len(doc) == 1 and doc.problems


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt,size", [("zbs", 4)])
def test_truncated_record(tmp, fmt, size):
    path = tmp / f"trunc.{fmt}"
    good = (2).to_bytes(4, "little")
    path.write_bytes(good * 2 + b"\xff\x01")
    with pytest.raises(FormatError) as e:
        read_file(path, fmt)
    assert e.value.record == 3 and e.value.offset == 2 * size and "trailing" in str(e.value)


@pytest.mark.parametrize("fmt,size", [("zbd", 13), ("zrd", 23), ("zdd", 10), ("zrj16", 16)])
def test_truncated_copy_opens_its_complete_records(tmp, fmt, size):
    """A cut-off copy opens the whole records before the cut; the broken tail is a problem."""
    path = tmp / f"cut.{fmt}"
    src = io.BytesIO()
    get(fmt).write([Board.numbered(n, SUITS_DEAL, dd=DDTable.from_rows([[7] * 5] * 4)) for n in (1, 2)], src)
    path.write_bytes(src.getvalue() + b"\xff\x01")
    doc = read_file(path, fmt)
    assert len(doc) == 2
    assert [b.deal for b in doc] == [Deal.empty() if fmt == "zdd" else SUITS_DEAL] * 2
    assert [b.dd for b in doc] == [None if fmt == "zbd" else b.dd for b in doc]  # decodes without error
    message = doc.problems[-1][2]
    assert f"ends inside record 3 (offset {2 * size}): 2 bytes" in message
    assert doc.info.extra["broken_tail"] == message
    path.write_bytes(b"\xff\x01")
    with pytest.raises(FormatError) as e:
        read_file(path, fmt)
    assert e.value.record == 1 and "trailing" in str(e.value)


def test_zbs_bad_input(tmp):
    path = tmp / "bad.zbs"
    # a bad group is an unreadable board; the others open
    path.write_bytes((4).to_bytes(4, "little") + (5**13 << 1).to_bytes(4, "little"))
    doc = read_file(path)
    assert len(doc) == 2 and doc[0].unreadable is None and doc[0].deal.card_count == 1
    assert "not below 5^13" in doc[1].unreadable and doc[1].unreadable.endswith("(at offset 4)")
    path.write_bytes((4).to_bytes(4, "little") + (5).to_bytes(4, "little"))
    doc = read_file(path)
    assert len(doc) == 2 and "not closed" in doc[1].unreadable and doc[1].unreadable.endswith("(at offset 4)")
    # nothing readable at all: not a ZBS file, and the error says why
    path.write_bytes((5).to_bytes(4, "little") * 5 + (4).to_bytes(4, "little"))
    with pytest.raises(FormatError, match="group of 6 records") as e:
        read_file(path)
    assert e.value.record == 5
    path.write_bytes((5**13 << 1).to_bytes(4, "little"))
    with pytest.raises(FormatError, match="not below 5\\^13") as e:
        read_file(path)
    assert (e.value.record, e.value.offset) == (1, 0)


def test_zdd_and_zrd_nibble_14(tmp):
    path = tmp / "bad.zdd"
    path.write_bytes(b"\xff" * 10 + b"\xff\xff\xff\xe1" + b"\xff" * 6)
    doc = read_file(path)
    assert doc[0].unreadable is None
    assert "value 14" in doc[1].unreadable and doc[1].unreadable.endswith("(at offset 13)")  # the byte holding 14
    with pytest.raises(FormatError, match="value 14") as e:
        list(get("zdd").read_bulk(path))
    assert (e.value.record, e.value.offset, e.value.path) == (2, 13, str(path))
    zrd = tmp / "bad.zrd"
    zrd.write_bytes(SUITS_ZBD + b"\xff" * 9 + b"\xef")
    bad = read_file(zrd)[0]
    assert "value 14" in bad.unreadable and bad.unreadable.endswith("(at offset 22)") and bad.number == 1


def test_zrj16_bad_byte13(tmp):
    path = tmp / "bad.zrj"
    path.write_bytes(SUITS_ZBD + b"\x75\xff\xff")
    bad = read_file(path, "zrj16")[0]
    assert "bits 2-3" in bad.unreadable and bad.unreadable.endswith("(at offset 13)")


def test_full_deals_required(tmp):
    partial = Board.numbered(3, Deal.from_pbn("N:A... - - -"))
    with pytest.raises(FormatError, match="board 3 is not a complete deal"):
        write_file([partial], tmp / "p.zbd")
    with pytest.raises(FormatError, match="not a complete deal"):
        get("zrd").write_bulk([BulkChunk(np.full((1, 52), ABSENT, np.uint8))], io.BytesIO())


def test_sniffing_tells_the_formats_apart(tmp):
    for fmt in ("zbd", "zrd", "zrj16", "zdd"):
        path = tmp / f"sniff.{fmt}.bin"
        with open(path, "wb") as f:
            get(fmt).write_bulk([random_chunk(8)], f)
        head = path.read_bytes()[:4096]
        scores = {c: get(c).sniff(head, path.stat().st_size) for c in ("zbd", "zrd", "zrj16", "zrj")}
        if fmt != "zdd":
            assert max(scores, key=scores.get) == fmt and scores[fmt] > 0
    assert get("zbd").sniff(b"", 0) == 0


def test_start_board_option(tmp):
    path = tmp / "sb.zbd"
    path.write_bytes(SUITS_ZBD * 2)
    doc = read_file(path, options=ReadOptions(start_board=17))
    assert [b.number for b in doc] == [17, 18] and doc[1].dealer == Seat.EAST


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=13 * 1, max_size=13 * 40).filter(lambda b: len(b) % 13 == 0))
def test_zbd_masks_straight_from_bytes_agree_with_owners(data):
    """The .deals fast path (masks from ZBD bytes) is the owners path, bit for bit, for any bytes."""
    from bridgeview.formats.bulk import owners_to_masks
    from bridgeview.formats.pavlicek.zbd import zbd_chunk, zbd_decode, zbd_masks

    raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, 13)
    expected = owners_to_masks(zbd_decode(raw))
    assert (zbd_masks(raw) == expected).all()
    wide = np.zeros((len(raw), 23), dtype=np.uint8)  # a strided slice, as ZRD decoding passes it
    wide[:, :13] = raw
    chunk = zbd_chunk(wide[:, :13])
    assert callable(chunk.masks)
    assert (chunk.hand_masks() == expected).all() and not callable(chunk.masks)


def test_zbs_problems_name_the_record_and_offset_where_the_group_starts(tmp, capsys):
    """A ZBS board is a group of 4-byte records, so its record is not its index: validate says which."""
    from bridgeview.cli.main import main

    spade_layout = (4, 3, 2, 1) * 3 + (4,)  # one suit: W N E S W N E S ... (digits 1-4)
    locator = 0
    for digit in spade_layout:
        locator = locator * 5 + digit
    one = (locator << 1).to_bytes(4, "little")  # a group of one record: spades only
    two = ((locator << 1) | 1).to_bytes(4, "little") + (locator << 1).to_bytes(4, "little")  # spades + hearts
    path = tmp / "groups.zbs"
    path.write_bytes(two + one + one)
    doc = read_file(path)
    assert [doc.record_offset(i) for i in range(3)] == [0, 8, 12]
    assert [doc.record_number(i) for i in range(3)] == [1, 3, 4]
    assert main(["validate", str(path)]) == 1
    assert f"{path}: record 4 (offset 12), board 3: same deal as board 2" in capsys.readouterr().out.splitlines()
