"""Duplimate / Dealer4 formats: BRI, DGE, BRE and DUP (Dealer4 manual, appendix A)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import SPECS, realdata_files
from hypothesis import given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.check.validate import validate
from bridgeview.cli.main import main
from bridgeview.formats import records
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.duplimate.bri import (
    DupChunk,
    decode_bri,
    decode_bri_block,
    decode_dge,
    decode_dge_block,
    encode_bri,
    encode_dge,
)
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import detect, get, read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, DupControl, FileInfo
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability

FIXTURES = Path(__file__).parent / "fixtures"
FORMATS = ("bri", "dge", "bre", "dup")
FIXED = ("bri", "dge", "dup")
SAMPLE_DEALS = (
    "N:T2.J965.T7532.63 AKQ874.AQ2.J8.A5 J65.743.AK4.KQ82 93.KT8.Q96.JT974",
    "N:T8742.A.43.AT942 6.T42.Q9865.KQJ8 A53.J865.AJ2.653 KQJ9.KQ973.KT7.7",
)
TWIN = "dealconvert_test_16boards"


def fixture(fmt: str) -> Path:
    return FIXTURES / f"dealer4_sample.{fmt}"


def sample_set() -> BoardSet:
    """The spec's two boards built from scratch (no codec source, no DUP control)."""
    boards = [Board.numbered(i + 1, Deal.from_pbn(text)) for i, text in enumerate(SAMPLE_DEALS)]
    return BoardSet(boards, FileInfo(event="File Format Samples", site="Melbourne", date="01.01.2013"))


def encode(fmt: str, doc) -> bytes:
    out = io.BytesIO()
    get(fmt).write(doc, out, WriteOptions())
    return out.getvalue()


def read_bytes(tmp_path: Path, fmt: str, data: bytes, options: ReadOptions | None = None):
    path = tmp_path / f"t.{fmt}"
    path.write_bytes(data)
    return read_file(path, fmt, options)


def twin_deals(realdata: Path) -> list[Deal]:
    text = (realdata / "pbn" / f"{TWIN}.pbn").read_text(encoding="latin-1")
    return [Deal.from_pbn(m) for m in re.findall(r'\[Deal "([^"]+)"\]', text)]


