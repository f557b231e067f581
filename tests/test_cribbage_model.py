"""The cribbage rules: the show, the pegging, his heels, the score check and the movie."""

from __future__ import annotations

import pytest
from test_cribbage_support import ONE_DEAL, card, cards, simulate

from bridgeview.model.cribbage import (
    CribbageRecord,
    CribCard,
    CribDeal,
    CribHeader,
    PegPlay,
    analyse_deal,
    deal_steps,
    peg_plays,
    pegging_points,
    score_hand,
)


def deal_from(d: dict) -> CribDeal:
    return CribDeal(
        (cards(d["h0"]), cards(d["h1"])),
        (cards(d["d0"]), cards(d["d1"])),
        card(d["starter"]),
        [PegPlay(p, card(t)) for p, t in d["plays"]],
        (d["s0"], d["s1"]),
        d["dealer"],
        d["last"],
        8 - len(d["plays"]),
    )


def record_of(*deals: CribDeal, games: int = 1) -> CribbageRecord:
    return CribbageRecord(CribHeader(players=("Ann", "HAL"), games=games), list(deals))


# -- cards ----------------------------------------------------------------------
def test_card_codes_follow_the_spec() -> None:
    kc = CribCard.from_code(0b111101)  # 0011 1101: king of clubs
    assert str(kc) == "CK" and kc.value == 10 and kc.code == 0x3D
    assert str(CribCard.from_code(0b000001)) == "SA"
    assert str(CribCard.from_code(0b011010)) == "HT"
    assert CribCard.parse("D10") == CribCard(2, 10) and CribCard.parse("dj").symbol_text() == "J\u2666"
    for bad in (0, 14, 15, 0x30):
        with pytest.raises(ValueError):
            CribCard.from_code(bad)


# -- the show ---------------------------------------------------------------------
def test_the_29_hand() -> None:
    hs = score_hand(cards("S5 H5 D5 CJ"), card("C5"))
    assert hs.total == 29
    assert hs.by_kind() == {"fifteen": 16, "pair": 12, "nobs": 1}
    assert hs.summary() == "fifteens 16, pairs 12, nobs 1 = 29"


def test_double_and_triple_runs() -> None:
    assert score_hand(cards("H3 S4 D5 C5"), card("HK")).by_kind() == {"fifteen": 4, "pair": 2, "run": 6}
    # 3 4 5 5 5: a triple run (9) and a pair royal (6) and fifteens 5+5+5, 4+5+... = 8
    hs = score_hand(cards("H3 S4 D5 C5"), card("S5"))
    assert hs.by_kind()["run"] == 9 and hs.by_kind()["pair"] == 6
    # 3 3 4 4 5: a double double run (16) and two pairs (4)
    hs = score_hand(cards("H3 S3 D4 C4"), card("S5"))
    assert hs.by_kind()["run"] == 12 and hs.by_kind()["pair"] == 4
    assert score_hand(cards("HA S2 D3 C4"), card("S5")).by_kind()["run"] == 5


def test_fifteens_and_a_nineteen() -> None:
    assert score_hand(cards("H7 S8 D5 CT"), card("SK")).by_kind() == {"fifteen": 6}
    assert score_hand(cards("H7 S8 DA CQ"), card("SK")).by_kind() == {"fifteen": 2}
    hs = score_hand(cards("H2 S4 D6 CQ"), card("SK"))  # a "nineteen": nothing scores
    assert hs.total == 0 and hs.summary() == "no score (0)"


def test_flushes_hand_and_crib() -> None:
    assert score_hand(cards("H2 H4 H6 HQ"), card("SK")).by_kind() == {"flush": 4}
    assert score_hand(cards("H2 H4 H6 HQ"), card("HK")).by_kind()["flush"] == 5
    assert "flush" not in score_hand(cards("H2 H4 H6 HQ"), card("SK"), is_crib=True).by_kind()
    assert score_hand(cards("H2 H4 H6 HQ"), card("HK"), is_crib=True).by_kind()["flush"] == 5
    assert "flush" not in score_hand(cards("H2 H4 H6 SQ"), card("HK")).by_kind()


