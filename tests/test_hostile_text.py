"""Text from files is shown as text: markup in any field appears literally, nothing is rendered or loaded.

Each file puts HTML in every field its format has (names, notes, commentary,
explanations, tags, headers); after opening it in the main window we collect
what the user can read -- labels as Qt renders them, the Details browser,
tooltips, table cells, message boxes -- and require every marker to appear
literally, and no rendered image anywhere.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTabWidget, QTextEdit, QWidget
from test_cribbage_support import ONE_DEAL, deal_bits, header_bits, pack
from test_ui_support import main_window

from bridgeview.ui.plaintext import LABEL_LIMIT, TOOLTIP_LIMIT, plain_tooltip, tooltip_text

OBJECT = "\ufffc"  # what QTextDocument puts where it rendered an image


def _rendered(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a QLabel/tooltip with ``text`` shows, as plain text."""
    rich = fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text))
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def visible_texts(window: QWidget) -> list[str]:
    """Everything a user can read in ``window``, every tab of every tab widget included."""
    for tabs in window.findChildren(QTabWidget):
        for i in range(tabs.count()):  # show each tab once so lazily filled panels fill
            tabs.setCurrentIndex(i)
    out: list[str] = []
    for label in window.findChildren(QLabel):
        out.append(_rendered(label.text(), label.textFormat()))
    for edit in window.findChildren(QTextEdit):
        out.append(edit.toPlainText())
    for widget in window.findChildren(QWidget):
        if widget.toolTip():
            out.append(_rendered(widget.toolTip()))
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is None:
            continue
        for r in range(min(model.rowCount(QModelIndex()), 40)):
            try:
                columns = model.columnCount(QModelIndex())
            except TypeError:  # a list model keeps columnCount private: one column
                columns = 1
            for c in range(columns):
                index = model.index(r, c)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = model.data(index, role)
                    if isinstance(value, str):
                        out.append(_rendered(value) if role == Qt.ItemDataRole.ToolTipRole else value)
    return out


@pytest.fixture
def png(tmp_path: Path) -> Path:
    """A real local image: rich text would load and show it."""
    path = tmp_path / "local.png"
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(0xFF0000)
    image.save(str(path))
    return path


def _open_and_check(qtbot, tmp_path: Path, messages, path: Path, markers: list[str]) -> None:
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path)), messages.calls
    texts = visible_texts(w)
    shown = "\n".join(texts)
    assert OBJECT not in shown, "an image was rendered from file text"
    missing = [m for m in markers if m not in shown]
    assert not missing, f"not shown literally: {missing}"


def test_lin_markup_in_every_field_is_shown_literally(qtbot, tmp_path: Path, messages, png: Path) -> None:
    m = f'<img src="{png}"><b>'
    fields = {k: f"{m}{k}" for k in ("an", "alert", "nt", "pn", "vg", "ah", "rs", "mc")}
    lin = (
        f"vg|{fields['vg']},seg,I,1,16,A,0,B,0|rs|3N{m},|pn|{fields['pn']},e,s,w|st||"
        "md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|rh||"
        f"ah|{fields['ah']}|sv|n|mb|p|mb|1H|an|{fields['an']}|mb|2N!|an|{fields['alert']}|mb|p|mb|3N|mb|p|mb|p|mb|p|"
        f"nt|{fields['nt']}|pc|H4|pc|H2|pc|HJ|pc|HA|mc|1<b>x</b>|"
    )
    path = tmp_path / "hostile.lin"
    path.write_text(lin)
    markers = [fields[k] for k in ("an", "alert", "nt", "pn", "vg", "ah")] + ["mc|1<b>x</b>|"]
    _open_and_check(qtbot, tmp_path, messages, path, markers)


def test_pbn_markup_in_every_field_is_shown_literally(qtbot, tmp_path: Path, messages, png: Path) -> None:
    m = f"<img src='{png}'><b>"
    names = ("event", "site", "west", "north", "east", "south", "scoring", "note1", "note2", "commentary", "custom")
    f = {k: f"{m}{k}" for k in names}
    pbn = f"""% {m} preamble
[Event "{f["event"]}"]
[Site "{f["site"]}"]
[Date "2024.01.01"]
[Board "1"]
[West "{f["west"]}"]
[North "{f["north"]}"]
[East "{f["east"]}"]
[South "{f["south"]}"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[Scoring "{f["scoring"]}"]
[Declarer "N"]
[Contract "7NT"]
[Result "13"]
[Auction "N"]
7NT =1= Pass =2= Pass Pass
[Note "1:{f["note1"]}"]
[Note "2:{f["note2"]}"]
[Play "E"]
JS 6S 2S AS
{{{f["commentary"]}}}
[Custom "{f["custom"]}"]
"""
    path = tmp_path / "hostile.pbn"
    path.write_text(pbn)
    _open_and_check(qtbot, tmp_path, messages, path, list(f.values()))


