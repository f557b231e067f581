"""Big PBN files read lazily: the same boards, problems and bytes as the eager reader."""

from __future__ import annotations

import io

import pytest
from conftest import realdata_files
from test_pbn_fast import _odd_games, deals_file

from bridgeview.check.validate import validate
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.pbn.codec import PbnCodec, parse_pbn_text
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.board import board_key

CODEC = PbnCodec()

GAME = (
    '[Event "Club night"]\n[Site "Here"]\n[Date "2024.01.02"]\n[Board "{n}"]\n[West "w"]\n[North "n"]\n'
    '[East "e"]\n[South "s"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    '[Scoring "IMP"]\n[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n'
    '[Auction "N"]\nPass Pass 3NT Pass\nPass Pass\n[Play "W"]\nS2 D2 H2 C2\n'
)
EDGE_TEXTS = {
    "plain": "% PBN 2.1\n% EXPORT\n\n" + "\n".join(GAME.format(n=n) for n in range(1, 6)),
    "crlf": ("% PBN 2.1\n\n" + "\n".join(GAME.format(n=n) for n in range(1, 4))).replace("\n", "\r\n"),
    "bom and comments": "\ufeff% PBN 2.1\n\n{a comment before the game}\n\n"
    + GAME.format(n=1)
    + "\n% between\n\n"
    + GAME.format(n=2)
    + "{café}\n\n\n  \n% trailer only\n",
    "inheritance": "% PBN 2.1\n\n"
    + GAME.format(n=1)
    + "\n"
    + GAME.format(n=2).replace('"Club night"', '"#"').replace('"Here"', '"##Elsewhere"')
    + "\n"
    + GAME.format(n=3).replace('[Site "Here"]\n', "").replace('"Club night"', '"#"')
    + "\n"
    + GAME.format(n=4).replace('"Here"', '"#"'),
    "problems": "% PBN 2.1\n\n"
    + GAME.format(n=1).replace("3NT Pass", "3NT Bogus")
    + "\n"
    + GAME.format(n="x")
    + "\n"
    + GAME.format(n=3).replace('"N:AKQJ', '"N:AKKJ'),
    "no games": "% PBN 2.1\n% EXPORT\n\n",
    "whitespace lines": "% PBN 2.1\n \n\t\n"
    + GAME.format(n=1)
    + "  \n\t \r\n\n"
    + GAME.format(n=2)
    + " \n"
    + GAME.format(n=3)
    + "\n \t\x0b\n\n"
    + " N S\n"
    + GAME.format(n=4),
    "no trailing newline": "% PBN\n" + GAME.format(n=1).rstrip("\n"),
}


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def assert_same(path) -> None:
    """The lazy set reads ``path`` exactly as the eager reader does, and writes the same bytes."""
    eager = CODEC.read(path, ReadOptions())
    lazy = pbn_lazy.read_lazy(path)
    assert len(lazy) == len(eager)
    for i, (a, b) in enumerate(zip(eager, lazy, strict=True)):
        assert board_key(b) == board_key(a), i
        assert b.source == a.source, i
    for key in ("preamble", "trailer", "encoding", "newline", "header"):
        assert lazy.info.extra[key] == eager.info.extra[key], key
    assert (lazy.info.event, lazy.info.site, lazy.info.date) == (eager.info.event, eager.info.site, eager.info.date)
    assert sorted((i, *p) for i in range(len(lazy)) for p in lazy.problems_of(i)) == sorted(eager.problems)
    for i in range(len(eager)):
        assert lazy.info.extra["board_lines"].get(i) == eager.info.extra["board_lines"][i]
    assert [str(p) for p in validate(lazy)] == [str(p) for p in validate(eager)]
    for opts in (WriteOptions(), WriteOptions(newline="\r\n"), WriteOptions(newline="\n", encoding="latin-1")):
        out_e, out_l = io.BytesIO(), io.BytesIO()
        CODEC.write(eager, out_e, opts)
        CODEC.write(lazy, out_l, opts)
        assert out_l.getvalue() == out_e.getvalue()


@pytest.mark.parametrize("name", sorted(EDGE_TEXTS))
def test_lazy_reads_edge_cases_as_the_eager_reader(tmp_path, name):
    assert_same(_write(tmp_path, "edge.pbn", EDGE_TEXTS[name].encode("utf-8")))


@pytest.mark.parametrize("name", sorted(EDGE_TEXTS))
def test_scan_chunk_and_block_boundaries_change_nothing(tmp_path, monkeypatch, name):
    """The scan works a chunk of the file at a time: tiny chunks put every boundary inside a line."""
    monkeypatch.setattr(pbn_lazy, "_SCAN_CHUNK", 7)
    monkeypatch.setattr(pbn_lazy, "_LINE_BLOCK", 5)
    assert_same(_write(tmp_path, "edge.pbn", EDGE_TEXTS[name].encode("utf-8")))


def test_lazy_reads_latin1_as_the_eager_reader(tmp_path):
    assert_same(_write(tmp_path, "latin.pbn", EDGE_TEXTS["plain"].replace("Club", "Caf\xe9").encode("latin-1")))


@pytest.mark.parametrize("path", realdata_files("pbn", "*.pbn"), ids=lambda p: p.name)
def test_lazy_reads_every_real_pbn_file_as_the_eager_reader(path):
    assert_same(path)


def test_random_access_in_an_inheriting_file_matches_sequential(tmp_path, monkeypatch):
    """A board far into a file with ``#`` values decodes with the right context, from any starting point."""
    monkeypatch.setattr(pbn_lazy, "CHECKPOINT_EVERY", 4)
    text = (
        "% PBN 2.1\n\n"
        + GAME.format(n=1).replace('"Here"', '"##Far away"')
        + "\n"
        + "\n".join(
            GAME.format(n=n).replace('[Site "Here"]\n', "").replace('"Club night"', '"#"') for n in range(2, 40)
        )
    )
    path = _write(tmp_path, "inherit.pbn", text.encode())
    eager = CODEC.read(path, ReadOptions())
    lazy = pbn_lazy.read_lazy(path)
    for i in (37, 3, 20, 0, 38, 5):
        assert board_key(lazy[i]) == board_key(eager[i])
        assert lazy[i].tags["Site"] == "Far away"


def test_checkpoints_of_an_inheriting_file_share_the_layouts_learned(tmp_path, monkeypatch):
    """A deal generator's games after a game with a ``#`` value: the lazy reader's checkpoints (a copy of the
    reading context every few games) share the layouts the fast path learned instead of each copying them,
    and every board, decoded in any order, is the eager reader's."""
    monkeypatch.setattr(pbn_lazy, "CHECKPOINT_EVERY", 4)
    text = _odd_games(deals_file(40, 7, "Cup"), [((r'\[Event "Cup"\]', '[Event "#"]'), 1)])
    assert text.count('[Event "#"]') == 1
    path = _write(tmp_path, "inherit.pbn", text.encode())
    eager = CODEC.read(path, ReadOptions())
    lazy = pbn_lazy.read_lazy(path)
    assert lazy.index.inherits
    for i in (39, 3, 20, 0, 38, 1, 5, 17):
        assert board_key(lazy[i]) == board_key(eager[i])
    layouts = {id(c.fast_layout) for c in lazy._checkpoints if c.fast_layout is not None}
    assert len(lazy._checkpoints) >= 9 and len(layouts) == 1


def big_file(tmp_path, boards: int):
    text = "% PBN 2.1\n% EXPORT\n\n" + "\n".join(GAME.format(n=n) for n in range(1, boards + 1))
    return _write(tmp_path, "big.pbn", text.encode())


def test_big_files_open_lazily_and_save_edits(tmp_path, monkeypatch):
    """Past the size threshold the codec reads lazily; an edit is kept aside and the rest streams on save."""
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    path = big_file(tmp_path, 300)
    doc = read_file(path)
    assert doc.is_lazy and len(doc) == 300
    assert doc[250].number == 251 and doc.info.event == "Club night"
    doc[250] = doc[250].touched(tags={**doc[250].tags, "Event": "Edited"})
    assert doc.is_lazy and doc.edited
    out = tmp_path / "out.pbn"
    write_file(doc, out)
    again = read_file(out)
    assert again.is_lazy and len(again) == 300
    assert again[250].tags["Event"] == "Edited" and again[249].tags["Event"] == "Club night"
    original = path.read_bytes().split(b"\n\n")
    written = out.read_bytes().split(b"\n\n")
    assert [i for i, (a, b) in enumerate(zip(original, written, strict=True)) if a != b] == [251]


def test_unchanged_big_file_saves_byte_identical(tmp_path, monkeypatch):
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    path = big_file(tmp_path, 200)
    doc = read_file(path)
    assert doc.is_lazy
    out = tmp_path / "same.pbn"
    write_file(doc, out)
    assert out.read_bytes() == path.read_bytes()


def test_a_nul_byte_in_a_big_file_is_a_clear_error(tmp_path, monkeypatch):
    from bridgeview.formats.errors import FormatError

    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10)
    path = _write(tmp_path, "bin.pbn", b'% PBN\n[Board \x00"1"]\n' * 4)
    with pytest.raises(FormatError, match="NUL byte"):
        read_file(path, "pbn")


