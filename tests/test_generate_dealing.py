"""The shuffle: exactly uniform, legal, faithful to predeals, repeatable with a seed, the same on any
number of processes, and flat in memory."""

from __future__ import annotations

import threading
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memorykit import traced_peak

from bridgeview.generate import dealing, engine
from bridgeview.generate import script as s
from bridgeview.generate.dealing import RandomStream, deal, make_plan, popcount, to_card_masks, word_groups
from bridgeview.generate.lexer import ScriptError
from bridgeview.generate.parser import parse

SIGMAS = 5.0


def c(n: int, k: int) -> int:
    """n choose k, 0 outside 0..n."""
    return comb(n, k) if 0 <= k <= n else 0


def within(observed: np.ndarray, expected: np.ndarray, trials: int) -> bool:
    """Counts agree with probabilities ``expected`` over ``trials`` within 5 binomial sigmas, cell by cell."""
    sigma = np.sqrt(trials * expected * (1 - expected))
    return bool(np.all(np.abs(observed - trials * expected) <= SIGMAS * np.maximum(sigma, 1)))


def make(text: str, n: int, seed: int = 1, chunk: int = 0) -> np.ndarray:
    """``(k, 4)`` card masks of about ``n`` deals of the script's predeal."""
    return to_card_masks(deal(make_plan(parse(text)), RandomStream(seed, chunk), n))


def owners(masks: np.ndarray) -> np.ndarray:
    """``(k, 52)`` seat of each card."""
    bits = [(masks[:, seat, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1) for seat in range(4)]
    return (bits[1] + 2 * bits[2] + 3 * bits[3]).astype(np.int64)


def assert_legal(masks: np.ndarray) -> None:
    full = np.uint64((1 << 52) - 1)
    assert ((masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]) == full).all()
    for a in range(4):
        assert (popcount(masks[:, a]) == 13).all()
        for b in range(a + 1, 4):
            assert ((masks[:, a] & masks[:, b]) == 0).all()


def test_digits_are_the_mixed_radix_digits_of_lemires_product():
    """Several steps share a word: the digits taken one by one are those of u * M >> 32, and the word
    is kept exactly when u * M mod 2**32 is not below 2**32 mod M (then that number is uniform)."""
    rng = np.random.default_rng(5)
    for group in word_groups(52):
        product = int(np.prod(group))
        assert product <= dealing.WORD_LIMIT
        for u in rng.integers(0, 1 << 32, 200).tolist():
            low, digits = u, []
            for m in group:
                low *= m
                digits.append(low >> 32)
                low &= 0xFFFFFFFF
            number = 0
            for d, m in zip(digits, group, strict=True):
                number = number * m + d
            assert number == u * product >> 32
            assert low == u * product % (1 << 32)
    # Lemire: with the rejected words left out, every value below M has the same number of words
    m, bits = 6, 8
    kept = [u * m >> bits for u in range(1 << bits) if (u * m) % (1 << bits) >= (1 << bits) % m]
    assert len(set(np.bincount(kept).tolist())) == 1


def test_every_card_goes_to_every_seat_equally_often():
    masks = make("", 120_000, seed=11)
    assert_legal(masks)
    seats = owners(masks)
    counts = np.stack([(seats == seat).sum(axis=0) for seat in range(4)])  # (4, 52)
    assert within(counts, np.full((4, 52), 0.25), len(masks))


def test_suit_lengths_follow_the_hypergeometric_law():
    masks = make("", 120_000, seed=12)
    spades = popcount(masks[:, 0] >> np.uint64(39) & np.uint64(0x1FFF)).astype(np.int64)
    expected = np.array([comb(13, k) * comb(39, 13 - k) / comb(52, 13) for k in range(14)])
    assert within(np.bincount(spades, minlength=14), expected, len(masks))


def test_two_cards_share_a_hand_twelve_times_in_fifty_one():
    seats = owners(make("", 120_000, seed=13))
    same = np.array([(seats[:, 51] == seats[:, c]).sum() for c in range(51)])
    assert within(same, np.full(51, 12 / 51), len(seats))


def test_predealt_cards_stay_and_the_rest_is_shared_fairly():
    masks = make("predeal south SAQ542, HKJ87, D32, CAK\npredeal north SK, HA", 90_000, seed=14)
    assert_legal(masks)
    south = s_mask = parse("predeal south SAQ542, HKJ87, D32, CAK").predeal[2]
    assert (masks[:, 2] == np.uint64(s_mask)).all() and south
    north_cards = parse("predeal north SK, HA").predeal[0]
    assert ((masks[:, 0] & np.uint64(north_cards)) == np.uint64(north_cards)).all()
    seats = owners(masks)
    free = [c for c in range(52) if not (s_mask | north_cards) >> c & 1]
    # north needs 11 of the 37 free cards, east and west 13 each
    for seat, share in ((0, 11 / 37), (1, 13 / 37), (3, 13 / 37)):
        assert within((seats[:, free] == seat).sum(axis=0), np.full(len(free), share), len(seats))


