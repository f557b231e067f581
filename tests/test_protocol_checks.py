"""The quick runtime checks for the typing protocols say what ``isinstance`` with the protocol says.

``model.boardset.is_board_source`` and ``formats.codec.converts_in_chunks`` stand in for
``isinstance(x, BoardSource)`` and ``isinstance(codec, ConvertsInChunks)`` on every save (the protocol
check works its members out again at each call); a set, a view, a cribbage game, an object short of any
one member or with a method set to None, and a class registered as a source must all get the same answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgeview.formats.codec import ConvertsInChunks, ReadOptions, converts_in_chunks
from bridgeview.formats.convert import BoardsView
from bridgeview.formats.registry import all_codecs, read_file, write_file
from bridgeview.model import boardset
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, BoardSource, is_board_source
from bridgeview.model.cribbage import CribbageRecord
from bridgeview.model.deal import Deal

MEMBERS = boardset._SOURCE_MEMBERS


def _sets(tmp_path: Path) -> list[object]:
    boards = BoardSet([Board.numbered(n, Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ - - -")) for n in (1, 2)])
    full = BoardSet([Board.numbered(1, Deal.from_owners([c % 4 for c in range(52)]))])
    write_file(boards, tmp_path / "a.pbn")
    write_file(full, tmp_path / "a.zrd")
    lazy_pbn = read_file(tmp_path / "a.pbn", None, ReadOptions(lazy=True))
    lazy_zrd = read_file(tmp_path / "a.zrd")
    return [boards, lazy_pbn, lazy_zrd, BoardsView(lazy_pbn, [1])]


class _Instance:
    """A source whose members are its own attributes (but the dunders, which Python looks up on the class)."""

    def __len__(self) -> int:
        return 0

    def __getitem__(self, index: int) -> None:
        raise IndexError(index)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(())

    def __init__(self, leave_out: str | None = None, none: str | None = None) -> None:
        for name in MEMBERS:
            if name != leave_out and not name.startswith("__"):
                setattr(self, name, None if name == none else (lambda *a: None))


def _class_with(leave_out: str | None = None, none: str | None = None) -> type:
    """A class with every member of a source on the class but ``leave_out`` (and ``none`` set to None)."""
    members = {name: (None if name == none else (lambda self, *a: None)) for name in MEMBERS if name != leave_out}
    return type(f"Without_{leave_out}_None_{none}", (), members)


def _odd_objects() -> list[object]:
    out: list[object] = [object(), [], {}, "text", CribbageRecord.__new__(CribbageRecord), _Instance()]
    for name in MEMBERS:
        out.append(_class_with(leave_out=name)())
        out.append(_class_with(none=name)())
        out.append(_Instance(leave_out=name))
        out.append(_Instance(none=name))
    out.append(_class_with()())
    return out


def test_is_board_source_answers_as_isinstance(tmp_path: Path) -> None:
    objects = _sets(tmp_path) + _odd_objects()
    for _ in range(2):  # the second round answers from the classes remembered
        for obj in objects:
            assert is_board_source(obj) == isinstance(obj, BoardSource), (type(obj).__name__, obj)
    assert all(is_board_source(s) for s in _sets(tmp_path))
    assert not is_board_source(CribbageRecord.__new__(CribbageRecord))


def test_a_class_registered_as_a_source_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    class Registered:
        pass

    monkeypatch.setattr(boardset, "_SOURCE_CLASSES", set())
    BoardSource.register(Registered)
    assert isinstance(Registered(), BoardSource)
    assert is_board_source(Registered())


def test_a_class_short_of_a_member_is_not_remembered_as_a_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """An object with its members of its own is a source; another of its class without them is not."""
    monkeypatch.setattr(boardset, "_SOURCE_CLASSES", set())
    assert is_board_source(_Instance())
    assert not is_board_source(_Instance(leave_out="info"))
    assert _Instance not in boardset._SOURCE_CLASSES


def test_converts_in_chunks_answers_as_isinstance() -> None:
    codecs = list(all_codecs())
    assert any(converts_in_chunks(c) for c in codecs) and not all(converts_in_chunks(c) for c in codecs)
    for codec in codecs:
        assert converts_in_chunks(codec) == isinstance(codec, ConvertsInChunks), codec.name
    for odd in (None, object(), _class_with(none="chunked")()):
        assert converts_in_chunks(odd) == isinstance(odd, ConvertsInChunks)