def test_nobs_needs_the_starters_suit_in_hand() -> None:
    assert score_hand(cards("HJ S2 D4 C8"), card("HA")).by_kind().get("nobs") == 1
    assert "nobs" not in score_hand(cards("HJ S2 D4 C8"), card("SA")).by_kind()
    assert "nobs" not in score_hand(cards("HA S2 D4 C8"), card("HJ")).by_kind()  # the starter jack is his heels


# -- the pegging -----------------------------------------------------------------------
def test_pegging_points_per_card() -> None:
    assert pegging_points(cards("S7 H8")) == [("fifteen", 2)]
    assert pegging_points(cards("SK HQ DA")) == []
    assert pegging_points(cards("SK HQ S5 H6")) == [("thirty-one", 2)]
    assert pegging_points(cards("S4 H4")) == [("pair", 2)]
    assert pegging_points(cards("S4 H4 D4")) == [("pair royal", 6)]
    assert pegging_points(cards("S3 H3 D3 C3")) == [("double pair royal", 12)]
    assert pegging_points(cards("S5 H5 D5")) == [("fifteen", 2), ("pair royal", 6)]
    assert pegging_points(cards("S4 H6 D5")) == [("fifteen", 2), ("run of 3", 3)]  # out of order
    assert pegging_points(cards("S2 H4 D3 CA")) == [("run of 4", 4)]
    assert pegging_points(cards("S2 H4 D4 C3")) == []  # the pair breaks the run
    assert pegging_points(cards("S3 H4 D3")) == []


def test_go_and_last_card_are_inferred_from_the_hands() -> None:
    d = deal_from(ONE_DEAL)
    events = peg_plays(d.pegging, d.hands, d.dealer)
    assert [e.count for e in events] == [10, 14, 19, 25, 30, 7, 17, 25]
    assert events[3].points == (("run of 3", 3),)
    assert events[4].points == (("go", 1),) and events[4].ends_series
    assert events[7].points == (("last card", 1),)
    assert all(e.problem is None for e in events)
    assert [p.card for p in events[6].series] == [card("H7"), card("DK")]


def test_thirty_one_scores_two_without_a_go() -> None:
    hands = (cards("SK HQ S2 S3"), cards("DK H9 C4 D6"))
    plays = [PegPlay(0, card("SK")), PegPlay(1, card("DK")), PegPlay(0, card("S2")), PegPlay(1, card("H9"))]
    events = peg_plays(plays, hands, dealer=1)
    assert events[-1].count == 31 and events[-1].points == (("thirty-one", 2),) and events[-1].ends_series


def test_out_of_turn_play_is_flagged() -> None:
    hands = (cards("S2 H3 D4 C5"), cards("S6 H7 D8 C9"))
    plays = [PegPlay(0, card("S2")), PegPlay(0, card("H3"))]
    events = peg_plays(plays, hands, dealer=1)
    assert events[1].problem == "player 0 plays out of turn (player 1 could play)"


def test_his_heels_and_the_recorded_scores() -> None:
    a = analyse_deal(deal_from(ONE_DEAL), (0, 0))
    assert a.heels == 2 and a.expected == (1, 6) and a.score_problem is None
    # show: Ann (pone) 5S 5H TC KD + JS: fifteens 5+T, 5+K, 5+T, 5+K, 5+5+... = 8+... pair 2
    assert [(p, w) for p, w, _ in a.shows] == [(0, "hand"), (1, "hand"), (1, "crib")]
    pone = a.shows[0][2]
    assert pone.by_kind() == {"fifteen": 12, "pair": 2}
    assert a.final[0] == 1 + 14
    bad = dict(ONE_DEAL, s0=1, s1=1)
    a = analyse_deal(deal_from(bad), (0, 0))
    assert a.score_problem == ("scores after the pegging recorded as 1-1, the rules give 1-6 (player 1 -5)")
    assert "deal 1: scores after the pegging recorded as 1-1" in record_of(deal_from(bad)).problems()[0]


def test_scores_carry_from_deal_to_deal_and_reset_after_a_game() -> None:
    rec = simulate(13)
    analysis = rec.analysis()
    for i in range(1, len(rec.deals)):
        assert analysis[i].start == ((0, 0) if rec.deals[i - 1].last else analysis[i - 1].final)
    games = [a.game for a in analysis]
    assert games[0] == 1 and games[-1] == 2
    assert rec.problems() == []


