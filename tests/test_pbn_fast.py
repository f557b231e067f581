"""The PBN reader's fast path gives exactly what the careful reader gives.

Every game is read twice, with the fast path (``read_game(..., fast=True)``, as
files are read) and with the careful reader alone: boards, problems, lines and
``#`` bookkeeping must agree on real files, generated files and generated files
with the odd things real files hold.  And the fast path must really be taken
for the usual games, or the reader is no faster than before.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import realdata_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pbn_props import boards

from bridgeview.formats.pbn import fast as pbn_fast
from bridgeview.formats.pbn import read as pbn_read
from bridgeview.formats.pbn.codec import PbnCodec, document_text, parse_pbn_text
from bridgeview.formats.pbn.lex import split_games
from bridgeview.formats.pbn.read import Context, read_game
from bridgeview.formats.textcheck import decode_text
from bridgeview.model.auction import final_contract
from bridgeview.model.board import Board, board_key
from bridgeview.model.boardset import BoardSet
from bridgeview.model.deal import Deal

HERE = Path(__file__).parent


def both_ways(text: str) -> tuple[list, list, int]:
    """Each game as (model, problems, line, inherits) read with and without the fast path; and how many
    games the fast path read."""
    out = []
    taken = 0
    for fast in (True, False):
        ctx = Context()
        games = []
        for game in split_games(text).games:
            if fast:
                probe = Context(previous=dict(ctx.previous), persistent=dict(ctx.persistent), pending=list(ctx.pending))
                taken += pbn_fast.read_fast(game.raw, game.first_line, probe) is not None
            board, problems, line = read_game(game, ctx, fast=fast)
            games.append((board_key(board), [(ln, str(msg)) for ln, msg in problems], line, ctx.inherits))
            ctx.inherits = False
        out.append(games)
    return out[0], out[1], taken


@pytest.mark.parametrize("path", realdata_files("pbn", "*.pbn"), ids=lambda p: p.name)
def test_real_files_read_the_same_both_ways(path: Path) -> None:
    text = decode_text(path.read_bytes()).text
    fast, careful, _taken = both_ways(text)
    assert fast == careful


def test_real_files_take_the_fast_path(realdata: Path) -> None:
    """The plain files among the real ones (BigDeal, Deep Finesse, JFR exports) are read by the fast path."""
    path = realdata / "pbn" / "zdenecek_bigdeal11_deepfinesse.pbn"
    if not path.exists():
        pytest.skip("zdenecek_bigdeal11_deepfinesse.pbn is not present")
    text = decode_text(path.read_bytes()).text
    _fast, _careful, taken = both_ways(text)
    assert taken == len(split_games(text).games) > 0


def export_file(count: int, seed: int = 3) -> str:
    """A plain export file like the benchmark's: roster, auction, play, result, a DD table on some boards."""
    from test_pbn_props import random_auction, random_play

    from bridgeview.model.ddtable import DDTable

    rng = random.Random(seed)
    out = []
    for i in range(count):
        b = Board.numbered(i + 1, Deal.shuffled(rng))
        b.auction = random_auction(rng, b.effective_dealer)
        fc = final_contract(b.auction, b.effective_dealer)
        if fc is not None and not fc[0].is_passed_out:
            b.contract, b.declarer = fc
            b.play = random_play(rng, b.deal, fc[1], fc[0].strain, 52 if i % 3 else 4 * rng.randint(0, 12))
            b.result = rng.randint(0, 13)
        elif fc is not None:
            b.contract = fc[0]
        if i % 2:
            b.dd = DDTable.from_rows([[rng.randint(0, 13) for _ in range(5)] for _ in range(4)])
        b.tags = {"Event": "Bench", "Scoring": "IMP", "West": "w"}
        out.append(b)
    return document_text(BoardSet(out))[0]


def test_export_files_take_the_fast_path_for_every_game() -> None:
    text = export_file(60)
    fast, careful, taken = both_ways(text)
    assert fast == careful
    assert taken == 60
    doc = parse_pbn_text(text)
    assert document_text(doc)[0] == text  # and write back byte for byte