def test_saving_a_lazy_set_over_its_own_file_twice(tmp_path, monkeypatch):
    """Save writes a new file and renames it over the mapped one; the set keeps reading the old bytes."""
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    path = big_file(tmp_path, 150)
    original = path.read_bytes()
    doc = read_file(path)
    doc[10] = doc[10].touched(tags={**doc[10].tags, "Event": "First edit"})
    write_file(doc, path)
    doc[20] = doc[20].touched(tags={**doc[20].tags, "Event": "Second edit"})
    write_file(doc, path)
    again = read_file(path)
    assert [again[i].tags["Event"] for i in (9, 10, 20)] == ["Club night", "First edit", "Second edit"]
    assert (
        len(again) == 150
        and again[149].source.text == CODEC.read(_write(tmp_path, "orig.pbn", original), ReadOptions())[149].source.text
    )


@pytest.mark.parametrize("name", list(EDGE_TEXTS))
@pytest.mark.parametrize("chunk", [64, 1 << 24])
def test_the_scan_sums_the_checksum(tmp_path, monkeypatch, name, chunk):
    """The scan sums Pavlicek's checksum while it has each chunk mapped (so the window starts no thread
    to read the file again); a byte-order mark shifts the words off the chunks: then it is left to others."""
    from bridgeview.formats.checksum import pavlicek_checksum

    monkeypatch.setattr(pbn_lazy, "_SCAN_CHUNK", chunk)  # many chunks, and a last one of odd length
    path = tmp_path / "edge.pbn"
    path.write_bytes(EDGE_TEXTS[name].encode("utf-8") + b"x" * (len(name) % 7))
    doc = pbn_lazy.read_lazy(path)
    if EDGE_TEXTS[name].startswith("\ufeff"):
        assert doc.info.checksum is None
    else:
        assert doc.info.checksum == pavlicek_checksum(path)


