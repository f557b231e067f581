"""Seeds and damage for fuzzing the readers, shared by the suite's hypothesis campaign
(tests/test_fuzz_readers.py) and the long run (bench/bench_fuzz.py).

Damage is described once and drawn through a :class:`Picker`: hypothesis's ``draw`` in the suite (so
failures shrink), :class:`random.Random` in the bench (so a run of 100,000 inputs is cheap and
repeatable from its seed).
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from bridgeview.formats.registry import Codec
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import trick_winner

REPO = Path(__file__).resolve().parent.parent
REALDATA = REPO.parent / "shared" / "realdata"
SEED_BOARDS = 3

#: bytes that mean something to some reader, spliced into seeds
GARBAGE: list[bytes] = [
    b"\x00" * 8,
    b"\xff" * 8,
    b'[Deal "N:',
    b"|md|",
    b"\r\n\r\n",
    b"\xc3\x28",
    b"-" * 5,
    b"9" * 20,
    b"9" * 40,
    b"AKQJT98765432",
    b"\t\x1a",
    b"}{][",
    b"==",
    b'<img src="/dev/zero">',
    b"<table>",
    b'[Board "1"]\n',
    b"{",
    b"}",
    b'"',
    b"\\",
    b"%",
    b";",
    b"|an|<b>x</b>|",
    b"\xfe\xff",
]
#: the kinds of damage
KINDS = ("truncate", "flip", "insert", "overwrite", "empty", "mixed", "chunk-repeat")

_T = TypeVar("_T")


class Picker(Protocol):
    """Where the random choices of :func:`damage` come from."""

    def integer(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``, both included."""
        ...

    def junk(self) -> bytes:
        """A few bytes to splice in: one of :data:`GARBAGE` or random bytes."""
        ...


class RandomPicker:
    """Choices from a :class:`random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def junk(self) -> bytes:
        rng = self.rng
        if rng.random() < 0.6:
            return rng.choice(GARBAGE)
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 24)))


def pick(picker: Picker, items: Sequence[_T]) -> _T:
    return items[picker.integer(0, len(items) - 1)]


def damage(data: bytes, kind: str, picker: Picker) -> bytes:
    """``data`` damaged one way (a kind of :data:`KINDS`), its details chosen by ``picker``."""
    buf = bytearray(data)
    n = len(buf)
    if kind == "empty":
        return b""
    if kind == "truncate":
        del buf[picker.integer(0, max(0, n - 1)) :]
    elif kind == "flip":
        for _ in range(picker.integer(1, 8)):
            if buf:
                buf[picker.integer(0, len(buf) - 1)] ^= 1 << picker.integer(0, 7)
    elif kind == "insert":
        i = picker.integer(0, n)
        buf[i:i] = picker.junk()
    elif kind == "overwrite":
        if buf:
            i = picker.integer(0, n - 1)
            junk = picker.junk()
            buf[i : i + len(junk)] = junk
    elif kind == "chunk-repeat":
        if buf:
            i = picker.integer(0, n - 1)
            j = picker.integer(i, min(n, i + 64))
            buf[j:j] = buf[i:j] * picker.integer(1, 4)
    else:  # several small changes at random points
        for _ in range(picker.integer(2, 5)):
            if not buf:
                break
            i = picker.integer(0, len(buf) - 1)
            op = picker.integer(0, 2)
            if op == 0:
                buf[i] = picker.integer(0, 255)
            elif op == 1:
                del buf[i : i + picker.integer(1, 16)]
            else:
                buf[i:i] = picker.junk()
    return bytes(buf)


# -- seed files -----------------------------------------------------------------
def _legal_play(deal: Deal, declarer: Seat, cards: int) -> list[Card]:
    """``cards`` legal cards of a notrump contract: follow suit with the lowest card."""
    hands = list(deal.hands)
    play: list[Card] = []
    leader = int(declarer.next)
    trick: list[int] = []
    while len(play) < cards:
        seat = (leader + len(trick)) % 4
        mask = hands[seat]
        if trick:
            suit_cards = [c for c in range(52) if mask >> c & 1 and c // 13 == trick[0] // 13]
            pool = suit_cards or [c for c in range(52) if mask >> c & 1]
        else:
            pool = [c for c in range(52) if mask >> c & 1]
        card = min(pool)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        play.append(Card(card))
        if len(trick) == 4:
            leader = int(trick_winner(trick, leader, Strain.NOTRUMP))
            trick = []
    return play


def _board(rng: random.Random, number: int, rich: bool) -> Board:
    cards = list(range(52))
    rng.shuffle(cards)
    owners = [0] * 52
    for i, c in enumerate(cards):
        owners[c] = i // 13
    deal = Deal.from_owners(owners)
    board = Board.numbered(number, deal)
    if rich:
        board.dd = DDTable.from_rows([[rng.randint(0, 13) for _ in range(5)] for _ in range(4)])
        board.auction = [Call.parse(t) for t in ("1NT", "P", "P", "P")]
        board.play = _legal_play(deal, board.effective_dealer, 6)
    return board


def generated_seed(codec: Codec, rng: random.Random) -> bytes | None:
    """A small file of generated boards written by ``codec`` (None if it cannot write bridge boards): with a
    DD table, an auction, some play and the file's event when the format holds them, else plain deals."""
    if codec.kind != "bridge" or not codec.can_write:
        return None
    for rich in (True, False):
        boards = BoardSet([_board(rng, n, rich) for n in range(1, SEED_BOARDS + 1)], FileInfo())
        if rich:
            boards.info.event, boards.info.site, boards.info.date = "Fuzz Cup", "Nowhere", "2024.01.02"
        if codec.check(boards).errors:
            continue
        out = io.BytesIO()
        codec.write(boards, out)
        return out.getvalue()
    return None


def real_seeds(codec: Codec, max_bytes: int) -> list[Path]:
    """Real files (../shared/realdata), bundled resources and test fixtures with the codec's extensions, no
    bigger than ``max_bytes``, sorted."""
    found: set[Path] = set()
    for root in (REALDATA, REPO / "resources", REPO / "tests" / "fixtures"):
        if root.is_dir():
            for ext in codec.extensions:
                found.update(p for p in root.rglob(f"*.{ext}") if p.is_file() and p.stat().st_size <= max_bytes)
    return sorted(found)
