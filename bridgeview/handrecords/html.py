"""Hand records as one web page: what a club posts on its site after a session.

The page holds what the PDF holds (the title line, then each board's number, dealer,
vulnerability, the four hands around an HCP box, the makeable contracts and par) from
the same :func:`.content.prepare`.  It is one self-contained file: no scripts, no
fonts, images or style sheets fetched from anywhere (a Content-Security-Policy says
so to the browser too), every piece of text from the deal file escaped.  On a screen
the boards flow in as many columns as fit, one on a phone; printed from a browser,
the pages follow the chosen paper, orientation and boards a page, with the title on
top and the page number at the foot of each, as in the PDF.
"""

from __future__ import annotations

import os
from html import escape

from .. import __version__
from ..model.board import Board
from ..model.cards import Seat, Strain, Suit
from ..model.text import plural
from .content import (
    DD_SEATS,
    DD_STRAINS,
    GRIDS,
    MARGIN_MM,
    PAPERS,
    SEAT_NAMES,
    HandRecordOptions,
    PrintData,
    board_heading,
    holdings,
    makeable,
    page_count,
    par_text,
)

#: the printed hand records' colours (``ui.theme``'s, written here because this layer is Qt-free;
#: ``tests/test_hand_records_html.py`` keeps them equal)
RED = "#c8102e"
ORANGE = "#e07000"
GREEN = "#11803a"
INK = "#1b1b1b"
MUTED = "#6b6b6b"
RULE = "#d8d4c6"
PANEL = "#fbfaf6"
#: follows a suit symbol so that phones draw it as a character, not as a coloured emoji
TEXT_STYLE = "\ufe0e"
#: a board's size in ems when printed, the analysis under the diagram (tall) or beside it (wide); its
#: font is scaled so that it fills its cell, as the PDF's boards are
BOARD_TALL = (23.0, 30.5)
BOARD_TALL_NO_DD = (23.0, 19.5)
BOARD_WIDE = (38.0, 20.0)
#: the largest a printed board's font gets (one board a page)
MAX_BOARD_PT = 22.0
#: the ems West's and East's hands share beside the HCP box (a printed board's width less the box and the
#: gaps); when the two are wider, the longer is set smaller (``tight``, then ``tighter``), so that a long suit
#: does not run off the board: the PDF does the same
SIDE_ROOM_EM = 16.8
#: the font sizes of a hand: as set, ``tight``, ``tighter`` (ems of the board's font)
HAND_SIZES = ((0.95, ""), (0.84, " tight"), (0.74, " tighter"))
#: millimetres a printed page gives its title line and its page number
TITLE_MM, FOOTER_MM = 11.0, 7.0
SUIT_CLASS = {Suit.SPADES: "sp", Suit.HEARTS: "he", Suit.DIAMONDS: "di", Suit.CLUBS: "cl"}
SEAT_CLASS = {Seat.NORTH: "n", Seat.EAST: "e", Seat.SOUTH: "s", Seat.WEST: "w"}

