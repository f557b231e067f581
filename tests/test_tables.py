"""One board, many tables (issue 26): the dealing desk and every conversion on sets that hold a board more
than once.  Each test builds the kind of file the trial found (``tableskit``): two-room matches in LIN and
PBN, traveller exports with many tables, renumbered and turned copies, lesson LIN with bad records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tableskit as kit

from bridgeview.check import check_set
from bridgeview.cli.main import main
from bridgeview.formats.convert import distinct_boards, write_document
from bridgeview.formats.lin import lazy as lin_lazy
from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.registry import all_codecs, get, read_file
from bridgeview.model.boardset import BoardSet
from bridgeview.model.problem import Place
from bridgeview.model.tables import set_tables
from bridgeview.model.vulnerability import dealer_for_board, vulnerability_for_board

#: every writable format that holds deals, not tables (no auction, no play)
DEAL_ONLY = sorted(
    c.name for c in all_codecs() if c.kind == "bridge" and c.can_write and not c.caps.tables and c.caps.full_deals
)
MATCHES = {"lin": kit.two_room_lin, "pbn": kit.two_room_pbn}


def run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def test_the_deal_only_formats_are_those_the_issue_names():
    assert {"bri", "dge", "dup", "dlm", "ber", "bhg", "cds", "csv", "rzd", "zbd", "zrd", "zbs"} <= set(DEAL_ONLY)
    assert not {"pbn", "lin", "zrj", "dx"} & set(DEAL_ONLY)  # they hold each table's auction and play


# -- the model: one place for boards and tables -----------------------------------------------
@pytest.mark.parametrize("kind", sorted(MATCHES))
def test_a_two_room_match_is_fifteen_boards_of_two_tables(tmp_path, kind):
    doc = read_file(MATCHES[kind](tmp_path / f"match.{kind}"))
    tables = set_tables(doc)
    assert (len(tables), tables.count, tables.summary()) == (15, 30, "15 boards from 30 tables")
    assert tables.tables_of(1) == [0, 1] and tables.first_of(1) == 0
    assert [int(i) for i in tables.board_records()] == list(range(0, 30, 2))
    assert tables.places()[1] == (2, 2) and not tables.conflicts


def test_a_lazy_fixed_record_set_is_answered_without_reading_it(tmp_path, monkeypatch):
    """A 10-million-deal ZRD cannot be read for this: its format numbers records by position, so only the
    edited boards (and the records whose numbers they took) are looked at."""
    path = tmp_path / "set.zrd"
    write_document(read_file(kit.plain_pbn(tmp_path / "a.pbn", 40)), path, get("zrd"))
    doc = read_file(path)
    assert doc.is_lazy and doc.numbered_by_position
    read: list[int] = []
    decode = doc._decode
    monkeypatch.setattr(doc, "_decode", lambda i: read.append(i) or decode(i))
    assert not set_tables(doc).repeated and read == []
    doc[30] = doc[4].touched()  # board 5's deal again, as board 5: a second table of board 5
    tables = set_tables(doc)
    assert tables.tables_of(30) == [4, 30] and sorted(set(read)) == [4]
    doc[31] = doc[31].touched(number=5)  # another deal under number 5: a contradiction, not a table
    assert [(c.index, c.first, c.what) for c in set_tables(doc).conflicts] == [(31, 4, "deal")]


# -- 1: check and validate compare the rooms --------------------------------------------------
@pytest.mark.parametrize("kind", sorted(MATCHES))
def test_a_closed_room_with_another_deal_fails_validate_check_and_diff(tmp_path, capsys, kind):
    spoilt = MATCHES[kind](tmp_path / f"spoilt.{kind}", spoil=1)
    good = MATCHES[kind](tmp_path / f"good.{kind}")
    rc, out, err = run(capsys, "validate", spoilt)
    assert rc == 1
    assert "board 1: record 1 (open room) and record 2 (closed room) have board number 1 but different deals" in out
    rc, out, err = run(capsys, "check", spoilt)
    assert rc == 1 and "record 1 (open room) and record 2 (closed room)" in out
    assert run(capsys, "check", good)[0] == 0
    rc, out, err = run(capsys, "diff", good, spoilt)
    assert rc == 1 and out.startswith("board 1 (closed room): ") and "1 of 30 tables differ" in err


def test_a_table_with_another_dealer_or_vulnerability_is_an_error_naming_both(tmp_path, capsys):
    path = kit.traveller_pbn(tmp_path / "t.pbn", 4, 3)
    text = path.read_text()
    games = text.split("\n[Event")
    games[4] = games[4].replace('[Dealer "E"]', '[Dealer "S"]')  # board 2, table 2
    path.write_text("\n[Event".join(games))
    rc, out, err = run(capsys, "validate", path)
    assert rc == 1
    assert "board 2: record 4 and record 5 have board number 2 but different dealers (E and S)" in out


# -- 2: diff and Compare look at every record --------------------------------------------------
def test_a_card_swapped_at_the_third_table_is_found(tmp_path, capsys):
    good = kit.traveller_pbn(tmp_path / "good.pbn", 27, 3)
    spoilt = kit.traveller_pbn(tmp_path / "spoilt.pbn", 27, 3, spoil=(1, 3))
    rc, out, err = run(capsys, "diff", good, spoilt)
    assert rc == 1
    assert out.splitlines() == [
        f"board 1 (table 3): ♠9 is with East in {good}, with North in {spoilt}; "
        f"♣7 is with North in {good}, with East in {spoilt}"
    ]
    assert err.strip() == "1 of 81 tables differ"
    rc, out, err = run(capsys, "diff", good, good)
    assert rc == 0 and out.strip() == "same deals on all 27 boards (81 tables)"


def test_hand_records_against_a_match_compare_every_room(tmp_path, capsys):
    """One record of a board against each of its tables: the rooms must hold the records' deal."""
    records = kit.plain_pbn(tmp_path / "records.pbn", 15)
    match = kit.two_room_lin(tmp_path / "match.lin", spoil=3)
    rc, out, err = run(capsys, "diff", records, match)
    assert rc == 1 and out.startswith("board 3 (closed room): ") and out.count("\n") == 1


