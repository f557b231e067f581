"""Duplimate DLM: the deal files Duplimate's current software writes.

Text (CRLF, or LF as some files have): a ``[Document]`` line (either case), then
``key=value`` lines.  The header keys are ``Headline``, ``Status``, ``Duplicates``,
``From board``, ``To board``, ``Dealing method``, ``Next board to duplimate``,
``PrintOuts``, ``Crypto key`` and ``Checksum``; then for each board 01-99
``Duplicates NN=``, an optional ``Property NN=`` and ``Board NN=``: 26 letters
``a``-``p`` and a 3-digit checksum.  Letter ``k`` is ``chr(97 + 4 * seat(card 2k) +
seat(card 2k+1))`` with cards spades A..2, hearts, diamonds, clubs and seats N0 E1 S2
W3; the board checksum is the board number XOR the codes of the 26 letters; the
file's ``Checksum`` is the number of boards (From..To) XOR 1 when ``Status=Show``.
Boards outside From..To are filler and are not shown.

Every line is kept as read, in order, so an unchanged file saves byte-identical;
saving rewrites only the Headline, From/To, Checksum and the boards' lines.
"""

from __future__ import annotations

import os
import re
from typing import IO

from ...model.board import Board
from ...model.boardset import BoardSet, FileInfo
from ...model.cards import SEAT_LETTERS
from ...model.deal import Deal
from ...model.problem import Problem, error
from ..codec import Boards, BridgeCodec, Capabilities, ReadOptions, SaveReport, WriteOptions, source_info
from ..errors import FormatError
from ..textcheck import decode_text, undecodable_problems

LETTERS = 26
MAX_BOARD = 99
#: the filler deal Duplimate's converters write for numbers outside From..To
#: (N the first 13 cards in card order, E the next, and so on)
FILLER = "aaaaaabffffffkkkkkklpppppp"
_BOARD_KEY = re.compile(r"board (\d{1,2})", re.IGNORECASE)
#: the header of a new file, as Duplimate's converters write it (values filled in by ``_fresh_lines``)
FRESH_HEADER = (
    "Headline",
    "Status",
    "Duplicates",
    "From board",
    "To board",
    "Next board to duplimate",
    "PrintOuts",
    "Crypto key",
    "Checksum",
)


def encode_letters(deal: Deal) -> str:
    """The 26 letters of a full deal."""
    owners = deal.owners()[::-1]  # file order: spade ace first
    return "".join(chr(97 + 4 * owners[2 * k] + owners[2 * k + 1]) for k in range(LETTERS))


def board_checksum(number: int, letters: str) -> int:
    """The board number XOR the codes of its letters."""
    value = number
    for ch in letters:
        value ^= ord(ch)
    return value


def file_checksum(count: int, status: str) -> int:
    """The number of boards, XOR 1 when the status is ``Show``."""
    return count ^ (1 if status.strip().lower() == "show" else 0)


def board_value(number: int, letters: str) -> str:
    return f"{letters}{board_checksum(number, letters):03d}"


def _reads_as_utf8(data: bytes) -> bool:
    """True for non-ASCII bytes that are also valid UTF-8 (what :func:`textcheck.decode_text` takes as UTF-8)."""
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _key(line: str) -> tuple[str, str] | None:
    key, sep, value = line.partition("=")
    return (key.strip(), value) if sep else None


