"""Where a replay of the play stands: steps, tricks, claims and why a play stops.

The UI's replay bar, the keyboard and ``bridgeview render --step`` all move
through the same numbered positions: step 0 is the full deal before the
opening lead, step ``k`` is the position after ``k`` cards.  Keeping that
arithmetic here, without Qt, lets it be tested directly and shared.
"""

from __future__ import annotations

from dataclasses import dataclass

from .auction import Contract
from .board import Board
from .cards import Seat, Strain
from .deal import Deal
from .play import PlayReplay, Trick, declarer_tricks, replay
from .scoring import duplicate_score

#: record bytes ZRJ gives the calls and the plays together (Pavlicek, guide 7A14)
ZRJ_CALL_PLAY_BYTES = 62


@dataclass(frozen=True)
class ReplayPosition:
    """Everything a view shows after ``step`` cards."""

    step: int
    remaining: Deal
    trick: Trick | None  # the trick on the table (complete with a winner at a trick boundary)
    ns_tricks: int
    ew_tricks: int
    to_play: Seat | None
    played: frozenset[int]  # cards already played, the current trick included
    trick_number: int  # 1-based number of the trick on the table, 0 before the lead
    card_in_trick: int  # 1..4 cards of that trick played, 0 before the lead
    at_end: bool
    claim_text: str | None  # shown at the end of the play only
    stop_text: str | None  # shown at the end of the play only

    def label(self) -> str:
        """``trick 5, card 3 – NS 3 EW 1`` (or ``start – NS 0 EW 0``) for the replay bar."""
        where = "start" if self.step == 0 else f"trick {self.trick_number}, card {self.card_in_trick}"
        return f"{where} – NS {self.ns_tricks} EW {self.ew_tricks}"