def test_compare_window_pairs_tables(qtbot, tmp_path):
    from bridgeview.ui.desk.compare_view import CompareDialog

    good = read_file(kit.traveller_pbn(tmp_path / "good.pbn", 5, 3))
    spoilt = read_file(kit.traveller_pbn(tmp_path / "spoilt.pbn", 5, 3, spoil=(1, 3)))
    dlg = CompareDialog(good, spoilt, "good.pbn", "spoilt.pbn")
    qtbot.addWidget(dlg)
    assert dlg.summary.text() == "1 of 15 tables differ"
    assert dlg.left.rowCount() == dlg.right.rowCount() == 15
    assert [dlg.left.item(r, 1).text() for r in range(3)] == ["", "", "⚠"]  # the third table of board 1
    assert dlg.left.item(2, 0).text() == "1 t3"
    assert dlg.detail.text().startswith("board 1 (table 3): ♠9 is with East in good.pbn")
    dlg.right.setCurrentCell(1, 0)  # board 1, table 2 on the right: its twin on the left
    assert dlg.left.currentRow() == 1 and dlg.caption_a.text() == "good.pbn: board 1, table 2"


# -- 3: renumbered and turned copies ------------------------------------------------------------
def test_a_renumbered_turned_copy_is_paired_by_its_deals(tmp_path, capsys):
    a, b = kit.plain_pbn(tmp_path / "A.pbn", 16), kit.renumbered(tmp_path / "B.pbn", 16)
    rc, out, err = run(capsys, "diff", a, b)
    lines = out.splitlines()
    assert rc == 1 and len(lines) == 16 and err.strip() == "16 of 16 boards differ"
    assert lines[0] == f"board 17 in {b} is board 1 in {a}, its hands turned 90° clockwise"
    rc, out, err = run(capsys, "diff", b, a)  # the other way round: the file named says which way
    assert out.splitlines()[0] == f"board 1 in {a} is board 17 in {b}, its hands turned 90° anticlockwise"


