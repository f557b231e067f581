"""HTML hand records (issue 28, item 6): ``bridgeview print -o set.html`` and the dialog's Save as Web Page.

The page is parsed back with ``html.parser``: every board with its number, dealer, vulnerability, hands, HCP,
makeable contracts and par; only harmless tags, no script, no URL leaving the page; text from the file escaped
(a property test throws any text at the title); the print style's pages as the PDF's; and, where Chromium is
installed, a real browser prints it on as many pages as the PDF has."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeview.cli.main import main
from bridgeview.formats.registry import read_file, write_file
from bridgeview.handrecords import html as sheet
from bridgeview.handrecords.content import (
    DD_SEATS,
    DD_STRAINS,
    SEAT_NAMES,
    HandRecordOptions,
    holdings,
    makeable,
    page_count,
    prepare,
)
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.deal import Deal
from bridgeview.resources import resource
from bridgeview.solve import print_tables

SAMPLE = resource("sample.pbn")  # 16 boards, each with a complete DD table
#: every tag the page may hold: no script, iframe, object, img, link, form, input, base, svg …
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "div", "header", "h1", "h2", "h3", "p", "nav", "a", "main",
    "section", "article", "dl", "dt", "dd", "span", "table", "caption", "thead", "tbody", "tr", "th", "td", "footer",
}  # fmt: skip
HOSTILE = {
    "event": "<script>alert('event')</script>",
    "site": '<img src=x onerror="alert(1)">',
    "date": '"><iframe src="https://evil.example/">',
}


class Page(HTMLParser):
    """The page's tags, attributes and text, and each board's text (by its article id)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.boards: dict[str, list[str]] = {}
        self._board: str | None = None
        self._depth = 0
        self.title = ""
        self.h1 = ""
        self.style = ""
        self._in: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        self._in.append(tag)
        if tag == "article":
            self._board, self._depth = a["id"], 0
            self.boards[self._board] = []
        if self._board:
            self._depth += 1

    def handle_endtag(self, tag):
        if self._in:
            self._in.pop()
        if self._board:
            self._depth -= 1
            if self._depth == 0:
                self._board = None

    def handle_data(self, data):
        self.text.append(data)
        if self._in and self._in[-1] == "title":
            self.title += data
        if self._in and self._in[-1] == "h1":
            self.h1 += data
        if self._in and self._in[-1] == "style":
            self.style += data
        if self._board:
            self.boards[self._board].append(data)

    def board_text(self, anchor: str) -> str:
        """A board's text without white space or the text-style selector (as test_hand_records' hand_text)."""
        return re.sub(r"\s+", "", "".join(self.boards[anchor])).replace(sheet.TEXT_STYLE, "")


def hand_text(deal: Deal, seat: int) -> str:
    return "".join(suit.symbol + text.replace(" ", "") for suit, text in holdings(deal, seat))


def page_of(boards, **options) -> tuple[str, Page]:
    opts = HandRecordOptions(**options)
    text = sheet.html_text(prepare(boards, opts), opts)
    return text, Page(text)