def test_a_suit_length_predeal_is_exact_and_the_rest_uniform():
    masks = make("predeal spades(north) == 1", 90_000, seed=15)
    assert_legal(masks)
    lengths = [
        popcount((masks[:, 0] >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.int64) for suit in range(4)
    ]
    assert (lengths[3] == 1).all()
    # north's other 12 cards come from the 39 non-spades: hearts follow that hypergeometric law
    expected = np.array([c(13, h) * c(26, 12 - h) / c(39, 12) for h in range(14)])
    assert within(np.bincount(lengths[2], minlength=14), expected, len(masks))


def test_suit_lengths_asked_of_two_seats():
    """North one spade, South seven hearts: every deal meeting both is equally likely, so north's hearts
    follow the counts of such deals (worked out by hand below)."""
    masks = make("predeal spades(north) == 1, hearts(south) == 7", 300_000, seed=16)
    assert_legal(masks)
    north_hearts = popcount((masks[:, 0] >> np.uint64(26)) & np.uint64(0x1FFF)).astype(np.int64)
    south_hearts = popcount((masks[:, 2] >> np.uint64(26)) & np.uint64(0x1FFF))
    north_spades = popcount((masks[:, 0] >> np.uint64(39)) & np.uint64(0x1FFF))
    assert (south_hearts == 7).all() and (north_spades == 1).all()
    weight = np.array([c(13, h) * c(26, 12 - h) * c(13 - h, 7) * c(26 + h, 6) for h in range(14)], float)
    assert within(np.bincount(north_hearts, minlength=14), weight / weight.sum(), len(masks))


@pytest.mark.parametrize(
    "text, message",
    [
        ("predeal north SAK\npredeal spades(north) == 1", "north is predealt 2 spades, more than the 1 asked for"),
        ("predeal spades(north) == 7, spades(south) == 7", "asks for 14 spades"),
        ("predeal north SAKQJT98765432\npredeal hearts(north) == 1", "no deal gives north"),
    ],
)
def test_impossible_suit_lengths_are_refused(text, message):
    with pytest.raises(ScriptError, match=message):
        make_plan(parse(text))


@st.composite
def predeals(draw):
    """A random predeal: some cards to each seat (at most 13), and maybe suit lengths."""
    cards = draw(st.permutations(range(52)))
    counts = [draw(st.integers(0, 13)) for _ in range(4)]
    hands, start = [], 0
    for n in counts:
        hands.append(sum(1 << c for c in cards[start : start + n]))
        start += n
    lengths = draw(
        st.lists(
            st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 13)), max_size=3, unique_by=lambda x: x[:2]
        )
    )
    return s.Script(predeal=(hands[0], hands[1], hands[2], hands[3]), lengths=tuple(lengths))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(predeals(), st.integers(0, 2**32))
def test_deals_are_always_complete_legal_and_keep_the_predeal(script, seed):
    try:
        plan = make_plan(script)
    except ScriptError:
        return  # lengths the cards cannot meet: refused before dealing
    masks = to_card_masks(deal(plan, RandomStream(seed, 0), 200))
    assert_legal(masks)
    for seat in range(4):
        assert ((masks[:, seat] & np.uint64(script.predeal[seat])) == np.uint64(script.predeal[seat])).all()
    for seat, suit, n in script.lengths:
        assert (popcount((masks[:, seat] >> np.uint64(13 * suit)) & np.uint64(0x1FFF)) == n).all()


def test_a_whole_predealt_deal_needs_no_random_numbers():
    text = "predeal north SAKQJT98765432\npredeal east HAKQJT98765432\npredeal south DAKQJT98765432"
    masks = make(text, 100)
    assert len(masks) == 100 and (masks[:, 3] == np.uint64(0x1FFF)).all()


def test_a_seed_repeats_the_deals_and_the_system_source_does_not():
    first, again, other = make("", 5000, seed=99), make("", 5000, seed=99), make("", 5000, seed=100)
    assert (first == again).all() and (first[:4000] != other[:4000]).any(axis=1).all()
    system = [to_card_masks(deal(make_plan(parse("")), RandomStream(None, 0), 5000))[:4000] for _ in range(2)]
    assert (system[0] != system[1]).any(axis=1).all()


def test_without_a_seed_the_words_come_from_the_operating_system(monkeypatch):
    asked = []

    def urandom(n):
        asked.append(n)
        return b"\x5a" * n

    monkeypatch.setattr(dealing.os, "urandom", urandom)
    assert RandomStream(None, 3).words(10).tolist() == [0x5A5A5A5A] * 10
    assert asked == [40]


