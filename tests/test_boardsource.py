"""The typed seams of issue 27: every set of boards is a ``BoardSource`` with a ``SetKind``, every codec says
what it reads and writes (``BridgeCodec`` or ``CribbageCodec``), and a document holds one of the two.

mypy checks the same structurally where the code hands these sets on (``without_empty_games`` returns a
``BoardsView`` as a ``BoardSource``, ``write_document`` checks through a ``CountedBoards``...); this file checks
each look-alike at run time, as a user's file makes it."""

from __future__ import annotations

import io

import pytest

from bridgeview.app.document import Document
from bridgeview.formats.codec import (
    BridgeCodec,
    CribbageCodec,
    ReportsProgress,
    is_lazy_text,
    lazy_text,
    progress_of,
    source_info,
)
from bridgeview.formats.convert import BoardsView, CountedBoards, WithoutGames, without_empty_games
from bridgeview.formats.lazytext import EditedBoards
from bridgeview.formats.lin import lazy as lin_lazy
from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.registry import all_codecs, get, read_file, write_file
from bridgeview.model import Board, BoardSet, LazyBoardSet
from bridgeview.model.boardset import BoardSource, SetKind, lazy_set
from bridgeview.model.cribbage import CribbageRecord
from bridgeview.resources import resource


@pytest.fixture(scope="module")
def sample() -> BoardSet:
    doc = read_file(resource("sample.pbn"))
    assert isinstance(doc, BoardSet) and len(doc) > 3
    return doc


def _written(tmp_path, sample: BoardSet, name: str):
    path = tmp_path / name
    write_file(BoardSet([b for b in sample if b.deal.is_complete], sample.info), path)
    return path


def _lazy_pbn(tmp_path, sample):
    return pbn_lazy.read_lazy(_written(tmp_path, sample, "lazy.pbn"))


def _lazy_lin(tmp_path, sample):
    path = tmp_path / "lazy.lin"
    write_file(BoardSet([Board.numbered(b.number or 1, b.deal) for b in sample if b.deal.is_complete]), path)
    lazy = lin_lazy.read_lazy(path)
    assert lazy is not None  # hand records the lazy reader takes
    return lazy


def _records(tmp_path, sample):
    doc = read_file(_written(tmp_path, sample, "set.zrd"))
    assert type(doc) is LazyBoardSet
    return doc


def _never_cancel(done: int, total: int) -> bool:
    return True


#: every kind of board set there is, and the kind it says it is
LOOK_ALIKES = {
    "BoardSet": (lambda tmp, s: s, SetKind.MEMORY),
    "LazyBoardSet": (_records, SetKind.RECORDS),
    "LazyPbnSet": (_lazy_pbn, SetKind.PBN_TEXT),
    "LazyLinSet": (_lazy_lin, SetKind.LIN_TEXT),
    "BoardsView": (lambda tmp, s: BoardsView(s, [2, 0]), SetKind.SELECTION),
    "WithoutGames": (lambda tmp, s: WithoutGames(_lazy_pbn(tmp, s), [0]), SetKind.SELECTION),
    "EditedBoards": (lambda tmp, s: EditedBoards(_lazy_pbn(tmp, s)), SetKind.SELECTION),
    "CountedBoards": (lambda tmp, s: CountedBoards(_records(tmp, s), _never_cancel, 0, 1), SetKind.RECORDS),
}


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_every_board_set_is_a_board_source_of_its_kind(tmp_path, sample, name):
    make, kind = LOOK_ALIKES[name]
    boards = make(tmp_path, sample)
    assert isinstance(boards, BoardSource), name
    assert boards.kind is kind
    assert boards.info is not None and isinstance(boards.problems, list)
    assert isinstance(boards.uncounted, BoardSource) and boards.uncounted.kind is kind
    assert [b for b in boards] == [boards[i] for i in range(len(boards))]
    assert all(isinstance(b, Board) for b in boards)
    if len(boards):
        assert boards.record_number(0) is None or boards.record_number(0) >= 1
    assert lazy_text(boards) == kind.text_codec
    assert is_lazy_text(boards) == (kind.text_codec is not None)
    assert source_info(boards) is boards.info


def test_a_plain_list_of_boards_is_no_board_source(sample):
    boards = list(sample)
    assert not isinstance(boards, BoardSource)
    assert source_info(boards) is None and lazy_text(boards) is None
    assert get("pbn").check(boards).ok  # a codec still checks (and writes) a bare list
    out = io.BytesIO()
    get("pbn").write(boards, out)
    assert out.getvalue().count(b"[Deal ") == len(boards)


def test_the_kinds_say_which_are_lazy_and_which_text_codec_made_them():
    assert [k for k in SetKind if k.lazy] == [SetKind.RECORDS, SetKind.PBN_TEXT, SetKind.LIN_TEXT]
    assert {k: k.text_codec for k in SetKind if k.text_codec} == {SetKind.PBN_TEXT: "pbn", SetKind.LIN_TEXT: "lin"}


def test_a_lazy_set_restructured_is_held_in_memory(tmp_path, sample):
    lazy = _lazy_pbn(tmp_path, sample)
    assert lazy.kind is SetKind.PBN_TEXT and lazy.is_lazy and not lazy.edited
    lazy[0] = lazy[0].touched(notes=["edited"])
    assert lazy.kind is SetKind.PBN_TEXT and lazy.edited and list(lazy.edits) == [0]
    del lazy[1]
    assert lazy.kind is SetKind.MEMORY and not lazy.is_lazy and lazy_set(lazy) is None
    assert lazy_text(lazy) is None


def test_the_lazy_set_under_a_progress_wrapper_is_found(tmp_path, sample):
    records = _records(tmp_path, sample)
    counted = CountedBoards(records, _never_cancel, 0, len(records))
    assert lazy_set(counted) is records and counted.uncounted is records
    assert lazy_set(sample) is None and lazy_set(BoardsView(records, [0])) is None  # a selection is no lazy set


def test_progress_goes_to_the_wrapper_that_counts(tmp_path, sample):
    heard: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        heard.append((done, total))
        return True

    counted = CountedBoards(sample, progress, 10, 100)
    assert isinstance(counted, ReportsProgress) and not isinstance(sample, ReportsProgress)
    progress_of(counted)(5)
    progress_of(sample)(5)  # a bare set: nobody to tell
    assert heard == [(15, 100)]


def test_empty_games_left_out_are_a_selection(tmp_path, sample):
    doc = BoardSet([*sample, Board()], sample.info)
    kept, dropped = without_empty_games(doc, get("zrd"))
    assert dropped == 1 and kept.kind is SetKind.SELECTION and len(kept) == len(sample)


def test_every_codec_says_what_it_reads():
    for codec in all_codecs():
        assert isinstance(codec, BridgeCodec | CribbageCodec), codec
        assert codec.kind == ("bridge" if isinstance(codec, BridgeCodec) else "cribbage")


def test_a_document_holds_a_board_set_or_a_game(sample):
    game = read_file(resource("sample_game.crib"))
    assert isinstance(game, CribbageRecord)
    assert Document.of(game).kind == "cribbage" and Document.of(game).problems == []
    assert Document.of(sample).kind == "bridge" and Document.of(sample).format_name == "pbn"


def test_writing_a_game_as_boards_is_refused_with_a_message(tmp_path):
    from bridgeview.formats.errors import FormatError

    game = read_file(resource("sample_game.crib"))
    with pytest.raises(FormatError, match="cannot hold a cribbage game"):
        write_file(game, tmp_path / "x.pbn")