def assert_safe(text: str, page: Page) -> None:
    """Only the allowed tags; no event handler, no URL that leaves the page, nothing fetched."""
    assert {tag for tag, _ in page.tags} <= ALLOWED_TAGS
    for tag, attrs in page.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert name not in ("src", "srcset", "action", "formaction", "background"), (tag, name)
            if name == "href":
                assert value and value.startswith("#"), value
            assert "://" not in (value or ""), (tag, name, value)
    assert "://" not in page.style and "url(" not in page.style and "@import" not in page.style
    assert re.search(r"<\s*(script|img|iframe)", text, re.I) is None
    csp = [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp == ["default-src 'none'; style-src 'unsafe-inline'"]  # the browser itself refuses anything else


# -- what the page holds ---------------------------------------------------------------------------------
def test_every_board_with_its_hands_hcp_table_and_par():
    boards = read_file(SAMPLE)
    text, page = page_of(boards, title="Monday pairs")
    assert_safe(text, page)
    assert "://" not in text and "<link" not in text  # nothing outside the page, not even a link
    assert page.title == page.h1 == "Monday pairs"
    assert len(page.boards) == 16
    data = prepare(boards, HandRecordOptions())
    for board in boards:
        got = page.board_text(f"board-{board.number}")
        assert got.startswith(f"Board{board.number}Dealer{SEAT_NAMES[board.effective_dealer]}")
        assert f"Vul{board.effective_vulnerability.text.replace(' ', '')}" in got
        for seat in range(4):
            assert SEAT_NAMES[seat].upper() in got.upper() and hand_text(board.deal, seat) in got, seat
        hcp = "".join(str(board.deal.hcp(s)) for s in (0, 3, 1, 2))  # N, W, E, S around the box
        assert hcp + "HCP" in got
        table = data.tables[data.boards.index(board)]
        rows = "".join(seat.letter + "".join(makeable(table, seat, st) for st in DD_STRAINS) for seat in DD_SEATS)
        assert "MakeablecontractsDeclarerNT♠♥♦♣" + rows in got
        assert "ParNS" in got or "ParEW" in got
    # the boards in number order, and a link to each
    assert re.findall(r'<article class="board" id="board-(\d+)"', text) == [str(n) for n in range(1, 17)]
    assert [a["href"] for t, a in page.tags if t == "a"] == [f"#board-{n}" for n in range(1, 17)]


def test_no_dd_leaves_out_the_table_and_par():
    text, page = page_of(read_file(SAMPLE), dd=False)
    assert "Makeable" not in text and "Par " not in text and 'class="dd"' not in text
    assert len(page.boards) == 16


def test_red_suits_and_four_colours():
    text, _ = page_of(read_file(SAMPLE))
    assert f"--hearts: {sheet.RED}; --diamonds: {sheet.RED}; --clubs: {sheet.INK}" in text
    text, _ = page_of(read_file(SAMPLE), four_colour=True)
    assert f"--hearts: {sheet.RED}; --diamonds: {sheet.ORANGE}; --clubs: {sheet.GREEN}" in text
    assert text.count('class="suit he"') == 16 * 4 + 16  # a heart for each hand, and the DD table's column


def test_the_colours_are_the_themes():
    from bridgeview.ui import theme

    assert sheet.RED == theme.RED.name() and sheet.ORANGE == theme.ORANGE.name()
    assert sheet.GREEN == theme.GREEN.name() and sheet.MUTED == theme.MUTED.name()
    assert sheet.INK == theme.INK.name() and sheet.RULE == theme.EXPORT_RULE.name()
    assert sheet.PANEL == theme.PANEL.name()


def test_the_time_limit_is_every_commands():
    from bridgeview.cli.common import DD_TIMEOUT
    from bridgeview.handrecords.content import DEFAULT_TIME_LIMIT
    from bridgeview.solve.timed import DEFAULT_TIMEOUT

    assert DEFAULT_TIME_LIMIT == DEFAULT_TIMEOUT == DD_TIMEOUT


@pytest.mark.parametrize("per_page", [1, 2, 4, 6, 9])
def test_pages_for_print_as_the_pdf(per_page):
    text, page = page_of(read_file(SAMPLE), per_page=per_page)
    pages = page_count(16, per_page)
    assert text.count('<section class="page"') == pages
    assert f"Page {pages} of {pages}" in text and f"Page {pages + 1} of" not in text
    cols, rows = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 9: (3, 3)}[per_page]
    assert f"grid-template-columns: repeat({cols}, 1fr)" in text and f"repeat({rows}, 1fr)" in text


def test_paper_and_orientation_reach_the_print_style():
    text, _ = page_of(read_file(SAMPLE), page_size="Letter", landscape=True, per_page=6)
    assert "@page { size: Letter landscape; margin: 12mm; }" in text
    assert "grid-template-columns: repeat(3, 1fr)" in text  # six a page: three across in landscape
    cols, rows, points, wide = sheet.print_layout(HandRecordOptions(per_page=2))
    assert (cols, rows) == (1, 2) and wide and points > 10  # two a page: the table beside the diagram
    assert not sheet.print_layout(HandRecordOptions(per_page=9))[3]


