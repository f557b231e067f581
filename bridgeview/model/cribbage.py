"""Cribbage: a HALSCRIB game record, the scoring rules, and its "movie".

Qt-free.  The codec (``bridgeview.formats.halscrib``) fills a
:class:`CribbageRecord`; the scoring functions here are what the movie and the
score check use, so the app counts every hand itself rather than trusting the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from .text import plural

SUIT_LETTERS = "SHDC"  # suit 0 = spades .. 3 = clubs, as the HALSCRIB card code has it
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"
RANK_LETTERS = "?A23456789TJQK"
GAME_POINTS = 121
NO_PLAY = 127  # a pegging slot left empty because the game ended during the pegging
JACK = 11


class CribCard(NamedTuple):
    """A card: suit 0..3 (S H D C) and rank 1 (ace) .. 13 (king)."""

    suit: int
    rank: int

    @property
    def code(self) -> int:
        """The 6-bit HALSCRIB code ``ss rrrr``."""
        return (self.suit << 4) | self.rank

    @classmethod
    def from_code(cls, code: int) -> CribCard:
        rank = code & 15
        if not 1 <= rank <= 13:
            raise ValueError(f"bad card code {code:#04x} (rank {rank})")
        return cls((code >> 4) & 3, rank)

    @classmethod
    def parse(cls, text: str) -> CribCard:
        """``'HK'``, ``'C5'``, ``'ST'`` (suit letter then rank; '10' accepted)."""
        t = text.strip().upper()
        if len(t) < 2 or t[0] not in SUIT_LETTERS:
            raise ValueError(f"bad card {text!r}")
        rank_text = "T" if t[1:] == "10" else t[1:]
        if len(rank_text) != 1 or rank_text not in RANK_LETTERS[1:]:
            raise ValueError(f"bad card {text!r}")
        return cls(SUIT_LETTERS.index(t[0]), RANK_LETTERS.index(rank_text))

    @property
    def value(self) -> int:
        """Counting value: ace 1, pictures 10."""
        return min(self.rank, 10)

    @property
    def is_red(self) -> bool:
        return self.suit in (1, 2)

    @property
    def rank_text(self) -> str:
        return "10" if self.rank == 10 else RANK_LETTERS[self.rank]

    def symbol_text(self) -> str:
        """``'K♥'``, ``'10♣'`` for people."""
        return f"{self.rank_text}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return f"{SUIT_LETTERS[self.suit]}{RANK_LETTERS[self.rank]}"


def cards_text(cards: Sequence[CribCard]) -> str:
    return " ".join(c.symbol_text() for c in cards)


# -- the show --------------------------------------------------------------
@dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: ``fifteen`` 2 for (5♣, K♥)."""

    kind: str  # fifteen, pair, run, flush, nobs
    cards: tuple[CribCard, ...]
    points: int

    def text(self) -> str:
        return f"{self.kind} {cards_text(self.cards)}: {self.points}"


@dataclass(frozen=True)
class HandScore:
    """A hand's count with its breakdown, the way players announce it."""

    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)

    def by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in self.items:
            out[i.kind] = out.get(i.kind, 0) + i.points
        return out

    def summary(self) -> str:
        """``'fifteens 8, pairs 12, nobs 1 = 21'`` (or ``'nineteen: no score'``)."""
        if not self.items:
            return "no score (0)"
        counts: dict[str, int] = {}
        for i in self.items:
            counts[i.kind] = counts.get(i.kind, 0) + 1
        parts = []
        for kind, pts in self.by_kind().items():
            label = {"fifteen": "fifteens", "pair": "pairs", "run": "runs"}.get(kind, kind)
            n = counts[kind]
            parts.append(f"{label} {pts}" if n > 1 or kind in ("flush", "nobs") else f"{kind} {pts}")
        return ", ".join(parts) + f" = {self.total}"