class DlmCodec(BridgeCodec):
    name = "dlm"
    title = "Duplimate DLM"
    extensions = ("dlm",)
    binary = False
    caps = Capabilities(
        full_deals=True,
        board_numbers=True,
        header=True,
        deals_required=True,
        max_records=MAX_BOARD,
        max_board=MAX_BOARD,
    )

    def sniff(self, head: bytes, size: int | None = None) -> int:
        first = head.lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip()
        return 95 if first.lower().startswith(b"[document]") else 0

    # -- reading ---------------------------------------------------------------
    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        options = options or ReadOptions()
        with open(path, "rb") as f:
            data = f.read()
        bom = data.startswith(b"\xef\xbb\xbf")
        body = data[3:] if bom else data
        decoded = decode_text(body, options.encoding or ("utf-8" if bom else None))
        text, encoding = decoded.text, decoded.encoding
        newline = "\r\n" if "\r\n" in text else "\n"
        lines = text.split("\n")
        final_newline = lines[-1] == ""
        if final_newline:
            lines.pop()
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        if not lines or lines[0].strip().lower() != "[document]":
            raise FormatError("a DLM file starts with a [Document] line", line=1)
        values, board_lines = self._document_values(lines)
        first = self._number(values, "from board", lines)
        last = self._number(values, "to board", lines)
        if not 1 <= first <= last <= MAX_BOARD:
            raise FormatError(
                f"boards {first}-{last}: DLM holds boards 1-{MAX_BOARD}, From board first", line=values["to board"][1]
            )
        info = FileInfo(event=values.get("headline", ("", 0))[0].strip() or None)
        info.extra["dlm"] = {
            "lines": lines,
            "newline": newline,
            "final_newline": final_newline,
            "encoding": encoding,
            "bom": bom,
        }
        doc = BoardSet([], info)
        doc.problems.extend(undecodable_problems(body, decoded.undecodable, None))  # text outside the deals
        doc.problems.extend(self._checksum_problems(values, last - first + 1))
        positions: dict[int, int] = {}
        for number in range(first, last + 1):
            if number not in board_lines:
                raise FormatError(f"no Board {number:02d} line (From board {first}, To board {last})", board=number)
            value, line_no = board_lines[number]
            deal, problem = self.decode_board(value, number, line_no)
            if problem:
                doc.problems.append(Problem(len(doc), line_no, error("dlm.bad-board", problem)))
            positions[len(doc)] = line_no
            doc.append(Board.numbered(number, deal))
        info.extra["board_lines"] = positions
        return doc

    @staticmethod
    def _document_values(lines: list[str]) -> tuple[dict[str, tuple[str, int]], dict[int, tuple[str, int]]]:
        """The [Document] section's values by lower-case key, and its ``Board NN`` values by number, each
        with its line (the first of a key repeated wins; other sections are kept as read, not looked at)."""
        values: dict[str, tuple[str, int]] = {}
        board_lines: dict[int, tuple[str, int]] = {}
        section = "document"
        for n, line in enumerate(lines[1:], 2):
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1].strip().lower()  # other sections (Duplimate's [STARTUP]) are kept as read
                continue
            if section != "document":
                continue
            kv = _key(line)
            if kv is None:
                raise FormatError(f"expected key=value, found {line[:40]!r}", line=n)
            key, value = kv
            m = _BOARD_KEY.fullmatch(key)
            if m:
                board_lines.setdefault(int(m.group(1)), (value.strip(), n))
            else:
                values.setdefault(key.lower(), (value, n))
        return values, board_lines

    @staticmethod
    def _checksum_problems(values: dict[str, tuple[str, int]], count: int) -> list[Problem]:
        """A ``Checksum`` line that is not the one ``count`` boards and the ``Status`` give."""
        problems: list[Problem] = []
        status = values.get("status", ("", 0))[0]
        if "checksum" in values:
            raw, line_no = values["checksum"]
            expected = file_checksum(count, status)
            if not raw.strip().isdigit():
                problems.append(
                    Problem(
                        None, line_no, error("dlm.bad-checksum", f"the file checksum {raw.strip()!r} is not a number")
                    )
                )
            elif int(raw) != expected:
                problems.append(
                    Problem(
                        None,
                        line_no,
                        error(
                            "dlm.wrong-checksum",
                            f"the file checksum is {int(raw)}; "
                            f"{count} boards with Status={status.strip()} give {expected}",
                        ),
                    )
                )
        return problems

    @staticmethod
    def _number(values: dict[str, tuple[str, int]], key: str, lines: list[str]) -> int:
        if key not in values:
            raise FormatError(f"no {key.capitalize()} line", line=len(lines))
        raw, line_no = values[key]
        if not raw.strip().isdigit():
            raise FormatError(f"{key.capitalize()} is {raw.strip()!r}, not a number", line=line_no)
        return int(raw)

    @staticmethod
    def decode_board(value: str, number: int, line: int) -> tuple[Deal, str | None]:
        """The deal of a ``Board NN=`` value, and the checksum problem (None when it agrees)."""
        letters, check = value[:LETTERS], value[LETTERS:]
        if len(letters) < LETTERS:
            raise FormatError(f"{len(letters)} letters, not 26", line=line, board=number)
        owners = [0] * 52
        for k, ch in enumerate(letters):
            if not "a" <= ch <= "p":
                raise FormatError(f"letter {k + 1} is {ch!r}, not a-p", line=line, board=number)
            code = ord(ch) - 97
            owners[51 - 2 * k] = code >> 2
            owners[50 - 2 * k] = code & 3
        for seat in range(4):
            held = owners.count(seat)
            if held != 13:
                raise FormatError(f"{SEAT_LETTERS[seat]} holds {held} cards, not 13", line=line, board=number)
        expected = board_checksum(number, letters)
        if not check.isdigit():
            problem = f"board {number}: the checksum {check!r} is not a number (the letters give {expected:03d})"
        elif int(check) != expected:
            problem = f"board {number}: the checksum is {check}; the letters give {expected:03d}"
        else:
            problem = None
        return Deal.from_owners(owners), problem

    # -- writing ---------------------------------------------------------------
    @staticmethod
    def _numbers(boards: Boards, options: WriteOptions | None) -> list[int]:
        start = options.start_board if options and options.start_board is not None else 1
        return [b.number if b.number is not None else start + i for i, b in enumerate(boards)]

    @staticmethod
    def _encoding(doc: Boards, options: WriteOptions | None) -> str:
        if options and options.encoding:
            return options.encoding
        info = source_info(doc)
        layout = info.extra.get("dlm") if info is not None else None
        return layout["encoding"] if layout else "cp1252"

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        numbers = self._numbers(boards, options)
        if not numbers:
            rep.errors.append(f"a DLM file holds 1-{MAX_BOARD} boards; this set has none")
        elif any(n != numbers[0] + i for i, n in enumerate(numbers)) or not 1 <= numbers[0] <= MAX_BOARD:
            rep.errors.append(
                f"boards {', '.join(map(str, numbers[:5]))}{'…' if len(numbers) > 5 else ''}: "
                f"DLM holds one run of consecutive boards within 1-{MAX_BOARD}"
            )
        info = source_info(boards)
        if info is not None:
            headline = " ".join((info.event or "").splitlines())
            try:
                headline.encode(self._encoding(boards, options))
            except (UnicodeEncodeError, LookupError):
                rep.errors.append(f"the event {headline!r} cannot be written in {self._encoding(boards, options)}")
            rep.losses = [m for m in rep.losses if m != "the event, site and date"]
            if any((v or "").strip("?.#- ") for v in (info.site, info.date)):
                rep.losses.append("the site and date (DLM keeps only a headline)")
        return rep

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        boards = list(doc)
        numbers = self._numbers(boards, options)
        for board, number in zip(boards, numbers, strict=True):
            if not board.deal.is_complete:
                raise FormatError(f"board {number} is not a complete deal; {self.title} stores only full deals")
        if (
            not numbers
            or numbers != list(range(numbers[0], numbers[0] + len(numbers)))
            or not (1 <= numbers[0] and numbers[-1] <= MAX_BOARD)
        ):
            raise FormatError(f"DLM holds one run of consecutive boards within 1-{MAX_BOARD}")
        info = source_info(doc)
        layout = info.extra.get("dlm") if info is not None else None
        headline = " ".join(((info.event if info is not None else None) or "").splitlines())
        deals = {n: encode_letters(b.deal) for n, b in zip(numbers, boards, strict=True)}
        if layout:
            lines = self._updated_lines(layout["lines"], headline, numbers[0], numbers[-1], deals)
            newline = layout["newline"]
            final = layout["final_newline"]
            bom = layout["bom"]
        else:
            lines = self._fresh_lines(headline, numbers[0], numbers[-1], deals)
            newline, final, bom = "\r\n", True, False
        if options and options.newline:
            newline = options.newline
        text = newline.join(lines) + (newline if final else "")
        encoding = self._encoding(doc, options)
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError as e:
            raise FormatError(f"{text[e.start : e.end]!r} cannot be written in {encoding}") from None
        if not bom and encoding != "utf-8" and not (options and options.encoding) and _reads_as_utf8(data):
            # the reader takes BOM-less text that is valid UTF-8 as UTF-8 ("Å€" in cp1252 is the bytes of "ŀ"):
            # such a headline is written as UTF-8 with a BOM, so the file reads back as written
            bom, data = True, text.encode("utf-8")
        out.write((b"\xef\xbb\xbf" if bom else b"") + data)

    @staticmethod
    def _fresh_lines(headline: str, first: int, last: int, deals: dict[int, str]) -> list[str]:
        values = {
            "Headline": headline,
            "Status": "Show",
            "Duplicates": "1",
            "From board": str(first),
            "To board": str(last),
            "Next board to duplimate": "0",
            "PrintOuts": "0",
            "Crypto key": "0",
            "Checksum": str(file_checksum(last - first + 1, "Show")),
        }
        lines = ["[Document]"] + [f"{key}={values[key]}" for key in FRESH_HEADER]
        for n in range(1, MAX_BOARD + 1):
            lines.append(f"Duplicates {n:02d}=0")
            lines.append(f"Board {n:02d}={board_value(n, deals.get(n, FILLER))}")
        return lines

    @staticmethod
    def _updated_lines(lines: list[str], headline: str, first: int, last: int, deals: dict[int, str]) -> list[str]:
        """The file's own lines with the headline, range, checksum and boards brought up to date."""
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip().startswith("[")), len(lines))
        status = next((kv[1] for kv in map(_key, lines[:end]) if kv and kv[0].lower() == "status"), "Show")
        out: list[str] = []
        seen: set[int] = set()
        section = ""
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1].strip().lower()
            kv = _key(line) if section == "document" else None
            if kv is None:
                out.append(line)
                continue
            key, old = kv
            head = line[: line.index("=") + 1]
            low = key.lower()
            m = _BOARD_KEY.fullmatch(key)
            if m:
                n = int(m.group(1))
                if n in deals and n not in seen:
                    line = head + board_value(n, deals[n])
                seen.add(n)
            elif low == "headline" and old.strip() != headline:
                line = head + headline
            elif low in ("from board", "to board"):
                value = first if low == "from board" else last
                if not (old.strip().isdigit() and int(old) == value):
                    line = head + str(value)
            elif low == "checksum":
                value = file_checksum(last - first + 1, status)
                if not (old.strip().isdigit() and int(old) == value):
                    width = len(old.strip()) if old.strip().startswith("0") else 0
                    line = head + f"{value:0{width}d}"
            out.append(line)
        if headline and not any(kv and kv[0].lower() == "headline" for kv in map(_key, lines[:end])):
            out.insert(1, f"Headline={headline}")  # an event given to a file that had no headline
            end += 1
        missing: list[str] = []
        for n in sorted(set(deals) - seen):  # a board the file had no line for, at the end of [Document]
            missing.append(f"Duplicates {n:02d}=0")
            missing.append(f"Board {n:02d}={board_value(n, deals[n])}")
        return out[:end] + missing + out[end:]


CODECS: tuple[BridgeCodec, ...] = (DlmCodec(),)

__all__ = ["CODECS", "DlmCodec", "board_checksum", "encode_letters", "file_checksum"]
