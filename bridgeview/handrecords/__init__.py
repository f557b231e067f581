"""Hand records without Qt: what goes on the sheets and the HTML page.

:mod:`.content` chooses the boards, their double-dummy tables (stored or solved) and
the title; ``ui.printing.hand_records`` paints them into a PDF or onto a printer, and
:mod:`.html` writes them as one self-contained web page.  Both sheets come from the
same :func:`.content.prepare`, so they always hold the same boards.
"""
