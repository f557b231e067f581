"""Turning one tokenised PBN game into a :class:`Board`, noting every problem.

The reader never raises for a bad game: each defect becomes a ``(line,
message)`` problem and the board keeps what could be read.  Tag values ``#``
and ``##`` (PBN 4.8 inheritance) are resolved with a :class:`Context` that
runs through the file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple, TypeVar, cast

from ...model.auction import AUCTION_REST, PASS, Call, CallKind, Contract, auction_is_complete, unread_auction_problem
from ...model.board import Board, board_number_problem
from ...model.cards import CARDS, Card, Seat, Strain
from ...model.ddtable import DDTable
from ...model.deal import Deal
from ...model.play import trick_winner
from ...model.problem import error, warning
from ...model.vulnerability import Vulnerability
from ..errors import describe
from . import dd as pbn_dd
from .checks import MODELLED, check_tag
from .context import Context
from .entry import Entry, section_text, simple_entries
from .fast import read_fast
from .lex import PROBLEM_LIMIT, Game, unescape, visit

# -- fast lookup tables -------------------------------------------------
CALL_TOKENS: dict[str, Call] = {"PASS": PASS, "P": PASS, "X": Call(CallKind.DOUBLE), "XX": Call(CallKind.REDOUBLE)}
for _level in range(1, 8):
    for _strain in Strain:
        CALL_TOKENS[f"{_level}{_strain.letter}"] = Call.bid(_level, _strain)
    CALL_TOKENS[f"{_level}N"] = Call.bid(_level, Strain.NOTRUMP)
CARD_TOKENS: dict[str, Card] = {}
for _c in CARDS:
    CARD_TOKENS[str(_c)] = _c
    CARD_TOKENS[str(_c).lower()] = _c
    CARD_TOKENS[str(_c)[0] + str(_c)[1].lower()] = _c
    CARD_TOKENS[str(_c)[0].lower() + str(_c)[1]] = _c
SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_CONTRACTS: dict[str, Contract] = {}
_VULS: dict[str, Vulnerability] = {}
_SUFFIX = re.compile(r"[!?]+$")
_NOTE_REF = re.compile(r"=(\d+)=$")
_RESULT_SIDE = re.compile(r"(NS|EW)\s+(\d+)")


class GameReader:
    """Builds one board from one game: a :class:`.lex.GameVisitor` of its tokens (or from the entries a
    simple game's regular expressions found, :func:`.entry.simple_entries`)."""

    def __init__(self, game: Game | None, ctx: Context, first_line: int, entries: list[Entry] | None = None) -> None:
        self.game = game
        self.given = entries
        self.ctx = ctx
        self.first_line = first_line
        self.problems: list[tuple[int | None, str]] = []
        self.board = Board()
        self.line = first_line
        self.claimed = False  # the play ended with '*'
        self.rubber_vul: Vulnerability | None = None  # what ScoreRubberHistory implies
        self.rubber_line = 0
        self.more_problems = 0  # problems past PROBLEM_LIMIT: counted, not kept

    def problem(self, line: int | None, message: str) -> None:
        if len(self.problems) < PROBLEM_LIMIT:
            self.problems.append((line, message))
        else:  # a pathological game (a million stray braces) must not cost memory per problem
            self.more_problems += 1

    # -- grouping: the reader is a visitor of the game's tokens (:func:`.lex.visit`) ----------------
    def entries(self) -> list[Entry]:
        """The game's tags, each with its section, as the tokenizer tells them; comments and ``%`` lines
        go to the board's notes."""
        self._entries: list[Entry] = []
        self._current: Entry | None = None
        self._table = False
        self._skipping = False  # after a repeated tag left out by the tokenizer: its section goes too
        if self.game is not None:
            visit(self.game, self)
        return self._entries

    def tag(self, name: str, value: str, line: int) -> None:
        self._current = Entry(name, unescape(value) if "\\" in value else value, line)
        self._entries.append(self._current)
        self._table = name.endswith("Table")
        self._skipping = False

    def skipped(self) -> None:
        self.more_problems += 1  # "appears twice", past the first hundred: counted
        self._skipping, self._table = True, False

    def words(self, words: list[str], line: int) -> None:
        if self._skipping:
            return
        current = self._current
        if current is None:
            self.problem(line, error("pbn.text-before-first-tag", f"{' '.join(words)!r} before the first tag"))
        else:
            current.words.extend(words)
            current.wlines.extend([line] * len(words))

    def comment(self, text: str, shares_line: bool, line: int) -> None:
        self.board.notes.append(text)
        if self._table and shares_line and self._current is not None:
            self.problem(line, error("pbn.comment-in-table", f"commentary inside the {self._current.name} section"))

    def percent(self, text: str, line: int) -> None:
        if text.startswith("%%!R "):
            self._entries.append(Entry("%%!R", text[5:].strip(), line))
        else:
            self.board.notes.append(text)

    def resolve(self, entries: list[Entry]) -> list[Entry]:
        """Apply ``#``/``##`` inheritance; drop repeated tags (PBN: the first counts)."""
        ctx = self.ctx
        if ctx.pending:
            ctx.flush()
        if not ctx.persistent and not any(e.value[:1] == "#" for e in entries):
            names = {e.name for e in entries}
            if len(names) == len(entries):  # no inheritance, no repeats (nor Notes): nothing to do
                ctx.previous.update({e.name: (e.value, e.words) for e in entries})
                return entries
        if ctx.persistent or any(e.value[:1] == "#" for e in entries):
            ctx.inherits = True
        seen: set[str] = set()
        out: list[Entry] = []
        for e in entries:
            if e.name in ("Note", "%%!R"):
                out.append(e)
                continue
            if e.name in seen:
                self.problem(
                    e.line, error("pbn.repeated-tag", f"tag {e.name} appears twice in the game; the first is used")
                )
                continue
            seen.add(e.name)
            if e.value == "#" or e.value == "##":
                prev = ctx.previous.get(e.name)
                if prev is None:
                    self.problem(
                        e.line,
                        error(
                            "pbn.nothing-to-inherit", f"{e.name} is {e.value!r} but no earlier game has a {e.name} tag"
                        ),
                    )
                    value = e.value = ""
                elif not e.words:
                    value, e.words, e.wlines = prev[0], list(prev[1]), [e.line] * len(prev[1])
                else:
                    value = prev[0]
                if e.value == "##":
                    ctx.persistent[e.name] = (value, e.words)
                else:
                    ctx.persistent.pop(e.name, None)  # '#' copies once and ends a '##' default
                e.value = value
            elif e.value.startswith("##"):
                e.value = e.value[2:]
                ctx.persistent[e.name] = (e.value, e.words)
            out.append(e)
        for name, (value, words) in ctx.persistent.items():
            if name not in seen:
                out.append(Entry(name, value, 0, list(words), [0] * len(words), inherited=True))
        ctx.previous.update((e.name, (e.value, e.words)) for e in out if e.name not in ("Note", "%%!R"))
        return out

    # -- the board ----------------------------------------------------------
    def read(self) -> Board:
        b = self.board
        entries = self.resolve(self.given if self.given is not None else self.entries())
        by_name: dict[str, Entry] = {}
        for e in reversed(entries):
            by_name[e.name] = e  # the first of a name wins
        board_tag = by_name.get("Board")
        if board_tag is not None and not board_tag.inherited:
            self.line = board_tag.line
        else:
            first_tag = next((e for e in entries if not e.inherited), None)
            self.line = first_tag.line if first_tag is not None else self.first_line + 1
        last_section: str | None = None
        auction_notes: dict[int, str] = {}
        for e in entries:
            name, value = e.name, e.value
            if name == "Note":
                m = re.match(r"\s*(\d+)\s*:(.*)$", value, re.S)
                if m is None:
                    self.problem(e.line, error("pbn.bad-note", f"note {value!r} does not start with a number and ':'"))
                    continue
                n, text = int(m.group(1)), m.group(2).lstrip(" ")
                if last_section == "Auction":
                    auction_notes[n] = text
                else:
                    b.tags[f"Note:{n}"] = text
                continue
            last_section = name if name in ("Auction", "Play") else None
            if name not in MODELLED and name != "%%!R":
                b.tags[name] = value
                if e.words:
                    b.tags[f"{name}:section"] = section_text(e)
                self.check_tag(e)
        # identification
        self.read_identification(by_name)
        self.read_dd(by_name)
        if "Auction" in by_name:
            self.read_auction(by_name["Auction"], auction_notes)
        elif auction_notes:
            for n, text in auction_notes.items():
                b.tags[f"Note:{n}"] = text
        if "Play" in by_name:
            self.read_play(by_name["Play"])
        if "Result" in by_name:
            self.read_result(by_name["Result"])
        if self.claimed and b.result is not None:
            b.claim = b.result
        return b

    def read_identification(self, by_name: dict[str, Entry]) -> None:
        b = self.board
        e = by_name.get("Board")
        if e is not None and e.value not in ("", "?"):
            too_big = board_number_problem(e.value) if e.value.isdigit() else None
            if too_big:
                self.problem(e.line, error("pbn.bad-board-number", too_big))
                b.tags["Board"] = e.value
            elif e.value.isdigit():
                b.number = int(e.value)
            else:
                self.problem(e.line, error("pbn.bad-board-number", f"board number {e.value!r} is not a number"))
                b.tags["Board"] = e.value
        e = by_name.get("Dealer")
        if e is not None and e.value not in ("", "?"):
            seat = SEATS.get(e.value.upper())
            if seat is None:
                self.problem(e.line, error("pbn.bad-dealer", f"dealer {e.value!r} is not N, E, S or W"))
                b.tags["Dealer"] = e.value
            b.dealer = seat
        e = by_name.get("Vulnerable")
        if e is not None and e.value not in ("", "?"):
            try:
                vul = _VULS.get(e.value)
                if vul is None:
                    vul = _VULS[e.value] = Vulnerability.from_text(e.value)
                b.vulnerability = vul
            except ValueError:
                self.problem(
                    e.line, error("pbn.bad-vulnerability", f"vulnerability {e.value!r} is not None, NS, EW or All")
                )
                b.tags["Vulnerable"] = e.value
        e = by_name.get("Deal")
        if e is not None and e.value not in ("", "?"):
            try:
                b.deal = Deal.from_pbn(e.value)
            except ValueError as err:
                self.problem(e.line, error("pbn.bad-deal", f"deal: {err}"))
                b.tags["Deal"] = e.value
        e = by_name.get("Declarer")
        if e is not None and e.value not in ("", "?"):
            v = e.value[1:] if e.value.startswith("^") else e.value  # ^ marks an irregular declarer
            seat = SEATS.get(v.upper())
            if seat is None:
                self.problem(e.line, error("pbn.bad-declarer", f"declarer {e.value!r} is not N, E, S or W"))
                b.tags["Declarer"] = e.value
            b.declarer = seat
        e = by_name.get("Contract")
        if e is not None and e.value.upper() in ("C", "D", "H", "S", "NT", "N"):
            b.tags["Contract"] = e.value  # an end position names only the trump suit (PBN 3.10)
        elif e is not None and e.value not in ("", "?"):
            try:
                contract = _CONTRACTS.get(e.value)
                if contract is None:
                    contract = _parse_contract(e.value)
                    if len(_CONTRACTS) < 1000:
                        _CONTRACTS[e.value] = contract
                b.contract = contract
                if e.value.rstrip().upper().endswith("R"):
                    self.problem(
                        e.line,
                        warning(
                            "pbn.contract-r-for-redoubled",
                            f"contract {e.value!r} writes R for redoubled; read as {contract}",
                        ),
                    )
            except ValueError:
                self.problem(e.line, error("pbn.bad-contract", f"contract {e.value!r} is not a contract"))
                b.tags["Contract"] = e.value

    def read_result(self, e: Entry) -> None:
        b = self.board
        v = e.value.strip()
        if v in ("", "?"):
            return
        if v.isdigit():
            n = int(v)
        else:
            m = _RESULT_SIDE.fullmatch(v)
            contract, declarer = b.contract_and_declarer()
            if m is None or declarer is None:
                self.problem(e.line, error("pbn.bad-result", f"result {v!r} is not a number of tricks"))
                b.tags["Result"] = v
                return
            n = int(m.group(2))
            if (m.group(1) == "NS") != declarer.is_ns:
                n = 13 - n
        if n > 13:
            self.problem(e.line, error("pbn.bad-result", f"result {n} is more than 13 tricks"))
            b.tags["Result"] = v
            return
        b.result = n

    # -- double dummy -----------------------------------------------------------
    def read_dd(self, by_name: dict[str, Entry]) -> None:
        tables: list[tuple[str, int, DDTable]] = []
        e = by_name.get("OptimumResultTable")
        if e is not None:
            dd, err = pbn_dd.parse_result_table(e.value, e.words)
            if err:
                self.problem(e.line, error("pbn.bad-dd-table", err))
            elif dd is not None:
                tables.append(("OptimumResultTable", e.line, dd))
        e = by_name.get("DoubleDummyTricks")
        if e is not None and e.value not in ("", "?"):
            dd = pbn_dd.parse_hex20(e.value, pbn_dd.BC_SEATS)
            if dd is None:
                self.problem(e.line, error("pbn.bad-dd-table", f"DoubleDummyTricks {e.value!r} is not 20 hex digits"))
            else:
                tables.append(("DoubleDummyTricks", e.line, dd))
        e = by_name.get("%%!R")
        if e is not None:
            dd = pbn_dd.parse_hex20(e.value, pbn_dd.PSBRIDGE_SEATS)
            if dd is None:
                self.problem(e.line, error("pbn.bad-dd-table", f"%%!R {e.value!r} is not 20 hex digits"))
            else:
                tables.append(("%%!R", e.line, dd))
        if not tables:
            return
        merged = tables[0][2]
        for name, line, dd in tables[1:]:
            diff = merged.differences(dd)
            if diff:
                seat, strain, a, b = diff[0]
                self.problem(
                    line,
                    error(
                        "pbn.dd-tables-disagree",
                        f"{name} disagrees with {tables[0][0]}: {seat.letter} {strain.letter} {b} vs {a}",
                    ),
                )
            merged = pbn_dd.merged(merged, dd)  # a partial table is completed by the others
        self.board.dd = merged

    # -- auction ----------------------------------------------------------------
    def read_auction(self, e: Entry, notes: dict[int, str]) -> None:
        b = self.board
        seat = SEATS.get(e.value.upper()) if e.value else None
        if seat is None:
            if e.value not in ("", "?"):
                self.problem(e.line, error("pbn.bad-auction-seat", f"auction seat {e.value!r} is not N, E, S or W"))
            seat = b.dealer
        calls: list[Call] = []
        leading = 0
        plus = after_plus = False
        gap = False
        unknown_notes: set[int] = set()  # each missing note is reported once, at its first reference
        for i, tok in enumerate(e.words):
            if self._auction_annotation(tok, e.wlines[i], calls, notes, unknown_notes):
                continue
            if plus:
                if not after_plus:
                    self.problem(
                        e.wlines[i],
                        error("pbn.call-after-plus", f"call {tok} after '+' (the auction was marked as continuing)"),
                    )
                after_plus = True
                continue
            if tok == "+":
                plus = True
                continue
            if tok == "-":
                if calls:
                    gap = True
                else:
                    leading += 1
                continue
            if tok == "*":
                continue
            up = tok.upper()
            if up == "AP":
                if gap:
                    self.problem(e.wlines[i], error("pbn.ap-after-gap", "AP after a '-' gap in the auction"))
                while not auction_is_complete(calls):
                    calls.append(PASS)
                continue
            call, suffix = _marked_token(CALL_TOKENS, up)
            if call is None:
                # Dropping the token would hand every later call to the wrong player: stop here,
                # and keep the unread rest so PBN writes it back and conversions report it.
                self.problem(e.wlines[i], error("pbn.unreadable-call", unread_auction_problem(tok, len(calls))))
                b.tags[AUCTION_REST] = " ".join(e.words[i:])
                break
            if gap:
                self.problem(
                    e.wlines[i], error("pbn.call-after-gap", f"call {tok} after a '-' (no call) in the auction")
                )
                gap = False
            calls.append(call.annotated(mark=suffix) if suffix else call)
        self._auction_dealer(e, seat, leading, calls)
        used = {c.note for c in calls if c.note is not None}
        for n, text in notes.items():
            if n not in used:
                b.tags[f"Note:{n}"] = text
        b.auction = calls

    def _auction_annotation(
        self, tok: str, line: int | None, calls: list[Call], notes: dict[int, str], unknown_notes: set[int]
    ) -> bool:
        """A note reference (``=1=``) or a mark (``$1``, ``^a``, ``!``...) belongs to the call before it:
        attach it and say True; False for any other token."""
        if tok[0] == "=" and _NOTE_REF.match(tok):
            n = int(tok[1:-1])
            if calls:
                last = calls[-1]
                if last.note is None:
                    calls[-1] = last.annotated(note=n, explanation=notes.get(n))
                else:
                    calls[-1] = last.annotated(mark=_join(last.mark, tok))
            if n not in notes and n not in unknown_notes:
                unknown_notes.add(n)
                self.problem(
                    line, error("pbn.note-missing", f'note {n} is referred to but there is no [Note "{n}:..."]')
                )
            return True
        if tok[0] == "$" or tok[0] == "^" or tok in ("!", "?", "!!", "??", "!?", "?!"):
            if calls:
                calls[-1] = calls[-1].annotated(mark=_join(calls[-1].mark, tok))
            return True
        return False

    def _auction_dealer(self, e: Entry, seat: Seat | None, leading: int, calls: list[Call]) -> None:
        """The first caller (the section's seat after ``leading`` '-' calls) is the dealer: set it when the
        board has none, report it when it disagrees."""
        b = self.board
        if seat is None:
            return
        first = Seat((seat + leading) % 4)
        if b.dealer is None:
            b.dealer = first
        elif first != b.dealer and calls:
            self.problem(
                e.line,
                error(
                    "pbn.auction-dealer-mismatch",
                    f"the auction starts with {first.letter} but the dealer is {b.dealer.letter}",
                ),
            )

    # -- play -------------------------------------------------------------------
    def read_play(self, e: Entry) -> None:
        b = self.board
        leader0 = SEATS.get(e.value.upper()) if e.value else None
        if leader0 is None:
            if e.value not in ("", "?"):
                self.problem(e.line, error("pbn.bad-play-seat", f"play seat {e.value!r} is not N, E, S or W"))
            if e.words:
                self.problem(e.line, error("pbn.play-without-leader", "the play cannot be read without its leader"))
            return
        contract, declarer = b.contract_and_declarer()
        if declarer is None:
            b.declarer = declarer = Seat((leader0 + 3) % 4)
        elif (declarer + 1) % 4 != leader0:
            self.problem(
                e.line,
                error(
                    "pbn.play-leader-mismatch",
                    f"the play starts with {leader0.letter} but declarer {declarer.letter}'s "
                    f"left-hand opponent is {Seat((declarer + 1) % 4).letter}",
                ),
            )
        trump = play_trump(b)
        if self.fast_play(e.words, int(leader0), int(trump)):
            return
        slots = self._play_slots(e)
        play: list[Card] = []
        marks: dict[int, str] = {}
        leader = leader0
        stopped: str | None = None  # "+" or "-" once the play stops
        plus_seen = False
        for t in range(0, len(slots), 4):
            row = slots[t : t + 4]
            trick: list[Card] = []
            for j in range(4):
                col = (leader - leader0 + j) % 4
                slot = row[col] if col < len(row) else None
                if slot is None:  # a trick cut short: as a "-"
                    stopped = stopped or "-"
                    continue
                tok = slot[0]
                if tok == "+":
                    if plus_seen:
                        self.problem(slot[2], error("pbn.plus-twice", "'+' appears more than once in the play"))
                    plus_seen = True
                    stopped = stopped or "+"
                    continue
                if tok == "-":
                    stopped = stopped or "-"
                    continue
                if stopped is not None:
                    why = (
                        "after '+' (the play was marked as continuing)"
                        if stopped == "+"
                        else "after a card shown as '-' (unknown)"
                    )
                    self.problem(
                        slot[2], error("pbn.card-after-stop", f"card {tok} {why}; the play is read up to there")
                    )
                    continue
                if slot[1]:
                    marks[len(play)] = slot[1]
                play.append(tok)
                trick.append(tok)
            if len(trick) == 4:
                leader = trick_winner(trick, leader, trump)
            elif stopped is None:
                stopped = "-"
        b.play = play
        b.play_marks = marks

    def _play_slots(self, e: Entry) -> list[list[Any]]:
        """The play section's tokens in column order as ``[card | "-" | "+", marks, line]``, each mark joined
        to the card before it; tokens after ``*`` and unreadable cards are reported (a bad card holds its
        place as "-")."""
        slots: list[list[Any]] = []  # [card or "-" or "+", marks, line]
        ended = False
        for tok, line in zip(e.words, e.wlines, strict=True):
            if tok[0] == "=" and _NOTE_REF.match(tok) or tok[0] == "$" or tok[0] == "^" or _SUFFIX.fullmatch(tok):
                if slots:
                    slots[-1][1] = _join(slots[-1][1], tok)
                continue
            if ended:
                self.problem(line, error("pbn.after-claim", f"{tok} after '*' (the play was claimed or ended)"))
                continue
            if tok == "*":
                ended = True
                self.claimed = True
                continue
            if tok in ("-", "+", "--"):
                slots.append([tok[0], "", line])
                continue
            card, suffix = _marked_token(CARD_TOKENS, tok)
            if card is None:
                self.problem(line, error("pbn.unreadable-card", f"{tok!r} is not a card"))
                slots.append(["-", "", line])
                continue
            slots.append([card, suffix, line])
        return slots

    def fast_play(self, words: list[str], leader0: int, trump: int) -> bool:
        """The common case, whole tricks of plain cards (and perhaps ``*``), without the
        general machinery; False when the section needs the careful reader."""
        found = list(map(CARD_TOKENS.get, words))
        claimed = bool(words) and words[-1] == "*"
        if claimed:
            found.pop()
        if len(found) % 4 or None in found:
            return False
        cards = cast("list[Card]", found)  # no None, as just checked
        play: list[Card] = []
        leader = leader0
        for k in range(0, len(cards), 4):
            off = (leader - leader0) % 4
            trick = cards[k + off : k + 4] + cards[k : k + off]
            play.extend(trick)
            best = trick[0]
            bj = 0
            for j in (1, 2, 3):
                c = trick[j]
                if c // 13 == best // 13:
                    if c > best:
                        best, bj = c, j
                elif c // 13 == trump:
                    best, bj = c, j
            leader = (leader + bj) % 4
        self.board.play = play
        self.claimed = claimed
        return True

    def check_tag(self, e: Entry) -> None:
        rubber = check_tag(e, self.problem)  # tags we do not model (their problems are warnings)
        if rubber is not None:
            self.rubber_vul, self.rubber_line = rubber, e.line

    def finish(self) -> None:
        """Checks that need the whole game."""
        b = self.board
        if self.rubber_vul is not None and b.vulnerability is not None and self.rubber_vul != b.vulnerability:
            self.problem(
                self.rubber_line,
                error(
                    "pbn.rubber-vulnerability-mismatch",
                    f"Vulnerable is {b.vulnerability.text} but ScoreRubberHistory makes it {self.rubber_vul.text}",
                ),
            )


def _parse_contract(text: str) -> Contract:
    """A Contract tag value; ``4SR`` (R for redoubled, as some programs write) is ``4SXX``."""
    t = text.strip()
    if len(t) > 2 and t[-1] in "Rr" and t[-2] not in "Xx":
        t = t[:-1] + "XX"
    return Contract.parse(t)


def play_trump(b: Board) -> Strain:
    """The trump suit the play is replayed with: the contract's, an end
    position's ``[Contract "H"]``, else notrump."""
    contract, _declarer = b.contract_and_declarer()
    if contract is not None and not contract.is_passed_out:
        return contract.bid_strain
    only = b.tags.get("Contract", "").upper()
    if only in ("C", "D", "H", "S", "NT", "N"):
        return Strain.from_text(only)
    return Strain.NOTRUMP


def _join(a: str, b: str) -> str:
    return f"{a} {b}" if a else b


def read_game(game: Game, ctx: Context, fast: bool = True) -> tuple[Board, list[tuple[int | None, str]], int]:
    """The board of one game, its problems ``(line, message)`` and the line it is reported at.

    ``fast``: try the fast path first (:mod:`.fast`); without it every game is read carefully (the
    tests compare the two)."""
    hit = read_fast(game.raw, game.first_line, ctx) if fast else None
    if hit is not None:
        return hit
    simple = simple_entries(game.raw, game.first_line)
    entries = simple[0] if simple is not None else None
    r = GameReader(game if entries is None else None, ctx, game.first_line, entries)
    if simple is not None:
        r.more_problems = simple[1]  # repeats of a tag past the first hundred: counted, not read
    try:
        board = r.read()
        r.finish()
    except Exception as e:  # a reader bug must not lose the file: keep the raw text, say what failed
        board = r.board
        r.problem(r.line, error("pbn.internal-error", f"could not read this game ({describe(e)})"))
    if r.more_problems:
        r.problems.append((r.line, error("pbn.more-problems", f"… and {r.more_problems:,} more problems in this game")))
    return board, r.problems, r.line


_T = TypeVar("_T")


def _marked_token(table: Mapping[str, _T], tok: str) -> tuple[_T | None, str]:
    """What ``tok`` names in ``table`` (a call or a card), and its suffix mark (``1S!`` -> 1S, "!"); None if none."""
    value = table.get(tok)
    if value is not None:
        return value, ""
    m = _SUFFIX.search(tok)
    if m is None:
        return None, ""
    return table.get(tok[: m.start()]), m.group(0)


class PbnSource(NamedTuple):
    """A board's raw game text (original line ends) and the model it was read as.

    ``inherits``: the text takes or sets ``#``/``##`` values, so it means the
    same only after the same games as in the file it came from.  A named tuple,
    not a dataclass: one is made for every board read, and a tuple is made
    several times faster.
    """

    text: str
    key: tuple[object, ...]
    inherits: bool = False


def known_field(value: str | None) -> str | None:
    """A file-level field, or None for PBN's "unknown" placeholders (``?``, ``#``, ``????.??.??``)."""
    return value if value and value.strip("?.#- ") else None