#: small changes that real files make to the plain games our writer makes, each (pattern, replacement)
ODDITIES = [
    (r"\bPass\b", "pass"),
    (r"\bPass\b", "P"),
    (r"Pass Pass Pass\n?$", "AP"),
    (r"\b([1-7])NT\b", r"\1N"),
    (r"\b([SHDC])([2-9TJQKA])\b", lambda m: m.group(0).lower()),
    (r"\bS([2-9TJQKA])\b", "SZ"),
    (r'\[Deal "N:', '[Deal "n:'),
    (r'\[Deal "N:', '[Deal "E:'),
    (r'(\[Deal "[^ ]*) ', r"\1  "),
    (r'(\[Deal "N:)[^ ]*', r"\1-"),
    (r'(\[Deal "N:[^ ]*)\.', r"\1"),
    (r'(\[Deal "N:)', r"\1AA"),
    (r'\[Board "(\d+)"\]', r'[Board "x\1"]'),
    (r'\[Board "\d+"\]', '[Board "#"]'),
    (r'\[Event "', '[Event "#'),
    (r'\[Event "[^"]*"\]', '[Event "##Cup"]'),
    (r'\[Dealer "\w"\]', '[Dealer "x"]'),
    (r'\[Vulnerable "\w+"\]', '[Vulnerable "Both"]'),
    (r'\[Vulnerable "\w+"\]', '[Vulnerable "sideways"]'),
    (r'\[Contract "(\w+)"\]', r'[Contract "\1R"]'),
    (r'\[Contract "\w+"\]', '[Contract "H"]'),
    (r'\[Contract "\w+"\]', '[Contract "9Z"]'),
    (r'\[Result "\d+"\]', '[Result "NS 9"]'),
    (r'\[Result "\d+"\]', '[Result "14"]'),
    (r'\[Declarer "(\w)"\]', r'[Declarer "^\1"]'),
    (r'\[Declarer "\w"\]', '[Declarer "Q"]'),
    (r'\[Play "\w"\]', '[Play "?"]'),
    (r'\[Play "\w"\]', '[Play "x"]'),
    (r"(\[Play \"\w\"\]\n(?:.*\n){2})", r"\1*\n"),
    (r"\n\[Play", ' =1=\n[Note "1:weak"]\n[Play'),
    (r"\n\[Play", " !\n[Play"),
    (r"\n\[Play", " $2\n[Play"),
    (r'\[Scoring "\w+"\]', '[Scoring "IMP;a b"]'),
    (r'\[Scoring "\w+"\]', '[Scoring "MP;Butler"]'),
    (r'\[West "', '[Score "NS 420"]\n[West "'),
    (r'\[West "', '[Score "about 3"]\n[West "'),
    (r'\[West "', '[ScoreRubberHistory "NS 0/100 EW 0/0"]\n[West "'),
    (r'\[West "', lambda m: '[TotalScoreTable "Rank\\2R;PairId\\2R"]\n 1 7\n 2 3\n[West "'),
    (r'\[West "', '[TotalScoreTable "-Rank;PairId"]\n 2 7\n 1 3 4\n[West "'),
    (r'\[West "', '[XSection "a"]\nsome words\n more words\n[West "'),
    (r'\[West "[^"]*"\]', lambda m: '[West "A \\"B\\" C"]'),
    (r'\[West "', lambda m: '[West "back\\slash'),
    (r'\[West "[^"]*"\]', '[West "w"]\n[West "again"]'),
    (r'\[West "', '{a comment}\n[West "'),
    (r'\[West "', '[West  "'),
    (r"\[West ", "[ West "),
    (r'\[Event "[^"]*"\]', '[Event "a]b"]'),
    (r"\[OptimumResultTable \"[^\"]*\"\]", '[OptimumResultTable "Declarer;Denomination;Result"]'),
    (r"(\[OptimumResultTable \"[^\"]*\"\]\n)N", r"\1Q"),
    (r'\[Site "', '[DoubleDummyTricks "746b5747b55862758627"]\n[Site "'),
    (r'\[Site "', '[DoubleDummyTricks "xyz"]\n[Site "'),
    (r"\n\n", "\n  \n"),
    (r"\]\n", "]\r\n"),
    (r"\n\[Auction", "\n{lively}\n[Auction"),
    (r"\n\[Auction", "\n{a} {b}\n[Auction"),
    (r"\n\[Auction", "\n{two\nlines}\n[Auction"),
    (r"\n\[Auction", " {same line}\n[Auction"),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 {inside}"),
    (r"\n\[Play", "\n{before play}\n[Play"),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 =1="),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 =1= =2="),
    (r"\n\[Play", '\n[Note "1:one"]\n[Note "2:two"]\n[Play'),
    (r"\n\[Play", '\n[Note "x"]\n[Play'),
    (r'(\[Play "\w"\]\n\S+)', r'\1 =3=\n[Note "3:in play"]'),
    (r'\[Event "', '[Note "1:first"]\n[Event "'),
    (r"\[OptimumResultTable", "{dd}\n[OptimumResultTable"),
    (r"(\[OptimumResultTable .*\n)", r"\1{in table}\n"),
    # as other programs write PBN: ; comments, % lines, comments over lines holding brackets and quotes
    (r"\n\[Auction", "\n; a remark\n[Auction"),
    (r'(\[Board "\d+"\])', r"\1 ; board"),
    (r"\n\[Deal", "\n% a program's line\n[Deal"),
    (r"\n\[Deal", "\n%%!R 75974684697597468469\n[Deal"),
    (r"\n\[Deal", "\n%%!R 7597468469759746846Z\n[Deal"),
    (r"\n\[Auction", '\n{a [bracket] "quote"\nover ; lines}\n[Auction'),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 ; after a call"),
    (r"(\[OptimumResultTable .*\n)", r"\1; in table\n"),
    (r"(\[OptimumResultTable .*\n\S+)", r"\1 {same line in table}"),
    (r"(\[OptimumResultTable .*\n\S+)", r"\1 ; same line in table"),
    (r"\n\[Play", "\n%\n[Play"),
    (r"\n\[Play", "\n  % not at the start\n[Play"),
    (r'\[Event "[^"]*"\]', '[Event "a;b {c} %d"]'),
    (r"^\[Event", "{first}\n[Event"),
    (r"\n\[Auction", "\n} stray\n[Auction"),
    (r"\n\[Auction", "\n{not closed\n[Auction"),
    (r"\n\[Auction", '\n; a "quote\n[Auction'),
    (r'\[Site "[^"]*"\]', '[Site "#"]'),
    (r'\[West "[^"]*"\]', '[West "#"]'),
    (r"\n\[Auction", '\n{"#: a quote and a hash in a comment take nothing from the game before}\n[Auction'),
    (r"\n", "\r\n"),
]

