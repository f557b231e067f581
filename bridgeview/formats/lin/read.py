"""BBO's LIN read: ``key|value|`` pairs to boards (hand records, vugraph files, the text of handviewer links).

LIN is a flat run of ``key|value|`` pairs with two-letter keys; line breaks
between pairs mean nothing.  A board starts at ``qx`` (vugraph and tournament
files) or, in files without ``qx``, at the ``pn``/``st`` run before each
``md``.  What we model goes into :class:`Board`; keys we do not model are kept
as raw LIN in the ``LinExtra`` tag so saving loses little.  Interpretations
are documented in ``docs/formats.md`` (BBO LIN).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from ...model.auction import DOUBLE, PASS, REDOUBLE, Call, Contract
from ...model.board import UNREADABLE_RECORD, Board, board_number_problem
from ...model.boardset import BoardSet, FileInfo
from ...model.cards import CARDS, RANK_CHARS, SUIT_LETTERS, Card, Seat, Strain
from ...model.deal import HOLDINGS, Deal, holding
from ...model.play import legal_play_tricks
from ...model.problem import Problem, error, warning
from ...model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board
from ..codec import (
    ReadOptions,
)
from ..errors import FormatError, explain
from .tokens import Tokens, scan, snippet

#: LIN lists hands South, West, North, East; the dealer digit counts 1=S 2=W 3=N 4=E.
LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
PLAYER_TAGS = ("South", "West", "North", "East")
VUL_LETTERS = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.ALL: "b"}
#: keys that describe the whole file wherever they appear
FILE_KEYS = frozenset({"vg", "rs", "pw", "mp", "bn"})
#: keys that may precede ``md`` at the start of a board in files without ``qx``
LEAD_KEYS = frozenset({"pn", "st"})
EXTRA_TAG = "LinExtra"
ROOM_TAG = "Room"
TITLE_TAG = "Title"
#: where each ``nt`` comment stood: "calls,cards" before it, one entry per note, ";"-separated
NOTE_AT_TAG = "LinNoteAt"
#: tags this codec writes itself; any other tag is a loss when saving as LIN
OWN_TAGS = frozenset({*PLAYER_TAGS, EXTRA_TAG, ROOM_TAG, TITLE_TAG, NOTE_AT_TAG})

# board numbers of at most nine digits: longer ones are not numbers a user means (and Python
# refuses to convert a 5,000-digit string), so they read as text not understood
_BOARD_TITLE = re.compile(r"\s*board\s*(\d+)\s*", re.IGNORECASE)
QX_VALUE = re.compile(r"\s*([A-Za-z]?)\s*(\d+)\s*")
_RS = re.compile(r"([1-7])(NT|[CDHSN])([NESW]?)(X{0,2})(?:(=)|([+-])(\d{1,2}))?", re.IGNORECASE)


@dataclass
class Token:
    """One ``key|value|`` pair and the line it starts on."""

    key: str
    value: str
    line: int


#: a board's pairs: indices into the file's :class:`Tokens` (a range, or a list when pairs were moved or taken out)
Group = range | list[int]


# -- tokenising ---------------------------------------------------------------
def tokenize(text: str) -> tuple[list[Token], list[str]]:
    """Split LIN text into tokens; ``%`` lines between pairs are comments (returned apart)."""
    toks = scan(text)
    line = toks.line
    return [Token(k, v, line(i)) for i, (k, v) in enumerate(zip(toks.keys, toks.values, strict=True))], toks.comments


def flat_text(text: str) -> str:
    """A text value on one line: a line break inside it counts as a space."""
    if "\n" not in text and "\r" not in text:
        return text
    return re.sub(r"\s*[\r\n]+\s*", " ", text)


def split_boards(toks: Tokens) -> tuple[list[int], list[Group]]:
    """File-level pairs, and the pairs of each board in file order (as indices into ``toks``)."""
    keys = toks.keys
    n = len(keys)
    header: list[int] = []
    groups: list[Group] = []
    if "qx" in keys:
        first_qx = keys.index("qx")
        current: Group | None = None
        if "md" in keys[:first_qx]:  # boards without qx before the first qx'd one
            current = [i for i in range(first_qx) if keys[i] not in FILE_KEYS]
            groups.append(current)
            header = [i for i in range(first_qx) if keys[i] in FILE_KEYS]
        else:
            header = list(range(first_qx))
        pos = first_qx
        while pos < n:
            try:
                nxt = keys.index("qx", pos + 1)
            except ValueError:
                nxt = n
            # a pn/st after the previous board's deal belongs to the board that follows it
            # (GIB match records write ``pn|…|qx|…|md|…``)
            moved: list[int] = []
            if current is not None and _has_md(keys, current):
                cut = len(current)
                while cut and keys[current[cut - 1]] in LEAD_KEYS:
                    cut -= 1
                if cut < len(current):
                    moved = list(current[cut:])
                    groups[-1] = current = current[:cut]
            rest: Group = range(pos + 1, nxt)
            if not FILE_KEYS.isdisjoint(keys[pos + 1 : nxt]):
                header.extend(i for i in rest if keys[i] in FILE_KEYS)
                rest = [i for i in rest if keys[i] not in FILE_KEYS]
            current = range(pos, nxt) if not moved and isinstance(rest, range) else [pos, *moved, *rest]
            groups.append(current)
            pos = nxt
    else:
        body: Group = range(n)
        if not FILE_KEYS.isdisjoint(keys):
            header = [i for i in range(n) if keys[i] in FILE_KEYS]
            body = [i for i in range(n) if keys[i] not in FILE_KEYS]
        if body:
            if not _has_md(keys, body):
                raise FormatError("no deal (md) and no board (qx) in this LIN text", line=toks.line(body[0]))
            groups = [body]
    out: list[Group] = []
    for g in groups:
        out.extend(_split_at_deals(keys, g))
    return header, out


def _has_md(keys: list[str], group: Group) -> bool:
    if isinstance(group, range):
        return "md" in keys[group.start : group.stop]
    return any(keys[i] == "md" for i in group)


def _split_at_deals(keys: list[str], group: Group) -> list[Group]:
    """Split a run of pairs holding several ``md`` into boards; each later board
    starts at the ``pn``/``st`` pairs just before its ``md``."""
    if isinstance(group, range):  # the usual case: find each md with list.index, and cut ranges
        a, b = group.start, group.stop
        cuts = [a]
        try:
            pos = keys.index("md", a, b) + 1
            while True:
                start = keys.index("md", pos, b)
                pos = start + 1
                while start - 1 > cuts[-1] and keys[start - 1] in LEAD_KEYS:
                    start -= 1
                cuts.append(start)
        except ValueError:
            pass
        cuts.append(b)
        return [range(x, y) for x, y in zip(cuts, cuts[1:], strict=False) if y > x]
    cuts = [0]
    seen_md = False
    for i, t in enumerate(group):
        if keys[t] != "md":
            continue
        if seen_md:
            start = i
            while start - 1 > cuts[-1] and keys[group[start - 1]] in LEAD_KEYS:
                start -= 1
            cuts.append(start)
        seen_md = True
    cuts.append(len(group))
    return [group[x:y] for x, y in zip(cuts, cuts[1:], strict=False) if y > x]


# -- values -------------------------------------------------------------------
def parse_md(value: str) -> tuple[Seat | None, Deal, int]:
    """``md`` value → (dealer or None, deal, number of hands given).

    Raises ValueError on bad syntax, a card twice, or a hand of more than 13 cards.
    A fourth hand left out is completed when the other three hold 13 cards each.
    """
    text = value.strip()
    dealer: Seat | None = None
    if text[:1].isdigit():
        digit = int(text[0])
        if digit > 4:
            raise ValueError(f"dealer digit {digit} is not 1-4")
        dealer = LIN_SEATS[digit - 1] if digit else None
        text = text[1:]
    parts = text.split(",")
    while len(parts) > 4 and not parts[-1].strip():
        parts.pop()
    if len(parts) > 4:
        raise ValueError(f"md has {len(parts)} hands, at most 4 allowed")
    hands = [0, 0, 0, 0]
    seen = 0
    given = 0
    for i, part in enumerate(parts):
        seat = LIN_SEATS[i]
        mask = _plain_hand(part)
        if mask < 0:
            mask = _parse_hand(part, seat)
        if mask & seen:
            dup = " ".join(str(CARDS[c]) for c in range(52) if (mask & seen) >> c & 1)
            raise ValueError(f"{dup} in more than one hand")
        seen |= mask
        hands[seat] = mask
        given += 1 if part.strip() else 0
    counts = [h.bit_count() for h in hands]
    empty = [s for s in range(4) if counts[s] == 0]
    if len(empty) == 1 and sum(counts) == 39:
        hands[empty[0]] = ((1 << 52) - 1) & ~seen
    return dealer, Deal.from_masks(hands), given


#: a hand written the plain way: the four suits in order, upper-case ranks
_PLAIN_HAND = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)")


def _plain_hand(text: str) -> int:
    """The mask of a hand written the usual way (``SAK2HQ3D…C…``) through a table of holdings; -1 for any
    other spelling, a repeated rank or too many cards, which :func:`_parse_hand` reads or explains."""
    if not text:
        return 0
    m = _PLAIN_HAND.fullmatch(text)
    if m is None:
        return -1
    get = HOLDINGS.get
    mask = 0
    for ranks in m.groups():  # spades first: each suit's 13 bits below the one before
        held = get(ranks)
        if held is None:
            held = holding(ranks)
        if held < 0:
            return -1
        mask = mask << 13 | held
    return mask if mask.bit_count() <= 13 else -1


def _parse_hand(text: str, seat: Seat) -> int:
    mask = 0
    suit: int | None = None
    t = text.strip().upper().replace("10", "T")
    for ch in t:
        if ch in SUIT_LETTERS:
            suit = SUIT_LETTERS.index(ch)
            continue
        if ch.isspace():
            continue
        r = RANK_CHARS.find(ch)
        if r < 0:
            raise ValueError(f"bad rank or suit {ch!r} in {seat.name.lower()}'s hand {snippet(text, 30)!r}")
        if suit is None:
            raise ValueError(f"rank {ch!r} before any suit letter in {seat.name.lower()}'s hand {snippet(text, 30)!r}")
        bit = 1 << (13 * suit + r)
        if mask & bit:
            raise ValueError(f"{SUIT_LETTERS[suit]}{ch} twice in {seat.name.lower()}'s hand")
        mask |= bit
    if mask.bit_count() > 13:
        raise ValueError(f"{seat.name.lower()}'s hand has {mask.bit_count()} cards")
    return mask


def parse_call(value: str) -> Call:
    """``mb`` value → Call; ``!`` marks an alert.  Raises ValueError."""
    v = value.strip()
    alert = "!" in v
    v = v.replace("!", "").strip().upper()
    if v in ("P", "PASS"):
        call = PASS
    elif v in ("D", "X", "DBL"):
        call = DOUBLE
    elif v in ("R", "XX", "RDBL"):
        call = REDOUBLE
    else:
        call = Call.parse(v)
    return call.annotated(alert=True) if alert else call


_PACKED = re.compile(r"(?:[1-7](?:NT|[CDHSN])|[PDRX])!?", re.IGNORECASE)
_PACKED_RUN = re.compile(rf"(?:{_PACKED.pattern})+", re.IGNORECASE)


def parse_calls(value: str) -> list[Call]:
    """``mb`` value → its calls: one call, or several packed together as some BBO
    lesson files write them (``1nppp`` = 1NT, pass, pass, pass).  Raises ValueError."""
    try:
        return [parse_call(value)]
    except ValueError:
        v = value.strip()
        if not _PACKED_RUN.fullmatch(v):
            raise
        return [parse_call(m.group(0)) for m in _PACKED.finditer(v)]


def parse_rs(text: str) -> tuple[Contract, Seat | None, int | None] | None:
    """One ``rs`` entry (``4HE=``, ``3NW+1``, ``4SWx-4``, ``P``) → contract, declarer, tricks.
    None for an empty entry; ValueError when not understood."""
    t = text.strip()
    if not t:
        return None
    if t.upper() in ("P", "PASS", "AP", "PO", "PASSED", "ALL PASS"):
        return Contract.passed_out(), None, None
    m = _RS.fullmatch(t)
    if not m:
        raise ValueError(f"result {t!r} not understood")
    level = int(m.group(1))
    contract = Contract(level, Strain.from_text(m.group(2)), len(m.group(4)))
    declarer = Seat.from_letter(m.group(3)) if m.group(3) else None
    tricks: int | None = None
    if m.group(5):
        tricks = 6 + level
    elif m.group(6):
        diff = int(m.group(7))
        tricks = 6 + level + (diff if m.group(6) == "+" else -diff)
        if not 0 <= tricks <= 13:
            raise ValueError(f"result {t!r} means {tricks} tricks")
    return contract, declarer, tricks


def implied_result(board: Board) -> int | None:
    """Declarer's tricks as a LIN record implies them: the claim, else a complete legal play."""
    if board.claim is not None:
        return board.claim
    if board.play and len(board.play) == 52:
        contract, declarer = board.contract_and_declarer()
        if contract is not None and declarer is not None and not contract.is_passed_out:
            return legal_play_tricks(board.deal.hands, board.play, int(declarer), contract.strain)
    return None


