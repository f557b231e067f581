"""Small text files go to ZRD and ZBD the way big ones do (issue 29): read lazily and converted in chunks, the
fastest path at every size, with the bytes, losses and refusals of the whole read.

``convert.CHUNKS_FROM_BYTES`` is the size from which a PBN or LIN file bound for ZRD or ZBD is read lazily (0:
every file); these tests move it around a file's size to take each path, and compare them."""

from __future__ import annotations

import platform
import re

import numpy as np
import pytest

from bridgeview.formats import chunked, convert
from bridgeview.formats.bulk import BulkChunk
from bridgeview.formats.convert import convert_file
from bridgeview.formats.errors import FormatError
from bridgeview.formats.mapped import RELEASE_FROM, release
from bridgeview.formats.registry import get


def deals_file(tmp_path, n: int, fmt: str) -> tuple:
    """``n`` random deals with DD results as ZRD and as ``fmt`` (PBN or LIN, our writer's shape)."""
    rng = np.random.default_rng(n)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    dd = rng.integers(0, 14, (n, 4, 5)).astype(np.uint8)
    dd[:, 0, 4] |= 1
    zrd = tmp_path / "deals.zrd"
    zrd.write_bytes(get("zrd").encode_chunk(BulkChunk(owners, dd), 0)[0].tobytes())
    text = tmp_path / f"deals.{fmt}"
    convert_file(zrd, text)
    return zrd, text


@pytest.fixture
def chunk_passes(monkeypatch):
    """How many chunks the chunked converter has checked (it asks ``no_tables`` of each)."""
    seen: list[int] = []
    original = chunked.no_tables

    def counting(chunk, state):
        seen.append(len(chunk))
        return original(chunk, state)

    monkeypatch.setattr(chunked, "no_tables", counting)
    return seen


def outcome(src, dst) -> tuple:
    try:
        result = convert_file(src, dst)
    except FormatError as e:
        assert not dst.exists()
        return ("refused", e.full())
    return ("written", dst.read_bytes(), result.losses, result.notices)


@pytest.mark.parametrize(("fmt", "target"), [("pbn", "zrd"), ("pbn", "zbd"), ("lin", "zbd"), ("lin", "zrd")])
def test_a_thousand_boards_go_in_chunks_with_the_bytes_and_words_of_the_whole_read(
    tmp_path, monkeypatch, chunk_passes, fmt, target
):
    zrd, src = deals_file(tmp_path, 1000, fmt)
    assert src.stat().st_size < 1 << 20  # far below the 8 MiB from which files are read lazily anyway
    size = src.stat().st_size
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", size + 1)  # one byte short: read whole, board by board
    whole = outcome(src, tmp_path / f"whole.{target}")
    assert chunk_passes == []
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", size)  # from this size: in chunks
    chunks = outcome(src, tmp_path / f"chunks.{target}")
    assert chunk_passes == [1000]
    assert chunks == whole
    if target == "zrd" and fmt == "pbn":  # PBN keeps the DD tables: the ZRD comes back byte for byte
        assert chunks[1] == zrd.read_bytes()


def test_the_default_sends_every_size_in_chunks(tmp_path, chunk_passes):
    _zrd, src = deals_file(tmp_path, 3, "pbn")
    assert convert.CHUNKS_FROM_BYTES == 0
    convert_file(src, tmp_path / "out.zbd")
    assert chunk_passes == [3]


def test_a_refusal_is_the_same_on_both_paths(tmp_path, monkeypatch, chunk_passes):
    """A board that is no full deal stops either path, named the same way, with nothing written."""
    _zrd, src = deals_file(tmp_path, 40, "pbn")
    text = src.read_text()
    deal = text.index('[Deal "', text.index('[Board "17"]'))
    end = text.index('"]', deal)
    src.write_text(text[: end - 1] + text[end:], encoding="utf-8")  # the last hand one card short
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", 1 << 62)
    whole = outcome(src, tmp_path / "out.zbd")
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", 0)
    assert outcome(src, tmp_path / "out.zbd") == whole
    assert whole[0] == "refused" and "board 17" in whole[1]


