"""The play of the hand: tricks, who leads, who wins, what is legal.

:func:`replay` walks a card list against a deal and records, after every card,
the state a viewer needs (the current trick, tricks won, the hands left), and
stops at the first card that cannot have been played, saying why, instead of
raising.  Validation and the replay view share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card, Seat, Strain, suit_mask
from .deal import Deal


def _trick_weights(trump: int, led: int) -> tuple[int, ...]:
    """Each card's weight in a trick led in suit ``led`` (``trump`` 4: notrump): a trump by its rank above
    any card of the suit led, by its rank, above any other card (0).  Multiples of 4, so a card's position
    in the trick can ride in the low bits of a ``max``."""
    return tuple(
        4 * (64 + c % 13) if c // 13 == trump else 4 * (32 + c % 13) if c // 13 == led else 0 for c in range(52)
    )


#: ``TRICK_WEIGHTS[trump][lead card][card]`` (trump 0-3 clubs to spades, 4 notrump): the card of the highest
#: weight wins the trick.  The one rule of who wins a trick, as a table: :func:`trick_winner` and the readers'
#: fast paths (PBN's play section, LIN's) look it up.
#: (A lead card's row depends only on its suit: the 20 distinct rows are made once and shared, which keeps
#: this import, which every command pays, from building 260.)
_ROWS_BY_SUIT = tuple(tuple(_trick_weights(trump, led) for led in range(4)) for trump in range(5))
TRICK_WEIGHTS = tuple(tuple(_ROWS_BY_SUIT[trump][c // 13] for c in range(52)) for trump in range(5))


def trump_index(trump: Strain | None) -> int:
    """The first index of :data:`TRICK_WEIGHTS` for a contract in ``trump`` (None: notrump)."""
    return int(trump) if trump is not None else int(Strain.NOTRUMP)


def trick_winner(cards: Sequence[int], leader: int, trump: Strain | None) -> Seat:
    """The seat that wins a (possibly incomplete) trick led by ``leader``:
    the highest trump if any was played, else the highest card of the suit led."""
    weights = TRICK_WEIGHTS[trump_index(trump)][cards[0]]
    best = max(range(len(cards)), key=lambda i: weights[cards[i]])
    return Seat((leader + best) % 4)


def legal_play_tricks(hands: Sequence[int], play: Sequence[int], declarer: int, trump: Strain | None) -> int | None:
    """Declarer's side's tricks in a whole play (52 cards) that follows the rules, else None: what
    :func:`replay` and :func:`declarer_tricks` give, on plain ints (hand masks, card numbers), because a
    reader asks it of every played board of a file."""
    left = list(hands)
    table = TRICK_WEIGHTS[trump_index(trump)]
    leader = (declarer + 1) % 4
    won = 0  # tricks of declarer's side
    for t in range(0, 52, 4):
        lead_suit = play[t] // 13
        weights = table[play[t]]
        best = -1
        best_weight = -1
        for j in range(4):
            card = int(play[t + j])
            seat = (leader + j) % 4
            bit = 1 << card
            hand = left[seat]
            if not hand & bit:
                return None
            if j and card // 13 != lead_suit and hand >> (13 * lead_suit) & 0x1FFF:
                return None
            left[seat] = hand & ~bit
            if weights[card] > best_weight:
                best_weight, best = weights[card], seat
        leader = best
        won += (best - declarer) % 2 == 0
    return won


@dataclass
class Trick:
    leader: Seat
    cards: list[Card] = field(default_factory=list)
    winner: Seat | None = None

    def seat_of(self, index: int) -> Seat:
        return Seat((self.leader + index) % 4)


@dataclass
class PlayReplay:
    """The play as far as it is legal: completed and current tricks."""

    tricks: list[Trick]
    played: int  # cards replayed legally
    ns_tricks: int
    ew_tricks: int
    problem: str | None = None  # why the replay stopped early, if it did

    def position(self, deal: Deal, step: int) -> tuple[Deal, Trick | None, int, int, Seat | None]:
        """After ``step`` cards: the remaining hands, the trick on the table,
        NS and EW tricks won, and the seat to play next."""
        step = max(0, min(step, self.played))
        gone: list[Card] = []
        ns = ew = 0
        current: Trick | None = None
        to_play: Seat | None = self.tricks[0].leader if self.tricks else None
        remaining = step
        for t in self.tricks:
            if remaining <= 0:
                break
            take = min(remaining, len(t.cards))
            gone.extend(t.cards[:take])
            remaining -= take
            if take == 4 and t.winner is not None:
                if t.winner.is_ns:
                    ns += 1
                else:
                    ew += 1
                current = Trick(t.leader, list(t.cards), t.winner)
                to_play = t.winner
            else:
                current = Trick(t.leader, list(t.cards[:take]))
                to_play = Seat((t.leader + take) % 4)
        return deal.without(gone), current, ns, ew, to_play


def opening_leader(declarer: int) -> Seat:
    return Seat((int(declarer) + 1) % 4)


def replay(deal: Deal, play: Sequence[int], declarer: int | None, trump: Strain | None) -> PlayReplay:
    """Replay ``play`` from the opening lead; stop at the first illegal card."""
    tricks: list[Trick] = []
    if declarer is None:
        return PlayReplay([], 0, 0, 0, "no declarer, so the play cannot be replayed" if play else None)
    hands = list(deal.hands)
    leader = opening_leader(declarer)
    ns = ew = 0
    current = Trick(leader)
    for i, raw in enumerate(play):
        card = Card(int(raw))
        seat = current.seat_of(len(current.cards))
        bit = 1 << card
        if not hands[seat] & bit:
            owner = Deal.from_masks(hands).owner(card)
            where = f"{owner.letter} holds it" if owner is not None else "no hand holds it now"
            if current.cards:
                tricks.append(current)
            return PlayReplay(tricks, i, ns, ew, f"card {i + 1} ({card}) is not in {seat.letter}'s hand ({where})")
        if current.cards:
            lead_suit = current.cards[0] // 13
            if card // 13 != lead_suit and hands[seat] & suit_mask(lead_suit):
                if current.cards:
                    tricks.append(current)
                return PlayReplay(
                    tricks,
                    i,
                    ns,
                    ew,
                    f"card {i + 1} ({card}) by {seat.letter} revokes: {seat.letter} still holds a card of the suit led",
                )
        hands[seat] &= ~bit
        current.cards.append(card)
        if len(current.cards) == 4:
            current.winner = trick_winner(current.cards, current.leader, trump)
            if current.winner.is_ns:
                ns += 1
            else:
                ew += 1
            tricks.append(current)
            current = Trick(current.winner)
    if current.cards:
        tricks.append(current)
    return PlayReplay(tricks, len(play), ns, ew)


def declarer_tricks(rp: PlayReplay, declarer: int) -> int:
    return rp.ns_tricks if Seat(declarer).is_ns else rp.ew_tricks