def needs_rs(board: Board) -> bool:
    """True when reading the board back without ``rs`` would give another contract, declarer or result
    (those a LIN board implies come from its auction, play and claim)."""
    if board.contract is None and board.declarer is None and board.result is None:
        return False
    bare = board.copy(contract=None, declarer=None, result=None)
    return (board.contract_and_declarer(), board.result) != (bare.contract_and_declarer(), implied_result(bare))


# -- reading ------------------------------------------------------------------
@dataclass
class ReadContext:
    problems: list[tuple[int | None, int | None, str]] = field(default_factory=list)
    header_players: list[str] | None = None
    start_board: int | None = None


def parse_text(text: str, options: ReadOptions | None = None) -> BoardSet:
    """LIN text → BoardSet; FormatError (with line and board) on input that cannot be read."""
    options = options or ReadOptions()
    toks = scan(text)
    header, groups = split_boards(toks)
    keys, values = toks.keys, toks.values
    info = FileInfo()
    ctx = ReadContext(start_board=options.start_board)
    if toks.comments:
        info.extra["lin_comments"] = toks.comments
    vg: list[str] | None = None
    rs: list[str] | None = None
    header_extra: list[tuple[str, str]] = []
    for i in header:
        key, value = keys[i], values[i]
        if key == "vg":
            vg = flat_text(value).split(",")
            info.extra["lin_vg"] = vg
            if vg[0].strip():
                info.event = vg[0].strip()
        elif key == "rs":
            rs = value.split(",")
            info.extra["lin_rs"] = True
        elif key == "pn":
            ctx.header_players = flat_text(value).split(",")
        elif key == "pg" and not value.strip():
            continue
        else:
            header_extra.append((key, value))
    if header_extra:
        info.extra["lin_header"] = header_extra
    boards: list[Board] = []
    lines: dict[int, int] = {}
    for index, group in enumerate(groups):
        lines[index] = toks.line(group[0])
        boards.append(parse_board(toks, group, index, ctx))
    info.extra["board_lines"] = lines
    if not any(b.tags.get(ROOM_TAG) == "Closed" for b in boards):
        for b in boards:  # with one room only, the room says nothing
            if b.tags.get(ROOM_TAG) == "Open":
                del b.tags[ROOM_TAG]
    if rs is not None:
        _apply_results(boards, rs, vg, lines, ctx)
    if boards and all(b.unreadable for b in boards):  # nothing readable: not a damaged file but no LIN at all
        raise nothing_readable(boards[0], [(line, msg) for i, line, msg in ctx.problems if i == 0])
    for b in boards:
        if b.result is None:
            b.result = implied_result(b)
    doc = BoardSet(boards, info)
    doc.problems.extend(Problem(*p) for p in ctx.problems)
    return doc


