"""Duplicate bridge scoring (the Laws' scoring table)."""

from __future__ import annotations

from .auction import Contract
from .cards import Strain


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Score for the declaring side when declarer takes ``tricks`` (0..13)."""
    if contract.is_passed_out:
        return 0
    level, strain, risk = contract.level, contract.strain, contract.risk
    needed = level + 6
    if tricks >= needed:
        per_trick = 20 if strain in (Strain.CLUBS, Strain.DIAMONDS) else 30
        trick_score = per_trick * level + (10 if strain == Strain.NOTRUMP else 0)
        trick_score *= (1, 2, 4)[risk]
        score = trick_score
        if trick_score >= 100:
            score += 500 if vulnerable else 300
        else:
            score += 50
        if level == 6:
            score += 750 if vulnerable else 500
        elif level == 7:
            score += 1500 if vulnerable else 1000
        if risk:
            score += 50 * risk  # the insult
        over = tricks - needed
        if risk == 0:
            score += over * per_trick
        else:
            score += over * (200 if vulnerable else 100) * risk
        return score
    down = needed - tricks
    if risk == 0:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return -penalty * risk
