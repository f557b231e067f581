"""Generating PBN text for a board from the model (boards that were edited or
came from another format); unmodified PBN boards are written from their source."""

from __future__ import annotations

from ...model.auction import AUCTION_REST, Call, CallKind, Contract
from ...model.board import Board, board_key
from ...model.boardset import FileInfo
from ...model.cards import DISPLAY_SUITS, Seat, ranks_text
from ...model.deal import Deal
from ...model.play import trick_winner
from ..textcheck import is_utf8
from . import dd as pbn_dd
from .lex import escape
from .read import PbnSource, play_trump

ROSTER = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
_HANDLED = frozenset(ROSTER) | {"Auction", "Play", "Note", "OptimumResultTable", "DoubleDummyTricks"}


def tag(name: str, value: str) -> str:
    """A tag line; a line break in the value (from another format) becomes a space."""
    if "\n" in value or "\r" in value:
        value = " ".join(value.splitlines())
    return f'[{name} "{escape(value)}"]\n'


def deal_text(deal: Deal) -> str:
    """``N:`` then four hands; an empty hand of a partial deal is ``-``."""
    parts = []
    for seat in range(4):
        mask = deal.hands[seat]
        parts.append(".".join(ranks_text(mask, s) for s in DISPLAY_SUITS) if mask else "-")
    return "N:" + " ".join(parts)


def call_text(call: Call) -> str:
    if call.kind == CallKind.PASS:
        return "Pass"
    return str(call)


def _split_mark(mark: str) -> tuple[str, list[str]]:
    """A stored mark as (suffix glued to the token, separate tokens such as ``$3``/``=1=``)."""
    suffix = ""
    rest: list[str] = []
    for part in mark.split():
        if not rest and not suffix and part[0] in "!?":
            suffix = part
        else:
            rest.append(part)
    return suffix, rest


def auction_section(board: Board) -> str:
    calls = board.auction or []
    dealer = board.effective_dealer
    out = [tag("Auction", dealer.letter)]
    words: list[str] = []
    notes: list[tuple[int, str]] = []
    used = {c.note for c in calls if c.note is not None}
    next_note = max(used, default=0) + 1
    for c in calls:
        suffix, rest = _split_mark(c.mark)
        words.append(call_text(c) + suffix)
        words.extend(rest)
        n = c.note
        if n is None and c.explanation:
            n, next_note = next_note, next_note + 1
        if n is not None:
            words.append(f"={n}=")
            if c.explanation is not None:
                notes.append((n, c.explanation))
    out.extend(_lines_of_calls(words))
    unread = board.tags.get(AUCTION_REST)
    if unread:  # the words from one that is not a call on, as the file had them
        out.append(unread + "\n")
    for n, text in notes:
        out.append(tag("Note", f"{n}:{text}"))
    return "".join(out)


def _lines_of_calls(words: list[str]) -> list[str]:
    """Four calls a line; annotation tokens stay with their call."""
    lines: list[str] = []
    cur: list[str] = []
    count = 0
    for w in words:
        is_call = w[0] not in "$=^"
        if is_call and count == 4:
            lines.append(" ".join(cur) + "\n")
            cur, count = [], 0
        cur.append(w)
        count += is_call
    if cur:
        lines.append(" ".join(cur) + "\n")
    return lines


def play_section(board: Board) -> str | None:
    """The Play section in seat columns, or None when there is no declarer to order it."""
    contract, declarer = board.contract_and_declarer()
    if declarer is None:
        return None
    trump = play_trump(board)
    leader0 = Seat((declarer + 1) % 4)
    play = board.play or []
    out = [tag("Play", leader0.letter)]
    leader = leader0
    for t in range(0, len(play), 4):
        trick = [int(c) for c in play[t : t + 4]]
        cols: list[str] = ["-"] * 4
        for j, _card in enumerate(trick):
            seat = (leader + j) % 4
            suffix, rest = _split_mark(board.play_marks.get(t + j, ""))
            cols[(seat - leader0) % 4] = " ".join([str(play[t + j]) + suffix, *rest])
        out.append(" ".join(cols) + "\n")
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
    if board.claim is not None:
        out.append("*\n")
    for key, text in board.tags.items():
        if key.startswith("Note:"):
            out.append(tag("Note", f"{key[5:]}:{text}"))
    return "".join(out)