def nothing_readable(first: Board, problems: Iterable[tuple[int | None, str]]) -> FormatError:
    """The error of a LIN text whose every board cannot be read (no damaged file, but no LIN at all): the first
    board's, at the line its ``problems`` name (``(line, message)``); the lazy reader raises it too."""
    line = next((ln for ln, msg in problems if msg.startswith(UNREADABLE_RECORD)), None)
    return FormatError(str(first.unreadable), line=line, record=1, board=first.number)


@dataclass
class _BoardRead:
    """What one board's pairs have said so far, and where a problem found now is reported."""

    index: int
    ctx: ReadContext
    tokens: Tokens
    at: int  # the pair being read: problems and errors name its line
    b: Board = field(default_factory=Board)
    room: str | None = None
    qx_number: int | None = None
    title_number: int | None = None
    has_md: bool = False
    players: list[str] | None = None
    extra: list[str] = field(default_factory=list)
    note_at: list[tuple[int, int]] = field(default_factory=list)
    played: int = 0  # the cards played so far, as a mask

    def problem(self, message: str) -> None:
        self.ctx.problems.append((self.index, self.tokens.line(self.at), message))


@cache
def _card_table() -> dict[str, Card]:
    """``pc`` values → cards, for every two-letter spelling :meth:`Card.parse` reads (``SA``, ``sa``, ``As``)."""
    table: dict[str, Card] = {}
    for card in CARDS:
        s, r = SUIT_LETTERS[card // 13], RANK_CHARS[card % 13]
        for text in {a + b for a in (s, s.lower()) for b in (r, r.lower())}:
            for spelling in (text, text[::-1]):
                try:
                    if Card.parse(spelling) == card:
                        table[spelling] = card
                except ValueError:
                    pass
    return table


#: ``mb`` values met so far → their calls (values are few: calls, with or without ``!``)
_CALLS: dict[str, tuple[Call, ...]] = {}
_CALLS_MAX = 4096


def _calls_of(value: str) -> tuple[Call, ...]:
    calls = _CALLS.get(value)
    if calls is None:
        calls = tuple(parse_calls(value))
        if len(_CALLS) < _CALLS_MAX:
            _CALLS[value] = calls
    return calls


def parse_board(toks: Tokens, group: Group, index: int, ctx: ReadContext) -> Board:
    """One board from its pairs.  Cards, calls, explanations and empty ``pg`` pairs -- nearly all of a played
    board -- are read inline through tables; every other pair, and any card that is not plain, by its reader.

    A pair that cannot be read (``pc|NT2|``, a malformed ``md``) does not lose the file: the board is read
    on without it (without the play after it, which would be out of step, or any play at all after a bad
    deal) and marked unreadable with the pair's problem, at its line, as record files mark a bad record."""
    keys, values = toks.keys, toks.values
    r = _BoardRead(index, ctx, toks, group[0])
    b = r.b
    card_of = _card_table().get
    dealt = 0  # the cards in the deal read so far
    bad: str | None = None  # the first pair that could not be read
    no_play = False  # after a bad card or deal, later cards are left out
    for i in group:
        key = keys[i]
        try:
            if key == "pc":
                if no_play:
                    continue
                card = card_of(values[i])
                if card is not None and dealt >> card & 1 and not r.played >> card & 1:
                    if b.play is None:
                        b.play = []
                    b.play.append(card)
                    r.played |= 1 << card
                    continue
                r.at = i
                _read_pc(r, values[i])
            elif key == "mb":
                if b.auction is None:
                    b.auction = []
                b.auction.extend(_calls_of(values[i]))
            elif key == "pg" or key == "st" or key == "rh":
                if values[i].strip():
                    r.extra.append(f"{key}|{values[i]}|")
            elif key == "an" and b.auction:
                c = b.auction[-1]
                b.auction[-1] = Call(
                    c.kind, c.level, c.strain, c.alert, flat_text(values[i]).strip() or None, c.mark, c.note
                )
            else:
                r.at = i
                reader = _TOKEN_READERS.get(key)
                if reader is not None:
                    reader(r, values[i])
                    if key == "md":
                        h = b.deal.hands
                        dealt = h[0] | h[1] | h[2] | h[3]
                elif not key:
                    r.problem(
                        warning(
                            "lin.not-a-key",
                            f"text {snippet(values[i], 40)!r} between '|' is not a LIN key; kept as it is",
                        )
                    )
                    r.extra.append(f"{values[i]}|")
                else:
                    r.extra.append(f"{key}|{values[i]}|")
        except ValueError as e:
            no_play = no_play or key in ("pc", "md")
            if bad is None:
                r.at = i
                bad = f"{key}|{snippet(values[i], 40)}|: {explain(e)}"
                r.problem(error("lin.unreadable-board", f"{UNREADABLE_RECORD}{bad}"))
    r.at = group[0]
    board = _finish_board(r)
    if bad is not None:
        board.unreadable = bad
    return board


def _finish_board(r: _BoardRead) -> Board:
    """The board once all its tokens are read: its number (qx, else the title, else counted from the start
    board), dealer and vulnerability from the number where the board has none, room, players, kept tokens."""
    b = r.b
    if not r.has_md:
        r.problem(error("lin.no-deal", "no deal (md) in this board"))
    number = r.qx_number if r.qx_number is not None else r.title_number
    if r.qx_number is not None and r.title_number is not None and r.qx_number != r.title_number:
        r.problem(
            error(
                "lin.board-numbers-differ",
                f"qx says board {r.qx_number} but the title says board {r.title_number}; using {r.qx_number}",
            )
        )
    if number is None and r.ctx.start_board is not None:
        number = r.ctx.start_board + r.index
    b.number = number
    if number is not None:
        if b.dealer is None:
            b.dealer = dealer_for_board(number)
        if b.vulnerability is None:
            b.vulnerability = vulnerability_for_board(number)
    if r.room is not None:
        b.tags[ROOM_TAG] = r.room
    names = r.players if r.players is not None else r.ctx.header_players
    if names is not None:
        base = 4 if len(names) >= 8 and r.room == "Closed" else 0
        for tag, name in zip(PLAYER_TAGS, names[base : base + 4], strict=False):
            if name.strip():
                b.tags[tag] = name.strip()
    if r.extra:
        b.tags[EXTRA_TAG] = "".join(r.extra)
    if any(calls or cards for calls, cards in r.note_at):  # commentary inside the auction or play: keep its place
        b.tags[NOTE_AT_TAG] = ";".join(f"{calls},{cards}" for calls, cards in r.note_at)
    return b


def _read_qx(r: _BoardRead, value: str) -> None:
    """The board id: room letter (o open, c closed) and number."""
    m = QX_VALUE.fullmatch(value.split(",")[0])
    if m:
        letter = m.group(1).lower()
        r.room = {"o": "Open", "c": "Closed", "": None}.get(letter, m.group(1))
        too_big = board_number_problem(m.group(2))
        if too_big:
            r.problem(error("lin.bad-board-id", f"board id qx|{snippet(value, 40)}|: {too_big}; ignored"))
        else:
            r.qx_number = int(m.group(2))
    else:
        r.problem(error("lin.bad-board-id", f"board id qx|{snippet(value, 40)}| not understood; ignored"))


def _read_pn(r: _BoardRead, value: str) -> None:
    r.players = flat_text(value).split(",")


def _read_md(r: _BoardRead, value: str) -> None:
    """The deal and dealer; one per board.  A partial deal (a lesson's ending, one hand shown) is no problem
    in itself, as in PBN: one of more than 48 cards is (``Deal.problems``), and ``check`` says a partial
    deal cannot be dealt."""
    if r.has_md:
        raise ValueError("a second md in one board")
    r.has_md = True  # (a deal that cannot be read is the board's problem, not a missing deal)
    dealer, deal, _ = parse_md(value)
    r.b.deal = deal
    if dealer is not None:
        r.b.dealer = dealer


def _read_sv(r: _BoardRead, value: str) -> None:
    try:
        r.b.vulnerability = Vulnerability.from_text(value)
    except ValueError:
        r.problem(
            error(
                "lin.bad-vulnerability",
                f"vulnerability sv|{snippet(value, 40)}| not understood; taken from the board number",
            )
        )


def _read_ah(r: _BoardRead, value: str) -> None:
    """The board title: "Board N" gives a number; any other title is kept, with a number it names."""
    value = flat_text(value)
    m = _BOARD_TITLE.fullmatch(value)
    too_big = board_number_problem(m.group(1)) if m else None
    if too_big:  # kept as the title, so a save writes it back
        r.problem(error("lin.bad-title", f"title ah|{snippet(value, 40)}|: {too_big}"))
        r.b.tags[TITLE_TAG] = value.strip()
    elif m:
        r.title_number = int(m.group(1))
    elif value.strip():
        r.b.tags[TITLE_TAG] = value.strip()
        m2 = re.search(r"board\s*(\d+)", value, re.IGNORECASE)
        too_big = board_number_problem(m2.group(1)) if m2 else None
        if too_big:
            r.problem(error("lin.bad-title", f"title ah|{snippet(value, 40)}|: {too_big}"))
        r.title_number = int(m2.group(1)) if m2 and not too_big else None


def _read_mb(r: _BoardRead, value: str) -> None:
    if r.b.auction is None:
        r.b.auction = []
    r.b.auction.extend(parse_calls(value))


def _read_an(r: _BoardRead, value: str) -> None:
    """An explanation of the call before it; before any call it is kept as a note."""
    b = r.b
    if b.auction:
        b.auction[-1] = b.auction[-1].annotated(explanation=flat_text(value).strip() or None)
    else:
        r.problem(
            error(
                "lin.early-explanation", f"explanation an|{snippet(value, 40)}| comes before any call; kept as a note"
            )
        )
        b.notes.append(flat_text(value))


def _read_pc(r: _BoardRead, value: str) -> None:
    """A card played: kept even when played twice or not in the deal (reported), so the play stays in step."""
    b = r.b
    card = Card.parse(value)
    if b.play is None:
        b.play = []
    if r.played >> card & 1:
        r.problem(error("lin.card-played-twice", f"card {card} is played twice"))
    elif b.deal.owner(card) is None:
        r.problem(error("lin.card-not-in-deal", f"card {card} is not in the deal"))
    b.play.append(card)
    r.played |= 1 << card


def _read_mc(r: _BoardRead, value: str) -> None:
    try:
        claim = int(value.strip()) if len(value.strip()) <= 9 else -1
    except ValueError:
        claim = -1
    if 0 <= claim <= 13:
        r.b.claim = claim
    else:
        r.problem(error("lin.bad-claim", f"claim mc|{snippet(value, 40)}| is not 0-13 tricks; ignored"))


def _read_nt(r: _BoardRead, value: str) -> None:
    """Commentary, with its place among the calls and cards."""
    r.b.notes.append(flat_text(value))
    r.note_at.append((len(r.b.auction or ()), len(r.b.play or ())))


#: the board tokens parse_board understands; any other is kept as it is
_TOKEN_READERS = {
    "qx": _read_qx,
    "pn": _read_pn,
    "md": _read_md,
    "sv": _read_sv,
    "ah": _read_ah,
    "mb": _read_mb,
    "an": _read_an,
    "pc": _read_pc,
    "mc": _read_mc,
    "nt": _read_nt,
}


def note_places(board: Board) -> list[tuple[int, int]]:
    """Where each note goes as (calls, cards) before it: from ``LinNoteAt`` when it still fits
    the notes, else all at the start of the board."""
    text = board.tags.get(NOTE_AT_TAG, "")
    try:
        places = [(int(a), int(b)) for a, b in (p.split(",") for p in text.split(";"))] if text else []
    except ValueError:
        places = []
    return places if len(places) == len(board.notes) else [(0, 0)] * len(board.notes)


def _apply_results(
    boards: list[Board], rs: list[str], vg: list[str] | None, lines: dict[int, int], ctx: ReadContext
) -> None:
    """Give boards the contract and result of their ``rs`` entries: by board
    number and room when ``vg`` names the first board (BBO's layout), else in order."""
    first: int | None = None
    if vg is not None and len(vg) > 3 and vg[3].strip().isdigit() and len(vg[3].strip()) <= 9:
        first = int(vg[3])
    for i, b in enumerate(boards):
        if first is not None and b.number is not None and b.number >= first:
            pos = 2 * (b.number - first) + (1 if b.tags.get(ROOM_TAG) == "Closed" else 0)
        elif first is None:
            pos = i
        else:
            continue
        if pos >= len(rs):
            continue
        try:
            entry = parse_rs(rs[pos])
        except ValueError as e:
            ctx.problems.append((i, lines.get(i), error("lin.bad-result", f"rs: {e}; ignored")))
            continue
        if entry is not None:
            b.contract, b.declarer, b.result = entry