def test_a_long_suit_is_set_smaller_only_when_west_and_east_do_not_fit_and_the_ten_as_asked():
    # East's nine spades beside West's seven clubs: East is set smaller; beside West's two: as set
    deal = Deal.from_pbn("N:3.AKQJT9876.2.43 AKQJT9876.2.3.65 2.3.AKQJT9876.72 54.54.54.AKQJT98")
    boards = BoardSet([Board.numbered(1, deal)], FileInfo())
    text, page = page_of(boards, dd=False)
    assert re.search(r'class="hand e tight"', text) and re.search(r'class="hand w vul"|class="hand w"', text)
    assert "A K Q J 10 9 8 7 6" in text
    text, _ = page_of(boards, dd=False, ten="T")
    assert "A K Q J T 9 8 7 6" in text and "10 9" not in text
    narrow = Deal.from_pbn("N:2.AKQJT9876.6.98 AKQJT9876.2.2.76 ..AKQJT987.AKQJT 543.543.543.5432")  # W: 4-3-3-3
    text, _ = page_of(BoardSet([Board.numbered(1, narrow)], FileInfo()), dd=False)
    assert 'class="hand e"' in text and "tight" not in text.split("<body>")[1]


def test_a_board_without_a_number_a_board_without_cards_and_a_note():
    unnumbered = Board(deal=Deal.shuffled(random.Random(2)))
    boards = BoardSet([Board(deal=Deal.empty()), unnumbered, Board.numbered(3, Deal.shuffled(random.Random(1)))])
    opts = HandRecordOptions()
    data = prepare(boards, opts, solve=lambda deal: None)  # DDS refuses: printed without a table
    assert data.notices == ["1 board without cards left out"]  # hand records print boards with cards
    data.notes[0] = "double-dummy analysis cancelled"  # board 3 comes first (number order)
    page = Page(sheet.html_text(data, opts))
    assert set(page.boards) == {"board-3", "record-2"}
    assert "Double-dummyanalysiscancelled." in page.board_text("board-3")
    assert page.board_text("record-2").startswith("Record2")


