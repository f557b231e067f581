"""Big sets to and from LIN in pieces: the bytes and the save report of the whole-text path, in flat memory."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memorykit import traced_peak
from test_pbn_stream import random_chunk, write_binary

from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.convert import convert_file, write_document
from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin import bulk as lin_bulk
from bridgeview.formats.lin import lazy as lin_lazy
from bridgeview.formats.lin import stream as lin_stream
from bridgeview.formats.lin.codec import LinCodec
from bridgeview.formats.lin.write import board_line, document_text, md_text
from bridgeview.formats.registry import get, read_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal

CODEC = LinCodec()


# -- binary sets written as LIN ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
@pytest.mark.parametrize("start", [None, 14])
def test_streamed_lin_is_byte_identical_to_the_whole_text_writer(tmp_path, fmt, start):
    src = tmp_path / f"deals.{fmt}"
    write_binary(src, fmt, 300)
    doc = read_file(src, options=ReadOptions(start_board=start))
    assert lin_stream.fast(doc)
    boards = list(doc)
    for newline, encoding in (("\n", "utf-8"), ("\r\n", "utf-8"), ("\n", "cp1252")):
        out = io.BytesIO()
        CODEC.write(doc, out, WriteOptions(newline=newline, encoding=encoding))
        assert out.getvalue() == document_text(boards, newline).encode(encoding)
    assert out.getvalue().startswith(b"qx|o%d|pn|,,,|st||md|" % (start or 1))  # pn| always: endplay needs it


def test_md_bytes_match_md_text():
    chunk = random_chunk(200, seed=11)
    md = lin_stream.md_bytes(chunk.owners)
    for r in range(200):
        board = Board.numbered(1, Deal.from_owners(chunk.owners[r].tolist()))
        assert md_text(board)[1:] == md[r].tobytes().decode(), r


def test_edited_and_played_boards_are_written_among_the_streamed_ones(tmp_path):
    src = tmp_path / "deals.zrd"
    write_binary(src, "zrd", 120)
    doc = read_file(src)
    doc[0] = doc[0].touched(tags={"North": "Zoë"})
    doc[57] = doc[57].touched(notes=["a note"], claim=9)
    doc.info.event = "Club night"
    out = io.BytesIO()
    CODEC.write(doc, out)
    assert lin_stream.fast(doc)
    text = out.getvalue().decode()
    assert text == document_text(list_with_info(doc))
    assert text.startswith("vg|Club night,") and "Zoë" in text and "nt|a note|" in text
    # a result only an rs line can hold: the whole-set writer, which says it
    from bridgeview.model.auction import Contract

    doc[3] = doc[3].touched(contract=Contract.parse("4S"), declarer=doc[3].dealer, result=10)
    assert not lin_stream.fast(doc)
    out = io.BytesIO()
    CODEC.write(doc, out)
    assert out.getvalue().decode() == document_text(list_with_info(doc))
    assert "rs|" in out.getvalue().decode()


def list_with_info(doc):
    from bridgeview.model.boardset import BoardSet

    return BoardSet(list(doc), doc.info)


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_the_check_of_a_binary_set_counted_from_chunks_says_what_the_board_check_says(tmp_path, fmt):
    src = tmp_path / f"deals.{fmt}"
    write_binary(src, fmt, 150)
    doc = read_file(src)
    doc.info.site = "Ghent"
    got = CODEC.check(doc)
    want = CODEC.check(list_with_info(doc))
    assert (got.losses, got.errors) == (want.losses, want.errors)
    assert len(got.losses) == (2 if fmt == "zrd" else 1), got.losses


def test_converting_a_big_binary_set_to_lin_keeps_memory_flat(tmp_path, monkeypatch):
    """The writer holds a chunk of boards, not the file's text nor a board for each record: with chunks of
    2,000 records, four times the boards take about the same memory."""
    from bridgeview.formats.lin import stream

    monkeypatch.setattr(type(get("zrd")), "bulk_records", 2000)
    monkeypatch.setattr(stream, "FLUSH_BYTES", 1 << 16)
    peaks = []
    for n in (5_000, 20_000):
        src = tmp_path / f"deals{n}.zrd"
        write_binary(src, "zrd", n)
        peak, result = traced_peak(lambda: convert_file(src, tmp_path / "out.lin"))  # noqa: B023
        peaks.append(peak)
        assert result.records == n
    size = (tmp_path / "out.lin").stat().st_size
    assert peaks[1] < 1.3 * peaks[0] and peaks[1] < 0.8 * size, (peaks, size)  # the text alone is twice the size


def test_any_set_is_written_line_by_line():
    boards = [Board.numbered(n, Deal.from_owners(random_chunk(1, seed=n).owners[0].tolist())) for n in range(1, 9)]
    out = io.BytesIO()
    lin_stream.write(boards, out, "utf-8", "\r\n")
    assert out.getvalue().decode() == "".join(board_line(b) + "\r\n" for b in boards)


def test_the_check_names_characters_the_encoding_cannot_hold_line_by_line():
    boards = [Board.numbered(n, Deal.from_owners(random_chunk(1, seed=n).owners[0].tolist())) for n in range(1, 40)]
    for k, name in ((3, "Zoë"), (20, "Łukasz"), (30, "Ωmega"), (31, "Ωmega")):
        boards[k] = boards[k].copy(tags={"North": name})
    rep = CODEC.check(boards, WriteOptions(encoding="cp1252"))
    assert rep.losses[-1] == "characters that cp1252 cannot hold (Ł Ω; written as '?')"
    assert CODEC.check(boards, WriteOptions(encoding="no-such")).losses[-1] == "text in the unknown encoding no-such"


# -- LIN files converted to binary ------------------------------------------------------------------------
DEAL = "SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,"


def varied_lin(n: int = 240, seed: int = 5, kinds: range | tuple[int, ...] = range(12)) -> str:
    """Hand records of every shape the chunked path meets: ours, BBO's, rooms, players, played boards, odd
    deals and values, boards without numbers (``kinds``: those of ``i % 12`` below that are kept)."""
    rng = random.Random(seed)
    lines = []
    for i in range(1, n + 1):
        kind = i % 12
        if kind not in kinds:
            continue
        owners = random_chunk(1, seed=seed * 1000 + i).owners[0].tolist()
        board = Board.numbered(i, Deal.from_owners(owners))
        md = md_text(board)
        if kind == 0:
            line = f"qx|o{i}|st||md|{md}|rh||ah|Board {i}|sv|{'oneb'[i % 4]}|"  # vulnerability not the number's
        elif kind == 1:
            line = f"pn|Ann,Bob,Cy,Di|st||md|{md[:-17]}|rh||ah|Board {i}|sv|o|pg||"  # BBO: East left out
        elif kind == 2:
            line = f"pn|,,,|st||md|{md}|rh||ah|Board {i}|sv|o|"  # no names
        elif kind == 3:
            line = f"qx|o{i}|md|{md}|sv|n|mb|1N|mb|p|mb|p|mb|p|pg||"  # an auction: the careful reader
        elif kind == 4:
            line = f"qx|o{i}|md|{md.lower()}|"  # lower case: the careful reader
        elif kind == 5:
            line = f"md|{md}|"  # no number, no vulnerability
        elif kind == 6:
            line = f"qx|o{i}|st||md|{md}|rh||ah|Board {i + 1}|sv|b|"  # the title disagrees with qx
        elif kind == 7:
            line = f"pn|?,-,x,y|md|{md}|ah|Hand {i}|"  # a title that is not a board number
        elif kind == 8:
            line = f"qx|{i}|md|{md}|sv|z|"  # no room; a vulnerability not understood
        elif kind == 9:
            line = f"st||md|{md[0]}S{md[1:]}|"  # the spades written twice ("SS..."): careful reader
        elif kind == 10:
            line = f"qx|o{i}|st||md|0{md[1:]}|rh||ah|Board {i}|"  # dealer digit 0
        else:
            line = f"qx|O{i}|st||md|{md}|rh||ah|Board {i}|sv|0|pg||"
        lines.append(line)
        if rng.random() < 0.1:
            lines.append("")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
@pytest.mark.parametrize("rooms", [False, True])
def test_chunked_lin_conversion_matches_the_check_and_writer(tmp_path, monkeypatch, fmt, rooms):
    from bridgeview.formats import chunked

    text = varied_lin()
    if rooms:
        text = text.replace("qx|o12|", "qx|c12|")  # one closed room: the open room is kept on the others
    path = tmp_path / "varied.lin"
    path.write_text(text)
    eager = CODEC.read(path, ReadOptions())
    lazy = lin_lazy.read_lazy(path)
    assert lazy is not None and lin_bulk.applies(lazy, get(fmt), None)
    monkeypatch.setattr(chunked, "CHUNK", 50)  # chunk boundaries do not matter ...
    monkeypatch.setattr(lin_bulk, "PARSE_ROWS", 7)
    got = write_document(lazy, tmp_path / f"lazy.{fmt}", get(fmt))
    report = lin_bulk.report(lin_lazy.read_lazy(path), get(fmt))
    monkeypatch.setattr(chunked, "CHUNK", 1 << 16)  # ... as long as the writer sees the same chunks
    want = write_document(eager, tmp_path / f"eager.{fmt}", get(fmt))
    assert got.losses == want.losses and len(want.losses) >= 3, want.losses
    assert report.losses == want.losses and not report.errors
    assert got.records == want.records == 240
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()


#: the kinds of varied_lin whose games all read together: with three hands and boards without a number among
#: them, and four hands only (where a board numbered by its place would repeat a number: the careful path)
NUMPY_KINDS = ((0, 1, 2, 5, 6, 11), (0, 2, 6, 11))


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
@pytest.mark.parametrize("kinds", NUMPY_KINDS)
@pytest.mark.parametrize("chunk", [50, 1 << 16])
def test_a_file_whose_games_all_read_together_converts_as_read_whole(tmp_path, monkeypatch, fmt, kinds, chunk):
    """A chunk none of whose games goes to the careful reader takes its arrays as they come (numbers, dealers,
    vulnerabilities, names, boards without a number numbered where they land): the same bytes and losses."""
    from bridgeview.formats import chunked

    path = tmp_path / "plain.lin"
    path.write_text(varied_lin(kinds=kinds))
    careful = []
    real = lin_lazy.LazyLinSet._decode_board
    monkeypatch.setattr(lin_lazy.LazyLinSet, "_decode_board", lambda self, i: careful.append(i) or real(self, i))
    monkeypatch.setattr(chunked, "CHUNK", chunk)
    got = write_document(lin_lazy.read_lazy(path), tmp_path / f"lazy.{fmt}", get(fmt))
    assert set(careful) <= {0}  # (the reader's first board, read when the file is opened)
    monkeypatch.setattr(chunked, "CHUNK", 1 << 16)
    want = write_document(CODEC.read(path, ReadOptions()), tmp_path / f"eager.{fmt}", get(fmt))
    assert got.losses == want.losses and len(want.losses) >= 2, want.losses
    assert got.records == want.records
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()


def test_most_hand_records_take_the_numpy_path(tmp_path, monkeypatch):
    path = tmp_path / "varied.lin"
    path.write_text(varied_lin())
    careful = []
    real = lin_lazy.LazyLinSet._decode_board
    monkeypatch.setattr(lin_lazy.LazyLinSet, "_decode_board", lambda self, i: careful.append(i) or real(self, i))
    lin_bulk.report(lin_lazy.read_lazy(path), get("zrd"))
    assert sorted({(i + 1) % 12 for i in careful}) == [3, 4, 7, 8, 9, 10], careful  # the kinds of varied_lin
    assert len(set(careful)) == 6 * 20


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("md|3SAKQ,S2,S3,S4|", "board 13 is not a complete deal"),
        ("md|3" + DEAL.replace("SAKQJ", "SAKQJJ") + "|", "SJ twice"),  # a board the reader cannot read
    ],
)
def test_chunked_lin_conversion_refuses_what_the_board_by_board_path_refuses(tmp_path, monkeypatch, bad, message):
    lines = varied_lin(30).splitlines()
    k = next(j for j, line in enumerate(lines) if "Board 13|" in line)
    lines[k] = f"qx|o13|{bad}ah|Board 13|"
    path = tmp_path / "bad.lin"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FormatError) as chunked:
        write_document(lin_lazy.read_lazy(path), tmp_path / "l.zrd", get("zrd"))
    report = lin_bulk.report(lin_lazy.read_lazy(path), get("zrd"))
    monkeypatch.setattr(lin_bulk, "applies", lambda *a: False)
    with pytest.raises(FormatError) as board_by_board:
        write_document(lin_lazy.read_lazy(path), tmp_path / "b.zrd", get("zrd"))
    assert str(chunked.value) == str(board_by_board.value) and message in str(chunked.value)
    assert report.errors[:1] == [board_by_board.value.message]
    assert not (tmp_path / "l.zrd").exists()


def test_zrd_to_lin_and_back_keeps_every_deal(tmp_path, monkeypatch):
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    src = tmp_path / "deals.zrd"
    write_binary(src, "zrd", 2000)
    convert_file(src, tmp_path / "deals.lin")
    assert read_file(tmp_path / "deals.lin").is_lazy
    convert_file(tmp_path / "deals.lin", tmp_path / "back.zbd")
    convert_file(src, tmp_path / "direct.zbd")
    assert (tmp_path / "back.zbd").read_bytes() == (tmp_path / "direct.zbd").read_bytes()


def _broken_records(tmp_path, monkeypatch, fmt):
    """300 records of ``fmt`` in chunks of 64, whose records 10, 63, 64 and 299 have one card moved to another
    hand (a damaged byte: one hand of 14 cards, one of 12), and the boards read from them."""
    from bridgeview.formats.pavlicek.zbd import ZBDCodec, ZRDCodec

    for codec in (ZBDCodec, ZRDCodec):
        monkeypatch.setattr(codec, "bulk_records", 64)
    src = tmp_path / f"deals.{fmt}"
    write_binary(src, fmt, 300)
    size = get(fmt).record_size
    data = bytearray(src.read_bytes())
    for row in BROKEN:
        data[row * size + 3] ^= 0x03  # one card to another hand
    src.write_bytes(bytes(data))
    boards = list(read_file(src))
    assert [i for i, b in enumerate(boards) if not b.deal.is_complete] == list(BROKEN)
    return src, boards


#: the records :func:`_broken_records` breaks: in a chunk, a chunk's last, the next chunk's first, the file's last
BROKEN = (10, 63, 64, 299)


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_lin_refuses_a_deal_its_readers_cannot_read_back(tmp_path, monkeypatch, fmt):
    """A hand of 14 cards in ``md`` is a line no LIN reader reads (ours marks the board unreadable): converting
    a set with one to LIN is refused, naming the board and the hand, and nothing is written; read whole, the
    board-by-board check says the same."""
    src, boards = _broken_records(tmp_path, monkeypatch, fmt)
    hand = next(s.name.lower() for s in Seat if boards[10].deal.hands[s].bit_count() == 14)
    with pytest.raises(FormatError, match=f"board 11: {hand}'s hand has 14 cards; BBO LIN holds at most 13 a hand"):
        convert_file(src, tmp_path / "out.lin")
    assert not (tmp_path / "out.lin").exists()
    report = CODEC.check(BoardSet(boards))
    assert report.errors[0].startswith(f"board 11: {hand}'s hand has 14") and len(report.errors) == len(BROKEN)


def test_an_edited_board_of_a_lazy_lin_set_is_named_by_its_record(tmp_path, monkeypatch):
    """The refusal of an edited board without a number in a lazily read LIN file names its record in the file,
    not its place among the edited boards."""
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    src = tmp_path / "deals.zrd"
    write_binary(src, "zrd", 200)
    convert_file(src, tmp_path / "deals.lin")
    doc = read_file(tmp_path / "deals.lin")
    assert doc.is_lazy
    hands = list(doc[0].deal.hands)
    moved = hands[1] & -hands[1]  # one of east's cards to north: north 14, east 12
    hands[0], hands[1] = hands[0] | moved, hands[1] & ~moved
    doc[150] = Board(deal=Deal.from_masks(hands))
    errors = CODEC.check(doc).errors
    assert errors == ["record 151: north's hand has 14 cards; BBO LIN holds at most 13 a hand"]


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_a_broken_deal_among_records_leaves_the_others_whole(tmp_path, monkeypatch, fmt):
    """The numpy writers lay out a chunk's complete deals; a row with a hand of 14 cards, whose text they leave to
    the general formatter, no longer spills into the next board's hands (LIN wrote board 12 wrong after a broken
    board 11, and failed with an IndexError when the broken row was a chunk's last). PBN keeps broken deals as
    they are; LIN's writer, asked directly, writes every other board as the board-by-board writer does."""
    src, boards = _broken_records(tmp_path, monkeypatch, fmt)
    convert_file(src, tmp_path / "out.pbn")
    assert [b.deal for b in read_file(tmp_path / "out.pbn")] == [b.deal for b in boards]
    doc = read_file(src)
    assert lin_stream.fast(doc)
    out = io.BytesIO()
    CODEC.write(doc, out, WriteOptions())
    assert out.getvalue() == document_text(boards, "\n").encode("utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 6)), min_size=1, max_size=30))
def test_parse_hands_reads_what_parse_md_reads(rows):
    """Plain hands, and damaged ones: those parse_hands takes are read as parse_md reads them."""
    from bridgeview.formats.lin.read import parse_md

    texts = []
    for seed, damage in rows:
        owners = random_chunk(1, seed=seed).owners[0].tolist()
        md = md_text(Board.numbered(1, Deal.from_owners(owners)))[1:]
        rng = random.Random(seed)
        if damage == 1:
            md = md[: md.rindex(",") + 1]  # the fourth hand left out
        elif damage == 2:
            j = rng.choice([k for k, ch in enumerate(md) if ch in "23456789TJQKA"])
            md = md[:j] + md[j + 1 :]  # a card missing
        elif damage == 3:
            j = rng.choice([k for k, ch in enumerate(md) if ch in "23456789TJQKA"])
            md = md[:j] + md[j] + md[j:]  # a card twice
        elif damage == 4:
            a, b = md.split(",", 1)
            md = a + "2," + b  # a club more for South: fourteen cards, or the two twice
        elif damage == 5:  # a rank moved from South's hand to West's clubs: the same length, hands of 12 and 14
            j = rng.choice([k for k, ch in enumerate(md) if ch in "23456789TJQKA" and k < 17])
            rest = md[:j] + md[j + 1 :]
            md = rest[:34] + md[j] + rest[34:]
        texts.append(md.encode())
    owners, ok = lin_bulk.parse_hands(texts)
    full_owners, full_ok = lin_bulk._parse_in_pieces(texts)
    assert (full_ok == ok).all()
    assert (full_owners[ok] == owners[ok]).all()
    for r, text in enumerate(texts):
        try:
            _dealer, deal, _given = parse_md(text.decode())
        except ValueError:
            assert not ok[r], text
            continue
        if ok[r]:
            assert Deal.from_owners(owners[r].tolist()) == deal, text
        else:
            assert not deal.is_complete, text


def test_parse_full_hands_places_no_card_of_a_fifth_suit_letter():
    """A hand of 17 bytes with a fifth suit letter (a card after it would have no suit) is not a deal, and its
    cards after that letter land in no other row: the row before keeps its own owners."""
    import numpy as np

    deals = [Deal.from_owners(random_chunk(1, seed=s).owners[0].tolist()) for s in (3, 4)]
    good = [md_text(Board.numbered(1, deal))[1:] for deal in deals]
    hands = good[1].split(",")
    ranks = "".join(ch for ch in ",".join(hands[:2]) if ch not in "SHDC,")  # the 26 cards of two hands
    # the card after the fifth letter would land on a spade of the row before: one South does not hold there
    south_spades = good[0][1 : good[0].index("H")]
    stray = next(j for j, ch in enumerate(ranks) if ch not in south_spades)
    ranks = ranks[:stray] + ranks[stray + 1 : 12] + ranks[stray] + ranks[12:] if stray < 12 else ranks
    assert ranks[11] not in south_spades
    # 12 ranks and five letters, then 14 ranks and three letters: 17 bytes each, 26 cards between them
    first = f"S{ranks[:3]}H{ranks[3:6]}D{ranks[6:9]}C{ranks[9:11]}S{ranks[11]}"
    second = f"S{ranks[12:17]}H{ranks[17:22]}D{ranks[22:26]}"
    assert len(first) == len(second) == 17
    bad = ",".join([first, second, *hands[2:]])
    rows = np.frombuffer((good[0] + bad).encode(), np.uint8).reshape(2, 71)
    owners, ok = lin_bulk.parse_full_hands(rows)
    alone_owners, alone_ok = lin_bulk.parse_full_hands(rows[:1].copy())
    assert ok.tolist() == [True, False]
    assert alone_ok.tolist() == [True]
    assert (owners[0] == alone_owners[0]).all()
