"""The fast LIN reader reads what the careful one does: pairs, lines, cards, hands and results; and the
speed benchmark against endplay runs."""

from __future__ import annotations

import importlib.util
import random

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin.read import (
    _card_table,
    _parse_hand,
    _plain_hand,
    parse_text,
    tokenize,
)
from bridgeview.formats.lin.tokens import _careful, scan
from bridgeview.model.cards import CARDS, Card, Seat, Strain
from bridgeview.model.play import declarer_tricks, legal_play_tricks, replay

KEYS = st.sampled_from(["md", "pc", "mb", "an", "nt", "pg", "qx", "AH", "Sv", "pn", "xx"])
SPACE = st.sampled_from(["", "", "", "\n", "\r\n", " ", "\n\n", "\t "])
VALUE = st.text(st.sampled_from("abS HA10|\n,!%"), max_size=8).map(lambda v: v.replace("|", ""))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SPACE, KEYS, VALUE), max_size=12), SPACE)
def test_the_split_and_the_careful_scanner_give_the_same_pairs_and_lines(pairs, tail):
    text = "".join(f"{ws}{k}|{v}|" for ws, k, v in pairs) + tail
    fast, careful = scan(text), _careful(text, 0)
    assert fast.keys == careful.keys == [k.lower() for _, k, _ in pairs]
    assert fast.values == careful.values
    lines = [1 + text.count("\n", 0, careful.offset(i)) for i in range(len(careful))]
    assert [fast.line(i) for i in range(len(fast))] == [careful.line(i) for i in range(len(careful))] == lines
    # asked out of order (problems on moved pairs), the lines are the same
    order = list(range(len(fast)))
    random.Random(len(text)).shuffle(order)
    assert [fast.line(i) for i in order] == [lines[i] for i in order]


def test_texts_the_split_cannot_take_go_to_the_careful_scanner():
    text = "% made by hand\nmd|1SAKQJHAKQJDAKQJCA,,,|\ncb|30 |red|pc|SA|"
    toks = scan(text)
    assert toks.comments == ["% made by hand"]
    assert toks.keys == ["md", "cb", "", "pc"] and toks.values[2] == "red"
    assert [toks.line(i) for i in range(4)] == [2, 3, 3, 3]
    with pytest.raises(FormatError, match="line 2: the value of 'pc' has no closing"):
        scan("md|1SA,,,|\npc|SA")


def test_a_line_break_between_key_and_bar_no_longer_shifts_later_lines():
    text = "pn|a,b,c,d|md\n|1SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,|\n\nmc|99|pg||"
    doc = parse_text(text)
    assert doc.problems == [(0, 4, "claim mc|99| is not 0-13 tricks; ignored")]
    assert [t.line for t in tokenize(text)[0]] == [1, 1, 4, 4]


def test_the_card_table_agrees_with_card_parse():
    table = _card_table()
    letters = "SHDCshdcAKQJTakqjt98765432x"
    for a in letters:
        for b in letters:
            text = a + b
            try:
                expected = Card.parse(text)
            except ValueError:
                expected = None
            assert table.get(text) == expected, text
    assert table["SA"] == table["as"] == table["sa"] == CARDS[51]


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("SHDCAKQJT9832shx 10"), max_size=16))
def test_plain_hands_read_as_the_careful_hand_reader_reads_them(text):
    try:
        expected = _parse_hand(text, Seat.SOUTH)
    except ValueError:
        expected = -1
    got = _plain_hand(text)
    assert got == expected or got == -1  # -1: the careful reader decides (and explains)


def _random_play(rng: random.Random, hands: list[int], leader: int, trump: int) -> list[Card]:
    left, play = list(hands), []
    for _ in range(13):
        trick: list[int] = []
        for j in range(4):
            seat = (leader + j) % 4
            cards = [c for c in range(52) if left[seat] >> c & 1]
            follow = [c for c in cards if trick and c // 13 == trick[0] // 13]
            card = rng.choice(follow or cards)
            left[seat] &= ~(1 << card)
            trick.append(card)
            play.append(CARDS[card])
        suits = [c // 13 for c in trick]
        win_suit = trump if trump in suits else suits[0]
        leader = (leader + max(range(4), key=lambda k: trick[k] if suits[k] == win_suit else -1)) % 4
    return play


def test_legal_play_tricks_agree_with_replay():
    rng = random.Random(5)
    from bridgeview.model.deal import Deal

    for n in range(300):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
        declarer = rng.randrange(4)
        strain = Strain(rng.randrange(5))
        play = _random_play(rng, hands, (declarer + 1) % 4, int(strain) if strain != Strain.NOTRUMP else -1)
        if n % 3 == 1:  # a revoke, a card from the wrong hand, or two cards swapped
            i, j = rng.randrange(52), rng.randrange(52)
            play[i], play[j] = play[j], play[i]
        deal = Deal(tuple(hands))
        rp = replay(deal, play, Seat(declarer), strain)
        expected = declarer_tricks(rp, declarer) if rp.problem is None else None
        assert legal_play_tricks(deal.hands, play, declarer, strain) == expected


def test_bench_runs_with_a_tiny_board_count():
    pytest.importorskip("endplay.parsers.lin")
    spec = importlib.util.spec_from_file_location("bench_lin", REPO / "bench" / "bench_lin.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.run(40, echo=False, repeat=1)
    for label in ("hand records", "played"):
        r = result[label]
        assert r["counts"] == (40, 40) and r["problems"] == 0
        assert r["ours_s"] > 0 and r["endplay_s"] > 0
    assert result["hand records"]["calls"] == result["hand records"]["cards"] == 0
    played = result["played"]
    assert played["alerts"] > 0 and played["calls"] > 120 and played["cards"] > 40 * 32 * 0.9
    if "real" in result:  # the real files repeated: endplay splits them into the same boards
        assert result["real"]["counts"][0] == result["real"]["counts"][1] > 0