def board_text(board: Board, info: FileInfo | None = None, *, foreign: bool = False) -> str:
    """One game as PBN text with LF line ends (no blank line after it).

    Tags come in PBN's export order (the 15-tag roster, auction, play, the DD
    table), then the board's other tags in the order they were read, then its
    commentary.  ``foreign`` boards (from another format) get every roster tag,
    ``?`` for what is unknown, as PBN export format asks.
    """
    tags = board.tags
    out: list[str] = []
    for name in ROSTER:
        value = _roster_value(board, name, info, foreign)
        if value is not None:
            out.append(tag(name, value))
    if board.auction is not None:
        out.append(auction_section(board))
    if board.play is not None:
        section = play_section(board)
        if section is not None:
            out.append(section)
    elif any(k.startswith("Note:") for k in tags):
        out.extend(tag("Note", f"{k[5:]}:{v}") for k, v in tags.items() if k.startswith("Note:"))
    if board.dd is not None and not board.dd.is_empty:
        # one backslash, as every real file and every other program writes it (not tag()'s escaped form)
        out.append(f'[OptimumResultTable "{pbn_dd.ORT_HEADER}"]\n')
        out.extend(row + "\n" for row in pbn_dd.result_table_rows(board.dd))
    for name, value in tags.items():
        if name in _HANDLED or ":" in name:
            continue
        out.append(tag(name, value))
        section = tags.get(f"{name}:section")
        if section:
            out.append(section + "\n")
    if not out:  # a game needs a tag, or its commentary would join the next game
        out.append(tag("Deal", deal_text(board.deal)))
    for note in board.notes:
        if note.startswith("%"):
            out.append(note + "\n")
        else:
            out.append("{" + _comment_text(note) + "}\n")
    return "".join(out)


def _comment_text(note: str) -> str:
    """Commentary fit for ``{...}``: no ``}``, and no blank line inside (it would end the game)."""
    parts = note.replace("}", ")").split("\n")
    if len(parts) > 2:
        parts = [parts[0], *(p for p in parts[1:-1] if p.strip()), parts[-1]]
    return "\n".join(parts)


def _contract(board: Board, foreign: bool) -> tuple[Contract | None, Seat | None]:
    """The contract and declarer to write: the board's own, or for a board from another format that stores
    none (a LIN record without ``rs``) what its complete auction fixes, which is not unknown."""
    if foreign and board.contract is None:
        return board.contract_and_declarer()
    return board.contract, board.declarer


def _roster_value(board: Board, name: str, info: FileInfo | None, foreign: bool) -> str | None:
    tags = board.tags
    if name in tags:
        return tags[name]
    value: str | None = None
    if name == "Board":
        value = str(board.number) if board.number is not None else None
    elif name == "Dealer":
        value = board.dealer.letter if board.dealer is not None else None
    elif name == "Vulnerable":
        value = board.vulnerability.text if board.vulnerability is not None else None
    elif name == "Deal":
        value = deal_text(board.deal) if board.deal.card_count or foreign else None
    elif name == "Declarer":
        contract, declarer = _contract(board, foreign)
        if declarer is not None:
            value = declarer.letter
        elif contract is not None and contract.is_passed_out:
            value = ""
    elif name == "Contract":
        contract = _contract(board, foreign)[0]
        value = str(contract) if contract is not None else None
    elif name == "Result":
        if board.result is not None:
            value = str(board.result)
        elif board.contract is not None and board.contract.is_passed_out:
            value = ""
    elif name in ("Event", "Site", "Date") and info is not None:
        value = info.header()[name]
    if value is None and foreign:
        value = "?"
    return value


def unchanged_source(b: Board) -> str | None:
    """The raw text of a board still exactly as read, else None."""
    src = b.source
    if isinstance(src, PbnSource) and src.key == board_key(b):
        return src.text
    return None


def header_edits(info: FileInfo) -> dict[str, tuple[str | None, str]]:
    """``{"Event": (old, new)}`` for file-info fields changed since the file was read."""
    before = info.extra.get("header")
    if not before:
        return {}
    out = {}
    for name, old, new in zip(("Event", "Site", "Date"), before, (info.event, info.site, info.date), strict=True):
        if new != old and new is not None:
            out[name] = (old, new)
    return out


def with_header(b: Board, renamed: dict[str, tuple[str | None, str]]) -> Board:
    """The board with an edited event/site/date wherever it carried the old value (or none)."""
    changed = {name: new for name, (old, new) in renamed.items() if (b.tags.get(name) or None) == old}
    if not changed:
        return b
    return b.touched(tags={**b.tags, **changed})


def to_lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def ends_with_blank_line(text: str) -> bool:
    stripped = text.rstrip(" \t")
    return stripped.endswith("\n\n") or stripped.endswith("\n \n") or stripped.endswith("\n\t\n")


def encoding_name(encoding: str) -> str:
    """The codec name a PBN file is written with: ``utf-8`` for any spelling of it."""
    return "utf-8" if is_utf8(encoding) else encoding