STYLE = """
:root {
  --ink: %(ink)s; --muted: %(muted)s; --rule: %(rule)s; --panel: %(panel)s;
  --spades: %(ink)s; --hearts: %(red)s; --diamonds: %(diamonds)s; --clubs: %(clubs)s; --vul: %(red)s;
  color-scheme: light;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%%; text-size-adjust: 100%%; }
body {
  margin: 0; color: var(--ink); background: #fff;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial,
    "DejaVu Sans", sans-serif, "Segoe UI Symbol", "Apple Symbols", "Noto Sans Symbols 2";
  line-height: 1.35;
}
.sheet { max-width: 84rem; margin: 0 auto; padding: 1.25rem 1rem 2rem; }
.sheet-head h1 { font-size: 1.45rem; line-height: 1.25; margin: 0 0 .2rem; overflow-wrap: anywhere; }
.sheet-head p { margin: 0; color: var(--muted); font-size: .9rem; }
nav.jump { margin: .8rem 0 0; display: flex; flex-wrap: wrap; gap: .3rem; }
nav.jump a {
  min-width: 2.4rem; padding: .35rem .4rem; text-align: center; border: 1px solid var(--rule);
  border-radius: .4rem; color: var(--ink); text-decoration: none; font-variant-numeric: tabular-nums;
}
nav.jump a:hover, nav.jump a:focus { background: var(--panel); border-color: var(--muted); }
.boards {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(20.5rem, 1fr)); gap: 1rem; margin-top: 1.1rem;
}
.page { display: contents; }
.page-title, .page-foot { display: none; }
.board {
  background: var(--panel); border: 1px solid var(--rule); border-radius: .6rem; padding: .8em .9em .9em;
  font-size: 1rem; scroll-margin-top: .5rem; min-width: 0;
}
.board-head { display: flex; justify-content: space-between; align-items: flex-start; gap: .5em; }
.board-head h2 { font-size: 1.35em; margin: 0; line-height: 1.1; }
.board-head dl {
  margin: 0; display: grid; grid-template-columns: auto auto; column-gap: .35em; font-size: .82em; text-align: right;
}
.board-head dt { color: var(--muted); }
.board-head dd { margin: 0; font-weight: 600; text-align: left; }
.diagram {
  display: grid; grid-template-columns: minmax(max-content, 1fr) 4.6em minmax(max-content, 1fr);
  grid-template-rows: auto 4.6em auto;
  grid-template-areas: ". n ." "w c e" ". s ."; column-gap: .55em; row-gap: .35em; align-items: center;
  margin-top: .35em;
}
.hand { white-space: nowrap; font-size: .95em; line-height: 1.3; min-width: 0; }
.hand h3 {
  margin: 0 0 .05em; font-size: .68em; text-transform: uppercase; letter-spacing: .06em; color: var(--muted);
}
.hand.vul h3 { color: var(--vul); }
.hand.n { grid-area: n; justify-self: start; }
.hand.s { grid-area: s; justify-self: start; align-self: start; }
.hand.w { grid-area: w; justify-self: end; }
.hand.e { grid-area: e; justify-self: start; }
.hand .line { display: block; }
.hand.tight { font-size: .84em; }
.hand.tighter { font-size: .74em; }
.suit { display: inline-block; width: 1.05em; font-weight: 600; }
.sp { color: var(--spades); } .he { color: var(--hearts); } .di { color: var(--diamonds); } .cl { color: var(--clubs); }
.hcp {
  grid-area: c; position: relative; width: 4.6em; height: 4.6em; border: 1px solid var(--muted);
  border-radius: .2em; background: #fff; font-size: 1em; font-variant-numeric: tabular-nums;
}
.hcp.ns { border-top: .22em solid var(--vul); border-bottom: .22em solid var(--vul); }
.hcp.ew { border-left: .22em solid var(--vul); border-right: .22em solid var(--vul); }
.hcp span { position: absolute; font-size: .85em; line-height: 1; }
.hcp .n { top: .3em; left: 0; right: 0; text-align: center; }
.hcp .s { bottom: .3em; left: 0; right: 0; text-align: center; }
.hcp .w { left: .3em; top: 50%%; transform: translateY(-50%%); }
.hcp .e { right: .3em; top: 50%%; transform: translateY(-50%%); }
.hcp .label {
  left: 0; right: 0; top: 50%%; transform: translateY(-50%%); text-align: center; font-size: .58em;
  color: var(--muted); letter-spacing: .05em;
}
.analysis { margin-top: .7em; border-top: 1px solid var(--rule); padding-top: .5em; }
table.dd { border-collapse: collapse; font-size: .85em; font-variant-numeric: tabular-nums; }
table.dd caption {
  caption-side: top; text-align: left; font-size: .78em; font-weight: 700; color: var(--muted);
  text-transform: uppercase; letter-spacing: .06em; padding-bottom: .2em;
}
table.dd th, table.dd td { width: 2.3em; padding: .08em 0; text-align: center; }
table.dd thead th { border-bottom: 1px solid var(--muted); font-weight: 600; }
table.dd tbody th { text-align: left; width: 1.6em; font-weight: 700; }
.par { margin: .45em 0 0; font-size: .85em; }
.note { margin: 0; font-size: .8em; color: var(--muted); }
.sheet-foot { margin-top: 1.5rem; color: var(--muted); font-size: .78rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 27rem) {
  .sheet { padding: .8rem .5rem 1.5rem; }
  .boards { grid-template-columns: 1fr; gap: .7rem; }
  .board { font-size: 4.1vw; padding: .7em .6em .8em; }
}
@page { size: %(page_size)s %(orientation)s; margin: %(margin)gmm; }
@media print {
  html, body { background: #fff; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .sheet { max-width: none; padding: 0; margin: 0; }
  .sheet-head, nav.jump, .sheet-foot { display: none; }
  .boards { display: block; margin: 0; }
  .page {
    display: grid; grid-template-columns: repeat(%(cols)d, 1fr);
    grid-template-rows: %(title_mm)gmm repeat(%(rows)d, 1fr) %(footer_mm)gmm;
    height: %(page_h)gmm; overflow: hidden; break-after: page; page-break-after: always;
  }
  .page:last-child { break-after: auto; page-break-after: auto; }
  .page-title {
    display: block; grid-column: 1 / -1; grid-row: 1; margin: 0; font-size: 13pt; font-weight: 700;
    border-bottom: .6pt solid var(--muted); align-self: start; padding-bottom: 1.5mm; overflow: hidden;
    white-space: nowrap; text-overflow: ellipsis;
  }
  .page-foot { display: block; grid-column: 1 / -1; grid-row: -2; align-self: end; text-align: center; font-size: 8pt; }
  .board {
    font-size: %(board_pt).2fpt; background: none; border: 0; border-radius: 0; padding: 0;
    width: %(board_w)gem; justify-self: center; align-self: center; break-inside: avoid;
  }
  .hcp { background: none; }
  %(wide)s
}
"""
#: the print style of a board with its analysis beside the diagram (one or two boards a page)
WIDE = """.board { display: grid; grid-template-columns: 23em 1fr; column-gap: 2.5em; align-items: center; }
  .board-head { grid-column: 1 / -1; }
  .analysis { grid-column: 2; grid-row: 2; margin: 0; border: 0; padding: 0; }"""


