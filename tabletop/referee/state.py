"""The public state of one game: what a fair referee at the table can know."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.cards import DECK_SIZE, RANKS, Card, Rank
from tabletop.referee.knowledge import Knowledge
from tabletop.rules import Rules

__all__ = ["Phase", "Exchange", "State"]


class Phase(enum.Enum):
    ASK = "ask"                # waiting for the current player's ask
    ANSWER = "answer"          # an ask is pending: yes (with a count) or go fish
    COUNT = "count"            # the target said yes without a count: how many?
    AFTER_HIT = "after_hit"    # cards moved to the asker; book calls may follow
    AFTER_MISS = "after_miss"  # the asker drew (or the stock was empty); lucky fish and book calls may follow
    OVER = "over"


@dataclass(frozen=True)
class Exchange:
    """One ask and what followed it."""

    asker: int
    target: int
    rank: Rank
    card: Card | None = None
    received: int = 0
    missed: bool = False
    drew: bool = False
    lucky: bool = False
    drew_book: bool = False


@dataclass
class State:
    players: tuple[str, ...]
    rules: Rules
    deal_size: int
    current: int
    stock: int
    hands: list[int]
    books: list[list[Rank]]
    out: list[bool]
    knowledge: Knowledge
    phase: Phase = Phase.ASK
    exchange: Exchange | None = None
    started: bool = False          # the first ask has been made (book calls before it are deal books)
    taker: int | None = None       # who took cards in the last settled exchange, until the next ask
    winners: tuple[int, ...] = ()
    last_asks: dict[int, Exchange] = field(default_factory=dict)

    @classmethod
    def deal(cls, players: tuple[str, ...], rules: Rules, first: int) -> "State":
        size = rules.deal_size(len(players))
        n = len(players)
        return cls(
            players=players, rules=rules, deal_size=size, current=first,
            stock=DECK_SIZE - n * size, hands=[size] * n, books=[[] for _ in range(n)],
            out=[False] * n, knowledge=Knowledge(n),
        )

    def copy(self) -> "State":
        return replace(
            self, hands=self.hands[:], books=[b[:] for b in self.books], out=self.out[:],
            knowledge=self.knowledge.copy(), last_asks=dict(self.last_asks),
        )

    # ---- derived ----

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def index(self, name: str) -> int:
        """The seat of ``name`` (case-insensitive); -1 if not playing."""
        lowered = name.lower()
        for i, player in enumerate(self.players):
            if player.lower() == lowered:
                return i
        return -1

    def times_booked(self, rank: Rank) -> int:
        return sum(book.count(rank) for book in self.books)

    def closed(self, rank: Rank) -> bool:
        """Every card of ``rank`` is in books."""
        return self.times_booked(rank) >= self.rules.books_per_rank

    def booked_cards(self) -> int:
        return self.rules.book_size * sum(len(b) for b in self.books)

    def cards_accounted(self) -> int:
        """Hands + stock + cards in books: always 52."""
        return sum(self.hands) + self.stock + self.booked_cards()

    def can_be_asked(self, seat: int) -> bool:
        return not self.out[seat] and self.hands[seat] > 0

    def in_play(self) -> list[int]:
        return [i for i in range(len(self.players)) if not self.out[i]]

    def open_ranks(self) -> list[Rank]:
        return [rank for rank in RANKS if not self.closed(rank)]

    def scores(self) -> list[int]:
        return [len(b) for b in self.books]

    def public(self) -> dict[str, Any]:
        """The public state, exactly as PRODUCT.md section 5."""
        return {
            "players": list(self.players),
            "current": None if self.over else self.players[self.current],
            "stock": self.stock,
            "hands": {p: self.hands[i] for i, p in enumerate(self.players)},
            "books": {p: [r.symbol for r in self.books[i]] for i, p in enumerate(self.players)},
            "out": [p for i, p in enumerate(self.players) if self.out[i]],
            "over": self.over,
            "winners": [self.players[i] for i in self.winners],
            "rules": self.rules.to_json(),
        }
