"""BER, BHG, CDS, CSV and RZD: the real samples, byte-exact writing, round trips, sniffing, errors."""

from __future__ import annotations

import io
import random
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import realdata_files
from hypothesis import given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.check.validate import validate
from bridgeview.cli.main import main
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.exchange import rank_bytes_decode, rank_bytes_encode
from bridgeview.formats.registry import all_codecs, detect, get, read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability

FORMATS = ("ber", "bhg", "cds", "csv", "rzd")
TWIN = "dealconvert_test_16boards"
SUITS = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def twin(realdata: Path) -> BoardSet:
    return read_file(realdata / "pbn" / f"{TWIN}.pbn")


def sample(realdata: Path, fmt: str) -> Path:
    return realdata / "other" / f"{TWIN}.{fmt}"


def encode(fmt: str, boards, options: WriteOptions | None = None) -> bytes:
    out = io.BytesIO()
    get(fmt).write(boards, out, options or WriteOptions())
    return out.getvalue()


def boardset(deals: list[Deal], numbers: list[int] | None = None) -> BoardSet:
    numbers = numbers or list(range(1, len(deals) + 1))
    return BoardSet([Board.numbered(n, d) for n, d in zip(numbers, deals, strict=True)], FileInfo())


# -- the real samples ---------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_sample_decodes_to_the_pbn_twin(realdata, fmt):
    doc = read_file(sample(realdata, fmt))
    pbn = twin(realdata)
    assert doc.info.format == fmt
    assert [b.deal for b in doc] == [b.deal for b in pbn]
    assert [(b.number, b.effective_dealer, b.effective_vulnerability) for b in doc] == [
        (b.number, b.effective_dealer, b.effective_vulnerability) for b in pbn
    ]
    assert not doc.problems and not validate(doc)


@pytest.mark.parametrize("fmt", FORMATS)
def test_pbn_converts_to_exactly_the_sample(realdata, tmp_path, capsys, fmt):
    out = tmp_path / f"out.{fmt}"
    assert main(["convert", str(realdata / "pbn" / f"{TWIN}.pbn"), str(out)]) == 0
    assert out.read_bytes() == sample(realdata, fmt).read_bytes()
    assert "dropped: double-dummy results of 16 boards" in capsys.readouterr().err


@pytest.mark.parametrize("src", FORMATS)
@pytest.mark.parametrize("dst", FORMATS)
def test_samples_convert_into_each_other(realdata, tmp_path, src, dst):
    """Between fixed-record formats this is the numpy bulk path; every pair must give the sample."""
    out = tmp_path / f"out.{dst}"
    assert main(["convert", str(sample(realdata, src)), str(out)]) == 0
    assert out.read_bytes() == sample(realdata, dst).read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("ext", ["", ".dat", ".pbn"])
def test_samples_are_recognised_by_content(realdata, tmp_path, fmt, ext):
    path = tmp_path / f"renamed{ext}"
    shutil.copy(sample(realdata, fmt), path)
    assert detect(path).name == fmt


@pytest.mark.parametrize("fmt", FORMATS)
def test_sample_sniffs_above_every_other_codec(realdata, fmt):
    data = sample(realdata, fmt).read_bytes()
    scores = {c.name: c.sniff(data[:4096], len(data)) for c in all_codecs()}
    own = scores.pop(fmt)
    assert own >= 85 and own > max(scores.values()), scores


def test_fixed_record_samples_are_lazy_and_located(realdata):
    for fmt, size, header in (("ber", 52, 0), ("cds", 14, 0), ("rzd", 13, 13)):
        doc = read_file(sample(realdata, fmt))
        assert doc.is_lazy and doc.info.record_size == size
        assert doc.record_offset(3) == header + 3 * size


# -- hand-made vectors ----------------------------------------------------------------
def test_ber_digits_are_seat_plus_one_in_card_order():
    data = encode("ber", boardset([SUITS]))
    assert data == b"1" * 13 + b"2" * 13 + b"3" * 13 + b"4" * 13


