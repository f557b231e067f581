"""Every writable bridge format to every other, through ``bridgeview convert`` as a hand-record maker uses it.

For each pair: what the target can hold must survive (``dump`` before and after), every difference must be
named by a ``dropped:`` line (no silent losses), every ``dropped:`` line must name a real difference (no false
alarms), and ``validate`` on the output must report nothing the input did not.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from conftest import realdata_files

from bridgeview.cli.main import main
from bridgeview.formats.registry import all_codecs, write_file
from bridgeview.model.auction import Call, final_contract
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Seat, Strain, cards_of
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import declarer_tricks, replay, trick_winner
from bridgeview.model.vulnerability import Vulnerability

TARGETS = {c.name: c for c in all_codecs() if c.kind == "bridge" and c.can_write}
REAL = [p for sub in ("pbn", "lin", "bri", "dge", "dup") for p in realdata_files(sub)]

# dump field -> words of the dropped: lines that may explain a difference in it
EXPLAINS = {
    "deal": ("deals of",),
    "board": ("board numbers",),
    "dealer": ("board numbers", "dealer and vulnerability"),
    "vulnerable": ("board numbers", "dealer and vulnerability"),
    "dd": ("double-dummy",),
    "auction": ("auctions of",),
    "play": ("play of",),
    "contract": ("auctions of", "contracts the auction does not reach", "dealer and vulnerability"),
    "declarer": (
        "auctions of",
        "contracts the auction does not reach",
        "dealer and vulnerability",
        "without a contract",
    ),
    "result": ("play of", "results"),
    "header": ("event, site and date", "site and date"),
}
# words of a dropped: line -> dump fields of which one at least must really differ
CLAIMS = {
    "deals of": ("deal",),
    "board numbers": ("board",),
    "dealer and vulnerability": ("dealer", "vulnerable"),
    "double-dummy": ("dd",),
    "auctions of": ("auction",),
    "play of": ("play",),
    "event, site and date": ("header",),
    "site and date": ("header",),
    "results and claims": ("result",),
}
_WHERE = re.compile(r"^(record \d+ \(offset \d+\), |line \d+, |record \d+, )")


# -- small generated sets ----------------------------------------------------
def _legal_play(deal: Deal, declarer: Seat, trump: Strain, n: int) -> list[int]:
    hands = [sorted(cards_of(deal.hands[s])) for s in range(4)]
    leader, play = (declarer + 1) % 4, []
    while len(play) < n:
        trick = []
        for k in range(4):
            hand = hands[(leader + k) % 4]
            card = ([c for c in hand if trick and c // 13 == trick[0] // 13] or hand)[0]
            hand.remove(card)
            trick.append(card)
        play += trick
        leader = trick_winner(trick, leader, trump)
    return play[:n]


def make_set(first: int = 5, n: int = 4, seed: int = 7) -> BoardSet:
    """Boards ``first``.. with DD tables; the even ones bid to 3NT and played (all 52 cards, or 2 tricks + result)."""
    rng = random.Random(seed)
    doc = BoardSet([], FileInfo(format="", event="Club Pairs", site="Bridge Centre", date="2024.03.09"))
    for i in range(n):
        board = Board.numbered(first + i, Deal.shuffled(rng))
        board.dd = DDTable.from_rows([[rng.randint(0, 13) for _ in range(5)] for _ in range(4)])
        if i % 2 == 0:
            board.auction = [Call.parse(x) for x in ("1NT", "P", "3NT", "P", "P", "P")]
            board.contract, board.declarer = final_contract(board.auction, board.dealer)
            board.play = _legal_play(board.deal, board.declarer, Strain.NOTRUMP, 52 if i == 0 else 8)
            tricks = declarer_tricks(replay(board.deal, board.play, board.declarer, Strain.NOTRUMP), board.declarer)
            board.result = tricks if i == 0 else 9
        doc.append(board)
    return doc


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, Path]:
    """The generated set written in every writable bridge format."""
    d = tmp_path_factory.mktemp("sources")
    doc = make_set()
    out = {}
    for name, codec in TARGETS.items():
        path = d / f"set.{codec.extensions[0]}"
        path = path.with_name(f"{name}-{path.name}")
        write_file(doc, path, name)
        out[name] = path
    return out


# -- the CLI, in process -----------------------------------------------------
def cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def dump(capsys, path, fmt: str | None = None, start: int | None = None) -> dict:
    args = ["dump", path] + (["--from", fmt] if fmt else []) + (["--start-board", start] if start else [])
    rc, out, err = cli(capsys, *args)
    assert rc == 0, err
    return json.loads(out)


def problems(capsys, path, fmt: str | None = None, start: int | None = None) -> set[str]:
    args = ["validate", "--all", path] + (["--from", fmt] if fmt else []) + (["--start-board", start] if start else [])
    _, out, _ = cli(capsys, *args)
    found = set()
    for line in out.splitlines():
        text = line.split(": ", 1)[1] if ": " in line else line
        if text.endswith("no problems"):
            continue
        text = re.sub(r"also used by (record|line) \d+", "also used", _WHERE.sub("", text))
        found.add(re.sub(r"record \d+( \(\w+ room\))? and record \d+( \(\w+ room\))? have", "records have", text))
    return found


_CACHE: dict = {}


def source_dump(capsys, path, fmt: str | None) -> dict:
    """``dump`` of an input, once per file (the matrix converts each input many times)."""
    key = ("dump", str(path), fmt)
    if key not in _CACHE:
        _CACHE[key] = dump(capsys, path, fmt)
    return _CACHE[key]


def source_problems(capsys, path, fmt: str | None) -> set[str]:
    key = ("validate", str(path), fmt)
    if key not in _CACHE:
        _CACHE[key] = problems(capsys, path, fmt)
    return _CACHE[key]


def convert(capsys, src, dst, fmt_from: str | None, fmt_to: str, *extra) -> tuple[int, list[str], str]:
    args = ["convert", src, dst, "--to", fmt_to] + (["--from", fmt_from] if fmt_from else []) + list(extra)
    rc, _, err = cli(capsys, *args)
    drops = [line.split("dropped: ", 1)[1] for line in err.splitlines() if "dropped: " in line]
    drops += [m.group(0) for m in re.finditer(r"\d+ boards? from \d+ tables", err)]  # each board once
    return rc, drops, err


def expected_boards(before: dict, drops: list[str]) -> dict:
    """The input's dump as the target holds it when a ``dropped:`` line says boards were left out or
    reordered: games without cards skipped, boards in number order (BHG)."""
    boards = before["boards"]
    if any(d.endswith(("game without cards", "games without cards")) for d in drops):
        boards = [b for b in boards if b["deal"] != "N:... ... ... ..."]
    if any(re.fullmatch(r"\d+ boards? from \d+ tables", d) for d in drops):  # a format of deals: each board once
        seen: set = set()
        boards = [
            b
            for b in boards
            if b["board"] is None or (b["board"], b["deal"]) not in seen and not seen.add((b["board"], b["deal"]))
        ]
    if any(d.startswith("the order of the boards") for d in drops):
        boards = sorted(boards, key=lambda b: b["board"])
    return {**before, "boards": boards}


def differences(before: dict, after: dict) -> set[str]:
    """The dump fields that changed (a field the input left empty may be filled in by the target)."""
    diff = set()
    if len(before["boards"]) != len(after["boards"]):
        diff.add("count")
    for a, b in zip(before["boards"], after["boards"], strict=False):
        diff |= {k for k in a if a[k] not in (None, []) and a[k] != b.get(k)}
    if any(before.get(k) and before.get(k) != after.get(k) for k in ("event", "site", "date")):
        diff.add("header")
    return diff


def complaints(before: dict, after: dict, drops: list[str]) -> list[str]:
    """Silent losses and false alarms."""
    text = " | ".join(drops)
    diff = differences(before, after)
    out = [f"silent loss of {k}" for k in sorted(diff) if not any(w in text for w in EXPLAINS.get(k, ()))]
    for words, fields in CLAIMS.items():
        if any(line.startswith(words) or f" {words}" in line or line.startswith(f"the {words}") for line in drops):
            if not diff & set(fields):
                out.append(f"false alarm: {words!r} but {fields} survived")
    return out


# -- the matrix ----------------------------------------------------------------
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("source", sorted(TARGETS))
@pytest.mark.slow
def test_generated_matrix(capsys, tmp_path, sources, source, target):
    src = sources[source]
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, src, dst, source, target)
    if rc != 0:  # only a deal-less source (ZDD) may be refused, with one clear line
        assert source == "zdd" and TARGETS[target].caps.deals_required, err
        assert err.startswith("bridgeview: ") and "Traceback" not in err and not dst.exists()
        return
    before, after = expected_boards(source_dump(capsys, src, source), drops), dump(capsys, dst, target)
    assert complaints(before, after, drops) == []
    if source == target:
        assert drops == [] and after["boards"] == before["boards"]
    caps = TARGETS[target].caps
    if caps.full_deals:
        assert [b["deal"] for b in after["boards"]] == [b["deal"] for b in before["boards"]]
    if caps.auction and TARGETS[source].caps.auction:
        for a, b in zip(before["boards"], after["boards"], strict=True):
            assert (b["auction"], b["contract"], b["declarer"]) == (a["auction"], a["contract"], a["declarer"])
    assert problems(capsys, dst, target) <= source_problems(capsys, src, source)


@pytest.mark.skipif(not REAL, reason="../shared/realdata is not present")
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("src", REAL, ids=[p.name for p in REAL])
@pytest.mark.slow
def test_real_matrix(capsys, tmp_path, src, target):
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, src, dst, None, target)
    if rc != 0:  # a refusal is one located line, and writes nothing
        assert err.startswith("bridgeview: ") and err.count("\n") == 1 and "Traceback" not in err, err
        assert not dst.exists() and not list(tmp_path.iterdir())
        return
    before, after = expected_boards(source_dump(capsys, src, None), drops), dump(capsys, dst, target)
    assert complaints(before, after, drops) == []
    new = problems(capsys, dst, target) - source_problems(capsys, src, None)
    if any(d.startswith(("board numbers", "notes and tags")) or d.endswith("without cards") for d in drops):
        new = {p for p in new if "same deal as" not in p and "records have" not in p}  # records renumbered
    if TARGETS[target].caps.dealer_vul and any(b["board"] is None for b in before["boards"]):
        # a format that must number every board (CSV) numbers unnumbered ones by position, keeping
        # their own dealer and vulnerability, which validate then compares with that number
        new = {p for p in new if not re.search(r"(dealer|vulnerability) \S+ but board \d+ is", p)}
    if any(d.startswith("contracts the auction does not reach") for d in drops):  # an inconsistent source
        new = {p for p in new if "play:" not in p}
    assert new == set()


# -- what the matrix found -------------------------------------------------------
@pytest.mark.parametrize("target", sorted(n for n, c in TARGETS.items() if not c.caps.dealer_vul))
def test_dealer_and_vulnerability_off_the_number_are_reported(capsys, tmp_path, target):
    doc = make_set(first=1)
    doc[1].dealer, doc[1].vulnerability = Seat.SOUTH, Vulnerability.ALL  # board 2 is E/NS by its number
    src = tmp_path / "in.pbn"
    write_file(doc, src, "pbn")
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, src, dst, "pbn", target)
    assert rc == 0, err
    assert "dealer and vulnerability that differ from the board number of 1 board" in drops
    assert complaints(dump(capsys, src), dump(capsys, dst, target), drops) == []


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_header_copied_onto_every_pbn_board_is_not_a_lost_tag(capsys, tmp_path, sources, target):
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, sources["pbn"], dst, "pbn", target)
    assert rc == 0, err
    assert not [d for d in drops if "tags" in d], drops  # PBN's Event/Site/Date and "?" placeholders


NUMBERLESS = sorted(n for n, c in TARGETS.items() if not c.caps.board_numbers and c.caps.full_deals)


@pytest.mark.parametrize("target", NUMBERLESS)
def test_start_board_round_trip(capsys, tmp_path, sources, target):
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, sources["pbn"], dst, "pbn", target, "--start-board", 5)
    assert rc == 0, err
    assert not [d for d in drops if "board numbers" in d]  # read back with --start-board 5 they are 5..8
    back = dump(capsys, dst, target, start=5)["boards"]
    before = dump(capsys, sources["pbn"], "pbn")["boards"]
    assert [(b["board"], b["dealer"], b["vulnerable"], b["deal"]) for b in back] == [
        (b["board"], b["dealer"], b["vulnerable"], b["deal"]) for b in before
    ]
    assert problems(capsys, dst, target, start=5) == set()
    rc, drops, _ = convert(capsys, sources["pbn"], dst, "pbn", target)
    assert "board numbers (boards will be numbered from 1 when read back)" in drops


def test_start_board_between_fixed_record_formats(capsys, tmp_path, sources):
    dst = tmp_path / "out.zbd"
    rc, drops, err = convert(capsys, sources["bri"], dst, "bri", "zbd", "--start-board", 5)
    assert rc == 0 and drops == [], err
    rc, drops, err = convert(capsys, sources["bri"], dst, "bri", "zbd")  # the vectorised path
    assert rc == 0 and drops == [], err


@pytest.mark.parametrize("fmt", sorted(TARGETS))
def test_convert_onto_itself_is_safe(capsys, tmp_path, sources, fmt):
    path = tmp_path / sources[fmt].name
    path.write_bytes(sources[fmt].read_bytes())
    before = dump(capsys, path, fmt)
    rc, drops, err = convert(capsys, path, path, fmt, fmt)
    assert rc == 0 and drops == [], err
    assert path.read_bytes() == sources[fmt].read_bytes()
    assert dump(capsys, path, fmt) == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind


def test_refused_conversion_onto_itself_leaves_the_file(capsys, tmp_path):
    doc = make_set()
    doc[2] = doc[2].copy(deal=doc[2].deal.without([0]))  # a card short: BRI cannot hold it
    path = tmp_path / "set.pbn"
    write_file(doc, path, "pbn")
    data = path.read_bytes()
    rc, _, err = convert(capsys, path, path, "pbn", "bri")
    assert rc == 1 and "not a complete deal" in err
    assert path.read_bytes() == data and [p.name for p in tmp_path.iterdir()] == ["set.pbn"]


@pytest.mark.parametrize("target", sorted(n for n, c in TARGETS.items() if c.caps.partial_deals))
def test_partial_deals_survive_where_the_format_holds_them(capsys, tmp_path, target):
    doc = make_set(first=1)
    doc[1] = doc[1].copy(deal=doc[1].deal.without([0, 13, 26]))  # three cards short
    src = tmp_path / "in.pbn"
    write_file(doc, src, "pbn")
    dst = tmp_path / f"out.{TARGETS[target].extensions[0]}"
    rc, drops, err = convert(capsys, src, dst, "pbn", target)
    assert rc == 0, err
    assert [b["deal"] for b in dump(capsys, dst, target)["boards"]] == [b["deal"] for b in dump(capsys, src)["boards"]]