def score_hand(hand: Sequence[CribCard], starter: CribCard, is_crib: bool = False) -> HandScore:
    """Count a four-card hand (or the crib) with the starter: fifteens, pairs,
    runs (every run of the longest length counts: double and triple runs),
    flush (four in the hand, +1 with the starter; the crib needs all five), nobs."""
    if len(hand) != 4:
        raise ValueError("a cribbage hand has four cards")
    five = (*hand, starter)
    items: list[ScoreItem] = []
    for k in range(2, 6):
        for combo in combinations(five, k):
            if sum(c.value for c in combo) == 15:
                items.append(ScoreItem("fifteen", combo, 2))
    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            items.append(ScoreItem("pair", (a, b), 2))
    for k in (5, 4, 3):
        runs = [combo for combo in combinations(five, k) if _is_run(combo)]
        if runs:
            for combo in runs:
                items.append(ScoreItem("run", tuple(sorted(combo, key=lambda c: c.rank)), k))
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            items.append(ScoreItem("flush", five, 5))
        elif not is_crib:
            items.append(ScoreItem("flush", tuple(hand), 4))
    for c in hand:
        if c.rank == JACK and c.suit == starter.suit:
            items.append(ScoreItem("nobs", (c,), 1))
    return HandScore(tuple(items))


def _is_run(cards: Sequence[CribCard]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


# -- the pegging -------------------------------------------------------------
PAIR_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}


def pegging_points(series: Sequence[CribCard]) -> list[tuple[str, int]]:
    """Points for the last card of ``series`` (the cards played since the count
    was last reset, that card included): fifteen, thirty-one, pairs, runs in any order.
    Go and last card depend on what comes next; :func:`peg_plays` adds them."""
    if not series:
        return []
    count = sum(c.value for c in series)
    out: list[tuple[str, int]] = []
    if count == 15:
        out.append(("fifteen", 2))
    if count == 31:
        out.append(("thirty-one", 2))
    last = series[-1].rank
    same = 1
    for c in reversed(series[:-1]):
        if c.rank != last:
            break
        same += 1
    if same >= 2:
        out.append((PAIR_NAMES[same], same * (same - 1)))
    for k in range(len(series), 2, -1):
        tail = series[-k:]
        if len({c.rank for c in tail}) == k and _is_run(tail):
            out.append((f"run of {k}", k))
            break
    return out


class PegPlay(NamedTuple):
    player: int
    card: CribCard


@dataclass(frozen=True)
class PegEvent:
    """One pegging play as the table sees it."""

    player: int
    card: CribCard
    count: int  # the running count after the card
    series: tuple[PegPlay, ...]  # the plays since the count was last reset, this one included
    points: tuple[tuple[str, int], ...]  # what the card scores, go / last card included
    ends_series: bool  # the count goes back to 0 after this card
    problem: str | None = None

    @property
    def total(self) -> int:
        return sum(p for _, p in self.points)


def peg_plays(
    plays: Sequence[PegPlay],
    hands: Sequence[Sequence[CribCard]],
    dealer: int,
    names: tuple[str, str] = ("player 0", "player 1"),
) -> list[PegEvent]:
    """Score a recorded pegging sequence.  The record holds only the cards, so the
    go is inferred from the hands: a series ends at 31 or when neither player holds
    a card that fits (or the next recorded card would pass 31); its last player
    then scores the go (1), or 1 for last card when every card has been played.
    Plays that break the rules (wrong player, card not in the hand) are described
    in ``problem`` and still counted as played."""
    events: list[PegEvent] = []
    left = [list(h) for h in hands]
    series: list[PegPlay] = []
    to_play = 1 - dealer
    for i, play in enumerate(plays):
        problem = None
        if play.card in left[play.player]:
            left[play.player].remove(play.card)
        else:
            problem = f"{names[play.player]} plays {play.card.symbol_text()}, which is not in the hand"
        count_before = sum(p.card.value for p in series)
        if problem is None and play.player != to_play:
            if any(count_before + c.value <= 31 for c in left[to_play]):
                problem = f"{names[play.player]} plays out of turn ({names[to_play]} could play)"
        series.append(play)
        count = count_before + play.card.value
        points = pegging_points([p.card for p in series])
        nxt = plays[i + 1] if i + 1 < len(plays) else None
        can_go_on = any(count + c.value <= 31 for c in left[0] + left[1])
        ends = count == 31 or not can_go_on or (nxt is not None and count + nxt.card.value > 31)
        if count != 31 and not left[0] and not left[1]:
            points.append(("last card", 1))
        elif ends and count != 31:
            points.append(("go", 1))
        events.append(PegEvent(play.player, play.card, count, tuple(series), tuple(points), ends, problem))
        if ends:
            series = []
            to_play = 1 - play.player if left[1 - play.player] else play.player
        else:
            opp = 1 - play.player
            to_play = opp if any(count + c.value <= 31 for c in left[opp]) else play.player
    return events


