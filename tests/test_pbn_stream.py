"""Binary sets written as PBN a chunk at a time: the same bytes as the whole-text writer."""

from __future__ import annotations

import io

import numpy as np
import pytest

from bridgeview.formats import pbn_stream
from bridgeview.formats.bulk import ABSENT, DD_UNKNOWN, BulkChunk
from bridgeview.formats.convert import convert_file
from bridgeview.formats.pavlicek import ddtable_from_row
from bridgeview.formats.pbn import PbnCodec, document_text
from bridgeview.formats.pbn_write import board_text
from bridgeview.formats.registry import ReadOptions, WriteOptions, get, read_file
from bridgeview.model.board import Board
from bridgeview.model.deal import Deal

CODEC = PbnCodec()


def random_chunk(n: int, seed: int = 3) -> BulkChunk:
    """Random complete deals; DD tables with unknown cells, some wholly unknown."""
    rng = np.random.default_rng(seed)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    dd = rng.integers(0, 14, (n, 4, 5)).astype(np.uint8)
    dd[rng.random((n, 4, 5)) < 0.1] = DD_UNKNOWN
    dd[::7] = DD_UNKNOWN
    return BulkChunk(owners, dd)


def write_binary(path, fmt: str, n: int, seed: int = 3) -> None:
    with open(path, "wb") as f:
        get(fmt).write_bulk([random_chunk(n, seed)], f)


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
@pytest.mark.parametrize("start", [None, 14])
def test_streamed_pbn_is_byte_identical_to_the_whole_text_writer(tmp_path, fmt, start):
    src = tmp_path / f"deals.{fmt}"
    write_binary(src, fmt, 300)
    doc = read_file(src, options=ReadOptions(start_board=start))
    assert pbn_stream.can_stream(doc)
    for opts in (WriteOptions(), WriteOptions(newline="\r\n"), WriteOptions(encoding="utf-8-sig")):
        text, encoding, _nl = document_text(doc, opts)
        out = io.BytesIO()
        CODEC.write(doc, out, opts)
        assert out.getvalue() == text.encode(encoding)


def test_edited_boards_are_generated_among_the_streamed_ones(tmp_path):
    src = tmp_path / "deals.zrd"
    write_binary(src, "zrd", 100)
    doc = read_file(src)
    doc[0] = doc[0].touched(tags={"Event": "Edited first"})
    doc[57] = doc[57].touched(notes=["a note"])
    doc.info.event = "Header event"
    text, _enc, _nl = document_text(doc)
    out = io.BytesIO()
    CODEC.write(doc, out)
    assert out.getvalue() == text.encode()
    assert "Edited first" in text and "{a note}" in text


def test_chunk_texts_match_the_board_writer_for_partial_deals():
    owners = random_chunk(40).owners.copy()
    owners[3, :20] = ABSENT  # some cards in no hand
    owners[5] = ABSENT  # no cards at all
    owners[6, owners[6] == 2] = ABSENT  # South's hand missing
    chunk = BulkChunk(owners, random_chunk(40).dd)
    header = pbn_stream.header_text(None)
    for r, data in enumerate(pbn_stream.chunk_texts(chunk, 90, header)):
        board = Board.numbered(90 + r, Deal.from_owners(owners[r].tolist()), dd=ddtable_from_row(chunk.dd[r]))
        assert data.decode() == board_text(board, None, foreign=True), r


def test_convert_zrd_to_pbn_and_back_round_trips(tmp_path):
    src = tmp_path / "deals.zrd"
    write_binary(src, "zrd", 500, seed=11)
    convert_file(src, tmp_path / "deals.pbn")
    convert_file(tmp_path / "deals.pbn", tmp_path / "back.zrd")
    assert (tmp_path / "back.zrd").read_bytes() == src.read_bytes()