class ReplayState:
    """The play of one board as numbered steps, with trick-wise navigation.

    ``fmt`` is the registry name of the format the board came from; it only
    sharpens the explanation of a play that stops early (ZRJ's fixed record).
    """

    def __init__(self, board: Board, fmt: str | None = None) -> None:
        self.board = board
        self.fmt = fmt
        contract, declarer = board.contract_and_declarer()
        self.contract: Contract | None = contract
        self.declarer: Seat | None = declarer
        self.trump: Strain | None = contract.strain if contract is not None else None
        play = list(board.play or [])
        self.recorded = len(play)
        if contract is not None and contract.is_passed_out and play:
            self.replay = PlayReplay([], 0, 0, 0, "the board was passed out, so the play cannot be replayed")
        else:
            self.replay = replay(board.deal, play, declarer, self.trump)
        #: cards after the recorded ones that the replay adds: the forced last trick
        self.forced = 0
        if self._last_trick_is_forced():
            tail = self._forced_tail()
            self.replay = replay(board.deal, [*play, *tail], declarer, self.trump)
            self.forced = len(tail)
        #: step numbers at which a trick is complete (4, 8, ...)
        self._trick_ends: list[int] = []
        count = 0
        for t in self.replay.tricks:
            count += len(t.cards)
            if len(t.cards) == 4:
                self._trick_ends.append(count)
        self.stop_text = self._stop_text()
        self.claim_text = self._claim_text()

    # -- size -------------------------------------------------------------
    @property
    def steps(self) -> int:
        """The last step: the number of cards that replay legally."""
        return self.replay.played

    @property
    def has_play(self) -> bool:
        return self.steps > 0

    @property
    def tricks(self) -> list[Trick]:
        return self.replay.tricks

    # -- step arithmetic --------------------------------------------------
    def clamp(self, step: int) -> int:
        return max(0, min(int(step), self.steps))

    def next_card(self, step: int) -> int:
        return self.clamp(step + 1)

    def prev_card(self, step: int) -> int:
        return self.clamp(step - 1)

    def next_trick(self, step: int) -> int:
        """The end of the trick after ``step`` (or of the current one, if unfinished); the end of the play at most."""
        for end in self._trick_ends:
            if end > step:
                return end
        return self.steps

    def prev_trick(self, step: int) -> int:
        """The end of the last trick completed before ``step``; 0 before the first."""
        for end in reversed(self._trick_ends):
            if end < step:
                return end
        return 0

    def start(self) -> int:
        return 0

    def end(self) -> int:
        return self.steps

    # -- positions --------------------------------------------------------
    def position(self, step: int) -> ReplayPosition:
        step = self.clamp(step)
        remaining, trick, ns, ew, to_play = self.replay.position(self.board.deal, step)
        played: set[int] = set()
        left = step
        trick_number = card_in_trick = 0
        for number, t in enumerate(self.replay.tricks, start=1):
            if left <= 0:
                break
            take = min(left, len(t.cards))
            played.update(int(c) for c in t.cards[:take])
            trick_number, card_in_trick = number, take
            left -= take
        at_end = step == self.steps
        if (at_end and self.claim_text is not None) or not remaining.card_count:
            to_play = None  # a claim ends the play; so does the last card
        return ReplayPosition(
            step=step,
            remaining=remaining,
            trick=trick,
            ns_tricks=ns,
            ew_tricks=ew,
            to_play=to_play,
            played=frozenset(played),
            trick_number=trick_number,
            card_in_trick=card_in_trick,
            at_end=at_end,
            claim_text=self.claim_text if at_end else None,
            stop_text=self.stop_text if at_end else None,
        )

    # -- the forced last trick ------------------------------------------------
    def _last_trick_is_forced(self) -> bool:
        """48 legal cards of a full deal and no claim: each hand has one card left, so the
        last trick can be played out (ZRJ's 62 bytes often end just there)."""
        rp = self.replay
        return (
            self.recorded == 48
            and rp.played == 48
            and not rp.problem
            and self.board.claim is None
            and self.board.deal.is_complete
            and self.declarer is not None
        )

    def _forced_tail(self) -> list[int]:
        remaining, _trick, _ns, _ew, to_play = self.replay.position(self.board.deal, 48)
        seat = to_play if to_play is not None else self.replay.tricks[-1].winner
        assert seat is not None, "a replayed trick has a winner"
        tail: list[int] = []
        for _ in range(4):
            tail.append(int(remaining.cards(seat)[0]))
            seat = seat.next
        return tail

    # -- texts --------------------------------------------------------------
    def _stop_text(self) -> str | None:
        """Why the replay ends before all 52 cards, when a claim does not explain it."""
        rp = self.replay
        if rp.problem:
            return f"play stops after {_cards(rp.played)}: {rp.problem}"
        if self.forced:
            holds = "ZRJ holds" if self._zrj_full() else "the file records"
            return f"{holds} {self.recorded} cards; the last trick is forced and played out"
        if not self.recorded or self.recorded >= 52 or self.board.claim is not None:
            return None
        if self._zrj_full():
            return f"play stops after {_cards(self.recorded)} (ZRJ holds no more)"
        return f"play stops after {_cards(self.recorded)} (the file records no more)"

    def _zrj_full(self) -> bool:
        return self.fmt == "zrj" and len(self.board.auction or []) + self.recorded >= ZRJ_CALL_PLAY_BYTES

    def _claim_text(self) -> str | None:
        claim = self.board.claim
        if claim is None or self.declarer is None:
            return None
        won = declarer_tricks(self.replay, self.declarer)
        done = self.replay.ns_tricks + self.replay.ew_tricks
        left = 13 - done
        side = "NS" if self.declarer.is_ns else "EW"
        text = f"{self.declarer.letter} claims {claim} tricks for {side}"
        if 0 <= claim - won <= left and done:
            text += f" ({claim - won} of the last {left})"
        return text

    def trick_rows(self) -> list[tuple[int, Seat, list[str], Seat | None]]:
        """(number, leader, cards in play order, winner or None) of every trick replayed."""
        return [(n, t.leader, [str(c) for c in t.cards], t.winner) for n, t in enumerate(self.replay.tricks, 1)]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def result_tricks(board: Board, rs: ReplayState | None = None) -> int | None:
    """Declarer's tricks: the stored result, else the claim, else a complete replayed play."""
    if board.result is not None:
        return board.result
    if board.claim is not None:
        return board.claim
    rs = rs or ReplayState(board)
    if rs.declarer is not None and rs.steps == 52 and not rs.replay.problem:
        return declarer_tricks(rs.replay, rs.declarer)
    return None


def result_summary(board: Board, rs: ReplayState | None = None) -> str:
    """``4♥X by S, 10 tricks, +790 NS``; ``Passed out``; ``No contract`` when unknown.

    The score is the declaring side's, so a defeated contract reads ``-100 NS``.
    """
    contract, declarer = board.contract_and_declarer()
    if contract is None:
        return "No contract"
    if contract.is_passed_out:
        return "Passed out"
    text = contract.symbol_text()
    if declarer is None:
        return text
    text += f" by {declarer.letter}"
    tricks = result_tricks(board, rs)
    if tricks is None or not 0 <= tricks <= 13:
        return text
    vulnerable = board.effective_vulnerability.is_vulnerable(declarer)
    score = duplicate_score(contract, vulnerable, tricks)
    side = "NS" if declarer.is_ns else "EW"
    word = "trick" if tricks == 1 else "tricks"
    return f"{text}, {tricks} {word}, {score:+d} {side}"