# -- the record --------------------------------------------------------------
@dataclass
class CribHeader:
    """The game header: who, what program, when."""

    author: str = ""
    program: str = ""
    players: tuple[str, str] = ("", "")
    comments: str = ""
    year: int = 2000
    month: int = 1
    day: int = 1
    hour: int = 0
    minute: int = 0
    second: int = 0
    games: int = 1

    @property
    def date_text(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}T{self.hour:02d}:{self.minute:02d}:{self.second:02d}"


@dataclass
class CribDeal:
    """One deal: what each player kept and threw, the starter, the pegging and
    the scores recorded after the pegging."""

    hands: tuple[tuple[CribCard, ...], tuple[CribCard, ...]]
    discards: tuple[tuple[CribCard, ...], tuple[CribCard, ...]]
    starter: CribCard
    pegging: list[PegPlay]
    scores: tuple[int, int]
    dealer: int
    last: bool = False
    unplayed: int = 0  # pegging slots stored as 127 (the game ended during the pegging)

    @property
    def crib(self) -> tuple[CribCard, ...]:
        return self.discards[0] + self.discards[1]

    def dealt(self, player: int) -> tuple[CribCard, ...]:
        """The six cards ``player`` was dealt."""
        return self.hands[player] + self.discards[player]

    def duplicate_card(self) -> tuple[CribCard, str, str] | None:
        """The first card that appears twice among the 13 cards, with both places."""
        seen: dict[CribCard, str] = {}
        places = [(f"player {p}'s hand", self.hands[p]) for p in (0, 1)]
        places += [(f"player {p}'s discards", self.discards[p]) for p in (0, 1)]
        places.append(("the starter", (self.starter,)))
        for where, cards in places:
            for c in cards:
                if c in seen:
                    return c, seen[c], where
                seen[c] = where
        return None


@dataclass
class CribSource:
    """The text as read, so that an unchanged record is saved byte for byte."""

    text: bytes
    fingerprint: bytes  # the canonical encoding of the record as read
    newline: str = "\n"
    width: int = 76  # characters a line; 0 = one line
    final_newline: bool = True


@dataclass(frozen=True)
class MovieStep:
    """Everything the table shows at one step of the movie (a snapshot)."""

    deal: int  # 0-based deal index
    index: int  # step within the deal
    game: int  # 1-based game number
    kind: str  # deal, discard, starter, peg, pegged, show, game
    caption: str
    details: tuple[str, ...]
    hands: tuple[tuple[CribCard, ...], tuple[CribCard, ...]]  # cards still held (face up)
    crib: tuple[CribCard, ...]  # the crib (empty before the discard)
    crib_shown: bool  # the crib is turned up for counting
    starter: CribCard | None
    pile: tuple[PegPlay, ...]  # the current pegging series
    played: tuple[PegPlay, ...]  # every card pegged so far in the deal (turned-over ones included)
    count: int | None
    scores: tuple[int, int]  # front pegs
    back: tuple[int, int]  # back pegs (previous scores)
    dealer: int
    highlight: tuple[CribCard, ...] = ()  # cards being counted
    scorer: int | None = None
    points: int = 0
    problem: str | None = None
    winner: int | None = None
    items: tuple[ScoreItem, ...] = ()  # the show's breakdown, one scoring combination each


