"""Boards written as LIN: a board's ``key|value|`` pairs, its line, and a whole file a line at a time.

What :mod:`.read` reads back: the hands South, West, North, East after the dealer digit, the
auction and the play, notes where they stood, and a ``vg``/``rs`` header only when the file's
event or a result that the auction and play do not imply needs one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...model.auction import DOUBLE, PASS, REDOUBLE, Call, Contract
from ...model.board import Board
from ...model.boardset import is_board_source
from ...model.cards import DISPLAY_SUITS, SUIT_LETTERS, Card, Seat, Strain, ranks_text
from ..errors import FormatError
from .read import (
    EXTRA_TAG,
    LIN_SEATS,
    PLAYER_TAGS,
    ROOM_TAG,
    TITLE_TAG,
    VUL_LETTERS,
    needs_rs,
    note_places,
    tokenize,
)


def call_text(call: Call) -> str:
    """Call → ``mb`` value as BBO writes it (``p``, ``d``, ``r``, ``1N``, ``2H!``)."""
    if call.kind == PASS.kind:
        t = "p"
    elif call.kind == DOUBLE.kind:
        t = "d"
    elif call.kind == REDOUBLE.kind:
        t = "r"
    else:
        t = f"{call.level}{'N' if call.strain == Strain.NOTRUMP else call.bid_strain.letter}"
    return t + ("!" if call.alert else "")


def rs_text(contract: Contract | None, declarer: Seat | None, result: int | None) -> str:
    """Contract, declarer and tricks → an ``rs`` entry."""
    if contract is None:
        return ""
    if contract.is_passed_out:
        return "P"
    strain = "N" if contract.strain == Strain.NOTRUMP else contract.bid_strain.letter
    text = f"{contract.level}{strain}{declarer.letter if declarer is not None else ''}{'x' * contract.risk}"
    if result is not None:
        diff = result - 6 - contract.level
        text += "=" if diff == 0 else f"{diff:+d}"
    return text


# -- writing ------------------------------------------------------------------
def _clean(text: str, comma: bool = False) -> str:
    """A value LIN can hold: no '|' or line breaks (and no ',' inside list items)."""
    text = text.replace("|", "/").replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return text.replace(",", ";") if comma else text


def md_text(board: Board) -> str:
    """The ``md`` value: dealer digit, then the hands South, West, North, East.  A partial deal (a lesson's
    ending, one hand shown) is written as BBO writes it: the hands that hold cards with their cards, an empty
    hand as nothing between its commas."""
    digit = LIN_SEATS.index(board.effective_dealer) + 1
    partial = not board.deal.is_complete
    hands = []
    for seat in LIN_SEATS:
        mask = board.deal.hands[seat]
        if partial and not mask:
            hands.append("")
            continue
        hands.append("".join(SUIT_LETTERS[s] + ranks_text(mask, s) for s in DISPLAY_SUITS))
    return f"{digit}" + ",".join(hands)


def unreadable_deal(board: Board, where: str) -> str | None:
    """Why ``md`` cannot hold ``board``'s cards so that a LIN reader reads them back (ours and BBO's refuse
    the line), or None: a hand of more than 13 cards, or a card in two hands.  A deal that is only partial
    is written as BBO writes one."""
    deal = board.deal
    for seat in LIN_SEATS:
        count = deal.hands[seat].bit_count()
        if count > 13:
            return f"{where}: {seat.name.lower()}'s hand has {count} cards; BBO LIN holds at most 13 a hand"
    if deal.overlap:
        return f"{where} has a card in two hands; BBO LIN holds each card in one hand"
    return None


def board_pairs(board: Board) -> list[tuple[str, str]]:
    """The board as LIN key/value pairs (without ``qx``), as BBO writes a board: ``pn|S,W,N,E|st||md|…|rh||``
    (``pn|,,,|`` when no player is named), ``ah|Board N|``, ``sv``, then the auction and the play."""
    names = [board.tags.get(t, "") for t in PLAYER_TAGS]
    # pn| always, empty names too: other readers (endplay) find a board by its pn|, and read none without
    pairs = [("pn", ",".join(_clean(n, comma=True) for n in names)), ("st", ""), ("md", md_text(board)), ("rh", "")]
    title = board.tags.get(TITLE_TAG)
    if title:
        pairs.append(("ah", _clean(title)))
    elif board.number is not None:
        pairs.append(("ah", f"Board {board.number}"))
    pairs.append(("sv", VUL_LETTERS[board.effective_vulnerability]))
    extra = board.tags.get(EXTRA_TAG)
    if extra:
        try:
            extra_tokens, _ = tokenize(extra)
        except FormatError:
            extra_tokens = []
        pairs += [(t.key, t.value) for t in extra_tokens]
    notes = list(zip(note_places(board), board.notes, strict=True))

    def notes_at(calls: int, cards: int, last: bool = False) -> None:
        while notes and (notes[0][0] <= (calls, cards) or last):
            pairs.append(("nt", _clean(notes.pop(0)[1])))

    notes_at(0, 0)
    calls = len(board.auction or ())
    if board.auction:
        for k, call in enumerate(board.auction, 1):
            pairs.append(("mb", call_text(call)))
            if call.explanation:
                pairs.append(("an", _clean(call.explanation)))
            notes_at(k, 0)
        pairs.append(("pg", ""))
    if board.play:
        for i, card in enumerate(board.play):
            pairs.append(("pc", str(Card(int(card)))))
            notes_at(calls, i + 1)
            if i % 4 == 3:
                pairs.append(("pg", ""))
    notes_at(calls, len(board.play or ()), last=True)
    if board.claim is not None:
        pairs += [("mc", str(board.claim)), ("pg", "")]
    return pairs


def join_pairs(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"{k}|{v}|" if k else f"{v}|" for k, v in pairs)


def board_to_lin(board: Board) -> str:
    """The one-line handviewer form of ``board`` (``pn|…|st||md|…|rh||ah|Board 1|sv|o|…``)."""
    return join_pairs(board_pairs(board))


def _rs_layout(boards: Iterable[Board]) -> tuple[int, int] | None:
    """(first, last) board numbers for BBO's rs layout, or None when the boards do not fit it."""
    keys: set[tuple[int, bool]] = set()
    for b in boards:
        if b.number is None or b.number < 1:
            return None
        key = (b.number, b.tags.get(ROOM_TAG) == "Closed")
        if key in keys:
            return None
        keys.add(key)
    if not keys:
        return None
    first = min(k[0] for k in keys)
    last = max(k[0] for k in keys)
    if last - first + 1 > 4 * len(keys) + 16:
        return None
    return first, last


