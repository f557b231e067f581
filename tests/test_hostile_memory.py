"""Pathological PBN text costs memory in proportion to the file, with a small constant, and
its problems are listed up to a hundred a game and counted past that.

Memory is measured with tracemalloc (Python allocations while reading and validating),
which does not depend on the machine's speed or load."""

from __future__ import annotations

from pathlib import Path

import pytest
from memorykit import traced_peak

from bridgeview.check.validate import validate
from bridgeview.formats.pbn.lex import PROBLEM_LIMIT
from bridgeview.formats.registry import all_codecs, read_file

MB = 1 << 20
CASES = {
    "one line of }": "}" * MB,
    "} and spaces": "} " * (MB // 2),
    "lines of stray }": "} }\n" * (MB // 16),
    "unclosed {": "{" * MB,
    "unclosed quote": '[Event "x"]\n"' + "x" * MB,
    "a long malformed tag": "[Event " + "x" * MB,
    "a tag repeated on every line": '[Board "1"]\n' * (MB // 12),
    "repeated tags with a comment": "{c}\n" + '[Board "1"]\n' * (MB // 12),
}


def _peak(path: Path) -> tuple[int, list]:
    all_codecs()  # codecs are imported on first use: not the file's cost
    validate(read_file(path))  # nor are lazily imported helpers
    return traced_peak(lambda: validate(read_file(path)))


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.slow
def test_memory_is_a_small_multiple_of_the_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / "hostile.pbn"
    path.write_text(CASES[name])
    size = path.stat().st_size
    peak, problems = _peak(path)
    assert peak <= 10 * size, f"{name}: {peak / MB:.1f} MB for a {size / MB:.1f} MB file"
    assert len(problems) <= PROBLEM_LIMIT + 2
    assert all(len(str(p)) < 400 for p in problems)


def test_a_million_stray_braces_are_one_problem_with_a_count(tmp_path: Path) -> None:
    path = tmp_path / "braces.pbn"
    path.write_text("}" * 1_000_000)
    messages = [p.message for p in validate(read_file(path))]
    assert "stray '}' (1,000,000 times)" in messages


def test_problems_past_the_first_hundred_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "boards.pbn"
    path.write_text('[Board "1"]\n' * 5000)
    doc = read_file(path)
    assert len(doc.problems) == PROBLEM_LIMIT + 1
    assert doc.problems[-1][2] == f"… and {4999 - PROBLEM_LIMIT:,} more problems in this game"
    many = tmp_path / "lines.pbn"
    many.write_text("}\n" * 5000)
    messages = [p[2] for p in read_file(many).problems]
    assert len(messages) <= PROBLEM_LIMIT + 2 and any("more problems" in m for m in messages)


def test_each_repeated_tag_is_reported_at_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "repeats.pbn"
    path.write_text('[Board "1"]\n[Dealer "N"]\n[Board "2"]\n[Board "3"]\n')
    doc = read_file(path)
    assert doc[0].number == 1
    assert [(line, msg) for _i, line, msg in doc.problems] == [
        (3, "tag Board appears twice in the game; the first is used"),
        (4, "tag Board appears twice in the game; the first is used"),
    ]