@dataclass
class CribbageRecord:
    """A HALSCRIB game record: header and deals (a document of kind ``cribbage``)."""

    header: CribHeader
    deals: list[CribDeal] = field(default_factory=list)
    source: CribSource | None = None
    path: str | None = None
    format: str = "halscrib"
    warnings: list[str] = field(default_factory=list)  # things the reader survived

    kind = "cribbage"

    def __len__(self) -> int:
        return len(self.deals)

    def player_name(self, p: int) -> str:
        return self.header.players[p] or f"player {p}"

    # -- the rules applied to the record ---------------------------------
    def analysis(self) -> list[DealAnalysis]:
        """Each deal scored by the rules, carrying the scores from deal to deal."""
        out: list[DealAnalysis] = []
        start = (0, 0)
        game = 1
        for d in self.deals:
            a = analyse_deal(d, start, game, (self.player_name(0), self.player_name(1)))
            out.append(a)
            if d.last:
                start, game = (0, 0), game + 1
            else:
                start = a.final
        return out

    def problems(self) -> list[str]:
        """What disagrees with the rules: recorded scores, pegging order, game ends."""
        probs = list(self.warnings)
        analysis = self.analysis()
        for i, (d, a) in enumerate(zip(self.deals, analysis, strict=True)):
            for ev in a.events:
                if ev.problem:
                    probs.append(f"deal {i + 1}: {ev.problem}")
            if a.score_problem:
                probs.append(f"deal {i + 1}: {a.score_problem}")
            if a.peg_problem:
                probs.append(f"deal {i + 1}: {a.peg_problem}")
            if d.last and max(a.final) < GAME_POINTS and i != len(self.deals) - 1:
                probs.append(f"deal {i + 1}: marked the last of its game, but nobody reached {GAME_POINTS}")
            if not d.last and max(a.final) >= GAME_POINTS:
                probs.append(
                    f"deal {i + 1}: {self.player_name(a.winner or 0)} reaches {GAME_POINTS}, "
                    "but the deal is not marked the last of its game"
                )
            if i and self.deals[i - 1].last is False and d.dealer == self.deals[i - 1].dealer:
                probs.append(f"deal {i + 1}: the same player deals twice in a row")
        games = sum(1 for d in self.deals if d.last) + (0 if not self.deals or self.deals[-1].last else 1)
        if games != self.header.games:
            probs.append(f"the header says {plural(self.header.games, 'game')}, the deals hold {games}")
        return probs

    def movie(self) -> list[MovieStep]:
        """The whole record as a list of steps, deal after deal."""
        steps: list[MovieStep] = []
        for i, a in enumerate(self.analysis()):
            steps.extend(deal_steps(self, i, a))
        return steps

    def deal_starts(self, steps: Sequence[MovieStep] | None = None) -> list[int]:
        """Index in :meth:`movie` of each deal's first step."""
        steps = self.movie() if steps is None else steps
        starts: list[int] = []
        for n, s in enumerate(steps):
            if s.index == 0:
                starts.append(n)
        return starts

    # -- what the CLI shows ------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        h = self.header
        return {
            "format": self.format,
            "header": {
                "author": h.author,
                "program": h.program,
                "players": list(h.players),
                "comments": h.comments,
                "date": h.date_text,
                "games": h.games,
            },
            "deals": [
                {
                    "dealer": d.dealer,
                    "hands": [[str(c) for c in d.hands[p]] for p in (0, 1)],
                    "discards": [[str(c) for c in d.discards[p]] for p in (0, 1)],
                    "starter": str(d.starter),
                    "pegging": [{"player": p.player, "card": str(p.card)} for p in d.pegging],
                    "scores": list(d.scores),
                    "last": d.last,
                }
                for d in self.deals
            ],
        }

    def info_lines(self) -> list[tuple[str, str]]:
        h = self.header
        rows = []
        if self.path:
            rows.append(("file", self.path))
        rows += [
            ("format", "halscrib (HALSCRIB Base64 cribbage game)"),
            ("author", h.author),
            ("program", h.program),
            ("player 0", h.players[0]),
            ("player 1", h.players[1]),
            ("comments", h.comments),
            ("date", h.date_text),
            ("games", str(h.games)),
            ("deals", str(len(self.deals))),
        ]
        results = []
        for a in self.analysis():
            if a.winner is not None:
                results.append(f"{self.player_name(a.winner)} {a.final[0]}-{a.final[1]}")
        if results:
            rows.append(("results", "; ".join(results)))
        return rows


