"""Binary sets written as PBN a chunk at a time: the same bytes as the whole-text writer."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.formats import chunked
from bridgeview.formats.bulk import ABSENT, DD_UNKNOWN, BulkChunk
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.convert import convert_file
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pbn import stream as pbn_stream
from bridgeview.formats.pbn.codec import PbnCodec, document_text
from bridgeview.formats.pbn.write import board_text
from bridgeview.formats.records import ddtable_from_row
from bridgeview.formats.registry import get, read_file
from bridgeview.model.board import Board
from bridgeview.model.deal import Deal

CODEC = PbnCodec()


def random_chunk(n: int, seed: int = 3, unknown: bool = True) -> BulkChunk:
    """Random complete deals; DD tables with unknown cells, some wholly unknown (``unknown``)."""
    rng = np.random.default_rng(seed)
    owners = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8) // 13
    dd = rng.integers(0, 14, (n, 4, 5)).astype(np.uint8)
    if unknown:
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
    assert pbn_stream.is_lazy_foreign(doc)
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


# -- big PBN -> ZRD/ZBD in chunks (pbn_bulk) -------------------------------------------
def varied_pbn(n: int = 240, seed: int = 5, unknown: bool = True) -> str:
    """Games of every kind the chunked converter must treat as the check and writer do."""
    from bridgeview.formats.pbn.write import board_text as text_of

    rng = np.random.default_rng(seed)
    chunk = random_chunk(n, seed, unknown)
    games = []
    for i in range(n):
        number = i + 1
        board = Board.numbered(number, Deal.from_owners(chunk.owners[i].tolist()), dd=ddtable_from_row(chunk.dd[i]))
        text = text_of(board, None, foreign=True)
        kind = i % 12
        if kind == 1:
            text = text.replace('[Event "?"]', '[Event "Club night"]')
        elif kind == 2:
            text = text.replace(f'[Board "{number}"]', '[Board "?"]')
        elif kind == 3:
            text = text.replace('[Dealer "', '[Dealer "W"]\n[X "').replace('[X "', '[Xdealer "', 1)
        elif kind == 4:
            text = text.replace('[Vulnerable "', '[Vulnerable "All"]\n[Old "', 1)
        elif kind == 5:
            text = text.replace('[Declarer "?"]', '[Declarer "S"]').replace('[Contract "?"]', '[Contract "3NT"]')
        elif kind == 6:
            text = text.replace('[Result "?"]\n', '[Result "?"]\n[Auction "N"]\nPass Pass Pass Pass\n')
        elif kind == 7 and "OptimumResultTable" in text:
            text = text.replace(" NT ", " nt ", 1)
        elif kind == 8:
            text = text.replace('[West "?"]', '[West "Pavlicek"]')
        elif kind == 9 and "OptimumResultTable" in text:
            text = text.rstrip("\n").rsplit("\n", 1)[0] + "\nN  C 14\n"
        elif kind == 10:
            text = "{a comment}\n" + text
        elif kind == 11:
            deal = text.split('[Deal "')[1].split('"')[0]
            other = deal.lower().replace("n:", "N:") if rng.random() < 0.5 else deal.replace(" ", "  ")
            text = text.replace(deal, other)
        games.append(text)
    return "% PBN 2.1\n% EXPORT\n" + "\n".join(games)


@pytest.mark.parametrize("unknown", [True, False])
@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_chunked_pbn_conversion_matches_the_check_and_writer(tmp_path, monkeypatch, fmt, unknown):
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "varied.pbn"
    path.write_text(varied_pbn(unknown=unknown))
    eager = CODEC.read(path, ReadOptions())
    lazy = pbn_lazy.read_lazy(path)
    assert pbn_bulk.applies(lazy, get(fmt), None)
    monkeypatch.setattr(chunked, "CHUNK", 50)  # chunk boundaries do not matter ...
    got = write_document(lazy, tmp_path / f"lazy.{fmt}", get(fmt))
    monkeypatch.setattr(chunked, "CHUNK", 1 << 16)  # ... as long as the writer sees the same chunks
    want = write_document(eager, tmp_path / f"eager.{fmt}", get(fmt))
    assert got.losses == want.losses and len(want.losses) >= 3, want.losses
    assert got.records == want.records == 240
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()
    lazy2 = pbn_lazy.read_lazy(path)
    write_document(lazy2, tmp_path / f"lazy2.{fmt}", get(fmt))
    assert (tmp_path / f"lazy2.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()


def test_chunked_pbn_conversion_refuses_an_incomplete_deal(tmp_path):
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.errors import FormatError
    from bridgeview.formats.pbn import lazy as pbn_lazy

    text = varied_pbn(30)
    at = text.index('[Board "17"]')
    deal = text.index("[Deal ", at)
    text = text[:deal] + '[Deal "N:AKQ... - - -"]' + text[text.index("\n", deal) :]  # three cards: not a deal
    path = tmp_path / "bad.pbn"
    path.write_text(text)
    with pytest.raises(FormatError) as eager_error:
        write_document(CODEC.read(path, ReadOptions()), tmp_path / "e.zrd", get("zrd"))
    with pytest.raises(FormatError) as lazy_error:
        write_document(pbn_lazy.read_lazy(path), tmp_path / "l.zrd", get("zrd"))
    assert str(lazy_error.value) == str(eager_error.value) and "board 17" in str(lazy_error.value)
    assert not (tmp_path / "l.zrd").exists()


def test_chunked_report_says_what_the_check_says(tmp_path):
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "varied.pbn"
    path.write_text(varied_pbn(120))
    for fmt in ("zrd", "zbd"):
        want = get(fmt).check(CODEC.read(path, ReadOptions()))
        got = pbn_bulk.report(pbn_lazy.read_lazy(path), get(fmt))
        assert (got.losses, got.errors) == (want.losses, want.errors)


def test_games_of_the_usual_shape_are_read_together_and_the_rest_one_by_one(tmp_path, monkeypatch):
    """Most games of a generated file take the numpy path; the others the pattern or the reader."""
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "varied.pbn"
    path.write_text(varied_pbn(unknown=False))
    shaped = []
    real = pbn_bulk._shaped_rows
    monkeypatch.setattr(pbn_bulk, "_shaped_rows", lambda *a: shaped.append((a[1], real(*a))) or shaped[-1][1])
    monkeypatch.setattr(chunked, "CHUNK", 40)  # shapes seen in one chunk serve the next
    got = pbn_bulk.report(pbn_lazy.read_lazy(path), get("zrd"))
    want = get("zrd").check(CODEC.read(path, ReadOptions()))
    assert got.losses == want.losses
    rows = sorted(first + r for first, call in shaped for r in call[0].tolist())
    # plain games: numbered, "?" for a number, lower-case ranks (the others need the pattern or the reader)
    assert {r % 12 for r in rows} == {0, 2, 11} and len(rows) >= 45, rows


def _with_empty_games(text: str, every: int = 7) -> str:
    """``text`` with a game that holds no cards after every ``every``-th game: a lone Scoring tag, a board
    whose deal is unknown, a board without a number or a deal."""
    games = text.split("\n\n")
    kinds = ['[Scoring "IMP"]\n', '[Board "{n}"]\n[Deal "?"]\n', '[Event "x"]\n[Dealer "N"]\n']
    out = []
    for i, game in enumerate(games):
        out.append(game)
        if i % every == every - 1:
            out.append(kinds[(i // every) % 3].format(n=900 + i))
    return "\n\n".join(out)


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_chunked_pbn_conversion_leaves_out_games_without_cards_as_the_eager_path_does(tmp_path, monkeypatch, fmt):
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "gaps.pbn"
    path.write_text(_with_empty_games(varied_pbn(unknown=False)))
    eager = CODEC.read(path, ReadOptions())
    empty = sum(1 for b in eager if not b.deal.card_count)
    assert empty >= 30
    lazy = pbn_lazy.read_lazy(path)
    assert pbn_bulk.applies(lazy, get(fmt), None)
    monkeypatch.setattr(chunked, "CHUNK", 50)  # games left out in every chunk, numbered on across chunks
    got = write_document(lazy, tmp_path / f"lazy.{fmt}", get(fmt))
    report = pbn_bulk.report(pbn_lazy.read_lazy(path), get(fmt))
    monkeypatch.setattr(chunked, "CHUNK", 1 << 16)
    want = write_document(eager, tmp_path / f"eager.{fmt}", get(fmt))
    assert want.losses[0] == f"{empty} games without cards"
    assert got.losses == want.losses
    assert report.losses == want.losses and not report.errors
    assert got.records == want.records == 240
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()


def test_chunked_pbn_conversion_refuses_a_file_without_any_cards(tmp_path):
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.errors import FormatError
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "none.pbn"
    path.write_text("\n".join(f'[Board "{n}"]\n[Deal "?"]\n' for n in range(3, 40)))
    with pytest.raises(FormatError) as eager_error:
        write_document(CODEC.read(path, ReadOptions()), tmp_path / "e.zrd", get("zrd"))
    with pytest.raises(FormatError) as lazy_error:
        write_document(pbn_lazy.read_lazy(path), tmp_path / "l.zrd", get("zrd"))
    assert str(lazy_error.value) == str(eager_error.value) and "board 3 has no cards" in str(lazy_error.value)
    assert not (tmp_path / "l.zrd").exists()
    want = get("zrd").check(CODEC.read(path, ReadOptions())).errors
    assert pbn_bulk.report(pbn_lazy.read_lazy(path), get("zrd")).errors[:1] == want[:1]
    assert "board 3 has no cards" in want[0]


@pytest.mark.parametrize("fmt", ["bri", "dup", "dge"])
def test_a_big_pbn_read_lazily_leaves_out_games_without_cards_for_other_deal_formats(tmp_path, fmt):
    """Deals-only formats without the chunked path (BRI, DUP, DGE) get the same games and the same notice
    from a lazily read file as from the eager reader, instead of refusing the whole save."""
    from bridgeview.formats.convert import WithoutGames, write_document
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "gaps.pbn"
    path.write_text(_with_empty_games(varied_pbn(60, unknown=False), every=7))
    eager = CODEC.read(path, ReadOptions())
    empty = sum(1 for b in eager if not b.deal.card_count)
    assert empty >= 5
    want = write_document(eager, tmp_path / f"eager.{fmt}", get(fmt))
    lazy = pbn_lazy.read_lazy(path)
    got = write_document(lazy, tmp_path / f"lazy.{fmt}", get(fmt))
    assert f"{empty} games without cards" in want.losses
    assert got.losses == want.losses
    assert got.records == want.records == len(eager) - empty
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()
    view = WithoutGames(lazy, [0])
    assert len(view) == len(lazy) - 1 and view[0].number == lazy[1].number


def layouts_pbn(n: int = 300, seed: int = 9) -> str:
    """Plain games whose values differ in length (board numbers of 1-7 digits, every way of writing
    a dealer and a vulnerability, empty placeholders): each length makes a layout of its own.
    Every fourth table lists its rows in another order."""
    chunk = random_chunk(n, seed, unknown=False)
    dealers = ["N", "e", "?", "", "W", "s"]
    vuls = ["None", "NS", "EW", "All", "Both", "Love", "-", "?", ""]
    games = []
    used: set[int] = set()
    for i in range(n):
        number = i + 1 + 10 ** (i % 7)
        while number in used:  # a number twice would be two deals under one board number (refused)
            number += 1
        used.add(number)
        board = Board.numbered(number, Deal.from_owners(chunk.owners[i].tolist()), dd=ddtable_from_row(chunk.dd[i]))
        text = board_text(board, None, foreign=True)
        text = text.replace(f'[Dealer "{board.dealer.name[0]}"]', f'[Dealer "{dealers[i % 6]}"]')
        text = text.replace('[Vulnerable "', f'[Vulnerable "{vuls[i % 9]}"]\n[Old "', 1).replace("\n[Old ", "\n[X", 1)
        text = "\n".join(line for line in text.split("\n") if not line.startswith("[X"))
        if i % 5 == 0:
            text = text.replace('[Site "?"]', '[Site ""]')
        if i % 4 == 3:  # the table's rows in another order than the first game's
            head, rows = text.split('Result\\2R"]\n')
            text = head + 'Result\\2R"]\n' + "\n".join(reversed(rows.rstrip("\n").split("\n"))) + "\n"
        games.append(text)
    return "% PBN 2.1\n% EXPORT\n" + "\n".join(games)


@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
def test_games_laid_out_differently_are_all_read_with_numpy_and_give_the_eager_bytes(tmp_path, monkeypatch, fmt):
    """Values of other lengths move the text between them: each layout is compared with its own template."""
    from bridgeview.formats.convert import write_document
    from bridgeview.formats.pbn import bulk as pbn_bulk
    from bridgeview.formats.pbn import lazy as pbn_lazy

    path = tmp_path / "layouts.pbn"
    path.write_text(layouts_pbn())
    shaped = []
    real = pbn_bulk._shaped_rows
    monkeypatch.setattr(pbn_bulk, "_shaped_rows", lambda *a: shaped.append((a[1], real(*a))) or shaped[-1][1])
    monkeypatch.setattr(chunked, "CHUNK", 64)
    got = write_document(pbn_lazy.read_lazy(path), tmp_path / f"lazy.{fmt}", get(fmt))
    monkeypatch.setattr(chunked, "CHUNK", 1 << 16)
    want = write_document(CODEC.read(path, ReadOptions()), tmp_path / f"eager.{fmt}", get(fmt))
    assert got.losses == want.losses and got.records == want.records == 300
    assert (tmp_path / f"lazy.{fmt}").read_bytes() == (tmp_path / f"eager.{fmt}").read_bytes()
    rows = sorted(first + r for first, call in shaped for r in call[0].tolist())
    assert rows == list(range(300)), rows  # the last game too, though the file ends less than a word after it


def test_checking_an_unedited_lazy_binary_set_for_pbn_decodes_no_board(tmp_path, monkeypatch):
    """Saving a big ZRD as PBN streams it chunk by chunk: the save check must not decode every board
    one at a time first (a typing change once made it do so, and ZRD -> PBN ran 3x slower)."""
    import random

    from bridgeview.formats import records
    from bridgeview.formats.registry import write_file
    from bridgeview.model.boardset import BoardSet

    rng = random.Random(3)
    path = tmp_path / "set.zrd"
    write_file(BoardSet([Board.numbered(n, Deal.shuffled(rng)) for n in range(1, 41)]), path, "zrd")
    doc = read_file(path)
    assert pbn_stream.is_lazy_foreign(doc)
    decoded: list[int] = []
    original = records.FixedRecordCodec.decode_board

    def counting(self, recs, index):
        decoded.append(index)
        return original(self, recs, index)

    monkeypatch.setattr(records.FixedRecordCodec, "decode_board", counting)
    report = CODEC.check(doc)
    assert not report.errors and decoded == []
    doc[3]  # the counter does count a decoded board
    assert decoded == [3]


ODD_VALUES = [
    ("Board", "1a"), ("Board", "0007"), ("Board", "?"), ("Board", ""), ("Board", "123456789"), ("Board", "1234567890"),
    ("Board", "-3"), ("Dealer", "x"), ("Dealer", "n"), ("Dealer", "?"), ("Dealer", ""), ("Dealer", "NE"),
    ("Vulnerable", "NX"), ("Vulnerable", "none"), ("Vulnerable", "Al"), ("Vulnerable", "Both"), ("Vulnerable", "Lov"),
    ("Vulnerable", "NS "), ("Vulnerable", "-"), ("Vulnerable", ""), ("Vulnerable", "?"), ("Vulnerable", "EW\x01"),
    # a hand of four dots (69 bytes all the same): its cards once took the slots of the deal parsed before it
    ("Deal", "N:A.K.Q.J.T9876543 K963.K5.QT8.QJ64 AQ842.Q842.K63.2 75.AJ.9742.AKT87"),
]  # fmt: skip


@pytest.mark.parametrize(("tag", "value"), ODD_VALUES)
@pytest.mark.parametrize("fmt", ["zrd", "zbd"])
@pytest.mark.parametrize("odd", [17, 39])
def test_an_odd_value_in_plain_games_converts_in_chunks_as_read_whole(tmp_path, monkeypatch, fmt, tag, value, odd):
    """The games of a shape are read a layout at a time and their board numbers, dealers and vulnerabilities all
    together: one game with a value the layouts do not expect (a letter in a number, an unknown vulnerability, a
    number too long) gives what reading the file whole gives, to the byte and the word; in the file's last game
    too, whose row of words is padded past the end of the file."""
    from bridgeview.formats import convert
    from bridgeview.formats.pbn import lazy as pbn_lazy

    games = layouts_pbn(40, seed=3).split("\n[Event")
    lines = games[odd].split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(f"[{tag} "))
    lines[at] = f'[{tag} "{value}"]'
    games[odd] = "\n".join(lines)
    path = tmp_path / "odd.pbn"
    path.write_bytes("\n[Event".join(games).encode())

    def converted() -> tuple:
        dst = tmp_path / f"odd.{fmt}"
        dst.unlink(missing_ok=True)
        try:
            result = convert_file(path, dst)
        except FormatError as e:
            return ("refused", e.full(), dst.exists())
        return ("written", dst.read_bytes(), result.notices, result.losses)

    chunks = converted()
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 1 << 62)
    monkeypatch.setattr(convert, "CHUNKS_FROM_BYTES", 1 << 62)
    whole = converted()
    assert chunks[0] == "written" or "odd.pbn" in chunks[1]
    assert chunks == whole


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.lists(st.booleans(), min_size=16, max_size=16), min_size=4, max_size=4), min_size=1))
def test_dots_before_each_byte_are_counted_as_cumsum_counts_them(rows):
    """The dots up to each byte of a hand (its suit), summed in 64-bit words: what numpy's cumsum gives."""
    from bridgeview.formats.pbn.bulk import dots_before

    dots = np.array(rows, dtype=bool)
    assert dots_before(dots).tolist() == np.cumsum(dots, axis=2).tolist()


