"""Helpers for the cribbage tests: an independent bit packer and a game simulator.

The packer writes a HALSCRIB record from plain field values with string bit
arithmetic (not the codec's BitWriter), so decoding is checked against an
independent encoder.  The simulator plays plausible games by the rules; the
shipped ``resources/sample_game.crib`` is its output (see ``test_sample_is_reproducible``).
"""

from __future__ import annotations

import base64
import os
import random
from itertools import combinations
from pathlib import Path

from bridgeview.formats.halscrib import encode_record, wrap_base64
from bridgeview.model.cribbage import (
    GAME_POINTS,
    CribbageRecord,
    CribCard,
    CribDeal,
    CribHeader,
    PegPlay,
    pegging_points,
    score_hand,
)

SAMPLE = Path(__file__).resolve().parent.parent / "resources" / "sample_game.crib"


def card(text: str) -> CribCard:
    return CribCard.parse(text)


def cards(text: str) -> tuple[CribCard, ...]:
    return tuple(CribCard.parse(t) for t in text.split())


# -- the independent packer -------------------------------------------------------
def bits(value: int, width: int) -> str:
    assert 0 <= value < (1 << width), (value, width)
    return format(value, f"0{width}b")


def text_bits(text: str, n: int) -> str:
    return "".join(bits(b, 8) for b in text.encode("ascii").ljust(n, b" "))


def header_bits(
    author="Hal Author",
    program="HALSCRIB",
    p0="Ann",
    p1="HAL",
    comments="a test game",
    date=(2024, 3, 17, 20, 15, 42),
    games=1,
    n_deals=1,
) -> str:
    out = text_bits(author, 16) + text_bits(program, 16) + text_bits(p0, 8) + text_bits(p1, 8)
    out += text_bits(comments, 18)
    for v, w in zip(date, (12, 4, 5, 6, 6, 6), strict=True):
        out += bits(v, w)
    return out + bits(games, 8) + bits(n_deals - 1, 8)


def card_code(text: str) -> int:
    c = card(text)
    return c.suit * 16 + c.rank


def deal_bits(
    h0: str,
    h1: str,
    d0: str,
    d1: str,
    starter: str,
    plays: list[tuple[int, str]],
    s0: int,
    s1: int,
    dealer: int,
    last: bool,
) -> str:
    out = "".join(bits(card_code(t), 6) for t in (h0 + " " + h1 + " " + d0 + " " + d1).split())
    out += bits(card_code(starter), 6)
    for p, t in plays:
        out += bits(p, 1) + bits(card_code(t), 6)
    out += "1111111" * (8 - len(plays))
    return out + bits(s0, 7) + bits(s1, 7) + bits(dealer, 1) + bits(int(last), 1)