# -- scoring one deal ----------------------------------------------------------
@dataclass
class DealAnalysis:
    """One deal scored by the rules."""

    game: int
    start: tuple[int, int]  # scores before the deal
    heels: int  # 2 when the starter is a jack
    events: list[PegEvent]
    expected: tuple[int, int]  # scores after the pegging by the rules
    shows: list[tuple[int, str, HandScore]]  # (player, "hand"/"crib", score) in counting order
    final: tuple[int, int]  # after the show (from the recorded after-pegging scores)
    winner: int | None
    ended_in_pegging: bool
    score_problem: str | None
    peg_problem: str | None = None  # plays after the game was won, or a pegging cut short with nobody at 121


def _add(scores: tuple[int, int], player: int, pts: int) -> tuple[int, int]:
    s = list(scores)
    s[player] = min(GAME_POINTS, s[player] + pts)
    return s[0], s[1]


def analyse_deal(
    d: CribDeal, start: tuple[int, int], game: int = 1, names: tuple[str, str] = ("player 0", "player 1")
) -> DealAnalysis:
    """Expected after-pegging scores = ``start`` + his heels + pegging points; the
    show is then counted from the recorded after-pegging scores (pone, dealer, crib)."""
    heels = 2 if d.starter.rank == JACK else 0
    running = _add(start, d.dealer, heels)
    complete = d.unplayed == 0
    events = peg_plays(d.pegging, d.hands, d.dealer, names)
    peg_problem = None
    for n, ev in enumerate(events, 1):
        if max(running) >= GAME_POINTS and peg_problem is None:
            won = 0 if running[0] >= GAME_POINTS else 1
            peg_problem = f"pegging play {n} ({ev.card.symbol_text()}) comes after {names[won]} reached {GAME_POINTS}"
        running = _add(running, ev.player, ev.total)
    expected = running
    if not complete and max(expected) < GAME_POINTS and max(d.scores) < GAME_POINTS:
        peg_problem = f"the pegging stops after {plural(len(d.pegging), 'card')}, but nobody has reached {GAME_POINTS}"
    problem = None
    if tuple(d.scores) != expected:
        diffs = [f"{names[p]} {d.scores[p] - expected[p]:+d}" for p in (0, 1) if d.scores[p] != expected[p]]
        problem = (
            f"scores after the pegging recorded as {d.scores[0]}-{d.scores[1]}, the rules give "
            f"{expected[0]}-{expected[1]} ({', '.join(diffs)})"
        )
    final = (d.scores[0], d.scores[1])
    shows: list[tuple[int, str, HandScore]] = []
    ended_in_pegging = not complete or max(final) >= GAME_POINTS
    if not ended_in_pegging:
        pone = 1 - d.dealer
        for player, what, cards in (
            (pone, "hand", d.hands[pone]),
            (d.dealer, "hand", d.hands[d.dealer]),
            (d.dealer, "crib", d.crib),
        ):
            hs = score_hand(cards, d.starter, is_crib=what == "crib")
            shows.append((player, what, hs))
            final = _add(final, player, hs.total)
            if max(final) >= GAME_POINTS:
                break
    winner = next((p for p in (0, 1) if final[p] >= GAME_POINTS), None)
    return DealAnalysis(
        game, start, heels, events, expected, shows, final, winner, ended_in_pegging, problem, peg_problem
    )


def _points_text(points: Sequence[tuple[str, int]]) -> str:
    """``'run of 3 for 3'``, ``'fifteen for 2, pair royal for 6: 8'``, as the pegger announces it."""
    text = ", ".join(f"{name} for {pts}" for name, pts in points)
    return text + (f": {sum(p for _, p in points)}" if len(points) > 1 else "")


def deal_steps(record: CribbageRecord, i: int, a: DealAnalysis) -> list[MovieStep]:
    """The movie of deal ``i``: dealt, discards, starter, each pegging play,
    scores after the pegging, the show (pone, dealer, crib), the game's end."""
    movie = _DealMovie(record, i, a)
    movie.deal_and_discards()
    movie.starter()
    movie.pegging()
    movie.after_pegging()
    movie.shows()
    movie.game_end()
    return movie.steps


