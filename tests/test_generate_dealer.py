"""bridgeview generate against dealer itself (the Debian package's /usr/games/dealer; skipped without it).

Deal by deal, every function gives dealer's value; on a deal both programs must make (all 52 cards
predealt) every action prints dealer's bytes; and over a corpus of scripts the share of deals that
pass, the averages and the frequencies agree with dealer's within sampling error (5 sigma).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bridgeview.generate import engine
from bridgeview.generate.actions import Report, action_expressions
from bridgeview.generate.evaluate import Deals, Evaluator
from bridgeview.generate.parser import parse

DEALER = shutil.which("dealer") or ("/usr/games/dealer" if Path("/usr/games/dealer").exists() else None)
pytestmark = pytest.mark.skipif(DEALER is None, reason="dealer is not installed (Debian package dealer)")
FIXTURES = Path(__file__).parent / "fixtures" / "dealer"
SIGMAS = 5.0


def dealer(tmp_path: Path, text: str, *flags: str, name: str = "script.dlr") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="latin-1")
    done = subprocess.run([DEALER, *flags, name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def ours(text: str, *, seed: int, generate: int | None = None, produce: int | None = None, name: str = "script.dlr"):
    script = parse(text, name)
    out: list[str] = []
    report = Report(script, out.append, seed)
    summary = engine.run(script, engine.limits(script, produce, generate), report.feed, seed=seed, jobs=1)
    report.finish(summary.produced)
    report.statistics(summary.generated, summary.produced, 0.0)
    return "".join(out)


# -- deal by deal ----------------------------------------------------------------------------------
EXPRESSIONS = [
    *"hcp(north) hcp(north,spades) hcp(west,clubs) loser(north) loser(north,hearts) loser(south,diamonds)".split(),
    *"control(east) control(east,clubs) cccc(north) cccc(south) cccc(west) quality(north,spades)".split(),
    *"quality(west,clubs) quality(east,hearts) tens(north) jacks(east,hearts) queens(south) kings(west)".split(),
    *"aces(north,spades) top2(east) top3(east,diamonds) top4(south) top5(west,hearts) c13(west)".split(),
    *"spades(south) hearts(east) diamonds(west) clubs(north) hascard(north,TC) hascard(west,AS)".split(),
    "shape(north, any 4333 + 5xxx - 55xx)",
    "shape(east, xx6x + xx7x - any 4xxx)",
    "(hcp(north) - 7) / 3",
    "(hcp(north) - 7) % 3",
    "score(vul, x4S, hcp(north) % 14)",
    "score(nv, x3N, spades(east) + 5)",
    "imps(hcp(north) * 40 - 500)",
    "hcp(north) > 12 ? loser(east) : 0 - control(west)",
]


def _parse_deal(line: str) -> list[list[int]]:
    parts = line.split()
    hands = []
    for seat in range(4):
        suits = parts[2 * seat + 1].split(".")
        hands.append([sum(1 << "23456789TJQKA".index(ch) for ch in suits[3 - suit]) for suit in range(4)])
    return hands


@pytest.mark.parametrize(
    "settings, dealers_settings",
    [
        ("", ""),
        (
            "pointcount 6 4 2 1 1\naltcount 0 3 2 1\naltcount 3 5 4 3\naltcount 9 1 1 1 1 1 1 1 1 1 1 1 1 1\n",
            # dealer 20211121 puts altcount N in the table two places on (0 is hcp, 1 controls): a bug
            # (its manual says altcount N sets ptN, as bridgeview does), so dealer is given N + 2
            "pointcount 6 4 2 1 1\naltcount 2 3 2 1\naltcount 5 5 4 3\naltcount 11 1 1 1 1 1 1 1 1 1 1 1 1 1\n",
        ),
    ],
    ids=["default counts", "own counts"],
)
def test_every_function_gives_dealers_value_deal_by_deal(tmp_path, settings, dealers_settings):
    expressions = EXPRESSIONS
    body = ', " ", '.join(expressions)
    text = f"{settings}produce 1500\naction printoneline, printes({body}, \\n)\n"
    lines = dealer(tmp_path, text.replace(settings, dealers_settings), "-s", "7").splitlines()
    deals, expected = [], []
    for deal_line, value_line in zip(lines[0:3000:2], lines[1:3000:2], strict=True):
        deals.append(_parse_deal(deal_line))
        expected.append([int(v) for v in value_line.split()])
    script = parse(text)
    chunk = Deals(np.array(deals, dtype=np.uint16).transpose(1, 2, 0))
    evaluator = Evaluator(script)
    exprs = action_expressions(script.actions[1])
    got = np.array([evaluator.integers(e, chunk) for e in exprs]).T
    bad = np.argwhere(got != np.array(expected))
    assert not len(bad), [(lines[2 * r], expressions[c], int(got[r, c]), expected[r][c]) for r, c in bad[:5]]


# -- the same bytes ------------------------------------------------------------------------------------
FULL_DEAL = """produce 6
predeal north SAKQ2, HT98, DJT7, CK54
predeal east SJT9, HAK7, DQ86, CAQJ2
predeal south S876, HQJ6, DAK5, CT987
predeal west S543, H5432, D9432, C63
"""


@pytest.mark.parametrize(
    "actions",
    [
        "printall, printew, printcompact, printcompact(hcp(north)), printoneline, printoneline(cccc(south))",
        'printes("x ", quality(east, hearts), " y", \\n, top4(west)), printes(\\n)',
        "print(north, west)",
        "print(south), printall",
        'average "hcp" hcp(north), average hcp(east) * 2 / 3, average loser(west)',
        'frequency "s" (spades(south), 2, 4), frequency (hcp(west), 5, 10), frequency (hcp(east), 0, 3)',
        'frequency (loser(east), 4, 6, hcp(south), 10, 12), frequency "two" (hcp(north), 16, 16, spades(west), 0, 9)',
    ],
)
def test_actions_print_dealers_bytes(tmp_path, actions):
    text = FULL_DEAL + f"action {actions}\n"
    theirs = dealer(tmp_path, text, "-s", "1")
    mine = ours(text, seed=1)
    assert _without_time(mine) == _without_time(theirs)


def test_printpbn_prints_dealers_games(tmp_path):
    """The same games, save the program's name in the event; dealer/vulnerable set or by board number.
    (dealer's closing lines come and go with the number of games -- a quirk -- and are left out here.)"""
    for extra in ("", "dealer south\nvulnerable NS\n"):
        text = FULL_DEAL + extra + "action printpbn\n"
        theirs = dealer(tmp_path, text, "-s", "1").split("Generated")[0]
        mine = ours(text, seed=1).split("Generated")[0]
        assert mine == theirs.replace("by dealer with", "by bridgeview with")


def _without_time(text: str) -> str:
    return re.sub(r"Time needed .*\n", "", text)


# -- the same statistics ---------------------------------------------------------------------------------
BENCH_A = "condition shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17\n"
BENCH_B = "condition (spades(north) == 6 || hearts(north) == 6) && hcp(north) >= 5 && hcp(north) <= 10\n"
BENCH_C = (
    "predeal south SAQ542, HKJ87, D32, CAK\n"
    "condition hcp(west) >= 8 && hcp(west) <= 15 && ((spades(west) >= 5 && hearts(west) >= 5) || "
    "(diamonds(west) >= 5 && clubs(west) >= 5) || (hearts(west) >= 5 && (clubs(west) >= 5 || diamonds(west) >= 5)))\n"
)


def _fixture(name: str) -> str:
    """A dealer example without its own actions (ours are appended; the last action line counts)."""
    return (FIXTURES / name).read_text(encoding="latin-1")


CORPUS = {
    "15-17 balanced": (BENCH_A, [("hcp(north)", 15, 17), ("spades(north)", 2, 5), ("cccc(north) / 100", 5, 25)]),
    "weak two": (BENCH_B, [("hcp(north)", 5, 10), ("loser(north)", 0, 13), ("quality(north, spades) / 10", 0, 60)]),
    "two-suited overcall": (BENCH_C, [("hcp(west)", 8, 15), ("spades(west)", 0, 13), ("hcp(north)", 0, 37)]),
    "Descr.weaktwo": (_fixture("Descr.weaktwo"), [("hcp(north)", 5, 11), ("hearts(north)", 0, 7), ("heartfit", 0, 1)]),
    "Descr.1c": (_fixture("Descr.1c"), [("clubs(west)", 0, 13), ("hcp(west)", 0, 37)]),
    "Descr.controls": (_fixture("Descr.controls"), [("control(north)", 0, 12)]),
    "Descr.vvga2": (_fixture("Descr.vvga2"), [("spades(west)", 0, 13), ("top3(west)", 0, 12)]),
    "Descr.6c": (_fixture("Descr.6c"), [("shape(west, xxx1)", 0, 1), ("hascard(east, KH)", 0, 1)]),
    # its own condition (west 4450) passes a few deals in 300,000: a wider one (the last condition counts)
    "Descr.junkstayman": (
        _fixture("Descr.junkstayman") + "\ncondition east_notrump and west_low\n",
        [("d", 0, 13), ("m8", 0, 1), ("x3", 0, 1)],
    ),
    "Descr.stayman": (_fixture("Descr.stayman"), [("found_d_fit or found_h_fit or found_s_fit or found_M_fit", 0, 1)]),
    "Descr.you_hold": (_fixture("Descr.you_hold"), [("hcp(north)", 0, 37), ("diamonds(north)", 0, 13)]),
    "Descr.blue_team": (_fixture("Descr.blue_team"), [("control(east)", 0, 12), ("loser(east)", 0, 13)]),
}
GENERATE = 300_000


def _statistics(text: str) -> dict:
    """Generated, produced, averages and frequencies from dealer's output (or ours: the same layout)."""
    out: dict = {"average": {}, "frequency": {}}
    out["generated"] = int(re.search(r"Generated (\d+) hands", text).group(1))
    out["produced"] = int(re.search(r"Produced (\d+) hands", text).group(1))
    for label, value in re.findall(r"^(e\d+): (\S+)$", text, re.M):
        out["average"][label] = float(value)
    for label, table in re.findall(r"^Frequency (e\d+):\n((?:(?:Low|High|\s*-?\d+)\t\s*\d+\n)+)", text, re.M):
        rows = {}
        for line in table.splitlines():
            key, count = line.split("\t")
            rows[key.strip()] = int(count)
        out["frequency"][label] = rows
    return out


def _z(a: int, n: int, b: int, m: int) -> float:
    """The two-proportion z of a/n against b/m."""
    p = (a + b) / (n + m)
    if p in (0.0, 1.0):
        return 0.0
    return abs(a / n - b / m) / np.sqrt(p * (1 - p) * (1 / n + 1 / m))


@pytest.mark.parametrize("name", list(CORPUS))
def test_the_same_script_gives_dealers_statistics(tmp_path, name):
    body, expressions = CORPUS[name]
    actions = []
    for i, (expr, low, high) in enumerate(expressions):
        actions += [f'average "e{i}" {expr}', f'frequency "e{i}" ({expr}, {low}, {high})']
    text = body + "\naction " + ", ".join(actions) + "\n"
    theirs = _statistics(dealer(tmp_path, text, "-s", "1", "-g", str(GENERATE), "-p", str(GENERATE)))
    mine = _statistics(ours(text, seed=1, generate=GENERATE, produce=GENERATE))
    assert mine["generated"] == theirs["generated"] == GENERATE
    n, m = theirs["produced"], mine["produced"]
    assert n > 30 and m > 30, (n, m)  # enough deals to compare
    assert _z(n, GENERATE, m, GENERATE) < SIGMAS, ("share passing", n, m)
    for label, rows in theirs["frequency"].items():
        mine_rows = mine["frequency"][label]
        assert set(rows) <= set(mine_rows) | {"Low", "High"}
        for key in set(rows) | set(mine_rows):
            assert _z(rows.get(key, 0), n, mine_rows.get(key, 0), m) < SIGMAS, (label, key, rows, mine_rows)
        if "Low" in mine_rows or "High" in mine_rows:
            continue  # the range does not hold every value: no variance for the average
        values = np.array([int(k) for k in mine_rows], dtype=float)
        weights = np.array(list(mine_rows.values()), dtype=float)
        variance = float(np.average((values - np.average(values, weights=weights)) ** 2, weights=weights))
        error = np.sqrt(variance / n + variance / m) or 1e-9
        assert abs(theirs["average"][label] - mine["average"][label]) < SIGMAS * error, label
