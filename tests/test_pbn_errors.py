"""PBN problems reported with file line numbers by ``bridgeview validate``.

The two ``pbnj_veugen_errors_*`` files are Tis Veugen's negative tests for his
PBN verifier; every defect they hold is listed here with its line.
"""

from __future__ import annotations

import pytest

from bridgeview.cli.main import main
from bridgeview.formats.pbn.codec import parse_pbn_text

# (line, words the message must contain), read off the file by hand
ERRORS_20 = [
    (7, "Scoring 'IMP;??' has a bad method '??'"),  # game 1: unknown scoring method
    (10, "Scoring ';' has a bad method ''"),  # game 2: empty methods
    (15, "Vulnerable is All but ScoreRubberHistory makes it NS"),  # game 3: only NS won a game
    (18, "Vulnerable is All but ScoreRubberHistory makes it NS"),  # game 4: same, tags swapped
    (23, "Vulnerable is None but ScoreRubberHistory makes it All"),  # game 5: both sides won a game
    (26, "Vulnerable is None but ScoreRubberHistory makes it All"),  # game 6: same, tags swapped
    (40, "'+' appears more than once in the play"),  # game 7: double '+'
    (53, "card S7 after '+'"),  # game 8: card after '+'
    (66, "call + after '+'"),  # game 9: a second '+' after '+'
    (79, "call Pass after '+'"),  # game 10: call after '+'
    (92, "call 6S after '+'"),  # game 11: calls after '+'
    (97, 'malformed tag: [ActionTable "Rank;Call\\"]'),  # game 12: the value's quote is escaped
    (100, 'malformed tag: [ActionTable "Rank;Call\\ ]'),  # game 13: no closing quote
    (103, "ActionTable column 'Call\\L' is not"),  # game 14: width specifier without a width, shown as written
    (108, "commentary inside the ActionTable section"),  # game 15: comment in a table row
    (113, "ActionTable entry '%' holds a character PBN forbids"),  # game 16
    (117, "malformed tag: ["),  # game 17: '[' as a table entry
    (121, "stray ']'"),  # game 18
    (125, "a { comment is not closed"),  # game 19: '{' as a table entry
    (129, "stray '}'"),  # game 20
    (143, "ActionTable has 49 entries, not a multiple of its 5 columns: this row has 4"),  # game 21: row 10 short
    # game 22: '-Percentage' marks a low-to-high column (the correct file has '+Percentage'), yet 72.49, 70.38, ...
    (158, "TotalScoreTable column '-Percentage\\5R' is marked to run low to high, but 72.49 is followed by 70.38"),
    # game 23 copies that column spec with "#" and repeats the rows
    (174, "TotalScoreTable column '-Percentage\\5R' is marked to run low to high, but 72.49 is followed by 70.38"),
    # game 23 repeats game 22's board with its deal: another table's result of that board, not a problem
]

ERRORS_21 = [
    (7, "OptimumScore '100' must be 'NS <points>' or 'EW <points>'"),  # game 1: no side
    (11, "OptimumScore 'EW' must be 'NS <points>' or 'EW <points>'"),  # game 2: no number
]


#: the same problems as (board, line, kind, severity): what a program asks of them, not their words
KINDS_20 = [
    (0, 7, "pbn.bad-scoring", "warning"),
    (1, 10, "pbn.bad-scoring", "warning"),
    (2, 15, "pbn.rubber-vulnerability-mismatch", "error"),
    (3, 18, "pbn.rubber-vulnerability-mismatch", "error"),
    (4, 23, "pbn.rubber-vulnerability-mismatch", "error"),
    (5, 26, "pbn.rubber-vulnerability-mismatch", "error"),
    (6, 40, "pbn.plus-twice", "error"),
    (7, 53, "pbn.card-after-stop", "error"),
    (8, 66, "pbn.call-after-plus", "error"),
    (9, 79, "pbn.call-after-plus", "error"),
    (10, 92, "pbn.call-after-plus", "error"),
    (11, 97, "pbn.malformed-tag", "error"),
    (12, 100, "pbn.malformed-tag", "error"),
    (13, 103, "pbn.bad-table-column", "warning"),
    (14, 108, "pbn.comment-in-table", "error"),
    (15, 113, "pbn.forbidden-in-table", "warning"),
    (16, 117, "pbn.malformed-tag", "error"),
    (16, 117, "pbn.table-entry-count", "warning"),
    (17, 121, "pbn.stray-character", "error"),
    (17, 121, "pbn.table-entry-count", "warning"),
    (18, 125, "pbn.comment-not-closed", "error"),
    (18, 125, "pbn.table-entry-count", "warning"),
    (19, 129, "pbn.stray-character", "error"),
    (19, 129, "pbn.table-entry-count", "warning"),
    (20, 143, "pbn.table-entry-count", "warning"),
    (21, 158, "pbn.table-order", "warning"),
    (22, 174, "pbn.table-order", "warning"),
]
KINDS_21 = [(0, 7, "pbn.bad-score", "warning"), (1, 11, "pbn.bad-score", "warning")]


@pytest.mark.parametrize(
    ("name", "expected"), [("pbnj_veugen_errors_20.pbn", KINDS_20), ("pbnj_veugen_errors_21.pbn", KINDS_21)]
)
def test_every_problem_of_the_errors_files_has_its_kind_place_and_severity(realdata, name, expected):
    from bridgeview.formats.registry import read_file

    problems = read_file(realdata / "pbn" / name).problems
    assert [(p.place.board, p.place.line, p.kind, p.severity) for p in problems] == expected


