"""BBO handviewer links that spell the hand out in parameters rather than in ``lin=``.

BBO's handviewer (``handviewer.html``, ``hv.html``) takes either ``lin=<LIN
text>`` or one parameter per part of the board:

- ``n=``, ``e=``, ``s=``, ``w=``: a hand as suit letters followed by ranks
  (``sakq52hj9dt3c842``; ``10`` may stand for ``t``); three hands of 13 cards
  give the fourth
- ``nn=``, ``en=``, ``sn=``, ``wn=``: the players' names
- ``d=``: dealer (``n e s w``); ``v=``: vulnerability (``n`` NS, ``e`` EW,
  ``b`` both, ``o``/``-``/``0`` none); ``b=``: board number
- ``a=``: the auction, calls run together (``1sp2hp4sppp``: ``p`` pass,
  ``d``/``x`` double, ``r`` double again, ``n`` notrump), each optionally
  followed by an explanation in ``(…)`` and/or an annotation in ``{…}``; or
  ``-`` + contract + declarer (``-4sxn``) for a bare contract
- ``p=``: the play, cards run together (``s2s3sasq…``)
- ``t=``: a title; other parameters (``k``, ``sk``, ``bbo``, ``myhands`` …) are ignored

Such a link, and a ``…hv.html?lin=`` link wrapped (percent-encoded) inside
another BBO or redirect URL, are read by turning them into LIN and handing
that to the LIN reader, so both kinds of link give the same boards.
Qt-free; interpretations are listed in ``docs/formats.md`` (Handviewer links).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote, unquote_plus

from ...model.board import Board
from ...model.boardset import BoardSet
from ..errors import FormatError
from .read import parse_text
from .write import board_to_lin

#: LIN lists hands South, West, North, East and counts the dealer 1=S 2=W 3=N 4=E
_LIN_ORDER = "swne"
_VUL = {
    "n": "n",
    "ns": "n",
    "e": "e",
    "ew": "e",
    "b": "b",
    "both": "b",
    "all": "b",
    "o": "o",
    "-": "o",
    "0": "o",
    "none": "o",
    "": "o",
}
_PARAM = re.compile(r"(?:^|[?&#;])([A-Za-z]{1,2})=([^&#;]*)")
_HAND_KEYS = frozenset("nesw")
_LIN_LINK = re.compile(r"[?&#]lin=", re.IGNORECASE)
_CALL = re.compile(r"([1-7])\s*(nt|n|s|h|d|c)|(pass|xx|p|d|x|r)", re.IGNORECASE)
_CARD = re.compile(r"([shdc])\s*(10|[akqjt2-9])", re.IGNORECASE)
#: how many times a wrapped link is percent-decoded in search of the handviewer link inside
MAX_UNWRAP = 3


def params_of(url: str) -> dict[str, str]:
    """The link's short parameters (lower-case names), percent-decoded; the last of a repeated name wins."""
    query = url.split("?", 1)[1] if "?" in url else url
    out: dict[str, str] = {}
    for m in _PARAM.finditer(query):
        value = m.group(2)
        out[m.group(1).lower()] = unquote_plus(value) if " " not in value else unquote(value)
    return out


def has_hand_params(url: str) -> bool:
    """True when the link spells at least one hand out (``n=``, ``e=``, ``s=`` or ``w=``)."""
    return any(k in _HAND_KEYS and v.strip() for k, v in params_of(url).items())


def unwrap_lin_link(text: str) -> str | None:
    """The ``…?lin=…`` link percent-encoded inside ``text`` (a redirect or share URL), else None."""
    inner = text
    for _ in range(MAX_UNWRAP):
        decoded = unquote(inner)
        if decoded == inner:
            return None
        inner = decoded
        if _LIN_LINK.search(inner):
            return inner
    return None


def _clean(text: str) -> str:
    """A value as LIN can hold it (``|`` ends a LIN value)."""
    return text.replace("|", "/").strip()


