"""The fast path of the PBN reader: a well-formed game straight to a :class:`Board`.

Most games in real and generated files are plain tag lines with auction, play
and table sections of ordinary tokens.  Such a game is read here with one
``findall`` over its text, its tags in a dict of strings (no per-tag objects),
cards, calls and suits looked up in tables.  It gives exactly the board the
careful reader (:mod:`.read`) would give.  Anything unusual (a problem to
report, ``#`` inheritance, repeated tags, notes, marks, commentary) makes it
return None and the careful reader reads the game instead, so the rare game
costs what it did and nothing read is lost.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, product
from operator import itemgetter
from typing import cast

from ...model.auction import PASS, Call, Contract, auction_is_complete
from ...model.board import MAX_BOARD_NUMBER, Board, read_board
from ...model.cards import CARDS, RANK_CHARS, Card, Seat, Strain
from ...model.ddtable import DDTable
from ...model.deal import Deal
from ...model.play import TRICK_WEIGHTS
from ...model.vulnerability import Vulnerability
from . import dd as pbn_dd
from .checks import MODELLED, SCORE_TAGS, check_tag, is_checked
from .context import Context, Layout, Skeleton
from .entry import Entry
from .lex import holds_commentary, lift_commentary

#: a tag, its value (no escapes, no line break) and the section after it; a lone backslash is kept as
#: written, as the tokenizer keeps it (``Denomination\2R``)
_TAG = re.compile(r'\[([A-Za-z0-9_]++) "([^"\\\n]*+(?:\\[^"\\\n][^"\\\n]*+)*+)"\]([^\[\]"]*+)')
_SEATS: dict[str, Seat] = {}
for _s in Seat:
    _SEATS[_s.letter] = _SEATS[_s.letter.lower()] = _s
#: every call token in every mix of upper and lower case (``Pass``, ``pass``, ``1nt``), to its call
CALLS: dict[str, Call] = {}


def _spellings(token: str) -> list[str]:
    return ["".join(chars) for chars in product(*({c.upper(), c.lower()} for c in token))]


for _tok, _call in (("PASS", PASS), ("P", PASS), ("X", Call.parse("X")), ("XX", Call.parse("XX"))):
    for _sp in _spellings(_tok):
        CALLS[_sp] = _call
for _level in range(1, 8):
    for _strain in Strain:
        for _sp in _spellings(f"{_level}{_strain.letter}"):
            CALLS[_sp] = Call.bid(_level, _strain)
    for _sp in _spellings(f"{_level}N"):
        CALLS[_sp] = Call.bid(_level, Strain.NOTRUMP)
#: every card token (``SA``, ``sa``, ``Sa``, ``sA``) to its card
CARDS_BY_TOKEN: dict[str, Card] = {}
for _suit, _letter in enumerate("CDHS"):
    for _rank, _ch in enumerate(RANK_CHARS):
        for _sp in _spellings(_letter + _ch):
            CARDS_BY_TOKEN[_sp] = CARDS[13 * _suit + _rank]
#: rank strings of one suit (``AKJ4``) to their 13-bit mask; filled as suits are met
_FAST_MAX = 1 << 16  # a game longer than this is no usual game
_VULS: dict[str, Vulnerability] = {}
_CONTRACTS: dict[str, Contract] = {}
_END_POSITION = frozenset(("C", "D", "H", "S", "NT", "N"))
_CHECKED = SCORE_TAGS | {"Scoring"}  # the tags whose check looks at the value alone
_TAG_NAME = re.compile(r"\[([A-Za-z0-9_]+)")
_COMMENTARY_CHAR = re.compile(r"[{};%]")
_NO_COMMENTS: tuple[str, ...] = ()
_NOTE = re.compile(r"\s*(\d+)\s*:(.*)$", re.S)
_NOTE_REF = re.compile(r"=(\d+)=")
#: (name, value) of checked tags (``Scoring "IMP"``) found fine, not checked again
_FINE: set[tuple[str, str]] = set()
#: a game's tag names to those of them the careful reader checks (scores, tables, ``ScoreRubberHistory``), in
#: the game's order (:func:`_check_plan`)
_CHECK_PLANS: dict[tuple[str, ...], tuple[str, ...]] = {}


#: names of tags the model does not hold and the careful reader does not check, learned as met
_PLAIN: set[str] = set()
_EMPTY = Deal.empty()
#: the model's one PBN deal parser (fast for the usual spelling); a ValueError sends the game to the careful reader
_deal = Deal.from_pbn
_NAME, _VALUE, _SECTION = itemgetter(0), itemgetter(1), itemgetter(2)


class _BlankSections(dict[str, str]):
    """The sections of a game whose sections are all blank: every one reads as empty (its words are none)."""

    def __missing__(self, key: str) -> str:
        return ""


_BLANK_SECTIONS = _BlankSections()


class _Careful(Exception):
    """The game needs the careful reader."""


def _unknown(value: str) -> bool:
    return value == "" or value == "?"


def read_fast(raw: str, first_line: int, ctx: Context) -> tuple[Board, list[tuple[int | None, str]], int] | None:
    """The board of a well-formed game, its problems and its line; None when the careful reader must read it.

    ``ctx`` is the reader's :class:`.context.Context`: a game read here sets no ``#`` default, and what it
    says is handed to the context only if a later game asks (``ctx.note_fast``)."""
    if ctx.persistent or len(raw) > _FAST_MAX:
        return None  # a "##" value set before, or a huge game (no list of its tags): the careful reader
    hashes = '"#' in raw  # perhaps a "#" value: the value of the game before
    layout = ctx.fast_layout
    parts = None  # the text split on its quotes, once, for the layouts and the skeletons
    if layout is not None and not hashes and len(raw) <= layout.longest:  # (else no use splitting it for them)
        parts = raw.split('"')
        hit = _read_like(raw, parts, first_line, ctx, layout)
        if hit is not None:
            return hit
        for other in ctx.fast_layouts.get(len(parts), ()):  # a shape the file had before (see Context)
            if other is not layout:
                hit = _read_like(raw, parts, first_line, ctx, other)
                if hit is not None:
                    ctx.fast_layout = other
                    return hit
    skeletons = ctx.fast_skeletons
    pieces = raw.count('"') + 1 if parts is None else len(parts)
    shapes = skeletons.get(pieces) if skeletons else None
    shaped = _read_shaped(raw, shapes, parts) if shapes is not None else None
    if shaped is not None:
        skeleton, names, vals, secs = shaped
        text, comments, psbridge, lead = raw, skeleton.comments, None, skeleton.lead
        blank = "".join(secs).isspace()
        ctx.skeleton_misses = 0
    else:
        if shapes is not None:
            ctx.skeleton_misses += 1
        general = _read_tags(raw, ctx, pieces)
        if general is None:
            return None
        text, names, vals, secs, lead, blank, comments, psbridge = general
    notes: dict[int, str] | None = None
    if "[Note " in text:  # a Note tag (every bracket of the text starts a tag)
        names, vals, secs, notes = _auction_notes(names, vals, secs)
        if notes is None:
            return None
        blank = False
    values = dict(zip(names, vals, strict=True))
    if len(values) != len(names):
        return None  # a repeated tag: the careful reader
    if hashes:  # a "# in a comment takes nothing from the game before
        hashes = any(value[:1] == "#" for value in vals)
    if hashes:
        inherited = _inherit(ctx, names, vals, secs)
        if inherited is None:
            return None
        vals, secs = inherited
        values = dict(zip(names, vals, strict=True))
        blank = blank and "".join(secs).isspace()
    sections = _BLANK_SECTIONS if blank else dict(zip(names, secs, strict=True))
    try:
        board, problems = _read(text, first_line, values, sections, names, notes, blank, psbridge)
    except Exception:  # _Careful, or a value only the careful reader words right (e.g. a digit int() refuses)
        return None
    if comments:
        board.notes = list(comments)
    ctx.note_fast(names, vals, secs)
    if hashes:
        ctx.inherits = True
    line = first_line + 1 + text.count("\n", 0, text.find("[Board ") if "Board" in names else lead)
    if (
        blank and not comments and not hashes and notes is None and not problems and _LAYOUT_FREE.isdisjoint(names)
    ):  # a deal generator's plain game: its layout serves the games after it (no commentary: it holds none)
        _learn(raw, names, vals, line - first_line, board, ctx, psbridge)
    return board, problems, line


def _read_tags(
    raw: str, ctx: Context, pieces: int
) -> tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...], int, bool, Sequence[str], str | None] | None:
    """A game's text (its commentary blanked when the whole game had to be lifted), its tags' names, values
    and sections (commentary lifted out), where its first tag starts, whether every section is blank, its
    commentary and ``%%!R`` value, found by the pattern; None for a game that is not only tags and sections.
    A game read from its own text teaches its skeleton to the games after it (:func:`_skeleton`)."""
    comments: Sequence[str] = _NO_COMMENTS
    text, psbridge = raw, None
    read = _tags(raw)
    unlifted = read[0] if read is not None else None
    if read is not None and read[3]:  # commentary in the sections (none holds a bracket or quote): lift it there
        lifted = _lift_sections(read[0], read[1])
        if lifted is not None:
            found, comments, psbridge = lifted
            read = (found, "".join(map(_SECTION, found)), read[2], False)
    if read is None or read[3]:  # not only tags and plain sections: perhaps commentary to lift out
        if not holds_commentary(raw):
            return None
        inside: list[int] = []  # where the comments start
        text, comments, psbridge = lift_commentary(raw, inside)
        read = _tags(text)
        if read is None or read[3] or _in_a_table(text, inside):
            return None  # commentary the lift left (a % within a line, a stray brace), or in a table
    found, between, lead, _commentary = read
    names, vals, secs = zip(*found, strict=True)
    shapes = ctx.fast_skeletons.get(pieces)
    misses = ctx.skeleton_misses
    if (
        text is raw
        and psbridge is None
        and ctx.pending  # a game read before this one: a file, not one game of a lazy reader's
        and (
            len(ctx.fast_skeletons) < _SKELETONS
            if shapes is None
            else len(shapes) < _SHAPES or not misses & (misses - 1)  # else after 1, 2, 4… games in a row
        )
    ):
        learned = _skeleton(raw, cast("list[tuple[str, str, str]]", unlifted), secs, lead, comments)
        if learned is not None:
            ctx.fast_skeletons[pieces] = [learned, *shapes[: _SHAPES - 1]] if shapes else [learned]
    # (blank: no section holds anything, a deals-only game: nothing in them to check)
    return text, names, vals, secs, lead, between.isspace(), comments, psbridge


#: a game with one of these is no deal generator's: its values are not read by position
_LAYOUT_FREE = frozenset(("Auction", "Play", "Note", "OptimumResultTable", "DoubleDummyTricks"))
_KNOWN_LIMIT = 64
_SKELETONS = 16  # counts of quotes of games whose shapes are kept
_SHAPES = 4  # shapes kept of games with the same count of quotes (a passed-out board, a played one with a table)


def _learn(
    raw: str,
    names: tuple[str, ...],
    vals: tuple[str, ...],
    line: int,
    board: Board,
    ctx: Context,
    psbridge: str | None = None,
) -> None:
    """Keep the layout of a game just read (tags with blank sections, no problem) for the games after it; its
    ``%%!R`` table (``psbridge``) only on a line of its own after the last tag."""
    if "\\" in raw:
        return
    parts = raw.split('"')
    table = None
    if psbridge is not None:  # (read fine: twenty hex digits)
        head, mark, rest = parts[-1].partition("\n%%!R ")
        if rest[: len(psbridge)] != psbridge:
            return
        table = (head + mark, rest[len(psbridge) :])
    between = parts[0::2]
    if table is not None:
        between[-1] = ""
    layout = ctx.fast_layout
    if layout is None or layout.between != between or layout.pieces != len(parts) or layout.psbridge != table:
        layout = ctx.known_layout(len(parts), between, table)  # one learned before, with its known values
        if layout is None:
            free = frozenset(name for name in names if name in _PLAIN)
            layout = Layout(parts, names, line, free, table)
            ctx.remember_layout(layout)
        ctx.fast_layout = layout
    read_as = (dict(board.tags), board.declarer, board.contract, board.result)
    if len(layout.known) < _KNOWN_LIMIT:
        layout.known[layout.rest(list(vals))] = read_as
    if layout.free and len(layout.known_fixed) < _KNOWN_LIMIT:
        layout.known_fixed[layout.fixed(list(vals))] = read_as


def _read_like(
    raw: str, parts: list[str], first_line: int, ctx: Context, layout: Layout
) -> tuple[Board, list[tuple[int | None, str]], int] | None:
    """The board of a game laid out as ``layout`` (one learned from a game before), its values taken by
    position; None unless its text outside the values is the same and its other values are known.

    Values hold no quote (the split), no backslash and no line break (counted: a break in a value above the
    board number would move the board's line); the number, dealer, vulnerability and deal are parsed strictly
    and the other values are ones read before, so a bracket in a value reads as the general path reads it.
    ``parts``: ``raw`` split on its quotes (left as it is: another layout may be tried on it)."""
    if len(parts) != layout.pieces:
        return None
    table = layout.psbridge
    between = parts[0::2]
    if table is not None:  # a %%!R line after the last tag: its table varies
        last, between[-1] = between[-1], ""
    if between != layout.between or "\\" in raw or raw.count("\n") != layout.newlines:
        return None
    vals = parts[1::2]
    known = layout.known.get(layout.rest(vals))
    if known is not None:
        known_tags, declarer, contract, result = known
        tags = known_tags.copy()
    else:  # the free tags' values taken as they are (a bracket in one too: the careful reader keeps it)
        known = layout.known_fixed.get(layout.fixed(vals)) if layout.free else None
        if known is None:
            return None
        known_tags, declarer, contract, result = known
        tags = known_tags.copy()
        for name, where in layout.free:
            tags[name] = vals[where]
    dd = None
    if table is not None:
        before, after = table
        hex20 = last[len(before) : len(last) - len(after)]
        if not last.startswith(before) or not last.endswith(after):
            return None
        dd = pbn_dd.parse_hex20(hex20, pbn_dd.PSBRIDGE_SEATS)  # (None unless twenty hex digits)
        if dd is None:
            return None
    n, d, v, h = layout.where
    number = None if n is None else vals[n]
    dealer = None if d is None else vals[d]
    vul = None if v is None else vals[v]
    deal = None if h is None else vals[h]
    try:
        b = read_board(
            None
            if number is None or number == "" or number == "?"
            else int(number)
            if number.isdigit() and len(number) < 10  # (nine digits: within MAX_BOARD_NUMBER)
            else _number(number),
            None if dealer is None or dealer == "" or dealer == "?" else _SEATS[dealer],
            None if vul is None or vul == "" or vul == "?" else _VULS.get(vul) or _vulnerability(vul),
            _EMPTY if deal is None or deal == "" or deal == "?" else _deal(deal),
            declarer,
            tags,
            dd,
            contract,
            result,
        )
    except Exception:  # _Careful, or a value only the careful reader words right
        return None
    pending = ctx.pending
    if pending and pending[-1][0] is layout.names:  # the game before was laid out alike: this one says it all
        pending[-1] = (layout.names, vals, None)
    else:
        ctx.note_fast(layout.names, vals, None)
    return b, [], first_line + layout.line


def _inherit(
    ctx: Context, names: tuple[str, ...], vals: tuple[str, ...], secs: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The values and sections with each ``#`` value (PBN 3.4: the value of the game before) resolved as the
    careful reader resolves it: the previous game's value, and its section when this game's is blank; None for
    a ``##`` value or one no game before had (the careful reader, which sets the default or says so)."""
    out_vals, out_secs = list(vals), list(secs)
    for k, value in enumerate(vals):
        if value[:1] != "#":
            continue
        prev = ctx.latest(names[k])
        if value != "#" or prev is None:
            return None
        out_vals[k] = prev[0]
        if prev[1] and not secs[k].strip():
            out_secs[k] = " ".join(prev[1]) + "\n"
    return tuple(out_vals), tuple(out_secs)


def _tags(text: str) -> tuple[list[tuple[str, str, str]], str, int, bool] | None:
    """The tags of a game that is nothing but tags and their sections (every bracket and quote belongs to a
    tag found, only blanks before the first), the text of its sections, where its first tag starts, and
    whether commentary characters (``{};%``) are in its sections; None for any other game."""
    found: list[tuple[str, str, str]] = _TAG.findall(text)
    n = len(found)
    if not n or text.count("[") != n or text.count("]") != n or text.count('"') != 2 * n:
        return None
    lead = text.find("[")
    if lead and not text[:lead].isspace():
        return None
    between = "".join(map(_SECTION, found))
    return found, between, lead, holds_commentary(between)


def _lift_sections(
    found: list[tuple[str, str, str]], between: str
) -> tuple[list[tuple[str, str, str]], list[str], str | None] | None:
    """The tags with the commentary of their sections lifted out (:func:`.lex.lift_commentary`, a section at
    a time: quicker than the whole game, whose every value the rules would step over), the commentary in
    order and a ``%%!R`` value; None when the whole game must be lifted or read carefully: a comment in the
    section of a tag the reader checks (its lines are counted in the game's text), one the lift leaves, or a
    ``;`` comment or ``%`` line running on to the next tag on its line (it hides that tag).

    ``between`` is the sections joined: the sections holding commentary are found in it, not one by one."""
    out = list(found)
    comments: list[str] = []
    psbridge: str | None = None
    last = len(found) - 1
    ends = list(accumulate(map(len, map(_SECTION, found))))
    m = _COMMENTARY_CHAR.search(between)
    while m is not None:
        k = bisect_right(ends, m.start())
        name, value, section = found[k]
        if name in _CHECKED or name[-5:] == "Table":
            return None
        if section.count("{") == 1 and section.count("}") == 1 and ";" not in section and "%" not in section:
            start, end = section.find("{"), section.find("}") + 1  # one {} comment: no need of the rules
            if end < start:
                return None
            note = section[start + 1 : end - 1]
            clean = section[:start] + _blanked(section[start:end]) + section[end:]
            comments.append(note.replace("\r\n", "\n") if "\r" in note else note)
        else:
            clean, notes, table = lift_commentary(section, [], line_start=False)
            if holds_commentary(clean):
                return None
            if k != last:
                tail = section[section.rfind("\n") + 1 :]
                if ";" in tail or tail[:1] == "%":
                    return None
            comments += notes
            if psbridge is None:
                psbridge = table
        out[k] = (name, value, clean)
        m = _COMMENTARY_CHAR.search(between, ends[k])
    return out, comments, psbridge


def _blanked(comment: str) -> str:
    """A comment made spaces, its line breaks kept (as :func:`.lex.lift_commentary` blanks it)."""
    return " " * len(comment) if "\n" not in comment else "\n".join(" " * len(p) for p in comment.split("\n"))


def _in_a_table(text: str, starts: list[int]) -> bool:
    """Whether a comment starting at one of ``starts`` is in the section of a table tag; every ``[`` of the
    (blanked) text starts a tag, as the reader has checked."""
    for start in starts:
        tag = text.rfind("[", 0, start)
        if tag >= 0:
            name = _TAG_NAME.match(text, tag)
            if name is not None and name.group(1)[-5:] == "Table":
                return True
    return False


def _auction_notes(
    names: tuple[str, ...], vals: tuple[str, ...], secs: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], dict[int, str] | None]:
    """The tags' names, values and sections without their notes, and the notes (``{number: text}``) when they
    all follow the auction; None for notes anywhere else (they go with the play or with tags: the careful
    reader)."""
    first = names.index("Note")
    count = names.count("Note")
    if first == 0 or names[first - 1] != "Auction" or names[first : first + count] != ("Note",) * count:
        return names, vals, secs, None
    notes: dict[int, str] = {}
    for value, section in zip(vals[first : first + count], secs[first : first + count], strict=True):
        m = _NOTE.match(value)
        if m is None or (section and not section.isspace()):
            return names, vals, secs, None
        notes[int(m.group(1))] = m.group(2).lstrip(" ")
    if count == 1:  # one note is no repeated tag: the careful reader hands it on like any tag
        return names, vals, secs, notes
    rest = first + count
    return names[:first] + names[rest:], vals[:first] + vals[rest:], secs[:first] + secs[rest:], notes