def validate_lines(path, capsys) -> tuple[int, list[str]]:
    code = main(["validate", "--all", "--strict", str(path)])  # a verifier's negative tests: warnings count
    out = capsys.readouterr().out
    return code, [line for line in out.splitlines() if line.startswith(str(path))]


@pytest.mark.parametrize(
    ("name", "expected"), [("pbnj_veugen_errors_20.pbn", ERRORS_20), ("pbnj_veugen_errors_21.pbn", ERRORS_21)]
)
def test_every_problem_of_the_errors_files_is_named(realdata, capsys, name, expected):
    path = realdata / "pbn" / name
    code, lines = validate_lines(path, capsys)
    assert code == 1
    for line, words in expected:
        hits = [x for x in lines if f": line {line}," in x and words in x]
        assert hits, f"line {line}: {words!r} not reported; got:\n" + "\n".join(lines)


def test_every_game_of_errors_20_has_a_problem(realdata):
    from bridgeview.check.validate import validate
    from bridgeview.formats.registry import read_file

    doc = read_file(realdata / "pbn" / "pbnj_veugen_errors_20.pbn")
    assert len(doc) == 23
    flagged = {p.index for p in validate(doc)}
    assert flagged == set(range(23))


def test_correct_files_have_no_syntax_problems(realdata):
    from bridgeview.formats.registry import read_file

    for name in (
        "pbnj_veugen_correct_21.pbn",
        "pbnj_veugen_correct_20.pbn",
        "pbnj_veugen_basic_10.pbn",
        "dealconvert_test_16boards.pbn",
        "zdenecek_bridgecomposer_latin1.pbn",
    ):
        assert read_file(realdata / "pbn" / name).problems == [], name


TABLE = '[Board "1"]\n[ScoreTable "{cols}"]\n{rows}\n'


@pytest.mark.parametrize(
    ("cols", "rows", "message"),
    [
        (
            "-Rank;+Percentage",
            "1 70\n2 71",
            "line 4: ScoreTable column '+Percentage' is marked to run high to low, but 70 is followed by 71",
        ),
        (
            "-Rank\\2R;Pct",
            "1 70\n3 60\n2 50",
            "line 5: ScoreTable column '-Rank\\2R' is marked to run low to high, but 3 is followed by 2",
        ),
        (
            "Rank;Pct;Names",
            '1 70 "a"\n2 60\n3 50 "c"',
            "line 4: ScoreTable has 8 entries, not a multiple of its 3 columns: this row has 2",
        ),
    ],
)
def test_table_order_marks_and_short_rows(cols, rows, message):
    doc = parse_pbn_text(TABLE.format(cols=cols, rows=rows))
    assert [f"line {line}: {text}" for _i, line, text in doc.problems] == [message]


def test_table_order_marks_skip_ties_and_dashes():
    doc = parse_pbn_text(TABLE.format(cols="-Rank;+Score_NS", rows="1 500\n- 500\n3 -\n4 -50\n"))
    assert doc.problems == []


def test_validate_names_lines_of_bad_values(tmp_path, capsys):
    p = tmp_path / "bad.pbn"
    p.write_text(
        "% PBN 2.1\n"
        '[Board "x1"]\n'
        '[Dealer "Q"]\n'
        '[Vulnerable "Sometimes"]\n'
        '[Deal "N:AKQ.JT9.876.5432 - - ZZ"]\n'
        '[Contract "9NT"]\n'
        '[Auction "N"]\n'
        "1S 1C Pass Pass\n"
        "Pass\n"
        "\n"
        '[Board "2"]\n'
        '[Deal "N:AKQJT98765432... - - -"]\n'
        '[Declarer "N"]\n'
        '[Contract "1S"]\n'
        '[Play "E"]\n'
        "SA S2 S3 S4\n"
    )
    code, lines = validate_lines(p, capsys)
    assert code == 1
    text = "\n".join(lines)
    for line, words in [
        (2, "board number 'x1' is not a number"),
        (3, "dealer 'Q'"),
        (4, "vulnerability 'Sometimes'"),
        (5, "deal: "),
        (6, "contract '9NT'"),
        (2, "insufficient"),
    ]:
        assert f"line {line}," in text and words in text, (line, words, text)
    assert "play: card 1 (SA) is not in E's hand" in text


def test_reader_never_raises_on_nonsense():
    for text in [
        "[",
        "]",
        "{",
        "}",
        '[Deal "',
        "\x00\x01",
        '[Auction "N"]\n=x= $ ^ AP AP\n',
        '[Play "N"]\n* * SA\n',
        '[Note "x"]',
        '[Event "#"]',
        '[OptimumResultTable "Declarer"]\nN NT 99\n',
        '[Result "NS 14"]',
        '[DoubleDummyTricks "zz"]',
        "%%!R 12",
        '[Deal "N:AKA... - - -"]',
    ]:
        doc = parse_pbn_text(text)
        assert isinstance(doc.problems, list)


def test_board_lines_point_at_the_board_tag(realdata):
    from bridgeview.formats.registry import read_file

    doc = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")
    assert doc.info.extra["board_lines"] == {0: 6, 1: 37}