def print_layout(options: HandRecordOptions) -> tuple[int, int, float, bool]:
    """How a printed page holds its boards: columns, rows, a board's font size in points, and whether the
    analysis goes beside the diagram (when that lets the board print larger: one or two boards a page)."""
    cols, rows = GRIDS[options.per_page]
    width, height = PAPERS[options.page_size]
    if options.landscape:
        width, height = height, width
        if cols < rows:
            cols, rows = rows, cols
    cell_w = (width - 2 * MARGIN_MM) / cols
    cell_h = (height - 2 * MARGIN_MM - 1.0 - TITLE_MM - FOOTER_MM) / rows

    def em_mm(size: tuple[float, float]) -> float:
        return min(cell_w * 0.94 / size[0], cell_h * 0.94 / size[1])

    tall = em_mm(BOARD_TALL if options.dd else BOARD_TALL_NO_DD)
    wide = em_mm(BOARD_WIDE) if options.dd else 0.0
    points = max(tall, wide) / 25.4 * 72
    return cols, rows, min(points, MAX_BOARD_PT), wide > tall


def _style(options: HandRecordOptions) -> str:
    """The style sheet, its print part sized like the PDF's pages: the paper less its margins, a grid of
    the boards a page, and each board's font scaled to fill its cell."""
    cols, rows, points, wide = print_layout(options)
    height = PAPERS[options.page_size][0 if options.landscape else 1]
    board_w = (BOARD_WIDE if wide else BOARD_TALL)[0]
    return STYLE % {
        "ink": INK,
        "muted": MUTED,
        "rule": RULE,
        "panel": PANEL,
        "red": RED,
        "diamonds": ORANGE if options.four_colour else RED,
        "clubs": GREEN if options.four_colour else INK,
        "page_size": options.page_size,
        "orientation": "landscape" if options.landscape else "portrait",
        "margin": MARGIN_MM,
        "cols": cols,
        "rows": rows,
        "title_mm": TITLE_MM,
        "footer_mm": FOOTER_MM,
        "page_h": round(height - 2 * MARGIN_MM - 1.0, 1),  # a millimetre spare for rounding
        "board_pt": points,
        "board_w": board_w,
        "wide": WIDE if wide else "",
    }