def test_bre_header_markup_is_shown_literally(qtbot, tmp_path: Path, messages) -> None:
    from test_ui_support import make_boards

    from bridgeview.formats.registry import write_file

    boards = make_boards(2)
    boards.info.event, boards.info.site = "<b>event</b>", "<img src=x>site"
    path = tmp_path / "hostile.bre"
    write_file(boards, path, "bre")
    _open_and_check(qtbot, tmp_path, messages, path, ["<b>event</b>", "<img src=x>site"])


def test_cribbage_header_markup_is_shown_literally(qtbot, tmp_path: Path, messages) -> None:
    header = header_bits(
        author="<b>auth</b>", program="<i>prog</i>", p0="<b>A</b>", p1="<i>B</i>", comments="<img src=/d>c", n_deals=1
    )
    path = tmp_path / "hostile.crib"
    path.write_bytes(pack(header + deal_bits(**ONE_DEAL)))
    _open_and_check(
        qtbot, tmp_path, messages, path, ["<b>auth</b>", "<i>prog</i>", "<b>A</b>", "<i>B</i>", "<img src=/d>c"]
    )


def test_pasted_link_markup_is_shown_literally(qtbot, tmp_path: Path, messages) -> None:
    w = main_window(qtbot, tmp_path)
    link = (
        "https://www.bridgebase.com/tools/handviewer.html?lin=pn|<b>n</b>,e,s,w|"
        "md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|mb|1N|an|<img src=x>an|mb|p|mb|p|mb|p|"
    )
    assert w.paste_boards(link), messages.calls
    shown = "\n".join(visible_texts(w))
    assert "<img src=x>an" in shown and "<b>n</b>" in shown


@pytest.mark.real_message_box
def test_messages_quote_markup_literally(qtbot, tmp_path: Path, monkeypatch) -> None:
    """A message box quoting a bad file shows the quote as text (QMessageBox would render it)."""
    from PySide6.QtWidgets import QMessageBox

    from bridgeview.ui import dialogs

    seen: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: seen.append(box) or int(QMessageBox.StandardButton.Ok))
    dialogs.message("error", None, "Open", "x.lin: line 1: bad value '<img src=/dev/zero>'")
    assert seen and seen[0].textFormat() == Qt.TextFormat.PlainText


def test_huge_markup_is_clipped_not_laid_out(qtbot) -> None:
    """A 580 KB <table> explanation becomes a short tooltip and a bounded label."""
    from bridgeview.model.auction import Call
    from bridgeview.model.board import Board
    from bridgeview.ui.replay.auction_view import AuctionView

    huge = "<table>" + "<tr><td>x</td></tr>" * 30_000 + "</table>"
    call = dataclasses.replace(Call.parse("1NT"), explanation=huge)
    view = AuctionView()
    qtbot.addWidget(view)
    view.set_board(Board.numbered(1, auction=[call]))
    tip = view.tooltip_at(0, 0) or view.tooltip_at(0, 1)
    assert tip.startswith("<table>") and len(tip) <= TOOLTIP_LIMIT
    assert len(view.notes_text()) <= LABEL_LIMIT and view.notes_label.textFormat() == Qt.TextFormat.PlainText


def test_plain_tooltip_round_trip() -> None:
    for text in ("a & b", "&lt;b&gt;", "<b>x</b>\nline 2", "plain"):
        assert tooltip_text(plain_tooltip(text)) == text
    assert plain_tooltip("") == "" and plain_tooltip(None) == ""


def test_a_file_name_that_looks_like_html_is_shown_literally(qtbot, tmp_path: Path, messages) -> None:
    """File names come from the file system, which allows ``<`` and ``>``: tab and recent-file
    tooltips show them as they are."""
    from test_ui_support import make_boards

    from bridgeview.formats.registry import write_file

    path = tmp_path / "<b>bold<i><img src=x>.pbn"  # no "/" in a file name
    write_file(make_boards(1), path)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    assert tooltip_text(w.tabs.tabToolTip(0)) == str(path)
    w._fill_recent_menu()
    assert any(tooltip_text(a.toolTip()) == str(path) for a in w.recent_menu.actions())
