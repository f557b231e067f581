"""The one fixed-record base (formats/records.py): every record format declares itself on it, and a
new format declared as CONTRIBUTING.md says gets lazy reading, bulk chunks, located errors and
the truncated-tail problem without writing any of it."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import numpy as np
import pytest

from bridgeview.formats import records as R
from bridgeview.formats.bulk import chunks_from_boards, complete_rows
from bridgeview.formats.codec import Capabilities, ReadOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import get, read_file
from bridgeview.model.board import Board
from bridgeview.model.deal import Deal

FIXED_RECORD_CODECS = ["zbd", "zdd", "zrd", "zrj16", "zrj", "zbs", "deals", "bri", "dge", "dup", "ber", "rzd", "cds"]
RECORD_MODULES = ["records", "pavlicek/zbd", "pavlicek/zrj", "pavlicek/zbs", "duplimate/bri", "swiftbridge", "exchange"]
FORMATS = Path(R.__file__).parent


@pytest.mark.parametrize("name", FIXED_RECORD_CODECS)
def test_every_fixed_record_format_declares_itself_on_the_one_base(name):
    codec = get(name)
    assert isinstance(codec, R.FixedRecordCodec)
    bases = [c for c in type(codec).__mro__ if c.__module__.startswith("bridgeview.formats")]
    between = bases[1 : bases.index(R.FixedRecordCodec)]  # classes between the codec and the base
    assert all(c.__module__ == type(codec).__module__ for c in between), between  # no second shared base


def _called(tree: ast.AST) -> list[tuple[str, str]]:
    """(function called, name of the def it is called in) for every call by name in ``tree``."""
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for n in ast.walk(fn):
                if isinstance(n, ast.Call):
                    f = n.func
                    out.append((f.id if isinstance(f, ast.Name) else getattr(f, "attr", ""), fn.name))
    return out


@pytest.mark.parametrize("module", RECORD_MODULES[1:])
def test_record_codec_modules_neither_map_files_nor_build_lazy_sets_themselves(module):
    tree = ast.parse((FORMATS / f"{module}.py").read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names}
    assert "mmap" not in imported
    calls = _called(tree)
    assert not [c for c in calls if c[0] in ("LazyBoardSet", "mmap")]
    assert all(where == "_map" for what, where in calls if what == "map_file")  # the base's hook for a header


# -- a format declared the way CONTRIBUTING.md describes: 52 bytes a record, one seat code 0-3 a card
class SeatBytes(R.FixedRecordCodec):
    name = "seatbytes"
    title = "seat bytes (test)"
    extensions = ("seatbytes",)
    caps = Capabilities(full_deals=True)
    record_size = 52

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        for i, b in enumerate(rec):
            if b > 3:
                raise FormatError(f"seat code {b} (allowed: 0-3)", record=record, offset=base + i)
        return Deal.from_owners(list(rec))

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        owners = np.minimum(block, 4).astype(np.uint8)
        return owners, (block > 3).any(axis=1) | ~complete_rows(owners)

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(owners, dtype=np.uint8)


DEALS = [Deal.from_owners([(c * 7 + k) % 4 for c in range(52)]) for k in range(3)]


def _file(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "t.seatbytes"
    path.write_bytes(data)
    return path


def _written() -> bytes:
    out = io.BytesIO()
    SeatBytes().write([Board.numbered(n + 1, d) for n, d in enumerate(DEALS)], out)
    return out.getvalue()


def test_a_declared_format_reads_lazily_and_in_bulk(tmp_path):
    data = _written()
    assert len(data) == 3 * 52
    doc = SeatBytes().read(_file(tmp_path, data), ReadOptions(start_board=7))
    assert doc.is_lazy and len(doc) == 3 and not doc.problems
    assert [b.deal for b in doc] == DEALS and [b.number for b in doc] == [7, 8, 9]
    chunks = list(doc.bulk())
    assert np.concatenate([c.numbers for c in chunks]).tolist() == [7, 8, 9]
    out = io.BytesIO()
    assert SeatBytes().write_bulk(chunks, out) == 3 and out.getvalue() == data


def test_a_declared_format_marks_a_bad_record_and_reports_a_cut_tail(tmp_path):
    data = bytearray(_written())
    data[52 + 5] = 9  # record 2, byte 5
    path = _file(tmp_path, bytes(data) + b"\1\2")
    doc = SeatBytes().read(path)
    assert len(doc) == 3 and doc[0].deal == DEALS[0] and doc[2].deal == DEALS[2]
    assert doc[1].unreadable == "seat code 9 (allowed: 0-3) (at offset 57)" and doc[1].number == 2
    assert doc.problems == [(None, None, "the file ends inside record 4 (offset 156): 2 of 52 bytes, not read")]
    with pytest.raises(FormatError) as e:
        list(SeatBytes().read_bulk(path))
    assert (e.value.record, e.value.offset, e.value.path) == (2, 57, str(path))


def test_a_declared_format_refuses_a_file_with_no_readable_record(tmp_path):
    path = _file(tmp_path, bytes([7]) * 52)
    with pytest.raises(FormatError) as e:
        SeatBytes().read(path)
    assert (e.value.record, e.value.offset, e.value.message) == (1, 0, "seat code 7 (allowed: 0-3)")
    path.write_bytes(b"\0" * 51)
    with pytest.raises(FormatError, match="ends inside record 1: 51 of 52 bytes"):
        SeatBytes().read(path)


# -- what end-of-list formats say, in good English for one byte too
@pytest.mark.parametrize("fmt,size", [("zbd", 13), ("zrj", 80), ("zbs", 4)])
def test_one_trailing_byte_is_said_in_the_singular(tmp_path, fmt, size):
    path = tmp_path / f"one.{fmt}"
    path.write_bytes(b"\1")
    with pytest.raises(FormatError) as e:
        read_file(path, fmt)
    assert "1 trailing byte does not fill a" in e.value.message and e.value.record == 1


def test_bytes_after_the_zbs_end_of_list_record_are_counted_right(tmp_path):
    path = tmp_path / "end.zbs"
    path.write_bytes((4).to_bytes(4, "little") + b"\0\0\0\0" + b"\5")
    doc = read_file(path, "zbs")
    assert len(doc) == 1
    assert doc.problems == [(None, None, "1 byte after the end-of-list record (record 2) ignored")]


@pytest.mark.parametrize("end", [0, 6, 7, 8, 20, 22, None])
def test_the_end_of_list_record_is_found_in_any_scanned_chunk(tmp_path, monkeypatch, end):
    """The scan for the end-of-list record compares the records a chunk at a time, on the mapping: the record
    found is the first null one wherever it falls (the first chunk, a chunk's edge, a later chunk, the last
    record), and none found leaves every record counted."""
    monkeypatch.setattr(R, "SCAN_RECORDS", 7)
    deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    one = get("zbd").encode_chunk(next(chunks_from_boards([Board.numbered(1, deal)])), 0)[0].tobytes()
    records = [one] * 23
    if end is not None:
        records[end] = b"\0" * 13
        records[min(end + 2, 22)] = b"\0" * 13  # a later null record does not count
    path = tmp_path / "ended.zbd"
    path.write_bytes(b"".join(records))
    doc = read_file(path, "zbd")
    assert len(doc) == (23 if end is None else end)
    if end not in (None, 22):  # the records after the end-of-list record are reported
        assert doc.problems[0][2] == f"{(22 - end) * 13} bytes after the end-of-list record (record {end + 1}) ignored"


def test_map_file_is_the_only_place_a_file_is_mapped():
    """CONTRIBUTING.md says so: every mapped file (fixed records, big PBN and LIN) comes from mapped.map_file,
    so its error handling and its release of pages are in one place."""
    package = FORMATS.parent
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for n in ast.walk(fn):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "mmap":
                        found.append((path.relative_to(package).as_posix(), fn.name))
    assert found == [("formats/mapped.py", "map_file")]