def _skeleton(
    raw: str, found: list[tuple[str, str, str]], secs: Sequence[str], lead: int, comments: Sequence[str]
) -> Skeleton | None:
    """The skeleton of a game just read from its own text (``found``: its tags as the pattern found them,
    ``secs`` their sections with the commentary lifted out): the non-blank sections without commentary, and
    the last, vary; None when a section that would vary holds commentary."""
    parts = raw.split('"')
    between = parts[0::2]
    varying: list[tuple[int, str]] = []
    last = len(found) - 1
    for k, (_name, _value, section) in enumerate(found):
        if k == last or (section and not section.isspace()):
            if holds_commentary(section):
                if k == last:
                    return None
                continue  # commentary: a fixed section, its lifted text and comments kept
            varying.append((k + 1, between[k + 1][1 + len(section) :]))
            between[k + 1] = ""
    return Skeleton(between, tuple(map(_NAME, found)), list(secs), varying, lead, comments)


def _read_shaped(
    raw: str, shapes: list[Skeleton], parts: list[str] | None = None
) -> tuple[Skeleton, tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """The skeleton a game is shaped like (one of ``shapes``), its tags' names, values and sections (as
    :func:`_tags` and the lifting of the commentary of its sections would find them); None for any other game.

    The text between the values must be the skeleton's but for the varying sections; each varying section
    must hold no commentary (the general path lifts it); only the tags' own brackets may be in the text (a
    bracket in a value or section); no value may hold a line break, two backslashes in a row or end in one
    (the pattern would not take it).  ``parts``: ``raw`` split on its quotes, when the caller has it."""
    if parts is None:
        parts = raw.split('"')
    for skeleton in shapes:
        between = parts[0::2]
        secs = skeleton.sections.copy()
        cut = []
        for piece, suffix in skeleton.varying:
            text = between[piece]
            if text[:1] != "]" or not text.endswith(suffix):
                break
            section = secs[piece - 1] = text[1 : len(text) - len(suffix)]
            cut.append(section)
            between[piece] = ""
        else:
            if between == skeleton.between:
                break
    else:
        return None
    tags = len(skeleton.names)
    if raw.count("[") != tags or raw.count("]") != tags:
        return None
    varying = "".join(cut)
    if holds_commentary(varying):
        return None
    vals = parts[1::2]
    values = "".join(vals)
    if "\n" in values or ("\\" in values and ("\\\\" in values or '\\"' in raw)):
        return None
    return skeleton, skeleton.names, tuple(vals), tuple(secs)


def _read(
    raw: str,
    first_line: int,
    values: dict[str, str],
    sections: dict[str, str],
    names: tuple[str, ...],
    notes: dict[int, str] | None = None,
    blank: bool = False,
    psbridge: str | None = None,
) -> tuple[Board, list[tuple[int | None, str]]]:
    """The board; ``values`` is left holding the tags the model does not (they become ``Board.tags``);
    ``names``: the game's tag names in order (the keys of ``values``, less the notes);
    ``blank``: every section is blank, so none becomes a ``Name:section`` tag; ``psbridge``: the value of a
    ``%%!R`` line (PSBridge's double-dummy table)."""
    problems: list[tuple[int | None, str]] = []
    pop = values.pop
    if notes is not None:
        pop("Note", None)  # a lone note stays in ``values`` until here
    number, dealer, vul, deal, declarer, contract, result, auction, play, ort, bc = (
        pop("Board", None),
        pop("Dealer", None),
        pop("Vulnerable", None),
        pop("Deal", None),
        pop("Declarer", None),
        pop("Contract", None),
        pop("Result", None),
        pop("Auction", None),
        pop("Play", None),
        pop("OptimumResultTable", None),
        pop("DoubleDummyTricks", None),
    )
    other = values
    if other:
        checked = _CHECK_PLANS.get(names)
        if checked is None:
            checked = _check_plan(names)
        if checked:
            _check_tags(checked, other, sections, raw, first_line, problems)
        if not blank:
            rest = "".join(map(sections.__getitem__, other))
            if rest and not rest.isspace():
                other = _section_tags(other, sections)
    b = read_board(
        None if number is None or number == "" or number == "?" else _number(number),
        None if dealer is None or dealer == "" or dealer == "?" else _SEATS[dealer],
        None if vul is None or vul == "" or vul == "?" else _vulnerability(vul),
        _EMPTY if deal is None or deal == "" or deal == "?" else _deal(deal),
        None
        if declarer is None or declarer == "" or declarer == "?"
        else _SEATS[declarer[1:] if declarer[:1] == "^" else declarer],
        other,
    )
    if contract is not None and contract != "" and contract != "?":
        c = _CONTRACTS.get(contract)
        if c is not None:
            b.contract = c
        elif contract.upper() in _END_POSITION:
            other["Contract"] = contract
        else:
            b.contract = _contract(contract)
    if ort is not None or bc is not None or psbridge is not None:
        _read_dd(b, ort, sections.get("OptimumResultTable", ""), bc, psbridge)
    if auction is not None:
        _read_auction(b, auction, sections["Auction"], notes)
    elif notes:
        raise _Careful
    claimed = _read_play(b, play, sections["Play"]) if play is not None else False
    if result is not None:
        r = result.strip()
        if r != "" and r != "?":
            if not r.isdigit() or int(r) > 13:
                raise _Careful
            b.result = int(r)
            if claimed:
                b.claim = b.result
    return b, problems


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 9:  # a number past MAX_BOARD_NUMBER: the careful reader says so
        raise _Careful
    number = int(text)
    if number > MAX_BOARD_NUMBER:
        raise _Careful
    return number


def _vulnerability(text: str) -> Vulnerability:
    v = _VULS.get(text)
    if v is None:
        try:
            v = Vulnerability.from_text(text)
        except ValueError:
            raise _Careful from None
        if len(_VULS) < 1000:
            _VULS[text] = v
    return v


def _contract(text: str) -> Contract:
    v = text.strip()
    if v[-1:] in "Rr":
        raise _Careful  # "4SR": the careful reader warns
    c = Contract.parse(v)
    if len(_CONTRACTS) < 1000:
        _CONTRACTS[text] = c
    return c


def _check_plan(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names among ``names`` whose values the careful reader checks (scores, tables, and
    ``ScoreRubberHistory``, which sends the game to it), in order; the others that the model does not hold are
    learned as plain (:data:`_PLAIN`: a layout may take their values as written).  Kept for the next game of
    these names: a file's games have a few sets of them."""
    checked = tuple(filter(is_checked, names))
    for name in names:
        if name not in MODELLED and name not in checked and len(_PLAIN) < 10_000:
            _PLAIN.add(name)
    if len(_CHECK_PLANS) < 1000:
        _CHECK_PLANS[names] = checked
    return checked


def _check_tags(
    checked: tuple[str, ...],
    other: dict[str, str],
    sections: dict[str, str],
    raw: str,
    first_line: int,
    problems: list[tuple[int | None, str]],
) -> None:
    """Check the tags ``checked`` (:func:`_check_plan`) among the tags the model does not hold (``other``), in the
    game's order, as the careful reader reports them; a check found fine is remembered for the value."""
    for name in checked:
        if name == "ScoreRubberHistory":
            raise _Careful  # it implies a vulnerability to compare: the careful reader does it
        value = other.get(name)
        if value is None or value == "" or value == "?":
            continue
        section = sections[name]
        # a table's check depends on its section too: remembered only for a blank one (a Table "13")
        same = name in _CHECKED or not section or section.isspace()
        if not same or (name, value) not in _FINE:
            count = len(problems)
            _check(name, value, section, raw, first_line, problems)
            if len(problems) == count and same and len(_FINE) < 10_000:
                _FINE.add((name, value))


def _section_tags(other: dict[str, str], sections: dict[str, str]) -> dict[str, str]:
    """The tags with a ``Name:section`` entry after each that has a section, one line a row."""
    out: dict[str, str] = {}
    for name, value in other.items():
        out[name] = value
        section = sections.get(name)
        if section and not section.isspace():
            out[f"{name}:section"] = "\n".join(" ".join(w) for w in map(str.split, section.split("\n")) if w)
    return out


def _check(
    name: str, value: str, section: str, raw: str, first_line: int, problems: list[tuple[int | None, str]]
) -> None:
    """The careful reader's checks of a tag the model does not hold (scores, tables)."""
    e = Entry(name, value, None, section.split(), None, False, raw, first_line)
    check_tag(e, lambda line, message: problems.append((line, message)))


def _read_dd(b: Board, ort: str | None, ort_section: str, bc: str | None, psbridge: str | None) -> None:
    """The double-dummy tables (OptimumResultTable, Bridge Composer's DoubleDummyTricks, PSBridge's ``%%!R``),
    merged as the careful reader merges them when they agree; a bad one or two that disagree: the careful
    reader, which reports it."""
    tables: list[DDTable] = []
    if ort is not None:
        dd, err = pbn_dd.parse_result_table(ort, ort_section.split())
        if err:
            raise _Careful
        if dd is not None:
            tables.append(dd)
    if bc is not None and not _unknown(bc):
        dd = pbn_dd.parse_hex20(bc, pbn_dd.BC_SEATS)
        if dd is None:
            raise _Careful
        tables.append(dd)
    if psbridge is not None:
        dd = pbn_dd.parse_hex20(psbridge, pbn_dd.PSBRIDGE_SEATS)
        if dd is None:
            raise _Careful
        tables.append(dd)
    if not tables:
        return
    merged = tables[0]
    for dd in tables[1:]:
        if dd.tricks != merged.tricks:
            merged = _merged(merged, dd)
    b.dd = merged


_UNKNOWN_ROW = (None,) * 5


def _merged(first: DDTable, other: DDTable) -> DDTable:
    """The two tables merged a row at a time (:func:`.dd.merged`: the first's figure, else the other's); a
    figure both know that differs: the careful reader says so.  Rows alike or one of them unknown (a scoring
    program's table of N and W beside a whole one) are taken as they are, the others a cell at a time."""
    rows = []
    for mine, theirs in zip(first.tricks, other.tricks, strict=True):
        if mine == theirs or theirs == _UNKNOWN_ROW:
            rows.append(mine)
        elif mine == _UNKNOWN_ROW:
            rows.append(theirs)
        else:
            cells = tuple(map(_MERGED_CELL.__getitem__, zip(mine, theirs, strict=True)))
            if _DISAGREE in cells:
                raise _Careful
            rows.append(cells)
    return DDTable(tuple(rows))


#: (a cell of one table, the same cell of another) to the cell of both merged (:func:`.dd.merged`: the first's
#: figure, else the other's), or ``_DISAGREE`` for two figures that differ (:meth:`DDTable.differences`)
_DISAGREE = -1
_MERGED_CELL: dict[tuple[int | None, int | None], int | None] = {
    (a, b): a if b is None or a == b else b if a is None else _DISAGREE
    for a in (None, *range(14))
    for b in (None, *range(14))
}


def _read_auction(b: Board, value: str, section: str, notes: dict[int, str] | None) -> None:
    seat = _SEATS.get(value)
    if seat is None:
        if not _unknown(value):
            raise _Careful
        seat = b.dealer
    words = section.split()
    all_pass = bool(words) and words[-1] in ("AP", "ap", "Ap", "aP")
    if all_pass:
        words.pop()
    looked_up = list(map(CALLS.get, words))
    calls: list[Call] = (
        [c for c in looked_up if c is not None] if None not in looked_up else _annotated_calls(words, notes)
    )
    if all_pass:
        while not auction_is_complete(calls):
            calls.append(PASS)
    if seat is not None:
        if b.dealer is None:
            b.dealer = seat
        elif seat != b.dealer and calls:
            raise _Careful
    b.auction = calls
    if notes:
        used = {c.note for c in calls if c.note is not None}
        for n, text in notes.items():
            if n not in used:
                b.tags[f"Note:{n}"] = text


#: (call token, note number, note text) to the annotated call (calls are frozen: one object serves every board)
_ANNOTATED: dict[tuple[str, int, str], Call] = {}


def _annotated_calls(words: list[str], notes: dict[int, str] | None) -> list[Call]:
    """Calls with note references (``1C =1=``), each note known and each call with one at most."""
    if notes is None:
        raise _Careful
    calls: list[Call] = []
    last = ""  # the token of the last call, while it has no note
    for tok in words:
        call = CALLS.get(tok)
        if call is not None:
            calls.append(call)
            last = tok
            continue
        m = _NOTE_REF.fullmatch(tok)
        if m is None or not last:
            raise _Careful
        n = int(m.group(1))
        text = notes.get(n)
        if text is None:
            raise _Careful
        key = (last, n, text)
        annotated = _ANNOTATED.get(key)
        if annotated is None:
            annotated = calls[-1].annotated(note=n, explanation=text)
            if len(_ANNOTATED) < 10_000:
                _ANNOTATED[key] = annotated
        calls[-1] = annotated
        last = ""
    return calls


def _read_play(b: Board, value: str, section: str) -> bool:
    """The play section (whole tricks of plain cards, perhaps ``*``); True when it ends in ``*``."""
    leader0 = _SEATS.get(value)
    words = section.split()
    if leader0 is None:
        if not _unknown(value) or words:
            raise _Careful
        return False
    contract, declarer = b.contract_and_declarer()
    if declarer is None:
        b.declarer = declarer = Seat((leader0 + 3) % 4)
    elif (declarer + 1) % 4 != leader0:
        raise _Careful
    if contract is not None and not contract.is_passed_out:
        trump = int(contract.bid_strain)
    else:
        only = b.tags.get("Contract", "").upper()
        trump = int(Strain.from_text(only)) if only in _END_POSITION else 4
    claimed = bool(words) and words[-1] == "*"
    if claimed:
        words.pop()
    cards = list(map(CARDS_BY_TOKEN.get, words))
    if len(cards) % 4 or None in cards:
        raise _Careful
    known = cast("list[Card]", cards)  # every token was a card: None is not in it
    play: list[Card] = []
    weights = TRICK_WEIGHTS[trump]
    off = 0  # the leader's column in the section (its first column is the opening leader's)
    rows = iter(known)
    for row in zip(rows, rows, rows, rows, strict=True):  # a trick a row (the cards are whole tricks)
        t0, t1, t2, t3 = trick = _IN_PLAY_ORDER[off](row) if off else row
        w = weights[t0]
        off = (off + (max(w[t0], w[t1] + 1, w[t2] + 2, w[t3] + 3) & 3)) & 3
        play += trick
    b.play = play
    return claimed


#: a trick's four cards from the section's columns to play order, by the leader's column
_IN_PLAY_ORDER = tuple(itemgetter(*((lead + k) % 4 for k in range(4))) for lead in range(4))