def test_a_turn_under_the_same_number_names_the_file_it_describes(tmp_path, capsys):
    a, b = kit.plain_pbn(tmp_path / "A.pbn", 4), kit.plain_pbn(tmp_path / "B.pbn", 4, turn=1)
    assert run(capsys, "diff", a, b)[1].splitlines()[0] == f"board 1: {b} has {a}'s hands turned 90° clockwise"
    assert run(capsys, "diff", b, a)[1].splitlines()[0] == f"board 1: {a} has {b}'s hands turned 90° anticlockwise"


# -- 4: formats of deals write each board once --------------------------------------------------
@pytest.mark.parametrize("target", DEAL_ONLY)
@pytest.mark.parametrize("kind", sorted(MATCHES))
def test_a_match_converts_to_each_board_once(tmp_path, capsys, kind, target):
    src = MATCHES[kind](tmp_path / f"match.{kind}")
    out = tmp_path / f"out.{get(target).extensions[0]}"
    rc, _, err = run(capsys, "convert", src, out, "--to", target)
    assert rc == 0, err
    assert "bridgeview: 15 boards from 30 tables" in err.splitlines()
    back = read_file(out, target)
    deals = [b.deal for b in read_file(src)][::2]
    assert len(back) == 15 and [b.deal for b in back] == deals
    _rc, checked, complaints = run(capsys, "check", out)
    assert "same deal" not in checked + complaints  # no deal twice


@pytest.mark.parametrize("target", ["dup", "dlm", "bhg", "bri", "zbd"])
def test_one_number_with_two_deals_is_refused_and_renumber_writes_each_deal_once(tmp_path, capsys, target):
    src = kit.two_room_lin(tmp_path / "match.lin", spoil=1)
    out = tmp_path / f"out.{get(target).extensions[0]}"
    rc, _, err = run(capsys, "convert", src, out, "--to", target)
    assert rc == 1 and not out.exists()
    message = err.strip()
    assert "board 1 holds different deals in record 1 (open room) and record 2 (closed room)" in message
    assert message.endswith("bridgeview convert --renumber)")  # the advice is never cut
    rc, _, err = run(capsys, "convert", src, out, "--to", target, "--renumber")
    assert rc == 0, err
    back = read_file(out, target)
    assert len(back) == 16 and len({b.deal.hands for b in back}) == 16  # no deal twice, none lost
    if get(target).caps.board_numbers:
        assert [b.number for b in back] == list(range(1, 17))
    for n, b in enumerate(back, 1):  # dealer and vulnerability follow the new numbers
        assert b.effective_dealer == dealer_for_board(n) and b.effective_vulnerability == vulnerability_for_board(n)


def test_renumber_keeps_the_tables_of_a_board_together_in_pbn(tmp_path, capsys):
    src = kit.traveller_pbn(tmp_path / "t.pbn", 4, 3)
    out = tmp_path / "r.pbn"
    assert run(capsys, "convert", src, out, "--renumber")[0] == 0
    assert [b.number for b in read_file(out)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]


def test_the_save_check_says_so_and_the_gui_check_agrees(tmp_path):
    from bridgeview.ui.window.saving import check_document

    doc = read_file(kit.two_room_pbn(tmp_path / "match.pbn"))
    report = check_document(None, doc, get("dup"), False)
    assert report is not None and report.ok
    assert report.losses[0] == "the other tables of each board: 15 boards from 30 tables"
    spoilt = read_file(kit.two_room_pbn(tmp_path / "spoilt.pbn", spoil=2))
    report = check_document(None, spoilt, get("dup"), False)
    assert report is not None and not report.ok and "board 2 holds different deals" in report.errors[0]