def test_a_game_that_ends_in_the_pegging() -> None:
    rec = simulate(13)
    i = next(i for i, a in enumerate(rec.analysis()) if a.ended_in_pegging)
    d, a = rec.deals[i], rec.analysis()[i]
    assert d.unplayed == 8 - len(d.pegging) > 0 and d.last and a.shows == [] and a.winner is not None
    steps = [s for s in rec.movie() if s.deal == i]
    assert [s.kind for s in steps][-2:] == ["pegged", "game"]
    assert sum(1 for s in steps if s.kind == "peg") == len(d.pegging)
    assert steps[-1].winner == a.winner and "over" in steps[-1].caption
    assert sum(len(h) for h in steps[-1].hands) == 8 - len(d.pegging)  # unplayed cards stay in the hands


def test_wrong_last_flag_and_game_count_are_problems() -> None:
    d = deal_from(ONE_DEAL)
    rec = record_of(d, deal_from(dict(ONE_DEAL, dealer=0, s0=1, s1=6)), games=3)
    probs = rec.problems()
    assert any("header says 3 games" in p for p in probs)
    assert any("deal 2: scores after the pegging" in p for p in probs)


def test_movie_steps_of_one_deal() -> None:
    rec = record_of(deal_from(ONE_DEAL))
    steps = rec.movie()
    kinds = [s.kind for s in steps]
    assert kinds == ["deal", "discard", "starter"] + ["peg"] * 8 + ["pegged", "show", "show", "show"]
    first = steps[0]
    assert [len(h) for h in first.hands] == [6, 6] and first.crib == () and first.starter is None
    assert [len(h) for h in steps[1].hands] == [4, 4] and len(steps[1].crib) == 4
    assert steps[2].caption == "Starter J\u2660: his heels, 2 for HAL" and steps[2].scores == (0, 2)
    peg5 = steps[7]
    assert peg5.count == 30 and peg5.scores == (1, 5) and peg5.back == (0, 5)
    assert peg5.caption.endswith("30 \u2013 go for 1")
    assert [str(p.card) for p in steps[8].pile] == ["H7"] and len(steps[8].played) == 6
    assert steps[10].caption.endswith("last card for 1") and steps[10].scores == (1, 6)
    assert steps[11].problem is None and steps[11].pile == ()
    assert steps[12].caption.startswith("Ann's hand") and steps[12].scores == (15, 6)
    assert steps[14].crib_shown and steps[14].caption.startswith("HAL's crib")
    assert rec.deal_starts() == [0]


def test_the_movie_flags_a_wrong_recorded_score() -> None:
    rec = record_of(deal_from(dict(ONE_DEAL, s1=5)))
    pegged = next(s for s in rec.movie() if s.kind == "pegged")
    assert pegged.problem and "the rules give 1-6" in pegged.problem and pegged.scores == (1, 5)


def test_json_shape() -> None:
    data = record_of(deal_from(ONE_DEAL)).to_json()
    assert set(data) == {"format", "header", "deals"}
    assert set(data["header"]) == {"author", "program", "players", "comments", "date", "games"}
    d = data["deals"][0]
    assert d["hands"] == [["S5", "H5", "CT", "DK"], ["D4", "S6", "H7", "C8"]]
    assert d["discards"] == [["C2", "C3"], ["S9", "HQ"]] and d["starter"] == "SJ"
    assert d["pegging"][0] == {"player": 0, "card": "CT"} and d["scores"] == [1, 6]
    assert d["dealer"] == 1 and d["last"] is False


def test_plays_after_the_game_is_won_are_flagged() -> None:
    # HAL (dealer) starts at 117: his heels make 119, the run of 3 on the fourth card makes 121
    d = deal_from(dict(ONE_DEAL, s0=100, s1=121, last=True))
    a = analyse_deal(d, (99, 117))
    assert a.expected == (100, 121) and a.score_problem is None
    assert a.peg_problem == "pegging play 5 (5\u2660) comes after player 1 reached 121"
    peg4 = [s for s in deal_steps(record_of(d), 0, a) if s.kind == "peg"][3]
    assert "HAL reaches 121: the game ends here" in peg4.details


