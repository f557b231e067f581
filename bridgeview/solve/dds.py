"""Double-dummy solving with DDS, through endplay's ctypes binding.

Qt-free.  ``endplay`` is imported only inside the functions that solve,
because importing it pulls matplotlib and costs about half a second; the app
and the CLI start without it.

DDS is driven through its batch call ``CalcAllTables`` (at most
:data:`MAX_TABLES` deals a call for all five strains - DDS's MAXNOOFTABLES;
endplay only checks 200, the strain-count limit, so we chunk ourselves).
``CalcAllTables`` spreads each batch over DDS's own worker threads (one per
core); ``bench/bench_solve.py`` shows this beats a process pool on the same
cores.  All calls into DDS go through one lock: DDS keeps per-thread search
memory, so two concurrent calls from Python threads would share it.

Conventions used here and documented for the UI:

* DD tables count tricks out of the cards each hand holds: an ending of
  three cards a hand has entries 0..3 (DDS itself reports ``13 - n + tricks``
  for an ``n``-card ending; we subtract the offset).  DDS 2.9 gets tables of
  one-card endings wrong (checked against a brute-force search), and the
  play of the last trick is forced anyway, so those are worked out here.
* :func:`solve_position` returns, for each card the player to play may play,
  the **total** tricks declarer's side takes on the board if that card is
  played: ``won`` (tricks declarer's side has already won, given by the
  caller) plus what DDS says the side takes from here on, the current trick
  included.  This is what BBO's hand viewer shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from ..model.cards import CARDS, Card, Seat, Strain
from ..model.ddtable import DDTable
from ..model.deal import Deal
from ..model.vulnerability import Vulnerability
from .par_rules import ParContract, dealer_par

if TYPE_CHECKING:
    from endplay.types import Deal as EndplayDeal

#: DDS's MAXNOOFTABLES: deals a CalcAllTables call may take when all five strains are solved.
MAX_TABLES = 40

ProgressFn = Callable[[int, int], bool | None]
CancelFn = Callable[[], bool]

_LOCK = threading.RLock()
_threads: int | None = None  # what SetMaxThreads was last given (None = endplay's default, all cores)


class SolveCancelled(Exception):
    """Solving stopped because the caller asked it to; finished tables were reported."""


def _dds() -> ModuleType:
    """endplay's ctypes layer, loaded alone on first use (:func:`load_dds_only`): the window's par
    line, a DDS child, a Dask worker and ``solve``'s par need DDS, not endplay's dealer and
    matplotlib, which ``import endplay`` would load (0.6 s of CPU, in the window's process too); its
    structures are ctypes objects, typed ``Any`` below."""
    load_dds_only()
    from endplay import _dds

    return _dds


def load_dds_only() -> None:
    """Load endplay's DDS binding without the rest of endplay, in a process that only solves.

    ``import endplay`` runs its package, which imports its dealer, parsers and
    matplotlib: 0.6 s of CPU for every DDS child process, against 0.06 s for
    the binding itself.  The package is registered unexecuted (its path only),
    so its ``_dds`` sub-package loads alone; on any trouble the ordinary import
    is left to :func:`_dds`.
    """
    import importlib
    import importlib.util
    import sys

    if "endplay" in sys.modules:
        return
    try:
        spec = importlib.util.find_spec("endplay")
        if spec is None or not spec.submodule_search_locations:
            return
        sys.modules["endplay"] = importlib.util.module_from_spec(spec)
        importlib.import_module("endplay._dds")
    except Exception:
        sys.modules.pop("endplay._dds", None)
        sys.modules.pop("endplay", None)


def _set_threads(jobs: int | None) -> None:
    """Tell DDS how many worker threads to use (None or 0 = one per core)."""
    global _threads
    want = int(jobs or 0)
    if want == (_threads or 0):
        return
    _dds().SetMaxThreads(want)
    _threads = want or None


# -- conversions --------------------------------------------------------
# DDS numbers suits S H D C = 0..3 and ranks by bit (2 = 0x4 .. A = 0x4000);
# our masks hold suit s (C D H S = 0..3) in bits 13*s .. 13*s+12, rank 2 first.


def _dds_suit(suit: int) -> int:
    return 3 - int(suit)


def _dds_strain(strain: int) -> int:
    return 4 if strain == Strain.NOTRUMP else 3 - int(strain)


def hand_to_dds(mask: int) -> list[int]:
    """A 52-bit hand mask as DDS's four rank-bit holdings (S H D C)."""
    return [((mask >> (13 * (3 - d))) & 0x1FFF) << 2 for d in range(4)]


def hand_from_dds(holdings: Sequence[int]) -> int:
    """DDS's four rank-bit holdings (S H D C) as a 52-bit hand mask."""
    mask = 0
    for d in range(4):
        mask |= ((int(holdings[d]) >> 2) & 0x1FFF) << (13 * (3 - d))
    return mask


def _fill_remain(remain: Any, deal: Deal) -> None:
    for seat in range(4):
        for d, bits in enumerate(hand_to_dds(deal.hands[seat])):
            remain[seat][d] = bits


def to_endplay(deal: Deal) -> EndplayDeal:
    """Our :class:`Deal` as an ``endplay.types.Deal`` (hands only)."""
    from endplay.types import Deal as EDeal

    out = EDeal()
    _fill_remain(out._data.remainCards, deal)
    return out


def from_endplay(edeal: EndplayDeal) -> Deal:
    """An ``endplay.types.Deal``'s hands as our :class:`Deal` (cards played to its trick are not included)."""
    rc = edeal._data.remainCards
    return Deal.from_masks(hand_from_dds(list(rc[seat])) for seat in range(4))


# -- what can be solved -------------------------------------------------
def unsolvable_reason(deal: Deal) -> str | None:
    """Why DDS cannot make a DD table of ``deal``, or None when it can."""
    if deal.overlap:
        return "a card is in two hands"
    lengths = {h.bit_count() for h in deal.hands}
    if lengths == {0}:
        return "the deal has no cards"
    if len(lengths) != 1:
        return "the hands hold different numbers of cards"
    return None


def _table_from_result(res: Any, cards: int) -> DDTable:
    offset = 13 - cards
    rows = []
    for seat in range(4):
        rows.append([max(0, int(res.resTable[_dds_strain(st)][seat]) - offset) for st in range(5)])
    return DDTable.from_rows(rows)


def _last_trick_winner(cards: Sequence[int], leader: int, strain: int) -> Seat:
    """Winner of a trick of ``cards`` played in order from ``leader``."""
    from ..model.play import trick_winner

    return trick_winner(list(cards), leader, Strain(strain))


def _one_card_table(deal: Deal) -> DDTable:
    """The table of a one-card ending: every card is forced."""
    card = [deal.hands[s].bit_length() - 1 for s in range(4)]
    rows = []
    for declarer in range(4):
        leader = (declarer + 1) % 4
        order = [card[(leader + k) % 4] for k in range(4)]
        rows.append(
            [1 if _last_trick_winner(order, leader, st).is_ns == Seat(declarer).is_ns else 0 for st in range(5)]
        )
    return DDTable.from_rows(rows)


def _solve_batch(deals: Sequence[Deal]) -> list[DDTable]:
    """One CalcAllTables call (len(deals) <= MAX_TABLES, all solvable)."""
    import ctypes  # here, not at the top: the window imports this module at start-up and solves later

    dds = _dds()
    tables = dds.ddTableDeals()
    tables.noOfTables = len(deals)
    for i, deal in enumerate(deals):
        _fill_remain(tables.ddTableDeal[i].cards, deal)
    res = dds.ddTablesRes()
    par = dds.allParResults()
    dds.CalcAllTables(tables, -1, (ctypes.c_int * 5)(0, 0, 0, 0, 0), res, par)
    return [_table_from_result(res.results[i], deal.hands[0].bit_count()) for i, deal in enumerate(deals)]


def solve_tables(
    deals: Sequence[Deal],
    jobs: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    *,
    batch: int = MAX_TABLES,
    on_table: Callable[[int, DDTable | None], None] | None = None,
) -> list[DDTable | None]:
    """DD tables of ``deals``, in batches of at most ``batch`` (<= 40) deals a DDS call.

    ``jobs`` is DDS's thread count (None = one per core).  A deal DDS cannot
    solve (see :func:`unsolvable_reason`) gets None.  ``progress(done, total)``
    returning False, or ``cancel()`` returning True, stops between batches with
    :class:`SolveCancelled`; ``on_table(index, table)`` hears each result as
    soon as its batch is done, so a caller keeps what was finished.
    """
    batch = max(1, min(int(batch), MAX_TABLES))
    total = len(deals)
    out: list[DDTable | None] = [None] * total
    todo = [i for i, d in enumerate(deals) if unsolvable_reason(d) is None]
    if on_table is not None:
        for i in sorted(set(range(total)) - set(todo)):
            on_table(i, None)
    for i in [i for i in todo if deals[i].hands[0].bit_count() == 1]:
        out[i] = _one_card_table(deals[i])
        if on_table is not None:
            on_table(i, out[i])
    todo = [i for i in todo if out[i] is None]
    done = total - len(todo)
    for start in range(0, len(todo), batch):
        if cancel is not None and cancel():
            raise SolveCancelled()
        idx = todo[start : start + batch]
        with _LOCK:
            _set_threads(jobs)
            tables = _solve_batch([deals[i] for i in idx])
        for i, t in zip(idx, tables, strict=True):
            out[i] = t
            if on_table is not None:
                on_table(i, t)
        done += len(idx)
        if progress is not None and progress(done, total) is False:
            raise SolveCancelled()
    if progress is not None and not todo:
        progress(total, total)
    return out


def solve_table(deal: Deal) -> DDTable | None:
    """The DD table of one deal (None when it cannot be solved)."""
    return solve_tables([deal])[0]


# -- par ------------------------------------------------------------------
def par_contracts(
    source: Deal | DDTable, vulnerability: Vulnerability, dealer: Seat
) -> tuple[int, list[ParContract]] | None:
    """Par score for NS and the par contracts; None unless the table is complete.

    Pass a 13-card deal's table: par of an ending means nothing (a Deal that
    is not complete gives None).  Par of a table is worked out by
    :func:`.par_rules.dealer_par` without DDS; only a deal is solved first."""
    if isinstance(source, Deal):
        if not source.is_complete:
            return None
        table = solve_table(source)
        if table is None:
            return None
    else:
        table = source
    if not table.is_complete:
        return None
    return dealer_par(cast(Sequence[Sequence[int]], table.tricks), Vulnerability(vulnerability), Seat(dealer))


def par(source: Deal | DDTable, vulnerability: Vulnerability, dealer: Seat) -> tuple[int, list[str]] | None:
    """``(par score for NS, ["EW 4S", "NS 5DX-2", ...])``; None when par cannot be worked out
    (an ending, an unknown or incomplete table).  An empty list means par is a pass-out."""
    got = par_contracts(source, vulnerability, dealer)
    if got is None:
        return None
    score, contracts = got
    return score, [str(c) for c in contracts]


def par_text(source: Deal | DDTable, vulnerability: Vulnerability, dealer: Seat) -> str:
    """One line for under the DD grid: ``Par NS -420: EW 4S``, or "" when unknown."""
    got = par(source, vulnerability, dealer)
    if got is None:
        return ""
    score, contracts = got
    side = "NS" if score >= 0 else "EW"
    if not contracts and score:  # (DDS's rules name no contract in a corner no real table was seen to reach)
        return f"Par {side} {abs(score)}"
    what = "; ".join(contracts) if contracts else "passed out"
    return f"Par {side} {abs(score)}: {what}"


# -- a position during play ------------------------------------------------
def solve_position(
    remaining: Deal,
    trick_so_far: Sequence[int],
    leader: Seat,
    trump: Strain,
    declarer: Seat,
    won: int = 0,
) -> dict[Card, int]:
    """Tricks declarer's side ends with on the board for each card the player to play may play.

    ``remaining`` holds the cards not yet played (the cards of the trick on
    the table are not in it); ``trick_so_far`` are those 0..3 cards, led by
    ``leader``; ``won`` is the tricks declarer's side has already won.  Each
    value is ``won`` + the tricks declarer's side takes from here on (the
    current trick included).  Raises ValueError when the position is not
    solvable (hands of unequal length, a card in two places).
    """
    trick = [CARDS[int(c)] for c in trick_so_far]
    if len(trick) > 3:
        raise ValueError("a trick on the table has at most 3 cards before the next is played")
    to_play = Seat((int(leader) + len(trick)) % 4)
    lengths = [remaining.hands[s].bit_count() for s in range(4)]
    expect = [lengths[to_play] - (1 if i < len(trick) else 0) for i in range(4)]
    for i in range(4):
        seat = (int(leader) + i) % 4
        if lengths[seat] != expect[i]:
            raise ValueError("the hands do not hold the right numbers of cards for this position")
    if lengths[to_play] == 0:
        raise ValueError("no cards left to play")
    played = 0
    for c in trick:
        played |= 1 << int(c)
    if remaining.overlap or any(h & played for h in remaining.hands):
        raise ValueError("a card is in two places")
    if lengths[to_play] == 1:  # the last trick: every card is forced
        order = trick + [CARDS[remaining.hands[(int(leader) + k) % 4].bit_length() - 1] for k in range(len(trick), 4)]
        winner = _last_trick_winner(order, int(leader), trump)
        return {order[len(trick)]: won + (1 if winner.is_ns == Seat(declarer).is_ns else 0)}
    dds = _dds()
    dl = dds.deal()
    dl.trump = _dds_strain(trump)
    dl.first = int(leader)
    for i in range(3):
        if i < len(trick):
            dl.currentTrickSuit[i] = _dds_suit(trick[i].suit)
            dl.currentTrickRank[i] = trick[i].rank
        else:
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
    _fill_remain(dl.remainCards, remaining)
    fut = dds.futureTricks()
    with _LOCK:
        dds.SolveBoard(dl, -1, 3, 1, fut, 0)
    tricks_left = lengths[to_play]
    same_side = Seat(to_play).is_ns == Seat(declarer).is_ns
    out: dict[Card, int] = {}
    for i in range(fut.cards):
        score = int(fut.score[i])
        if score < 0:
            continue
        side = score if same_side else tricks_left - score
        suit = 3 - int(fut.suit[i])
        holding = (1 << int(fut.rank[i])) | int(fut.equals[i])
        for rank in range(2, 15):
            if holding >> rank & 1:
                out[Card.of(suit, rank)] = won + side
    return out


def costly_cards(values: dict[Card, int], to_play: Seat, declarer: Seat) -> set[Card]:
    """Cards that give a trick away: below the best for the side of the player to play."""
    if not values:
        return set()
    declarer_side = Seat(to_play).is_ns == Seat(declarer).is_ns
    best = max(values.values()) if declarer_side else min(values.values())
    return {c for c, v in values.items() if v != best}