def _line_em(suit_text: str) -> float:
    """About how wide a hand's line is in ems: the suit symbol, then letters, digits and spaces."""
    return 1.05 + sum(0.33 if ch == " " else 0.64 for ch in suit_text)


def _suit(suit: Suit) -> str:
    name = suit.name.lower()
    return f'<span class="suit {SUIT_CLASS[suit]}" role="img" aria-label="{name}">{suit.symbol}{TEXT_STYLE}</span>'


def _with_suits(text: str) -> str:
    """Escaped ``text`` with each suit symbol in its colour (a par line: ``NS 4♠``)."""
    out = escape(text)
    for suit in SUIT_CLASS:
        out = out.replace(suit.symbol, f'<span class="{SUIT_CLASS[suit]}">{suit.symbol}{TEXT_STYLE}</span>')
    return out


def _hand(board: Board, seat: Seat, ten: str, size: str = "") -> str:
    lines = "".join(
        f'<span class="line">{_suit(suit)}{escape(text)}</span>' for suit, text in holdings(board.deal, seat, ten)
    )
    vul = " vul" if board.effective_vulnerability.is_vulnerable(seat) else ""
    return f'<div class="hand {SEAT_CLASS[seat]}{vul}{size}"><h3>{SEAT_NAMES[seat]}</h3>{lines}</div>'


def _side_sizes(board: Board, ten: str) -> dict[Seat, str]:
    """The size class of West's and East's hands: the longer one smaller when the two do not fit beside the
    box (North and South have the box's width and East's column)."""
    widths = {
        seat: max(_line_em(text) for _, text in holdings(board.deal, seat, ten)) for seat in (Seat.WEST, Seat.EAST)
    }
    longer, shorter = sorted(widths, key=lambda seat: -widths[seat])
    for factor, size in HAND_SIZES:
        if widths[longer] * factor + widths[shorter] * HAND_SIZES[0][0] <= SIDE_ROOM_EM:
            return {longer: size}
    factor, size = HAND_SIZES[-1]
    return {longer: size, shorter: size if widths[shorter] * HAND_SIZES[0][0] > SIDE_ROOM_EM / 2 else ""}


def _hcp_box(board: Board) -> str:
    deal = board.deal
    vul = board.effective_vulnerability
    sides = " ".join(side for side, seat in (("ns", Seat.NORTH), ("ew", Seat.EAST)) if vul.is_vulnerable(seat))
    spots = "".join(
        f'<span class="{SEAT_CLASS[seat]}" title="{SEAT_NAMES[seat]}">{deal.hcp(seat)}</span>'
        for seat in (Seat.NORTH, Seat.WEST, Seat.EAST, Seat.SOUTH)
        if deal.hands[seat]
    )
    cls = f"hcp {sides}".strip()
    return f'<div class="{cls}" role="group" aria-label="high-card points">{spots}<span class="label">HCP</span></div>'