def test_a_pegging_cut_short_without_a_winner_is_flagged() -> None:
    d = deal_from(dict(ONE_DEAL, plays=ONE_DEAL["plays"][:3], s0=0, s1=2, last=True))
    a = analyse_deal(d, (0, 0))
    assert a.score_problem is None and a.ended_in_pegging and a.shows == []
    assert a.peg_problem == "the pegging stops after 3 cards, but nobody has reached 121"
    rec = record_of(d)
    assert "deal 1: the pegging stops after 3 cards, but nobody has reached 121" in rec.problems()
    pegged = next(s for s in rec.movie() if s.kind == "pegged")
    assert pegged.problem == a.peg_problem


def test_his_heels_can_end_the_game_at_the_cut() -> None:
    d = deal_from(dict(ONE_DEAL, plays=[], s0=50, s1=121, last=True))
    a = analyse_deal(d, (50, 119))
    assert a.winner == 1 and a.ended_in_pegging and a.peg_problem is None and a.score_problem is None
    steps = deal_steps(record_of(d), 0, a)
    assert [s.kind for s in steps] == ["deal", "discard", "starter", "pegged", "game"]
    assert "HAL reaches 121: the game ends here" in steps[2].details
    assert steps[-1].caption == "Game 1 over: HAL wins 121-50 (a double skunk)"
    assert steps[-1].details == ("the game ended with his heels, at the cut",)


def test_pegging_captions_announce_each_score() -> None:
    hands = (cards("S5 H5 C2 C3"), cards("D5 S9 H9 D9"))
    plays = [PegPlay(0, card("S5")), PegPlay(1, card("D5")), PegPlay(0, card("H5"))]
    d = CribDeal(hands, (cards("CA C4"), cards("HA H4")), card("SK"), plays, (8, 2), 1, True, 5)
    steps = [s for s in record_of(d).movie() if s.kind == "peg"]
    assert steps[1].caption == "HAL plays 5\u2666: 10 \u2013 pair for 2"
    assert steps[2].caption == "Ann plays 5\u2665: 15 \u2013 fifteen for 2, pair royal for 6: 8"


def test_the_show_step_carries_its_breakdown() -> None:
    d = deal_from(
        dict(
            ONE_DEAL,
            h0="S5 H5 D5 CJ",
            d0="C2 C3",
            starter="C5",
            plays=[(0, "CJ"), (1, "D4"), (0, "S5"), (1, "S6"), (0, "H5"), (1, "H7"), (0, "D5"), (1, "C8")],
            s0=1,
            s1=4,
        )
    )
    rec = record_of(d)
    assert rec.problems() == []
    show = next(s for s in rec.movie() if s.kind == "show")
    assert show.caption == "Ann's hand: 5\u2660 5\u2665 5\u2666 J\u2663 + 5\u2663 = 29" and show.points == 29
    assert sum(i.points for i in show.items) == 29 and len(show.items) == 8 + 6 + 1
    assert show.details[0] == "fifteens 16, pairs 12, nobs 1 = 29" and show.details[-1] == "scores 30-4"


def test_the_pegging_steps_say_go_and_thirty_one() -> None:
    plays = [(1, "S3"), (0, "D3"), (1, "C9"), (0, "D9"), (1, "D6"), (1, "CA"), (0, "D4"), (0, "H2")]
    d = deal_from(
        dict(
            h0="D9 H2 D3 D4",
            h1="S3 CA C9 D6",
            d0="S8 D7",
            d1="DK SQ",
            starter="DQ",
            plays=plays,
            s0=5,
            s1=4,
            dealer=0,
            last=False,
        )
    )
    rec = record_of(d)
    assert rec.problems() == []
    pegs = [s for s in rec.movie() if s.kind == "peg"]
    assert pegs[4].details == ("count 30", "Ann says go; HAL plays on", "scores 4-2")
    assert pegs[5].caption.endswith("31 \u2013 thirty-one for 2")
    assert "thirty-one: the count starts again" in pegs[5].details
    assert pegs[7].caption.endswith("6 \u2013 last card for 1") and pegs[7].scores == (5, 4)