@pytest.mark.parametrize("target", ["zrd", "zbd"])
@pytest.mark.parametrize("kind", sorted(MATCHES))
def test_the_chunked_converters_give_the_board_by_board_result(tmp_path, monkeypatch, kind, target):
    """A big PBN or LIN file read lazily goes to ZRD/ZBD in chunks; tables in it make it give way to the board
    by board path, so the bytes and the words are the same."""
    src = MATCHES[kind](tmp_path / f"match.{kind}", 40)
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 100)
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 100)
    lazy = read_file(src)
    got = write_document(lazy, tmp_path / f"lazy.{target}", get(target))
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 1 << 40)
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1 << 40)
    eager = read_file(src)
    assert not eager.is_lazy
    want = write_document(eager, tmp_path / f"eager.{target}", get(target))
    assert (got.notices, got.losses, got.records) == (want.notices, want.losses, want.records)
    assert got.notices == ["40 boards from 80 tables"]
    assert (tmp_path / f"lazy.{target}").read_bytes() == (tmp_path / f"eager.{target}").read_bytes()


# -- 5: check agrees with the DUP and DLM writers ------------------------------------------------
def _real_files() -> list[Path]:
    from conftest import REALDATA

    return sorted(p for p in REALDATA.rglob("*") if p.is_file() and p.suffix.lower() != ".md")


def _generated(tmp: Path) -> list[Path]:
    return [
        kit.two_room_lin(tmp / "match.lin"),
        kit.two_room_lin(tmp / "spoilt.lin", spoil=4),
        kit.two_room_pbn(tmp / "match.pbn"),
        kit.two_room_pbn(tmp / "spoilt.pbn", spoil=4),
        kit.traveller_pbn(tmp / "traveller.pbn", 27, 3),
        kit.traveller_pbn(tmp / "spoilt-traveller.pbn", 27, 3, spoil=(5, 2)),
        kit.plain_pbn(tmp / "plain.pbn", 16),
        kit.renumbered(tmp / "renumbered.pbn", 16),
        kit.lesson_lin(tmp / "lesson.lin", 20),
        kit.lesson_lin(tmp / "bad-lesson.lin", 20, bad={3: "pc", 7: "md", 9: "partial"}),
    ]


def test_check_and_the_dup_and_dlm_writers_agree(tmp_path):
    """On every real file and every generated case: when ``check`` says a set is ready to deal, DUP and DLM
    write it (DLM within its 99 boards); when either refuses, ``check`` has found an error."""
    from conftest import REALDATA

    from bridgeview.formats.errors import FormatError

    real = [p for p in _real_files() if p.parent.name != "other" or p.suffix != ".md"]
    assert real or not REALDATA.is_dir(), "the real files were not found"  # without ../shared: the generated ones
    files = real + _generated(tmp_path)
    seen = 0
    for path in files:
        try:
            doc = read_file(path)
        except FormatError:
            continue
        if not hasattr(doc, "info"):
            continue
        seen += 1
        errors = [x for x in check_set(doc) if x.is_error]
        for target in ("dup", "dlm"):
            out = tmp_path / f"out.{target}"
            try:
                write_document(doc, out, get(target))
                refused = None
            except FormatError as e:
                refused = e.message
            numbers = [b.number for b in BoardSet(list(doc)) if b.number is not None]
            too_many_for_dlm = target == "dlm" and (len(set(numbers)) > 99 or max(numbers, default=1) > 99)
            if not errors and not too_many_for_dlm:
                assert refused is None, f"{path.name}: check says ready, {target} refuses: {refused}"
            if refused is not None:
                assert errors or too_many_for_dlm, f"{path.name}: {target} refuses ({refused}), check finds nothing"
    assert seen >= 10


# -- 6: hand records print each board once --------------------------------------------------------
def test_print_prints_each_board_once_and_says_what_it_left_out(tmp_path, capsys):
    match = kit.two_room_lin(tmp_path / "match.lin")
    rc, out, err = run(capsys, "print", match, "-o", tmp_path / "m.pdf", "--no-dd")
    assert rc == 0, err
    assert out.strip().startswith(f"{tmp_path / 'm.pdf'}: 15 boards on 4 pages")
    assert f"bridgeview: {match}: 15 boards from 30 tables" in err


