"""What the PBN fast path hands over for ``#`` values: the tags of the games it read, kept pending.

``Context.note_fast`` keeps the games the fast path read (replacing the game before when a game has its tags,
compacting or handing the list over when it grows), ``latest`` answers a ``#`` value from it, and ``flush``
hands it to ``previous`` for the careful reader.  Whatever the order of shapes, both must say what reading
every game into ``previous`` one after another says: the last value (and section words) of each tag.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.formats.pbn.context import Context

#: tag sets of a few shapes (a deal generator's, one with an auction, a scoring program's, a short one)
SHAPES = [
    ("Event", "Site", "Board", "Deal"),
    ("Event", "Site", "Board", "Deal", "Auction"),
    ("Board", "Deal", "Score", "Table"),
    ("Event",),
    ("Site", "Event", "Board", "Deal", "Auction", "Result"),
]
NAMES = sorted({name for shape in SHAPES for name in shape})

games = st.lists(
    st.tuples(
        st.integers(0, len(SHAPES) - 1),
        st.integers(0, 9),  # the values' variety
        st.booleans(),  # sections blank (None) or not
    ),
    max_size=300,
)


def _reference(played: list[tuple[tuple[str, ...], list[str], list[str] | None]]) -> dict[str, tuple[str, list[str]]]:
    out: dict[str, tuple[str, list[str]]] = {}
    for names, values, sections in played:
        for k, name in enumerate(names):
            out[name] = (values[k], [] if sections is None else sections[k].split())
    return out


@settings(max_examples=200, deadline=None)
@given(games, st.integers(0, 300))
def test_latest_and_flush_say_what_each_game_in_turn_says(sequence: list, ask_at: int) -> None:
    ctx = Context()
    played = []
    for step, (shape, variety, blank) in enumerate(sequence):
        names = SHAPES[shape]
        values = [f"{name}-{variety}-{step % 3}" for name in names]
        sections = None if blank else [f"{name} words {variety}\n" for name in names]
        ctx.note_fast(names, values, sections)
        played.append((names, values, sections))
        if step == ask_at:
            want = _reference(played)
            assert {name: ctx.latest(name) for name in NAMES} == {name: want.get(name) for name in NAMES}
    assert len(ctx.pending) <= 65
    want = _reference(played)
    assert {name: ctx.latest(name) for name in NAMES} == {name: want.get(name) for name in NAMES}
    ctx.flush()
    assert not ctx.pending and ctx.previous == want


def test_games_of_two_shapes_in_turn_keep_a_short_list() -> None:
    """A file of two shapes in turn (or files put one after another) keeps one game of each pending, not 64."""
    ctx = Context()
    for step in range(1000):
        names = SHAPES[0 if step % 2 else 2]  # neither holds all the other's tags
        ctx.note_fast(names, [str(step)] * len(names), None)
    assert len(ctx.pending) <= 2 + 64 and not ctx.previous  # never handed over: compacted
    assert ctx.latest("Score") == ("998", []) and ctx.latest("Board") == ("999", [])
