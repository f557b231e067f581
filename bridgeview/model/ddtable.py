"""Double-dummy results: tricks for each declarer in each strain."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import SupportsInt

from .cards import DISPLAY_STRAINS, Seat, Strain


@dataclass(frozen=True, slots=True)
class DDTable:
    """``tricks[seat][strain]`` (Seat N E S W, Strain C D H S NT); None = unknown."""

    tricks: tuple[tuple[int | None, ...], ...]

    @classmethod
    def unknown(cls) -> DDTable:
        return cls(tuple((None,) * 5 for _ in range(4)))

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[SupportsInt | None]]) -> DDTable:
        """From a 4x5 nested sequence; values outside 0..13 become unknown."""
        out = []
        for row in rows:
            vals = tuple(int(v) if v is not None and 0 <= int(v) <= 13 else None for v in row)
            if len(vals) != 5:
                raise ValueError("a DD row needs 5 strains")
            out.append(vals)
        if len(out) != 4:
            raise ValueError("a DD table needs 4 seats")
        return cls(tuple(out))

    def get(self, seat: int, strain: int) -> int | None:
        return self.tricks[seat][strain]

    def with_value(self, seat: int, strain: int, value: int | None) -> DDTable:
        rows = [list(r) for r in self.tricks]
        rows[seat][strain] = value
        return DDTable(tuple(tuple(r) for r in rows))

    @property
    def is_complete(self) -> bool:
        return all(v is not None for row in self.tricks for v in row)

    @property
    def is_empty(self) -> bool:
        return all(v is None for row in self.tricks for v in row)

    def to_json(self) -> dict[str, dict[str, int | None]]:
        """``{"N": {"NT": 9, "S": 8, ...}, ...}`` as in ``bridgeview dump``."""
        return {
            Seat(seat).letter: {Strain(st).letter: self.tricks[seat][st] for st in DISPLAY_STRAINS} for seat in range(4)
        }

    def makeable(self) -> list[tuple[Seat, Strain, int]]:
        """(declarer, strain, highest level) for every contract that makes."""
        out = []
        for seat in range(4):
            for st in DISPLAY_STRAINS:
                t = self.tricks[seat][st]
                if t is not None and t >= 7:
                    out.append((Seat(seat), Strain(st), t - 6))
        return out

    def differences(self, other: DDTable) -> list[tuple[Seat, Strain, int | None, int | None]]:
        """Cells where both tables are known and disagree."""
        out: list[tuple[Seat, Strain, int | None, int | None]] = []
        for seat in range(4):
            for st in range(5):
                a, b = self.tricks[seat][st], other.tricks[seat][st]
                if a is not None and b is not None and a != b:
                    out.append((Seat(seat), Strain(st), a, b))
        return out
