"""Qt-free rules of the editor: typed hands, legal calls and cards, and board edits that leave nothing stale.

The GUI only collects clicks and keystrokes; every rule a user can break
(a card typed twice, an insufficient bid, a revoke) is decided here, so the
same rules can be tested without a window and reused by other front ends.
Edits return new :class:`Board` objects (via ``Board.touched``) and never
change the board they are given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from .auction import Call, CallKind, Contract, auction_is_complete, final_contract
from .board import Board
from .cards import DISPLAY_SUITS, FULL_MASK, RANK_CHARS, SUIT_LETTERS, Card, Seat, Strain, cards_of, suit_mask
from .deal import Deal
from .play import declarer_tricks, replay
from .vulnerability import dealer_for_board, vulnerability_for_board

#: tags that hold results of analysing the deal: stale as soon as a card moves
PAR_TAGS = ("Ability", "Minimax", "OptimumResultTable", "OptimumScore", "ParContract", "DoubleDummyTricks")
#: tags that keep a format's text of a value we model (dropped when the value is edited)
CONTRACT_TAGS = ("Contract", "Declarer", "Result")


# -- typed hands ------------------------------------------------------------------
def parse_hand(text: str) -> int:
    """A 52-bit mask from one hand in PBN syntax (``AKQ.JT9.876.5432``), forgiving as people type.

    Lower case and ``10`` for the ten are accepted; ``-`` or nothing is a void;
    an empty or ``-`` text is an empty hand; fewer than four suits leaves the
    rest void.  Raises ValueError naming the problem.
    """
    t = text.strip()
    if t in ("", "-"):
        return 0
    suits = t.split(".")
    if len(suits) > 4:
        raise ValueError(f"{len(suits)} suits: a hand has four, spades.hearts.diamonds.clubs")
    mask = 0
    for suit, ranks in zip(DISPLAY_SUITS, suits, strict=False):
        r = ranks.strip().upper().replace("10", "T")
        if r == "-":
            continue
        for ch in r:
            if ch.isspace():
                continue
            index = RANK_CHARS.find(ch)
            if index < 0:
                raise ValueError(f"{ch!r} is not a card rank in {SUIT_LETTERS[suit]}")
            bit = 1 << (13 * suit + index)
            if mask & bit:
                raise ValueError(f"{SUIT_LETTERS[suit]}{ch} typed twice")
            mask |= bit
    return mask


def hand_text(mask: int, ten: str = "T") -> str:
    """The PBN text of one hand (``AKQ.JT9.876.5432``; ``...`` is an empty hand); ``ten="10"`` writes the
    ten as people read it (``AKQ.J109.876.5432``, which :func:`parse_hand` reads back)."""
    from .cards import ranks_text

    return ".".join(ranks_text(mask, s).replace("T", ten) for s in DISPLAY_SUITS)


@dataclass
class HandsCheck:
    """What is right and wrong with four typed hands."""

    masks: list[int | None]  # None where the text does not parse
    errors: dict[int, str] = field(default_factory=dict)  # seat -> syntax problem
    duplicates: list[Card] = field(default_factory=list)
    missing: list[Card] = field(default_factory=list)
    filled: int | None = None  # seat filled with the rest of the pack

    @property
    def counts(self) -> list[int | None]:
        return [m.bit_count() if m is not None else None for m in self.masks]

    @property
    def deal(self) -> Deal | None:
        """The deal to apply, or None while the text has errors or a card twice."""
        masks = [m for m in self.masks if m is not None]
        if self.errors or self.duplicates or len(masks) < len(self.masks):
            return None
        return Deal.from_masks(masks)

    def problems(self, name: Callable[[Card], str] = str) -> list[str]:
        """Everything wrong, as sentences for the panel; ``name`` writes a card (``str``: ``SA``)."""
        out = [f"{Seat(s).letter}: {e}" for s, e in sorted(self.errors.items())]
        if self.duplicates:
            out.append("in two hands: " + " ".join(name(c) for c in self.duplicates))
        for seat, n in enumerate(self.counts):
            if n is not None and n > 13:
                out.append(f"{Seat(seat).letter} holds {n} cards, more than 13")
        if self.missing and not self.errors:
            total = sum(n or 0 for n in self.counts)
            if total > 39:
                out.append("missing: " + " ".join(name(c) for c in self.missing))
        return out


def check_hands(texts: list[str], *, fill: bool = True) -> HandsCheck:
    """Parse four hand texts (N E S W); with ``fill``, a fourth empty hand gets the rest when three hold 13."""
    masks: list[int | None] = []
    errors: dict[int, str] = {}
    for seat, text in enumerate(texts):
        try:
            masks.append(parse_hand(text))
        except ValueError as e:
            masks.append(None)
            errors[seat] = str(e)
    seen = dup = 0
    for m in masks:
        if m is not None:
            dup |= seen & m
            seen |= m
    check = HandsCheck(masks, errors, cards_of(dup))
    if fill and not errors and not dup:
        empty = [s for s, m in enumerate(masks) if not m]
        if len(empty) == 1 and all((m or 0).bit_count() == 13 for s, m in enumerate(masks) if s != empty[0]):
            check.masks[empty[0]] = FULL_MASK & ~seen
            check.filled = empty[0]
            seen = FULL_MASK
    check.missing = cards_of(FULL_MASK & ~seen)
    return check


# -- deal transformations ----------------------------------------------------------
def rotate_deal(deal: Deal, steps: int = 1) -> Deal:
    """The deal turned clockwise by ``steps`` quarter turns: North's hand goes to East for one step."""
    k = steps % 4
    return Deal.from_masks([deal.hands[(s - k) % 4] for s in range(4)])


