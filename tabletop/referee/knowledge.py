"""Public knowledge per player and rank, derived from what happened at the table.

For each player and rank it keeps the least number of cards the player must hold (with why, to
say it back: "you received two sevens from Cho"), and whether the player is known to hold none
(they said "go fish" to that rank, or handed all of it over, and have drawn nothing since).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.cards import RANKS, Rank

__all__ = ["Knowledge"]

_INDEX = {rank: i for i, rank in enumerate(RANKS)}


@dataclass
class Knowledge:
    players: int
    least: list[list[int]] = field(default_factory=list)
    why: list[list[str]] = field(default_factory=list)
    none: list[list[bool]] = field(default_factory=list)
    none_why: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.least:
            self.least = [[0] * len(RANKS) for _ in range(self.players)]
            self.why = [[""] * len(RANKS) for _ in range(self.players)]
            self.none = [[False] * len(RANKS) for _ in range(self.players)]
            self.none_why = [[""] * len(RANKS) for _ in range(self.players)]

    def copy(self) -> "Knowledge":
        return Knowledge(
            self.players,
            [row[:] for row in self.least],
            [row[:] for row in self.why],
            [row[:] for row in self.none],
            [row[:] for row in self.none_why],
        )

    # ---- reading ----

    def holds_at_least(self, player: int, rank: Rank) -> int:
        return self.least[player][_INDEX[rank]]

    def reason(self, player: int, rank: Rank) -> str:
        return self.why[player][_INDEX[rank]]

    def holds_none(self, player: int, rank: Rank) -> bool:
        return self.none[player][_INDEX[rank]]

    def reason_none(self, player: int, rank: Rank) -> str:
        """Why ``player`` is known to hold no ``rank``: "you said you had no sevens"."""
        return self.none_why[player][_INDEX[rank]] or f"you said you had no {rank.plural}"

    # ---- learning ----

    def has_at_least(self, player: int, rank: Rank, count: int, why: str) -> None:
        i = _INDEX[rank]
        if count > self.least[player][i]:
            self.least[player][i] = count
            self.why[player][i] = why
        if count > 0:
            self.none[player][i] = False

    def gained(self, player: int, rank: Rank, count: int, why: str) -> None:
        i = _INDEX[rank]
        self.least[player][i] += count
        self.why[player][i] = why
        self.none[player][i] = False

    def has_none(self, player: int, rank: Rank, why: str = "") -> None:
        i = _INDEX[rank]
        self.least[player][i] = 0
        self.why[player][i] = ""
        self.none[player][i] = True
        self.none_why[player][i] = why

    def laid(self, player: int, rank: Rank, count: int) -> None:
        i = _INDEX[rank]
        self.least[player][i] = max(0, self.least[player][i] - count)

    def drew(self, player: int) -> None:
        """A player drew unseen cards: nothing they were known to lack is certain any more."""
        self.none[player] = [False] * len(RANKS)

    def emptied(self, player: int) -> None:
        """A player's hand is empty: they hold nothing."""
        self.least[player] = [0] * len(RANKS)
        self.why[player] = [""] * len(RANKS)
        self.none[player] = [True] * len(RANKS)
        self.none_why[player] = ["you ran out of cards"] * len(RANKS)

    def rank_closed(self, rank: Rank) -> None:
        """Every card of ``rank`` is in books: nobody holds one."""
        for player in range(self.players):
            self.has_none(player, rank, f"all the {rank.plural} are in books")
