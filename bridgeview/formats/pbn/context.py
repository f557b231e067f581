"""What the PBN readers carry from game to game: ``#``/``##`` values and the layout the fast path learned.

A game may take a value from the game before (``#``) or from the last one that set it (``##``), so
each game is read in the :class:`Context` the games before it left; the fast path (:mod:`.fast`)
also keeps there the :class:`Layout` of the last game it read, to read the next games laid out alike
by position.  Both readers (:mod:`.read`, :mod:`.fast`) and the lazy reader's checkpoints share it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter

from ...model.auction import Contract
from ...model.cards import Seat

#: the tags whose values vary from game to game of a deal generator's file (read by position from a Layout)
_VARYING = ("Board", "Dealer", "Vulnerable", "Deal")
#: games the fast path read kept pending (:meth:`Context.note_fast`) before they are compacted or handed over
_PENDING_MOST = 64
#: layouts kept a count of pieces (a game that fits none of the current layout tries each of them)
LAYOUTS_KEPT = 4
#: counts of pieces whose layouts are kept
COUNTS_KEPT = 16


@dataclass
class Context:
    """What the games before this one said, for ``#`` and ``##`` values."""

    previous: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    persistent: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    #: the game just read took or set a ``#``/``##`` value (its raw text depends on the games before it)
    inherits: bool = False
    #: tags of games read by the fast path, not yet in ``previous`` (``(names, values, sections)``, sections
    #: None when all are blank): most files never use ``#``, so they are handed over only when a game needs
    #: the careful reader
    pending: list[tuple[tuple[str, ...], Sequence[str], Sequence[str] | None]] = field(default_factory=list)
    #: the layout of the last game the fast path learned or read by (:class:`Layout`), for the games like it
    fast_layout: Layout | None = None
    #: the layouts learned, by their count of pieces (a game's text split on its quotes), the oldest first: a
    #: file that goes back to a shape it had (Big Deal's first game with its ``Generator`` tag, then the
    #: others; files joined one after another) reads the games of that shape by position again, with the
    #: values it knows, instead of learning it anew
    fast_layouts: dict[int, list[Layout]] = field(default_factory=dict)
    #: skeletons of games the fast path read (:class:`Skeleton`), for the games shaped like them, by the
    #: pieces their text splits into on its quotes (a passed-out board has no play: two shapes in turn)
    fast_skeletons: dict[int, list[Skeleton]] = field(default_factory=dict)
    #: games in a row not shaped like the skeleton of their count of quotes (a new one is learned after 1, 2,
    #: 4, 8… of them)
    skeleton_misses: int = 0

    def note_fast(self, names: tuple[str, ...], values: Sequence[str], sections: Sequence[str] | None) -> None:
        """Remember what a game read by the fast path said: its tag names, values and sections (None: all
        blank).  A game that names every tag the game before it named overrides all that one said and takes
        its place; any other is added, and the list is handed over past 64 games (:meth:`flush` and
        :meth:`latest` take the games in order, the later overriding, so a game left in the list that a later
        one overrides changes nothing).  One tuple comparison in the usual case, the same tags as the game
        before; no pass over the list (the games of files of several shapes put one after another kept up to
        64 pending, and dropping the overridden ones at each change of shape cost a game 10-30 us)."""
        pending = self.pending
        if pending:
            last = pending[-1][0]
            if names == last:
                pending[-1] = (names, values, sections)
                return
            if set(names).issuperset(last):
                pending.pop()
        pending.append((names, values, sections))
        if len(pending) > _PENDING_MOST:
            self._compact()

    def _compact(self) -> None:
        """Keep the last pending game of each set of tag names (an earlier one with the same tags says
        nothing the later one does not override): games of a few shapes in turn, files put one after another,
        stay a few entries; only games of many shapes are handed over to ``previous`` (a dict update a tag of
        every pending game, 10-30 times the cost of this pass)."""
        pending = self.pending
        last_of = {entry[0]: k for k, entry in enumerate(pending)}
        if len(last_of) > _PENDING_MOST // 2:
            self.flush()
        else:
            pending[:] = [entry for k, entry in enumerate(pending) if last_of[entry[0]] == k]

    def known_layout(self, pieces: int, between: list[str], table: tuple[str, str] | None) -> Layout | None:
        """The layout learned before with this text between the quotes (and ``%%!R`` table), if any."""
        for layout in self.fast_layouts.get(pieces, ()):
            if layout.between == between and layout.psbridge == table:
                return layout
        return None

    def remember_layout(self, layout: Layout) -> None:
        """Keep ``layout`` among the last :data:`LAYOUTS_KEPT` of its count of pieces (for the first
        :data:`COUNTS_KEPT` counts met: a file of ever new shapes keeps a bounded few)."""
        kept = self.fast_layouts.get(layout.pieces)
        if kept is None:
            if len(self.fast_layouts) >= COUNTS_KEPT:
                return
            kept = self.fast_layouts[layout.pieces] = []
        kept.append(layout)
        if len(kept) > LAYOUTS_KEPT:
            del kept[0]

    def latest(self, name: str) -> tuple[str, list[str]] | None:
        """What ``previous`` would hold for tag ``name`` after a :meth:`flush`: the value and section words
        of the last game that had it, without handing every pending game over (a ``#`` value among games of
        other shapes asked for three tags and paid for the 64 games pending)."""
        for names, values, sections in reversed(self.pending):
            if name in names:
                k = names.index(name)
                return values[k], [] if sections is None else sections[k].split()
        return self.previous.get(name)

    def flush(self) -> None:
        """Hand the fast-read games' tags over to ``previous``."""
        previous = self.previous
        for names, values, sections in self.pending:
            if sections is None:
                previous.update((name, (value, [])) for name, value in zip(names, values, strict=True))
            else:
                previous.update(
                    (name, (value, section.split()))
                    for name, value, section in zip(names, values, sections, strict=True)
                )
        self.pending.clear()