def swap_hands(deal: Deal, a: int, b: int) -> Deal:
    """The deal with the hands of seats ``a`` and ``b`` exchanged."""
    hands = list(deal.hands)
    hands[a], hands[b] = hands[b], hands[a]
    return Deal.from_masks(hands)


def random_deals(count: int, seed: int | None = None) -> list[Deal]:
    """``count`` full random deals: from ``secrets.SystemRandom`` (fair, unrepeatable) unless a seed is given."""
    if seed is None:
        import secrets

        rng: random.Random = secrets.SystemRandom()
    else:
        rng = random.Random(seed)
    return [Deal.shuffled(rng) for _ in range(count)]


def new_seed() -> int:
    """A seed a director can write down and type in again (nine digits)."""
    import secrets

    return secrets.randbelow(900_000_000) + 100_000_000


# -- auction -------------------------------------------------------------------------
def next_caller(calls: list[Call], dealer: int) -> Seat:
    return Seat((int(dealer) + len(calls)) % 4)


def legal_calls(calls: list[Call], dealer: int = Seat.NORTH) -> list[Call]:
    """Every call the next player may make; empty once the auction has ended."""
    if auction_is_complete(calls):
        return []
    last_bid: Call | None = None
    last_bidder = -1
    risk = 0
    risk_by = -1
    for i, c in enumerate(calls):
        seat = (int(dealer) + i) % 4
        if c.kind == CallKind.BID:
            last_bid, last_bidder, risk, risk_by = c, seat, 0, -1
        elif c.kind == CallKind.DOUBLE:
            risk, risk_by = 1, seat
        elif c.kind == CallKind.REDOUBLE:
            risk, risk_by = 2, seat
    me = (int(dealer) + len(calls)) % 4
    out = [Call(CallKind.PASS)]
    if last_bid is not None and risk == 0 and (last_bidder - me) % 2 == 1:
        out.append(Call(CallKind.DOUBLE))
    if last_bid is not None and risk == 1 and (risk_by - me) % 2 == 1:
        out.append(Call(CallKind.REDOUBLE))
    low = last_bid.rank + 1 if last_bid is not None else 0
    for rank in range(low, 35):
        out.append(Call.bid(rank // 5 + 1, rank % 5))
    return out


def is_legal_call(calls: list[Call], call: Call, dealer: int = Seat.NORTH) -> bool:
    return any(call.same_call(c) for c in legal_calls(calls, dealer))


def contract_of(calls: list[Call], dealer: int) -> tuple[Contract | None, Seat | None]:
    """The contract and declarer the auction reaches; (None, None) while it is unfinished."""
    fc = final_contract(calls, dealer)
    return fc if fc is not None else (None, None)


# -- play -------------------------------------------------------------------------------
@dataclass
class PlayState:
    """Where the play of a board stands, for the play entry."""

    declarer: Seat | None
    trump: Strain | None
    to_play: Seat | None  # None when no card can be played (no contract, play over, bad play)
    legal: int  # mask of cards the player to play may play
    played: int  # cards played legally
    declarer_tricks: int
    problem: str | None = None  # why the recorded play stops early


def play_state(board: Board) -> PlayState:
    """Whose turn it is and which cards they may play, after the board's recorded play."""
    contract, declarer = board.contract_and_declarer()
    if contract is None or contract.is_passed_out or declarer is None:
        return PlayState(None, None, None, 0, 0, 0, None)
    trump = contract.strain
    play = list(board.play or [])
    rp = replay(board.deal, play, declarer, trump)
    won = declarer_tricks(rp, declarer)
    if rp.problem:
        return PlayState(declarer, trump, None, 0, rp.played, won, rp.problem)
    if len(play) >= 52 or board.claim is not None:
        return PlayState(declarer, trump, None, 0, rp.played, won)
    remaining, trick, _ns, _ew, to_play = rp.position(board.deal, rp.played)
    if to_play is None:
        to_play = Seat((int(declarer) + 1) % 4)
    hand = remaining.hands[to_play]
    legal = hand
    if trick is not None and trick.winner is None and trick.cards:
        follow = hand & suit_mask(trick.cards[0] // 13)
        if follow:
            legal = follow
    return PlayState(declarer, trump, to_play if hand else None, legal if hand else 0, rp.played, won)


def result_of(board: Board) -> int | None:
    """Declarer's tricks from a finished play or a claim; None while the play is unfinished."""
    if board.claim is not None:
        return board.claim
    contract, declarer = board.contract_and_declarer()
    if not board.play or contract is None or declarer is None or contract.is_passed_out:
        return None
    rp = replay(board.deal, list(board.play), declarer, contract.strain)
    if rp.problem or rp.played < 52:
        return None
    return declarer_tricks(rp, declarer)


# -- board edits (each returns a new, touched board) -------------------------------------
def _without(tags: dict[str, str], names: Collection[str]) -> dict[str, str]:
    return {k: v for k, v in tags.items() if k not in names and k.split(":")[0] not in names}


def with_deal(board: Board, deal: Deal) -> Board:
    """The board with a new deal; nothing about the old deal stays.

    Its DD table and every tag analysing the deal (:data:`PAR_TAGS`) go.  A recorded play is kept as far
    as it can still have been played from the new hands (a rotation or a swap usually ends it at the
    first card); the cards after that go with the claim and the result (never "made +1" over a play
    that now stops after one card).
    """
    tags = _without(board.tags, (*PAR_TAGS, "Deal"))
    new = board.touched(deal=deal, dd=None, tags=tags)
    if board.play:
        kept = fitting_play(new)
        if kept < len(board.play):
            new.play = list(board.play[:kept]) or None
            new.play_marks = {i: m for i, m in board.play_marks.items() if i < kept}
            new.claim = None
            new.tags = _without(new.tags, ("Result",))
            new.result = result_of(new)  # None: the play that made the result is gone
    return new


def fitting_play(board: Board) -> int:
    """How many cards of the board's recorded play could have been played from its hands (all of them
    when the play is legal; 0 when there is no contract to play it in)."""
    play = list(board.play or [])
    contract, declarer = board.contract_and_declarer()
    if not play or contract is None or declarer is None or contract.is_passed_out:
        return 0
    rp = replay(board.deal, play, declarer, contract.strain)
    return rp.played if rp.problem else len(play)


def with_auction(board: Board, calls: list[Call] | None) -> Board:
    """The board with a new auction; contract and declarer follow it, and play that no longer fits goes."""
    dealer = board.effective_dealer
    contract, declarer = contract_of(calls or [], dealer)
    old_contract, old_declarer = board.contract_and_declarer()
    keep_play = (
        contract is not None
        and old_contract is not None
        and declarer == old_declarer
        and contract.strain == old_contract.strain
        and not contract.is_passed_out
    )
    new = board.touched(
        auction=list(calls) if calls else None,
        contract=contract,
        declarer=declarer,
        tags=_without(board.tags, CONTRACT_TAGS),
    )
    if not keep_play:
        new.play, new.play_marks, new.claim = None, {}, None
    new.result = result_of(new) if keep_play or new.play else None
    if contract is not None and contract.is_passed_out:
        new.result = None
    return new


def with_play(board: Board, play: Sequence[int] | None, claim: int | None = None) -> Board:
    """The board with a new play (and claim); the result follows from them."""
    marks = {i: m for i, m in board.play_marks.items() if play is not None and i < len(play)}
    new = board.touched(
        play=[Card(int(c)) for c in play] if play else None,
        claim=claim,
        play_marks=marks,
        tags=_without(board.tags, ("Result",)),
    )
    new.result = result_of(new)
    return new


def board_numbers(boards: Sequence[Board], first: int) -> list[int]:
    """The number of each record when the boards are numbered ``first``, ``first + 1``, ... in order of first
    appearance: the tables of one board (the same number and cards: :mod:`model.tables`) keep sharing a
    number, and records under one number with different deals are numbered apart."""
    from .tables import board_columns

    tables = board_columns(boards).tables()
    new: dict[int, int] = {}
    out = []
    for i in range(len(boards)):
        board = tables.first_of(i)
        if board not in new:
            new[board] = first + len(new)
        out.append(new[board])
    return out


def renumbered(
    boards: list[Board], first: int, *, rederive: bool = True, keep_auction_dealers: bool = False
) -> list[Board]:
    """Boards numbered ``first``, ``first + 1``, ... (the tables of a board keep one number: :func:`board_numbers`);
    dealer and vulnerability follow the numbers unless kept.

    With ``keep_auction_dealers`` a board that has an auction keeps its dealer (its vulnerability still
    follows the number): the auction was bid from that seat, and a new dealer would start it with the
    wrong player.
    """
    out = []
    for b, n in zip(boards, board_numbers(boards, first), strict=True):
        keep_dealer = keep_auction_dealers and bool(b.auction)
        dropped = ("Board", "Vulnerable") if keep_dealer else ("Board", "Dealer", "Vulnerable")
        changes: dict[str, object] = {"number": n, "tags": _without(b.tags, dropped if rederive else ("Board",))}
        if rederive:
            dealer = b.effective_dealer if keep_dealer else dealer_for_board(n)
            changes.update(dealer=dealer, vulnerability=vulnerability_for_board(n))
        out.append(b.touched(**changes))
    return out


def auctions_in(boards: Iterable[Board]) -> int:
    """How many of ``boards`` have an auction (their dealer matters to a renumbering)."""
    return sum(1 for b in boards if b.auction)


def empty_board(number: int) -> Board:
    """A board with no cards whose dealer and vulnerability follow from its number."""
    return Board.numbered(number)


def next_free_number(boards: Iterable[Board]) -> int:
    """One more than the biggest board number in ``boards`` (1 for none)."""
    return max((b.number or 0 for b in boards), default=0) + 1


__all__ = [
    "PAR_TAGS",
    "HandsCheck",
    "board_numbers",
    "PlayState",
    "check_hands",
    "contract_of",
    "auctions_in",
    "empty_board",
    "fitting_play",
    "hand_text",
    "is_legal_call",
    "legal_calls",
    "new_seed",
    "next_caller",
    "next_free_number",
    "parse_hand",
    "play_state",
    "random_deals",
    "renumbered",
    "result_of",
    "rotate_deal",
    "swap_hands",
    "with_auction",
    "with_deal",
    "with_play",
]