def full_deal_owners(perm: list[int]) -> list[int]:
    return [p // 13 for p in perm]


full_deals = st.permutations(range(52)).map(full_deal_owners)


# -- the spec's samples ----------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_fixture_matches_spec_hex_dump(fmt):
    spec = next(iter(sorted(SPECS.glob("003_*.txt"))), None) if SPECS.is_dir() else None
    if spec is None:
        pytest.skip("../shared/specs is not present")
    section = re.split(r"\nA\d\. ", spec.read_text(encoding="utf-8"))
    body = next(s for s in section if s.startswith(fmt.upper() + "\n"))
    data = bytearray()
    for m in re.finditer(r"^\s*0x([0-9a-f]+):((?: [0-9A-Fa-f]{2})+) ;", body, re.M):
        assert int(m.group(1), 16) == len(data)
        data += bytes(int(h, 16) for h in m.group(2).split())
    assert bytes(data) == fixture(fmt).read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_read_spec_sample(fmt):
    doc = read_file(fixture(fmt))
    assert doc.info.format == fmt
    assert [b.deal.to_pbn() for b in doc] == list(SAMPLE_DEALS)
    assert [(b.number, b.dealer, b.vulnerability) for b in doc] == [
        (1, Seat.NORTH, Vulnerability.NONE),
        (2, Seat.EAST, Vulnerability.NS),
    ]
    assert all(b.deal.is_complete for b in doc)
    if fmt == "bre":
        assert (doc.info.event, doc.info.site, doc.info.date) == ("File Format Samples", "Melbourne", "01.01.2013")
    if fmt == "dup":
        assert doc.info.dup == DupControl(random=True, backwards=False, first_board=1, copies=1, last_board=2)
    else:
        assert doc.info.dup is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_write_spec_sample_byte_exact(fmt):
    assert encode(fmt, sample_set()) == fixture(fmt).read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_read_then_write_is_byte_exact(fmt, tmp_path):
    doc = read_file(fixture(fmt))
    dst = tmp_path / f"out.{fmt}"
    write_file(doc, dst)
    assert dst.read_bytes() == fixture(fmt).read_bytes()


@pytest.mark.parametrize("fmt", FIXED)
def test_bulk_round_trip_of_spec_sample(fmt):
    codec = get(fmt)
    chunks = list(codec.read_bulk(fixture(fmt)))
    assert sum(len(c) for c in chunks) == 2
    assert chunks[0].numbers.tolist() == [1, 2]
    out = io.BytesIO()
    assert codec.write_bulk(iter(chunks), out) == 2
    assert out.getvalue() == fixture(fmt).read_bytes()


@pytest.mark.parametrize("src", FORMATS)
@pytest.mark.parametrize("dst", FORMATS)
def test_convert_between_samples(src, dst, tmp_path):
    """Every pair of the four formats converts the spec sample into the other's exact bytes
    (BRE keeps the header only when it comes from BRE, so compare deals there)."""
    out = tmp_path / f"x.{dst}"
    main(["convert", str(fixture(src)), str(out)])
    if dst != "bre" or src == "bre":
        assert out.read_bytes() == fixture(dst).read_bytes()
    assert [b.deal.to_pbn() for b in read_file(out)] == list(SAMPLE_DEALS)


def test_sniffers_detect_content_without_extension(tmp_path):
    for fmt in FORMATS:
        p = tmp_path / "unknown.bin"
        p.write_bytes(fixture(fmt).read_bytes())
        assert detect(p).name == fmt
    bri = fixture("bri").read_bytes()
    dup = fixture("dup").read_bytes()
    assert get("bri").sniff(dup * 32, len(dup) * 32) == 0  # 32 DUP records are also 39 x 128 bytes
    assert get("dup").sniff(bri, len(bri)) == 0
    assert get("dge").sniff(bri, len(bri)) == 0
    assert get("bre").sniff(fixture("dge").read_bytes(), 256) == 0


# -- real files ------------------------------------------------------------
@pytest.mark.parametrize("path", realdata_files("bri") + realdata_files("dge") + realdata_files("dup"), ids=str)
def test_real_files_match_pbn_twin(path, realdata):
    doc = read_file(path)
    assert [b.deal for b in doc] == twin_deals(realdata)
    assert [b.number for b in doc] == list(range(1, 17))
    assert not validate(doc)
    # bulk and lazy agree
    codec = get(doc.info.format)
    owners = np.concatenate([c.owners for c in codec.read_bulk(path)])
    assert [Deal.from_owners(row.tolist()) for row in owners] == [b.deal for b in doc]
    # write-back is byte-exact (BRI filler, DGE NULs, DUP control only on record 1)
    out = io.BytesIO()
    codec.write(doc, out)
    assert out.getvalue() == path.read_bytes()


def test_real_dup_control_fields(realdata):
    path = realdata / "dup" / f"{TWIN}.dup"
    doc = read_file(path)
    assert doc.info.dup == DupControl(random=True, backwards=False, first_board=1, copies=0, last_board=16)
    assert not doc.problems


def test_dup_control_after_edit_keeps_later_records_blank(realdata, tmp_path):
    doc = read_file(realdata / "dup" / f"{TWIN}.dup")
    del doc[15]
    out = encode("dup", doc)
    assert len(out) == 15 * 156
    assert out[146:156] == b"YN1  0 15 "
    assert all(out[i * 156 + 146 : i * 156 + 156] == b"\0" * 10 for i in range(1, 15))


def test_real_bri_to_dge_via_cli(realdata, tmp_path):
    out = tmp_path / "x.dge"
    assert main(["convert", str(realdata / "bri" / f"{TWIN}.bri"), str(out)]) == 0
    assert out.read_bytes() == (realdata / "dge" / f"{TWIN}.dge").read_bytes()


# -- numbering, DUP control, check ------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_start_board_option(fmt):
    doc = read_file(fixture(fmt), options=ReadOptions(start_board=5))
    expect = [1, 2] if fmt == "dup" else [5, 6]  # DUP numbers from its own first-board field
    assert [b.number for b in doc] == expect
    assert doc[0].dealer == Seat((expect[0] - 1) % 4)


def test_cli_start_board_and_info(tmp_path, capsys):
    out = tmp_path / "x.dup"
    assert main(["convert", "--start-board", "5", str(fixture("bri")), str(out)]) == 0
    assert out.read_bytes()[146:156] == b"YN5  1 6  "
    assert main(["info", str(out)]) == 0
    text = capsys.readouterr().out
    assert "dup first board: 5" in text and "dup last board:  6" in text and "board numbers:   5-6" in text
    assert "dup random:      yes" in text and "dup copies:      1" in text


def test_cli_info_and_dump_of_spec_dup(capsys):
    assert main(["info", str(fixture("dup"))]) == 0
    text = capsys.readouterr().out
    assert "dup (Duplimate DUP)" in text and "dup backwards:   no" in text and "record size:     156 bytes" in text


def test_dup_first_board_from_control(tmp_path):
    data = bytearray(fixture("dup").read_bytes())
    for i in range(2):
        data[i * 156 + 146 : i * 156 + 156] = b"NY17 3 18 "
    doc = read_bytes(tmp_path, "dup", bytes(data))
    assert [b.number for b in doc] == [17, 18]
    assert (doc[0].dealer, doc[1].dealer, doc[1].vulnerability) == (Seat.NORTH, Seat.EAST, Vulnerability.NS)
    assert doc.info.dup == DupControl(random=False, backwards=True, first_board=17, copies=3, last_board=18)
    assert encode("dup", doc) == bytes(data)
    assert [c.numbers.tolist() for c in get("dup").read_bulk(tmp_path / "t.dup")] == [[17, 18]]


def test_dup_blank_control_uses_defaults(tmp_path):
    data = bytearray(fixture("dup").read_bytes())
    data[146:156] = b" " * 10
    data[156 + 146 : 312] = b"\0" * 10
    doc = read_bytes(tmp_path, "dup", bytes(data), ReadOptions(start_board=3))
    assert doc.info.dup is None
    assert [b.number for b in doc] == [3, 4]
    out = encode("dup", doc)
    assert out[146:156] == b"YN3  1 4  " and out[156 + 146 :] == b"\0" * 10


def test_dup_flags_without_first_board_use_start_board(tmp_path):
    data = bytearray(fixture("dup").read_bytes())
    data[146:156] = b"NN   2    "
    doc = read_bytes(tmp_path, "dup", bytes(data), ReadOptions(start_board=4))
    assert doc.info.dup == DupControl(random=False, backwards=False, first_board=4, copies=2, last_board=None)
    assert [b.number for b in doc] == [4, 5]


def test_dup_last_board_mismatch_is_a_problem(tmp_path):
    data = bytearray(fixture("dup").read_bytes())
    data[146:156] = b"YN1  1 9  "
    doc = read_bytes(tmp_path, "dup", bytes(data))
    assert doc.problems and "last board is 9" in doc.problems[0][2]
    assert any("last board is 9" in str(p) for p in validate(doc))


def test_dup_check_requires_consecutive_numbers():
    doc = sample_set()
    doc[1] = doc[1].touched(number=5)
    rep = get("dup").check(doc)
    assert rep.errors and "board 5" in rep.errors[0]
    with pytest.raises(FormatError, match="consecutively"):
        encode("dup", doc)
    many = BoardSet([Board.numbered(i + 1, Deal.from_pbn(SAMPLE_DEALS[0])) for i in range(1000)])
    assert any("999" in e for e in get("dup").check(many).errors)


def test_dup_bulk_write_from_other_format_uses_default_control():
    chunks = list(get("bri").read_bulk(fixture("bri")))
    out = io.BytesIO()
    get("dup").write_bulk(iter(chunks), out)
    assert out.getvalue() == fixture("dup").read_bytes()
    chunk = next(iter(get("dup").read_bulk(fixture("dup"))))
    assert isinstance(chunk, DupChunk) and bytes(chunk.control[0]) == b"YN1  1 2  "


def test_check_partial_deal_and_numbering():
    doc = sample_set()
    doc[0] = doc[0].touched(deal=doc[0].deal.with_card(51, None))
    for fmt in FORMATS:
        assert get(fmt).check(doc).errors, fmt
    doc = sample_set()
    doc.info = FileInfo()
    for i, b in enumerate(doc):  # renumbered 5.., with the dealer and vulnerability that go with 5..
        doc[i] = Board.numbered(b.number + 4, b.deal)
    for fmt in ("bri", "dge", "bre"):
        assert any("numbered from 1" in m for m in get(fmt).check(doc).losses)
        assert not get(fmt).check(doc, WriteOptions(start_board=5)).losses
    assert not get("dup").check(doc).losses and not get("dup").check(doc).errors


def test_writing_partial_deal_is_refused(tmp_path):
    doc = sample_set()
    doc[0] = doc[0].touched(deal=doc[0].deal.with_card(0, None))
    for fmt in FORMATS:
        with pytest.raises(FormatError, match="complete deal"):
            write_file(doc, tmp_path / f"x.{fmt}")
        assert not (tmp_path / f"x.{fmt}").exists()


# -- BRE specifics -----------------------------------------------------------
def test_bre_header_encoding_and_line_ends(tmp_path):
    doc = sample_set()
    doc.info.event = "Café Cup"
    doc.info.site = "Zürich"
    data = encode("bre", doc)
    assert data.startswith("Café Cup\r\nZürich\r\n".encode("cp1252"))
    back = read_bytes(tmp_path, "bre", data)
    assert (back.info.event, back.info.site) == ("Café Cup", "Zürich")
    assert encode("bre", back) == data
    lf = fixture("bre").read_bytes().replace(b"\r\n", b"\n")
    back = read_bytes(tmp_path, "bre", lf)
    assert [b.deal.to_pbn() for b in back] == list(SAMPLE_DEALS)
    assert encode("bre", back) == lf
    junk = read_bytes(tmp_path, "bre", fixture("bre").read_bytes() + b"\r\n\x1a")
    assert len(junk) == 2
    assert read_bytes(tmp_path, "bre", fixture("bre").read_bytes()[:-2]).info.site == "Melbourne"
    assert back.info.extra["board_lines"] == {0: 4, 1: 5}


def test_bre_unencodable_header_is_a_check_error():
    doc = sample_set()
    doc.info.event = "Турнир ♠"
    assert get("bre").check(doc).errors
    assert get("bre").check(doc, WriteOptions(encoding="utf-8")).ok


# -- hypothesis round trips ----------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.lists(full_deals, min_size=1, max_size=5), st.sampled_from(FORMATS), st.integers(1, 200))
def test_round_trip_full_deals(tmp_path_factory, owner_rows, fmt, first):
    boards = [Board.numbered(first + i, Deal.from_owners(o)) for i, o in enumerate(owner_rows)]
    doc = BoardSet(boards, FileInfo(event="E", site="S", date="D"))
    path = tmp_path_factory.mktemp("rt") / f"x.{fmt}"
    write_file(doc, path, options=WriteOptions(start_board=first))
    back = read_file(path, options=ReadOptions(start_board=first))
    assert_no_internal_error(reported_texts(back), path.name)
    assert [b.deal for b in back] == [b.deal for b in boards]
    assert [b.number for b in back] == [b.number for b in boards]
    if fmt in FIXED:
        owners = np.concatenate([c.owners for c in get(fmt).read_bulk(path)])
        assert owners.tolist() == [list(o) for o in owner_rows]


@settings(max_examples=30, deadline=None)
@given(st.lists(full_deals, min_size=1, max_size=6))
def test_vector_codecs_agree_with_scalar(owner_rows):
    owners = np.array(owner_rows, dtype=np.uint8)
    bri = encode_bri(owners)
    dge = encode_dge(owners)
    for i, row in enumerate(owner_rows):
        assert decode_bri(bri[i].tobytes()) == row
        assert decode_dge(dge[i].tobytes()) == row
    assert (decode_bri_block(bri)[0] == owners).all() and not decode_bri_block(bri)[1].any()
    assert (decode_dge_block(dge)[0] == owners).all() and not decode_dge_block(dge)[1].any()


@settings(max_examples=60, deadline=None)
@given(full_deals, st.sampled_from(("bri", "dge")), st.integers(0, 77), st.integers(0, 255))
def test_block_decoder_rejects_what_scalar_rejects(owner_row, fmt, pos, value):
    """A mutated record is flagged by the numpy decoder exactly when the exact decoder raises."""
    owners = np.array([owner_row], dtype=np.uint8)
    rec = bytearray((encode_bri if fmt == "bri" else encode_dge)(owners)[0].tobytes())
    rec[pos % len(rec)] = value
    scalar, block = (decode_bri, decode_bri_block) if fmt == "bri" else (decode_dge, decode_dge_block)
    try:
        expect = scalar(bytes(rec))
    except FormatError:
        expect = None
    got, bad = block(np.frombuffer(bytes(rec), dtype=np.uint8).reshape(1, -1))
    assert bool(bad[0]) == (expect is None)
    if expect is not None:
        assert got[0].tolist() == expect


# -- bad input -------------------------------------------------------------------
def _bad(tmp_path, fmt: str, data: bytes, match: str, record: int, offset: int | None = None) -> None:
    """The fault is located.  Fixed-record files: the bulk reader (convert) stops at it with the
    record and offset, and opening marks that one board unreadable with the same reason (unless
    the whole file depends on the bytes, like DUP's first control field: then opening fails too)."""
    codec = get(fmt)
    if codec.bulk:
        path = tmp_path / f"t.{fmt}"
        path.write_bytes(data)
        with pytest.raises(FormatError, match=match) as info:
            list(codec.read_bulk(path))
        assert info.value.record == record and info.value.path is not None, str(info.value)
        if offset is not None:
            assert info.value.offset == offset, str(info.value)
        try:
            board = read_file(path, fmt)[record - 1]
        except FormatError as e:
            assert re.search(match, str(e)) and e.record == record, str(e)
            return
        assert board.unreadable and re.search(match, board.unreadable), board.unreadable
        if offset is not None:
            assert board.unreadable.endswith(f"(at offset {offset})"), board.unreadable
        return
    with pytest.raises(FormatError, match=match) as info:
        list(read_bytes(tmp_path, fmt, data))
    assert info.value.record == record, str(info.value)
    if offset is not None:
        assert info.value.offset == offset, str(info.value)
    assert info.value.path is not None


def _patched(fmt: str, offset: int, new: bytes) -> bytes:
    data = bytearray(fixture(fmt).read_bytes())
    data[offset : offset + len(new)] = new
    return bytes(data)


@pytest.mark.parametrize("fmt", FIXED)
def test_truncated_file_opens_its_complete_records(fmt, tmp_path):
    """A cut-off copy opens the records before the cut and names the broken tail as a problem."""
    data = fixture(fmt).read_bytes()
    size = 156 if fmt == "dup" else 128
    full = [b.deal for b in read_file(fixture(fmt), fmt)]
    for k, (cut, whole, tail) in enumerate(((data[:-1], 1, size - 1), (data + b"\0" * 10, 2, 10))):
        (tmp_path / str(k)).mkdir()
        doc = read_bytes(tmp_path / str(k), fmt, cut)
        assert len(doc) == whole
        assert [b.deal for b in doc] == full[:whole]
        message = doc.problems[0][2]  # DUP adds that the control bytes' last board is missing
        assert f"ends inside record {whole + 1} (offset {whole * size}): {tail} of {size} bytes" in message
        assert doc.info.extra["broken_tail"] == message
        assert any(message in p.message for p in validate(doc))
    _bad(tmp_path, fmt, data[: size - 1], "ends inside record 1", 1, 0)


def test_bad_bri_records(tmp_path):
    _bad(tmp_path, "bri", _patched("bri", 128 + 6, b"4x"), "bad card number '4x'", 2, 134)
    _bad(tmp_path, "bri", _patched("bri", 2, b"00"), "00 is not 01-52", 1, 2)
    _bad(tmp_path, "bri", _patched("bri", 2, b"53"), "53 is not 01-52", 1, 2)
    _bad(tmp_path, "bri", _patched("bri", 2, b"05"), r"card ST \(05\) is listed twice", 1, 2)


def test_bad_dge_records(tmp_path):
    _bad(tmp_path, "dge", _patched("dge", 0, b"\x07"), "expected the spade symbol 0x06", 1, 0)
    _bad(tmp_path, "dge", _patched("dge", 128 + 1, b"X"), "bad rank 'X' in N's spades", 2, 129)
    _bad(tmp_path, "dge", _patched("dge", 1, b"8"), "card S8 appears twice", 1, 21)
    _bad(tmp_path, "dge", _patched("dge", 16, b"\x06\x33"), "N holds 12 cards, not 13", 1, 0)
    _bad(tmp_path, "dge", _patched("dge", 2, b"T"), "card ST appears twice", 1, 2)
    _bad(tmp_path, "dge", _patched("dge", 3, b"\x05"), "expected the heart symbol", 1, 3)


def test_bad_dup_records(tmp_path):
    # swap N's HJ and S's H7 in the DGE half only; the BRI half still has them the other way
    data = bytearray(fixture("dup").read_bytes())
    n_hj = 78 + 4
    s_h7 = data.index(b"\x03\x37\x34\x33", 78) + 1
    assert data[n_hj] == ord("J")
    data[n_hj], data[s_h7] = ord("7"), ord("J")
    _bad(tmp_path, "dup", bytes(data), "BRI and DGE parts disagree: BRI gives HJ to N, DGE to S", 1, 78)
    _bad(tmp_path, "dup", _patched("dup", 146, b"Q"), "random flag is 'Q'", 1, 146)
    _bad(tmp_path, "dup", _patched("dup", 148, b"1x "), "first board field", 1, 148)
    _bad(tmp_path, "dup", _patched("dup", 148, b"0  "), "first board number is 0", 1, 148)
    _bad(tmp_path, "dup", _patched("dup", 156 + 80, b"\x01"), "bad rank", 2, 236)


def test_bad_bre(tmp_path):
    data = fixture("bre").read_bytes()
    _bad(tmp_path, "bre", data[:-20], "ends inside a deal", 2, 114)
    _bad(tmp_path, "bre", data[:0x70] + b"X" + data[0x72:], "expected a line end", 1, 0x70)
    _bad(tmp_path, "bre", data[:0x30] + b"!" + data[0x31:], "bad rank '!'", 1, 0x30)
    with pytest.raises(FormatError, match="three lines"):
        read_bytes(tmp_path, "bre", b"only one line\r\n")
    with pytest.raises(FormatError) as info:
        read_bytes(tmp_path, "bre", data[:0x30] + b"!" + data[0x31:])
    assert info.value.line == 4


def test_large_files_are_checked_lazily(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "EAGER_LIMIT", 1)
    data = _patched("bri", 128 + 6, b"4x")
    doc = read_bytes(tmp_path, "bri", data)  # opens: too big to check up front
    assert doc.is_lazy and len(doc) == 2 and doc[0].deal.is_complete
    assert "bad card number" in doc[1].unreadable and doc[1].unreadable.endswith("(at offset 134)")
    with pytest.raises(FormatError, match="bad card number") as info:
        list(doc.bulk())
    assert info.value.record == 2
    assert main(["validate", str(tmp_path / "t.bri")]) == 1
    assert main(["convert", str(tmp_path / "t.bri"), str(tmp_path / "x.dge")]) == 1
    assert not (tmp_path / "x.dge").exists()


def test_cli_reports_bad_record(tmp_path, capsys):
    path = tmp_path / "bad.dge"
    path.write_bytes(_patched("dge", 128 + 1, b"X"))
    assert main(["info", str(path)]) == 0  # one bad record: the file opens
    assert main(["validate", str(path)]) == 1
    assert "record 2 (offset 128), board 2: unreadable record: bad rank 'X'" in capsys.readouterr().out
    assert main(["convert", str(path), str(tmp_path / "x.bri")]) == 1
    assert "record 2 (offset 129): bad rank 'X'" in capsys.readouterr().err


def test_empty_files(tmp_path):
    for fmt in FIXED:
        assert len(read_bytes(tmp_path, fmt, b"")) == 0
        assert encode(fmt, BoardSet()) == b""
    assert len(read_bytes(tmp_path, "bre", b"E\r\nS\r\nD\r\n")) == 0