def document_text(doc: Iterable[Board], newline: str = "\n") -> str:
    """A whole board set as a LIN file: optional header, then one board a line."""
    return "".join(document_lines(doc, newline))


def document_lines(doc: Iterable[Board], newline: str = "\n") -> Iterator[str]:
    """The lines of :func:`document_text`, each with its line end, one at a time: a big set is written
    without its whole text or a list of its boards (it is gone over once more only when results need
    the ``rs`` line, and once to learn that when the set is not a list)."""
    info = doc.info if is_board_source(doc) else None
    extra = info.extra if info is not None else {}
    yield from (line + newline for line in extra.get("lin_comments", ()))
    once_more = (
        doc.uncounted if is_board_source(doc) else doc
    )  # the passes before the boards' own leave the progress bar be
    want_rs = bool(extra.get("lin_rs")) or any(needs_rs(b) for b in once_more)
    event = info.event if info is not None else None
    if want_rs or event or extra.get("lin_vg"):
        vg = [_clean(f, comma=True) for f in extra.get("lin_vg") or ["", "", "I", "", "", "", "", "", ""]]
        vg += [""] * (9 - len(vg))
        vg[0] = _clean(event or "", comma=True)
        layout = _rs_layout(once_more) if want_rs else None
        if want_rs:
            vg[3], vg[4] = (str(layout[0]), str(layout[1])) if layout else ("", "")
        yield f"vg|{','.join(vg)}|" + newline
        if want_rs:
            if layout:
                rs = [""] * (2 * (layout[1] - layout[0] + 1))
                for b in once_more:
                    assert b.number is not None  # a layout means every board has a number
                    pos = 2 * (b.number - layout[0]) + (1 if b.tags.get(ROOM_TAG) == "Closed" else 0)
                    rs[pos] = rs_text(b.contract, b.declarer, b.result)
            else:
                rs = [rs_text(b.contract, b.declarer, b.result) for b in once_more]
            yield f"rs|{','.join(rs)}|" + newline
    for key, value in extra.get("lin_header", ()):
        yield join_pairs([(key, value)]) + newline
    for b in doc:
        yield board_line(b) + newline


def board_line(board: Board) -> str:
    """A board's line of a LIN file: its pairs, after its ``qx`` id when it has a number."""
    pairs = board_pairs(board)
    if board.number is not None:
        room = "c" if board.tags.get(ROOM_TAG) == "Closed" else "o"
        pairs.insert(0, ("qx", f"{room}{board.number}"))
    return join_pairs(pairs)