def pack(bitstring: str, width: int = 76) -> bytes:
    """Zero-pad to bytes, Base64, lines of ``width``."""
    bitstring += "0" * (-len(bitstring) % 8)
    data = int(bitstring, 2).to_bytes(len(bitstring) // 8, "big") if bitstring else b""
    text = base64.b64encode(data)
    return b"\n".join(text[i : i + width] for i in range(0, len(text), width)) + b"\n"


# A small hand-made game of one deal where player 1 (HAL) deals:
#   Ann (pone) holds 5S 5H 10C KD, throws 2C 3C; HAL holds 4D 6S 7H 8C, throws 9S QH; starter JS (his heels).
#   Pegging: Ann 10C 10, HAL 4D 14, Ann 5H 19, HAL 6S 25 (run of 3), Ann 5S 30 (go, 1); HAL 7H 7,
#   Ann KD 17, HAL 8C 25 (last card, 1).  After the pegging: Ann 1, HAL 6 (2 for his heels + 3 + 1).
ONE_DEAL = dict(
    h0="S5 H5 CT DK",
    h1="D4 S6 H7 C8",
    d0="C2 C3",
    d1="S9 HQ",
    starter="SJ",
    plays=[(0, "CT"), (1, "D4"), (0, "H5"), (1, "S6"), (0, "S5"), (1, "H7"), (0, "DK"), (1, "C8")],
    s0=1,
    s1=6,
    dealer=1,
    last=False,
)


def one_deal_text(**changes) -> bytes:
    d = dict(ONE_DEAL)
    d.update(changes)
    return pack(header_bits(n_deals=1) + deal_bits(**d))


# -- the simulator -----------------------------------------------------------------
DECK = [CribCard(s, r) for s in range(4) for r in range(1, 14)]


def _best_discard(six: list[CribCard], rng: random.Random, own_crib: bool) -> tuple[list, list]:
    best, best_value = None, -1e9
    rest = [c for c in DECK if c not in six]
    starters = rng.sample(rest, 12)
    for throw in combinations(six, 2):
        keep = [c for c in six if c not in throw]
        value = sum(score_hand(keep, s).total for s in starters) / len(starters)
        crib_points = 2 * (sum(c.value for c in throw) == 15) + 2 * (throw[0].rank == throw[1].rank)
        value += crib_points if own_crib else -crib_points
        if value > best_value:
            best, best_value = (keep, list(throw)), value
    return best


def _choose_play(held: list[CribCard], series: list[CribCard], count: int) -> CribCard | None:
    fits = [c for c in held if count + c.value <= 31]
    if not fits:
        return None

    def merit(c: CribCard) -> tuple:
        pts = sum(p for _, p in pegging_points([*series, c]))
        new = count + c.value
        danger = new in (5, 21) or (new < 15 and 15 - new <= 10 and new > 4)
        return (pts, not danger, c.value)

    return max(fits, key=merit)


def simulate(seed: int = 13, games: int = 2, names=("Ann", "HAL")) -> CribbageRecord:
    """Plausible games by the rules: sensible discards, greedy pegging, exact scoring."""
    rng = random.Random(seed)
    header = CribHeader(
        "bridgeview tests", "HALSCRIB", tuple(names), "two friendly games", 2024, 3, 17, 20, 15, 42, games
    )
    record = CribbageRecord(header)
    dealer = rng.randrange(2)
    for _game in range(games):
        scores = [0, 0]
        while True:
            deck = DECK[:]
            rng.shuffle(deck)
            six = [deck[0:12:2], deck[1:12:2]]
            keep, throw = [None, None], [None, None]
            for p in (0, 1):
                keep[p], throw[p] = _best_discard(six[p], rng, own_crib=p == dealer)
            starter = deck[12]

            def add(p: int, pts: int, scores: list[int] = scores) -> bool:
                scores[p] = min(GAME_POINTS, scores[p] + pts)
                return scores[p] >= GAME_POINTS

            over = starter.rank == 11 and add(dealer, 2)
            plays: list[PegPlay] = []
            held = [list(keep[0]), list(keep[1])]
            to_play, series, count, last_player = 1 - dealer, [], 0, None
            while not over and (held[0] or held[1]):
                c = _choose_play(held[to_play], series, count)
                if c is None:
                    other = 1 - to_play
                    if _choose_play(held[other], series, count) is None:
                        if count != 31 and last_player is not None:
                            over = add(last_player, 1)
                        series, count = [], 0
                        to_play = 1 - last_player if held[1 - last_player] else last_player
                        continue
                    to_play = other
                    continue
                held[to_play].remove(c)
                plays.append(PegPlay(to_play, c))
                series.append(c)
                count += c.value
                last_player = to_play
                over = add(to_play, sum(p for _, p in pegging_points(series)))
                if not over and not held[0] and not held[1] and count != 31:
                    over = add(to_play, 1)
                if count == 31:
                    series, count = [], 0
                to_play = 1 - to_play if held[1 - to_play] else to_play
            after = (scores[0], scores[1])
            if not over:
                pone = 1 - dealer
                for p, hand, crib in (
                    (pone, keep[pone], False),
                    (dealer, keep[dealer], False),
                    (dealer, throw[0] + throw[1], True),
                ):
                    if add(p, score_hand(hand, starter, crib).total):
                        over = True
                        break
            record.deals.append(
                CribDeal(
                    (tuple(keep[0]), tuple(keep[1])),
                    (tuple(throw[0]), tuple(throw[1])),
                    starter,
                    plays,
                    after,
                    dealer,
                    over,
                    8 - len(plays),
                )
            )
            dealer = 1 - dealer
            if over:
                loser = 0 if scores[0] < scores[1] else 1
                dealer = loser
                break
    return record


def sample_text() -> bytes:
    return wrap_base64(encode_record(simulate()))


def test_sample_is_reproducible() -> None:
    """The shipped sample is the simulator's output (REGENERATE_CRIB_SAMPLE=1 rewrites it)."""
    text = sample_text()
    if os.environ.get("REGENERATE_CRIB_SAMPLE"):
        SAMPLE.write_bytes(text)
    assert SAMPLE.read_bytes() == text


def test_simulated_games_follow_the_rules() -> None:
    for seed in (1, 2, 3):
        rec = simulate(seed, games=1)
        assert rec.problems() == []
        assert rec.deals[-1].last


def test_packer_matches_codec_encoder() -> None:
    from bridgeview.formats.halscrib import decode_base64, decode_record

    rec = decode_record(decode_base64(one_deal_text()))
    assert pack(header_bits(n_deals=1) + deal_bits(**ONE_DEAL)) == wrap_base64(encode_record(rec))
