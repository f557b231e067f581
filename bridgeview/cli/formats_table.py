"""``bridgeview formats``: every format and what it can hold."""

from __future__ import annotations

import argparse

from ..formats.registry import all_codecs

NAME = "formats"
ORDER = 60
HELP = "list the supported formats and what each can hold"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--markdown", action="store_true", help="print a Markdown table (as in the README)")


def rows() -> list[tuple[str, str, str, str]]:
    out = []
    for c in sorted(all_codecs(), key=lambda c: c.name):
        holds = ", ".join(c.caps.holds())
        if c.caps.max_records:
            holds += f"; at most {c.caps.max_records} records"
        if c.caps.max_board:
            holds += f"; boards up to {c.caps.max_board}"
        mode = "read/write" if c.can_write else "read"
        what = f"{c.title}: {holds}" if c.kind == "bridge" else c.title
        out.append((c.name, ", ".join("." + e for e in c.extensions), mode, what))
    return out


def markdown() -> str:
    """The README's format table: one row a codec, one column a capability."""
    cols = ("full deals", "partial deals", "board numbers", "dealer/vul", "DD", "auction", "play", "event/site/date")
    lines = [
        "| format | extensions | what it is | " + " | ".join(cols) + " | limit |",
        "|---|---|---|" + "---|" * len(cols) + "---|",
    ]
    for c in sorted(all_codecs(), key=lambda c: c.name):
        exts = ", ".join("." + e for e in c.extensions)
        if c.kind != "bridge":
            lines.append(f"| `{c.name}` | {exts} | {c.title} |" + " |" * len(cols) + " |")
            continue
        k = c.caps
        flags = (k.full_deals, k.partial_deals, k.board_numbers, k.dealer_vul, k.dd, k.auction, k.play, k.header)
        limit = []
        if k.max_records:
            limit.append(f"{k.max_records} boards")
        if k.max_board:
            limit.append(f"boards 1-{k.max_board}")
        cells = " | ".join("✓" if f else "" for f in flags)
        lines.append(f"| `{c.name}` | {exts} | {c.title} | {cells} | {', '.join(limit)} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    table = rows()
    if args.markdown:
        print(markdown())
        return 0
    w = [max(len(r[i]) for r in table) for i in range(3)] if table else [0, 0, 0]
    for r in table:
        print(f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}")
    return 0