def _hand(text: str, seat: str) -> str:
    """A handviewer hand (``sakqhj10d…``) as a LIN hand (``SAKQHJTD…``)."""
    t = re.sub(r"\s+", "", text).upper().replace("10", "T")
    if t and t[0] not in "SHDC":
        raise FormatError(f"the {seat}= hand {text.strip()!r} does not start with a suit letter (s, h, d or c)")
    return t


def auction_pairs(text: str, dealer: str) -> list[tuple[str, str]]:
    """The ``a=`` value as LIN ``mb``/``an`` pairs; FormatError naming the place that cannot be read."""
    t = text.strip()
    if t.startswith("-"):
        return _contract_pairs(t[1:], dealer)
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(t):
        if t[i].isspace() or t[i] in ",.":
            i += 1
            continue
        m = _CALL.match(t, i)
        if not m:
            raise FormatError(f"the auction a={text!r} cannot be read at {t[i : i + 8]!r} (character {i + 1})")
        if m.group(1):
            strain = m.group(2).upper()
            call = m.group(1) + ("N" if strain in ("N", "NT") else strain)
        else:
            call = {"P": "p", "PASS": "p", "D": "d", "X": "d", "R": "r", "XX": "r"}[m.group(3).upper()]
        i = m.end()
        alert = False
        explanation: str | None = None
        while i < len(t) and t[i] in "({":
            close = ")" if t[i] == "(" else "}"
            end = t.find(close, i + 1)
            if end < 0:
                raise FormatError(f"the auction a={text!r} has an unclosed {t[i]!r} after call {len(pairs) + 1}")
            inside = t[i + 1 : end].strip()
            if t[i] == "(" and inside:
                explanation = inside
                alert = True
            i = end + 1
        pairs.append(("mb", call + ("!" if alert else "")))
        if explanation:
            pairs.append(("an", _clean(explanation)))
    return pairs


def _contract_pairs(text: str, dealer: str) -> list[tuple[str, str]]:
    """``4sxn`` (level, strain, optional x/xx/d/r, declarer) as the auction that reaches it."""
    m = re.fullmatch(r"\s*([1-7])(nt|n|s|h|d|c)(xx|x|r|d)?([nesw])\s*", text, re.IGNORECASE)
    if not m:
        raise FormatError(f"the contract a=-{text!r} is not level, strain, optional x or r, declarer (like -4sxn)")
    level, strain, dbl, declarer = m.groups()
    strain = "N" if strain.upper() in ("N", "NT") else strain.upper()
    order = "nesw"
    seat = order.index(dealer)
    pairs: list[tuple[str, str]] = []
    while order[seat] != declarer.lower():
        pairs.append(("mb", "p"))
        seat = (seat + 1) % 4
    pairs.append(("mb", level + strain))
    if dbl:
        pairs.append(("mb", "d"))
        if dbl.lower() in ("xx", "r"):
            pairs.append(("mb", "r"))
    pairs += [("mb", "p")] * 3
    return pairs


def play_pairs(text: str) -> list[tuple[str, str]]:
    """The ``p=`` value as LIN ``pc`` pairs."""
    t = re.sub(r"[\s,.]+", "", text)
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(t):
        m = _CARD.match(t, i)
        if not m:
            raise FormatError(f"the play p={text!r} cannot be read at {t[i : i + 6]!r} (card {len(pairs) + 1})")
        rank = "T" if m.group(2) == "10" else m.group(2).upper()
        pairs.append(("pc", m.group(1).upper() + rank))
        i = m.end()
    return pairs