def test_rzd_and_cds_bytes():
    # N spades (top bits), E hearts, S diamonds, W clubs: every rank byte is N<<6 | E<<4 | S<<2 | W
    rzd = encode("rzd", boardset([SUITS]))
    assert rzd == b"\x01\x00" + b" " * 11 + bytes([0 << 6 | 1 << 4 | 2 << 2 | 3]) * 13
    cds = encode("cds", boardset([SUITS], [7]))
    assert cds == b"\x07" + bytes([1 << 6 | 2 << 4 | 3 << 2 | 0]) * 13  # seat codes W0 N1 E2 S3


def test_bhg_letters_start_with_the_dealer():
    data = encode("bhg", boardset([SUITS, SUITS], [1, 3]))
    lines = data.split(b"\r\n")
    assert lines[0] == b"" and lines[2] == b"" and lines[-1] == b""
    assert lines[1] == b"ABCDEFGHIJKLM" + b"NOPQRSTUVWXYZ" + b"abcdefghijklm" + b"nopqrstuvwxyz"
    assert lines[3] == b"abcdefghijklm" + b"nopqrstuvwxyz" + b"ABCDEFGHIJKLM" + b"NOPQRSTUVWXYZ"  # S deals 3
    back = read_file_bytes("bhg", data)
    assert [(b.number, b.deal) for b in back] == [(1, SUITS), (3, SUITS)]


def test_csv_fields_and_stored_dealer_vulnerability(tmp_path):
    board = Board(number=5, dealer=Seat.WEST, vulnerability=Vulnerability.ALL, deal=SUITS)
    data = encode("csv", BoardSet([board]))
    assert data == (
        b'"AKQJT98765432","","","","","AKQJT98765432","","","","","AKQJT98765432","",'
        b'"","","","AKQJT98765432","5","W/All"\r\n'
    )
    back = read_file_bytes("csv", data)[0]
    assert (back.number, back.dealer, back.vulnerability, back.deal) == (5, Seat.WEST, Vulnerability.ALL, SUITS)


def test_csv_reads_unquoted_tens_lower_case_and_dashes():
    row = "akqjt98765432,-,-,-,-,AKQJ1098765432,-,-,-,-,AKQJT98765432,-,-,-,-,AKQJT98765432,2,E/Both\n"
    back = read_file_bytes("csv", row.encode("ascii"))[0]
    assert back.deal == SUITS and back.dealer == Seat.EAST and back.vulnerability == Vulnerability.ALL


def read_file_bytes(fmt: str, data: bytes) -> list[Board]:
    """The boards of ``data`` read as ``fmt`` (decoded before the temporary file goes)."""
    with tempfile.TemporaryDirectory(prefix="bv-conv-") as tmp:
        path = Path(tmp) / f"t.{fmt}"
        path.write_bytes(data)
        doc = read_file(path, fmt)
        boards = list(doc)
        del doc
    return boards