def _analysis(data: PrintData, board: Board, index: int) -> str:
    table = data.tables.get(index)
    if table is None:
        note = data.notes.get(index)
        return f'<div class="analysis"><p class="note">{escape(note.capitalize())}.</p></div>' if note else ""
    head = "".join(f'<th scope="col">{_suit(Suit(st)) if st != Strain.NOTRUMP else "NT"}</th>' for st in DD_STRAINS)
    rows = "".join(
        f'<tr><th scope="row" title="{SEAT_NAMES[seat]}">{seat.letter}</th>'
        + "".join(f"<td>{makeable(table, seat, st)}</td>" for st in DD_STRAINS)
        + "</tr>"
        for seat in DD_SEATS
    )
    par = par_text(board, table)
    par_html = f'<p class="par">{_with_suits(par)}</p>' if par else ""
    return (
        '<div class="analysis"><table class="dd"><caption>Makeable contracts</caption>'
        f'<thead><tr><th scope="col"><span class="sr">Declarer</span></th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table>{par_html}</div>"
    )


def _anchor(board: Board, index: int) -> str:
    return f"board-{board.number}" if board.number is not None else f"record-{index + 1}"


def _board(data: PrintData, board: Board, index: int, options: HandRecordOptions, anchor: str) -> str:
    heading = escape(board_heading(board, index))
    dealer = SEAT_NAMES[board.effective_dealer]
    vul = escape(board.effective_vulnerability.text)
    sizes = _side_sizes(board, options.ten)
    hands = "".join(
        _hand(board, seat, options.ten, sizes.get(seat, "")) for seat in (Seat.NORTH, Seat.WEST, Seat.EAST, Seat.SOUTH)
    )
    analysis = _analysis(data, board, index) if options.dd else ""
    return (
        f'<article class="board" id="{anchor}">'
        f'<header class="board-head"><h2>{heading}</h2>'
        f"<dl><dt>Dealer</dt><dd>{dealer}</dd><dt>Vul</dt><dd>{vul}</dd></dl></header>"
        f'<div class="diagram">{hands}{_hcp_box(board)}</div>{analysis}</article>'
    )


def _anchors(boards: list[Board]) -> list[str]:
    """An id for each board (``board-7``); a number repeated in the set gets ``board-7-2`` and so on."""
    seen: dict[str, int] = {}
    out = []
    for i, board in enumerate(boards):
        base = _anchor(board, i)
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return out


def html_text(data: PrintData, options: HandRecordOptions) -> str:
    """The hand records as one HTML document."""
    title = escape(options.title or "Hand records")
    per = options.per_page
    pages = page_count(len(data.boards), per)
    anchors = _anchors(data.boards)
    body = []
    for page in range(pages):
        first = page * per
        cells = "".join(
            _board(data, data.boards[i], i, options, anchors[i])
            for i in range(first, min(first + per, len(data.boards)))
        )
        body.append(
            f'<section class="page" aria-label="Page {page + 1} of {pages}">'
            f'<p class="page-title" aria-hidden="true">{title}</p>{cells}'
            f'<p class="page-foot" aria-hidden="true">Page {page + 1} of {pages}</p></section>'
        )
    jump = "".join(
        f'<a href="#{anchors[i]}">{escape(str(b.number) if b.number is not None else f"R{i + 1}")}</a>'
        for i, b in enumerate(data.boards)
    )
    summary = plural(len(data.boards), "board")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        f'<meta name="generator" content="bridgeview {escape(__version__)}">\n'
        f"<title>{title}</title>\n<style>{_style(options)}</style>\n</head>\n<body>\n"
        f'<div class="sheet">\n<header class="sheet-head"><h1>{title}</h1><p>{summary}</p>'
        f'<nav class="jump" aria-label="Boards">{jump}</nav></header>\n'
        f'<main class="boards">\n' + "\n".join(body) + "\n</main>\n"
        f'<footer class="sheet-foot">Hand records made with bridgeview {escape(__version__)}.</footer>\n'
        "</div>\n</body>\n</html>\n"
    )


def write_html(
    data: PrintData, path: str | os.PathLike[str], options: HandRecordOptions, *, force: bool = False
) -> int:
    """Write the page to ``path`` atomically (temp file + rename); returns its printed page count."""
    from ..formats.atomic import save_atomically

    content = html_text(data, options).encode("utf-8")
    save_atomically(path, lambda f: f.write(content), force=force)
    return page_count(len(data.boards), options.per_page)