def test_print_leaves_out_boards_without_cards_and_exits_1_when_check_finds_errors(tmp_path, capsys):
    path = kit.plain_pbn(tmp_path / "p.pbn", 6)
    path.write_text(path.read_text() + '\n[Board "7"]\n[Scoring "IMP"]\n')  # a game without cards
    rc, out, err = run(capsys, "print", path, "-o", tmp_path / "p.pdf", "--no-dd")
    assert rc == 1 and out.strip().endswith("6 boards on 2 pages")
    assert "1 board without cards left out" in err
    assert "check finds 1 problem in this set" in err and "printed all the same" in err
    assert run(capsys, "print", path, "-o", tmp_path / "p.pdf", "--no-dd", "--force")[0] == 0


def test_hand_record_preparation_takes_each_board_once():
    from bridgeview.model.tables import boards_to_print

    doc = BoardSet([b for pair in zip(kit_boards(), kit_boards(), strict=True) for b in pair])
    boards, notices = boards_to_print(doc)
    assert [b.number for b in boards] == [1, 2, 3] and notices == ["3 boards from 6 tables"]


def kit_boards():
    from bridgeview.model.board import Board

    return [Board.numbered(n, d) for n, d in enumerate(kit.deals(3), 1)]


# -- 7: messages that keep their point -----------------------------------------------------------
def test_check_and_validate_agree_on_warnings(tmp_path, capsys):
    path = kit.plain_pbn(tmp_path / "p.pbn", 4)
    path.write_text(path.read_text().replace('[Board "2"]', '[OptimumScore "NS 4S; 420"]\n[Board "2"]'))
    rc, out, err = run(capsys, "validate", path)
    assert rc == 0 and "warning: " in out
    rc, out, err = run(capsys, "check", path)
    assert rc == 0 and "warning: " in out and out.strip().endswith("4 boards, ready to deal (1 warning)")


def test_a_grouped_validate_line_shows_its_first_case_whole(tmp_path, capsys):
    path = kit.plain_pbn(tmp_path / "p.pbn", 6)
    text = path.read_text()
    for n in range(1, 6):
        text = text.replace(f'[Board "{n}"]', f'[OptimumScore "NS {n}S; 420"]\n[Board "{n}"]')
    path.write_text(text)
    rc, out, err = run(capsys, "validate", path)
    line = next(x for x in out.splitlines() if "warnings: " in x)
    assert "'…'" not in line and "NS 1S; 420" in line and "(the first of them)" in line


def test_the_dup_refusal_clips_its_examples_not_its_advice():
    from bridgeview.formats.duplimate.bri import run_breaks_message
    from bridgeview.formats.errors import MESSAGE_LIMIT, FormatError

    numbers = [n for k in range(1, 40) for n in (k, k)]
    message = FormatError(run_breaks_message(numbers)).message
    assert len(message) <= MESSAGE_LIMIT and " … " not in message
    assert message.endswith("(bridgeview convert --renumber, or Edit › Dealing Machine Settings in the GUI)")
    assert "board 1 repeated" in message and "more" in message


# -- 8-12: LIN as BBO and others write it ----------------------------------------------------------
def test_a_complete_auction_gives_the_contract_in_pbn(tmp_path, capsys):
    lesson = kit.lesson_lin(tmp_path / "l.lin", 2)
    out = tmp_path / "l.pbn"
    assert run(capsys, "convert", lesson, out)[0] == 0
    text = out.read_text()
    assert '[Contract "3NT"]' in text and '[Declarer "?"]' not in text and '[Contract "?"]' not in text


