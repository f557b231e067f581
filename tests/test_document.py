"""One document type: bridge and cribbage tabs hold a Document and save through one path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import test_cribbage_support as support
from test_ui_support import main_window, make_file

from bridgeview.app.document import Document, bundled
from bridgeview.formats.errors import FormatError
from bridgeview.model.boardset import BoardSet
from bridgeview.ui.mainwindow import sample_path


def _game(tmp_path: Path, name: str = "game.crib") -> Path:
    path = tmp_path / name
    path.write_bytes(support.sample_text())
    return path


def test_a_document_knows_its_file_format_and_kind(tmp_path: Path) -> None:
    pbn, boards = make_file(tmp_path, "pbn", n=3)
    doc = Document.read(str(pbn))
    assert (doc.kind, doc.format_name, doc.path, doc.name) == ("bridge", "pbn", str(pbn), "boards.pbn")
    assert len(doc.content) == 3 and doc.codec is not None and doc.format_title == doc.codec.title
    assert doc.saves_in_place and doc.problems == []
    game = Document.read(str(_game(tmp_path)))
    assert (game.kind, game.format_name, game.name) == ("cribbage", "halscrib", "game.crib")
    assert "HALSCRIB" in game.format_title and game.saves_in_place and game.problems == []


def test_a_new_or_bundled_document_is_saved_with_save_as(tmp_path: Path) -> None:
    new = Document.of(BoardSet())
    assert (new.name, new.codec, new.saves_in_place, new.kind) == ("Untitled", None, False, "bridge")
    sample = Document.read(str(sample_path()))
    assert bundled(sample.path) and not sample.saves_in_place and not sample.keeps_dd
    unknown = Document(BoardSet(), str(tmp_path / "x.abc"), "no-such-format")
    assert unknown.codec is None and unknown.format_title == "no-such-format" and not unknown.saves_in_place
    with pytest.raises(FormatError):
        Document.read(str(tmp_path / "missing.pbn"))


def test_saving_records_the_new_file_and_clears_what_was_unsaved(tmp_path: Path) -> None:
    doc = Document.of(BoardSet())
    doc.changed_outside_undo = True
    doc.saved_as(str(tmp_path / "a.pbn"), "pbn")
    assert (doc.path, doc.format_name, doc.changed_outside_undo, doc.name) == (
        str(tmp_path / "a.pbn"),
        "pbn",
        False,
        "a.pbn",
    )


def test_every_tab_holds_a_document(qtbot, tmp_path: Path, messages) -> None:
    from bridgeview.ui.boardset.view import DocumentView
    from bridgeview.ui.cribbage.view import CribbageView
    from bridgeview.ui.document.tab import DocumentTab

    pbn, _ = make_file(tmp_path, "pbn", n=2)
    game = _game(tmp_path)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(pbn)) and w.open_file(str(game)), messages.calls
    bridge_tab, crib_tab = w.views()
    assert isinstance(bridge_tab, DocumentView) and isinstance(crib_tab, CribbageView)
    assert all(isinstance(t, DocumentTab) for t in (bridge_tab, crib_tab))
    assert (bridge_tab.document.core.kind, crib_tab.document.core.kind) == ("bridge", "cribbage")
    assert crib_tab.path == str(game) and crib_tab.format_name == "halscrib" and crib_tab.title() == "game.crib"
    assert w.current_tab() is crib_tab and w.current_view() is None  # a game has no board list
    assert not w.act_undo.isEnabled()  # the game's own (empty) undo stack is the active one
    assert w.open_file(str(game)) and w.tabs.count() == 2  # one file, one tab
    os.symlink(game, tmp_path / "link.crib")
    assert w.open_file(str(tmp_path / "link.crib")) and w.tabs.count() == 2 and w.current_tab() is crib_tab


def test_closing_a_game_stops_its_movie(qtbot, tmp_path: Path, messages) -> None:
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(_game(tmp_path)))
    tab = w.current_tab()
    tab.set_playing(True)
    assert tab.playing
    assert w.close_tab(w.tabs.currentIndex()) and not tab.playing and w.tabs.count() == 0


def test_a_game_saved_over_a_write_protected_file_asks_first(qtbot, tmp_path: Path, messages) -> None:
    """The bridge tabs' save rules hold for games too: a write-protected target is replaced only when the
    user agrees, and nothing is written otherwise."""
    from bridgeview.ui import dialogs

    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(_game(tmp_path)))
    target = tmp_path / "locked.crib"
    target.write_bytes(b"old")
    target.chmod(stat.S_IRUSR)
    messages.answer = dialogs.Button.Cancel
    assert not w.save_as(str(target), "halscrib")
    assert messages.calls[-1][1] == "Write-protected file" and target.read_bytes() == b"old"
    assert w.current_tab().path == str(tmp_path / "game.crib")
    messages.answer = dialogs.Button.Yes
    assert w.save_as(str(target), "halscrib")
    assert target.read_bytes() == support.sample_text() and w.current_tab().path == str(target)
    assert w.tabs.tabText(0) == "locked.crib" and "Saved locked.crib" in w.statusBar().currentMessage()


def test_a_game_saved_through_a_symlink_keeps_the_link(qtbot, tmp_path: Path, messages) -> None:
    game = _game(tmp_path)
    link = tmp_path / "link.crib"
    os.symlink(game, link)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(link))
    game.write_bytes(b"")  # Save writes the game back in place, through the link
    assert w.save(), messages.calls
    assert link.is_symlink() and game.read_bytes() == support.sample_text()


def test_a_game_cannot_be_saved_as_bridge_boards(qtbot, tmp_path: Path, messages) -> None:
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(_game(tmp_path)))
    assert not w.save_as(str(tmp_path / "game.pbn"), "pbn")
    assert "would lose every deal, score and peg" in messages.calls[-1][2] and not (tmp_path / "game.pbn").exists()
    assert w.save_as(str(tmp_path / "game.xyz"))  # HALSCRIB is the one format a game saves in, whatever the name
    assert (tmp_path / "game.xyz").read_bytes() == support.sample_text()