def _run(text: str, **kw):
    script = parse(text)
    batches = []
    summary = engine.run(
        script, engine.limits(script, kw.pop("produce", None), kw.pop("generate", None)), batches.append, **kw
    )
    hands = np.concatenate([b.hands for b in batches], axis=2) if batches else np.zeros((4, 4, 0), np.uint16)
    return summary, hands


def test_the_counts_stop_where_dealer_stops():
    """Generated counts every deal up to and including the last one produced, as dealer's does."""
    text = "condition hcp(north) >= 20\naction average hcp(north)"
    first, hands = _run(text, produce=10, seed=5, jobs=1)
    assert first.produced == 10 and hands.shape[2] == 10
    again, same = _run(text, generate=first.generated, seed=5, jobs=1)
    assert again.produced == 10 and (same == hands).all()
    short, _ = _run(text, generate=first.generated - 1, seed=5, jobs=1)
    assert short.produced == 9 and short.generated == first.generated - 1


@pytest.mark.parametrize("method", ["fork", "spawn"])  # the command line's, and the window's (Qt has threads)
def test_the_same_seed_gives_the_same_deals_on_two_processes(monkeypatch, method):
    monkeypatch.setattr(engine, "PARALLEL_AFTER", 0.0)  # start the worker processes at once
    monkeypatch.setattr(engine, "_start_method", lambda: method)
    made = []
    original_start = engine._Pool.start.__func__
    original_collect = engine._Pool._collect

    def start(cls, *args):
        pool = original_start(cls, *args)
        pool.ready = True  # wait for the worker, however slowly it starts, so that its chunks are used
        return pool

    def collect(self, results, timeout):
        before = set(results)
        original_collect(self, results, timeout)
        made.extend(set(results) - before)

    monkeypatch.setattr(engine._Pool, "start", classmethod(start))
    monkeypatch.setattr(engine._Pool, "_collect", collect)
    text = "condition hcp(north) >= 12 && spades(north) >= 5\naction average hcp(north)"
    one, hands_one = _run(text, generate=400_000, seed=21, jobs=1)
    two, hands_two = _run(text, generate=400_000, seed=21, jobs=2)
    assert (one.generated, one.produced) == (two.generated, two.produced) == (400_000, one.produced)
    assert (hands_one == hands_two).all()
    assert made  # some chunks came from the worker process


def test_cancel_stops_with_what_was_produced():
    cancel = threading.Event()
    script = parse("action average hcp(north)")
    seen = []

    def progress(p):
        seen.append(p.produced)
        cancel.set()

    limits = engine.limits(script, generate=5_000_000)
    summary = engine.run(script, limits, lambda b: None, seed=1, jobs=1, progress=progress, cancel=cancel)
    assert summary.stopped and len(seen) == 1 and summary.produced == seen[0] == summary.generated > 4000


def test_ctrl_c_stops_with_what_was_produced():
    script = parse("action average hcp(north)")
    batches = []

    def consume(batch):
        batches.append(batch.count)
        if len(batches) == 3:
            raise KeyboardInterrupt

    summary = engine.run(script, engine.limits(script, generate=5_000_000), consume, seed=1, jobs=1)
    assert summary.stopped and summary.produced == sum(batches)


def test_memory_stays_flat_however_many_deals():
    script = parse("condition shape(north, any 4333 + any 4432) && hcp(north) >= 15\naction average hcp(north)")

    def peak(generate: int) -> int:
        return traced_peak(
            lambda: engine.run(script, engine.limits(script, generate=generate), lambda b: None, seed=3, jobs=1)
        )[0]

    small, big = peak(300_000), peak(1_500_000)
    assert big < 1.3 * small + (2 << 20), (small, big)
    assert big < 80 << 20


def test_limits_follow_dealer():
    plain = parse("condition hcp(north) > 10")
    assert engine.limits(plain) == engine.Limits(40, 10_000_000)  # printall by default: 40
    counted = parse("action average hcp(north)")
    assert engine.limits(counted) == engine.Limits(10_000_000, 10_000_000)
    assert engine.limits(counted, outputs=True).produce == 40  # deals written to files are printed deals
    assert engine.limits(parse("produce 7\ngenerate 99\naction average hcp(north)"), 3) == engine.Limits(3, 99)


class _Words:
    """A random stream that gives the same word every time."""

    def __init__(self, word: int) -> None:
        self.word = word

    def words(self, count: int) -> np.ndarray:
        return np.full(count, self.word, dtype=np.uint32)


def test_a_deal_whose_words_fail_lemires_test_is_thrown_away():
    """Word 0 makes u * M mod 2**32 = 0, below 2**32 mod M for every group: no deal is kept (and
    none is counted); the largest word passes every group."""
    plan = make_plan(parse(""))
    assert deal(plan, _Words(0), 50).shape == (4, 4, 0)
    kept = to_card_masks(deal(plan, _Words(0xFFFFFFFF), 50))
    assert len(kept) == 50
    assert_legal(kept)