def test_a_file_the_chunks_cannot_take_is_read_whole(tmp_path, monkeypatch, chunk_passes):
    """PBN ``#`` values (a tag copied from the game before) need the careful reader game after game: the lazily
    read set is put back for a whole read, which converts it faster board by board."""
    _zrd, src = deals_file(tmp_path, 20, "pbn")
    text = src.read_text()
    src.write_text(_with_inherited_site(text), encoding="utf-8")
    reads: list[bool] = []
    original = convert.read_file

    def spying(path, fmt=None, options=None):
        reads.append(bool(options and options.lazy))
        return original(path, fmt, options)

    monkeypatch.setattr(convert, "read_file", spying)
    result = outcome(src, tmp_path / "out.zbd")
    assert reads == [True, False] and chunk_passes == []
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", 1 << 62)
    reads.clear()
    assert outcome(src, tmp_path / "whole.zbd") == result and reads == [False]


def _with_inherited_site(text: str) -> str:
    """Every game after the first gives its Site as ``#`` (the one before's)."""
    first = text.index("[Site ")
    head, rest = text[: first + 1], text[first + 1 :]
    return head + re.sub(r'\[Site "[^"]*"\]', '[Site "#"]', rest)


def test_utf16_text_is_named_as_such_on_the_way_to_zbd(tmp_path):
    _zrd, src = deals_file(tmp_path, 5, "pbn")
    src.write_bytes(src.read_text().encode("utf-16"))
    with pytest.raises(FormatError, match="UTF-16 text"):
        convert_file(src, tmp_path / "out.zbd")
    assert not (tmp_path / "out.zbd").exists()


def test_a_missing_file_is_named_not_a_traceback(tmp_path):
    """The size asked before reading is not asked of a file that is not there: the reader names it."""
    with pytest.raises(FormatError, match="no such file"):
        convert_file(tmp_path / "gone.pbn", tmp_path / "out.zbd", from_fmt="pbn")
    assert not (tmp_path / "out.zbd").exists()


STEADY_CHILD = """
import resource, sys
from bridgeview.formats.convert import convert_file
faults = []
for _ in range(4):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    convert_file(sys.argv[1], sys.argv[2])
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(min(faults[1:]))
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator limits")
def test_a_small_conversion_after_the_first_touches_few_fresh_pages(tmp_path):
    """A conversion of 1,000 boards freed and took again a few hundred pages of temporaries each time (a page fault
    each, most of what a small file paid more a board than a big one): with the heap's limits raised once,
    a second conversion in the process finds them."""
    import subprocess
    import sys

    _zrd, pbn = deals_file(tmp_path, 1000, "pbn")
    args = [sys.executable, "-c", STEADY_CHILD, str(pbn), str(tmp_path / "out.zrd")]
    run = subprocess.run(args, capture_output=True, text=True, check=True)
    steady = int(run.stdout)
    assert steady < 80, steady  # the file's own pages, mapped twice, and a few more (without: some 220)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator limits")
def test_a_record_copy_after_the_first_touches_few_fresh_pages(tmp_path):
    """A ZRD -> ZBD copy keeps each chunk's words while the writer lays its bytes out: without the heap's limits
    raised, glibc gave those blocks back and faulted them in again at every chunk (some 500 page faults for
    100,000 records, 3,000 for a million)."""
    import subprocess
    import sys

    n = 100_000  # seven chunks
    rng = np.random.default_rng(7)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    dd = rng.integers(0, 14, (n, 4, 5)).astype(np.uint8)
    zrd = tmp_path / "many.zrd"
    zrd.write_bytes(get("zrd").encode_chunk(BulkChunk(owners, dd), 0)[0].tobytes())
    args = [sys.executable, "-c", STEADY_CHILD, str(zrd), str(tmp_path / "out.zbd")]
    run = subprocess.run(args, capture_output=True, text=True, check=True)
    steady = int(run.stdout)
    assert steady < 100, steady  # (without: some 500)


class _Advised(bytes):
    """File bytes that note the pages given back (as an mmap's ``madvise`` would be asked)."""

    def madvise(self, option: int, start: int, length: int) -> None:
        self.asked.append((start, length))


@pytest.mark.parametrize(("size", "given_back"), [(RELEASE_FROM - 1, False), (RELEASE_FROM, True)])
def test_a_small_map_keeps_its_pages_and_a_big_one_gives_them_back(size, given_back):
    """A small file's pages stay mapped (its next pass would fault them in again for no memory worth having);
    a big file's are given back as a pass leaves them."""
    import mmap

    buf = _Advised(bytes(size))
    buf.asked = []
    release(buf, 0, size)
    assert bool(buf.asked) == (given_back and hasattr(mmap, "MADV_DONTNEED"))