def test_a_lesson_with_bad_records_opens_for_info_dump_and_validate(tmp_path, capsys):
    bad = kit.lesson_lin(tmp_path / "bad.lin", 56, bad={3: "pc", 7: "md"})
    rc, out, err = run(capsys, "info", bad)
    assert rc == 0 and "boards:        56" in out
    rc, out, err = run(capsys, "dump", bad)
    boards = json.loads(out)["boards"]
    assert rc == 0 and len(boards) == 56 and boards[2]["unreadable"].startswith("pc|NT2|")
    rc, out, err = run(capsys, "validate", bad)
    assert rc == 1
    assert f"{bad}: line 3, record 3: unreadable record: pc|NT2|: not a card: 'NT2'" in out.splitlines()
    assert any(x.startswith(f"{bad}: line 7, record 7: unreadable record: md|") for x in out.splitlines())
    assert err.strip() == f"{bad}: 2 problems in 56 boards"


def test_lesson_text_a_conversion_cannot_carry_is_named(tmp_path, capsys):
    lesson = kit.lesson_lin(tmp_path / "l.lin", 4)
    rc, _, err = run(capsys, "convert", lesson, tmp_path / "l.bri")
    assert rc == 0
    assert "bridgeview: dropped: notes and tags of 4 boards (commentary, South, West, North, East)" in err


def test_partial_deals_are_written_as_bbo_writes_them(tmp_path):
    """A lesson's ending (North and South's clubs only) is saved, not refused: the hands with cards as usual,
    the empty ones as nothing between their commas; it reads back the same."""
    from bridgeview.formats.lin.write import md_text
    from bridgeview.formats.registry import write_file

    doc = read_file(kit.lesson_lin(tmp_path / "l.lin", 10, bad={9: "partial"}))
    ending = doc[8]
    assert not ending.deal.is_complete and ending.deal.card_count
    doc[0] = doc[0].touched()  # edited: the file is written from the model, not copied
    out = tmp_path / "again.lin"
    write_file(doc, out)
    md = md_text(ending)
    south, west, north, east = md[1:].split(",")
    assert west == east == "" and south.startswith("SHDC") and north.startswith("SHDC")
    assert f"|md|{md}|" in out.read_text().splitlines()[8]
    assert read_file(out)[8].deal == ending.deal


def test_lin_always_writes_pn_and_endplay_reads_every_board(tmp_path):
    from endplay.parsers import lin as endplay_lin

    from bridgeview.formats.registry import write_file

    doc = read_file(kit.plain_pbn(tmp_path / "p.pbn", 8))
    out = tmp_path / "p.lin"
    write_file(doc, out)
    assert out.read_text().count("pn|,,,|") == 8
    with open(out, encoding="utf-8") as f:
        theirs = endplay_lin.load(f)
    assert len(theirs) == 8 and [b.board_num for b in theirs] == list(range(1, 9))
    match = read_file(kit.two_room_lin(tmp_path / "m.lin", 3))
    match[0] = match[0].touched()  # written from the model (an unchanged file is copied as it was)
    write_file(match, tmp_path / "m2.lin")
    with open(tmp_path / "m2.lin", encoding="utf-8") as f:
        assert len(endplay_lin.load(f)) == 6


BAD_BYTES = (
    b"pn|Caf\xe9 \x81x,B,C,D|st||md|3SAKQJHT98D765C432,S432HAKQJDT98C765,ST98H765D432CAKQJ,|rh||ah|Board 1|sv|o|\n"
)


@pytest.mark.parametrize("lazy", [False, True])
def test_undecodable_lin_bytes_are_problems_of_their_board(tmp_path, monkeypatch, capsys, lazy):
    good = b"pn|A,B,C,D|st||md|4SAKQJHT98D765C432,S432HAKQJDT98C765,ST98H765D432CAKQJ,|rh||ah|Board 2|sv|n|\n"
    path = tmp_path / "bad.lin"
    path.write_bytes(good + BAD_BYTES.replace(b"Board 1|sv|o", b"Board 3|sv|e").replace(b"md|3", b"md|1"))
    if lazy:
        monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 10)
    doc = read_file(path)
    assert doc.is_lazy == lazy and doc[1].tags["South"] == "Café \ufffdx"
    rc, out, err = run(capsys, "validate", path)
    assert (
        f"{path}: warning: line 2, record 2: byte 0x81 is not a character in Windows-1252 (the file's 8-bit text); "
        "read as \ufffd" in out.splitlines()
    )