#: what other programs' files hold that reads the same as our own (scoring programs, BBO, robots, Bridge
#: Composer): every game with them must stay on the fast path
OTHER_PROGRAMS = [
    (r"\bPass\b", "pass"),
    (r"\b([1-7])NT\b", r"\1nt"),
    (r"\n\[Auction", "\n; a remark\n[Auction"),
    (r'(\[Board "\d+"\])', r"\1 ; board"),
    (r"\n\[Deal", "\n% a program's line\n[Deal"),
    (r"\n\[Auction", '\n{a [bracket] "quote"\nover ; lines}\n[Auction'),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 {inside}"),
    (r"\n\[Play", "\n{before play}\n[Play"),
    (r'(?<=\n\n)\[Event "[^"]*"\]', '[Event "#"]'),  # from the second game on: the first has none before
    (r'(\[Event "[^"]*"\]\n)((?:\[Scoring [^\n]*\n))', r"\2\1"),
    (r"\]\n", "]\r\n"),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(boards(), min_size=1, max_size=3),
    st.lists(st.tuples(st.sampled_from(ODDITIES), st.integers(0, 3)), max_size=4),
)
def test_fast_path_agrees_with_the_careful_reader(bs: list[Board], changes: list) -> None:
    text = document_text(BoardSet(bs))[0]
    for (pattern, replacement), count in changes:
        text = re.sub(pattern, replacement, text, count=count, flags=re.M)
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(ODDITIES), st.integers(0, 3)), max_size=4))
def test_fast_path_agrees_on_export_files_with_oddities(seed: int, changes: list) -> None:
    text = export_file(6, seed)
    for (pattern, replacement), count in changes:
        text = re.sub(pattern, replacement, text, count=count, flags=re.M)
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


@pytest.mark.parametrize("oddity", ODDITIES, ids=lambda o: repr(o[1]) if isinstance(o[1], str) else o[0])
def test_each_oddity_in_export_files_reads_as_the_careful_reader_reads_it(oddity: tuple) -> None:
    pattern, replacement = oddity
    text = re.sub(pattern, replacement, export_file(6, 11), flags=re.M)
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


def test_other_programs_shapes_stay_on_the_fast_path() -> None:
    """Comments of both kinds (over lines too), % lines, CRLF, lower-case calls, "#" values and tags in another
    order: every game is read by the fast path, as the careful reader reads it."""
    text = export_file(12)
    for pattern, replacement in OTHER_PROGRAMS:
        text = re.sub(pattern, replacement, text, flags=re.M)
    fast, careful, taken = both_ways(text)
    assert fast == careful
    assert taken == 12
    doc = parse_pbn_text(text)
    assert 'a [bracket] "quote"\nover ; lines' in doc[1].notes and " a remark" in doc[1].notes
    assert doc[1].tags["Event"] == "Bench" and not doc.problems
    assert document_text(doc)[0] == text  # and written back byte for byte


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(OTHER_PROGRAMS), st.integers(0, 3)), max_size=6))
def test_other_programs_shapes_read_by_the_fast_path_as_the_careful_reader_reads_them(seed: int, changes: list) -> None:
    text = export_file(4, seed)
    for (pattern, replacement), count in changes:
        text = re.sub(pattern, replacement, text, count=count, flags=re.M)
    fast, careful, taken = both_ways(text)
    assert fast == careful, text
    assert taken == 4, text


def test_psbridge_tables_and_two_agreeing_tables_stay_on_the_fast_path(realdata: Path) -> None:
    """PSBridge's %%!R lines and Bridge Composer's DoubleDummyTricks beside an OptimumResultTable."""
    for name in ("zdenecek_psbridge_bigdeal12.pbn", "zdenecek_bridgecomposer_latin1.pbn"):
        path = realdata / "pbn" / name
        if not path.exists():
            pytest.skip(f"{name} is not present")
        text = decode_text(path.read_bytes()).text
        fast, careful, taken = both_ways(text)
        assert fast == careful
        assert taken == len(split_games(text).games) > 0
        assert all(b.dd is not None and b.dd.is_complete for b in parse_pbn_text(text))


def test_hash_values_after_fast_games_take_the_latest_value() -> None:
    """Games read by the fast path hand what they said on only when a later game asks for it with '#'."""
    games = [
        '[Event "A"]\n[Site "S1"]\n[Board "1"]\n',
        '[Event "B"]\n[Board "2"]\n[Dealer "E"]\n',
        '[Event "C"]\n[Board "3"]\n',
        '[Event "#"]\n[Site "#"]\n[Dealer "#"]\n[Board "4"]\n',
    ]
    doc = parse_pbn_text("\n".join(games))
    assert [b.tags.get("Event") for b in doc] == ["A", "B", "C", "C"]
    assert doc[3].tags.get("Site") == "S1" and str(doc[3].dealer.letter) == "E"
    fast, careful, taken = both_ways("\n".join(games))
    assert fast == careful and taken == 4  # the game with "#" values too


def test_a_codec_read_of_an_export_file_matches_the_careful_reader(tmp_path: Path) -> None:
    path = tmp_path / "export.pbn"
    path.write_text(export_file(30, seed=9), encoding="utf-8")
    doc = PbnCodec().read(path)
    _fast, careful, _taken = both_ways(path.read_text(encoding="utf-8"))
    assert [board_key(b) for b in doc] == [c[0] for c in careful]