def _deal_strings(seed: int, n: int) -> list[bytes]:
    import random

    rng = random.Random(seed)
    return [Deal.shuffled(rng).to_pbn().encode() for _ in range(n)]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.lists(st.tuples(st.integers(0, 5), st.integers(2, 68), st.sampled_from(b". AKx")), max_size=6),
)
def test_deals_parsed_together_read_as_the_model_reads_them(seed, changes):
    """Each sound deal string among others (some with a byte changed: a dot more or less, a stray letter) gives the
    owners the model gives it; a row the numpy parse refuses is left to the careful reader."""
    from bridgeview.formats.pbn.bulk import parse_deals

    deals = [bytearray(d) for d in _deal_strings(seed, 6)]
    for row, at, byte in changes:
        deals[row][at] = byte
    owners, ok = parse_deals([bytes(d) for d in deals])
    for d, row_owners, sound in zip(deals, owners.tolist(), ok.tolist(), strict=True):
        if sound:
            assert row_owners == Deal.from_pbn(d.decode()).owners()


def test_a_hand_with_a_fourth_dot_leaves_the_other_deals_alone():
    """Cards after a fourth dot have no suit: they once landed in the slots of the deal before (wrong owners for a
    deal the parse called sound) when the file was parsed together."""
    from bridgeview.formats.pbn.bulk import parse_deals

    good = _deal_strings(7, 1)[0]
    bad = b"N:A.K.Q.J.T9876543" + good[18:]  # 16 bytes: four dots, twelve cards
    alone, _ok = parse_deals([good])
    owners, ok = parse_deals([good, bad])
    assert ok.tolist() == [True, False]
    assert owners[0].tolist() == alone[0].tolist() == Deal.from_pbn(good.decode()).owners()