class _DealMovie:
    """The steps of one deal's movie, made phase by phase: each phase adds its steps and moves the scores
    on (``back`` is the scores before the last change, for the board's "back" pegs)."""

    def __init__(self, record: CribbageRecord, i: int, a: DealAnalysis) -> None:
        self.d = d = record.deals[i]
        self.a = a
        self.name = record.player_name
        self.steps: list[MovieStep] = []
        self.base: dict[str, Any] = {"deal": i, "game": a.game, "dealer": d.dealer}
        self.scores = a.start
        self.back = a.start
        #: who reached 121 first, as the steps go
        self.winner: int | None = None
        self.held = [list(d.hands[0]), list(d.hands[1])]
        self.played: list[PegPlay] = []
        #: the hands shown from the pegging's end on, and the series left on the table
        self.kept = (tuple(d.hands[0]), tuple(d.hands[1]))
        self.last_pile: tuple[PegPlay, ...] = ()

    def add(self, kind: str, caption: str, details: Sequence[str] = (), **kw: Any) -> None:
        self.steps.append(
            MovieStep(
                index=len(self.steps),
                kind=kind,
                caption=caption,
                details=tuple(details),
                scores=self.scores,
                back=self.back,
                **self.base,
                **kw,
            )
        )

    def score(self, player: int, points: int) -> None:
        self.back, self.scores = self.scores, _add(self.scores, player, points)

    def scores_text(self) -> str:
        return f"scores {self.scores[0]}-{self.scores[1]}"

    def deal_and_discards(self) -> None:
        d, name = self.d, self.name
        dealt = (d.dealt(0), d.dealt(1))
        empty: dict[str, Any] = {"crib_shown": False, "starter": None, "pile": (), "played": (), "count": None}
        self.add(
            "deal",
            f"Game {self.a.game}, deal {self.base['deal'] + 1}: {name(d.dealer)} deals",
            [f"{name(p)}: {cards_text(dealt[p])}" for p in (0, 1)] + [self.scores_text()],
            hands=dealt,
            crib=(),
            **empty,
        )
        self.add(
            "discard",
            f"The discards go to {name(d.dealer)}'s crib",
            [f"{name(p)} throws {cards_text(d.discards[p])}, keeps {cards_text(d.hands[p])}" for p in (0, 1)],
            hands=d.hands,
            crib=d.crib,
            **empty,
        )

    def starter(self) -> None:
        d, name = self.d, self.name
        shown: dict[str, Any] = {
            "hands": d.hands,
            "crib": d.crib,
            "crib_shown": False,
            "starter": d.starter,
            "pile": (),
            "played": (),
            "count": None,
            "highlight": (d.starter,),
        }
        if not self.a.heels:
            self.add("starter", f"Starter {d.starter.symbol_text()}", (), **shown)
            return
        self.score(d.dealer, self.a.heels)
        details = [self.scores_text()]
        if self.scores[d.dealer] >= GAME_POINTS:
            self.winner = d.dealer
            details.append(f"{name(d.dealer)} reaches {GAME_POINTS}: the game ends here")
        self.add(
            "starter",
            f"Starter {d.starter.symbol_text()}: his heels, 2 for {name(d.dealer)}",
            details,
            scorer=d.dealer,
            points=2,
            **shown,
        )

    def pegging(self) -> None:
        d, name, held, played = self.d, self.name, self.held, self.played
        for ev in self.a.events:
            if ev.card in held[ev.player]:
                held[ev.player].remove(ev.card)
            played.append(PegPlay(ev.player, ev.card))
            if ev.total:
                self.score(ev.player, ev.total)
            caption = f"{name(ev.player)} plays {ev.card.symbol_text()}: {ev.count}"
            if ev.points:
                caption += f" \u2013 {_points_text(ev.points)}"
            details = [f"count {ev.count}"]
            opp = held[1 - ev.player]
            if ev.ends_series and ev.count != 31 and len(played) < 8:
                details.append("go: neither player can play; the count starts again")
            elif ev.ends_series and len(played) < 8:
                details.append("thirty-one: the count starts again")
            elif opp and all(ev.count + c.value > 31 for c in opp):
                details.append(f"{name(1 - ev.player)} says go; {name(ev.player)} plays on")
            details.append(self.scores_text())
            if max(self.scores) >= GAME_POINTS and self.winner is None:
                self.winner = 0 if self.scores[0] >= GAME_POINTS else 1
                details.append(f"{name(self.winner)} reaches {GAME_POINTS}: the game ends here")
            self.add(
                "peg",
                caption,
                details,
                hands=(tuple(held[0]), tuple(held[1])),
                crib=d.crib,
                crib_shown=False,
                starter=d.starter,
                pile=ev.series,
                played=tuple(played),
                count=ev.count,
                highlight=(ev.card,),
                scorer=ev.player if ev.total else None,
                points=ev.total,
                problem=ev.problem,
            )

    def after_pegging(self) -> None:
        """The scores after the pegging as recorded (the movie follows the record, and says where the
        rules differ)."""
        d, a, name = self.d, self.a, self.name
        recorded = (d.scores[0], d.scores[1])
        caption = f"After the pegging: {name(0)} {recorded[0]}, {name(1)} {recorded[1]}"
        details = [f"recorded {recorded[0]}-{recorded[1]}", f"by the rules {a.expected[0]}-{a.expected[1]}"]
        if recorded != self.scores:
            self.back = self.scores
        self.scores = recorded
        if a.ended_in_pegging:  # the cards never played stay in the hands, the last series on the table
            self.kept = (tuple(self.held[0]), tuple(self.held[1]))
            self.last_pile = a.events[-1].series if a.events and not a.events[-1].ends_series else ()
        problem = "; ".join(p for p in (a.score_problem, a.peg_problem) if p) or None
        self.add(
            "pegged",
            caption,
            details,
            hands=self.kept,
            crib=d.crib,
            crib_shown=False,
            starter=d.starter,
            pile=self.last_pile,
            played=tuple(self.played),
            count=None,
            problem=problem,
        )
        if a.ended_in_pegging:
            self.winner = next((p for p in (0, 1) if self.scores[p] >= GAME_POINTS), self.winner)

    def shows(self) -> None:
        d = self.d
        for player, what, hs in self.a.shows:
            cards = d.crib if what == "crib" else d.hands[player]
            if hs.total:
                self.score(player, hs.total)
            whose = f"{self.name(player)}'s {what}"
            self.add(
                "show",
                f"{whose}: {cards_text(cards)} + {d.starter.symbol_text()} = {hs.total}",
                [hs.summary()] + [item.text() for item in hs.items] + [self.scores_text()],
                hands=self.kept,
                crib=d.crib,
                crib_shown=what == "crib",
                starter=d.starter,
                pile=(),
                played=tuple(self.played),
                count=None,
                highlight=tuple(cards) + (d.starter,),
                scorer=player if hs.total else None,
                points=hs.total,
                items=hs.items,
            )

    def game_end(self) -> None:
        d, a, name, scores = self.d, self.a, self.name, self.scores
        if a.winner is None and not d.last:
            return
        win = a.winner if a.winner is not None else self.winner
        if win is not None:
            loser = 1 - win
            skunk = " (a double skunk)" if scores[loser] < 61 else " (a skunk)" if scores[loser] < 91 else ""
            caption = f"Game {a.game} over: {name(win)} wins {scores[win]}-{scores[loser]}{skunk}"
        else:
            caption = f"Game {a.game} ends unfinished at {scores[0]}-{scores[1]}"
        where = (
            "in the show"
            if not a.ended_in_pegging
            else "with his heels, at the cut"
            if a.heels and not d.pegging
            else "during the pegging"
        )
        self.add(
            "game",
            caption,
            [f"the game ended {where}" if win is not None else "nobody reached 121"],
            hands=self.kept,
            crib=d.crib,
            crib_shown=any(w == "crib" for _, w, _ in a.shows),
            starter=d.starter,
            pile=self.last_pile,
            played=tuple(self.played),
            count=None,
            winner=win,
        )