def test_a_read_leaves_the_garbage_collector_as_it_was() -> None:
    """The read pauses the collector and hands its boards to the oldest generation: afterwards the collector
    runs again (a cycle made later is freed), or stays off if the caller had turned it off."""
    import gc
    import weakref

    text = "".join(f'[Board "{n}"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n\n' for n in range(1, 200))
    assert gc.isenabled()
    doc = parse_pbn_text(text)
    assert gc.isenabled() and len(doc) == 199 and doc[198].number == 199

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # type: ignore[attr-defined]
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None
    gc.disable()
    try:
        parse_pbn_text(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


def deals_file(count: int, seed: int = 5, roster: str = "?") -> str:
    """A deal generator's file after export: the roster tags with ``roster`` values, each numbered deal."""
    rng = random.Random(seed)
    bs = [Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(count)]
    for b in bs:
        b.tags = {"Event": roster, "Site": roster, "West": roster, "Scoring": "IMP" if roster.strip("?") else roster}
    return document_text(BoardSet(bs))[0]


#: what a game of a deals-only file can hold instead of what its neighbours hold, each (pattern, replacement)
DEAL_ODDITIES = [
    (r'\[Board "\d+"\]', '[Board "1 2"]'),
    (r'\[Board "\d+"\]', '[Board "x"]'),
    (r'\[Board "\d+"\]', '[Board ""]'),
    (r'\[Board "\d+"\]', '[Board "?"]'),
    (r'\[Board "\d+"\]', '[Board "#"]'),
    (r'\[Board "\d+"\]', '[Board "١٢"]'),
    (r'\[Board "(\d+)"\]', lambda m: f'[Board "1\\{m.group(1)}"]'),
    (r'\[Dealer "(\w)"\]', lambda m: f'[Dealer "\\{m.group(1)}"]'),
    (r'\[Dealer "\w"\]', '[Dealer "n"]'),
    (r'\[Dealer "\w"\]', '[Dealer "x"]'),
    (r'\[Dealer "\w"\]', '[Dealer "?"]'),
    (r'\[Dealer "\w"\]', '[Dealer "N\r"]'),
    (r'\[Vulnerable "\w+"\]', '[Vulnerable "Love"]'),
    (r'\[Vulnerable "\w+"\]', '[Vulnerable "sideways"]'),
    (r'\[Vulnerable "\w+"\]', '[Vulnerable "-"]'),
    (r'\[Vulnerable "(\w+)"\]', r'[Vulnerable "\1\n"]'),
    (r'\[Vulnerable "(\w+)"\]', r'[Vulnerable "\1]"]'),
    (r'\[Vulnerable "(\w+)"\]', r'[Vulnerable "[\1"]'),
    (r'\[Deal "[^"]*"\]', '[Deal "?"]'),
    (r'\[Deal "[^"]*"\]', '[Deal ""]'),
    (r'\[Deal "N:[^ ]*', '[Deal "N:-'),
    (r'(\[Deal "N:)A', r"\1AA"),
    (r'(\[Deal "N:[^ ]*)\.', r"\1"),
    (r'(\[Deal "N:[^ ]*) ', r"\1  "),
    (r'\[Deal "N:', '[Deal "s:'),
    (r'\[Event "[^"]*"\]', '[Event "Cup"]'),
    (r'\[Event "[^"]*"\]', '[Event "a]b"]'),
    (r'\[Event "[^"]*"\]', '[Event "a[b"]'),
    (r'\[Event "[^"]*"\]', lambda m: '[Event "a\\"b"]'),
    (r'\[Event "[^"]*"\]', lambda m: '[Event "a\\b"]'),
    (r'\[Event "[^"]*"\]', '[Event "a"b"]'),
    (r'\[Event "[^"]*"\]', '[Event "a\nb"]'),
    (r'\[Event "[^"]*"\]', '[Event "#"]'),
    (r'\[Event "[^"]*"\]', '[Event "##Cup"]'),
    (r'\[Scoring "[^"]*"\]', '[Scoring "MP"]'),
    (r'\[Scoring "[^"]*"\]', '[Scoring "IMP;a b"]'),
    (r'\[Scoring "[^"]*"\]', '[Scoring "bogus"]'),
    (r'\[Result "[^"]*"\]', '[Result "9"]'),
    (r'\[Result "[^"]*"\]', '[Result "14"]'),
    (r'\[Declarer "[^"]*"\]', '[Declarer "^S"]'),
    (r'\[Declarer "[^"]*"\]', '[Declarer "Q"]'),
    (r'\[Contract "[^"]*"\]', '[Contract "4SX"]'),
    (r'\[Contract "[^"]*"\]', '[Contract "H"]'),
    (r'\[Contract "[^"]*"\]', '[Contract "9Z"]'),
    (r'\[Contract "[^"]*"\]', '[Contract "4SR"]'),
    (r'\[West "', '{a comment}\n[West "'),
    (r'\[West "', '% a directive\n[West "'),
    (r'(\[West "[^"]*"\])', r"\1\nsome words"),
    (r'(\[West "[^"]*"\])', r"\1 ;rest of line"),
    (r'(\[West "[^"]*"\])', r"\1\n[West \"again\"]"),
    (r'(\[West "[^"]*"\])', r'\1\n[Note "1:x"]'),
    (r'(\[West "[^"]*"\])', r'\1\n[Score "NS 420"]'),
    (r'(\[West "[^"]*"\])', r'\1\n[ScoreRubberHistory "NS 0/100 EW 0/0"]'),
    (r'(\[West "[^"]*"\])', r'\1\n[Auction "N"]\nPass Pass Pass Pass'),
    (r"\[West ", "[West  "),
    (r"\]\n", "]\r\n"),
    (r"\n\n", "\n\n\n"),
    (r"\n\n", "\n  \n"),
]


def _odd_games(text: str, changes: list[tuple[tuple[str, object], int]]) -> str:
    """``text`` with each change made to one game (by index), the games around it left as they were."""
    layout = split_games(text)
    raws = [g.raw for g in layout.games]
    for (pattern, replacement), index in changes:
        k = index % len(raws)
        raws[k] = re.sub(pattern, replacement, raws[k], count=1)  # type: ignore[call-overload]  # str or function
    return layout.preamble + "".join(raws) + layout.trailer


def board_last(text: str) -> str:
    """``text`` with each game's board number moved after its deal (values above it decide its line)."""
    return re.sub(r'(\[Board "[^"\n]*"\]\n)((?:[^\n]*\n)*?)(\[Deal [^\n]*\n)', r"\2\3\1", text)


@pytest.mark.parametrize("roster", ["?", "Club night", "board last"])
@pytest.mark.parametrize("oddity", DEAL_ODDITIES, ids=lambda o: repr(o[1]) if isinstance(o[1], str) else o[0])
def test_each_oddity_among_games_laid_out_alike_reads_as_the_careful_reader_reads_it(
    oddity: tuple[str, object], roster: str
) -> None:
    plain = deals_file(6, 11, roster) if roster != "board last" else board_last(deals_file(6, 11))
    text = _odd_games(plain, [(oddity, 3)])
    assert text != plain
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.sampled_from(["?", "", "Club night"]),
    st.lists(st.tuples(st.sampled_from(DEAL_ODDITIES), st.sampled_from(range(1, 12))), min_size=1, max_size=4),
)
def test_games_laid_out_like_the_one_before_read_as_the_careful_reader_reads_them(
    seed: int, roster: str, changes: list
) -> None:
    """Deals-only games are read by position once one like them has been read: an odd game among them (a bad
    value, a bracket, quote or line break in a value, a comment, another tag) is read as the careful reader
    reads it, and so are the games after it.  (The first game is left as it is: it is read by the general
    path, which learns the layout.)"""
    text = _odd_games(deals_file(12, seed, roster), changes)
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


