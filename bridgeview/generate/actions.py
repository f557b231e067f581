"""What a script's actions print, in dealer's own layouts.

Printing actions (``printall``, ``printew``, ``printpbn``, ``printcompact``,
``printoneline``, ``printes``) write each deal as it is produced; ``print(seats)``,
``average`` and ``frequency`` write at the end, in the order the script lists
them, as dealer does.  The text is dealer's byte for byte (the tests compare),
except that ``printpbn``'s event names bridgeview, and that the seed line is left
out when the deals come from the operating system's random source (there is no
seed to give).  Averages and frequencies are kept as sums and counts, so memory
stays flat however many deals are produced.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import script as s

if TYPE_CHECKING:
    import numpy as np

_DISPLAY = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs
_RANKS_DOWN = "AKQJT98765432"
_SEAT_NAMES = ("North", "East", "South", "West")
_DEALERS = "NESW"
_VULNERABILITY = ("None", "NS", "EW", "All")
_BOARD_VULNERABILITY = (0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2)


def _ranks(holding: int) -> str:
    return "".join(ch for i, ch in enumerate(_RANKS_DOWN) if holding >> (12 - i) & 1)


def _make_texts() -> tuple[list[str], list[str]]:
    compact = [_ranks(h) for h in range(1 << 13)]
    spaced = [" ".join(text) + " " if text else "- " for text in compact]
    return compact, spaced


_COMPACT: list[str] = []
_SPACED: list[str] = []


def holding_texts() -> tuple[list[str], list[str]]:
    """Per 13-bit holding: ``AKT5`` (compact) and ``A K T 5 `` / ``- `` (dealer's columns)."""
    if not _COMPACT:
        compact, spaced = _make_texts()
        _COMPACT.extend(compact)
        _SPACED.extend(spaced)
    return _COMPACT, _SPACED


def hand_text(hand: Sequence[int]) -> str:
    """``AKQ.JT9.876.5432`` from four holdings (clubs first)."""
    compact, _ = holding_texts()
    return ".".join(compact[hand[suit]] for suit in _DISPLAY)


def columns(hands: Sequence[Sequence[int]]) -> str:
    """Hands side by side, a line a suit, each column 20 characters wide (dealer's ``printdeal``)."""
    _, spaced = holding_texts()
    lines = []
    for suit in _DISPLAY:
        parts = [spaced[hand[suit]] for hand in hands]
        lines.append("".join(part.ljust(20) for part in parts[:-1]) + parts[-1] + "\n")
    return "".join(lines)


@dataclass
class Produced:
    """A batch of produced deals, in order: holdings ``(4, 4, k)`` and each action's values ``(k,)``."""

    hands: np.ndarray
    values: list[list[np.ndarray]]
    first: int  # 0-based number of the batch's first deal among all produced

    @property
    def count(self) -> int:
        return int(self.hands.shape[2])


def action_expressions(action: s.Action) -> list[s.Expr]:
    """The expressions an action needs for each produced deal."""
    if isinstance(action, (s.PrintCompact, s.PrintOneLine)):
        return [action.expr] if action.expr is not None else []
    if isinstance(action, s.PrintES):
        return [item for item in action.items if not isinstance(item, str)]
    if isinstance(action, s.Average):
        return [action.expr]
    if isinstance(action, s.Frequency):
        return [action.expr]
    if isinstance(action, s.Frequency2D):
        return [action.expr, action.expr2]
    return []


@dataclass
class _Tally:
    """What an end-of-run action has gathered so far."""

    total: int = 0
    counts: np.ndarray | None = None
    low: int = 0
    high: int = 0
    hands: list[np.ndarray] = field(default_factory=list)


class Report:
    """Feeds produced deals to the actions and prints what they print.

    ``write`` receives the text as it is made (each deal's lines at once, the
    statistics at the end).  Without ``print_deals`` (the deals go to files) only
    ``average`` and ``frequency`` print."""

    def __init__(
        self, script: s.Script, write: Callable[[str], object], seed: int | None, *, print_deals: bool = True
    ) -> None:
        import numpy as np

        self.script = script
        self.write = write
        self.seed = seed
        self.actions = script.effective_actions
        statistics = (s.Average, s.Frequency, s.Frequency2D)
        #: the actions that run (by index into ``actions``, which the batches' values follow)
        self.active = [i for i, a in enumerate(self.actions) if print_deals or isinstance(a, statistics)]
        self.tallies = [_Tally() for _ in self.actions]
        for action, tally in zip(self.actions, self.tallies, strict=True):
            if isinstance(action, s.Frequency):
                tally.counts = np.zeros(action.high - action.low + 3, dtype=np.int64)
            elif isinstance(action, s.Frequency2D):
                shape = (action.high - action.low + 3, action.high2 - action.low2 + 3)
                tally.counts = np.zeros(shape, dtype=np.int64)
        self.per_deal = [i for i in self.active if isinstance(self.actions[i], s.PER_DEAL)]
        self.per_deal = [i for i in self.per_deal if not isinstance(self.actions[i], s.PrintHands)]
        self.date = datetime.date.today().strftime("%Y.%m.%d")

    @property
    def keeps_hands(self) -> bool:
        """Whether the deals must be kept to the end (``print(seats)`` prints them there)."""
        return any(isinstance(self.actions[i], s.PrintHands) for i in self.active)

    def feed(self, batch: Produced) -> None:
        import numpy as np

        for i in self.active:
            action, tally, values = self.actions[i], self.tallies[i], batch.values[i]
            if isinstance(action, s.Average):
                tally.total += int(values[0].sum())
            elif isinstance(action, s.Frequency):
                assert tally.counts is not None
                index = np.clip(values[0] - action.low + 1, 0, action.high - action.low + 2)
                tally.counts += np.bincount(index, minlength=tally.counts.size)
            elif isinstance(action, s.Frequency2D):
                assert tally.counts is not None
                rows = np.clip(values[0] - action.low + 1, 0, action.high - action.low + 2)
                cols = np.clip(values[1] - action.low2 + 1, 0, action.high2 - action.low2 + 2)
                flat = rows * tally.counts.shape[1] + cols
                tally.counts += np.bincount(flat, minlength=tally.counts.size).reshape(tally.counts.shape)
            elif isinstance(action, s.PrintHands):
                tally.hands.append(batch.hands)
        if self.per_deal and batch.count:
            self.write(self._deal_texts(batch))

    def _deal_texts(self, batch: Produced) -> str:
        """Every printing action's text for each deal of the batch, deal by deal."""
        hands = batch.hands.transpose(2, 0, 1).tolist()  # [deal][seat][suit]
        pieces: list[str] = []
        columns_of = [self._action_texts(self.actions[i], hands, batch.values[i], batch.first) for i in self.per_deal]
        for deal in range(batch.count):
            for texts in columns_of:
                pieces.append(texts[deal])
        return "".join(pieces)

    def _action_texts(
        self, action: s.Action, hands: list[list[list[int]]], values: list[np.ndarray], first: int
    ) -> list[str]:
        count = len(hands)
        numbers = range(first + 1, first + count + 1)
        if isinstance(action, s.PrintAll):
            return [f"{n:4d}.\n" + columns(hand) + "\n" for n, hand in zip(numbers, hands, strict=True)]
        if isinstance(action, s.PrintEW):
            return [columns([hand[3], hand[1]]) + "\n" for hand in hands]
        if isinstance(action, s.PrintPBN):
            return [self._pbn(n, hand) for n, hand in zip(numbers, hands, strict=True)]
        if isinstance(action, (s.PrintCompact, s.PrintOneLine)):
            one_line = isinstance(action, s.PrintOneLine)
            value = [f"{v}" for v in values[0].tolist()] if values else [""] * count
            out = []
            for hand, v in zip(hands, value, strict=True):
                seats = [f"{'nesw'[seat]} {hand_text(hand[seat])}" for seat in range(4)]
                if one_line:
                    out.append(" ".join(seats) + " " + v + "\n")
                else:
                    out.append("\n".join(seats) + "\n" + (v + "\n" if values else ""))
            return out
        if isinstance(action, s.PrintES):
            columns_of = [v.tolist() for v in values]
            out = []
            for deal in range(count):
                parts = []
                k = 0
                for item in action.items:
                    if isinstance(item, str):
                        parts.append(item)
                    else:
                        parts.append(str(columns_of[k][deal]))
                        k += 1
                out.append("".join(parts))
            return out
        raise AssertionError(f"not a printing action: {action!r}")  # pragma: no cover

    def _pbn(self, number: int, hand: list[list[int]]) -> str:
        dealer = self.script.dealer if self.script.dealer is not None else (number - 1) % 4
        vul = self.script.vulnerable
        if vul is None:
            vul = _BOARD_VULNERABILITY[(number - 1) % 16]
        seed = f", seed {self.seed}" if self.seed is not None else ""
        deal = " ".join(hand_text(hand[seat]) for seat in range(4))
        return (
            f'[Event "Hand simulated by bridgeview with file {self.script.name}{seed}"]\n'
            f'[Site "-"]\n[Date "{self.date}"]\n[Board "{number}"]\n'
            '[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n'
            f'[Dealer "{_DEALERS[dealer]}"]\n[Vulnerable "{_VULNERABILITY[vul]}"]\n'
            f'[Deal "N:{deal}"]\n[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n'
        )

    # -- the end ---------------------------------------------------------------------------------
    def finish(self, produced: int) -> None:
        """The end-of-run actions, in the script's order."""
        for i in self.active:
            action, tally = self.actions[i], self.tallies[i]
            if isinstance(action, s.PrintHands):
                self.write(self._pages(action, tally))
            elif isinstance(action, s.Average):
                label = f"{action.label}: " if action.label is not None else ""
                self.write(f"{label}{_average(tally.total, produced)}\n")
            elif isinstance(action, s.Frequency):
                self.write(self._frequency(action, tally))
            elif isinstance(action, s.Frequency2D):
                self.write(self._frequency2d(action, tally))

    def _pages(self, action: s.PrintHands, tally: _Tally) -> str:
        import numpy as np

        if tally.hands:
            hands = np.concatenate(tally.hands, axis=2).transpose(2, 0, 1).tolist()
        else:
            hands = []
        out = []
        for seat in action.seats:
            out.append(f"\n\n{_SEAT_NAMES[seat]} hands:\n\n\n\n")
            for start in range(0, len(hands), 4):
                group = hands[start : start + 4]
                out.append("".join(f"{start + i + 1:4d}." + " " * 15 for i in range(len(group))) + "\n")
                out.append(columns([hand[seat] for hand in group]) + "\n")
            out.append("\f")
        return "".join(out)

    @staticmethod
    def _frequency(action: s.Frequency, tally: _Tally) -> str:
        assert tally.counts is not None
        counts = tally.counts.tolist()
        out = [f"Frequency {action.label or ''}:\n"]
        if counts[0]:
            out.append(f"Low\t{counts[0]:8d}\n")
        for i, value in enumerate(range(action.low, action.high + 1)):
            out.append(f"{value:5d}\t{counts[i + 1]:8d}\n")
        if counts[-1]:
            out.append(f"High\t{counts[-1]:8d}\n")
        return "".join(out)

    @staticmethod
    def _frequency2d(action: s.Frequency2D, tally: _Tally) -> str:
        assert tally.counts is not None
        counts = tally.counts.tolist()
        rows, cols = len(counts), len(counts[0])
        out = [f"Frequency {action.label or ''}:\n", "        Low"]
        out.extend(f" {action.low2 + j:6d}" for j in range(cols - 2))
        out.append("   High    Sum\n")
        for i, row in enumerate(counts):
            label = "Low " if i == 0 else "High" if i == rows - 1 else f"{action.low + i - 1:4d}"
            out.append(label + "".join(f" {n:6d}" for n in row) + f" {sum(row):6d}\n")
        out.append("Sum " + "".join(f" {sum(counts[i][j] for i in range(rows)):6d}" for j in range(cols)))
        out.append(f" {sum(map(sum, counts)):6d}\n\n")
        return "".join(out)

    def statistics(self, generated: int, produced: int, seconds: float) -> None:
        """dealer's closing lines (its seed line only for a seeded run)."""
        self.write(f"Generated {generated} hands\nProduced {produced} hands\n")
        if self.seed is not None:
            self.write(f"Initial random seed {self.seed}\n")
        self.write(f"Time needed {seconds:8.3f} sec\n")


def _average(total: int, count: int) -> str:
    """dealer's ``%g`` of the mean (``-nan`` for no deals, as C prints 0.0 / 0)."""
    if not count:
        return "-nan"
    return f"{total / count:g}"