# -- round trips -------------------------------------------------------------------------
full_deals = st.randoms(use_true_random=False).map(Deal.shuffled)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=25, deadline=None)
@given(deals=st.lists(full_deals, min_size=1, max_size=20), first=st.integers(1, 200))
def test_round_trip_random_deals(fmt, deals, first):
    numbers = list(range(first, first + len(deals)))
    boards = boardset(deals, numbers)
    if fmt == "csv":
        boards[0].dealer, boards[0].vulnerability = Seat.SOUTH, Vulnerability.EW  # stored, not implied
    start = first if fmt in ("ber", "rzd") else None
    data = encode(fmt, boards, WriteOptions(start_board=start))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"r.{fmt}"
        path.write_bytes(data)
        back = read_file(path, fmt, ReadOptions(start_board=start))
        assert_no_internal_error(reported_texts(back), path.name)
        assert [b.deal for b in back] == deals
        assert [b.number for b in back] == numbers
        if fmt == "csv":
            assert (back[0].dealer, back[0].vulnerability) == (Seat.SOUTH, Vulnerability.EW)
        del back


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_rank_bytes_encode_is_the_inverse_of_decode(seed):
    rng = np.random.default_rng(seed)
    owners = (np.argsort(rng.random((5, 52)), axis=1) // 13).astype(np.uint8)
    for seats, codes in (
        (np.arange(4, dtype=np.uint8), np.arange(5, dtype=np.uint8)),
        (np.array([3, 0, 1, 2], np.uint8), np.array([1, 2, 3, 0, 0], np.uint8)),
    ):
        assert (rank_bytes_decode(rank_bytes_encode(owners, codes), seats) == owners).all()


# -- what a format cannot hold ---------------------------------------------------------------
def test_checks_name_what_cannot_be_stored():
    deals = [Deal.shuffled(random.Random(i)) for i in range(3)]
    errors = get("cds").check(boardset(deals, [1, 2, 256])).errors
    assert errors == ["board 256: CDS (numbered rank bytes) holds board numbers up to 255"]
    assert "appears twice" in get("bhg").check(boardset(deals, [4, 4, 5])).errors[0]
    assert any("order" in m for m in get("bhg").check(boardset(deals, [3, 1, 2])).losses)
    assert any("board numbers" in m for m in get("ber").check(boardset(deals, [5, 9, 10])).losses)
    assert any(
        "dealer and vulnerability" in m
        for m in get("cds").check(BoardSet([Board(number=1, dealer=Seat.WEST, deal=deals[0])])).losses
    )
    assert not get("csv").check(BoardSet([Board(number=1, dealer=Seat.WEST, deal=deals[0])])).losses
    partial = BoardSet([Board.numbered(1, deals[0].without([0]))])
    for fmt in FORMATS:
        assert get(fmt).check(partial).errors, fmt


def test_rzd_count_limit_and_header_problem(tmp_path):
    data = encode("rzd", boardset([SUITS, SUITS]))
    path = tmp_path / "x.rzd"
    path.write_bytes(b"\x05" + data[1:])
    doc = read_file(path)
    assert len(doc) == 2 and "the header says 5 boards; the file holds 2" in doc.problems[0][2]
    assert get("rzd").caps.max_records == 65535


# -- bad input: one located line -------------------------------------------------------------
@pytest.mark.parametrize(
    ("fmt", "mutate", "message", "where"),
    [
        ("ber", lambda d: d[:7] + b"5" + d[8:], "card S7 has seat digit '5', not 1-4", "record 1 (offset 7)"),
        ("ber", lambda d: d[:52] + b"2" + d[53:], "N holds 12 cards", "record 2 (offset 52)"),
        ("cds", lambda d: b"\0" + d[1:], "board number 0", "record 1 (offset 0)"),
        ("cds", lambda d: d[:15] + b"\0" + d[16:], "holds", "record 2 (offset 15)"),
        ("rzd", lambda d: d[:5] + b"x" + d[6:], "not 11 spaces", "offset 2"),
        ("rzd", lambda d: d[:26] + b"\0" + d[27:], "holds", "record 2 (offset 26)"),
        ("bhg", lambda d: d.replace(b"ABC", b"AAC", 1), "card SA (A) appears twice", "line 2, board 1"),
        ("bhg", lambda d: d.replace(b"ABC", b"A1C", 1), "not a card letter", "line 2, board 1"),
        ("bhg", lambda d: d.replace(b"ABC", b"AC", 1), "51 characters", "line 2, board 1"),
        ("csv", lambda d: d.replace(b'"N/-"', b'"N/X"'), "dealer/vulnerability 'N/X'", "line 1"),
        ("csv", lambda d: d.replace(b'"AKQJT98765432"', b'"AKQJT9876543X"', 1), "'X' is not a rank", "line 1"),
        ("csv", lambda d: d.replace(b'"AKQJT98765432"', b'"AKQJT9876543"', 1), "N holds 12 cards", "line 1"),
        ("csv", lambda d: d.replace(b',"1",', b',"x",'), "board number 'x'", "line 1"),
    ],
)
def test_bad_input_is_one_located_line(tmp_path, capsys, fmt, mutate, message, where):
    numbers = [1, 2] if fmt != "csv" else [1]
    data = mutate(encode(fmt, boardset([SUITS] * len(numbers), numbers)))
    path = tmp_path / f"bad.{fmt}"
    path.write_bytes(data)
    try:
        boards = list(read_file(path, fmt))
    except FormatError as e:
        assert message in str(e) and str(e).startswith(where), str(e)
        assert main(["dump", str(path)]) == 1
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and err.startswith(f"bridgeview: {path}: ") and message in err
        return
    # a bad record among good ones opens as an unreadable board marked with its problem
    bad = [b.unreadable for b in boards if b.unreadable]
    assert len(bad) == 1 and message in bad[0], bad
    assert main(["validate", str(path)]) == 1
    assert message in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["ber", "cds", "rzd"])
