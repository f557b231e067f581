"""Fixed-record conversions that share a layout copy the bytes (ZRD -> ZBD: the 13 deal bytes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.formats.bulk import complete_rows
from bridgeview.formats.convert import convert_file
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pavlicek.zbd import (
    ZbdChunk,
    complete_words,
    dd_words_have_14,
    dd_words_known,
    zbd_complete,
    zbd_decode,
    zbd_rows,
    zdd_has_14,
    zdd_known,
    zrd_words,
)
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


# -- ZRD -> ZBD copies bytes and decodes nothing it does not need (issue 29) ------------------------------


def board_by_board(src, dst):
    """The conversion through boards (every record decoded, checked and encoded as a board), the result
    the copying path must give byte for byte: the same file and the same losses."""
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.registry import read_file
    from bridgeview.model.boardset import BoardSet

    lazy = read_file(src)
    boards = BoardSet([lazy[i] for i in range(len(lazy))], lazy.info)
    boards.problems = list(lazy.problems)
    return write_document(boards, dst, get("zbd"))


def awkward_zrd(tmp_path, tail: bytes = b"", unknown=(), end_at: int | None = None):
    """A ZRD of 3,000 random deals: boards ``unknown`` without DD results, an end-of-list record at
    ``end_at`` (with junk after it), ``tail`` bytes after the last record."""
    records = np.frombuffer(zrd_bytes(3000, seed=29), np.uint8).reshape(-1, 23).copy()
    records[list(unknown), 13:] = 0xFF
    data = records.tobytes()
    if end_at is not None:
        data = data[: end_at * 23] + bytes(23) + data[end_at * 23 :]
    src = tmp_path / "in.zrd"
    src.write_bytes(data + tail)
    return src


@pytest.mark.parametrize(
    "shape",
    [
        {},
        {"unknown": range(0, 3000, 3)},
        {"unknown": range(3000)},
        {"tail": b"\x01\x02\x03\x04\x05"},  # a truncated copy: its cut last record
        {"end_at": 2500, "unknown": [7, 2499]},  # an end-of-list record, and what follows it ignored
    ],
)
def test_zrd_to_zbd_gives_the_bytes_and_losses_of_the_board_by_board_path(tmp_path, shape):
    src = awkward_zrd(tmp_path, **shape)
    fast = convert_file(src, tmp_path / "fast.zbd")
    slow = board_by_board(src, tmp_path / "slow.zbd")
    assert (tmp_path / "fast.zbd").read_bytes() == (tmp_path / "slow.zbd").read_bytes()
    assert fast.losses == slow.losses and fast.records == slow.records
    dropped = 3000 - len(shape.get("unknown", ())) - (500 if "end_at" in shape else 0)
    assert fast.losses[-1:] == ([f"double-dummy results of {dropped} boards"] if dropped else [])
    if "tail" in shape:
        assert fast.losses[0].startswith("the unreadable end of the file (the file ends inside record 3001")


def test_zrd_to_zbd_refuses_a_dd_value_of_14_at_its_byte(tmp_path):
    """An unreadable record (a DD nibble of 14) stops the conversion with the record and byte named, as the
    decoding path did; nothing is written."""
    records = np.frombuffer(zrd_bytes(100, seed=3), np.uint8).reshape(-1, 23).copy()
    records[61, 19] = 0xE3  # the high nibble of byte 19
    src = tmp_path / "bad.zrd"
    src.write_bytes(records.tobytes())
    with pytest.raises(FormatError) as e:
        convert_file(src, tmp_path / "out.zbd")
    assert e.value.full() == (
        f"{src}: record 62 (offset {61 * 23 + 19}): double-dummy value 14 (allowed: 0-13, 15 = unknown)"
    )
    assert not (tmp_path / "out.zbd").exists()


def test_a_zrd_chunk_decodes_its_dd_tables_only_when_asked():
    from bridgeview.formats.pavlicek.zbd import zdd_decode
    from bridgeview.formats.records import Records

    data = zrd_bytes(64, seed=8)
    block = np.frombuffer(data, np.uint8).reshape(-1, 23).copy()
    block[::5, 13:] = 0xFF
    chunk = get("zrd").decode_chunk(block, 0, Records(None, block.tobytes(), 23))
    assert chunk._dd is None  # nothing decoded yet
    known = chunk.known_dd_rows()
    assert chunk._dd is None
    assert (chunk.dd == zdd_decode(block[:, 13:])).all()
    assert (known == (chunk.dd != 15).any(axis=(1, 2))).all() and not known[::5].any()


#: record rows for the word-level checks: any bytes, deals dealt right, DD bytes mostly unknown or with a 14
_ROWS = st.integers(1, 40).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.binary(min_size=23 * n, max_size=23 * n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.sampled_from(("any", "unknown", "fourteen", "high fourteen")),
        st.integers(0, 2**32 - 1),
    )
)


@settings(max_examples=200, deadline=None)
@given(_ROWS)
def test_word_level_checks_agree_with_the_nibbles_and_owners(rows):
    """The checks a ZRD -> ZBD conversion runs on 64-bit words read in place (completeness, DD rows known,
    a nibble 14) say what decoding every nibble and owner says, for rows anywhere in a strided block."""
    n, data, dealt, dd_kind, seed = rows
    rng = np.random.default_rng(seed)
    records = np.frombuffer(data, np.uint8).reshape(n, 23).copy()
    deals = np.frombuffer(zrd_bytes(n, seed), np.uint8).reshape(n, 23)
    records[dealt, :13] = deals[dealt, :13]
    zdd = records[:, 13:]
    if dd_kind != "any":
        zdd[:] = 0xFF
        k = int(rng.integers(0, n))
        if dd_kind == "fourteen":
            zdd[k, int(rng.integers(0, 10))] = 0xFE
        elif dd_kind == "high fourteen":
            zdd[k, int(rng.integers(0, 10))] = 0xEF
    zbd = records[:, :13]  # (n, 13) views on 23-byte rows: unaligned words
    assert (zbd_complete(zbd) == complete_rows(zbd_decode(zbd))).all()
    assert (zbd_complete(np.ascontiguousarray(zbd)) == complete_rows(zbd_decode(zbd))).all()
    assert (zdd_known(zdd) == (zdd != 0xFF).any(axis=1)).all()
    assert zdd_has_14(zdd) == bool(((zdd & 15) == 14).any() or ((zdd >> 4) == 14).any())
    # the words a ZRD reader takes out once for all three checks say the same
    words = zrd_words(records)
    assert (complete_words(*words[:2]) == complete_rows(zbd_decode(zbd))).all()
    assert (dd_words_known(*words[2:]) == (zdd != 0xFF).any(axis=1)).all()
    assert dd_words_have_14(*words[2:]) == zdd_has_14(zdd)
    assert (zbd_rows(*words[:2]) == zbd).all()  # and the deal bytes laid out again from them, as a writer copies


def test_the_word_checks_take_a_chunk_of_no_records():
    """No records, no words: every check answers for none, and the writer's layout is empty (not numpy's error
    about the strides of an empty buffer)."""
    words = zrd_words(np.zeros((0, 23), np.uint8))
    assert complete_words(*words[:2]).shape == (0,) and dd_words_known(*words[2:]).shape == (0,)
    assert not dd_words_have_14(*words[2:])
    assert zbd_rows(*words[:2]).shape == (0, 13)