def link_to_lin(url: str) -> str:
    """The LIN text of a parameter-form handviewer link; FormatError when it holds no hand."""
    p = params_of(url)
    if not any(p.get(k, "").strip() for k in _HAND_KEYS):
        raise FormatError("this link holds no hand (neither lin= nor n=, e=, s=, w= parameters)")
    dealer = p.get("d", "").strip().lower()[:1]
    if dealer and dealer not in "nesw":
        raise FormatError(f"dealer d={p['d']!r} is not n, e, s or w")
    hands = ",".join(_hand(p.get(seat, ""), seat) for seat in _LIN_ORDER)
    digit = str(_LIN_ORDER.index(dealer) + 1) if dealer else ""
    pairs: list[tuple[str, str]] = []
    names = [_clean(p.get(seat + "n", "")).replace(",", " ") for seat in _LIN_ORDER]
    if any(names):
        pairs.append(("pn", ",".join(names)))
    pairs += [("st", ""), ("md", digit + hands)]
    board = p.get("b", "").strip()
    if board:
        if not board.isdigit():
            raise FormatError(f"board number b={board!r} is not a number")
        pairs.append(("ah", f"Board {int(board)}"))
    elif p.get("t", "").strip():
        pairs.append(("ah", _clean(p["t"])))
    if "v" in p:
        vul = _VUL.get(p["v"].strip().lower())
        if vul is None:
            raise FormatError(f"vulnerability v={p['v']!r} is not n, e, b or o")
        pairs.append(("sv", vul))
    if board and p.get("t", "").strip():
        pairs.append(("nt", _clean(p["t"])))
    if p.get("a", "").strip():
        if not dealer and p["a"].strip().startswith("-"):
            dealer = "n"
        pairs += auction_pairs(p["a"], dealer or "n")
        pairs.append(("pg", ""))
    if p.get("p", "").strip():
        pairs += play_pairs(p["p"])
    return "".join(f"{k}|{v}|" for k, v in pairs)


def boards_from_link(url: str) -> BoardSet:
    """Every board of a handviewer link in parameter form, or of a ``lin=`` link wrapped in another URL.

    FormatError (one line) when the link holds no hand or a parameter cannot be read.
    """
    inner = unwrap_lin_link(url)
    if inner is not None:
        return handviewer_boards(inner)
    if not has_hand_params(url):
        decoded = url
        for _ in range(MAX_UNWRAP):  # n=/s=… inside a wrapped link
            nxt = unquote(decoded)
            if nxt == decoded:
                break
            decoded = nxt
            inner_query = decoded.split("?", 2)[-1] if decoded.count("?") > 1 else ""
            if inner_query and has_hand_params("?" + inner_query):
                url = "?" + inner_query
                break
    doc = parse_text(link_to_lin(url))
    if not len(doc):
        raise FormatError("no board in this link")
    return doc


__all__ = [
    "HANDVIEWER",
    "boards_from_link",
    "handviewer_boards",
    "handviewer_url",
    "parse_handviewer_url",
    "link_to_lin",
    "params_of",
    "has_hand_params",
    "unwrap_lin_link",
    "auction_pairs",
    "play_pairs",
]


HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html?lin="


def handviewer_url(board: Board) -> str:
    """A BBO handviewer link showing ``board``."""
    return HANDVIEWER + quote(board_to_lin(board), safe="")


def parse_handviewer_url(text: str) -> Board:
    """The board of a handviewer/myhands link (``…?lin=…``) or of raw LIN text.

    Several boards: the first is returned (``handviewer_boards`` gives them all).
    FormatError when nothing readable is there.
    """
    return handviewer_boards(text)[0]


def handviewer_boards(text: str) -> BoardSet:
    """Every board of a handviewer/myhands link (``…?lin=…``) or of pasted LIN text.

    A URL's ``lin`` value is percent-decoded; ``+`` counts as a space only when
    the value holds neither a space nor ``%20`` (form encoding).  FormatError
    when nothing readable is there; the result always holds at least one board.
    """
    raw = text.strip()
    m = re.search(r"[?&#]lin=", raw, re.IGNORECASE)
    if m:
        value = raw[m.end() :]
        nxt = re.search(r"&[A-Za-z_]\w*=", value)
        if nxt:
            value = value[: nxt.start()]
        form_encoded = "+" in value and " " not in value and "%20" not in value
        raw = unquote_plus(value) if form_encoded else unquote(value)
    elif re.match(r"[a-z][a-z0-9+.-]*://", raw, re.IGNORECASE):
        return boards_from_link(raw)
    if not raw:
        raise FormatError("no LIN text to read")
    doc = parse_text(raw)
    if not len(doc):
        raise FormatError("no board in this LIN text")
    return doc