def test_truncated_copy_opens_its_complete_records(tmp_path, fmt):
    data = encode(fmt, boardset([SUITS, SUITS], [1, 2]))
    path = tmp_path / f"cut.{fmt}"
    path.write_bytes(data[:-3])
    doc = read_file(path)
    assert len(doc) == 1 and doc[0].deal == SUITS
    assert any("ends inside record 2" in p[2] for p in doc.problems)


def test_empty_files(tmp_path):
    """Record files without a header open empty (as BRI does); the others say what is missing."""
    for fmt in FORMATS:
        path = tmp_path / f"empty.{fmt}"
        path.write_bytes(b"")
        if fmt in ("ber", "cds"):
            assert len(read_file(path, fmt)) == 0
            continue
        with pytest.raises(FormatError, match="empty|no deals|13-byte header"):
            list(read_file(path, fmt))


@pytest.mark.parametrize("path", realdata_files("other"), ids=lambda p: p.name)
def test_real_files_save_back_byte_identical(path, tmp_path):
    doc = read_file(path)
    out = tmp_path / path.name
    write_file(doc, out, doc.info.format)
    assert out.read_bytes() == path.read_bytes()


# -- the app ------------------------------------------------------------------------------------
def test_open_filter_and_save_as_offer_the_new_formats():
    from bridgeview.ui.mainwindow import open_filter
    from bridgeview.ui.window.saving import filter_for, writable_codecs

    offered = open_filter()
    writable = [filter_for(c) for c in writable_codecs()]
    for fmt in (*FORMATS, "dlm"):
        codec = get(fmt)
        assert f"*.{fmt}" in offered.split(";;")[0] and filter_for(codec) in offered
        assert filter_for(codec) in writable


@pytest.mark.parametrize("fmt", FORMATS)
def test_app_opens_the_sample_and_saves_it_as_pbn(qtbot, realdata, tmp_path, messages, fmt):
    from test_ui_support import main_window

    from bridgeview.ui import dialogs

    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(sample(realdata, fmt))), messages.calls
    view = w.current_view()
    assert len(view.boards) == 16 and view.format_name == fmt
    messages.answer = dialogs.Button.Save
    out = tmp_path / "out.pbn"
    assert w.save_as(str(out), "pbn"), messages.calls
    assert [b.deal for b in read_file(out)] == [b.deal for b in twin(realdata)]


def test_ber_with_a_line_end_after_the_last_deal(tmp_path):
    path = tmp_path / "nl.ber"
    path.write_bytes(encode("ber", boardset([SUITS, SUITS])) + b"\r\n")
    doc = read_file(path)
    assert len(doc) == 2 and not doc.problems
    renamed = tmp_path / "nl"
    renamed.write_bytes(path.read_bytes())
    assert detect(renamed).name == "ber"


def test_bench_converters_runs_and_its_loops_agree(capsys):
    """The benchmark's loops write the same bytes as the codecs (its numbers: docs/bench-converters.md)."""
    import sys

    from conftest import REPO

    sys.path.insert(0, str(REPO / "bench"))
    import bench_converters

    results = bench_converters.main(["--n", "300", "--repeat", "1"])
    assert {"zrd_ber_ratio", "zrd_rzd_ratio", "ber_zbd_ratio"} <= set(results)
    assert "ratio" in capsys.readouterr().out