class Layout:
    """The text between the quotes of a game of tags with blank sections (a deal generator's game), read by
    the fast path, for the next games laid out alike.

    A game whose text outside its values is the same is the same tags with the same blank sections, so its
    values can be taken by position, with no ``findall`` and no dict of tags.  The values of the tags other
    than the board number, dealer, vulnerability and deal are the same in such files from game to game (``?``
    rosters, an event name): what each such set of values read as (checked, problem-free) is kept in
    ``known``."""

    __slots__ = (
        "between",
        "pieces",
        "names",
        "newlines",
        "line",
        "where",
        "rest",
        "known",
        "free",
        "fixed",
        "known_fixed",
        "psbridge",
        "longest",
    )

    def __init__(
        self,
        parts: list[str],
        names: tuple[str, ...],
        line: int,
        free: frozenset[str] = frozenset(),
        psbridge: tuple[str, str] | None = None,
    ) -> None:
        self.between = parts[0::2]
        self.pieces = len(parts)
        self.names = names
        self.newlines = sum(map(str.count, self.between, repeat("\n")))
        #: PSBridge's ``%%!R`` line after the last tag: the text before and after its table (the last piece of
        #: ``between`` is then left empty: it varies with the table)
        self.psbridge = psbridge
        if psbridge is not None:
            self.between[-1] = ""
        self.line = line  # the board's line, counted from the game's first
        #: a game longer than this is not split to be compared with the layout: twice the game learned and a
        #: few hundred characters (the values of a deal generator's game vary little; a game with an auction
        #: and play read among such games would be split for nothing, a few microseconds each)
        self.longest = 2 * (sum(map(len, parts)) + len(parts)) + 256
        position = {name: i for i, name in enumerate(names)}
        #: where the board number, dealer, vulnerability and deal are among the values (None: no such tag)
        self.where = tuple(position.get(name) for name in _VARYING)
        rest = [i for i, name in enumerate(names) if name not in _VARYING]
        #: the other values as a tuple (the key of ``known``)
        self.rest = _values_at(rest)
        #: the other values to (tags, declarer, contract, result) they read as
        self.known: dict[tuple[str, ...], tuple[dict[str, str], Seat | None, Contract | None, int | None]] = {}
        #: (name, where) of the tags kept as they are written, whatever their value (no check, not modelled):
        #: a game whose other values are not all known is read when the values but theirs are (Deep Finesse's
        #: ``Ability`` and ``Minimax`` vary from game to game)
        self.free = tuple((name, i) for i, name in enumerate(names) if name in free and name not in _VARYING)
        #: the values but the free ones (the key of ``known_fixed``), and what they read as
        self.fixed = _values_at([i for i in rest if names[i] not in free])
        self.known_fixed: dict[tuple[str, ...], tuple[dict[str, str], Seat | None, Contract | None, int | None]] = {}

    def __deepcopy__(self, _memo: dict[int, object]) -> Layout:
        """This layout itself: what it holds is true of any game laid out so, whatever games came before (the
        fast path learns none from a game that takes a ``#`` value, and copies a known set of tags before
        changing it), so the copies of a :class:`Context` (the lazy reader's checkpoints, one every 256 games
        of a file with ``#`` values) share it rather than each keeping its own."""
        return self


def _values_at(where: list[int]) -> Callable[[list[str]], tuple[str, ...]]:
    """The values at ``where`` as a tuple (PSBridge's games have none but the four read: an empty one)."""
    if len(where) > 1:
        return itemgetter(*where)
    if where:
        at = where[0]
        return lambda v: (v[at],)
    return lambda _v: ()


class Skeleton:
    """What stays the same between games a program writes alike, for the fast path to read the next games
    without its regular expression: the text between the quotes of a game of tags (every bracket and quote
    belongs to a tag), the sections that vary (a non-blank section without commentary: the auction, the
    play, a table; and the last one, with the blank lines after it) cut out.

    A game whose text outside its values and varying sections is the same has the same tags in the same
    order, the same fixed sections (the commentary lifted out of them as it was) and the same text before
    its first tag, so its tags are its values and sections taken by position."""

    __slots__ = ("between", "pieces", "names", "sections", "varying", "lead", "comments")

    def __init__(
        self,
        between: list[str],
        names: tuple[str, ...],
        sections: list[str],
        varying: list[tuple[int, str]],
        lead: int,
        comments: Sequence[str],
    ) -> None:
        self.between = between  # the text between the values, the varying pieces made empty
        self.pieces = 2 * len(names) + 1  # the game's text split on its quotes
        self.names = names
        self.sections = sections  # each tag's section, commentary lifted out (the varying ones: any)
        #: (piece, text after the section: the next tag's ``[Name `` or nothing for the last) that vary
        self.varying = varying
        self.lead = lead  # where the first tag starts
        self.comments = comments  # the commentary lifted out of the fixed sections, in order