@pytest.mark.parametrize("lazy", [False, True])
def test_undecodable_pbn_bytes_are_problems_of_their_game_or_the_header(tmp_path, monkeypatch, capsys, lazy):
    path = kit.plain_pbn(tmp_path / "p.pbn", 3)
    data = path.read_bytes().replace(b'[Board "2"]', b'[West "Caf\xe9 \x8d"]\n[Board "2"]')
    path.write_bytes(b"% Caf\xe9 \x90\n" + data)
    if lazy:
        monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10)
    doc = read_file(path)
    assert doc.is_lazy == lazy and doc.info.extra["encoding"] == "cp1252"
    rc, out, err = run(capsys, "validate", path)
    lines = out.splitlines()
    assert any(x.startswith(f"{path}: warning: line 1: byte 0x90 is not a character") for x in lines), lines
    assert any(x.startswith(f"{path}: warning: line 9, record 2: byte 0x8D") for x in lines), lines
    assert rc == 0


def test_one_decoding_policy_for_every_text_format(tmp_path):
    from bridgeview.formats.textcheck import decode_text

    for data, encoding, bad in (
        ("Café".encode(), "utf-8", []),
        (b"\xef\xbb\xbfCaf\xc3\xa9", "utf-8-sig", []),
        (b"Caf\xe9 \x80", "cp1252", []),
        (b"Caf\xe9 \x81", "cp1252", [5]),
    ):
        decoded = decode_text(data)
        assert (decoded.encoding, decoded.undecodable) == (encoding, bad)
    # the formats whose only text is a header report its bytes there (DLM's headline, BRE's three lines)
    dlm = tmp_path / "h.dlm"
    dlm.write_bytes(
        b"[Document]\r\nHeadline=Caf\xe9 \x9d\r\nFrom board=1\r\nTo board=1\r\nBoard 01=" + _dlm_board(1) + b"\r\n"
    )
    problems = read_file(dlm, "dlm").problems
    assert [p.place for p in problems if p.kind == "text.undecodable-byte" and "0x9D" in p.message] == [Place(None, 2)]


def _dlm_board(number: int) -> bytes:
    from bridgeview.formats.duplimate.dlm import board_value, encode_letters
    from bridgeview.model.board import Board

    return board_value(number, encode_letters(Board.numbered(number, kit.deals(1)[0]).deal)).encode("ascii")


def test_a_distinct_view_keeps_a_set_without_tables_as_it_is(tmp_path):
    doc = read_file(kit.plain_pbn(tmp_path / "p.pbn", 4))
    view, notice, errors = distinct_boards(doc, get("dup"))
    assert view is doc and notice is None and errors == []
    assert distinct_boards(doc, get("pbn"))[0] is doc


def test_renumbering_in_the_app_keeps_the_tables_of_a_board_together(tmp_path):
    from bridgeview.model.editing import board_numbers, renumbered

    doc = read_file(kit.two_room_pbn(tmp_path / "m.pbn", 3, spoil=2))
    assert board_numbers(list(doc), 11) == [11, 11, 12, 13, 14, 14]  # board 2's closed room held another deal
    out = renumbered(list(doc), 11)
    assert [(b.number, b.dealer) for b in out][:2] == [(11, dealer_for_board(11))] * 2


def test_info_counts_boards_and_tables(tmp_path, capsys):
    rc, out, err = run(capsys, "info", kit.two_room_lin(tmp_path / "m.lin"))
    assert rc == 0 and "tables:        15 boards from 30 tables" in out.splitlines()
    rc, out, err = run(capsys, "info", kit.plain_pbn(tmp_path / "p.pbn", 4))
    assert "tables:" not in out