def test_every_deal_generator_game_after_the_first_is_read_by_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout path is really taken: for a deals-only file, every game after the first is read by
    position (no ``findall``), and a changed roster value costs one general read."""
    taken = []
    read_like = pbn_fast._read_like

    def counting(*args: object) -> object:
        hit = read_like(*args)  # type: ignore[arg-type]  # the real function's arguments, passed on
        taken.append(hit is not None)
        return hit

    monkeypatch.setattr(pbn_fast, "_read_like", counting)
    text = deals_file(40)
    doc = parse_pbn_text(text)
    assert len(doc) == 40 and taken == [True] * 39
    taken.clear()
    parse_pbn_text(_odd_games(text, [((r'\[Scoring "[^"]*"\]', '[Scoring "MP"]'), 20)]))
    assert taken.count(False) == 1 and len(taken) == 39
    taken.clear()  # a tag neither checked nor modelled is taken as it is written
    odd = parse_pbn_text(_odd_games(text, [((r'\[Event "[^"]*"\]', '[Event "Cup"]'), 20)]))
    assert taken == [True] * 39 and odd[20].tags["Event"] == "Cup" and odd[19].tags["Event"] == "?"
    assert document_text(doc)[0] == text  # written back byte for byte


def test_the_fast_path_reports_checked_tags_in_the_games_order_whatever_the_hash_seed() -> None:
    """Two checked tags with problems (a score table and a score) are reported in the order the game holds
    them, as the careful reader does: the fast path once took them from a set, whose order the hash seed
    decides (a hypothesis run found it)."""
    import os
    import subprocess
    import sys

    code = (
        "import re, sys\n"
        "sys.path.insert(0, 'tests')\n"
        "import test_pbn_fast as t\n"
        "text = t.export_file(6, 0)\n"
        "text = text.replace('[West \"', '[TotalScoreTable \"-Rank;PairId\"]\\n 2 7\\n 1 3 4\\n[West \"')\n"
        "text = text.replace('[West \"', '[Score \"about 3\"]\\n[West \"')\n"
        "fast, careful, _ = t.both_ways(text)\n"
        "print(fast == careful)\n"
    )
    from conftest import REPO

    for seed in range(4):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
        assert out.stdout.strip() == "True", out.stderr


@pytest.mark.parametrize(
    "comment",
    ["{the same comment}\n", "; the same remark\n", "% the same program line\n", "%%!R 75974684697597468469\n"],
)
def test_games_with_the_same_commentary_keep_it_when_laid_out_alike(comment: str) -> None:
    """Commentary in every game of a deals-only file: each board keeps its own (no game is read by the position
    of a commented one, whose layout would drop it)."""
    text = re.sub(r"(\[Deal [^\n]*\n)", lambda m: m.group(1) + comment, deals_file(6))
    fast, careful, taken = both_ways(text)
    assert fast == careful
    assert taken == 6
    doc = parse_pbn_text(text)
    assert all(b.notes == doc[0].notes for b in doc) and (doc[0].notes or doc[0].dd is not None)


#: what one game can hold unlike the games around it shaped alike (tags, fixed sections and the text between
#: them the same): a skeleton's checks, each (pattern, replacement)
SHAPE_ODDITIES = [
    (r'(\[Auction "\w")\]', r"\1 ]"),
    (r"\[Play ", "[Play  "),
    (r'(\[Play "\w"\]\n\S+)', r"\1 ]"),
    (r'(\[Play "\w"\]\n\S+)', r"\1 %"),
    (r'(\[Auction "\w"\]\n\S+)', r"\1 ;"),
    (r'\[West "[^"]*"\]', lambda m: '[West "ends\\"]'),
    (r'\[West "[^"]*"\]', lambda m: '[West "two\\\\back"]'),
    (r'\[West "[^"]*"\]', lambda m: '[West "one\\back"]'),
    (r'\[Event "', '[Event "two\nlines '),
    (r'\[Event "', '[Event "[bracket] '),
    (r"\n\n", "\n\n\n"),
    (r"\n\n", "\n{after}\n\n"),
    (r"\n\n", "\n; after\n\n"),
    (r"^", "\n"),
    (r"^", "{first}\n"),
    (r'\[Site "[^"]*"\]', '[Site "#"]'),
    (r'\[Scoring "[^"]*"\]', '[Scoring "bogus"]'),
]


@pytest.mark.parametrize(
    "oddity", ODDITIES + SHAPE_ODDITIES, ids=lambda o: repr(o[1]) if isinstance(o[1], str) else o[0]
)
def test_each_oddity_among_games_shaped_alike_reads_as_the_careful_reader_reads_it(oddity: tuple) -> None:
    """Games with an auction and play are read by their skeleton once one shaped like them was read: an odd
    game among them is read as the careful reader reads it, and so are the games after it."""
    plain = export_file(12, 11)
    text = _odd_games(plain, [(oddity, 7)])
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.lists(
        st.tuples(st.sampled_from(ODDITIES + SHAPE_ODDITIES + OTHER_PROGRAMS), st.sampled_from(range(1, 10))),
        min_size=1,
        max_size=5,
    ),
)
def test_games_shaped_like_one_before_read_as_the_careful_reader_reads_them(seed: int, changes: list) -> None:
    text = _odd_games(export_file(10, seed), changes)
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


def _counted(monkeypatch: pytest.MonkeyPatch, path: str) -> list[bool]:
    """Whether each game the fast path's ``path`` (``_read_shaped``: by a skeleton, ``_read_like``: by
    position) was tried on was read by it (filled as files are read)."""
    taken: list[bool] = []
    tried = getattr(pbn_fast, path)

    def counting(*args: object) -> object:
        hit = tried(*args)
        taken.append(hit is not None)
        return hit

    monkeypatch.setattr(pbn_fast, path, counting)
    return taken


@pytest.mark.parametrize("shape", ["export", "annotated", "other programs"])
def test_games_shaped_alike_are_read_by_their_skeleton(monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    """The skeleton path is really taken: in our export (with and without notes and comments) and as other
    programs write it, every game after the first of its shape is read by its skeleton (no pattern), to the
    same boards, and written back byte for byte."""
    text = export_file(40)
    if shape != "export":
        text = re.sub(r"\n\[Auction", "\n{The bidding was lively.}\n[Auction", text)
        text = re.sub(r'(\[Auction "\w"\]\n\S+)([^\[]*)\n\[Play', r'\1 =1=\2\n[Note "1:could be short"]\n[Play', text)
    if shape == "other programs":  # but for commentary among the calls, or holding a bracket or quote (the
        for pattern, replacement in OTHER_PROGRAMS:  # general path lifts it out)
            if "bracket" not in replacement and "inside" not in replacement:
                text = re.sub(pattern, replacement, text, flags=re.M)
    taken = _counted(monkeypatch, "_read_shaped")
    doc = parse_pbn_text(text)
    shapes = len({tuple(re.findall(r"^\[(\w+)", g.raw, flags=re.M)) for g in split_games(text).games})
    assert len(doc) == 40 and shapes <= 6  # the first game of each shape teaches it (the first of all: none)
    assert taken.count(True) >= 40 - 1 - shapes and taken.count(False) <= shapes
    fast, careful, fast_games = both_ways(text)
    assert fast == careful and fast_games == 40
    assert document_text(doc)[0] == text
    if shape != "export":
        assert sum(b.auction[0].explanation == "could be short" for b in doc if b.auction) > 20
        assert "The bidding was lively." in doc[5].notes


def sections_file(count: int, seed: int = 7, deal_last: bool = False) -> str:
    """Games a program writes alike with a varying tag the model does not hold, and one with a varying
    section (kept as ``Name:section``), before the deal or after it."""
    rng = random.Random(seed)
    games = []
    for n in range(1, count + 1):
        deal = Deal.shuffled(rng).to_pbn()
        tags = [f'[Board "{n}"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Minimax "{rng.randint(1, 7)}NS{n}"]']
        tags += [f'[XSection "a"]\nwords {rng.random():.3f} more']
        tags.insert(4 if deal_last else len(tags), f'[Deal "{deal}"]')
        games.append("\n".join(tags) + "\n\n")
    return "".join(games)


#: what one game of :func:`sections_file` can hold unlike the others
SECTION_ODDITIES = [
    (r"words", "words [x]"),
    (r"words", "words ]"),
    (r"words", "words {c}"),
    (r"words", "words ; c"),
    (r"words", "words\n% c\n"),
    (r'(\[XSection "a")\]', r"\1 ]"),
    (r'(\[XSection "a")\]', r"\1 x]"),
    (r"\[XSection ", "[XSection  "),
    (r"\[XSection ", "[YSection "),
    (r"\[Deal ", "[Seal "),
    (r'(\[Minimax "[^"]*)"', r'\1]"'),
    (r'(\[Minimax "[^"]*)"', lambda m: m.group(1) + '\\"'),
    (r'(\[Minimax "[^"]*)"', lambda m: m.group(1) + '\\\\x"'),
    (r'(\[Minimax "[^"]*)"', lambda m: m.group(1) + '\\x"'),
    (r"\n\n", "\n{after}\n\n"),
    (r"\n\n", "\n% after\n\n"),
    (r"\n\n", "\n; after\n\n"),
    (r"\n\n", '\n[Note "x"]\n\n'),
]


@pytest.mark.parametrize("deal_last", [False, True], ids=["section last", "deal last"])
@pytest.mark.parametrize("oddity", SECTION_ODDITIES, ids=lambda o: repr(o[1]) if isinstance(o[1], str) else o[0])
def test_each_oddity_among_games_with_varying_sections_reads_as_the_careful_reader_reads_it(
    oddity: tuple, deal_last: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = sections_file(8, deal_last=deal_last)
    taken = _counted(monkeypatch, "_read_shaped")
    parse_pbn_text(plain)
    assert taken.count(True) == 6  # the first game teaches nothing, the second teaches its shape
    text = _odd_games(plain, [(oddity, 5)])
    assert text != plain
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


def deep_finesse_file(count: int, seed: int = 9, psbridge: bool = False) -> str:
    """Deals with tags a program adds that vary from game to game (Deep Finesse's ``Ability`` and ``Minimax``),
    or (``psbridge``) PSBridge's ``%%!R`` double-dummy line after the deal."""
    rng = random.Random(seed)
    games = []
    for n in range(1, count + 1):
        b = Board.numbered(n, Deal.shuffled(rng))
        head = f'[Board "{n}"]\n[Dealer "{b.dealer.letter}"]\n[Vulnerable "{b.vulnerability.text}"]\n'
        deal = f'[Deal "{b.deal.to_pbn()}"]\n'
        if psbridge:
            digits = "".join(rng.choice("0123456789ABCD") for _ in range(10))
            games.append(head + deal + f"%%!R {digits}{digits}\n\n")
        else:
            ability = " ".join(f"{s}:{rng.randint(10000, 99999)}" for s in "NESW")
            games.append(head + deal + f'[Ability "{ability}"]\n[Minimax "{rng.randint(1, 7)}NS{n}"]\n\n')
    return "".join(games)


@pytest.mark.parametrize("psbridge", [False, True], ids=["deep finesse", "psbridge"])
def test_deals_with_varying_tags_or_a_psbridge_table_are_read_by_position(
    monkeypatch: pytest.MonkeyPatch, psbridge: bool
) -> None:
    text = deep_finesse_file(30, psbridge=psbridge)
    taken = _counted(monkeypatch, "_read_like")
    doc = parse_pbn_text(text)
    assert taken == [True] * 29
    fast, careful, fast_games = both_ways(text)
    assert fast == careful and fast_games == 30
    if psbridge:
        assert all(b.dd is not None and b.dd.is_complete for b in doc) and doc[3].dd != doc[4].dd
        assert not any(b.notes for b in doc)
    else:
        assert doc[3].tags["Ability"] != doc[4].tags["Ability"] and list(doc[3].tags) == ["Ability", "Minimax"]
    assert document_text(doc)[0] == text


def _games_read_by_position(monkeypatch: pytest.MonkeyPatch, text: str) -> list[bool]:
    """For each game of ``text`` read in one pass, whether some layout read it by position."""
    games: list[bool] = []
    read_like, read_fast = pbn_fast._read_like, pbn_fast.read_fast

    def counting(*args: object) -> object:
        hit = read_like(*args)  # type: ignore[arg-type]  # the real function's arguments, passed on
        games[-1] = games[-1] or hit is not None
        return hit

    def each_game(*args: object) -> object:
        games.append(False)
        return read_fast(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pbn_fast, "_read_like", counting)
    monkeypatch.setattr(pbn_fast, "read_fast", each_game)
    monkeypatch.setattr(pbn_read, "read_fast", each_game)
    parse_pbn_text(text)
    assert len(games) == len(split_games(text).games)
    return games


def test_a_file_that_goes_back_to_a_shape_reads_it_by_position_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Big Deal's first game has a ``Generator`` tag the others lack, and the games of such files put one
    after another start over with it: once both shapes are learned, every game is read by position by the
    layout of its shape (not learned anew at each change), and as the careful reader reads it."""
    one = split_games(_odd_games(deals_file(6, 3), [((r"\[Event ", '[Generator "Big Deal version 2.0"]\n[Event '), 0)]))
    joined = one.preamble + "".join(g.raw for g in one.games) * 3
    by_position = _games_read_by_position(monkeypatch, joined)
    assert by_position == [False, False] + [True] * 16
    fast, careful, fast_games = both_ways(joined)
    assert fast == careful and fast_games == 18
    assert document_text(parse_pbn_text(joined))[0] == joined


def test_games_of_two_shapes_in_turn_are_read_by_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every other game with a tag more (a program that writes a ``Scoring`` tag on even boards only): once
    both shapes are learned, each game is read by position, and as the careful reader reads it."""
    text = _odd_games(deals_file(12, 4), [((r'(\[West "[^"]*"\])', r'\1\n[Room "Open"]'), i) for i in range(1, 12, 2)])
    by_position = _games_read_by_position(monkeypatch, text)
    assert by_position == [False, False] + [True] * 10
    fast, careful, _fast_games = both_ways(text)
    assert fast == careful


#: what one game among Deep Finesse's or PSBridge's can hold unlike the others
VARYING_ODDITIES = [
    (r'(\[Ability "[^"]*)"', r'\1]"'),
    (r'(\[Ability "[^"]*)"', r'[\1"'),
    (r'(\[Ability "[^"]*)"', lambda m: m.group(1) + '\\"'),
    (r'(\[Minimax "[^"]*)"', lambda m: m.group(1) + '\\x"'),
    (r'(\[Minimax "[^"]*)"', r'\1\n"'),
    (r'\[Minimax "[^"]*"', '[Minimax "#"'),
    (r'\[Minimax "[^"]*"', '[Minimax ""'),
    (r"\[Minimax ", "[Score "),
    (r"%%!R (\w+)", r"%%!R \1Z"),
    (r"%%!R (\w+)", r"%%!R \1 "),
    (r"%%!R (\w)\w", r"%%!R \1"),
    (r"%%!R (\w)\w", r"%%!R \1 "),
    (r"%%!R (\w)\w", r"%%!R \1;"),
    (r"%%!R (\w)\w", r"%%!R \1{"),
    (r"%%!R (\w)\w", r"%%!R \1]"),
    (r"%%!R (\w+)\n", r"%%!R \1 {c}\n"),
    (r"%%!R (\w+)\n", r"%%!R \1\n{c}\n"),
    (r"%%!R (\w+)\n", r"%%!R \1\r\n"),
    (r"\n%%!R", " %%!R"),
    (r"\n%%!R", "\n%%!R \n%%!R"),
    (r"\n%%!R", "\n%%!Q"),
    (r'\[Deal "', '[Deal "#'),
    (r"\n\n", "\n\n\n"),
    (r"%%!R (\w+)\n\n", "%%!R \\1U\n"),
]


def _varying_odd_file(oddity: tuple, psbridge: bool) -> tuple[str, str]:
    """The Deep Finesse (or PSBridge) file and the same with ``oddity`` made in one game."""
    plain = deep_finesse_file(8, psbridge=psbridge)
    at = 7 if oddity[1] == "%%!R \\1U\n" else 5  # the last game, its blank line gone
    return plain, _odd_games(plain, [(oddity, at)])


#: the oddities each kind of file has something for (a ``%%!R`` edit needs a PSBridge file)
VARYING_CASES = [
    pytest.param(oddity, psbridge, id=f"{'psbridge' if psbridge else 'deep finesse'}-{k}")
    for psbridge in (False, True)
    for k, oddity in enumerate(VARYING_ODDITIES)
    if len(set(_varying_odd_file(oddity, psbridge))) == 2
]


@pytest.mark.parametrize(("oddity", "psbridge"), VARYING_CASES)
def test_each_oddity_among_deals_with_varying_tags_reads_as_the_careful_reader_reads_it(
    oddity: tuple, psbridge: bool
) -> None:
    plain, text = _varying_odd_file(oddity, psbridge)
    assert text != plain
    fast, careful, _taken = both_ways(text)
    assert fast == careful, text


def test_a_psbridge_line_running_on_in_a_crlf_file_reads_as_the_careful_reader_reads_it() -> None:
    """With CRLF line ends, a %%!R line one digit longer whose game ends in a bare line feed has the same
    length and line breaks as its neighbours: its table is not the twenty digits where theirs stand."""
    plain = deep_finesse_file(8, psbridge=True).replace("\n", "\r\n")
    text = _odd_games(plain, [((r"\w\r\n\r\n", "AX\n\r\n"), 5)])
    assert len(text) == len(plain) and text.count("\n") == plain.count("\n")
    fast, careful, _taken = both_ways(text)
    assert fast == careful
    assert parse_pbn_text(text)[5].dd is None


def _partial_tables(text: str, rows: str = "NW", agree: bool = True) -> str:
    """``text`` (an export file with a DD table on some boards) with each table cut to the rows of ``rows``'s
    declarers, and Bridge Composer's DoubleDummyTricks before it (the whole table: agreeing, or one figure
    off when ``agree`` is False)."""
    from bridgeview.formats.pbn.dd import BC_SEATS
    from bridgeview.model.cards import Seat

    layout = split_games(text)
    raws = []
    for game, b in zip(layout.games, parse_pbn_text(text), strict=True):
        raw = game.raw
        if b.dd is not None:
            digits = "".join(
                "0123456789abcd"[b.dd.tricks[seat][strain]] for seat in BC_SEATS for strain in (4, 3, 2, 1, 0)
            )
            if not agree:  # West's notrump figure
                west = 5 * BC_SEATS.index(Seat.WEST)
                digits = digits[:west] + ("1" if digits[west] != "1" else "2") + digits[west + 1 :]
            raw = raw.replace("[OptimumResultTable", f'[DoubleDummyTricks "{digits}"]\n[OptimumResultTable')
            raw = re.sub(r"^([NESW]) +\w+ +\d+\n", lambda m: m.group(0) if m.group(1) in rows else "", raw, flags=re.M)
        raws.append(raw)
    return layout.preamble + "".join(raws) + layout.trailer


@pytest.mark.parametrize("rows", ["NW", "NESW", "W", ""])
@pytest.mark.parametrize("agree", [True, False], ids=["agreeing", "one figure off"])
def test_partial_tables_beside_double_dummy_tricks_read_as_the_careful_reader_reads_them(
    rows: str, agree: bool
) -> None:
    """An OptimumResultTable of some declarers' rows (the scoring program's N and W) beside a whole
    DoubleDummyTricks: merged when they agree (by the fast path), the careful reader's problem when not."""
    text = _partial_tables(export_file(12), rows, agree)
    assert "DoubleDummyTricks" in text and text.count("[OptimumResultTable") == 6
    fast, careful, taken = both_ways(text)
    assert fast == careful
    doc = parse_pbn_text(text)
    if agree or not rows:
        assert taken == 12 and not doc.problems
        assert sum(b.dd is not None and b.dd.is_complete for b in doc) == 6
    else:
        assert taken == 6 and doc.problems


@pytest.mark.parametrize("section", ["", "\n1 7\n2 3\n", "\n1 7\n2\n", "\n1 7 %\n"])
def test_a_table_tag_read_after_others_is_checked_by_its_own_section(section: str) -> None:
    """A table tag's check is remembered for its value only when its section is blank (``Table "13"``): the
    same value with a section after games without one is checked again, and says what is wrong with it."""
    text = export_file(8).replace('[Scoring "', '[TotalScoreTable "Rank;PairId"]\n[Scoring "')
    text = _odd_games(text, [((r'(\[TotalScoreTable "[^"]*"\])\n', lambda m: m.group(1) + section + "\n"), 6)])
    fast, careful, _taken = both_ways(text)
    assert fast == careful
    assert bool(parse_pbn_text(text).problems) == (section not in ("", "\n1 7\n2 3\n"))


@pytest.mark.parametrize("others", [0, 1, 2])
def test_games_with_few_tags_besides_the_four_read_by_position_keep_their_own(others: int) -> None:
    """A deal generator's games with no tag, one or two besides the number, dealer, vulnerability and deal
    (PSBridge writes none): a game whose other values differ from the game before, under the same board
    number, is read by position with its own values, not the known ones of another game."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    games = []
    for k, (number, event, site) in enumerate(
        [(1, "A", "X"), (1, "B", "X"), (2, "B", "Y"), (2, "A", "Y"), (1, "A", "Y")]
    ):
        extra = [f'[Event "{event}"]', f'[Site "{site}"]'][:others]
        dealer, vul = "NESW"[k % 4], ("None", "NS", "EW", "All")[k % 4]
        tags = [f'[Board "{number}"]', f'[Dealer "{dealer}"]', f'[Vulnerable "{vul}"]', f'[Deal "{deal}"]', *extra]
        games.append("\n".join(tags) + "\n")
    text = "\n".join(games)
    fast, careful, taken = both_ways(text)
    assert fast == careful and taken == 5
    doc = parse_pbn_text(text)
    assert [dict(b.tags) for b in doc] == [
        dict(zip(("Event", "Site"), values[:others], strict=False))
        for values in [("A", "X"), ("B", "X"), ("B", "Y"), ("A", "Y"), ("A", "Y")]
    ]
