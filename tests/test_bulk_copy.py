"""Fixed-record conversions that share a layout copy the bytes (ZRD -> ZBD: the 13 deal bytes)."""

from __future__ import annotations

import numpy as np
import pytest

from bridgeview.formats.bulk import complete_rows
from bridgeview.formats.convert import convert_file
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pavlicek import ZbdChunk, zbd_decode
from bridgeview.formats.registry import get


def zrd_bytes(n: int, seed: int = 1) -> bytes:
    rng = np.random.default_rng(seed)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    dd = rng.integers(0, 14, (n, 4, 5)).astype(np.uint8)
    dd[:, 0, 4] |= 1
    from bridgeview.formats.bulk import BulkChunk

    return get("zrd").encode_chunk(BulkChunk(owners, dd), 0)[0].tobytes()


def test_zrd_to_zbd_is_the_deal_bytes_of_each_record(tmp_path):
    data = zrd_bytes(3000)
    src = tmp_path / "in.zrd"
    src.write_bytes(data)
    result = convert_file(src, tmp_path / "out.zbd")
    records = np.frombuffer(data, np.uint8).reshape(-1, 23)
    assert (tmp_path / "out.zbd").read_bytes() == records[:, :13].tobytes()
    assert result.losses == ["double-dummy results of 3000 boards"]
    convert_file(tmp_path / "out.zbd", tmp_path / "back.zrd")  # ZBD -> ZRD: the deal bytes again, DD unknown
    back = np.frombuffer((tmp_path / "back.zrd").read_bytes(), np.uint8).reshape(-1, 23)
    assert back[:, :13].tobytes() == records[:, :13].tobytes() and (back[:, 13:] == 0xFF).all()


def test_completeness_counted_from_the_bytes_matches_the_owners():
    rng = np.random.default_rng(4)
    raw = np.frombuffer(zrd_bytes(500), np.uint8).reshape(-1, 23)[:, :13].copy()
    raw[::7] = rng.integers(0, 256, (len(raw[::7]), 13), dtype=np.uint8)  # mostly not 13 cards a hand
    chunk = ZbdChunk(raw)
    assert (chunk.complete() == complete_rows(zbd_decode(raw))).all()
    assert not chunk.complete()[::7].all() and chunk.complete()[1::7].all()


def test_a_record_that_is_no_deal_is_refused_not_copied(tmp_path):
    records = np.frombuffer(zrd_bytes(40), np.uint8).reshape(-1, 23).copy()
    records[17, :13] = 0x55  # every card to one hand
    src = tmp_path / "bad.zrd"
    src.write_bytes(records.tobytes())
    with pytest.raises(FormatError, match="board 18 is not a complete deal"):
        convert_file(src, tmp_path / "out.zbd")
    assert not (tmp_path / "out.zbd").exists()


@pytest.mark.parametrize("fmt", ["zrd", "deals"])
def test_bulk_validate_finds_every_repeat_as_board_by_board_does(tmp_path, monkeypatch, fmt):
    """Duplicates found by sorted hashes (from the ZBD bytes, or from the masks) are the ones a
    board-by-board pass finds: a deal three times, two pairs, and a broken record."""
    from bridgeview.check import validate as validate_module
    from bridgeview.formats.registry import read_file

    records = np.frombuffer(zrd_bytes(2000, seed=9), np.uint8).reshape(-1, 23).copy()
    for a, b in ((10, 1500), (10, 700), (3, 1999), (400, 401)):
        records[b] = records[a]
    records[50, :13] = 0x55
    src = tmp_path / "dups.zrd"
    src.write_bytes(records.tobytes())
    path = src if fmt == "zrd" else tmp_path / "dups.deals"
    if fmt == "deals":
        records[50] = records[51]  # .deals holds no broken deal from ZRD: another repeat instead
        src.write_bytes(records.tobytes())
        convert_file(src, path)
    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 100)
    bulk = [str(p) for p in validate_module.validate(read_file(path))]
    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 10**9)
    slow = [str(p) for p in validate_module.validate(read_file(path))]
    assert bulk == slow
    assert sum("same deal as board 11" in p for p in bulk) == 2


def test_pages_given_back_during_validate_are_read_again_when_needed(tmp_path, monkeypatch):
    from bridgeview.formats.registry import read_file
    from bridgeview.model import boardset

    src = tmp_path / "deals.zrd"
    src.write_bytes(zrd_bytes(1000))
    doc = read_file(src)
    before = [doc[i].deal for i in (0, 500, 999)]
    import mmap

    monkeypatch.setattr(boardset, "RELEASE_BYTES", mmap.PAGESIZE)
    doc.release_pages(900)
    assert doc._released == 900 * 23 // mmap.PAGESIZE * mmap.PAGESIZE
    assert [doc[i].deal for i in (0, 500, 999)] == before
