"""Duplicate scoring against the whole table: every level, strain, doubling, vulnerability and number of tricks.

The expected scores are not computed the way ``model.scoring`` computes them: they are the Laws' scoring
table (Law 77) written out as a director reads it -- the total for making each contract exactly, the value
of each overtrick, and the running total of the undertrick penalty for 1 to 13 down.  A second, independent
implementation (endplay's ``Contract.score``) is checked against the same written table, so a slip in the
table itself cannot pass unseen.  The 13 spot checks in ``test_model.py`` let a wrong overtrick or
undertrick rate through; these cover all 2,940 cells.
"""

from __future__ import annotations

import pytest

from bridgeview.model.auction import Contract
from bridgeview.model.scoring import duplicate_score

LEVELS = range(1, 8)
STRAINS = ("C", "D", "H", "S", "NT")
DOUBLINGS = ("", "X", "XX")

# Contract made exactly: (not vulnerable, vulnerable), for levels 1..7, by strain family and doubling.
MADE_EXACTLY: dict[tuple[str, str], list[tuple[int, int]]] = {
    ("minor", ""): [(70, 70), (90, 90), (110, 110), (130, 130), (400, 600), (920, 1370), (1440, 2140)],
    ("major", ""): [(80, 80), (110, 110), (140, 140), (420, 620), (450, 650), (980, 1430), (1510, 2210)],
    ("NT", ""): [(90, 90), (120, 120), (400, 600), (430, 630), (460, 660), (990, 1440), (1520, 2220)],
    ("minor", "X"): [(140, 140), (180, 180), (470, 670), (510, 710), (550, 750), (1090, 1540), (1630, 2330)],
    ("major", "X"): [(160, 160), (470, 670), (530, 730), (590, 790), (650, 850), (1210, 1660), (1770, 2470)],
    ("NT", "X"): [(180, 180), (490, 690), (550, 750), (610, 810), (670, 870), (1230, 1680), (1790, 2490)],
    ("minor", "XX"): [(230, 230), (560, 760), (640, 840), (720, 920), (800, 1000), (1380, 1830), (1960, 2660)],
    ("major", "XX"): [(520, 720), (640, 840), (760, 960), (880, 1080), (1000, 1200), (1620, 2070), (2240, 2940)],
    ("NT", "XX"): [(560, 760), (680, 880), (800, 1000), (920, 1120), (1040, 1240), (1660, 2110), (2280, 2980)],
}

# Each overtrick: (not vulnerable, vulnerable).
OVERTRICK: dict[tuple[str, str], tuple[int, int]] = {
    ("minor", ""): (20, 20),
    ("major", ""): (30, 30),
    ("NT", ""): (30, 30),
    **{(family, "X"): (100, 200) for family in ("minor", "major", "NT")},
    **{(family, "XX"): (200, 400) for family in ("minor", "major", "NT")},
}

# Total penalty for 1, 2, ... 13 down: (not vulnerable, vulnerable) by doubling.
DOWN: dict[str, tuple[list[int], list[int]]] = {
    "": ([50 * n for n in range(1, 14)], [100 * n for n in range(1, 14)]),
    "X": (
        [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
        [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    ),
    "XX": (
        [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
        [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600],
    ),
}


def _family(strain: str) -> str:
    return {"C": "minor", "D": "minor", "H": "major", "S": "major"}.get(strain, "NT")


def table_score(level: int, strain: str, doubling: str, vulnerable: bool, tricks: int) -> int:
    """The declaring side's score, read off the written-out table."""
    needed = level + 6
    if tricks >= needed:
        made = MADE_EXACTLY[_family(strain), doubling][level - 1][vulnerable]
        return made + (tricks - needed) * OVERTRICK[_family(strain), doubling][vulnerable]
    return -DOWN[doubling][vulnerable][needed - tricks - 1]


CONTRACTS = [f"{level}{strain}{doubling}" for doubling in DOUBLINGS for level in LEVELS for strain in STRAINS]
CELLS = [
    (level, strain, doubling, vulnerable, tricks)
    for doubling in DOUBLINGS
    for level in LEVELS
    for strain in STRAINS
    for vulnerable in (False, True)
    for tricks in range(14)
]


def test_the_table_has_every_cell():
    assert len(CONTRACTS) == 105 and len(CELLS) == 2940
    assert all(len(rows) == 7 for rows in MADE_EXACTLY.values())
    assert all(len(totals) == 13 for pair in DOWN.values() for totals in pair)


@pytest.mark.parametrize("text", CONTRACTS)
def test_every_result_of_every_contract_scores_as_the_table_says(text):
    contract = Contract.parse(text)
    level, doubling = contract.level, "X" * contract.risk
    strain = text[1:].removesuffix(doubling)
    wrong = [
        (("not vul", "vul")[vulnerable], tricks, got, want)
        for vulnerable in (False, True)
        for tricks in range(14)
        if (got := duplicate_score(contract, vulnerable, tricks))
        != (want := table_score(level, strain, doubling, vulnerable, tricks))
    ]
    assert not wrong, f"{text}: (vulnerability, tricks, scored, table) {wrong}"


def test_a_passed_out_board_scores_nothing():
    assert all(duplicate_score(Contract.passed_out(), vul, tricks) == 0 for vul in (False, True) for tricks in (0, 7))


def test_the_written_table_agrees_with_endplay():
    """A second implementation over the same 2,940 cells: a typo in the table above fails here."""
    from endplay.types import Contract as EndplayContract
    from endplay.types import Denom, Penalty, Player, Vul

    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}
    penalties = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}
    wrong = []
    for level, strain, doubling, vulnerable, tricks in CELLS:
        theirs = EndplayContract(
            level=level,
            denom=denoms[strain],
            declarer=Player.north,
            penalty=penalties[doubling],
            result=tricks - level - 6,
        ).score(Vul.both if vulnerable else Vul.none)
        if theirs != table_score(level, strain, doubling, vulnerable, tricks):
            wrong.append((f"{level}{strain}{doubling}", vulnerable, tricks, theirs))
    assert not wrong, wrong
