"""Every window shows file text as text: the main window, Compare, Check, Traveller, the Editor,
hand records and the dialogs, on files with markup in every tag, note, comment, alert,
explanation, player name and file name.

The markup includes ``<img src='/dev/zero'>``: a widget that renders it as rich text reads
``/dev/zero`` for ever (the window hangs, eating memory).  So the walk over the views runs in a
child process (``tests/hostile_window_walk.py``) with a time and a memory limit: a hang or a
crash fails this test with the step it was at, and a text Qt would render that no paint reached
yet (a tooltip, a hidden tab) is reported by the walk's own judgement of every widget.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

WALK = Path(__file__).resolve().parent / "hostile_window_walk.py"
#: the walk takes a few seconds; this much only when the machine is very busy
TIMEOUT = 240
#: address space for the child: the app needs well under this; /dev/zero read as an image soon exceeds it
MEMORY_LIMIT = 6 * 1024**3

ZERO = "<img src='/dev/zero'>"
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
OTHER_DEAL = "N:AKQJ.AKQ.AKQ.AKT T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543Q"


def mark(field: str) -> str:
    """The hostile text of ``field``: an image from /dev/zero, bold, a link and an entity."""
    return f"{ZERO}<b>hostile-{field}</b><a href='x'>link</a>&amp;"


FIELDS = (
    "event",
    "site",
    "west",
    "north",
    "east",
    "south",
    "scoring",
    "room",
    "note1",
    "note2",
    "commentary",
    "custom",
    "dealer",
)


def hostile_pbn(prefix: str, fields: tuple[str, ...] = FIELDS) -> str:
    f = {k: mark(prefix + k) for k in fields}

    def board(number: int, deal: str, contract: str, result: int, dealer: str = "N") -> str:
        return f"""[Event "{f["event"]}"]
[Site "{f["site"]}"]
[Date "2024.01.01"]
[Board "{number}"]
[West "{f["west"]}"]
[North "{f["north"]}"]
[East "{f["east"]}"]
[South "{f["south"]}"]
[Dealer "{dealer}"]
[Vulnerable "None"]
[Deal "{deal}"]
[Scoring "{f["scoring"]}"]
[Room "{f["room"]}"]
[Declarer "N"]
[Contract "{contract}"]
[Result "{result}"]
[Auction "N"]
{contract} =1= Pass =2= Pass Pass
[Note "1:{f["note1"]}"]
[Note "2:{f["note2"]}"]
[Play "E"]
JS 6S 2S AS
{{{f["commentary"]}}}
[Custom "{f["custom"]}"]

"""

    # board 1 twice (a traveller: two tables' results), board 2 with a dealer that is markup
    return (
        board(1, DEAL, "7NT", 13)
        + board(1, DEAL, "6NT", 13)
        + board(2, OTHER_DEAL, "7NT", 12, dealer=f["dealer"])
        + board(4, DEAL, "7NT", 13)
    )


def hostile_lin() -> str:
    fields = {k: mark("lin-" + k) for k in ("an", "alert", "nt", "pn", "vg", "ah", "rs")}
    return (
        f"vg|{fields['vg']},seg,I,1,16,A,0,B,0|rs|3N{fields['rs']},|pn|{fields['pn']},e,s,w|st||"
        "md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|rh||"
        f"ah|{fields['ah']}|sv|n|mb|p|mb|1H|an|{fields['an']}|mb|2N!|an|{fields['alert']}|mb|p|mb|3N|mb|p|mb|p|mb|p|"
        f"nt|{fields['nt']}|pc|H4|pc|H2|pc|HJ|pc|HA|mc|1|\n"
    )


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def test_every_window_shows_file_text_as_text(tmp_path: Path) -> None:
    # file names may look like HTML too ("/" is the one character a name cannot hold)
    first = tmp_path / "<b>hostile-name<img src=zero>.pbn"
    first.write_text(hostile_pbn("a-"), encoding="utf-8")
    other = tmp_path / "<i>hostile-other-name<b>.pbn"
    other.write_text(
        hostile_pbn("b-").replace('[Board "4"]', '[Board "3"]').replace(OTHER_DEAL, DEAL), encoding="utf-8"
    )
    lin = tmp_path / "vugraph.lin"
    lin.write_text(hostile_lin(), encoding="utf-8")
    out, progress = tmp_path / "walk.json", tmp_path / "progress.txt"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run(
            [sys.executable, str(WALK), str(out), str(progress), str(first), str(other), str(lin)],
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        steps = progress.read_text().split() if progress.exists() else ["(not started)"]
        pytest.fail(f"the window hung at step {steps[-1]!r}: a file's markup rendered as rich text?")
    steps = progress.read_text().splitlines() if progress.exists() else ["(not started)"]
    assert done.returncode == 0, f"the walk died at step {steps[-1]!r}: {done.stderr[-2000:]}"
    report = json.loads(out.read_text(encoding="utf-8"))
    assert not report["violations"], "\n".join(report["violations"])
    shown = report["seen"]
    # every field was on screen somewhere, literally (so the walk did visit it)
    expected = [mark("a-" + k) for k in FIELDS]  # board 2's dealer is a problem, quoted in the Check tab
    # the other file's tags, in Compare's differences (its notes are no tags: Compare does not show them)
    expected += [mark("b-" + k) for k in FIELDS if k not in ("note1", "note2", "commentary", "dealer")]
    expected += [mark("lin-" + k) for k in ("an", "alert", "nt", "pn", "vg", "ah")]
    expected += ["<b>hostile-name<img src=zero>.pbn", "<i>hostile-other-name<b>.pbn"]
    missing = [m for m in expected if m not in shown]
    assert not missing, f"never shown literally: {missing}"