def test_text_from_the_file_is_escaped_everywhere():
    boards = read_file(SAMPLE)
    hostile = BoardSet(
        [b.touched(tags={**b.tags, "North": "<script>x()</script>", "Event": HOSTILE["event"]}) for b in boards],
        FileInfo(**HOSTILE),
    )
    from bridgeview.handrecords.content import default_title

    title = default_title(hostile)
    text, page = page_of(hostile, title=title)
    assert_safe(text, page)
    assert page.h1 == page.title == title  # shown as text, exactly
    assert "&lt;script&gt;" in text and "&lt;img src=x" in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(min_size=1, max_size=80), st.text(alphabet="<>&\"'=/ !-abimgscrpt", min_size=1, max_size=40)
    ).filter(lambda t: t.strip() and "\r" not in t)
)
def test_any_title_is_text_and_never_markup(title):
    board = Board.numbered(1, Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"))
    text, page = page_of(BoardSet([board], FileInfo()), title=title, dd=False)
    assert_safe(text, page)
    assert page.h1 == title.replace("\x00", "\ufffd") or page.h1 == title
    assert [t for t, _ in page.tags].count("article") == 1


# -- the command ----------------------------------------------------------------------------------------
def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def test_print_writes_the_page(capsys, tmp_path):
    out = tmp_path / "set.html"
    rc, stdout, err = run(capsys, "print", SAMPLE, "-o", out, "--per-page", "6", "--title", "Club <b>night</b>")
    assert rc == 0, err
    assert stdout.strip() == f"{out}: 16 boards on 3 pages"
    text = out.read_text(encoding="utf-8")
    page = Page(text)
    assert page.h1 == "Club <b>night</b>" and len(page.boards) == 16
    assert_safe(text, page)


def test_print_solves_boards_without_tables_once_for_both_sheets(capsys, tmp_path, monkeypatch):
    from bridgeview.model.ddtable import DDTable

    solved = []
    fake = DDTable.from_rows([[9, 8, 7, 10, 9], [3, 4, 5, 2, 3], [9, 8, 7, 10, 9], [3, 4, 5, 2, 3]])
    monkeypatch.setattr(print_tables, "_default_solver", lambda deal: solved.append(deal) or fake)
    rng = random.Random(5)
    src = tmp_path / "set.pbn"
    write_file(BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(3)], FileInfo(event="Club")), src)
    rc, stdout, err = run(capsys, "print", src, "-o", tmp_path / "a.html", "-o", tmp_path / "a.pdf")
    assert rc == 0, err
    assert len(solved) == 3  # not six
    assert stdout.splitlines() == [
        f"{tmp_path / 'a.html'}: 3 boards on 1 page",
        f"{tmp_path / 'a.pdf'}: 3 boards on 1 page",
    ]
    page = Page((tmp_path / "a.html").read_text(encoding="utf-8"))
    assert "ParNS420:NS4♠" in page.board_text("board-1")
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_print_to_standard_output(capsysbinary, tmp_path):
    assert main(["print", str(SAMPLE), "-o", "-", "--to", "html", "--no-dd"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"<!DOCTYPE html>") and len(Page(out.decode()).boards) == 16
    assert err.decode().strip() == "standard output: 16 boards on 4 pages"  # never into the data
    assert main(["print", str(SAMPLE), "-o", "-", "--no-dd"]) == 0
    out, _ = capsysbinary.readouterr()
    assert out.startswith(b"%PDF")
    # --to is standard output's: a .pdf named beside it stays a PDF
    assert main(["print", str(SAMPLE), "-o", "-", "-o", str(tmp_path / "x.pdf"), "--to", "html", "--no-dd"]) == 0
    assert (tmp_path / "x.pdf").read_bytes().startswith(b"%PDF") and capsysbinary.readouterr()[0].startswith(b"<!")
    assert main(["print", str(SAMPLE), "-o", str(tmp_path / "y.pdf"), "--to", "html", "--no-dd"]) == 0
    assert (tmp_path / "y.pdf").read_bytes().startswith(b"%PDF")


def test_print_refuses_a_deal_format(capsys, tmp_path):
    rc, _, err = run(capsys, "print", SAMPLE, "-o", tmp_path / "a.html", "-o", tmp_path / "a.pbn")
    assert rc == 1 and err.strip().endswith("a.pbn: hand records are written as .pdf or .html")
    assert not list(tmp_path.iterdir())


def test_print_html_needs_no_qt(tmp_path):
    import sys

    code = (
        "import sys; from bridgeview.cli.main import main; "
        f"rc = main(['print', {str(SAMPLE)!r}, '-o', {str(tmp_path / 'x.html')!r}]); "
        "print(rc, any(m.startswith('PySide6') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "0 False"


# -- in a real browser ----------------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
@pytest.mark.parametrize(("per_page", "landscape"), [(4, False), (9, True)])
def test_chromium_prints_the_pages_the_pdf_has(capsys, tmp_path, per_page, landscape):
    page = tmp_path / "set.html"
    extra = ["--landscape"] if landscape else []
    assert run(capsys, "print", SAMPLE, "-o", page, "--per-page", per_page, *extra)[0] == 0
    pdf = tmp_path / "set.pdf"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={pdf}", page.as_uri()],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    data = pdf.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", data)) == page_count(16, per_page)


# -- the window -----------------------------------------------------------------------------------------
def test_the_dialog_saves_a_web_page(qtbot, tmp_path, messages, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog, QPushButton
    from test_ui_support import main_window

    from bridgeview.ui.desk import menu as desk_menu

    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(SAMPLE))
    w.desk.act_export_records.trigger()
    dlg = w.desk.hand_records_dialog
    qtbot.addWidget(dlg)
    dlg.title.setText("Tuesday <teams>")
    dlg.per_page.setCurrentText("2")
    dlg.four_colour.setChecked(True)
    asked = []
    out = tmp_path / "records"

    def save_as(parent, caption, directory, filters, *rest):
        asked.append((caption, directory, filters))
        return str(out), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    button = dlg.findChild(QPushButton, "save_html")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    written = tmp_path / "records.html"
    assert written.is_file() and asked and asked[0][1].endswith("sample-hand-records.html")
    assert desk_menu.HTML_FILTER in asked[0][2]
    text = written.read_text(encoding="utf-8")
    page = Page(text)
    assert page.h1 == "Tuesday <teams>" and len(page.boards) == 16
    assert f"--diamonds: {sheet.ORANGE}" in text and text.count('<section class="page"') == 8
    assert_safe(text, page)
    assert "8 pages" in w.statusBar().currentMessage() and not messages.calls