def test_a_window_on_a_big_pbn_file_shows_the_checksum_without_a_thread(qtbot, tmp_path, monkeypatch):
    import threading

    from PySide6.QtCore import QSettings

    from bridgeview.formats.checksum import pavlicek_checksum
    from bridgeview.ui.boardset import details
    from bridgeview.ui.mainwindow import MainWindow

    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 0)
    monkeypatch.setattr(details, "SYNC_CHECKSUM_BYTES", 0)  # a thread for any file whose sum is not known
    started: list[str] = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self.name) or real_start(self))
    path = tmp_path / "big.pbn"
    path.write_text(EDGE_TEXTS["plain"])
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    assert w.open_file(str(path))
    view = w.current_view()
    assert view.boards.is_lazy
    assert dict(view.details.file_rows())["checksum"] == f"{pavlicek_checksum(path):X}"
    assert "checksum" not in started


def test_the_header_of_a_lazy_file_is_its_first_games_tags_as_the_careful_reader_reads_them() -> None:
    """The lazy reader takes the file's event, site and date from a tags-only visitor of the first game."""
    from bridgeview.formats.pbn.lex import game_tags, split_games
    from bridgeview.formats.pbn.read import known_field

    text = (
        '{a comment}\n[Event "Club \\"Pairs\\""]\n[Event "again"]\n[Site "##Hall"]\n[Date "????.??.??"]\n'
        '[Board "1"]\n[Auction "N"]\n1S Pass\n'
    )
    game = split_games(text).games[0]
    tags = game_tags(game)
    board = parse_pbn_text(text)[0]
    assert tags["Event"] == board.tags["Event"] == 'Club "Pairs"'
    assert tags["Site"] == board.tags["Site"] == "Hall"
    assert known_field(tags["Date"]) is None
    assert "Auction" in tags and tags["Auction"] == "N"
